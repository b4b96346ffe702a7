/*
 * blimits: the lsb.resources limits mbatchd enforces and what running
 * and suspended jobs hold of them, as "used/limit" in LSF's INTERNAL
 * RESOURCE LIMITS table: one row per limit and consumer (per user,
 * queue, project or host for the PER_ forms), only the rows in use
 * unless -a.  -u, -q, -m, -P and -n keep the limits that apply to those
 * consumers or have those names; -c prints the configuration instead.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd-display.h"
#include "cmdopt.h"
#include "conf.h"

enum { O_A = 1, O_C, O_W, O_N, O_U, O_Q, O_M, O_P, O_HELP, O_VERSION };

static const struct cmdopt opts[] = {
	{ "a", false, O_A },
	{ "c", false, O_C },
	{ "w", false, O_W },
	{ "n", true, O_N },
	{ "u", true, O_U },
	{ "q", true, O_Q },
	{ "m", true, O_M },
	{ "P", true, O_P },
	{ "h", false, O_HELP },
	{ "V", false, O_VERSION },
	/* LSF's options this version does not do: refused by name. */
	CMDOPT_UNSUP("o", true),
	CMDOPT_UNSUP("A", true),
	CMDOPT_UNSUP("Lp", true),
	CMDOPT_UNSUP("fwd", false),
	CMDOPT_UNSUP("C", true),
	CMDOPT_UNSUP("gl", false),
	{ NULL, false, 0 }
};

static void NORETURN
usage(int rc)
{
	fprintf(stderr, "Usage: blimits [-h] [-V] [-a] [-c] [-w] "
	    "[-n limit_name ...]\n"
	    "               [-u user_name | -u user_group ...] "
	    "[-q queue_name ...]\n"
	    "               [-m host_name | -m host_group] "
	    "[-P project_name ...]\n");
	exit(rc);
}

/* "-u 'a b'" and "-u a -u b" both add a and b. */
static void
add_items(struct strv *args, const char *key, const char *val)
{
	struct strv w = STRV_INIT;

	strv_split_ws(&w, val);
	for (size_t i = 0; i < w.n; i++) {
		char *item = xasprintf("%s=%s", key, w.v[i]);

		strv_push(args, item);
		free(item);
	}
	strv_release(&w);
}

static void
usage_text(int used, int max, char *buf, size_t len)
{
	if (used < 0)
		snprintf(buf, len, "-");
	else if (max < 0)
		snprintf(buf, len, "%d/-", used);
	else
		snprintf(buf, len, "%d/%d", used, max);
}

#define NCOLS	10

static void
table(const struct limit_list *ll)
{
	static const char *const heads[NCOLS] = { "NAME", "USERS", "QUEUES",
	    "HOSTS", "PROJECTS", "SLOTS", "MEM", "TMP", "SWP", "JOBS" };
	char ***cells = xcalloc(ll->n + 1, sizeof(*cells));
	int width[NCOLS];
	struct strbuf sb = STRBUF_INIT;
	char buf[64];

	for (int c = 0; c < NCOLS; c++)
		width[c] = (int)strlen(heads[c]);
	for (uint32_t i = 0; i < ll->n; i++) {
		const struct limit_info *li = &ll->v[i];

		cells[i] = xcalloc(NCOLS, sizeof(char *));
		cells[i][0] = xstrdup(li->name);
		cells[i][1] = xstrdup(li->users);
		cells[i][2] = xstrdup(li->queues);
		cells[i][3] = xstrdup(li->hosts);
		cells[i][4] = xstrdup(li->projects);
		usage_text(li->slots_used, li->slots_max, buf, sizeof(buf));
		cells[i][5] = xstrdup(buf);
		usage_text(li->mem_used, li->mem_max, buf, sizeof(buf));
		cells[i][6] = xstrdup(buf);
		cells[i][7] = xstrdup("-");
		cells[i][8] = xstrdup("-");
		usage_text(li->jobs_used, li->jobs_max, buf, sizeof(buf));
		cells[i][9] = xstrdup(buf);
		for (int c = 0; c < NCOLS; c++)
			if ((int)strlen(cells[i][c]) > width[c])
				width[c] = (int)strlen(cells[i][c]);
	}
	printf("INTERNAL RESOURCE LIMITS:\n\n");
	for (int64_t i = -1; i < (int64_t)ll->n; i++) {
		int at = 5;

		for (int c = 0; c < NCOLS; c++) {
			const char *s = i < 0 ? heads[c] : cells[i][c];

			/* Names left-aligned, counts right-aligned. */
			if (c < 5) {
				col_left(&sb, at, s);
				at += width[c] + 3;
			} else {
				at += width[c];
				col_right(&sb, at - 1, s);
				at += 3;
			}
		}
		col_flush(&sb, stdout);
	}
	for (uint32_t i = 0; i < ll->n; i++) {
		for (int c = 0; c < NCOLS; c++)
			free(cells[i][c]);
		free(cells[i]);
	}
	free(cells);
	sb_release(&sb);
}

