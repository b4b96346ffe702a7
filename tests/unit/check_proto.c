/*
 * The wire codec and every message struct: round trips that compare each
 * field, the exact byte layout (pack order is frozen: a swapped field
 * breaks peers of another build), truncated, padded and malformed bodies,
 * frame headers, blocking I/O over a socketpair, and a fixed-seed
 * mutation loop meant to run under ASan.
 *
 * The expected bytes of each struct are written here independently of
 * proto.c: one visit function per struct lists its fields in wire order
 * and is used both to fill a struct (encoding each value by hand as it
 * goes) and to compare two structs field by field.
 */
#include <check.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "jobfmt.h"
#include "proto.h"
#include "util.h"
#include "wire.h"

#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif

/* Deterministic values, so that two fields never hold the same one. */
enum { MODE_FULL, MODE_MIXED, MODE_EMPTY, MODE_BIG, NMODES };

struct gen {
	uint32_t	 n;
	int		 mode;
};

static uint32_t
g_u32(struct gen *g)
{
	g->n++;
	return 0x80000000u ^ (g->n * 2654435761u);
}

static int32_t
g_i32(struct gen *g)
{
	g->n++;
	switch (g->mode) {
	case MODE_FULL:
		return (int32_t)(g->n * 7919u + 1);
	case MODE_MIXED:
		return -(int32_t)(g->n * 1009u);
	default:
		return INT32_MAX - (int32_t)g->n;
	}
}

static int64_t
g_i64(struct gen *g)
{
	g->n++;
	switch (g->mode) {
	case MODE_FULL:
		return (int64_t)g->n * 1000000007LL + ((int64_t)1 << 40);
	case MODE_MIXED:
		return -(int64_t)g->n - ((int64_t)1 << 62);
	default:
		return INT64_MIN + (int64_t)g->n;
	}
}

static double
g_dbl(struct gen *g)
{
	g->n++;
	return g->mode == MODE_MIXED ? -(double)g->n * 1e300 : g->n + 0.125;
}

static float
g_flt(struct gen *g)
{
	g->n++;
	return g->mode == MODE_MIXED ? -(float)g->n / 3.0f : (float)g->n + 0.5f;
}

static bool
g_bool(struct gen *g)
{
	g->n++;
	return g->n & 1;
}

static char *
g_str(struct gen *g)
{
	g->n++;
	switch (g->mode) {
	case MODE_FULL:
		return xasprintf("s%u \"q\" \\ \t\n \xc3\xa9\xe6\x97\xa5", g->n);
	case MODE_MIXED:
		if (g->n % 3 == 0)
			return NULL;
		if (g->n % 3 == 1)
			return xstrdup("");
		return xasprintf("%0300u", g->n);
	case MODE_BIG:
		return xasprintf("big-%u", g->n);
	default:
		return NULL;
	}
}

static void
g_strv(struct gen *g, struct strv *sv)
{
	int n = g->mode == MODE_FULL ? 3 : g->mode == MODE_MIXED ? 2 :
	    g->mode == MODE_BIG ? 12 : 0;

	g->n++;
	for (int i = 0; i < n; i++) {
		if (g->mode == MODE_MIXED && i == 0)
			strv_push(sv, "");
		else
			strv_push_nodup(sv, xasprintf("v%u.%d", g->n, i));
	}
}

static uint32_t
g_count(struct gen *g)
{
	g->n++;
	switch (g->mode) {
	case MODE_FULL:
		return 3;
	case MODE_MIXED:
		return 1;
	case MODE_BIG:
		return 20;
	default:
		return 0;
	}
}

/* Encoding by hand, one byte at a time. */
static void
e32(struct wbuf *w, uint32_t x)
{
	for (int s = 24; s >= 0; s -= 8)
		put_u8(w, (uint8_t)(x >> s));
}

static void
e64(struct wbuf *w, uint64_t x)
{
	for (int s = 56; s >= 0; s -= 8)
		put_u8(w, (uint8_t)(x >> s));
}

static void
estr(struct wbuf *w, const char *s)
{
	if (s == NULL) {
		e32(w, 0xffffffffu);
		return;
	}
	e32(w, (uint32_t)strlen(s));
	for (; *s; s++)
		put_u8(w, (uint8_t)*s);
}

/*
 * The visitor: MK fills x and appends its expected encoding to w; EQ
 * checks x (decoded) against y (original) field by field.
 */
enum vop { V_MK, V_EQ };
struct vis {
	enum vop	 op;
	struct gen	 g;
	struct wbuf	*w;
	const char	*where;
};

static void
vis_u32(struct vis *v, const char *f, uint32_t *a, const uint32_t *b)
{
	if (v->op == V_MK) {
		*a = g_u32(&v->g);
		e32(v->w, *a);
		return;
	}
	ck_assert_msg(*a == *b, "%s.%s: %" PRIu32 " != %" PRIu32, v->where,
	    f, *a, *b);
}

static void
vis_i32(struct vis *v, const char *f, int32_t *a, const int32_t *b)
{
	if (v->op == V_MK) {
		*a = g_i32(&v->g);
		e32(v->w, (uint32_t)*a);
		return;
	}
	ck_assert_msg(*a == *b, "%s.%s: %" PRId32 " != %" PRId32, v->where,
	    f, *a, *b);
}

static void
vis_u64(struct vis *v, const char *f, uint64_t *a, const uint64_t *b)
{
	if (v->op == V_MK) {
		*a = (uint64_t)g_i64(&v->g);
		e64(v->w, *a);
		return;
	}
	ck_assert_msg(*a == *b, "%s.%s: %" PRIu64 " != %" PRIu64, v->where,
	    f, *a, *b);
}

static void
vis_i64(struct vis *v, const char *f, int64_t *a, const int64_t *b)
{
	if (v->op == V_MK) {
		*a = g_i64(&v->g);
		e64(v->w, (uint64_t)*a);
		return;
	}
	ck_assert_msg(*a == *b, "%s.%s: %" PRId64 " != %" PRId64, v->where,
	    f, *a, *b);
}

static void
vis_bool(struct vis *v, const char *f, bool *a, const bool *b)
{
	if (v->op == V_MK) {
		*a = g_bool(&v->g);
		put_u8(v->w, *a ? 1 : 0);
		return;
	}
	ck_assert_msg(*a == *b, "%s.%s: %d != %d", v->where, f, *a, *b);
}

static void
vis_dbl(struct vis *v, const char *f, double *a, const double *b)
{
	uint64_t u;

	if (v->op == V_MK) {
		*a = g_dbl(&v->g);
		memcpy(&u, a, sizeof(u));
		e64(v->w, u);
		return;
	}
	ck_assert_msg(memcmp(a, b, sizeof(*a)) == 0, "%s.%s: %g != %g",
	    v->where, f, *a, *b);
}

static void
vis_flt(struct vis *v, const char *f, float *a, const float *b)
{
	uint32_t u;

	if (v->op == V_MK) {
		*a = g_flt(&v->g);
		memcpy(&u, a, sizeof(u));
		e32(v->w, u);
		return;
	}
	ck_assert_msg(memcmp(a, b, sizeof(*a)) == 0, "%s.%s: %g != %g",
	    v->where, f, (double)*a, (double)*b);
}

static void
vis_str(struct vis *v, const char *f, char **a, char *const *b)
{
	if (v->op == V_MK) {
		*a = g_str(&v->g);
		estr(v->w, *a);
		return;
	}
	if (*b == NULL)
		ck_assert_msg(*a == NULL, "%s.%s: NULL came back as \"%s\"",
		    v->where, f, *a);
	else
		ck_assert_msg(*a != NULL && strcmp(*a, *b) == 0,
		    "%s.%s: \"%s\" came back as %s%s%s", v->where, f, *b,
		    *a ? "\"" : "", *a ? *a : "NULL", *a ? "\"" : "");
}

static void
vis_strv(struct vis *v, const char *f, struct strv *a, const struct strv *b)
{
	if (v->op == V_MK) {
		g_strv(&v->g, a);
		e32(v->w, (uint32_t)a->n);
		for (size_t i = 0; i < a->n; i++)
			estr(v->w, a->v[i]);
		return;
	}
	ck_assert_msg(a->n == b->n, "%s.%s: %zu items != %zu", v->where, f,
	    a->n, b->n);
	for (size_t i = 0; i < a->n; i++)
		ck_assert_msg(strcmp(a->v[i], b->v[i]) == 0,
		    "%s.%s[%zu]: \"%s\" != \"%s\"", v->where, f, i, a->v[i],
		    b->v[i]);
	ck_assert_msg(a->n == 0 || a->v[a->n] == NULL,
	    "%s.%s: not NULL-terminated", v->where, f);
}

#define VU32(f)	vis_u32(v, #f, &x->f, y ? &y->f : NULL)
#define VI32(f)	vis_i32(v, #f, &x->f, y ? &y->f : NULL)
#define VINT(f)	vis_i32(v, #f, &x->f, y ? &y->f : NULL)
#define VI64(f)	vis_i64(v, #f, &x->f, y ? &y->f : NULL)
#define VU64(f)	vis_u64(v, #f, &x->f, y ? &y->f : NULL)
#define VBOOL(f) vis_bool(v, #f, &x->f, y ? &y->f : NULL)
#define VDBL(f)	vis_dbl(v, #f, &x->f, y ? &y->f : NULL)
#define VFLT(f)	vis_flt(v, #f, &x->f, y ? &y->f : NULL)
#define VSTR(f)	vis_str(v, #f, &x->f, y ? &y->f : NULL)
#define VSTRV(f) vis_strv(v, #f, &x->f, y ? &y->f : NULL)
#define VI64A(f, n) do {						\
	for (int i_ = 0; i_ < (n); i_++)				\
		vis_i64(v, #f "[]", &x->f[i_], y ? &y->f[i_] : NULL);	\
} while (0)
#define VFLTA(f, n) do {						\
	for (int i_ = 0; i_ < (n); i_++)				\
		vis_flt(v, #f "[]", &x->f[i_], y ? &y->f[i_] : NULL);	\
} while (0)
#define VLIST(f, n, t) do {						\
	const char *save_ = v->where;					\
									\
	if (v->op == V_MK) {						\
		x->n = g_count(&v->g);					\
		x->f = x->n ? xcalloc(x->n, sizeof(*x->f)) : NULL;	\
		e32(v->w, x->n);					\
	} else								\
		ck_assert_msg(x->n == y->n, "%s.%s: %" PRIu32		\
		    " != %" PRIu32, v->where, #n, x->n, y->n);		\
	v->where = #f;							\
	for (uint32_t i_ = 0; i_ < x->n; i_++)				\
		visit_##t(v, &x->f[i_], y ? &y->f[i_] : NULL);		\
	v->where = save_;						\
} while (0)

#define VISIT(t)							\
static void								\
visit_##t(struct vis *v, struct t *x, const struct t *y)

VISIT(job_id)
{
	VI64(jobid); VI32(idx);
}

VISIT(reason_count)
{
	VINT(reason); VINT(count);
}

VISIT(msg_error)
{
	VINT(code); VSTR(context); VSTR(detail);
}

VISIT(kv_list)
{
	VSTRV(keys); VSTRV(vals);
}

VISIT(submit_req)
{
	VU32(options); VU32(options2); VSTR(job_name); VSTR(queue);
	VSTRV(asked_hosts); VSTRV(res_reqs); VINT(num_procs);
	VINT(max_procs); VSTR(in_file); VSTR(out_file); VSTR(err_file);
	VSTR(cwd); VSTR(sub_cwd); VSTR(sub_home); VSTR(command);
	VSTR(project); VSTR(user_group); VSTR(mail_user); VSTR(depend_cond);
	VSTR(pre_exec); VSTR(post_exec); VSTR(login_shell); VSTR(from_host);
	VI64A(rlimits, LSF_RLIM_NLIMITS); VI64(begin_time); VI64(term_time);
	VINT(umask); VINT(user_priority); VSTRV(env); VSTR(outdir);
	VSTR(app); VSTR(chkpnt_dir); VSTR(chkpnt_method);
	VI64(chkpnt_period); VSTR(warning_action); VINT(warning_time);
}

