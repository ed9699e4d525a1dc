#!/bin/bash
# The installed libraries in a client's shared object, and the ident
# strings in a client's program. Installs the optimised build under a
# temporary prefix; in each thread mode builds tests/install/so.mk (a
# GASNet-EX wrapper linked into a .so from the static libraries, a program
# linked with it and one that loads it with dlopen) and runs both on 3
# nodes; then checks that a program linked the documented way carries
# every "$GASNetKey: value $" string a real install embeds (the keys are
# listed in ../shared/spec/surface-2020.10.txt), with this build's values
# where they are facts, and a tools-only client the tools library's. Exit status 0 when all of that works.
set -eu
cd "$(dirname "$0")/.."
work=$(mktemp -d /tmp/gasnet-so-test.XXXXXX)
trap 'rm -rf "$work"' EXIT
fail() { echo "install_so_test: FAIL: $*" >&2; exit 1; }

prefix=$work/prefix
make -s -f mk/flavor.mk FLAVOR=opt install PREFIX="$prefix" > /dev/null
for mode in seq par parsync; do
    src=$work/$mode
    cp -r tests/install "$src"
    make -s -C "$src" -f so.mk GASNET_PREFIX="$prefix" MODE=$mode > "$src/build.log" 2>&1 ||
        { cat "$src/build.log"; fail "shared-object build, $mode"; }
    out=$("$prefix/bin/gasnetrun_mpi" -n 3 "$src/so_linked" < /dev/null 2>&1) || { echo "$out"; fail "so_linked, $mode"; }
    [ "$(grep -c 'so client ok node [0-2] (linked)' <<< "$out")" = 3 ] || { echo "$out"; fail "so_linked output, $mode"; }
    out=$("$prefix/bin/gasnetrun_mpi" -n 3 "$src/so_dlopen" "$src/libwrapper.so" < /dev/null 2>&1) ||
        { echo "$out"; fail "so_dlopen, $mode"; }
    [ "$(grep -c 'so client ok node [0-2] (dlopen)' <<< "$out")" = 3 ] || { echo "$out"; fail "so_dlopen output, $mode"; }

    # the ident strings, in the static program the fragment builds
    make -s -C "$src" GASNET_PREFIX="$prefix" MODE=$mode ex_client > "$src/build.log" 2>&1 ||
        { cat "$src/build.log"; fail "fragment build, $mode"; }
    MODE=$(tr a-z A-Z <<< $mode)
    ids=$(strings -a "$src/ex_client" | grep -o '\$GASNet[A-Za-z]*: .* \$' | sort -u)
    for want in 'ConduitName: MPI' 'CoreLibraryName: MPI' "ThreadModel: GASNET_$MODE" 'Segment: GASNET_SEGMENT_FAST' \
                'APIVersion: 1' 'EXAPIVersion: 0\.[0-9]*' 'ExtendedLibraryName: REFERENCE' "Config: RELEASE=.*THREADMODEL=$MODE" \
                'CompilerID: |COMPILER_FAMILY:' "SystemTuple: $(gcc -dumpmachine)" 'DefaultMaxSegsizeStr: 0.85/H'; do
        grep -q "^\\\$GASNet$want.* \\\$\$" <<< "$ids" || { echo "$ids"; fail "$mode program lacks \$GASNet$want \$"; }
    done
    for key in APIVersion BuildId BuildTimestamp CompilerID ConduitName Config ConfigureArgs CoreLibraryName \
               CoreLibraryVersion DefaultMaxSegsizeStr Diagnostics EXAPIVersion ExtendedLibraryName \
               ExtendedLibraryVersion GitHash Segment StridedDirectDims StridedLoopingDims StridedVersion \
               SystemName SystemTuple ThreadModel VISMinPackBuffer VISNPAM; do
        grep -q "^\\\$GASNet$key: [^\$]* \\\$\$" <<< "$ids" || { echo "$ids"; fail "$mode program lacks the key $key"; }
    done
    # and the tools library's, in a tools-only client
    make -s -C "$src" GASNET_PREFIX="$prefix" MODE=$mode tools_client > "$src/build.log" 2>&1 ||
        { cat "$src/build.log"; fail "tools client build, $mode"; }
    tmode=$([ $mode = seq ] && echo SEQ || echo PAR)
    ids=$(strings -a "$src/tools_client" | grep -o '\$GASNet[A-Za-z]*: .* \$' | sort -u)
    for want in "ToolsConfig: RELEASE=.*,SPEC=1\.20,TOOLS_$tmode" "ToolsThreadModel: $tmode"; do
        grep -q "^\\\$GASNet$want.* \\\$\$" <<< "$ids" || { echo "$ids"; fail "$mode tools client lacks \$GASNet$want \$"; }
    done
done
echo "install_so_test: ok (shared object linked and dlopen'd, seq par parsync; ident strings)"
