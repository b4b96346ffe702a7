/*
 * lsb.events as one declared table (EVLOG_RECORDS in evlog.h): every
 * type is in it once with every part (codec, switch kind, history role),
 * and the bytes on disk do not change with the code that writes them.
 * tests/unit/golden/every-record-v14.events holds one record of each
 * type, every field set, as the writers wrote them before the table
 * existed (protocol 14): today's readers must read each line to a record
 * that writes the same fields again, followed only by fields added since
 * (JOB_MOVE's scope).  every-record.events is the same records as
 * today's writers write them, byte for byte: a change to it is a change
 * of the format, to be made on purpose (GOLDEN_WRITE=1 prints it).
 */
#include <check.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evlog.h"
#include "lsf.h"
#include "proto.h"
#include "util.h"

#ifndef GOLDEN_DIR
#define GOLDEN_DIR "tests/unit/golden"
#endif
#define WHEN	1700000000

static void
fill_req(struct submit_req *q, int salt)
{
	submit_req_init(q);
	q->options = 0x1234 + salt;
	q->options2 = 0x56 + salt;
	q->job_name = xstrdup("arr[1-10]%2");
	q->queue = xstrdup("normal");
	strv_push(&q->asked_hosts, "hosta");
	strv_push(&q->asked_hosts, "host b");
	strv_push(&q->res_reqs, "select[mem>100] rusage[mem=10]");
	q->num_procs = 2;
	q->max_procs = 4;
	q->in_file = xstrdup("/in \"x\"");
	q->out_file = xstrdup("/out/%J.o");
	q->err_file = xstrdup("/err/%J.e");
	q->cwd = xstrdup("/work/cwd");
	q->sub_cwd = xstrdup("/home/ann");
	q->sub_home = xstrdup("/home/ann");
	q->command = xstrdup("echo 'a\tb'\nsleep 1\\\n");
	q->project = xstrdup("proj");
	q->user_group = xstrdup("bio");
	q->mail_user = xstrdup("ann@example.org");
	q->depend_cond = xstrdup("done(12) && ended(\"x*\")");
	q->pre_exec = xstrdup("/bin/pre");
	q->post_exec = xstrdup("/bin/post");
	q->login_shell = xstrdup("/bin/bash");
	q->from_host = xstrdup("hosta");
	for (int i = 0; i < LSF_RLIM_NLIMITS; i++)
		q->rlimits[i] = i % 3 == 0 ? -1 : 1000 * (i + 1);
	q->begin_time = WHEN + 60;
	q->term_time = WHEN + 3600;
	q->umask = 022;
	q->user_priority = 7;
	strv_push(&q->env, "A=1");
	q->outdir = xstrdup("/outdir/%J");
	q->app = xstrdup("a2");
	q->chkpnt_dir = xstrdup("/ck");
	q->chkpnt_method = xstrdup("blcr");
	q->chkpnt_period = 600;
	q->warning_action = xstrdup("URG");
	q->warning_time = 120;
}

/* One record of each type, every field set, in the golden file's
 * order. */