VISIT(submit_reply)
{
	VI64(jobid); VSTR(queue); VBOOL(default_queue);
}

VISIT(job_query)
{
	VU32(flags); VSTR(user); VSTR(queue); VSTR(host); VSTR(job_name);
	VLIST(ids, nids, job_id); VU64(fields); VSTR(app);
}

VISIT(job_info)
{
	/* Every field present; test_job_info_sparse tries fewer. */
	if (v->op == V_MK) {
		x->present = JI_ALL;
		e64(v->w, x->present);
	} else {
		ck_assert_msg(x->present == y->present, "%s.present",
		    v->where);
	}
	VI64(jobid); VI32(idx); VINT(status); VU32(options); VU32(options2);
	VSTR(user); VSTR(queue); VSTR(from_host); VSTRV(exec_hosts);
	VSTR(job_name); VSTR(command); VSTR(project); VSTR(user_group);
	VSTR(cwd); VSTR(sub_home); VSTR(in_file); VSTR(out_file);
	VSTR(err_file); VSTR(mail_user); VSTR(depend_cond); VSTR(res_req);
	VSTR(effective_res_req); VSTR(exec_cwd); VSTR(exec_home);
	VSTR(exec_user); VI64(submit_time); VI64(begin_time); VI64(term_time);
	VI64(start_time); VI64(end_time); VI64(reserve_time); VINT(num_procs);
	VINT(max_procs); VINT(exit_status); VINT(exit_reason);
	VINT(pend_reason); VLIST(host_reasons, nhost_reasons, reason_count);
	VINT(susp_reason); VDBL(cpu_time); VI64(mem_kb); VI64(max_mem_kb);
	VI64(avg_mem_kb); VI64(swap_kb); VINT(pgid); VSTRV(pids);
	VI64A(rlimits, LSF_RLIM_NLIMITS); VINT(user_priority);
	VINT(run_count); VI64A(array_counts, JA_NCOUNTS);
	VSTRV(asked_hosts); VSTR(login_shell); VSTR(pre_exec); VINT(susp_sub);
	VSTR(susp_ext); VSTR(app); VINT(exceptions); VSTR(chkpnt_dir);
	VI64(chkpnt_period); VSTR(chkpnt_method); VINT(nrequeue);
}

VISIT(job_list)
{
	VLIST(jobs, njobs, job_info); VLIST(missing, nmissing, job_id);
}

VISIT(sig_req)
{
	VINT(sig); VU32(flags); VSTR(user); VSTR(queue); VSTR(host);
	VSTR(job_name); VLIST(ids, nids, job_id);
}

VISIT(job_result)
{
	VI64(jobid); VI32(idx); VINT(code);
}

VISIT(queue_info)
{
	VSTR(name); VSTR(description); VINT(priority); VINT(nice);
	VINT(status); VINT(qjob_limit); VINT(ujob_limit); VFLT(pjob_limit);
	VINT(hjob_limit); VINT(njobs); VINT(npend); VINT(nrun); VINT(nssusp);
	VINT(nususp); VINT(nrsv); VINT(accept_interval);
	VFLTA(sched, NLOADIDX); VFLTA(stop, NLOADIDX); VU32(sched_set);
	VU32(stop_set); VSTR(users); VSTR(hosts); VSTR(res_req);
	VSTR(dispatch_window); VSTR(run_window); VI64(runlimit);
	VI64(cpulimit); VI64(memlimit); VINT(proclimit); VBOOL(exclusive);
	visit_kv_list(v, &x->extra, y ? &y->extra : NULL);
	VI64(runlimit_dflt); VI64(cpulimit_dflt); VI64(memlimit_dflt);
	VINT(proclimit_dflt); VSTRV(ext_thr);
}

VISIT(host_info)
{
	VSTR(name); VINT(status); VFLT(cpuf); VINT(max_slots); VINT(jlu);
	VINT(njobs); VINT(nrun); VINT(nssusp); VINT(nususp); VINT(nrsv);
	VSTR(dispatch_window); VFLTA(load, NLOADIDX); VFLTA(sched, NLOADIDX);
	VFLTA(stop, NLOADIDX); VU32(sched_set); VU32(stop_set);
	VU32(busy_mask); VINT(mig); VFLTA(rsv, NLOADIDX); VSTRV(ext_thr);
	VSTR(comment);
}

VISIT(job_event)
{
	VINT(what); VI64(jobid); VSTR(host); VINT(status); VINT(exit_status);
}

VISIT(job_status)
{
	VI64(jobid); VI32(idx); VINT(status); VINT(pid); VINT(pgid);
	VI64(start_time); VI64(end_time); VINT(exit_status);
	VINT(exit_reason); VDBL(cpu_time); VI64(mem_kb); VI64(max_mem_kb);
	VI64(avg_mem_kb); VI64(swap_kb); VSTR(exec_cwd); VSTR(exec_home);
	VSTR(exec_user); VU32(run_count); VINT(susp_reason);
	VINT(pre_exec_failed); VINT(post_exec_status); VINT(susp_sub);
}

VISIT(sbd_register)
{
	VSTR(host); VINT(pid); VLIST(jobs, njobs, job_status);
}

VISIT(sbd_register_reply)
{
	VSTR(cluster); VINT(job_terminate_interval); VINT(sbd_sleep_time);
}

VISIT(job_spec)
{
	VI64(jobid); VI32(idx); VU32(run_count); VU32(options);
	VU32(options2); VSTR(user); VINT(uid); VSTR(queue); VSTR(cluster);
	VSTR(job_name); VSTR(command); VSTR(cwd); VSTR(sub_cwd);
	VSTR(sub_home); VSTR(in_file); VSTR(out_file); VSTR(err_file);
	VSTR(from_host); VSTR(project); VSTR(mail_user); VSTR(login_shell);
	VSTR(job_starter); VSTRV(exec_hosts); VSTRV(env);
	VI64A(rlimits, LSF_RLIM_NLIMITS); VI64(submit_time); VINT(umask);
	VINT(nice); VINT(term_interval); VI64(term_time); VSTR(pre_exec);
	VSTR(post_exec); VSTR(queue_pre_exec); VSTR(queue_post_exec);
	VSTR(requeue_exit); VSTR(outdir); VBOOL(make_cwd);
	VSTR(ctl_suspend); VSTR(ctl_resume); VSTR(ctl_terminate);
	VSTR(chkpnt_dir); VSTR(chkpnt_method); VBOOL(chkpnt_restart);
	VSTR(host_pre_exec); VSTR(host_post_exec); VSTR(app_host_pre_exec);
	VSTR(app_host_post_exec); VSTR(app_pre_exec); VSTR(app_post_exec);
	VSTR(queue_prepost_user); VSTR(app_prepost_user);
	VSTR(warning_action); VINT(warning_time);
}

VISIT(sbd_signal)
{
	VI64(jobid); VI32(idx); VINT(sig); VINT(reason); VU32(run_count);
	VU32(flags); VINT(sub);
}

VISIT(sbd_job_susp)
{
	VI64(jobid); VI32(idx); VU32(run_count); VINT(qprio); VBOOL(forced);
	VFLTA(qsched, NLOADIDX); VFLTA(qstop, NLOADIDX); VU32(qsched_set);
	VU32(qstop_set); VSTR(stop_cond); VSTR(resume_cond);
	VFLTA(hsched, NLOADIDX); VFLTA(hstop, NLOADIDX); VU32(hsched_set);
	VU32(hstop_set); VINT(sleep_time); VINT(pg_susp_it); VSTRV(qext);
	VSTRV(hext);
}

VISIT(sbd_limits)
{
	VI64(jobid); VI32(idx); VU32(run_count);
	VI64A(rlimits, LSF_RLIM_NLIMITS); VI64(term_time);
}

VISIT(job_ack)
{
	VI64(jobid); VI32(idx); VINT(status); VU32(run_count);
}

VISIT(lim_host)
{
	VSTR(name); VINT(status); VFLTA(load, NLOADIDX); VSTR(type);
	VSTR(model); VFLT(cpuf); VINT(ncpus); VINT(ncores); VINT(nthreads);
	VINT(maxmem); VINT(maxswp); VINT(maxtmp); VBOOL(server);
	VSTRV(resources); VSTRV(ext);
}

VISIT(lim_load_list)
{
	VSTR(master); VLIST(hosts, nhosts, lim_host);
}

VISIT(auth_hello)
{
	VU32(from_role); VSTR(from_host); VU32(to_role); VSTR(to_host);
	VSTR(nonce);
}

VISIT(lim_probe_reply)
{
	VSTR(host); VSTR(master);
}

VISIT(lim_cluster_info)
{
	VSTR(cluster); VSTR(master); VSTR(product); VSTRV(admins);
	VINT(nhosts); VINT(nservers);
}

VISIT(ctrl_req)
{
	VINT(op); VU32(flags); VINT(position); VSTR(queue); VSTRV(hosts);
	VSTR(user); VSTR(src_queue); VSTR(host); VSTR(job_name);
	VLIST(ids, nids, job_id);
}

VISIT(mod_req)
{
	const char *save = v->where;

	VI64(jobid); VI32(idx); VU32(set); VU32(del);
	v->where = "req";
	visit_submit_req(v, &x->req, y ? &y->req : NULL);
	v->where = save;
}

VISIT(restart_req)
{
	const char *save = v->where;

	VSTR(dir); VI64(jobid); VI32(idx); VU32(flags);
	v->where = "req";
	visit_submit_req(v, &x->req, y ? &y->req : NULL);
	v->where = save;
}

VISIT(peek_req)
{
	VI64(jobid); VI32(idx); VI64(offset); VINT(max); VU32(tag);
	VU32(run_count); VSTR(queue); VSTR(host); VSTR(job_name);
	VU32(flags);
}

VISIT(peek_reply)
{
	VINT(code); VU32(tag); VI64(offset); VI64(next); VBOOL(finished);
	VSTR(path); VSTR(data); VI64(jobid); VI32(idx);
}

VISIT(admin_req)
{
	VINT(op); VSTRV(names); VSTR(comment);
}

VISIT(admin_result)
{
	VSTR(name); VINT(code); VSTR(detail);
}

VISIT(job_result_list)
{
	VLIST(v, n, job_result);
}

VISIT(queue_list)
{
	VLIST(v, n, queue_info);
}

VISIT(host_list)
{
	VLIST(v, n, host_info);
}

VISIT(admin_result_list)
{
	VLIST(v, n, admin_result);
}

VISIT(user_info)
{
	VSTR(name); VBOOL(is_group); VINT(max_jobs); VFLT(jl_p);
	VINT(max_pend_jobs); VINT(max_pend_slots); VINT(njobs); VINT(npend);
	VINT(nrun); VINT(nssusp); VINT(nususp); VINT(nrsv); VINT(npjobs);
}

VISIT(user_list)
{
	VLIST(v, n, user_info);
}

VISIT(app_info)
{
	VSTR(name); VSTR(description); VINT(njobs); VINT(npend); VINT(nrun);
	VINT(nssusp); VINT(nususp); VINT(nrsv); VI64(runlimit);
	VI64(cpulimit); VI64(memlimit); VINT(max_job_preempt);
	VINT(rerunnable); VSTR(ctl_suspend); VSTR(ctl_resume);
	VSTR(ctl_terminate);
	visit_kv_list(v, &x->extra, y ? &y->extra : NULL);
}

