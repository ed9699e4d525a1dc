#!/bin/bash
# Every numeric setting under bad values: tests/settings_test.sh BUILD_DIR
# For each row of the table below, runs tests/settings_probe.c (or, for
# the standalone ammpi settings, tests/ammpi_categories.c) with
# the variable set to garbage, a negative number, a value past its range
# and one past 64 bits, and checks that the job fails, that the message
# names the variable with the value ("environment variable VAR='VALUE'"),
# and that no shared-memory object of the job is left in /dev/shm (names
# /gasnet-<uid>-<pid>-*, for the pids the job printed). An empty value must
# give the default: the job passes, and GASNET_VERBOSEENV reports the
# setting as the default. Prints "settings_test: N cases ok" or the first
# failures.
#
# Then the debugging settings (docs/debugging.md): bad values of each (a
# message naming the variable and the value), valid ones (their values
# as GASNET_VERBOSEENV reports them, the segment limit they give), a
# fatal signal (the line naming signal, node and pid, the backtrace, the
# status: killed by the signal), GASNET_FREEZE (unfrozen by gdb where
# installed, and by SIGCONT) and the backtrace and freeze signals.
set -u
cd "$(dirname "$0")/.."
build=$1
probe=$build/tests/seq/settings_probe
ammpi=$build/tests/ammpi_categories
log=$build/logs/settings_test.$$.log
mkdir -p "$build/logs"
uid=$(id -u)
failures=0 cases=0

# kind: count, size or seconds (which garbage and overflow to try);
# prog: gasnet or ammpi; extra: VAR=VALUE the setting needs to be read
# (- for none); then values past the setting's range.
table="
GASNET_NETWORKDEPTH count gasnet - 0 4097
AMMPI_CREDITS_PP count gasnet - 0 4097
AMMPI_EAGER_SIZE size gasnet - 1M
AMMPI_RECV_BUFFERS count gasnet - 1048577
AMMPI_PAYLOAD_BUFFERS count gasnet - 1048577
GASNET_SPIN_POLLS count gasnet - 2147483648
GASNET_SUPERNODE_MAXSIZE count gasnet - 4294967297
GASNET_MAX_SEGSIZE size gasnet - 1
GASNET_PUT_MEDIUM_MAX size gasnet - 1M
GASNET_PACK_MAX size gasnet - 1M
GASNET_SHM_AM_RING size gasnet - 128K 300K 64T 4194304T
GASNET_COLL_MIN_SCRATCH_SIZE size gasnet - 2T
GASNET_COLL_SCRATCH_SIZE size gasnet - 2T
GASNET_COLL_EARLY_MAX size gasnet - 1K
GASNET_VIS_PACK_MAX size gasnet - 2G
GASNET_PROGRESS_SLEEP_MAX count gasnet - 0 1000001
GASNET_EXITTIMEOUT seconds gasnet - 0 inf 1e30 nan
GASNET_EXIT_ACKWAIT seconds gasnet - 0 inf 1e30
GASNET_EXITTIMEOUT_MIN seconds gasnet - 0
GASNET_EXITTIMEOUT_MAX seconds gasnet - 1e30
GASNET_EXITTIMEOUT_FACTOR seconds gasnet -
AMMPI_NETWORKDEPTH count ammpi - 0 4097
AMMPI_SPIN_POLLS count ammpi - 1073741825
"
if grep -q GASNETI_HAVE_VERBS "$build/include/gasnet_config.h"; then
    table="$table
GASNET_VERBS_PORT count gasnet GASNET_RMA=verbs 256
GASNET_VERBS_GID_INDEX count gasnet GASNET_RMA=verbs 256
GASNET_VERBS_INLINE size gasnet GASNET_RMA=verbs 2K
GASNET_VERBS_SQ_DEPTH count gasnet GASNET_RMA=verbs 0 16385
GASNET_VERBS_BOUNCE_SIZE size gasnet GASNET_RMA=verbs 1K 2G
GASNET_VERBS_BOUNCE_COUNT count gasnet GASNET_RMA=verbs 0 65537"
fi