static void
put_list(const char *key, const struct strv *v)
{
	if (v->n == 0)
		return;
	printf("%s = ", key);
	for (size_t i = 0; i < v->n; i++)
		printf("%s%s", i ? " " : "", v->v[i]);
	printf("\n");
}

/* -c: the Limit sections as mbatchd reads them, key = value. */
static void
show_config(const struct strv *names)
{
	struct lsf_config cfg;
	struct conf_diag d;
	int shown = 0;

	conf_diag_init(&d);
	if (config_load(&cfg, NULL, CONF_ALL, &d) < 0 &&
	    !(cfg.loaded & CONF_LSB)) {
		conf_diag_print(&d, stderr);
		exit(255);
	}
	for (int i = 0; i < cfg.nlimits; i++) {
		const struct limit_conf *l = &cfg.limits[i];

		if (names->n > 0 && !strv_contains(names, l->name))
			continue;
		printf("%sBegin Limit\nNAME = %s\n", shown++ ? "\n" : "",
		    l->name);
		put_list(l->per_user ? "PER_USER" : "USERS", &l->users);
		put_list(l->per_queue ? "PER_QUEUE" : "QUEUES", &l->queues);
		put_list(l->per_host ? "PER_HOST" : "HOSTS", &l->hosts);
		put_list(l->per_project ? "PER_PROJECT" : "PROJECTS",
		    &l->projects);
		if (l->slots >= 0)
			printf("SLOTS = %d\n", l->slots);
		if (l->slots_per_proc >= 0)
			printf("SLOTS_PER_PROCESSOR = %g\n",
			    (double)l->slots_per_proc);
		if (l->mem >= 0)
			printf("MEM = %d\n", l->mem);
		if (l->mem_pct >= 0)
			printf("MEM = %g%%\n", (double)l->mem_pct);
		if (l->jobs >= 0)
			printf("JOBS = %d\n", l->jobs);
		printf("End Limit\n");
	}
	if (shown == 0)
		printf("No resource limits defined.\n");
	config_release(&cfg);
	conf_diag_release(&d);
}

int
main(int argc, char **argv)
{
	struct cmdopt_state st;
	struct strv args = STRV_INIT, names = STRV_INIT;
	struct limit_list ll;
	struct reply rp;
	const char *val;
	bool config = false;
	int id, nrest;

	progname = "blimits";
	cmdopt_init(&st, argc, argv, true);
	while ((id = cmdopt_next(&st, opts, &val)) != 0) {
		switch (id) {
		case O_A: strv_push(&args, "all"); break;
		case O_C: config = true; break;
		case O_W: break;	/* columns fit their values */
		case O_N:
			add_items(&args, "name", val);
			strv_split_ws(&names, val);
			break;
		case O_U: add_items(&args, "user", val); break;
		case O_Q: add_items(&args, "queue", val); break;
		case O_M: add_items(&args, "host", val); break;
		case O_P: add_items(&args, "project", val); break;
		case O_HELP: usage(0);
		case O_VERSION: disp_version();
		default: usage(255);
		}
	}
	(void)cmdopt_rest(&st, &nrest);
	if (nrest > 0)
		usage(255);
	if (config) {
		show_config(&names);
	} else {
		disp_mbd_query(MSG_LIMIT_QUERY, &args, MSG_LIMIT_LIST, &rp);
		memset(&ll, 0, sizeof(ll));
		if (!limit_list_unpack(&rp.r, &ll) || rbuf_end(&rp.r) < 0)
			disp_bad_reply("mbatchd");
		if (ll.n == 0)
			printf("No resource usage found.\n");
		else
			table(&ll);
		limit_list_release(&ll);
		reply_release(&rp);
	}
	strv_release(&args);
	strv_release(&names);
	cmdopt_release(&st);
	return 0;
}
