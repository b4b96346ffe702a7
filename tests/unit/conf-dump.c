/*
 * conf-dump [-v] [-p lsf|shared|cluster|lsb] envdir
 *
 * What the configuration golden tests (tests/conf/run.sh) compare: the
 * conf_check() report, then, when there are no errors, config_dump().
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "conf.h"

static unsigned
parse_parts(const char *s)
{
	if (strcmp(s, "lsf") == 0)
		return CONF_LSF;
	if (strcmp(s, "shared") == 0)
		return CONF_SHARED;
	if (strcmp(s, "cluster") == 0)
		return CONF_CLUSTER;
	if (strcmp(s, "lsb") == 0)
		return CONF_ALL;
	die("unknown part %s (lsf, shared, cluster or lsb)", s);
}

int
main(int argc, char **argv)
{
	struct lsf_config cfg;
	unsigned parts = CONF_ALL;
	bool verbose = false;
	int c, rc;

	progname = "conf-dump";
	while ((c = getopt(argc, argv, "p:v")) != -1) {
		switch (c) {
		case 'p':
			parts = parse_parts(optarg);
			break;
		case 'v':
			verbose = true;
			break;
		default:
			goto usage;
		}
	}
	if (optind != argc - 1)
		goto usage;
	rc = conf_check(argv[optind], parts, verbose, stdout);
	if (rc == 0) {
		fputs("---\n", stdout);
		(void)config_load(&cfg, argv[optind], parts, NULL);
		config_dump(&cfg, stdout);
		config_release(&cfg);
	}
	return rc;
usage:
	fprintf(stderr, "usage: conf-dump [-v] [-p lsf|shared|cluster|lsb] "
	    "envdir\n");
	return 2;
}
