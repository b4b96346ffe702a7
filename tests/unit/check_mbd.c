/*
 * mbatchd's state core, without its sockets and its disk (the log is
 * kept in memory by tests/unit/stubs/mbd-stubs.c).  Each case drives a
 * job through the live code's state changes, which append their records
 * and apply them (mbd-apply.c), then builds a second state by replaying
 * those records into a fresh mbatchd, as a restart would, and requires
 * badmin statedump's text of the two to be identical.  A few cases also
 * check the fields a change must set, by hand.
 */
#include <check.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mbd.h"
#include "mbd-stubs.h"

static char confdir[] = "/tmp/check_mbd.XXXXXX";
static struct strbuf scratch = STRBUF_INIT;	/* JOB_NEW's borrowed reads */

static void
write_file(const char *dir, const char *name, const char *text)
{
	char *path = xasprintf("%s/%s", dir, name);
	FILE *f = fopen(path, "w");

	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
	free(path);
}

static void
write_conf(void)
{
	char *cd, *lsb, *text;

	ck_assert_ptr_nonnull(mkdtemp(confdir));
	cd = xasprintf("%s/conf", confdir);
	lsb = xasprintf("%s/lsbatch/c1/configdir", cd);
	for (char *s = lsb + strlen(confdir) + 1; *s; s++)
		if (*s == '/') {
			*s = '\0';
			(void)mkdir(lsb, 0755);
			*s = '/';
		}
	ck_assert_int_eq(mkdir(lsb, 0755), 0);
	text = xasprintf("LSF_CONFDIR=%s\nLSB_SHAREDIR=%s/work\n"
	    "LSF_MASTER_LIST=\"hosta\"\nLSF_ROOT_REX=local\n", cd, confdir);
	write_file(confdir, "lsf.conf", text);
	free(text);
	write_file(cd, "hosts", "127.0.0.11 hosta\n127.0.0.12 hostb\n");
	write_file(cd, "lsf.shared", "Begin Cluster\nClusterName\nc1\n"
	    "End Cluster\n");
	write_file(cd, "lsf.cluster.c1", "Begin ClusterAdmins\n"
	    "Administrators = root\nEnd ClusterAdmins\n\nBegin Host\n"
	    "HOSTNAME model type server RESOURCES\nhosta ! ! 1 ()\n"
	    "hostb ! ! 1 ()\nEnd Host\n");
	write_file(lsb, "lsb.params", "Begin Parameters\n"
	    "DEFAULT_QUEUE = normal\nMAX_JOB_PREEMPT = 9\nEnd Parameters\n");
	write_file(lsb, "lsb.queues", "Begin Queue\nQUEUE_NAME = normal\n"
	    "PRIORITY = 30\nEnd Queue\n\nBegin Queue\nQUEUE_NAME = migq\n"
	    "PRIORITY = 30\nMIG = 1\nEnd Queue\n\nBegin Queue\n"
	    "QUEUE_NAME = pq\nPRIORITY = 30\nMAX_JOB_PREEMPT = 4\n"
	    "RUNLIMIT = 5 10\nMEMLIMIT = 1000\nRERUNNABLE = yes\n"
	    "End Queue\n\nBegin Queue\nQUEUE_NAME = adminq\n"
	    "PRIORITY = 20\nADMINISTRATORS = bob\nEnd Queue\n");
	write_file(lsb, "lsb.applications", "Begin Application\nNAME = a2\n"
	    "MAX_JOB_PREEMPT = 2\nRUNLIMIT = 20\nMEMLIMIT = 500\n"
	    "RERUNNABLE = no\nSUSPEND_CONTROL = SIGTSTP\nEnd Application\n"
	    "\nBegin Application\nNAME = a0\nEnd Application\n");
	write_file(lsb, "lsb.hosts", "Begin Host\nHOST_NAME MXJ\n"
	    "default 2\nEnd Host\n");
	write_file(lsb, "lsb.users", "");
	free(cd);
	free(lsb);
}

/* A fresh mbatchd state from the configuration (the old one leaks). */
static void
state_fresh(void)
{
	struct conf_diag d;

	mbd = xcalloc(1, sizeof(*mbd));
	mbd->outbox_tail = &mbd->outbox;
	conf_diag_init(&d);
	ck_assert_int_eq(config_load(&mbd->conf, confdir, CONF_ALL, &d), 0);
	conf_diag_release(&d);
	net_set_hosts(&mbd->conf);
	mbd->cluster = mbd->conf.cluster.name;
	mbd->host = "hosta";
	state_init();
}

static void
setup(void)
{
	sb_reset(&mbd_stub_log);
	state_fresh();
}

static void
remove_conf(void)
{
	char *cmd = xasprintf("rm -rf %s", confdir);

	(void)system(cmd);
	free(cmd);
}