bad() {
    echo "settings_test: $*"
    cat "$log" "$log.err" 2> /dev/null | sed 's/^/    | /' | head -80
    failures=$((failures + 1))
}

# the job's stderr after its stdout in $log: the launcher forwards them
# separately and can split a line of one with output of the other
joinlog() {
    cat "$log.err" >> "$log" && rm -f "$log.err"
}

# run PROG VAR=VALUE [VAR=VALUE]: the job's status in $rc, output in $log;
# on 2 nodes where the setting shapes shared memory between nodes, else
# on 1 (quicker)
run() {
    local prog=$1 n=1
    shift
    case "$*" in *GASNET_SHM_AM_RING=*|*GASNET_MAX_SEGSIZE=*|*GASNET_SUPERNODE_MAXSIZE=*) n=2 ;; esac
    env "$@" timeout -k 5 120 launch/gasnetrun_mpi -n $n "$prog" > "$log" 2> "$log.err" < /dev/null
    rc=$?
    joinlog
}

# every /dev/shm object of the job (its pids are in the log)
leftovers() {
    local pid left=""
    for pid in $(sed -n 's/^settings_probe: pid \([0-9]*\)$/\1/p' "$log"); do
        left="$left$(find /dev/shm -maxdepth 1 -name "gasnet-$uid-$pid-*" -print)"
    done
    echo "$left"
}

