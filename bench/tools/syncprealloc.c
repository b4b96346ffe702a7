/*
 * syncprealloc: what an append + fdatasync costs when the file grows
 * with each record, as lsb.events does, against a file whose blocks
 * and size were set beforehand, as a database's preallocated log is.
 * Not part of `make bench`; PERFORMANCE.md quotes it:
 *
 *	cc -O2 -o /tmp/syncprealloc bench/tools/syncprealloc.c
 *	/tmp/syncprealloc DIR [N]
 *
 * Four files in DIR, N records of 300 bytes (a JOB_NEW's size) each:
 *   append     a growing file (lsb.events)
 *   zeroed     written with zeros and synced first, then overwritten
 *   fallocate  fallocate(2) to the final size first, then overwritten
 *   keepsize   fallocate(2) with FALLOC_FL_KEEP_SIZE, then appended
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define REC 300

static double
now_us(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

static int
prepare(int fd, const char *mode, off_t size)
{
	static char zero[65536];

	if (strcmp(mode, "zeroed") == 0) {
		for (off_t o = 0; o < size; o += sizeof(zero))
			if (write(fd, zero, sizeof(zero)) < 0)
				return -1;
	} else if (strcmp(mode, "fallocate") == 0) {
		if (fallocate(fd, 0, 0, size) < 0)
			return -1;
	} else if (strcmp(mode, "keepsize") == 0) {
		if (fallocate(fd, FALLOC_FL_KEEP_SIZE, 0, size) < 0)
			return -1;
	}
	return fsync(fd) < 0 || lseek(fd, 0, SEEK_SET) < 0 ? -1 : 0;
}

int
main(int argc, char **argv)
{
	static const char *const modes[] = { "append", "zeroed", "fallocate",
	    "keepsize" };
	char rec[REC], path[4096];
	int n = argc > 2 ? atoi(argv[2]) : 2000;

	if (argc < 2 || n <= 0) {
		fprintf(stderr, "usage: syncprealloc dir [records]\n");
		return 2;
	}
	memset(rec, 'x', sizeof(rec) - 1);
	rec[sizeof(rec) - 1] = '\n';
	for (size_t m = 0; m < sizeof(modes) / sizeof(modes[0]); m++) {
		double t0, t1;
		int fd;

		snprintf(path, sizeof(path), "%s/syncprealloc.%s", argv[1],
		    modes[m]);
		unlink(path);
		if ((fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644)) < 0 ||
		    prepare(fd, modes[m], (off_t)n * REC + 65536) < 0) {
			perror(path);
			return 1;
		}
		t0 = now_us();
		for (int i = 0; i < n; i++)
			if (write(fd, rec, REC) != REC || fdatasync(fd) < 0) {
				perror(path);
				return 1;
			}
		t1 = now_us();
		printf("%-10s %6.1f us per append + fdatasync\n", modes[m],
		    (t1 - t0) / n);
		close(fd);
		unlink(path);
	}
	return 0;
}
