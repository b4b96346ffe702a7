/*
 * lsb.events: the record syntax and its checksum, every typed record
 * written and read back, old and extended records, the field positions
 * external tools read, and the log file itself: replay with torn and
 * damaged records, truncation on open, appends and reads; the seal
 * beside it and the rule for a last line without its newline.  Logs are
 * written into a mkdtemp() directory per test.
 */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "acct.h"
#include "evlog.h"
#include "lsf.h"
#include "proto.h"
#include "util.h"

static char dir[PATH_MAX];

static int
rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	return remove(path);
}

static void
setup(void)
{
	snprintf(dir, sizeof(dir), "%s/check_evlog.XXXXXX",
	    getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void
teardown(void)
{
	nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static char *
path_in(const char *name)
{
	return xasprintf("%s/%s", dir, name);
}

/* Strings that must survive a record unchanged. */
static const char *const tricky[] = {
	"plain",
	"with \"quotes\" and \"\"doubled\"\"",
	"back\\slash\\",
	"\\n is not a newline, \\x41 is not A",
	"new\nline\r\n",
	"tab\there\t",
	"ctl \x01\x02\x1b\x1f\x7f end",
	"utf8 \xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80",
	"  leading and trailing  ",
	"@deadbeef",
	"\"",
	"\\",
	"a\"b\\c\nd\te\x01f",
	"C:\\Program Files\\",
	"\"\" @00000000 \"x\"",
};
#define NTRICKY	((int)ARRAY_SIZE(tricky))

/* The _i-th rotation of the tricky strings, some replaced by "" or NULL. */
static const char *
pick(int rot, int k)
{
	int i = (rot + k) % (NTRICKY + 2);

	if (i == NTRICKY)
		return "";
	if (i == NTRICKY + 1)
		return NULL;
	return tricky[i];
}

static char *
dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

/* What came back for a string written as want: NULL is written as "";
 * fields read as nullable turn "" back into NULL. */
static void
str_back(const char *field, const char *got, const char *want,
    bool nullable)
{
	if (want == NULL || *want == '\0') {
		if (nullable)
			ck_assert_msg(got == NULL, "%s: \"%s\" for an empty "
			    "string, want NULL", field, got);
		else
			ck_assert_msg(got != NULL && *got == '\0',
			    "%s: %s for an empty string, want \"\"", field,
			    got ? got : "NULL");
		return;
	}
	ck_assert_msg(got != NULL && strcmp(got, want) == 0,
	    "%s: got \"%s\" want \"%s\"", field, got ? got : "(null)", want);
}

static void
strv_back(const char *field, const struct strv *got, const struct strv *want)
{
	ck_assert_msg(got->n == want->n, "%s: %zu items, want %zu", field,
	    got->n, want->n);
	for (size_t i = 0; i < got->n; i++)
		ck_assert_msg(strcmp(got->v[i], want->v[i]) == 0,
		    "%s[%zu]: \"%s\" want \"%s\"", field, i, got->v[i],
		    want->v[i]);
}

/* Open the one record in sb (ending in a newline) for reading. */
static void
open_rec(struct ev_reader *r, const struct strbuf *sb, const char *type,
    int64_t when)
{
	const char *why = NULL;

	ck_assert_uint_gt(sb->len, 0);
	ck_assert_msg(sb->buf[sb->len - 1] == '\n', "record not terminated");
	ck_assert_msg(memchr(sb->buf, '\n', sb->len - 1) == NULL,
	    "record spans lines: %s", sb->buf);
	if (evr_init(r, sb->buf, sb->len - 1, &why) != 0)
		ck_abort_msg("evr_init: %s: %s", why, sb->buf);
	ck_assert_str_eq(r->type, type);
	ck_assert_str_eq(r->version, LSF_VERSION_STR);
	ck_assert_int_eq(r->when, when);
}

/* Fields as awk-like tools see them: quoted strings (with "" inside)
 * or bare tokens, separated by blanks. */
static void
split_fields(const char *line, size_t len, struct strv *out)
{
	const char *p = line, *end = line + len;

	while (p < end) {
		const char *s;

		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		if (p >= end)
			break;
		s = p;
		if (*p == '"') {
			p++;
			while (p < end) {
				if (*p == '"' && p + 1 < end && p[1] == '"') {
					p += 2;
					continue;
				}
				if (*p == '"')
					break;
				p++;
			}
			ck_assert_msg(p < end, "unterminated string");
			p++;
		} else {
			while (p < end && *p != ' ' && *p != '\t')
				p++;
		}
		strv_push_nodup(out, xstrndup(s, (size_t)(p - s)));
	}
}

/* A record from raw fields: the first n of fields, then extra, then a
 * fresh checksum. */
static void
rebuild(struct strbuf *sb, const struct strv *fields, size_t n,
    const char *extra)
{
	sb_reset(sb);
	for (size_t i = 0; i < n; i++) {
		if (i)
			sb_addc(sb, ' ');
		sb_adds(sb, fields->v[i]);
	}
	if (extra)
		sb_adds(sb, extra);
	ev_end(sb, 0);
}

/* A line of raw text with a valid checksum. */
static void
with_crc(struct strbuf *sb, const char *text)
{
	sb_reset(sb);
	sb_adds(sb, text);
	ev_end(sb, 0);
}

/* JOB_NEW */

static void
fill_job_new(struct ev_job_new *x, int rot)
{
	struct submit_req *q = &x->req;
	int k = 0;

	memset(x, 0, sizeof(*x));
	submit_req_init(q);
	x->jobid = 123456789012LL + rot;
	x->uid = 1000 + rot;
	x->user = dup_or_null(pick(rot, k++));
	x->submit_time = 1700000000 + rot;
	x->queue = dup_or_null(pick(rot, k++));
	x->job_file = dup_or_null(pick(rot, k++));
	x->res_req = dup_or_null(pick(rot, k++));
	x->env_id = dup_or_null(pick(rot, k++));
	x->idx = rot * 3;
	q->options = SUB_JOB_NAME | SUB_QUEUE | SUB_OUT_FILE | (uint32_t)rot;
	q->options2 = SUB2_HOLD | 0x4000000u;
	q->job_name = dup_or_null(pick(rot, k++));
	q->queue = dup_or_null(pick(rot, k++));
	for (int i = 0; i < rot % 4; i++)
		strv_push(&q->asked_hosts, pick(rot, k + i) ? pick(rot, k + i)
		    : "hostX");
	k++;
	for (int i = 0; i < (rot + 1) % 3; i++)
		strv_push_nodup(&q->res_reqs, xasprintf("select[mem>%d] %s",
		    i, pick(rot, k + i) ? pick(rot, k + i) : ""));
	k++;
	q->num_procs = 1 + rot;
	q->max_procs = 2 + rot;
	q->in_file = dup_or_null(pick(rot, k++));
	q->out_file = dup_or_null(pick(rot, k++));
	q->err_file = dup_or_null(pick(rot, k++));
	q->cwd = dup_or_null(pick(rot, k++));
	q->sub_cwd = dup_or_null(pick(rot, k++));
	q->sub_home = dup_or_null(pick(rot, k++));
	q->command = dup_or_null(pick(rot, k++));
	q->project = dup_or_null(pick(rot, k++));
	q->user_group = dup_or_null(pick(rot, k++));
	q->mail_user = dup_or_null(pick(rot, k++));
	q->depend_cond = dup_or_null(pick(rot, k++));
	q->pre_exec = dup_or_null(pick(rot, k++));
	q->post_exec = dup_or_null(pick(rot, k++));
	q->login_shell = dup_or_null(pick(rot, k++));
	q->from_host = dup_or_null(pick(rot, k++));
	q->outdir = dup_or_null(pick(rot, k++));
	q->app = dup_or_null(pick(rot, k++));
	q->chkpnt_dir = dup_or_null(pick(rot, k++));
	q->chkpnt_method = dup_or_null(pick(rot, k++));
	q->chkpnt_period = rot % 2 ? 0 : 1800;
	q->warning_action = dup_or_null(pick(rot, k++));
	q->warning_time = rot % 2 ? -1 : 300;
	for (int i = 0; i < LSF_RLIM_NLIMITS; i++)
		q->rlimits[i] = i % 2 ? DEFAULT_RLIMIT :
		    (int64_t)i * 1000000007LL + rot;
	q->begin_time = rot ? 1700000500 : 0;
	q->term_time = -1;
	q->umask = 0027;
	q->user_priority = rot % 2 ? -1 : 50;
	/* Not in JOB_NEW: it goes to JOB_ENV. */
	strv_push(&q->env, "PATH=/bin");
}

static void
check_job_new(const struct ev_job_new *g, const struct ev_job_new *w)
{
	const struct submit_req *gq = &g->req, *wq = &w->req;

	ck_assert_int_eq(g->jobid, w->jobid);
	ck_assert_int_eq(g->uid, w->uid);
	ck_assert_int_eq(g->submit_time, w->submit_time);
	ck_assert_int_eq(g->idx, w->idx);
	str_back("user", g->user, w->user, false);
	str_back("queue", g->queue, w->queue, false);
	str_back("job_file", g->job_file, w->job_file, false);
	str_back("res_req", g->res_req, w->res_req, true);
	str_back("env_id", g->env_id, w->env_id, true);
	ck_assert_uint_eq(gq->options, wq->options);
	ck_assert_uint_eq(gq->options2, wq->options2);
	str_back("job_name", gq->job_name, wq->job_name, false);
	str_back("req.queue", gq->queue, wq->queue, true);
	strv_back("asked_hosts", &gq->asked_hosts, &wq->asked_hosts);
	strv_back("res_reqs", &gq->res_reqs, &wq->res_reqs);
	ck_assert_int_eq(gq->num_procs, wq->num_procs);
	ck_assert_int_eq(gq->max_procs, wq->max_procs);
	str_back("in_file", gq->in_file, wq->in_file, true);
	str_back("out_file", gq->out_file, wq->out_file, true);
	str_back("err_file", gq->err_file, wq->err_file, true);
	str_back("cwd", gq->cwd, wq->cwd, true);
	str_back("sub_cwd", gq->sub_cwd, wq->sub_cwd, false);
	str_back("sub_home", gq->sub_home, wq->sub_home, false);
	str_back("command", gq->command, wq->command, false);
	str_back("project", gq->project, wq->project, false);
	str_back("user_group", gq->user_group, wq->user_group, true);
	str_back("mail_user", gq->mail_user, wq->mail_user, true);
	str_back("depend_cond", gq->depend_cond, wq->depend_cond, true);
	str_back("pre_exec", gq->pre_exec, wq->pre_exec, true);
	str_back("post_exec", gq->post_exec, wq->post_exec, true);
	str_back("login_shell", gq->login_shell, wq->login_shell, true);
	str_back("from_host", gq->from_host, wq->from_host, false);
	str_back("outdir", gq->outdir, wq->outdir, true);
	str_back("app", gq->app, wq->app, true);
	str_back("chkpnt_dir", gq->chkpnt_dir, wq->chkpnt_dir, true);
	str_back("chkpnt_method", gq->chkpnt_method, wq->chkpnt_method, true);
	ck_assert_int_eq(gq->chkpnt_period, wq->chkpnt_period);
	str_back("warning_action", gq->warning_action, wq->warning_action,
	    true);
	ck_assert_int_eq(gq->warning_time, wq->warning_time);
	for (int i = 0; i < LSF_RLIM_NLIMITS; i++)
		ck_assert_int_eq(gq->rlimits[i], wq->rlimits[i]);
	ck_assert_int_eq(gq->begin_time, wq->begin_time);
	ck_assert_int_eq(gq->term_time, wq->term_time);
	ck_assert_int_eq(gq->umask, wq->umask);
	ck_assert_int_eq(gq->user_priority, wq->user_priority);
	ck_assert_uint_eq(gq->env.n, 0);
}

START_TEST(test_job_new)
{
	struct ev_job_new x, y;
	struct strbuf sb = STRBUF_INIT;
	struct ev_reader r;

	fill_job_new(&x, _i);
	ev_job_new_write(&sb, 1700000000 + _i, &x);
	open_rec(&r, &sb, "JOB_NEW", 1700000000 + _i);
	ck_assert_int_eq(ev_job_new_read(&r, &y), 0);
	ck_assert_msg(evr_at_end(&r), "fields left after JOB_NEW");
	check_job_new(&y, &x);
	ev_job_new_release(&y);
	ck_assert_ptr_null(y.user);
	ev_job_new_release(&x);
	sb_release(&sb);
}
END_TEST

/* Borrowed reading (replay's): the same values, in the scratch space. */
START_TEST(test_job_new_peek)
{
	struct ev_job_new x, y;
	struct strbuf sb = STRBUF_INIT, scratch = STRBUF_INIT;
	struct ev_reader r;

	fill_job_new(&x, _i);
	/* Lists of several items, so the borrowed arrays are exercised. */
	strv_push(&x.req.asked_hosts, pick(_i, 3) ? pick(_i, 3) : "h1");
	strv_push(&x.req.asked_hosts, "h2");
	strv_push(&x.req.res_reqs, "select[mem>1]");
	ev_job_new_write(&sb, 1700000000 + _i, &x);
	/* Without scratch space it refuses. */
	open_rec(&r, &sb, "JOB_NEW", 1700000000 + _i);
	ck_assert_int_eq(ev_job_new_peek(&r, &y), -1);
	ck_assert(r.err);
	/* Twice over one scratch buffer: the second record reuses it. */
	for (int k = 0; k < 2; k++) {
		open_rec(&r, &sb, "JOB_NEW", 1700000000 + _i);
		evr_set_scratch(&r, &scratch);
		ck_assert_int_eq(ev_job_new_peek(&r, &y), 0);
		ck_assert(!r.borrow);
		ck_assert_msg(evr_at_end(&r), "fields left after JOB_NEW");
		check_job_new(&y, &x);
		ck_assert_ptr_nonnull(y.user);
		ck_assert(y.user >= scratch.buf &&
		    y.user < scratch.buf + scratch.cap);
		ck_assert(y.req.asked_hosts.n >= 2);
		ck_assert(y.req.asked_hosts.v[y.req.asked_hosts.n] == NULL);
	}
	/* A short record fails as it does when read the allocating way. */
	with_crc(&sb, "\"JOB_NEW\" \"10.1\" 1 5 0 2 1 1 0 0 -65535 0 0 \"u\"");
	open_rec(&r, &sb, "JOB_NEW", 1);
	evr_set_scratch(&r, &scratch);
	ck_assert_int_eq(ev_job_new_peek(&r, &y), -1);
	ck_assert(!r.borrow);
	open_rec(&r, &sb, "JOB_NEW", 1);
	ck_assert_int_eq(ev_job_new_read(&r, &y), -1);
	ev_job_new_release(&y);
	ev_job_new_release(&x);
	sb_release(&scratch);
	sb_release(&sb);
}
END_TEST

/* Strings longer than the reader's stack buffer, read both ways. */
START_TEST(test_long_strings)
{
	struct strbuf sb = STRBUF_INIT, scratch = STRBUF_INIT,
	    want = STRBUF_INIT;
	struct ev_reader r;
	struct strv sv = STRV_INIT;
	const char *why;
	char *s;

	for (int i = 0; i < 700; i++)
		sb_addc(&want, i % 50 == 0 ? '"' : i % 7 == 0 ? '\n' :
		    'a' + i % 26);
	for (int borrow = 0; borrow < 2; borrow++) {
		sb_reset(&sb);
		sb_adds(&sb, "\"T\" \"1\" 0");
		ev_str(&sb, want.buf);
		ev_int(&sb, 2);
		ev_str(&sb, want.buf);
		ev_str(&sb, "x");
		ev_str(&sb, "skipped");
		ev_end(&sb, 0);
		ck_assert_int_eq(evr_init(&r, sb.buf, sb.len - 1, &why), 0);
		if (borrow) {
			evr_set_scratch(&r, &scratch);
			ck_assert_int_eq(evr_borrow_begin(&r), 0);
		}
		ck_assert(evr_str(&r, &s));
		ck_assert_str_eq(s, want.buf);
		if (!borrow)
			free(s);
		ck_assert(evr_strv(&r, &sv));
		ck_assert_uint_eq(sv.n, 2);
		ck_assert_str_eq(sv.v[0], want.buf);
		ck_assert_str_eq(sv.v[1], "x");
		ck_assert(evr_skip(&r));
		ck_assert(evr_at_end(&r));
		if (borrow) {
			evr_borrow_end(&r);
			strv_init(&sv);
		} else
			strv_release(&sv);
	}
	sb_release(&want);
	sb_release(&scratch);
	sb_release(&sb);
}
END_TEST

/* CRC-32C: known values (RFC 3720, B.4), and the table and instruction
 * paths agreeing on random data at every alignment. */
START_TEST(test_crc32c)
{
	unsigned char buf[32], big[4096 + 16];
	unsigned int seed = 12345;

	ck_assert_uint_eq(crc32c(0, "", 0), 0);
	ck_assert_uint_eq(crc32c_sw(0, "123456789", 9), 0xe3069283u);
	ck_assert_uint_eq(crc32c_hw(0, "123456789", 9), 0xe3069283u);
	memset(buf, 0, sizeof(buf));
	ck_assert_uint_eq(crc32c(0, buf, 32), 0x8a9136aau);
	ck_assert_uint_eq(crc32c_sw(0, buf, 32), 0x8a9136aau);
	memset(buf, 0xff, sizeof(buf));
	ck_assert_uint_eq(crc32c(0, buf, 32), 0x62a8ab43u);
	ck_assert_uint_eq(crc32c_sw(0, buf, 32), 0x62a8ab43u);
	for (int i = 0; i < 32; i++)
		buf[i] = (unsigned char)i;
	ck_assert_uint_eq(crc32c(0, buf, 32), 0x46dd794eu);
	ck_assert_uint_eq(crc32c_sw(0, buf, 32), 0x46dd794eu);
	for (int i = 0; i < 32; i++)
		buf[i] = (unsigned char)(31 - i);
	ck_assert_uint_eq(crc32c(0, buf, 32), 0x113fdb5cu);
	ck_assert_uint_eq(crc32c_hw(0, buf, 32), 0x113fdb5cu);
	for (size_t i = 0; i < sizeof(big); i++)
		big[i] = (unsigned char)(rand_r(&seed) >> 7);
	for (size_t off = 0; off < 16; off++) {
		for (size_t len = 0; len < 300; len += 1 + len / 16) {
			uint32_t want = 0xffffffffu;

			/* The bytewise definition. */
			for (size_t k = 0; k < len; k++) {
				want ^= big[off + k];
				for (int b = 0; b < 8; b++)
					want = (want & 1) ?
					    (want >> 1) ^ 0x82f63b78u :
					    want >> 1;
			}
			want = ~want;
			ck_assert_uint_eq(crc32c_sw(0, big + off, len), want);
			ck_assert_uint_eq(crc32c_hw(0, big + off, len), want);
			ck_assert_uint_eq(crc32c(0, big + off, len), want);
		}
		ck_assert_uint_eq(crc32c_sw(0, big + off, 4096),
		    crc32c_hw(0, big + off, 4096));
	}
	/* Incremental: a CRC continues from the previous one. */
	ck_assert_uint_eq(crc32c(crc32c(0, big, 1000), big + 1000, 3000),
	    crc32c(0, big, 4000));
	ck_assert_uint_eq(crc32c_sw(crc32c_hw(0, big, 7), big + 7, 100),
	    crc32c(0, big, 107));
}
END_TEST

/* The exact text: LSF's quoting, our escapes, CRC-32C. */
START_TEST(test_golden_text)
{
	struct strbuf sb = STRBUF_INIT;
	struct ev_job_clean c = { 77, 3 };
	struct strv sv = STRV_INIT;
	char want[128];

	/* The CRC-32C check value. */
	ck_assert_uint_eq(crc32c(0, "123456789", 9), 0xe3069283u);
	ev_str(&sb, "a\"b\\c\n\t\r\x01\x1f\x7f \xc3\xa9 ");
	ck_assert_str_eq(sb.buf,
	    " \"a\"\"b\\\\c\\n\\t\\r\\x01\\x1f\\x7f \xc3\xa9 \"");
	sb_reset(&sb);
	ev_str(&sb, NULL);
	ev_str(&sb, "");
	ev_int(&sb, -5);
	ev_float(&sb, "%.2f", 1.0);
	strv_push(&sv, "x y");
	strv_push(&sv, "");
	ev_strv(&sb, &sv);
	ck_assert_str_eq(sb.buf, " \"\" \"\" -5 1.00 2 \"x y\" \"\"");
	sb_reset(&sb);
	ev_job_clean_write(&sb, 1700000000, &c);
	snprintf(want, sizeof(want), "\"JOB_CLEAN\" \"10.1\" 1700000000 77 3 "
	    "@%08x\n", crc32c(0, sb.buf, sb.len - 11));
	ck_assert_str_eq(sb.buf, want);
	strv_release(&sv);
	sb_release(&sb);
}
END_TEST

/* ev_end checksums from rec_start, not from the buffer's start. */
START_TEST(test_rec_start)
{
	struct strbuf sb = STRBUF_INIT;
	struct ev_job_clean c = { 77, 3 }, d;
	struct ev_reader r;
	const char *why;
	size_t start;

	sb_adds(&sb, "previous record text\n");
	start = sb.len;
	ev_job_clean_write(&sb, 5, &c);
	ck_assert_int_eq(evr_init(&r, sb.buf + start, sb.len - start - 1,
	    &why), 0);
	ck_assert_int_eq(ev_job_clean_read(&r, &d), 0);
	ck_assert_int_eq(d.jobid, 77);
	ck_assert_int_eq(d.idx, 3);
	sb_release(&sb);
}
END_TEST

START_TEST(test_job_env)
{
	struct ev_job_env x, y;
	struct strbuf sb = STRBUF_INIT;
	struct ev_reader r;

	memset(&x, 0, sizeof(x));
	x.env_id = xstrdup(pick(_i, 0) ? pick(_i, 0) : "e1");
	for (int k = 0; k < NTRICKY + 2; k++)
		strv_push_nodup(&x.env, xasprintf("V%d=%s", k,
		    pick(_i, k) ? pick(_i, k) : ""));
	ev_job_env_write(&sb, 42, &x);
	open_rec(&r, &sb, "JOB_ENV", 42);
	ck_assert_int_eq(ev_job_env_read(&r, &y), 0);
	ck_assert(evr_at_end(&r));
	ck_assert_str_eq(y.env_id, x.env_id);
	strv_back("env", &y.env, &x.env);
	ev_job_env_release(&y);
	ev_job_env_release(&x);
	ck_assert_ptr_null(x.env_id);
	sb_release(&sb);
}
END_TEST

START_TEST(test_job_start)
{
	struct ev_job_start x, y;
	struct strbuf sb = STRBUF_INIT;
	struct ev_reader r;

	memset(&x, 0, sizeof(x));
	x.jobid = 9000000000LL + _i;
	x.status = JOB_STAT_RUN;
	x.pid = 4321 + _i;
	x.pgid = 4320;
	for (int k = 0; k < 1 + _i % 4; k++)
		strv_push(&x.exec_hosts, pick(_i, k) ? pick(_i, k) : "h");
	x.idx = _i;
	x.effective_res_req = dup_or_null(pick(_i, 7));
	x.run_count = 0xfffffff0u + (uint32_t)(_i % 8);
	ev_job_start_write(&sb, 77, &x);
	open_rec(&r, &sb, "JOB_START", 77);
	ck_assert_int_eq(ev_job_start_read(&r, &y), 0);
	ck_assert(evr_at_end(&r));
	ck_assert_int_eq(y.jobid, x.jobid);
	ck_assert_int_eq(y.status, x.status);
	ck_assert_int_eq(y.pid, x.pid);
	ck_assert_int_eq(y.pgid, x.pgid);
	ck_assert_int_eq(y.idx, x.idx);
	strv_back("exec_hosts", &y.exec_hosts, &x.exec_hosts);
	str_back("effective_res_req", y.effective_res_req,
	    x.effective_res_req, false);
	ck_assert_uint_eq(y.run_count, x.run_count);
	ev_job_start_release(&y);
	ev_job_start_release(&x);
	sb_release(&sb);
}
END_TEST

START_TEST(test_job_execute)
{
	struct ev_job_execute x, y;
	struct strbuf sb = STRBUF_INIT;
	struct ev_reader r;

	memset(&x, 0, sizeof(x));
	x.jobid = 55;
	x.exec_uid = 0;
	x.pgid = -1;
	x.exec_cwd = dup_or_null(pick(_i, 0));
	x.exec_home = dup_or_null(pick(_i, 1));
	x.exec_user = dup_or_null(pick(_i, 2));
	x.pid = 99999;
	x.idx = 7;
	x.run_count = 3;
	ev_job_execute_write(&sb, 1, &x);
	open_rec(&r, &sb, "JOB_EXECUTE", 1);
	ck_assert_int_eq(ev_job_execute_read(&r, &y), 0);
	ck_assert(evr_at_end(&r));
	ck_assert_int_eq(y.jobid, 55);
	ck_assert_int_eq(y.exec_uid, 0);
	ck_assert_int_eq(y.pgid, -1);
	str_back("exec_cwd", y.exec_cwd, x.exec_cwd, false);
	str_back("exec_home", y.exec_home, x.exec_home, false);
	str_back("exec_user", y.exec_user, x.exec_user, false);
	ck_assert_int_eq(y.pid, 99999);
	ck_assert_int_eq(y.idx, 7);
	ck_assert_uint_eq(y.run_count, 3);
	ev_job_execute_release(&y);
	ev_job_execute_release(&x);
	sb_release(&sb);
}
END_TEST

START_TEST(test_job_status)
{
	struct ev_job_status x, y;
	struct strbuf sb = STRBUF_INIT;
	struct ev_reader r;

	memset(&x, 0, sizeof(x));
	x.jobid = INT64_MAX - 1;
	x.status = JOB_STAT_EXIT;
	x.reason = 3;
	x.subreasons = -2;
	x.cpu_time = 1234.5625;
	x.end_time = 1700000999;
	x.exit_status = 256 * 3;
	x.idx = 12;
	x.max_mem_kb = 123456789012LL;
	x.avg_mem_kb = 0;
	x.exit_info = TERM_MEMLIMIT;
	x.run_count = UINT32_MAX;
	ev_job_status_write(&sb, 1, &x);
	open_rec(&r, &sb, "JOB_STATUS", 1);
	ck_assert_int_eq(ev_job_status_read(&r, &y), 0);
	ck_assert(evr_at_end(&r));
	ck_assert_int_eq(y.jobid, x.jobid);
	ck_assert_int_eq(y.status, x.status);
	ck_assert_int_eq(y.reason, x.reason);
	ck_assert_int_eq(y.subreasons, x.subreasons);
	ck_assert(y.cpu_time == x.cpu_time);
	ck_assert_int_eq(y.end_time, x.end_time);
	ck_assert_int_eq(y.exit_status, x.exit_status);
	ck_assert_int_eq(y.idx, x.idx);
	ck_assert_int_eq(y.max_mem_kb, x.max_mem_kb);
	ck_assert_int_eq(y.avg_mem_kb, x.avg_mem_kb);
	ck_assert_int_eq(y.exit_info, x.exit_info);
	ck_assert_uint_eq(y.run_count, x.run_count);
	ev_job_status_release(&y);
	sb_release(&sb);
}
END_TEST

START_TEST(test_job_signal)
{
	struct ev_job_signal x, y;
	struct strbuf sb = STRBUF_INIT;
	struct ev_reader r;

	memset(&x, 0, sizeof(x));
	x.jobid = 101;
	x.uid = -1;
	x.run_count = 2;
	x.signal = dup_or_null(_i % 2 ? "KILL" : pick(_i, 0));
	x.idx = 0;
	x.user = dup_or_null(pick(_i, 3));
	ev_job_signal_write(&sb, 3, &x);
	open_rec(&r, &sb, "JOB_SIGNAL", 3);
	ck_assert_int_eq(ev_job_signal_read(&r, &y), 0);
	ck_assert(evr_at_end(&r));
	ck_assert_int_eq(y.jobid, 101);
	ck_assert_int_eq(y.uid, -1);
	ck_assert_uint_eq(y.run_count, 2);
	str_back("signal", y.signal, x.signal, false);
	ck_assert_int_eq(y.idx, 0);
	str_back("user", y.user, x.user, false);
	ev_job_signal_release(&y);
	ev_job_signal_release(&x);
	sb_release(&sb);
}
END_TEST

START_TEST(test_small_records)
{
	struct strbuf sb = STRBUF_INIT;
	struct ev_reader r;
	struct ev_job_clean c = { 8000000000LL, 4 }, c2;
	struct ev_mbd_start s, s2;
	struct ev_mbd_die d, d2;

	ev_job_clean_write(&sb, 10, &c);
	open_rec(&r, &sb, "JOB_CLEAN", 10);
	ck_assert_int_eq(ev_job_clean_read(&r, &c2), 0);
	ck_assert(evr_at_end(&r));
	ck_assert_int_eq(c2.jobid, c.jobid);
	ck_assert_int_eq(c2.idx, 4);
	ev_job_clean_release(&c2);

	for (int i = 0; i < NTRICKY + 2; i++) {
		memset(&s, 0, sizeof(s));
		s.master = dup_or_null(pick(i, 0));
		s.cluster = dup_or_null(pick(i, 1));
		s.nhosts = i;
		s.nqueues = -i;
		s.user = dup_or_null(pick(i, 3));
		sb_reset(&sb);
		ev_mbd_start_write(&sb, 11, &s);
		open_rec(&r, &sb, "MBD_START", 11);
		ck_assert_int_eq(ev_mbd_start_read(&r, &s2), 0);
		ck_assert(evr_at_end(&r));
		str_back("master", s2.master, s.master, false);
		str_back("cluster", s2.cluster, s.cluster, false);
		ck_assert_int_eq(s2.nhosts, i);
		ck_assert_int_eq(s2.nqueues, -i);
		str_back("user", s2.user, s.user, false);
		ev_mbd_start_release(&s2);
		ev_mbd_start_release(&s);

		memset(&d, 0, sizeof(d));
		d.master = dup_or_null(pick(i, 2));
		d.nremoved = 100 + i;
		d.exit_code = -i;
		d.user = dup_or_null(pick(i, 4));
		d.comment = dup_or_null(pick(i, 5));
		sb_reset(&sb);
		ev_mbd_die_write(&sb, 12, &d);
		open_rec(&r, &sb, "MBD_DIE", 12);
		ck_assert_int_eq(ev_mbd_die_read(&r, &d2), 0);
		ck_assert(evr_at_end(&r));
		str_back("master", d2.master, d.master, false);
		ck_assert_int_eq(d2.nremoved, 100 + i);
		ck_assert_int_eq(d2.exit_code, -i);
		str_back("user", d2.user, d.user, false);
		str_back("comment", d2.comment, d.comment, false);
		ev_mbd_die_release(&d2);
		ev_mbd_die_release(&d);
	}
	sb_release(&sb);
}
END_TEST

/* HOST_CTRL and QUEUE_CTRL (badmin), and the MBD records of a version
 * that wrote no user. */
START_TEST(test_ctrl_records)
{
	static const char *const types[] = { "HOST_CTRL", "QUEUE_CTRL" };
	struct strbuf sb = STRBUF_INIT;
	struct ev_reader r;
	struct ev_ctrl c, c2;
	struct ev_mbd_start s;
	struct ev_mbd_die d;
	size_t start;

	for (int i = 0; i < NTRICKY + 2; i++) {
		const char *type = types[i % 2];

		memset(&c, 0, sizeof(c));
		c.op = 1 + i % 4;
		c.name = dup_or_null(pick(i, 0));
		c.uid = 1000 + i;
		c.user = dup_or_null(pick(i, 1));
		c.comment = dup_or_null(pick(i, 2));
		sb_reset(&sb);
		ev_ctrl_put(&sb, 20 + i, type, &c);
		open_rec(&r, &sb, type, 20 + i);
		ck_assert_int_eq(ev_ctrl_read(&r, &c2), 0);
		ck_assert(evr_at_end(&r));
		ck_assert_int_eq(c2.op, c.op);
		str_back("name", c2.name, c.name, false);
		ck_assert_int_eq(c2.uid, 1000 + i);
		str_back("user", c2.user, c.user, false);
		str_back("comment", c2.comment, c.comment, false);
		ev_ctrl_release(&c2);
		ev_ctrl_release(&c);
	}

	/* LSF's own layout, as IBM documents it. */
	sb_reset(&sb);
	start = sb.len;
	ev_begin(&sb, "HOST_CTRL", 1050082346);
	ev_int(&sb, 2);
	ev_str(&sb, "hostA");
	ev_int(&sb, 32185);
	ev_str(&sb, "lsfadmin");
	ev_str(&sb, "backup");
	ev_end(&sb, start);
	ck_assert(strncmp(sb.buf, "\"HOST_CTRL\" ", 12) == 0);
	ck_assert_ptr_nonnull(strstr(sb.buf, " 1050082346 2 \"hostA\" 32185 "
	    "\"lsfadmin\" \"backup\" @"));

	sb_reset(&sb);
	start = sb.len;
	ev_begin(&sb, "MBD_START", 30);
	ev_str(&sb, "hosta");
	ev_str(&sb, "c1");
	ev_int(&sb, 3);
	ev_int(&sb, 2);
	ev_end(&sb, start);
	open_rec(&r, &sb, "MBD_START", 30);
	ck_assert_int_eq(ev_mbd_start_read(&r, &s), 0);
	ck_assert_ptr_null(s.user);
	ck_assert_int_eq(s.nqueues, 2);
	ev_mbd_start_release(&s);

	sb_reset(&sb);
	start = sb.len;
	ev_begin(&sb, "MBD_DIE", 31);
	ev_str(&sb, "hosta");
	ev_int(&sb, 0);
	ev_int(&sb, 3);
	ev_end(&sb, start);
	open_rec(&r, &sb, "MBD_DIE", 31);
	ck_assert_int_eq(ev_mbd_die_read(&r, &d), 0);
	ck_assert_ptr_null(d.user);
	ck_assert_ptr_null(d.comment);
	ck_assert_int_eq(d.exit_code, 3);
	ev_mbd_die_release(&d);
	sb_release(&sb);
}
END_TEST

/* Records written by an older version, without our trailing fields. */
START_TEST(test_job_status_defaults)
{
	struct strbuf sb = STRBUF_INIT;
	struct ev_reader r;
	struct ev_job_status y;

	/* LSF's fields only: no maxMem, avgMem, exitInfo, runCount. */
	with_crc(&sb, "\"JOB_STATUS\" \"10.1\" 1700000000 101 64 0 0 "
	    "1.5000 1700000100 0 0 0");
	open_rec(&r, &sb, "JOB_STATUS", 1700000000);
	ck_assert_int_eq(ev_job_status_read(&r, &y), 0);
	ck_assert_int_eq(y.jobid, 101);
	ck_assert_int_eq(y.status, JOB_STAT_DONE);
	ck_assert(y.cpu_time == 1.5);
	ck_assert_int_eq(y.end_time, 1700000100);
	ck_assert_int_eq(y.exit_status, 0);
	ck_assert_int_eq(y.idx, 0);
	ck_assert_int_eq(y.max_mem_kb, -1);
	ck_assert_int_eq(y.avg_mem_kb, -1);
	ck_assert_int_eq(y.exit_info, 0);
	ck_assert_uint_eq(y.run_count, 0);

	/* Some of ours. */
	with_crc(&sb, "\"JOB_STATUS\" \"10.1\" 1 102 32 0 0 0.0000 5 0 "
	    "256 2 4096");
	open_rec(&r, &sb, "JOB_STATUS", 1);
	ck_assert_int_eq(ev_job_status_read(&r, &y), 0);
	ck_assert_int_eq(y.exit_status, 256);
	ck_assert_int_eq(y.idx, 2);
	ck_assert_int_eq(y.max_mem_kb, 4096);
	ck_assert_int_eq(y.avg_mem_kb, -1);
	ck_assert_int_eq(y.exit_info, 0);
	ck_assert_uint_eq(y.run_count, 0);

	/* An LSF record with its lsfRusage block (2 floats, 17 ints). */
	with_crc(&sb, "\"JOB_STATUS\" \"10.1\" 1 103 32 0 0 2.0000 5 1 "
	    "1.5 2.5 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 "
	    "512 0 -1 -1 14 9");
	open_rec(&r, &sb, "JOB_STATUS", 1);
	ck_assert_int_eq(ev_job_status_read(&r, &y), 0);
	ck_assert_int_eq(y.jobid, 103);
	ck_assert_int_eq(y.exit_status, 512);
	ck_assert_int_eq(y.exit_info, 14);
	ck_assert_uint_eq(y.run_count, 9);

	/* Extra fields after ours are ignored. */
	with_crc(&sb, "\"JOB_STATUS\" \"10.1\" 1 104 4 0 0 0.0000 0 0 0 0 "
	    "100 50 0 1 \"future\" 3.25 77 \"more \"\"x\"\"\"");
	open_rec(&r, &sb, "JOB_STATUS", 1);
	ck_assert_int_eq(ev_job_status_read(&r, &y), 0);
	ck_assert_int_eq(y.jobid, 104);
	ck_assert_int_eq(y.status, JOB_STAT_RUN);
	ck_assert_int_eq(y.max_mem_kb, 100);
	ck_assert_int_eq(y.avg_mem_kb, 50);
	ck_assert_uint_eq(y.run_count, 1);

	/* Missing one of LSF's own fields is an error. */
	with_crc(&sb, "\"JOB_STATUS\" \"10.1\" 1 105 4 0 0 0.0000 0 0 0");
	open_rec(&r, &sb, "JOB_STATUS", 1);
	ck_assert_int_eq(ev_job_status_read(&r, &y), -1);
	/* A rusage block that is cut short too. */
	with_crc(&sb, "\"JOB_STATUS\" \"10.1\" 1 105 4 0 0 0.0000 0 1 1.0 2");
	open_rec(&r, &sb, "JOB_STATUS", 1);
	ck_assert_int_eq(ev_job_status_read(&r, &y), -1);
	/* A string where a number belongs. */
	with_crc(&sb, "\"JOB_STATUS\" \"10.1\" 1 \"105\" 4 0 0 0.0000 0 0 0 0");
	open_rec(&r, &sb, "JOB_STATUS", 1);
	ck_assert_int_eq(ev_job_status_read(&r, &y), -1);
	sb_release(&sb);
}
END_TEST

/* Old JOB_NEW, JOB_START and JOB_EXECUTE records, and extra fields. */
START_TEST(test_old_and_new_records)
{
	struct strbuf sb = STRBUF_INIT, out = STRBUF_INIT;
	struct strv f = STRV_INIT;
	struct ev_reader r;
	struct ev_job_new x, y;
	struct ev_job_start s, s2;
	struct ev_job_execute e, e2;

	/* JOB_NEW without env_id, cwd, post_exec, res_reqs, queue,
	 * outdir, app. */
	fill_job_new(&x, 1);
	strv_release(&x.req.res_reqs);
	free(x.req.app);
	x.req.app = xstrdup("fluent");
	ev_job_new_write(&sb, 1, &x);
	split_fields(sb.buf, sb.len - 1, &f);
	/* ... env_id cwd post_exec 0 queue outdir app method wa wt @crc */
	ck_assert_str_eq(f.v[f.n - 8], "0");
	ck_assert_str_eq(f.v[f.n - 5], "\"fluent\"");
	rebuild(&out, &f, f.n - 11, NULL);
	open_rec(&r, &out, "JOB_NEW", 1);
	ck_assert_int_eq(ev_job_new_read(&r, &y), 0);
	ck_assert_ptr_null(y.env_id);
	ck_assert_ptr_null(y.req.cwd);
	ck_assert_ptr_null(y.req.post_exec);
	ck_assert_uint_eq(y.req.res_reqs.n, 0);
	ck_assert_ptr_null(y.req.queue);
	ck_assert_int_eq(y.jobid, x.jobid);
	ck_assert_int_eq(y.req.user_priority, x.req.user_priority);
	str_back("command", y.req.command, x.req.command, false);
	ev_job_new_release(&y);
	/* Only env_id of ours. */
	rebuild(&out, &f, f.n - 10, NULL);
	open_rec(&r, &out, "JOB_NEW", 1);
	ck_assert_int_eq(ev_job_new_read(&r, &y), 0);
	str_back("env_id", y.env_id, x.env_id, true);
	ck_assert_ptr_null(y.req.cwd);
	ev_job_new_release(&y);
	/* Up to outdir: a record from before application profiles. */
	rebuild(&out, &f, f.n - 5, NULL);
	open_rec(&r, &out, "JOB_NEW", 1);
	ck_assert_int_eq(ev_job_new_read(&r, &y), 0);
	str_back("outdir", y.req.outdir, x.req.outdir, true);
	ck_assert_ptr_null(y.req.app);
	ev_job_new_release(&y);
	/* Up to the -k method: a record from before -wa and -wt. */
	rebuild(&out, &f, f.n - 3, NULL);
	open_rec(&r, &out, "JOB_NEW", 1);
	ck_assert_int_eq(ev_job_new_read(&r, &y), 0);
	ck_assert_ptr_null(y.req.warning_action);
	ck_assert_int_eq(y.req.warning_time, -1);
	ev_job_new_release(&y);
	/* Extra fields after ours. */
	rebuild(&out, &f, f.n - 1, " 5 \"later\" 6");
	open_rec(&r, &out, "JOB_NEW", 1);
	ck_assert_int_eq(ev_job_new_read(&r, &y), 0);
	check_job_new(&y, &x);
	ev_job_new_release(&y);
	/* One of LSF's fields short: refused. */
	rebuild(&out, &f, 30, NULL);
	open_rec(&r, &out, "JOB_NEW", 1);
	ck_assert_int_eq(ev_job_new_read(&r, &y), -1);
	ev_job_new_release(&y);
	ev_job_new_release(&x);

	/*
	 * JOB_NEW with transferred files (nxf > 0, bsub -f), which we never
	 * write: the fields before nxf are read, the rest keep defaults.
	 */
	fill_job_new(&x, 2);
	sb_reset(&sb);
	ev_job_new_write(&sb, 1, &x);
	strv_release(&f);
	split_fields(sb.buf, sb.len - 1, &f);
	{
		/* nxf is field 44 with no asked hosts, 44 + n with n. */
		size_t at = 43 + x.req.asked_hosts.n;
		struct strv g = STRV_INIT;

		ck_assert_str_eq(f.v[at], "0");
		for (size_t i = 0; i < f.n; i++) {
			if (i == at) {
				strv_push(&g, "2");
				strv_push(&g, "\"in file\"");
				strv_push(&g, "\"/tmp/in\"");
			} else {
				strv_push(&g, f.v[i]);
			}
		}
		rebuild(&out, &g, g.n - 1, NULL);
		strv_release(&g);
	}
	open_rec(&r, &out, "JOB_NEW", 1);
	ck_assert_int_eq(ev_job_new_read(&r, &y), 0);
	ck_assert_int_eq(y.jobid, x.jobid);
	ck_assert_str_eq(y.user, x.user);
	ck_assert_str_eq(y.req.job_name, x.req.job_name);
	ck_assert_str_eq(y.req.command, x.req.command);
	ck_assert_ptr_null(y.req.mail_user);
	ck_assert_ptr_null(y.env_id);
	ck_assert_int_eq(y.req.max_procs, y.req.num_procs);
	ev_job_new_release(&y);
	ev_job_new_release(&x);

	/* JOB_START without effective_res_req and run_count. */
	memset(&s, 0, sizeof(s));
	s.jobid = 5;
	s.status = JOB_STAT_RUN;
	strv_push(&s.exec_hosts, "hA");
	s.effective_res_req = xstrdup("select[type == any]");
	s.run_count = 4;
	sb_reset(&sb);
	ev_job_start_write(&sb, 1, &s);
	strv_release(&f);
	split_fields(sb.buf, sb.len - 1, &f);
	rebuild(&out, &f, f.n - 3, NULL);
	open_rec(&r, &out, "JOB_START", 1);
	ck_assert_int_eq(ev_job_start_read(&r, &s2), 0);
	ck_assert_ptr_null(s2.effective_res_req);
	ck_assert_uint_eq(s2.run_count, 0);
	ck_assert_str_eq(s2.exec_hosts.v[0], "hA");
	ev_job_start_release(&s2);
	rebuild(&out, &f, f.n - 1, " 1 2 \"three\"");
	open_rec(&r, &out, "JOB_START", 1);
	ck_assert_int_eq(ev_job_start_read(&r, &s2), 0);
	ck_assert_str_eq(s2.effective_res_req, "select[type == any]");
	ck_assert_uint_eq(s2.run_count, 4);
	ev_job_start_release(&s2);
	ev_job_start_release(&s);

	/* JOB_EXECUTE without run_count. */
	memset(&e, 0, sizeof(e));
	e.jobid = 6;
	e.exec_user = xstrdup("bob");
	e.run_count = 9;
	sb_reset(&sb);
	ev_job_execute_write(&sb, 1, &e);
	strv_release(&f);
	split_fields(sb.buf, sb.len - 1, &f);
	rebuild(&out, &f, f.n - 2, NULL);
	open_rec(&r, &out, "JOB_EXECUTE", 1);
	ck_assert_int_eq(ev_job_execute_read(&r, &e2), 0);
	ck_assert_uint_eq(e2.run_count, 0);
	ck_assert_str_eq(e2.exec_user, "bob");
	ev_job_execute_release(&e2);
	ev_job_execute_release(&e);

	/* Extra fields on the records without optional ones. */
	with_crc(&sb, "\"JOB_CLEAN\" \"10.1\" 1 33 2 \"x\" 4");
	open_rec(&r, &sb, "JOB_CLEAN", 1);
	{
		struct ev_job_clean c;

		ck_assert_int_eq(ev_job_clean_read(&r, &c), 0);
		ck_assert_int_eq(c.jobid, 33);
		ck_assert_int_eq(c.idx, 2);
	}
	with_crc(&sb, "\"MBD_DIE\" \"10.1\" 1 \"m\" 3 0 \"extra\"");
	open_rec(&r, &sb, "MBD_DIE", 1);
	{
		struct ev_mbd_die d;

		ck_assert_int_eq(ev_mbd_die_read(&r, &d), 0);
		ck_assert_str_eq(d.master, "m");
		ck_assert_int_eq(d.nremoved, 3);
		ev_mbd_die_release(&d);
	}
	strv_release(&f);
	sb_release(&sb);
	sb_release(&out);
}
END_TEST

/* Every single flipped bit of a record is caught. */
START_TEST(test_crc_flips)
{
	struct ev_job_new x;
	struct strbuf sb = STRBUF_INIT;
	static const uint8_t masks[] = { 0x01, 0x02, 0x04, 0x08, 0x10, 0x40,
	    0x80 };
	struct ev_reader r;
	const char *why;
	size_t len;
	char *copy;

	fill_job_new(&x, 0);
	ev_job_new_write(&sb, 1700000000, &x);
	len = sb.len - 1;
	copy = xmalloc(len);
	ck_assert_int_eq(evr_init(&r, sb.buf, len, &why), 0);
	for (size_t i = 0; i < len; i++) {
		for (size_t m = 0; m < ARRAY_SIZE(masks); m++) {
			memcpy(copy, sb.buf, len);
			copy[i] ^= (char)masks[m];
			why = NULL;
			ck_assert_msg(evr_init(&r, copy, len, &why) == -1,
			    "flip %#x at %zu of %zu not detected", masks[m],
			    i, len);
			ck_assert_ptr_nonnull(why);
		}
	}
	/* Two neighbouring bytes swapped. */
	for (size_t i = 0; i + 1 < len - 10; i++) {
		if (sb.buf[i] == sb.buf[i + 1])
			continue;
		memcpy(copy, sb.buf, len);
		copy[i] = sb.buf[i + 1];
		copy[i + 1] = sb.buf[i];
		ck_assert_int_eq(evr_init(&r, copy, len, &why), -1);
		ck_assert_str_eq(why, "record checksum mismatch");
	}
	/* A byte lost. */
	for (size_t i = 0; i < len - 10; i++) {
		memcpy(copy, sb.buf, i);
		memcpy(copy + i, sb.buf + i + 1, len - i - 1);
		ck_assert_int_eq(evr_init(&r, copy, len - 1, &why), -1);
	}
	free(copy);
	ev_job_new_release(&x);
	sb_release(&sb);
}
END_TEST

static void
init_fails(const char *text, bool add_crc, const char *want_why)
{
	struct strbuf sb = STRBUF_INIT;
	struct ev_reader r;
	const char *why = NULL;
	char *copy;
	size_t len;

	if (add_crc)
		with_crc(&sb, text);
	else {
		sb_adds(&sb, text);
		sb_addc(&sb, '\n');
	}
	len = sb.len - 1;
	copy = xmalloc(len ? len : 1);
	memcpy(copy, sb.buf, len);
	ck_assert_msg(evr_init(&r, copy, len, &why) == -1, "accepted: %s",
	    sb.buf);
	ck_assert_msg(why != NULL && strcmp(why, want_why) == 0,
	    "\"%s\": why \"%s\", want \"%s\"", text, why ? why : "(null)",
	    want_why);
	free(copy);
	sb_release(&sb);
}

START_TEST(test_init_errors)
{
	struct strbuf sb = STRBUF_INIT;
	char buf[256];

	init_fails("", false, "record has no checksum");
	init_fails("@12345678", false, "record has no checksum");
	init_fails(" @1234567", false, "record has no checksum");
	init_fails("\"JOB_CLEAN\" \"10.1\" 1 2 3", false,
	    "record has no checksum");
	init_fails("\"JOB_CLEAN\" \"10.1\" 1 2 3 12345678", false,
	    "record has no checksum");
	init_fails("\"JOB_CLEAN\" \"10.1\" 1 2 3 #12345678", false,
	    "record has no checksum");
	init_fails("\"JOB_CLEAN\" \"10.1\" 1 2 3 @1234567g", false,
	    "record has a malformed checksum");
	init_fails("\"JOB_CLEAN\" \"10.1\" 1 2 3 @-1234567", false,
	    "record has a malformed checksum");
	init_fails("\"JOB_CLEAN\" \"10.1\" 1 2 3 @ 1234567", false,
	    "record has a malformed checksum");
	/* Well-formed, but for other contents. */
	with_crc(&sb, "\"JOB_CLEAN\" \"10.1\" 1 2 3");
	snprintf(buf, sizeof(buf), "\"JOB_CLEAN\" \"10.1\" 1 2 4%.*s",
	    10, sb.buf + sb.len - 11);
	init_fails(buf, false, "record checksum mismatch");
	init_fails("\"JOB_CLEAN\" \"10.1\" 1 2 3 @00000000", false,
	    "record checksum mismatch");
	/* The common fields, with valid checksums. */
	init_fails("JOB_CLEAN \"10.1\" 1 2 3", true,
	    "record type is malformed");
	init_fails("\"JOB_CLEAN \"10.1\" 1 2 3", true,
	    "record type is malformed");
	init_fails("\"JOB_CLEAN\"x \"10.1\" 1", true,
	    "record type is malformed");
	init_fails("\"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789\" \"10.1\" 1", true,
	    "record type is malformed");
	init_fails("  ", true, "record type is malformed");
	init_fails("\"JOB_CLEAN\" 10.1 1 2 3", true,
	    "record version is malformed");
	init_fails("\"JOB_CLEAN\"", true, "record version is malformed");
	init_fails("\"JOB_CLEAN\" \"10.1.0.0.0.0.0.0.0\" 1", true,
	    "record version is malformed");
	init_fails("\"JOB_CLEAN\" \"10.1\"", true,
	    "record time is malformed");
	init_fails("\"JOB_CLEAN\" \"10.1\" abc 2 3", true,
	    "record time is malformed");
	init_fails("\"JOB_CLEAN\" \"10.1\" 12x 2 3", true,
	    "record time is malformed");
	init_fails("\"JOB_CLEAN\" \"10.1\" \"1\" 2 3", true,
	    "record time is malformed");
	init_fails("\"JOB_CLEAN\" \"10.1\" - 2 3", true,
	    "record time is malformed");
	/* The longest type and version that fit are fine. */
	{
		struct ev_reader r;
		const char *why;

		with_crc(&sb, "\"ABCDEFGHIJKLMNOPQRSTUVWXYZ01234\" "
		    "\"10.1.0.0.0.0.0\" -5");
		ck_assert_int_eq(evr_init(&r, sb.buf, sb.len - 1, &why), 0);
		ck_assert_str_eq(r.type, "ABCDEFGHIJKLMNOPQRSTUVWXYZ01234");
		ck_assert_str_eq(r.version, "10.1.0.0.0.0.0");
		ck_assert_int_eq(r.when, -5);
		ck_assert(evr_at_end(&r));
		/* Upper-case checksum digits are read too. */
		for (size_t i = sb.len - 9; i < sb.len - 1; i++)
			if (sb.buf[i] >= 'a' && sb.buf[i] <= 'f')
				sb.buf[i] = (char)(sb.buf[i] - 'a' + 'A');
		ck_assert_int_eq(evr_init(&r, sb.buf, sb.len - 1, &why), 0);
	}
	sb_release(&sb);
}
END_TEST

/* A reader over "fields" (with a header and checksum around them). */
static void
reader_over(struct strbuf *sb, struct ev_reader *r, const char *fields)
{
	const char *why;

	sb_reset(sb);
	sb_adds(sb, "\"T\" \"1\" 0 ");
	sb_adds(sb, fields);
	ev_end(sb, 0);
	if (evr_init(r, sb->buf, sb->len - 1, &why) != 0)
		ck_abort_msg("evr_init: %s", why);
}

START_TEST(test_field_readers)
{
	struct strbuf sb = STRBUF_INIT;
	struct ev_reader r;
	int64_t v;
	int i;
	uint32_t u;
	double d;
	char *s;
	struct strv sv = STRV_INIT;

	/* Integers and their limits. */
	reader_over(&sb, &r, "9223372036854775807 -9223372036854775808 0 -0");
	ck_assert(evr_int(&r, &v) && v == INT64_MAX);
	ck_assert(evr_int(&r, &v) && v == INT64_MIN);
	ck_assert(evr_int(&r, &v) && v == 0);
	ck_assert(evr_int(&r, &v) && v == 0);
	ck_assert(evr_at_end(&r));
	{
		static const char *bad[] = {
			"9223372036854775808", "-9223372036854775809",
			"9999999999999999999", "-9999999999999999999",
			"99999999999999999999", "12a", "-", "--1", "+1",
			"1.5", "0x10", "\"5\"", "",
		};

		for (size_t k = 0; k < ARRAY_SIZE(bad); k++) {
			reader_over(&sb, &r, bad[k]);
			ck_assert_msg(!evr_int(&r, &v), "evr_int took \"%s\" "
			    "as %" PRId64, bad[k], v);
			ck_assert(r.err);
		}
	}
	/* Every int64 written reads back. */
	{
		static const int64_t vals[] = {
			INT64_MIN, INT64_MIN + 1, -1000000000000LL, -1, 0, 1,
			INT32_MAX, (int64_t)INT32_MAX + 1, INT64_MAX - 1,
			INT64_MAX,
		};
		struct strbuf w = STRBUF_INIT;
		const char *why;

		ev_begin(&w, "INTS", 0);
		for (size_t k = 0; k < ARRAY_SIZE(vals); k++)
			ev_int(&w, vals[k]);
		ev_end(&w, 0);
		ck_assert_int_eq(evr_init(&r, w.buf, w.len - 1, &why), 0);
		for (size_t k = 0; k < ARRAY_SIZE(vals); k++) {
			ck_assert(evr_int(&r, &v));
			ck_assert_int_eq(v, vals[k]);
		}
		ck_assert(evr_at_end(&r));
		sb_release(&w);
	}
	reader_over(&sb, &r, "2147483647 -2147483648 2147483648");
	ck_assert(evr_i32(&r, &i) && i == INT32_MAX);
	ck_assert(evr_i32(&r, &i) && i == INT32_MIN);
	ck_assert(!evr_i32(&r, &i));
	reader_over(&sb, &r, "-2147483649");
	ck_assert(!evr_i32(&r, &i));
	reader_over(&sb, &r, "4294967295 0 4294967296");
	ck_assert(evr_u32(&r, &u) && u == UINT32_MAX);
	ck_assert(evr_u32(&r, &u) && u == 0);
	ck_assert(!evr_u32(&r, &u));
	reader_over(&sb, &r, "-1");
	ck_assert(!evr_u32(&r, &u));

	/* Floats. */
	reader_over(&sb, &r, "1.5 -2.25e3 7 1.5x");
	ck_assert(evr_float(&r, &d) && d == 1.5);
	ck_assert(evr_float(&r, &d) && d == -2250);
	ck_assert(evr_float(&r, &d) && d == 7);
	ck_assert(!evr_float(&r, &d));
	reader_over(&sb, &r, "\"1.5\"");
	ck_assert(!evr_float(&r, &d));

	/* Strings: escapes, LSF's lone backslashes, doubled quotes. */
	reader_over(&sb, &r, "\"a\"\"b\" \"\\q\" \"C:\\\" \"\\x41\\x7f\" "
	    "\"\" \"x\\\\y\"");
	ck_assert(evr_str(&r, &s));
	ck_assert_str_eq(s, "a\"b");
	free(s);
	ck_assert(evr_str(&r, &s));
	ck_assert_str_eq(s, "\\q");
	free(s);
	ck_assert(evr_str(&r, &s));
	ck_assert_str_eq(s, "C:\\");
	free(s);
	ck_assert(evr_str(&r, &s));
	ck_assert_str_eq(s, "A\x7f");
	free(s);
	ck_assert(evr_str(&r, &s));
	ck_assert_str_eq(s, "");
	free(s);
	ck_assert(evr_str(&r, &s));
	ck_assert_str_eq(s, "x\\y");
	free(s);
	ck_assert(evr_at_end(&r));
	{
		static const char *bad[] = {
			"\"abc", "\"a\"b", "\"\\x00\"", "\"\\xZZ\"",
			"\"\\x4\"", "abc", "\"abc\\", "\"\\x",
		};

		for (size_t k = 0; k < ARRAY_SIZE(bad); k++) {
			reader_over(&sb, &r, bad[k]);
			s = (char *)1;
			ck_assert_msg(!evr_str(&r, &s), "evr_str took %s",
			    bad[k]);
			ck_assert_ptr_null(s);
		}
	}
	/* Lists. */
	reader_over(&sb, &r, "2 \"a\" \"b c\" 0");
	ck_assert(evr_strv(&r, &sv));
	ck_assert_uint_eq(sv.n, 2);
	ck_assert_str_eq(sv.v[1], "b c");
	ck_assert(evr_strv(&r, &sv));
	ck_assert_uint_eq(sv.n, 2);
	strv_release(&sv);
	{
		static const char *bad[] = {
			"-1", "3 \"a\" \"b\"", "2147483648 \"a\"",
			"9000000000000000000", "1 2", "x",
		};

		for (size_t k = 0; k < ARRAY_SIZE(bad); k++) {
			reader_over(&sb, &r, bad[k]);
			ck_assert_msg(!evr_strv(&r, &sv), "evr_strv took %s",
			    bad[k]);
			strv_release(&sv);
		}
	}
	/* Skipping, the end, optional fields. */
	reader_over(&sb, &r, "\"a \"\" b\" 12 \t 3.5  ");
	ck_assert(!evr_at_end(&r));
	ck_assert(evr_skip(&r));
	ck_assert(evr_skip(&r));
	ck_assert(evr_float(&r, &d) && d == 3.5);
	ck_assert(evr_at_end(&r));
	ck_assert(!evr_skip(&r));
	ck_assert(r.err);
	reader_over(&sb, &r, "5");
	ck_assert(evr_int_opt(&r, &v, -7) && v == 5);
	ck_assert(evr_int_opt(&r, &v, -7) && v == -7);
	ck_assert(evr_i32_opt(&r, &i, 9) && i == 9);
	s = (char *)1;
	ck_assert(evr_str_opt(&r, &s));
	ck_assert_ptr_null(s);
	ck_assert(!r.err);
	/* After an error, optional fields fail rather than default. */
	reader_over(&sb, &r, "x");
	ck_assert(!evr_int(&r, &v));
	ck_assert(!evr_int_opt(&r, &v, 1));
	ck_assert(!evr_i32_opt(&r, &i, 1));
	ck_assert(!evr_str_opt(&r, &s));
	/* A present optional field of the wrong kind is an error. */
	reader_over(&sb, &r, "\"s\"");
	ck_assert(!evr_int_opt(&r, &v, 1));
	sb_release(&sb);
}
END_TEST

/* The positions tools like awk scripts read from lsb.events. */
START_TEST(test_lsf_positions)
{
	struct ev_job_new x;
	struct ev_job_status st;
	struct ev_job_start js;
	struct strbuf sb = STRBUF_INIT;
	struct strv f = STRV_INIT;

	fill_job_new(&x, 0);
	ck_assert_uint_eq(x.req.asked_hosts.n, 0);
	x.jobid = 4242;
	x.uid = 1234;
	free(x.user);
	x.user = xstrdup("alice smith");
	free(x.req.job_name);
	x.req.job_name = xstrdup("my \"job\" name");
	free(x.req.command);
	x.req.command = xstrdup("sleep 10; echo \"done\"");
	free(x.queue);
	x.queue = xstrdup("normal");
	x.req.num_procs = 4;
	ev_job_new_write(&sb, 1700000000, &x);
	split_fields(sb.buf, sb.len - 1, &f);
	/* Fields are numbered from 1 as awk does. */
	ck_assert_str_eq(f.v[0], "\"JOB_NEW\"");
	ck_assert_str_eq(f.v[1], "\"" LSF_VERSION_STR "\"");
	ck_assert_str_eq(f.v[2], "1700000000");
	ck_assert_str_eq(f.v[4 - 1], "4242");			/* jobId */
	ck_assert_str_eq(f.v[5 - 1], "1234");			/* userId */
	ck_assert_str_eq(f.v[7 - 1], "4");			/* numProcessors */
	ck_assert_str_eq(f.v[8 - 1], "1700000000");		/* submitTime */
	ck_assert_str_eq(f.v[14 - 1], "\"alice smith\"");	/* userName */
	ck_assert_str_eq(f.v[29 - 1], "\"normal\"");		/* queue */
	ck_assert_str_eq(f.v[39 - 1], "0");			/* numAskedHosts */
	ck_assert_str_eq(f.v[42 - 1], "\"my \"\"job\"\" name\"");	/* jobName */
	ck_assert_str_eq(f.v[43 - 1], "\"sleep 10; echo \"\"done\"\"\"");
	/* The checksum is the last field. */
	ck_assert_uint_eq(strlen(f.v[f.n - 1]), 9);
	ck_assert_int_eq(f.v[f.n - 1][0], '@');
	ck_assert_uint_eq(strspn(f.v[f.n - 1] + 1, "0123456789abcdef"), 8);

	/* With asked hosts, jobName moves right by their number. */
	strv_push(&x.req.asked_hosts, "hostA");
	strv_push(&x.req.asked_hosts, "hostB");
	sb_reset(&sb);
	strv_release(&f);
	ev_job_new_write(&sb, 1700000000, &x);
	split_fields(sb.buf, sb.len - 1, &f);
	ck_assert_str_eq(f.v[39 - 1], "2");
	ck_assert_str_eq(f.v[40 - 1], "\"hostA\"");
	ck_assert_str_eq(f.v[41 - 1], "\"hostB\"");
	ck_assert_str_eq(f.v[44 - 1], "\"my \"\"job\"\" name\"");
	ev_job_new_release(&x);

	memset(&st, 0, sizeof(st));
	st.jobid = 4243;
	st.status = JOB_STAT_DONE;
	sb_reset(&sb);
	strv_release(&f);
	ev_job_status_write(&sb, 1700000001, &st);
	split_fields(sb.buf, sb.len - 1, &f);
	ck_assert_str_eq(f.v[0], "\"JOB_STATUS\"");
	ck_assert_str_eq(f.v[4 - 1], "4243");			/* jobId */
	ck_assert_str_eq(f.v[5 - 1], "64");			/* jStatus */

	memset(&js, 0, sizeof(js));
	js.jobid = 4244;
	js.status = JOB_STAT_RUN;
	js.pid = 777;
	strv_push(&js.exec_hosts, "hostA");
	strv_push(&js.exec_hosts, "hostA");
	sb_reset(&sb);
	strv_release(&f);
	ev_job_start_write(&sb, 1700000002, &js);
	split_fields(sb.buf, sb.len - 1, &f);
	ck_assert_str_eq(f.v[4 - 1], "4244");			/* jobId */
	ck_assert_str_eq(f.v[5 - 1], "4");			/* jStatus */
	ck_assert_str_eq(f.v[6 - 1], "777");			/* jobPid */
	ck_assert_str_eq(f.v[9 - 1], "2");			/* numExHosts */
	ck_assert_str_eq(f.v[10 - 1], "\"hostA\"");
	ev_job_start_release(&js);
	strv_release(&f);
	sb_release(&sb);
}
END_TEST

/* The log file. */

#define MAXREC	64

struct seen {
	int		 n;
	off_t		 off[MAXREC];
	char		 type[MAXREC][32];
	int64_t		 jobid[MAXREC];
	int		 fail_at;	/* return -1 for this record */
};

static int
record_cb(void *arg, struct ev_reader *r, off_t off)
{
	struct seen *s = arg;
	int i = s->n++;

	ck_assert_int_lt(i, MAXREC);
	s->off[i] = off;
	snprintf(s->type[i], sizeof(s->type[i]), "%s", r->type);
	s->jobid[i] = -1;
	if (strcmp(r->type, "JOB_NEW") == 0) {
		struct ev_job_new x;

		ck_assert_int_eq(ev_job_new_read(r, &x), 0);
		s->jobid[i] = x.jobid;
		ev_job_new_release(&x);
	} else if (strcmp(r->type, "JOB_STATUS") == 0) {
		struct ev_job_status x;

		ck_assert_int_eq(ev_job_status_read(r, &x), 0);
		s->jobid[i] = x.jobid;
	} else if (strcmp(r->type, "JOB_CLEAN") == 0) {
		struct ev_job_clean x;

		ck_assert_int_eq(ev_job_clean_read(r, &x), 0);
		s->jobid[i] = x.jobid;
	}
	return i == s->fail_at ? -1 : 0;
}

/* Record number i of a test log: a JOB_NEW, JOB_STATUS or JOB_CLEAN
 * for job 100 + i. */
static void
test_record(struct strbuf *sb, int i)
{
	sb_reset(sb);
	switch (i % 3) {
	case 0: {
		struct ev_job_new x;

		fill_job_new(&x, i % 7);
		x.jobid = 100 + i;
		ev_job_new_write(sb, 1700000000 + i, &x);
		ev_job_new_release(&x);
		break;
	}
	case 1: {
		struct ev_job_status x;

		memset(&x, 0, sizeof(x));
		x.jobid = 100 + i;
		x.status = JOB_STAT_RUN;
		ev_job_status_write(sb, 1700000000 + i, &x);
		break;
	}
	default: {
		struct ev_job_clean x = { 100 + i, 0 };

		ev_job_clean_write(sb, 1700000000 + i, &x);
		break;
	}
	}
}

static const char *
rec_type(int i)
{
	return i % 3 == 0 ? "JOB_NEW" : i % 3 == 1 ? "JOB_STATUS" :
	    "JOB_CLEAN";
}

/* Append records first..first+n-1 to path (opened at valid_end);
 * offsets go to off[first..]. */
static void
write_records(const char *path, off_t valid_end, int first, int n,
    off_t *off)
{
	struct evlog lg;
	struct strbuf sb = STRBUF_INIT;
	char *cause = NULL;

	if (evlog_open(&lg, path, valid_end, &cause) != 0)
		ck_abort_msg("evlog_open: %s", cause);
	ck_assert_ptr_null(cause);
	for (int i = first; i < first + n; i++) {
		test_record(&sb, i);
		off[i] = evlog_append(&lg, sb.buf, sb.len);
		/* Flush now and then, as mbatchd does. */
		if (i % 4 == 3)
			ck_assert_int_eq(evlog_flush(&lg), 0);
	}
	ck_assert_uint_eq(lg.nrecords, (uint64_t)n);
	ck_assert_int_eq(evlog_flush(&lg), 0);
	ck_assert(!evlog_dirty(&lg));
	evlog_close(&lg);
	sb_release(&sb);
}

static off_t
file_size(const char *path)
{
	struct stat st;

	ck_assert_int_eq(stat(path, &st), 0);
	return st.st_size;
}

static char *
slurp(const char *path, size_t *len)
{
	struct strbuf sb = STRBUF_INIT;

	ck_assert_int_eq(read_file(path, &sb), 0);
	*len = sb.len;
	return sb_detach(&sb);
}

static void
spew(const char *path, const char *data, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write_all(fd, data, len), 0);
	close(fd);
}

static void
append_raw(const char *path, const char *data, size_t len)
{
	int fd = open(path, O_WRONLY | O_APPEND);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write_all(fd, data, len), 0);
	close(fd);
}

static int
replay(const char *path, struct seen *s, off_t *valid_end, char **cause)
{
	memset(s, 0, sizeof(*s));
	s->fail_at = -1;
	return evlog_replay(path, record_cb, s, valid_end, cause);
}

static void
assert_seen(const struct seen *s, int n, const off_t *off)
{
	ck_assert_int_eq(s->n, n);
	for (int i = 0; i < n; i++) {
		ck_assert_msg(s->off[i] == off[i], "record %d at %lld, "
		    "appended at %lld", i, (long long)s->off[i],
		    (long long)off[i]);
		ck_assert_str_eq(s->type[i], rec_type(i));
		ck_assert_int_eq(s->jobid[i], 100 + i);
	}
}

START_TEST(test_replay_missing_and_empty)
{
	char *path = path_in("none");
	struct seen s;
	off_t end = 99;
	char *cause = (char *)1;

	ck_assert_int_eq(replay(path, &s, &end, &cause), 0);
	ck_assert_int_eq(s.n, 0);
	ck_assert_int_eq(end, 0);
	ck_assert_ptr_null(cause);
	/* An empty file is an empty log too. */
	spew(path, "", 0);
	end = 99;
	ck_assert_int_eq(replay(path, &s, &end, &cause), 0);
	ck_assert_int_eq(s.n, 0);
	ck_assert_int_eq(end, 0);
	ck_assert_ptr_null(cause);
	/* A file that cannot be opened: an error that names it. */
	{
		char *bad = xasprintf("%s/lsb.events", path);

		ck_assert_int_eq(replay(bad, &s, &end, &cause), -1);
		ck_assert_ptr_nonnull(cause);
		ck_assert_ptr_nonnull(strstr(cause, bad));
		free(cause);
		free(bad);
	}
	free(path);
}
END_TEST

START_TEST(test_replay_header_only)
{
	char *path = path_in("lsb.events");
	struct evlog lg;
	struct seen s;
	off_t end;
	char *cause;
	size_t len;
	char *data;

	ck_assert_int_eq(evlog_open(&lg, path, 0, &cause), 0);
	ck_assert(!evlog_dirty(&lg));
	evlog_close(&lg);
	data = slurp(path, &len);
	ck_assert_uint_gt(len, 2);
	ck_assert_int_eq(data[0], '#');
	ck_assert_int_eq(data[1], '0');
	ck_assert_int_eq(data[len - 1], '\n');
	ck_assert_ptr_eq(memchr(data, '\n', len), data + len - 1);
	ck_assert_int_eq(replay(path, &s, &end, &cause), 0);
	ck_assert_int_eq(s.n, 0);
	ck_assert_int_eq(end, (off_t)len);
	ck_assert_ptr_null(cause);
	free(data);
	free(path);
}
END_TEST

START_TEST(test_replay_good)
{
	char *path = path_in("lsb.events");
	off_t off[MAXREC];
	struct seen s;
	off_t end;
	char *cause;
	int n = 20;

	write_records(path, 0, 0, n, off);
	ck_assert_int_gt(off[0], 0);
	for (int i = 1; i < n; i++)
		ck_assert_int_gt(off[i], off[i - 1]);
	ck_assert_int_eq(replay(path, &s, &end, &cause), 0);
	ck_assert_ptr_null(cause);
	assert_seen(&s, n, off);
	ck_assert_int_eq(end, file_size(path));
	/* Reopening at the end and appending keeps everything. */
	write_records(path, end, n, 5, off);
	ck_assert_int_eq(off[n], end);
	ck_assert_int_eq(replay(path, &s, &end, &cause), 0);
	assert_seen(&s, n + 5, off);
	ck_assert_int_eq(end, file_size(path));
	free(path);
}
END_TEST

/* A last write cut short: dropped on replay, truncated on open. */
START_TEST(test_torn_tail)
{
	char *path = path_in("lsb.events");
	off_t off[MAXREC], good;
	struct seen s;
	off_t end;
	char *cause;
	struct strbuf sb = STRBUF_INIT;
	int n = 7;
	size_t cut;

	write_records(path, 0, 0, n, off);
	good = file_size(path);
	test_record(&sb, n);
	/* Every cut of the next record short of its newline. */
	cut = (size_t)_i * 37 % (sb.len - 1);
	if (cut == 0)
		cut = 1;
	append_raw(path, sb.buf, cut);
	ck_assert_int_eq(replay(path, &s, &end, &cause), 0);
	ck_assert_ptr_null(cause);
	assert_seen(&s, n, off);
	ck_assert_int_eq(end, good);

	/* Open cuts it off at once; appending then replays cleanly. */
	{
		struct evlog lg;

		ck_assert_int_eq(evlog_open(&lg, path, end, &cause), 0);
		ck_assert_int_eq(lg.size, good);
		ck_assert_int_eq(file_size(path), good);
		evlog_close(&lg);
		ck_assert_int_eq(file_size(path), good);
		/* Torn again, longer than what follows. */
		append_raw(path, sb.buf, sb.len - 1);
	}
	write_records(path, end, n, 4, off);
	ck_assert_int_eq(off[n], good);
	ck_assert_int_eq(replay(path, &s, &end, &cause), 0);
	ck_assert_ptr_null(cause);
	assert_seen(&s, n + 4, off);
	ck_assert_int_eq(end, file_size(path));
	sb_release(&sb);
	free(path);
}
END_TEST

/* Torn data straight after the header, and nothing but torn data. */
START_TEST(test_torn_only)
{
	char *path = path_in("lsb.events");
	off_t off[MAXREC];
	struct seen s;
	off_t end;
	char *cause;
	struct evlog lg;

	ck_assert_int_eq(evlog_open(&lg, path, 0, &cause), 0);
	evlog_close(&lg);
	append_raw(path, "\"JOB_NEW\" \"10.1\" 17", 20);
	ck_assert_int_eq(replay(path, &s, &end, &cause), 0);
	ck_assert_int_eq(s.n, 0);
	ck_assert_int_lt(end, file_size(path));
	write_records(path, end, 0, 2, off);
	ck_assert_int_eq(replay(path, &s, &end, &cause), 0);
	assert_seen(&s, 2, off);

	spew(path, "\"JOB_", 5);
	ck_assert_int_eq(replay(path, &s, &end, &cause), 0);
	ck_assert_int_eq(s.n, 0);
	ck_assert_int_eq(end, 0);
	write_records(path, end, 0, 3, off);
	ck_assert_int_eq(replay(path, &s, &end, &cause), 0);
	assert_seen(&s, 3, off);
	ck_assert_int_eq(end, file_size(path));
	free(path);
}
END_TEST

/* Damage a byte of record k (not its newline). */
static void
damage(const char *path, off_t at)
{
	size_t len;
	char *data = slurp(path, &len);

	ck_assert_int_lt(at, (off_t)len);
	ck_assert_int_ne(data[at], '\n');
	data[at] ^= 0x01;
	if (data[at] == '\n')
		data[at] = 'Z';
	spew(path, data, len);
	free(data);
}

/* Replay of path fails at offset at, naming the file; the records
 * before it were read.  The cause is returned (free it). */
static char *
replay_fails_at(const char *path, off_t at, int nbefore, const off_t *off)
{
	struct seen s;
	off_t end;
	char *cause = NULL, *want;

	ck_assert_int_eq(replay(path, &s, &end, &cause), -1);
	ck_assert_ptr_nonnull(cause);
	want = xasprintf("%s: offset %lld: ", path, (long long)at);
	ck_assert_msg(strncmp(cause, want, strlen(want)) == 0, "cause \"%s\" "
	    "want \"%s...\"", cause, want);
	free(want);
	if (off != NULL)
		assert_seen(&s, nbefore, off);
	ck_assert_int_eq(end, at);
	return cause;
}

/*
 * A complete last line that fails its checksum is damage, not a torn
 * write: it may be an acknowledged job, so replay stops and says where.
 */
START_TEST(test_damaged_last)
{
	char *path = path_in("lsb.events");
	off_t off[MAXREC];
	char *cause;
	int n = 6;

	write_records(path, 0, 0, n, off);
	damage(path, off[n - 1] + 5 + _i * 11);
	cause = replay_fails_at(path, off[n - 1], n - 1, off);
	ck_assert_ptr_nonnull(strstr(cause, "checksum"));
	free(cause);
	/* Nothing was cut: the file is as it was. */
	ck_assert_int_gt(file_size(path), off[n - 1]);
	free(path);
}
END_TEST

/*
 * One bit flipped in a record's leading '"' makes it start with '#':
 * lsb.events has no comments, so that is damage wherever it is.
 */
START_TEST(test_flipped_quote)
{
	char *path = path_in("lsb.events");
	off_t off[MAXREC];
	char *cause;
	size_t len;
	char *data;
	int n = 7, k = _i;	/* 0 .. n-1: the first, the last too */

	write_records(path, 0, 0, n, off);
	data = slurp(path, &len);
	ck_assert_int_eq(data[off[k]], '"');
	data[off[k]] ^= 0x01;
	ck_assert_int_eq(data[off[k]], '#');
	spew(path, data, len);
	free(data);
	cause = replay_fails_at(path, off[k], k, off);
	ck_assert_ptr_nonnull(strstr(cause, "checksum"));
	free(cause);
	free(path);
}
END_TEST

/* Only the first line may be the header. */
START_TEST(test_bad_lines)
{
	char *path = path_in("lsb.events");
	off_t off[MAXREC];
	struct strbuf sb = STRBUF_INIT;
	char *cause, *data;
	size_t len;

	/* A header-like line after the first. */
	write_records(path, 0, 0, 3, off);
	data = slurp(path, &len);
	sb_add(&sb, data, (size_t)off[2]);
	sb_adds(&sb, "#0\n");
	sb_add(&sb, data + off[2], len - (size_t)off[2]);
	spew(path, sb.buf, sb.len);
	cause = replay_fails_at(path, off[2], 2, off);
	free(cause);

	/* An empty line, at the end or in the middle. */
	spew(path, data, len);
	append_raw(path, "\n", 1);
	cause = replay_fails_at(path, (off_t)len, 3, off);
	ck_assert_ptr_nonnull(strstr(cause, "empty line"));
	free(cause);
	sb_reset(&sb);
	sb_add(&sb, data, (size_t)off[1]);
	sb_adds(&sb, "\n");
	sb_add(&sb, data + off[1], len - (size_t)off[1]);
	spew(path, sb.buf, sb.len);
	cause = replay_fails_at(path, off[1], 1, off);
	free(cause);

	/* A damaged header costs only the MAX_JOB_NUM count: it passes
	 * (replay_log warns of it). */
	memcpy(data, "#12x", 4);
	spew(path, data, len);
	{
		struct seen s;
		off_t end;

		ck_assert_int_eq(replay(path, &s, &end, &cause), 0);
		assert_seen(&s, 3, off);
	}
	/* But a first record that lost its quote, in a file from before
	 * headers, is a record. */
	sb_reset(&sb);
	sb_add(&sb, data + off[0], len - (size_t)off[0]);
	sb.buf[0] = '#';
	spew(path, sb.buf, sb.len);
	cause = replay_fails_at(path, 0, 0, NULL);
	ck_assert_ptr_nonnull(strstr(cause, "checksum"));
	free(cause);
	sb_release(&sb);
	free(data);
	free(path);
}
END_TEST

/* A torn tail is kept in path.torn, with a line saying where it was. */
START_TEST(test_keep_torn)
{
	char *path = path_in("lsb.events"), *torn = path_in("lsb.events.torn");
	off_t off[MAXREC], good, len = -1, end;
	struct strbuf sb = STRBUF_INIT;
	struct seen s;
	char *cause = NULL, *data, *want;
	size_t n;
	struct evlog lg;

	write_records(path, 0, 0, 4, off);
	good = file_size(path);
	/* No tail: nothing kept, no file made. */
	ck_assert_int_eq(evlog_keep_torn(path, good, &len, &cause), 0);
	ck_assert_int_eq(len, 0);
	ck_assert_int_eq(access(torn, F_OK), -1);

	test_record(&sb, 4);
	append_raw(path, sb.buf, sb.len - 3);
	ck_assert_int_eq(replay(path, &s, &end, &cause), 0);
	ck_assert_int_eq(end, good);
	ck_assert_int_eq(evlog_keep_torn(path, end, &len, &cause), 1);
	ck_assert_ptr_null(cause);
	ck_assert_int_eq(len, (off_t)sb.len - 3);
	data = slurp(torn, &n);
	want = xasprintf("# %s: torn last record at offset %lld, %lld bytes "
	    "without a newline", path, (long long)good, (long long)len);
	ck_assert_msg(strncmp(data, want, strlen(want)) == 0, "%s", data);
	ck_assert_ptr_nonnull(memmem(data, n, sb.buf, sb.len - 3));
	ck_assert_int_eq(data[n - 1], '\n');
	free(want);
	free(data);
	ck_assert_int_eq(evlog_open(&lg, path, end, &cause), 0);
	evlog_close(&lg);
	ck_assert_int_eq(file_size(path), good);

	/* A second one is appended after the first. */
	append_raw(path, "\"JOB", 4);
	ck_assert_int_eq(replay(path, &s, &end, &cause), 0);
	ck_assert_int_eq(evlog_keep_torn(path, end, &len, &cause), 1);
	ck_assert_int_eq(len, 4);
	data = slurp(torn, &n);
	ck_assert_int_eq(memcmp(data + n - 5, "\"JOB\n", 5), 0);
	ck_assert_ptr_nonnull(strstr(data + 1, "\n# "));
	free(data);

	/* A missing log has no tail. */
	free(path);
	path = path_in("none");
	ck_assert_int_eq(evlog_keep_torn(path, 0, &len, &cause), 0);
	sb_release(&sb);
	free(torn);
	free(path);
}
END_TEST

/* lsb.envs is read by the same reader: the same rules. */
START_TEST(test_envs_rules)
{
	char *path = path_in("lsb.envs");
	struct strbuf sb = STRBUF_INIT;
	off_t off[4], end;
	struct evlog lg;
	struct seen s;
	char *cause = NULL, *data;
	size_t len;

	ck_assert_int_eq(evlog_open(&lg, path, 0, &cause), 0);
	for (int i = 0; i < 3; i++) {
		struct ev_job_env e;

		memset(&e, 0, sizeof(e));
		e.env_id = xasprintf("env%d", i);
		strv_push(&e.env, "HOME=/home/u");
		sb_reset(&sb);
		ev_job_env_write(&sb, 1700000000 + i, &e);
		off[i] = evlog_append(&lg, sb.buf, sb.len);
		ev_job_env_release(&e);
	}
	ck_assert_int_eq(evlog_flush(&lg), 0);
	evlog_close(&lg);
	data = slurp(path, &len);

	/* A flipped leading quote, first and last. */
	for (int k = 0; k < 3; k += 2) {
		data[off[k]] = '#';
		spew(path, data, len);
		free(replay_fails_at(path, off[k], -1, NULL));
		data[off[k]] = '"';
	}
	/* A damaged last complete line. */
	data[len - 4] ^= 0x01;
	spew(path, data, len);
	free(replay_fails_at(path, off[2], -1, NULL));
	data[len - 4] ^= 0x01;
	/* A torn tail: tolerated, and kept aside. */
	spew(path, data, len);
	append_raw(path, sb.buf, sb.len / 2);
	ck_assert_int_eq(replay(path, &s, &end, &cause), 0);
	ck_assert_int_eq(end, (off_t)len);
	{
		off_t tl;
		char *torn = path_in("lsb.envs.torn");
		struct stat st;

		ck_assert_int_eq(evlog_keep_torn(path, end, &tl, &cause), 1);
		ck_assert_int_eq(tl, (off_t)(sb.len / 2));
		ck_assert_int_eq(stat(torn, &st), 0);
		ck_assert_int_eq(st.st_mode & 077, 0);
		free(torn);
	}
	sb_release(&sb);
	free(data);
	free(path);
}
END_TEST

/* What badmin's offline check reads on top of the checksum. */
START_TEST(test_record_check)
{
	struct strbuf sb = STRBUF_INIT;
	struct ev_reader r;
	const char *why = NULL;
	size_t start;

	for (int i = 0; i < 3; i++) {
		test_record(&sb, i);
		ck_assert_int_eq(evr_init(&r, sb.buf, sb.len - 1, &why), 0);
		ck_assert_int_eq(ev_record_check(&r, &why), 0);
	}
	/* A JOB_STATUS whose job ID is not a number, checksum right. */
	sb_reset(&sb);
	start = sb.len;
	ev_begin(&sb, "JOB_STATUS", 1700000000);
	ev_str(&sb, "101");
	ev_end(&sb, start);
	ck_assert_int_eq(evr_init(&r, sb.buf, sb.len - 1, &why), 0);
	ck_assert_int_eq(ev_record_check(&r, &why), -1);
	ck_assert_ptr_nonnull(why);
	/* A type this version does not know passes. */
	sb_reset(&sb);
	ev_begin(&sb, "JOB_FUTURE", 1700000000);
	ev_str(&sb, "x");
	ev_end(&sb, 0);
	ck_assert_int_eq(evr_init(&r, sb.buf, sb.len - 1, &why), 0);
	ck_assert_int_eq(ev_record_check(&r, &why), 0);
	sb_release(&sb);
}
END_TEST

START_TEST(test_damaged_middle)
{
	char *path = path_in("lsb.events");
	off_t off[MAXREC];
	struct seen s;
	off_t end;
	char *cause = NULL, *want;
	int n = 9, k = _i;	/* 0 .. n-1: the last too */

	write_records(path, 0, 0, n, off);
	damage(path, off[k] + 1 + k * 3);
	ck_assert_int_eq(replay(path, &s, &end, &cause), -1);
	ck_assert_ptr_nonnull(cause);
	ck_assert_msg(strstr(cause, path) != NULL, "cause \"%s\" does not "
	    "name %s", cause, path);
	want = xasprintf("offset %lld:", (long long)off[k]);
	ck_assert_msg(strstr(cause, want) != NULL, "cause \"%s\" lacks "
	    "\"%s\"", cause, want);
	ck_assert_ptr_nonnull(strstr(cause, "checksum"));
	/* The records before it were replayed, in order. */
	assert_seen(&s, k, off);
	ck_assert_int_eq(end, off[k]);
	free(want);
	free(cause);
	free(path);
}
END_TEST

START_TEST(test_damaged_other)
{
	char *path = path_in("lsb.events");
	off_t off[MAXREC];
	struct seen s;
	off_t end;
	char *cause = NULL, *want;
	size_t len;
	char *data;

	/* A lost newline joins two records: the joined line is bad. */
	write_records(path, 0, 0, 5, off);
	data = slurp(path, &len);
	ck_assert_int_eq(data[off[2] - 1], '\n');
	data[off[2] - 1] = ' ';
	spew(path, data, len);
	free(data);
	ck_assert_int_eq(replay(path, &s, &end, &cause), -1);
	want = xasprintf("%s: offset %lld: ", path, (long long)off[1]);
	ck_assert_msg(strncmp(cause, want, strlen(want)) == 0, "cause \"%s\"",
	    cause);
	free(want);
	free(cause);
	assert_seen(&s, 1, off);

	/* A line of junk in the middle. */
	write_records(path, 0, 0, 3, off);
	{
		size_t n2;
		char *d2 = slurp(path, &n2);
		struct strbuf sb = STRBUF_INIT;

		sb_add(&sb, d2, (size_t)off[1]);
		sb_adds(&sb, "not a record\n");
		sb_add(&sb, d2 + off[1], n2 - (size_t)off[1]);
		spew(path, sb.buf, sb.len);
		sb_release(&sb);
		free(d2);
	}
	ck_assert_int_eq(replay(path, &s, &end, &cause), -1);
	want = xasprintf("offset %lld: record has no checksum",
	    (long long)off[1]);
	ck_assert_msg(strstr(cause, want) != NULL, "cause \"%s\"", cause);
	free(want);
	free(cause);
	free(path);
}
END_TEST

START_TEST(test_callback_fails)
{
	char *path = path_in("lsb.events");
	off_t off[MAXREC];
	struct seen s;
	off_t end;
	char *cause = NULL, *want;
	int n = 8, k = _i;

	write_records(path, 0, 0, n, off);
	memset(&s, 0, sizeof(s));
	s.fail_at = k;
	ck_assert_int_eq(evlog_replay(path, record_cb, &s, &end, &cause), -1);
	ck_assert_int_eq(s.n, k + 1);
	ck_assert_ptr_nonnull(cause);
	want = xasprintf("%s: offset %lld:", path, (long long)off[k]);
	ck_assert_msg(strncmp(cause, want, strlen(want)) == 0, "cause \"%s\" "
	    "want \"%s...\"", cause, want);
	ck_assert_ptr_nonnull(strstr(cause, rec_type(k)));
	ck_assert_int_eq(end, off[k]);
	free(want);
	free(cause);
	free(path);
}
END_TEST

START_TEST(test_read_at)
{
	char *path = path_in("lsb.events");
	struct evlog lg;
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT, big = STRBUF_INIT;
	struct strbuf line = STRBUF_INIT;
	struct ev_job_new x, y;
	struct ev_reader r;
	const char *why;
	char *cause;
	off_t oa, ob, obig, oc;
	uint64_t flushes;

	ck_assert_int_eq(evlog_open(&lg, path, 0, &cause), 0);
	test_record(&a, 1);
	test_record(&b, 2);
	/* A record longer than read_at's buffer. */
	fill_job_new(&x, 0);
	free(x.req.command);
	x.req.command = xmalloc(20001);
	for (int i = 0; i < 20000; i++)
		x.req.command[i] = (char)('a' + i % 26);
	x.req.command[20000] = '\0';
	ev_job_new_write(&big, 1, &x);

	oa = evlog_append(&lg, a.buf, a.len);
	ck_assert(evlog_dirty(&lg));
	obig = evlog_append(&lg, big.buf, big.len);
	flushes = lg.nflushes;
	ck_assert_int_eq(evlog_flush(&lg), 0);
	ck_assert_uint_eq(lg.nflushes, flushes + 1);
	ck_assert(!evlog_dirty(&lg));
	/* Nothing pending: flushing again writes nothing. */
	ck_assert_int_eq(evlog_flush(&lg), 0);
	ck_assert_uint_eq(lg.nflushes, flushes + 1);
	ob = evlog_append(&lg, b.buf, b.len);
	ck_assert_int_eq(ob, lg.size);

	/* Flushed. */
	ck_assert_int_eq(evlog_read_at(&lg, oa, &line), 0);
	ck_assert_uint_eq(line.len, a.len - 1);
	ck_assert(memcmp(line.buf, a.buf, line.len) == 0);
	ck_assert_int_eq(evlog_read_at(&lg, obig, &line), 0);
	ck_assert_uint_eq(line.len, big.len - 1);
	ck_assert(memcmp(line.buf, big.buf, line.len) == 0);
	ck_assert_int_eq(evr_init(&r, line.buf, line.len, &why), 0);
	ck_assert_int_eq(ev_job_new_read(&r, &y), 0);
	ck_assert_str_eq(y.req.command, x.req.command);
	ev_job_new_release(&y);
	/* Pending. */
	ck_assert_int_eq(evlog_read_at(&lg, ob, &line), 0);
	ck_assert_uint_eq(line.len, b.len - 1);
	ck_assert(memcmp(line.buf, b.buf, line.len) == 0);
	/* Past everything. */
	ck_assert_int_eq(evlog_read_at(&lg, ob + (off_t)b.len, &line), -1);
	ck_assert_int_eq(evlog_read_at(&lg, ob + 100000, &line), -1);
	/* Pending, then flushed: same text either way. */
	ck_assert_int_eq(evlog_flush(&lg), 0);
	ck_assert_int_eq(evlog_read_at(&lg, ob, &line), 0);
	ck_assert(memcmp(line.buf, b.buf, line.len) == 0);
	ck_assert_int_eq(evlog_read_at(&lg, lg.size, &line), -1);
	/* Close flushes what is pending. */
	oc = evlog_append(&lg, a.buf, a.len);
	evlog_close(&lg);
	ck_assert_int_eq(file_size(path), oc + (off_t)a.len);
	{
		struct seen s;
		off_t end;

		ck_assert_int_eq(replay(path, &s, &end, &cause), 0);
		ck_assert_int_eq(s.n, 4);
		ck_assert_int_eq(s.off[0], oa);
		ck_assert_int_eq(s.off[1], obig);
		ck_assert_int_eq(s.off[2], ob);
		ck_assert_int_eq(s.off[3], oc);
	}
	ev_job_new_release(&x);
	sb_release(&a);
	sb_release(&b);
	sb_release(&big);
	sb_release(&line);
	free(path);
}
END_TEST

START_TEST(test_open_errors)
{
	struct evlog lg;
	char *cause = NULL;
	char *path = xasprintf("%s/no/such/dir/lsb.events", dir);

	ck_assert_int_eq(evlog_open(&lg, path, 0, &cause), -1);
	ck_assert_ptr_nonnull(cause);
	ck_assert_ptr_nonnull(strstr(cause, path));
	ck_assert_int_eq(lg.fd, -1);
	free(cause);
	free(path);
}
END_TEST


/* switching */

START_TEST(test_header_parse)
{
	static const struct {
		const char	*line;
		int		 rc;
		int64_t		 v;
	} cases[] = {
		{ "#0", 1, 0 },
		{ "#0                  ", 1, 0 },
		{ "#12345   ", 1, 12345 },
		{ "#1795519651", 1, 1795519651 },
		{ "#999999999999999999", 1, 999999999999999999LL },
		{ "#", 1, 0 },			/* LSF's placeholder */
		{ "#        ", 1, 0 },
		{ "#12\t", 1, 12 },
		{ "#12x", -1, 0 },
		{ "# 12", -1, 0 },
		{ "#-1", -1, 0 },
		{ "#1000000000000000000", -1, 0 },	/* too long */
		{ "\"JOB_NEW\" \"10.1\" 1 2 @00000000", 0, 0 },
		{ "", 0, 0 },
	};
	char buf[EVLOG_HEADER_LEN + 1];
	const int64_t vals[] = { 0, 1, 4096, 1795519651, 999999999999999999LL };
	const char *why;
	int64_t v;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int rc = evlog_header_parse(cases[i].line,
		    strlen(cases[i].line), &v, &why);

		ck_assert_msg(rc == cases[i].rc, "\"%s\": %d", cases[i].line,
		    rc);
		if (rc == 1)
			ck_assert_int_eq(v, cases[i].v);
		if (rc < 0)
			ck_assert_ptr_nonnull(why);
	}
	for (size_t i = 0; i < sizeof(vals) / sizeof(vals[0]); i++) {
		evlog_header_fmt(buf, vals[i]);
		ck_assert_uint_eq(strlen(buf), EVLOG_HEADER_LEN);
		ck_assert_int_eq(buf[EVLOG_HEADER_LEN - 1], '\n');
		ck_assert_int_eq(evlog_header_parse(buf, EVLOG_HEADER_LEN - 1,
		    &v, &why), 1);
		ck_assert_int_eq(v, vals[i]);
	}
}
END_TEST

