# The test suite, sourced by tests/run.sh once per flavour with $B set to
# the build directory. Sanitizer flavours run smaller message counts.
case $FLAVOR in asan|tsan) SCALE=10 ;; *) SCALE=1 ;; esac
# The optimised flavour runs everything. To keep `make check` within 15
# minutes on 2 cores, the others run what is theirs (debug: the rule
# checks; the sanitizers: memory and threads) and a part of the rest that
# still passes through every layer: FULL=0 there.
FULL=0
[ "$FLAVOR" = opt ] && FULL=1

# ThreadSanitizer runs only the multi-threaded tests: the last section.
if [ "$FLAVOR" != tsan ]; then

# --- ammpi transport
for n in 1 2 3; do t ammpi_categories $n -- $B/tests/ammpi_categories; done
t ammpi_storm 4 -- $B/tests/ammpi_storm $((100000 / SCALE))
for n in 1 2 4; do t ammpi_noreply $n -- $B/tests/ammpi_noreply $((50000 / SCALE)); done
t ammpi_badwire 2 -- $B/tests/ammpi_badwire
t ammpi_badwire_fatal 2 -x nonzero -g 'node 0: message from node 1 rejected: Short request names handler 77' \
    -- $B/tests/ammpi_badwire fatal

# --- GASNet core API: conformance on 1..4 nodes in SEQ and PAR; in the
# debug build, every rule violation the spec lists stops the job with the
# node and the call named.
for m in seq par; do
    for n in 1 2 3 4; do
        t core_conformance_$m $n -e CONFORMANCE_ENV=launch-value -g 'core_conformance: ok' \
            -- $B/tests/$m/core_conformance
    done
done
if [ "$FLAVOR" = debug ]; then
    while IFS='|' read -r case pattern; do
        t core_violation_$case 2 -x nonzero -g "FATAL ERROR: node [01] of 2: .*$pattern" \
            -- $B/tests/seq/core_violations "$case"
    done <<'CASES'
recursive_hsl|gasnet_hsl_lock.*recursive locking
unlock_order|gasnet_hsl_unlock.*out-of-order unlock
unlock_unheld|gasnet_hsl_unlock.*does not hold
uninit_hsl|gasnet_hsl_lock.*never initialised
handler_hsl|request handler returned while holding HSL
nis_request|gasnet_AMRequestShort communicates inside a no-interrupt section
hsl_request|gasnet_AMRequestShort communicates while holding an HSL
nested_nis|gasnet_hold_interrupts: no-interrupt sections do not nest
resume_unheld|gasnet_resume_interrupts without gasnet_hold_interrupts
handler_request|gasnet_AMRequestShort communicates inside a request handler
handler_poll|gasnet_AMPoll polls inside a request handler
second_reply|gasnet_AMReplyShort: a second reply
reply_from_reply|gasnet_AMReplyShort: called from a reply handler
reply_with_hsl|gasnet_AMReplyShort: called while the handler holds an HSL
long_outside|gasnet_AMRequestLong: destination .* outside node 1
CASES
fi

# --- gasnet_tools (tools-only programs: one process, SEQ and PAR builds)
for m in seq par; do
    tb=$B/tests/tools/tools_basic-$m
    t tools_basic_$m 1 -g "tools_basic: OK" -- $tb
    t tools_cxx_$m 1 -g "tools_cxx: OK" -- $B/tests/tools/tools_cxx-$m
    t tools_verboseenv_$m 1 -e GASNET_VERBOSEENV=1 \
        -g '^ENV parameter: GASNET_TB_VISIBLE = 64 B   \(default\)$' -- $tb verbose
    t tools_yesno_garbage_$m 1 -x nonzero \
        -g "^\*\*\* FATAL ERROR: environment variable GASNET_TB_BAD='maybe' is not a yes/no value" -- $tb yesno-garbage
    t tools_int_garbage_$m 1 -x nonzero \
        -g "^\*\*\* FATAL ERROR: GASNET_TB_BADINT='lots' is not an integer" -- $tb int-garbage
    t tools_fatalerror_$m 1 -x nonzero -g '^\*\*\* FATAL ERROR: deliberate failure 42$' -- $tb fatal
    t tools_fatalerror_backtrace_$m 1 -x nonzero -e GASNET_BACKTRACE=1 -e GASNET_BACKTRACE_TYPE=USER \
        -g '^tools_basic: user backtrace hook ran$' -- $tb fatal
    t tools_killmyprocess_$m 1 -x 7 -- $tb kill
