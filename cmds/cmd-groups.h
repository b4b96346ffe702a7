/*
 * bugroup and bmgroup: the user groups of lsb.users and the host groups
 * of lsb.hosts, from the configuration files as mbatchd reads them.
 */
#ifndef CMD_GROUPS_H
#define CMD_GROUPS_H

#include <stdbool.h>

/* The whole command; hosts picks bmgroup. */
int	 groups_main(int argc, char **argv, bool hosts);

#endif
