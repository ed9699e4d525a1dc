#!/bin/bash
# Reads the CSV files of bench/run.sh and prints the paper's Tables 1-3,
# Table 4 (the RMA backends), the comparison with the paper and the
# targets into DIR/tables.txt (and to the terminal); with --readme, also
# regenerates the README's benchmark table between its markers
#   <!-- bench-table: ... -->  and  <!-- /bench-table -->
# and, where DIR/README.md has markers <!-- paper-table ... -->, the
# comparison with the paper there. Nothing here is typed by hand.
#
#   bench/report.sh [--out DIR] [--depths "16 8"] [--readme FILE]
#
# Ratios are taken per repetition: each repetition of a job ran every
# operation once, so the ratio of two rows is computed within each
# repetition, from the samples_us column, and its median and quartiles
# are shown: "1.14 [1.12, 1.15]". Only rows of one job (one CSV file) and
# of one step of its size sweep pair up. Bandwidth ratios are the
# inverse time ratios (higher is better); every other ratio is a time
# ratio (lower is better).
set -u
cd "$(dirname "$0")/.." || exit 1
out=results depths="16 8" readme=
while [ $# -gt 0 ]; do
    case "$1" in
        --out) out=$2; shift 2 ;;
        --depths) depths=$2; shift 2 ;;
        --readme) readme=$2; shift 2 ;;
        -h|--help) sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) echo "report.sh: unknown option $1" >&2; exit 2 ;;
    esac
done
main_depth=${depths%% *}
# GASNet's AMs between the two ranks through MPI, as in the paper
# (GASNET_SHM_AM=no: Tables 1-3), and through shared memory (the default)
pp=$out/pingpong.csv
fl=$out/flood_d$main_depth.csv
ps=$out/pingpong_shmam.csv
fs=$out/flood_d${main_depth}_shmam.csv

# ---- reading the CSV files

# val FILE OP PATH SIZE COLUMN: the value of COLUMN (a header name) in the
# row of OP over PATH at SIZE, or nan.
val() {
    [ -f "$1" ] || { echo nan; return; }
    awk -F, -v op="$2" -v path="$3" -v size="$4" -v col="$5" '
        /^#/ { next }
        $1 == "bench" { for (i = 1; i <= NF; i++) idx[$i] = i; next }
        $2 == op && $3 == path && $4 == size && (col in idx) { v = $(idx[col]) }
        END { print (v == "" ? "nan" : v) }' "$1"
}

# xr FILE OPA PATHA SIZEA OPB PATHB SIZEB [bw]: A's time over B's, per
# repetition (B's over A's with bw): "median q1 q3", or "nan nan nan"
# when either row is missing or they ran at different steps. Quartiles
# interpolate as bench_quantile does (bench/bench.h).
xr() {
    [ -f "$1" ] || { echo nan nan nan; return; }
    awk -F, -v oa="$2" -v pa="$3" -v sa="$4" -v ob="$5" -v pb="$6" -v sb="$7" -v bw="${8:-}" '
        function q(p,   pos, lo) {
            pos = p * (n - 1); lo = int(pos)
            return lo + 1 <= n - 1 ? r[lo] + (pos - lo) * (r[lo + 1] - r[lo]) : r[lo]
        }
        /^#/ { next }
        $1 == "bench" { for (i = 1; i <= NF; i++) idx[$i] = i; next }
        $2 == oa && $3 == pa && $4 == sa { a = $(idx["samples_us"]); ta = $(idx["step"]) }
        $2 == ob && $3 == pb && $4 == sb { b = $(idx["samples_us"]); tb = $(idx["step"]) }
        END {
            n = split(a, A, ";")
            if (a == "" || b == "" || ta != tb || split(b, B, ";") != n) { print "nan nan nan"; exit }
            for (i = 1; i <= n; i++) {
                if (A[i] <= 0 || B[i] <= 0) { print "nan nan nan"; exit }
                x = bw ? B[i] / A[i] : A[i] / B[i]
                for (j = i - 1; j >= 1 && r[j - 1] > x; j--) r[j] = r[j - 1] # insertion sort, 0-based
                r[j] = x
            }
            printf "%.4g %.4g %.4g\n", q(0.5), q(0.25), q(0.75)
        }' "$1"
}

