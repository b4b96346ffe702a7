/*
 * LSF keys this version reads and does not act on.  Each reader keeps
 * its own warn list (one key a line, in the reader); a key on it is
 * warned about with file:line wherever it is written, and its value is
 * still checked against the type IBM documents for it, here, so that
 * "CHUNK_JOB_SIZE = x" is an error even though the key has no effect.
 *
 * A type is LSF's knowledge of a key, kept here whether or not a warn
 * list names the key: once a key is implemented its reader checks it
 * and this entry is no longer consulted.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "conf-lex.h"

#define Q	"lsb.queues"
#define P	"lsb.params"
#define A	"lsb.applications"
#define R	"lsb.resources"
#define C	"lsf.cluster"
#define H	"lsb.hosts"
#define U	"lsb.users"

static const struct conf_key_type types[] = {
	/* lsb.queues */
	{ Q, "NEW_JOB_SCHED_DELAY", KT_INT, NULL },
	{ Q, "SLOT_RESERVE", KT_STR, NULL },
	{ Q, "BACKFILL", KT_BOOL, NULL },
	{ Q, "APS_PRIORITY", KT_STR, NULL },
	{ Q, "INTERACTIVE", KT_WORDS, "YES|NO|ONLY" },
	{ Q, "COMMITTED_RUN_TIME_FACTOR", KT_NUM, NULL },
	{ Q, "PREEMPT_DELAY", KT_INT, NULL },
	{ Q, "SLOT_POOL", KT_STR, NULL },
	{ Q, "SLOT_SHARE", KT_INT, NULL },
	{ Q, "MAX_SLOTS_IN_POOL", KT_INT, NULL },
	{ Q, "USE_PRIORITY_IN_POOL", KT_BOOL, NULL },
	{ Q, "RCVJOBS_FROM", KT_STR, NULL },
	{ Q, "SNDJOBS_TO", KT_STR, NULL },
	{ Q, "HOSTLIMIT_PER_JOB", KT_INT, NULL },
	{ Q, "USE_PAM_CREDS", KT_STR, NULL },
	{ Q, "DEFAULT_HOST_SPEC", KT_STR, NULL },
	{ Q, "DEFAULT_EXTSCHED", KT_STR, NULL },
	{ Q, "MANDATORY_EXTSCHED", KT_STR, NULL },
	{ Q, "ENABLE_HIST_RUN_TIME", KT_BOOL, NULL },
	{ Q, "CHUNK_JOB_SIZE", KT_INT, NULL },
	{ Q, "IGNORE_DEADLINE", KT_BOOL, NULL },
	{ Q, "IMPT_JOBBKLG", KT_INT_INF, NULL },
	{ Q, "IMPT_SLOTBKLG", KT_INT_INF, NULL },
	{ Q, "IMPT_TASKBKLG", KT_INT_INF, NULL },
	{ Q, "RESOURCE_RESERVE", KT_STR, NULL },
	{ Q, "MAX_PREEXEC_RETRY", KT_INT, NULL },
	{ Q, "LOCAL_MAX_PREEXEC_RETRY", KT_INT, NULL },
	{ Q, "REMOTE_MAX_PREEXEC_RETRY", KT_INT, NULL },
	{ Q, "MAX_RSCHED_TIME", KT_INT_INF, NULL },
	{ Q, "MAX_JOB_REQUEUE", KT_INT, NULL },
	{ Q, "JOB_WARNING_ACTION", KT_STR, NULL },
	{ Q, "JOB_ACTION_WARNING_TIME", KT_TIME, NULL },
	{ Q, "JOB_SIZE_LIST", KT_STR, NULL },
	{ Q, "PRE_POST_EXEC_USER", KT_STR, NULL },
	{ Q, "HOST_PRE_EXEC", KT_STR, NULL },
	{ Q, "HOST_POST_EXEC", KT_STR, NULL },
	{ Q, "DISPATCH_ORDER", KT_WORDS, "QUEUE" },
	{ Q, "DISPATCH_BY_QUEUE", KT_BOOL, NULL },
	{ Q, "ELIGIBLE_PEND_TIME_LIMIT", KT_TIME, NULL },
	{ Q, "PEND_TIME_LIMIT", KT_TIME, NULL },
	{ Q, "RUN_TIME_DECAY", KT_BOOL, NULL },
	{ Q, "NO_PREEMPT_RUN_TIME", KT_STR, NULL },
	{ Q, "NO_PREEMPT_FINISH_TIME", KT_STR, NULL },
	{ Q, "MAX_TOTAL_TIME_PREEMPT", KT_INT, NULL },
	{ Q, "SUCCESS_EXIT_VALUES", KT_STR, NULL },
	{ Q, "FWD_JOB_FACTOR", KT_NUM, NULL },
	{ Q, "ESTIMATED_RUNTIME", KT_TIME, NULL },
	{ Q, "NQS_QUEUES", KT_STR, NULL },
	{ Q, "RELAX_JOB_DISPATCH_ORDER", KT_STR, NULL },
	/* Checked by the reader itself (amounts, counts), then warned. */
	{ Q, "SWAPLIMIT", KT_STR, NULL },
	{ Q, "DATALIMIT", KT_STR, NULL },
	{ Q, "STACKLIMIT", KT_STR, NULL },
	{ Q, "CORELIMIT", KT_STR, NULL },
	{ Q, "FILELIMIT", KT_STR, NULL },
	{ Q, "PROCESSLIMIT", KT_INTS, NULL },
	{ Q, "THREADLIMIT", KT_INTS, NULL },

	/* lsb.params */
	{ P, "PREEMPTABLE_RESOURCES", KT_STR, NULL },
	{ P, "ENABLE_EVENT_STREAM", KT_BOOL, NULL },
	{ P, "MAX_EVENT_STREAM_SIZE", KT_INT, NULL },
	{ P, "MAX_EVENT_STREAM_FILE_NUMBER", KT_INT, NULL },
	{ P, "EVENT_UPDATE_INTERVAL", KT_INT, NULL },
	{ P, "COMMITTED_RUN_TIME_FACTOR", KT_NUM, NULL },
	{ P, "JOB_PRIORITY_OVER_TIME", KT_STR, NULL },
	{ P, "RESOURCE_RESERVE_PER_TASK", KT_BOOL, NULL },
	{ P, "MIN_SWITCH_PERIOD", KT_INT, NULL },
	{ P, "ABS_RUNLIMIT", KT_BOOL, NULL },
	{ P, "LSB_SYNC_HOST_STAT_LIM", KT_BOOL, NULL },
	{ P, "LOCAL_MAX_PREEXEC_RETRY", KT_INT, NULL },
	{ P, "DEFAULT_BWAIT_TIMEOUT", KT_INT, NULL },
	{ P, "EVALUATE_WAIT_CONDITION_TIMEOUT", KT_INT, NULL },
	{ P, "REMOTE_MAX_PREEXEC_RETRY", KT_INT, NULL },
	{ P, "MAX_CONCURRENT_QUERY", KT_INT, NULL },
	{ P, "PARALLEL_SCHED_BY_SLOT", KT_BOOL, NULL },
	{ P, "DEFAULT_HOST_SPEC", KT_STR, NULL },
	{ P, "MAX_ACCT_ARCHIVE_FILE", KT_INT, NULL },
	{ P, "ACCT_ARCHIVE_AGE", KT_INT, NULL },
	{ P, "ACCT_ARCHIVE_SIZE", KT_INT, NULL },
	{ P, "ACCT_ARCHIVE_TIME", KT_STR, NULL },
	{ P, "MAX_INFO_DIRS", KT_INT, NULL },
	{ P, "SHARED_RESOURCE_UPDATE_FACTOR", KT_INT, NULL },
	{ P, "CONDENSE_PENDING_REASONS", KT_WORDS, "ALL|PARTIAL|N|Y" },
	{ P, "MAX_PEND_SLOTS", KT_INT, NULL },
	{ P, "JOB_SPOOL_DIR", KT_STR, NULL },
	{ P, "JOB_POSITION_CONTROL_BY_ADMIN", KT_BOOL, NULL },
	{ P, "JOB_INCLUDE_POSTPROC", KT_BOOL, NULL },
	{ P, "JOB_POSTPROC_TIMEOUT", KT_INT, NULL },
	{ P, "MAX_SCHED_STAGE", KT_INT, NULL },
	{ P, "ENABLE_USER_RESUME", KT_BOOL, NULL },
	{ P, "MBD_REFRESH_TIME", KT_INTS, NULL },
	{ P, "MBD_QUERY_CPUS", KT_STR, NULL },
	{ P, "LSB_MAX_PROBE_SBD", KT_INT, NULL },
	{ P, "NO_PREEMPT_RUN_TIME", KT_STR, NULL },
	{ P, "NO_PREEMPT_FINISH_TIME", KT_STR, NULL },
	{ P, "MAX_TOTAL_TIME_PREEMPT", KT_INT, NULL },
	{ P, "PREEMPT_JOBTYPE", KT_STR, NULL },
	{ P, "ORPHAN_JOB_TERM_GRACE_PERIOD", KT_INT, NULL },
	{ P, "MAX_JOB_MSG_NUM", KT_INT, NULL },
	{ P, "JOB_ATTA_DIR", KT_STR, NULL },
	{ P, "FAIRSHARE_JOB_COUNT", KT_BOOL, NULL },
	{ P, "RUN_TIME_DECAY", KT_BOOL, NULL },
	{ P, "CHUNK_JOB_DURATION", KT_INT, NULL },
	{ P, "JOB_GROUP_CLEAN", KT_BOOL, NULL },
	{ P, "DEFAULT_JOBGROUP", KT_STR, NULL },
	{ P, "DEFAULT_USER_GROUP", KT_STR, NULL },
	{ P, "ENFORCE_ONE_UG_LIMITS", KT_BOOL, NULL },
	{ P, "STRICT_UG_CONTROL", KT_BOOL, NULL },
	{ P, "SECURE_INFODIR_USER_ACCESS", KT_WORDS, "Y|N|G" },
	{ P, "SECURE_JOB_INFO_LEVEL", KT_INT, NULL },
	{ P, "JOB_RUNLIMIT_RATIO", KT_INT, NULL },
	{ P, "JOB_SWITCH2_EVENT", KT_BOOL, NULL },
	{ P, "PEND_REASON_UPDATE_INTERVAL", KT_INT, NULL },
	{ P, "SYSTEM_MAPPING_ACCOUNT", KT_STR, NULL },
	{ P, "DISABLE_UACCT_MAP", KT_BOOL, NULL },
	{ P, "NEWJOB_REFRESH", KT_BOOL, NULL },
	{ P, "EXIT_RATE_TYPE", KT_STR, NULL },
	{ P, "REMOVE_HUNG_JOBS_FOR", KT_STR, NULL },
	{ P, "ALLOW_EVENT_TYPE", KT_STR, NULL },
	{ P, "RELAX_JOB_DISPATCH_ORDER", KT_STR, NULL },
	{ P, "ESTIMATED_RUNTIME", KT_TIME, NULL },
	{ P, "SLA_TIMER", KT_INT, NULL },
	{ P, "JOB_ARRAY_EVENTS_COMBINE", KT_BOOL, NULL },
	{ P, "EGROUP_UPDATE_INTERVAL", KT_INT, NULL },
	{ P, "MC_PENDING_REASON_UPDATE_INTERVAL", KT_INT, NULL },
	{ P, "ELIGIBLE_PEND_TIME_LIMIT", KT_TIME, NULL },
	{ P, "PEND_TIME_LIMIT", KT_TIME, NULL },
	{ P, "TRACK_ELIGIBLE_PENDINFO", KT_BOOL, NULL },
	{ P, "PREEMPT_DELAY", KT_INT, NULL },
	{ P, "USE_SUSP_SLOTS", KT_BOOL, NULL },
	{ P, "NEW_JOB_SCHED_DELAY", KT_INT, NULL },
	{ P, "MAX_JOB_REQUEUE", KT_INT, NULL },

	/* lsb.applications */
	{ A, "ABS_RUNLIMIT", KT_BOOL, NULL },
	{ A, "BIND_JOB", KT_STR, NULL },
	{ A, "CHKPNT_INITPERIOD", KT_INT, NULL },
	{ A, "CHUNK_JOB_SIZE", KT_INT, NULL },
	{ A, "CONTAINER", KT_STR, NULL },
	{ A, "CORELIMIT", KT_INT, NULL },
	{ A, "CPU_FREQUENCY", KT_STR, NULL },
	{ A, "DATALIMIT", KT_INTS, NULL },
	{ A, "DJOB_COMMFAIL_ACTION", KT_WORDS, "KILL_TASKS|IGNORE_COMMFAIL" },
	{ A, "DJOB_DISABLED", KT_BOOL, NULL },
	{ A, "DJOB_ENV_SCRIPT", KT_STR, NULL },
	{ A, "DJOB_HB_INTERVAL", KT_INT, NULL },
	{ A, "DJOB_RESIZE_GRACE_PERIOD", KT_INT, NULL },
	{ A, "DJOB_RU_INTERVAL", KT_INT, NULL },
	{ A, "DOCKER_IMAGE_AFFINITY", KT_BOOL, NULL },
	{ A, "ELIGIBLE_PEND_TIME_LIMIT", KT_TIME, NULL },
	{ A, "ENV_VARS", KT_STR, NULL },
	{ A, "ESTIMATED_RUNTIME", KT_TIME, NULL },
	{ A, "EXEC_DRIVER", KT_STR, NULL },
	{ A, "FILELIMIT", KT_INT, NULL },
	{ A, "GPU_REQ", KT_STR, NULL },
	{ A, "HOST_POST_EXEC", KT_STR, NULL },
	{ A, "HOST_PRE_EXEC", KT_STR, NULL },
	{ A, "JOB_CWD", KT_STR, NULL },
	{ A, "JOB_CWD_TTL", KT_INT, NULL },
	{ A, "JOB_INCLUDE_POSTPROC", KT_BOOL, NULL },
	{ A, "JOB_POSTPROC_TIMEOUT", KT_INT, NULL },
	{ A, "JOB_SIZE_LIST", KT_STR, NULL },
	{ A, "JOB_STARTER", KT_STR, NULL },
	{ A, "LOCAL_MAX_PREEXEC_RETRY", KT_INT, NULL },
	{ A, "LOCAL_MAX_PREEXEC_RETRY_ACTION", KT_WORDS, "SUSPEND|EXIT" },
	{ A, "MAX_JOB_REQUEUE", KT_INT, NULL },
	{ A, "MAX_PREEXEC_RETRY", KT_INT, NULL },
	{ A, "MAX_TOTAL_TIME_PREEMPT", KT_INT, NULL },
	{ A, "MIG", KT_INT, NULL },
	{ A, "NETWORK_REQ", KT_STR, NULL },
	{ A, "NICE", KT_SINT, NULL },
	{ A, "NO_PREEMPT_FINISH_TIME", KT_STR, NULL },
	{ A, "NO_PREEMPT_INTERVAL", KT_INT, NULL },
	{ A, "NO_PREEMPT_RUN_TIME", KT_STR, NULL },
	{ A, "PEND_TIME_LIMIT", KT_TIME, NULL },
	{ A, "PERSISTENT_HOST_ORDER", KT_BOOL, NULL },
	{ A, "POST_EXEC", KT_STR, NULL },
	{ A, "PRE_EXEC", KT_STR, NULL },
	{ A, "PREEMPT_DELAY", KT_INT, NULL },
	{ A, "PROCESSLIMIT", KT_INTS, NULL },
	{ A, "PROCLIMIT", KT_INTS, NULL },
	{ A, "REMOTE_MAX_PREEXEC_RETRY", KT_INT, NULL },
	{ A, "REQUEUE_EXIT_VALUES", KT_STR, NULL },
	{ A, "RES_REQ", KT_STR, NULL },
	{ A, "RESIZABLE_JOBS", KT_WORDS, "Y|N|AUTO" },
	{ A, "RESIZE_NOTIFY_CMD", KT_STR, NULL },
	{ A, "RUNTIME", KT_TIME, NULL },
	{ A, "STACKLIMIT", KT_INT, NULL },
	{ A, "SUCCESS_EXIT_VALUES", KT_STR, NULL },
	{ A, "SWAPLIMIT", KT_INT, NULL },
	{ A, "TASKLIMIT", KT_INTS, NULL },
	{ A, "THREADLIMIT", KT_INTS, NULL },
	{ A, "USE_PAM_CREDS", KT_STR, NULL },
	{ A, "WATCHDOG", KT_STR, NULL },

	/* lsb.resources, Limit sections */
	{ R, "SWP", KT_STR, NULL },
	{ R, "TMP", KT_STR, NULL },
	{ R, "LICENSE", KT_STR, NULL },
	{ R, "RESOURCE", KT_STR, NULL },
	{ R, "APPS", KT_STR, NULL },
	{ R, "PER_APP", KT_STR, NULL },
	{ R, "LIC_PROJECTS", KT_STR, NULL },
	{ R, "PER_LIC_PROJECT", KT_STR, NULL },
	{ R, "INELIGIBLE", KT_BOOL, NULL },
	{ R, "ELIGIBLE_PEND_JOBS", KT_INT, NULL },
	{ R, "JOBS_PER_SCHED_CYCLE", KT_INT, NULL },
	{ R, "CLUSTERS", KT_STR, NULL },
	{ R, "PER_CLUSTER", KT_STR, NULL },

	/* lsf.cluster, Parameters section */
	{ C, "ADJUST_DURATION", KT_INT, NULL },
	{ C, "LSF_ELIM_BLOCKTIME", KT_INT, NULL },
	{ C, "LSF_ELIM_RESTARTS", KT_INT, NULL },
	{ C, "LSF_ELIM_DEBUG", KT_BOOL, NULL },
	{ C, "PRODUCTS", KT_STR, NULL },
	{ C, "FLOAT_CLIENTS", KT_INT, NULL },
	{ C, "FLOAT_CLIENTS_ADDR_RANGE", KT_STR, NULL },
	{ C, "LSF_HOST_ADDR_RANGE", KT_STR, NULL },
	{ C, "MASTER_INACTIVITY_LIMIT", KT_INT, NULL },
	{ C, "PROBE_TIMEOUT", KT_INT, NULL },
	{ C, "RETRY_LIMIT", KT_INT, NULL },

	/* Table columns (lsb.hosts, lsb.users): a value a row. */
	{ H, "CHKPNT", KT_STR, NULL },
	{ H, "AFFINITY", KT_BOOL, NULL },
	{ H, "GROUP_ADMIN", KT_STR, NULL },
	{ H, "CONDENSE", KT_BOOL, NULL },
	{ U, "GROUP_ADMIN", KT_STR, NULL },
	{ U, "PRIORITY", KT_INT, NULL },
	{ NULL, NULL, KT_STR, NULL }
};

