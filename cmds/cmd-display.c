/* Requests and table pieces shared by the display and admin commands. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "cmd-display.h"
#include "cmdopt.h"
#include "loadsample.h"
#include "lsf.h"
#include "num.h"
#include "timefmt.h"

void
disp_version(void)
{
	print_version();
	exit(0);
}

void
disp_bad_reply(const char *from)
{
	fprintf(stderr, "%s: unexpected reply from %s\n", progname, from);
	exit(255);
}

static void
build_request(struct wbuf *w, uint16_t type, const struct strv *names)
{
	wbuf_init(w);
	wbuf_begin(w, type, 1, 0);
	if (names != NULL)
		put_strv(w, names);
	wbuf_end_frame(w);
}

/* "<context>: <message>", as LSF prints a refused request. */
static void NORETURN
print_error(struct msg_error *e)
{
	if (e->context != NULL)
		fprintf(stderr, "%s: %s\n", e->context, lsb_errmsg(e->code));
	else
		fprintf(stderr, "%s: %s\n", progname, lsb_errmsg(e->code));
	msg_error_release(e);
	exit(255);
}

void
disp_mbd_query(uint16_t type, const struct strv *names, uint16_t want,
    struct reply *rp)
{
	struct wbuf w;

	build_request(&w, type, names);
	disp_mbd_call(&w, want, rp);
	wbuf_release(&w);
}

void
disp_mbd_call(const struct wbuf *w, uint16_t want, struct reply *rp)
{
	struct msg_error e;
	int fd;

	fd = mbd_connect();
	if (mbd_call(fd, w, rp) < 0) {
		fprintf(stderr, "%s: Failed in sending/receiving a message: "
		    "%s\n", progname, strerror(errno));
		exit(255);
	}
	close(fd);
	if (reply_is_error(rp, &e))
		print_error(&e);
	if (rp->hdr.type != want)
		disp_bad_reply("mbatchd");
}

static void NORETURN
lim_down(void)
{
	fprintf(stderr, "%s: LIM is down; try later\n", progname);
	exit(255);
}

void
disp_lim_query(uint16_t type, const struct strv *names, uint16_t want,
    struct reply *rp)
{
	struct msg_error e;
	struct wbuf w;

	build_request(&w, type, names);
	if (lim_call(&w, rp) < 0)
		lim_down();
	wbuf_release(&w);
	if (reply_is_error(rp, &e)) {
		/* A LIM that does not know its master yet. */
		if (e.code == LSBE_NOLSF)
			lim_down();
		print_error(&e);
	}
	if (rp->hdr.type != want)
		disp_bad_reply("the LIM");
}

static void
pad_to(struct strbuf *sb, size_t start)
{
	size_t n = sb->len > 0 ? 1 : 0;

	if (start > sb->len + 1 && start - 1 - sb->len > n)
		n = start - 1 - sb->len;
	while (n-- > 0)
		sb_addc(sb, ' ');
}

void
col_right(struct strbuf *sb, int end, const char *s)
{
	size_t len = strlen(s);
	size_t start = (size_t)end >= len ? (size_t)end - len + 1 : 1;

	pad_to(sb, start);
	sb_adds(sb, s);
}

void
col_left(struct strbuf *sb, int start, const char *s)
{
	pad_to(sb, start > 0 ? (size_t)start : 1);
	sb_adds(sb, s);
}

void
col_flush(struct strbuf *sb, FILE *fp)
{
	sb_rtrim(sb);
	fprintf(fp, "%s\n", sb->len ? sb->buf : "");
	sb_reset(sb);
}

/*
 * Where the reference output puts the "-" of each index in the
 * loadSched/loadStop rows (it is not under the end of the header word).
 * A value is centred on that column, so one-decimal values such as "0.7"
 * end under their header word.
 */
static const int thr_col[NLOADIDX] = {
	14, 20, 26, 32, 40, 46, 51, 57, 63, 70, 77
};

/*
 * A threshold as lsload would show the index, except that a run queue or
 * paging threshold finer than a tenth keeps two decimals: "0.05" must
 * not read as "0.1" or "0.0".
 */
void
disp_threshold_value(int idx, float v, char *buf, size_t len)
{
	bool fine = fabsf(v * 10 - (float)num_round(v * 10)) > 1e-3f;

	if (fine && (idx == LI_R15S || idx == LI_R1M || idx == LI_R15M ||
	    idx == LI_PG))
		snprintf(buf, len, "%.2f", (double)v);
	else
		fmt_load_value(idx, v, buf, len);
}

static void
thr_row(FILE *fp, const char *label, const float *v, uint32_t set)
{
	struct strbuf sb = STRBUF_INIT;
	char buf[32];

	sb_addf(&sb, " %s", label);
	for (int i = 0; i < NLOADIDX; i++) {
		if (set & (1u << i))
			disp_threshold_value(i, v[i], buf, sizeof(buf));
		else
			snprintf(buf, sizeof(buf), "-");
		col_right(&sb, thr_col[i] + (int)strlen(buf) / 2, buf);
	}
	col_flush(&sb, fp);
	sb_release(&sb);
}