/* Each record of buf, replayed; seen[type] set for each. */
static void
replay_buf(const char *p, size_t len, bool *seen)
{
	const char *end = p + len;

	while (p && p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p)), *why;
		struct ev_reader r;

		ck_assert_ptr_nonnull(nl);
		ck_assert_msg(evr_init(&r, p, (size_t)(nl - p), &why) == 0,
		    "record does not read back: %s", why);
		ck_assert_msg(r.id >= 0, "%s: not a declared type", r.type);
		if (seen)
			seen[r.id] = true;
		evr_set_scratch(&r, &scratch);
		ck_assert_int_eq(replay_record(&r, p - (end - len)), 0);
		p = nl + 1;
	}
}

/*
 * The live state, then the replayed one: their dumps are the same.
 * lsb.envs first (what mbatchd has appended to it), then lsb.events.
 * seen, when given, says which types were replayed.
 */
static void
assert_replay_equal_seen(bool *seen)
{
	struct strbuf live = STRBUF_INIT, replayed = STRBUF_INIT;
	struct strbuf envs = STRBUF_INIT;

	state_dump(&live);
	sb_add(&envs, mbd->envlog.pending.buf, mbd->envlog.pending.len);
	state_fresh();
	replay_buf(envs.buf, envs.len, seen);
	replay_buf(mbd_stub_log.buf, mbd_stub_log.len, seen);
	sb_release(&envs);
	state_dump(&replayed);
	ck_assert_str_eq(replayed.buf, live.buf);
	sb_release(&live);
	sb_release(&replayed);
}

static void
assert_replay_equal(void)
{
	assert_replay_equal_seen(NULL);
}

/* The record just logged (from start), applied as replay applies it. */
static void
apply_from(size_t start)
{
	struct ev_reader r;
	const char *why;

	ck_assert_int_eq(evr_init(&r, mbd_stub_log.buf + start,
	    mbd_stub_log.len - start - 1, &why), 0);
	evr_set_scratch(&r, &scratch);
	ck_assert_int_eq(replay_record(&r, (off_t)start), 0);
}

/* bsub's last step: its JOB_NEW logged and applied (log_apply_job_new,
 * as submit_take does). */
static struct job *
submit_full(int64_t jobid, const char *queue, int options, bool hold,
    const char *app, const char *user, int uid)
{
	struct ev_job_new ev;

	memset(&ev, 0, sizeof(ev));
	ev.jobid = jobid;
	ev.uid = uid;
	ev.user = (char *)user;
	ev.submit_time = 1000;
	ev.queue = (char *)queue;
	ev.req.options = options;
	ev.req.num_procs = ev.req.max_procs = 1;
	ev.req.command = "sleep 60";
	ev.req.user_priority = -1;
	ev.req.options2 = hold ? SUB2_HOLD : 0;
	ev.req.app = (char *)app;
	for (int i = 0; i < LSF_RLIM_NLIMITS; i++)
		ev.req.rlimits[i] = DEFAULT_RLIMIT;
	if (mbd->next_jobid <= jobid)
		mbd->next_jobid = jobid + 1;	/* as next_jobid() gives */
	log_apply_job_new(&ev, ev.submit_time);
	return job_find(jobid, 0);
}

static struct job *
submit_app(int64_t jobid, const char *queue, int options, bool hold,
    const char *app)
{
	return submit_full(jobid, queue, options, hold, app, "alice", 1000);
}

static struct job *
submit_to(int64_t jobid, const char *queue, int options, bool hold)
{
	return submit_app(jobid, queue, options, hold, NULL);
}

static struct job *
submit(int64_t jobid, bool hold)
{
	return submit_to(jobid, "normal", 0, hold);
}

static void
start(struct job *j, const char *host)
{
	struct mhost *h = host_find(host);

	ck_assert_ptr_nonnull(h);
	job_start_record(j, &h, 1, 2000);
}

/* What the host reports when the job's process runs. */
static void
executed(struct job *j, int pid)
{
	struct job_status st;

	memset(&st, 0, sizeof(st));
	st.jobid = j->jobid;
	st.pid = st.pgid = pid;
	st.exec_cwd = "/tmp";
	st.exec_home = "/home/alice";
	st.exec_user = "alice";
	job_execute_record(j, &st);
}

static void
ended(struct job *j, int status, int exit_status)
{
	struct ev_job_status ev;

	job_status_fill(j, status, &ev);
	ev.exit_status = exit_status;
	ev.cpu_time = 1.5;
	ev.end_time = 3000;
	job_status_record(j, &ev);
}

START_TEST(test_start_and_end)
{
	struct job *j = submit(1, false);

	start(j, "hostb");
	ck_assert_int_eq(j->status, JOB_STAT_RUN);
	ck_assert_int_eq(j->nexec, 1);
	ck_assert_str_eq(j->exec[0]->name, "hostb");
	ck_assert_uint_eq(j->run_count, 1);
	ck_assert_int_eq(j->exit_status, -1);
	executed(j, 4242);
	ck_assert(j->executed);
	ck_assert_int_eq(j->pid, 4242);
	ended(j, JOB_STAT_DONE, 0);
	ck_assert_int_eq(j->status, JOB_STAT_DONE);
	ck_assert_int_eq(j->end_time, 3000);
	assert_replay_equal();
}
END_TEST

