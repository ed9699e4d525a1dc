#!/bin/bash
# The CUDA_UVA memory class on a machine with a GPU (issue 13): the memory
# kinds tests of tests/suite.sh (ex_mk) with EX_MK_CLASS=cuda, so their
# device memory is CUDA device 0's, over every path of one host (shm with
# CUDA IPC, shared-memory AMs, MPI, and ofi where built), SEQ and PAR,
# 2-4 ranks; then the bandwidth benchmark bench/gpu/gpu_bw on each path.
# Not part of make check (CI has no GPU); see results/gpu/README.md for
# how it was run.
#
#   tests/gpu/run.sh [BUILD_DIR [OUT_DIR]]     (default build/opt, results/gpu)
#
# BUILD_DIR needs tests/seq/ex_mk, tests/par/ex_mk, tests/seq/ex_eps and
# bench/gpu/gpu_bw (a build that found cuda.h: CUDA_UVA is built). The
# benchmark's log and CSV and the machine's description go to OUT_DIR; the
# tests' logs to BUILD_DIR/logs.
set -u
cd "$(dirname "$0")/../.." || exit 1
B=${1:-build/opt}
OUT_DIR=${2:-results/gpu}
FLAVOR=gpu
. tests/harness.sh
mkdir -p "$OUT_DIR"
# (EX_MK_CLASS=emulated GPU_BW_ARGS='-k emulated' runs the same here, as
# a check of this script: the CUDA-only expectations then fail)
export EX_MK_CLASS=${EX_MK_CLASS:-cuda} IPATH_NO_BACKTRACE=1 TEST_TIMEOUT=${TEST_TIMEOUT:-90}
class=$([ "$EX_MK_CLASS" = cuda ] && echo CUDA_UVA || echo emulated)
X=$B/tests
AM=(-e GASNET_RMA=am)
MPI=(-e GASNET_SUPERNODE_MAXSIZE=1)     # every rank its own "host": AMs over MPI
IPC="node [0-9]+ is mapped here \\(shm path: $class class copies\\)"

{
    date -u
    nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>&1
    echo "cores: $(nproc); kernel: $(uname -r)"
} > "$OUT_DIR/machine.txt"
cat "$OUT_DIR/machine.txt"

t gpu_mk_args 2 -g 'CUDA_UVA device 0 available' -g 'ex_mk args: ok' -- $X/seq/ex_mk args
t gpu_mk_ipc_par 3 -g 'ex_mk ipc: ok' -- $X/par/ex_mk ipc
t gpu_mk_segs 2 -g 'ex_mk segs: ok' -- $X/seq/ex_mk segs
t gpu_mk_rma_shm 3 -e GASNET_VERBOSEENV=yes -g 'ex_mk rma: ok' -g "$IPC" -- $X/seq/ex_mk rma
t gpu_mk_rma_shm_par 4 -g 'ex_mk rma: ok' -- $X/par/ex_mk rma quick
t gpu_mk_rma_am_par 2 "${AM[@]}" -e GASNET_VERBOSEENV=yes -g 'ex_mk rma: ok' -G 'mapped here' \
    -- $X/par/ex_mk rma
t gpu_mk_rma_mpi 3 "${MPI[@]}" -g 'ex_mk rma: ok' -- $X/seq/ex_mk rma quick
t gpu_mk_long_shm 3 -e GASNET_VERBOSEENV=yes -g 'ex_mk long: ok' -g "$IPC" -- $X/seq/ex_mk long
t gpu_mk_long_am_par 2 "${AM[@]}" -g 'ex_mk long: ok' -- $X/par/ex_mk long
t gpu_mk_long_mpi 3 "${MPI[@]}" -g 'ex_mk long: ok' -- $X/seq/ex_mk long
t gpu_mk_vis_shm 3 -g 'ex_mk vis: ok' -- $X/seq/ex_mk vis 96 1
t gpu_mk_vis_am_par 2 "${AM[@]}" -g 'ex_mk vis: ok' -- $X/par/ex_mk vis 32 2
t gpu_mk_vis_mpi 4 "${MPI[@]}" -g 'ex_mk vis: ok' -- $X/seq/ex_mk vis 24 3
t gpu_mk_long_bad 2 -g 'gex_AM_RequestLong.*destination .* lies outside node 1' -- $X/seq/ex_mk long_bad
t gpu_mk_team_bad_scratch 2 -x nonzero -g "gex_TM_Create: endpoint [0-9]+'s segment is not host memory" \
    -G returned -- $X/seq/ex_mk team_bad scratch
t gpu_ex_eps 4 -g 'ex_eps: ok' -- $X/seq/ex_eps
# ofi with CUDA memory: the card registers it where the provider has
# FI_HMEM (the log says whether), else the AM path stages it
if grep -q GASNETI_HAVE_OFI "$B/include/gasnet_config.h"; then
    t gpu_mk_rma_ofi 2 -e GASNET_RMA=ofi -e GASNET_RMA_STRICT=yes -e 'FI_PROVIDER=tcp;ofi_rxm' \
        -e GASNET_VERBOSEENV=yes -g 'ex_mk rma: ok' \
        -g "node 1: the segment of endpoint 1 \\($class memory\\) is (not )?registered with ofi" \
        -- $X/seq/ex_mk rma quick
    grep -h 'FI_HMEM\|registered with ofi' "$t_log"
fi

# Bandwidth: the IPC path (default), staged over shared-memory AMs, staged
# over MPI; each job measures cudaMemcpy beside the library.
rm -f "$OUT_DIR/gpu_bw.csv"
: > "$OUT_DIR/gpu_bw.log"
for job in "ipc" "shm_am GASNET_RMA=am" "mpi GASNET_SUPERNODE_MAXSIZE=1"; do
    set -- $job
    t gpu_bw_$1 2 -T 240 -e GASNET_VERBOSEENV=yes ${2:+-e $2} -g 'gpu_bw: ok' \
        -- $B/bench/gpu/gpu_bw -L "$1" -c "$OUT_DIR/gpu_bw.csv" ${GPU_BW_ARGS:-}
    { grep -m1 'device segment of endpoint' "$t_log"; sed -n '/^# gpu_bw/,$p' "$t_log"; } >> "$OUT_DIR/gpu_bw.log"
done
cat "$OUT_DIR/gpu_bw.log"
finish