done
t tools_condwait_seq 1 -x nonzero -g 'FATAL ERROR: gasnett_cond_wait\(\) called in a non-threaded' \
    -- $B/tests/tools/tools_basic-seq condwait
# gasnet_tools.h after gasnet.h: the tools' hooks into the core
for m in seq par; do
    t gasnet_tools_client_$m 2 -e GASNET_VERBOSEENV=1 -e GASNET_TB_JOBWIDE=fromlaunch \
        -g "gasnet_tools_client: OK" -- $B/tests/$m/gasnet_tools_client
done
# a setting read before gasnet_init is reported after it
t gasnet_tools_client_preinit_env 2 -e GASNET_VERBOSEENV=1 -e GASNET_TB_JOBWIDE=fromlaunch \
    -g '^ENV parameter: GASNET_BACKTRACE = NO   \(default\)$' -- $B/tests/seq/gasnet_tools_client

# --- install layout: both builds installed, clients built outside the tree
# through the fragments and pkg-config in every mode, link-name checks.
if [ "$FLAVOR" = debug ]; then s install_test -- tests/install_test.sh; fi

# The debug flavour skips the interoperability and exit tests (the
# optimised and ASan flavours run them): its checks do not touch them.
if [ "$FLAVOR" != debug ]; then

# --- MPI interoperability: who starts MPI, how the job ends, SEQ and PAR.
for m in seq par; do
    for start in client-init gasnet-init; do
        for end in finalize exit return; do
            t interop_${m}_${start}_$end 2 -g "interop ok node 1" -T 30 \
                -- $B/tests/$m/interop_mpi $start $end
        done
    done
    t interop_${m}_4nodes 4 -g "interop ok node 3" -T 30 -- $B/tests/$m/interop_mpi client-init finalize
done
t interop_par_low_level 2 -x nonzero -T 30 \
    -g "needs MPI_THREAD_SERIALIZED but the client initialised MPI with MPI_THREAD_SINGLE" \
    -- $B/tests/par/interop_mpi low-level

# --- exit matrix: status, time to exit (the -T limit) and no process left
# (the PAR library's cases skip ASan, which runs the SEQ ones)
for m in seq $([ "$FLAVOR" = asan ] || echo par); do
    X=$B/tests/$m/exit_matrix
    t exit_${m}_collective 3 -T 20 -g 'bye from node 0' -g 'bye from node 1' -g 'bye from node 2' \
        -g 'node 2 line 199' -- $X collective
    t exit_${m}_barrier 3 -T 20 -x 7 -- $X barrier
    t exit_${m}_compute 3 -T 20 -x 5 -- $X compute
    t exit_${m}_handler 2 -T 20 -x 9 -- $X handler
    t exit_${m}_concurrent 4 -T 20 -x 3,4 -- $X concurrent
    t exit_${m}_return 2 -T 20 -g 'node 0 returns' -g 'node 1 returns' -- $X return
    t exit_${m}_exit_call 2 -T 20 -x 6 -- $X exit-call
    t exit_${m}_crash 2 -T 20 -x nonzero -- $X crash
    t exit_${m}_killed 2 -T 20 -x nonzero -- $X killed
    t exit_${m}_failsafe 2 -T 20 -x 3 -e GASNET_EXIT_ACKWAIT=100 -e GASNET_EXITTIMEOUT=1 \
        -g 'forcing it' -- $X failsafe
    t exit_${m}_before_attach 2 -T 20 -x 13 -- $X before-attach
