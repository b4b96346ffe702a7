/*
 * stamp: write the wall-clock time (seconds, 9 decimals) to a file; a
 * benchmark job runs it first thing to say when it started.
 *
 *	stamp FILE
 */
#include <stdio.h>
#include <time.h>

int
main(int argc, char **argv)
{
	struct timespec ts;
	FILE *fp;

	clock_gettime(CLOCK_REALTIME, &ts);
	if (argc != 2 || (fp = fopen(argv[1], "w")) == NULL)
		return 1;
	fprintf(fp, "%lld.%09ld\n", (long long)ts.tv_sec, ts.tv_nsec);
	return fclose(fp) == 0 ? 0 : 1;
}