# num VALUE: a measured value, to 4 significant digits (whole numbers
# from 1000 up); - for nan.
num() { awk -v v="$1" 'BEGIN { if (v == "nan" || v == "") print "-"; else if (v >= 1000) printf "%.0f", v; else printf "%.4g", v }'; }
# num3 VALUE: the same to 3 significant digits (the README's table).
num3() { awk -v v="$1" 'BEGIN { if (v == "nan" || v == "") print "-"; else if (v >= 100) printf "%.0f", v; else printf "%.3g", v }'; }
# rat "MED Q1 Q3": a ratio with its quartiles; - for nan.
rat() { set -- $1; [ "$1" = nan ] && { echo -; return; }; printf '%.3g [%.3g, %.3g]' "$1" "$2" "$3"; }
# med "MED Q1 Q3": the median alone, or -.
med() { set -- $1; [ "$1" = nan ] && { echo -; return; }; printf '%.3g' "$1"; }

# ---- Tables 1-3: one row per operation and path

# row LABEL FILE OP PATH SIZE METRIC TABLE_SIZE AMMPI_OP AMMPI_SIZE: the
# value's median and quartiles, and the per-repetition ratios to raw MPI
# at TABLE_SIZE and to the AMMPI operation. Prints nothing for a row that
# was not measured.
row() {
    local label=$1 f=$2 op=$3 path=$4 size=$5 m=$6 tsize=$7 aop=$8 asize=$9 bw=
    [ "$m" = mbps ] && bw=bw
    local v
    v=$(val "$f" "$op" "$path" "$size" "${m}_median")
    [ "$v" = nan ] && return
    printf '%-24s %-5s %10s %21s %28s %28s\n' "$label" "$path" "$(num "$v")" \
        "$(num "$(val "$f" "$op" "$path" "$size" "${m}_q1")")-$(num "$(val "$f" "$op" "$path" "$size" "${m}_q3")")" \
        "$(rat "$(xr "$f" "$op" "$path" "$size" mpi - "$tsize" $bw)")" \
        "$(rat "$(xr "$f" "$op" "$path" "$size" "$aop" - "$asize" $bw)")"
}

# table TITLE FILE METRIC UNIT SIZE AMMPI_OP AMMPI_SIZE AM_OP: the paper's
# four GASNet operations over each RMA path, then AMMPI, GASNet's own AM,
# raw MPI (and the cache-line and rings' floors for round trips).
table() {
    local title=$1 f=$2 m=$3 unit=$4 size=$5 aop=$6 asize=$7 amop=$8 path
    [ -f "$f" ] || return
    echo
    echo "$title"
    printf '%-24s %-5s %10s %21s %28s %28s\n' "" path "median" "q1-q3 ($unit)" "x MPI [q1, q3]" \
        "x AMMPI [q1, q3]"
    for path in $(awk -F, '$1 != "bench" && $3 != "-" && !/^#/ && !seen[$3]++ { print $3 }' "$f"); do
        row "Blocking get" "$f" get "$path" "$size" "$m" "$size" "$aop" "$asize"
        row "Blocking put" "$f" put "$path" "$size" "$m" "$size" "$aop" "$asize"
        row "Non-blocking get (nbi)" "$f" get_nbi "$path" "$size" "$m" "$size" "$aop" "$asize"
        row "Non-blocking put (nbi)" "$f" put_nbi "$path" "$size" "$m" "$size" "$aop" "$asize"
        row "explicit-handle get" "$f" get_nb "$path" "$size" "$m" "$size" "$aop" "$asize"
        row "explicit-handle put" "$f" put_nb "$path" "$size" "$m" "$size" "$aop" "$asize"
        row "put_nbi_bulk" "$f" put_nbi_bulk "$path" "$size" "$m" "$size" "$aop" "$asize"
    done
    row "AMMPI (${aop#ammpi_})" "$f" "$aop" - "$asize" "$m" "$size" "$aop" "$asize"
    row "GASNet AM ${amop#am_}" "$f" "$amop" - "$asize" "$m" "$size" "$aop" "$asize"
    row "MPI" "$f" mpi - "$size" "$m" "$size" "$aop" "$asize"
    row "MPI calls of an AM layer" "$f" mpi_am - 0 "$m" "$size" "$aop" "$asize"
    row "cache-line floor" "$f" floor - 0 "$m" "$size" "$aop" "$asize"
    row "rings' floor" "$f" ring - 0 "$m" "$size" "$aop" "$asize"
}

