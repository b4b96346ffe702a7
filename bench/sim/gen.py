#!/usr/bin/env python3
"""Generate the cluster and job files of workload 9 (see sim.c for the format).

    gen.py [--hosts N] [--jobs N] [--users N] [--seed S] [--preempt]
           [--fairshare] OUTDIR

writes OUTDIR/cluster.txt and OUTDIR/jobs.txt.  Fixed seed: the same
arguments give the same files.

Cluster: mixed host sizes (8 to 64 slots), loads drawn at random with a
few hosts over their lsb.hosts threshold (ut > 0.9, r1m high), some down
or closed, Boolean resources gpu/ssd/fat on a part of them.

Queues (JOB_ACCEPT_INTERVAL = 0, the high-throughput setting; the project's
default is 10 s, which would let a host take one job per 10 s):
  urgent  PRIORITY 80  QJOB_LIMIT 5% of the slots
  short   PRIORITY 60  UJOB_LIMIT 500 (per user)
  normal  PRIORITY 40
  long    PRIORITY 20  HJOB_LIMIT 16, RES_REQ select[maxmem > 16000]

With --preempt (issue 21), three more queues, with PREEMPTION:
  hipri   PRIORITY 70  PREEMPTIVE[idle+2 low+1 normal long] (a
          preferred order; never short or urgent)
  low     PRIORITY 15  PREEMPTABLE (by every higher queue)
  idle    PRIORITY 10  PREEMPTABLE[hipri short] (only by those)
and the jobs drawn over urgent 5%, hipri 5%, short 25%, normal 40%,
long 10%, low 10%, idle 5%; hipri's jobs arrive while the others run
(a begin time, bsub -b, spread evenly over the first 7,200 simulated
seconds), everything else pending from the start as without it.  The
other draws (users, kinds, sizes, run times) are the same as without.

With --fairshare (issue 22), a two-level share tree: the users (1,000
in workload 9) in groups of 20 (50 groups), each group an lsb.users
group with USER_SHARES over its members (1 to 5 shares each), and every
queue FAIRSHARE = USER_SHARES over the groups (1 to 10 shares each);
each queue has a tree of its own.  The shares come from a stream of
their own, so the other draws are those of the same --users without
it.

Jobs: users drawn with a skew (a few heavy users), a mix of plain
one-slot jobs, -n N, span[hosts=1], select[] on mem and resources,
rusage[mem=...], and a few -x.
"""
import argparse
import os
import random

LOADNAMES = ("r15s", "r1m", "r15m", "ut", "pg", "io", "ls", "it",
             "tmp", "swp", "mem")


def gen_hosts(rng, n, out):
    sizes = [  # (weight, slots, ncpus, maxmem MB)
        (40, 8, 8, 32768),
        (40, 16, 16, 65536),
        (15, 32, 32, 131072),
        (5, 64, 64, 524288),
    ]
    weights = [s[0] for s in sizes]
    slots = 0
    for i in range(n):
        _, mxj, ncpus, maxmem = rng.choices(sizes, weights)[0]
        res = []
        if rng.random() < 0.05:
            res.append("gpu")
        if rng.random() < 0.30:
            res.append("ssd")
        if maxmem >= 500000:
            res.append("fat")
        ut = rng.random() * 0.8
        r1m = rng.random() * ncpus * 0.5
        if rng.random() < 0.03:  # busy: over the ut threshold
            ut = 0.95
        if rng.random() < 0.02:  # busy: over the r1m threshold
            r1m = ncpus * 2.0
        mem = int(maxmem * rng.uniform(0.4, 0.95))
        load = ("r15s:%.2f,r1m:%.2f,r15m:%.2f,ut:%.2f,pg:%.1f,io:%d,ls:%d,"
                "it:%d,tmp:%d,swp:%d,mem:%d" % (
                    r1m * 0.8, r1m, r1m * 0.9, ut, rng.random() * 5,
                    rng.randrange(200), rng.randrange(3), rng.randrange(600),
                    rng.randrange(5000, 50000), rng.randrange(1000, 8000),
                    mem))
        status = "ok"
        x = rng.random()
        if x < 0.01:
            status = "unavail"
        elif x < 0.015:
            status = "closed"
        else:
            slots += mxj
        out.write("host h%05d mxj=%d ncpus=%d maxmem=%d maxswp=8192 "
                  "maxtmp=51200 status=%s%s load=%s sched=ut:0.9,r1m:%d\n" % (
                      i, mxj, ncpus, maxmem, status,
                      " res=" + ",".join(res) if res else "", load,
                      ncpus * 1.5))
    return slots


