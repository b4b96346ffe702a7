/*
 * Pack, unpack and release for every message struct.  Each struct's fields
 * are listed once, in wire order, and the three functions are generated
 * from that list, so writer and reader cannot disagree.
 */
#include <stdlib.h>
#include <string.h>

#include "proto.h"

/* Field kinds: how to put, get and free each. */
#define PK_U32(f)	put_u32(w, x->f);
#define UN_U32(f)	get_u32(r, &x->f);
#define RL_U32(f)
#define PK_I32(f)	put_i32(w, x->f);
#define UN_I32(f)	get_i32(r, &x->f);
#define RL_I32(f)
#define PK_INT(f)	put_i32(w, (int32_t)x->f);
#define UN_INT(f)	get_int(r, &x->f);
#define RL_INT(f)
#define PK_I64(f)	put_i64(w, x->f);
#define UN_I64(f)	get_i64(r, &x->f);
#define RL_I64(f)
#define PK_U64(f)	put_u64(w, x->f);
#define UN_U64(f)	get_u64(r, &x->f);
#define RL_U64(f)
#define PK_BOOL(f)	put_bool(w, x->f);
#define UN_BOOL(f)	get_bool(r, &x->f);
#define RL_BOOL(f)
#define PK_DBL(f)	put_double(w, x->f);
#define UN_DBL(f)	get_double(r, &x->f);
#define RL_DBL(f)
#define PK_FLT(f)	put_float(w, x->f);
#define UN_FLT(f)	get_float(r, &x->f);
#define RL_FLT(f)
#define PK_STR(f)	put_str(w, x->f);
#define UN_STR(f)	get_str(r, &x->f);
#define RL_STR(f)	free(x->f);
#define PK_STRV(f)	put_strv(w, &x->f);
#define UN_STRV(f)	get_strv(r, &x->f);
#define RL_STRV(f)	strv_release(&x->f);
#define PK_I64A(f, n)	for (int i_ = 0; i_ < (n); i_++) put_i64(w, x->f[i_]);
#define UN_I64A(f, n)	for (int i_ = 0; i_ < (n); i_++) get_i64(r, &x->f[i_]);
#define RL_I64A(f, n)
#define PK_FLTA(f, n)	for (int i_ = 0; i_ < (n); i_++) put_float(w, x->f[i_]);
#define UN_FLTA(f, n)	for (int i_ = 0; i_ < (n); i_++) get_float(r, &x->f[i_]);
#define RL_FLTA(f, n)
#define PK_KV(f)	kv_list_pack(w, &x->f);
#define UN_KV(f)	kv_list_unpack(r, &x->f);
#define RL_KV(f)	kv_list_release(&x->f);
/* A counted list of structs of type t, each at least min bytes. */
#define PK_LIST(f, n, t, min)						\
	put_u32(w, x->n);						\
	for (uint32_t i_ = 0; i_ < x->n; i_++) t##_pack(w, &x->f[i_]);
#define UN_LIST(f, n, t, min)						\
	if (get_count(r, &x->n, min)) {					\
		x->f = xcalloc(x->n, sizeof(*x->f));			\
		for (uint32_t i_ = 0; i_ < x->n && !r->err; i_++)	\
			t##_unpack(r, &x->f[i_]);			\
	}
#define RL_LIST(f, n, t, min)						\
	for (uint32_t i_ = 0; x->f && i_ < x->n; i_++)			\
		t##_release(&x->f[i_]);					\
	free(x->f);

/*
 * The fewest bytes each kind takes on the wire (a NULL string, an empty
 * list), so that a list's bound on its count comes from its item's
 * field list: PROTO_MIN(FIELDS) is a constant expression.
 */
#define MN_U32(f)	+ 4
#define MN_I32(f)	+ 4
#define MN_INT(f)	+ 4
#define MN_I64(f)	+ 8
#define MN_U64(f)	+ 8
#define MN_BOOL(f)	+ 1
#define MN_DBL(f)	+ 8
#define MN_FLT(f)	+ 4
#define MN_STR(f)	+ 4
#define MN_STRV(f)	+ 4
#define MN_I64A(f, n)	+ 8 * (n)
#define MN_FLTA(f, n)	+ 4 * (n)
#define MN_KV(f)	+ 8
#define MN_LIST(f, n, t, min)	+ 4
#define F_MN(k, ...)	MN_##k(__VA_ARGS__)
#define PROTO_MIN(FIELDS)	(0 FIELDS(F_MN))

#define F_PK(k, ...)	PK_##k(__VA_ARGS__)
#define F_UN(k, ...)	UN_##k(__VA_ARGS__)
#define F_RL(k, ...)	RL_##k(__VA_ARGS__)