START_TEST(test_log_switch_record)
{
	struct strbuf sb = STRBUF_INIT;
	struct ev_log_switch x = { .last_jobid = 4711 }, y;
	struct ev_reader r;
	const char *why;
	static const char *const bad[] = {
		"\"LOG_SWITCH\" \"10.1\" 1700000000",
		"\"LOG_SWITCH\" \"10.1\" 1700000000 -5",
		"\"LOG_SWITCH\" \"10.1\" 1700000000 \"12\"",
		"\"LOG_SWITCH\" \"10.1\" 1700000000 12x",
		"\"LOG_SWITCH\" \"10.1\" 1700000000 99999999999999999999",
	};

	ev_log_switch_write(&sb, 1700000000, &x);
	ck_assert_str_eq(sb.buf, "\"LOG_SWITCH\" \"10.1\" 1700000000 4711 "
	    "@56ba212b\n");
	ck_assert_int_eq(evr_init(&r, sb.buf, sb.len - 1, &why), 0);
	ck_assert_str_eq(r.type, "LOG_SWITCH");
	ck_assert_int_eq(ev_log_switch_read(&r, &y), 0);
	ck_assert_int_eq(y.last_jobid, 4711);
	ev_log_switch_release(&y);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		size_t start;

		sb_reset(&sb);
		sb_adds(&sb, bad[i]);
		start = 0;
		ev_end(&sb, start);
		ck_assert_int_eq(evr_init(&r, sb.buf, sb.len - 1, &why), 0);
		ck_assert_msg(ev_log_switch_read(&r, &y) == -1, "%s", bad[i]);
	}
	/* A newer record's extra fields are ignored. */
	sb_reset(&sb);
	sb_adds(&sb, "\"LOG_SWITCH\" \"10.1\" 1700000000 12 \"more\" 3");
	ev_end(&sb, 0);
	ck_assert_int_eq(evr_init(&r, sb.buf, sb.len - 1, &why), 0);
	ck_assert_int_eq(ev_log_switch_read(&r, &y), 0);
	ck_assert_int_eq(y.last_jobid, 12);
	sb_release(&sb);
}
END_TEST

