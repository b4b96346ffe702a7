/*
 * spawnloop: run a command N times, one after another on each of C
 * workers, as a submitting client would; print how many ran and
 * succeeded.  The submission workloads use it instead of a shell loop so
 * that a submission costs what the spawn limit (bench/limits.c) measures,
 * a fork and exec from a small C parent, and not a shell's fork too.
 *
 *	spawnloop [-c workers] [-t seconds] N command [args...]
 *
 * Output goes to /dev/null.  Stops early (and says so on stderr) when a
 * run fails or the time is up.  Prints the number of successful runs.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* One worker: n runs in sequence; returns the successful ones. */
static long
worker(long n, double deadline, char **argv)
{
	long ok = 0;

	for (long i = 0; i < n; i++) {
		int st;
		pid_t pid;

		if ((i & 31) == 31 && now() > deadline) {
			fprintf(stderr, "spawnloop: time is up after %ld\n", i);
			break;
		}
		pid = fork();
		if (pid < 0) {
			perror("spawnloop: fork");
			break;
		}
		if (pid == 0) {
			int fd = open("/dev/null", O_RDWR);

			if (fd >= 0) {
				dup2(fd, 1);
				dup2(fd, 2);
			}
			execvp(argv[0], argv);
			_exit(127);
		}
		while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
			;
		if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
			fprintf(stderr, "spawnloop: %s failed (status %d)\n",
			    argv[0], st);
			break;
		}
		ok++;
	}
	return ok;
}

int
main(int argc, char **argv)
{
	int c, workers = 1, pfd[2];
	double secs = 300, deadline;
	long n, total = 0;

	while ((c = getopt(argc, argv, "+c:t:")) != -1) {
		switch (c) {
		case 'c':
			workers = atoi(optarg);
			break;
		case 't':
			secs = atof(optarg);
			break;
		default:
			goto usage;
		}
	}
	if (argc - optind < 2 || workers < 1)
		goto usage;
	n = atol(argv[optind]);
	argv += optind + 1;
	deadline = now() + secs;
	if (workers == 1) {
		printf("%ld\n", worker(n, deadline, argv));
		return 0;
	}
	if (pipe(pfd) < 0) {
		perror("spawnloop: pipe");
		return 1;
	}
	for (int w = 0; w < workers; w++) {
		long share = n / workers + (w < n % workers);

		if (fork() == 0) {
			long ok = worker(share, deadline, argv);

			if (write(pfd[1], &ok, sizeof(ok)) != sizeof(ok))
				_exit(1);
			_exit(0);
		}
	}
	close(pfd[1]);
	for (int w = 0; w < workers; w++) {
		long ok;

		if (read(pfd[0], &ok, sizeof(ok)) == sizeof(ok))
			total += ok;
	}
	while (wait(NULL) > 0)
		;
	printf("%ld\n", total);
	return 0;
usage:
	fprintf(stderr, "usage: spawnloop [-c workers] [-t seconds] N "
	    "command [args...]\n");
	return 2;
}