#define PROTO_IMPL(name, FIELDS)					\
void									\
name##_pack(struct wbuf *w, const struct name *x)			\
{									\
	FIELDS(F_PK)							\
}									\
bool									\
name##_unpack(struct rbuf *r, struct name *x)				\
{									\
	memset(x, 0, sizeof(*x));					\
	FIELDS(F_UN)							\
	return !r->err;							\
}									\
void									\
name##_release(struct name *x)						\
{									\
	FIELDS(F_RL)							\
	memset(x, 0, sizeof(*x));					\
}

/* x_frame: one whole frame of a message struct (proto.h). */
#define PROTO_FRAME(name)						\
void									\
name##_frame(struct wbuf *w, uint16_t type, uint32_t seq,		\
    const struct name *x)						\
{									\
	wbuf_begin(w, type, seq, 0);					\
	name##_pack(w, x);						\
	wbuf_end_frame(w);						\
}
PROTO_MESSAGES(PROTO_FRAME)

/* Small structs used inside lists (not messages on their own). */
#define JOB_ID_FIELDS(F)	F(I64, jobid) F(I32, idx)
#define REASON_COUNT_FIELDS(F)	F(INT, reason) F(INT, count)
static void job_id_pack(struct wbuf *, const struct job_id *);
static bool job_id_unpack(struct rbuf *, struct job_id *);
static void job_id_release(struct job_id *);
static void reason_count_pack(struct wbuf *, const struct reason_count *);
static bool reason_count_unpack(struct rbuf *, struct reason_count *);
static void reason_count_release(struct reason_count *);
PROTO_IMPL(job_id, JOB_ID_FIELDS)
PROTO_IMPL(reason_count, REASON_COUNT_FIELDS)

#define MSG_ERROR_FIELDS(F)	F(INT, code) F(STR, context) F(STR, detail)
PROTO_IMPL(msg_error, MSG_ERROR_FIELDS)

#define KV_LIST_FIELDS(F)	F(STRV, keys) F(STRV, vals)
PROTO_IMPL(kv_list, KV_LIST_FIELDS)

#define SUBMIT_REQ_FIELDS(F)						\
	F(U32, options) F(U32, options2) F(STR, job_name) F(STR, queue)	\
	F(STRV, asked_hosts) F(STRV, res_reqs) F(INT, num_procs)	\
	F(INT, max_procs) F(STR, in_file) F(STR, out_file)		\
	F(STR, err_file) F(STR, cwd) F(STR, sub_cwd) F(STR, sub_home)	\
	F(STR, command) F(STR, project) F(STR, user_group)		\
	F(STR, mail_user) F(STR, depend_cond) F(STR, pre_exec)		\
	F(STR, post_exec) F(STR, login_shell) F(STR, from_host)		\
	F(I64A, rlimits, LSF_RLIM_NLIMITS) F(I64, begin_time)		\
	F(I64, term_time) F(INT, umask) F(INT, user_priority)		\
	F(STRV, env) F(STR, outdir) F(STR, app) F(STR, chkpnt_dir)	\
	F(STR, chkpnt_method) F(I64, chkpnt_period)			\
	F(STR, warning_action) F(INT, warning_time)
PROTO_IMPL(submit_req, SUBMIT_REQ_FIELDS)

#define SUBMIT_REPLY_FIELDS(F)						\
	F(I64, jobid) F(STR, queue) F(BOOL, default_queue)
PROTO_IMPL(submit_reply, SUBMIT_REPLY_FIELDS)

#define SUBMIT_PACK_FIELDS(F)						\
	F(LIST, v, n, submit_req, PROTO_MIN(SUBMIT_REQ_FIELDS))
PROTO_IMPL(submit_pack, SUBMIT_PACK_FIELDS)

#define PACK_RESULT_FIELDS(F)						\
	F(I64, jobid) F(STR, queue) F(BOOL, default_queue) F(INT, code)	\
	F(STR, context) F(STR, detail)
PROTO_IMPL(pack_result, PACK_RESULT_FIELDS)

#define SUBMIT_PACK_REPLY_FIELDS(F)					\
	F(LIST, v, n, pack_result, PROTO_MIN(PACK_RESULT_FIELDS))
PROTO_IMPL(submit_pack_reply, SUBMIT_PACK_REPLY_FIELDS)

#define JOB_QUERY_FIELDS(F)						\
	F(U32, flags) F(STR, user) F(STR, queue) F(STR, host)		\
	F(STR, job_name) F(LIST, ids, nids, job_id, 12) F(U64, fields)	\
	F(STR, app)
PROTO_IMPL(job_query, JOB_QUERY_FIELDS)

