/*
 * switchlog: time one switch of an lsb.events (evlog_switch), as
 * mbatchd makes it, with every job of the file live (all of it is
 * copied: the worst case) or none.  The file is switched in place:
 * work on a copy, in a directory of its own.
 *
 *	mklog template-lsb.events dir/lsb.events 1000000
 *	switchlog dir/lsb.events all
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evlog.h"
#include "util.h"

static bool
live_all(void *arg, int64_t jobid)
{
	return *(bool *)arg;
}

static int
count_cb(void *arg, struct ev_reader *r, off_t off)
{
	(*(uint64_t *)arg)++;
	return 0;
}

int
main(int argc, char **argv)
{
	struct evlog lg;
	struct evlog_switch_ops ops;
	struct evlog_switch_result res;
	bool committed, all;
	char *cause;
	off_t end;
	uint64_t n = 0, t0, t1;

	if (argc != 3)
		return 2;
	all = strcmp(argv[2], "all") == 0;
	t0 = mono_ms();
	if (evlog_replay(argv[1], count_cb, &n, &end, &cause) < 0 ||
	    evlog_open(&lg, argv[1], end, &cause) < 0) {
		fprintf(stderr, "%s\n", cause);
		return 1;
	}
	t1 = mono_ms();
	memset(&ops, 0, sizeof(ops));
	ops.live = live_all;
	ops.arg = &all;
	ops.last_jobid = 1;
	ops.now = 1800000000;
	if (evlog_switch(&lg, &ops, &res, &committed, &cause) < 0) {
		fprintf(stderr, "%s\n", cause);
		return 1;
	}
	printf("replay %llu records: %llu ms; switch: %llu of %llu records "
	    "copied, %lld -> %lld bytes, %llu ms\n", (unsigned long long)n,
	    (unsigned long long)(t1 - t0), (unsigned long long)res.ncopied,
	    (unsigned long long)res.nread, (long long)res.old_size,
	    (long long)res.new_size, (unsigned long long)(mono_ms() - t1));
	free(res.moved);
	evlog_close(&lg);
	return 0;
}