done
t exit_par_thread 2 -T 20 -x 11 -- $B/tests/par/exit_matrix thread
s exit_signals -T 60 -- tests/exit_signal_test.sh $B

fi # not debug

# --- extended API and barriers, once per RMA path: the AM reference path
# (GASNET_RMA=am), the default (auto: shm between the nodes of this host)
# and, in builds with libfabric, ofi over its tcp and sockets providers
# (GASNET_RMA_STRICT=yes: every peer must be served by ofi). $RMA_ENV holds
# the setting, $RMA the suffix of the test names. The argument errors run
# with AM only; FULL=0 leaves out puts and gets on 4 nodes and barriers on
# 5 and 8, the ofi runs barriers on 8.
ext_suite() {
    local big=(4) errs=0
    [ $FULL = 1 ] && big=(4 5 8)
    [ $FULL = 1 ] && [[ $RMA = _ofi* ]] && big=(4 5)
    # the extended API checks its arguments before it picks a path
    [ "$RMA" = _am ] && errs=1
    # Puts, gets and memsets of every form and size, every peer and loopback;
    # 16 MB on 1 and 2 nodes, smaller maxima on more nodes to keep runs short.
    t ext_putget$RMA 1 "${RMA_ENV[@]}" -- $B/tests/seq/ext_putget
    t ext_putget_par$RMA 1 "${RMA_ENV[@]}" -- $B/tests/par/ext_putget 1048577
    t ext_putget_par$RMA 2 "${RMA_ENV[@]}" -- $B/tests/par/ext_putget
    t ext_putget$RMA 2 "${RMA_ENV[@]}" -- $B/tests/seq/ext_putget 65001
    t ext_putget$RMA 3 "${RMA_ENV[@]}" -- $B/tests/seq/ext_putget 1048577
    t ext_putget_par$RMA 3 "${RMA_ENV[@]}" -- $B/tests/par/ext_putget 65001
    if [ $FULL = 1 ]; then
        t ext_putget_par$RMA 4 "${RMA_ENV[@]}" -- $B/tests/par/ext_putget 65001
        t ext_putget$RMA 4 "${RMA_ENV[@]}" -- $B/tests/seq/ext_putget 4096
    fi
    # The other protocol choices: Medium puts up to MaxMedium and Medium get
    # replies into the segment; then Long puts from 1 byte on.
    t ext_putget_medium$RMA 2 "${RMA_ENV[@]}" -e GASNET_PUT_MEDIUM_MAX=65000 -e GASNET_GET_LONG_REPLY=no \
        -- $B/tests/seq/ext_putget 1048577
    t ext_putget_long_par$RMA 3 "${RMA_ENV[@]}" -e GASNET_PUT_MEDIUM_MAX=0 -- $B/tests/par/ext_putget 65001
    t ext_flood$RMA 2 "${RMA_ENV[@]}" -- $B/tests/seq/ext_flood $((1000000 / SCALE))
    t ext_flood_par$RMA 3 "${RMA_ENV[@]}" -- $B/tests/par/ext_flood $((300000 / SCALE))
    for n in 1 2 3; do t ext_threads_par$RMA $n "${RMA_ENV[@]}" -- $B/tests/par/ext_threads 4 $((120 / (SCALE + 1))) 30; done
    t ext_threads$RMA 2 "${RMA_ENV[@]}" -- $B/tests/seq/ext_threads
    # Every barrier algorithm must give the same results (SHM needs the shm
    # backend: not over AM); 5 and 8 nodes briefly.
    for alg in AMDISSEM AMCENTRAL $([ -z "$RMA" ] && echo SHM); do
        for n in 1 2 3; do
            t ext_barrier_$alg$RMA $n "${RMA_ENV[@]}" -e GASNET_BARRIER=$alg \
                -- $B/tests/seq/ext_barrier $((10 / SCALE + 1))
        done
        t ext_barrier_par_$alg$RMA 3 "${RMA_ENV[@]}" -e GASNET_BARRIER=$alg -- $B/tests/par/ext_barrier 2
        for n in "${big[@]}"; do
            t ext_barrier_$alg$RMA $n "${RMA_ENV[@]}" -e GASNET_BARRIER=$alg -- $B/tests/seq/ext_barrier 1
        done
    done
    t ext_barrier_notify_twice$RMA 2 "${RMA_ENV[@]}" -x nonzero -g 'node 0 of 2: gasnet_barrier_notify called twice' \
        -- $B/tests/seq/ext_barrier notify_twice
    t ext_barrier_wait_without_notify$RMA 3 "${RMA_ENV[@]}" -x nonzero -e GASNET_BARRIER=AMCENTRAL \
        -g 'node 0 of 3: gasnet_barrier_wait without a pending gasnet_barrier_notify' \
        -- $B/tests/par/ext_barrier wait_without_notify
    t ext_barrier_wait_after_try$RMA 2 "${RMA_ENV[@]}" -x nonzero -g 'node 0 of 2: gasnet_barrier_wait without a pending' \
        -- $B/tests/seq/ext_barrier wait_after_try
    # Errors are fatal and name the node, the call and the bad value.
    t ext_errors_legal$RMA 1 "${RMA_ENV[@]}" -- $B/tests/seq/ext_errors legal
    t ext_errors_legal_par$RMA 3 "${RMA_ENV[@]}" -- $B/tests/par/ext_errors legal
    [ $errs = 1 ] || return 0
    t ext_errors_put_outside$RMA 2 "${RMA_ENV[@]}" -x nonzero \
        -g "node 0 of 2: gasnet_put: remote range \[0x[0-9a-f]+, \+8\) lies outside node 1's segment" \
        -- $B/tests/seq/ext_errors put_outside
    t ext_errors_get_outside$RMA 2 "${RMA_ENV[@]}" -x nonzero \
        -g "node 0 of 2: gasnet_get_nb: remote range \[0x[0-9a-f]+, \+8\) lies outside node 1's segment" \
        -- $B/tests/par/ext_errors get_outside
    t ext_errors_memset_outside$RMA 3 "${RMA_ENV[@]}" -x nonzero \
        -g "node 0 of 3: gasnet_memset_nbi: remote range \[0x[0-9a-f]+, \+1\) lies outside node 2's segment" \
        -- $B/tests/seq/ext_errors memset_outside
    t ext_errors_bad_node$RMA 2 "${RMA_ENV[@]}" -x nonzero -g 'node 0 of 2: gasnet_put_nbi: node 2 is not in the job \(2 nodes\)' \
        -- $B/tests/seq/ext_errors bad_node
    t ext_errors_null_local$RMA 2 "${RMA_ENV[@]}" -x nonzero -g 'node 0 of 2: gasnet_get: NULL local address for 8 bytes' \
        -- $B/tests/seq/ext_errors null_local
    t ext_errors_memset_null$RMA 2 "${RMA_ENV[@]}" -x nonzero \
        -g "node 0 of 2: gasnet_memset: remote range \[\(nil\), \+8\) lies outside node 1's segment" \
        -- $B/tests/seq/ext_errors memset_null
    t ext_errors_val_size$RMA 2 "${RMA_ENV[@]}" -x nonzero -g 'node 0 of 2: gasnet_put_val: nbytes = 9, must be 1\.\.8' \
        -- $B/tests/seq/ext_errors val_size
    t ext_errors_nbi_sync_in_region$RMA 2 "${RMA_ENV[@]}" -x nonzero \
        -g 'node 0 of 2: gasnet_wait_syncnbi_all inside an access region' \
        -- $B/tests/seq/ext_errors nbi_sync_in_region
}
RMA=_am; RMA_ENV=(-e GASNET_RMA=am); ext_suite
# (in debug builds the checks are the same on every path: AM only)
[ "$FLAVOR" = debug ] || { RMA=; RMA_ENV=(); ext_suite; }
if [ $FULL = 1 ] && grep -q GASNETI_HAVE_OFI "$B/include/gasnet_config.h"; then
    for P in 'tcp;ofi_rxm' sockets; do
        RMA=_ofi_${P%%;*}; RMA_ENV=(-e GASNET_RMA=ofi -e GASNET_RMA_STRICT=yes -e "FI_PROVIDER=$P"); ext_suite
    done
