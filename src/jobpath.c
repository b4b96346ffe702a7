/* bsub -outdir and -cwd patterns (jobpath.h). */
#include <string.h>

#include "jobpath.h"
#include "util.h"

char *
jobpath_expand(const char *p, const struct jobpath_vars *v, bool *had)
{
	struct strbuf sb = STRBUF_INIT;
	bool any = false;

	for (; *p; p++) {
		const char *s = NULL;
		size_t skip = 1;

		if (*p != '%') {
			sb_addc(&sb, *p);
			continue;
		}
		/* The two-letter patterns first: %JG is not %J then G. */
		if (strncmp(p, "%EJ", 3) == 0 || strncmp(p, "%EI", 3) == 0 ||
		    strncmp(p, "%JG", 3) == 0)
			skip = 2;
		if (strncmp(p, "%JG", 3) == 0)
			s = "";
		else if (strncmp(p, "%EJ", 3) == 0 || p[1] == 'J')
			sb_addf(&sb, "%lld", (long long)v->jobid);
		else if (strncmp(p, "%EI", 3) == 0 || p[1] == 'I')
			sb_addf(&sb, "%d", v->idx > 0 ? v->idx : 0);
		else if (p[1] == 'U')
			s = v->user;
		else if (p[1] == 'G')
			s = v->group;
		else if (p[1] == 'P')
			s = v->project;
		else if (p[1] == 'H')
			s = v->host;
		else {
			sb_addc(&sb, *p);
			continue;
		}
		if (s != NULL)
			sb_adds(&sb, s);
		any = true;
		p += skip;
	}
	if (had != NULL)
		*had = any;
	sb_add(&sb, "", 0);
	return sb_detach(&sb);
}