# ---- Table 4: each backend's figures with the ratio to raw MPI in its
# own job

# cell FILE OP PATH SIZE METRIC: "value (ratio to MPI x)", or -.
cell() {
    local v bw=
    [ "$5" = mbps ] && bw=bw
    v=$(val "$1" "$2" "$3" "$4" "${5}_median")
    [ "$v" = nan ] && { echo -; return; }
    printf '%s (%sx)' "$(num "$v")" "$(med "$(xr "$1" "$2" "$3" "$4" mpi - "$4" $bw)")"
}

# The paths and backends measured, a line each: NAME|PATH|PINGPONG_FILE|FLOOD_FILE.
# The am path in each AM configuration; native paths from the default
# configuration's job where there is one; then the ofi jobs.
paths_of() { awk -F, '$1 != "bench" && $3 != "-" && !/^#/ && !seen[$3]++ { print $3 }' "$1" 2>/dev/null; }
backend_list() {
    local p f name
    for p in $(paths_of "$pp"); do
        if [ "$p" = am ]; then echo "am, MPI AMs|am|$pp|$fl"; elif [ ! -f "$ps" ]; then echo "$p|$p|$pp|$fl"; fi
    done
    for p in $(paths_of "$ps"); do
        if [ "$p" = am ]; then echo "am, shm AMs|am|$ps|$fs"; else echo "$p|$p|$ps|$fs"; fi
    done
    for f in "$out"/pingpong_*.csv; do
        [ -f "$f" ] && [ "$f" != "$ps" ] || continue
        name=${f##*/pingpong_}
        name=${name%.csv}
        p=$(awk -F, '$1 != "bench" && $3 != "-" && !/^#/ { print $3; exit }' "$f")
        echo "$name|${p:-none}|$f|$out/flood_d${main_depth}_$name.csv"
    done
}

backend_table() {
    echo
    echo "Table 4. RMA paths and backends: median (median of the per-repetition ratios to raw"
    echo "MPI in the same job); round trips in us, bandwidth in MB/s at network depth $main_depth,"
    echo "inverse throughput in us"
    printf '%-14s%20s%20s%20s%20s%20s%20s\n' "" "get RTT 8 B" "put RTT 8 B" "get_nbi bw 128K" \
        "put_nbi bw 128K" "put_nbi bw 4M" "put_nbi 1/tp 1 B"
    local name path fp ff
    while IFS='|' read -r name path fp ff; do
        printf '%-14s%20s%20s%20s%20s%20s%20s\n' "$name" \
            "$(cell "$fp" get "$path" 8 lat_us)" "$(cell "$fp" put "$path" 8 lat_us)" \
            "$(cell "$ff" get_nbi "$path" 131072 mbps)" "$(cell "$ff" put_nbi "$path" 131072 mbps)" \
            "$(cell "$ff" put_nbi "$path" 4194304 mbps)" "$(cell "$ff" put_nbi "$path" 1 invtp_us)"
    done < <(backend_list)
    printf '%-14s%20s%20s%20s%20s%20s%20s\n' "raw MPI" "$(num "$(val "$pp" mpi - 8 lat_us_median)")" \
        "$(num "$(val "$pp" mpi - 8 lat_us_median)")" "$(num "$(val "$fl" mpi - 131072 mbps_median)")" \
        "$(num "$(val "$fl" mpi - 131072 mbps_median)")" "$(num "$(val "$fl" mpi - 4194304 mbps_median)")" \
        "$(num "$(val "$fl" mpi - 1 invtp_us_median)")"
    echo "  am: every put and get an active message, through MPI (GASNET_SHM_AM=no, the paper's"
    echo "  columns) or through shared memory (the default); shm: a copy in the peer's mapped"
    echo "  segment; ofi-*: libfabric with FI_PROVIDER tcp;ofi_rxm or sockets, each in a job of its"
    echo "  own beside raw MPI. raw MPI: the MPI-AM jobs' MPI_Send/Recv ping-pong and MPI_Isend flood."
    # libfabric's progress threads share the cores with the ranks: where
    # they slowed the MPI of their own job, its ratios mislead
    while IFS='|' read -r name path fp ff; do
        case $name in am*|shm) continue ;; esac
        echo "  $name's own job: raw MPI round trip 8 B $(num "$(val "$fp" mpi - 8 lat_us_median)") us, MPI_Isend 1 B" \
            "$(num "$(val "$ff" mpi - 1 invtp_us_median)") us, 128 KB $(num "$(val "$ff" mpi - 131072 mbps_median)") MB/s"
    done < <(backend_list)
}

