/* lsb.params: the one Parameters section of mbatchd settings. */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "conf-lex.h"

#define INT_MAXID	2147483646L

static const struct int_param {
	const char	*key;
	size_t		 off;
	long		 min;
	long		 max;
} int_params[] = {
	{ "MBD_SLEEP_TIME", offsetof(struct lsb_params, mbd_sleep_time),
	    1, 86400 },
	{ "SBD_SLEEP_TIME", offsetof(struct lsb_params, sbd_sleep_time),
	    1, 86400 },
	{ "JOB_ACCEPT_INTERVAL",
	    offsetof(struct lsb_params, job_accept_interval), 0, 86400 },
	{ "CLEAN_PERIOD", offsetof(struct lsb_params, clean_period),
	    0, INT_MAXID },
	{ "MAX_JOB_ARRAY_SIZE",
	    offsetof(struct lsb_params, max_job_array_size), 1, INT_MAXID },
	{ "MAX_JOBID", offsetof(struct lsb_params, max_jobid),
	    999999, INT_MAXID },
	{ "JOB_TERMINATE_INTERVAL",
	    offsetof(struct lsb_params, job_terminate_interval), 0, 86400 },
	{ "MAX_SBD_FAIL", offsetof(struct lsb_params, max_sbd_fail),
	    1, 1000000 },
	{ "MAX_SBD_CONNS", offsetof(struct lsb_params, max_sbd_conns),
	    1, 1048576 },
	{ "MAX_JOB_NUM", offsetof(struct lsb_params, max_job_num),
	    1, INT_MAXID },
	{ "PG_SUSP_IT", offsetof(struct lsb_params, pg_susp_it),
	    0, 86400 * 366 },
	{ "MAX_USER_PRIORITY",
	    offsetof(struct lsb_params, max_user_priority), 1, INT_MAXID },
	{ "MAX_PEND_JOBS", offsetof(struct lsb_params, max_pend_jobs),
	    0, INT_MAXID },
	{ "SUB_TRY_INTERVAL", offsetof(struct lsb_params, sub_try_interval),
	    0, 86400 },
	{ "MAX_PREEXEC_RETRY",
	    offsetof(struct lsb_params, max_preexec_retry), 1, INT_MAXID },
	{ "LOCAL_MAX_PREEXEC_RETRY",
	    offsetof(struct lsb_params, local_preexec_retry), 1, INT_MAXID },
	{ "JOB_DEP_LAST_SUB",
	    offsetof(struct lsb_params, job_dep_last_sub), 0, 1 },
	/* LSF: 0 < MAX_JOB_PREEMPT < INFINIT_INT. */
	{ "MAX_JOB_PREEMPT",
	    offsetof(struct lsb_params, max_job_preempt), 1, INT_MAXID },
	/* LSF: 0 < MAX_JOB_REQUEUE < INFINIT_INT. */
	{ "MAX_JOB_REQUEUE",
	    offsetof(struct lsb_params, max_job_requeue), 1, INT_MAXID },
	{ "GLOBAL_EXIT_RATE",
	    offsetof(struct lsb_params, global_exit_rate), 0, INT_MAXID },
	{ "JOB_EXIT_RATE_DURATION",
	    offsetof(struct lsb_params, job_exit_rate_duration), 1, 525600 },
	{ "EADMIN_TRIGGER_DURATION",
	    offsetof(struct lsb_params, eadmin_trigger_duration), 1, 525600 },
	{ "DETECT_IDLE_JOB_AFTER",
	    offsetof(struct lsb_params, detect_idle_job_after), 0, 525600 },
};

/*
 * The warn list: LSF parameters this version reads and does not act on.
 * Kept in keys/vals (bparams -a), each value checked against its LSF
 * type (conf-keys.c), each warned about; man/lsb.params.5 lists them.
 * Implementing one: delete its line, handle it in set_param.
 */
