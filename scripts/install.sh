#!/bin/sh
# Installs one build flavour in the layout GASNet-1 clients expect
# (../shared/spec/install-layout.md):
#   include/{gasnet.h,gasnetex.h,gasnet_fwd.h,gasnet_tools.h,gasnet_config.h,ammpi.h}
#   include/mpi-conduit/{gasnet_core.h,gasnet_extended.h,mpi-{seq,par,parsync}.mak}
#   include/gasnet_tools-{seq,par}.mak
#   lib/libgasnet-mpi-{seq,par,parsync}.a lib/libammpi.a lib/libgasnet_tools-{seq,par}.a
#   lib/pkgconfig/gasnet-mpi-{seq,par,parsync}.pc, gasnet_tools-{seq,par}.pc
#   bin/gasnetrun_mpi
# usage: scripts/install.sh PREFIX BUILDDIR
set -eu
prefix=$1 build=$2
[ -f "$build/flags.sh" ] || { echo "install: $build/flags.sh missing; build first" >&2; exit 1; }
. "$build/flags.sh" # CC, CFLAGS, LDFLAGS, NATIVE_LIBS, DEBUG_DEF
# Clients get the optimisation level alone, not the library's gcc-only
# assembler option (mk/flavor.mk, BRANCH_ALIGN): they pick their compiler,
# and clang refuses it.
if [ "$DEBUG_DEF" = GASNET_DEBUG ]; then opt="-O0 -g"; else opt="-O3"; fi
mpicc=$(command -v "$CC")
mpicxx=$(command -v mpicxx || command -v mpic++ || echo mpicxx)
version=$(awk '/GASNET_RELEASE_VERSION_(MAJOR|MINOR|PATCH)/ {v = v (v ? "." : "") $3} END {print v}' \
    "$build/include/gasnet_config.h")

