/*
 * lsb.events as one declared table (EVLOG_RECORDS in evlog.h): every
 * type is in it once with every part (codec, switch kind, history role),
 * and the bytes on disk do not change with the code that writes them.
 * tests/unit/golden/every-record.events holds one record of each type,
 * every field set, as the writers wrote them before the table existed:
 * today's writers must write the same bytes, and today's readers must
 * read each line back to a record that writes the same line again.
 */
#include <check.h>
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
		    .position = 2, .base = 1, .idx = 3 };

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
		ev_ctrl_write(sb, WHEN + 17, "HOST_CTRL", &x);
		free(x.name);
		x.name = xstrdup("normal");
		x.op = 4;
		ev_ctrl_write(sb, WHEN + 18, "QUEUE_CTRL", &x);
		ev_ctrl_release(&x);
	}
}

static char *
read_golden(size_t *len)
{
	const char *p = getenv("GOLDEN_DIR") ? getenv("GOLDEN_DIR") :
	    GOLDEN_DIR;
	char *path = xasprintf("%s/every-record.events", p);
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
	char *want = read_golden(&len);

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

int
main(void)
{
	Suite *s = suite_create("evlog_table");
	TCase *tc = tcase_create("table");
	SRunner *sr;
	int nf;

	tcase_add_test(tc, test_golden_written);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nf == 0 ? 0 : 1;
}
