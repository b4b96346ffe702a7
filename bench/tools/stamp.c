/*
 * stamp: write the wall-clock time (seconds, 9 decimals) to a file; a
 * benchmark job runs it first thing to say when it started.  With HOLD,
 * it then waits (polling every millisecond, at most a minute) until the
 * file HOLD exists before it exits: workload 11's preemptor, which must
 * run until the benchmark has seen its victim stopped.
 *
 *	stamp FILE [HOLD]
 */
#include <stdio.h>
#include <time.h>
#include <unistd.h>

int
main(int argc, char **argv)
{
	struct timespec ts, ms = { 0, 1000000 };
	FILE *fp;

	clock_gettime(CLOCK_REALTIME, &ts);
	if (argc < 2 || argc > 3 || (fp = fopen(argv[1], "w")) == NULL)
		return 1;
	fprintf(fp, "%lld.%09ld\n", (long long)ts.tv_sec, ts.tv_nsec);
	if (fclose(fp) != 0)
		return 1;
	for (int i = 0; argc == 3 && i < 60000; i++) {
		if (access(argv[2], F_OK) == 0)
			break;
		nanosleep(&ms, NULL);
	}
	return 0;
}