mkdir -p "$prefix/include/mpi-conduit" "$prefix/lib/pkgconfig" "$prefix/bin"
install -m 644 include/*.h tools/gasnet_tools.h ammpi/ammpi.h "$build/include/gasnet_config.h" \
    "$prefix/include/"
install -m 644 core-mpi/gasnet_core.h extended/gasnet_extended.h "$prefix/include/mpi-conduit/"
install -m 644 "$build"/lib/libgasnet-mpi-*.a "$build/lib/libammpi.a" "$build"/lib/libgasnet_tools-*.a \
    "$prefix/lib/"
install -m 755 launch/gasnetrun_mpi "$prefix/bin/"

for mode in seq par parsync; do
    MODE=$(echo $mode | tr a-z A-Z)
    if [ $mode = seq ]; then threads="" threadlibs=""; else threads="-pthread" threadlibs="-lpthread"; fi
    defines="-D_GNU_SOURCE=1 -DGASNET_$MODE"
    [ $mode = seq ] || defines="$defines -D_REENTRANT"
    libs="-L\$(GASNET_PREFIX)/lib -lgasnet-mpi-$mode -lammpi $NATIVE_LIBS $threadlibs -lm"
    cat > "$prefix/include/mpi-conduit/mpi-$mode.mak" <<EOF
# GASNet-1 mpi-conduit, $MODE mode: makefile fragment for clients.
#   include \$(GASNET_PREFIX)/include/mpi-conduit/mpi-$mode.mak
#   x.o: x.c ; \$(GASNET_CC) \$(GASNET_CPPFLAGS) \$(GASNET_CFLAGS) -c x.c
#   x:   x.o ; \$(GASNET_LD) \$(GASNET_LDFLAGS) -o x x.o \$(GASNET_LIBS)
# The libraries are position-independent: to link them into a shared object,
# compile your own objects with -fPIC and link with -shared:
#   libx.so: x.o ; \$(GASNET_LD) \$(GASNET_LDFLAGS) -shared -o libx.so x.o \$(GASNET_LIBS)
GASNET_PREFIX = $prefix
GASNET_CC = $mpicc
GASNET_CXX = $mpicxx
GASNET_OPT_CFLAGS = $opt
GASNET_MISC_CFLAGS = $threads
GASNET_MISC_CPPFLAGS =
GASNET_INCLUDES = -I\$(GASNET_PREFIX)/include -I\$(GASNET_PREFIX)/include/mpi-conduit
GASNET_DEFINES = $defines
GASNET_CFLAGS = \$(GASNET_OPT_CFLAGS) \$(GASNET_MISC_CFLAGS)
GASNET_CPPFLAGS = \$(GASNET_MISC_CPPFLAGS) \$(GASNET_DEFINES) \$(GASNET_INCLUDES)
GASNET_CXXFLAGS = $opt \$(GASNET_MISC_CFLAGS)
GASNET_CXXCPPFLAGS = \$(GASNET_CPPFLAGS)
GASNET_LD = $mpicc
GASNET_LDFLAGS = $opt $threads
GASNET_LIBS = $libs
GASNET_LD_REQUIRES_MPI = 1
EOF
    inc="-I$prefix/include -I$prefix/include/mpi-conduit"
    cat > "$prefix/lib/pkgconfig/gasnet-mpi-$mode.pc" <<EOF
prefix=$prefix
GASNET_CC=$mpicc
GASNET_LD=$mpicc
GASNET_CPPFLAGS=$defines $inc
GASNET_CFLAGS=$opt $threads
GASNET_LDFLAGS=$opt $threads
GASNET_LIBS=-L$prefix/lib -lgasnet-mpi-$mode -lammpi $NATIVE_LIBS $threadlibs -lm

Name: gasnet-mpi-$mode
Description: GASNet-1 (spec 1.8) over MPI, $MODE thread mode
Version: $version
Cflags: \${GASNET_CPPFLAGS} \${GASNET_CFLAGS}
Libs: \${GASNET_LDFLAGS} \${GASNET_LIBS}
EOF
done

for mode in seq par; do
    if [ $mode = seq ]; then tflags="" tlibs="" tdefs=""; else tflags="-pthread" tlibs="-lpthread" tdefs="-DGASNETT_THREAD_SAFE=1 -D_REENTRANT"; fi
    cat > "$prefix/include/gasnet_tools-$mode.mak" <<EOF
# GASNet tools (gasnet_tools.h without the rest of GASNet), $mode: makefile fragment.
GASNET_PREFIX = $prefix
GASNETTOOLS_INCLUDES = -I\$(GASNET_PREFIX)/include
GASNETTOOLS_LIBDIR = \$(GASNET_PREFIX)/lib
GASNETTOOLS_DEBUGFLAGS = $opt
GASNETTOOLS_THREADFLAGS = $tdefs
GASNETTOOLS_THREADLIBS = $tlibs
GASNETTOOLS_TOOLLIB_NAME = gasnet_tools-$mode
GASNETTOOLS_CC = cc
GASNETTOOLS_CPPFLAGS = \$(MANUAL_DEFINES) -D_GNU_SOURCE=1 \$(GASNETTOOLS_THREADFLAGS) \$(GASNETTOOLS_INCLUDES)
GASNETTOOLS_CFLAGS = \$(GASNETTOOLS_DEBUGFLAGS) $tflags \$(MANUAL_CFLAGS)
GASNETTOOLS_LD = cc
GASNETTOOLS_LDFLAGS = $tflags -L\$(GASNETTOOLS_LIBDIR) \$(MANUAL_LDFLAGS)
GASNETTOOLS_LIBS = -l\$(GASNETTOOLS_TOOLLIB_NAME) \$(GASNETTOOLS_THREADLIBS) -lm \$(MANUAL_LIBS)
GASNETTOOLS_CXX = c++
GASNETTOOLS_CXXFLAGS = \$(GASNETTOOLS_DEBUGFLAGS) $tflags \$(MANUAL_CFLAGS)
EOF
    cat > "$prefix/lib/pkgconfig/gasnet_tools-$mode.pc" <<EOF
prefix=$prefix
GASNETTOOLS_CC=cc
GASNETTOOLS_LD=cc
GASNETTOOLS_CPPFLAGS=-D_GNU_SOURCE=1 $tdefs -I$prefix/include
GASNETTOOLS_CFLAGS=$opt $tflags
GASNETTOOLS_LDFLAGS=$tflags -L$prefix/lib
GASNETTOOLS_LIBS=-lgasnet_tools-$mode $tlibs -lm
GASNETTOOLS_CXX=c++
GASNETTOOLS_CXXFLAGS=$opt $tflags

Name: gasnet_tools-$mode
Description: GASNet tools library ($mode)
Version: $version
Cflags: \${GASNETTOOLS_CPPFLAGS} \${GASNETTOOLS_CFLAGS}
Libs: \${GASNETTOOLS_LDFLAGS} \${GASNETTOOLS_LIBS}
EOF
done
echo "installed $(basename "$build") build of GASNet-1 over MPI in $prefix"
