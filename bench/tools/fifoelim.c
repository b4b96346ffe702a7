/*
 * fifoelim: workload 10's ELIM.  Prints the last whole line written to
 * FIFO as soon as it arrives, and again every 200 ms so the LIM never
 * drops the values as stale.  A line is printed only once its newline
 * is in (a shell's `read -t` can time out in the middle of one and lose
 * it; this cannot).  It starts with the line in FILE.
 *
 *	fifoelim FIFO FILE
 *
 * The bench installs it in LSF_SERVERDIR as a script that runs it with
 * the FIFO and file of its host (LSF_LOCAL_HOST).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define LINE_MAX_LEN	1024

static char	cur[LINE_MAX_LEN];

static void
print_cur(void)
{
	size_t n = strlen(cur);

	/* One write, under PIPE_BUF: the LIM reads it whole. */
	if (n > 0 && write(STDOUT_FILENO, cur, n) < 0 && errno == EPIPE)
		_exit(0);
}

int
main(int argc, char **argv)
{
	char buf[LINE_MAX_LEN];
	size_t len = 0;
	struct pollfd p;
	FILE *fp;
	ssize_t n;
	char *nl;

	if (argc != 3)
		return 2;
	if ((fp = fopen(argv[2], "r")) != NULL) {
		if (fgets(cur, sizeof(cur), fp) == NULL)
			cur[0] = '\0';
		fclose(fp);
	}
	/* Read and write: never an end of file when no writer is open. */
	if ((p.fd = open(argv[1], O_RDWR)) < 0)
		return 1;
	p.events = POLLIN;
	for (;;) {
		print_cur();
		if (poll(&p, 1, 200) <= 0)
			continue;
		if ((n = read(p.fd, buf + len, sizeof(buf) - 1 - len)) <= 0)
			continue;
		len += (size_t)n;
		buf[len] = '\0';
		/* The last whole line becomes the current one. */
		while ((nl = memchr(buf, '\n', len)) != NULL) {
			size_t l = (size_t)(nl + 1 - buf);

			memcpy(cur, buf, l);
			cur[l] = '\0';
			len -= l;
			memmove(buf, nl + 1, len);
		}
		if (len == sizeof(buf) - 1)
			len = 0;	/* no newline in 1 kB: dropped */
	}
}