/* Classify the record in sb. */
static int
classify(const struct strbuf *sb, struct ev_sw_rec *x)
{
	struct ev_reader r;
	const char *why;

	ck_assert_int_eq(evr_init(&r, sb->buf, sb->len - 1, &why), 0);
	return ev_sw_classify(&r, x);
}

static void
ctrl_record(struct strbuf *sb, const char *type, int op, const char *name,
    int64_t when)
{
	struct ev_ctrl c = { op, (char *)name, 0, (char *)"root", NULL };

	sb_reset(sb);
	ev_ctrl_put(sb, when, type, &c);
}

START_TEST(test_switch_classify)
{
	struct strbuf sb = STRBUF_INIT;
	struct ev_sw_rec x;

	{
		struct ev_job_new n;

		fill_job_new(&n, 0);
		n.jobid = 17;
		ev_job_new_write(&sb, 1, &n);
		ev_job_new_release(&n);
		ck_assert_int_eq(classify(&sb, &x), 0);
		ck_assert_int_eq(x.kind, EVSW_JOB);
		ck_assert_int_eq(x.jobid, 17);
		ck_assert(x.job_new);
		ev_sw_rec_release(&x);
	}
	{
		struct ev_job_clean c = { 18, 0 };

		sb_reset(&sb);
		ev_job_clean_write(&sb, 1, &c);
		ck_assert_int_eq(classify(&sb, &x), 0);
		ck_assert_int_eq(x.kind, EVSW_JOB);
		ck_assert_int_eq(x.jobid, 18);
		ck_assert(!x.job_new);
		ck_assert(x.job_clean);
		ev_sw_rec_release(&x);
	}
	{
		/* userId first, then the job. */
		struct ev_job_move m = { 1000, 19, 1, 1, 3, (char *)"u", EV_MOVE_ALL };
		struct ev_job_switch w = { 1000, 20, (char *)"q", 0,
		    (char *)"u" };

		sb_reset(&sb);
		ev_job_move_write(&sb, 1, &m);
		ck_assert_int_eq(classify(&sb, &x), 0);
		ck_assert_int_eq(x.kind, EVSW_JOB);
		ck_assert_int_eq(x.jobid, 19);
		ck_assert_int_eq(x.move_pos, 1);
		ev_sw_rec_release(&x);
		sb_reset(&sb);
		ev_job_switch_write(&sb, 1, &w);
		ck_assert_int_eq(classify(&sb, &x), 0);
		ck_assert_int_eq(x.jobid, 20);
		ev_sw_rec_release(&x);
	}
	{
		/* JOB_MODIFY2 names its job by a string, with its index. */
		struct ev_job_modify m;

		memset(&m, 0, sizeof(m));
		submit_req_init(&m.req);
		m.jobid = 21;
		m.idx = 4;
		m.user = (char *)"u";
		sb_reset(&sb);
		ev_job_modify_write(&sb, 1, &m);
		ck_assert_int_eq(classify(&sb, &x), 0);
		ck_assert_int_eq(x.kind, EVSW_JOB);
		ck_assert_int_eq(x.jobid, 21);
		ck_assert_int_eq(x.idx, 4);
		ev_sw_rec_release(&x);
		sb_reset(&sb);
		sb_adds(&sb, "\"JOB_MODIFY2\" \"10.1\" 1 \"21[x]\" 0");
		ev_end(&sb, 0);
		ck_assert_int_eq(classify(&sb, &x), -1);
		ev_sw_rec_release(&x);
		sb_reset(&sb);
		sb_adds(&sb, "\"JOB_MODIFY2\" \"10.1\" 1 \"\" 0");
		ev_end(&sb, 0);
		ck_assert_int_eq(classify(&sb, &x), -1);
		ev_sw_rec_release(&x);
	}
	/* A job record whose job ID is not one. */
	sb_reset(&sb);
	sb_adds(&sb, "\"JOB_STATUS\" \"10.1\" 1 \"12\" 64");
	ev_end(&sb, 0);
	ck_assert_int_eq(classify(&sb, &x), -1);
	ev_sw_rec_release(&x);
	sb_reset(&sb);
	sb_adds(&sb, "\"JOB_START\" \"10.1\" 1 0 4");
	ev_end(&sb, 0);
	ck_assert_int_eq(classify(&sb, &x), -1);
	ev_sw_rec_release(&x);

	/* Control records: one key per piece of state. */
	ctrl_record(&sb, "HOST_CTRL", 2, "hostc", 1);
	ck_assert_int_eq(classify(&sb, &x), 0);
	ck_assert_int_eq(x.kind, EVSW_CTRL);
	ck_assert_str_eq(x.key, "Ho hostc");
	ev_sw_rec_release(&x);
	ctrl_record(&sb, "HOST_CTRL", 3, "hostc", 1);	/* sbatchd restart */
	ck_assert_int_eq(classify(&sb, &x), 0);
	ck_assert_int_eq(x.kind, EVSW_DROP);
	ev_sw_rec_release(&x);
	ctrl_record(&sb, "QUEUE_CTRL", 1, "short", 1);
	ck_assert_int_eq(classify(&sb, &x), 0);
	ck_assert_str_eq(x.key, "Qo short");
	ev_sw_rec_release(&x);
	ctrl_record(&sb, "QUEUE_CTRL", 4, "short", 1);
	ck_assert_int_eq(classify(&sb, &x), 0);
	ck_assert_str_eq(x.key, "Qa short");
	ev_sw_rec_release(&x);
	ctrl_record(&sb, "QUEUE_CTRL", 9, "short", 1);
	ck_assert_int_eq(classify(&sb, &x), 0);
	ck_assert_int_eq(x.kind, EVSW_DROP);
	ev_sw_rec_release(&x);

	/* History alone, and types this version does not know. */
	{
		struct ev_mbd_start m = { (char *)"hosta", (char *)"c1", 3, 2,
		    (char *)"root" };
		struct ev_log_switch l = { 5 };

		sb_reset(&sb);
		ev_mbd_start_write(&sb, 1, &m);
		ck_assert_int_eq(classify(&sb, &x), 0);
		ck_assert_int_eq(x.kind, EVSW_DROP);
		sb_reset(&sb);
		ev_log_switch_write(&sb, 1, &l);
		ck_assert_int_eq(classify(&sb, &x), 0);
		ck_assert_int_eq(x.kind, EVSW_DROP);
		sb_reset(&sb);
		sb_adds(&sb, "\"JOB_ATTR_SET\" \"10.1\" 1 12 0");
		ev_end(&sb, 0);
		ck_assert_int_eq(classify(&sb, &x), 0);
		ck_assert_int_eq(x.kind, EVSW_DROP);
	}
	sb_release(&sb);
}
END_TEST

