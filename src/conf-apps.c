/*
 * lsb.applications: one "Begin Application ... End Application" section
 * per application profile.  The file is optional; a profile is named by
 * NAME, and jobs ask for it with bsub -app (or get DEFAULT_APPLICATION).
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "chkpnt.h"
#include "conf-lex.h"


/*
 * The warn list: LSF keys this version reads and does not act on.  Kept
 * in keys/vals (bapp -l), each value checked against its LSF type
 * (conf-keys.c), each warned about; man/lsb.applications.5 lists them.
 * Implementing one: delete its line, handle it in apply_key.
 */
static const char *const quiet_keys[] = {
	"ABS_RUNLIMIT",
	"BIND_JOB",
	"CHKPNT_INITPERIOD",
	"CHUNK_JOB_SIZE",
	"CONTAINER",
	"CORELIMIT",
	"CPU_FREQUENCY",
	"DATALIMIT",
	"DJOB_COMMFAIL_ACTION",
	"DJOB_DISABLED",
	"DJOB_ENV_SCRIPT",
	"DJOB_HB_INTERVAL",
	"DJOB_RESIZE_GRACE_PERIOD",
	"DJOB_RU_INTERVAL",
	"DOCKER_IMAGE_AFFINITY",
	"ENV_VARS",
	"ESTIMATED_RUNTIME",
	"EXEC_DRIVER",
	"FILELIMIT",
	"GPU_REQ",
	"JOB_CWD",
	"JOB_CWD_TTL",
	"JOB_INCLUDE_POSTPROC",
	"JOB_POSTPROC_TIMEOUT",
	"JOB_SIZE_LIST",
	"JOB_STARTER",
	"MAX_TOTAL_TIME_PREEMPT",
	"MIG",
	"NETWORK_REQ",
	"NICE",
	"NO_PREEMPT_FINISH_TIME",
	"NO_PREEMPT_INTERVAL",
	"NO_PREEMPT_RUN_TIME",
	"PERSISTENT_HOST_ORDER",
	"PREEMPT_DELAY",
	"PROCESSLIMIT",
	"PROCLIMIT",
	"REMOTE_MAX_PREEXEC_RETRY",
	"RES_REQ",
	"RESIZABLE_JOBS",
	"RESIZE_NOTIFY_CMD",
	"RUNTIME",
	"STACKLIMIT",
	"SWAPLIMIT",
	"TASKLIMIT",
	"THREADLIMIT",
	"USE_PAM_CREDS",
	"WATCHDOG",
	NULL
};

const char *const *
lsb_apps_warn_keys(void)
{
	return quiet_keys;
}

static const char *const control_keys[JOBCTL_NOPS] = {
	"SUSPEND_CONTROL", "RESUME_CONTROL", "TERMINATE_CONTROL"
};

void
app_conf_init(struct app_conf *a)
{
	memset(a, 0, sizeof(*a));
	a->max_job_preempt = -1;
	a->max_job_requeue = -1;
	a->runlimit = a->cpulimit = a->memlimit = -1;
	a->pend_time_limit = a->eligible_pend_time_limit = -1;
	a->rerunnable = -1;
	jobctl_init(&a->jobctl);
	prepost_conf_init(&a->pp);
	strv_init(&a->keys);
	strv_init(&a->vals);
}

void
app_conf_release(struct app_conf *a)
{
	free(a->name);
	free(a->description);
	free(a->success_exit_values);
	free(a->requeue_exit_values);
	free(a->chkpnt_dir);
	free(a->chkpnt_method);
	jobctl_release(&a->jobctl);
	free(a->pre_exec);
	free(a->post_exec);
	prepost_conf_release(&a->pp);
	strv_release(&a->keys);
	strv_release(&a->vals);
	app_conf_init(a);
}

void
lsb_apps_release(struct lsf_config *cfg)
{
	for (int i = 0; i < cfg->napps; i++)
		app_conf_release(&cfg->apps[i]);
	free(cfg->apps);
	cfg->apps = NULL;
	cfg->napps = 0;
}

