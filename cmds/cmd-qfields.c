/*
 * bqueues -o and -json: LSF's queue field names (and their aliases) with
 * the width each gets with "name:", and the values bqueues shows ("-"
 * for a value not set); cmd-fields.c lays them out.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cmd-fields.h"
#include "cmd-qfields.h"
#include "util.h"

void
qfmt_status(int st, bool longform, char *buf, size_t len)
{
	const char *act;

	if (!(st & QUEUE_STAT_ACTIVE))
		act = longform ? "Inact_Adm" : "Inact";
	else if (!(st & QUEUE_STAT_RUN))
		act = longform ? "Inact_Win" : "Inact";
	else
		act = "Active";
	snprintf(buf, len, "%s:%s", (st & QUEUE_STAT_OPEN) ? "Open" : "Closed",
	    act);
}

void
qfmt_limit(int v, char *buf, size_t len)
{
	if (v < 0)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%d", v);
}

/* JL/P is a float in lsb.queues: "2", or "1.5" when it has a fraction. */
void
qfmt_plimit(float v, char *buf, size_t len)
{
	if (v < 0)
		snprintf(buf, len, "-");
	else if (v == floorf(v))
		snprintf(buf, len, "%.0f", (double)v);
	else
		snprintf(buf, len, "%.1f", (double)v);
}

/* Memory limits are kept in KB; show the largest exact unit. */
void
qfmt_mem(int64_t kb, char *buf, size_t len)
{
	if (kb < 0)
		snprintf(buf, len, "-");
	else if (kb % (1024 * 1024) == 0)
		snprintf(buf, len, "%lld G", (long long)(kb / (1024 * 1024)));
	else if (kb % 1024 == 0)
		snprintf(buf, len, "%lld M", (long long)(kb / 1024));
	else
		snprintf(buf, len, "%lld K", (long long)kb);
}

const char *
qfmt_extra(const struct queue_info *q, const char *key)
{
	for (size_t i = 0; i < q->extra.keys.n && i < q->extra.vals.n; i++)
		if (strcasecmp(q->extra.keys.v[i], key) == 0)
			return q->extra.vals.v[i];
	return NULL;
}

static void
minutes(int64_t m, char *buf, size_t len)
{
	if (m < 0)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.1f min", (double)m);
}

/* A limit without a field of its own: the word of its "[default] max"
 * text in lsb.queues, in LSF_UNIT_FOR_LIMITS. */
static void
raw_limit(const struct queue_info *q, const char *key, bool dflt, char *buf,
    size_t len)
{
	const char *v = qfmt_extra(q, key);
	struct strv w = STRV_INIT;

	snprintf(buf, len, "-");
	if (v != NULL) {
		strv_split_ws(&w, v);
		if (!dflt && w.n > 0)
			snprintf(buf, len, "%s", w.v[w.n - 1]);
		else if (dflt && w.n == 2)
			snprintf(buf, len, "%s", w.v[0]);
	}
	strv_release(&w);
}

enum qf {
	QF_NAME, QF_DESC, QF_PRIO, QF_STATUS, QF_MAX, QF_JLU, QF_JLP, QF_JLH,
	QF_NJOBS, QF_PEND, QF_RUN, QF_SUSP, QF_RSV, QF_USUSP, QF_SSUSP,
	QF_NICE, QF_CORE, QF_CPU, QF_DEF_CPU, QF_DATA, QF_DEF_DATA, QF_FILE,
	QF_MEM, QF_DEF_MEM, QF_PROC, QF_DEF_PROC, QF_RUNL, QF_DEF_RUNL,
	QF_STACK, QF_SWAP, QF_TASK, QF_MIN_TASK, QF_DEF_TASK, QF_THREAD,
	QF_DEF_THREAD, QF_RESREQ, QF_HOSTS, QF_USERS
};

static const struct fmt_field fields[] = {
	{ "queue_name", "qname", 15, QF_NAME },
	{ "description", "desc", 50, QF_DESC },
	{ "priority", "prio", 10, QF_PRIO },
	{ "status", "stat", 12, QF_STATUS },
	{ "max", NULL, 10, QF_MAX },
	{ "jl_u", "jlu", 10, QF_JLU },
	{ "jl_p", "jlp", 10, QF_JLP },
	{ "jl_h", "jlh", 10, QF_JLH },
	{ "njobs", NULL, 10, QF_NJOBS },
	{ "pend", NULL, 10, QF_PEND },
	{ "run", NULL, 10, QF_RUN },
	{ "susp", NULL, 10, QF_SUSP },
	{ "rsv", NULL, 10, QF_RSV },
	{ "ususp", NULL, 10, QF_USUSP },
	{ "ssusp", NULL, 10, QF_SSUSP },
	{ "nice", NULL, 6, QF_NICE },
	{ "max_corelimit", "corelimit", 8, QF_CORE },
	{ "max_cpulimit", "cpulimit", 30, QF_CPU },
	{ "default_cpulimit", "def_cpulimit", 30, QF_DEF_CPU },
	{ "max_datalimit", "datalimit", 8, QF_DATA },
	{ "default_datalimit", "def_datalimit", 8, QF_DEF_DATA },
	{ "max_filelimit", "filelimit", 8, QF_FILE },
	{ "max_memlimit", "memlimit", 8, QF_MEM },
	{ "default_memlimit", "def_memlimit", 8, QF_DEF_MEM },
	{ "max_processlimit", "processlimit", 8, QF_PROC },
	{ "default_processlimit", "def_processlimit", 8, QF_DEF_PROC },
	{ "max_runlimit", "runlimit", 12, QF_RUNL },
	{ "default_runlimit", "def_runlimit", 12, QF_DEF_RUNL },
	{ "max_stacklimit", "stacklimit", 8, QF_STACK },
	{ "max_swaplimit", "swaplimit", 8, QF_SWAP },
	{ "max_tasklimit", "tasklimit", 6, QF_TASK },
	{ "min_tasklimit", NULL, 6, QF_MIN_TASK },
	{ "default_tasklimit", "def_tasklimit", 6, QF_DEF_TASK },
	{ "max_threadlimit", "threadlimit", 6, QF_THREAD },
	{ "default_threadlimit", "def_threadlimit", 6, QF_DEF_THREAD },
	{ "res_req", NULL, 20, QF_RESREQ },
	{ "hosts", NULL, 50, QF_HOSTS },
	{ "users", NULL, 50, QF_USERS },
};

