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
for m in seq par; do
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
