/*
 * mbatchd's durable state as canonical text (badmin statedump): every
 * job, array, queue and host field that lsb.events carries or that
 * follows from it, one line per object, in a fixed order.  A restart
 * replays the log; the state it rebuilds must print the same text as the
 * state before it (tests/scenario/t0034-replay.sh), which is what proves
 * that each record is applied the same way live and in replay.
 *
 * Left out, because they are not the log's: what the scheduler computes
 * each pass (pending reasons, reservations' load), what hosts report
 * (loads, a running job's current usage), and what is on its way to a
 * host (stop_sent, resume_sent, window_sent: a restarted mbatchd asks
 * again, or the host's registration tells).
 */
#include <stdlib.h>
#include <string.h>

#include "mbd.h"
#include "util.h"

static const char *
s(const char *v)
{
	return v ? v : "-";
}

static void
dump_x(struct strbuf *sb, const struct job_extra *x)
{
	if (x == NULL)
		return;
	sb_addf(sb, " asked=");
	for (size_t i = 0; i < x->asked_hosts.n; i++)
		sb_addf(sb, "%s%s", i ? "," : "", x->asked_hosts.v[i]);
	/* What they mean: host index and "+N" level. */
	for (int i = 0; i < x->nasked; i++)
		sb_addf(sb, "%s%d+%d", i ? "," : " asked_idx=",
		    x->asked_idx[i], x->asked_idx[x->nasked + i]);
	sb_addf(sb, " mail=%s ugroup=%s dep=%s pre=%s post=%s shell=%s "
	    "in=%s cwd=%s begin=%lld term=%lld sp=%d", s(x->mail_user),
	    s(x->user_group), s(x->depend_cond), s(x->pre_exec),
	    s(x->post_exec), s(x->login_shell), s(x->in_file), s(x->cwd_req),
	    (long long)x->begin_time, (long long)x->term_time,
	    x->user_priority);
	if (x->outdir)
		sb_addf(sb, " outdir=%s", x->outdir);
	if (x->warning_action || x->warning_time)
		sb_addf(sb, " wa=%s wt=%d", s(x->warning_action),
		    x->warning_time);
	sb_addf(sb, " rlim=");
	for (int i = 0; i < LSF_RLIM_NLIMITS; i++)
		sb_addf(sb, "%s%lld", i ? "," : "", (long long)x->rlimits[i]);
}

static void
dump_array(struct strbuf *sb, const struct jarray *a)
{
	char *pend = idxset_format(&a->pend), *gone = idxset_format(&a->gone);

	sb_addf(sb, " array total=%lld limit=%d pend=%s gone=%s "
	    "gone_reason=%d started=%lld pdone=%lld perr=%lld nstat=",
	    (long long)a->total, a->limit, pend, gone, a->gone_reason,
	    (long long)a->nstarted, (long long)a->npdone,
	    (long long)a->nperr);
	for (int i = 0; i < AS_NSTATES; i++)
		sb_addf(sb, "%s%lld", i ? "," : "", (long long)a->nstat[i]);
	free(pend);
	free(gone);
}

