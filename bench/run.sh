#!/bin/bash
# Runs the benchmarks (built by `make build-opt`; `make bench` does both),
# writes CSV data, logs and PNG plots under results/, and prints the
# paper's Tables 1-3 with ratios to raw MPI.
#
#   bench/run.sh [options]
#     --out DIR           where results go (default results)
#     --iters N           timed iterations for small sizes (default 10000)
#     --reps R            repetitions of each loop (default 5)
#     --depths "D..."     network depths of the flood runs (default "16 8")
#     --barrier-ranks N   barrier scaling over 1..N ranks (default: the
#                         number of cores, at most 16); more ranks than
#                         cores oversubscribe and get few iterations
#     --only "LIST"       any of: pingpong flood barrier (default all)
#     --quick             small counts, for a smoke test (about a minute)
#     --tables            only print the tables from the CSVs in DIR
set -u
cd "$(dirname "$0")/.." || exit 1

out=results iters=10000 reps=5 depths="16 8" only="pingpong flood barrier" tables_only=0
cores=$(nproc)
barrier_ranks=$((cores < 16 ? cores : 16))
knee=512 min_iters=20
while [ $# -gt 0 ]; do
    case "$1" in
        --out) out=$2; shift 2 ;;
        --iters) iters=$2; shift 2 ;;
        --reps) reps=$2; shift 2 ;;
        --depths) depths=$2; shift 2 ;;
        --barrier-ranks) barrier_ranks=$2; shift 2 ;;
        --only) only=$2; shift 2 ;;
        --quick) iters=1000 reps=3 knee=512 min_iters=5; shift ;;
        --tables) tables_only=1; shift ;;
        -h|--help) sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2 ;;
    esac
done
B=build/opt/bench
run=launch/gasnetrun_mpi
main_depth=${depths%% *} # the plots and tables 2-3 first use this depth
mkdir -p "$out"

# ---- running

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
    if [ -f "$csv" ]; then grep -v '^bench,' "$out/part.csv" >> "$csv"; else cat "$out/part.csv" > "$csv"; fi
    rm -f "$out/part.csv"
}

# Each job measures one layer alone (see bench/layers.h for why). GASNet's
# columns of Tables 1-3 are its portable path: every put and get an active
# message over MPI (GASNET_RMA=am), as in the paper.
layers="mpi ammpi gasnet"
layer_env() { [ "$1" = gasnet ] && echo GASNET_RMA=am; }

# The native RMA backends (core-native/) get a GASNet job each, for Table 4
# and backends.png: NAME=ENVIRONMENT, the backend demanded strictly so that
# a backend that cannot run fails its job instead of measuring AM.
backends=("shm=GASNET_RMA=shm")
if grep -q GASNETI_HAVE_OFI build/opt/include/gasnet_config.h 2>/dev/null; then
    backends+=("ofi-tcp=GASNET_RMA=ofi FI_PROVIDER=tcp;ofi_rxm" "ofi-sockets=GASNET_RMA=ofi FI_PROVIDER=sockets")
fi
backend_ops_pp=get,put,get_nbi,put_nbi
backend_ops_fl=get_nbi,put_nbi,put_nbi_bulk
# the ofi providers here take 30-80 us per small operation: a fifth of the
# iterations keeps each loop above 0.1 s and the whole run short
backend_opts() {
    case $1 in
        ofi*) printf '%s ' -n $((iters / 5)) -r "$reps" -k "$knee" -m "$min_iters" ;;
        *) printf '%s ' "${common[@]}" ;;
    esac
}

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
        echo "settings: iterations $iters (fewer above $knee bytes, at least $min_iters), $reps repetitions, flood depths $depths, barrier on 1..$barrier_ranks ranks"
    } > "$out/machine.txt"
    cat "$out/machine.txt"
}