# ---- the paper, and the targets

# The 2002 paper's ratios (IBM SP, Millennium) beside ours: one line per
# comparison, "label|paper SP|paper Millennium|ours".
paper_rows() {
    local f8=$out/flood_d8.csv f16=$out/flood_d16.csv
    echo "AMMPI / MPI round trip, 1 B|1.53|1.44|$(med "$(xr "$pp" ammpi_short - 0 mpi - 1)")"
    echo "GASNet blocking put / AMMPI round trip|1.12|1.07|$(med "$(xr "$pp" put am 1 ammpi_short - 0)")"
    echo "GASNet blocking get / AMMPI round trip|1.14|1.07|$(med "$(xr "$pp" get am 1 ammpi_short - 0)")"
    echo "GASNet non-blocking put / MPI bandwidth, 128 KB, depth 8|0.66|-|$(med "$(xr "$f8" put_nbi am 131072 mpi - 131072 bw)")"
    echo "AMMPI / MPI bandwidth, 128 KB, depth 8|0.66|-|$(med "$(xr "$f8" ammpi_long - 131072 mpi - 131072 bw)")"
    echo "GASNet non-blocking put / MPI inverse throughput, 1 B|3.8|1.66|$(med "$(xr "$f16" put_nbi am 1 mpi - 1)") (depth 16), $(med "$(xr "$f8" put_nbi am 1 mpi - 1)") (depth 8)"
    echo "GASNet blocking put / MPI inverse throughput, 1 B|10.3|5.2|$(med "$(xr "$f16" put am 1 mpi - 1)")"
}

paper_markdown() {
    echo "| ratio (per-repetition medians) | paper, IBM SP | paper, Millennium | here |"
    echo "| --- | --- | --- | --- |"
    paper_rows | awk -F'|' '{ printf "| %s | %s | %s | %s |\n", $1, $2, $3, $4 }'
}

# target LABEL "MED Q1 Q3" GOAL
target() { printf '  %-58s %-24s %s\n' "$1" "$(rat "$2")" "$3"; }
# nsq FILE OP PATH SIZE COLUMN_median: a time in ns with its quartiles
# (the shm targets are absolute).
nsq() {
    local b=${5%_median}
    awk -v m="$(val "$1" "$2" "$3" "$4" "$5")" -v a="$(val "$1" "$2" "$3" "$4" "${b}_q1")" \
        -v c="$(val "$1" "$2" "$3" "$4" "${b}_q3")" \
        'BEGIN { if (m == "nan") print "nan nan nan"; else printf "%.3g %.3g %.3g\n", m * 1000, a * 1000, c * 1000 }'
}