static const char *const quiet_params[] = {
	"PREEMPTABLE_RESOURCES",
	"ENABLE_EVENT_STREAM",
	"MAX_EVENT_STREAM_SIZE",
	"MAX_EVENT_STREAM_FILE_NUMBER",
	"EVENT_UPDATE_INTERVAL",
	"COMMITTED_RUN_TIME_FACTOR",
	"JOB_PRIORITY_OVER_TIME",
	"RESOURCE_RESERVE_PER_TASK",
	"MIN_SWITCH_PERIOD",
	"ABS_RUNLIMIT",
	"LSB_SYNC_HOST_STAT_LIM",
	"DEFAULT_BWAIT_TIMEOUT",
	"EVALUATE_WAIT_CONDITION_TIMEOUT",
	"REMOTE_MAX_PREEXEC_RETRY",
	"MAX_CONCURRENT_QUERY",
	"PARALLEL_SCHED_BY_SLOT",
	"DEFAULT_HOST_SPEC",
	"MAX_ACCT_ARCHIVE_FILE",
	"ACCT_ARCHIVE_AGE",
	"ACCT_ARCHIVE_SIZE",
	"ACCT_ARCHIVE_TIME",
	"MAX_INFO_DIRS",
	"SHARED_RESOURCE_UPDATE_FACTOR",
	"CONDENSE_PENDING_REASONS",
	"MAX_PEND_SLOTS",
	"JOB_SPOOL_DIR",
	"JOB_POSITION_CONTROL_BY_ADMIN",
	"JOB_INCLUDE_POSTPROC",
	"JOB_POSTPROC_TIMEOUT",
	"MAX_SCHED_STAGE",
	"ENABLE_USER_RESUME",
	"MBD_REFRESH_TIME",
	"MBD_QUERY_CPUS",
	"LSB_MAX_PROBE_SBD",
	"NO_PREEMPT_RUN_TIME",
	"NO_PREEMPT_FINISH_TIME",
	"MAX_TOTAL_TIME_PREEMPT",
	"PREEMPT_JOBTYPE",
	"ORPHAN_JOB_TERM_GRACE_PERIOD",
	"MAX_JOB_MSG_NUM",
	"JOB_ATTA_DIR",
	"FAIRSHARE_JOB_COUNT",
	"CHUNK_JOB_DURATION",
	"JOB_GROUP_CLEAN",
	"DEFAULT_JOBGROUP",
	"DEFAULT_USER_GROUP",
	"ENFORCE_ONE_UG_LIMITS",
	"STRICT_UG_CONTROL",
	"SECURE_INFODIR_USER_ACCESS",
	"SECURE_JOB_INFO_LEVEL",
	"JOB_RUNLIMIT_RATIO",
	"JOB_SWITCH2_EVENT",
	"PEND_REASON_UPDATE_INTERVAL",
	"SYSTEM_MAPPING_ACCOUNT",
	"DISABLE_UACCT_MAP",
	"NEWJOB_REFRESH",
	"EXIT_RATE_TYPE",
	"REMOVE_HUNG_JOBS_FOR",
	"ALLOW_EVENT_TYPE",
	"RELAX_JOB_DISPATCH_ORDER",
	"ESTIMATED_RUNTIME",
	"SLA_TIMER",
	"JOB_ARRAY_EVENTS_COMBINE",
	"EGROUP_UPDATE_INTERVAL",
	"MC_PENDING_REASON_UPDATE_INTERVAL",
	"TRACK_ELIGIBLE_PENDINFO",
	"PREEMPT_DELAY",
	"USE_SUSP_SLOTS",
	NULL
};

const char *const *
lsb_params_warn_keys(void)
{
	return quiet_params;
}

