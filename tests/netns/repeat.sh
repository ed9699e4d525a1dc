#!/bin/bash
# Runs the off-node tests N times in a row and counts what went wrong:
#
#   tests/netns/repeat.sh [N] [FLAVOR]     (default: 100 opt; build it first)
#
# The off-node tests: ext_putget on 3 nodes of this host with no shared
# memory between them and UCX on TCP (ofi_offnode_seq/par, as in
# tests/suite.sh), and, where namespaces can be made, on separate hosts
# (tests/netns/netns.sh): the default path choice on 3 hosts of one node and
# 2 hosts of two, the AM path, and the exit matrix's collective exit and
# concurrent exit (2 hosts of two; nodes 0 and 1 exit with 3 and 4). Every
# run must end with the right status and its checks; the script also counts
# the runs that needed the exit failsafe ("exit did not complete in
# GASNET_EXITTIMEOUT; forcing it", after 3 s here) and the slowest run of
# each test. It prints a line per round and a table at the end, and exits
# non-zero if any run failed or needed the failsafe.
set -u
cd "$(dirname "$0")/../.." || exit 1
N=${1:-100}
FLAVOR=${2:-opt}
B=build/$FLAVOR
case "$N" in ''|*[!0-9]*|0) echo "usage: tests/netns/repeat.sh [N] [FLAVOR]" >&2; exit 2 ;; esac
[ -d "$B/tests" ] || { echo "repeat: $B is not built (make build-$FLAVOR)" >&2; exit 2; }
. tests/harness.sh
. tests/netns/netns.sh
trap 'netns_down' EXIT
trap 'netns_down; exit 130' INT
trap 'netns_down; exit 143' TERM
if ! netns_up 3; then echo "repeat: the tests on separate hosts skip: $NETNS_SKIP"; fi

declare -A runs=() bad=() forced=() slowest=()
order=()
# r NAME: after a test, adds its outcome to NAME's row
r() {
    [ -n "${runs[$1]+set}" ] || { order+=("$1"); runs[$1]=0 bad[$1]=0 forced[$1]=0 slowest[$1]=0; }
    runs[$1]=$((runs[$1] + 1))
    [ "$failed" -gt "$failed_before" ] && bad[$1]=$((bad[$1] + 1))
    grep -q 'forcing it' "$t_log" && forced[$1]=$((forced[$1] + 1)) round_forced=$((round_forced + 1))
    [ "$t_tenths" -gt "${slowest[$1]}" ] && slowest[$1]=$t_tenths
    failed_before=$failed
}

E=(-e GASNET_EXITTIMEOUT=3 -e GASNET_VERBOSEENV=1)
out=$(mktemp)
for ((round = 1; round <= N; round++)); do
    failed_before=$failed round_forced=0
    : > "$out"
    for m in seq par; do
        t ofi_offnode_$m 3 "${E[@]}" -e GASNET_RMA=auto -e 'FI_PROVIDER=tcp;ofi_rxm' -e GASNET_SUPERNODE_MAXSIZE=1 -e UCX_TLS=tcp,self \
            -g 'node 2: RMA backend shm not used: no other node shares memory' -g 'node 2: RMA backend ofi serves 2 peers$' \
            -- $B/tests/$m/ext_putget 65001 >> "$out"
        r "ofi_offnode_$m n=3"
    done
    if [ -z "$NETNS_SKIP" ]; then
        nt putget 3 1 "${E[@]}" -g 'node 2: RMA backend shm not used' -- $B/tests/seq/ext_putget 65001 >> "$out"
        r "netns_putget n=3 (3 hosts)"
        nt putget 4 2 "${E[@]}" -g 'node 3: RMA backend shm serves 1 peer$' -- $B/tests/seq/ext_putget 65001 >> "$out"
        r "netns_putget n=4 (2 hosts)"
        nt putget_am 3 1 "${E[@]}" -e GASNET_RMA=am -- $B/tests/seq/ext_putget 65001 >> "$out"
        r "netns_putget_am n=3"
        nt exit_collective 3 1 "${E[@]}" -g 'bye from node 2' -- $B/tests/seq/exit_matrix collective >> "$out"
        r "netns_exit_collective n=3"
        nt exit_concurrent 4 2 "${E[@]}" -x 3,4 -- $B/tests/seq/exit_matrix concurrent >> "$out"
        r "netns_exit_concurrent n=4"
    fi
    echo "round $round/$N: $((failed - failed_before)) failed, $round_forced needed the failsafe"
    grep -v '^PASS' "$out"
done
rm -f "$out"
netns_down
trap - EXIT INT TERM

printf '\n%-30s %6s %7s %9s %9s\n' test runs failed failsafe slowest
total_bad=0 total_forced=0
for name in "${order[@]}"; do
    printf '%-30s %6d %7d %9d %8d.%ds\n' "$name" "${runs[$name]}" "${bad[$name]}" "${forced[$name]}" \
        $((slowest[$name] / 10)) $((slowest[$name] % 10))
    total_bad=$((total_bad + bad[$name])) total_forced=$((total_forced + forced[$name]))
done
echo "$N rounds: $total_bad runs failed, $total_forced needed the exit failsafe"
[ $total_bad -eq 0 ] && [ $total_forced -eq 0 ]
