/*
 * rtcli: the least a submitting command can do, for bench/limits'
 * durable round trip: connect to the Unix socket argv[1], send a request
 * the size of bsub's, wait for the answer, print one line.  Built as
 * the commands are (static, musl where there is musl-gcc).
 */
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#define REQ_SIZE 1808	/* bsub's; bench/limits.c reads as much */

int
main(int argc, char **argv)
{
	static const char line[] = "Job <1> is submitted to queue <idle>.\n";
	struct sockaddr_un sun;
	char buf[REQ_SIZE];
	size_t off;
	ssize_t n;
	int s;

	if (argc != 2 || strlen(argv[1]) >= sizeof(sun.sun_path))
		return 2;
	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	strcpy(sun.sun_path, argv[1]);
	if ((s = socket(AF_UNIX, SOCK_STREAM, 0)) < 0 ||
	    connect(s, (struct sockaddr *)&sun, sizeof(sun)) < 0)
		return 1;
	memset(buf, 'x', sizeof(buf));
	for (off = 0; off < sizeof(buf); off += (size_t)n)
		if ((n = write(s, buf + off, sizeof(buf) - off)) <= 0)
			return 1;
	if (read(s, buf, sizeof(buf)) <= 0)
		return 1;
	return write(1, line, sizeof(line) - 1) == sizeof(line) - 1 ? 0 : 1;
}
