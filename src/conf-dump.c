/*
 * config_dump(): the parsed configuration as "file.section.key = value"
 * lines in a fixed order.  The golden tests diff this output, so every
 * field is printed, including defaults; "-" stands for unset.
 */
#include <stdio.h>
#include <stdlib.h>

#include "conf-lex.h"

static const char *
str(const char *s)
{
	return s != NULL ? s : "-";
}

static void
put_list(FILE *fp, const char *prefix, const char *key, const struct strv *v)
{
	fprintf(fp, "%s%s =", prefix, key);
	if (v->n == 0)
		fputs(" -", fp);
	for (size_t i = 0; i < v->n; i++)
		fprintf(fp, " %s", v->v[i]);
	fputc('\n', fp);
}

static void
put_thresholds(FILE *fp, const char *prefix, const struct thresholds *t)
{
	for (int i = 0; i < NLOADIDX; i++) {
		unsigned bit = 1u << i;

		if (!((t->sched_set | t->stop_set) & bit))
			continue;
		fprintf(fp, "%s%s = ", prefix, load_index_info[i].name);
		if (t->sched_set & bit)
			fprintf(fp, "%g", (double)t->sched[i]);
		fputc('/', fp);
		if (t->stop_set & bit)
			fprintf(fp, "%g", (double)t->stop[i]);
		fputc('\n', fp);
	}
	for (int i = 0; i < t->next; i++) {
		const struct ext_threshold *e = &t->ext[i];

		fprintf(fp, "%s%s = ", prefix, e->name);
		if (e->sched_set)
			fprintf(fp, "%g", (double)e->sched);
		fputc('/', fp);
		if (e->stop_set)
			fprintf(fp, "%g", (double)e->stop);
		fprintf(fp, " (%s)\n", e->increasing ? "increasing" :
		    "decreasing");
	}
}

static void
dump_lsf(const struct lsf_conf *c, FILE *fp)
{
	const char *p = "lsf.conf.";

	fprintf(fp, "%spath = %s\n", p, str(c->path));
	fprintf(fp, "%sLSF_ENVDIR = %s\n", p, str(c->envdir));
	fprintf(fp, "%sLSF_CONFDIR = %s\n", p, str(c->confdir));
	fprintf(fp, "%sLSB_CONFDIR = %s\n", p, str(c->lsb_confdir));
	fprintf(fp, "%sLSB_SHAREDIR = %s\n", p, str(c->sharedir));
	fprintf(fp, "%sLSF_LOGDIR = %s\n", p, str(c->logdir));
	fprintf(fp, "%sLSF_SERVERDIR = %s\n", p, str(c->serverdir));
	fprintf(fp, "%sLSF_BINDIR = %s\n", p, str(c->bindir));
	fprintf(fp, "%sLSB_SBD_STATEDIR = %s\n", p, str(c->sbd_statedir));
	if (c->localdir != NULL)
		fprintf(fp, "%sLSB_LOCALDIR = %s\n", p, c->localdir);
	if (c->hist_dir != NULL)
		fprintf(fp, "%sLSB_HIST_DB_DIR = %s\n", p, c->hist_dir);
	if (c->hist_wal_limit != DEF_HIST_WAL_LIMIT)
		fprintf(fp, "%sLSB_HIST_WAL_LIMIT = %d\n", p,
		    c->hist_wal_limit);
	fprintf(fp, "%sLSF_LIM_PORT = %d\n", p, c->lim_port);
	fprintf(fp, "%sLSB_MBD_PORT = %d\n", p, c->mbd_port);
	fprintf(fp, "%sLSB_SBD_PORT = %d\n", p, c->sbd_port);
	put_list(fp, p, "LSF_MASTER_LIST", &c->master_list);
	fprintf(fp, "%sLSF_UNIT_FOR_LIMITS = %s\n", p,
	    str(c->unit_for_limits));
	fprintf(fp, "%sLSF_LOG_MASK = %s\n", p, str(c->log_mask));
}

static void
dump_hostsfile(const struct lsf_config *cfg, FILE *fp)
{
	for (int i = 0; i < cfg->nhostsfile; i++) {
		const struct hosts_entry *h = &cfg->hostsfile[i];

		fprintf(fp, "hosts.%s = %s", h->addr, h->name);
		for (size_t j = 0; j < h->aliases.n; j++)
			fprintf(fp, " %s", h->aliases.v[j]);
		fputc('\n', fp);
	}
}

