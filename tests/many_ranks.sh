#!/bin/bash
# The public-API test programs of the suite on more ranks than the
# 2-core development machine runs well: for a machine with many cores
# (the device machine has 16). Each runs on one host with the defaults
# (shm), then with GASNET_SUPERNODE_MAXSIZE=4 (neighbourhoods of 4: shm
# within, MPI AMs between) and with every put and get an AM. Not part of
# make check.
#
#   tests/many_ranks.sh [BUILD_DIR [RANKS...]]     (default build/opt 8 16 64 128)
#   CONFIGS="shm am" tests/many_ranks.sh ...       (a subset of shm nbrhd4 am)
#   ONLY='ex_teams|ex_eps' tests/many_ranks.sh ...  (the tests whose names match)
#
# 64 and 128 ranks oversubscribe a 16-core machine 4 and 8 times: the waits
# yield, so they must still finish (TEST_TIMEOUT, default 120 s, per run).
set -u
cd "$(dirname "$0")/.." || exit 1
B=${1:-build/opt}
shift
ranks=("$@")
[ ${#ranks[@]} -eq 0 ] && ranks=(8 16 64 128)
FLAVOR=many
. tests/harness.sh
export IPATH_NO_BACKTRACE=1 TEST_TIMEOUT=${TEST_TIMEOUT:-120}
X=$B/tests
run() { [[ $1 =~ ${ONLY:-.} ]] && t "$@"; }
for n in "${ranks[@]}"; do
    for cfg in "shm|" "nbrhd4|GASNET_SUPERNODE_MAXSIZE=4" "am|GASNET_RMA=am"; do
        name=${cfg%%|*}
        [[ " ${CONFIGS:-shm nbrhd4 am} " == *" $name "* ]] || continue
        env=()
        [ -n "${cfg#*|}" ] && env=(-e "${cfg#*|}")
        run ex_am_$name $n "${env[@]}" -g 'ex_am: ok' -- $X/par/ex_am 65001
        run ex_rma_$name $n "${env[@]}" -g 'ex_rma: ok' -- $X/seq/ex_rma 4097
        run ex_teams_$name $n "${env[@]}" -g 'ex_teams: ok' -- $X/seq/ex_teams
        run ex_grid_$name $n "${env[@]}" -g 'ex_grid: ok' -- $X/seq/ex_grid
        run ex_eps_$name $n "${env[@]}" -g 'ex_eps: ok' -- $X/seq/ex_eps ${name/nbrhd4/any}
        run ex_coll_$name $n "${env[@]}" -g 'ex_coll: ok' -- $X/seq/ex_coll
        run coll_legacy_$name $n "${env[@]}" -g 'coll_legacy: ok' -- $X/par/coll_legacy
        run ex_ratomic_$name $n "${env[@]}" -g 'ex_ratomic: ok' -- $X/seq/ex_ratomic contend
        run vis_$name $n "${env[@]}" -g 'vis random: ok' -- $X/seq/vis random 40 $n
        for alg in AMDISSEM SHM; do
            [ $alg/$name = SHM/am ] && continue # (the SHM barrier needs the shm backend)
            run ext_barrier_${alg}_$name $n "${env[@]}" -e GASNET_BARRIER=$alg -- $X/seq/ext_barrier 1
        done
        run ext_putget_$name $n "${env[@]}" -- $X/seq/ext_putget 65001
    done
done
[ $((passed + failed + skipped)) -gt 0 ] || fail selection "CONFIGS='${CONFIGS:-}' ONLY='${ONLY:-}' matched no test"
finish