VISIT(app_list)
{
	VLIST(v, n, app_info);
}

VISIT(limit_info)
{
	VSTR(name); VSTR(users); VSTR(queues); VSTR(hosts); VSTR(projects);
	VINT(slots_used); VINT(slots_max); VINT(mem_used); VINT(mem_max);
	VINT(jobs_used); VINT(jobs_max);
}

VISIT(limit_list)
{
	VLIST(v, n, limit_info);
}

VISIT(fs_query)
{
	VSTR(kind); VSTRV(names);
}

VISIT(fs_row)
{
	VSTR(name); VINT(parent); VINT(depth); VBOOL(group); VINT(shares);
	VDBL(priority); VINT(started); VINT(reserved); VDBL(cpu_time);
	VI64(run_time); VDBL(adjust);
}

VISIT(fs_info)
{
	VSTR(kind); VSTR(name); VSTRV(members); VSTR(shares);
	VLIST(rows, nrows, fs_row);
}

VISIT(fs_list)
{
	VLIST(v, n, fs_info);
}

VISIT(submit_pack)
{
	VLIST(v, n, submit_req);
}

VISIT(pack_result)
{
	VI64(jobid); VSTR(queue); VBOOL(default_queue); VINT(code);
	VSTR(context); VSTR(detail);
}

VISIT(submit_pack_reply)
{
	VLIST(v, n, pack_result);
}

VISIT(wait_reply)
{
	VINT(value);
}

/* One table of every message struct, with type-erased wrappers. */
struct codec {
	const char	*name;
	uint16_t	 type;
	size_t		 size;
	void		(*visit)(struct vis *, void *, const void *);
	void		(*pack)(struct wbuf *, const void *);
	bool		(*unpack)(struct rbuf *, void *);
	void		(*release)(void *);
};