const struct conf_key_type *
conf_key_type(const char *file, const char *key)
{
	for (const struct conf_key_type *t = types; t->file != NULL; t++)
		if (strcmp(t->file, file) == 0 && strcasecmp(t->key, key) == 0)
			return t;
	return NULL;
}

static bool
is_word(const char *v, const char *words)
{
	size_t n = strlen(v);

	for (const char *w = words; *w != '\0';) {
		size_t m = strcspn(w, "|");

		if (m == n && strncasecmp(w, v, n) == 0)
			return true;
		w += m + (w[m] == '|');
	}
	return false;
}

/* 1 to 3 integers >= 0, or, with inf, one integer or "infinit". */
static bool
ints(const char *v, size_t max)
{
	struct strv w = STRV_INIT;
	bool ok;
	int n;

	strv_split_ws(&w, v);
	ok = w.n >= 1 && w.n <= max;
	for (size_t i = 0; ok && i < w.n; i++)
		ok = conf_int(w.v[i], 0, INT_MAX, &n) == 0;
	strv_release(&w);
	return ok;
}

const char *
conf_key_type_check(const struct conf_key_type *t, const char *v)
{
	long long m;
	float f;
	bool b;
	int n;

	switch (t->type) {
	case KT_STR:
		return NULL;
	case KT_INT:
		return conf_int(v, 0, INT_MAX, &n) < 0 ?
		    "must be an integer >= 0" : NULL;
	case KT_SINT:
		return conf_int(v, -INT_MAX, INT_MAX, &n) < 0 ?
		    "must be an integer" : NULL;
	case KT_NUM:
		return conf_float(v, 0, 1e30, &f) < 0 ?
		    "must be a number >= 0" : NULL;
	case KT_BOOL:
		return conf_bool(v, &b) < 0 ? "must be Y or N" : NULL;
	case KT_TIME:
		return parse_time_limit(v, &m) < 0 ?
		    "must be a time [hour:]minute" : NULL;
	case KT_INTS:
		return ints(v, 3) ? NULL :
		    "must be one to three integers >= 0";
	case KT_INT_INF:
		return strcasecmp(v, "infinit") == 0 || ints(v, 1) ? NULL :
		    "must be an integer >= 0 or infinit";
	case KT_WORDS:
		return is_word(v, t->words) ? NULL : t->words;
	}
	return NULL;
}

