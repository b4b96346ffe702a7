/* Tables behind the values in lsf.h. */
#include <ctype.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lsf.h"
#include "util.h"

const struct load_index_info load_index_info[NLOADIDX] = {
	{ "r15s", "15-second CPU run queue length", true },
	{ "r1m", "1-minute CPU run queue length", true },
	{ "r15m", "15-minute CPU run queue length", true },
	{ "ut", "1-minute CPU utilization (0.0 to 1.0)", true },
	{ "pg", "Paging activity (pages in + pages out per second)", true },
	{ "io", "Disk I/O rate (Kbytes per second)", true },
	{ "ls", "Number of login sessions", true },
	{ "it", "Idle time (minutes)", false },
	{ "tmp", "Disk space in /tmp (Mbytes)", false },
	{ "swp", "Available swap space (Mbytes)", false },
	{ "mem", "Available memory (Mbytes)", false },
};

int
load_index_lookup(const char *name)
{
	int c = tolower((unsigned char)name[0]);

	/* The first letter first: mbatchd looks its rusage[] indices up
	 * for every running job before every pass (reserve_pass). */
	for (int i = 0; i < NLOADIDX; i++)
		if (load_index_info[i].name[0] == c &&
		    strcasecmp(name, load_index_info[i].name) == 0)
			return i;
	return -1;
}

static const struct {
	int	 bit;
	const char *word;
} stat_words[] = {
	{ JOB_STAT_PEND, "PEND" }, { JOB_STAT_PSUSP, "PSUSP" },
	{ JOB_STAT_RUN, "RUN" }, { JOB_STAT_SSUSP, "SSUSP" },
	{ JOB_STAT_USUSP, "USUSP" }, { JOB_STAT_EXIT, "EXIT" },
	{ JOB_STAT_DONE, "DONE" }, { JOB_STAT_WAIT, "WAIT" },
	{ JOB_STAT_UNKWN, "UNKWN" },
};

const char *
job_stat_str(int s)
{
	/* UNKWN wins over the state it hides; post-exec bits do not show. */
	if (s & JOB_STAT_UNKWN)
		return "UNKWN";
	for (size_t i = 0; i < ARRAY_SIZE(stat_words); i++)
		if (s & stat_words[i].bit)
			return stat_words[i].word;
	return "NULL";
}

static const char *const term_names[TERM_NREASONS] = {
	[TERM_UNKNOWN] = NULL,
	[TERM_PREEMPT] = "TERM_PREEMPT", [TERM_WINDOW] = "TERM_WINDOW",
	[TERM_LOAD] = "TERM_LOAD", [TERM_OTHER] = "TERM_OTHER",
	[TERM_RUNLIMIT] = "TERM_RUNLIMIT", [TERM_DEADLINE] = "TERM_DEADLINE",
	[TERM_PROCESSLIMIT] = "TERM_PROCESSLIMIT",
	[TERM_FORCE_OWNER] = "TERM_FORCE_OWNER",
	[TERM_FORCE_ADMIN] = "TERM_FORCE_ADMIN",
	[TERM_REQUEUE_OWNER] = "TERM_REQUEUE_OWNER",
	[TERM_REQUEUE_ADMIN] = "TERM_REQUEUE_ADMIN",
	[TERM_CPULIMIT] = "TERM_CPULIMIT", [TERM_CHKPNT] = "TERM_CHKPNT",
	[TERM_OWNER] = "TERM_OWNER", [TERM_ADMIN] = "TERM_ADMIN",
	[TERM_MEMLIMIT] = "TERM_MEMLIMIT",
	[TERM_EXTERNAL_SIGNAL] = "TERM_EXTERNAL_SIGNAL",
	[TERM_RMS] = "TERM_RMS", [TERM_ZOMBIE] = "TERM_ZOMBIE",
	[TERM_SWAP] = "TERM_SWAP", [TERM_THREADLIMIT] = "TERM_THREADLIMIT",
	[TERM_SLURM] = "TERM_SLURM", [TERM_BUCKET_KILL] = "TERM_BUCKET_KILL",
	[TERM_CTRL_PID] = "TERM_CTRL_PID",
	[TERM_CWD_NOTEXIST] = "TERM_CWD_NOTEXIST",
};