/* bstop, the host's report, bresume (SSUSP until the load allows). */
START_TEST(test_stop_resume)
{
	struct job *j = submit(2, false);

	start(j, "hosta");
	executed(j, 100);
	ck_assert_int_eq(job_stop(j, 1000, "alice", false), LSBE_NO_ERROR);
	job_status_change(j, JOB_STAT_USUSP, SUSP_USER_STOP);
	ck_assert_int_eq(j->susp_reason, SUSP_USER_STOP);
	ck_assert_int_eq(job_resume(j, 1000, "alice", false), LSBE_NO_ERROR);
	ck_assert_int_eq(j->status, JOB_STAT_SSUSP);
	ck_assert_int_eq(j->susp_reason, SUSP_USER_RESUME);
	assert_replay_equal();
}
END_TEST

/* A pending job held, released, held again, then killed. */
START_TEST(test_pending_stop_kill)
{
	struct job *j = submit(3, false);

	ck_assert_int_eq(job_stop(j, 0, "root", true), LSBE_NO_ERROR);
	ck_assert_int_eq(j->status, JOB_STAT_PSUSP);
	ck_assert_int_eq(j->hold_reason, PEND_ADMIN_STOP);
	ck_assert_int_eq(job_resume(j, 1000, "alice", false), LSBE_PERMISSION);
	ck_assert_int_eq(job_resume(j, 0, "root", true), LSBE_NO_ERROR);
	ck_assert_int_eq(j->status, JOB_STAT_PEND);
	ck_assert_int_eq(j->hold_reason, 0);
	job_signal_record(j, "KILL", 1000, "alice", 0);
	job_finish_now(j, JOB_STAT_EXIT, TERM_OWNER);
	ck_assert_int_eq(j->status, JOB_STAT_EXIT);
	ck_assert_int_eq(j->exit_reason, TERM_OWNER);
	assert_replay_equal();
}
END_TEST

/* brequeue of a running job: the kill, its end, back first in the queue
 * with its note, and a second run that forgets the note. */
START_TEST(test_requeue_runs_again)
{
	struct job *j = submit(4, false), *k = submit(5, false);

	start(j, "hosta");
	executed(j, 200);
	job_signal_record(j, "KILL", 1000, "alice", SIG_F_REQUEUE);
	ck_assert_int_eq(j->end_action, SIG_F_REQUEUE);
	ck_assert(j->sig_pending);
	job_requeue(j, false, PEND_REQUEUED);
	ck_assert_int_eq(j->status, JOB_STAT_PEND);
	ck_assert_int_eq(j->pend_note, PEND_REQUEUED);
	ck_assert_int_eq(j->nexec, 0);
	ck_assert_int_eq(j->pid, 0);
	ck_assert_ptr_eq(JOB_OF_PJ(j->queue->pq.head), j);
	ck_assert_ptr_eq(JOB_OF_PJ(j->queue->pq.head->next), k);
	start(j, "hostb");
	ck_assert_uint_eq(j->run_count, 2);
	ck_assert_int_eq(j->pend_note, 0);
	ended(j, JOB_STAT_EXIT, 1 << 8);
	assert_replay_equal();
}
END_TEST

/* bmig: the next run gets LSB_RESTART=Y, live and replayed. */
START_TEST(test_mig_restart)
{
	struct job *j = submit(6, false);
	struct ev_mig ev;

	start(j, "hosta");
	executed(j, 300);
	memset(&ev, 0, sizeof(ev));
	ev.jobid = j->jobid;
	job_mig_apply(j, &ev);
	job_signal_record(j, "KILL", 0, "root", SIG_F_MIG);
	job_requeue(j, false, PEND_MIGRATING);
	ck_assert(j->restart);
	ck_assert_int_eq(j->pend_note, PEND_MIGRATING);
	/* The live bmig also logs MIG; replay gets the restart from the
	 * signal's SIG_F_MIG alone. */
	assert_replay_equal();
}
END_TEST

/* A rerunnable job of a lost host: first in its queue, LSB_RESTART=Y
 * for its next run, live and replayed. */
START_TEST(test_host_lost_rerun)
{
	struct job *j = submit(7, false), *k = submit(8, false);

	start(j, "hosta");
	executed(j, 400);
	job_requeue(j, false, PEND_HOST_LOST);
	ck_assert_int_eq(j->status, JOB_STAT_PEND);
	ck_assert(j->restart);
	ck_assert_int_eq(j->pend_note, PEND_HOST_LOST);
	ck_assert_ptr_eq(JOB_OF_PJ(j->queue->pq.head), j);
	ck_assert_ptr_eq(JOB_OF_PJ(j->queue->pq.head->next), k);
	assert_replay_equal();
}
END_TEST

/* A job that ends before its start was reported gets its JOB_EXECUTE. */
START_TEST(test_pre_exec_failures)
{
	struct job *j = submit(7, false);
	struct job_status st;

	memset(&st, 0, sizeof(st));
	st.jobid = j->jobid;
	st.pre_exec_failed = 1;
	start(j, "hosta");
	preexec_failed(j, &st);
	ck_assert_int_eq(j->status, JOB_STAT_PEND);
	ck_assert_int_eq(j->preexec_fails, 1);
	ck_assert_int_eq(j->pend_note, PEND_PRE_EXEC);
	ck_assert_int_eq(j->pj.eligible_reason, PEND_PRE_EXEC);
	start(j, "hostb");
	ck_assert_uint_eq(j->run_count, 2);
	executed(j, 400);
	ended(j, JOB_STAT_DONE, 0);
	ck_assert_int_eq(j->preexec_fails, 0);
	assert_replay_equal();
}
END_TEST

