#!/bin/bash
# Runs the VIS strided-put benchmark (vis_strided.c) on 2 ranks, once on
# the AM path (GASNET_RMA=am) and once on the default path (shm between the
# ranks of this host), from the optimised build:
#   bench/vis/run.sh [vis_strided options]     (make build-opt first)
set -u
cd "$(dirname "$0")/../.." || exit 1
prog=build/opt/bench/vis/vis_strided
[ -x "$prog" ] || { echo "run.sh: $prog is not built (make -f mk/flavor.mk FLAVOR=opt)" >&2; exit 1; }
GASNET_RMA=am launch/gasnetrun_mpi -n 2 "$prog" "$@" || exit
echo
launch/gasnetrun_mpi -n 2 "$prog" "$@"