static const char *const term_texts[TERM_NREASONS] = {
	[TERM_PREEMPT] = "job killed after preemption",
	[TERM_WINDOW] = "job killed after queue run window closed",
	[TERM_LOAD] = "job killed after load exceeds threshold",
	[TERM_OTHER] = "job killed for an unknown reason",
	[TERM_RUNLIMIT] = "job killed after reaching LSF run time limit",
	[TERM_DEADLINE] = "job killed after deadline",
	[TERM_PROCESSLIMIT] = "job killed after reaching LSF process limit",
	[TERM_FORCE_OWNER] = "job killed by owner without time for cleanup",
	[TERM_FORCE_ADMIN] = "job killed by root or LSF administrator "
	    "without time for cleanup",
	[TERM_REQUEUE_OWNER] = "job killed and requeued by owner",
	[TERM_REQUEUE_ADMIN] = "job killed and requeued by root or LSF "
	    "administrator",
	[TERM_CPULIMIT] = "job killed after reaching LSF CPU usage limit",
	[TERM_CHKPNT] = "job killed after checkpointing",
	[TERM_OWNER] = "job killed by owner",
	[TERM_ADMIN] = "job killed by root or LSF administrator",
	[TERM_MEMLIMIT] = "job killed after reaching LSF memory usage limit",
	[TERM_EXTERNAL_SIGNAL] = "job killed by a signal external to LSF",
	[TERM_RMS] = "job exited from an RMS system error",
	[TERM_ZOMBIE] = "job exited while LSF is not available",
	[TERM_SWAP] = "job killed after reaching LSF swap usage limit",
	[TERM_THREADLIMIT] = "job killed after reaching LSF thread limit",
	[TERM_SLURM] = "job terminated abnormally in SLURM",
	[TERM_BUCKET_KILL] = "job killed with bkill -b",
	[TERM_CTRL_PID] = "job terminated after control PID died",
	[TERM_CWD_NOTEXIST] = "current working directory is not accessible "
	    "or does not exist on the execution host",
};

const char *
term_reason_name(int r)
{
	return r > 0 && r < TERM_NREASONS ? term_names[r] : NULL;
}

const char *
term_reason_text(int r)
{
	return r > 0 && r < TERM_NREASONS ? term_texts[r] : NULL;
}

static const char *const pend_texts[PEND_NREASONS] = {
	[PEND_NONE] = "",
	[PEND_NEW_JOB] = "New job is waiting for scheduling",
	[PEND_USER_STOP] = "The job was suspended by the user while pending",
	[PEND_ADMIN_STOP] =
	    "The job was suspended by LSF admin or root while pending",
	[PEND_QUEUE_INACT] = "The queue is inactivated by the administrator",
	[PEND_QUEUE_WINDOW] = "The queue is inactivated by its time windows",
	[PEND_QUEUE_JOB_LIMIT] = "The queue has reached its job slot limit",
	[PEND_NO_HOST] = "",
	[PEND_HOST_REQ] = "None of the specified hosts is usable by the queue",
	[PEND_BAD_RESREQ] = "Bad resource requirement syntax",
	[PEND_LOAD_UNAVAIL] = "Load information unavailable",
	[PEND_NO_SERVER] = "There are no suitable hosts for the job",
	[PEND_BEGIN_TIME] = "The job has a specified start time",
	[PEND_DEPEND] = "Job dependency condition not satisfied",
	[PEND_DEP_INVALID] = "Dependency condition invalid or never satisfied",
	[PEND_PRE_EXEC] =
	    "The job's pre-exec command exited with non-zero status",
	[PEND_QUEUE_USER_LIMIT] =
	    "User has reached the per-user job slot limit of the queue",
	[PEND_USER_LIMIT] = "The user has reached his/her job slot limit",
	[PEND_ARRAY_LIMIT] =
	    "The job array has reached its running element limit",
	[PEND_MIGRATING] = "The migrating job is waiting to be rescheduled",
	[PEND_REQUEUED] = "The job was requeued and waits to be rescheduled",
	[PEND_RL_CLUSTER] =
	    "Resource (slot) limit defined cluster-wide has been reached",
	[PEND_RL_CLUSTER_JOBS] =
	    "Resource (jobs) limit defined cluster-wide has been reached",
	[PEND_RL_CLUSTER_MEM] =
	    "Resource (mem) limit defined cluster-wide has been reached",
	[PEND_RL_QUEUE] =
	    "Resource (slot) limit defined on queue has been reached",
	[PEND_RL_QUEUE_JOBS] =
	    "Resource (jobs) limit defined on queue has been reached",
	[PEND_RL_QUEUE_MEM] =
	    "Resource (mem) limit defined on queue has been reached",
	[PEND_RL_USER] = "Resource (slot) limit defined for the user or user "
	    "group has been reached",
	[PEND_RL_USER_JOBS] = "Resource (jobs) limit defined for the user or "
	    "user group has been reached",
	[PEND_RL_USER_MEM] = "Resource (mem) limit defined for the user or "
	    "user group has been reached",
	[PEND_RL_PROJECT] =
	    "Resource (slot) limit defined for the project has been reached",
	[PEND_RL_PROJECT_JOBS] =
	    "Resource (jobs) limit defined for the project has been reached",
	[PEND_RL_PROJECT_MEM] =
	    "Resource (mem) limit defined for the project has been reached",
	[PEND_FAIRSHARE] =
	    "Waiting for users with a higher fairshare priority",
	[PEND_NO_SHARE] =
	    "The user has no share in the queue's fairshare policy",
	[PEND_HOST_LOST] =
	    "The job was requeued after its execution host became unavailable",
	[PEND_PRE_EXEC_LIMIT] = "The job was suspended: its pre-execution "
	    "command failed the maximum number of times",
	[PEND_REQUEUE_LIMIT] =
	    "The job reached its requeue limit (MAX_JOB_REQUEUE)",
};

