#!/bin/bash
# Installs the optimised and the debug build under a temporary prefix each,
# then, outside the source tree, builds the clients of tests/install the
# documented ways (makefile fragment, pkg-config) in every thread mode and
# runs them; builds the suite's public-API test programs (collectives,
# teams, atomics, VIS, several endpoints) unmodified against the optimised
# install, SEQ and PAR, and runs them; checks that a client compiled for
# one mode fails to link against another mode's library. Exit status 0
# when all of that works.
set -eu
cd "$(dirname "$0")/.."
work=$(mktemp -d /tmp/gasnet-install-test.XXXXXX)
trap 'rm -rf "$work"' EXIT
fail() { echo "install_test: FAIL: $*" >&2; exit 1; }

for flavor in opt debug; do
    prefix=$work/$flavor
    make -s -f mk/flavor.mk FLAVOR=$flavor install PREFIX="$prefix" > /dev/null
    for f in include/gasnet.h include/gasnetex.h include/gasnet_mk.h include/gasnet_fwd.h include/gasnet_tools.h include/gasnet_config.h \
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
    # every global symbol of the libraries has one of our prefixes: a
    # client's own names cannot clash with ours at link time
    stray=$(for l in "$prefix"/lib/*.a; do nm -g --defined-only "$l" | awk 'NF == 3 { print $3 }'; done |
        grep -Ev '^(gasnet|gasnetc|gasnete|gasneti|gasnett|gex|ammpi)_' | sort -u)
    [ -z "$stray" ] || fail "$flavor libraries define global names without a GASNet prefix: $stray"
    # the tools' pkg-config files carry the fragments' variables (tools spec §0.3)
    for mode in seq par; do
        have=$(PKG_CONFIG_PATH=$prefix/lib/pkgconfig pkg-config --print-variables gasnet_tools-$mode)
        for v in CC CPPFLAGS CFLAGS LD LDFLAGS LIBS CXX CXXFLAGS; do
            grep -qx "GASNETTOOLS_$v" <<< "$have" || fail "gasnet_tools-$mode.pc lacks GASNETTOOLS_$v ($flavor)"
        done
    done
    for mode in seq par parsync; do
        src=$work/src-$flavor-$mode
        cp -r tests/install "$src"
        make -s -C "$src" GASNET_PREFIX="$prefix" MODE=$mode > "$src/build.log" 2>&1 ||
            { cat "$src/build.log"; fail "fragment build, $flavor $mode"; }
        out=$("$prefix/bin/gasnetrun_mpi" -n 2 "$src/client" < /dev/null 2>&1) ||
            { echo "$out"; fail "fragment client, $flavor $mode"; }
        [ "$(echo "$out" | grep -c 'client ok')" = 2 ] || { echo "$out"; fail "client output, $flavor $mode"; }
        # the header's configuration string is also in the library (GASNet-1 spec §1.4)
        cfg=$(echo "$out" | sed -n 's/^client ok node 0 of 2 (\(.*\), [0-9]* us)$/\1/p')
        [ -n "$cfg" ] && grep -qaF "\$GASNetConfig: $cfg \$" "$prefix/lib/libgasnet-mpi-$mode.a" ||
            fail "libgasnet-mpi-$mode.a lacks the configuration string '$cfg' ($flavor)"
        "$src/tools_client" | grep -q 'tools client ok' || fail "tools client, $flavor $mode"
        for ex in ex_client ex_client_cxx; do
            out=$("$prefix/bin/gasnetrun_mpi" -n 3 "$src/$ex" < /dev/null 2>&1) ||
                { echo "$out"; fail "$ex, $flavor $mode"; }
            [ "$(echo "$out" | grep -c 'ex client ok')" = 3 ] || { echo "$out"; fail "$ex output, $flavor $mode"; }
        done
        # pkg-config, the other documented way
        export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
        pc=gasnet-mpi-$mode
        cc=$(pkg-config --variable=GASNET_CC $pc)
        $cc $(pkg-config --cflags $pc) -c tests/install/client.c -o "$src/pc.o"
        $(pkg-config --variable=GASNET_LD $pc) -o "$src/pc_client" "$src/pc.o" $(pkg-config --libs $pc)
        out=$("$prefix/bin/gasnetrun_mpi" -n 3 "$src/pc_client" < /dev/null 2>&1) ||
            { echo "$out"; fail "pkg-config client, $flavor $mode"; }
        [ "$(echo "$out" | grep -c 'client ok')" = 3 ] || { echo "$out"; fail "pkg-config output"; }
        $cc $(pkg-config --cflags $pc) -c tests/install/ex_client.c -o "$src/pc_ex.o"
        $(pkg-config --variable=GASNET_LD $pc) -o "$src/pc_ex" "$src/pc_ex.o" $(pkg-config --libs $pc)
        out=$("$prefix/bin/gasnetrun_mpi" -n 2 "$src/pc_ex" < /dev/null 2>&1) ||
            { echo "$out"; fail "pkg-config EX client, $flavor $mode"; }
        [ "$(echo "$out" | grep -c 'ex client ok')" = 2 ] || { echo "$out"; fail "pkg-config EX output"; }
    done
    # a client with a compiler of its own (clang): the flags meant for any
    # compiler (C++, pkg-config, the tools') carry no gcc-only option
    if [ $flavor = opt ] && command -v clang++ > /dev/null; then
        src=$work/src-clang
        cp -r tests/install "$src"
        make -s -C "$src" GASNET_PREFIX="$prefix" MODE=par GASNETTOOLS_CC=clang GASNETTOOLS_LD=clang \
            GASNET_CXX="env MPICH_CXX=clang++ mpicxx" \
            tools_client ex_client_cxx > "$src/build.log" 2>&1 || { cat "$src/build.log"; fail "clang build ($flavor)"; }
        "$src/tools_client" | grep -q 'tools client ok' || fail "clang tools client"
        out=$("$prefix/bin/gasnetrun_mpi" -n 2 "$src/ex_client_cxx" < /dev/null 2>&1) ||
            { echo "$out"; fail "clang++ EX client"; }
        clang $(pkg-config --cflags gasnet-mpi-par) -c tests/install/client.c -o "$src/pc.o" ||
            fail "clang with gasnet-mpi-par's Cflags"
        make -s -C "$src" GASNET_PREFIX="$prefix" MODE=par GASNET_CC="env MPICH_CC=clang mpicc" \
            GASNET_LD="env MPICH_CC=clang mpicc" client > "$src/build.log" 2>&1 ||
            { cat "$src/build.log"; fail "clang with mpi-par.mak's GASNET_CFLAGS"; }
        clang $(pkg-config --cflags gasnet_tools-par) -c tests/install/tools_client.c -o "$src/pc.o" ||
            fail "clang with gasnet_tools-par's Cflags"
    fi
    # The suite's test programs that use the public API alone (collectives,
    # teams, atomics, VIS, several endpoints), built unmodified against the
    # install as a client would, and run
    if [ $flavor = opt ]; then
        cl=$work/suite-clients
        mkdir -p "$cl"
        cp tests/ex_test.h tests/test.h "$cl/"
        for mode in seq par; do
            pc=gasnet-mpi-$mode
            cc=$(pkg-config --variable=GASNET_CC $pc)
            while read -r prog ranks args want; do
                cp tests/$prog.c "$cl/"
                $cc $(pkg-config --cflags $pc) -c "$cl/$prog.c" -o "$cl/$prog-$mode.o" ||
                    fail "suite client $prog ($mode) does not compile against the install"
                $(pkg-config --variable=GASNET_LD $pc) -o "$cl/$prog-$mode" "$cl/$prog-$mode.o" \
                    $(pkg-config --libs $pc) || fail "suite client $prog ($mode) does not link"
                out=$("$prefix/bin/gasnetrun_mpi" -n "$ranks" "$cl/$prog-$mode" $args < /dev/null 2>&1) ||
                    { echo "$out"; fail "suite client $prog $args ($mode)"; }
                echo "$out" | grep -q "$want" || { echo "$out"; fail "suite client $prog output ($mode)"; }
            done <<'CLIENTS'
ex_coll 3 quick ex_coll: ok
coll_legacy 2 quick coll_legacy: ok
ex_teams 3 - ex_teams: ok
ex_ratomic 2 all ex_ratomic: ok
vis 2 random vis random: ok
ex_eps 2 shm ex_eps: ok
CLIENTS
        done
    fi
    # gasnet_fwd.h compiles alone, in C and C++
    for lang in c c++; do
        echo '#include <gasnet_fwd.h>
int main(void) { gex_Rank_t r = GEX_RANK_INVALID; return r == 0; }' |
            gcc -x $lang -Wall -Wextra -pedantic -Werror -I"$prefix/include" - -o "$work/fwd" ||
            fail "gasnet_fwd.h alone ($lang)"
    done
    # Namespace hygiene (EX spec §18.7): every unprefixed word the public
    # headers use, #defined by the client before including them, breaks
    # nothing; except the spec's own struct members and macros, and words
    # the system headers they include declare (a client cannot define those
    # either).
    hdrs="gasnet.h gasnet_tools.h gasnet_coll.h gasnet_vis.h gasnet_ratomic.h gasnet_mk.h"
    sys=$(grep -ho '^#include <[a-z/]*\.h>' "$prefix"/include/*.h "$prefix"/include/mpi-conduit/*.h |
          grep -v '<gasnet\|<mpi\.h>' | sort -u)
    members='addr len size offset host supernode index fnptr flags name fnp threadsupport
             allocated_bytes freed_bytes live_bytes live_bytes_max allocated_objects freed_objects
             live_objects live_objects_max overhead_bytes'
    text=$(for h in $hdrs gasnetex.h gasnet_fwd.h mpi-conduit/gasnet_core.h mpi-conduit/gasnet_extended.h; do
               gcc -fpreprocessed -dD -E -P -x c "$prefix/include/$h" 2> /dev/null; done)
    words=$(echo "$text" | grep -o '\b[a-zA-Z][a-zA-Z0-9_]*\b' | sort -u | grep -iv '^gasnet\|^gex\|^ammpi' |
            comm -23 - <(echo "$text" | sed -n 's/^ *# *define \([A-Za-z0-9_]*\).*/\1/p' | sort -u) |
            comm -23 - <(echo "$sys" | gcc -D_GNU_SOURCE -E -dD -x c - |
                         sed 's/^#define \([A-Za-z0-9_]*\).*/\1/; /^#/d' |
                         grep -o '\b[a-zA-Z_][a-zA-Z0-9_]*\b' | sort -u) |
            comm -23 - <(printf '%s\n' $members auto break case char const continue default do double else \
                         enum extern float for goto if inline int long register restrict return short \
                         signed sizeof static struct switch typedef union unsigned void volatile while \
                         bool true false defined include define undef ifdef ifndef endif elif error \
                         pragma line warning and or not xor bitand bitor compl and_eq or_eq not_eq \
                         xor_eq class public private protected template typename namespace this new \
                         delete operator virtual friend using nullptr noexcept constexpr explicit \
                         mutable throw try catch decltype alignof alignas thread_local asm | sort -u))
    [ "$(echo "$words" | wc -w)" -gt 50 ] || fail "namespace check: only $(echo "$words" | wc -w) words found"
    for mode in SEQ PARSYNC PAR; do
        for lang in c c++; do
            { echo "#define _GNU_SOURCE 1"; echo "$sys"; printf '#define %s ]]]\n' $words
              echo "#define GASNET_$mode 1"; printf '#include <%s>\n' $hdrs; } |
                gcc -x $lang -I"$prefix/include" -I"$prefix/include/mpi-conduit" -c - -o "$work/ns.o" \
                    2> "$work/ns.log" || { grep -m5 -A3 "error" "$work/ns.log"; fail "namespace: a client's macro breaks the headers ($flavor, $mode, $lang)"; }
        done
    done
    # gasnet_mk.h alone (it brings gasnetex.h), in C and C++
    for lang in c c++; do
        echo '#include <gasnet_mk.h>
