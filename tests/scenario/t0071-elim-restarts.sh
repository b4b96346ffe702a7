#!/bin/bash
# ELIM life cycle: LSF_ELIM_RESTARTS caps the restarts, an ELIM exiting
# with ELIM_ABORT_VALUE (97) is not started again, a file that is not
# executable is no ELIM, and lsadmin limrestart stops the old ELIMs and
# starts new ones.
. "$(dirname "$0")/lib.sh"

cluster_init 1 "LSF_ELIM_RESTARTS=1"
elim_install
printf '#!/bin/sh\nexit 97\n' >"$T_DIR/serverdir/elim.abort"
chmod 755 "$T_DIR/serverdir/elim.abort"
printf '#!/bin/sh\necho started >%s\n' "$T_DIR/elim/noexec.ran" \
    >"$T_DIR/serverdir/elim.noexec"
chmod 644 "$T_DIR/serverdir/elim.noexec"
set_load hosta "r1m 2.5"
cluster_start
log="$T_DIR/log/lim.log.hosta"
elim_pid() { cat "$T_DIR/elim/pid.hosta" 2>/dev/null; }

wait_for sh -c "lsload -I r1m hosta | grep -q ' 2.5\$'" ||
    fail "the ELIM's r1m never came"
wait_for grep -q "elim.abort exited with ELIM_ABORT_VALUE" "$log" ||
    fail "the aborting ELIM was not reported"
expect_eq "it was started once" 1 "$(grep -c 'started .*elim.abort' "$log")"
check "a file that is not executable is not run" \
    test ! -e "$T_DIR/elim/noexec.ran"

# limrestart: the old ELIM goes, a new one comes.
old=$(elim_pid)
out=$(lsadmin limrestart -f hosta 2>/dev/null)
expect_eq "limrestart" "Restart LIM on <hosta> ...... done" "$out"
wait_for sh -c "[ \"\$(cat $T_DIR/elim/pid.hosta)\" != $old ]" ||
    fail "no new ELIM after limrestart"
check "the old ELIM is gone" sh -c "! kill -0 $old 2>/dev/null"
wait_for sh -c "lsload -I r1m hosta | grep -q ' 2.5\$'" ||
    fail "the new ELIM's r1m never came"

# One restart allowed, then no more.
old=$(elim_pid)
kill -9 "$old"
wait_for sh -c "[ \"\$(cat $T_DIR/elim/pid.hosta)\" != $old ]" ||
    fail "the ELIM was not restarted once"
kill -9 "$(elim_pid)"
wait_for grep -q "LSF_ELIM_RESTARTS=1 reached" "$log" ||
    fail "the cap was not reached"
expect_eq "started twice after limrestart" 2 \
    "$(awk '/lim starting/ { n = 0 } /started .*elim.test/ { n++ }
    END { print n }' "$log")"
wait_for sh -c "lsload -I r1m hosta | awk 'NR == 2 && \$3 != \"2.5\" { ok = 1 }
    END { exit !ok }'" ||
    fail "the dead ELIM's r1m stayed"
check "lim still runs" lsload hosta
finish