fi
# Sync rules with operations still pending need remote operations that
# cannot complete before the next poll: the AM path.
for n in 1 2 3 4; do t ext_sync $n -e GASNET_RMA=am -- $B/tests/seq/ext_sync; done
for n in 1 3; do t ext_sync_par $n -e GASNET_RMA=am -- $B/tests/par/ext_sync; done
t ext_errors_double_sync 2 -e GASNET_RMA=am -x nonzero -g 'node 0 of 2: gasnet_wait_syncnb: 0x[0-9a-f]+ is not a live handle' \
    -- $B/tests/par/ext_errors double_sync

# --- ofi backend (libfabric), in builds that have it. The extended-API
# suite above ran over tcp;ofi_rxm and sockets (optimised flavour); here
# what it does not cover, with every peer served by ofi (GASNET_RMA=ofi, so
# the shm backend is off, and GASNET_RMA_STRICT=yes, so a backend that
# fails stops the job): the sync rules, PAR stress, MPI interop (detach at
# MPI_Finalize) and the progress thread. ext_sync holds over ofi (unlike
# shm): its completions count only in a poll, memsets take the AM path, and
# a blocking get completes the puts issued before it to the same node (one
# ordered connection per peer). The shm provider runs only the interop
# tests that end with MPI_Finalize: it unlinks its 16 MB region in /dev/shm
# when the endpoint closes, which gasnet_exit (it _exits) never does.
# GASNET_VERBOSEENV makes every node report the backend; the last node's
# line is checked.
if grep -q GASNETI_HAVE_OFI "$B/include/gasnet_config.h"; then
    # ofi PROVIDER NAME RANKS [harness options] -- PROG [ARGS]
    ofi() {
        local prov=$1 name=$2 ranks=$3
        shift 3
        t "ofi_${prov%%;*}_$name" "$ranks" -e GASNET_RMA=ofi -e GASNET_RMA_STRICT=yes \
            -e "FI_PROVIDER=$prov" -e GASNET_VERBOSEENV=1 \
            -g "node $((ranks - 1)): RMA backend ofi serves $((ranks - 1)) peers?$" "$@"
    }
    P='tcp;ofi_rxm'
    if [ "$FLAVOR" != debug ]; then
        ofi "$P" putget 2 -- $B/tests/seq/ext_putget 65001
        ofi "$P" sync 3 -- $B/tests/seq/ext_sync
        ofi "$P" interop_par 3 -g "interop ok node 2" -- $B/tests/par/interop_mpi client-init finalize
    fi
    if [ $FULL = 1 ]; then
        ofi "$P" sync_par 2 -- $B/tests/par/ext_sync
        ofi "$P" par_stress 3 -g 'par_stress: ok' -- $B/tests/par/par_stress $((100 / SCALE))
        ofi "$P" interop 2 -g "interop ok node 1" -- $B/tests/seq/interop_mpi gasnet-init exit
        ofi "$P" progress_serve 2 -e GASNET_PROGRESS_THREAD=yes -g "progress_thread serve: ok" \
            -- $B/tests/seq/progress_thread serve
        P=sockets
        ofi $P sync 3 -- $B/tests/seq/ext_sync
        ofi $P interop_par 2 -g "interop ok node 1" -- $B/tests/par/interop_mpi client-init finalize
        P=shm
        ofi $P interop_par 2 -g "interop ok node 1" -- $B/tests/par/interop_mpi client-init finalize
        ofi $P interop 3 -g "interop ok node 2" -- $B/tests/seq/interop_mpi gasnet-init finalize
    fi
    # An impossible request falls back to AM with the reason, or is fatal
    # under GASNET_RMA_STRICT.
    t ofi_fallback 2 -e GASNET_RMA=ofi -e FI_PROVIDER=nonexistent \
        -g 'RMA backend ofi not used: fi_getinfo found no provider with FI_RMA for FI_PROVIDER=nonexistent' \
        -- $B/tests/seq/ext_putget 4096
    t ofi_strict 2 -x nonzero -e GASNET_RMA=ofi -e GASNET_RMA_STRICT=yes -e FI_PROVIDER=nonexistent \
        -g 'FATAL ERROR: node [01] of 2: GASNET_RMA=ofi with GASNET_RMA_STRICT=yes, but the backend serves 0 of 1 peers: fi_getinfo found no provider with FI_RMA for FI_PROVIDER=nonexistent' \
        -- $B/tests/seq/ext_putget 4096
    # Off-node realism: no two nodes share memory (one per shared-memory
    # group, MPI over TCP), so the default choice must serve every peer by
    # ofi, end to end. MPICH 4.0 on UCX 1.13's TCP transport sometimes
    # never returns from MPI_Finalize (one node flushes its connections
    # while the other waits in the launcher's barrier; also in ammpi-only
    # jobs, not in plain MPI ones, cause not found): the exit failsafe ends
    # it with the right status, after 3 s here instead of 10.
    modes=(seq par)
    [ $FULL = 1 ] || modes=(seq)
    [ "$FLAVOR" = debug ] && modes=()
    for m in "${modes[@]}"; do
        t ofi_offnode_$m 3 -e GASNET_RMA=auto -e GASNET_SUPERNODE_MAXSIZE=1 -e UCX_TLS=tcp,self -e GASNET_EXITTIMEOUT=3 \
            -e GASNET_VERBOSEENV=1 -g 'node 2: RMA backend shm not used: no other node shares memory' \
            -g 'node 2: RMA backend ofi serves 2 peers$' -- $B/tests/$m/ext_putget $((FULL ? 1048577 : 65001))
    done
