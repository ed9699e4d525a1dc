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
GASNET_SPIN_POLLS count gasnet - 2147483648
GASNET_SUPERNODE_MAXSIZE count gasnet - 4294967297
GASNET_MAX_SEGSIZE size gasnet - 1
GASNET_PUT_MEDIUM_MAX size gasnet - 1M
GASNET_PACK_MAX size gasnet - 1M
GASNET_SHM_AM_RING size gasnet - 128K 300K 64T 4194304T
GASNET_COLL_MIN_SCRATCH_SIZE size gasnet - 2T
GASNET_COLL_SCRATCH_SIZE size gasnet - 2T
GASNET_VIS_PACK_MAX size gasnet - 2G
GASNET_PROGRESS_SLEEP_MAX count gasnet - 0 1000001
GASNET_EXITTIMEOUT seconds gasnet - 0 inf 1e30 nan
GASNET_EXIT_ACKWAIT seconds gasnet - 0 inf 1e30
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
    sed 's/^/    | /' "$log" | head -20
    failures=$((failures + 1))
}

# run PROG VAR=VALUE [VAR=VALUE]: the job's status in $rc, output in $log;
# on 2 nodes where the setting shapes shared memory between nodes, else
# on 1 (quicker)
run() {
    local prog=$1 n=1
    shift
    case "$*" in *GASNET_SHM_AM_RING=*|*GASNET_MAX_SEGSIZE=*|*GASNET_SUPERNODE_MAXSIZE=*) n=2 ;; esac
    env "$@" timeout -k 5 120 launch/gasnetrun_mpi -n $n "$prog" > "$log" 2>&1 < /dev/null
    rc=$?
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
rm -f "$log"
[ $failures -eq 0 ] || { echo "settings_test: $failures of $cases cases failed"; exit 1; }
echo "settings_test: $cases cases ok"
