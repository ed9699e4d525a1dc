#!/bin/bash
# Runs the fuzz harnesses of build/fuzz (make build-fuzz; docs/fuzzing.md):
#   tests/fuzz/run.sh SECONDS [TARGET...]     (default: every harness)
# For each target: first every input of tests/fuzz/corpus/<target>/ once
# (seeds, regression inputs of crashes found before, inputs that add
# coverage), then SECONDS of fuzzing from there. New inputs go to build/fuzz/corpus/<target>,
# crashes to build/fuzz/crashes/<target>-*. Exits non-zero on the first
# crash. Exit status 77 with a reason: the fuzz build was skipped.
set -u
cd "$(dirname "$0")/../.." || exit 1
B=build/fuzz
seconds=${1:-60}
shift
if [ -f $B/SKIPPED ]; then
    echo "fuzz: skipped: $(cat $B/SKIPPED)"
    exit 77
fi
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    targets=()
    for f in tests/fuzz/*.c; do targets+=("$(basename "$f" .c)"); done
fi
# MPICH's own start-up allocations stay out of the leak verdict (only
# found with the slow unwinder: MPICH has no frame pointers).
export ASAN_OPTIONS=${FUZZ_ASAN_OPTIONS:-fast_unwind_on_malloc=0:detect_leaks=1}
lsan_for() { # harnesses that longjmp out of fatal errors: tests/fuzz/lsan-fatal.supp
    case $1 in ext_handlers|shm_ring) echo "$PWD/tests/fuzz/lsan-fatal.supp" ;;
    *) echo "$PWD/tests/lsan.supp" ;; esac
}
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
mkdir -p $B/crashes
for t in "${targets[@]}"; do
    bin=$B/fuzz/$t
    if [ ! -x "$bin" ]; then
        echo "fuzz: $bin is not built (make build-fuzz)" >&2
        exit 1
    fi
    mkdir -p $B/corpus/$t
    export LSAN_OPTIONS=suppressions=$(lsan_for "$t"):print_suppressions=0
    # ext_handlers: handlers keep what later calls take (peer-completion
    # notices, collective letters for teams that do not exist here); leak
    # checks would report those, and slow the run tenfold
    leaks=1
    [ "$t" = ext_handlers ] && leaks=0
    echo "fuzz: $t: the corpus of tests/fuzz/corpus/$t, then $seconds s"
    # libFuzzer runs every input of the corpus directories before fuzzing
    "$bin" -detect_leaks=$leaks -max_total_time="$seconds" -timeout=10 -print_final_stats=1 \
        -artifact_prefix=$B/crashes/$t- $B/corpus/$t tests/fuzz/corpus/$t >$B/crashes/$t.log 2>&1 || {
        grep -v '^#[0-9]' $B/crashes/$t.log | tail -60
        echo "fuzz: $t: crash; the input is in $B/crashes/ (reproduce: $bin FILE)" >&2
        exit 1
    }
    grep -E '^stat::number_of_executed_units|^Done ' $B/crashes/$t.log | tr '\n' ' '
    echo
done
