#!/bin/bash
# Runs the benchmarks (built by `make build-opt`; `make bench` does both),
# writes CSV data, logs and PNG plots under results/, then bench/report.sh
# prints the paper's Tables 1-3 and Table 4 with ratios to raw MPI and
# regenerates the README's benchmark table.
#
# Every job measures all its layers interleaved (bench/layers.h): this
# VM's latency jumps between states, and only ratios taken within one
# job, per repetition, mean anything. GASNet's AMs between ranks of one
# host go through MPI or through shared memory (GASNET_SHM_AM, fixed at
# start-up), so each configuration gets its jobs. The jobs, on 2 ranks:
#   pingpong.csv          round trips with GASNet's AMs through MPI, as in
#                         the paper (GASNET_SHM_AM=no): MPI, the MPI calls
#                         of an AM layer alone, the cache-line and rings'
#                         floors, ammpi, GASNet AMs, puts and gets over the
#                         am and shm paths (Tables 1-3)
#   flood_dD.csv          bandwidth and inverse throughput, network depth D
#   pingpong_shmam.csv    the same with GASNet's AMs through shared memory
#   flood_dD_shmam.csv    (the default), without ammpi; the first depth only
#   pingpong_NAME.csv     GASNet over a backend that is not chosen by default
#   flood_dD_NAME.csv     (ofi over tcp and sockets), beside raw MPI in its
#                         own job: it needs GASNET_RMA=ofi at start-up (Table 4)
#   barrier.csv           GASNet's barriers (AMDISSEM, AMCENTRAL, SHM) beside
#                         MPI_Barrier, 1..N ranks
#   coll.csv              gex_Coll_BroadcastNB beside MPI_Bcast, 8 B..1 MiB,
#                         on 2, 4, 8, 16 ranks (up to --barrier-ranks)
#   ratomic_MECH.csv      a remote fetch-and-add beside MPI_Fetch_and_op, for
#                         each atomic-domain mechanism (bench/ratomic/run.sh)
#   vis.log               strided VIS puts beside MPI_Put with a vector
#                         datatype, on the AM path and on shm (bench/vis/run.sh)
#
#   bench/run.sh [options]
#     --out DIR           where results go (default results)
#     --iters N           timed iterations for small sizes (default 10000)
#     --reps R            repetitions, each running every operation once
#                         (default 7)
#     --depths "D..."     network depths of the flood runs (default "16 8";
#                         the first is the main one: plots, Table 4)
#     --barrier-ranks N   barrier scaling over 1..N ranks (default: the
#                         number of cores, at most 16); more ranks than
#                         cores oversubscribe and get few iterations
#     --only "LIST"       any of: pingpong flood backends barrier coll ratomic vis
#                         (default all)
#     --quick             small counts and sizes up to 128K, a smoke test
#                         (well under a minute)
#     --tables            only print the tables from the CSVs in DIR
#     --readme FILE       the README whose benchmark table is regenerated
#                         (default README.md with --out results, else none)
#   Each program also runs alone: `build/opt/bench/pingpong/pingpong --help`.
set -u
cd "$(dirname "$0")/.." || exit 1

usage() { sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'; }
out=results iters=10000 reps=7 depths="16 8" only="pingpong flood backends barrier coll ratomic vis" tables_only=0
readme=default
cores=$(nproc)
barrier_ranks=$((cores < 16 ? cores : 16))
knee=512 min_iters=20 max_size=4M barrier_iters=2000
while [ $# -gt 0 ]; do
    case "$1" in
        --out) out=$2; shift 2 ;;
        --iters) iters=$2; shift 2 ;;
        --reps) reps=$2; shift 2 ;;
        --depths) depths=$2; shift 2 ;;
        --barrier-ranks) barrier_ranks=$2; shift 2 ;;
        --only) only=$2; shift 2 ;;
        --quick) iters=1000 reps=3 min_iters=5 max_size=128K barrier_iters=200; shift ;;
        --tables) tables_only=1; shift ;;
        --readme) readme=$2; shift 2 ;;
        -h|--help) usage; exit 0 ;;
        *) echo "run.sh: unknown option $1" >&2; usage >&2; exit 2 ;;
    esac
done
if [ "$readme" = default ]; then
    readme=
    [ "$out" = results ] && readme=README.md
fi
main_depth=${depths%% *}
report() { bench/report.sh --out "$out" --depths "$depths" ${readme:+--readme "$readme"}; }
[ "$tables_only" = 1 ] && { report; exit; }

B=build/opt/bench
run=launch/gasnetrun_mpi
mkdir -p "$out"

