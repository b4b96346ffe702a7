/*
 * $LSF_CONFDIR/hosts: "address name [aliases]" lines like /etc/hosts, for
 * sites whose resolver does not know every host.  It is optional, and a
 * bad line costs only that line.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>

#include "conf-lex.h"

static bool
valid_addr(const char *s)
{
	struct in6_addr a6;
	struct in_addr a4;

	return inet_pton(AF_INET, s, &a4) == 1 ||
	    inet_pton(AF_INET6, s, &a6) == 1;
}

void
hosts_file_read(struct lsf_config *cfg, const char *path, struct conf_diag *d)
{
	struct conf_file f;

	if (conf_file_read(&f, path, 0, d) < 0) {
		conf_diag_warn(d, path, 0, "cannot read: %s",
		    strerror(errno));
		conf_file_release(&f);
		return;
	}
	for (int i = 0; i < f.nlines; i++) {
		struct strv w = STRV_INIT;
		struct hosts_entry *he;

		strv_split_ws(&w, f.lines[i].text);
		if (w.n < 2 || !valid_addr(w.v[0])) {
			conf_diag_warn(d, path, f.lines[i].line,
			    w.n < 2 ? "expected \"address name [aliases]\"; "
			    "line ignored" : "bad address; line ignored");
			strv_release(&w);
			continue;
		}
		cfg->hostsfile = conf_grow(cfg->hostsfile, cfg->nhostsfile,
		    sizeof(*cfg->hostsfile));
		he = &cfg->hostsfile[cfg->nhostsfile++];
		he->addr = xstrdup(w.v[0]);
		he->name = xstrdup(w.v[1]);
		strv_init(&he->aliases);
		for (size_t j = 2; j < w.n; j++)
			strv_push(&he->aliases, w.v[j]);
		strv_release(&w);
	}
	conf_file_release(&f);
}

void
hosts_file_release(struct lsf_config *cfg)
{
	for (int i = 0; i < cfg->nhostsfile; i++) {
		free(cfg->hostsfile[i].addr);
		free(cfg->hostsfile[i].name);
		strv_release(&cfg->hostsfile[i].aliases);
	}
	free(cfg->hostsfile);
	cfg->hostsfile = NULL;
	cfg->nhostsfile = 0;
}