const struct app_conf *
config_app(const struct lsf_config *cfg, const char *name)
{
	if (name == NULL)
		return NULL;
	for (int i = 0; i < cfg->napps; i++)
		if (strcmp(cfg->apps[i].name, name) == 0)
			return &cfg->apps[i];
	return NULL;
}

/* SUSPEND_CONTROL and the others: one action, as inside JOB_CONTROLS'
 * brackets. */
static void
control(struct app_conf *a, enum jobctl_op op, const char *path, int line,
    const char *v, struct conf_diag *d)
{
	char *cause = NULL, *warn;

	jobctl_action_release(&a->jobctl.op[op]);
	if (jobctl_action_parse(&a->jobctl.op[op], op, v, &cause) < 0) {
		conf_diag_error(d, path, line, "application %s: bad %s \"%s\": "
		    "%s", a->name, control_keys[op], v, cause);
		free(cause);
		return;
	}
	if ((warn = jobctl_warning(&a->jobctl, op)) != NULL) {
		conf_diag_warn(d, path, line, "application %s: %s %s", a->name,
		    control_keys[op], warn);
		free(warn);
	}
}

/* A single time limit "[hh:]mm[/host]" in minutes, > 0. */
static const char *
time_limit(const char *v, long long *out)
{
	long long m;

	if (parse_time_limit(v, &m) < 0 || m <= 0)
		return "not a time limit [hh:]mm above 0";
	*out = m;
	return NULL;
}

static void
apply_key(const struct lsf_config *cfg, struct app_conf *a, const char *path,
    const struct conf_kv *e, struct conf_diag *d)
{
	const char *k = e->key, *v = e->val, *why = NULL;
	long long kb;
	int n;
	bool b;

	if (strcasecmp(k, "NAME") == 0)
		return;
	/* An empty value leaves the default, as LSF does. */
	if (conf_blank(v))
		return;
	for (int op = 0; op < JOBCTL_NOPS; op++)
		if (strcasecmp(k, control_keys[op]) == 0) {
			control(a, op, path, e->line, v, d);
			return;
		}
	if (strcasecmp(k, "DESCRIPTION") == 0) {
		free(a->description);
		a->description = xstrdup(v);
	} else if (strcasecmp(k, "MAX_JOB_PREEMPT") == 0) {
		if (conf_int(v, 1, 2147483646L, &a->max_job_preempt) < 0)
			why = "must be an integer from 1 to 2147483646";
	} else if (strcasecmp(k, "MAX_JOB_REQUEUE") == 0) {
		if (conf_int(v, 1, 2147483646L, &a->max_job_requeue) < 0)
			why = "must be an integer from 1 to 2147483646";
	} else if (strcasecmp(k, "SUCCESS_EXIT_VALUES") == 0) {
		if (exit_values_valid(v, &why) == 0) {
			free(a->success_exit_values);
			a->success_exit_values = xstrdup(v);
		}
	} else if (strcasecmp(k, "REQUEUE_EXIT_VALUES") == 0) {
		if (requeue_values_parse(v, &a->requeue, &why) == 0) {
			free(a->requeue_exit_values);
			a->requeue_exit_values = xstrdup(v);
		}
	} else if (strcasecmp(k, "RUNLIMIT") == 0) {
		why = time_limit(v, &a->runlimit);
	} else if (strcasecmp(k, "CPULIMIT") == 0) {
		why = time_limit(v, &a->cpulimit);
	} else if (strcasecmp(k, "MEMLIMIT") == 0) {
		if (parse_mem_kb(v, cfg->lsf.unit_for_limits, &kb) < 0 ||
		    kb <= 0)
			why = "not a memory amount above 0";
		else
			a->memlimit = kb;
	} else if (strcasecmp(k, "RERUNNABLE") == 0) {
		if (conf_bool(v, &b) == 0)
			a->rerunnable = b;
		else
			why = "must be yes or no";
	} else if (strcasecmp(k, "PEND_TIME_LIMIT") == 0) {
		why = conf_blank(v) ? NULL :
		    conf_pend_limit(v, &a->pend_time_limit);
	} else if (strcasecmp(k, "ELIGIBLE_PEND_TIME_LIMIT") == 0) {
		why = conf_blank(v) ? NULL :
		    conf_pend_limit(v, &a->eligible_pend_time_limit);
	} else if (strcasecmp(k, "CHKPNT_DIR") == 0) {
		/* A relative one would depend on each job's directory. */
		if (*v != '/' || strpbrk(v, " \t") != NULL)
			why = "must be one absolute path";
		else {
			free(a->chkpnt_dir);
			a->chkpnt_dir = xstrdup(v);
		}
	} else if (strcasecmp(k, "CHKPNT_PERIOD") == 0) {
		if (conf_int(v, 1, 1000000, &n) < 0)
			why = "must be a number of minutes from 1 to 1000000";
		else
			a->chkpnt_period = n;
	} else if (strcasecmp(k, "CHKPNT_METHOD") == 0) {
		if (!chkpnt_method_ok(v))
			why = "must name a method (echkpnt.<method>): no slash "
			    "or blank";
		else {
			free(a->chkpnt_method);
			a->chkpnt_method = xstrdup(v);
		}
	} else if (strcasecmp(k, "PRE_EXEC") == 0 ||
	    strcasecmp(k, "POST_EXEC") == 0) {
		char **dst = toupper((unsigned char)k[1]) == 'R' ?
		    &a->pre_exec : &a->post_exec;

		free(*dst);
		*dst = xstrdup(v);
	} else if (prepost_conf_key(&a->pp, k, v, &why)) {
		/* HOST_PRE_EXEC, PRE_POST_EXEC_USER, the retries, the
		 * warning action. */
	} else {
		char *who = xasprintf("application %s: ", a->name);

		if (!conf_warn_key("lsb.applications", quiet_keys, path,
		    e->line, who, k, v, d))
			conf_diag_warn(d, path, e->line, "application %s: "
			    "unknown parameter %s ignored", a->name, k);
		free(who);
	}
	if (why != NULL)
		conf_diag_error(d, path, e->line, "application %s: bad %s "
		    "\"%s\": %s", a->name, k, v, why);
}

