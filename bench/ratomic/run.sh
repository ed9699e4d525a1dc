#!/bin/bash
# Runs bench/ratomic (built by `make build-opt`) on 2 ranks once per
# atomic-domain mechanism and prints both tables:
#   cpu      the default on one host (the ranks map each other's segments)
#   handler  GASNET_RMA=am (the target applies each operation in a handler)
#
#   bench/ratomic/run.sh [--out DIR] [ratomic options: -n iters -r reps]
# With --out, each run's table goes to DIR/ratomic_<mechanism>.log and its
# CSV to DIR/ratomic_<mechanism>.csv.
set -u
cd "$(dirname "$0")/../.." || exit 1
out=""
if [ "${1:-}" = --out ]; then out=$2; shift 2; mkdir -p "$out"; fi
prog=build/opt/bench/ratomic/ratomic
[ -x "$prog" ] || { echo "run.sh: $prog is not built (make build-opt)" >&2; exit 1; }
rc=0
for mech in cpu handler; do
    env=()
    [ $mech = handler ] && env=(GASNET_RMA=am)
    args=("$@")
    [ -n "$out" ] && args+=(-c "$out/ratomic_$mech.csv")
    echo "+ ${env[*]} launch/gasnetrun_mpi -n 2 $prog ${args[*]}"
    if [ -n "$out" ]; then
        env "${env[@]}" launch/gasnetrun_mpi -n 2 "$prog" "${args[@]}" | tee "$out/ratomic_$mech.log" || rc=1
    else
        env "${env[@]}" launch/gasnetrun_mpi -n 2 "$prog" "${args[@]}" || rc=1
    fi
    echo
done
exit $rc
