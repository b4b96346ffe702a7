/*
 * The LIM's view of its own host: the static figures lshosts shows and the
 * eleven built-in load indices lsload shows, read from Linux's /proc, plus
 * the helpers that print those values the way lsload and lshosts do.
 *
 * Nothing here reads a clock or talks to a daemon: the caller passes the
 * time in, so tests can replay a fixture /proc tree at chosen instants.
 * Every /proc file is named relative to a "procroot" ("/proc" in
 * production):
 *
 *   procroot/loadavg   r15s (running count), r1m, r15m
 *   procroot/stat      ut (aggregate "cpu" line); ncpus ("cpuN" lines)
 *   procroot/vmstat    pg (pswpin + pswpout), io (pgpgin + pgpgout, in KB)
 *   procroot/meminfo   swp, mem; maxmem, maxswp
 *   procroot/uptime    it when the host has no terminal
 *   procroot/cpuinfo   model, nprocs, ncores, nthreads
 *
 * A missing or malformed file never crashes anything: the indices it feeds
 * keep their previous value (0 before the first good read).
 *
 * Smoothing is exponential, new = old * e + sample * (1 - e) with
 * e = exp(-dt / tau), dt the seconds since the previous sample, so the
 * result does not depend on how often the LIM happens to sample.
 */
#ifndef LSF_LOADSAMPLE_H
#define LSF_LOADSAMPLE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lsf.h"

/*
 * Time constants in seconds.  r15s is LSF's 15-second run queue.  ut,
 * pg and io are "averaged over the last minute": ut uses 20 s so that a
 * host that suddenly becomes fully busy reads above 50% within one 15 s
 * exchange interval and above 95% within a minute, which is what load
 * thresholds on ut need.  pg and io are burstier, and 30 s gives the same
 * mean age of data (30 s) as a plain one-minute window would.
 */
#define LOAD_TAU_R15S	15.0
#define LOAD_TAU_UT	20.0
#define LOAD_TAU_PG	30.0
#define LOAD_TAU_IO	30.0

/* What lshosts shows about a host; all sizes in MB, 0 when unknown. */
struct host_static {
	char	 type[32];	/* uname machine, upper-cased: X86_64 */
	char	 model[32];	/* short CPU model, or UNKNOWN_AUTO_DETECT */
	float	 cpuf;		/* CPU factor: 1.0; the config overrides it */
	int	 ncpus;		/* online CPUs; 1 when unknown */
	int	 nprocs;	/* physical processors (sockets) */
	int	 ncores;	/* cores per processor */
	int	 nthreads;	/* threads per core */
	int	 maxmem;	/* MemTotal */
	int	 maxswp;	/* SwapTotal */
	int	 maxtmp;	/* size of the file system holding tmpdir */
};

/*
 * Fill hs from procroot (and uname(2), statvfs(tmpdir)).  Every field is
 * set, to a best-effort default when its source is unreadable.  Returns -1
 * if none of procroot/stat, cpuinfo and meminfo could be read, else 0.
 */
int	 host_static_read(struct host_static *hs, const char *procroot,
	    const char *tmpdir);

/* A cumulative kernel counter pair and when it was read. */
struct load_counter {
	bool	 	 valid;
	uint64_t	 a, b;
	double		 t;
};

/*
 * Sampler state.  Callers treat it as opaque, except that utmp_path and
 * dev_dir may be overwritten after load_sampler_init() (tests do).
 */
struct load_sampler {
	char			 procroot[PATH_MAX];
	char			 tmpdir[PATH_MAX];
	/* Login records for ls: procroot/utmp if present, else _PATH_UTMP. */
	char			 utmp_path[PATH_MAX];
	/* Terminals for it (pts/N, ttyN): procroot/dev if present, or /dev. */
	char			 dev_dir[PATH_MAX];

	struct load_counter	 cpu;		/* a = busy ticks, b = total */
	struct load_counter	 swap;		/* a = pswpin + pswpout */
	struct load_counter	 blkio;		/* a = pgpgin + pgpgout (KB) */
	double			 r15s_t;	/* when r15s was last sampled */
	bool			 have[NLOADIDX];/* smoothed value is seeded */
	float			 load[NLOADIDX];/* what was last reported */
};

void	 load_sampler_init(struct load_sampler *, const char *procroot,
	    const char *tmpdir);

/*
 * Take one sample.  now is monotonic seconds (smoothing and rates), wallnow
 * seconds since the epoch (terminal idle times); both are passed in.  Fills
 * load[NLOADIDX] with:
 *
 *   r15s  running tasks from loadavg minus the sampler itself, smoothed
 *   r1m, r15m  loadavg fields 1 and 3
 *   ut    non-idle share of CPU ticks, 0..1, smoothed
 *   pg    swap pages in + out per second, smoothed
 *   io    KB read + written per second, smoothed
 *   ls    distinct users with a USER_PROCESS utmp record
 *   it    whole minutes since the most recent terminal input (the newest
 *         atime of dev_dir/pts/N and dev_dir/ttyN), or the uptime in
 *         minutes when the host has no terminal
 *   tmp   free MB for unprivileged users in tmpdir's file system
 *   swp   SwapFree MB
 *   mem   MemAvailable MB (MemFree + Cached on kernels before 3.14)
 *
 * The rate indices (ut, pg, io) read 0 until two samples are apart in
 * time; their first rate is reported as is, later ones are smoothed.  A
 * counter that went backwards (reset, CPU hot-unplug) restarts its rate.
 * Returns 0, or -1 if no index at all could be refreshed.
 */
int	 load_sample(struct load_sampler *, double now, double wallnow,
	    float load[NLOADIDX]);

/*
 * Print a load index value into buf the way lsload and bhosts -l do;
 * len >= 16 holds any result.
 *
 *   r15s r1m r15m pg   one decimal: "0.4", "12.5"
 *   ut                 rounded percent: "35%"
 *   io ls it           rounded integer: "8", "14324"
 *   swp mem            MB below 1024 M as "603M", above as in fmt_mem_mb
 *   tmp                the same, but in M up to 10 G ("2391M", "10G"):
 *                      lsload keeps tmp in MB longer than swp and mem
 *
 * A negative, NaN or INFINIT_LOAD value, or an unknown index, is "-".
 * Zero is "0M" for the MB indices.
 */
void	 fmt_load_value(int idx, float value, char *buf, size_t len);

/*
 * Print MB the way lshosts prints maxmem, maxswp and maxtmp, "-" for 0 or
 * less.  Rounded to whole MB, below 1024 M: "603M".  Otherwise in G with
 * one decimal when the value rounded to a tenth has a non-zero tenth and
 * is below 1000 G ("1.4G", "127.2G"), else whole G ("10G", "683G",
 * "1667G").
 */
void	 fmt_mem_mb(double mb, char *buf, size_t len);

#endif