const char *
conf_key_type_name(const struct conf_key_type *t)
{
	static const char *const names[] = {
		[KT_STR] = "a string", [KT_INT] = "an integer",
		[KT_SINT] = "an integer", [KT_NUM] = "a number",
		[KT_BOOL] = "Y or N", [KT_TIME] = "a time [hour:]minute",
		[KT_INTS] = "integers", [KT_INT_INF] = "an integer or infinit",
		[KT_WORDS] = "one of",
	};

	return names[t->type];
}

bool
conf_warn_key(const char *file, const char *const *warn, const char *path,
    int line, const char *who, const char *key, const char *val,
    struct conf_diag *d)
{
	const struct conf_key_type *t;
	const char *why;

	if (!conf_key_in(key, warn))
		return false;
	t = conf_key_type(file, key);
	if (t != NULL && !conf_blank(val) &&
	    (why = conf_key_type_check(t, val)) != NULL) {
		if (t->type == KT_WORDS)
			conf_diag_error(d, path, line, "%sbad %s \"%s\": must "
			    "be %s", who, key, val, why);
		else
			conf_diag_error(d, path, line, "%sbad %s \"%s\": %s",
			    who, key, val, why);
		return true;
	}
	conf_diag_warn(d, path, line, "%s%s is not supported by this "
	    "version and has no effect", who, key);
	return true;
}

