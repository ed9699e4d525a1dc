#!/bin/bash
# Runs the test suite against the given build flavours:
#   tests/run.sh [opt] [debug] [asan] [tsan] | all   (all = opt debug asan)
# Each flavour must be built first (make build-<flavour>); `make check`
# does both.
set -u
cd "$(dirname "$0")/.." || exit 1
. tests/harness.sh
flavors=("$@")
if [ ${#flavors[@]} -eq 0 ] || [ "${flavors[0]}" = all ]; then flavors=(opt debug asan); fi
# Sanitizers: stop at the first report, and keep MPI's own start-up leaks
# out of the verdict (the suppressions name only MPI and its transports).
export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1}
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$PWD/tests/lsan.supp:print_suppressions=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=1:second_deadlock_stack=1:suppressions=$PWD/tests/tsan.supp}
for FLAVOR in "${flavors[@]}"; do
    B=build/$FLAVOR
    # UCX (under MPICH) hooks madvise() for its memory events; the hook
    # crashes new threads under ThreadSanitizer.
    if [ "$FLAVOR" = tsan ]; then export UCX_MEM_EVENTS=${UCX_MEM_EVENTS:-no}; fi
    if [ ! -d "$B/tests" ]; then
        echo "run.sh: $B is not built (make build-$FLAVOR)" >&2
        exit 1
    fi
    echo "== $FLAVOR"
    . tests/suite.sh
done
finish