static void
dump_shared(const struct shared_conf *s, FILE *fp)
{
	static const char *const types[] = { "Boolean", "Numeric", "String" };

	fprintf(fp, "lsf.shared.path = %s\n", str(s->path));
	put_list(fp, "lsf.shared.", "Cluster", &s->clusters);
	put_list(fp, "lsf.shared.", "HostType", &s->host_types);
	for (int i = 0; i < s->nmodels; i++)
		fprintf(fp, "lsf.shared.HostModel.%s = cpuf %g arch %s\n",
		    s->models[i].name, (double)s->models[i].cpuf,
		    str(s->models[i].arch));
	for (int i = 0; i < s->nresources; i++) {
		const struct resource_def *r = &s->resources[i];

		fprintf(fp, "lsf.shared.Resource.%s = %s interval %d "
		    "increasing %c (%s)\n", r->name, types[r->type],
		    r->interval, r->increasing ? 'Y' : 'N', str(r->desc));
	}
}

static void
dump_cluster(const struct cluster_conf *c, FILE *fp)
{
	char *pre;

	fprintf(fp, "lsf.cluster.path = %s\n", str(c->path));
	fprintf(fp, "lsf.cluster.name = %s\n", str(c->name));
	fprintf(fp, "lsf.cluster.Parameters.EXINTERVAL = %d\n", c->exinterval);
	fprintf(fp, "lsf.cluster.Parameters.HOST_INACTIVITY_LIMIT = %d\n",
	    c->host_inactivity_limit);
	fprintf(fp, "lsf.cluster.Parameters.ELIM_POLL_INTERVAL = %d\n",
	    c->elim_poll_interval);
	put_list(fp, "lsf.cluster.", "ClusterAdmins", &c->admins);
	for (int i = 0; i < c->nhosts; i++) {
		const struct cluster_host *h = &c->hosts[i];

		pre = xasprintf("lsf.cluster.Host.%s.", h->name);
		fprintf(fp, "%smodel = %s\n", pre, str(h->model));
		fprintf(fp, "%stype = %s\n", pre, str(h->type));
		fprintf(fp, "%sserver = %d\n", pre, h->server ? 1 : 0);
		fprintf(fp, "%snd = %d\n", pre, h->nd);
		put_list(fp, pre, "RESOURCES", &h->resources);
		fprintf(fp, "%sRUNWINDOW = %s\n", pre, str(h->runwindow));
		fprintf(fp, "%sREXPRI = %d\n", pre, h->rexpri);
		for (int j = 0; j < NLOADIDX; j++)
			if (h->busy_set & (1u << j))
				fprintf(fp, "%s%s = %g\n", pre,
				    load_index_info[j].name,
				    (double)h->busy[j]);
		free(pre);
	}
	for (size_t i = 0; i < c->resmap_names.n; i++)
		fprintf(fp, "lsf.cluster.ResourceMap.%s = %s\n",
		    c->resmap_names.v[i], c->resmap_locations.v[i]);
}

static const char *const kind_names[] = { "user", "group", "group@",
    "default", "others" };

/* USER_SHARES as classified: "[name, shares, kind] ...". */
static void
put_shares(FILE *fp, const char *prefix, const char *key,
    const struct fs_shares *s)
{
	fprintf(fp, "%s%s =", prefix, key);
	for (int i = 0; i < s->n; i++)
		fprintf(fp, " [%s, %d, %s]", s->v[i].name, s->v[i].shares,
		    kind_names[s->v[i].kind]);
	fputc('\n', fp);
}

static void
put_factors(FILE *fp, const char *prefix, const struct fs_factors *f)
{
	fprintf(fp, "%sFAIRSHARE_FACTORS = CPU_TIME %g RUN_TIME %g RUN_JOB %g "
	    "ADJUSTMENT %g HIST_HOURS %g HIST_RUN_TIME %c\n", prefix,
	    f->cpu_time, f->run_time, f->run_job, f->adjust, f->hist_hours,
	    f->hist_run ? 'Y' : 'N');
	if (f->run_decay)
		fprintf(fp, "%sRUN_TIME_DECAY = Y\n", prefix);
}