static const char *const host_texts[HR_NREASONS] = {
	[HR_NONE] = "",
	[HR_CLOSED_ADM] = "Closed by LSF administrator",
	[HR_FULL] = "Job slot limit reached",
	[HR_LOAD_SCHED] = "Load threshold reached",
	[HR_QUEUE_LOAD] = "Queue's load threshold reached",
	[HR_RESREQ] = "Job's resource requirements not satisfied",
	[HR_UNAVAIL] = "Load information unavailable",
	[HR_NOT_USED_BY_QUEUE] = "Not usable to the queue",
	[HR_NOT_REQUESTED] = "Not specified in job submission",
	[HR_EXCLUSIVE] = "Running an exclusive job",
	[HR_NOT_ENOUGH] = "Not enough job slot(s)",
	[HR_JUST_STARTED] = "Just started a job recently",
	[HR_WINDOW] = "Dispatch windows closed",
	[HR_EXCL_REQ] =
	    "Job's requirement for exclusive execution not satisfied",
	[HR_QUEUE_HOST_LIMIT] = "The queue's per-host job slot limit reached",
	[HR_QUEUE_PROC_LIMIT] =
	    "The queue's per-processor job slot limit reached",
	[HR_HOST_USER_LIMIT] =
	    "User has reached the per-user job slot limit of the host",
	[HR_USER_PROC_LIMIT] =
	    "User has reached the per-processor job slot limit",
	[HR_RESERVED] =
	    "Resources reserved by other jobs: not enough left",
	[HR_LOCKED] = "Host is locked",
	[HR_RLIMIT_SLOT] = "Resource (slot) limit defined on host(s) and/or "
	    "host group has been reached",
	[HR_RLIMIT_JOBS] = "Resource (jobs) limit defined on host(s) and/or "
	    "host group has been reached",
	[HR_RLIMIT_MEM] = "Resource (mem) limit defined on host(s) and/or "
	    "host group has been reached",
	[HR_EXIT_EXCLUDED] = "Job exited on this host with an EXCLUDE "
	    "requeue exit value",
};

static const char *const susp_texts[SUSP_NREASONS] = {
	[SUSP_NONE] = "",
	[SUSP_USER_STOP] = "The job was suspended by user",
	[SUSP_ADMIN_STOP] = "The job was suspended by LSF admin or root",
	[SUSP_USER_RESUME] =
	    "Waiting for re-scheduling after being resumed by user",
	[SUSP_QUEUE_WINDOW] = "The run windows of the queue are closed",
	[SUSP_LOAD] = "Host load exceeded threshold",
	[SUSP_HOST_LOCK] =
	    "The execution host is locked by LSF administrator now",
	[SUSP_STOP_COND] = "STOP_COND is true with current host load",
	[SUSP_PREEMPTED] = "The job was preempted",
};

const char *
susp_reason_text(int r)
{
	return r >= 0 && r < SUSP_NREASONS ? susp_texts[r] : "";
}

