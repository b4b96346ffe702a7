/* lsb.queues: one "Begin Queue ... End Queue" section per queue. */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "chkpnt.h"
#include "conf-lex.h"
#include "fairshare.h"
#include "resreq.h"


/*
 * The warn list: LSF keys this version reads and does not act on.  Each
 * is kept in keys/vals (bqueues -l), its value checked against its LSF
 * type (conf-keys.c), and warned about; man/lsb.queues.5 lists them.
 * Implementing one: delete its line, handle it in apply_key.
 */
static const char *const quiet_keys[] = {
	"SLOT_RESERVE",
	"BACKFILL",
	"APS_PRIORITY",
	"INTERACTIVE",
	"COMMITTED_RUN_TIME_FACTOR",
	"PREEMPT_DELAY",
	"SLOT_POOL",
	"SLOT_SHARE",
	"MAX_SLOTS_IN_POOL",
	"USE_PRIORITY_IN_POOL",
	"RCVJOBS_FROM",
	"SNDJOBS_TO",
	"HOSTLIMIT_PER_JOB",
	"USE_PAM_CREDS",
	"DEFAULT_HOST_SPEC",
	"DEFAULT_EXTSCHED",
	"MANDATORY_EXTSCHED",
	"CHUNK_JOB_SIZE",
	"IGNORE_DEADLINE",
	"IMPT_JOBBKLG",
	"IMPT_SLOTBKLG",
	"IMPT_TASKBKLG",
	"RESOURCE_RESERVE",
	"REMOTE_MAX_PREEXEC_RETRY",
	"MAX_RSCHED_TIME",
	"JOB_SIZE_LIST",
	"DISPATCH_BY_QUEUE",
	"NO_PREEMPT_RUN_TIME",
	"NO_PREEMPT_FINISH_TIME",
	"MAX_TOTAL_TIME_PREEMPT",
	"FWD_JOB_FACTOR",
	"ESTIMATED_RUNTIME",
	"NQS_QUEUES",
	"RELAX_JOB_DISPATCH_ORDER",
	NULL
};

/* Limits in LSF_UNIT_FOR_LIMITS that have no field: checked, kept,
 * warned about. */
static const char *const mem_keys[] = {
	"SWAPLIMIT", "DATALIMIT", "STACKLIMIT", "CORELIMIT", "FILELIMIT",
	NULL
};
/* Counts that have no field either. */
static const char *const count_keys[] = {
	"PROCESSLIMIT", "THREADLIMIT", NULL
};
/* mem_keys and count_keys: what the man page lists with the others. */
static const char *const limit_warn[] = {
	"SWAPLIMIT", "DATALIMIT", "STACKLIMIT", "CORELIMIT", "FILELIMIT",
	"PROCESSLIMIT", "THREADLIMIT", NULL
};

const char *const *
lsb_queues_warn_keys(void)
{
	return quiet_keys;
}

const char *const *
lsb_queues_warn_limits(void)
{
	return limit_warn;
}

void
queue_conf_init(struct queue_conf *q)
{
	memset(q, 0, sizeof(*q));
	q->priority = 1;
	q->qjob_limit = -1;
	q->ujob_limit = -1;
	q->pjob_limit = -1;
	q->hjob_limit = -1;
	strv_init(&q->users);
	strv_init(&q->hosts);
	thresholds_init(&q->thr);
	q->runlimit.deflt = q->runlimit.max = -1;
	q->cpulimit.deflt = q->cpulimit.max = -1;
	q->memlimit.deflt = q->memlimit.max = -1;
	q->proclimit.deflt = q->proclimit.max = -1;
	q->proclimit_min = -1;
	q->job_accept_interval = -1;
	q->mig = -1;
	q->job_overrun = -1;
	q->job_underrun = -1;
	q->job_idle = -1;
	q->max_job_preempt = -1;
	q->pend_time_limit = q->eligible_pend_time_limit = -1;
	q->max_job_requeue = -1;
	fs_factors_default(&q->fs_factors);
	strv_init(&q->fairshare_queues);
	strv_init(&q->administrators);
	strv_init(&q->preempt.victims);
	strv_init(&q->preempt.by);
	prepost_conf_init(&q->pp);
	strv_init(&q->keys);
	strv_init(&q->vals);
}