#define WRAP(x)								\
static void vv_##x(struct vis *v, void *a, const void *b)		\
{ visit_##x(v, a, b); }							\
static void pk_##x(struct wbuf *w, const void *p) { x##_pack(w, p); }	\
static bool un_##x(struct rbuf *r, void *p) { return x##_unpack(r, p); } \
static void rl_##x(void *p) { x##_release(p); }
#define ENTRY(x, t)	{ #x, t, sizeof(struct x), vv_##x, pk_##x, un_##x, rl_##x }

WRAP(msg_error)
WRAP(kv_list)
WRAP(submit_req)
WRAP(submit_reply)
WRAP(job_query)
WRAP(job_info)
WRAP(job_list)
WRAP(sig_req)
WRAP(job_result)
WRAP(queue_info)
WRAP(host_info)
WRAP(job_event)
WRAP(job_status)
WRAP(sbd_register)
WRAP(sbd_register_reply)
WRAP(job_spec)
WRAP(sbd_signal)
WRAP(job_ack)
WRAP(sbd_limits)
WRAP(sbd_job_susp)
WRAP(lim_host)
WRAP(lim_load_list)
WRAP(auth_hello)
WRAP(lim_probe_reply)
WRAP(lim_cluster_info)
WRAP(ctrl_req)
WRAP(mod_req)
WRAP(restart_req)
WRAP(peek_req)
WRAP(peek_reply)
WRAP(admin_req)
WRAP(admin_result)
WRAP(job_result_list)
WRAP(queue_list)
WRAP(host_list)
WRAP(admin_result_list)
WRAP(user_info)
WRAP(user_list)
WRAP(wait_reply)
WRAP(app_info)
WRAP(app_list)
WRAP(limit_info)
WRAP(limit_list)
WRAP(fs_query)
WRAP(fs_row)
WRAP(fs_info)
WRAP(fs_list)
WRAP(submit_pack)
WRAP(pack_result)
WRAP(submit_pack_reply)

/* A reply type's codec comes before its item's (codec_for_type). */
static const struct codec codecs[] = {
	ENTRY(msg_error, MSG_ERROR),
	ENTRY(kv_list, MSG_PARAM_LIST),
	ENTRY(submit_req, MSG_SUBMIT),
	ENTRY(submit_reply, MSG_SUBMIT_REPLY),
	ENTRY(job_query, MSG_JOB_QUERY),
	ENTRY(job_info, MSG_JOB_LIST),
	ENTRY(job_list, MSG_JOB_LIST),
	ENTRY(sig_req, MSG_JOB_SIGNAL),
	ENTRY(job_result_list, MSG_SIGNAL_REPLY),
	ENTRY(queue_list, MSG_QUEUE_LIST),
	ENTRY(host_list, MSG_HOST_LIST),
	ENTRY(admin_result_list, MSG_ADMIN_REPLY),
	ENTRY(user_list, MSG_USER_LIST),
	ENTRY(app_list, MSG_APP_LIST),
	ENTRY(job_result, MSG_SIGNAL_REPLY),
	ENTRY(queue_info, MSG_QUEUE_LIST),
	ENTRY(host_info, MSG_HOST_LIST),
	ENTRY(job_event, MSG_JOB_EVENT),
	ENTRY(job_status, MSG_SBD_JOB_STATUS),
	ENTRY(sbd_register, MSG_SBD_REGISTER),
	ENTRY(sbd_register_reply, MSG_SBD_REGISTER_REPLY),
	ENTRY(job_spec, MSG_SBD_JOB_START),
	ENTRY(sbd_signal, MSG_SBD_JOB_SIGNAL),
	ENTRY(job_ack, MSG_SBD_JOB_ACK),
	ENTRY(sbd_limits, MSG_SBD_JOB_LIMITS),
	ENTRY(sbd_job_susp, MSG_SBD_JOB_SUSP),
	ENTRY(lim_host, MSG_LIM_REPORT),
	ENTRY(lim_load_list, MSG_LIM_LOAD_LIST),
	ENTRY(auth_hello, MSG_AUTH_HELLO),
	ENTRY(lim_probe_reply, MSG_LIM_PROBE_REPLY),
	ENTRY(lim_cluster_info, MSG_LIM_CLUSTER_INFO),
	ENTRY(ctrl_req, MSG_JOB_CONTROL),
	ENTRY(mod_req, MSG_JOB_MODIFY),
	ENTRY(restart_req, MSG_JOB_RESTART),
	ENTRY(peek_req, MSG_SBD_PEEK),
	ENTRY(peek_reply, MSG_PEEK_REPLY),
	ENTRY(admin_req, MSG_ADMIN),
	ENTRY(admin_result, MSG_ADMIN_REPLY),
	ENTRY(user_info, MSG_USER_LIST),
	ENTRY(app_info, MSG_APP_LIST),
	ENTRY(wait_reply, MSG_WAIT_REPLY),
	ENTRY(limit_list, MSG_LIMIT_LIST),
	ENTRY(limit_info, MSG_LIMIT_LIST),
	ENTRY(fs_query, MSG_FS_QUERY),
	ENTRY(fs_list, MSG_FS_LIST),
	ENTRY(fs_info, MSG_FS_LIST),
	ENTRY(fs_row, MSG_FS_LIST),
	ENTRY(submit_pack, MSG_SUBMIT_PACK),
	ENTRY(submit_pack_reply, MSG_SUBMIT_PACK_REPLY),
	ENTRY(pack_result, MSG_SUBMIT_PACK_REPLY),
};
#define NCODECS	((int)ARRAY_SIZE(codecs))

static const struct codec *
codec_named(const char *name)
{
	for (int i = 0; i < NCODECS; i++)
		if (strcmp(codecs[i].name, name) == 0)
			return &codecs[i];
	ck_abort_msg("no codec %s", name);
	return NULL;
}

/* A filled struct and its expected body bytes. */
static void *
make(const struct codec *c, int mode, struct wbuf *expect)
{
	struct vis v = { V_MK, { 0, mode }, expect, c->name };
	void *x = xcalloc(1, c->size);

	/* Start the values somewhere different for each struct. */
	v.g.n = (uint32_t)(c - codecs) * 1000u;
	c->visit(&v, x, NULL);
	return x;
}

static void
compare(const struct codec *c, void *got, const void *want)
{
	struct vis v = { V_EQ, { 0, 0 }, NULL, c->name };

	c->visit(&v, got, want);
}

static void
destroy(const struct codec *c, void *x)
{
	char *zero = xcalloc(1, c->size);

	c->release(x);
	ck_assert_msg(memcmp(x, zero, c->size) == 0,
	    "%s_release left the struct non-zero", c->name);
	free(zero);
	free(x);
}

/* Frame one struct: header + body. */
static void
frame(const struct codec *c, const void *x, struct wbuf *w, uint32_t seq,
    uint32_t flags)
{
	wbuf_begin(w, c->type, seq, flags);
	c->pack(w, x);
	wbuf_end_frame(w);
}

/* Unpack exactly len bytes (copied so ASan sees any overread).  Returns
 * the struct (to compare and destroy) and whether it was accepted. */
static void *
decode(const struct codec *c, const void *body, size_t len, bool *ok)
{
	void *x = xmalloc(c->size);
	uint8_t *copy = xmalloc(len ? len : 1);
	struct rbuf r;
	bool got;

	memset(x, 0xa5, c->size);	/* unpack must initialise it */
	if (len)
		memcpy(copy, body, len);
	rbuf_init(&r, copy, len);
	got = c->unpack(&r, x);
	ck_assert_msg(got == !r.err, "%s_unpack result disagrees with the "
	    "reader's error", c->name);
	*ok = got && rbuf_end(&r) == 0;
	if (*ok)
		ck_assert_uint_eq(rbuf_left(&r), 0);
	free(copy);
	return x;
}

static void
assert_bytes(const char *what, const uint8_t *got, size_t ngot,
    const uint8_t *want, size_t nwant)
{
	size_t i;

	for (i = 0; i < ngot && i < nwant; i++)
		if (got[i] != want[i])
			break;
	ck_assert_msg(i == ngot && i == nwant, "%s: bytes differ at offset "
	    "%zu of %zu (want %zu bytes): got 0x%02x want 0x%02x", what, i,
	    ngot, nwant, i < ngot ? got[i] : 0, i < nwant ? want[i] : 0);
}

/* Round trip: every struct, every mode. */
START_TEST(test_round_trip)
{
	const struct codec *c = &codecs[_i / NMODES];
	int mode = _i % NMODES;
	struct wbuf expect, w, again;
	struct wire_hdr h;
	const char *why = NULL;
	void *orig, *got;
	bool ok;
	uint32_t seq = 0x01020304u + (uint32_t)_i;

	wbuf_init(&expect);
	wbuf_init(&w);
	wbuf_init(&again);
	orig = make(c, mode, &expect);
	frame(c, orig, &w, seq, WIRE_F_MORE);

	/* The body is the hand-made encoding, byte for byte. */
	ck_assert_uint_eq(w.len, WIRE_HDR_LEN + expect.len);
	assert_bytes(c->name, w.data + WIRE_HDR_LEN, w.len - WIRE_HDR_LEN,
	    expect.data, expect.len);
	/* The header, by hand too. */
	{
		uint8_t hdr[WIRE_HDR_LEN];
		struct wbuf hw;

		wbuf_init(&hw);
		e32(&hw, (uint32_t)w.len);
		put_u8(&hw, (uint8_t)(c->type >> 8));
		put_u8(&hw, (uint8_t)c->type);
		put_u8(&hw, 0);
		put_u8(&hw, PROTO_VERSION);
		e32(&hw, seq);
		e32(&hw, WIRE_F_MORE);
		memcpy(hdr, hw.data, sizeof(hdr));
		assert_bytes("header", w.data, WIRE_HDR_LEN, hdr, sizeof(hdr));
		wbuf_release(&hw);
	}

	ck_assert_int_eq(wire_parse_hdr(w.data, w.len, &h, &why), 1);
	ck_assert_uint_eq(h.len, w.len);
	ck_assert_uint_eq(h.type, c->type);
	ck_assert_uint_eq(h.version, PROTO_VERSION);
	ck_assert_uint_eq(h.seq, seq);
	ck_assert_uint_eq(h.flags, WIRE_F_MORE);

	got = decode(c, w.data + WIRE_HDR_LEN, h.len - WIRE_HDR_LEN, &ok);
	ck_assert_msg(ok, "%s (mode %d) did not unpack", c->name, mode);
	compare(c, got, orig);

	/* What was read packs to the same bytes again. */
	c->pack(&again, got);
	assert_bytes("repack", again.data, again.len, expect.data,
	    expect.len);

	destroy(c, got);
	destroy(c, orig);
	wbuf_release(&again);
	wbuf_release(&w);
	wbuf_release(&expect);
}
END_TEST

/* Every proper prefix of a valid body is refused, without a leak. */
START_TEST(test_truncated)
{
	const struct codec *c = &codecs[_i / NMODES];
	int mode = _i % NMODES;
	struct wbuf expect;
	void *orig;

	wbuf_init(&expect);
	orig = make(c, mode, &expect);
	for (size_t len = 0; len < expect.len; len++) {
		bool ok;
		void *got = decode(c, expect.data, len, &ok);

		ck_assert_msg(!ok, "%s (mode %d) accepted %zu of %zu bytes",
		    c->name, mode, len, expect.len);
		destroy(c, got);
	}
	destroy(c, orig);
	wbuf_release(&expect);
}
END_TEST

/* Leftover bytes after the last field are refused by rbuf_end. */
START_TEST(test_trailing_garbage)
{
	const struct codec *c = &codecs[_i];
	static const size_t extra[] = { 1, 4, 7, 100 };

	for (size_t e = 0; e < ARRAY_SIZE(extra); e++) {
		struct wbuf expect;
		struct rbuf r;
		void *orig, *got;

		wbuf_init(&expect);
		orig = make(c, MODE_FULL, &expect);
		for (size_t k = 0; k < extra[e]; k++)
			put_u8(&expect, 0);
		got = xcalloc(1, c->size);
		rbuf_init(&r, expect.data, expect.len);
		ck_assert_msg(c->unpack(&r, got), "%s: fields did not read",
		    c->name);
		ck_assert_uint_eq(rbuf_left(&r), extra[e]);
		ck_assert_int_eq(rbuf_end(&r), -1);
		/* And the error is sticky. */
		ck_assert(r.err);
		ck_assert_int_eq(rbuf_end(&r), -1);
		compare(c, got, orig);
		destroy(c, got);
		destroy(c, orig);
		wbuf_release(&expect);
	}
}
END_TEST

START_TEST(test_primitives)
{
	struct wbuf w;
	struct rbuf r;
	struct strv sv = STRV_INIT, back = STRV_INIT;
	uint8_t u8;
	uint16_t u16;
	uint32_t u32;
	uint64_t u64;
	int32_t i32;
	int i;
	int64_t i64;
	bool b;
	double d;
	float f;
	char *s;
	void *bytes;
	uint32_t nbytes;
	static const uint8_t want[] = {
		0xab,
		0x12, 0x34,
		0xde, 0xad, 0xbe, 0xef,
		0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,
		0xff, 0xff, 0xff, 0xfe,
		0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		0x01, 0x00,
		0x3f, 0xf8, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,	/* 1.5 */
		0xc0, 0x20, 0x00, 0x00,				/* -2.5f */
		0x00, 0x00, 0x00, 0x02, 'h', 'i',
		0xff, 0xff, 0xff, 0xff,
		0x00, 0x00, 0x00, 0x00,
		0x00, 0x00, 0x00, 0x03, 'a', 0x00, 'b',
		0x00, 0x00, 0x00, 0x02,
		0x00, 0x00, 0x00, 0x01, 'x',
		0x00, 0x00, 0x00, 0x00,
	};

	wbuf_init(&w);
	put_u8(&w, 0xab);
	put_u16(&w, 0x1234);
	put_u32(&w, 0xdeadbeef);
	put_u64(&w, 0x0102030405060708ull);
	put_i32(&w, -2);
	put_i64(&w, INT64_MIN);
	put_bool(&w, true);
	put_bool(&w, false);
	put_double(&w, 1.5);
	put_float(&w, -2.5f);
	put_str(&w, "hi");
	put_str(&w, NULL);
	put_str(&w, "");
	put_bytes(&w, "a\0b", 3);
	strv_push(&sv, "x");
	strv_push(&sv, "");
	put_strv(&w, &sv);
	assert_bytes("primitives", w.data, w.len, want, sizeof(want));

	rbuf_init(&r, w.data, w.len);
	ck_assert(get_u8(&r, &u8) && u8 == 0xab);
	ck_assert(get_u16(&r, &u16) && u16 == 0x1234);
	ck_assert(get_u32(&r, &u32) && u32 == 0xdeadbeef);
	ck_assert(get_u64(&r, &u64) && u64 == 0x0102030405060708ull);
	ck_assert(get_int(&r, &i) && i == -2);
	ck_assert(get_i64(&r, &i64) && i64 == INT64_MIN);
	ck_assert(get_bool(&r, &b) && b);
	ck_assert(get_bool(&r, &b) && !b);
	ck_assert(get_double(&r, &d) && d == 1.5);
	ck_assert(get_float(&r, &f) && f == -2.5f);
	ck_assert(get_str(&r, &s));
	ck_assert_str_eq(s, "hi");
	free(s);
	ck_assert(get_str(&r, &s));
	ck_assert_ptr_null(s);
	ck_assert(get_str(&r, &s));
	ck_assert_str_eq(s, "");
	free(s);
	ck_assert(get_bytes(&r, &bytes, &nbytes));
	ck_assert_uint_eq(nbytes, 3);
	ck_assert(memcmp(bytes, "a\0b", 4) == 0);	/* NUL-terminated */
	free(bytes);
	ck_assert(get_strv(&r, &back));
	ck_assert_uint_eq(back.n, 2);
	ck_assert_str_eq(back.v[0], "x");
	ck_assert_str_eq(back.v[1], "");
	ck_assert_uint_eq(rbuf_left(&r), 0);
	ck_assert_int_eq(rbuf_end(&r), 0);
	strv_release(&back);

	/* i32 and i64 extremes, float and double specials, bit for bit. */
	wbuf_reset(&w);
	put_i32(&w, INT32_MIN);
	put_i32(&w, INT32_MAX);
	put_i64(&w, INT64_MAX);
	put_double(&w, -0.0);
	put_double(&w, INFINITY);
	put_float(&w, -INFINITY);
	put_double(&w, NAN);
	rbuf_init(&r, w.data, w.len);
	ck_assert(get_i32(&r, &i32) && i32 == INT32_MIN);
	ck_assert(get_i32(&r, &i32) && i32 == INT32_MAX);
	ck_assert(get_i64(&r, &i64) && i64 == INT64_MAX);
	ck_assert(get_double(&r, &d) && d == 0 && signbit(d));
	ck_assert(get_double(&r, &d) && isinf(d) && d > 0);
	ck_assert(get_float(&r, &f) && isinf(f) && f < 0);
	ck_assert(get_double(&r, &d) && isnan(d));
	ck_assert_int_eq(rbuf_end(&r), 0);

	strv_release(&sv);
	wbuf_release(&w);
}
END_TEST

/* One short or bad field poisons every later read. */
START_TEST(test_sticky_error)
{
	static const uint8_t body[] = { 1, 2, 3, 4, 5, 6 };
	struct rbuf r;
	uint8_t u8;
	uint32_t u32;
	uint64_t u64;
	char *s = (char *)1;
	struct strv sv = STRV_INIT;

	rbuf_init(&r, body, sizeof(body));
	ck_assert(!get_u64(&r, &u64));
	ck_assert_uint_eq(u64, 0);
	ck_assert(r.err);
	ck_assert_uint_eq(rbuf_left(&r), 0);
	/* Six bytes are there, but the reader stays failed. */
	ck_assert(!get_u8(&r, &u8));
	ck_assert(!get_u32(&r, &u32));
	ck_assert(!get_str(&r, &s));
	ck_assert_ptr_null(s);
	ck_assert(!get_strv(&r, &sv));
	ck_assert_uint_eq(sv.n, 0);
	ck_assert(!get_count(&r, &u32, 1));
	ck_assert_uint_eq(u32, 0);
	ck_assert_int_eq(rbuf_end(&r), -1);

	/* A bad bool poisons too. */
	{
		static const uint8_t bb[] = { 2, 1 };
		bool b;

		rbuf_init(&r, bb, sizeof(bb));
		ck_assert(!get_bool(&r, &b));
		ck_assert(!get_bool(&r, &b));
		ck_assert_int_eq(rbuf_end(&r), -1);
	}
	/* rbuf_end with bytes left sets the error. */
	rbuf_init(&r, body, sizeof(body));
	ck_assert(get_u32(&r, &u32));
	ck_assert_int_eq(rbuf_end(&r), -1);
	ck_assert(!get_u8(&r, &u8));
}
END_TEST

START_TEST(test_get_count)
{
	uint8_t body[4 + 24];
	struct rbuf r;
	uint32_t n;

	memset(body, 0, sizeof(body));
	/* 24 bytes left: two 12-byte items fit, three do not. */
	body[3] = 2;
	rbuf_init(&r, body, sizeof(body));
	ck_assert(get_count(&r, &n, 12));
	ck_assert_uint_eq(n, 2);
	body[3] = 3;
	rbuf_init(&r, body, sizeof(body));
	ck_assert(!get_count(&r, &n, 12));
	ck_assert_uint_eq(n, 0);
	/* min_item 0 counts as 1. */
	body[3] = 24;
	rbuf_init(&r, body, sizeof(body));
	ck_assert(get_count(&r, &n, 0));
	ck_assert_uint_eq(n, 24);
	body[3] = 25;
	rbuf_init(&r, body, sizeof(body));
	ck_assert(!get_count(&r, &n, 0));
	/* Huge counts. */
	body[0] = 0xff; body[1] = 0xff; body[2] = 0xff; body[3] = 0xff;
	rbuf_init(&r, body, sizeof(body));
	ck_assert(!get_count(&r, &n, 1));
}
END_TEST

static void
limit_memory(struct rlimit *old)
{
#ifndef UNDER_ASAN
	struct rlimit lim;

	/* Anything trying to allocate for the claimed size dies here. */
	getrlimit(RLIMIT_AS, old);
	lim = *old;
	lim.rlim_cur = 1024ul * 1024 * 1024;
	if (old->rlim_max != RLIM_INFINITY && old->rlim_max < lim.rlim_cur)
		lim.rlim_cur = old->rlim_max;
	setrlimit(RLIMIT_AS, &lim);
#else
	(void)old;
#endif
}

static void
unlimit_memory(const struct rlimit *old)
{
#ifndef UNDER_ASAN
	setrlimit(RLIMIT_AS, old);
#else
	(void)old;
#endif
}

/* Lengths and counts that claim more than the frame holds. */
START_TEST(test_huge_claims)
{
	static const uint32_t lens[] = {
		0xfffffff0u, 0xfffffffeu, WIRE_MAX_STR + 1, WIRE_MAX_STR,
		0x80000000u, 1000, 17,
	};
	static const char *listy[] = {
		"job_list", "job_query", "sig_req", "sbd_register",
		"lim_load_list", "kv_list", "lim_cluster_info",
	};
	struct rlimit old;
	uint64_t t0 = mono_ms();

	limit_memory(&old);
	/* A string claiming more than is there: msg_error.context. */
	for (size_t i = 0; i < ARRAY_SIZE(lens); i++) {
		uint8_t *b;
		size_t len;
		bool ok;
		void *x;

		/* code, then the length, then 16 bytes. */
		b = xcalloc(1, 4 + 4 + 16);
		b[4] = (uint8_t)(lens[i] >> 24);
		b[5] = (uint8_t)(lens[i] >> 16);
		b[6] = (uint8_t)(lens[i] >> 8);
		b[7] = (uint8_t)lens[i];
		len = 4 + 4 + 16;
		x = decode(codec_named("msg_error"), b, len, &ok);
		ck_assert_msg(!ok, "string length %#x accepted", lens[i]);
		destroy(codec_named("msg_error"), x);
		free(b);
	}
	/* Counts of 2^31 and more for every list at the body's start. */
	for (size_t i = 0; i < ARRAY_SIZE(listy); i++) {
		const struct codec *c = codec_named(listy[i]);
		static const uint32_t counts[] = {
			0x80000000u, 0xffffffffu, 0x7fffffffu, 0x10000000u,
		};

		for (size_t k = 0; k < ARRAY_SIZE(counts); k++) {
			struct wbuf w;
			bool ok;
			void *x;

			/* Put the count where the list is: after the
			 * fields before it, all empty/NULL. */
			wbuf_init(&w);
			if (strcmp(listy[i], "job_query") == 0) {
				put_u32(&w, 0);
				for (int s = 0; s < 4; s++)
					put_str(&w, NULL);
			} else if (strcmp(listy[i], "sig_req") == 0) {
				put_i32(&w, 0);
				put_u32(&w, 0);
				for (int s = 0; s < 4; s++)
					put_str(&w, NULL);
			} else if (strcmp(listy[i], "sbd_register") == 0) {
				put_str(&w, "h");
				put_i32(&w, 1);
			} else if (strcmp(listy[i], "lim_load_list") == 0) {
				put_str(&w, "m");
			} else if (strcmp(listy[i], "lim_cluster_info") == 0) {
				put_str(&w, "c");
				put_str(&w, "m");
				put_str(&w, "p");
			}
			put_u32(&w, counts[k]);
			for (int z = 0; z < 256; z++)
				put_u8(&w, 0);
			x = decode(c, w.data, w.len, &ok);
			ck_assert_msg(!ok, "%s: count %#x accepted", c->name,
			    counts[k]);
			destroy(c, x);
			wbuf_release(&w);
		}
	}
	/* The same inside a nested list: job_list.jobs[0].exec_hosts. */
	{
		const struct codec *c = codec_named("job_list");
		struct wbuf w;
		bool ok;
		void *x;

		wbuf_init(&w);
		put_u32(&w, 1);			/* njobs */
		put_u64(&w, JI_ALL);		/* present */
		put_i64(&w, 101);		/* jobid */
		put_i32(&w, 0);			/* idx */
		put_i32(&w, 1);			/* status */
		put_u32(&w, 0);			/* options */
		put_u32(&w, 0);			/* options2 */
		put_str(&w, "u");		/* user */
		put_str(&w, "q");		/* queue */
		put_str(&w, "h");		/* from_host */
		put_u32(&w, 0x80000000u);	/* exec_hosts count */
		for (int z = 0; z < 400; z++)
			put_u8(&w, 0);
		x = decode(c, w.data, w.len, &ok);
		ck_assert(!ok);
		destroy(c, x);
		wbuf_release(&w);
	}
	unlimit_memory(&old);
	/* "Quickly": nothing above may touch gigabytes of memory. */
	ck_assert_msg(mono_ms() - t0 < 2000, "huge claims took %llu ms",
	    (unsigned long long)(mono_ms() - t0));
}
END_TEST

/* Strings over WIRE_MAX_STR are refused even when the bytes are there. */
START_TEST(test_max_string)
{
	const struct codec *me = codec_named("msg_error");
	size_t n = WIRE_MAX_STR + 1;
	uint8_t *b = xmalloc(4 + 4 + n + 4);
	struct msg_error *e;
	struct rbuf r;
	void *bytes;
	uint32_t nb;
	bool ok;

	memset(b, 0, 4);			/* code */
	memset(b + 8, 'a', n);
	memset(b + 8 + n, 0xff, 4);		/* detail: NULL */
	for (int k = 0; k < 2; k++) {
		uint32_t len = (uint32_t)(k == 0 ? n : n - 1);
		size_t total = 8 + len + 4;

		b[4] = (uint8_t)(len >> 24);
		b[5] = (uint8_t)(len >> 16);
		b[6] = (uint8_t)(len >> 8);
		b[7] = (uint8_t)len;
		if (k == 1)
			memset(b + 8 + len, 0xff, 4);
		e = decode(me, b, total, &ok);
		ck_assert_msg(ok == (len <= WIRE_MAX_STR), "%u-byte string %s",
		    len, ok ? "accepted" : "refused");
		if (ok)
			ck_assert_uint_eq(strlen(e->context), WIRE_MAX_STR);
		destroy(me, e);
		/* get_bytes has the same limit. */
		rbuf_init(&r, b + 4, 4 + len);
		ck_assert(get_bytes(&r, &bytes, &nb) == (len <= WIRE_MAX_STR));
		free(bytes);
	}
	free(b);
}
END_TEST

/*
 * get_count's bound for each list: a count that cannot fit at the
 * smallest item size is refused at once, before anything is allocated
 * (the reader stops right after the count); one that might fit is not.
 */
START_TEST(test_count_bounds)
{
	static const struct {
		const char	*codec;
		size_t		 min;
		int		 prefix;	/* how to reach the count */
	} lists[] = {
		{ "job_list", JOB_INFO_MIN_WIRE, 0 },	/* jobs */
		{ "job_list", 12, 1 },		/* missing, after 0 jobs */
		{ "job_query", 12, 2 },
		{ "sig_req", 12, 3 },
		{ "sbd_register", 64, 4 },
		{ "lim_load_list", 64, 5 },
		{ "kv_list", 4, 0 },		/* keys: a strv */
		{ "lim_cluster_info", 4, 6 },	/* admins: a strv */
		{ "job_result_list", 16, 0 },
		{ "admin_result_list", 12, 0 },
		{ "queue_list", 157 + 8 * NLOADIDX, 0 },
		{ "user_list", 49, 0 },
		{ "limit_list", 44, 0 },
		{ "fs_list", 20, 0 },
		{ "fs_info", 57, 7 },		/* rows */
		{ "fs_query", 4, 5 },		/* names: a strv */
		{ "host_list", 68 + 16 * NLOADIDX, 0 },
		{ "submit_pack", 144 + 8 * LSF_RLIM_NLIMITS, 0 },
		{ "submit_pack_reply", 25, 0 },
	};
	enum { LEFT = 64 * 12 * 5 };

	for (size_t i = 0; i < ARRAY_SIZE(lists); i++) {
		const struct codec *c = codec_named(lists[i].codec);

		for (int fits = 0; fits < 2; fits++) {
			uint32_t n = (uint32_t)(LEFT / lists[i].min) +
			    (fits ? 0 : 1);
			struct wbuf w;
			struct rbuf r;
			size_t at;
			void *x = xcalloc(1, c->size);

			wbuf_init(&w);
			switch (lists[i].prefix) {
			case 1:
				put_u32(&w, 0);
				break;
			case 2:
				put_u32(&w, 0);
				for (int k = 0; k < 4; k++)
					put_str(&w, "");
				break;
			case 3:
				put_i32(&w, 0);
				put_u32(&w, 0);
				for (int k = 0; k < 4; k++)
					put_str(&w, "");
				break;
			case 4:
				put_str(&w, "");
				put_i32(&w, 0);
				break;
			case 5:
				put_str(&w, "");
				break;
			case 6:
				for (int k = 0; k < 3; k++)
					put_str(&w, "");
				break;
			case 7:
				put_str(&w, "");
				put_str(&w, "");
				put_u32(&w, 0);
				put_str(&w, "");
				break;
			}
			at = w.len + 4;
			put_u32(&w, n);
			for (int k = 0; k < LEFT; k++)
				put_u8(&w, 0);
			rbuf_init(&r, w.data, w.len);
			(void)c->unpack(&r, x);
			if (fits) {
				ck_assert_msg(r.off > at, "%s: a count of %u "
				    "in %d bytes refused", c->name, n, LEFT);
			} else {
				ck_assert_msg(r.err && r.off == at, "%s: a "
				    "count of %u in %d bytes read on to %zu",
				    c->name, n, LEFT, r.off);
			}
			c->release(x);
			free(x);
			wbuf_release(&w);
		}
	}
}
END_TEST

/*
 * The list replies were framed by hand ("u32 n, then n items", as
 * mbatchd still sends them until its senders use the list structs): the
 * list struct reads those bytes item for item, and writes them back
 * byte for byte, so old senders and new readers (and the reverse) agree.
 */
static void *
items_of(const char *list, void *x, uint32_t *n)
{
	if (strcmp(list, "job_result_list") == 0) {
		struct job_result_list *l = x;

		*n = l->n;
		return l->v;
	}
	if (strcmp(list, "queue_list") == 0) {
		struct queue_list *l = x;

		*n = l->n;
		return l->v;
	}
	if (strcmp(list, "host_list") == 0) {
		struct host_list *l = x;

		*n = l->n;
		return l->v;
	}
	if (strcmp(list, "admin_result_list") == 0) {
		struct admin_result_list *l = x;

		*n = l->n;
		return l->v;
	}
	ck_abort_msg("no list %s", list);
	return NULL;
}

START_TEST(test_list_compat)
{
	static const struct {
		const char	*list;
		const char	*item;
	} lists[] = {
		{ "job_result_list", "job_result" },
		{ "queue_list", "queue_info" },
		{ "host_list", "host_info" },
		{ "admin_result_list", "admin_result" },
	};
	const struct codec *lc = codec_named(lists[_i / NMODES].list);
	const struct codec *ic = codec_named(lists[_i / NMODES].item);
	int mode = _i % NMODES;
	uint32_t n = mode == MODE_EMPTY ? 0 : 3 + (uint32_t)mode, got_n;
	void **items = xcalloc(n + 1, sizeof(*items));
	struct wbuf old, expect, again;
	struct wire_hdr h;
	const char *why;
	uint8_t *v;
	void *got;
	bool ok;

	wbuf_init(&old);
	wbuf_init(&again);
	/* The old sender: the count, then each item's pack. */
	wbuf_begin(&old, lc->type, 42, 0);
	put_u32(&old, n);
	for (uint32_t k = 0; k < n; k++) {
		wbuf_init(&expect);
		items[k] = make(ic, mode, &expect);
		ic->pack(&old, items[k]);
		wbuf_release(&expect);
	}
	wbuf_end_frame(&old);

	/* The new reader. */
	ck_assert_int_eq(wire_parse_hdr(old.data, old.len, &h, &why), 1);
	got = decode(lc, old.data + WIRE_HDR_LEN, h.len - WIRE_HDR_LEN, &ok);
	ck_assert_msg(ok, "%s did not read the old framing", lc->name);
	v = items_of(lc->name, got, &got_n);
	ck_assert_uint_eq(got_n, n);
	for (uint32_t k = 0; k < n; k++)
		compare(ic, v + k * ic->size, items[k]);

	/* The new sender writes what the old one did. */
	frame(lc, got, &again, 42, 0);
	assert_bytes(lc->name, again.data, again.len, old.data, old.len);

	destroy(lc, got);
	for (uint32_t k = 0; k < n; k++)
		destroy(ic, items[k]);
	free(items);
	wbuf_release(&again);
	wbuf_release(&old);
}
END_TEST

/*
 * x_frame of every message struct is the frame wbuf_begin, x_pack and
 * wbuf_end_frame make, appended after what the buffer holds.
 */
#define FRAMER(x)							\
static void								\
fr_##x(struct wbuf *w, uint16_t type, uint32_t seq, const void *p)	\
{									\
	x##_frame(w, type, seq, p);					\
}
PROTO_MESSAGES(FRAMER)
#undef FRAMER

START_TEST(test_typed_frames)
{
#define FRAMER_ENTRY(x)	{ #x, fr_##x },
	static const struct {
		const char	*name;
		void		(*frame)(struct wbuf *, uint16_t, uint32_t,
				    const void *);
	} framers[] = { PROTO_MESSAGES(FRAMER_ENTRY) };
#undef FRAMER_ENTRY

	for (size_t i = 0; i < ARRAY_SIZE(framers); i++) {
		const struct codec *c = codec_named(framers[i].name);
		struct wbuf expect, a, b;
		void *x;

		wbuf_init(&expect);
		wbuf_init(&a);
		wbuf_init(&b);
		x = make(c, MODE_FULL, &expect);
		msg_put_empty(&a, MSG_OK, 1);
		msg_put_empty(&b, MSG_OK, 1);
		frame(c, x, &a, 99, 0);
		framers[i].frame(&b, c->type, 99, x);
		ck_assert(!b.open);
		assert_bytes(c->name, b.data, b.len, a.data, a.len);
		destroy(c, x);
		wbuf_release(&a);
		wbuf_release(&b);
		wbuf_release(&expect);
	}
}
END_TEST

/*
 * job_info carries the fields its mask names and no others; a field that
 * did not come reads as unknown; a mask without the job's ID and state,
 * or with bits past the last field, is refused.
 */
START_TEST(test_job_info_sparse)
{
	struct job_info a, b;
	struct wbuf w, expect;
	struct rbuf r;

	job_info_init(&a);
	a.present = JI(user) | JI(mem_kb);	/* JI_BASE goes anyway */
	a.jobid = 42;
	a.idx = 3;
	a.status = JOB_STAT_RUN;
	a.user = "alice";
	a.queue = "normal";			/* not asked for */
	a.mem_kb = 1234;
	a.max_mem_kb = 99;			/* not asked for */
	wbuf_init(&w);
	job_info_pack(&w, &a);
	wbuf_init(&expect);
	e64(&expect, JI_BASE | JI(user) | JI(mem_kb));
	e64(&expect, 42);
	e32(&expect, 3);
	e32(&expect, JOB_STAT_RUN);
	estr(&expect, "alice");
	e64(&expect, 1234);
	ck_assert_uint_eq(w.len, expect.len);
	ck_assert(memcmp(w.data, expect.data, w.len) == 0);

	rbuf_init(&r, w.data, w.len);
	ck_assert(job_info_unpack(&r, &b) && rbuf_end(&r) == 0);
	ck_assert(b.present == (JI_BASE | JI(user) | JI(mem_kb)));
	ck_assert_int_eq(b.jobid, 42);
	ck_assert_int_eq(b.idx, 3);
	ck_assert_str_eq(b.user, "alice");
	ck_assert_int_eq(b.mem_kb, 1234);
	ck_assert_ptr_null(b.queue);
	ck_assert_int_eq(b.max_mem_kb, -1);
	ck_assert_int_eq(b.exit_status, -1);
	ck_assert_int_eq(b.rlimits[0], DEFAULT_RLIMIT);
	job_info_release(&b);

	/* No state, or a bit past the fields: refused. */
	for (int k = 0; k < 2; k++) {
		wbuf_reset(&expect);
		e64(&expect, k == 0 ? JI(jobid) | JI(idx) :
		    JI_BASE | ((uint64_t)1 << JIB_COUNT));
		e64(&expect, 42);
		e32(&expect, 3);
		e32(&expect, JOB_STAT_RUN);
		for (int z = 0; z < 64; z++)
			put_u8(&expect, 0);
		rbuf_init(&r, expect.data, expect.len);
		ck_assert(!job_info_unpack(&r, &b));
		job_info_release(&b);
	}
	wbuf_release(&w);
	wbuf_release(&expect);
}
END_TEST

/*
 * Pages of a listing unpacked into one array: each page reads as a
 * fresh job_list_unpack would, the array grows only when a page is
 * bigger, and a page that lies about its count is refused.
 */
START_TEST(test_job_list_reuse)
{
	static const uint32_t sizes[] = { 3, 1, 5, 0, 2 };
	struct job_list jl = { 0 };
	uint32_t cap = 0;

	for (size_t p = 0; p < ARRAY_SIZE(sizes); p++) {
		struct job_list out = { 0 };
		struct job_info v[5];
		struct job_id miss = { 900 + (int64_t)p, 0 };
		struct wbuf w;
		struct rbuf r;

		for (uint32_t i = 0; i < sizes[p]; i++) {
			job_info_init(&v[i]);
			v[i].present = JI(user);
			v[i].jobid = (int64_t)(p * 10 + i + 1);
			v[i].user = "u";
		}
		out.jobs = v;
		out.njobs = sizes[p];
		out.missing = &miss;
		out.nmissing = 1;
		wbuf_init(&w);
		job_list_pack(&w, &out);
		rbuf_init(&r, w.data, w.len);
		ck_assert(job_list_unpack_reuse(&r, &jl, &cap));
		ck_assert(rbuf_end(&r) == 0);
		ck_assert_uint_eq(jl.njobs, sizes[p]);
		ck_assert_uint_ge(cap, sizes[p]);
		for (uint32_t i = 0; i < jl.njobs; i++) {
			ck_assert_int_eq(jl.jobs[i].jobid, v[i].jobid);
			ck_assert_str_eq(jl.jobs[i].user, "u");
			job_info_release(&jl.jobs[i]);
		}
		ck_assert_uint_eq(jl.nmissing, 1);
		ck_assert_int_eq(jl.missing[0].jobid, miss.jobid);
		free(jl.missing);
		wbuf_release(&w);
	}
	ck_assert_uint_eq(cap, 5);
	{
		struct wbuf w;
		struct rbuf r;

		wbuf_init(&w);
		put_u32(&w, 1000);		/* 1,000 jobs in 24 bytes */
		for (int z = 0; z < 24; z++)
			put_u8(&w, 0);
		rbuf_init(&r, w.data, w.len);
		ck_assert(!job_list_unpack_reuse(&r, &jl, &cap));
		ck_assert_uint_eq(cap, 5);
		wbuf_release(&w);
	}
	free(jl.jobs);
}
END_TEST

/* bjobs -o asks mbatchd for what its columns print, and only that. */
START_TEST(test_jformat_fields)
{
	struct jformat jf;
	char *bad = NULL;

	ck_assert_int_eq(jformat_parse(&jf, "jobid stat", &bad), 0);
	ck_assert(jformat_fields(&jf) == JI_BASE);
	jformat_release(&jf);
	ck_assert_int_eq(jformat_parse(&jf, "id user:8 cpu_used pend_reason "
	    "max_mem:-:MB delimiter='^'", &bad), 0);
	ck_assert(jformat_fields(&jf) == (JI_BASE | JI(user) |
	    JI(start_time) | JI(cpu_time) | JI(pend_reason) |
	    JI(host_reasons) | JI(max_mem_kb)));
	jformat_release(&jf);
	/* Every field is something a column can ask for. */
	ck_assert_int_eq(jformat_parse(&jf, "all", &bad), 0);
	ck_assert((jformat_fields(&jf) & ~JI_ALL) == 0);
	jformat_release(&jf);
}
END_TEST

/* Embedded NUL in a string, a bool of 2: refused. */
START_TEST(test_bad_values)
{
	const struct codec *me = codec_named("msg_error");
	const struct codec *sr = codec_named("submit_reply");
	const struct codec *lh = codec_named("lim_host");
	const struct codec *kv = codec_named("kv_list");
	struct wbuf w;
	bool ok;
	void *x;

	/* "a\0b" as msg_error.context. */
	wbuf_init(&w);
	put_i32(&w, 1);
	put_bytes(&w, "a\0b", 3);
	put_str(&w, NULL);
	x = decode(me, w.data, w.len, &ok);
	ck_assert(!ok);
	destroy(me, x);
	/* A NUL at either end too. */
	wbuf_reset(&w);
	put_i32(&w, 1);
	put_bytes(&w, "\0ab", 3);
	put_str(&w, NULL);
	x = decode(me, w.data, w.len, &ok);
	ck_assert(!ok);
	destroy(me, x);
	wbuf_reset(&w);
	put_i32(&w, 1);
	put_str(&w, NULL);
	put_bytes(&w, "ab\0", 3);
	x = decode(me, w.data, w.len, &ok);
	ck_assert(!ok);
	destroy(me, x);
	/* Inside a strv item. */
	wbuf_reset(&w);
	put_u32(&w, 2);
	put_str(&w, "ok");
	put_bytes(&w, "b\0d", 3);
	put_u32(&w, 0);
	x = decode(kv, w.data, w.len, &ok);
	ck_assert(!ok);
	destroy(kv, x);

	/* submit_reply.default_queue = 2, 0xff; 1 and 0 are fine. */
	for (int v = 0; v < 256; v++) {
		wbuf_reset(&w);
		put_i64(&w, 5);
		put_str(&w, "q");
		put_u8(&w, (uint8_t)v);
		x = decode(sr, w.data, w.len, &ok);
		ck_assert_msg(ok == (v <= 1), "bool byte %d: %s", v,
		    ok ? "accepted" : "refused");
		if (ok)
			ck_assert_int_eq(((struct submit_reply *)x)->
			    default_queue, v == 1);
		destroy(sr, x);
	}
	/* lim_host.server = 2 in an otherwise valid body. */
	{
		struct wbuf expect;
		void *orig;
		struct lim_host *l;
		size_t tail = 8;

		/* server is followed by the resources and ext strvs. */
		wbuf_init(&expect);
		orig = make(lh, MODE_FULL, &expect);
		l = orig;

		for (size_t i = 0; i < l->resources.n; i++)
			tail += 4 + strlen(l->resources.v[i]);
		for (size_t i = 0; i < l->ext.n; i++)
			tail += 4 + strlen(l->ext.v[i]);
		ck_assert_uint_le(expect.data[expect.len - tail - 1], 1);
		expect.data[expect.len - tail - 1] = 2;
		x = decode(lh, expect.data, expect.len, &ok);
		ck_assert(!ok);
		destroy(lh, x);
		destroy(lh, orig);
		wbuf_release(&expect);
	}
	wbuf_release(&w);
}
END_TEST

static void
hdr_bytes(uint8_t *p, uint32_t len, uint16_t type, uint16_t version)
{
	memset(p, 0, WIRE_HDR_LEN);
	p[0] = (uint8_t)(len >> 24);
	p[1] = (uint8_t)(len >> 16);
	p[2] = (uint8_t)(len >> 8);
	p[3] = (uint8_t)len;
	p[4] = (uint8_t)(type >> 8);
	p[5] = (uint8_t)type;
	p[6] = (uint8_t)(version >> 8);
	p[7] = (uint8_t)version;
	p[8] = 0xaa;
	p[15] = 0x01;
}

START_TEST(test_header)
{
	uint8_t buf[64];
	struct wire_hdr h;
	const char *why;

	/* Partial headers need more, whatever they hold. */
	memset(buf, 0xff, sizeof(buf));
	for (size_t n = 0; n < WIRE_HDR_LEN; n++) {
		why = NULL;
		ck_assert_int_eq(wire_parse_hdr(buf, n, &h, &why), 0);
		ck_assert_ptr_null(why);
	}
	/* Lengths under the header size. */
	for (uint32_t len = 0; len < WIRE_HDR_LEN; len++) {
		hdr_bytes(buf, len, MSG_OK, PROTO_VERSION);
		why = NULL;
		ck_assert_int_eq(wire_parse_hdr(buf, sizeof(buf), &h, &why),
		    -1);
		ck_assert_ptr_nonnull(why);
		ck_assert_ptr_nonnull(strstr(why, "length"));
	}
	/* Over the maximum. */
	hdr_bytes(buf, WIRE_MAX_FRAME + 1, MSG_OK, PROTO_VERSION);
	why = NULL;
	ck_assert_int_eq(wire_parse_hdr(buf, sizeof(buf), &h, &why), -1);
	ck_assert_ptr_nonnull(why);
	hdr_bytes(buf, 0xffffffffu, MSG_OK, PROTO_VERSION);
	ck_assert_int_eq(wire_parse_hdr(buf, sizeof(buf), &h, &why), -1);
	/* The maximum itself is valid, and needs more bytes. */
	hdr_bytes(buf, WIRE_MAX_FRAME, MSG_OK, PROTO_VERSION);
	ck_assert_int_eq(wire_parse_hdr(buf, sizeof(buf), &h, &why), 0);
	ck_assert_uint_eq(h.len, WIRE_MAX_FRAME);
	/* Wrong versions. */
	for (int v = 0; v < 4; v++) {
		if (v == PROTO_VERSION)
			continue;
		hdr_bytes(buf, 20, MSG_OK, (uint16_t)v);
		why = NULL;
		ck_assert_int_eq(wire_parse_hdr(buf, sizeof(buf), &h, &why),
		    -1);
		ck_assert_ptr_nonnull(why);
		ck_assert_ptr_nonnull(strstr(why, "version"));
	}
	hdr_bytes(buf, 20, MSG_OK, 0x0100 | PROTO_VERSION);
	ck_assert_int_eq(wire_parse_hdr(buf, sizeof(buf), &h, &why), -1);
	/* Whole frames: exactly, with more after, or a byte short. */
	hdr_bytes(buf, 20, MSG_JOB_WAIT, PROTO_VERSION);
	ck_assert_int_eq(wire_parse_hdr(buf, 19, &h, &why), 0);
	ck_assert_int_eq(wire_parse_hdr(buf, 20, &h, &why), 1);
	ck_assert_int_eq(wire_parse_hdr(buf, sizeof(buf), &h, &why), 1);
	ck_assert_uint_eq(h.len, 20);
	ck_assert_uint_eq(h.type, MSG_JOB_WAIT);
	ck_assert_uint_eq(h.version, PROTO_VERSION);
	ck_assert_uint_eq(h.seq, 0xaa000000u);
	ck_assert_uint_eq(h.flags, 1);
	/* An empty body. */
	hdr_bytes(buf, WIRE_HDR_LEN, MSG_PING, PROTO_VERSION);
	ck_assert_int_eq(wire_parse_hdr(buf, WIRE_HDR_LEN, &h, &why), 1);
}
END_TEST

/* Several frames in one buffer, parsed back as a stream would. */
START_TEST(test_frames)
{
	struct wbuf w;
	struct wire_hdr h;
	const char *why;
	struct rbuf r;
	struct msg_error e;
	size_t off = 0;
	int nframes = 0;
	uint64_t id;

	wbuf_init(&w);
	ck_assert_uint_eq(wbuf_frame_len(&w), 0);
	msg_put_error(&w, 7, LSBE_NO_JOB, "101", NULL);
	msg_put_empty(&w, MSG_OK, 8);
	wbuf_begin(&w, MSG_JOB_WAIT, 9, WIRE_F_MORE);
	ck_assert_uint_eq(wbuf_frame_len(&w), WIRE_HDR_LEN);
	put_i64(&w, 12345);
	ck_assert_uint_eq(wbuf_frame_len(&w), WIRE_HDR_LEN + 8);
	wbuf_end_frame(&w);
	ck_assert_uint_eq(wbuf_frame_len(&w), 0);

	while (off < w.len) {
		int rc = wire_parse_hdr(w.data + off, w.len - off, &h, &why);

		ck_assert_int_eq(rc, 1);
		rbuf_init(&r, w.data + off + WIRE_HDR_LEN,
		    h.len - WIRE_HDR_LEN);
		switch (nframes) {
		case 0:
			ck_assert_uint_eq(h.type, MSG_ERROR);
			ck_assert_uint_eq(h.seq, 7);
			ck_assert(msg_error_unpack(&r, &e));
			ck_assert_int_eq(rbuf_end(&r), 0);
			ck_assert_int_eq(e.code, LSBE_NO_JOB);
			ck_assert_str_eq(e.context, "101");
			ck_assert_ptr_null(e.detail);
			msg_error_release(&e);
			break;
		case 1:
			ck_assert_uint_eq(h.type, MSG_OK);
			ck_assert_uint_eq(h.seq, 8);
			ck_assert_uint_eq(h.len, WIRE_HDR_LEN);
			ck_assert_int_eq(rbuf_end(&r), 0);
			break;
		case 2:
			ck_assert_uint_eq(h.type, MSG_JOB_WAIT);
			ck_assert_uint_eq(h.flags, WIRE_F_MORE);
			ck_assert(get_u64(&r, &id));
			ck_assert_uint_eq(id, 12345);
			ck_assert_int_eq(rbuf_end(&r), 0);
			break;
		}
		off += h.len;
		nframes++;
	}
	ck_assert_int_eq(nframes, 3);
	wbuf_reset(&w);
	ck_assert_uint_eq(w.len, 0);
	msg_put_empty(&w, MSG_PING, 1);
	ck_assert_uint_eq(w.len, WIRE_HDR_LEN);
	wbuf_release(&w);
	ck_assert_ptr_null(w.data);
}
END_TEST

/* Frames of one buffer appended to another's, as mbatchd's outbox
 * joins those for one peer: all of them, in order, parse back. */
START_TEST(test_append)
{
	struct wbuf a, b, empty;
	struct wire_hdr h;
	const char *why;
	uint32_t want[] = { 1, 2, 3 };
	size_t off = 0;
	int nframes = 0;

	wbuf_init(&a);
	wbuf_init(&b);
	wbuf_init(&empty);
	wbuf_append(&a, &empty);
	ck_assert_uint_eq(a.len, 0);
	msg_put_empty(&b, MSG_OK, 1);
	wbuf_append(&a, &b);
	ck_assert_uint_eq(a.len, WIRE_HDR_LEN);
	wbuf_reset(&b);
	msg_put_empty(&b, MSG_PING, 2);
	msg_put_error(&b, 3, LSBE_NO_JOB, "7", NULL);
	wbuf_append(&a, &b);
	wbuf_append(&a, &empty);
	ck_assert_uint_eq(a.len, WIRE_HDR_LEN + b.len);
	while (off < a.len) {
		ck_assert_int_eq(wire_parse_hdr(a.data + off, a.len - off, &h,
		    &why), 1);
		ck_assert_int_lt(nframes, 3);
		ck_assert_uint_eq(h.seq, want[nframes]);
		off += h.len;
		nframes++;
	}
	ck_assert_uint_eq(off, a.len);
	ck_assert_int_eq(nframes, 3);
	wbuf_release(&a);
	wbuf_release(&b);
}
END_TEST

START_TEST(test_names)
{
	ck_assert_str_eq(msg_type_name(MSG_SUBMIT), "MSG_SUBMIT");
	ck_assert_str_eq(msg_type_name(MSG_JS_ACK), "MSG_JS_ACK");
	ck_assert_str_eq(msg_type_name(MSG_LIM_CONF_LIST),
	    "MSG_LIM_CONF_LIST");
	ck_assert_str_eq(msg_type_name(MSG_SBD_SHUTDOWN), "MSG_SBD_SHUTDOWN");
	ck_assert_str_eq(msg_type_name(MSG_SBD_RESTART), "MSG_SBD_RESTART");
	ck_assert_str_eq(msg_type_name(MSG_LIM_SHUTDOWN), "MSG_LIM_SHUTDOWN");
	ck_assert_str_eq(msg_type_name(MSG_LIM_LOCK), "MSG_LIM_LOCK");
	ck_assert_str_eq(msg_type_name(MSG_LIM_UNLOCK), "MSG_LIM_UNLOCK");
	ck_assert_str_eq(msg_type_name(MSG_LIM_EXCL_HOSTS),
	    "MSG_LIM_EXCL_HOSTS");
	ck_assert_str_eq(msg_type_name(MSG_FS_QUERY), "MSG_FS_QUERY");
	ck_assert_str_eq(msg_type_name(MSG_FS_LIST), "MSG_FS_LIST");
	ck_assert_str_eq(msg_type_name(MSG_SUBMIT_PACK), "MSG_SUBMIT_PACK");
	ck_assert_str_eq(msg_type_name(MSG_SUBMIT_PACK_REPLY),
	    "MSG_SUBMIT_PACK_REPLY");
	ck_assert_str_eq(msg_type_name(9999), "MSG_UNKNOWN");
	ck_assert_str_eq(lsb_errmsg(LSBE_NO_JOB), "No matching job found");
	ck_assert_str_eq(lsb_errmsg(-1), "Unknown error");
	ck_assert_str_eq(lsb_errmsg(LSBE_NERR), "Unknown error");
	for (int i = 0; i < LSBE_NERR; i++)
		ck_assert_str_ne(lsb_errmsg(i), "Unknown error");
}
END_TEST

/* Blocking I/O over a socketpair. */
static void
pair(int sv[2])
{
	ck_assert_int_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
}

START_TEST(test_send_recv)
{
	const struct codec *c = codec_named("job_spec");
	struct wbuf expect, w;
	struct wire_hdr h;
	uint8_t *body;
	void *orig, *got;
	bool ok;
	int sv[2];

	pair(sv);
	wbuf_init(&expect);
	wbuf_init(&w);
	orig = make(c, MODE_FULL, &expect);
	frame(c, orig, &w, 42, 0);
	msg_put_empty(&w, MSG_OK, 43);
	ck_assert_int_eq(wire_send(sv[0], &w), 0);

	ck_assert_int_eq(wire_recv(sv[1], &h, &body, 1000), 0);
	ck_assert_uint_eq(h.type, MSG_SBD_JOB_START);
	ck_assert_uint_eq(h.seq, 42);
	got = decode(c, body, h.len - WIRE_HDR_LEN, &ok);
	ck_assert(ok);
	compare(c, got, orig);
	destroy(c, got);
	free(body);

	ck_assert_int_eq(wire_recv(sv[1], &h, &body, -1), 0);
	ck_assert_uint_eq(h.type, MSG_OK);
	ck_assert_uint_eq(h.len, WIRE_HDR_LEN);
	ck_assert_ptr_nonnull(body);
	free(body);

	destroy(c, orig);
	wbuf_release(&w);
	wbuf_release(&expect);
	close(sv[0]);
	close(sv[1]);
}
END_TEST

/* A frame bigger than the socket buffer, written by another process. */
START_TEST(test_send_recv_big)
{
	struct wbuf w;
	struct wire_hdr h;
	uint8_t *body;
	struct rbuf r;
	void *bytes;
	uint32_t n;
	int sv[2], status;
	pid_t pid;
	size_t big = 3u * 1024 * 1024;
	char *data = xmalloc(big);

	for (size_t i = 0; i < big; i++)
		data[i] = (char)(i * 31 + 7);
	pair(sv);
	wbuf_init(&w);
	wbuf_begin(&w, MSG_JOB_LIST, 1, 0);
	put_bytes(&w, data, (uint32_t)big);
	wbuf_end_frame(&w);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		close(sv[1]);
		_exit(wire_send(sv[0], &w) == 0 ? 0 : 1);
	}
	close(sv[0]);
	ck_assert_int_eq(wire_recv(sv[1], &h, &body, 10000), 0);
	ck_assert_uint_eq(h.len, w.len);
	rbuf_init(&r, body, h.len - WIRE_HDR_LEN);
	ck_assert(get_bytes(&r, &bytes, &n));
	ck_assert_int_eq(rbuf_end(&r), 0);
	ck_assert_uint_eq(n, big);
	ck_assert(memcmp(bytes, data, big) == 0);
	free(bytes);
	free(body);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	/* Then EOF. */
	ck_assert_int_eq(wire_recv(sv[1], &h, &body, 1000), -1);
	ck_assert_ptr_null(body);
	close(sv[1]);
	wbuf_release(&w);
	free(data);
}
END_TEST

