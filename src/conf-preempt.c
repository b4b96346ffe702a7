/*
 * Preemption settings: PREEMPTION and TERMINATE_WHEN of lsb.queues,
 * PREEMPT_FOR of lsb.params, and the check, once every queue is known,
 * that the queues PREEMPTION names exist and stand in the right order of
 * priority.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "conf-lex.h"

static const struct {
	const char	*word;
	unsigned	 bit;
} preempt_for_words[] = {
	{ "GROUP_JLP", PREEMPT_FOR_GROUP_JLP },
	{ "GROUP_MAX", PREEMPT_FOR_GROUP_MAX },
	{ "HOST_JLU", PREEMPT_FOR_HOST_JLU },
	{ "USER_JLP", PREEMPT_FOR_USER_JLP },
	{ "LEAST_RUN_TIME", PREEMPT_FOR_LEAST_RUN_TIME },
	{ "MINI_JOB", PREEMPT_FOR_MINI_JOB },
	{ "OPTIMAL_MINI_JOB", PREEMPT_FOR_OPTIMAL_MINI_JOB },
}, terminate_words[] = {
	{ "WINDOW", TERMINATE_WHEN_WINDOW },
	{ "LOAD", TERMINATE_WHEN_LOAD },
	{ "PREEMPT", TERMINATE_WHEN_PREEMPT },
};

static int
parse_words(const char *s, unsigned *out, const char **bad,
    const void *table, size_t n)
{
	static char word[64];
	const struct { const char *word; unsigned bit; } *t = table;
	struct strv w = STRV_INIT;
	int rc = 0;

	*out = 0;
	strv_split_ws(&w, s);
	for (size_t i = 0; i < w.n && rc == 0; i++) {
		size_t k;

		for (k = 0; k < n; k++)
			if (strcasecmp(w.v[i], t[k].word) == 0)
				break;
		if (k == n) {
			snprintf(word, sizeof(word), "%s", w.v[i]);
			*bad = word;
			rc = -1;
		} else {
			*out |= t[k].bit;
		}
	}
	strv_release(&w);
	return rc;
}

int
parse_preempt_for(const char *s, unsigned *out, const char **bad)
{
	return parse_words(s, out, bad, preempt_for_words,
	    ARRAY_SIZE(preempt_for_words));
}

int
parse_terminate_when(const char *s, unsigned *out, const char **bad)
{
	return parse_words(s, out, bad, terminate_words,
	    ARRAY_SIZE(terminate_words));
}

void
queue_preempt_release(struct queue_preempt *p)
{
	strv_release(&p->victims);
	strv_release(&p->by);
	free(p->pref);
	memset(p, 0, sizeof(*p));
	strv_init(&p->victims);
	strv_init(&p->by);
}

static const char *
skip_ws(const char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	return s;
}

/* "[a+2 b c]" into names (and their +N when pref is given). */
static const char *
parse_list(const char **sp, struct strv *names, int **pref, bool plus_ok)
{
	const char *s = skip_ws(*sp), *end;
	char *inner;
	struct strv w = STRV_INIT;
	const char *why = NULL;

	if (*s != '[')
		return NULL;		/* no list: every queue */
	if ((end = strchr(s, ']')) == NULL)
		return "missing ]";
	inner = xstrndup(s + 1, (size_t)(end - s - 1));
	strv_split_ws(&w, inner);
	free(inner);
	if (w.n == 0)
		why = "empty queue list";
	for (size_t i = 0; i < w.n && why == NULL; i++) {
		char *plus = strchr(w.v[i], '+');
		int n = 0;

		if (plus != NULL) {
			if (!plus_ok) {
				why = "+N preference is only for PREEMPTIVE";
				break;
			}
			*plus = '\0';
			if (conf_int(plus + 1, 1, 1000000, &n) < 0) {
				why = "a +N preference must be a positive "
				    "integer";
				break;
			}
		}
		if (w.v[i][0] == '\0') {
			why = "a queue name is missing";
			break;
		}
		if (strv_contains(names, w.v[i])) {
			why = "a queue is named twice";
			break;
		}
		strv_push(names, w.v[i]);
		if (pref != NULL) {
			*pref = xrealloc(*pref, sizeof(int) * names->n);
			(*pref)[names->n - 1] = n;
		}
	}
	strv_release(&w);
	*sp = end + 1;
	return why;
}

int
parse_preemption(const char *s, struct queue_preempt *p, const char **why)
{
	queue_preempt_release(p);
	*why = NULL;
	for (s = skip_ws(s); *s != '\0' && *why == NULL; s = skip_ws(s)) {
		if (strncasecmp(s, "PREEMPTIVE", 10) == 0 &&
		    (s[10] == '\0' || s[10] == '[' || isspace((unsigned char)s[10]))) {
			if (p->preemptive)
				*why = "PREEMPTIVE is given twice";
			p->preemptive = true;
			s += 10;
			if (*why == NULL)
				*why = parse_list(&s, &p->victims, &p->pref,
				    true);
		} else if (strncasecmp(s, "PREEMPTABLE", 11) == 0 &&
		    (s[11] == '\0' || s[11] == '[' || isspace((unsigned char)s[11]))) {
			if (p->preemptable)
				*why = "PREEMPTABLE is given twice";
			p->preemptable = true;
			s += 11;
			if (*why == NULL)
				*why = parse_list(&s, &p->by, NULL, false);
		} else {
			*why = "expected PREEMPTIVE[queues] and/or "
			    "PREEMPTABLE[queues]";
		}
	}
	if (*why != NULL) {
		queue_preempt_release(p);
		return -1;
	}
	return 0;
}

/*
 * Drop the names of queues that do not exist or stand on the wrong side
 * of this one's priority, with a warning each: LSF ignores them too.
 */
static void
check_list(const struct lsf_config *cfg, const struct queue_conf *q,
    struct strv *names, int *pref, bool lower, const char *what,
    const char *path, struct conf_diag *d)
{
	size_t k = 0;

	for (size_t i = 0; i < names->n; i++) {
		const struct queue_conf *o = config_queue(cfg, names->v[i]);
		const char *why = NULL;

		if (o == NULL)
			why = "is not a queue";
		else if (o == q)
			why = "is this queue";
		else if (lower ? o->priority >= q->priority :
		    o->priority <= q->priority)
			why = lower ? "does not have a lower PRIORITY" :
			    "does not have a higher PRIORITY";
		if (why != NULL) {
			conf_diag_warn(d, path, q->preempt.line,
			    "queue %s: %s[%s]: %s %s; ignored", q->name, what,
			    names->v[i], names->v[i], why);
			free(names->v[i]);
			continue;
		}
		if (pref != NULL)
			pref[k] = pref[i];
		names->v[k++] = names->v[i];
	}
	names->n = k;
	if (names->v != NULL)
		names->v[k] = NULL;
}

void
lsb_queues_check_preemption(struct lsf_config *cfg, const char *path,
    struct conf_diag *d)
{
	for (int i = 0; i < cfg->nqueues; i++) {
		struct queue_conf *q = &cfg->queues[i];
		size_t nv = q->preempt.victims.n, nb = q->preempt.by.n;

		check_list(cfg, q, &q->preempt.victims, q->preempt.pref, true,
		    "PREEMPTIVE", path, d);
		check_list(cfg, q, &q->preempt.by, NULL, false, "PREEMPTABLE",
		    path, d);
		/* A list left empty is no list at all: not "every queue". */
		if (nv > 0 && q->preempt.victims.n == 0)
			q->preempt.preemptive = false;
		if (nb > 0 && q->preempt.by.n == 0)
			q->preempt.preemptable = false;
	}
}