if [ "$tables_only" = 0 ]; then
    for p in pingpong/pingpong flood/flood barrier/barrier; do
        [ -x "$B/$p" ] || { echo "run.sh: $B/$p is not built (make build-opt)" >&2; exit 1; }
    done
    start=$(date +%s)
    echo "== benchmarks: results in $out/"
    describe_machine
    : > "$out/commands.txt"
    common=(-n "$iters" -r "$reps" -k "$knee" -m "$min_iters")

    if wants pingpong; then
        t=$(date +%s)
        : > "$out/pingpong.log"
        rm -f "$out/pingpong.csv"
        for l in $layers; do
            job "$out/pingpong.log" "$out/pingpong.csv" $(layer_env $l) $run -n 2 $B/pingpong/pingpong -l $l "${common[@]}"
        done
        for be in "${backends[@]}"; do
            rm -f "$out/pingpong_${be%%=*}.csv"
            job "$out/pingpong.log" "$out/pingpong_${be%%=*}.csv" ${be#*=} GASNET_RMA_STRICT=yes \
                $run -n 2 $B/pingpong/pingpong -l gasnet -o $backend_ops_pp $(backend_opts "$be")
        done
        echo "pingpong: $(($(date +%s) - t)) s"
    fi

    if wants flood; then
        for d in $depths; do
            t=$(date +%s)
            : > "$out/flood_d$d.log"
            rm -f "$out/flood_d$d.csv"
            for l in $layers; do
                job "$out/flood_d$d.log" "$out/flood_d$d.csv" GASNET_NETWORKDEPTH="$d" $(layer_env $l) \
                    $run -n 2 $B/flood/flood -l $l "${common[@]}"
            done
            [ "$d" = "$main_depth" ] || continue # the backends at the first depth only
            for be in "${backends[@]}"; do
                rm -f "$out/flood_d${d}_${be%%=*}.csv"
                job "$out/flood_d$d.log" "$out/flood_d${d}_${be%%=*}.csv" GASNET_NETWORKDEPTH="$d" \
                    ${be#*=} GASNET_RMA_STRICT=yes $run -n 2 $B/flood/flood -l gasnet -o $backend_ops_fl \
                    $(backend_opts "$be")
            done
            echo "flood, depth $d: $(($(date +%s) - t)) s"
        done
    fi

    if wants barrier; then
        t=$(date +%s)
        : > "$out/barrier.log"
        rm -f "$out/barrier.csv"
        for ((n = 1; n <= barrier_ranks; n++)); do
            # MPICH spins while it waits: oversubscribed, a barrier costs
            # milliseconds, so those runs get few iterations
            if [ "$n" -le "$cores" ]; then bi=(-n 2000 -r "$reps"); else bi=(-n 20 -r 3); fi
            for algo in AMDISSEM AMCENTRAL; do
                job "$out/barrier.log" "$out/barrier.csv" GASNET_BARRIER=$algo \
                    $run -n "$n" $B/barrier/barrier -l gasnet "${bi[@]}"
            done
            job "$out/barrier.log" "$out/barrier.csv" $run -n "$n" $B/barrier/barrier -l mpi "${bi[@]}"
        done
        echo "barrier, 1..$barrier_ranks ranks: $(($(date +%s) - t)) s"
        if [ "$barrier_ranks" -gt "$cores" ]; then
            echo "note: runs with more than $cores ranks oversubscribe this machine's $cores cores;"
            echo "      their barrier times measure the scheduler, not the algorithms"
        fi
    fi
    echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$out/machine.txt"

    if command -v gnuplot >/dev/null; then
        gnuplot -e "dir='$out'; depth='$main_depth'; backends='${backends[*]%%=*}'" bench/plot.gp ||
            echo "run.sh: gnuplot failed; no plots" >&2
    else
        echo "run.sh: gnuplot not found (package gnuplot-nox): no plots" >&2
    fi
    echo "total: $(($(date +%s) - start)) s"
fi

# ---- tables

# get FILE OP SIZE COLUMN: the value of COLUMN (a header name) for OP at
# SIZE, or nan.
get() {
    [ -f "$1" ] || { echo nan; return; }
    awk -F, -v op="$2" -v size="$3" -v col="$4" '
        /^#/ { next }
        $1 == "bench" { for (i = 1; i <= NF; i++) idx[$i] = i; next }
        $2 == op && $3 == size { v = $(idx[col]) }
        END { print (v == "" ? "nan" : v) }' "$1"
}

# calc EXPR A B [C]: evaluates EXPR over a, b and c; prints - when a value
# is missing or b is zero.
calc() {
    awk -v a="$2" -v b="$3" -v c="${4:-1}" "BEGIN { if (a == \"nan\" || b == \"nan\" || c == \"nan\" || b == 0) print \"-\"; else printf \"%.3g\", $1 }"
}

# table TITLE FILE METRIC SIZE AMMPI_OP [LATENCY_ROW]: one of the paper's
# tables for the six columns. METRIC is lat_us, invtp_us or mbps.
table() {
    local title=$1 file=$2 metric=$3 size=$4 amop=$5
    local ops=(get put get_nbi put_nbi "$amop" mpi) sizes=() v=() lo=() hi=()
    local unit=us
    [ "$metric" = mbps ] && unit=MB/s
    echo
    echo "$title"
    printf '%-22s%14s%14s%14s%14s%14s%14s\n' "" "Blocking get" "Blocking put" "Non-blk get" \
        "Non-blk put" "AMMPI" "MPI"
    for i in 0 1 2 3 4 5; do
        local s=$size
        [ "${ops[$i]}" = ammpi_short ] && s=0 # Short messages carry no payload
        sizes[$i]=$s
        v[$i]=$(get "$file" "${ops[$i]}" "$s" "${metric}_median")
        lo[$i]=$(get "$file" "${ops[$i]}" "$s" "${metric}_min")
        hi[$i]=$(get "$file" "${ops[$i]}" "$s" "${metric}_max")
    done
    row() { # LABEL EXPR VALUES...: one row, EXPR over a (value), b (MPI's), c
        local label=$1 expr=$2
        shift 2
        printf '%-22s' "$label"
        for i in 0 1 2 3 4 5; do printf '%14s' "$(eval "calc '$expr' $*")"; done
        echo
    }
    printf '%-22s' "median ($unit)"; for i in 0 1 2 3 4 5; do printf '%14s' "${v[$i]}"; done; echo
    # the best repetition: the shortest time, or the highest bandwidth
    local best=("${lo[@]}")
    [ "$metric" = mbps ] && best=("${hi[@]}")
    printf '%-22s' "best ($unit)"; for i in 0 1 2 3 4 5; do printf '%14s' "${best[$i]}"; done; echo
    row "spread (max-min)/med" '(c - b) / a' '"${v[$i]}" "${lo[$i]}" "${hi[$i]}"'
    row "median / MPI median" 'a / b' '"${v[$i]}" "${v[5]}"'
    row "best / MPI best" 'a / b' '"${best[$i]}" "${best[5]}"'
    row "median / AMMPI median" 'a / b' '"${v[$i]}" "${v[4]}"'
    if [ $# -ge 6 ]; then
        printf '%-22s' "latency (us, Table 1)"
        for i in 0 1 2 3 4 5; do printf '%14s' "$(get "$6" "${ops[$i]}" "${sizes[$i]}" lat_us_median)"; done
        echo
    fi
}

# target LABEL METRIC FILE OP SIZE REF REF_SIZE GOAL: OP's figure over
# REF's, from the medians and from the best repetitions.
target() {
    local label=$1 m=$2 f=$3 op=$4 size=$5 ref=$6 rsize=$7 goal=$8 best=min
    [ "$m" = mbps ] && best=max
    printf '  %-50s %8s %8s   %s\n' "$label" \
        "$(calc 'a / b' "$(get "$f" "$op" "$size" "${m}_median")" "$(get "$f" "$ref" "$rsize" "${m}_median")")" \
        "$(calc 'a / b' "$(get "$f" "$op" "$size" "${m}_$best")" "$(get "$f" "$ref" "$rsize" "${m}_$best")")" \
        "$goal"
}

# cell FILE OP SIZE METRIC MPI_FILE: "value (ratio to raw MPI's)" from
# the medians, or - when not measured.
cell() {
    local v m
    v=$(get "$1" "$2" "$3" "${4}_median") m=$(get "$5" mpi "$3" "${4}_median")
    if [ "$v" = nan ]; then echo -; else printf '%.4g (%sx)' "$v" "$(calc 'a / b' "$v" "$m")"; fi
}

# Table 4: GASNet over each RMA backend against raw MPI, all medians.
backend_table() {
    local pp=$out/pingpong.csv fl=$out/flood_d$main_depth.csv name sfx
    echo
    echo "Table 4. RMA backends (GASNET_RMA): median (ratio to raw MPI in the same run);"
    echo "round trips in us, bandwidth in MB/s at network depth $main_depth, inverse throughput in us"
    printf '%-14s%18s%18s%18s%18s%18s%18s\n' "" "get RTT 8 B" "put RTT 8 B" "get_nbi bw 128K" \
        "put_nbi bw 128K" "put_nbi bw 4M" "put_nbi 1/tp 1 B"
    for name in am "${backends[@]%%=*}"; do
        sfx=_$name
        [ "$name" = am ] && sfx=
        [ -f "$out/pingpong$sfx.csv" ] || [ -f "$out/flood_d$main_depth$sfx.csv" ] || continue
        printf '%-14s%18s%18s%18s%18s%18s%18s\n' "$name" \
            "$(cell "$out/pingpong$sfx.csv" get 8 lat_us "$pp")" \
            "$(cell "$out/pingpong$sfx.csv" put 8 lat_us "$pp")" \
            "$(cell "$out/flood_d$main_depth$sfx.csv" get_nbi 131072 mbps "$fl")" \
            "$(cell "$out/flood_d$main_depth$sfx.csv" put_nbi 131072 mbps "$fl")" \
            "$(cell "$out/flood_d$main_depth$sfx.csv" put_nbi 4194304 mbps "$fl")" \
            "$(cell "$out/flood_d$main_depth$sfx.csv" put_nbi 1 invtp_us "$fl")"
    done
    printf '%-14s%18s%18s%18s%18s%18s%18s\n' "raw MPI" "$(get "$pp" mpi 8 lat_us_median)" \
        "$(get "$pp" mpi 8 lat_us_median)" "$(get "$fl" mpi 131072 mbps_median)" \
        "$(get "$fl" mpi 131072 mbps_median)" "$(get "$fl" mpi 4194304 mbps_median)" \
        "$(get "$fl" mpi 1 invtp_us_median)"
    echo "  am: active messages over MPI (the columns of Tables 1-3); shm: the peer's segment mapped;"
    echo "  ofi-*: libfabric with FI_PROVIDER tcp;ofi_rxm or sockets. Raw MPI: MPI_Send/Recv ping-pong,"
    echo "  MPI_Isend flood."
}

print_tables() {
    local pp=$out/pingpong.csv fl=$out/flood_d$main_depth.csv
    echo
    echo "==== Results ($(grep -m1 '^date' "$out/machine.txt" 2>/dev/null | cut -d' ' -f2-); $(grep -m1 '^cpu' "$out/machine.txt" 2>/dev/null | cut -d' ' -f2-))"
    echo "Non-blocking = implicit handle (nbi); MB = 2^20 bytes; median and best of the"
    echo "repetitions (best: shortest time, highest bandwidth; on a busy machine it shows the"
    echo "undisturbed cost); spread = (max - min) / median."
    table "Table 1. Round-trip latency for a 1-byte message (us); AMMPI = Short request + Short reply" \
        "$pp" lat_us 1 ammpi_short
    local nb_get nb_put am mpi_lat
    nb_get=$(get "$pp" get_nb 1 lat_us_median) nb_put=$(get "$pp" put_nb 1 lat_us_median)
    am=$(get "$pp" am_short 0 lat_us_median) mpi_lat=$(get "$pp" mpi 1 lat_us_median)
    echo "  explicit-handle nb: get $nb_get us ($(calc 'a / b' "$nb_get" "$mpi_lat") x MPI), put $nb_put us ($(calc 'a / b' "$nb_put" "$mpi_lat") x MPI)"
    echo "  GASNet AM Short request/reply: $am us ($(calc 'a / b' "$am" "$mpi_lat") x MPI, $(calc 'a / b' "$am" "$(get "$pp" ammpi_short 0 lat_us_median)") x AMMPI)"
    for d in $depths; do
        fl=$out/flood_d$d.csv
        table "Table 2. Bandwidth for 128 KB messages (MB/s), network depth $d; AMMPI = Long requests" \
            "$fl" mbps 131072 ammpi_long
        echo "  put_nbi_bulk: $(get "$fl" put_nbi_bulk 131072 mbps_median) MB/s; explicit-handle nb: get $(get "$fl" get_nb 131072 mbps_median), put $(get "$fl" put_nb 131072 mbps_median) MB/s"
    done
    for d in $depths; do
        fl=$out/flood_d$d.csv
        table "Table 3. Inverse throughput for 1-byte messages (us), network depth $d; AMMPI = Medium requests" \
            "$fl" invtp_us 1 ammpi_medium "$pp"
        echo "  explicit-handle nb: get $(get "$fl" get_nb 1 invtp_us_median), put $(get "$fl" put_nb 1 invtp_us_median) us"
    done
    backend_table
    fl=$out/flood_d$main_depth.csv
    echo
    echo "Targets (reported, never asserted): ratios from the medians and from the best"
    echo "repetitions; the flood at depth $main_depth."
    printf '  %-50s %8s %8s   %s\n' "" median best target
    target "blocking put round trip / MPI round trip" lat_us "$pp" put 1 mpi 1 "<= 1.25"
    target "blocking get round trip / MPI round trip" lat_us "$pp" get 1 mpi 1 "<= 1.25"
    target "GASNet AM Short round trip / MPI round trip" lat_us "$pp" am_short 0 mpi 1 "<= 1.15"
    target "put_nbi inverse throughput / MPI Isend (1 byte)" invtp_us "$fl" put_nbi 1 mpi 1 "<= 2"
    target "put_nbi bandwidth / MPI bandwidth (4 MB)" mbps "$fl" put_nbi 4194304 mpi 4194304 ">= 0.9"
    target "put_nbi_bulk bandwidth / MPI bandwidth (4 MB)" mbps "$fl" put_nbi_bulk 4194304 mpi 4194304 ">= 0.9"
    local sp=$out/pingpong_shm.csv sf=$out/flood_d${main_depth}_shm.csv
    if [ -f "$sp" ] && [ -f "$sf" ]; then
        # target reads one file: the backend's rows and MPI's
        { cat "$sp"; awk -F, '$2 == "mpi"' "$pp"; } > "$out/shm_pp.tmp"
        { cat "$sf"; awk -F, '$2 == "mpi"' "$fl"; } > "$out/shm_fl.tmp"
        target "shm blocking put 8-byte round trip / MPI" lat_us "$out/shm_pp.tmp" put 8 mpi 8 "<= 0.1"
        target "shm blocking get 8-byte round trip / MPI" lat_us "$out/shm_pp.tmp" get 8 mpi 8 "<= 0.1"
        target "shm put_nbi bandwidth / MPI bandwidth (4 MB)" mbps "$out/shm_fl.tmp" put_nbi 4194304 mpi 4194304 ">= 1.4"
        target "shm get_nbi bandwidth / MPI bandwidth (4 MB)" mbps "$out/shm_fl.tmp" get_nbi 4194304 mpi 4194304 ">= 1.4"
        rm -f "$out/shm_pp.tmp" "$out/shm_fl.tmp"
    fi
    echo
    echo "Data: $out/*.csv; logs: $out/*.log; commands: $out/commands.txt; plots: $out/*.png"
}

print_tables | tee "$out/tables.txt"
