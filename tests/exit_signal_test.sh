#!/bin/bash
# A signal to the launcher ends the whole job: SIGTERM and SIGINT, each to a
# 2-node job whose nodes compute forever. The job must end with a non-zero
# status within a few seconds and leave no process behind.
# usage: tests/exit_signal_test.sh BUILD_DIR
set -u
set -m # job control: a background job must not start with SIGINT ignored
cd "$(dirname "$0")/.."
prog=$PWD/$1/tests/seq/exit_matrix
for sig in TERM INT; do
    launch/gasnetrun_mpi -n 2 "$prog" forever > /tmp/exit_signal_test.$$ 2> /dev/null < /dev/null &
    pid=$!
    for i in $(seq 50); do grep -q "node 1 computes" /tmp/exit_signal_test.$$ && break; sleep 0.1; done
    kill -$sig $pid
    for i in $(seq 100); do kill -0 $pid 2>/dev/null || break; sleep 0.1; done
    if kill -0 $pid 2>/dev/null; then
        echo "SIG$sig: the launcher is still running after 10 s"
        pkill -9 -P $pid; kill -9 $pid; pkill -9 -f -- "$prog"
        exit 1
    fi
    wait $pid
    rc=$?
    sleep 0.5
    if pgrep -f -- "$prog" > /dev/null; then echo "SIG$sig: processes left behind"; pkill -9 -f -- "$prog"; exit 1; fi
    [ $rc -ne 0 ] || { echo "SIG$sig: the job exited with status 0"; exit 1; }
    echo "SIG$sig: job ended with status $rc, nothing left behind"
done
rm -f /tmp/exit_signal_test.$$