START_TEST(test_switch_select)
{
	struct strbuf sb = STRBUF_INIT;
	struct ev_sw_sel sel;
	struct ev_sw_rec x[6];
	static const struct {
		const char	*type;
		int		 op;
		const char	*name;
		bool		 keep;
	} recs[] = {
		{ "HOST_CTRL", 2, "hostc", false },	/* opened later */
		{ "QUEUE_CTRL", 2, "short", true },
		{ "HOST_CTRL", 1, "hostc", true },
		{ "QUEUE_CTRL", 4, "short", false },	/* activated later */
		{ "QUEUE_CTRL", 3, "short", true },
		{ "HOST_CTRL", 2, "hostb", true },
	};

	ev_sw_sel_init(&sel);
	for (int i = 0; i < 6; i++) {
		ctrl_record(&sb, recs[i].type, recs[i].op, recs[i].name, i);
		ck_assert_int_eq(classify(&sb, &x[i]), 0);
		ev_sw_note(&sel, &x[i], 100 * i, false);
	}
	ev_sw_decide(&sel);
	for (int i = 0; i < 6; i++) {
		ck_assert_msg(ev_sw_keep(&sel, &x[i], 100 * i, false) ==
		    recs[i].keep, "record %d", i);
		ev_sw_rec_release(&x[i]);
	}
	/* Job records go with their job. */
	{
		struct ev_sw_rec j = { .kind = EVSW_JOB, .jobid = 5,
		    .job_new = true };
		struct ev_sw_rec d = { .kind = EVSW_DROP };

		ck_assert(ev_sw_keep(&sel, &j, 700, true));
		ck_assert(!ev_sw_keep(&sel, &j, 700, false));
		ck_assert(!ev_sw_keep(&sel, &d, 800, true));
	}
	ev_sw_sel_release(&sel);
	sb_release(&sb);
}
END_TEST

