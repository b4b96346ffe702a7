/* When a host is lost: the rule (see hostfail.h). */
#include "hostfail.h"
#include "lim-elect.h"
#include "net.h"

int64_t
hostfail_grace_ms(int exinterval, int host_inactivity_limit, int rank)
{
	int64_t walk, slack;

	if (exinterval < 1)
		exinterval = 15;
	if (host_inactivity_limit < 1)
		host_inactivity_limit = 5;
	if (rank < 0)
		rank = 0;
	/* The candidates before this master passed by, then this one. */
	walk = (int64_t)(rank + 1) * LIM_PROBE_MAX_MS;
	slack = (int64_t)host_inactivity_limit * exinterval * 1000;
	return NET_PEER_DEADLINE_MS + walk + slack;
}

int64_t
hostfail_since(const struct hostfail_params *p, const struct hostfail_host *h)
{
	int64_t since = p->start_ms;

	if (p->feed_ms > since)
		since = p->feed_ms;
	if (h->seen_ms > since)
		since = h->seen_ms;
	return since;
}

void
hostfail_seen(struct hostfail_host *h, int64_t now_ms)
{
	h->seen_ms = now_ms;
	h->fails = 0;
	h->doubt = false;
	h->lost = false;
}

enum hostfail_verdict
hostfail_probe(const struct hostfail_params *p, struct hostfail_host *h,
    int64_t now_ms)
{
	int max = p->max_sbd_fail > 0 ? p->max_sbd_fail : 1;

	h->doubt = true;
	if (h->lost)
		return HOSTFAIL_GONE;
	/* Still in its time to find us (a clock behind since, too). */
	if (now_ms - hostfail_since(p, h) < p->grace_ms) {
		h->fails = 0;
		return HOSTFAIL_GRACE;
	}
	if (++h->fails < max)
		return HOSTFAIL_FAILED;
	h->lost = true;
	return HOSTFAIL_LOST;
}