START_TEST(test_recv_timeout)
{
	struct wire_hdr h;
	uint8_t *body = (uint8_t *)1;
	uint8_t hdr[WIRE_HDR_LEN + 4];
	uint64_t t0, dt;
	int sv[2];

	/* Nothing at all. */
	pair(sv);
	t0 = mono_ms();
	errno = 0;
	ck_assert_int_eq(wire_recv(sv[1], &h, &body, 150), -1);
	dt = mono_ms() - t0;
	ck_assert_int_eq(errno, ETIMEDOUT);
	ck_assert_ptr_null(body);
	ck_assert_msg(dt >= 140 && dt < 3000, "timeout after %llu ms",
	    (unsigned long long)dt);

	/* Half a header. */
	hdr_bytes(hdr, sizeof(hdr), MSG_OK, PROTO_VERSION);
	ck_assert_int_eq(write(sv[0], hdr, 7), 7);
	errno = 0;
	ck_assert_int_eq(wire_recv(sv[1], &h, &body, 100), -1);
	ck_assert_int_eq(errno, ETIMEDOUT);
	ck_assert_ptr_null(body);
	close(sv[0]);
	close(sv[1]);

	/* A whole header and part of the body. */
	pair(sv);
	ck_assert_int_eq(write(sv[0], hdr, WIRE_HDR_LEN + 2),
	    WIRE_HDR_LEN + 2);
	errno = 0;
	ck_assert_int_eq(wire_recv(sv[1], &h, &body, 100), -1);
	ck_assert_int_eq(errno, ETIMEDOUT);
	ck_assert_ptr_null(body);
	close(sv[0]);
	close(sv[1]);
}
END_TEST

