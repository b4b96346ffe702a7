/*
 * statewatch: workload 11's eye on the victim.  Polls /proc/PID/stat
 * every INTERVAL_US microseconds and prints a line each time the process
 * enters or leaves the stopped state (T): "T secs" or "R secs", the
 * wall-clock time (CLOCK_REALTIME, as tools/stamp writes it) of the poll
 * that saw it.  The first line is the state found at start, so a reader
 * knows the watch is on before it times anything.  Exits 0 when the
 * process is gone; a line is flushed as soon as it is written.
 *
 *	statewatch PID INTERVAL_US
 *
 * The poll's period bounds the resolution: a transition is seen up to
 * INTERVAL_US (plus the scheduler's delay in waking us) after it is made.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* The state letter of /proc/PID/stat: after the ") " closing comm. */
static int
proc_state(int fd)
{
	char buf[512], *p;
	ssize_t n;

	n = pread(fd, buf, sizeof(buf) - 1, 0);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	if ((p = strrchr(buf, ')')) == NULL || p[1] != ' ')
		return -1;
	return (unsigned char)p[2];
}

static void
say(int stopped)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	printf("%c %lld.%09ld\n", stopped ? 'T' : 'R', (long long)ts.tv_sec,
	    ts.tv_nsec);
	fflush(stdout);
}

int
main(int argc, char **argv)
{
	char path[64];
	struct timespec nap;
	long us;
	int fd, st, was = -1;

	if (argc != 3 || (us = atol(argv[2])) <= 0) {
		fprintf(stderr, "usage: statewatch PID INTERVAL_US\n");
		return 2;
	}
	snprintf(path, sizeof(path), "/proc/%s/stat", argv[1]);
	/* One open for the whole watch: a poll is then one pread. */
	if ((fd = open(path, O_RDONLY)) < 0) {
		perror(path);
		return 1;
	}
	nap.tv_sec = us / 1000000;
	nap.tv_nsec = (us % 1000000) * 1000;
	for (;;) {
		if ((st = proc_state(fd)) < 0 || st == 'Z' || st == 'X')
			return 0;
		if ((st == 'T') != was) {
			was = st == 'T';
			say(was);
		}
		while (nanosleep(&nap, NULL) < 0 && errno == EINTR)
			;
	}
}