# Runs one benchmark command, logging it to commands.txt and its output
# to LOG; a failed run is reported and the script goes on.
bench() {
    local log=$1
    shift
    echo "$*" >> "$out/commands.txt"
    echo "+ $*"
    if ! env "$@" >> "$log" 2>&1; then
        echo "run.sh: FAILED (see $log): $*" >&2
        return 1
    fi
}

wants() { case " $only " in *" $1 "*) return 0 ;; esac; return 1; }

# job LOG CSV COMMAND...: runs a benchmark that writes $out/part.csv and
# appends that to CSV (its header only once), even when the job failed
# late: whatever it measured is kept.
job() {
    local log=$1 csv=$2
    shift 2
    rm -f "$out/part.csv"
    bench "$log" "$@" -c "$out/part.csv"
    [ -f "$out/part.csv" ] || return
    if [ -f "$csv" ]; then grep -v '^bench,' "$out/part.csv" | grep -v '^#' >> "$csv"; else cat "$out/part.csv" > "$csv"; fi
    rm -f "$out/part.csv"
}

# Native backends that GASNET_RMA=auto does not pick for local peers get
# jobs of their own for Table 4: NAME=ENVIRONMENT, demanded strictly so
# that a backend that cannot run fails its job instead of measuring AM.
# Their jobs run raw MPI and the backend's path interleaved. ofi over
# loopback TCP takes 20-100 us per small operation, so a twentieth of the
# iterations keeps each loop above 10 ms and the run short.
backends=()
if grep -q GASNETI_HAVE_OFI build/opt/include/gasnet_config.h 2>/dev/null; then
    backends+=("ofi-tcp=GASNET_RMA=ofi FI_PROVIDER=tcp;ofi_rxm" "ofi-sockets=GASNET_RMA=ofi FI_PROVIDER=sockets")
fi
backend_pp=(-l mpi,gasnet -o mpi,get,put,get_nbi,put_nbi -P ofi -n $((iters / 20)))
backend_fl=(-l mpi,gasnet -o mpi,get_nbi,put_nbi,put_nbi_bulk -P ofi -n $((iters / 20)))

describe_machine() {
    {
        echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
        echo "host: $(hostname), $(uname -srm)"
        echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), $cores cores online"
        echo "memory: $(awk '/MemTotal/ {printf "%.1f GiB", $2 / 1048576}' /proc/meminfo)"
        echo "mpi: $(mpichversion 2>/dev/null | grep -E 'Version|Device' | tr -s '\t ' ' ' | paste -sd';' -)"
        echo "ucx: $(dpkg-query -W -f='${Version}' libucx0 2>/dev/null || echo unknown)"
        echo "compiler: $(mpicc --version | head -1)"
        echo "commit: $(git rev-parse --short HEAD 2>/dev/null)$(git diff --quiet HEAD -- . 2>/dev/null || echo ' (with local changes)')"
        echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
        echo "settings: iterations $iters (fewer above $knee bytes, at least $min_iters), $reps repetitions, sizes 1..$max_size, flood depths $depths, barrier on 1..$barrier_ranks ranks"
    } > "$out/machine.txt"
    cat "$out/machine.txt"
}

for p in pingpong/pingpong flood/flood barrier/barrier; do
    [ -x "$B/$p" ] || { echo "run.sh: $B/$p is not built (make build-opt)" >&2; exit 1; }
done
start=$(date +%s)
echo "== benchmarks: results in $out/"
describe_machine
: > "$out/commands.txt"
common=(-r "$reps" -k "$knee" -m "$min_iters" -S "$max_size")

if wants pingpong; then
    t=$(date +%s)
    : > "$out/pingpong.log"
    rm -f "$out/pingpong.csv" "$out/pingpong_shmam.csv"
    job "$out/pingpong.log" "$out/pingpong.csv" GASNET_SHM_AM=no \
        $run -n 2 $B/pingpong/pingpong -n "$iters" "${common[@]}"
    job "$out/pingpong.log" "$out/pingpong_shmam.csv" \
        $run -n 2 $B/pingpong/pingpong -l mpi,floor,gasnet -n "$iters" "${common[@]}"
    echo "pingpong: $(($(date +%s) - t)) s"
fi