static void
dump_job(struct strbuf *sb, const struct job *j)
{
	bool ended = JOB_STAT_FINISHED(j->status);

	sb_addf(sb, "job %lld[%d] status=0x%x queue=%s user=%s uid=%d "
	    "options=0x%x/0x%x name=%s out=%s err=%s res_req=%s procs=%d "
	    "submit=%lld run_count=%u", (long long)j->jobid, j->idx,
	    (unsigned)j->status, j->queue->name, s(j->user), j->uid,
	    j->options, j->options2, s(j->job_name), s(j->out_file),
	    s(j->err_file), s(j->res_req), j->pj.num_procs,
	    (long long)j->submit_time, j->run_count);
	if (j->app)
		sb_addf(sb, " app=%s", j->app);
	sb_addf(sb, " exec=");
	for (int i = 0; i < j->nexec; i++)
		sb_addf(sb, "%s%s", i ? "," : "", j->exec[i]->name);
	sb_addf(sb, " start=%lld pid=%d pgid=%d executed=%d xcwd=%s xhome=%s "
	    "xuser=%s", (long long)j->start_time, j->pid, j->pgid,
	    j->executed, s(j->exec_cwd), s(j->exec_home), s(j->exec_user));
	if (ended)
		sb_addf(sb, " end=%lld exit=%d exit_reason=%d cpu=%.2f "
		    "maxmem=%lld avgmem=%lld", (long long)j->end_time,
		    j->exit_status, j->exit_reason, j->cpu_time,
		    (long long)j->max_mem_kb, (long long)j->avg_mem_kb);
	sb_addf(sb, " susp=%d/%d hold=%d note=%d end_action=0x%x kill_done=%d "
	    "preexec_fails=%d forced=%d no_susp=%d restart=%d",
	    j->susp_reason, j->susp_sub, j->hold_reason, j->pend_note, j->end_action,
	    j->kill_done, j->preexec_fails, j->forced, j->no_susp,
	    j->restart);
	if (j->status & JOB_STAT_SSUSP)
		sb_addf(sb, " ssusp_since=%lld", (long long)j->ssusp_since);
	if (job_chkpnt_dir(j) != NULL)
		sb_addf(sb, " chkpnt=%s method=%s period=%lld/%d taken=%d "
		    "at=%lld", job_chkpnt_dir(j),
		    s(job_chkpnt_method(j)),
		    (long long)job_chkpnt_period(j),
		    j->ck ? j->ck->period_set : 0, j->ck ? j->ck->taken : 0,
		    (long long)(j->ck ? j->ck->at : 0));
	if (j->kill_asked)
		sb_addf(sb, " kill_asked=1");
	if (j->npreempt || j->preempt_kill || j->slots_free)
		sb_addf(sb, " npreempt=%d preempt_kill=%d slots_free=%d",
		    j->npreempt, j->preempt_kill, j->slots_free);
	if (j->nrequeue)
		sb_addf(sb, " nrequeue=%d eligible=%lld", j->nrequeue,
		    (long long)j->pj.eligible_time);
	if (j->sig_pending)
		sb_addf(sb, " sig_pending=%d/%d", j->pending_sig,
		    j->pending_reason);
	dump_x(sb, j->x);
	if (JOB_IS_PARENT(j))
		dump_array(sb, j->arr);
	sb_addc(sb, '\n');
}

static void
dump_list(struct strbuf *sb, const char *what, const struct pol_list *l)
{
	sb_addf(sb, "%s", what);
	for (const struct pol_job *p = l->head; p; p = p->rnext) {
		const struct job *j = JOB_OF_PJ(p);

		sb_addf(sb, "%s%lld[%d]", p == l->head ? "" : ",",
		    (long long)j->jobid, j->idx);
	}
}

static void
dump_queue(struct strbuf *sb, const struct mqueue *q)
{
	sb_addf(sb, "queue %s open=%d active=%d slots=%d/%d/%d/%d pending=",
	    q->name, q->open, q->active, q->nslots_pend, q->nslots_run,
	    q->nslots_ssusp, q->nslots_ususp);
	/* The dispatch order, which btop, bbot and requeues change. */
	for (const struct pol_job *p = q->pq.head; p; p = p->next) {
		const struct job *j = JOB_OF_PJ(p);

		sb_addf(sb, "%s%lld[%d]", p == q->pq.head ? "" : ",",
		    (long long)j->jobid, j->idx);
	}
	/* What preemption sees: its running and its preempted jobs. */
	dump_list(sb, " running=", &q->pq.running);
	dump_list(sb, " preempted=", &q->pq.preempted);
	sb_addc(sb, '\n');
}

