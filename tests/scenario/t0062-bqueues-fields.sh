#!/bin/bash
# bqueues -l splits limits given as "default maximum" pairs into LSF's
# DEFAULT LIMITS and MAXIMUM LIMITS blocks; -r is -l for a queue without
# fairshare; -o prints LSF's queue fields (widths, right justification,
# delimiter, -noheader) and -json LSF's JSON document (golden output).
. "$(dirname "$0")/lib.sh"

cluster_init 1 "LSF_UNIT_FOR_LIMITS=MB"
cat >>"$LSB_CONF/lsb.queues" <<EOT

Begin Queue
QUEUE_NAME = lims
PRIORITY = 40
DESCRIPTION = Limits with defaults.
UJOB_LIMIT = 4
PJOB_LIMIT = 1.5
RUNLIMIT = 10 60
CPULIMIT = 20
MEMLIMIT = 100 200
TASKLIMIT = 1 2 4
End Queue
EOT
cluster_start
cd "$T_DIR/jobs"

out=$(bqueues -l lims 2>&1)
expect_eq "bqueues -l: DEFAULT LIMITS and MAXIMUM LIMITS" \
"QUEUE: lims
  -- Limits with defaults.

PARAMETERS/STATISTICS
PRIO NICE STATUS          MAX JL/U JL/P JL/H NJOBS  PEND   RUN SSUSP USUSP  RSV
 40    0  Open:Active       -    4  1.5    -     0     0     0     0     0    0
Interval for a host to accept two jobs is 0 seconds

 DEFAULT LIMITS:
 RUNLIMIT
 10.0 min

 MEMLIMIT
 100 M

 PROCLIMIT
 2

 MAXIMUM LIMITS:
 RUNLIMIT
 60.0 min

 CPULIMIT
 20.0 min

 MEMLIMIT
 200 M

 PROCLIMIT
 4

SCHEDULING PARAMETERS
           r15s   r1m  r15m   ut      pg    io   ls    it    tmp    swp    mem
 loadSched   -     -     -     -       -     -    -     -     -      -      -
 loadStop    -     -     -     -       -     -    -     -     -      -      -

USERS: all
HOSTS:  all" "$out"
expect_eq "bqueues -r of a queue without fairshare is its -l" \
    "$out" "$(bqueues -r lims 2>&1)"
out=$(bqueues -l normal 2>&1)
expect_eq "bqueues -l: no limits, no limit blocks" "" \
    "$(printf '%s\n' "$out" | grep LIMIT)"

out=$(bqueues -o "queue_name priority:-5 status max_runlimit default_runlimit def_memlimit jlp tasklimit min_tasklimit" 2>&1)
expect_eq "bqueues -o: the fields asked for, by name or alias; no width: as long as the value" \
"QUEUE_NAME PRIOR STATUS MAX_RUNLIMIT DEFAULT_RUNLIMIT DEFAULT_MEMLIMIT JL_P MAX_TASKLIMIT MIN_TASKLIMIT
short    50 Open:Active - - - - - -
lims    40 Open:Active 60.0 min 10.0 min 100 M 1.5 4 1
normal    30 Open:Active - - - - - -" "$out"
out=$(bqueues -o "qname: prio: njobs: delimiter=','" lims 2>&1)
expect_eq "bqueues -o: name: takes the field's width; a delimiter" \
"QUEUE_NAME     ,PRIORITY  ,NJOBS     
lims           ,40        ,0         " "$out"
out=$(bqueues -noheader -o "qname description" lims 2>&1)
expect_eq "bqueues -o -noheader" "lims Limits with defaults." "$out"
out=$(bqueues -o "qname status max_memlimit hosts" -json normal lims 2>&1)
expect_eq "bqueues -o -json: LSF's JSON document" \
'{
  "COMMAND":"bqueues",
  "QUEUES":2,
  "RECORDS":[
    {
      "QUEUE_NAME":"lims",
      "STATUS":"Open:Active",
      "MAX_MEMLIMIT":"200 M",
      "HOSTS":"all"
    },
    {
      "QUEUE_NAME":"normal",
      "STATUS":"Open:Active",
      "MAX_MEMLIMIT":"-",
      "HOSTS":"all"
    }
  ]
}' "$out"
out=$(bqueues -o "qname nosuch" 2>&1)
rc=$?
expect_eq "bqueues -o: an unknown field" "nosuch: Illegal field name." "$out"
expect_eq "bqueues -o: fails" 255 "$rc"
out=$(bqueues -json 2>&1)
expect_eq "bqueues -json needs -o" "bqueues: -json must be used with -o" "$out"
out=$(LSB_BQUEUES_FORMAT="qname njobs" bqueues normal 2>&1)
expect_eq "LSB_BQUEUES_FORMAT is the default format" \
"QUEUE_NAME NJOBS
normal 0" "$out"
out=$(bqueues -noheader normal 2>&1)
expect_match "bqueues -noheader: the table without its header" \
    "^normal +30 +Open:Active" "$out"
finish
