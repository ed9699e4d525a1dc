#!/bin/bash
# What the trace and stats hooks cost while off: bench/pingpong linked
# with the library built with the hooks compiled out
# (-DGASNETI_NO_TRACE_HOOKS, build/opt-nohooks) against the usual
# build/opt, interleaved, under callgrind (instruction counts: exact where
# this shared VM's times are not). Per operation, on 2 ranks of one host:
#   put       the blocking 8-byte gasnet_put of the benchmark loop (the
#             inline on-node path, put_active)
#   request   gasnetc_AMRequestShort, the library's side of a Short
#             request through the shared-memory rings (rank 0)
#   reply     gasnetc_AMReplyShort, inside the request handler (rank 1)
# The no-hooks build:
#   make -f mk/flavor.mk FLAVOR=opt B=build/opt-nohooks \
#        CFLAGS_opt="-O3 -g -Wa,-mbranches-within-32B-boundaries -DGASNETI_NO_TRACE_HOOKS" \
#        build/opt-nohooks/bench/pingpong/pingpong
# The loops run (n/10 + 1) + reps * n times: 2201 for -n 2000 -r 1.
cd "$(dirname "$0")/.."
N=2000 CALLS=2201
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
ir() { # FILE FUNCTION: inclusive instructions of the function
    callgrind_annotate --inclusive=yes "$1" 2>/dev/null |
        awk -v f="$2" '$0 ~ ":"f" " || $0 ~ ":"f"$" { gsub(",", "", $1); print $1; exit }'
}
echo "# $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, $(mpichversion 2>/dev/null | head -1 | tr -s ' ')"
echo "# instructions per operation (callgrind), hooks compiled out vs in"
for rep in 1 2; do
    for v in opt-nohooks opt; do
        bin=build/$v/bench/pingpong/pingpong
        timeout 300 launch/gasnetrun_mpi -n 2 valgrind --tool=callgrind --toggle-collect=put_active \
            --callgrind-out-file="$out/put.%q{PMI_RANK}" $bin -l gasnet -o put -P shm -s 8 -S 8 -r 1 -n $N \
            > "$out/log" 2>&1 || { echo "$v put: failed"; tail "$out/log"; }
        timeout 300 launch/gasnetrun_mpi -n 2 valgrind --tool=callgrind \
            --toggle-collect=gasnetc_AMRequestShort --toggle-collect=gasnetc_AMReplyShort \
            --callgrind-out-file="$out/am.%q{PMI_RANK}" $bin -l gasnet -o am_short -s 8 -S 8 -r 1 -n $N \
            > "$out/log" 2>&1 || { echo "$v am: failed"; tail "$out/log"; }
        put=$(ir "$out/put.0" put_active) req=$(ir "$out/am.0" gasnetc_AMRequestShort)
        rep_=$(ir "$out/am.1" gasnetc_AMReplyShort)
        printf '%-12s put %6.1f  request %6.1f  reply %6.1f\n' "$v" \
            "$(echo "$put / $CALLS" | bc -l)" "$(echo "$req / $CALLS" | bc -l)" "$(echo "$rep_ / $CALLS" | bc -l)"
    done
done
