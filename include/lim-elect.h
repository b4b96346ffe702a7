/*
 * The time bounds of the LIMs' master election (daemons/lim/lim-elect.c),
 * here because mbatchd's rule for a lost host (hostfail.h) gives each
 * host the time an election can take it to find the master.
 *
 * A LIM walks the master candidates (config_master_candidates) and
 * probes each candidate until one answers: a blocking connect bounded by
 * LIM_PROBE_TIMEOUT_MS, then the MUNGE handshake and the probe's answer,
 * each bounded by LIM_PROBE_ANSWER_MS.
 */
#ifndef LSF_LIM_ELECT_H
#define LSF_LIM_ELECT_H

#define LIM_PROBE_TIMEOUT_MS	1000
/*
 * A LIM that answers the connect may still be inside a probe of its own,
 * blocked on a candidate the network has cut off: give it that long and
 * more before passing it by.  With equal bounds, two LIMs of the cut-off
 * side each took the other for dead in turn, and a follower never found
 * its side's new master.
 */
#define LIM_PROBE_ANSWER_MS	(3 * LIM_PROBE_TIMEOUT_MS)
/* The longest one probe can take, answered or not. */
#define LIM_PROBE_MAX_MS	(LIM_PROBE_TIMEOUT_MS + 2 * LIM_PROBE_ANSWER_MS)

#endif
