/*
 * The scheduling pass's decisions carried out in the state: a preempted
 * job resumed, or a job started on the slots the policy chose, its
 * victims suspended or ended first.  What leaves mbatchd (the job to its
 * host) is the caller's: mbd-sched.c sends it, the workload 9 simulator
 * (bench/sim) plays the host itself.
 */
#include <stdlib.h>

#include "mbd.h"

void
job_start(struct job *j, const int *slots, int64_t now)
{
	int n = j->pj.num_procs;
	struct mhost **hosts = xcalloc((size_t)n, sizeof(*hosts));

	for (int i = 0; i < n; i++) {
		hosts[i] = mbd->hosts[slots[i]];
		hosts[i]->ph.last_dispatch = now;
	}
	job_start_record(j, hosts, n, now);
	free(hosts);
}

struct job *
sched_apply(const struct pol_decision *d, int64_t now)
{
	struct job *j = JOB_OF_PJ(d->job);

	if (d->resume) {
		preempt_resume(j);
		return NULL;
	}
	/* An array's parent: its next element starts. */
	if (JOB_IS_PARENT(j) && (j = array_take_next(j)) == NULL)
		return NULL;
	/* Its victims give up their slots first. */
	if (d->nvictims > 0)
		preempt_victims(j, d->victims, d->nvictims);
	job_start(j, d->slots, now);
	return j;
}