/*
 * job_info is sparse: its mask, then only the fields it names (the list
 * and the bits are in proto.h).  Unpack starts from job_info_init, so a
 * field that did not come reads as unknown, not as zero.
 */
_Static_assert(JIB_COUNT <= 64, "job_info has more fields than its mask");
#define FIRST_(f, ...)	f
#define JI_OF_(f)	JI(f)
/* OP (PK, UN or RL) of a field, if the mask m_ names it. */
#define SPARSE_(OP, k, ...)						\
	if (m_ & JI_OF_(FIRST_(__VA_ARGS__, ))) { OP##_##k(__VA_ARGS__) }
#define F_PK_SPARSE(k, ...)	SPARSE_(PK, k, __VA_ARGS__)
#define F_UN_SPARSE(k, ...)	SPARSE_(UN, k, __VA_ARGS__)
#define F_RL_SPARSE(k, ...)	SPARSE_(RL, k, __VA_ARGS__)

void
job_info_pack(struct wbuf *w, const struct job_info *x)
{
	uint64_t m_ = (x->present | JI_BASE) & JI_ALL;

	put_u64(w, m_);
	JOB_INFO_FIELDS(F_PK_SPARSE)
}

bool
job_info_unpack(struct rbuf *r, struct job_info *x)
{
	uint64_t m_ = 0;

	job_info_init(x);
	if (!get_u64(r, &m_))
		return false;
	if ((m_ & JI_BASE) != JI_BASE || (m_ & ~JI_ALL)) {
		r->err = true;
		return false;
	}
	x->present = m_;
	JOB_INFO_FIELDS(F_UN_SPARSE)
	return !r->err;
}

/* What did not come was never allocated (a mask of 0: all may be). */
void
job_info_release(struct job_info *x)
{
	uint64_t m_ = x->present ? x->present : JI_ALL;

	JOB_INFO_FIELDS(F_RL_SPARSE)
	memset(x, 0, sizeof(*x));
}

#define JOB_LIST_FIELDS(F)						\
	F(LIST, jobs, njobs, job_info, JOB_INFO_MIN_WIRE)		\
	F(LIST, missing, nmissing, job_id, 12)
PROTO_IMPL(job_list, JOB_LIST_FIELDS)

/*
 * job_list_unpack into the jobs array of the page before (released by
 * the caller, its room *cap): a long listing comes in many pages, and a
 * fresh array for each costs more in page faults than the jobs do.
 */
bool
job_list_unpack_reuse(struct rbuf *r, struct job_list *x, uint32_t *cap)
{
	struct job_info *v = x->jobs;
	uint32_t n;

	memset(x, 0, sizeof(*x));
	x->jobs = v;
	if (!get_count(r, &n, JOB_INFO_MIN_WIRE))
		return false;
	if (n > *cap) {
		x->jobs = xrealloc(x->jobs, (size_t)n * sizeof(*x->jobs));
		*cap = n;
	}
	for (uint32_t i = 0; i < n && !r->err; i++) {
		job_info_unpack(r, &x->jobs[i]);
		x->njobs = i + 1;
	}
	UN_LIST(missing, nmissing, job_id, 12)
	return !r->err;
}

#define SIG_REQ_FIELDS(F)						\
	F(INT, sig) F(U32, flags) F(STR, user) F(STR, queue)		\
	F(STR, host) F(STR, job_name) F(LIST, ids, nids, job_id, 12)
PROTO_IMPL(sig_req, SIG_REQ_FIELDS)

#define JOB_RESULT_FIELDS(F)	F(I64, jobid) F(I32, idx) F(INT, code)
PROTO_IMPL(job_result, JOB_RESULT_FIELDS)
#define JOB_RESULT_LIST_FIELDS(F)					\
	F(LIST, v, n, job_result, PROTO_MIN(JOB_RESULT_FIELDS))
PROTO_IMPL(job_result_list, JOB_RESULT_LIST_FIELDS)

#define QUEUE_INFO_FIELDS(F)						\
	F(STR, name) F(STR, description) F(INT, priority) F(INT, nice)	\
	F(INT, status) F(INT, qjob_limit) F(INT, ujob_limit)		\
	F(FLT, pjob_limit) F(INT, hjob_limit) F(INT, njobs)		\
	F(INT, npend) F(INT, nrun) F(INT, nssusp) F(INT, nususp)	\
	F(INT, nrsv) F(INT, accept_interval)				\
	F(FLTA, sched, NLOADIDX) F(FLTA, stop, NLOADIDX)		\
	F(U32, sched_set) F(U32, stop_set) F(STR, users) F(STR, hosts)	\
	F(STR, res_req) F(STR, dispatch_window) F(STR, run_window)	\
	F(I64, runlimit) F(I64, cpulimit) F(I64, memlimit)		\
	F(INT, proclimit) F(BOOL, exclusive) F(KV, extra)		\
	F(I64, runlimit_dflt) F(I64, cpulimit_dflt)			\
	F(I64, memlimit_dflt) F(INT, proclimit_dflt) F(STRV, ext_thr)
PROTO_IMPL(queue_info, QUEUE_INFO_FIELDS)
#define QUEUE_LIST_FIELDS(F)						\
	F(LIST, v, n, queue_info, PROTO_MIN(QUEUE_INFO_FIELDS))
PROTO_IMPL(queue_list, QUEUE_LIST_FIELDS)

#define HOST_INFO_FIELDS(F)						\
	F(STR, name) F(INT, status) F(FLT, cpuf) F(INT, max_slots)	\
	F(INT, jlu) F(INT, njobs) F(INT, nrun) F(INT, nssusp)		\
	F(INT, nususp) F(INT, nrsv) F(STR, dispatch_window)		\
	F(FLTA, load, NLOADIDX) F(FLTA, sched, NLOADIDX)		\
	F(FLTA, stop, NLOADIDX) F(U32, sched_set) F(U32, stop_set)	\
	F(U32, busy_mask) F(INT, mig) F(FLTA, rsv, NLOADIDX)	\
	F(STRV, ext_thr) F(STR, comment)
PROTO_IMPL(host_info, HOST_INFO_FIELDS)
#define HOST_LIST_FIELDS(F)						\
	F(LIST, v, n, host_info, PROTO_MIN(HOST_INFO_FIELDS))
PROTO_IMPL(host_list, HOST_LIST_FIELDS)

#define USER_INFO_FIELDS(F)						\
	F(STR, name) F(BOOL, is_group) F(INT, max_jobs) F(FLT, jl_p)	\
	F(INT, max_pend_jobs) F(INT, max_pend_slots) F(INT, njobs)	\
	F(INT, npend) F(INT, nrun) F(INT, nssusp) F(INT, nususp)	\
	F(INT, nrsv) F(INT, npjobs)
PROTO_IMPL(user_info, USER_INFO_FIELDS)
#define USER_LIST_FIELDS(F)						\
	F(LIST, v, n, user_info, PROTO_MIN(USER_INFO_FIELDS))
PROTO_IMPL(user_list, USER_LIST_FIELDS)

#define APP_INFO_FIELDS(F)						\
	F(STR, name) F(STR, description) F(INT, njobs) F(INT, npend)	\
	F(INT, nrun) F(INT, nssusp) F(INT, nususp) F(INT, nrsv)		\
	F(I64, runlimit) F(I64, cpulimit) F(I64, memlimit)		\
	F(INT, max_job_preempt) F(INT, rerunnable) F(STR, ctl_suspend)	\
	F(STR, ctl_resume) F(STR, ctl_terminate) F(KV, extra)
PROTO_IMPL(app_info, APP_INFO_FIELDS)
#define APP_LIST_FIELDS(F)						\
	F(LIST, v, n, app_info, PROTO_MIN(APP_INFO_FIELDS))
PROTO_IMPL(app_list, APP_LIST_FIELDS)

#define LIMIT_INFO_FIELDS(F)						\
	F(STR, name) F(STR, users) F(STR, queues) F(STR, hosts)		\
	F(STR, projects) F(INT, slots_used) F(INT, slots_max)		\
	F(INT, mem_used) F(INT, mem_max) F(INT, jobs_used)		\
	F(INT, jobs_max)
PROTO_IMPL(limit_info, LIMIT_INFO_FIELDS)
#define LIMIT_LIST_FIELDS(F)						\
	F(LIST, v, n, limit_info, PROTO_MIN(LIMIT_INFO_FIELDS))
PROTO_IMPL(limit_list, LIMIT_LIST_FIELDS)

#define FS_QUERY_FIELDS(F)	F(STR, kind) F(STRV, names)
PROTO_IMPL(fs_query, FS_QUERY_FIELDS)
#define FS_ROW_FIELDS(F)						\
	F(STR, name) F(INT, parent) F(INT, depth) F(BOOL, group)	\
	F(INT, shares) F(DBL, priority) F(INT, started)			\
	F(INT, reserved) F(DBL, cpu_time) F(I64, run_time)		\
	F(DBL, adjust)
PROTO_IMPL(fs_row, FS_ROW_FIELDS)
#define FS_INFO_FIELDS(F)						\
	F(STR, kind) F(STR, name) F(STRV, members) F(STR, shares)	\
	F(LIST, rows, nrows, fs_row, PROTO_MIN(FS_ROW_FIELDS))
PROTO_IMPL(fs_info, FS_INFO_FIELDS)
#define FS_LIST_FIELDS(F)						\
	F(LIST, v, n, fs_info, PROTO_MIN(FS_INFO_FIELDS))
PROTO_IMPL(fs_list, FS_LIST_FIELDS)

#define WAIT_REPLY_FIELDS(F)	F(INT, value)
PROTO_IMPL(wait_reply, WAIT_REPLY_FIELDS)

#define JOB_EVENT_FIELDS(F)						\
	F(INT, what) F(I64, jobid) F(STR, host) F(INT, status)		\
	F(INT, exit_status)
PROTO_IMPL(job_event, JOB_EVENT_FIELDS)

#define JOB_STATUS_FIELDS(F)						\
	F(I64, jobid) F(I32, idx) F(INT, status) F(INT, pid)		\
	F(INT, pgid) F(I64, start_time) F(I64, end_time)		\
	F(INT, exit_status) F(INT, exit_reason) F(DBL, cpu_time)	\
	F(I64, mem_kb) F(I64, max_mem_kb) F(I64, avg_mem_kb)		\
	F(I64, swap_kb) F(STR, exec_cwd) F(STR, exec_home)		\
	F(STR, exec_user) F(U32, run_count) F(INT, susp_reason)		\
	F(INT, pre_exec_failed) F(INT, post_exec_status) F(INT, susp_sub)
PROTO_IMPL(job_status, JOB_STATUS_FIELDS)

#define SBD_REGISTER_FIELDS(F)						\
	F(STR, host) F(INT, pid) F(LIST, jobs, njobs, job_status, 64)
PROTO_IMPL(sbd_register, SBD_REGISTER_FIELDS)

#define SBD_REGISTER_REPLY_FIELDS(F)					\
	F(STR, cluster) F(INT, job_terminate_interval)			\
	F(INT, sbd_sleep_time)
PROTO_IMPL(sbd_register_reply, SBD_REGISTER_REPLY_FIELDS)

#define JOB_SPEC_FIELDS(F)						\
	F(I64, jobid) F(I32, idx) F(U32, run_count) F(U32, options)	\
	F(U32, options2) F(STR, user) F(INT, uid) F(STR, queue)		\
	F(STR, cluster) F(STR, job_name) F(STR, command) F(STR, cwd)	\
	F(STR, sub_cwd) F(STR, sub_home) F(STR, in_file)		\
	F(STR, out_file) F(STR, err_file) F(STR, from_host)		\
	F(STR, project) F(STR, mail_user) F(STR, login_shell)		\
	F(STR, job_starter) F(STRV, exec_hosts) F(STRV, env)		\
	F(I64A, rlimits, LSF_RLIM_NLIMITS) F(I64, submit_time)		\
	F(INT, umask) F(INT, nice) F(INT, term_interval)		\
	F(I64, term_time) F(STR, pre_exec) F(STR, post_exec)		\
	F(STR, queue_pre_exec) F(STR, queue_post_exec)			\
	F(STR, requeue_exit) F(STR, outdir) F(BOOL, make_cwd)		\
	F(STR, ctl_suspend) F(STR, ctl_resume) F(STR, ctl_terminate)	\
	F(STR, chkpnt_dir) F(STR, chkpnt_method) F(BOOL, chkpnt_restart)	\
	F(STR, host_pre_exec) F(STR, host_post_exec)			\
	F(STR, app_host_pre_exec) F(STR, app_host_post_exec)		\
	F(STR, app_pre_exec) F(STR, app_post_exec)			\
	F(STR, queue_prepost_user) F(STR, app_prepost_user)		\
	F(STR, warning_action) F(INT, warning_time)
PROTO_IMPL(job_spec, JOB_SPEC_FIELDS)

#define SBD_SIGNAL_FIELDS(F)						\
	F(I64, jobid) F(I32, idx) F(INT, sig) F(INT, reason)		\
	F(U32, run_count) F(U32, flags) F(INT, sub)
PROTO_IMPL(sbd_signal, SBD_SIGNAL_FIELDS)

#define SBD_LIMITS_FIELDS(F)						\
	F(I64, jobid) F(I32, idx) F(U32, run_count)			\
	F(I64A, rlimits, LSF_RLIM_NLIMITS) F(I64, term_time)
PROTO_IMPL(sbd_limits, SBD_LIMITS_FIELDS)

#define SBD_JOB_SUSP_FIELDS(F)						\
	F(I64, jobid) F(I32, idx) F(U32, run_count) F(INT, qprio)	\
	F(BOOL, forced) F(FLTA, qsched, NLOADIDX)			\
	F(FLTA, qstop, NLOADIDX) F(U32, qsched_set) F(U32, qstop_set)	\
	F(STR, stop_cond) F(STR, resume_cond)				\
	F(FLTA, hsched, NLOADIDX) F(FLTA, hstop, NLOADIDX)		\
	F(U32, hsched_set) F(U32, hstop_set) F(INT, sleep_time)		\
	F(INT, pg_susp_it) F(STRV, qext) F(STRV, hext)
PROTO_IMPL(sbd_job_susp, SBD_JOB_SUSP_FIELDS)

#define JOB_ACK_FIELDS(F)						\
	F(I64, jobid) F(I32, idx) F(INT, status) F(U32, run_count)
PROTO_IMPL(job_ack, JOB_ACK_FIELDS)

#define LIM_HOST_FIELDS(F)						\
	F(STR, name) F(INT, status) F(FLTA, load, NLOADIDX)		\
	F(STR, type) F(STR, model) F(FLT, cpuf) F(INT, ncpus)		\
	F(INT, ncores) F(INT, nthreads) F(INT, maxmem) F(INT, maxswp)	\
	F(INT, maxtmp) F(BOOL, server) F(STRV, resources)		\
	F(STRV, ext)
PROTO_IMPL(lim_host, LIM_HOST_FIELDS)

#define LIM_LOAD_LIST_FIELDS(F)						\
	F(STR, master) F(LIST, hosts, nhosts, lim_host, 64)
PROTO_IMPL(lim_load_list, LIM_LOAD_LIST_FIELDS)

#define AUTH_HELLO_FIELDS(F)						\
	F(U32, from_role) F(STR, from_host) F(U32, to_role) F(STR, to_host) \
	F(STR, nonce)
PROTO_IMPL(auth_hello, AUTH_HELLO_FIELDS)
#define LIM_PROBE_REPLY_FIELDS(F)	F(STR, host) F(STR, master)
PROTO_IMPL(lim_probe_reply, LIM_PROBE_REPLY_FIELDS)

#define LIM_CLUSTER_INFO_FIELDS(F)					\
	F(STR, cluster) F(STR, master) F(STR, product) F(STRV, admins)	\
	F(INT, nhosts) F(INT, nservers)
PROTO_IMPL(lim_cluster_info, LIM_CLUSTER_INFO_FIELDS)

#define CTRL_REQ_FIELDS(F)						\
	F(INT, op) F(U32, flags) F(INT, position) F(STR, queue)		\
	F(STRV, hosts) F(STR, user) F(STR, src_queue) F(STR, host)	\
	F(STR, job_name) F(LIST, ids, nids, job_id, 12)
PROTO_IMPL(ctrl_req, CTRL_REQ_FIELDS)

#define SUB_REQ(F)	F(SUB, req)
#define PK_SUB(f)	submit_req_pack(w, &x->f);
#define UN_SUB(f)	submit_req_unpack(r, &x->f);
#define RL_SUB(f)	submit_req_release(&x->f);
#define MOD_REQ_FIELDS(F)						\
	F(I64, jobid) F(I32, idx) F(U32, set) F(U32, del) F(SUB, req)
PROTO_IMPL(mod_req, MOD_REQ_FIELDS)

#define RESTART_REQ_FIELDS(F)						\
	F(STR, dir) F(I64, jobid) F(I32, idx) F(U32, flags) F(SUB, req)
PROTO_IMPL(restart_req, RESTART_REQ_FIELDS)

#define PEEK_REQ_FIELDS(F)						\
	F(I64, jobid) F(I32, idx) F(I64, offset) F(INT, max) F(U32, tag) \
	F(U32, run_count) F(STR, queue) F(STR, host) F(STR, job_name)	\
	F(U32, flags)
PROTO_IMPL(peek_req, PEEK_REQ_FIELDS)

#define PEEK_REPLY_FIELDS(F)						\
	F(INT, code) F(U32, tag) F(I64, offset) F(I64, next)		\
	F(BOOL, finished) F(STR, path) F(STR, data) F(I64, jobid)	\
	F(I32, idx)
PROTO_IMPL(peek_reply, PEEK_REPLY_FIELDS)

#define ADMIN_REQ_FIELDS(F)						\
	F(INT, op) F(STRV, names) F(STR, comment)
PROTO_IMPL(admin_req, ADMIN_REQ_FIELDS)

#define ADMIN_RESULT_FIELDS(F)	F(STR, name) F(INT, code) F(STR, detail)
PROTO_IMPL(admin_result, ADMIN_RESULT_FIELDS)
#define ADMIN_RESULT_LIST_FIELDS(F)					\
	F(LIST, v, n, admin_result, PROTO_MIN(ADMIN_RESULT_FIELDS))
PROTO_IMPL(admin_result_list, ADMIN_RESULT_LIST_FIELDS)

/* PROTO_MIN against sizes counted by hand. */
_Static_assert(PROTO_MIN(JOB_RESULT_FIELDS) == 16, "job_result size");
_Static_assert(PROTO_MIN(ADMIN_RESULT_FIELDS) == 12, "admin_result size");
_Static_assert(PROTO_MIN(FS_ROW_FIELDS) == 57, "fs_row size");
_Static_assert(PROTO_MIN(FS_INFO_FIELDS) == 20, "fs_info size");

void
submit_req_init(struct submit_req *x)
{
	memset(x, 0, sizeof(*x));
	x->num_procs = 1;
	x->max_procs = 1;
	x->user_priority = -1;
	x->warning_time = -1;
	x->umask = 022;
	for (int i = 0; i < LSF_RLIM_NLIMITS; i++)
		x->rlimits[i] = DEFAULT_RLIMIT;
}

void
job_info_init(struct job_info *x)
{
	memset(x, 0, sizeof(*x));
	x->exit_status = -1;
	x->user_priority = -1;
	x->mem_kb = x->max_mem_kb = x->avg_mem_kb = x->swap_kb = -1;
	for (int i = 0; i < LSF_RLIM_NLIMITS; i++)
		x->rlimits[i] = DEFAULT_RLIMIT;
}

void
job_status_init(struct job_status *x)
{
	memset(x, 0, sizeof(*x));
	x->exit_status = -1;
	x->post_exec_status = -1;
	x->mem_kb = x->max_mem_kb = x->avg_mem_kb = x->swap_kb = -1;
}

void
job_spec_init(struct job_spec *x)
{
	memset(x, 0, sizeof(*x));
	x->umask = 022;
	for (int i = 0; i < LSF_RLIM_NLIMITS; i++)
		x->rlimits[i] = DEFAULT_RLIMIT;
}

void
kv_add(struct kv_list *kv, const char *key, const char *val)
{
	strv_push(&kv->keys, key);
	strv_push(&kv->vals, val ? val : "");
}

void
msg_put_error(struct wbuf *w, uint32_t seq, int code, const char *context,
    const char *detail)
{
	struct msg_error e = {
		.code = code,
		.context = (char *)context,
		.detail = (char *)detail,
	};

	msg_error_frame(w, MSG_ERROR, seq, &e);
}

void
msg_put_empty(struct wbuf *w, uint16_t type, uint32_t seq)
{
	wbuf_begin(w, type, seq, 0);
	wbuf_end_frame(w);
}

static const struct {
	int		 type;
	const char	*name;
} msg_names[] = {
#define N(x)	{ x, #x }
	N(MSG_OK), N(MSG_ERROR), N(MSG_PING), N(MSG_REDIRECT),
	N(MSG_AUTH_HELLO), N(MSG_AUTH_CHALLENGE), N(MSG_AUTH), N(MSG_AUTH_OK),
	N(MSG_SUBMIT), N(MSG_JOB_QUERY), N(MSG_JOB_SIGNAL),
	N(MSG_QUEUE_QUERY), N(MSG_HOST_QUERY), N(MSG_PARAM_QUERY),
	N(MSG_JOB_WAIT), N(MSG_MBD_CONF_QUERY), N(MSG_SUBMIT_REPLY),
	N(MSG_JOB_LIST), N(MSG_SIGNAL_REPLY), N(MSG_QUEUE_LIST),
	N(MSG_HOST_LIST), N(MSG_PARAM_LIST), N(MSG_JOB_EVENT),
	N(MSG_CONF_LIST), N(MSG_SBD_REGISTER), N(MSG_SBD_JOB_STATUS),
	N(MSG_SBD_REGISTER_REPLY), N(MSG_SBD_JOB_START),
	N(MSG_SBD_JOB_SIGNAL), N(MSG_SBD_JOB_ACK), N(MSG_SBD_JOB_LIMITS),
	N(MSG_LIM_REPORT),
	N(MSG_LIM_PROBE), N(MSG_LIM_PROBE_REPLY), N(MSG_LIM_LOAD_QUERY),
	N(MSG_LIM_CLUSTER_QUERY), N(MSG_LIM_SUBSCRIBE),
	N(MSG_LIM_CONF_QUERY), N(MSG_LIM_LOAD_LIST),
	N(MSG_LIM_CLUSTER_INFO), N(MSG_LIM_CONF_LIST), N(MSG_JS_HELLO),
	N(MSG_JS_STATUS), N(MSG_JS_ACK), N(MSG_JOB_CONTROL),
	N(MSG_JOB_MODIFY), N(MSG_JOB_PEEK), N(MSG_ADMIN), N(MSG_PEEK_REPLY),
	N(MSG_ADMIN_REPLY), N(MSG_SBD_PEEK_REPLY), N(MSG_SBD_PEEK),
	N(MSG_LIM_RECONFIG), N(MSG_LIM_RESTART), N(MSG_SBD_SHUTDOWN),
	N(MSG_SBD_RESTART), N(MSG_LIM_SHUTDOWN), N(MSG_LIM_LOCK),
	N(MSG_LIM_UNLOCK), N(MSG_LIM_EXCL_HOSTS), N(MSG_USER_QUERY),
	N(MSG_WAIT_QUERY), N(MSG_USER_LIST), N(MSG_WAIT_REPLY),
	N(MSG_APP_QUERY), N(MSG_APP_LIST),
	N(MSG_SBD_JOB_SUSP), N(MSG_LIM_HOST_LOAD),
	N(MSG_SBD_JOB_SUSP), N(MSG_LIM_HOST_LOAD), N(MSG_LIMIT_QUERY),
	N(MSG_LIMIT_LIST), N(MSG_FS_QUERY), N(MSG_FS_LIST),
	N(MSG_JOB_RESTART),
	N(MSG_SUBMIT_PACK), N(MSG_SUBMIT_PACK_REPLY),
	N(MSG_SBD_CHKPNT_DONE), N(MSG_JS_CHKPNT),
#undef N
};

const char *
msg_type_name(int type)
{
	for (size_t i = 0; i < ARRAY_SIZE(msg_names); i++)
		if (msg_names[i].type == type)
			return msg_names[i].name;
	return "MSG_UNKNOWN";
}

static const char *const errmsgs[LSBE_NERR] = {
	[LSBE_NO_ERROR] = "No error",
	[LSBE_NO_JOB] = "No matching job found",
	[LSBE_NOT_STARTED] = "Job has not started yet",
	[LSBE_JOB_STARTED] = "Job has already started",
	[LSBE_JOB_FINISH] = "Job has already finished",
	[LSBE_BAD_QUEUE] = "No such queue",
	[LSBE_QUEUE_CLOSED] = "Queue has been closed",
	[LSBE_QUEUE_USE] = "User cannot use the queue",
	[LSBE_BAD_HOST] = "Bad host name, host group name or cluster name",
	[LSBE_PROC_NUM] = "Too many processors requested",
	[LSBE_BAD_ARG] = "Bad argument",
	[LSBE_BAD_TIME] = "Bad time specification",
	[LSBE_PERMISSION] = "User permission denied",
	[LSBE_BAD_RESREQ] = "Bad resource requirement syntax",
	[LSBE_BAD_JOBID] = "Bad jobId",
	[LSBE_QUEUE_HOST] = "Host or host group is not used by the queue",
	[LSBE_EXCLUSIVE] = "Queue does not accept EXCLUSIVE jobs",
	[LSBE_BAD_SIGNAL] = "Signal not supported",
	[LSBE_BAD_JOB_NAME] = "Bad job name",
	[LSBE_HARD_LIMIT] = "Cannot exceed queue's hard limit(s)",
	[LSBE_PJOB_LIMIT] = "Pending job threshold reached",
	[LSBE_NO_MEM] = "Memory allocation failed",
	[LSBE_SYS] = "Internal error",
	[LSBE_PROTOCOL] = "Protocol error",
	[LSBE_LOG] = "Cannot write the event log",
	[LSBE_NOT_MASTER] = "Not the master host",
	[LSBE_DEP_SYNTAX] = "Dependency condition syntax error",
	[LSBE_ARRAY_INDEX] = "Job array index too large",
	[LSBE_NO_OUTPUT] = "No output so far",
	[LSBE_NOLSF] = "LSF is down",
	[LSBE_NOT_SUSPENDED] = "Job is not suspended",
	[LSBE_NOT_RERUNNABLE] = "Job is not checkpointable",
	[LSBE_LOCKED] = "Job is being acted on; try again later",
	[LSBE_CONF] = "Bad configuration",
	[LSBE_DEP_NOT_FOUND] = "No matching job found",
	[LSBE_SBD_UNREACH] = "Slave batch daemon (sbatchd) is unreachable",
	[LSBE_BAD_UGROUP] = "Bad user group name",
	[LSBE_UGROUP_MEMBER] = "User not in the specified user group",
	/* bsub -app, bapp: the name is not a profile (wording unverified). */
	[LSBE_BAD_APP] = "Application profile does not exist",
	/* After a context 'Error in select section: Error near "x" '. */
	[LSBE_BAD_RESNAME] = "incorrect section name, resource name, or "
	    "resource function name",
};

const char *
lsb_errmsg(int code)
{
	if (code < 0 || code >= LSBE_NERR || errmsgs[code] == NULL)
		return "Unknown error";
	return errmsgs[code];
}