/* Fairshare lines only where something differs from the defaults: the
 * golden output of other cases stays as it was. */
static bool
factors_default(const struct fs_factors *f)
{
	struct fs_factors d;

	fs_factors_default(&d);
	return f->cpu_time == d.cpu_time && f->run_time == d.run_time &&
	    f->run_job == d.run_job && f->adjust == d.adjust &&
	    f->hist_hours == d.hist_hours && !f->hist_run && !f->run_decay;
}

static void
dump_params(const struct lsb_params *p, FILE *fp)
{
	const char *pre = "lsb.params.";

	fprintf(fp, "%spath = %s\n", pre, str(p->path));
	put_list(fp, pre, "DEFAULT_QUEUE", &p->default_queue);
	fprintf(fp, "%sDEFAULT_PROJECT = %s\n", pre, str(p->default_project));
	fprintf(fp, "%sMBD_SLEEP_TIME = %d\n", pre, p->mbd_sleep_time);
	fprintf(fp, "%sSBD_SLEEP_TIME = %d\n", pre, p->sbd_sleep_time);
	fprintf(fp, "%sJOB_ACCEPT_INTERVAL = %d\n", pre,
	    p->job_accept_interval);
	fprintf(fp, "%sJOB_SCHEDULING_INTERVAL = %d\n", pre,
	    p->job_scheduling_interval);
	fprintf(fp, "%sCLEAN_PERIOD = %d\n", pre, p->clean_period);
	fprintf(fp, "%sMAX_JOB_ARRAY_SIZE = %d\n", pre, p->max_job_array_size);
	fprintf(fp, "%sMAX_JOBID = %d\n", pre, p->max_jobid);
	fprintf(fp, "%sJOB_TERMINATE_INTERVAL = %d\n", pre,
	    p->job_terminate_interval);
	fprintf(fp, "%sMAX_SBD_FAIL = %d\n", pre, p->max_sbd_fail);
	fprintf(fp, "%sMAX_SBD_CONNS = %d\n", pre, p->max_sbd_conns);
	fprintf(fp, "%sMAX_JOB_NUM = %d\n", pre, p->max_job_num);
	fprintf(fp, "%sPG_SUSP_IT = %d\n", pre, p->pg_susp_it);
	fprintf(fp, "%sMAX_USER_PRIORITY = %d\n", pre, p->max_user_priority);
	fprintf(fp, "%sMAX_PEND_JOBS = %d\n", pre, p->max_pend_jobs);
	fprintf(fp, "%sSUB_TRY_INTERVAL = %d\n", pre, p->sub_try_interval);
	if (p->preempt_for)
		fprintf(fp, "%sPREEMPT_FOR = 0x%x\n", pre, p->preempt_for);
	/* Exceptions, when configured (most clusters have none). */
	if (p->global_exit_rate >= 0)
		fprintf(fp, "%sGLOBAL_EXIT_RATE = %d\n", pre,
		    p->global_exit_rate);
	if (p->job_exit_rate_duration != 5)
		fprintf(fp, "%sJOB_EXIT_RATE_DURATION = %d\n", pre,
		    p->job_exit_rate_duration);
	if (p->eadmin_trigger_duration != 1)
		fprintf(fp, "%sEADMIN_TRIGGER_DURATION = %d\n", pre,
		    p->eadmin_trigger_duration);
	if (p->detect_idle_job_after != 20)
		fprintf(fp, "%sDETECT_IDLE_JOB_AFTER = %d\n", pre,
		    p->detect_idle_job_after);
	fprintf(fp, "%sMAX_JOB_PREEMPT = %d\n", pre, p->max_job_preempt);
	fprintf(fp, "%sDEFAULT_APPLICATION = %s\n", pre,
	    str(p->default_application));
	if (!factors_default(&p->fs_factors))
		put_factors(fp, pre, &p->fs_factors);
	for (size_t i = 0; i < p->keys.n; i++)
		fprintf(fp, "%sraw.%s = %s\n", pre, p->keys.v[i],
		    p->vals.v[i]);
}