int main(void) { gex_MK_Create_args_t a = {0, GEX_MK_CLASS_CUDA_UVA, {{0}}}; return a.gex_class == 0 && GEX_MK_HOST != 0; }' |
            gcc -x $lang -DGASNET_SEQ -Wall -Wextra -pedantic -Werror -I"$prefix/include" \
                -I"$prefix/include/mpi-conduit" - -c -o "$work/mk.o" || fail "gasnet_mk.h alone ($lang)"
    done
    # gasnet_coll.h compiles alone, in C and C++; GASNET_COLL_SINGLE, removed
    # from GASNet-EX, does not compile and names its replacement
    for lang in c c++; do
        comp=$cc
        [ $lang = c++ ] && comp=$(command -v mpicxx || command -v mpic++)
        echo '#include <gasnet_coll.h>
gex_Event_t f(gex_TM_t tm, void *d) { return gex_Coll_BroadcastNB(tm, 0, d, d, 1, 0); }
gasnet_team_handle_t g(void) { return GASNET_TEAM_ALL; }' |
            $comp -x $lang -DGASNET_SEQ -Wall -Wextra -pedantic -Werror -I"$prefix/include" \
                -I"$prefix/include/mpi-conduit" -c - -o "$work/coll.o" || fail "gasnet_coll.h alone ($lang)"
    done
    if echo '#include <gasnet_coll.h>
