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
