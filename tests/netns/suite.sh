# Ranks on separate hosts (tests/netns/netns.sh): the extended-API, barrier
# and exit suites with each rank in its own network, UTS, IPC and mount
# namespace, MPI between them over TCP. Sourced by tests/suite.sh in the
# optimised flavour, after tests/harness.sh, with $B and $FLAVOR set; alone:
#   B=build/opt FLAVOR=opt; . tests/harness.sh; . tests/netns/suite.sh; finish
# Where the namespaces cannot be made, every test says SKIP with the reason.
#
# No GASNET_SUPERNODE_MAXSIZE and no UCX_TLS: the library and UCX must see
# on their own that the hosts differ. The layout is "RANKS PER_HOST": 3 1
# is three hosts of one node (shm serves nobody, ofi every peer), 4 2 is
# two hosts of two nodes (shm within a host, ofi across). No job may need
# the exit failsafe (its message fails the test); tests/netns/repeat.sh
# runs the off-node tests many times over.
. tests/netns/netns.sh
trap 'netns_down' EXIT
trap 'netns_down; exit 130' INT
trap 'netns_down; exit 143' TERM
netns_up 3

NE=(-G 'forcing it')
V=(-e GASNET_VERBOSEENV=1)
# UCX reports each endpoint configuration: between hosts TCP over eth0,
# never a shared-memory transport (the endpoint to itself starts self/).
UCX_TCP=(-e UCX_LOG_LEVEL=info -g 'UCX +INFO +ep_cfg\[[0-9]+\]: tag\(tcp/eth0\)'
         -G 'ep_cfg\[[0-9]+\]: tag\((cma|posix|sysv|xpmem|knem)/')

# --- extended API: the default path choice, then ofi named, then the AM
# path. By default the other hosts get AMs (the providers here emulate RMA
# over sockets: core-native/ofi.c, PROVIDERS); with FI_PROVIDER naming
# tcp;ofi_rxm, in builds with libfabric, ofi serves them over the bridge.
AUTO3=(-G 'ofi provider (tcp|sockets|udp|net|shm)[;,]') OFI3=() OFI4=()
if grep -q GASNETI_HAVE_OFI "$B/include/gasnet_config.h"; then
    AUTO3+=(-g 'node 2: RMA backend ofi (not used: GASNET_RMA=auto leaves these peers to AMs|serves 2 peers$)')
    OFI3=(-e 'FI_PROVIDER=tcp;ofi_rxm' -g 'node 2: RMA backend ofi serves 2 peers$'
          -g 'node 2: ofi provider tcp;ofi_rxm, fabric 10\.0\.0\.0/24, domain eth0,')
    OFI4=(-e 'FI_PROVIDER=tcp;ofi_rxm' -g 'node 0: RMA backend ofi serves 2 peers$' -g 'node 3: RMA backend ofi serves 2 peers$')
fi
nt putget 3 1 "${NE[@]}" "${V[@]}" "${UCX_TCP[@]}" -g 'node 2: RMA backend shm not used: no other node shares memory' \
    "${AUTO3[@]}" -- $B/tests/seq/ext_putget 1048577
if [ ${#OFI3[@]} -gt 0 ]; then
    nt putget_ofi 3 1 "${NE[@]}" "${V[@]}" "${OFI3[@]}" -- $B/tests/seq/ext_putget 1048577
    nt putget_ofi_par 3 1 "${NE[@]}" "${V[@]}" "${OFI3[@]}" -- $B/tests/par/ext_putget 65001
    nt putget_ofi 4 2 "${NE[@]}" "${V[@]}" -g 'node 0: RMA backend shm serves 1 peer$' \
        -g 'node 3: RMA backend shm serves 1 peer$' "${OFI4[@]}" -- $B/tests/seq/ext_putget 65001
fi
nt putget_par 3 1 "${NE[@]}" "${V[@]}" "${AUTO3[@]}" -- $B/tests/par/ext_putget 65001
nt putget 4 2 "${NE[@]}" "${V[@]}" -g 'node 0: RMA backend shm serves 1 peer$' -g 'node 3: RMA backend shm serves 1 peer$' \
    -- $B/tests/seq/ext_putget 65001
nt putget_am 3 1 "${NE[@]}" -e GASNET_RMA=am -- $B/tests/seq/ext_putget 65001
nt flood 2 1 "${NE[@]}" -- $B/tests/seq/ext_flood 200000
nt flood_am 2 1 "${NE[@]}" -e GASNET_RMA=am -- $B/tests/seq/ext_flood 200000
nt flood_par 3 1 "${NE[@]}" -- $B/tests/par/ext_flood 100000
# the sync rules need the AM path; over ofi they hold too (see tests/suite.sh)
nt sync_am 3 1 "${NE[@]}" -e GASNET_RMA=am -- $B/tests/seq/ext_sync
nt sync 3 1 "${NE[@]}" -- $B/tests/seq/ext_sync

# --- barriers: every algorithm on hosts of one and of two nodes (SHM: a
# page per host, then the hosts' first nodes by AM)
for alg in AMDISSEM AMCENTRAL SHM; do
    nt barrier_$alg 3 1 "${NE[@]}" -e GASNET_BARRIER=$alg -- $B/tests/seq/ext_barrier 11
    nt barrier_$alg 4 2 "${NE[@]}" -e GASNET_BARRIER=$alg -- $B/tests/seq/ext_barrier 11
done
nt barrier_par 3 1 "${NE[@]}" -- $B/tests/par/ext_barrier 2

# --- collectives over 2 hosts of 2: the hierarchical path (coll/shm.c)
nt ex_coll 4 2 "${NE[@]}" "${V[@]}" -g 'primordial team go through shared memory within each of its 2 hosts' \
    -g 'ex_coll: ok \(matrix, 4 ranks\)' -- $B/tests/seq/ex_coll matrix
nt coll_legacy 4 2 "${NE[@]}" -g 'coll_legacy: ok' -- $B/tests/seq/coll_legacy

# --- exit matrix (tests/exit_matrix.c): status, time and nothing left
X=$B/tests/seq/exit_matrix
nt exit_collective 3 1 -T 20 "${NE[@]}" -g 'bye from node 0' -g 'bye from node 1' -g 'bye from node 2' \
    -g 'node 2 line 199' -- $X collective
nt exit_barrier 3 1 -T 20 "${NE[@]}" -x 7 -- $X barrier
nt exit_compute 3 1 -T 20 "${NE[@]}" -x 5 -- $X compute
nt exit_handler 2 1 -T 20 "${NE[@]}" -x 9 -- $X handler
nt exit_concurrent 4 2 -T 20 "${NE[@]}" -x 3,4 -- $X concurrent
nt exit_return 2 1 -T 20 "${NE[@]}" -g 'node 0 returns' -g 'node 1 returns' -- $X return
nt exit_exit_call 2 1 -T 20 "${NE[@]}" -x 6 -- $X exit-call
nt exit_crash 2 1 -T 20 "${NE[@]}" -x nonzero -- $X crash
nt exit_killed 2 1 -T 20 "${NE[@]}" -x nonzero -- $X killed
nt exit_failsafe 2 1 -T 20 -x 3 -e GASNET_EXIT_ACKWAIT=100 -e GASNET_EXITTIMEOUT=1 -g 'forcing it' -- $X failsafe
nt exit_before_attach 2 1 -T 20 "${NE[@]}" -x 13 -- $X before-attach
nt exit_thread 2 1 -T 20 "${NE[@]}" -x 11 -- $B/tests/par/exit_matrix thread

netns_down
trap - EXIT INT TERM
