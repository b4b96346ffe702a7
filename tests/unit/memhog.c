/*
 * memhog MB SECONDS: hold MB megabytes of resident memory (every page
 * written), then sleep.  The scenario tests use it to cross a memory
 * limit.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int
main(int argc, char **argv)
{
	long mb, secs;
	char *p;

	if (argc != 3 || (mb = atol(argv[1])) <= 0 ||
	    (secs = atol(argv[2])) < 0) {
		fprintf(stderr, "usage: memhog MB SECONDS\n");
		return 2;
	}
	/* A megabyte at a time, so the growth is seen as it happens. */
	for (long i = 0; i < mb; i++) {
		if ((p = malloc(1 << 20)) == NULL) {
			perror("malloc");
			return 1;
		}
		memset(p, 1, 1 << 20);
	}
	sleep((unsigned)secs);
	return 0;
}
