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