static void
write_every(struct strbuf *sb)
{
	{
		struct ev_job_new x;

		memset(&x, 0, sizeof(x));
		x.jobid = 101;
		x.uid = 1000;
		x.user = xstrdup("ann");
		x.submit_time = WHEN;
		x.queue = xstrdup("normal");
		x.job_file = xstrdup("1700000000.101");
		x.res_req = xstrdup("select[mem>100] rusage[mem=10]");
		x.env_id = xstrdup("1000.3");
		x.idx = 0;
		fill_req(&x.req, 0);
		ev_job_new_write(sb, WHEN, &x);
		ev_job_new_release(&x);
	}
	{
		struct ev_job_env x;

		memset(&x, 0, sizeof(x));
		x.env_id = xstrdup("1000.3");
		strv_push(&x.env, "PATH=/bin:/usr/bin");
		strv_push(&x.env, "X=a \"q\" \\ b");
		ev_job_env_write(sb, WHEN, &x);
		ev_job_env_release(&x);
	}
	{
		struct ev_job_start x;

		memset(&x, 0, sizeof(x));
		x.jobid = 101;
		x.status = JOB_STAT_RUN;
		x.pid = 4242;
		x.pgid = 4242;
		strv_push(&x.exec_hosts, "hosta");
		strv_push(&x.exec_hosts, "hostb");
		x.idx = 3;
		x.effective_res_req = xstrdup("select[type == any]");
		x.run_count = 2;
		ev_job_start_write(sb, WHEN + 1, &x);
		ev_job_start_release(&x);
	}
	{
		struct ev_job_execute x = { .jobid = 101, .exec_uid = 1000,
		    .pgid = 4242, .pid = 4243, .idx = 3, .run_count = 2 };

		x.exec_cwd = xstrdup("/home/ann");
		x.exec_home = xstrdup("/home/ann");
		x.exec_user = xstrdup("ann");
		ev_job_execute_write(sb, WHEN + 2, &x);
		ev_job_execute_release(&x);
	}
	{
		struct ev_job_status x = { .jobid = 101,
		    .status = JOB_STAT_EXIT, .reason = 5, .subreasons = 6,
		    .cpu_time = 12.25, .end_time = WHEN + 9,
		    .exit_status = 256, .idx = 3, .max_mem_kb = 2048,
		    .avg_mem_kb = 1024, .exit_info = 7, .run_count = 2 };

		ev_job_status_write(sb, WHEN + 3, &x);
	}
	{
		struct ev_job_signal x = { .jobid = 101, .uid = 1000,
		    .run_count = 2, .idx = 3, .flags = 0x41 };

		x.signal = xstrdup("KILL");
		x.user = xstrdup("ann");
		ev_job_signal_write(sb, WHEN + 4, &x);
		ev_job_signal_release(&x);
	}
	{
		struct ev_job_clean x = { .jobid = 101, .idx = 3 };

		ev_job_clean_write(sb, WHEN + 5, &x);
	}
	{
		struct ev_mbd_start x = { .nhosts = 3, .nqueues = 4 };

		x.master = xstrdup("hosta");
		x.cluster = xstrdup("c1");
		x.user = xstrdup("lsfadmin");
		ev_mbd_start_write(sb, WHEN + 6, &x);
		ev_mbd_start_release(&x);
	}
	{
		struct ev_mbd_die x = { .nremoved = 2, .exit_code = 1 };

		x.master = xstrdup("hosta");
		x.user = xstrdup("root");
		x.comment = xstrdup("upgrade \"now\"");
		ev_mbd_die_write(sb, WHEN + 7, &x);
		ev_mbd_die_release(&x);
	}
	{
		struct ev_job_move x = { .uid = 1000, .jobid = 101,
		    .position = 2, .base = 1, .idx = 3,
		    .scope = EV_MOVE_ALL };

		x.user = xstrdup("ann");
		ev_job_move_write(sb, WHEN + 8, &x);
		ev_job_move_release(&x);
	}
	{
		struct ev_job_switch x = { .uid = 1000, .jobid = 101,
		    .idx = 3 };

		x.queue = xstrdup("short");
		x.user = xstrdup("ann");
		ev_job_switch_write(sb, WHEN + 9, &x);
		ev_job_switch_release(&x);
	}
	{
		struct ev_job_requeue x = { .jobid = 101, .idx = 3 };

		ev_job_requeue_write(sb, WHEN + 10, &x);
	}
	{
		struct ev_job_force x = { .jobid = 101, .uid = 0, .idx = 3,
		    .options = 1 };

		strv_push(&x.hosts, "hostb");
		x.user = xstrdup("root");
		ev_job_force_write(sb, WHEN + 11, &x);
		ev_job_force_release(&x);
	}
	{
		struct ev_mig x = { .jobid = 101, .uid = 1000, .idx = 3 };

		strv_push(&x.hosts, "hostc");
		x.user = xstrdup("ann");
		ev_mig_write(sb, WHEN + 12, &x);
		ev_mig_release(&x);
	}
	{
		struct ev_chkpnt x = { .jobid = 101, .period = 900,
		    .pid = 4250, .ok = 1, .flags = CHKPNT_F_KILL, .idx = 3 };

		ev_chkpnt_write(sb, WHEN + 13, &x);
	}
	{
		struct ev_job_modify x;

		memset(&x, 0, sizeof(x));
		x.jobid = 101;
		x.idx = 3;
		x.uid = 1000;
		x.user = xstrdup("ann");
		x.set = 0x15;
		x.del = 0x2;
		fill_req(&x.req, 1);
		ev_job_modify_write(sb, WHEN + 14, &x);
		ev_job_modify_release(&x);
	}
	{
		struct ev_log_switch x = { .last_jobid = 101 };

		ev_log_switch_write(sb, WHEN + 15, &x);
	}
	{
		struct ev_fs_usage x = { .cpu_hours = 1.5, .cpu_at = WHEN,
		    .hrun_hours = 0.1, .hrun_at = WHEN + 1 };

		x.tree = xstrdup("queue/normal");
		x.path = xstrdup("bio/ann");
		x.name = xstrdup("ann");
		ev_fs_usage_write(sb, WHEN + 16, &x);
		ev_fs_usage_release(&x);
	}
	{
		struct ev_ctrl x = { .op = 2, .uid = 0 };

		x.name = xstrdup("hostb");
		x.user = xstrdup("root");
		x.comment = xstrdup("disk \"full\"");
		ev_ctrl_put(sb, WHEN + 17, "HOST_CTRL", &x);
		free(x.name);
		x.name = xstrdup("normal");
		x.op = 4;
		ev_ctrl_put(sb, WHEN + 18, "QUEUE_CTRL", &x);
		ev_ctrl_release(&x);
	}
}