START_TEST(test_recv_eof_and_bad)
{
	struct wire_hdr h;
	uint8_t *body = (uint8_t *)1;
	uint8_t hdr[WIRE_HDR_LEN + 8];
	int sv[2];

	/* EOF before anything, forever-wait: must not hang. */
	pair(sv);
	close(sv[0]);
	ck_assert_int_eq(wire_recv(sv[1], &h, &body, -1), -1);
	ck_assert_ptr_null(body);
	close(sv[1]);

	/* EOF in the header. */
	pair(sv);
	hdr_bytes(hdr, sizeof(hdr), MSG_OK, PROTO_VERSION);
	ck_assert_int_eq(write(sv[0], hdr, 5), 5);
	close(sv[0]);
	ck_assert_int_eq(wire_recv(sv[1], &h, &body, 1000), -1);
	ck_assert_ptr_null(body);
	close(sv[1]);

	/* EOF in the body. */
	pair(sv);
	ck_assert_int_eq(write(sv[0], hdr, WIRE_HDR_LEN + 3),
	    WIRE_HDR_LEN + 3);
	close(sv[0]);
	ck_assert_int_eq(wire_recv(sv[1], &h, &body, 1000), -1);
	ck_assert_ptr_null(body);
	close(sv[1]);

	/* A bad header: EPROTO, without waiting for a body. */
	pair(sv);
	hdr_bytes(hdr, 8, MSG_OK, PROTO_VERSION);
	ck_assert_int_eq(write(sv[0], hdr, WIRE_HDR_LEN), WIRE_HDR_LEN);
	errno = 0;
	ck_assert_int_eq(wire_recv(sv[1], &h, &body, 1000), -1);
	ck_assert_int_eq(errno, EPROTO);
	ck_assert_ptr_null(body);
	hdr_bytes(hdr, 30, MSG_OK, PROTO_VERSION + 1);
	ck_assert_int_eq(write(sv[0], hdr, WIRE_HDR_LEN), WIRE_HDR_LEN);
	errno = 0;
	ck_assert_int_eq(wire_recv(sv[1], &h, &body, 1000), -1);
	ck_assert_int_eq(errno, EPROTO);
	close(sv[0]);
	close(sv[1]);
}
END_TEST