targets() {
    echo
    echo "Targets (issue 14; reported, never asserted): per-repetition ratios, median [q1, q3];"
    echo "2 ranks on one host, flood at depth $main_depth."
    echo " The MPI path (GASNET_SHM_AM=no, every put an active message):"
    target "GASNet AM Short round trip / MPI 1-byte round trip" "$(xr "$pp" am_short - 0 mpi - 1)" "<= 1.25"
    target "the MPI calls of an AM layer alone / MPI 1-byte round trip" "$(xr "$pp" mpi_am - 0 mpi - 1)" "(reference)"
    target "ammpi Short round trip / MPI 1-byte round trip" "$(xr "$pp" ammpi_short - 0 mpi - 1)" "(reference)"
    target "blocking 8-byte put round trip / MPI's" "$(xr "$pp" put am 8 mpi - 8)" "<= 1.35"
    target "8-byte put_nbi inverse throughput / MPI_Isend's" "$(xr "$fl" put_nbi am 8 mpi - 8)" "<= 2"
    target "4 MB put_nbi bandwidth / MPI's" "$(xr "$fl" put_nbi am 4194304 mpi - 4194304 bw)" ">= 0.9"
    target "4 MB put_nbi_bulk bandwidth / MPI's" "$(xr "$fl" put_nbi_bulk am 4194304 mpi - 4194304 bw)" ">= 0.9"
    echo " On one host (the default: AMs through shared memory):"
    target "GASNet AM Short round trip / MPI 1-byte round trip" "$(xr "$ps" am_short - 0 mpi - 1)" "<= 0.75"
    target "GASNet AM Short round trip / cache-line floor" "$(xr "$ps" am_short - 0 floor - 0)" "<= 1.3"
    target "MPI 1-byte round trip / cache-line floor" "$(xr "$ps" mpi - 1 floor - 0)" "(reference)"
    target "rings' protocol alone / cache-line floor" "$(xr "$ps" ring - 0 floor - 0)" "(reference)"
    target "shm blocking 8-byte put (ns)" "$(nsq "$ps" put shm 8 lat_us_median)" "<= 3.2 (0.8x the reference's 4)"
    target "shm blocking 8-byte get (ns)" "$(nsq "$ps" get shm 8 lat_us_median)" "<= 3.2 (0.8x the reference's 4)"
    target "shm 8-byte put_nbi inverse throughput (ns)" "$(nsq "$fs" put_nbi shm 8 invtp_us_median)" "<= 2.8 (0.8x the reference's 3.5)"
    target "shm 4 MB put_nbi bandwidth / MPI's" "$(xr "$fs" put_nbi shm 4194304 mpi - 4194304 bw)" ">= 1.4"
    target "shm 4 MB get_nbi bandwidth / MPI's" "$(xr "$fs" get_nbi shm 4194304 mpi - 4194304 bw)" ">= 1.4"
    echo " Beside MPI:"
    target "MPI 1-byte round trip with GASNet's endpoint running / without" "$(xr "$pp" mpi_with_gasnet - 1 mpi - 1)" "(what its receives cost MPI)"
}

# GASNet-EX operations against their GASNet-1 twins: an operation named
# ex_NAME is compared with NAME over the same path, in the same job and
# repetition, at the sizes of the tables (see bench/README.md).
twins() {
    local f op path size r any=0
    for f in "$pp" "$fl" "$ps" "$fs"; do
        [ -f "$f" ] || continue
        while IFS=, read -r op path; do
            for size in 0 8 131072 4194304; do
                r=$(xr "$f" "$op" "$path" "$size" "${op#ex_}" "$path" "$size")
                [ "${r%% *}" = nan ] && continue
                [ $any = 1 ] || { echo; echo "GASNet-EX against GASNet-1 (time ratio per repetition; lower is faster):"; any=1; }
                printf '  %-15s %-24s %-5s %8s B   %s\n' "${f##*/}" "$op / ${op#ex_}" "$path" "$size" "$(rat "$r")"
            done
        done < <(awk -F, '$2 ~ /^ex_/ && !seen[$2 "," $3]++ { print $2 "," $3 }' "$f")
    done
}

