/* The check before a control subcommand, and its question. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cmd-admin.h"

bool
adm_confirm(const char *question, bool force)
{
	char line[64];

	if (force || !isatty(STDIN_FILENO))
		return true;
	fprintf(stderr, "%s [y/n] ", question);
	fflush(stderr);
	if (fgets(line, sizeof(line), stdin) == NULL)
		return false;
	return line[0] == 'y' || line[0] == 'Y';
}

int
adm_check(unsigned parts, bool verbose, bool force, const char *question)
{
	int nwarn = 0;

	if (conf_check_warn(NULL, parts, verbose, stderr, &nwarn) != 0)
		return -1;
	if (nwarn > 0 && !adm_confirm(question, force))
		return -1;
	return 0;
}