static void
dump_host(struct strbuf *sb, const struct mhost *h)
{
	sb_addf(sb, "host %s closed_adm=%d removed=%d run=%d ssusp=%d "
	    "ususp=%d used_slots=%d comment=%s exc_fired=%d exits=",
	    h->name, h->closed_adm, h->removed, h->nrun, h->nssusp,
	    h->nususp, h->ph.used_slots,
	    h->adm_comment ? h->adm_comment : "-", h->exc_fired);
	for (int i = 0; i < h->nexits; i++)
		sb_addf(sb, "%s%lld", i ? "," : "", (long long)h->exits[i]);
	sb_addf(sb, "\n");
}

/* A share tree's nodes: the history the log made, what started jobs
 * hold, and each account's pending jobs in each queue, in order (the CPU
 * of running jobs is the hosts' report: left out). */
struct fs_dump {
	struct strbuf	*sb;
	const struct mfs *m;
};

static void
dump_fs_node(struct fs_node *n, void *arg)
{
	struct fs_dump *d = arg;
	char path[1024];

	fs_node_path(n, path, sizeof(path));
	sb_addf(d->sb, "fs %s/ shares=%d leaf=%d cpu=%.9g@%lld "
	    "hrun=%.9g@%lld jobs=%d slots=%d start_sum=%lld", path, n->shares,
	    n->leaf, n->cpu_hours, (long long)n->cpu_at, n->hrun_hours,
	    (long long)n->hrun_at, n->njobs, n->slots,
	    (long long)n->start_sum);
	for (int i = 0; n->accts != NULL && i < d->m->nqueues; i++) {
		const struct pol_fs_acct *a = n->accts[i];

		if (a == NULL || a->head == NULL)
			continue;
		sb_addf(d->sb, " %s=", d->m->queues[i]->name);
		for (const struct pol_job *p = a->head; p; p = p->fnext) {
			const struct job *j = JOB_OF_PJ(p);

			sb_addf(d->sb, "%s%lld[%d]", p == a->head ? "" : ",",
			    (long long)j->jobid, j->idx);
		}
	}
	sb_addc(d->sb, '\n');
}

static int
kid_cmp(const void *a, const void *b)
{
	const struct fs_node *x = *(struct fs_node *const *)a;
	const struct fs_node *y = *(struct fs_node *const *)b;

	if (x->order != y->order)
		return x->order < y->order ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* Children in the order ties go (entry, then name), not the order they
 * were made in, which a restart may change. */
static void
dump_fs_walk(struct fs_node *n, struct fs_dump *d)
{
	struct fs_node **kids;

	dump_fs_node(n, d);
	if (n->nkids == 0)
		return;
	kids = xcalloc((size_t)n->nkids, sizeof(*kids));
	memcpy(kids, n->kids, sizeof(*kids) * (size_t)n->nkids);
	qsort(kids, (size_t)n->nkids, sizeof(*kids), kid_cmp);
	for (int i = 0; i < n->nkids; i++)
		dump_fs_walk(kids[i], d);
	free(kids);
}

static void
dump_fs(struct strbuf *sb, const struct mfs *m)
{
	struct fs_dump d = { sb, m };

	sb_addf(sb, "fstree %s queues=", m->tree->key);
	for (int i = 0; i < m->nqueues; i++)
		sb_addf(sb, "%s%s", i ? "," : "", m->queues[i]->name);
	sb_addc(sb, '\n');
	dump_fs_walk(m->tree->root, &d);
}

void
state_dump(struct strbuf *sb)
{
	sb_addf(sb, "next_jobid %lld\n", (long long)mbd->next_jobid);
	for (int i = 0; i < mbd->nqueues; i++)
		dump_queue(sb, mbd->queues[i]);
	for (int i = 0; i < mbd->nhosts; i++)
		dump_host(sb, mbd->hosts[i]);
	for (int i = 0; i < mbd->nfs; i++)
		dump_fs(sb, mbd->fs[i]);
	for (const struct job *j = mbd->jobs_head; j; j = j->next)
		dump_job(sb, j);
}
