/*
 * busers: users' and user groups' job slot limits (lsb.users MAX_JOBS,
 * JL/P) and the slots of their unfinished jobs, as mbatchd counts them,
 * in LSF's table or, with -o, the fields asked for (cmd-fields.c).
 * Without a name, the caller; "all" is every user with jobs or limits
 * and every user group.
 */
#include <math.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd-display.h"
#include "cmd-fields.h"
#include "cmdopt.h"

enum { O_W = 1, O_O, O_JSON, O_HELP, O_VERSION };

static const struct cmdopt opts[] = {
	{ "w", false, O_W },
	{ "o", true, O_O },
	{ "json", false, O_JSON },
	{ "h", false, O_HELP },
	{ "V", false, O_VERSION },
	/* LSF's options this version does not do: refused by name. */
	CMDOPT_UNSUP("alloc", false),
	{ NULL, false, 0 }
};

static void NORETURN
usage(int rc)
{
	fprintf(stderr, "Usage: busers [-h] [-V] [-w | -o \"field ... "
	    "[delimiter='c']\" [-json]]\n"
	    "              [user_name ... | user_group ... | all]\n");
	exit(rc);
}

static void
int_text(int v, char *buf, size_t len)
{
	if (v < 0)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%d", v);
}

/* JL/P is a float in lsb.users: "2", or "1.5" with a fraction. */
static void
jlp_text(float v, char *buf, size_t len)
{
	if (v < 0)
		snprintf(buf, len, "-");
	else if (v == floorf(v))
		snprintf(buf, len, "%.0f", (double)v);
	else
		snprintf(buf, len, "%.1f", (double)v);
}

/* Column ends after the name, LSF's layout; -w adds the pending job
 * thresholds. */
static const int ends[] = { 24, 31, 38, 45, 52, 59, 66, 73, 80, 87, 94 };
static const char *const heads[] = { "JL/P", "MAX", "NJOBS", "PEND",
	"RUN", "SSUSP", "USUSP", "RSV", "MPEND", "PJOBS", "MPJOBS" };

static void
table(const struct user_list *ul, bool wide)
{
	struct strbuf sb = STRBUF_INIT;
	size_t ncol = wide ? ARRAY_SIZE(heads) : 8;
	char buf[11][32], name[64];
	int shift = 0;

	/* -w never cuts a name; the columns move right to make room. */
	for (uint32_t i = 0; wide && i < ul->n; i++)
		if ((int)strlen(ul->v[i].name) - 19 > shift)
			shift = (int)strlen(ul->v[i].name) - 19;
	col_left(&sb, 1, "USER/GROUP");
	for (size_t k = 0; k < ncol; k++)
		col_right(&sb, ends[k] + shift, heads[k]);
	col_flush(&sb, stdout);
	for (uint32_t i = 0; i < ul->n; i++) {
		const struct user_info *u = &ul->v[i];

		snprintf(name, sizeof(name), "%.*s", wide ? 63 : 19, u->name);
		col_left(&sb, 1, wide ? u->name : name);
		jlp_text(u->jl_p, buf[0], sizeof(buf[0]));
		int_text(u->max_jobs, buf[1], sizeof(buf[1]));
		int_text(u->njobs, buf[2], sizeof(buf[2]));
		int_text(u->npend, buf[3], sizeof(buf[3]));
		int_text(u->nrun, buf[4], sizeof(buf[4]));
		int_text(u->nssusp, buf[5], sizeof(buf[5]));
		int_text(u->nususp, buf[6], sizeof(buf[6]));
		int_text(u->nrsv, buf[7], sizeof(buf[7]));
		int_text(u->max_pend_slots, buf[8], sizeof(buf[8]));
		int_text(u->npjobs, buf[9], sizeof(buf[9]));
		int_text(u->max_pend_jobs, buf[10], sizeof(buf[10]));
		for (size_t k = 0; k < ncol; k++)
			col_right(&sb, ends[k] + shift, buf[k]);
		col_flush(&sb, stdout);
	}
	sb_release(&sb);
}

/* busers -o: LSF's field names (LSB_BUSERS_FORMAT). */
enum uf { UF_USER, UF_JLP, UF_MAX, UF_NSTART, UF_PEND, UF_RUN, UF_SSUSP,
	UF_USUSP, UF_RSV, UF_NJOBS, UF_PJOBS, UF_MPEND, UF_MPJOBS,
	UF_PRIORITY };

