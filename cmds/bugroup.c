/* bugroup: the user groups of lsb.users (cmd-groups.c). */
#include "cmd-groups.h"

int
main(int argc, char **argv)
{
	return groups_main(argc, argv, false);
}