/* LOCAL_MAX_PREEXEC_RETRY: the last try holds the job PSUSP, with its
 * reason, its count back at 0 for bresume; with the EXIT action it ends
 * with the pre-exec's exit code.  Both replay. */
START_TEST(test_pre_exec_limit)
{
	struct job *j = submit(7, false), *k = submit(8, false);
	struct job_status st;

	mbd->conf.params.local_preexec_retry = 2;
	memset(&st, 0, sizeof(st));
	st.jobid = j->jobid;
	st.pre_exec_failed = 3 << 8;
	start(j, "hosta");
	preexec_failed(j, &st);
	ck_assert_int_eq(j->status, JOB_STAT_PEND);
	start(j, "hosta");
	preexec_failed(j, &st);
	ck_assert_int_eq(j->status, JOB_STAT_PSUSP);
	ck_assert_int_eq(j->hold_reason, PEND_PRE_EXEC_LIMIT);
	ck_assert_int_eq(j->preexec_fails, 0);

	mbd->conf.params.preexec_retry_action = PREEXEC_ACT_EXIT;
	st.jobid = k->jobid;
	start(k, "hostb");
	preexec_failed(k, &st);
	start(k, "hostb");
	preexec_failed(k, &st);
	ck_assert_int_eq(k->status, JOB_STAT_EXIT);
	ck_assert_int_eq(k->exit_status, 3 << 8);
	mbd->conf.params.local_preexec_retry = -1;
	mbd->conf.params.preexec_retry_action = PREEXEC_ACT_SUSPEND;
	assert_replay_equal();
}
END_TEST

/* bkill of a running job, with -d: DONE when it ends. */
START_TEST(test_kill_done)
{
	struct job *j = submit(8, false);

	start(j, "hosta");
	executed(j, 500);
	job_signal_record(j, "KILL", 1000, "alice", SIG_F_DONE);
	ck_assert(j->kill_done);
	ck_assert_int_eq(j->pending_sig, SIG_KILL_SEQ);
	ck_assert_int_eq(j->pending_reason, TERM_OWNER);
	ended(j, JOB_STAT_DONE, (128 + SIGKILL) << 8);
	ck_assert(!j->sig_pending);
	ck_assert_int_eq(j->end_action, 0);
	assert_replay_equal();
}
END_TEST

/* A job submitted held, released, started and stopped by the host. */
START_TEST(test_held_then_suspended)
{
	struct job *j = submit(9, true);

	ck_assert_int_eq(j->status, JOB_STAT_PSUSP);
	ck_assert_int_eq(job_resume(j, 1000, "alice", false), LSBE_NO_ERROR);
	start(j, "hostb");
	executed(j, 600);
	job_status_change(j, JOB_STAT_SSUSP, SUSP_LOAD);
	ck_assert_int_eq(j->susp_reason, SUSP_LOAD);
	job_status_change(j, JOB_STAT_RUN, 0);
	ck_assert_int_eq(j->susp_reason, 0);
	assert_replay_equal();
}
END_TEST

/* The host reports a new state, logged at a given time. */
static void
status_at(struct job *j, int status, int reason, int64_t when)
{
	struct ev_job_status ev;
	struct strbuf sb = STRBUF_INIT;
	size_t start = mbd_stub_log.len;

	job_status_fill(j, status, &ev);
	ev.reason = reason;
	ev_job_status_write(&sb, when, &ev);
	log_record(&sb);
	sb_release(&sb);
	apply_from(start);
}

/* MIG counts from the record that made the job SSUSP, whatever follows
 * while it stays so; anything else forgets it. */
START_TEST(test_ssusp_since)
{
	struct job *j = submit(10, false);

	start(j, "hosta");
	executed(j, 700);
	ck_assert_int_eq(j->ssusp_since, 0);
	status_at(j, JOB_STAT_SSUSP, SUSP_LOAD, 2100);
	ck_assert_int_eq(j->ssusp_since, 2100);
	status_at(j, JOB_STAT_SSUSP, SUSP_HOST_LOCK, 2200);
	ck_assert_int_eq(j->ssusp_since, 2100);
	status_at(j, JOB_STAT_RUN, 0, 2300);
	ck_assert_int_eq(j->ssusp_since, 0);
	status_at(j, JOB_STAT_SSUSP, SUSP_LOAD, 2400);
	ck_assert_int_eq(j->ssusp_since, 2400);
	assert_replay_equal();
	j = job_find(10, 0);
	ck_assert_int_eq(j->ssusp_since, 2400);
	status_at(j, JOB_STAT_USUSP, SUSP_USER_STOP, 2500);
	ck_assert_int_eq(j->ssusp_since, 0);
	assert_replay_equal();
}
END_TEST