void
lsb_params_init(struct lsb_params *p)
{
	memset(p, 0, sizeof(*p));
	strv_init(&p->keys);
	strv_init(&p->vals);
	strv_init(&p->default_queue);
	p->default_project = xstrdup("default");
	p->mbd_sleep_time = 10;
	p->sbd_sleep_time = 30;	/* LSF's; its template sets 7 */
	p->job_accept_interval = 1;
	p->job_scheduling_interval = 1;
	p->clean_period = 3600;
	p->max_job_array_size = 1000;
	p->max_jobid = 999999;
	p->job_terminate_interval = 10;
	p->max_sbd_fail = 3;
	p->pend_time_limit = p->eligible_pend_time_limit = -1;
	p->max_job_num = 1000;
	p->pg_susp_it = 180;
	p->max_user_priority = -1;
	p->max_pend_jobs = -1;
	p->sub_try_interval = 60;
	p->max_preexec_retry = 5;
	p->local_preexec_retry = -1;
	p->preexec_retry_action = PREEXEC_ACT_SUSPEND;
	p->max_job_preempt = -1;
	p->max_job_requeue = -1;
	p->global_exit_rate = -1;
	p->job_exit_rate_duration = 5;
	p->eadmin_trigger_duration = 1;
	p->detect_idle_job_after = 20;
	fs_factors_default(&p->fs_factors);
}

void
lsb_params_release(struct lsb_params *p)
{
	free(p->path);
	strv_release(&p->keys);
	strv_release(&p->vals);
	strv_release(&p->default_queue);
	free(p->default_project);
	free(p->default_application);
	memset(p, 0, sizeof(*p));
}

/*
 * LSF 10 writes "min[ms] [max]": the shortest gap between scheduling
 * sessions, possibly in milliseconds.  We schedule in whole seconds, so a
 * millisecond value is rounded up; the maximum is checked and dropped.
 */
static int
sched_interval(const char *val, int *out)
{
	struct strv w = STRV_INIT;
	int v, max, rc = -1;
	size_t n;

	strv_split_ws(&w, val);
	if (w.n < 1 || w.n > 2)
		goto out;
	if (w.n == 2 && conf_int(w.v[1], 0, 86400, &max) < 0)
		goto out;
	n = strlen(w.v[0]);
	if (n > 2 && strcasecmp(w.v[0] + n - 2, "ms") == 0) {
		w.v[0][n - 2] = '\0';
		if (conf_int(w.v[0], 0, 86400000, &v) < 0)
			goto out;
		v = (v + 999) / 1000;
	} else if (conf_int(w.v[0], 0, 86400, &v) < 0) {
		goto out;
	}
	*out = v;
	rc = 0;
out:
	strv_release(&w);
	return rc;
}

static void
set_param(struct lsb_params *p, const struct conf_kv *e, int *dq_line,
    struct conf_diag *d)
{
	const char *why;

