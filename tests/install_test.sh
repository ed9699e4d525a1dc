#!/bin/bash
# Installs the optimised and the debug build under a temporary prefix each,
# then, outside the source tree, builds the clients of tests/install the
# documented ways (makefile fragment, pkg-config) in every thread mode and
# runs them; checks that a client compiled for one mode fails to link
# against another mode's library. Exit status 0 when all of that works.
set -eu
cd "$(dirname "$0")/.."
work=$(mktemp -d /tmp/gasnet-install-test.XXXXXX)
trap 'rm -rf "$work"' EXIT
fail() { echo "install_test: FAIL: $*" >&2; exit 1; }

for flavor in opt debug; do
    prefix=$work/$flavor
    make -s -f mk/flavor.mk FLAVOR=$flavor install PREFIX="$prefix" > /dev/null
    for f in include/gasnet.h include/gasnet_tools.h include/gasnet_config.h \
             include/mpi-conduit/gasnet_core.h include/mpi-conduit/mpi-seq.mak \
             include/mpi-conduit/mpi-par.mak include/mpi-conduit/mpi-parsync.mak \
             include/gasnet_tools-seq.mak include/gasnet_tools-par.mak \
             lib/libgasnet-mpi-seq.a lib/libgasnet-mpi-par.a lib/libgasnet-mpi-parsync.a \
             lib/libgasnet_tools-seq.a lib/libgasnet_tools-par.a lib/pkgconfig/gasnet-mpi-par.pc \
             lib/pkgconfig/gasnet_tools-seq.pc bin/gasnetrun_mpi; do
        [ -e "$prefix/$f" ] || fail "$flavor install lacks $f"
    done
    grep -Eq '^#define GASNET_RELEASE_VERSION_MAJOR [0-9]+$' "$prefix/include/gasnet_config.h" ||
        fail "gasnet_config.h has no plain release version line"
    for mode in seq par parsync; do
        src=$work/src-$flavor-$mode
        cp -r tests/install "$src"
        make -s -C "$src" GASNET_PREFIX="$prefix" MODE=$mode > "$src/build.log" 2>&1 ||
            { cat "$src/build.log"; fail "fragment build, $flavor $mode"; }
        out=$("$prefix/bin/gasnetrun_mpi" -n 2 "$src/client" < /dev/null 2>&1) ||
            { echo "$out"; fail "fragment client, $flavor $mode"; }
        [ "$(echo "$out" | grep -c 'client ok')" = 2 ] || { echo "$out"; fail "client output, $flavor $mode"; }
        "$src/tools_client" | grep -q 'tools client ok' || fail "tools client, $flavor $mode"
        # pkg-config, the other documented way
        export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
        pc=gasnet-mpi-$mode
        cc=$(pkg-config --variable=GASNET_CC $pc)
        $cc $(pkg-config --cflags $pc) -c tests/install/client.c -o "$src/pc.o"
        $(pkg-config --variable=GASNET_LD $pc) -o "$src/pc_client" "$src/pc.o" $(pkg-config --libs $pc)
        out=$("$prefix/bin/gasnetrun_mpi" -n 3 "$src/pc_client" < /dev/null 2>&1) ||
            { echo "$out"; fail "pkg-config client, $flavor $mode"; }
        [ "$(echo "$out" | grep -c 'client ok')" = 3 ] || { echo "$out"; fail "pkg-config output"; }
    done
    # The link-name check: SEQ objects against the PAR library must not link.
    if $cc -DGASNET_SEQ -I"$prefix/include" -I"$prefix/include/mpi-conduit" tests/install/client.c \
        -o "$work/mismatch" -L"$prefix/lib" -lgasnet-mpi-par -lammpi -lpthread -lm 2> "$work/link.log"; then
        fail "a SEQ client linked against libgasnet-mpi-par ($flavor)"
    fi
    grep -q 'gasnet_init_GASNET_SEQ' "$work/link.log" || { cat "$work/link.log"; fail "no link-name error"; }
done
# A debug client against the optimised library must not link either.
if mpicc -DGASNET_PAR -I"$work/debug/include" -I"$work/debug/include/mpi-conduit" \
    tests/install/client.c -o "$work/mismatch" -L"$work/opt/lib" -lgasnet-mpi-par -lammpi \
    -lpthread -lm 2> /dev/null; then
    fail "a debug client linked against the optimised library"
fi
echo "install_test: ok (opt and debug installs; seq, par, parsync; fragment and pkg-config)"
