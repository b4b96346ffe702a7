/*
 * suspwatch: workload 10's load steps.  N times: write the high load's
 * ELIM line to FIFO (the bench's ELIM prints it at once), then poll the
 * job's process every millisecond until /proc/PID/stat shows it stopped
 * (state T); then write the low load's line and poll until it is no
 * longer stopped.  Before each step, a random pause (GAP_MIN..GAP_MAX
 * ms), so the steps fall at every phase of the daemons' timers.  One
 * line per step on stdout: the two latencies in ms.
 *
 *	suspwatch FIFO PID N "HIGH LINE" "LOW LINE" GAP_MIN GAP_MAX TIMEOUT_S
 *
 * Exits 1 when a step is not seen within TIMEOUT_S seconds.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void
pause_ms(double ms)
{
	struct timespec ts;

	ts.tv_sec = (time_t)(ms / 1e3);
	ts.tv_nsec = (long)((ms - ts.tv_sec * 1e3) * 1e6);
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* The state letter of /proc/PID/stat: after the ") " closing comm. */
static int
proc_state(const char *path)
{
	char buf[512], *p;
	ssize_t n;
	int fd;

	if ((fd = open(path, O_RDONLY)) < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	if ((p = strrchr(buf, ')')) == NULL || p[1] != ' ')
		return -1;
	return (unsigned char)p[2];
}

static int
send_line(int fd, const char *line)
{
	char buf[1024];
	int n = snprintf(buf, sizeof(buf), "%s\n", line);

	if (n < 0 || (size_t)n >= sizeof(buf))
		return -1;
	/* One write below PIPE_BUF: the ELIM reads it whole. */
	return write(fd, buf, (size_t)n) == n ? 0 : -1;
}

/* Poll until the process is (stopped) or is not (!stopped) in state T;
 * the time it took in ms, or -1 after timeout_ms or if it is gone. */
static double
wait_state(const char *path, int stopped, double t0, double timeout_ms)
{
	int st;

	for (;;) {
		st = proc_state(path);
		if (st < 0)
			return -1;
		if ((st == 'T') == stopped)
			return now_ms() - t0;
		if (now_ms() - t0 > timeout_ms)
			return -1;
		pause_ms(1);
	}
}

int
main(int argc, char **argv)
{
	char path[64];
	double gap_min, gap_max, timeout_ms, t0, stop, run;
	int fd, n;

	if (argc != 9) {
		fprintf(stderr, "usage: suspwatch FIFO PID N HIGH LOW GAP_MIN "
		    "GAP_MAX TIMEOUT_S\n");
		return 2;
	}
	snprintf(path, sizeof(path), "/proc/%s/stat", argv[2]);
	n = atoi(argv[3]);
	gap_min = atof(argv[6]);
	gap_max = atof(argv[7]);
	timeout_ms = atof(argv[8]) * 1e3;
	if ((fd = open(argv[1], O_WRONLY)) < 0) {
		perror(argv[1]);
		return 2;
	}
	srand((unsigned)getpid() ^ (unsigned)time(NULL));
	for (int i = 0; i < n; i++) {
		pause_ms(gap_min + (gap_max - gap_min) * rand() / RAND_MAX);
		t0 = now_ms();
		if (send_line(fd, argv[4]) < 0) {
			perror("write");
			return 2;
		}
		if ((stop = wait_state(path, 1, t0, timeout_ms)) < 0) {
			fprintf(stderr, "step %d: not stopped\n", i);
			return 1;
		}
		pause_ms(gap_min + (gap_max - gap_min) * rand() / RAND_MAX);
		t0 = now_ms();
		if (send_line(fd, argv[5]) < 0) {
			perror("write");
			return 2;
		}
		if ((run = wait_state(path, 0, t0, timeout_ms)) < 0) {
			fprintf(stderr, "step %d: not resumed\n", i);
			return 1;
		}
		printf("%.1f %.1f\n", stop, run);
		fflush(stdout);
	}
	return 0;
}