/* "-" or the value as lsload shows an external index. */
static void
ext_value(bool set, float v, char *buf, size_t len)
{
	if (set)
		snprintf(buf, len, "%.1f", (double)v);
	else
		snprintf(buf, len, "-");
}

/*
 * The external indices' table: each column as wide as its name needs
 * (six at least), the values right-aligned under it.
 */
static void
ext_table(FILE *fp, const struct thresholds *t)
{
	struct strbuf sb = STRBUF_INIT;
	char buf[32];
	int end[MAX_EXT_THRESHOLDS], col = 10;

	if (t->next == 0)
		return;
	fputc('\n', fp);
	for (int i = 0; i < t->next; i++) {
		int w = (int)strlen(t->ext[i].name) + 1;

		col += w > 6 ? w : 6;
		end[i] = col;
		col_right(&sb, end[i], t->ext[i].name);
	}
	col_flush(&sb, fp);
	for (int row = 0; row < 2; row++) {
		sb_adds(&sb, row == 0 ? " loadSched" : " loadStop");
		for (int i = 0; i < t->next; i++) {
			const struct ext_threshold *e = &t->ext[i];

			ext_value(row == 0 ? e->sched_set : e->stop_set,
			    row == 0 ? e->sched : e->stop, buf, sizeof(buf));
			col_right(&sb, end[i], buf);
		}
		col_flush(&sb, fp);
	}
	sb_release(&sb);
}

void
disp_thresholds(FILE *fp, const struct thresholds *t)
{
	fputs("           r15s   r1m  r15m   ut      pg    io   ls    it    tmp"
	    "    swp    mem\n", fp);
	thr_row(fp, "loadSched", t->sched, t->sched_set);
	thr_row(fp, "loadStop", t->stop, t->stop_set);
	ext_table(fp, t);
}

void
disp_thresholds_wire(FILE *fp, const float *sched, const float *stop,
    uint32_t sched_set, uint32_t stop_set, const struct strv *ext)
{
	struct thresholds t;

	thresholds_from_wire(&t, sched, stop, sched_set, stop_set, ext);
	disp_thresholds(fp, &t);
}

void
disp_kv(FILE *fp, const struct kv_list *kv)
{
	for (size_t i = 0; i < kv->keys.n; i++)
		fprintf(fp, "    %s = %s\n", kv->keys.v[i],
		    i < kv->vals.n && kv->vals.v[i] ? kv->vals.v[i] : "");
}

const char *
disp_kv_get(const struct kv_list *kv, const char *key)
{
	for (size_t i = 0; i < kv->keys.n && i < kv->vals.n; i++)
		if (strcmp(kv->keys.v[i], key) == 0)
			return kv->vals.v[i];
	return NULL;
}

void
disp_conf_header(FILE *fp, const char *what)
{
	char buf[64];

	fmt_time_full(time(NULL), buf, sizeof(buf));
	fprintf(fp, "%s configuration at %s\n", what, buf);
}

bool
disp_in_list(const char *list, const char *name)
{
	struct strv v = STRV_INIT;
	bool found = false;

	strv_split_ws(&v, list ? list : "");
	for (size_t i = 0; i < v.n && !found; i++)
		found = strcasecmp(v.v[i], name) == 0;
	strv_release(&v);
	return found;
}

void
disp_load_list(const struct strv *names, struct lim_load_list *ll)
{
	struct reply rp;
	bool missing = false;

	disp_lim_query(MSG_LIM_LOAD_QUERY, names, MSG_LIM_LOAD_LIST, &rp);
	if (!lim_load_list_unpack(&rp.r, ll) || rbuf_end(&rp.r) < 0)
		disp_bad_reply("the LIM");
	/* The LIM leaves out names it does not know. */
	for (size_t i = 0; i < names->n; i++) {
		bool found = false;

		for (uint32_t k = 0; k < ll->nhosts && !found; k++)
			found = strcasecmp(ll->hosts[k].name, names->v[i]) == 0;
		if (!found) {
			fprintf(stderr, "%s: host %s not found\n", progname,
			    names->v[i]);
			missing = true;
		}
	}
	if (missing)
		exit(255);
}

int
disp_ckconfig(int argc, char **argv, unsigned parts,
    void (*usage)(int) NORETURN)
{
	static const struct cmdopt opts[] = {
		{ "v", false, 1 },
		{ NULL, false, 0 }
	};
	struct cmdopt_state st;
	const char *val;
	bool verbose = false;
	int id, nrest;

	cmdopt_init(&st, argc, argv, true);
	while ((id = cmdopt_next(&st, opts, &val)) != 0) {
		if (id != 1)
			usage(255);
		verbose = true;
	}
	(void)cmdopt_rest(&st, &nrest);
	cmdopt_release(&st);
	if (nrest > 0)
		usage(255);
	/* LSF prints the check on stderr. */
	return conf_check(NULL, parts, verbose, stderr) ? 255 : 0;
}