void
queue_conf_release(struct queue_conf *q)
{
	free(q->name);
	free(q->description);
	strv_release(&q->users);
	strv_release(&q->hosts);
	free(q->res_req);
	free(q->stop_cond);
	free(q->resume_cond);
	windows_release(&q->dispatch_window);
	windows_release(&q->run_window);
	free(q->pre_exec);
	free(q->post_exec);
	free(q->job_starter);
	free(q->chkpnt_dir);
	free(q->requeue_exit_values);
	free(q->success_exit_values);
	strv_release(&q->administrators);
	free(q->job_controls);
	jobctl_release(&q->jobctl);
	free(q->terminate_when);
	free(q->fairshare);
	fs_shares_release(&q->fs_shares);
	strv_release(&q->fairshare_queues);
	free(q->preemption);
	queue_preempt_release(&q->preempt);
	prepost_conf_release(&q->pp);
	strv_release(&q->keys);
	strv_release(&q->vals);
	queue_conf_init(q);
}

void
lsb_queues_release(struct lsf_config *cfg)
{
	for (int i = 0; i < cfg->nqueues; i++)
		queue_conf_release(&cfg->queues[i]);
	free(cfg->queues);
	cfg->queues = NULL;
	cfg->nqueues = 0;
}

static void
set_str(char **dst, const char *val)
{
	free(*dst);
	*dst = xstrdup(val);
}

enum limit_kind { LIMIT_TIME, LIMIT_MEM, LIMIT_COUNT };

/* "[default] max", each a time limit, a memory amount or a count. */
static int
limit_pair(const char *val, enum limit_kind kind, const char *unit,
    struct limit_pair *lp, const char **why)
{
	static const char *const bad[] = { "not a time limit [hh:]mm",
	    "not a memory amount", "not a positive integer" };
	struct strv w = STRV_INIT;
	long long v[2];
	int rc = -1;

	strv_split_ws(&w, val);
	if (w.n < 1 || w.n > 2) {
		*why = "expected [default] max";
		goto out;
	}
	for (size_t i = 0; i < w.n; i++) {
		int r, c;

		if (kind == LIMIT_TIME) {
			r = parse_time_limit(w.v[i], &v[i]);
		} else if (kind == LIMIT_MEM) {
			r = parse_mem_kb(w.v[i], unit, &v[i]);
		} else {
			r = conf_int(w.v[i], 1, INT_MAX, &c);
			v[i] = c;
		}
		if (r < 0) {
			*why = bad[kind];
			goto out;
		}
	}
	if (w.n == 2 && v[0] > v[1]) {
		*why = "the default is above the maximum";
		goto out;
	}
	lp->deflt = w.n == 2 ? v[0] : -1;
	lp->max = v[w.n - 1];
	rc = 0;
out:
	strv_release(&w);
	return rc;
}

/* "[min [default]] max" task counts. */
static int
proc_limit(const char *val, struct queue_conf *q, const char **why)
{
	struct strv w = STRV_INIT;
	int v[3], rc = -1;

	strv_split_ws(&w, val);
	if (w.n < 1 || w.n > 3) {
		*why = "expected [min [default]] max";
		goto out;
	}
	for (size_t i = 0; i < w.n; i++)
		if (conf_int(w.v[i], 1, INT_MAX, &v[i]) < 0) {
			*why = "not a positive integer";
			goto out;
		}
	for (size_t i = 1; i < w.n; i++)
		if (v[i - 1] > v[i]) {
			*why = "values must be min <= default <= max";
			goto out;
		}
	q->proclimit_min = w.n >= 2 ? v[0] : -1;
	q->proclimit.deflt = w.n == 3 ? v[1] : -1;
	q->proclimit.max = v[w.n - 1];
	rc = 0;
out:
	strv_release(&w);
	return rc;
}

/* A list key: "all" alone means everyone/everywhere, kept empty. */
/*
 * STOP_COND and RESUME_COND: a select[] over load indices, checked here
 * so a typo is a configuration error, not a condition that never holds.
 */
static void
cond_check(const struct lsf_config *cfg, struct queue_conf *q,
    const char *k, const char *v, const char *path, int line,
    struct conf_diag *d)
{
	struct resreq rr;
	char *cause = NULL;
	bool stop = toupper((unsigned char)k[0]) == 'S';

