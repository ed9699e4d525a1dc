#!/bin/bash
# One lease of the 16-core GPU machine, as one command (the device tool
# lends 15 minutes a task, start-up included): the checks that need more
# cores or a GPU, most wanted first, each under its own time budget and
# the whole under DEADLINE seconds, so that what ran comes back even when
# later parts do not fit. Run on that machine from the repository root,
# with the optimised build and ../shared/tools/device-carry.sh's archive
# carried:
#
#   tests/device_session.sh OUT_DIR [DEADLINE]      (default 480 s)
#   PARTS="pingpong many128" ONLY=... CONFIGS=... tests/device_session.sh ...
#                                   (some parts; ONLY and CONFIGS go to
#                                   tests/many_ranks.sh)
#
# build/opt whole is some 200 MB, over the tool's 64 MiB: carry a copy
# holding only what the parts run (tests/seq and tests/par: ex_am ex_rma
# ex_teams ex_grid ex_eps ex_coll coll_legacy ex_ratomic vis ext_barrier
# ext_putget ex_mk; bench/pingpong, bench/coll, bench/gpu; include/), 9 MB
# stripped of debug information, and move it to build/opt there first.
#
# Parts: the grid-of-teams scenario at 12 and 16 ranks (issue 26 item 2);
# the CUDA memory-kind tests and bandwidth (tests/gpu/run.sh); bench/pingpong
# over MPI on 2 ranks; broadcast and reduce-to-all beside MPI on 2-16 ranks;
# tests/many_ranks.sh at 64 then 128 ranks. OUT_DIR gets session.log (the
# running account), the CSVs, and logs.tgz (every log of every part).
set -u
cd "$(dirname "$0")/.." || exit 1
OUT_DIR=$1
DEADLINE=${2:-480}
W=/tmp/devsession
export W OUT_DIR # (for the parts run by bash -c)
rm -rf "$W"; mkdir -p "$W" "$OUT_DIR"
start=$(date +%s)
if [ -f .devcarry.tar.xz ]; then
    tar xJf .devcarry.tar.xz
    export LD_LIBRARY_PATH=$PWD/.devcarry/lib UCX_MODULE_DIR=$PWD/.devcarry/lib/ucx PATH=$PWD/.devcarry/bin:$PATH
fi
export GASNET_MPIRUN_CMD='mpiexec.hydra -n %N %C' IPATH_NO_BACKTRACE=1

left() { echo $((DEADLINE - ($(date +%s) - start))); }
# part NAME SECONDS CMD...: runs CMD for at most SECONDS (less when the
# deadline is nearer), and says how long it took.
part() {
    local name=$1 budget=$2 t0 rc
    shift 2
    [[ " ${PARTS:-grid gpu pingpong coll many64 many128} " == *" $name "* ]] || return
    [ "$(left)" -lt $((budget + 10)) ] && budget=$(($(left) - 10)) # (time for logs.tgz)
    if [ "$budget" -lt 15 ]; then echo "== $name: skipped, out of time"; return; fi
    echo "== $name (at most ${budget} s; $(left) s left)"
    t0=$(date +%s)
    timeout -k 5 "$budget" "$@"
    rc=$?
    echo "== $name: exit $rc after $(($(date +%s) - t0)) s"
}

grid() {
    FLAVOR=grid B=build/opt
    . tests/harness.sh
    export TEST_TIMEOUT=30
    local X=build/opt/tests
    for n in 16 12; do
        t ex_grid $n -g 'ex_grid: ok' -- $X/seq/ex_grid
        t ex_grid_par $n -g 'ex_grid: ok' -- $X/par/ex_grid
        t ex_grid_nbrhd4 $n -e GASNET_SUPERNODE_MAXSIZE=4 -g 'ex_grid: ok' -- $X/seq/ex_grid
        t ex_grid_am $n -e GASNET_RMA=am -g 'ex_grid: ok' -- $X/seq/ex_grid
    done
    t ex_grid_4x3 12 -g 'ex_grid: ok' -- $X/seq/ex_grid 4
    finish
}

# 2 ranks, AMs over MPI, every MPI-path row (tables 1-3 of bench/run.sh)
pingpong() {
    GASNET_SHM_AM=no launch/gasnetrun_mpi -n 2 build/opt/bench/pingpong/pingpong \
        -n 10000 -r 7 -k 512 -m 20 -S 4K -c "$OUT_DIR/pingpong.csv"
}

coll() {
    local n
    for n in 2 4 8 16; do
        rm -f "$W/part.csv"
        launch/gasnetrun_mpi -n $n build/opt/bench/coll/coll -n 1000 -r 5 -s 8 -S 1M -k 4K \
            -o bcast,bcast_seg,allreduce -c "$W/part.csv" || echo "coll: $n ranks failed"
        [ -f "$W/part.csv" ] || continue
        if [ -f "$OUT_DIR/coll.csv" ]; then grep -v '^bench,\|^#' "$W/part.csv" >> "$OUT_DIR/coll.csv"
        else cp "$W/part.csv" "$OUT_DIR/coll.csv"; fi
    done
}

main() {
    echo "date: $(date -u '+%Y-%m-%d %H:%M UTC'); $(nproc) cores; $(uname -srm)"
    nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>&1
    echo "commit: $(git rev-parse --short HEAD 2>/dev/null)$(git diff --quiet HEAD -- . 2>/dev/null || echo ' (with local changes)')"
    df -h /dev/shm | tail -1
    part grid 100 bash -c "$(declare -f grid); grid"
    part gpu 90 tests/gpu/run.sh build/opt "$W/gpu"
    part pingpong 80 bash -c "$(declare -f pingpong); pingpong" > "$W/pingpong.log" 2>&1
    cat "$W/pingpong.log"
    part coll 100 bash -c "$(declare -f coll); coll" > "$W/coll.log" 2>&1
    cat "$W/coll.log"
    part many64 200 env TEST_TIMEOUT=60 tests/many_ranks.sh build/opt 64
    part many128 300 env TEST_TIMEOUT=90 CONFIGS="${CONFIGS:-shm}" tests/many_ranks.sh build/opt 128
    cp -r build/opt/logs "$W/logs" 2>/dev/null
    tar czf "$OUT_DIR/logs.tgz" -C "$W" . 2>/dev/null
    echo "== done after $(($(date +%s) - start)) s"
}
set -o pipefail
main 2>&1 | tee "$OUT_DIR/session.log"