/*
 * Moves to a position above 1 counted the jobs then in memory: those
 * gone since are copied whole, and so, in turn, are the jobs their own
 * such moves counted.
 */
START_TEST(test_switch_moves)
{
	static const struct {
		off_t		 off;
		int64_t		 jobid;
		char		 what;	/* n new, c clean, m move, s status */
		int		 pos;
		bool		 live;
		bool		 keep;
	} recs[] = {
		{ 10, 8, 'n', 0, false, false },  /* gone before 120 */
		{ 50, 6, 'n', 0, false, true },   /* there at 400 */
		{ 60, 7, 'n', 0, false, true },   /* there at 6's move */
		{ 100, 1, 'n', 0, false, true },  /* there at 400 */
		{ 110, 8, 'c', 0, false, false },
		{ 120, 6, 'm', 2, false, true },  /* 6's own move counts */
		{ 130, 7, 'c', 0, false, true },
		{ 200, 2, 'n', 0, false, false }, /* gone before 400 */
		{ 210, 2, 's', 0, false, false },
		{ 250, 2, 'c', 0, false, false },
		{ 300, 3, 'n', 0, true, true },
		{ 350, 9, 'n', 0, false, false }, /* never cleaned: not
						   * copied (not live) */
		{ 360, 10, 'n', 0, false, false },/* a plain btop, gone
						   * before 400 */
		{ 370, 10, 'm', 1, false, false },
		{ 390, 10, 'c', 0, false, false },
		{ 400, 3, 'm', 2, true, true },   /* btop 3 to position 2 */
		{ 450, 5, 'n', 0, false, false }, /* after it */
		{ 460, 5, 'm', 3, false, false },
		{ 500, 1, 's', 0, false, true },
		{ 510, 1, 'c', 0, false, true },
		{ 600, 6, 'c', 0, false, true },
		{ 900, 5, 'c', 0, false, false },
	};
	const size_t n = sizeof(recs) / sizeof(recs[0]);
	struct ev_sw_sel sel;
	struct ev_sw_rec x;

	for (int with_move = 0; with_move < 2; with_move++) {
		ev_sw_sel_init(&sel);
		for (size_t i = 0; i < n; i++) {
			memset(&x, 0, sizeof(x));
			x.kind = EVSW_JOB;
			x.jobid = recs[i].jobid;
			x.job_new = recs[i].what == 'n';
			x.job_clean = recs[i].what == 'c';
			x.move_pos = recs[i].what == 'm' ? recs[i].pos : 0;
			/* Without the live job's move, nothing gone is
			 * kept. */
			if (!with_move && recs[i].off == 400)
				x.move_pos = 1;
			ev_sw_note(&sel, &x, recs[i].off, recs[i].live);
		}
		ev_sw_decide(&sel);
		for (size_t i = 0; i < n; i++) {
			memset(&x, 0, sizeof(x));
			x.kind = EVSW_JOB;
			x.jobid = recs[i].jobid;
			ck_assert_msg(ev_sw_keep(&sel, &x, recs[i].off,
			    recs[i].live) == (with_move ? recs[i].keep :
			    recs[i].live), "record at %lld, move %d",
			    (long long)recs[i].off, with_move);
		}
		ev_sw_sel_release(&sel);
	}
}
END_TEST