	resreq_init(&rr);
	if (resreq_parse(&rr, v, cfg->lsf.unit_for_limits, &cause) < 0) {
		conf_diag_error(d, path, line, "queue %s: bad %s: %s",
		    q->name, stop ? "STOP_COND" : "RESUME_COND", cause);
		free(cause);
	} else if (rr.select == NULL) {
		conf_diag_error(d, path, line, "queue %s: %s has no select[] "
		    "section", q->name, stop ? "STOP_COND" : "RESUME_COND");
	} else {
		/* LSF looks at the select section only. */
		if (rr.norder > 0 || rr.nrusage > 0 || rr.span_hosts >= 0 ||
		    rr.span_ptile >= 0 || rr.same != NULL)
			conf_diag_warn(d, path, line, "queue %s: %s: only its "
			    "select[] section is used", q->name,
			    stop ? "STOP_COND" : "RESUME_COND");
		set_str(stop ? &q->stop_cond : &q->resume_cond, v);
	}
	resreq_release(&rr);
}

static void
set_list(struct strv *dst, const char *val, bool all_is_empty)
{
	strv_release(dst);
	strv_split_ws(dst, val);
	if (all_is_empty && dst->n == 1 && strcasecmp(dst->v[0], "all") == 0)
		strv_release(dst);
}

static void
check_hosts(const struct lsf_config *cfg, const struct queue_conf *q,
    const char *path, int line, struct conf_diag *d)
{
	struct strv out = STRV_INIT, bad = STRV_INIT;

	if (q->hosts.n == 0 || cfg->cluster.nhosts == 0)
		return;
	config_expand_hosts(cfg, &q->hosts, &out, &bad);
	for (size_t i = 0; i < bad.n; i++)
		conf_diag_warn(d, path, line,
		    "queue %s: HOSTS names %s, not a server host or host "
		    "group",
		    q->name, bad.v[i]);
	if (out.n == 0 && !strv_contains(&q->hosts, "none"))
		conf_diag_warn(d, path, line,
		    "queue %s: HOSTS leaves no usable host", q->name);
	strv_release(&out);
	strv_release(&bad);
}

/* JOB_CONTROLS: parsed here so that ckconfig and mbatchd -n say what
 * is wrong; a bad value leaves the defaults. */
static void
job_controls(struct queue_conf *q, const char *path, int line, const char *v,
    struct conf_diag *d)
{
	char *cause = NULL, *warn;

	free(q->job_controls);
	q->job_controls = NULL;
	jobctl_release(&q->jobctl);
	if (jobctl_parse(&q->jobctl, v, &cause) < 0) {
		conf_diag_error(d, path, line, "queue %s: bad JOB_CONTROLS "
		    "\"%s\": %s", q->name, v, cause);
		free(cause);
		return;
	}
	q->job_controls = xstrdup(v);
	for (int op = 0; op < JOBCTL_NOPS; op++)
		if ((warn = jobctl_warning(&q->jobctl, op)) != NULL) {
			conf_diag_warn(d, path, line, "queue %s: JOB_CONTROLS "
			    "%s", q->name, warn);
			free(warn);
		}
}

/* FAIRSHARE_QUEUES given before QUEUE_GROUP k, or the other way. */
static bool
other_key_seen(const struct queue_conf *q, const char *k)
{
	const char *other = strcasecmp(k, "QUEUE_GROUP") == 0 ?
	    "FAIRSHARE_QUEUES" : "QUEUE_GROUP";

	for (size_t i = 0; i < q->keys.n; i++)
		if (strcasecmp(q->keys.v[i], other) == 0)
			return true;
	return false;
}

/* A key on a warn list: warned about (or its bad value an error). */
static bool
unsupported(const struct queue_conf *q, const char *path,
    const struct conf_kv *e, struct conf_diag *d)
{
	char *who = xasprintf("queue %s: ", q->name);
	bool on = conf_warn_key("lsb.queues", quiet_keys, path, e->line, who,
	    e->key, e->val, d) || conf_warn_key("lsb.queues", limit_warn,
	    path, e->line, who, e->key, e->val, d);

	free(who);
	return on;
}