static int
mig_records(void)
{
	int n = 0;

	for (const char *p = mbd_stub_log.buf; p && (p = strstr(p,
	    "\"MIG\" ")) != NULL; p++)
		n++;
	return n;
}

/* The MIG pass: queue migq's MIG = 1 minute, counted from the SSUSP
 * record; one migration per suspension, only for a rerunnable job. */
START_TEST(test_mig_pass)
{
	struct job *j = submit_to(11, "migq", SUB_RERUNNABLE, false);
	struct job *n = submit_to(12, "migq", 0, false);
	struct job *k = submit_to(13, "migq", SUB_RERUNNABLE, false);

	start(j, "hosta");
	start(n, "hosta");
	start(k, "hostb");
	status_at(j, JOB_STAT_SSUSP, SUSP_HOST_LOCK, 5000);
	status_at(n, JOB_STAT_SSUSP, SUSP_HOST_LOCK, 5000);
	status_at(k, JOB_STAT_SSUSP, SUSP_HOST_LOCK, 5000);
	/* Killed by its owner before its time is up: not migrated. */
	job_signal_record(k, "KILL", 1000, "alice", 0);
	ck_assert(k->kill_asked);
	mig_pass(5059);
	ck_assert_int_eq(mig_records(), 0);
	mig_pass(5060);
	ck_assert_int_eq(mig_records(), 1);
	ck_assert_int_eq(j->end_action, SIG_F_MIG);
	ck_assert(j->kill_asked);
	ck_assert(j->restart);
	ck_assert_int_eq(n->end_action, 0);
	ck_assert_int_eq(k->end_action, 0);
	mig_pass(5061);
	mig_pass(9999);
	ck_assert_int_eq(mig_records(), 1);
	/* Its end (sched_finish_job): back first in its queue. */
	job_requeue(j, false, PEND_MIGRATING);
	ck_assert_int_eq(j->status, JOB_STAT_PEND);
	ck_assert_int_eq(j->ssusp_since, 0);
	ck_assert(!j->kill_asked);
	ck_assert(j->restart);
	assert_replay_equal();
}
END_TEST

/*
 * Application profiles: MAX_JOB_PREEMPT of the profile, else the
 * queue's, else lsb.params'; the profile's limits in place of the
 * queue's defaults, held to its maxima; its RERUNNABLE over the queue's,
 * bsub -r over both.  The profile's name survives replay.
 */
START_TEST(test_app_profile)
{
	struct job *plain = submit_to(21, "normal", 0, true);
	struct job *inq = submit_to(22, "pq", 0, true);
	struct job *both = submit_app(23, "pq", 0, true, "a2");
	struct job *empty = submit_app(24, "normal", 0, true, "a0");
	struct job *app = submit_app(25, "normal", 0, true, "a2");
	struct job *r = submit_app(26, "pq", SUB_RERUNNABLE, true, "a2");
	int64_t rl[LSF_RLIM_NLIMITS];

	ck_assert_ptr_null(plain->app);
	ck_assert_str_eq(both->app, "a2");
	ck_assert_ptr_nonnull(job_app(both));
	ck_assert_int_eq(job_max_preempt(plain), 9);
	ck_assert_int_eq(job_max_preempt(inq), 4);
	ck_assert_int_eq(job_max_preempt(both), 2);
	ck_assert_int_eq(job_max_preempt(empty), 9);
	ck_assert_int_eq(job_max_preempt(app), 2);

	job_limits(plain, rl);
	ck_assert_int_eq(rl[LSF_RLIMIT_RUN], DEFAULT_RLIMIT);
	job_limits(inq, rl);
	ck_assert_int_eq(rl[LSF_RLIMIT_RUN], 5 * 60);
	job_limits(app, rl);
	ck_assert_int_eq(rl[LSF_RLIMIT_RUN], 20 * 60);
	ck_assert_int_eq(rl[LSF_RLIMIT_RSS], 500);
	/* The queue's maxima (10 minutes, 1000 KB) bound the profile's. */
	job_limits(both, rl);
	ck_assert_int_eq(rl[LSF_RLIMIT_RUN], 10 * 60);
	ck_assert_int_eq(rl[LSF_RLIMIT_RSS], 500);
	job_limits(empty, rl);
	ck_assert_int_eq(rl[LSF_RLIMIT_RUN], DEFAULT_RLIMIT);

	ck_assert(!job_rerunnable(plain));
	ck_assert(job_rerunnable(inq));
	ck_assert(!job_rerunnable(both));
	ck_assert(job_rerunnable(r));

	/* Nothing configured anywhere: unlimited. */
	mbd->conf.params.max_job_preempt = -1;
	ck_assert_int_eq(job_max_preempt(plain), -1);
	ck_assert_int_eq(job_max_preempt(empty), -1);
	mbd->conf.params.max_job_preempt = 9;
	assert_replay_equal();
	ck_assert_str_eq(job_find(23, 0)->app, "a2");
	ck_assert_ptr_null(job_find(21, 0)->app);
}
END_TEST


