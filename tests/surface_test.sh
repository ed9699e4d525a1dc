#!/bin/bash
# The public surface test (issue 25): installs the optimised build under a
# temporary prefix, generates with tests/surface/gen.py a program that names
# every entry of tests/surface/surface-2020.10.txt and surface-2025.8.txt
# (the real GASNet-EX 2020.10 install's public names, and what the releases
# up to 2025.8.0 added), and compiles it in C (GASNET_CC) and C++
# (GASNET_CXX) for SEQ and PAR with the makefile fragment's flags, links it
# with GASNET_LIBS (a missing function fails the link) and runs it (values
# of pointer-typed constants are checked at run time). On failure, prints
# each error with the list entry it belongs to.
#   tests/surface_test.sh [PREFIX]    (an existing install: no install step)
set -eu
cd "$(dirname "$0")/.."
work=$(mktemp -d /tmp/gasnet-surface-test.XXXXXX)
trap 'rm -rf "$work"' EXIT
fail() { echo "surface_test: FAIL: $*" >&2; exit 1; }

# the checked-in copy of the 2020.10 list is the shared spec's, unedited
spec=../shared/spec/surface-2020.10.txt
if [ -f "$spec" ]; then
    cmp -s "$spec" tests/surface/surface-2020.10.txt || fail "tests/surface/surface-2020.10.txt differs from $spec"
fi

if [ $# -ge 1 ]; then
    prefix=$1 flavor=${2:-opt}
else
    prefix=$work/prefix flavor=opt
    make -s -f mk/flavor.mk FLAVOR=$flavor install PREFIX="$prefix" > /dev/null
fi

# the fragment's variables, as a client's makefile sees them
frag() {
    make -s --no-print-directory -f "$prefix/include/mpi-conduit/mpi-$1.mak" -f - <<'MK'
show: ; @echo "$(GASNET_CC)|$(GASNET_CXX)|$(GASNET_CPPFLAGS)|$(GASNET_CFLAGS)|$(GASNET_CXXFLAGS)|$(GASNET_LD)|$(GASNET_LDFLAGS)|$(GASNET_LIBS)"
MK
}

status=0
for mode in seq par; do
    IFS='|' read -r cc cxx cppflags cflags cxxflags ld ldflags libs <<< "$(frag $mode)"
    for lang in c c++; do
        src=$work/surface-$mode.$([ $lang = c ] && echo c || echo cc)
        exe=$work/surface-$mode-$lang
        python3 tests/surface/gen.py --lang $lang --mode $mode --flavor $flavor "$src"
        if [ $lang = c ]; then
            comp="$cc $cppflags $cflags -Werror=incompatible-pointer-types -Werror=implicit-function-declaration -Werror=int-conversion"
            linker=$ld
        else
            comp="$cxx $cppflags $cxxflags"
            linker=$cxx
        fi
        # shellcheck disable=SC2086
        if ! $comp -fmax-errors=0 -c "$src" -o "$exe.o" 2> "$exe.log" ||
           ! $linker $ldflags -o "$exe" "$exe.o" $libs 2>> "$exe.log"; then
            echo "surface_test: $lang $mode: these entries fail:"
            python3 tests/surface/explain.py "$src" "$exe.log"
            status=1
            continue
        fi
        out=$("$exe") || { echo "$out"; echo "surface_test: $lang $mode: run failed"; status=1; continue; }
        echo "$out"
    done
done
[ $status = 0 ] || fail "names missing or wrong (above)"
echo "surface_test: ok (C and C++, SEQ and PAR, $flavor install)"
