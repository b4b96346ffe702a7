/*
 * The limits the supervisor enforces on the whole job (the sum over its
 * processes), with LSF's signals:
 *
 *	run limit (-W, RUNLIMIT)  SIGUSR2; the kill sequence 10 minutes later
 *	deadline (-t)             SIGUSR2; the kill sequence 10 minutes later
 *	CPU limit (-c, CPULIMIT)  SIGXCPU; the kill sequence an interval later
 *	memory limit (-M)         the kill sequence
 *
 * The queue's (or the profile's) JOB_WARNING_ACTION goes first, its
 * JOB_ACTION_WARNING_TIME before the run limit or the deadline.
 *
 * The run limit counts wall-clock time since the job started, suspended
 * or not; CPU and memory are what the processes use.  The first limit
 * reached decides the job's fate; the others are not checked after it.
 */
#include <signal.h>
#include <sys/resource.h>
#include <time.h>

#include "sbd.h"

/* How long a job may outlive the SIGUSR2 of a run limit or deadline. */
#define GRACE_MS	(10 * 60 * 1000)

static void
limits_set(struct job_limits *l, const int64_t *rl, int64_t term_time)
{
	int64_t run = rl[LSF_RLIMIT_RUN];

	l->run_end_ms = run > 0 ? l->start_ms + (uint64_t)run * 1000 : 0;
	l->deadline = term_time > 0 ? term_time : 0;
	l->cpu = rl[LSF_RLIMIT_CPU] > 0 ? (double)rl[LSF_RLIMIT_CPU] : 0;
	l->mem_kb = rl[LSF_RLIMIT_RSS] > 0 ? rl[LSF_RLIMIT_RSS] : 0;
}

void
limits_init(struct job_limits *l, const struct job_spec *s, uint64_t start_ms)
{
	l->start_ms = start_ms;
	limits_set(l, s->rlimits, s->term_time);
	l->term_ms = (s->term_interval >= 0 ? s->term_interval : 10) * 1000;
	l->fired = false;
	l->warn_secs = s->warning_action && *s->warning_action &&
	    s->warning_time > 0 ? s->warning_time : 0;
	l->warned = false;
}

/*
 * JOB_WARNING_ACTION, JOB_ACTION_WARNING_TIME: the action is taken once,
 * that long before the run limit or the deadline (the first reached).
 * A job started with less time left than that is warned at once.  A
 * bmod that moves the limit later does not warn again.
 */
bool
limits_warn_due(struct job_limits *l, uint64_t now_ms, int64_t now)
{
	uint64_t w = (uint64_t)l->warn_secs * 1000;

	if (l->warn_secs <= 0 || l->warned || l->fired)
		return false;
	if ((l->run_end_ms && now_ms + w >= l->run_end_ms) ||
	    (l->deadline && now + l->warn_secs >= l->deadline)) {
		l->warned = true;
		return true;
	}
	return false;
}

/*
 * bmod of the running job: the run limit still counts from the start,
 * so a shorter one may be reached at once.  A limit already reached
 * has decided the job's fate; a new one does not undo that.
 */
void
limits_update(struct job_limits *l, const struct sbd_limits *m)
{
	limits_set(l, m->rlimits, m->term_time);
}

bool
limits_active(const struct job_limits *l)
{
	return !l->fired && (l->run_end_ms || l->deadline || l->cpu > 0 ||
	    l->mem_kb > 0);
}

bool
limits_need_usage(const struct job_limits *l)
{
	return !l->fired && (l->cpu > 0 || l->mem_kb > 0);
}

int
limits_check(struct job_limits *l, uint64_t now_ms, int64_t now, double cpu,
    int64_t mem_kb, int *sig, int *kill_after_ms)
{
	int reason = 0;

	if (l->fired)
		return 0;
	*sig = 0;
	*kill_after_ms = 0;
	if (l->mem_kb > 0 && mem_kb > l->mem_kb) {
		reason = TERM_MEMLIMIT;
	} else if (l->cpu > 0 && cpu >= l->cpu) {
		reason = TERM_CPULIMIT;
		*sig = SIGXCPU;
		*kill_after_ms = l->term_ms;
	} else if (l->run_end_ms && now_ms >= l->run_end_ms) {
		reason = TERM_RUNLIMIT;
		*sig = SIGUSR2;
		*kill_after_ms = GRACE_MS;
	} else if (l->deadline && now >= l->deadline) {
		reason = TERM_DEADLINE;
		*sig = SIGUSR2;
		*kill_after_ms = GRACE_MS;
	}
	if (reason)
		l->fired = true;
	return reason;
}

/*
 * The limits the kernel enforces on each process: bsub -F, -D, -S, -C,
 * -v (as the address space) in KB, -p processes.  Only lowered, never
 * above what sbatchd itself may use.
 */
void
limits_set_rlimits(const struct job_spec *s)
{
	static const struct {
		int	 lsf;
		int	 res;
		rlim_t	 unit;
	} map[] = {
		{ LSF_RLIMIT_FSIZE, RLIMIT_FSIZE, 1024 },
		{ LSF_RLIMIT_DATA, RLIMIT_DATA, 1024 },
		{ LSF_RLIMIT_STACK, RLIMIT_STACK, 1024 },
		{ LSF_RLIMIT_CORE, RLIMIT_CORE, 1024 },
		{ LSF_RLIMIT_SWAP, RLIMIT_AS, 1024 },
		{ LSF_RLIMIT_PROCESS, RLIMIT_NPROC, 1 },
	};

	for (size_t i = 0; i < ARRAY_SIZE(map); i++) {
		int64_t v = s->rlimits[map[i].lsf];
		struct rlimit rl;
		rlim_t want;

		/* DEFAULT_RLIMIT (-1): none; 0 is a limit (-C 0). */
		if (v < 0 || getrlimit(map[i].res, &rl) < 0)
			continue;
		want = (rlim_t)v * map[i].unit;
		if (rl.rlim_max != RLIM_INFINITY && want > rl.rlim_max)
			want = rl.rlim_max;
		rl.rlim_cur = rl.rlim_max = want;
		(void)setrlimit(map[i].res, &rl);
	}
}