/* The jobs of a queue in dispatch order, as "1,2,3". */
static char *
queue_order(const char *queue)
{
	struct mqueue *q = queue_find(queue);
	struct strbuf sb = STRBUF_INIT;

	ck_assert_ptr_nonnull(q);
	for (const struct pol_job *p = q->pq.head; p; p = p->next)
		sb_addf(&sb, "%s%lld", p == q->pq.head ? "" : ",",
		    (long long)JOB_OF_PJ(p)->jobid);
	return sb.len ? sb.buf : xstrdup("");
}

#define ORDER_IS(queue, want) do {					\
	char *o_ = queue_order(queue);					\
									\
	ck_assert_str_eq(o_, want);					\
	free(o_);							\
} while (0)

/*
 * btop by a queue administrator who is not a cluster administrator
 * (bob, ADMINISTRATORS of adminq) moves a job among all jobs of its
 * priority; its owner moves it among the owner's own.  The record says
 * which, so replay puts the queue in the same order (it asked
 * user_is_admin, which knows only cluster administrators, before).
 */
START_TEST(test_queue_admin_move)
{
	struct job *c2;

	submit_full(31, "adminq", 0, false, NULL, "alice", 1000);
	submit_full(32, "adminq", 0, false, NULL, "carol", 1001);
	submit_full(33, "adminq", 0, false, NULL, "alice", 1000);
	c2 = submit_full(34, "adminq", 0, false, NULL, "carol", 1001);
	ORDER_IS("adminq", "31,32,33,34");
	ck_assert(user_admins_job(c2, "bob", 1002));
	ck_assert(!user_is_admin("bob", 1002));
	ck_assert_int_eq(job_move_req(c2, 1, true, 1002, "bob", true),
	    LSBE_NO_ERROR);
	ORDER_IS("adminq", "34,31,32,33");
	/* alice's bbot of her first: after her last. */
	ck_assert_int_eq(job_move_req(job_find(31, 0), 1, false, 1000,
	    "alice", false), LSBE_NO_ERROR);
	ORDER_IS("adminq", "34,32,33,31");
	/* Not hers: refused, nothing logged. */
	ck_assert_int_eq(job_move_req(c2, 1, false, 1000, "alice", false),
	    LSBE_PERMISSION);
	assert_replay_equal();
	ORDER_IS("adminq", "34,32,33,31");
}
END_TEST

/* A JOB_MOVE written before the record kept its scope: replay decides
 * as it did, by whether the user is a cluster administrator. */
START_TEST(test_old_move_record)
{
	struct strbuf sb = STRBUF_INIT;
	size_t start;

	submit_full(41, "adminq", 0, false, NULL, "alice", 1000);
	submit_full(42, "adminq", 0, false, NULL, "carol", 1001);
	submit_full(43, "adminq", 0, false, NULL, "alice", 1000);
	/* uid jobid position base idx user: LSF's fields, nothing after. */
	start = mbd_stub_log.len;
	ev_begin(&sb, "JOB_MOVE", 1000);
	ev_int(&sb, 0);
	ev_int(&sb, 43);
	ev_int(&sb, 1);
	ev_int(&sb, 1);
	ev_int(&sb, 0);
	ev_str(&sb, "root");
	ev_end(&sb, 0);
	log_record(&sb);
	sb_release(&sb);
	apply_from(start);
	ORDER_IS("adminq", "43,41,42");
	assert_replay_equal();
	ORDER_IS("adminq", "43,41,42");
}
END_TEST

/*
 * Every declared record type, made by the live code's one path for it,
 * replays to the same state; the test fails when a type is added to
 * EVLOG_RECORDS without a case here.
 */