	if (strcasecmp(e->key, "DEFAULT_QUEUE") == 0) {
		strv_release(&p->default_queue);
		strv_split_ws(&p->default_queue, e->val);
		*dq_line = e->line;
		return;
	}
	if (strcasecmp(e->key, "DEFAULT_PROJECT") == 0) {
		if (!conf_blank(e->val)) {
			free(p->default_project);
			p->default_project = xstrdup(e->val);
		}
		return;
	}
	/* Checked once lsb.applications is read (conf.c). */
	if (strcasecmp(e->key, "DEFAULT_APPLICATION") == 0) {
		free(p->default_application);
		p->default_application = NULL;
		if (!conf_blank(e->val))
			p->default_application = xstrdup(e->val);
		p->default_application_line = e->line;
		return;
	}
	if (strcasecmp(e->key, "PREEMPT_FOR") == 0) {
		const char *bad;

		if (parse_preempt_for(e->val, &p->preempt_for, &bad) < 0)
			conf_diag_error(d, p->path, e->line,
			    "PREEMPT_FOR: unknown keyword %s (GROUP_JLP, "
			    "GROUP_MAX, HOST_JLU, USER_JLP, LEAST_RUN_TIME, "
			    "MINI_JOB, OPTIMAL_MINI_JOB)", bad);
		return;
	}
	/* Fairshare: an empty value leaves the default. */
	if (conf_fs_factor(e->key, e->val, &p->fs_factors, NULL, &why)) {
		if (why != NULL)
			conf_diag_error(d, p->path, e->line,
			    "%s %s, not \"%s\"", e->key, why, e->val);
		p->hist_run_time = p->fs_factors.hist_run;
		return;
	}
	if (strcasecmp(e->key, "PEND_TIME_LIMIT") == 0 ||
	    strcasecmp(e->key, "ELIGIBLE_PEND_TIME_LIMIT") == 0) {
		long long *m = strcasecmp(e->key, "PEND_TIME_LIMIT") == 0 ?
		    &p->pend_time_limit : &p->eligible_pend_time_limit;
		const char *bad = NULL;

		if (conf_blank(e->val))
			*m = -1;
		else if ((bad = conf_pend_limit(e->val, m)) != NULL)
			conf_diag_error(d, p->path, e->line, "%s %s, not \"%s\"",
			    e->key, bad, e->val);
		return;
	}
	if (strcasecmp(e->key, "JOB_SCHEDULING_INTERVAL") == 0) {
		if (!conf_blank(e->val) &&
		    sched_interval(e->val, &p->job_scheduling_interval) < 0)
			conf_diag_error(d, p->path, e->line,
			    "JOB_SCHEDULING_INTERVAL must be "
			    "\"min[ms] [max]\", not \"%s\"", e->val);
		return;
	}
	if (strcasecmp(e->key, "LOCAL_MAX_PREEXEC_RETRY_ACTION") == 0) {
		if (conf_blank(e->val))
			return;
		if (strcasecmp(e->val, "SUSPEND") == 0)
			p->preexec_retry_action = PREEXEC_ACT_SUSPEND;
		else if (strcasecmp(e->val, "EXIT") == 0)
			p->preexec_retry_action = PREEXEC_ACT_EXIT;
		else
			conf_diag_error(d, p->path, e->line,
			    "LOCAL_MAX_PREEXEC_RETRY_ACTION must be SUSPEND or "
			    "EXIT, not \"%s\"", e->val);
		return;
	}
	/* Only a MAX_PREEXEC_RETRY given limits local jobs (mbd-prepost.c). */
	if (strcasecmp(e->key, "MAX_PREEXEC_RETRY") == 0 &&
	    !conf_blank(e->val))
		p->max_preexec_retry_set = true;
	for (size_t i = 0; i < ARRAY_SIZE(int_params); i++) {
		const struct int_param *ip = &int_params[i];

		if (strcasecmp(e->key, ip->key) != 0)
			continue;
		/* An empty value leaves the default, as in LSF. */
		if (!conf_blank(e->val) && conf_int(e->val, ip->min, ip->max,
		    (int *)(void *)((char *)p + ip->off)) < 0)
			conf_diag_error(d, p->path, e->line,
			    "%s must be an integer from %ld to %ld, not \"%s\"",
			    ip->key, ip->min, ip->max, e->val);
		return;
	}
	if (!conf_warn_key("lsb.params", quiet_params, p->path, e->line, "",
	    e->key, e->val, d))
		conf_diag_warn(d, p->path, e->line,
		    "unknown parameter %s ignored", e->key);
}

void
lsb_params_read(struct lsb_params *p, const char *path, struct conf_diag *d,
    int *dq_line)
{
	struct conf_file f;
	struct conf_sections secs;
	int nparams = 0;

	*dq_line = 0;
	p->path = xstrdup(path);
	if (conf_file_read(&f, path, CONF_LEX_INCLUDE, d) < 0) {
		conf_diag_error(d, path, 0, "cannot read: %s",
		    strerror(errno));
		conf_file_release(&f);
		return;
	}
	conf_sections_read(&f, &secs, d);
	for (int i = 0; i < secs.n; i++) {
		struct conf_kvs kv;

		if (strcasecmp(secs.v[i].name, "Parameters") != 0) {
			conf_diag_warn(d, path, secs.v[i].line,
			    "unknown section %s ignored", secs.v[i].name);
			continue;
		}
		if (nparams++ > 0)
			conf_diag_warn(d, path, secs.v[i].line,
			    "a second Parameters section");
		conf_kvs_read(&f, &secs.v[i], 0, &kv, d);
		conf_kvs_check_dups(&kv, path, d);
		for (int j = 0; j < kv.n; j++) {
			strv_push(&p->keys, kv.v[j].key);
			strv_push(&p->vals, kv.v[j].val);
			set_param(p, &kv.v[j], dq_line, d);
		}
		conf_kvs_release(&kv);
	}
	conf_sections_release(&secs);
	conf_file_release(&f);
}