barrier_table() {
    local f=$out/barrier.csv
    [ -f "$f" ] || return
    echo
    echo "Barrier latency (us): median [q1, q3], and the per-repetition ratio to MPI_Barrier in the same job"
    awk -F, '/^#/ || $1 == "bench" { next }
        $2 == "gasnet" { printf "  %-10s ranks %3d  %10.4g [%.4g, %.4g]  x MPI_Barrier %.3g [%.3g, %.3g]\n", $3, $4, $7, $8, $9, $12, $13, $14 }
        $2 == "mpi" { printf "  %-10s ranks %3d  %10.4g [%.4g, %.4g]\n", "MPI_Barrier", $4, $7, $8, $9 }' "$f"
}

# ratomic_MECH.csv (bench/ratomic): one row per atomic-domain mechanism.
ratomic_table() {
    local f any=0
    for f in "$out"/ratomic_*.csv; do
        [ -f "$f" ] || continue
        [ $any = 1 ] || { echo; echo "Remote fetch-and-add round trip (us), gex_AD_OpNB_I64 against MPI_Fetch_and_op in the same job:"; any=1; }
        awk -F, '/^#/ || $1 == "bench" { next }
            { printf "  %-8s GASNet %8.4g  MPI %8.4g  x MPI %.3g [min %.3g, max %.3g]\n", $2, $5, $6, $7, $8, $9 }' "$f"
    done
}

print_tables() {
    echo
    echo "==== Results ($(grep -m1 '^date' "$out/machine.txt" 2>/dev/null | cut -d' ' -f2-); $(grep -m1 '^cpu' "$out/machine.txt" 2>/dev/null | cut -d' ' -f2-))"
    echo "Every layer measured in one job, interleaved; median and quartiles of the repetitions;"
    echo "x MPI and x AMMPI: the ratio taken in each repetition, its median [q1, q3] (bandwidth:"
    echo "higher is better; times: lower is better). MB = 2^20 bytes."
    local mpi_am="GASNet's AMs through MPI" shm_am="GASNet's AMs through shared memory (the default)"
    local t1="Table 1. Round-trip latency, 1-byte messages (us); AMMPI and GASNet AM: Short request, Short reply"
    table "$t1;"$'\n'"$mpi_am" "$pp" lat_us us 1 ammpi_short 0 am_short
    table "$t1;"$'\n'"$shm_am" "$ps" lat_us us 1 ammpi_short 0 am_short
    local d f t2 t3
    for d in $depths; do
        t2="Table 2. Bandwidth, 128 KB messages (MB/s), network depth $d; AMMPI and GASNet AM: Long requests"
        table "$t2;"$'\n'"$mpi_am" "$out/flood_d$d.csv" mbps MB/s 131072 ammpi_long 131072 am_long
        table "$t2;"$'\n'"$shm_am" "$out/flood_d${d}_shmam.csv" mbps MB/s 131072 ammpi_long 131072 am_long
    done
    for d in $depths; do
        t3="Table 3. Inverse throughput, 1-byte messages (us), network depth $d; AMMPI and GASNet AM: Medium requests"
        table "$t3;"$'\n'"$mpi_am" "$out/flood_d$d.csv" invtp_us us 1 ammpi_medium 1 am_medium
        table "$t3;"$'\n'"$shm_am" "$out/flood_d${d}_shmam.csv" invtp_us us 1 ammpi_medium 1 am_medium
    done
    backend_table
    echo
    echo "Against the paper (section 4 of the 2002 GASNet paper; GASNet over the am path):"
    paper_rows | awk -F'|' '{ printf "  %-56s %6s %6s   %s\n", $1, $2, $3, $4 }'
    targets
    twins
    barrier_table
    ratomic_table
    echo
    echo "Data: $out/*.csv; logs: $out/*.log; commands: $out/commands.txt; plots: $out/*.png"
}

