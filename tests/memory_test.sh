#!/bin/bash
# Memory per peer at rest (issue 28; ammpi/internal.h, MEMORY BOUND):
#   tests/memory_test.sh BUILD_DIR [RANKS...]   (default: 4 16 32)
# At each rank count, runs tests/mem_probe.c (init, attach 1 MiB, a Short
# request to every other node and its reply, a barrier; every node its own
# host: GASNET_SUPERNODE_MAXSIZE=1, GASNET_RMA=am) and its plain-MPI twin
# tests/mpi_probe.c (the same exchanges with MPI_Sendrecv), and takes the
# mean peak resident set (VmHWM) over each job's processes. The growth per
# peer from the first rank count to each other, of ours minus MPI's, must
# be at most CEILING_KB (4) per peer: what the library adds per peer
# beyond MPI's own share. Prints a line per job and per comparison, then
# "memory_test: ok" or the comparisons that failed.
set -u
cd "$(dirname "$0")/.."
build=$1
shift
ranks=("$@")
[ ${#ranks[@]} -ge 2 ] || ranks=(4 16 32)
CEILING_KB=4
log=$build/logs/memory_test.$$.log
mkdir -p "$build/logs"

# mean_hwm NAME RANKS PROG: the mean VmHWM (kB) of the job's processes,
# checking that every process printed its line
mean_hwm() {
    local name=$1 n=$2 prog=$3 out
    out=$(timeout 300 env GASNET_SUPERNODE_MAXSIZE=1 GASNET_RMA=am launch/gasnetrun_mpi -n "$n" "$prog" 2>&1)
    echo "$out" >> "$log"
    awk -v n="$n" -v name="$name" '
        / hwm [0-9]+ kB$/ { s += $(NF-1); c++ }
        END { if (c != n) { printf "%s at %d ranks: %d of %d processes reported\n", name, n, c, n > "/dev/stderr"; exit 1 }
              printf "%.0f\n", s / c }' <<< "$out"
}

declare -A ours mpi
for n in "${ranks[@]}"; do
    ours[$n]=$(mean_hwm mem_probe "$n" "$build/tests/seq/mem_probe") || { echo "memory_test: mem_probe failed at $n ranks (log $log)"; exit 1; }
    mpi[$n]=$(mean_hwm mpi_probe "$n" "$build/tests/mpi_probe") || { echo "memory_test: mpi_probe failed at $n ranks (log $log)"; exit 1; }
    echo "memory_test: $n ranks: mean VmHWM ours ${ours[$n]} kB, MPI's ${mpi[$n]} kB"
done
bad=0
n0=${ranks[0]}
for n in "${ranks[@]:1}"; do
    line=$(awk -v a0="${ours[$n0]}" -v a="${ours[$n]}" -v m0="${mpi[$n0]}" -v m="${mpi[$n]}" \
               -v n0="$n0" -v n="$n" -v ceil="$CEILING_KB" 'BEGIN {
        so = (a - a0) / (n - n0); sm = (m - m0) / (n - n0)
        printf "%s %d to %d ranks: per peer ours %.1f kB, MPI %.1f kB, difference %.1f kB (ceiling %d)\n",
               (so - sm <= ceil ? "ok" : "OVER"), n0, n, so, sm, so - sm, ceil }')
    echo "memory_test: $line"
    [[ $line == ok* ]] || bad=1
done
if [ $bad -ne 0 ]; then
    echo "memory_test: the library grows by more than $CEILING_KB kB per peer beyond MPI (log $log)"
    exit 1
fi
rm -f "$log"
echo "memory_test: ok"
