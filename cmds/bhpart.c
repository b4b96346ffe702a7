/*
 * bhpart: the host partitions of lsb.hosts (HostPartition sections) and
 * their share trees as mbatchd holds them; -r every level of a
 * hierarchical tree.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd-display.h"
#include "cmd-fairshare.h"
#include "cmdopt.h"
#include "conf.h"

enum { O_R = 1, O_HELP, O_VERSION };

static const struct cmdopt opts[] = {
	{ "r", false, O_R },
	{ "h", false, O_HELP },
	{ "V", false, O_VERSION },
	{ NULL, false, 0 }
};

static void NORETURN
usage(int rc)
{
	fprintf(stderr, "Usage: bhpart [-h] [-V] [-r] "
	    "[host_partition_name ...]\n");
	exit(rc);
}

/* HOSTS as written, a host group's name followed by a slash. */
static void
print_hosts(const struct lsf_config *c, const struct strv *hosts)
{
	printf("HOSTS:");
	for (size_t i = 0; i < hosts->n; i++) {
		bool group = false;

		for (int g = 0; c != NULL && g < c->nhgroups && !group; g++)
			group = strcmp(c->hgroups[g].name, hosts->v[i]) == 0;
		printf(" %s%s", hosts->v[i], group ? "/" : "");
	}
	printf("\n");
}

static const struct fs_info *
find(const struct fs_list *fl, const char *name)
{
	for (uint32_t i = 0; i < fl->n; i++)
		if (strcmp(fl->v[i].name, name) == 0)
			return &fl->v[i];
	return NULL;
}

static void
show(const struct lsf_config *c, const struct fs_info *x, bool recurse,
    bool first)
{
	if (!first)
		printf("\n");
	printf("HOST_PARTITION_NAME: %s\n", x->name);
	print_hosts(c, &x->members);
	fs_print(stdout, x, recurse);
}

int
main(int argc, char **argv)
{
	struct cmdopt_state st;
	struct strv names = STRV_INIT;
	struct fs_list fl;
	const struct lsf_config *c;
	const struct fs_info *x;
	const char *val;
	bool recurse = false;
	char **rest;
	int id, nrest, rc = 0, shown = 0;

	progname = "bhpart";
	cmdopt_init(&st, argc, argv, true);
	while ((id = cmdopt_next(&st, opts, &val)) != 0) {
		switch (id) {
		case O_R: recurse = true; break;
		case O_HELP: usage(0);
		case O_VERSION: disp_version();
		default: usage(255);
		}
	}
	rest = cmdopt_rest(&st, &nrest);
	for (int i = 0; i < nrest; i++)
		strv_push(&names, rest[i]);
	/* Host groups, to mark them in HOSTS. */
	c = client_config(CONF_ALL);

	fs_fetch("hpart", &names, &fl);
	if (nrest == 0) {
		for (uint32_t i = 0; i < fl.n; i++)
			show(c, &fl.v[i], recurse, shown++ == 0);
		if (fl.n == 0) {
			fprintf(stderr, "No host partition found\n");
			rc = 255;
		}
	}
	for (int i = 0; i < nrest; i++) {
		if ((x = find(&fl, rest[i])) == NULL) {
			fprintf(stderr, "%s: No such host partition\n",
			    rest[i]);
			rc = 255;
			continue;
		}
		show(c, x, recurse, shown++ == 0);
	}
	fs_list_release(&fl);
	strv_release(&names);
	cmdopt_release(&st);
	return rc;
}