int
susp_reason_lsf_bits(int r)
{
	/* lsbatch.h's values, fixed by LSF's API. */
	switch (r) {
	case SUSP_USER_RESUME:
		return 0x00000001;		/* SUSP_USER_RESUME */
	case SUSP_USER_STOP:
		return 0x00000002;		/* SUSP_USER_STOP */
	case SUSP_QUEUE_WINDOW:
		return 0x00000008;		/* SUSP_QUEUE_WINDOW */
	case SUSP_HOST_LOCK:
		return 0x00000020;		/* SUSP_HOST_LOCK */
	case SUSP_LOAD:
		return 0x00000040;		/* SUSP_LOAD_REASON */
	case SUSP_STOP_COND:
		return 0x00000200;		/* SUSP_QUE_STOP_COND */
	case SUSP_ADMIN_STOP:
		return 0x00004000;		/* SUSP_ADMIN_STOP */
	case SUSP_PREEMPTED:
		return 0x00000080;		/* SUSP_MBD_PREEMPT */
	default:
		return 0;
	}
}

const char *
susp_reason_fmt(int reason, int sub, const char *ext, char *buf,
    size_t len)
{
	const char *desc;
	size_t n;

	if (reason == SUSP_LOAD && sub >= NLOADIDX && ext != NULL &&
	    *ext != '\0') {
		snprintf(buf, len, "%s: %s", susp_reason_text(SUSP_LOAD), ext);
		return buf;
	}
	if (reason == SUSP_PREEMPTED && sub > 0) {
		snprintf(buf, len, "%s by job <%d>",
		    susp_reason_text(reason), sub);
		return buf;
	}
	if (reason != SUSP_LOAD || sub < 0 || sub >= NLOADIDX) {
		snprintf(buf, len, "%s", susp_reason_text(reason));
		return buf;
	}
	if (sub == LI_PG) {
		snprintf(buf, len, "Job was suspended due to paging rate (pg) "
		    "and the host is not idle yet");
		return buf;
	}
	/* The index's description without its unit in brackets. */
	desc = load_index_info[sub].desc;
	n = strcspn(desc, "(");
	while (n > 0 && desc[n - 1] == ' ')
		n--;
	snprintf(buf, len, "%s: %.*s (%s)", susp_reason_text(SUSP_LOAD),
	    (int)n, desc, load_index_info[sub].name);
	return buf;
}

const char *
pend_reason_text(int r)
{
	return r >= 0 && r < PEND_NREASONS ? pend_texts[r] : "";
}

const char *
host_reason_text(int r)
{
	return r >= 0 && r < HR_NREASONS ? host_texts[r] : "";
}

static const struct {
	int	 sig;
	const char *name;
} sig_names[] = {
	{ SIGHUP, "HUP" }, { SIGINT, "INT" }, { SIGQUIT, "QUIT" },
	{ SIGILL, "ILL" }, { SIGTRAP, "TRAP" }, { SIGABRT, "ABRT" },
	{ SIGBUS, "BUS" }, { SIGFPE, "FPE" }, { SIGKILL, "KILL" },
	{ SIGUSR1, "USR1" }, { SIGSEGV, "SEGV" }, { SIGUSR2, "USR2" },
	{ SIGPIPE, "PIPE" }, { SIGALRM, "ALRM" }, { SIGTERM, "TERM" },
	{ SIGCHLD, "CHLD" }, { SIGCONT, "CONT" }, { SIGSTOP, "STOP" },
	{ SIGTSTP, "TSTP" }, { SIGTTIN, "TTIN" }, { SIGTTOU, "TTOU" },
	{ SIGURG, "URG" }, { SIGXCPU, "XCPU" }, { SIGXFSZ, "XFSZ" },
	{ SIGVTALRM, "VTALRM" }, { SIGPROF, "PROF" }, { SIGWINCH, "WINCH" },
	{ SIGIO, "IO" }, { SIGPWR, "PWR" }, { SIGSYS, "SYS" },
};

int
sig_from_name(const char *s)
{
	long n;

	if (strncasecmp(s, "SIG", 3) == 0)
		s += 3;
	if (parse_long(s, &n) == 0)
		return n >= 0 && n < 65 ? (int)n : -1;
	for (size_t i = 0; i < ARRAY_SIZE(sig_names); i++)
		if (strcasecmp(s, sig_names[i].name) == 0)
			return sig_names[i].sig;
	return -1;
}

const char *
sig_name(int sig)
{
	for (size_t i = 0; i < ARRAY_SIZE(sig_names); i++)
		if (sig_names[i].sig == sig)
			return sig_names[i].name;
	return NULL;
}