static void
put_limit(FILE *fp, const char *pre, const char *key,
    const struct limit_pair *l)
{
	fprintf(fp, "%s%s = %lld %lld\n", pre, key, l->deflt, l->max);
}

/* The parsed PREEMPTION, only where it is set: other queues' golden
 * output stays as it was. */
static void
put_preempt(FILE *fp, const char *pre, const struct queue_preempt *p)
{
	if (p->preemptive) {
		fprintf(fp, "%sPREEMPTIVE =", pre);
		for (size_t i = 0; i < p->victims.n; i++)
			fprintf(fp, " %s+%d", p->victims.v[i], p->pref[i]);
		fputc('\n', fp);
	}
	if (p->preemptable) {
		fprintf(fp, "%sPREEMPTABLE =", pre);
		for (size_t i = 0; i < p->by.n; i++)
			fprintf(fp, " %s", p->by.v[i]);
		fputc('\n', fp);
	}
}

static void
dump_queue(const struct queue_conf *q, FILE *fp)
{
	char *pre = xasprintf("lsb.queues.%s.", q->name);

	fprintf(fp, "%sline = %d\n", pre, conf_line_no(q->line));
	fprintf(fp, "%sPRIORITY = %d\n", pre, q->priority);
	fprintf(fp, "%sNICE = %d\n", pre, q->nice);
	fprintf(fp, "%sDESCRIPTION = %s\n", pre, str(q->description));
	fprintf(fp, "%sQJOB_LIMIT = %d\n", pre, q->qjob_limit);
	fprintf(fp, "%sUJOB_LIMIT = %d\n", pre, q->ujob_limit);
	fprintf(fp, "%sPJOB_LIMIT = %g\n", pre, (double)q->pjob_limit);
	fprintf(fp, "%sHJOB_LIMIT = %d\n", pre, q->hjob_limit);
	put_list(fp, pre, "USERS", &q->users);
	put_list(fp, pre, "HOSTS", &q->hosts);
	fprintf(fp, "%sEXCLUSIVE = %c\n", pre, q->exclusive ? 'Y' : 'N');
	fprintf(fp, "%sRES_REQ = %s\n", pre, str(q->res_req));
	fprintf(fp, "%sSTOP_COND = %s\n", pre, str(q->stop_cond));
	fprintf(fp, "%sRESUME_COND = %s\n", pre, str(q->resume_cond));
	put_thresholds(fp, pre, &q->thr);
	fprintf(fp, "%sDISPATCH_WINDOW = %s\n", pre,
	    str(q->dispatch_window.text));
	fprintf(fp, "%sRUN_WINDOW = %s\n", pre, str(q->run_window.text));
	put_limit(fp, pre, "RUNLIMIT", &q->runlimit);
	put_limit(fp, pre, "CPULIMIT", &q->cpulimit);
	put_limit(fp, pre, "MEMLIMIT", &q->memlimit);
	fprintf(fp, "%sPROCLIMIT = %d %lld %lld\n", pre, q->proclimit_min,
	    q->proclimit.deflt, q->proclimit.max);
	fprintf(fp, "%sJOB_ACCEPT_INTERVAL = %d\n", pre,
	    q->job_accept_interval);
	if (q->new_job_sched_delay > 0)
		fprintf(fp, "%sNEW_JOB_SCHED_DELAY = %d\n", pre,
		    q->new_job_sched_delay);
	fprintf(fp, "%sPRE_EXEC = %s\n", pre, str(q->pre_exec));
	fprintf(fp, "%sPOST_EXEC = %s\n", pre, str(q->post_exec));
	fprintf(fp, "%sJOB_STARTER = %s\n", pre, str(q->job_starter));
	fprintf(fp, "%sREQUEUE_EXIT_VALUES = %s\n", pre,
	    str(q->requeue_exit_values));
	fprintf(fp, "%sRERUNNABLE = %s\n", pre, q->rerunnable ? "yes" : "no");
	fprintf(fp, "%sMIG = %d\n", pre, q->mig);
	if (q->job_overrun >= 0)
		fprintf(fp, "%sJOB_OVERRUN = %d\n", pre, q->job_overrun);
	if (q->job_underrun >= 0)
		fprintf(fp, "%sJOB_UNDERRUN = %d\n", pre, q->job_underrun);
	if (q->job_idle >= 0)
		fprintf(fp, "%sJOB_IDLE = %g\n", pre, (double)q->job_idle);
	put_list(fp, pre, "ADMINISTRATORS", &q->administrators);
	fprintf(fp, "%sJOB_CONTROLS = %s\n", pre, str(q->job_controls));
	fprintf(fp, "%sTERMINATE_WHEN = %s\n", pre, str(q->terminate_when));
	fprintf(fp, "%sFAIRSHARE = %s\n", pre, str(q->fairshare));
	if (q->fs_shares.n > 0)
		put_shares(fp, pre, "USER_SHARES", &q->fs_shares);
	if (q->fairshare_queues.n > 0)
		put_list(fp, pre, "FAIRSHARE_QUEUES", &q->fairshare_queues);
	if (q->fs_shares.n > 0 || q->fs_factors_set != 0)
		put_factors(fp, pre, &q->fs_factors);
	fprintf(fp, "%sPREEMPTION = %s\n", pre, str(q->preemption));
	put_preempt(fp, pre, &q->preempt);
	fprintf(fp, "%sMAX_JOB_PREEMPT = %d\n", pre, q->max_job_preempt);
	for (size_t i = 0; i < q->keys.n; i++)
		fprintf(fp, "%sraw.%s = %s\n", pre, q->keys.v[i],
		    q->vals.v[i]);
	free(pre);
}