/* Fixed-seed mutations of valid frames: nothing may crash or leak, and
 * whatever is accepted must re-encode to something that reads back the
 * same. */
static uint64_t rng_state;

static uint64_t
rng(void)
{
	uint64_t x = rng_state;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	rng_state = x;
	return x * 0x2545f4914f6cdd1dull;
}

static size_t
rnd(size_t n)
{
	return n ? (size_t)(rng() % n) : 0;
}

static const struct codec *
codec_for_type(uint16_t type, const struct codec *dflt)
{
	for (int i = 0; i < NCODECS; i++)
		if (codecs[i].type == type && codecs[i].type != MSG_JOB_LIST)
			return &codecs[i];
	return dflt;
}

static int
try_decode(const struct codec *c, const uint8_t *body, size_t len)
{
	struct wbuf w1, w2;
	void *x, *y;
	bool ok;

	x = decode(c, body, len, &ok);
	if (!ok) {
		destroy(c, x);
		return 0;
	}
	wbuf_init(&w1);
	wbuf_init(&w2);
	c->pack(&w1, x);
	y = decode(c, w1.data, w1.len, &ok);
	ck_assert_msg(ok, "%s: re-encoded body refused", c->name);
	compare(c, y, x);
	c->pack(&w2, y);
	assert_bytes("re-encode", w2.data, w2.len, w1.data, w1.len);
	destroy(c, y);
	destroy(c, x);
	wbuf_release(&w1);
	wbuf_release(&w2);
	return 1;
}