fi

# --- verbs backend (core-native/verbs.c). No machine of this project has
# an InfiniBand/RoCE device (nor can load soft-RoCE), and CI machines will
# not: the data path runs over real hardware only where `ibv_devices` lists
# a device. Everywhere else the tests linked with libibverbs check the
# fallback (every node reports why verbs is not used, the job runs over the
# AM path with its data verified; GASNET_RMA_STRICT=yes makes it fatal;
# auto passes over it), and the same programs linked with the emulated
# device of tests/fakeverbs run the data path, set-up and failures.
#
# verbs_suite: the data path. $VERBS_BIN holds the programs (seq/, par/),
# $VERBS suffixes the test names.
verbs_suite() {
    local V=(-e GASNET_RMA=verbs -e GASNET_RMA_STRICT=yes)
    t verbs_putget$VERBS 2 "${V[@]}" -e GASNET_VERBOSEENV=1 -g 'GASNet node 1: RMA backend verbs serves 1 peer' \
        -- $VERBS_BIN/seq/ext_putget
    t verbs_putget_par$VERBS 3 "${V[@]}" -- $VERBS_BIN/par/ext_putget 1048577
    # scarce resources: two 4 KiB bounce buffers, 4 WRs per QP, no inline data
    t verbs_putget_scarce$VERBS 3 "${V[@]}" -e GASNET_VERBS_BOUNCE_SIZE=4K -e GASNET_VERBS_BOUNCE_COUNT=2 \
        -e GASNET_VERBS_SQ_DEPTH=4 -e GASNET_VERBS_INLINE=0 -- $VERBS_BIN/par/ext_putget 1048577
    t verbs_flood$VERBS 2 "${V[@]}" -e GASNET_VERBS_SQ_DEPTH=16 -- $VERBS_BIN/seq/ext_flood $((300000 / SCALE))
    # a CQ of 8 entries (emulated device only): the global cap on WRs in flight
    [ "$VERBS" = _fake ] && t verbs_flood_small_cq$VERBS 3 "${V[@]}" -e FAKEVERBS_MAX_CQE=8 \
        -- $VERBS_BIN/par/ext_flood $((30000 / SCALE))
    t verbs_threads_par$VERBS 3 "${V[@]}" -- $VERBS_BIN/par/ext_threads 4 $((60 / SCALE)) 30
    t verbs_par_stress$VERBS 4 "${V[@]}" -g 'par_stress: ok' -- $VERBS_BIN/par/par_stress $((200 / SCALE))
    # detach: GASNet shuts down with the client's MPI_Finalize
    for m in seq par; do
        t verbs_finalize_$m$VERBS 2 "${V[@]}" -g 'interop ok node 1' -- $VERBS_BIN/$m/interop_mpi client-init finalize
    done
}
if grep -q GASNETI_HAVE_VERBS $B/include/gasnet_config.h; then
    verbs_why='no InfiniBand/RoCE device found \(ibv_get_device_list (returned 0 devices|failed: [^)]*)\)'
    t verbs_bad_setting 2 -x nonzero -e GASNET_RMA=verbs -e GASNET_VERBS_SQ_DEPTH=0 \
        -g 'node [01] of 2: GASNET_VERBS_SQ_DEPTH=0 is out of range' -- $B/tests/seq/ext_putget 64