void
conf_warn_cols(const char *file, const char *const *warn, const char *path,
    const struct conf_table *t, const char *section, struct conf_diag *d)
{
	for (size_t c = 0; c < t->cols.n; c++) {
		const struct conf_key_type *kt;
		const char *why;

		if (!conf_key_in(t->cols.v[c], warn))
			continue;
		conf_diag_warn(d, path, t->line, "%s column %s is not "
		    "supported by this version and has no effect", section,
		    t->cols.v[c]);
		if ((kt = conf_key_type(file, t->cols.v[c])) == NULL)
			continue;
		for (int r = 0; r < t->nrows; r++) {
			const char *v = conf_cell(&t->rows[r], (int)c);

			if (v != NULL && (why = conf_key_type_check(kt, v)) !=
			    NULL)
				conf_diag_error(d, path, t->rows[r].line,
				    "bad %s \"%s\": %s%s", t->cols.v[c], v,
				    kt->type == KT_WORDS ? "must be " : "",
				    why);
		}
	}
}

const char *const *
conf_warn_list(int n, const char **file)
{
	static const struct {
		const char		*file;
		const char *const	*(*list)(void);
	} lists[] = {
		{ Q, lsb_queues_warn_keys },
		{ Q, lsb_queues_warn_limits },
		{ P, lsb_params_warn_keys },
		{ A, lsb_apps_warn_keys },
		{ R, lsb_resources_warn_keys },
		{ C, cluster_conf_warn_keys },
		{ H, lsb_hosts_warn_cols },
		{ H, lsb_hostgroups_warn_cols },
		{ U, lsb_users_warn_cols },
		{ U, lsb_userlimits_warn_cols },
	};

	if (n < 0 || (size_t)n >= ARRAY_SIZE(lists))
		return NULL;
	*file = lists[n].file;
	return lists[n].list();
}