while read -r var kind prog extra ranges; do
    [ -n "$var" ] || continue
    [ "$prog" = ammpi ] && exe=$ammpi || exe=$probe
    envs=()
    [ "$extra" = - ] || envs+=("$extra")
    case $kind in
        count) values="12abc 3.5 -1 99999999999999999999" ;;
        size) values="4Kxyz 1Q -1 16777216T" ;;
        seconds) values="10s -1 1e400" ;;
    esac
    for value in $values $ranges; do
        cases=$((cases + 1))
        run "$exe" "${envs[@]}" "$var=$value"
        if [ $rc -eq 0 ] || [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
            bad "$var='$value': status $rc, expected a failure"
        elif ! grep -qF "environment variable $var='$value'" "$log"; then
            bad "$var='$value': no message naming the variable and the value"
        fi
        left=$(leftovers)
        if [ -n "$left" ]; then
            rm -f $left
            bad "$var='$value': left in /dev/shm: $left"
        fi
    done
    cases=$((cases + 1))
    run "$exe" "${envs[@]}" GASNET_VERBOSEENV=yes "$var="
    if [ $rc -ne 0 ]; then
        bad "$var='': status $rc, expected the default and a passing job"
    elif [ "$prog" = gasnet ] && ! grep -Eq "^ENV parameter: $var = .*\(default\)$" "$log"; then
        bad "$var='': not reported as the default"
    fi
done <<< "$table"

# yes/no and keyword settings: empty gives the default too
for var in GASNET_VERBOSEENV GASNET_QUIET GASNET_BACKTRACE GASNET_BACKTRACE_MT GASNET_NO_CATCH_SIGNAL \
           GASNET_FREEZE GASNET_FREEZE_ON_ERROR GASNET_DISABLE_ENVDECODE GASNET_PROGRESS_THREAD \
           GASNET_COLL_SHM GASNET_SHM_AM GASNET_TRACELOCAL GASNET_BARRIER GASNET_RMA GASNET_BIND \
           GASNET_BACKTRACE_SIGNAL GASNET_FREEZE_SIGNAL GASNET_BACKTRACE_NODES; do
    cases=$((cases + 1))
    run "$probe" GASNET_VERBOSEENV=yes "$var="
    if [ $rc -ne 0 ]; then
        bad "$var='': status $rc, expected the default and a passing job"
    elif grep -E "^ENV parameter: $var = " "$log" | grep -vq '(default)$'; then
        bad "$var='': not reported as the default"
    fi
done

# ---- the debugging settings

# VAR=VALUE [VAR=VALUE...] | the setting the message must name with its value
strings="
GASNET_MAX_SEGSIZE=0.85/X|GASNET_MAX_SEGSIZE='0.85/X'
GASNET_MAX_SEGSIZE=1.5/H|GASNET_MAX_SEGSIZE='1.5/H'
GASNET_MAX_SEGSIZE=0.0|GASNET_MAX_SEGSIZE='0.0'
GASNET_MAX_SEGSIZE=/P|GASNET_MAX_SEGSIZE='/P'
GASNET_MAX_SEGSIZE=2K/H|GASNET_MAX_SEGSIZE='2K/H'
GASNET_BACKTRACE_NODES=0,,1|GASNET_BACKTRACE_NODES='0,,1'
GASNET_BACKTRACE_NODES=3-1|GASNET_BACKTRACE_NODES='3-1'
GASNET_BACKTRACE_SIGNAL=SIGFOO|GASNET_BACKTRACE_SIGNAL='SIGFOO'
GASNET_BACKTRACE_SIGNAL=SIGKILL|GASNET_BACKTRACE_SIGNAL='SIGKILL'
GASNET_FREEZE_SIGNAL=11|GASNET_FREEZE_SIGNAL='11'
GASNET_FREEZE_SIGNAL=usr1 GASNET_BACKTRACE_SIGNAL=SIGUSR1|GASNET_FREEZE_SIGNAL
GASNET_BACKTRACE_MT=maybe|GASNET_BACKTRACE_MT='maybe'
GASNET_FREEZE=2|GASNET_FREEZE='2'
GASNET_QUIET=quiet|GASNET_QUIET='quiet'
GASNET_NO_CATCH_SIGNAL=x|GASNET_NO_CATCH_SIGNAL='x'
GASNET_DISABLE_ENVDECODE=x|GASNET_DISABLE_ENVDECODE='x'
GASNET_DISABLE_ENVDECODE=yes GASNET_BACKTRACE_SIGNAL=SIG%55SR1|GASNET_BACKTRACE_SIGNAL='SIG%55SR1'
GASNET_TMPDIR=/nonexistent/dir|GASNET_TMPDIR='/nonexistent/dir'
"
while IFS='|' read -r envs want; do
    [ -n "$envs" ] || continue
    cases=$((cases + 1))
    read -ra words <<< "$envs"
    run "$probe" "${words[@]}"
    if [ $rc -eq 0 ] || [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
        bad "$envs: status $rc, expected a failure"
    elif ! grep -qF "$want" "$log"; then
        bad "$envs: no message naming $want"
    fi
done <<< "$strings"

# Valid values, each reported with its value; SIG%55SR1 is SIGUSR1 once
# decoded; the exit timeout is min(MAX, MIN + FACTOR * 2 nodes) = 4 s; 1G
# for the host is 512M for each of its 2 nodes.
tmpdir=$(mktemp -d)
cases=$((cases + 1))
run "$probe" GASNET_VERBOSEENV=yes GASNET_MAX_SEGSIZE=1G/H GASNET_BACKTRACE_NODES=0,1 \
    GASNET_BACKTRACE_MT=no GASNET_QUIET=yes GASNET_TMPDIR="$tmpdir" GASNET_NO_CATCH_SIGNAL=no \
    GASNET_EXITTIMEOUT_MIN=3 GASNET_EXITTIMEOUT_FACTOR=0.5 GASNET_EXITTIMEOUT_MAX=100 \
    GASNET_BACKTRACE_SIGNAL=SIG%55SR1 GASNET_FREEZE_SIGNAL=usr2 GASNET_FREEZE=no GASNET_DISABLE_ENVDECODE=no
[ $rc -eq 0 ] || bad "valid debugging settings: status $rc"
for line in "GASNET_MAX_SEGSIZE = 1G/H (512 MB for each of 2 processes of this host)" \
            "GASNET_BACKTRACE_NODES = 0,1" "GASNET_BACKTRACE_MT = NO" "GASNET_QUIET = YES" \
            "GASNET_TMPDIR = $tmpdir" "GASNET_NO_CATCH_SIGNAL = NO" "GASNET_EXITTIMEOUT_MIN = 3" \
            "GASNET_EXITTIMEOUT_FACTOR = 0.5" "GASNET_EXITTIMEOUT_MAX = 100" \
            "GASNET_EXITTIMEOUT = 4   (default)" "GASNET_BACKTRACE_SIGNAL = SIGUSR1" \
            "GASNET_FREEZE_SIGNAL = usr2" "GASNET_FREEZE = NO" "GASNET_DISABLE_ENVDECODE = NO" \
            "settings_probe: max local segment 536870912"; do
    case $line in settings_probe*) ;; *) line="ENV parameter: $line" ;; esac
    grep -qxF -- "$line" "$log" || bad "valid debugging settings: no line '$line'"