else
    verbs_why='not built in'
fi
if ibv_devices 2>/dev/null | awk 'NR > 2' | grep -q .; then
    VERBS=_hw VERBS_BIN=$B/tests verbs_suite
else
    t verbs_fallback 2 -e GASNET_RMA=verbs -e GASNET_VERBOSEENV=1 \
        -g "GASNet node 0: RMA backend verbs not used: $verbs_why" \
        -g "GASNet node 1: RMA backend verbs not used: $verbs_why" -- $B/tests/seq/ext_putget 65001
    t verbs_fallback_par 3 -e GASNET_RMA=verbs -e GASNET_VERBOSEENV=1 -g 'par_stress: ok' \
        -g "GASNet node 2: RMA backend verbs not used: $verbs_why" -- $B/tests/par/par_stress $((100 / SCALE))
    t verbs_strict 2 -x nonzero -e GASNET_RMA=verbs -e GASNET_RMA_STRICT=yes \
        -g "FATAL ERROR: node [01] of 2: GASNET_RMA=verbs with GASNET_RMA_STRICT=yes, but the backend serves 0 of 1 peers: $verbs_why" \
        -- $B/tests/seq/ext_putget 64
    # auto: shm kept off (one node per shared-memory group), so verbs is tried
    t verbs_auto 2 -e GASNET_RMA=auto -e GASNET_SUPERNODE_MAXSIZE=1 -e GASNET_VERBOSEENV=1 \
        -g 'GASNet node 0: RMA backend shm not used' -g "GASNet node 0: RMA backend verbs not used: $verbs_why" \
        -- $B/tests/seq/ext_putget 65001