# ---- the README's table: the paper's layout, "median (x MPI)" cells

# mcell FILE OP PATH SIZE METRIC TABLE_SIZE: "value (ratio x)" for markdown.
mcell() {
    local v bw=
    [ "$5" = mbps ] && bw=bw
    v=$(val "$1" "$2" "$3" "$4" "${5}_median")
    [ "$v" = nan ] && { echo -; return; }
    printf '%s (%sx)' "$(num3 "$v")" "$(med "$(xr "$1" "$2" "$3" "$4" mpi - "$6" $bw)")"
}

# mrow LABEL FILE METRIC SIZE PATH AMMPI_OP AMMPI_SIZE: one row of the
# README's table; AMMPI and MPI from the same job.
mrow() {
    local label=$1 f=$2 m=$3 s=$4 p=$5 aop=$6 asize=$7
    [ -f "$f" ] || return
    [ "$(val "$f" put "$p" "$s" "${m}_median")" = nan ] && return
    local am mpi
    am=$(mcell "$f" "$aop" - "$asize" "$m" "$s")
    mpi=$(num3 "$(val "$f" mpi - "$s" "${m}_median")")
    echo "| $label | $(mcell "$f" get "$p" "$s" "$m" "$s") | $(mcell "$f" put "$p" "$s" "$m" "$s") | $(mcell "$f" get_nbi "$p" "$s" "$m" "$s") | $(mcell "$f" put_nbi "$p" "$s" "$m" "$s") | $am | $mpi |"
}

readme_block() {
    local m=$out/machine.txt date cpu mpi ucx path name fp ff
    date=$(sed -n 's/^date: //p' "$m" 2>/dev/null)
    cpu=$(sed -n 's/^cpu: //p' "$m" 2>/dev/null)
    mpi=$(sed -n 's/^mpi: MPICH Version: *\([^;]*\);MPICH Device: *\(.*\)/MPICH \1, \2/p' "$m" 2>/dev/null)
    ucx=$(sed -n 's/^ucx: //p' "$m" 2>/dev/null)
    echo "<!-- bench-table: written by bench/report.sh from $out/*.csv; make bench rewrites it -->"
    echo "\`make bench\` of $date: $cpu; ${mpi:-MPI}, UCX ${ucx:-unknown}; 2 ranks on"
    echo "one host. Every layer in one job, interleaved; medians, and in parentheses the median of"
    echo "the ratios to raw MPI taken in each repetition. am: every put and get an active message,"
    echo "the AMs through MPI as in the paper (GASNET_SHM_AM=no) or through shared memory (the"
    echo "default); shm: a copy in the peer's mapped segment. Full tables: \`$out/tables.txt\`; the"
    echo "comparison with the paper: \`$out/README.md\`."
    echo
    echo "| | Blocking get | Blocking put | Non-blocking get | Non-blocking put | AMMPI | MPI |"
    echo "| --- | --- | --- | --- | --- | --- | --- |"
    mrow "Table 1: round trip, 1 B (µs), am, MPI AMs" "$pp" lat_us 1 am ammpi_short 0
    mrow "Table 1: round trip, 1 B (µs), am, shm AMs" "$ps" lat_us 1 am ammpi_short 0
    mrow "Table 1: round trip, 1 B (µs), shm" "$ps" lat_us 1 shm ammpi_short 0
    mrow "Table 2: bandwidth, 128 KB, depth $main_depth (MB/s), am, MPI AMs" "$fl" mbps 131072 am ammpi_long 131072
    mrow "Table 2: bandwidth, 128 KB, depth $main_depth (MB/s), am, shm AMs" "$fs" mbps 131072 am ammpi_long 131072
    mrow "Table 2: bandwidth, 128 KB, depth $main_depth (MB/s), shm" "$fs" mbps 131072 shm ammpi_long 131072
    mrow "Table 3: inverse throughput, 1 B, depth $main_depth (µs), am, MPI AMs" "$fl" invtp_us 1 am ammpi_medium 1
    mrow "Table 3: inverse throughput, 1 B, depth $main_depth (µs), am, shm AMs" "$fs" invtp_us 1 am ammpi_medium 1
    mrow "Table 3: inverse throughput, 1 B, depth $main_depth (µs), shm" "$fs" invtp_us 1 shm ammpi_medium 1
    local floor
    floor=$(val "$ps" floor - 0 lat_us_median)
    if [ "$floor" != nan ]; then
        echo
        echo "Cache-line floor (one line bounced between the two ranks' cores): $(num3 "$floor") µs per round"
        echo "trip, $(med "$(xr "$ps" floor - 0 mpi - 1)")x MPI's. GASNet's AM Short round trip: $(med "$(xr "$ps" am_short - 0 floor - 0)")x the floor"
        echo "through shared memory, $(med "$(xr "$pp" am_short - 0 floor - 0)")x through MPI. The rings' protocol alone"
        echo "(an entry each way, no software): $(med "$(xr "$ps" ring - 0 floor - 0)")x the floor."
    fi
    echo
    echo "Table 4, each backend beside raw MPI in its own job:"
    echo
    echo "| | get RTT 8 B (µs) | put RTT 8 B (µs) | put_nbi 128 KB (MB/s) | put_nbi 4 MB (MB/s) | put_nbi 1/tp 1 B (µs) |"
    echo "| --- | --- | --- | --- | --- | --- |"
    while IFS='|' read -r name path fp ff; do
        echo "| $name | $(mcell "$fp" get "$path" 8 lat_us 8) | $(mcell "$fp" put "$path" 8 lat_us 8) | $(mcell "$ff" put_nbi "$path" 131072 mbps 131072) | $(mcell "$ff" put_nbi "$path" 4194304 mbps 4194304) | $(mcell "$ff" put_nbi "$path" 1 invtp_us 1) |"
    done < <(backend_list)
    echo "<!-- /bench-table -->"
}