static void
apply_key(const struct lsf_config *cfg, struct queue_conf *q,
    const char *path, const struct conf_kv *e, struct conf_diag *d)
{
	const char *k = e->key, *v = e->val;
	const char *unit = cfg->lsf.unit_for_limits;
	const char *why = NULL, *why2;
	const struct resource_def *rd;
	struct limit_pair scratch;
	int idx;
	bool b;

	if (strcasecmp(k, "QUEUE_NAME") == 0)
		return;
	/* An empty value leaves the default, as LSF does. */
	if (conf_blank(v))
		return;
	if (strcasecmp(k, "PRIORITY") == 0) {
		if (conf_int(v, 0, INT_MAX, &q->priority) < 0)
			why = "must be an integer >= 0";
	} else if (strcasecmp(k, "NICE") == 0) {
		if (conf_int(v, -20, 20, &q->nice) < 0)
			why = "must be an integer from -20 to 20";
	} else if (strcasecmp(k, "DESCRIPTION") == 0) {
		set_str(&q->description, v);
	} else if (strcasecmp(k, "QJOB_LIMIT") == 0 ||
	    strcasecmp(k, "UJOB_LIMIT") == 0 ||
	    strcasecmp(k, "HJOB_LIMIT") == 0) {
		int *dst = toupper((unsigned char)k[0]) == 'Q' ?
		    &q->qjob_limit : toupper((unsigned char)k[0]) == 'U' ?
		    &q->ujob_limit : &q->hjob_limit;

		if (conf_int(v, 0, INT_MAX, dst) < 0)
			why = "must be an integer >= 0";
	} else if (strcasecmp(k, "PJOB_LIMIT") == 0) {
		if (conf_float(v, 0, 1e9, &q->pjob_limit) < 0)
			why = "must be a number >= 0";
	} else if (strcasecmp(k, "USERS") == 0) {
		set_list(&q->users, v, true);
	} else if (strcasecmp(k, "HOSTS") == 0) {
		set_list(&q->hosts, v, true);
		check_hosts(cfg, q, path, e->line, d);
	} else if (strcasecmp(k, "ADMINISTRATORS") == 0) {
		set_list(&q->administrators, v, false);
	} else if (strcasecmp(k, "EXCLUSIVE") == 0) {
		/* LSF 10 "CU[...]" asks for exclusive compute units. */
		if (strncasecmp(v, "CU[", 3) == 0)
			q->exclusive = true;
		else if (conf_bool(v, &b) == 0)
			q->exclusive = b;
		else
			why = "must be Y or N";
	} else if (strcasecmp(k, "RERUNNABLE") == 0) {
		if (conf_bool(v, &b) == 0)
			q->rerunnable = b;
		else
			why = "must be yes or no";
	} else if (strcasecmp(k, "RES_REQ") == 0) {
		set_str(&q->res_req, v);
	} else if (strcasecmp(k, "STOP_COND") == 0 ||
	    strcasecmp(k, "RESUME_COND") == 0) {
		cond_check(cfg, q, k, v, path, e->line, d);
	} else if ((idx = load_index_lookup(k)) >= 0) {
		struct thresholds t = q->thr;

		/* A key given twice: the last one replaces both halves. */
		t.sched_set &= ~(1u << idx);
		t.stop_set &= ~(1u << idx);
		if (parse_threshold(v, idx, &t, &why) < 0) {
			conf_diag_error(d, path, e->line,
			    "queue %s: bad threshold %s = %s: %s", q->name, k,
			    v, why);
			return;
		}
		q->thr = t;
	} else if (strcasecmp(k, "DISPATCH_WINDOW") == 0 ||
	    strcasecmp(k, "RUN_WINDOW") == 0) {
		struct windows *w = toupper((unsigned char)k[0]) == 'D' ?
		    &q->dispatch_window : &q->run_window;

		windows_release(w);
		if (windows_parse(w, v, &why) < 0) {
			conf_diag_error(d, path, e->line,
			    "queue %s: bad %s \"%s\": %s", q->name, k, v, why);
			return;
		}
	} else if (strcasecmp(k, "RUNLIMIT") == 0) {
		(void)limit_pair(v, LIMIT_TIME, NULL, &q->runlimit, &why);
	} else if (strcasecmp(k, "CPULIMIT") == 0) {
		(void)limit_pair(v, LIMIT_TIME, NULL, &q->cpulimit, &why);
	} else if (strcasecmp(k, "MEMLIMIT") == 0) {
		(void)limit_pair(v, LIMIT_MEM, unit, &q->memlimit, &why);
	} else if (conf_key_in(k, mem_keys) || conf_key_in(k, count_keys)) {
		if (limit_pair(v, conf_key_in(k, mem_keys) ? LIMIT_MEM :
		    LIMIT_COUNT, unit, &scratch, &why) == 0)
			unsupported(q, path, e, d);
	} else if (strcasecmp(k, "PROCLIMIT") == 0 ||
	    strcasecmp(k, "TASKLIMIT") == 0) {
		(void)proc_limit(v, q, &why);
	} else if (strcasecmp(k, "JOB_ACCEPT_INTERVAL") == 0) {
		if (conf_int(v, 0, 86400, &q->job_accept_interval) < 0)
			why = "must be an integer >= 0";
	} else if (strcasecmp(k, "NEW_JOB_SCHED_DELAY") == 0) {
		if (conf_int(v, 0, 86400, &q->new_job_sched_delay) < 0)
			why = "must be a number of seconds from 0 to 86400";
	} else if (strcasecmp(k, "MAX_JOB_PREEMPT") == 0) {
		if (conf_int(v, 1, 2147483646L, &q->max_job_preempt) < 0)
			why = "must be an integer from 1 to 2147483646";
	} else if (strcasecmp(k, "JOB_OVERRUN") == 0) {
		if (conf_int(v, 0, 35791394, &q->job_overrun) < 0)
			why = "must be minutes >= 0";
	} else if (strcasecmp(k, "JOB_UNDERRUN") == 0) {
		if (conf_int(v, 0, 35791394, &q->job_underrun) < 0)
			why = "must be minutes >= 0";
	} else if (strcasecmp(k, "JOB_IDLE") == 0) {
		if (conf_float(v, 0, 1, &q->job_idle) < 0)
			why = "must be a number from 0.0 to 1.0";
	} else if (strcasecmp(k, "MIG") == 0) {
		if (conf_int(v, 0, INT_MAX, &q->mig) < 0)
			why = "must be minutes >= 0";
	} else if (strcasecmp(k, "CHKPNT") == 0) {
		struct chkpnt_spec c;
		char *cause = NULL;

		if (chkpnt_spec_parse(v, false, &c, &cause) < 0) {
			conf_diag_error(d, path, e->line, "queue %s: bad "
			    "CHKPNT \"%s\": %s", q->name, v, cause);
			free(cause);
		} else {
			free(q->chkpnt_dir);
			q->chkpnt_dir = c.dir;
			q->chkpnt_period = c.period;
		}
	} else if (strcasecmp(k, "PRE_EXEC") == 0) {
		set_str(&q->pre_exec, v);
	} else if (strcasecmp(k, "POST_EXEC") == 0) {
		set_str(&q->post_exec, v);
	} else if (prepost_conf_key(&q->pp, k, v, &why)) {
		/* HOST_PRE_EXEC, PRE_POST_EXEC_USER, the retries, the
		 * warning action. */
	} else if (strcasecmp(k, "JOB_STARTER") == 0) {
		set_str(&q->job_starter, v);
	} else if (strcasecmp(k, "REQUEUE_EXIT_VALUES") == 0) {
		set_str(&q->requeue_exit_values, v);
		(void)requeue_values_parse(v, &q->requeue, &why);
	} else if (strcasecmp(k, "SUCCESS_EXIT_VALUES") == 0) {
		if (exit_values_valid(v, &why) == 0)
			set_str(&q->success_exit_values, v);
	} else if (strcasecmp(k, "MAX_JOB_REQUEUE") == 0) {
		if (conf_int(v, 1, 2147483646L, &q->max_job_requeue) < 0)
			why = "must be an integer from 1 to 2147483646";
	} else if (strcasecmp(k, "JOB_CONTROLS") == 0) {
		job_controls(q, path, e->line, v, d);
	} else if (strcasecmp(k, "TERMINATE_WHEN") == 0) {
		set_str(&q->terminate_when, v);
		if (parse_terminate_when(v, &q->terminate_mask, &why2) < 0)
			conf_diag_error(d, path, e->line, "queue %s: bad "
			    "TERMINATE_WHEN \"%s\": %s is not WINDOW, LOAD or "
			    "PREEMPT", q->name, v, why2);
	} else if (strcasecmp(k, "FAIRSHARE") == 0) {
		/* Classified once lsb.users' groups are all known. */
		set_str(&q->fairshare, v);
		q->fairshare_line = e->line;
		(void)fs_fairshare_parse(v, &q->fs_shares, &why);
	} else if (strcasecmp(k, "FAIRSHARE_QUEUES") == 0 ||
	    strcasecmp(k, "QUEUE_GROUP") == 0) {
		/* QUEUE_GROUP is LSF 10's name for it; checked once every
		 * queue is read.  The same key twice is warned about
		 * already. */
		if (q->fairshare_queues_line > 0 && other_key_seen(q, k))
			conf_diag_warn(d, path, e->line, "queue %s: %s "
			    "replaces the list given at line %d", q->name, k,
			    conf_line_no(q->fairshare_queues_line));
		set_list(&q->fairshare_queues, v, false);
		q->fairshare_queues_line = e->line;
	} else if (strcasecmp(k, "PEND_TIME_LIMIT") == 0) {
		why = conf_blank(v) ? NULL :
		    conf_pend_limit(v, &q->pend_time_limit);
	} else if (strcasecmp(k, "ELIGIBLE_PEND_TIME_LIMIT") == 0) {
		why = conf_blank(v) ? NULL :
		    conf_pend_limit(v, &q->eligible_pend_time_limit);
	} else if (strcasecmp(k, "DISPATCH_ORDER") == 0) {
		/* QUEUE is the one value LSF has; empty is the default. */
		if (conf_blank(v))
			q->dispatch_order_queue = false;
		else if (strcasecmp(v, "QUEUE") == 0)
			q->dispatch_order_queue = true;
		else
			why = "the only value is QUEUE";
		q->dispatch_order_line = e->line;
	} else if (conf_fs_factor(k, v, &q->fs_factors, &q->fs_factors_set,
	    &why)) {
		/* Over lsb.params' once every queue is read. */
	} else if (strcasecmp(k, "PREEMPTION") == 0) {
		set_str(&q->preemption, v);
		if (parse_preemption(v, &q->preempt, &why) == 0)
			q->preempt.line = e->line;
	} else if ((rd = shared_numeric(&cfg->shared, k)) != NULL) {
		/* An ELIM's index: thresholds as for the built-in ones. */
		if (parse_threshold_ext(v, rd->name,
		    (int)(rd - cfg->shared.resources), rd->increasing, &q->thr,
		    &why2) < 0)
			conf_diag_error(d, path, e->line,
			    "queue %s: bad threshold %s = %s: %s", q->name, k,
			    v, why2);
	} else if (shared_has_resource(&cfg->shared, k)) {
		conf_diag_warn(d, path, e->line, "queue %s: %s is not a "
		    "dynamic numeric resource: a threshold on it has no effect",
		    q->name, k);
	} else if (!unsupported(q, path, e, d)) {
		conf_diag_warn(d, path, e->line,
		    "queue %s: unknown parameter %s ignored", q->name, k);
	}
	if (why != NULL)
		conf_diag_error(d, path, e->line, "queue %s: bad %s \"%s\": %s",
		    q->name, k, v, why);
}

