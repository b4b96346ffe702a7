/*
 * Checkpointing's words (include/chkpnt.h).  The period is LSF's, in
 * minutes; LSF's init= (the first checkpoint's own period) is refused by
 * name rather than taken for something else.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "chkpnt.h"
#include "util.h"

bool
chkpnt_method_ok(const char *m)
{
	if (*m == '\0')
		return false;
	/* It names a file of LSF_SERVERDIR: echkpnt.<method>. */
	for (; *m; m++)
		if (*m == '/' || *m == ' ' || *m == '\t')
			return false;
	return true;
}

int
chkpnt_spec_parse(const char *s, bool with_method, struct chkpnt_spec *c,
    char **cause)
{
	struct strv w = STRV_INIT;
	const char *p = s;
	bool have_period = false;

	memset(c, 0, sizeof(*c));
	while (*p) {
		size_t n;

		p += strspn(p, " \t");
		if ((n = strcspn(p, " \t")) == 0)
			break;
		strv_push_nodup(&w, xstrndup(p, n));
		p += n;
	}
	if (w.n == 0) {
		*cause = xstrdup("no checkpoint directory");
		goto bad;
	}
	c->dir = xstrdup(w.v[0]);
	for (size_t i = 1; i < w.n; i++) {
		const char *t = w.v[i];
		char *end;
		long v;

		if (strncmp(t, "method=", 7) == 0 && with_method) {
			if (c->method != NULL || !chkpnt_method_ok(t + 7)) {
				*cause = xasprintf("%s: bad checkpoint method",
				    t);
				goto bad;
			}
			c->method = xstrdup(t + 7);
			continue;
		}
		if (strncmp(t, "method=", 7) == 0) {
			*cause = xasprintf("%s: a method is given with bsub "
			    "-k, not here", t);
			goto bad;
		}
		if (strncmp(t, "init=", 5) == 0) {
			*cause = xasprintf("%s: an initial checkpoint period "
			    "is not supported", t);
			goto bad;
		}
		errno = 0;
		v = strtol(t, &end, 10);
		if (have_period || errno || *end || end == t || v <= 0 ||
		    v > 1000000) {
			*cause = xasprintf("%s: the checkpoint period must be "
			    "a positive number of minutes", t);
			goto bad;
		}
		c->period = v;
		have_period = true;
	}
	strv_release(&w);
	return 0;
bad:
	strv_release(&w);
	chkpnt_spec_release(c);
	return -1;
}

void
chkpnt_spec_release(struct chkpnt_spec *c)
{
	free(c->dir);
	free(c->method);
	memset(c, 0, sizeof(*c));
}