START_TEST(test_every_type)
{
	bool seen[EV_NTYPES] = { false };
	struct job *j = submit(51, false), *k = submit(52, false);
	struct job *m = submit_to(53, "normal", SUB_RERUNNABLE, false);
	struct mhost *hb = host_find("hostb");

	{
		struct mbd_stub_env;
		struct strv env = STRV_INIT;
		struct ev_job_env ee;

		strv_push(&env, "A=1");
		ee.env_id = "1000.1";
		ee.env = env;
		log_apply_job_env(&ee, 1000);
		strv_release(&env);
	}
	{
		struct ev_mbd_start ev = { .master = "hosta",
		    .cluster = "c1", .nhosts = 2, .nqueues = 4,
		    .user = "root" };

		log_apply_mbd_start(&ev, 1000);
	}
	ck_assert_int_eq(job_move_req(k, 1, true, 0, "root", true),
	    LSBE_NO_ERROR);
	{
		struct ev_job_modify ev;

		memset(&ev, 0, sizeof(ev));
		submit_req_init(&ev.req);
		ev.jobid = 52;
		ev.uid = 1000;
		ev.user = "alice";
		ev.set = MOD_NAME;
		ev.req.job_name = xstrdup("renamed");
		log_apply_job_modify(&ev, 1100);
		ev.user = NULL;
		ev_job_modify_release(&ev);
	}
	{
		struct ev_job_switch ev = { .uid = 0, .jobid = 52,
		    .queue = "adminq", .user = "root" };

		log_apply_job_switch(&ev, 1200);
	}
	{
		struct ev_job_force ev = { .jobid = 51, .uid = 0,
		    .options = 1, .user = "root" };

		strv_push(&ev.hosts, "hostb");
		log_apply_job_force(&ev, 1300);
		strv_release(&ev.hosts);
		ck_assert(j->forced && j->no_susp);
		job_start_record(j, &hb, 1, 1300);
	}
	executed(j, 800);
	{
		struct ev_chkpnt ev = { .jobid = 51, .period = 600,
		    .flags = CHKPNT_F_PERIOD };

		log_apply_chkpnt(&ev, 1400);
	}
	start(m, "hosta");
	executed(m, 801);
	{
		struct ev_mig ev = { .jobid = 53, .uid = 0, .user = "root" };

		log_apply_mig(&ev, 1500);
	}
	job_signal_record(m, "KILL", 0, "root", SIG_F_MIG);
	job_requeue(m, false, PEND_MIGRATING);
	ended(j, JOB_STAT_DONE, 0);
	{
		struct ev_job_clean ev = { .jobid = 51 };

		log_apply_job_clean(&ev, 5000);
		ck_assert_ptr_null(job_find(51, 0));
	}
	{
		struct ev_ctrl h = { .op = HCTRL_CLOSE, .name = "hostb",
		    .uid = 0, .user = "root", .comment = "for the test" };
		struct ev_ctrl q = { .op = QCTRL_INACT, .name = "migq",
		    .uid = 0, .user = "root" };

		log_apply_host_ctrl(&h, 5100);
		log_apply_queue_ctrl(&q, 5100);
		ck_assert(hb->closed_adm);
		ck_assert(!queue_find("migq")->active);
	}
	{
		struct ev_log_switch ev = { .last_jobid = 500 };
		struct ev_fs_usage fu = { .tree = "queue/normal",
		    .path = "alice", .name = "alice", .cpu_hours = 1,
		    .cpu_at = 5200, .hrun_at = 5200 };
		struct ev_mbd_die die = { .master = "hosta", .user = "root" };

		log_apply_fs_usage(&fu, 5200);
		log_apply_log_switch(&ev, 5200);
		ck_assert_int_eq(mbd->next_jobid, 501);
		log_apply_mbd_die(&die, 5300);
	}
	assert_replay_equal_seen(seen);
	for (int i = 0; i < EV_NTYPES; i++)
		ck_assert_msg(seen[i], "%s: no record of it replayed",
		    ev_types[i].name);
}
END_TEST

