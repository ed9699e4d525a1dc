#!/bin/bash
# Memory per peer at rest (issue 28; ammpi/internal.h, MEMORY BOUND):
#   tests/memory_test.sh BUILD_DIR [RANKS...]   (default: 4 16 32)
# At each rank count, runs tests/mem_probe.c (init, attach 1 MiB, a Short
# request to every other node and its reply, a barrier; every node its own
# host: GASNET_SUPERNODE_MAXSIZE=1, GASNET_RMA=am) and its plain-MPI twin
# tests/mpi_probe.c (the same exchanges with MPI_Sendrecv), and takes the
# median peak resident set (VmHWM) over each job's processes (the median:
# one process's transient allocations, such as MPI's unexpected-message
# buffers on an oversubscribed host, move a mean by tens of kB). Each job
# runs REPEATS times, interleaved, and the middle of its medians counts:
# a job's median moves by 100-150 kB either way from run to run on a busy
# 2-core host (a CI run once saw one 32-rank median 50 kB above its usual
# value, 3 kB on the slope; another, taking the smallest of two runs, a
# 4-rank one 150 kB below, +5 kB on the slope). The growth
# per peer, the least-squares slope over all rank counts, of ours minus
# MPI's, must be at most CEILING_KB (4) per peer: what the library adds per
# peer beyond MPI's own share. Prints a line per job and the verdict.
set -u
cd "$(dirname "$0")/.."
build=$1
shift
ranks=("$@")
[ ${#ranks[@]} -ge 2 ] || ranks=(4 16 32)
CEILING_KB=4
REPEATS=3
log=$build/logs/memory_test.$$.log
mkdir -p "$build/logs"

# median_hwm NAME RANKS PROG: the median VmHWM (kB) of the job's
# processes, checking that every process printed its line
median_hwm() {
    local name=$1 n=$2 prog=$3 out
    # stderr apart: the launcher can split a line of stdout with it
    out=$(timeout 300 env GASNET_SUPERNODE_MAXSIZE=1 GASNET_RMA=am launch/gasnetrun_mpi -n "$n" "$prog" 2>> "$log")
    echo "$out" >> "$log"
    awk '/ hwm [0-9]+ kB$/ { print $(NF-1) }' <<< "$out" | sort -n |
        awk -v n="$n" -v name="$name" '
            { v[NR] = $1 }
            END { if (NR != n) { printf "%s at %d ranks: %d of %d processes reported\n", name, n, NR, n > "/dev/stderr"; exit 1 }
                  printf "%.0f\n", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

declare -A ours mpi # each rank count's medians, one line per run
for ((rep = 1; rep <= REPEATS; rep++)); do
    for n in "${ranks[@]}"; do
        o=$(median_hwm mem_probe "$n" "$build/tests/seq/mem_probe") || { echo "memory_test: mem_probe failed at $n ranks (log $log)"; exit 1; }
        m=$(median_hwm mpi_probe "$n" "$build/tests/mpi_probe") || { echo "memory_test: mpi_probe failed at $n ranks (log $log)"; exit 1; }
        echo "memory_test: $n ranks, run $rep: median VmHWM ours $o kB, MPI's $m kB"
        ours[$n]+="$o"$'\n'
        mpi[$n]+="$m"$'\n'
    done
done
middle() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
points=""
for n in "${ranks[@]}"; do
    points+="$n $(middle <<< "${ours[$n]}") $(middle <<< "${mpi[$n]}")"$'\n'
done
# slope of y over n by least squares, for ours and for MPI
line=$(awk -v ceil="$CEILING_KB" '
    NF == 3 { k++; n += $1; nn += $1 * $1; a += $2; an += $1 * $2; m += $3; mn += $1 * $3 }
    END { d = k * nn - n * n; so = (k * an - n * a) / d; sm = (k * mn - n * m) / d
          printf "%s: per peer ours %.1f kB, MPI %.1f kB, difference %.1f kB (ceiling %d)\n",
                 (so - sm <= ceil ? "ok" : "OVER"), so, sm, so - sm, ceil }' <<< "$points")
echo "memory_test: $line"
if [[ $line != ok* ]]; then
    echo "memory_test: the library grows by more than $CEILING_KB kB per peer beyond MPI (log $log)"
    exit 1
fi
rm -f "$log"