static char *
read_golden(const char *name, size_t *len)
{
	const char *p = getenv("GOLDEN_DIR") ? getenv("GOLDEN_DIR") :
	    GOLDEN_DIR;
	char *path = xasprintf("%s/%s", p, name);
	FILE *f = fopen(path, "r");
	struct strbuf sb = STRBUF_INIT;
	char buf[4096];
	size_t n;

	ck_assert_msg(f != NULL, "cannot open %s", path);
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		sb_add(&sb, buf, n);
	fclose(f);
	free(path);
	*len = sb.len;
	return sb.buf;
}

/* Today's writers write the bytes the golden file holds. */
START_TEST(test_golden_written)
{
	struct strbuf sb = STRBUF_INIT;
	size_t len;
	char *want = read_golden("every-record.events", &len);

	write_every(&sb);
	if (getenv("GOLDEN_WRITE")) {
		fwrite(sb.buf, 1, sb.len, stdout);
		fflush(stdout);
	}
	ck_assert_uint_eq(sb.len, len);
	ck_assert_msg(memcmp(sb.buf, want, len) == 0,
	    "the writers' bytes differ from the golden file");
	free(want);
	sb_release(&sb);
}
END_TEST

/* The fields of a record line: after the type, before " @crc". */
static void
fields_of(const char *line, size_t len, const char **f, size_t *flen)
{
	const char *sp = memchr(line, ' ', len);

	ck_assert_ptr_nonnull(sp);
	ck_assert(len > 10 && line[len - 10] == ' ');
	*f = sp;
	*flen = (size_t)(line + len - 10 - sp);
}

/* Each line of the old file, read and written again, keeps its fields,
 * whatever fields were added after them since. */
START_TEST(test_golden_read)
{
	size_t len, n = 0;
	char *old = read_golden("every-record-v14.events", &len);
	bool seen[EV_NTYPES] = { false };

	for (char *p = old, *nl; p < old + len; p = nl + 1) {
		struct ev_reader r;
		struct strbuf sb = STRBUF_INIT;
		const struct ev_type_info *ti;
		struct ev_any x;
		const char *why, *of, *nf;
		size_t olen, nlen;

		nl = memchr(p, '\n', (size_t)(old + len - p));
		ck_assert_ptr_nonnull(nl);
		ck_assert_int_eq(evr_init(&r, p, (size_t)(nl - p), &why), 0);
		ck_assert_msg(r.id >= 0, "%s: not in the table", r.type);
		ti = &ev_types[r.id];
		seen[r.id] = true;
		ck_assert_int_eq(ti->read(&r, &x), 0);
		ck_assert(evr_at_end(&r));
		ti->write(&sb, r.when, &x);
		ti->release(&x);
		fields_of(p, (size_t)(nl - p), &of, &olen);
		fields_of(sb.buf, sb.len - 1, &nf, &nlen);
		ck_assert_msg(nlen >= olen && memcmp(of, nf, olen) == 0 &&
		    (nlen == olen || nf[olen] == ' '),
		    "%s: written again as\n%.*s\nnot\n%.*s", r.type,
		    (int)(sb.len - 1), sb.buf, (int)(nl - p), p);
		if (nlen > olen)
			ck_assert_msg(r.id == EV_JOB_MOVE ||
			    r.id == EV_JOB_NEW,	/* -wa, -wt */
			    "%s gained fields: say so in the golden test",
			    r.type);
		sb_release(&sb);
		n++;
	}
	ck_assert_uint_eq(n, EV_NTYPES);
	for (int i = 0; i < EV_NTYPES; i++)
		ck_assert_msg(seen[i], "%s: no record in the golden file",
		    ev_types[i].name);
	free(old);
}
END_TEST