static void
value(const void *rec, int id, char *buf, size_t len)
{
	const struct queue_info *q = rec;
	const char *s = NULL;

	switch ((enum qf)id) {
	case QF_NAME: s = q->name; break;
	case QF_DESC: s = q->description; break;
	case QF_PRIO: snprintf(buf, len, "%d", q->priority); return;
	case QF_STATUS: qfmt_status(q->status, false, buf, len); return;
	case QF_MAX: qfmt_limit(q->qjob_limit, buf, len); return;
	case QF_JLU: qfmt_limit(q->ujob_limit, buf, len); return;
	case QF_JLP: qfmt_plimit(q->pjob_limit, buf, len); return;
	case QF_JLH: qfmt_limit(q->hjob_limit, buf, len); return;
	case QF_NJOBS: snprintf(buf, len, "%d", q->njobs); return;
	case QF_PEND: snprintf(buf, len, "%d", q->npend); return;
	case QF_RUN: snprintf(buf, len, "%d", q->nrun); return;
	case QF_SUSP:
		snprintf(buf, len, "%d", q->nssusp + q->nususp);
		return;
	case QF_RSV: snprintf(buf, len, "%d", q->nrsv); return;
	case QF_USUSP: snprintf(buf, len, "%d", q->nususp); return;
	case QF_SSUSP: snprintf(buf, len, "%d", q->nssusp); return;
	case QF_NICE: snprintf(buf, len, "%d", q->nice); return;
	case QF_CORE: raw_limit(q, "CORELIMIT", false, buf, len); return;
	case QF_CPU: minutes(q->cpulimit, buf, len); return;
	case QF_DEF_CPU: minutes(q->cpulimit_dflt, buf, len); return;
	case QF_DATA: raw_limit(q, "DATALIMIT", false, buf, len); return;
	case QF_DEF_DATA: raw_limit(q, "DATALIMIT", true, buf, len); return;
	case QF_FILE: raw_limit(q, "FILELIMIT", false, buf, len); return;
	case QF_MEM: qfmt_mem(q->memlimit, buf, len); return;
	case QF_DEF_MEM: qfmt_mem(q->memlimit_dflt, buf, len); return;
	case QF_PROC: raw_limit(q, "PROCESSLIMIT", false, buf, len); return;
	case QF_DEF_PROC:
		raw_limit(q, "PROCESSLIMIT", true, buf, len);
		return;
	case QF_RUNL: minutes(q->runlimit, buf, len); return;
	case QF_DEF_RUNL: minutes(q->runlimit_dflt, buf, len); return;
	case QF_STACK: raw_limit(q, "STACKLIMIT", false, buf, len); return;
	case QF_SWAP: raw_limit(q, "SWAPLIMIT", false, buf, len); return;
	case QF_TASK: qfmt_limit(q->proclimit, buf, len); return;
	case QF_MIN_TASK: {
		/* "[min [default]] max": the minimum only with three. */
		const char *v = qfmt_extra(q, "TASKLIMIT");
		struct strv w = STRV_INIT;

		if (v == NULL)
			v = qfmt_extra(q, "PROCLIMIT");
		snprintf(buf, len, "-");
		if (v != NULL) {
			strv_split_ws(&w, v);
			if (w.n >= 2)
				snprintf(buf, len, "%s", w.v[0]);
		}
		strv_release(&w);
		return;
	}
	case QF_DEF_TASK: qfmt_limit(q->proclimit_dflt, buf, len); return;
	case QF_THREAD: raw_limit(q, "THREADLIMIT", false, buf, len); return;
	case QF_DEF_THREAD:
		raw_limit(q, "THREADLIMIT", true, buf, len);
		return;
	case QF_RESREQ: s = q->res_req; break;
	case QF_HOSTS: s = q->hosts; break;
	case QF_USERS: s = q->users; break;
	}
	snprintf(buf, len, "%s", s && *s ? s : "-");
}

int
qfmt_print(const struct queue_info *qs, uint32_t n, const char *spec,
    bool json, bool noheader, char **bad)
{
	const struct fmt_set set = { "bqueues", "QUEUES", fields,
	    ARRAY_SIZE(fields), value };

	return fmt_print(&set, qs, sizeof(*qs), n, spec, json, noheader, bad);
}