int f(void) { return GASNET_COLL_SINGLE; }' | $cc -x c -DGASNET_SEQ -I"$prefix/include" \
        -I"$prefix/include/mpi-conduit" -c - -o "$work/single.o" 2> "$work/single.log"; then
        fail "GASNET_COLL_SINGLE compiled"
    fi
    grep -q 'use_GASNET_COLL_LOCAL' "$work/single.log" || { cat "$work/single.log"; fail "no GASNET_COLL_SINGLE message"; }
    # The link-name check: SEQ objects against the PAR library must not link.
    par_libs=$(PKG_CONFIG_PATH=$prefix/lib/pkgconfig pkg-config --variable=GASNET_LIBS gasnet-mpi-par)
    if $cc -DGASNET_SEQ -I"$prefix/include" -I"$prefix/include/mpi-conduit" tests/install/client.c \
        -o "$work/mismatch" $par_libs 2> "$work/link.log"; then
        fail "a SEQ client linked against libgasnet-mpi-par ($flavor)"
    fi
    grep -q 'gasnet_init_GASNET_SEQ' "$work/link.log" || { cat "$work/link.log"; fail "no link-name error"; }
done
# A debug client against the optimised library must not link either.
opt_libs=$(PKG_CONFIG_PATH=$work/opt/lib/pkgconfig pkg-config --variable=GASNET_LIBS gasnet-mpi-par)
if mpicc -DGASNET_PAR -I"$work/debug/include" -I"$work/debug/include/mpi-conduit" \
    tests/install/client.c -o "$work/mismatch" $opt_libs 2> "$work/link.log"; then
    fail "a debug client linked against the optimised library"
fi
grep -q 'gasnet_init_GASNET_PAR_FAST_debug' "$work/link.log" || { cat "$work/link.log"; fail "no link-name error (debug)"; }
echo "install_test: ok (opt and debug installs; seq, par, parsync; fragment and pkg-config)"
