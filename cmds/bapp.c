/*
 * bapp: the application profiles of lsb.applications, with the slots of
 * their unfinished jobs as mbatchd counts them.  The table, or with -l
 * each profile's description, statistics and parameters.
 *
 *	bapp [-h] [-V] [-l | -w] [application_profile ...]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cmd-display.h"
#include "cmd-qfields.h"
#include "cmdopt.h"

enum { O_L = 1, O_W, O_HELP, O_VERSION };

static const struct cmdopt opts[] = {
	{ "l", false, O_L },
	{ "w", false, O_W },
	{ "h", false, O_HELP },
	{ "V", false, O_VERSION },
	/* LSF's options this version does not do: refused by name. */
	CMDOPT_UNSUP("alloc", false),
	{ NULL, false, 0 }
};

static void NORETURN
usage(int rc)
{
	fprintf(stderr, "Usage: bapp [-h] [-V] [-l | -w] "
	    "[application_profile ...]\n");
	exit(rc);
}

static void
table(const struct app_list *al, bool wide)
{
	printf("APPLICATION_NAME NJOBS     PEND      RUN     SUSP\n");
	for (uint32_t i = 0; i < al->n; i++) {
		const struct app_info *a = &al->v[i];

		/* -w never cuts a name; the table cuts it at 16. */
		printf(wide ? "%-16s %5d %8d %8d %8d\n" :
		    "%-16.16s %5d %8d %8d %8d\n", a->name, a->njobs,
		    a->npend, a->nrun, a->nssusp + a->nususp);
	}
}

/* A limit as bqueues -l shows one: " NAME" and its value below. */
static void
limit(const char *name, int64_t v, bool mem)
{
	char buf[64];

	if (v < 0)
		return;
	if (mem)
		qfmt_mem(v, buf, sizeof(buf));
	else
		snprintf(buf, sizeof(buf), "%.1f min", (double)v);
	printf("\n %s\n %s\n", name, buf);
}

static const char *
extra(const struct app_info *a, const char *key)
{
	for (size_t i = 0; i < a->extra.keys.n; i++)
		if (strcasecmp(a->extra.keys.v[i], key) == 0)
			return a->extra.vals.v[i];
	return NULL;
}

static void
long_app(const struct app_info *a)
{
	/* Profile keys with no field here, shown as configured. */
	static const char *const tail[] = {
		"JOB_STARTER", "PRE_EXEC", "POST_EXEC", "REQUEUE_EXIT_VALUES",
		"RES_REQ", "CHKPNT_DIR", "CHKPNT_PERIOD", "PEND_TIME_LIMIT",
		"ELIGIBLE_PEND_TIME_LIMIT",
	};
	const char *v;

	printf("APPLICATION NAME: %s\n", a->name);
	printf(" -- %s\n", a->description && *a->description ?
	    a->description : "No description provided.");
	printf("\nSTATISTICS:\n");
	printf("   NJOBS     PEND      RUN    SSUSP    USUSP      RSV \n");
	printf("%8d %8d %8d %8d %8d %8d\n", a->njobs, a->npend, a->nrun,
	    a->nssusp, a->nususp, a->nrsv);
	printf("\nPARAMETERS:\n");
	if (a->max_job_preempt > 0)
		printf("\nMAX_JOB_PREEMPT: %d\n", a->max_job_preempt);
	if (a->rerunnable >= 0)
		printf("\nRERUNNABLE: %s\n", a->rerunnable ? "yes" : "no");
	limit("CPULIMIT", a->cpulimit, false);
	limit("RUNLIMIT", a->runlimit, false);
	limit("MEMLIMIT", a->memlimit, true);
	if (a->ctl_suspend || a->ctl_resume || a->ctl_terminate) {
		printf("\nJOB_CONTROLS:\n");
		if (a->ctl_suspend)
			printf("    SUSPEND:    [%s]\n", a->ctl_suspend);
		if (a->ctl_resume)
			printf("    RESUME:     [%s]\n", a->ctl_resume);
		if (a->ctl_terminate)
			printf("    TERMINATE:  [%s]\n", a->ctl_terminate);
	}
	for (size_t i = 0; i < ARRAY_SIZE(tail); i++)
		if ((v = extra(a, tail[i])) != NULL)
			printf("\n%s:  %s\n", tail[i], v);
	printf("\n");
}

int
main(int argc, char **argv)
{
	struct cmdopt_state st;
	struct strv names = STRV_INIT;
	struct app_list al;
	struct reply rp;
	const char *val;
	bool longf = false, wide = false;
	char **rest;
	int id, nrest, rc = 0;

	progname = "bapp";
	cmdopt_init(&st, argc, argv, true);
	while ((id = cmdopt_next(&st, opts, &val)) != 0) {
		switch (id) {
		case O_L: longf = true; break;
		case O_W: wide = true; break;
		case O_HELP: usage(0);
		case O_VERSION: disp_version();
		default: usage(255);
		}
	}
	if (longf && wide)
		usage(255);
	rest = cmdopt_rest(&st, &nrest);
	for (int i = 0; i < nrest; i++)
		strv_push(&names, rest[i]);

	disp_mbd_query(MSG_APP_QUERY, &names, MSG_APP_LIST, &rp);
	memset(&al, 0, sizeof(al));
	if (!app_list_unpack(&rp.r, &al) || rbuf_end(&rp.r) < 0)
		disp_bad_reply("mbatchd");
	/* The names mbatchd does not know, as bsub -app says it. */
	for (size_t i = 0; i < names.n; i++) {
		bool found = false;

		for (uint32_t k = 0; k < al.n && !found; k++)
			found = strcmp(al.v[k].name, names.v[i]) == 0;
		if (!found) {
			fprintf(stderr, "%s: %s\n", names.v[i],
			    lsb_errmsg(LSBE_BAD_APP));
			rc = 255;
		}
	}
	if (al.n == 0) {
		if (names.n == 0)
			fprintf(stderr, "No application profile found\n");
		exit(255);
	}
	if (longf)
		for (uint32_t i = 0; i < al.n; i++)
			long_app(&al.v[i]);
	else
		table(&al, wide);
	app_list_release(&al);
	reply_release(&rp);
	strv_release(&names);
	cmdopt_release(&st);
	return rc;
}
