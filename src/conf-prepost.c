/*
 * The keys lsb.queues and lsb.applications share for pre- and
 * post-execution and the job warning action: HOST_PRE_EXEC,
 * HOST_POST_EXEC, PRE_POST_EXEC_USER, LOCAL_MAX_PREEXEC_RETRY,
 * MAX_PREEXEC_RETRY, LOCAL_MAX_PREEXEC_RETRY_ACTION, JOB_WARNING_ACTION
 * and JOB_ACTION_WARNING_TIME.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "conf-lex.h"

#define INT_MAXID	2147483646L

void
prepost_conf_init(struct prepost_conf *p)
{
	memset(p, 0, sizeof(*p));
	p->local_retry = -1;
	p->max_retry = -1;
	p->retry_action = -1;
	p->warning_time = -1;
}

void
prepost_conf_release(struct prepost_conf *p)
{
	free(p->host_pre_exec);
	free(p->host_post_exec);
	free(p->prepost_user);
	free(p->warning_action);
	prepost_conf_init(p);
}

static void
set(char **dst, const char *v)
{
	free(*dst);
	*dst = xstrdup(v);
}

/* A user name: no blank, no slash, not a number alone. */
static bool
user_name_ok(const char *v)
{
	return *v != '\0' && strpbrk(v, " \t/:") == NULL;
}

bool
prepost_conf_key(struct prepost_conf *p, const char *k, const char *v,
    const char **why)
{
	long long m;
	int n;

	*why = NULL;
	if (strcasecmp(k, "HOST_PRE_EXEC") == 0) {
		set(&p->host_pre_exec, v);
	} else if (strcasecmp(k, "HOST_POST_EXEC") == 0) {
		set(&p->host_post_exec, v);
	} else if (strcasecmp(k, "PRE_POST_EXEC_USER") == 0) {
		if (!user_name_ok(v))
			*why = "must be one user name";
		else
			set(&p->prepost_user, v);
	} else if (strcasecmp(k, "LOCAL_MAX_PREEXEC_RETRY") == 0 ||
	    strcasecmp(k, "MAX_PREEXEC_RETRY") == 0) {
		if (conf_int(v, 1, INT_MAXID, &n) < 0)
			*why = "must be an integer from 1 to 2147483646";
		else if (toupper((unsigned char)k[0]) == 'L')
			p->local_retry = n;
		else
			p->max_retry = n;
	} else if (strcasecmp(k, "LOCAL_MAX_PREEXEC_RETRY_ACTION") == 0) {
		if (strcasecmp(v, "SUSPEND") == 0)
			p->retry_action = PREEXEC_ACT_SUSPEND;
		else if (strcasecmp(v, "EXIT") == 0)
			p->retry_action = PREEXEC_ACT_EXIT;
		else
			*why = "must be SUSPEND or EXIT";
	} else if (strcasecmp(k, "JOB_WARNING_ACTION") == 0) {
		if (strcasecmp(v, "CHKPNT") != 0 && sig_from_name(v) <= 0)
			*why = "must be a signal name or CHKPNT";
		else
			set(&p->warning_action, v);
	} else if (strcasecmp(k, "JOB_ACTION_WARNING_TIME") == 0) {
		if (parse_time_limit(v, &m) < 0 || m <= 0 || m > 35791394)
			*why = "must be a time [hour:]minute above 0";
		else
			p->warning_time = (int)(m * 60);
	} else
		return false;
	return true;
}

const char *
prepost_conf_check(const struct prepost_conf *p)
{
	if (p->warning_action != NULL && p->warning_time < 0)
		return "JOB_WARNING_ACTION has no effect without "
		    "JOB_ACTION_WARNING_TIME";
	if (p->warning_action == NULL && p->warning_time >= 0)
		return "JOB_ACTION_WARNING_TIME has no effect without "
		    "JOB_WARNING_ACTION";
	return NULL;
}

/*
 * How many pre-exec attempts a job has on this cluster, and what then:
 * LOCAL_MAX_PREEXEC_RETRY, the profile's over the queue's over
 * lsb.params'.  LSF keeps MAX_PREEXEC_RETRY for jobs from a remote
 * cluster; there is none here, so a MAX_PREEXEC_RETRY given (at the same
 * levels) is the limit where no LOCAL_MAX_PREEXEC_RETRY is.  Neither:
 * unlimited (0).  The action is LOCAL_MAX_PREEXEC_RETRY_ACTION, the
 * narrowest given, SUSPEND by default.
 */
void
preexec_retry_policy(const struct lsb_params *p, const struct queue_conf *q,
    const struct app_conf *a, int *limit, int *action)
{
	const struct prepost_conf *lv[2] = { a ? &a->pp : NULL,
	    q ? &q->pp : NULL };

	*limit = 0;
	*action = p->preexec_retry_action;
	for (int i = 1; i >= 0; i--)
		if (lv[i] != NULL && lv[i]->retry_action >= 0)
			*action = lv[i]->retry_action;
	for (int i = 0; i < 2 && *limit == 0; i++)
		if (lv[i] != NULL && lv[i]->local_retry > 0)
			*limit = lv[i]->local_retry;
	if (*limit == 0 && p->local_preexec_retry > 0)
		*limit = p->local_preexec_retry;
	for (int i = 0; i < 2 && *limit == 0; i++)
		if (lv[i] != NULL && lv[i]->max_retry > 0)
			*limit = lv[i]->max_retry;
	if (*limit == 0 && p->max_preexec_retry_set)
		*limit = p->max_preexec_retry;
}