fi
# (the debug flavour adds nothing to the emulated data path; the set-up
# cases run in the optimised one)
if [ -d $B/tests/fakeverbs ] && [ "$FLAVOR" != debug ]; then
    VERBS=_fake VERBS_BIN=$B/tests/fakeverbs verbs_suite
fi
if [ -d $B/tests/fakeverbs ] && [ $FULL = 1 ]; then
    FV=(-e GASNET_RMA=verbs -e GASNET_VERBOSEENV=1)
    FP=$B/tests/fakeverbs/seq/ext_putget
    t verbs_fake_lid 2 "${FV[@]}" -e GASNET_RMA_STRICT=yes -e FAKEVERBS_LINK=ib \
        -g 'GASNet node 1: verbs on fake0 port 1 \(LID\)' -- $FP 65001
    t verbs_fake_no_device 2 "${FV[@]}" -e FAKEVERBS_DEVICES=0 \
        -g 'GASNet node 1: RMA backend verbs not used: no InfiniBand/RoCE device found \(ibv_get_device_list returned 0 devices\)' \
        -- $FP 4096
    # node 2 has no device: nodes 0 and 1 use verbs between them, the AM path with node 2
    t verbs_fake_mixed 3 "${FV[@]}" -e FAKEVERBS_NODEV_RANK=2 -g 'GASNet node 0: RMA backend verbs serves 1 peer' \
        -g 'GASNet node 2: RMA backend verbs not used: no InfiniBand/RoCE device found' -- $FP 65001
    # auto on one host in pairs of shared-memory nodes: shm within a pair,
    # verbs (no QPs within a pair) across
    t verbs_fake_auto 4 "${FV[@]}" -e GASNET_RMA=auto -e GASNET_SUPERNODE_MAXSIZE=2 \
        -g 'GASNet node 0: RMA backend shm serves 1 peer' -g 'GASNet node 0: RMA backend verbs serves 2 peers' \
        -g 'GASNet node 3: RMA backend verbs serves 2 peers' -- $FP 65001
    t verbs_fake_port2 2 "${FV[@]}" -e FAKEVERBS_PORT1=down -g 'GASNet node 1: verbs on fake0 port 2 ' -- $FP 4096
    t verbs_fake_port_down 2 "${FV[@]}" -e FAKEVERBS_PORT1=down -e GASNET_VERBS_PORT=1 \
        -g 'GASNet node 1: RMA backend verbs not used: port 1 of fake0 is PORT_DOWN, not active' -- $FP 4096
    t verbs_fake_device 2 "${FV[@]}" -e FAKEVERBS_DEVICES=2 -e GASNET_VERBS_DEVICE=fake1 \
        -g 'GASNet node 1: verbs on fake1 port 1 ' -- $FP 4096
    t verbs_fake_no_such_device 2 "${FV[@]}" -e GASNET_VERBS_DEVICE=mlx5_9 \
        -g 'GASNet node 1: RMA backend verbs not used: GASNET_VERBS_DEVICE=mlx5_9: no such device' -- $FP 4096
    t verbs_fake_gid 2 "${FV[@]}" -e GASNET_VERBS_GID_INDEX=1 \
        -g 'GASNet node 1: RMA backend verbs not used: fake0 port 1 \(RoCE\) has no GID at GASNET_VERBS_GID_INDEX=1' \
        -- $FP 4096
    # the device allows less inline data than asked for: QPs without any
    t verbs_fake_inline_less 2 "${FV[@]}" -e FAKEVERBS_MAX_INLINE=32 -g 'GASNet node 1: verbs on .* inline 0 bytes' \
        -- $FP 4096
    t verbs_fake_failed_wc 2 "${FV[@]}" -x nonzero -e FAKEVERBS_FAIL_WR=5 \
        -g 'node [01] of 2: verbs: RDMA (read|write) of [0-9]+ bytes by node [01] (from|to) node [01] failed: (remote access error|transport retry counter exceeded)' \
        -- $FP 4096
fi

fi # not tsan

# --- PAR concurrency (4 threads per node) and the progress thread
for n in 2 3 4; do
    t par_stress $n -T 120 -g 'par_stress: ok' -- $B/tests/par/par_stress $((400 / SCALE))
done
for m in seq par; do
    for c in serve idle nis; do
        t progress_${m}_$c 2 -T 60 -e GASNET_PROGRESS_THREAD=yes -g "progress_thread $c: ok" \
            -- $B/tests/$m/progress_thread $c
    done
done
if [ "$FLAVOR" = tsan ]; then
    t tools_basic_par 1 -g "tools_basic: OK" -- $B/tests/tools/tools_basic-par
    for n in 2 3; do t ext_threads_par $n -- $B/tests/par/ext_threads 4 20 30; done
    t interop_par_tsan 2 -g "interop ok node 1" -- $B/tests/par/interop_mpi client-init finalize
fi