if wants flood; then
    for d in $depths; do
        t=$(date +%s)
        : > "$out/flood_d$d.log"
        rm -f "$out/flood_d$d.csv" "$out/flood_d${d}_shmam.csv"
        job "$out/flood_d$d.log" "$out/flood_d$d.csv" GASNET_NETWORKDEPTH="$d" GASNET_SHM_AM=no \
            $run -n 2 $B/flood/flood -n "$iters" "${common[@]}"
        [ "$d" = "$main_depth" ] &&
            job "$out/flood_d$d.log" "$out/flood_d${d}_shmam.csv" GASNET_NETWORKDEPTH="$d" \
                $run -n 2 $B/flood/flood -l mpi,gasnet -n "$iters" "${common[@]}"
        echo "flood, depth $d: $(($(date +%s) - t)) s"
    done
fi

if wants backends && [ ${#backends[@]} -gt 0 ]; then
    t=$(date +%s)
    : > "$out/backends.log"
    for be in "${backends[@]}"; do
        name=${be%%=*}
        rm -f "$out/pingpong_$name.csv" "$out/flood_d${main_depth}_$name.csv"
        job "$out/backends.log" "$out/pingpong_$name.csv" ${be#*=} GASNET_RMA_STRICT=yes \
            $run -n 2 $B/pingpong/pingpong "${backend_pp[@]}" "${common[@]}"
        job "$out/backends.log" "$out/flood_d${main_depth}_$name.csv" GASNET_NETWORKDEPTH="$main_depth" \
            ${be#*=} GASNET_RMA_STRICT=yes $run -n 2 $B/flood/flood "${backend_fl[@]}" "${common[@]}"
    done
    echo "backends (${backends[*]%%=*}): $(($(date +%s) - t)) s"
fi

if wants barrier; then
    t=$(date +%s)
    : > "$out/barrier.log"
    rm -f "$out/barrier.csv"
    for ((n = 1; n <= barrier_ranks; n++)); do
        # MPICH spins while it waits: oversubscribed, a barrier costs
        # milliseconds, so those runs get few iterations
        if [ "$n" -le "$cores" ]; then bi=(-n "$barrier_iters" -r "$reps"); else bi=(-n 20 -r 3); fi
        for algo in AMDISSEM AMCENTRAL SHM; do
            job "$out/barrier.log" "$out/barrier.csv" GASNET_BARRIER=$algo \
                $run -n "$n" $B/barrier/barrier "${bi[@]}"
        done
    done
    echo "barrier, 1..$barrier_ranks ranks: $(($(date +%s) - t)) s"
    if [ "$barrier_ranks" -gt "$cores" ]; then
        echo "note: runs with more than $cores ranks oversubscribe this machine's $cores cores;"
        echo "      their barrier times measure the scheduler, not the algorithms"
    fi
fi
if wants coll && [ -x $B/coll/coll ]; then
    t=$(date +%s)
    : > "$out/coll.log"
    rm -f "$out/coll.csv"
    for n in 2 4 8 16; do
        [ "$n" -le "$barrier_ranks" ] || break
        if [ "$n" -le "$cores" ]; then ci=(-n "$barrier_iters" -r "$reps"); else ci=(-n 20 -r 3); fi
        job "$out/coll.log" "$out/coll.csv" $run -n "$n" $B/coll/coll "${ci[@]}" -s 8 -S 1M -k 4K
    done
    echo "coll (broadcast), 2..$barrier_ranks ranks: $(($(date +%s) - t)) s"
fi
if wants ratomic && [ -x $B/ratomic/ratomic ]; then
    t=$(date +%s)
    rm -f "$out"/ratomic_*.csv
    echo "bench/ratomic/run.sh --out $out -n $((iters / 5))" >> "$out/commands.txt"
    bench/ratomic/run.sh --out "$out" -n $((iters / 5)) > "$out/ratomic.log" 2>&1 ||
        echo "run.sh: FAILED (see $out/ratomic.log): bench/ratomic/run.sh" >&2
    rm -f "$out"/ratomic_*.log # the same output, kept in ratomic.log
    echo "ratomic: $(($(date +%s) - t)) s"
fi
if wants vis && [ -x $B/vis/vis_strided ]; then
    t=$(date +%s)
    echo "bench/vis/run.sh -r $reps" >> "$out/commands.txt"
    bench/vis/run.sh -r "$reps" > "$out/vis.log" 2>&1 ||
        echo "run.sh: FAILED (see $out/vis.log): bench/vis/run.sh" >&2
    echo "vis: $(($(date +%s) - t)) s"
fi
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$out/machine.txt"

if command -v gnuplot >/dev/null; then
    gnuplot -e "dir='$out'; depth='$main_depth'; backends='${backends[*]%%=*}'" bench/plot.gp ||
        echo "run.sh: gnuplot failed; no plots" >&2
else
    echo "run.sh: gnuplot not found (package gnuplot-nox): no plots" >&2
fi
echo "total: $(($(date +%s) - start)) s"
report
