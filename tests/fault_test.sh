#!/bin/bash
# A job with a fault (tests/fault_load.c) and what it leaves behind.
# usage: tests/fault_test.sh BUILD_DIR EXPECT [VAR=VALUE...] [-g REGEX...] -- PROG [ARGS]
# Runs PROG on 4 nodes through the launcher with the variables set, and
# passes when the job's status is EXPECT (a number, or "nonzero"), its
# output matches every -g REGEX (extended), every process printed
# "fault_load: pid P" (before gasnet_init), no process of the job outlives
# it and /dev/shm holds no file of the job: the shm backend's
# /gasnet-<uid>-<pid>-* and libfabric's shm provider's /<pid>:*, for the
# job's pids only (other jobs' files are none of its business). How long it
# may take is the harness's -T limit.
set -u
cd "$(dirname "$0")/.."
build=$1 expect=$2
shift 2
envs=() patterns=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do
    if [ "$1" = -g ]; then patterns+=("$2"); shift 2; else envs+=("$1"); shift; fi
done
shift
prog=$(realpath -- "$1")
shift
log=$build/logs/fault_test.$$.log
mkdir -p "$build/logs"
start=$(date +%s%N)
env "${envs[@]}" launch/gasnetrun_mpi -n 4 "$prog" "$@" > "$log" 2> "$log.err" < /dev/null
rc=$?
cat "$log.err" >> "$log" && rm -f "$log.err" # stderr after stdout: the launcher can split lines across them
took_ms=$((($(date +%s%N) - start) / 1000000))
cat "$log"
fail() { echo "fault_test: $* (the job's status $rc after $took_ms ms)"; exit 1; }
if [ "$expect" = nonzero ]; then
    [ $rc -ne 0 ] || fail "the job exited with status 0, expected non-zero"
else
    [ $rc -eq "$expect" ] || fail "the job exited with status $rc, expected $expect"
fi
for p in "${patterns[@]}"; do
    grep -Eq -- "$p" "$log" || fail "the output does not match '$p'"
done
pids=$(sed -n 's/^fault_load: pid \([0-9]*\)$/\1/p' "$log")
[ "$(echo "$pids" | grep -c .)" -eq 4 ] || fail "not every process printed its pid"
for i in $(seq 20); do pgrep -f -- "$prog" > /dev/null || break; sleep 0.1; done
if pgrep -f -- "$prog" > /dev/null; then
    pkill -9 -f -- "$prog"
    fail "processes left behind"
fi
uid=$(id -u)
for pid in $pids; do
    left=$(find /dev/shm -maxdepth 1 \( -name "gasnet-$uid-$pid-*" -o -name "$pid:*" \) -print)
    if [ -n "$left" ]; then
        rm -f $left
        fail "files left in /dev/shm: $left"
    fi
done
rm -f "$log"
echo "fault_test: status $rc, nothing left behind"