/*
 * Every entry has every part: a name that finds it, a codec, a job's
 * key and fields for a job's record, a history role only for a job's
 * record, and each role that reads a particular struct held by the one
 * type that has it.
 */
START_TEST(test_table_parts)
{
	static const struct { enum ev_hist h; int type; } roles[] = {
		{ EVH_NEW, EV_JOB_NEW }, { EVH_START, EV_JOB_START },
		{ EVH_EXECUTE, EV_JOB_EXECUTE }, { EVH_STATUS, EV_JOB_STATUS },
		{ EVH_QUEUE, EV_JOB_SWITCH }, { EVH_MODIFY, EV_JOB_MODIFY2 },
	};

	for (int i = 0; i < EV_NTYPES; i++) {
		const struct ev_type_info *ti = &ev_types[i];

		ck_assert_ptr_nonnull(ti->name);
		ck_assert_int_eq(ev_type_find(ti->name), i);
		ck_assert_ptr_nonnull(ti->read);
		ck_assert_ptr_nonnull(ti->write);
		ck_assert_ptr_nonnull(ti->release);
		ck_assert_uint_le(ti->size, sizeof(struct ev_any));
		if (ti->sw == EVSW_JOB) {
			ck_assert_msg(ti->key != NULL, "%s: no key", ti->name);
			ck_assert(ti->jobid_off >= 0 && ti->idx_off >= 0);
		} else {
			ck_assert_msg(ti->hist == EVH_NONE,
			    "%s: history of no job", ti->name);
		}
		for (size_t k = 0; k < sizeof(roles) / sizeof(roles[0]); k++)
			if (ti->hist == roles[k].h)
				ck_assert_msg(i == roles[k].type,
				    "%s: history role of another struct",
				    ti->name);
	}
	ck_assert_int_eq(ev_type_find("JOB_FINISH"), -1);
	ck_assert_int_eq(ev_type_find("NO_SUCH_TYPE"), -1);
}
END_TEST

/* Each record's key, read from its leading fields alone, is the job ID
 * and index its whole read gives (JOB_NEW's index is not leading: 0). */
START_TEST(test_table_keys)
{
	size_t len;
	char *cur = read_golden("every-record.events", &len);

	for (char *p = cur, *nl; p < cur + len; p = nl + 1) {
		struct ev_reader r, k;
		const struct ev_type_info *ti;
		struct ev_sw_rec sw;
		struct ev_any x;
		const char *why;
		int64_t jobid, kid;
		int idx, kidx;

		nl = memchr(p, '\n', (size_t)(cur + len - p));
		ck_assert_int_eq(evr_init(&r, p, (size_t)(nl - p), &why), 0);
		ti = &ev_types[r.id];
		k = r;
		ck_assert_int_eq(ev_record_check(&k, &why), 0);
		k = r;
		ck_assert_int_eq(ev_sw_classify(&k, &sw), 0);
		ck_assert_int_eq(sw.kind, ti->sw == EVSW_JOB ? EVSW_JOB :
		    ti->sw == EVSW_CTRL ? EVSW_CTRL : EVSW_DROP);
		ev_sw_rec_release(&sw);
		if (ti->sw != EVSW_JOB)
			continue;
		k = r;
		ck_assert_int_eq(ti->key(&k, &kid, &kidx), 0);
		k = r;
		ck_assert_int_eq(ti->read(&k, &x), 0);
		memcpy(&jobid, x.b + ti->jobid_off, sizeof(jobid));
		memcpy(&idx, x.b + ti->idx_off, sizeof(idx));
		ti->release(&x);
		ck_assert_int_eq(kid, jobid);
		ck_assert_int_eq(jobid, 101);
		ck_assert(kidx == idx || (r.id != EV_JOB_MODIFY2 && kidx == 0));
	}
	free(cur);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("evlog_table");
	TCase *tc = tcase_create("table");
	SRunner *sr;
	int nf;

	tcase_add_test(tc, test_golden_written);
	tcase_add_test(tc, test_golden_read);
	tcase_add_test(tc, test_table_parts);
	tcase_add_test(tc, test_table_keys);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nf == 0 ? 0 : 1;
}
