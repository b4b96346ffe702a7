/*
 * sealcost: what the seal of lsb.events (evlog_seal_write) adds to a
 * turn, against the turn's own write and fdatasync, and what syncing
 * the seal every turn would add instead (why it is synced once a
 * second).  A log of one-record turns in dir, which it overwrites.
 *
 *	sealcost dir [turns]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "evlog.h"
#include "util.h"

static double
now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

/* us per turn: n turns of one record, with the seal written (and
 * synced) or not. */
static double
turns(struct evlog *lg, const struct strbuf *rec, int n, bool seal,
    bool sync)
{
	double t0 = now_us();

	for (int i = 0; i < n; i++) {
		evlog_append(lg, rec->buf, rec->len);
		if (evlog_flush(lg) < 0) {
			perror("evlog_flush");
			exit(1);
		}
		if (seal)
			(void)evlog_seal_write(lg, 2 + i, 1700000000 + i);
		if (sync)
			(void)evlog_seal_sync(lg);
	}
	return (now_us() - t0) / n;
}

int
main(int argc, char **argv)
{
	struct strbuf rec = STRBUF_INIT;
	struct ev_job_clean c = { 1, 0 };
	struct evlog lg;
	char *path, *cause;
	int n = argc > 2 ? atoi(argv[2]) : 300, k = 20000;
	double t0, w, plain, sealed, synced;

	if (argc < 2 || n <= 0) {
		fprintf(stderr, "usage: sealcost dir [turns]\n");
		return 2;
	}
	path = xasprintf("%s/lsb.events", argv[1]);
	(void)unlink(path);
	if (evlog_open(&lg, path, 0, &cause) < 0 ||
	    evlog_seal_open(&lg, 0, "bench", 2, 1700000000, &cause) < 0) {
		fprintf(stderr, "sealcost: %s\n", cause);
		return 1;
	}
	ev_job_clean_write(&rec, 1700000000, &c);
	/* The seal's write alone, many times: a few us against noise. */
	t0 = now_us();
	for (int i = 0; i < k; i++)
		(void)evlog_seal_write(&lg, 2 + i, 1700000000 + i);
	w = (now_us() - t0) / k;
	plain = turns(&lg, &rec, n, false, false);
	sealed = turns(&lg, &rec, n, true, false);
	synced = turns(&lg, &rec, n, true, true);
	printf("seal write %.2f us; turn (write + fdatasync) %.1f us, "
	    "with the seal %.1f us, with the seal synced %.1f us\n", w,
	    plain, sealed, synced);
	evlog_close(&lg);
	sb_release(&rec);
	free(path);
	return 0;
}
