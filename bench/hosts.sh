#!/bin/bash
# Collectives on a team over several hosts: the hierarchical path (shared
# memory within each host, AMs between the hosts' leaders; coll/shm.c)
# against AMs alone (GASNET_COLL_SHM=no), on 4 ranks as 2 hosts of 2
# (network namespaces, tests/netns/netns.sh; needs root). Not part of
# `make bench`:
#
#   bench/hosts.sh [ROUNDS]        (default 3; build with make build-opt)
#
# GASNET_COLL_SHM is fixed at start-up, so each round runs one job each
# way, alternating (this VM's speed changes between jobs: compare the
# rounds' ranges), timing gex_Coll_BroadcastNB (8 B-1 MiB, from rank 0),
# gex_Coll_ReduceToAllNB (doubles summed) and gex_Coll_BarrierNB with
# bench/coll/coll -l gasnet; then one job times MPI_Bcast, MPI_Allreduce
# and MPI_Barrier alone, for their absolute times: MPICH between the
# namespaces goes through TCP and polls without yielding, four ranks on
# two cores, so its times here say more about the oversubscription than
# about a network, and no ratio to it is taken. Writes
# results/coll-hosts/{hier,am}-R.csv, mpi.csv and the summary
# results/coll-hosts.txt (hierarchical over AMs-only, median of the
# rounds' medians).
set -u
cd "$(dirname "$0")/.." || exit 1
ROUNDS=${1:-3}
B=build/opt
OUT=results/coll-hosts
[ -x $B/bench/coll/coll ] || { echo "hosts: build first (make build-opt)" >&2; exit 2; }
. tests/netns/netns.sh
trap 'netns_down' EXIT
netns_up 2 || { echo "hosts: $NETNS_SKIP" >&2; exit 2; }
mkdir -p $OUT
launch=(ip netns exec "$NETNS_P-l" mpiexec -launcher ssh -launcher-exec "$NETNS_RSH"
        -localhost 10.0.0.1 -hosts "$NETNS_P-h0:2,$NETNS_P-h1:2" -n 4)
job() { # CSV LAYER [ENV VALUE] ...
    local csv=$1 layer=$2 env=()
    shift 2
    while [ $# -gt 0 ]; do env+=(-env "$1" "$2"); shift 2; done
    timeout 600 "${launch[@]}" "${env[@]}" $B/bench/coll/coll -l "$layer" -o bcast,allreduce,barrier \
        -s 8 -S 1M -n "$ITERS" -r 3 -c "$csv" > "$csv.log" 2>&1 ||
        { echo "hosts: the job for $csv failed:" >&2; tail -5 "$csv.log" >&2; exit 1; }
    rm -f "$csv.log"
}
ITERS=1000
for ((r = 1; r <= ROUNDS; r++)); do
    echo "round $r of $ROUNDS"
    job $OUT/hier-$r.csv gasnet
    job $OUT/am-$r.csv gasnet GASNET_COLL_SHM no
done
ITERS=50
job $OUT/mpi.csv mpi
netns_down
trap - EXIT

python3 - "$OUT" > results/coll-hosts.txt <<'EOF'
import collections, csv, glob, statistics, sys
out = sys.argv[1]
def rows(path):
    return csv.DictReader(l for l in open(path) if not l.startswith('#'))
t = collections.defaultdict(lambda: collections.defaultdict(list))
for way in ('hier', 'am'):
    for f in sorted(glob.glob(f'{out}/{way}-*.csv')):
        for r in rows(f):
            t[(r['op'], int(r['size']))][way].append(float(r['lat_us_median']))
mpi = {(r['op'], int(r['size'])): float(r['lat_us_median']) for r in rows(f'{out}/mpi.csv')}
mpi_of = {'BroadcastNB': 'MPI_Bcast', 'ReduceToAllNB': 'MPI_Allreduce', 'BarrierNB': 'MPI_Barrier'}
print('Collectives on 4 ranks as 2 hosts of 2 (network namespaces, bench/hosts.sh):')
print('the hierarchical path against AMs only (GASNET_COLL_SHM=no), jobs alternating;')
print('times in us: range of the rounds\' medians; ratio: median over median.\n')
print(f"{'operation':14s} {'size':>8s} {'hierarchical':>19s} {'AMs only':>19s} {'ratio':>6s} {'MPI alone':>10s}")
for (op, size), w in sorted(t.items()):
    h, a = w['hier'], w['am']
    m = mpi.get((mpi_of[op], size))
    print(f"{op:14s} {size:8d} {min(h):8.1f}-{max(h):8.1f}  {min(a):8.1f}-{max(a):8.1f}  "
          f"{statistics.median(h) / statistics.median(a):5.2f} {m if m is not None else float('nan'):10.1f}")
EOF
cat results/coll-hosts.txt