static bool
live_set(void *arg, int64_t jobid)
{
	const int64_t *ids = arg;

	for (; *ids; ids++)
		if (*ids == jobid)
			return true;
	return false;
}

static int
collect_cb(void *arg, struct ev_reader *r, off_t off)
{
	struct strbuf *types = arg;
	int64_t id = 0;

	if (strncmp(r->type, "JOB_", 4) == 0 || strcmp(r->type,
	    "LOG_SWITCH") == 0)
		evr_int(r, &id);
	sb_addf(types, "%s:%lld ", r->type, (long long)id);
	return 0;
}

static void
append(struct evlog *lg, struct strbuf *sb)
{
	evlog_append(lg, sb->buf, sb->len);
	sb_reset(sb);
}

/* evlog_history_start_fd of a file by name. */
static int
history_start(const char *path, off_t *start, char **cause)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), rc;

	ck_assert_int_ge(fd, 0);
	rc = evlog_history_start_fd(fd, path, start, cause);
	close(fd);
	return rc;
}

/* A log with jobs 1 (cleaned), 2 and 3 (live), a host closed and
 * opened, a queue closed, and mbatchd's start. */
static void
build_log(struct evlog *lg, const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	char *cause;

	ck_assert_int_eq(evlog_open(lg, path, 0, &cause), 0);
	{
		struct ev_mbd_start m = { (char *)"hosta", (char *)"c1", 3, 2,
		    (char *)"root" };

		ev_mbd_start_write(&sb, 1700000000, &m);
		append(lg, &sb);
	}
	for (int64_t id = 1; id <= 3; id++) {
		struct ev_job_new n;

		fill_job_new(&n, (int)id);
		n.jobid = id;
		ev_job_new_write(&sb, 1700000000 + id, &n);
		ev_job_new_release(&n);
		append(lg, &sb);
	}
	ctrl_record(&sb, "HOST_CTRL", 2, "hostc", 1700000010);
	append(lg, &sb);
	{
		struct ev_job_status st;

		memset(&st, 0, sizeof(st));
		st.jobid = 1;
		st.status = JOB_STAT_DONE;
		ev_job_status_write(&sb, 1700000011, &st);
		append(lg, &sb);
	}
	ctrl_record(&sb, "QUEUE_CTRL", 2, "short", 1700000012);
	append(lg, &sb);
	ctrl_record(&sb, "HOST_CTRL", 1, "hostc", 1700000013);
	append(lg, &sb);
	{
		struct ev_job_clean c = { 1, 0 };
		struct ev_job_move m = { 0, 3, 1, 1, 0, (char *)"root", EV_MOVE_ALL };

		ev_job_clean_write(&sb, 1700000014, &c);
		append(lg, &sb);
		ev_job_move_write(&sb, 1700000015, &m);
		append(lg, &sb);
	}
	ck_assert_int_eq(evlog_flush(lg), 0);
	sb_release(&sb);
}

/* Is there a file of that name in the test's directory? */
static bool
in_dir(const char *name)
{
	char *p = path_in(name);
	bool yes = access(p, F_OK) == 0;

	free(p);
	return yes;
}

static char *
first_line(const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	char *nl, *s;

	ck_assert_int_eq(read_file(path, &sb), 0);
	nl = strchr(sb.buf, '\n');
	s = xstrndup(sb.buf, nl ? (size_t)(nl - sb.buf) : sb.len);
	sb_release(&sb);
	return s;
}

/* A record of a type this version does not know (a newer mbatchd's):
 * counted and named by the switch, left in lsb.events.1, not copied. */
START_TEST(test_switch_unknown_type)
{
	char *path = path_in("lsb.events"), *one = path_in("lsb.events.1");
	int64_t live[] = { 1, 0 };
	struct evlog_switch_ops ops = { live_set, live, 1, 1700000100, NULL };
	struct evlog_switch_result res;
	struct strbuf sb = STRBUF_INIT, types = STRBUF_INIT;
	struct strbuf old = STRBUF_INIT;
	struct ev_job_new n;
	struct evlog lg;
	bool committed;
	char *cause;
	off_t end;
	size_t at;

	ck_assert_int_eq(evlog_open(&lg, path, 0, &cause), 0);
	fill_job_new(&n, 1);
	n.jobid = 1;
	ev_job_new_write(&sb, 1700000001, &n);
	ev_job_new_release(&n);
	append(&lg, &sb);
	at = sb.len;
	ev_begin(&sb, "JOB_FUTURE", 1700000002);
	ev_int(&sb, 1);
	ev_str(&sb, "x");
	ev_end(&sb, at);
	append(&lg, &sb);
	ck_assert_int_eq(evlog_flush(&lg), 0);
	ck_assert_int_eq(evlog_switch(&lg, &ops, &res, &committed, &cause),
	    0);
	ck_assert_uint_eq(res.nread, 2);
	ck_assert_uint_eq(res.nunknown, 1);
	ck_assert_str_eq(res.unknown_type, "JOB_FUTURE");
	ck_assert_int_eq(evlog_replay(path, collect_cb, &types, &end, &cause),
	    0);
	ck_assert_str_eq(types.buf, "JOB_NEW:1 LOG_SWITCH:1 ");
	ck_assert_int_eq(read_file(one, &old), 0);
	ck_assert_ptr_nonnull(strstr(old.buf, "\"JOB_FUTURE\""));
	free(res.moved);
	evlog_close(&lg);
	sb_release(&sb);
	sb_release(&types);
	sb_release(&old);
	free(path);
	free(one);
}
END_TEST

START_TEST(test_switch_file)
{
	char *path = path_in("lsb.events"), *one = path_in("lsb.events.1");
	char *two = path_in("lsb.events.2"), *cause, *hdr;
	int64_t live[] = { 2, 3, 0 };
	struct evlog_switch_ops ops = { live_set, live, 3, 1700000100, NULL };
	struct evlog_switch_result res;
	struct strbuf before = STRBUF_INIT, after = STRBUF_INIT;
	struct strbuf types = STRBUF_INIT, line = STRBUF_INIT;
	struct evlog lg;
	struct stat st;
	bool committed;
	off_t end, start;
	int64_t v;
	long *gen;
	size_t ngen;

	build_log(&lg, path);
	ck_assert_int_eq(read_file(path, &before), 0);
	ck_assert_int_eq(evlog_switch(&lg, &ops, &res, &committed, &cause),
	    0);
	ck_assert(committed);
	ck_assert(!res.header_failed);
	ck_assert_uint_eq(res.nread, 10);
	ck_assert_uint_eq(res.ncopied, 5);
	ck_assert_int_eq(res.generations, 0);
	ck_assert_int_eq(res.old_size, before.len);

	/* The old file, whole, as lsb.events.1, dated by its newest. */
	ck_assert_int_eq(read_file(one, &after), 0);
	ck_assert_uint_eq(after.len, before.len);
	ck_assert(memcmp(after.buf + EVLOG_HEADER_LEN,
	    before.buf + EVLOG_HEADER_LEN, before.len - EVLOG_HEADER_LEN) == 0);
	hdr = first_line(one);
	ck_assert_str_eq(hdr, "#1700000015         ");
	free(hdr);
	ck_assert(!in_dir("lsb.events.tmp"));

	/* The fresh one: the live jobs' records, the last control of
	 * each, LOG_SWITCH, and "#<offset>" after it. */
	ck_assert_int_eq(evlog_header_read(path, &v, &cause), 1);
	ck_assert_int_eq(v, res.new_size);
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert_int_eq(st.st_size, res.new_size);
	ck_assert_int_eq(lg.size, res.new_size);
	ck_assert_int_eq(history_start(path, &start, &cause), 0);
	ck_assert_int_eq(start, res.new_size);
	ck_assert_int_eq(evlog_replay(path, collect_cb, &types, &end, &cause),
	    0);
	ck_assert_str_eq(types.buf, "JOB_NEW:2 JOB_NEW:3 QUEUE_CTRL:0 "
	    "HOST_CTRL:0 JOB_MOVE:0 LOG_SWITCH:3 ");
	ck_assert_int_eq(end, res.new_size);

	/* Where the JOB_NEWs went, and reading them back there. */
	ck_assert_uint_eq(res.nmoved, 2);
	ck_assert_int_eq(res.moved[0].jobid, 2);
	ck_assert_int_eq(res.moved[0].off, EVLOG_HEADER_LEN);
	ck_assert_int_eq(res.moved[1].jobid, 3);
	ck_assert_int_eq(evlog_read_at(&lg, res.moved[1].off, &line), 0);
	ck_assert(strncmp(line.buf, "\"JOB_NEW\" \"10.1\" 1700000003 3 ",
	    30) == 0);
	free(res.moved);

	/* Appends go to the fresh file. */
	{
		struct strbuf sb = STRBUF_INIT;
		struct ev_job_clean c = { 2, 0 };
		off_t o;

		ev_job_clean_write(&sb, 1700000200, &c);
		o = evlog_append(&lg, sb.buf, sb.len);
		ck_assert_int_eq(o, res.new_size);
		ck_assert_int_eq(evlog_flush(&lg), 0);
		sb_release(&sb);
	}
	sb_reset(&types);
	ck_assert_int_eq(evlog_replay(path, collect_cb, &types, &end, &cause),
	    0);
	ck_assert(strstr(types.buf, "LOG_SWITCH:3 JOB_CLEAN:2 ") != NULL);

	/* A second switch: generations move up; job 2 is gone now. */
	live[0] = 3;
	live[1] = 0;
	ops.last_jobid = 9;
	ck_assert_int_eq(evlog_switch(&lg, &ops, &res, &committed, &cause),
	    0);
	ck_assert_int_eq(res.generations, 1);
	free(res.moved);
	ck_assert_int_eq(read_file(two, &after), 0);
	ck_assert(memcmp(after.buf + EVLOG_HEADER_LEN,
	    before.buf + EVLOG_HEADER_LEN, before.len - EVLOG_HEADER_LEN) == 0);
	sb_reset(&types);
	ck_assert_int_eq(evlog_replay(path, collect_cb, &types, &end, &cause),
	    0);
	ck_assert_str_eq(types.buf, "JOB_NEW:3 QUEUE_CTRL:0 HOST_CTRL:0 "
	    "JOB_MOVE:0 LOG_SWITCH:9 ");
	ck_assert_int_eq(evlog_generations(path, &gen, &ngen, &cause), 0);
	ck_assert_uint_eq(ngen, 2);
	ck_assert_int_eq(gen[0], 2);
	ck_assert_int_eq(gen[1], 1);
	free(gen);
	/* The first generation has no copied part; the second has. */
	ck_assert_int_eq(history_start(two, &start, &cause), 0);
	ck_assert_int_eq(start, 0);
	ck_assert_int_eq(history_start(one, &start, &cause), 0);
	ck_assert_int_gt(start, EVLOG_HEADER_LEN);

	evlog_close(&lg);
	sb_release(&before);
	sb_release(&after);
	sb_release(&types);
	sb_release(&line);
	free(path);
	free(one);
	free(two);
}
END_TEST

/* A switch that stopped after linking lsb.events.1 leaves it a second
 * name of lsb.events: the next switch does not keep it twice. */
START_TEST(test_switch_leftover_link)
{
	char *path = path_in("lsb.events"), *one = path_in("lsb.events.1");
	char *two = path_in("lsb.events.2"), *cause;
	int64_t live[] = { 0 };
	struct evlog_switch_ops ops = { live_set, live, 3, 1700000100, NULL };
	struct evlog_switch_result res;
	struct evlog lg;
	bool committed;

	build_log(&lg, path);
	ck_assert_int_eq(link(path, one), 0);
	/* and a half-written fresh file */
	{
		char *tmp = path_in("lsb.events.tmp");
		int fd = open(tmp, O_WRONLY | O_CREAT, 0644);

		free(tmp);
		ck_assert_int_ge(fd, 0);
		ck_assert_int_eq(write(fd, "junk", 4), 4);
		close(fd);
	}
	ck_assert_int_eq(evlog_switch(&lg, &ops, &res, &committed, &cause),
	    0);
	free(res.moved);
	ck_assert_int_eq(access(one, F_OK), 0);
	ck_assert_int_eq(access(two, F_OK), -1);
	ck_assert_int_eq(res.ncopied, 2);	/* the host and the queue */
	evlog_close(&lg);
	free(path);
	free(one);
	free(two);
}
END_TEST

/* The switch number a generation's LOG_SWITCH record holds (the tests
 * give switch i last_jobid i), or 0 for the first file, which has none;
 * -1 if it has more than one. */
static long
switch_no(const struct evlog_gen *g)
{
	struct strbuf types = STRBUF_INIT;
	const char *p, *q;
	char *cause;
	off_t end;
	long no = 0;

	ck_assert_int_eq(evlog_replay_fd(g->fd, g->path, collect_cb, &types,
	    &end, &cause), 0);
	if ((p = strstr(types.buf ? types.buf : "", "LOG_SWITCH:")) != NULL) {
		no = strtol(p + 11, NULL, 10);
		if ((q = strstr(p + 1, "LOG_SWITCH:")) != NULL)
			no = -1;
	}
	sb_release(&types);
	return no;
}

/* Generations are taken oldest first, lsb.events last, and a leftover
 * second name of lsb.events is read once. */
START_TEST(test_gens_open)
{
	char *path = path_in("lsb.events"), *one = path_in("lsb.events.1");
	char *cause;
	int64_t live[] = { 2, 3, 0 };
	struct evlog_switch_ops ops = { live_set, live, 1, 1700000100, NULL };
	struct evlog_switch_result res;
	struct evlog_gens gs;
	struct evlog lg;
	bool committed;

	/* No log at all: an error that names it. */
	ck_assert_int_eq(evlog_gens_open(path, &gs, &cause), -1);
	ck_assert_ptr_nonnull(strstr(cause, "lsb.events"));
	ck_assert_ptr_nonnull(strstr(cause, strerror(ENOENT)));
	free(cause);

	build_log(&lg, path);
	ck_assert_int_eq(evlog_gens_open(path, &gs, &cause), 0);
	ck_assert_uint_eq(gs.n, 1);
	ck_assert_str_eq(gs.v[0].path, path);
	evlog_gens_release(&gs);

	for (int i = 1; i <= 2; i++) {
		ops.last_jobid = i;
		ck_assert_int_eq(evlog_switch(&lg, &ops, &res, &committed,
		    &cause), 0);
		free(res.moved);
	}
	ck_assert_int_eq(evlog_gens_open(path, &gs, &cause), 0);
	ck_assert_uint_eq(gs.n, 3);
	ck_assert(strcmp(gs.v[0].path + strlen(path), ".2") == 0);
	ck_assert(strcmp(gs.v[1].path + strlen(path), ".1") == 0);
	ck_assert_str_eq(gs.v[2].path, path);
	for (size_t i = 0; i < gs.n; i++)
		ck_assert_int_eq(switch_no(&gs.v[i]), (long)i);
	evlog_gens_release(&gs);

	/* A switch that stopped after its link: lsb.events.1 (moved up
	 * first, as the switch does) is lsb.events again. */
	{
		char *two = path_in("lsb.events.2");
		char *three = path_in("lsb.events.3");

		ck_assert_int_eq(rename(two, three), 0);
		ck_assert_int_eq(rename(one, two), 0);
		ck_assert_int_eq(link(path, one), 0);
		free(two);
		free(three);
	}
	ck_assert_int_eq(evlog_gens_open(path, &gs, &cause), 0);
	ck_assert_uint_eq(gs.n, 3);
	ck_assert_str_eq(gs.v[2].path, path);
	for (size_t i = 0; i < gs.n; i++)
		ck_assert_int_eq(switch_no(&gs.v[i]), (long)i);
	evlog_gens_release(&gs);
	evlog_close(&lg);
	free(path);
	free(one);
}
END_TEST

/* Sets taken while another process switches the log over and over: each
 * holds every generation once, in order, with none missing. */