done
# a fraction: of the host's memory, shared (0.5/H on 2 nodes) or not (0.25/P)
page=$(getconf PAGESIZE)
quarter=$(( $(getconf _PHYS_PAGES) * page / 4 / page * page ))
for v in 0.5/H 0.25/P; do
    cases=$((cases + 1))
    run "$probe" GASNET_MAX_SEGSIZE=$v
    grep -qx "settings_probe: max local segment $quarter" "$log" ||
        bad "GASNET_MAX_SEGSIZE=$v: expected a limit of $quarter bytes (a quarter of memory)"
done

# A fatal signal on node 1 of 2: the line naming it, the node and its pid,
# a backtrace (GASNET_BACKTRACE), and the job killed by SIGSEGV (status
# 11 as MPICH's hydra reports it, or 128 + 11 as a shell would).
cases=$((cases + 1))
env GASNET_BACKTRACE=1 timeout -k 5 120 launch/gasnetrun_mpi -n 2 "$probe" crash 1 > "$log" 2> "$log.err" < /dev/null
rc=$?
joinlog
pid1=$(sed -n 's/^settings_probe: node 1 pid \([0-9]*\)$/\1/p' "$log")
[ $rc -eq 11 ] || [ $rc -eq 139 ] || bad "crash on node 1: status $rc, expected 11 or 139 (SIGSEGV)"
grep -qF "*** Caught a fatal signal (proc 1 of 2, pid ${pid1:-?}, host $(hostname)): SIGSEGV(11)" "$log" ||
    bad "crash on node 1: no line naming SIGSEGV, node 1 and its pid"
grep -q "settings_probe(.*\[0x" "$log" || bad "crash on node 1: no backtrace"
# node 0 is not in GASNET_BACKTRACE_NODES: no backtrace; with
# GASNET_NO_CATCH_SIGNAL not our line (MPI's UCX may print its own);
# killed by the signal either way
for envs in "GASNET_BACKTRACE=1 GASNET_BACKTRACE_NODES=1" "GASNET_NO_CATCH_SIGNAL=yes"; do
    cases=$((cases + 1))
    env $envs timeout -k 5 120 launch/gasnetrun_mpi -n 1 "$probe" crash 0 > "$log" 2> "$log.err" < /dev/null
    rc=$?
    joinlog
    [ $rc -eq 11 ] || [ $rc -eq 139 ] || bad "$envs, crash: status $rc, expected 11 or 139 (SIGSEGV)"
    case $envs in
        *NO_CATCH*) ! grep -qF "*** Caught a fatal signal" "$log" || bad "$envs, crash: the signal was caught" ;;
        *) grep -qF "*** Caught a fatal signal (proc 0 of 1" "$log" || bad "$envs, crash: no line naming the signal"
           ! grep -q "settings_probe(.*\[0x" "$log" || bad "$envs, crash: a backtrace" ;;
    esac
done

