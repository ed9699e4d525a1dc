# The test suite, sourced by tests/run.sh once per flavour with $B set to
# the build directory. Sanitizer flavours run smaller message counts.
case $FLAVOR in asan|tsan) SCALE=10 ;; *) SCALE=1 ;; esac

# --- ammpi transport
for n in 1 2 3; do t ammpi_categories $n -- $B/tests/ammpi_categories; done
t ammpi_storm 4 -- $B/tests/ammpi_storm $((100000 / SCALE))
for n in 1 2 4; do t ammpi_noreply $n -- $B/tests/ammpi_noreply $((50000 / SCALE)); done
t ammpi_badwire 2 -- $B/tests/ammpi_badwire
t ammpi_badwire_fatal 2 -x nonzero -g 'node 0: message from node 1 rejected: Short request names handler 77' \
    -- $B/tests/ammpi_badwire fatal

# --- extended API and barriers
# The fatal cases abort; keep libinfinipath (linked through libfabric) from
# writing a <prog>.<pid>.btr backtrace file into the current directory.
export IPATH_NO_BACKTRACE=1
# Puts, gets and memsets of every form and size, every peer and loopback;
# 16 MB on 1 and 2 nodes, smaller maxima on more nodes to keep runs short.
t ext_putget 1 -- $B/tests/seq/ext_putget
t ext_putget_par 1 -- $B/tests/par/ext_putget 1048577
t ext_putget_par 2 -- $B/tests/par/ext_putget
t ext_putget 2 -- $B/tests/seq/ext_putget 65001
t ext_putget 3 -- $B/tests/seq/ext_putget 1048577
t ext_putget_par 3 -- $B/tests/par/ext_putget 65001
t ext_putget_par 4 -- $B/tests/par/ext_putget 65001
t ext_putget 4 -- $B/tests/seq/ext_putget 4096
# The other protocol choices: Medium puts up to MaxMedium and Medium get
# replies into the segment; then Long puts from 1 byte on.
t ext_putget_medium 2 -e GASNET_PUT_MEDIUM_MAX=65000 -e GASNET_GET_LONG_REPLY=no \
    -- $B/tests/seq/ext_putget 1048577
t ext_putget_long_par 3 -e GASNET_PUT_MEDIUM_MAX=0 -- $B/tests/par/ext_putget 65001
for n in 1 2 3 4; do t ext_sync $n -- $B/tests/seq/ext_sync; done
for n in 1 3; do t ext_sync_par $n -- $B/tests/par/ext_sync; done
t ext_flood 2 -- $B/tests/seq/ext_flood $((1000000 / SCALE))
t ext_flood_par 3 -- $B/tests/par/ext_flood $((300000 / SCALE))
for n in 1 2 3; do t ext_threads_par $n -- $B/tests/par/ext_threads 4 $((120 / (SCALE + 1))) 30; done
t ext_threads 2 -- $B/tests/seq/ext_threads
# Both barrier algorithms must give the same results; 5 and 8 nodes briefly.
for alg in AMDISSEM AMCENTRAL; do
    for n in 1 2 3 4; do t ext_barrier_$alg $n -e GASNET_BARRIER=$alg -- $B/tests/seq/ext_barrier $((10 / SCALE + 1)); done
    t ext_barrier_par_$alg 3 -e GASNET_BARRIER=$alg -- $B/tests/par/ext_barrier 2
    for n in 5 8; do t ext_barrier_$alg $n -e GASNET_BARRIER=$alg -- $B/tests/seq/ext_barrier 1; done
done
t ext_barrier_notify_twice 2 -x nonzero -g 'node 0 of 2: gasnet_barrier_notify called twice' \
    -- $B/tests/seq/ext_barrier notify_twice
t ext_barrier_wait_without_notify 3 -x nonzero -e GASNET_BARRIER=AMCENTRAL \
    -g 'node 0 of 3: gasnet_barrier_wait without a pending gasnet_barrier_notify' \
    -- $B/tests/par/ext_barrier wait_without_notify
t ext_barrier_wait_after_try 2 -x nonzero -g 'node 0 of 2: gasnet_barrier_wait without a pending' \
    -- $B/tests/seq/ext_barrier wait_after_try
# Errors are fatal and name the node, the call and the bad value.
t ext_errors_legal 1 -- $B/tests/seq/ext_errors legal
t ext_errors_legal_par 3 -- $B/tests/par/ext_errors legal
t ext_errors_put_outside 2 -x nonzero \
    -g "node 0 of 2: gasnet_put: remote range \[0x[0-9a-f]+, \+8\) lies outside node 1's segment" \
    -- $B/tests/seq/ext_errors put_outside
t ext_errors_get_outside 2 -x nonzero \
    -g "node 0 of 2: gasnet_get_nb: remote range \[0x[0-9a-f]+, \+8\) lies outside node 1's segment" \
    -- $B/tests/par/ext_errors get_outside
t ext_errors_memset_outside 3 -x nonzero \
    -g "node 0 of 3: gasnet_memset_nbi: remote range \[0x[0-9a-f]+, \+1\) lies outside node 2's segment" \
    -- $B/tests/seq/ext_errors memset_outside
t ext_errors_bad_node 2 -x nonzero -g 'node 0 of 2: gasnet_put_nbi: node 2 is not in the job \(2 nodes\)' \
    -- $B/tests/seq/ext_errors bad_node
t ext_errors_null_local 2 -x nonzero -g 'node 0 of 2: gasnet_get: NULL local address for 8 bytes' \
    -- $B/tests/seq/ext_errors null_local
t ext_errors_memset_null 2 -x nonzero \
    -g "node 0 of 2: gasnet_memset: remote range \[\(nil\), \+8\) lies outside node 1's segment" \
    -- $B/tests/seq/ext_errors memset_null
t ext_errors_val_size 2 -x nonzero -g 'node 0 of 2: gasnet_put_val: nbytes = 9, must be 1\.\.8' \
    -- $B/tests/seq/ext_errors val_size
t ext_errors_double_sync 2 -x nonzero -g 'node 0 of 2: gasnet_wait_syncnb: 0x[0-9a-f]+ is not a live handle' \
    -- $B/tests/par/ext_errors double_sync
t ext_errors_nbi_sync_in_region 2 -x nonzero \
    -g 'node 0 of 2: gasnet_wait_syncnbi_all inside an access region' \
    -- $B/tests/seq/ext_errors nbi_sync_in_region