def gen_groups(nusers, out):
    """The groups of 20 users (lsb.users) with their USER_SHARES; returns
    the queues' USER_SHARES over the groups, without blanks."""
    srng = random.Random(22)
    ngroups = max(1, nusers // 20)
    top = []
    for g in range(ngroups):
        members = ["u%04d" % k for k in range(nusers) if k % ngroups == g]
        out.write("group g%02d members=%s user_shares=%s\n" % (
            g, ",".join(members),
            "".join("[%s,%d]" % (m, srng.randint(1, 5)) for m in members)))
        top.append("[g%02d,%d]" % (g, srng.randint(1, 10)))
    return "".join(top)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hosts", type=int, default=10000)
    ap.add_argument("--jobs", type=int, default=1000000)
    ap.add_argument("--users", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=4)
    ap.add_argument("--preempt", action="store_true")
    ap.add_argument("--fairshare", action="store_true")
    ap.add_argument("outdir")
    a = ap.parse_args()
    rng = random.Random(a.seed)
    os.makedirs(a.outdir, exist_ok=True)

    with open(os.path.join(a.outdir, "cluster.txt"), "w") as f:
        f.write("# workload 9 cluster: gen.py --hosts %d --seed %d\n" %
                (a.hosts, a.seed))
        slots = gen_hosts(rng, a.hosts, f)
        fs = ""
        if a.fairshare:
            fs = " fairshare=USER_SHARES[%s]" % gen_groups(a.users, f)
        f.write("queue urgent priority=80 accept_interval=0 "
                "qjob_limit=%d%s\n" % (max(1, slots // 20), fs))
        if a.preempt:
            f.write("queue hipri priority=70 accept_interval=0 "
                    "preemption=PREEMPTIVE[idle+2,low+1,normal,long]\n")
        f.write("queue short priority=60 accept_interval=0 ujob_limit=500"
                "%s\n" % fs)
        f.write("queue normal priority=40 accept_interval=0%s\n" % fs)
        f.write("queue long priority=20 accept_interval=0 hjob_limit=16%s "
                "res_req=select[maxmem > 16000]\n" % fs)
        if a.preempt:
            f.write("queue low priority=15 accept_interval=0 "
                    "preemption=PREEMPTABLE\n")
            f.write("queue idle priority=10 accept_interval=0 "
                    "preemption=PREEMPTABLE[hipri,short]\n")

    queues = ["urgent", "short", "normal", "long"]
    qweights = [5, 30, 50, 15]
    if a.preempt:
        queues = ["urgent", "hipri", "short", "normal", "long", "low",
                  "idle"]
        qweights = [5, 5, 25, 40, 10, 10, 5]
    # Begin times from a stream of their own: the other draws stay.
    brng = random.Random(a.seed + 1)
    # A skew: user k is drawn with weight 1/(k+1)^0.5.
    uweights = [1.0 / (k + 1) ** 0.5 for k in range(a.users)]
    users = ["u%04d" % k for k in range(a.users)]
    mems = [1000, 2000, 4000, 8000, 16000]
    t0 = 1700000000 - 86400
    step = 86400.0 / max(1, a.jobs)
    kinds = [  # (weight, kind)
        (55, "plain"), (15, "n"), (10, "span"), (10, "mem"),
        (4, "gpu"), (5, "ssd"), (1, "x"),
    ]
    kw = [k[0] for k in kinds]
    kn = [k[1] for k in kinds]
    qs = rng.choices(queues, qweights, k=a.jobs)
    us = rng.choices(users, uweights, k=a.jobs)
    ks = rng.choices(kn, kw, k=a.jobs)
    with open(os.path.join(a.outdir, "jobs.txt"), "w") as f:
        for i in range(a.jobs):
            kind = ks[i]
            n, flags, rr = 1, "-", ""
            if kind == "n":
                n = rng.choice((2, 4, 8))
            elif kind == "span":
                n = rng.choice((4, 8, 16))
                rr = "span[hosts=1]"
            elif kind == "mem":
                m = rng.choice(mems)
                rr = "select[mem > %d] rusage[mem=%d]" % (m, m)
            elif kind == "gpu":
                rr = "select[gpu] rusage[mem=4000]"
            elif kind == "ssd":
                n = 2
                rr = "select[ssd && mem > 2000] span[hosts=1]"
            elif kind == "x":
                flags = "x"
            run = int(min(3600, 30 + rng.expovariate(1 / 300.0)))
            if qs[i] == "hipri":
                flags += "b%d" % brng.randrange(7200)
            f.write("%s %s %d %d %d %s %s\n" % (
                qs[i], us[i], n, int(t0 + i * step), run, flags, rr))


if __name__ == "__main__":
    main()