static const struct fmt_field fields[] = {
	{ "user", NULL, 19, UF_USER },
	{ "jl/p", NULL, 6, UF_JLP },
	{ "max", NULL, 6, UF_MAX },
	{ "nstart", NULL, 6, UF_NSTART },
	{ "pend", NULL, 6, UF_PEND },
	{ "run", NULL, 6, UF_RUN },
	{ "ssusp", NULL, 6, UF_SSUSP },
	{ "ususp", NULL, 6, UF_USUSP },
	{ "rsv", NULL, 6, UF_RSV },
	{ "njobs", NULL, 6, UF_NJOBS },
	{ "pjobs", NULL, 6, UF_PJOBS },
	{ "mpend", NULL, 6, UF_MPEND },
	{ "mpjobs", NULL, 6, UF_MPJOBS },
	{ "priority", NULL, 8, UF_PRIORITY },
};

static void
value(const void *rec, int id, char *buf, size_t len)
{
	const struct user_info *u = rec;

	switch ((enum uf)id) {
	case UF_USER: snprintf(buf, len, "%s", u->name); break;
	case UF_JLP: jlp_text(u->jl_p, buf, len); break;
	case UF_MAX: int_text(u->max_jobs, buf, len); break;
	/* Tasks being started: none stays in that state here. */
	case UF_NSTART: int_text(0, buf, len); break;
	case UF_PEND: int_text(u->npend, buf, len); break;
	case UF_RUN: int_text(u->nrun, buf, len); break;
	case UF_SSUSP: int_text(u->nssusp, buf, len); break;
	case UF_USUSP: int_text(u->nususp, buf, len); break;
	case UF_RSV: int_text(u->nrsv, buf, len); break;
	case UF_NJOBS: int_text(u->njobs, buf, len); break;
	case UF_PJOBS: int_text(u->npjobs, buf, len); break;
	case UF_MPEND: int_text(u->max_pend_slots, buf, len); break;
	case UF_MPJOBS: int_text(u->max_pend_jobs, buf, len); break;
	/* The fairshare priority: no fairshare here. */
	case UF_PRIORITY: int_text(-1, buf, len); break;
	}
}

int
main(int argc, char **argv)
{
	struct cmdopt_state st;
	struct strv names = STRV_INIT;
	struct user_list ul;
	struct reply rp;
	const char *val, *format = NULL;
	bool wide = false, json = false;
	char *bad;
	char **rest;
	int id, nrest;

	progname = "busers";
	cmdopt_init(&st, argc, argv, true);
	while ((id = cmdopt_next(&st, opts, &val)) != 0) {
		switch (id) {
		case O_W: wide = true; break;
		case O_O: format = val; break;
		case O_JSON: json = true; break;
		case O_HELP: usage(0);
		case O_VERSION: disp_version();
		default: usage(255);
		}
	}
	rest = cmdopt_rest(&st, &nrest);
	for (int i = 0; i < nrest; i++)
		strv_push(&names, rest[i]);
	if (format && wide)
		usage(255);
	if (json && format == NULL) {
		fprintf(stderr, "busers: -json must be used with -o\n");
		exit(255);
	}
	if (format == NULL && !wide &&
	    (format = getenv("LSB_BUSERS_FORMAT")) != NULL && *format == '\0')
		format = NULL;
	if (names.n == 0) {
		struct passwd *pw = getpwuid(getuid());

		if (pw == NULL) {
			fprintf(stderr, "busers: cannot find the name of "
			    "user ID %d\n", (int)getuid());
			exit(255);
		}
		strv_push(&names, pw->pw_name);
	}

	disp_mbd_query(MSG_USER_QUERY, &names, MSG_USER_LIST, &rp);
	memset(&ul, 0, sizeof(ul));
	if (!user_list_unpack(&rp.r, &ul) || rbuf_end(&rp.r) < 0)
		disp_bad_reply("mbatchd");
	if (ul.n == 0) {
		fprintf(stderr, "No user/group found\n");
		exit(255);
	}
	if (format) {
		const struct fmt_set set = { "busers", "USERS", fields,
		    ARRAY_SIZE(fields), value };

		if (fmt_print(&set, ul.v, sizeof(*ul.v), ul.n, format, json,
		    false, &bad) < 0) {
			fprintf(stderr, "%s: Illegal field name.\n", bad);
			exit(255);
		}
	} else
		table(&ul, wide);
	user_list_release(&ul);
	reply_release(&rp);
	strv_release(&names);
	cmdopt_release(&st);
	return 0;
}
