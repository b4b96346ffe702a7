/* bmgroup: the host groups of lsb.hosts (cmd-groups.c). */
#include "cmd-groups.h"

int
main(int argc, char **argv)
{
	return groups_main(argc, argv, true);
}
