/* Load index and memory values printed as lsload, lshosts and bhosts do. */
#include <math.h>
#include <stdio.h>

#include "loadsample.h"
#include "num.h"

/* Values past this are not printed exactly; long long still holds them. */
#define FMT_MAX		1e15

/*
 * MB as "603M" below m_limit MB, else in G: one decimal while the value
 * rounded to a tenth has a non-zero tenth and stays under 1000 G, so
 * "1.4G" and "127.2G" but "10G", "683G" and "1667G".
 */
static void
fmt_mb(double mb, double m_limit, char *buf, size_t len)
{
	long long m, tenths;

	m = num_round(mb);
	if (m < m_limit) {
		snprintf(buf, len, "%lldM", m);
		return;
	}
	tenths = num_round(mb / 1024 * 10);
	if (tenths % 10 != 0 && tenths < 10000)
		snprintf(buf, len, "%lld.%lldG", tenths / 10, tenths % 10);
	else
		snprintf(buf, len, "%lldG", num_round(mb / 1024));
}

static bool
unknown(double v)
{
	return isnan(v) || v < 0 || v >= INFINIT_LOAD || v > FMT_MAX;
}

void
fmt_load_value(int idx, float value, char *buf, size_t len)
{
	if (len == 0)
		return;
	if (idx < 0 || idx >= NLOADIDX || unknown(value)) {
		snprintf(buf, len, "-");
		return;
	}
	switch (idx) {
	case LI_R15S:
	case LI_R1M:
	case LI_R15M:
	case LI_PG:
		snprintf(buf, len, "%.1f", value);
		break;
	case LI_UT:
		snprintf(buf, len, "%lld%%", num_round(value * 100.0));
		break;
	case LI_TMP:
		/* lsload shows "2391M" of /tmp next to "1.2G" of swap. */
		fmt_mb(value, 10 * 1024, buf, len);
		break;
	case LI_SWP:
	case LI_MEM:
		fmt_mb(value, 1024, buf, len);
		break;
	default:	/* io ls it */
		snprintf(buf, len, "%lld", num_round(value));
		break;
	}
}

void
fmt_mem_mb(double mb, char *buf, size_t len)
{
	if (len == 0)
		return;
	if (unknown(mb) || mb == 0) {
		snprintf(buf, len, "-");
		return;
	}
	fmt_mb(mb, 1024, buf, len);
}
