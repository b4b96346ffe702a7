/*
 * conf_check(): what "badmin ckconfig", "lsadmin ckconfig" and
 * "mbatchd -n" print: every diagnostic, then a verdict.
 */
#include <stdio.h>
#include <stdlib.h>

#include "conf.h"

int
conf_check(const char *envdir, unsigned parts, bool verbose, FILE *out)
{
	return conf_check_warn(envdir, parts, verbose, out, NULL);
}

int
conf_check_warn(const char *envdir, unsigned parts, bool verbose, FILE *out,
    int *nwarnings)
{
	struct lsf_config cfg;
	struct conf_diag d;
	int rc;

	conf_diag_init(&d);
	(void)config_load(&cfg, envdir, parts, &d);
	/* What only mbatchd's host can say: checked where this runs. */
	if ((parts & CONF_LSB) && (cfg.loaded & CONF_LSF))
		lsf_conf_check_hist(&cfg.lsf, &d);
	fputs("\nChecking configuration files ...\n\n", out);
	/* Every file read, in the order read: included ones too. */
	if (verbose)
		for (size_t i = 0; i < d.files.n; i++)
			fprintf(out, "Reading %s\n", d.files.v[i]);
	/* LSF: the diagnostics, a blank line, the verdict, a blank line. */
	if (d.msgs.n > 0 || verbose) {
		conf_diag_print(&d, out);
		fputc('\n', out);
	}
	if (d.nerrors > 0)
		fputs("There are fatal errors.\n\n", out);
	else if (d.nwarnings > 0)
		fputs("There are warning errors.\n\n", out);
	else
		fputs("No errors found.\n\n", out);
	rc = d.nerrors > 0 ? 1 : 0;
	if (nwarnings != NULL)
		*nwarnings = d.nwarnings;
	conf_diag_release(&d);
	config_release(&cfg);
	return rc;
}
