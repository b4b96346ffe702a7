/*
 * A host for the scheduling policy's Check suites: usable, with the
 * static figures and loads every suite gives its hosts, the i-th of them
 * a little more loaded (r15s) than the one before.  Included by each.
 */
#ifndef POLHOST_H
#define POLHOST_H

#include <stdio.h>

#include "policy.h"

/* h named "host<i>" (in name, namesz long), its load in load. */
static inline void
polhost_init(struct pol_host *h, int i, char *name, size_t namesz,
    float *load, int slots, int ncpus)
{
	snprintf(name, namesz, "host%02d", i);
	h->usable = true;
	h->max_slots = slots;
	h->rr.name = name;
	h->rr.type = "X86_64";
	h->rr.model = "Xeon";
	h->rr.load = load;
	h->rr.ncpus = ncpus;
	h->rr.cpuf = 1.0f;
	h->rr.maxmem = 16000;
	h->rr.maxswp = 8000;
	h->rr.maxtmp = 50000;
	h->rr.server = true;
	h->jl_u = -1;
	/* host00 is the least loaded, then host01, ... */
	load[LI_R15S] = 0.1f * (float)i;
	load[LI_MEM] = 8000;
	load[LI_SWP] = 4000;
	load[LI_TMP] = 20000;
	load[LI_IT] = 30;
}

#endif