static int
app_seen(const struct lsf_config *cfg, const char *name)
{
	const struct app_conf *a = config_app(cfg, name);

	return a ? a->line : 0;
}

static void
read_app(struct lsf_config *cfg, const struct conf_file *f,
    const struct conf_section *sec, struct conf_diag *d)
{
	struct conf_kvs kv;
	struct app_conf a;
	const char *name;

	name = conf_named_section(f, sec, "NAME", "application", app_seen, cfg,
	    &kv, d);
	if (name == NULL)
		goto out;
	app_conf_init(&a);
	a.name = xstrdup(name);
	a.line = sec->line;
	for (int i = 0; i < kv.n; i++) {
		strv_push(&a.keys, kv.v[i].key);
		strv_push(&a.vals, kv.v[i].val);
		apply_key(cfg, &a, f->path, &kv.v[i], d);
	}

	/* LSF: the period and method take effect with the profile's own
	 * CHKPNT_DIR only. */
	if (a.chkpnt_dir == NULL && (a.chkpnt_period > 0 ||
	    a.chkpnt_method != NULL))
		conf_diag_warn(d, f->path, sec->line, "application %s: "
		    "CHKPNT_PERIOD and CHKPNT_METHOD have no effect without "
		    "CHKPNT_DIR", a.name);
	cfg->apps = conf_grow(cfg->apps, cfg->napps, sizeof(*cfg->apps));
	cfg->apps[cfg->napps++] = a;
out:
	conf_kvs_release(&kv);
}

void
lsb_apps_read(struct lsf_config *cfg, const char *path, struct conf_diag *d)
{
	conf_read_sections(cfg, path, "Application", read_app, d);
}
