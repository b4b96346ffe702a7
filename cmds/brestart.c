/*
 * brestart: restart a checkpointed job from checkpoint_dir/job_ID as a
 * new job with a new ID (mbatchd renames the directory for it).  The
 * options are bsub's, those LSF's brestart takes; they win over the old
 * job's.
 *
 *	brestart [bsub_options] [-f] checkpoint_dir [job_ID | "job_ID[index]"]
 *
 * Without job_ID, the last part of checkpoint_dir is taken for it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cmd-submit.h"
#include "lsf.h"
#include "timespec.h"

static void NORETURN
usage_exit(int code)
{
	fprintf(stderr,
	    "Usage: brestart [-h] [-V] [-B] [-f] [-N] [-x]\n"
	    "                [-b begin_time] [-C core_limit] "
	    "[-c [hour:]minute]\n"
	    "                [-D data_limit] [-E \"pre_exec_command\"] "
	    "[-F file_limit]\n"
	    "                [-G user_group] [-M mem_limit] "
	    "[-m \"host_name ...\"]\n"
	    "                [-q \"queue_name ...\"] [-R \"res_req\"] "
	    "[-S stack_limit]\n"
	    "                [-t term_time] [-W [hour:]minute] "
	    "[-w 'dependency_expression']\n"
	    "                checkpoint_dir [job_ID | \"job_ID[index]\"]\n");
	exit(code);
}

static const char *
unit(void)
{
	const struct lsf_config *c = client_config(CONF_SHARED);

	return c->lsf.unit_for_limits ? c->lsf.unit_for_limits : "KB";
}

/* bsub options that LSF's brestart does not take. */
static bool
only_bsubs(const struct bsub_opts *g)
{
	return g->name || g->nmin || g->out || g->err || g->cwd ||
	    g->outdir || g->post || g->sprio || g->rerun || g->hold ||
	    g->project || g->env || g->block || g->mail || g->in ||
	    g->shell || g->app || g->chkpnt_dir ||
	    g->rlim[LSF_RLIMIT_SWAP] || g->rlim[LSF_RLIMIT_PROCESS] ||
	    g->yaml || g->json || g->pack;
}

int
main(int argc, char **argv)
{
	struct bsub_opts g;
	struct cmdopt_state st;
	struct restart_req rr;
	struct submit_reply rep;
	struct job_id *ids = NULL;
	struct wbuf w;
	char **av, **rest, cwd[4096], *cause = NULL, *dir, *slash;
	const char *id;
	uint32_t nids = 0;
	int ac = 0, nrest, rc;

	progname = "brestart";
	memset(&rr, 0, sizeof(rr));
	/* -f is brestart's own: taken out before bsub's parse. */
	av = xcalloc((size_t)argc + 1, sizeof(*av));
	for (int i = 0; i < argc; i++) {
		if (i > 0 && strcmp(argv[i], "-f") == 0) {
			rr.flags |= RESTART_F_FORCE;
			continue;
		}
		av[ac++] = argv[i];
	}
	bsub_opts_init(&g);
	rc = bsub_opts_parse(&g, ac, av, unit, &st, &cause);
	switch (rc) {
	case BSUB_OPTS_OK:
		break;
	case BSUB_OPTS_HELP:
		usage_exit(0);
	case BSUB_OPTS_VERSION:
		print_version();
		exit(0);
	case BSUB_OPTS_BAD_VALUE:
		not_submitted("%s", cause);
	default:
		fprintf(stderr, "brestart: bad option %s\n", cause);
		usage_exit(255);
	}
	if (only_bsubs(&g)) {
		fprintf(stderr, "brestart: an option of bsub that brestart "
		    "does not take\n");
		usage_exit(255);
	}
	rest = cmdopt_rest(&st, &nrest);
	if (nrest < 1 || nrest > 2)
		usage_exit(255);
	if (getcwd(cwd, sizeof(cwd)) == NULL)
		strcpy(cwd, "/");
	dir = rest[0][0] == '/' ? xstrdup(rest[0]) :
	    xasprintf("%s/%s", cwd, rest[0]);
	while (strlen(dir) > 1 && dir[strlen(dir) - 1] == '/')
		dir[strlen(dir) - 1] = '\0';
	if (nrest == 2)
		id = rest[1];
	else {
		/* checkpoint_dir/job_ID given as one. */
		if ((slash = strrchr(dir, '/')) == NULL || slash == dir)
			usage_exit(255);
		*slash = '\0';
		id = slash + 1;
	}
	if (parse_job_id(id, &ids, &nids) < 0 || nids != 1 ||
	    ids[0].jobid <= 0) {
		fprintf(stderr, "%s: Illegal job ID.\n", id);
		exit(255);
	}
	rr.dir = dir;
	rr.jobid = ids[0].jobid;
	rr.idx = ids[0].idx;
	submit_req_init(&rr.req);
	if (make_request(&g, cwd, &rr.req, &cause) < 0)
		not_submitted("%s", cause);
	wbuf_init(&w);
	restart_req_frame(&w, MSG_JOB_RESTART, 1, &rr);
	(void)submit_call("brestart", &w, &rep);
	wbuf_release(&w);
	printf("Job <%lld> is submitted to queue <%s>.\n",
	    (long long)rep.jobid, rep.queue);
	return 0;
}