/* A small PRNG of our own: the same sequence on every machine. */
static uint64_t
rnd_next(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static struct job *
rnd_job(uint64_t *s, int64_t lo, int64_t hi, bool (*ok)(const struct job *))
{
	int64_t n = hi - lo;

	if (n <= 0)
		return NULL;
	for (int tries = 0; tries < 8; tries++) {
		struct job *j = job_find(lo + (int64_t)(rnd_next(s) %
		    (uint64_t)n), 0);

		if (j && ok(j))
			return j;
	}
	return NULL;
}

static bool
is_pending(const struct job *j)
{
	return JOB_STAT_PENDING(j->status) && !JOB_IS_PARENT(j);
}

static bool
is_running(const struct job *j)
{
	return j->status == JOB_STAT_RUN;
}

static bool
is_started(const struct job *j)
{
	return JOB_STAT_STARTED(j->status);
}

static bool
is_finished(const struct job *j)
{
	return JOB_STAT_FINISHED(j->status);
}

/*
 * Random sequences of the live code's changes: submissions by three
 * users into three queues, starts, host reports, suspensions, ends,
 * kills, requeues, moves by owners, a queue administrator and root,
 * switches, brun, holds, host and queue control, cleaning.  After each
 * sequence the replayed state is the live one; on failure the seed says
 * which sequence to run again.
 */
START_TEST(test_random_sequences)
{
	static const char *const users[] = { "alice", "carol", "bob" };
	static const char *const queues[] = { "normal", "adminq", "migq" };
	static const char *const hostn[] = { "hosta", "hostb" };
	uint64_t seed = 0x9e3779b97f4a7c15ull ^ (uint64_t)(_i + 1);
	uint64_t s = seed;
	int64_t first = 1000 + 100 * (int64_t)_i, next = first;

	for (int step = 0; step < 60; step++) {
		struct job *j = NULL;
		int u = (int)(rnd_next(&s) % 3);
		struct mhost *h = host_find(hostn[rnd_next(&s) % 2]);

		switch (rnd_next(&s) % 14) {
		case 0:
		case 1:
			submit_full(next++, queues[rnd_next(&s) % 3], 0,
			    rnd_next(&s) % 5 == 0, NULL, users[u], 1000 + u);
			break;
		case 2:
			if ((j = rnd_job(&s, first, next, is_pending)) &&
			    j->status == JOB_STAT_PEND)
				job_start_record(j, &h, 1, 2000 + step);
			break;
		case 3:
			if ((j = rnd_job(&s, first, next, is_running)) &&
			    !j->executed)
				executed(j, 100 + step);
			break;
		case 4:
			if ((j = rnd_job(&s, first, next, is_running)))
				job_status_change(j, rnd_next(&s) % 2 ?
				    JOB_STAT_SSUSP : JOB_STAT_USUSP,
				    SUSP_LOAD);
			break;
		case 5:
			if ((j = rnd_job(&s, first, next, is_started)))
				ended(j, rnd_next(&s) % 2 ? JOB_STAT_DONE :
				    JOB_STAT_EXIT, 0);
			break;
		case 6:
			if ((j = rnd_job(&s, first, next, is_started))) {
				job_signal_record(j, "KILL", 1000 + u,
				    users[u], SIG_F_REQUEUE);
				job_requeue(j, false, PEND_REQUEUED);
			}
			break;
		case 7:
		case 8:
			if ((j = rnd_job(&s, first, next, is_pending))) {
				bool root = rnd_next(&s) % 4 == 0;
				const char *who = root ? "root" : users[u];
				int uid = root ? 0 : 1000 + u;

				(void)job_move_req(j, 1 + (int)(rnd_next(&s) %
				    3), rnd_next(&s) % 2, uid, who,
				    user_admins_job(j, who, uid));
			}
			break;
		case 9:
			if ((j = rnd_job(&s, first, next, is_pending))) {
				struct ev_job_switch ev = { .jobid = j->jobid,
				    .queue = (char *)queues[rnd_next(&s) % 3],
				    .user = "root" };

				log_apply_job_switch(&ev, 3000 + step);
			}
			break;
		case 10:
			if ((j = rnd_job(&s, first, next, is_pending)) &&
			    j->status == JOB_STAT_PEND) {
				struct ev_job_force ev = { .jobid = j->jobid,
				    .options = (int)(rnd_next(&s) % 2),
				    .user = "root" };

				strv_push(&ev.hosts, h->name);
				log_apply_job_force(&ev, 3000 + step);
				strv_release(&ev.hosts);
				job_start_record(j, &h, 1, 3000 + step);
			}
			break;
		case 11:
			if ((j = rnd_job(&s, first, next, is_pending))) {
				if (j->status == JOB_STAT_PEND)
					(void)job_stop(j, 0, "root", true);
				else
					(void)job_resume(j, 0, "root", true);
			}
			break;
		case 12: {
			struct ev_ctrl c = { .uid = 0, .user = "root" };

			if (rnd_next(&s) % 2) {
				c.op = rnd_next(&s) % 2 ? HCTRL_OPEN :
				    HCTRL_CLOSE;
				c.name = h->name;
				log_apply_host_ctrl(&c, 4000 + step);
			} else {
				c.op = QCTRL_OPEN + (int)(rnd_next(&s) % 4);
				c.name = (char *)queues[rnd_next(&s) % 3];
				log_apply_queue_ctrl(&c, 4000 + step);
			}
			break;
		}
		case 13:
			if ((j = rnd_job(&s, first, next, is_finished))) {
				struct ev_job_clean ev = { .jobid = j->jobid };

				log_apply_job_clean(&ev, 5000 + step);
			}
			break;
		}
	}
	{
		struct strbuf live = STRBUF_INIT, replayed = STRBUF_INIT;
		struct strbuf envs = STRBUF_INIT;

		state_dump(&live);
		sb_add(&envs, mbd->envlog.pending.buf,
		    mbd->envlog.pending.len);
		state_fresh();
		replay_buf(envs.buf, envs.len, NULL);
		replay_buf(mbd_stub_log.buf, mbd_stub_log.len, NULL);
		state_dump(&replayed);
		ck_assert_msg(strcmp(live.buf, replayed.buf) == 0,
		    "sequence %d (seed %#llx): replayed state differs",
		    _i, (unsigned long long)seed);
		sb_release(&envs);
		sb_release(&live);
		sb_release(&replayed);
	}
}
END_TEST

static Suite *
mbd_suite(void)
{
	Suite *s = suite_create("mbd");
	TCase *tc = tcase_create("apply");

	tcase_add_unchecked_fixture(tc, write_conf, remove_conf);
	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_add_test(tc, test_start_and_end);
	tcase_add_test(tc, test_stop_resume);
	tcase_add_test(tc, test_pending_stop_kill);
	tcase_add_test(tc, test_requeue_runs_again);
	tcase_add_test(tc, test_mig_restart);
	tcase_add_test(tc, test_host_lost_rerun);
	tcase_add_test(tc, test_pre_exec_failures);
	tcase_add_test(tc, test_pre_exec_limit);
	tcase_add_test(tc, test_kill_done);
	tcase_add_test(tc, test_held_then_suspended);
	tcase_add_test(tc, test_ssusp_since);
	tcase_add_test(tc, test_mig_pass);
	tcase_add_test(tc, test_app_profile);
	tcase_add_test(tc, test_queue_admin_move);
	tcase_add_test(tc, test_old_move_record);
	tcase_add_test(tc, test_every_type);
	tcase_add_loop_test(tc, test_random_sequences, 0, 200);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(mbd_suite());
	int failed;

	progname = "check_mbd";
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