static int
queue_seen(const struct lsf_config *cfg, const char *name)
{
	const struct queue_conf *q = config_queue(cfg, name);

	return q ? q->line : 0;
}

static void
read_queue(struct lsf_config *cfg, const struct conf_file *f,
    const struct conf_section *sec, struct conf_diag *d)
{
	struct conf_kvs kv;
	struct queue_conf q;
	const char *name, *why;

	name = conf_named_section(f, sec, "QUEUE_NAME", "queue", queue_seen,
	    cfg, &kv, d);
	if (name == NULL)
		goto out;
	queue_conf_init(&q);
	q.name = xstrdup(name);
	q.line = sec->line;
	for (int i = 0; i < kv.n; i++) {
		strv_push(&q.keys, kv.v[i].key);
		strv_push(&q.vals, kv.v[i].val);
		apply_key(cfg, &q, f->path, &kv.v[i], d);
	}
	if ((why = prepost_conf_check(&q.pp)) != NULL)
		conf_diag_warn(d, f->path, sec->line, "queue %s: %s", q.name,
		    why);
	cfg->queues = conf_grow(cfg->queues, cfg->nqueues,
	    sizeof(*cfg->queues));
	cfg->queues[cfg->nqueues++] = q;
out:
	conf_kvs_release(&kv);
}

void
lsb_queues_read(struct lsf_config *cfg, const char *path, struct conf_diag *d)
{
	conf_read_sections(cfg, path, "Queue", read_queue, d);
	lsb_queues_check_preemption(cfg, path, d);
	lsb_queues_check_fairshare(cfg, path, d);
}