static void
dump_app(const struct app_conf *a, FILE *fp)
{
	char *pre = xasprintf("lsb.applications.%s.", a->name);

	fprintf(fp, "%sline = %d\n", pre, conf_line_no(a->line));
	fprintf(fp, "%sDESCRIPTION = %s\n", pre, str(a->description));
	fprintf(fp, "%sMAX_JOB_PREEMPT = %d\n", pre, a->max_job_preempt);
	fprintf(fp, "%sRUNLIMIT = %lld\n", pre, a->runlimit);
	fprintf(fp, "%sCPULIMIT = %lld\n", pre, a->cpulimit);
	fprintf(fp, "%sMEMLIMIT = %lld\n", pre, a->memlimit);
	fprintf(fp, "%sRERUNNABLE = %s\n", pre, a->rerunnable < 0 ? "-" :
	    a->rerunnable ? "yes" : "no");
	fprintf(fp, "%sCHKPNT_DIR = %s\n", pre, str(a->chkpnt_dir));
	fprintf(fp, "%sCHKPNT_PERIOD = %lld\n", pre, a->chkpnt_period);
	fprintf(fp, "%sCHKPNT_METHOD = %s\n", pre, str(a->chkpnt_method));
	fprintf(fp, "%sSUSPEND_CONTROL = %s\n", pre,
	    str(a->jobctl.op[JOBCTL_SUSPEND].text));
	fprintf(fp, "%sRESUME_CONTROL = %s\n", pre,
	    str(a->jobctl.op[JOBCTL_RESUME].text));
	fprintf(fp, "%sTERMINATE_CONTROL = %s\n", pre,
	    str(a->jobctl.op[JOBCTL_TERMINATE].text));
	for (size_t i = 0; i < a->keys.n; i++)
		fprintf(fp, "%sraw.%s = %s\n", pre, a->keys.v[i],
		    a->vals.v[i]);
	free(pre);
}