START_TEST(test_mutations)
{
	static const char *names[] = {
		"submit_req", "job_list", "sbd_register", "lim_load_list",
		"queue_info", "kv_list", "msg_error", "job_spec",
		"sig_req", "lim_cluster_info", "host_info", "job_query",
		"host_list", "job_result_list",
	};
	static const uint32_t interesting[] = {
		0, 1, 0x7fffffffu, 0x80000000u, 0xffffffffu, 0xfffffff0u,
		WIRE_MAX_STR, WIRE_MAX_STR + 1, 12, 64,
	};
	int iters = 6000, accepted = 0, whole = 0;

	rng_state = 0x9e3779b97f4a7c15ull;
	for (int it = 0; it < iters; it++) {
		const struct codec *c = codec_named(names[rnd(ARRAY_SIZE(names))]);
		struct wbuf expect, w;
		void *orig;
		uint8_t *buf;
		size_t len, cap;
		int nmut = 1 + (int)rnd(4);
		struct wire_hdr h;
		const char *why;

		wbuf_init(&expect);
		wbuf_init(&w);
		orig = make(c, (int)rnd(NMODES), &expect);
		frame(c, orig, &w, (uint32_t)it, 0);
		destroy(c, orig);
		cap = w.len + 64;
		buf = xmalloc(cap);
		memcpy(buf, w.data, w.len);
		len = w.len;
		for (int m = 0; m < nmut; m++) {
			size_t at = rnd(len);

			switch (rnd(7)) {
			case 0:		/* flip a bit */
				if (len)
					buf[at] ^= (uint8_t)(1u << rnd(8));
				break;
			case 1:		/* random byte */
				if (len)
					buf[at] = (uint8_t)rng();
				break;
			case 2:		/* insert bytes */
				if (len + 8 < cap) {
					size_t k = 1 + rnd(8);

					memmove(buf + at + k, buf + at,
					    len - at);
					for (size_t i = 0; i < k; i++)
						buf[at + i] = (uint8_t)rng();
					len += k;
				}
				break;
			case 3:		/* delete bytes */
				if (len) {
					size_t k = 1 + rnd(8);

					if (k > len - at)
						k = len - at;
					memmove(buf + at, buf + at + k,
					    len - at - k);
					len -= k;
				}
				break;
			case 4:		/* an interesting u32 */
				if (len >= 4) {
					uint32_t v = interesting[
					    rnd(ARRAY_SIZE(interesting))];

					at = rnd(len - 3);
					buf[at] = (uint8_t)(v >> 24);
					buf[at + 1] = (uint8_t)(v >> 16);
					buf[at + 2] = (uint8_t)(v >> 8);
					buf[at + 3] = (uint8_t)v;
				}
				break;
			case 5:		/* truncate */
				len = rnd(len + 1);
				break;
			default:	/* a bool-looking byte */
				if (len)
					buf[at] = (uint8_t)(rnd(4));
				break;
			}
		}
		/* As a stream receiver would. */
		{
			int rc = wire_parse_hdr(buf, len, &h, &why);

			ck_assert(rc >= -1 && rc <= 1);
			if (rc == 1) {
				ck_assert_uint_le(h.len, len);
				ck_assert_uint_ge(h.len, WIRE_HDR_LEN);
				whole += try_decode(codec_for_type(h.type, c),
				    buf + WIRE_HDR_LEN, h.len - WIRE_HDR_LEN);
			}
		}
		/* And the body as it is, with the original codec. */
		if (len >= WIRE_HDR_LEN)
			accepted += try_decode(c, buf + WIRE_HDR_LEN,
			    len - WIRE_HDR_LEN);
		free(buf);
		wbuf_release(&w);
		wbuf_release(&expect);
	}
	/* Enough mutants must still decode for the loop to mean much. */
	ck_assert_int_gt(accepted, iters / 20);
	ck_assert_int_gt(whole, iters / 40);
}
END_TEST

static Suite *
proto_suite(void)
{
	Suite *s = suite_create("proto");
	TCase *tc = tcase_create("codec");
	TCase *io = tcase_create("io");

	tcase_set_timeout(tc, 300);
	tcase_add_loop_test(tc, test_round_trip, 0, NCODECS * NMODES);
	tcase_add_loop_test(tc, test_truncated, 0, NCODECS * NMODES);
	tcase_add_loop_test(tc, test_trailing_garbage, 0, NCODECS);
	tcase_add_test(tc, test_primitives);
	tcase_add_test(tc, test_sticky_error);
	tcase_add_test(tc, test_get_count);
	tcase_add_test(tc, test_huge_claims);
	tcase_add_test(tc, test_max_string);
	tcase_add_test(tc, test_count_bounds);
	tcase_add_loop_test(tc, test_list_compat, 0, 4 * NMODES);
	tcase_add_test(tc, test_typed_frames);
	tcase_add_test(tc, test_job_info_sparse);
	tcase_add_test(tc, test_jformat_fields);
	tcase_add_test(tc, test_job_list_reuse);
	tcase_add_test(tc, test_bad_values);
	tcase_add_test(tc, test_header);
	tcase_add_test(tc, test_frames);
	tcase_add_test(tc, test_append);
	tcase_add_test(tc, test_names);
	tcase_add_test(tc, test_mutations);
	suite_add_tcase(s, tc);

	tcase_set_timeout(io, 60);
	tcase_add_test(io, test_send_recv);
	tcase_add_test(io, test_send_recv_big);
	tcase_add_test(io, test_recv_timeout);
	tcase_add_test(io, test_recv_eof_and_bad);
	suite_add_tcase(s, io);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(proto_suite());
	int failed;

	signal(SIGPIPE, SIG_IGN);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