# waits (at most a minute) until N processes say they are frozen; their
# pids in $frozen
await_frozen() {
    local i
    for i in $(seq 600); do
        frozen=$(sed -n 's/^Process frozen for debugger: host=.* pid=\([0-9]*\)$/\1/p' "$log" "$log.err" 2> /dev/null)
        [ "$(echo "$frozen" | grep -c .)" -ge "$1" ] && return 0
        kill -0 "$job" 2>/dev/null || return 1
        sleep 0.1
    done
    return 1
}

# GASNET_FREEZE: both nodes freeze in init and say how to attach; gdb
# (where installed) unfreezes one as the message says, SIGCONT the other
cases=$((cases + 1))
env GASNET_FREEZE=yes timeout -k 5 120 launch/gasnetrun_mpi -n 2 "$probe" > "$log" 2> "$log.err" < /dev/null &
job=$!
if await_frozen 2; then
    grep -qF "gdb -p $(echo "$frozen" | head -1), then: set var *(int *)&gasnet_frozen = 0, detach" "$log" "$log.err" ||
        bad "GASNET_FREEZE: no command to attach"
    first=$(echo "$frozen" | head -1) second=$(echo "$frozen" | tail -1)
    if command -v gdb > /dev/null; then
        gdb -nx -batch -p "$first" -ex 'set var *(int *)&gasnet_frozen = 0' > /dev/null 2>&1 < /dev/null ||
            bad "GASNET_FREEZE: gdb could not attach to $first"
    else
        kill -CONT "$first"
    fi
    kill -CONT "$second"
else
    bad "GASNET_FREEZE: the nodes did not say they were frozen"
fi
wait $job
rc=$?
joinlog
[ $rc -eq 0 ] && grep -q "^settings_probe: ok" "$log" || bad "GASNET_FREEZE: status $rc after unfreezing"

# GASNET_BACKTRACE_SIGNAL and GASNET_FREEZE_SIGNAL: node 0 raises both;
# the first prints a backtrace (every thread's, through gdb, where gdb is
# installed) and goes on, the second freezes it until a SIGCONT
cases=$((cases + 1))
gdbenv=()
command -v gdb > /dev/null && gdbenv=(GASNET_BACKTRACE_TYPE=GDB GASNET_BACKTRACE_MT=yes)
env "${gdbenv[@]}" GASNET_BACKTRACE_SIGNAL=SIGUSR1 GASNET_FREEZE_SIGNAL=USR2 \
    timeout -k 5 120 launch/gasnetrun_mpi -n 2 "$probe" signals > "$log" 2> "$log.err" < /dev/null &
job=$!
if await_frozen 1; then
    grep -q "^GASNet node 0: GASNET_FREEZE_SIGNAL SIGUSR2: freezing" "$log" "$log.err" ||
        bad "GASNET_FREEZE_SIGNAL: no line saying why the node froze"
    kill -CONT $frozen
else
    bad "GASNET_FREEZE_SIGNAL: node 0 did not freeze"
fi
wait $job
rc=$?
joinlog
[ $rc -eq 0 ] && grep -q "^settings_probe: unfrozen" "$log" || bad "signals: status $rc after unfreezing"
grep -q "GASNET_BACKTRACE_SIGNAL SIGUSR1: backtrace" "$log" || bad "GASNET_BACKTRACE_SIGNAL: no backtrace"
if [ ${#gdbenv[@]} -gt 0 ]; then
    [ "$(grep -c '^Thread [0-9]* (' "$log")" -ge 2 ] || bad "GASNET_BACKTRACE_MT: not every thread backtraced"
else
    grep -q "settings_probe(.*\[0x" "$log" || bad "GASNET_BACKTRACE_SIGNAL: no backtrace"
fi
rmdir "$tmpdir"

rm -f "$log"
[ $failures -eq 0 ] || { echo "settings_test: $failures of $cases cases failed"; exit 1; }
echo "settings_test: $cases cases ok"