static void
dump_bhosts(const struct lsf_config *cfg, FILE *fp)
{
	for (int i = 0; i < cfg->nbhosts; i++) {
		const struct lsb_host_conf *h = &cfg->bhosts[i];
		char *pre = xasprintf("lsb.hosts.Host.%s.", h->name);

		fprintf(fp, "%sline = %d\n", pre, conf_line_no(h->line));
		if (h->mxj == MXJ_NCPUS)
			fprintf(fp, "%sMXJ = !\n", pre);
		else
			fprintf(fp, "%sMXJ = %d\n", pre, h->mxj);
		fprintf(fp, "%sJL/U = %d\n", pre, h->jlu);
		fprintf(fp, "%sDISPATCH_WINDOW = %s\n", pre,
		    str(h->dispatch_window.text));
		fprintf(fp, "%sMIG = %d\n", pre, h->mig);
		if (h->exit_rate >= 0)
			fprintf(fp, "%sEXIT_RATE = %d\n", pre, h->exit_rate);
		put_thresholds(fp, pre, &h->thr);
		free(pre);
	}
	for (int i = 0; i < cfg->nhgroups; i++)
		put_list(fp, "lsb.hosts.HostGroup.", cfg->hgroups[i].name,
		    &cfg->hgroups[i].members);
	for (int i = 0; i < cfg->nhparts; i++) {
		const struct host_partition *hp = &cfg->hparts[i];
		char *pre = xasprintf("lsb.hosts.HostPartition.%s.", hp->name);

		fprintf(fp, "%sline = %d\n", pre, conf_line_no(hp->line));
		put_list(fp, pre, "HOSTS", &hp->hosts);
		put_shares(fp, pre, "USER_SHARES", &hp->shares);
		free(pre);
	}
}

static void
dump_users(const struct lsf_config *cfg, FILE *fp)
{
	for (int i = 0; i < cfg->nugroups; i++) {
		const struct user_group *g = &cfg->ugroups[i];

		put_list(fp, "lsb.users.UserGroup.", g->name, &g->members);
		fprintf(fp, "lsb.users.UserGroup.%s.USER_SHARES = %s\n",
		    g->name, str(g->shares));
	}
	for (int i = 0; i < cfg->nulimits; i++) {
		const struct user_limit *u = &cfg->ulimits[i];

		fprintf(fp, "lsb.users.User.%s = MAX_JOBS %d JL/P %g "
		    "MAX_PEND_JOBS %d\n", u->name, u->max_jobs,
		    (double)u->jl_p, u->max_pend_jobs);
	}
}

static void
put_consumers(FILE *fp, const char *name, const char *key,
    const struct strv *v)
{
	char *prefix;

	if (v->n == 0)
		return;
	prefix = xasprintf("lsb.resources.Limit.%s.", name);
	put_list(fp, prefix, key, v);
	free(prefix);
}

static void
dump_limits(const struct lsf_config *cfg, FILE *fp)
{
	for (int i = 0; i < cfg->nlimits; i++) {
		const struct limit_conf *l = &cfg->limits[i];
		const char *n = l->name;

		fprintf(fp, "lsb.resources.Limit.%s.line = %d\n", n,
		    conf_line_no(l->line));
		put_consumers(fp, n, l->per_user ? "PER_USER" : "USERS",
		    &l->users);
		put_consumers(fp, n, l->per_queue ? "PER_QUEUE" : "QUEUES",
		    &l->queues);
		put_consumers(fp, n, l->per_host ? "PER_HOST" : "HOSTS",
		    &l->hosts);
		put_consumers(fp, n, l->per_project ? "PER_PROJECT" :
		    "PROJECTS", &l->projects);
		fprintf(fp, "lsb.resources.Limit.%s = SLOTS %d "
		    "SLOTS_PER_PROCESSOR %g MEM %d MEM%% %g JOBS %d\n", n,
		    l->slots, (double)l->slots_per_proc, l->mem,
		    (double)l->mem_pct, l->jobs);
	}
}

void
config_dump(const struct lsf_config *cfg, FILE *fp)
{
	if (!(cfg->loaded & CONF_LSF))
		return;
	dump_lsf(&cfg->lsf, fp);
	dump_hostsfile(cfg, fp);
	if (!(cfg->loaded & CONF_SHARED))
		return;
	dump_shared(&cfg->shared, fp);
	if (!(cfg->loaded & CONF_CLUSTER))
		return;
	dump_cluster(&cfg->cluster, fp);
	if (!(cfg->loaded & CONF_LSB))
		return;
	fprintf(fp, "lsb.dir = %s\n", str(cfg->lsb_dir));
	dump_params(&cfg->params, fp);
	for (int i = 0; i < cfg->nqueues; i++)
		dump_queue(&cfg->queues[i], fp);
	for (int i = 0; i < cfg->napps; i++)
		dump_app(&cfg->apps[i], fp);
	dump_bhosts(cfg, fp);
	dump_users(cfg, fp);
	dump_limits(cfg, fp);
}