START_TEST(test_gens_open_during_switches)
{
	enum { SWITCHES = 150 };
	char *path = path_in("lsb.events"), *cause;
	struct evlog lg;
	struct evlog_gens gs;
	int64_t live[] = { 2, 3, 0 };
	int status, sets = 0;
	long last = -1;
	pid_t pid;

	build_log(&lg, path);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		struct evlog_switch_ops ops = { live_set, live, 0,
		    1700000100, NULL };
		struct evlog_switch_result res;
		bool committed;

		for (int i = 1; i <= SWITCHES; i++) {
			ops.last_jobid = i;
			if (evlog_switch(&lg, &ops, &res, &committed,
			    &cause) < 0)
				_exit(1);
			free(res.moved);
		}
		_exit(0);
	}
	for (;;) {
		bool over = waitpid(pid, &status, WNOHANG) == pid;

		ck_assert_int_eq(evlog_gens_open(path, &gs, &cause), 0);
		for (size_t i = 0; i < gs.n; i++)
			ck_assert_int_eq(switch_no(&gs.v[i]), (long)i);
		ck_assert_int_ge((long)gs.n - 1, last);
		last = (long)gs.n - 1;
		evlog_gens_release(&gs);
		sets++;
		if (over)
			break;
	}
	ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	ck_assert_int_eq(last, SWITCHES);
	ck_assert_int_gt(sets, 1);
	evlog_close(&lg);
	free(path);
}
END_TEST

/* A log from before headers switches too; its first line stays. */
START_TEST(test_switch_no_header)
{
	char *path = path_in("lsb.events"), *one = path_in("lsb.events.1");
	char *cause, *l1;
	int64_t live[] = { 1, 0 }, v;
	struct evlog_switch_ops ops = { live_set, live, 7, 1700000100, NULL };
	struct evlog_switch_result res;
	struct strbuf sb = STRBUF_INIT;
	struct evlog lg;
	bool committed;
	off_t end;

	test_record(&sb, 0);	/* JOB_NEW 100 */
	{
		struct ev_job_new n;

		fill_job_new(&n, 1);
		n.jobid = 1;
		ev_job_new_write(&sb, 1700000001, &n);
		ev_job_new_release(&n);
	}
	{
		int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

		ck_assert_int_ge(fd, 0);
		ck_assert_int_eq(write_all(fd, sb.buf, sb.len), 0);
		close(fd);
	}
	end = (off_t)sb.len;
	ck_assert_int_eq(evlog_open(&lg, path, end, &cause), 0);
	ck_assert_int_eq(evlog_switch(&lg, &ops, &res, &committed, &cause),
	    0);
	ck_assert_uint_eq(res.ncopied, 1);
	ck_assert_uint_eq(res.nmoved, 1);
	free(res.moved);
	l1 = first_line(one);
	ck_assert(strncmp(l1, "\"JOB_NEW\"", 9) == 0);
	free(l1);
	ck_assert_int_eq(evlog_header_read(path, &v, &cause), 1);
	ck_assert_int_eq(v, res.new_size);
	evlog_close(&lg);
	sb_release(&sb);
	free(path);
	free(one);
}
END_TEST

/* Nothing may be pending, and a failure before the rename changes
 * nothing. */
START_TEST(test_switch_refused)
{
	char *path = path_in("lsb.events"), *cause;
	int64_t live[] = { 2, 0 };
	struct evlog_switch_ops ops = { live_set, live, 3, 1700000100, NULL };
	struct evlog_switch_result res;
	struct strbuf sb = STRBUF_INIT, before = STRBUF_INIT;
	struct strbuf after = STRBUF_INIT;
	struct evlog lg;
	bool committed;

	build_log(&lg, path);
	test_record(&sb, 1);
	evlog_append(&lg, sb.buf, sb.len);
	ck_assert_int_eq(evlog_switch(&lg, &ops, &res, &committed, &cause),
	    -1);
	ck_assert(!committed);
	ck_assert_ptr_nonnull(strstr(cause, "not ready"));
	free(cause);
	ck_assert_int_eq(evlog_flush(&lg), 0);
	ck_assert_int_eq(read_file(path, &before), 0);
	/* The fresh file cannot be made: a directory has its name. */
	{
		char *tmp = path_in("lsb.events.tmp");

		ck_assert_int_eq(mkdir(tmp, 0755), 0);
		free(tmp);
	}
	ck_assert_int_eq(evlog_switch(&lg, &ops, &res, &committed, &cause),
	    -1);
	ck_assert(!committed);
	ck_assert_ptr_nonnull(strstr(cause, "lsb.events.tmp"));
	free(cause);
	ck_assert_ptr_null(res.moved);
	ck_assert_int_eq(read_file(path, &after), 0);
	ck_assert_uint_eq(after.len, before.len);
	ck_assert(memcmp(after.buf, before.buf, before.len) == 0);
	ck_assert(!in_dir("lsb.events.1"));
	ck_assert_int_eq(lg.size, (off_t)before.len);
	evlog_close(&lg);
	sb_release(&sb);
	sb_release(&before);
	sb_release(&after);
	free(path);
}
END_TEST

/*
 * lsb.acct's JOB_FINISH (acct.c): LSF's fields at LSF's positions (the
 * sample of IBM's lsb.acct reference has jobId 4th, userName 12th,
 * jStatus after the host lists, exitStatus after the 19 rusage fields;
 * the same positions as in that sample),
 * and read back whole.
 */
START_TEST(test_acct_finish)
{
	struct acct_finish x, y;
	struct strbuf sb = STRBUF_INIT;
	struct ev_reader r;
	char *copy, *tok[200], *p;
	int n = 0;

	acct_finish_init(&x);
	x.end_time = 1700000100;
	x.jobid = 7610;
	x.uid = 1000;
	x.options = 0x2000006;
	x.num_procs = x.max_procs = 2;
	x.submit_time = 1700000000;
	x.start_time = 1700000001;
	x.user = "lsfadmin";
	x.queue = "normal";
	x.from_host = "master";
	x.cwd = "/home/u";
	x.out_file = "o.%J";
	x.job_file = "1700000000.7610";
	strv_push(&x.exec_hosts, "hostA");
	strv_push(&x.exec_hosts, "hostB");
	x.status = JOB_STAT_EXIT;
	x.host_factor = 60.0;
	x.job_name = "say \"hi\"";
	x.command = "sleep 1000";
	x.utime = 1.5;
	x.stime = 0.25;
	x.maxrss = 2048;
	x.project = "default";
	x.exit_status = 65280;
	x.idx = 3;
	x.max_mem_kb = 2048;
	x.exit_info = 14;
	x.except_mask = JOB_EXC_UNDERRUN | JOB_EXC_IDLE;
	x.options2 = 5136;
	x.run_limit = 600;
	x.avg_mem_kb = 1024;
	x.effective_res_req = "select[type == any] order[r15s:pg] ";
	acct_finish_write(&sb, &x);
	open_rec(&r, &sb, "JOB_FINISH", 1700000100);

	/* By position, blanks outside quotes splitting the fields. */
	copy = xstrdup(sb.buf);
	for (p = copy; *p && *p != '\n' && n < 200;) {
		tok[n++] = p;
		if (*p == '"') {
			for (p++; *p && !(p[0] == '"' && p[1] != '"'); p++)
				if (p[0] == '"')
					p++;
			p++;
		} else {
			while (*p && *p != ' ' && *p != '\n')
				p++;
		}
		if (*p)
			*p++ = '\0';
	}
	ck_assert_str_eq(tok[3], "7610");
	ck_assert_str_eq(tok[4], "1000");
	ck_assert_str_eq(tok[11], "\"lsfadmin\"");
	ck_assert_str_eq(tok[12], "\"normal\"");
	ck_assert_str_eq(tok[21], "\"1700000000.7610\"");
	ck_assert_str_eq(tok[22], "0");			/* numAskedHosts */
	ck_assert_str_eq(tok[23], "2");			/* numExHosts */
	ck_assert_str_eq(tok[26], "32");		/* jStatus */
	ck_assert_str_eq(tok[27], "60.0");		/* hostFactor */
	ck_assert_str_eq(tok[28], "\"say \"\"hi\"\"\"");
	ck_assert_str_eq(tok[30], "1.500000");		/* ru_utime */
	ck_assert_str_eq(tok[31], "0.250000");
	ck_assert_str_eq(tok[32], "2048");		/* ru_maxrss */
	ck_assert_str_eq(tok[48], "-1");		/* exutime */
	ck_assert_str_eq(tok[49], "\"\"");		/* mailUser */
	ck_assert_str_eq(tok[50], "\"default\"");
	ck_assert_str_eq(tok[51], "65280");		/* exitStatus */
	ck_assert_str_eq(tok[52], "2");			/* maxNumProcessors */
	ck_assert_str_eq(tok[55], "3");			/* idx */
	ck_assert_str_eq(tok[56], "2048");		/* maxRMem */
	ck_assert_str_eq(tok[62], "132");		/* exceptMask: 0x04|0x80 */
	ck_assert_str_eq(tok[64], "14");		/* exitInfo */
	ck_assert_str_eq(tok[74], "5136");		/* options2 */
	ck_assert_str_eq(tok[83], "1024");		/* avgMem */
	ck_assert_str_eq(tok[84], "\"select[type == any] order[r15s:pg] \"");
	free(copy);

	ck_assert_int_eq(acct_finish_read(&r, &y), 0);
	ck_assert_msg(evr_at_end(&r), "fields left after JOB_FINISH");
	ck_assert_int_eq(y.end_time, x.end_time);
	ck_assert_int_eq(y.jobid, 7610);
	ck_assert_int_eq(y.uid, 1000);
	ck_assert_uint_eq(y.options, x.options);
	ck_assert_int_eq(y.start_time, x.start_time);
	ck_assert_str_eq(y.user, "lsfadmin");
	ck_assert_str_eq(y.queue, "normal");
	ck_assert_str_eq(y.out_file, "o.%J");
	ck_assert_uint_eq(y.exec_hosts.n, 2);
	ck_assert_str_eq(y.exec_hosts.v[1], "hostB");
	ck_assert_int_eq(y.status, JOB_STAT_EXIT);
	ck_assert_str_eq(y.job_name, "say \"hi\"");
	ck_assert_str_eq(y.command, "sleep 1000");
	ck_assert(y.utime == 1.5 && y.stime == 0.25);
	ck_assert_int_eq(y.exit_status, 65280);
	ck_assert_int_eq(y.idx, 3);
	ck_assert_int_eq(y.max_mem_kb, 2048);
	ck_assert_int_eq(y.exit_info, 14);
	ck_assert_int_eq(y.except_mask, JOB_EXC_UNDERRUN | JOB_EXC_IDLE);
	ck_assert_uint_eq(y.options2, 5136);
	ck_assert_int_eq(y.run_limit, 600);
	ck_assert_int_eq(y.avg_mem_kb, 1024);
	ck_assert_str_eq(y.effective_res_req, x.effective_res_req);
	acct_finish_release(&y);
	strv_release(&x.exec_hosts);
	sb_release(&sb);
}
END_TEST

/* the seal (evlog-seal.c) and the rule for a last line without newline */

static void
seal_fill(struct evlog_seal *s, uint64_t seq, off_t size, const char *tok,
    int64_t next)
{
	memset(s, 0, sizeof(*s));
	s->seq = seq;
	s->when = 1700000000 + (int64_t)seq;
	s->size = size;
	snprintf(s->token, sizeof(s->token), "%s", tok);
	s->next_jobid = next;
	snprintf(s->host, sizeof(s->host), "hosta");
}

/* The token a seal of the whole file at path would hold. */
static void
last_token(const char *path, char tok[9])
{
	int fd = open(path, O_RDONLY);
	struct stat st;

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(fstat(fd, &st), 0);
	ck_assert_int_eq(evlog_token_at(fd, st.st_size, tok), 0);
	close(fd);
}

START_TEST(test_seal_fmt_parse)
{
	char slot[EVLOG_SEAL_SLOT];
	struct evlog_seal s, t;
	const char *why = NULL;

	seal_fill(&s, 41, 123456, "1a2b3c4d", 1001);
	s.alt_size = 99;
	snprintf(s.alt_token, sizeof(s.alt_token), "deadbeef");
	evlog_seal_fmt(slot, &s);
	/* One line, the slot's width, in the records' syntax. */
	ck_assert_int_eq(slot[EVLOG_SEAL_SLOT - 1], '\n');
	ck_assert_ptr_eq(memchr(slot, '\n', EVLOG_SEAL_SLOT),
	    slot + EVLOG_SEAL_SLOT - 1);
	ck_assert(strncmp(slot, "\"SEAL\" \"10.1\" 1700000041 41 123456 "
	    "\"1a2b3c4d\" 1001 99 \"deadbeef\" \"hosta\" ", 73) == 0);
	ck_assert_int_eq(evlog_seal_parse(slot, EVLOG_SEAL_SLOT - 1, &t,
	    &why), 0);
	ck_assert_uint_eq(t.seq, 41);
	ck_assert_int_eq(t.when, 1700000041);
	ck_assert_int_eq(t.size, 123456);
	ck_assert_str_eq(t.token, "1a2b3c4d");
	ck_assert_int_eq(t.next_jobid, 1001);
	ck_assert_int_eq(t.alt_size, 99);
	ck_assert_str_eq(t.alt_token, "deadbeef");
	ck_assert_str_eq(t.host, "hosta");

	/* No token (a log of its header alone), a host name too long. */
	seal_fill(&s, 2, EVLOG_HEADER_LEN, "", 1);
	memset(s.host, 'h', sizeof(s.host) - 1);
	s.host[sizeof(s.host) - 1] = '\0';
	evlog_seal_fmt(slot, &s);
	ck_assert_int_eq(evlog_seal_parse(slot, EVLOG_SEAL_SLOT - 1, &t,
	    &why), 0);
	ck_assert_str_eq(t.token, "");
	ck_assert_uint_eq(strlen(t.host), sizeof(s.host) - 1);

	/* Any bit flipped fails its checksum. */
	for (size_t i = 0; i < EVLOG_SEAL_SLOT - 1; i += 7) {
		char bad[EVLOG_SEAL_SLOT];

		memcpy(bad, slot, sizeof(bad));
		bad[i] ^= 0x04;
		ck_assert_int_eq(evlog_seal_parse(bad, EVLOG_SEAL_SLOT - 1, &t,
		    &why), -1);
	}
	/* A record that is not a seal, and a token that is not one. */
	{
		struct strbuf sb = STRBUF_INIT;

		test_record(&sb, 0);
		ck_assert_int_eq(evlog_seal_parse(sb.buf, sb.len - 1, &t,
		    &why), -1);
		ck_assert_str_eq(why, "not a seal");
		sb_reset(&sb);
		ev_begin(&sb, "SEAL", 1);
		ev_int(&sb, 1);
		ev_int(&sb, 100);
		ev_str(&sb, "xyz");
		ev_int(&sb, 5);
		ev_end(&sb, 0);
		ck_assert_int_eq(evlog_seal_parse(sb.buf, sb.len - 1, &t,
		    &why), -1);
		/* A bad token and the fields after it: nothing is leaked
		 * (the fuzzer's regress-seal-token-leak). */
		sb_reset(&sb);
		ev_begin(&sb, "SEAL", 1);
		ev_int(&sb, 1);
		ev_int(&sb, 18);
		ev_str(&sb, "\xb4\xb4");
		ev_int(&sb, 5);
		ev_int(&sb, 18);
		ev_str(&sb, "norobs");
		ev_str(&sb, "h");
		ev_end(&sb, 0);
		ck_assert_int_eq(evlog_seal_parse(sb.buf, sb.len - 1, &t,
		    &why), -1);
		/* An older seal without the alt fields and host reads. */
		sb_reset(&sb);
		ev_begin(&sb, "SEAL", 1);
		ev_int(&sb, 1);
		ev_int(&sb, 100);
		ev_str(&sb, "0000abcd");
		ev_int(&sb, 5);
		ev_end(&sb, 0);
		ck_assert_int_eq(evlog_seal_parse(sb.buf, sb.len - 1, &t,
		    &why), 0);
		ck_assert_int_eq(t.alt_size, 0);
		ck_assert_str_eq(t.alt_token, "");
		sb_release(&sb);
	}
}
END_TEST

START_TEST(test_seal_read)
{
	char *path = path_in("lsb.events.seal"), *cause = NULL;
	char two[2 * EVLOG_SEAL_SLOT], zeros[2 * EVLOG_SEAL_SLOT];
	struct evlog_seal s;

	ck_assert_int_eq(evlog_seal_read(path, &s, &cause), 0);
	ck_assert_ptr_null(cause);
	/* Made but never written, or zeros where a power cut left them. */
	spew(path, "", 0);
	ck_assert_int_eq(evlog_seal_read(path, &s, &cause), 0);
	memset(zeros, 0, sizeof(zeros));
	spew(path, zeros, sizeof(zeros));
	ck_assert_int_eq(evlog_seal_read(path, &s, &cause), 0);

	/* The newer slot wins, wherever it is. */
	seal_fill(&s, 7, 1000, "0000000a", 17);
	evlog_seal_fmt(two + EVLOG_SEAL_SLOT, &s);
	seal_fill(&s, 6, 900, "0000000b", 16);
	evlog_seal_fmt(two, &s);
	spew(path, two, sizeof(two));
	ck_assert_int_eq(evlog_seal_read(path, &s, &cause), 1);
	ck_assert_uint_eq(s.seq, 7);
	ck_assert_int_eq(s.size, 1000);
	/* A write torn by a power cut: the other one holds. */
	two[EVLOG_SEAL_SLOT + 40] ^= 0x10;
	spew(path, two, sizeof(two));
	ck_assert_int_eq(evlog_seal_read(path, &s, &cause), 1);
	ck_assert_uint_eq(s.seq, 6);
	ck_assert_int_eq(s.next_jobid, 16);
	/* A slot of zeros, first or second, does not hide the other. */
	memset(two + EVLOG_SEAL_SLOT, 0, EVLOG_SEAL_SLOT);
	spew(path, two, sizeof(two));
	ck_assert_int_eq(evlog_seal_read(path, &s, &cause), 1);
	ck_assert_uint_eq(s.seq, 6);
	seal_fill(&s, 8, 1100, "0000000c", 18);
	evlog_seal_fmt(two + EVLOG_SEAL_SLOT, &s);
	memset(two, 0, EVLOG_SEAL_SLOT);
	spew(path, two, sizeof(two));
	ck_assert_int_eq(evlog_seal_read(path, &s, &cause), 1);
	ck_assert_uint_eq(s.seq, 8);
	seal_fill(&s, 6, 900, "0000000b", 16);
	evlog_seal_fmt(two, &s);
	/* Both damaged: refused, naming the file. */
	two[3] ^= 0x01;
	two[EVLOG_SEAL_SLOT + 3] ^= 0x01;
	spew(path, two, sizeof(two));
	ck_assert_int_eq(evlog_seal_read(path, &s, &cause), -1);
	ck_assert_ptr_nonnull(strstr(cause, path));
	ck_assert_ptr_nonnull(strstr(cause, "damaged"));
	free(cause);
	/* Not a seal at all. */
	spew(path, "hello\n", 6);
	ck_assert_int_eq(evlog_seal_read(path, &s, &cause), -1);
	free(cause);
	free(path);
}
END_TEST

START_TEST(test_seal_match)
{
	char *path = path_in("lsb.events"), *why = NULL, tok[9];
	off_t off[MAXREC], size, acked;
	struct evlog_seal s;
	size_t len;
	char *data;

	/* Missing: only an empty seal passes. */
	seal_fill(&s, 1, 0, "", 1);
	ck_assert_int_eq(evlog_seal_match(path, &s, &acked, &why), 0);
	ck_assert_int_eq(acked, 0);
	seal_fill(&s, 1, 500, "0000abcd", 7);
	ck_assert_int_eq(evlog_seal_match(path, &s, &acked, &why), 1);
	ck_assert_ptr_nonnull(strstr(why, "is missing, but mbatchd on hosta "
	    "had acknowledged 500 bytes of it and job IDs up to 6 at "));
	free(why);

	write_records(path, 0, 0, 6, off);
	size = file_size(path);
	last_token(path, tok);
	ck_assert_uint_eq(strlen(tok), 8);
	seal_fill(&s, 3, size, tok, 106);
	ck_assert_int_eq(evlog_seal_match(path, &s, &acked, &why), 0);
	ck_assert_int_eq(acked, size);
	/* Sealed earlier, more written since: what was sealed is there. */
	seal_fill(&s, 3, off[5], "", 105);
	{
		int fd = open(path, O_RDONLY);

		ck_assert_int_eq(evlog_token_at(fd, off[5], s.token), 0);
		/* Not at the end of a line. */
		ck_assert_int_eq(evlog_token_at(fd, off[5] - 3, tok), -1);
		/* The header has no token. */
		ck_assert_int_eq(evlog_token_at(fd, EVLOG_HEADER_LEN, tok), 0);
		ck_assert_str_eq(tok, "");
		close(fd);
	}
	ck_assert_int_eq(evlog_seal_match(path, &s, &acked, &why), 0);
	ck_assert_int_eq(acked, off[5]);

	/* Cut at a line boundary: both lengths named. */
	last_token(path, tok);
	seal_fill(&s, 4, size, tok, 106);
	data = slurp(path, &len);
	spew(path, data, (size_t)off[5]);
	ck_assert_int_eq(evlog_seal_match(path, &s, &acked, &why), 1);
	{
		char *want = xasprintf("%s is %lld bytes long, but mbatchd on "
		    "hosta had acknowledged %lld bytes of it", path,
		    (long long)off[5], (long long)size);

		ck_assert_msg(strstr(why, want) != NULL, "%s", why);
		free(want);
	}
	ck_assert_ptr_nonnull(strstr(why, "lsb.events.seal)"));
	free(why);
	/* Long enough, but no line ends there. */
	spew(path, data, len);
	append_raw(path, "x", 1);
	s.size = size - 1;
	ck_assert_int_eq(evlog_seal_match(path, &s, &acked, &why), 1);
	ck_assert_ptr_nonnull(strstr(why, "has no line ending at offset"));
	free(why);
	/* Another file of the same length: the token tells. */
	s.size = size;
	data[size - 3] = data[size - 3] == '0' ? '1' : '0';
	spew(path, data, len);
	ck_assert_int_eq(evlog_seal_match(path, &s, &acked, &why), 1);
	ck_assert_ptr_nonnull(strstr(why, "is not the record that ended "
	    "there"));
	free(why);
	/* A switch's "either": the old file passes by its alt fields. */
	s.alt_size = s.size;
	snprintf(s.alt_token, sizeof(s.alt_token), "%.8s",
	    data + size - 9);
	s.size = 40;
	ck_assert_int_eq(evlog_seal_match(path, &s, &acked, &why), 0);
	ck_assert_int_eq(acked, size);
	free(data);
	free(path);
}
END_TEST

