/*
 * badmin: the batch administrator's command.  This version checks the
 * configuration (ckconfig) and shows mbatchd's lsf.conf parameters
 * (showconf mbd); the control subcommands come later and say so rather
 * than pretend to work.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd-display.h"
#include "cmdopt.h"

/* LSF's subcommands this version does not do yet. */
static const char *const later[] = {
	"reconfig", "mbdrestart", "hclose", "hopen", "qclose", "qopen",
	"qact", "qinact", "hist", "qhist", "hhist", "mbdhist", "hrestart",
	"hshutdown", "hstartup", "hghostadd", "hghostdel", "perfmon",
	"diagnose", "schddebug", "schdtime", "sbddebug", "sbdtime",
	"mbddebug", "mbdtime", "security", "rc", "gpddebug", "gpdtime",
	"showstatus", "lsfproxyd",
};

static void NORETURN
usage(int rc)
{
	fprintf(stderr,
	    "Usage: badmin [-h] [-V] subcommand [options]\n"
	    "Subcommands:\n"
	    "    ckconfig [-v]      check the batch configuration files\n"
	    "    showconf mbd       show the lsf.conf parameters mbatchd "
	    "uses\n"
	    "    help               show this list\n"
	    "Not supported by this version:\n"
	    "    reconfig mbdrestart hopen hclose qopen qclose qact qinact\n"
	    "    hist qhist hhist mbdhist hrestart hshutdown hstartup\n");
	exit(rc);
}

static int
ckconfig(int argc, char **argv)
{
	return disp_ckconfig(argc, argv, CONF_ALL, usage);
}

/*
 * showconf mbd: a header line, then only "    KEY = VALUE" lines;
 * workflow tools split every line after the first on " = ".
 */
static int
showconf(int argc, char **argv)
{
	struct kv_list kv;
	struct reply rp;

	if (argc != 2)
		usage(255);
	if (strcmp(argv[1], "sbd") == 0) {
		fprintf(stderr, "badmin: showconf sbd is not supported by this "
		    "version\n");
		return 255;
	}
	if (strcmp(argv[1], "mbd") != 0)
		usage(255);
	disp_mbd_query(MSG_MBD_CONF_QUERY, NULL, MSG_CONF_LIST, &rp);
	memset(&kv, 0, sizeof(kv));
	if (!kv_list_unpack(&rp.r, &kv) || rbuf_end(&rp.r) < 0)
		disp_bad_reply("mbatchd");
	disp_conf_header(stdout, "MBD");
	disp_kv(stdout, &kv);
	kv_list_release(&kv);
	reply_release(&rp);
	return 0;
}

int
main(int argc, char **argv)
{
	const char *sub;

	progname = "badmin";
	if (argc < 2)
		usage(255);
	sub = argv[1];
	if (strcmp(sub, "-h") == 0 || strcmp(sub, "help") == 0)
		usage(0);
	if (strcmp(sub, "-V") == 0)
		disp_version();
	if (strcmp(sub, "ckconfig") == 0)
		return ckconfig(argc - 1, argv + 1);
	if (strcmp(sub, "showconf") == 0)
		return showconf(argc - 1, argv + 1);
	for (size_t i = 0; i < ARRAY_SIZE(later); i++)
		if (strcmp(sub, later[i]) == 0) {
			fprintf(stderr, "badmin: %s is not supported by this "
			    "version\n", sub);
			return 255;
		}
	fprintf(stderr, "badmin: invalid subcommand %s\n", sub);
	usage(255);
}
