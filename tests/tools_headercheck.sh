#!/bin/bash
# Compile-time checks of gasnet_tools.h, run by the build (mk/flavor.mk):
# the thread model and macros each context must get (tools-only SEQ and PAR,
# after gasnetex.h (or gasnet.h) with GASNET_SEQ/PAR/PARSYNC, lite mode), the #errors for a
# wrong context, strict ISO C and C++ compilation, and gasnet_tools.c in the
# libgasnet contexts. "after gasnetex.h" is
# simulated by what it will do (define _GASNETEX_H, include gasnet_config.h).
#
#   tools_headercheck.sh CC CXX "CPPFLAGS CFLAGS" WORKDIR
set -u
cc=$1 cxx=$2 flags=$3 dir=$4
cxxflags=${flags//-std=gnu11/}
mkdir -p "$dir"
failed=0

# ok NAME LANG [FLAGS...] < source: must compile without a diagnostic.
ok() {
    local name=$1 lang=$2 compiler=$cc f=$flags
    shift 2
    [ "$lang" = c++ ] && compiler=$cxx f=$cxxflags
    cat > "$dir/$name.src"
    # shellcheck disable=SC2086
    if ! $compiler $f "$@" -x "$lang" -c "$dir/$name.src" -o "$dir/$name.o" 2> "$dir/$name.log"; then
        echo "headercheck: $name: should compile but does not:" >&2
        sed 's/^/    /' "$dir/$name.log" >&2
        failed=1
    fi
}

# bad NAME REGEX LANG [FLAGS...] < source: must fail, saying REGEX.
bad() {
    local name=$1 regex=$2 lang=$3 compiler=$cc f=$flags
    shift 3
    [ "$lang" = c++ ] && compiler=$cxx f=$cxxflags
    cat > "$dir/$name.src"
    # shellcheck disable=SC2086
    if $compiler $f "$@" -x "$lang" -c "$dir/$name.src" -o "$dir/$name.o" 2> "$dir/$name.log"; then
        echo "headercheck: $name: compiled, but should fail with /$regex/" >&2
        failed=1
    elif ! grep -Eq -- "$regex" "$dir/$name.log"; then
        echo "headercheck: $name: failed without /$regex/:" >&2
        sed 's/^/    /' "$dir/$name.log" >&2
        failed=1
    fi
}

gasnet_h='#define _GASNETEX_H 1
#include <gasnet_config.h>'

# A client using a broad slice of the API, valid in C and C++ and in every
# model; the checks of each context come before it.
read -r -d '' body <<'EOF'
#if PLATFORM_ARCH_64 + PLATFORM_ARCH_32 != 1
#error "exactly one of PLATFORM_ARCH_64/32"
#endif
#if PLATFORM_COMPILER_TINY
#error "PLATFORM_COMPILER_TINY"
#endif
#if GASNETT_SPEC_VERSION_MAJOR != 1 || !defined(GASNETT_HAVE_ATOMIC_CAS) || !defined(GASNETT_HAVE_ATOMIC_ADD_SUB)
#error "version or HAVE macros"
#endif
#if !HAVE_PTHREAD_H
#error "HAVE_PTHREAD_H"
#endif
#if defined(GASNETT_USING_GENERIC_ATOMICOPS) || defined(GASNETT_USING_GETTIMEOFDAY) || !GASNETT_SET_AFFINITY_SUPPORT
#error "GASNETT_USING_* undefined, GASNETT_SET_AFFINITY_SUPPORT defined"
#endif
#if defined(GASNET_DEBUG) != defined(GASNET_DEBUGMALLOC)
#error "GASNET_DEBUGMALLOC follows GASNET_DEBUG unless the client chooses"
#endif
typedef struct { void *gex_addr; size_t gex_len; } hc_Memvec_t; /* gex_Memvec_t's layout */
GASNETT_IDENT(hc_ident, "$headercheck: " GASNETT_SYSTEM_TUPLE " " PLATFORM_COMPILER_VERSION_STR " $");
GASNETT_THREADKEY_DECLARE(hc_key);
GASNETT_THREADKEY_DEFINE(hc_key);
GASNETT_FORMAT_PRINTF(hc_log, 1, 2, static void hc_log(const char *fmt, ...));
static void hc_log(const char *fmt, ...) { (void)fmt; }
GASNETT_NORETURN static void hc_die(void) { gasnett_fatalerror("x"); }
GASNETT_INLINE(hc_inline) int hc_inline(int x) { return x + 1; }
struct hc_s { gasnett_cond_t c; gasnett_mutex_t m; };
static struct hc_s hc_locks[2] = { {GASNETT_COND_INITIALIZER, GASNETT_MUTEX_INITIALIZER},
                                   {GASNETT_COND_INITIALIZER, GASNETT_MUTEX_INITIALIZER} };
static gasnett_rwlock_t hc_rw = GASNETT_RWLOCK_INITIALIZER;
static struct { int x; gasnett_atomic_t a; gasnett_atomic64_t b; } hc_agg = {0, gasnett_atomic_init(1), gasnett_atomic64_init(2)};
static char hc_line[GASNETT_CACHE_LINE_BYTES];
int hc_main(int n);
int hc_main(int n) {
    gasnett_tick_t t = gasnett_ticks_now();
    gasnett_atomic_val_t v;
    char fb[256], *dm = (char *)gasnett_debug_malloc(8);
    hc_Memvec_t mv[1] = {{NULL, 0}};
    void *al[1] = {NULL};
    ptrdiff_t st[1] = {1};
    size_t ct[1] = {1}, fn = gasnett_format_dt(fb, GEX_DT_I32) + gasnett_format_op(NULL, GEX_OP_FADD) +
                             gasnett_format_ti(fb, 1u) + gasnett_format_memveclist_bufsz(1);
    (void)gasnett_format_memveclist(fb, 1, mv);
    (void)gasnett_format_addrlist(fb, gasnett_format_addrlist_bufsz(1) > sizeof fb ? 0 : 1, al, 4);
    size_t ct2[2] = {1, 1};
    (void)ct;
    (void)gasnett_format_putsgets(fb, NULL, NULL, 0, al[0], st, al[0], st, gasnett_format_putsgets_bufsz(1), ct2, 1);
    dm = (char *)gasnett_debug_realloc(dm, 16);
    gasnett_debug_memcheck(dm);
    gasnett_debug_memcheck_one();
    gasnett_debug_memcheck_all();
    gasnett_debug_free(dm);
    dm = gasnett_debug_strdup("x");
    gasnett_debug_free(dm);
    dm = gasnett_debug_strndup("xy", 1);
    gasnett_debug_free(gasnett_debug_calloc(1, 1));
    gasnett_debug_free(dm);
#ifdef GASNET_DEBUGMALLOC
    { gasnett_heapstats_t hs; fn += (size_t)gasnett_getheapstats(&hs) + (size_t)hs.live_objects; }
#endif
    if (n == 7) GASNETT_SET_AFFINITY(n);
    if (n > 100) gasnett_fatalerror_nopos("%d", n);
    fn += (size_t)gasnett_nsleep(0) + (size_t)gasnett_maximize_rlimits() + (size_t)gasnett_release_version() +
          strlen(gasnett_release_version_str());
    if_pf(n < 0) hc_die();
    if_pt(n == 0) hc_log("%d", n); else hc_log("%s", "x");
    gasnett_local_wmb(); gasnett_local_rmb(); gasnett_local_mb();
    gasnett_mutex_lock(&hc_locks[0].m); gasnett_mutex_unlock(&hc_locks[0].m);
    gasnett_rwlock_rdlock(&hc_rw); gasnett_rwlock_unlock(&hc_rw);
    gasnett_threadkey_set(hc_key, &n);
    v = gasnett_atomic_add(&hc_agg.a, 2, GASNETT_ATOMIC_REL);
    (void)gasnett_strongatomic64_compare_and_swap(&hc_agg.b, 2, 3, GASNETT_ATOMIC_ACQ_IF_TRUE);
    GASNETT_TRACE_SETSOURCELINE(__FILE__, __LINE__);
    (void)(n ? GASNETT_TRACE_PRINTF("%d", n) : (void)0);
    hc_line[0] = (char)(GASNETT_TRACE_ENABLED + (int)strlen(GASNETT_TRACE_GETMASK()));
    return (int)fn + (int)gasnett_ticks_to_us(gasnett_ticks_now() - t) + (int)v + hc_inline(n) +
           (gasnett_threadkey_get(hc_key) != NULL) + (int)strlen(_STRINGIFY(PLATFORM_COMPILER_FAMILYNAME));
}
EOF

# ---- the model each context gets
ok tools_seq c <<EOF
#include <gasnet_tools.h>
#if defined(GASNETT_THREAD_SAFE) || defined(GASNETT_MAX_THREADS)
#error "tools-only SEQ must leave GASNETT_THREAD_SAFE and GASNETT_MAX_THREADS undefined"
#endif
_Static_assert(sizeof(gasnett_mutex_t) == 1, "SEQ locks are no-ops");
$body
EOF
ok tools_par_pthread_first c <<EOF
#include <pthread.h>
#include <gasnet_tools.h>
#if GASNETT_THREAD_SAFE != 1 || defined(GASNETT_MAX_THREADS)
#error "pthread.h first must give PAR"
#endif
_Static_assert(sizeof(gasnett_mutex_t) == sizeof(pthread_mutex_t), "PAR locks are pthread mutexes");
$body
EOF
ok tools_par_reentrant c -D_REENTRANT <<EOF
#include <gasnet_tools.h>
#if GASNETT_THREAD_SAFE != 1
#error "_REENTRANT must give PAR"
#endif
$body
EOF
ok tools_par_defined c -DGASNETT_THREAD_SAFE <<EOF
#include <gasnet_tools.h>
#if GASNETT_THREAD_SAFE != 1
#error "GASNETT_THREAD_SAFE must give PAR, defined to 1"
#endif
$body
EOF
ok tools_seq_true_mutexes c -DGASNETT_USE_TRUE_MUTEXES=1 <<EOF
#include <gasnet_tools.h>
#ifdef GASNETT_THREAD_SAFE
#error "true mutexes do not change the model"
#endif
_Static_assert(sizeof(gasnett_mutex_t) == sizeof(pthread_mutex_t), "true mutexes are pthread mutexes");
$body
EOF
ok gasnet_seq c -DGASNET_SEQ -D_REENTRANT -DGASNETT_THREAD_SAFE <<EOF
$gasnet_h
#include <gasnet_tools.h>
#if defined(GASNETT_THREAD_SAFE) || GASNETT_MAX_THREADS != 1
#error "GASNET_SEQ must give SEQ and GASNETT_MAX_THREADS 1"
#endif
void *hc_map(void);
void *hc_map(void) { return gasnett_mmap(GASNETT_PAGESIZE); }
$body
EOF
for mode in PAR PARSYNC; do
    ok "gasnet_$mode" c "-DGASNET_$mode" <<EOF
$gasnet_h
#include <gasnet_tools.h>
#if GASNETT_THREAD_SAFE != 1 || GASNETT_MAX_THREADS != 256
#error "GASNET_$mode must give PAR and GASNETT_MAX_THREADS 256"
#endif
_Static_assert(sizeof(gasnett_mutex_t) == sizeof(pthread_mutex_t), "real locks");
void *hc_map(void);
void *hc_map(void) { return gasnett_mmap(GASNETT_PAGESIZE); }
$body
EOF
done
ok gasnet_tools_twice c -DGASNET_PAR <<EOF
$gasnet_h
#include <gasnet_tools.h>
#include <gasnet_tools.h>
$body
EOF

# ---- GASNET_DEBUGMALLOC: the client may choose the allocator of its
# gasnett_debug_* calls, normalised to 1 or undefined
ok debugmalloc_forced c -DGASNET_DEBUGMALLOC <<'EOF'
#include <gasnet_tools.h>
#if GASNET_DEBUGMALLOC != 1
#error "GASNET_DEBUGMALLOC defined by the client must become 1"
#endif
int hc_stats(void);
int hc_stats(void) { gasnett_heapstats_t s; return gasnett_getheapstats(&s) + (int)s.live_bytes_max; }
EOF
for lang in c c++; do
    ok "debugmalloc_off_$lang" "$lang" -DGASNET_DEBUGMALLOC=0 <<'EOF'
#include <gasnet_tools.h>
#ifdef GASNET_DEBUGMALLOC
#error "GASNET_DEBUGMALLOC=0 must leave it undefined"
#endif
typedef int gasnett_heapstats_t; /* no such type without the checked allocator */
void hc_plain(void);
void hc_plain(void) { free(gasnett_debug_malloc(1)); gasnett_debug_memcheck_all(); }
EOF
done

# ---- lite mode: basic macros, timers and barriers only
ok lite c -DGASNETT_LITE_MODE -D_REENTRANT <<'EOF'
#include <gasnet_tools.h>
#if defined(GASNETT_THREAD_SAFE) || defined(GASNETT_HAVE_ATOMIC_CAS) || defined(GASNETT_MUTEX_INITIALIZER)
#error "lite mode has no thread model, atomics or locks"
#endif
#if defined(GASNET_DEBUGMALLOC) || defined(GEX_DT_I32)
#error "lite mode has no allocator or formatters"
#endif
double hc_lite(void);
double hc_lite(void) {
    gasnett_tick_t t = gasnett_ticks_now();
    gasnett_local_mb();
    return (double)gasnett_ticks_to_ns(gasnett_ticks_now() - t) + gasnett_tick_granularityus();
}
EOF

# ---- wrong contexts
for mode in SEQ PAR PARSYNC; do
    bad "no_gasnet_h_$mode" 'include gasnetex.h or gasnet.h before gasnet_tools.h' c "-DGASNET_$mode" <<'EOF'
#include <gasnet_tools.h>
EOF
done
bad lite_with_gasnet_h 'GASNETT_LITE_MODE.*cannot be used with gasnet.h' c -DGASNETT_LITE_MODE -DGASNET_SEQ <<EOF
$gasnet_h
#include <gasnet_tools.h>
EOF
bad format_checked 'format' c <<'EOF'
#include <gasnet_tools.h>
GASNETT_FORMAT_PRINTF(hc_log, 1, 2, void hc_log(const char *fmt, ...));
void hc_use(void);
void hc_use(void) { hc_log("%d", "not an int"); }
EOF

# ---- strict ISO C and C++
for std in c99 c11; do
    for model in "" -D_REENTRANT; do
        ok "strict_$std${model:+_par}" c "-std=$std" -pedantic $model <<EOF
#include <gasnet_tools.h>
$body
EOF
    done
done
for std in c++98 c++11 c++17 c++20; do
    for model in "" -D_REENTRANT; do
        ok "cxx_$std${model:+_par}" c++ "-std=$std" -pedantic $model <<EOF
#include <gasnet_tools.h>
$body
EOF
    done
    ok "cxx_${std}_gasnet_par" c++ "-std=$std" -pedantic -DGASNET_PAR <<EOF
$gasnet_h
#include <gasnet_tools.h>
$body
EOF
done

# ---- the library in the libgasnet contexts (no gasnet.h there)
for mode in SEQ PAR PARSYNC; do
    for src in tools/*.c; do
        ok "lib_${mode}_$(basename "$src" .c)" c "-DGASNET_$mode" -Iinclude < "$src"
    done
done

exit $failed