START_TEST(test_seal_writer)
{
	char *path = path_in("lsb.events"), *sp = path_in("lsb.events.seal");
	char *cause = NULL, tok[9];
	struct strbuf sb = STRBUF_INIT, raw = STRBUF_INIT;
	struct evlog_seal s;
	struct evlog lg;
	off_t acked;

	ck_assert_int_eq(evlog_open(&lg, path, 0, &cause), 0);
	ck_assert_str_eq(lg.tail, "");
	test_record(&sb, 0);
	evlog_append(&lg, sb.buf, sb.len);
	ck_assert_int_eq(evlog_flush(&lg), 0);
	last_token(path, tok);
	ck_assert_str_eq(lg.tail, tok);
	/* Open: both slots, synced, one more than the seq read. */
	ck_assert_int_eq(evlog_seal_open(&lg, 9, "hosta", 101, 1700000001,
	    &cause), 0);
	ck_assert(lg.seal_on);
	ck_assert(!lg.seal_unsynced);
	ck_assert_int_eq(file_size(sp), 2 * EVLOG_SEAL_SLOT);
	ck_assert_int_eq(read_file(sp, &raw), 0);
	ck_assert(memcmp(raw.buf, raw.buf + EVLOG_SEAL_SLOT,
	    EVLOG_SEAL_SLOT) == 0);
	ck_assert_int_eq(evlog_seal_read(sp, &s, &cause), 1);
	ck_assert_uint_eq(s.seq, 10);
	ck_assert_int_eq(s.size, lg.size);
	ck_assert_str_eq(s.token, tok);
	ck_assert_int_eq(s.next_jobid, 101);
	ck_assert_str_eq(s.host, "hosta");

	/* Pending records are not sealed: only what a flush wrote. */
	test_record(&sb, 1);
	evlog_append(&lg, sb.buf, sb.len);
	ck_assert_int_eq(evlog_seal_write(&lg, 102, 1700000002), 0);
	ck_assert(lg.seal_unsynced);
	ck_assert_int_eq(evlog_seal_read(sp, &s, &cause), 1);
	ck_assert_uint_eq(s.seq, 11);
	ck_assert_int_lt(s.size, lg.size + (off_t)lg.pending.len);
	ck_assert_int_eq(evlog_flush(&lg), 0);
	ck_assert_int_eq(evlog_seal_write(&lg, 102, 1700000003), 0);
	ck_assert_int_eq(evlog_seal_sync(&lg), 0);
	ck_assert(!lg.seal_unsynced);
	ck_assert_int_eq(evlog_seal_read(sp, &s, &cause), 1);
	ck_assert_uint_eq(s.seq, 12);
	ck_assert_int_eq(s.size, file_size(path));
	ck_assert_int_eq(evlog_seal_match(path, &s, &acked, &cause), 0);
	ck_assert_int_eq(acked, file_size(path));
	/* Slots in turn: 12 in the first, 11 in the second. */
	sb_reset(&raw);
	ck_assert_int_eq(read_file(sp, &raw), 0);
	ck_assert_int_eq(file_size(sp), 2 * EVLOG_SEAL_SLOT);
	ck_assert(strncmp(raw.buf, "\"SEAL\" \"10.1\" 1700000003 12 ", 28) ==
	    0);
	ck_assert(strncmp(raw.buf + EVLOG_SEAL_SLOT,
	    "\"SEAL\" \"10.1\" 1700000002 11 ", 28) == 0);
	/* The newer torn: the older, which claims less, holds. */
	raw.buf[10] ^= 0x01;
	spew(sp, raw.buf, raw.len);
	ck_assert_int_eq(evlog_seal_read(sp, &s, &cause), 1);
	ck_assert_uint_eq(s.seq, 11);
	ck_assert_int_eq(evlog_seal_match(path, &s, &acked, &cause), 0);
	evlog_close(&lg);
	ck_assert(!lg.seal_on);
	sb_release(&sb);
	sb_release(&raw);
	free(path);
	free(sp);
}
END_TEST

/*
 * A switch of a sealed log: the seal says the fresh file, and the slot
 * left from before the rename says "either", so a crash at any point
 * of it finds a seal that the file named lsb.events then passes.
 */
START_TEST(test_seal_switch)
{
	char *path = path_in("lsb.events"), *one = path_in("lsb.events.1");
	char *sp = path_in("lsb.events.seal"), *cause = NULL;
	int64_t live[] = { 2, 3, 0 };
	struct evlog_switch_ops ops = { live_set, live, 30, 1700000100, NULL };
	struct evlog_switch_result res;
	struct strbuf raw = STRBUF_INIT;
	struct evlog_seal s, other;
	const char *why;
	struct evlog lg;
	bool committed;
	off_t acked, old_size;

	build_log(&lg, path);
	ck_assert_int_eq(evlog_flush(&lg), 0);
	ck_assert_int_eq(evlog_seal_open(&lg, 0, "hosta", 4, 1700000050,
	    &cause), 0);
	old_size = lg.size;
	ck_assert_int_eq(evlog_switch(&lg, &ops, &res, &committed, &cause),
	    0);
	free(res.moved);
	ck_assert_int_eq(evlog_seal_read(sp, &s, &cause), 1);
	ck_assert_int_eq(s.size, res.new_size);
	ck_assert_int_eq(s.alt_size, 0);
	/* IDs go on after the switch's last one. */
	ck_assert_int_eq(s.next_jobid, 31);
	ck_assert_int_eq(evlog_seal_match(path, &s, &acked, &cause), 0);
	ck_assert_int_eq(acked, res.new_size);
	/* The old file, put back, fails it. */
	ck_assert_int_eq(evlog_seal_match(one, &s, &acked, &cause), 1);
	free(cause);
	/* The other slot: "either". */
	ck_assert_int_eq(read_file(sp, &raw), 0);
	ck_assert_int_eq(evlog_seal_parse(raw.buf + ((s.seq & 1) ? 0 :
	    EVLOG_SEAL_SLOT), EVLOG_SEAL_SLOT - 1, &other, &why), 0);
	ck_assert_uint_eq(other.seq, s.seq - 1);
	ck_assert_int_eq(other.size, res.new_size);
	ck_assert_int_eq(other.alt_size, old_size);
	ck_assert_int_eq(evlog_seal_match(path, &other, &acked, &cause), 0);
	ck_assert_int_eq(acked, res.new_size);
	ck_assert_int_eq(evlog_seal_match(one, &other, &acked, &cause), 0);
	ck_assert_int_eq(acked, old_size);
	/* Appends after it are sealed in the fresh file. */
	{
		struct strbuf sb = STRBUF_INIT;

		test_record(&sb, 2);
		evlog_append(&lg, sb.buf, sb.len);
		ck_assert_int_eq(evlog_flush(&lg), 0);
		ck_assert_int_eq(evlog_seal_write(&lg, 31, 1700000101), 0);
		ck_assert_int_eq(evlog_seal_read(sp, &s, &cause), 1);
		ck_assert_int_eq(s.size, file_size(path));
		ck_assert_int_eq(evlog_seal_match(path, &s, &acked, &cause),
		    0);
		sb_release(&sb);
	}
	evlog_close(&lg);
	sb_release(&raw);
	free(path);
	free(one);
	free(sp);
}
END_TEST

/* The duplicate gets lg's seal when it is attached; seals follow a
 * copied log at start. */
START_TEST(test_seal_dup)
{
	char *path = path_in("lsb.events"), *dup = path_in("dup.events");
	char *dsp = path_in("dup.events.seal"), *cause = NULL;
	char *lost = path_in("dup.events.seal.lost");
	struct strbuf sb = STRBUF_INIT;
	struct evlog_seal s, t;
	struct evlog lg;
	off_t acked;

	ck_assert_int_eq(evlog_open(&lg, path, 0, &cause), 0);
	test_record(&sb, 0);
	evlog_append(&lg, sb.buf, sb.len);
	ck_assert_int_eq(evlog_flush(&lg), 0);
	ck_assert_int_eq(evlog_seal_open(&lg, 0, "hosta", 101, 1700000001,
	    &cause), 0);
	ck_assert_int_eq(evlog_dup_copy(path, dup, &cause), 0);
	ck_assert_int_eq(evlog_dup_attach(&lg, dup, &cause), 0);
	ck_assert_int_eq(evlog_seal_read(dsp, &s, &cause), 1);
	ck_assert_int_eq(evlog_seal_match(dup, &s, &acked, &cause), 0);
	ck_assert_int_eq(acked, lg.size);
	/* Both written each turn. */
	test_record(&sb, 1);
	evlog_append(&lg, sb.buf, sb.len);
	ck_assert_int_eq(evlog_flush(&lg), 0);
	ck_assert_int_eq(evlog_seal_write(&lg, 102, 1700000002), 0);
	ck_assert_int_eq(evlog_seal_read(dsp, &s, &cause), 1);
	ck_assert_int_eq(s.size, file_size(dup));
	ck_assert_int_eq(s.next_jobid, 102);
	/* Lost, its seal left about another file, then copied back: the
	 * seal is lg's before the copy is (evlog_seal_before_copy). */
	close(lg.dup_fd);
	close(lg.dup_seal_fd);
	lg.dup_fd = lg.dup_seal_fd = -1;
	lg.dup_on = false;
	seal_fill(&t, 99, 7, "0000abcd", 3);
	{
		char slot[EVLOG_SEAL_SLOT];

		evlog_seal_fmt(slot, &t);
		spew(dsp, slot, sizeof(slot));
	}
	test_record(&sb, 2);
	evlog_append(&lg, sb.buf, sb.len);
	ck_assert_int_eq(evlog_flush(&lg), 0);
	ck_assert_int_eq(evlog_seal_before_copy(&lg, dup, &cause), 0);
	ck_assert_int_eq(evlog_seal_read(dsp, &s, &cause), 1);
	ck_assert_int_eq(s.size, lg.size);
	ck_assert_int_eq(s.next_jobid, 102);
	ck_assert_int_eq(evlog_dup_resync(&lg, &cause), 0);
	ck_assert(lg.dup_on);
	ck_assert_int_eq(evlog_seal_read(dsp, &s, &cause), 1);
	ck_assert_int_eq(evlog_seal_match(dup, &s, &acked, &cause), 0);
	ck_assert_int_eq(acked, file_size(dup));
	evlog_close(&lg);

	/* dst caught up from src: src's seal over dst's. */
	seal_fill(&t, 1, 5, "", 50);
	{
		char slot[EVLOG_SEAL_SLOT];

		evlog_seal_fmt(slot, &t);
		spew(dsp, slot, sizeof(slot));
	}
	ck_assert_int_eq(evlog_seal_follow(path, dup, false, &cause), 0);
	ck_assert_int_eq(evlog_seal_read(dsp, &s, &cause), 1);
	ck_assert_int_eq(s.next_jobid, 102);
	/* src without one: a replaced dst's goes aside, keeping its IDs,
	 * unless an earlier one there has higher IDs. */
	{
		char *sp = path_in("lsb.events.seal");

		ck_assert_int_eq(unlink(sp), 0);
		free(sp);
	}
	ck_assert_int_eq(evlog_seal_follow(path, dup, false, &cause), 0);
	ck_assert(in_dir("dup.events.seal"));
	ck_assert_int_eq(evlog_seal_follow(path, dup, true, &cause), 0);
	ck_assert(!in_dir("dup.events.seal"));
	ck_assert_int_eq(evlog_seal_read(lost, &s, &cause), 1);
	ck_assert_int_eq(s.next_jobid, 102);
	{
		char slot[EVLOG_SEAL_SLOT];

		evlog_seal_fmt(slot, &t);
		spew(dsp, slot, sizeof(slot));
	}
	ck_assert_int_eq(evlog_seal_follow(path, dup, true, &cause), 0);
	ck_assert(!in_dir("dup.events.seal"));
	ck_assert_int_eq(evlog_seal_read(lost, &s, &cause), 1);
	ck_assert_int_eq(s.next_jobid, 102);
	sb_release(&sb);
	free(path);
	free(dup);
	free(dsp);
	free(lost);
}
END_TEST

/*
 * A last line without its newline: torn when its checksum fails, damage
 * when it holds a whole record (its newline lost or damaged), torn
 * whatever it holds when it starts where a matching seal says the
 * acknowledged bytes end.
 */
START_TEST(test_tail_rule)
{
	char *path = path_in("lsb.events"), *cause = NULL, *want;
	struct strbuf sb = STRBUF_INIT, t = STRBUF_INIT;
	off_t off[MAXREC], good;
	const char *rec;
	size_t n;

	write_records(path, 0, 0, 3, off);
	good = file_size(path);
	test_record(&sb, 3);
	rec = sb.buf;
	n = sb.len - 1;		/* without its newline */

	/* Cut anywhere short of its token's end: torn. */
	for (size_t cut = 1; cut < n; cut += 13) {
		ck_assert_int_eq(evlog_tail_check_buf(path, rec, cut, good, -1,
		    &cause), 0);
		ck_assert_ptr_null(cause);
	}
	/* Whole, newline missing: damage. */
	ck_assert_int_eq(evlog_tail_check_buf(path, rec, n, good, -1,
	    &cause), -1);
	want = xasprintf("%s: offset %lld: last record is whole but has no "
	    "newline: damage, not a torn write", path, (long long)good);
	ck_assert_str_eq(cause, want);
	free(want);
	free(cause);
	/* Its newline flipped to 0x0b, or 0x8a. */
	sb_add(&t, rec, n);
	sb_addc(&t, '\x0b');
	ck_assert_int_eq(evlog_tail_check_buf(path, t.buf, t.len, good, -1,
	    &cause), -1);
	want = xasprintf("%s: offset %lld: last record's newline is damaged "
	    "(0x0b at offset %lld): damage, not a torn write", path,
	    (long long)good, (long long)(good + (off_t)n));
	ck_assert_str_eq(cause, want);
	free(want);
	free(cause);
	t.buf[n] = (char)0x8a;
	ck_assert_int_eq(evlog_tail_check_buf(path, t.buf, t.len, good, -1,
	    &cause), -1);
	ck_assert_ptr_nonnull(strstr(cause, "(0x8a at offset"));
	free(cause);
	/* ... and the next record torn after it: still damage. */
	test_record(&sb, 4);
	sb_add(&t, sb.buf, 30);
	ck_assert_int_eq(evlog_tail_check_buf(path, t.buf, t.len, good, -1,
	    &cause), -1);
	ck_assert_ptr_nonnull(strstr(cause, "newline is damaged"));
	free(cause);
	/* Past what a matching seal says was acknowledged: torn, whole or
	 * not (kill -9 cuts a write at a page boundary). */
	ck_assert_int_eq(evlog_tail_check_buf(path, t.buf, t.len, good, good,
	    &cause), 0);
	ck_assert_int_eq(evlog_tail_check_buf(path, t.buf, n, good, good - 5,
	    &cause), 0);
	ck_assert_int_eq(evlog_tail_check_buf(path, t.buf, n, good, good + 1,
	    &cause), -1);
	free(cause);
	/* A token inside a string that is not the record's: torn. */
	{
		struct ev_job_new x;

		fill_job_new(&x, 0);
		x.jobid = 7;
		free(x.req.command);
		x.req.command = xstrdup("echo \" @deadbeef\" \" @00000000\"");
		sb_reset(&sb);
		ev_job_new_write(&sb, 1700000000, &x);
		ev_job_new_release(&x);
		ck_assert_ptr_nonnull(memmem(sb.buf, sb.len, " @deadbeef", 10));
		ck_assert_int_eq(evlog_tail_check_buf(path, sb.buf, sb.len - 12,
		    good, -1, &cause), 0);
	}
	/* The file form: nothing after valid_end, or a torn tail. */
	ck_assert_int_eq(evlog_tail_check(path, good, -1, &cause), 0);
	append_raw(path, rec, n);
	ck_assert_int_eq(evlog_tail_check(path, good, -1, &cause), -1);
	ck_assert_ptr_nonnull(strstr(cause, path));
	free(cause);
	ck_assert_int_eq(evlog_tail_check(path, good, good, &cause), 0);
	{
		char *none = path_in("none");

		ck_assert_int_eq(evlog_tail_check(none, 0, -1, &cause), 0);
		free(none);
	}
	sb_release(&sb);
	sb_release(&t);
	free(path);
}
END_TEST

static Suite *
evlog_suite(void)
{
	Suite *s = suite_create("evlog");
	TCase *rec = tcase_create("records");
	TCase *file = tcase_create("file");

	tcase_set_timeout(rec, 60);
	tcase_add_loop_test(rec, test_job_new, 0, NTRICKY + 2);
	tcase_add_loop_test(rec, test_job_new_peek, 0, NTRICKY + 2);
	tcase_add_test(rec, test_long_strings);
	tcase_add_test(rec, test_crc32c);
	tcase_add_test(rec, test_golden_text);
	tcase_add_test(rec, test_rec_start);
	tcase_add_loop_test(rec, test_job_env, 0, NTRICKY + 2);
	tcase_add_loop_test(rec, test_job_start, 0, NTRICKY + 2);
	tcase_add_loop_test(rec, test_job_execute, 0, NTRICKY + 2);
	tcase_add_test(rec, test_job_status);
	tcase_add_loop_test(rec, test_job_signal, 0, NTRICKY + 2);
	tcase_add_test(rec, test_small_records);
	tcase_add_test(rec, test_ctrl_records);
	tcase_add_test(rec, test_job_status_defaults);
	tcase_add_test(rec, test_old_and_new_records);
	tcase_add_test(rec, test_crc_flips);
	tcase_add_test(rec, test_init_errors);
	tcase_add_test(rec, test_field_readers);
	tcase_add_test(rec, test_lsf_positions);
	tcase_add_test(rec, test_header_parse);
	tcase_add_test(rec, test_log_switch_record);
	tcase_add_test(rec, test_switch_classify);
	tcase_add_test(rec, test_switch_select);
	tcase_add_test(rec, test_switch_moves);
	tcase_add_test(rec, test_acct_finish);
	suite_add_tcase(s, rec);

	tcase_set_timeout(file, 60);
	tcase_add_checked_fixture(file, setup, teardown);
	tcase_add_test(file, test_replay_missing_and_empty);
	tcase_add_test(file, test_replay_header_only);
	tcase_add_test(file, test_replay_good);
	tcase_add_loop_test(file, test_torn_tail, 0, 12);
	tcase_add_test(file, test_torn_only);
	tcase_add_loop_test(file, test_damaged_last, 0, 4);
	tcase_add_loop_test(file, test_flipped_quote, 0, 7);
	tcase_add_test(file, test_bad_lines);
	tcase_add_test(file, test_keep_torn);
	tcase_add_test(file, test_envs_rules);
	tcase_add_test(rec, test_record_check);
	tcase_add_loop_test(file, test_damaged_middle, 0, 9);
	tcase_add_test(file, test_damaged_other);
	tcase_add_loop_test(file, test_callback_fails, 0, 8);
	tcase_add_test(file, test_read_at);
	tcase_add_test(file, test_open_errors);
	tcase_add_test(file, test_switch_file);
	tcase_add_test(file, test_switch_unknown_type);
	tcase_add_test(file, test_switch_leftover_link);
	tcase_add_test(file, test_switch_no_header);
	tcase_add_test(file, test_switch_refused);
	tcase_add_test(file, test_gens_open);
	tcase_add_test(file, test_gens_open_during_switches);
	tcase_add_test(rec, test_seal_fmt_parse);
	tcase_add_test(file, test_seal_read);
	tcase_add_test(file, test_seal_match);
	tcase_add_test(file, test_seal_writer);
	tcase_add_test(file, test_seal_switch);
	tcase_add_test(file, test_seal_dup);
	tcase_add_test(file, test_tail_rule);
	suite_add_tcase(s, file);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(evlog_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
