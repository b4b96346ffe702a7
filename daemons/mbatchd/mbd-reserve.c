/*
 * rusage[] reservations.  A started job whose effective requirement has
 * rusage[mem=500:duration=10:decay=1] holds that much of the load index
 * on each of its hosts, for the duration (or for as long as it runs),
 * shrinking linearly with decay.  Before each pass the reservations are
 * summed into pol_host.rsv, which the policy subtracts from the load it
 * shows to select[] and checks against the rusage of the jobs it places.
 */
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "mbd.h"

static struct job **held;
static size_t nheld, capheld;

static const struct resreq *
effective_rr(const struct job *j)
{
	return j->rr ? j->rr : j->queue ? j->queue->rr : NULL;
}

void
reserve_add(struct job *j)
{
	const struct resreq *rr = effective_rr(j);

	if (j->in_rsv || rr == NULL || rr->nrusage == 0)
		return;
	if (nheld == capheld) {
		capheld = capheld ? capheld * 2 : 64;
		held = xrealloc(held, capheld * sizeof(*held));
	}
	held[nheld++] = j;
	j->in_rsv = true;
}

void
reserve_drop(struct job *j)
{
	if (!j->in_rsv)
		return;
	for (size_t i = 0; i < nheld; i++)
		if (held[i] == j) {
			held[i] = held[--nheld];
			break;
		}
	j->in_rsv = false;
}

/* How much of a reservation is left t seconds into the job. */
static double
share(const struct rr_usage *u, int64_t t)
{
	double d = (double)u->duration * 60;

	if (u->duration <= 0)
		return 1;
	if (t >= d)
		return 0;
	return u->decay ? 1 - (double)t / d : 1;
}

void
reserve_pass(int64_t now)
{
	for (int i = 0; i < mbd->nhosts; i++)
		memset(mbd->hosts[i]->ph.rsv, 0, sizeof(mbd->hosts[i]->ph.rsv));
	for (size_t n = 0; n < nheld; ) {
		struct job *j = held[n];
		const struct resreq *rr = effective_rr(j);

		if (!JOB_STAT_STARTED(j->status) || rr == NULL) {
			reserve_drop(j);
			continue;
		}
		for (int u = 0; u < rr->nrusage; u++) {
			int k = rr->rusage[u].idx;
			double v;

			if (k < 0)
				continue;
			v = rr->rusage[u].value * share(&rr->rusage[u],
			    now - j->start_time);
			/* Once per host, however many of its slots. */
			for (int e = 0; e < j->nexec; e++) {
				bool first = true;

				for (int p = 0; p < e; p++)
					if (j->exec[p] == j->exec[e])
						first = false;
				if (first)
					j->exec[e]->ph.rsv[k] += (float)v;
			}
		}
		n++;
	}
}