# replace FILE START END: replaces the lines from the one matching START
# to the one matching END with standard input; leaves FILE alone (and
# says so) when it lacks the markers.
replace() {
    local file=$1 start=$2 end=$3 new
    new=$(cat)
    if ! grep -q "$start" "$file" || ! grep -q "$end" "$file"; then
        echo "report.sh: $file has no $start ... $end markers; not changed" >&2
        return 1
    fi
    NEW=$new awk -v start="$start" -v end="$end" '
        index($0, start) { print ENVIRON["NEW"]; skip = 1; next }
        skip && index($0, end) { skip = 0; next }
        !skip' "$file" > "$file.tmp" && mv "$file.tmp" "$file"
}

[ -f "$pp" ] || [ -f "$fl" ] || { echo "report.sh: no pingpong.csv or flood_d$main_depth.csv in $out" >&2; exit 1; }
for f in "$pp" "$fl"; do
    if [ -f "$f" ] && ! grep -q '^bench,op,path,size,step,' "$f"; then
        echo "report.sh: $f was written by an older bench/run.sh (one layer per job, no path" >&2
        echo "column); run make bench (or bench/run.sh) to measure in the current format" >&2
        exit 1
    fi
done
print_tables | tee "$out/tables.txt"
if [ -n "$readme" ]; then
    readme_block | replace "$readme" '<!-- bench-table' '<!-- /bench-table -->' &&
        echo "report.sh: regenerated the benchmark table in $readme"
fi
if [ -f "$out/README.md" ] && grep -q '<!-- paper-table' "$out/README.md"; then
    { echo "<!-- paper-table: written by bench/report.sh from the CSV files here -->"; paper_markdown
      echo "<!-- /paper-table -->"; } | replace "$out/README.md" '<!-- paper-table' '<!-- /paper-table -->' &&
        echo "report.sh: regenerated the comparison with the paper in $out/README.md"
fi
