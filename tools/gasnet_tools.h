/* gasnet_tools.h: the GASNet "tools" API (gasnett_*, GASNETT_*, spec 1.20):
 * portable timers, memory barriers, atomics, locks, thread keys, environment
 * queries and small utilities that need no communication.
 *
 * Three ways in (the thread model is fixed when this header is processed):
 *   - tools-only, SEQ: nothing defined; link libgasnet_tools-seq.a.
 *   - tools-only, PAR: GASNETT_THREAD_SAFE, _REENTRANT or _THREAD_SAFE
 *     defined, or <pthread.h> included first; link libgasnet_tools-par.a.
 *   - after gasnet.h: GASNET_SEQ gives SEQ, GASNET_PAR or GASNET_PARSYNC
 *     gives PAR; the tools come from libgasnet.
 * GASNETT_LITE_MODE gives only the basic macros, timers and barriers, all in
 * this header (no library).
 *
 * PAR: gasnett_atomic_* are atomic, locks are pthread objects, thread keys
 * are per thread. SEQ: gasnett_atomic_* are plain memory operations (the
 * fences their flags ask for still happen), locks are no-ops unless
 * GASNETT_USE_TRUE_MUTEXES=1, gasnett_cond_wait is fatal, a thread key is
 * one global. gasnett_strongatomic_* are atomic in every model.
 *
 * Beyond spec 1.9, the names GASNet-EX-era clients use (tools 1.10-1.20):
 * gasnett_nsleep, gasnett_fatalerror_nopos, the release version, rlimits,
 * the gasnett_format_* formatters (they take gex_DT_t and gex_OP_t from
 * gasnet_fwd.h; the VIS ones take gex_TM_t and gex_Memvec_t after
 * gasnetex.h, an opaque struct pointer and `const void *` in tools-only
 * code), gasnett_assume, gasnett_exe_name, GASNETT_UNUSED_ARGS*,
 * GASNETT_TRACE_* and GASNETT_STATS_* (working after gasnet.h, no-ops in
 * tools-only code: section 10), the PRI*SZ and
 * PRI*PD printf formats, and gasnett_debug_*: a checked allocator when
 * GASNET_DEBUGMALLOC is 1 (debug builds), plain libc otherwise. Several
 * gasnett_* types and helpers are macros over gasneti_* names, as in the
 * reference, so a client's #ifdef finds them. gasnet_portable_platform.h
 * gives the PLATFORM_* macros.
 */
#ifndef _GASNET_TOOLS_H
#define _GASNET_TOOLS_H

/* ---- context and thread model -------------------------------------- */

/* gasnet_tools.c defines GASNETI_BUILDING_TOOLS: the library is built with
 * GASNET_SEQ/PAR/PARSYNC on the command line but without gasnet.h. */
#if (defined(GASNET_SEQ) || defined(GASNET_PAR) || defined(GASNET_PARSYNC)) && \
    !defined(_GASNETEX_H) && !defined(GASNETI_BUILDING_TOOLS)
#error "GASNET_SEQ, GASNET_PAR or GASNET_PARSYNC is defined: include gasnetex.h or gasnet.h before gasnet_tools.h"
#endif
#if defined(GASNETT_LITE_MODE) && defined(_GASNETEX_H)
#error "GASNETT_LITE_MODE is for tools-only code: it cannot be used with gasnet.h"
#endif

/* Decided before any system header is included, so that a client's own
 * earlier #include <pthread.h> is what PTHREAD_MUTEX_INITIALIZER detects. */
#if defined(GASNETT_LITE_MODE) || defined(GASNET_SEQ)
#undef GASNETT_THREAD_SAFE
#elif defined(GASNET_PAR) || defined(GASNET_PARSYNC) || defined(GASNETT_THREAD_SAFE) || \
    defined(_REENTRANT) || defined(_THREAD_SAFE) || defined(PTHREAD_MUTEX_INITIALIZER)
#undef GASNETT_THREAD_SAFE
#define GASNETT_THREAD_SAFE 1
#else
#undef GASNETT_THREAD_SAFE
#endif

/* Threads a GASNet client may have; only meaningful with gasnet.h. */
#if defined(GASNET_SEQ)
#define GASNETT_MAX_THREADS 1
#elif defined(GASNET_PAR) || defined(GASNET_PARSYNC)
#define GASNETT_MAX_THREADS 256
#endif

/* HAVE_PTHREAD_H, HAVE_MMAP, GASNET_DEBUG/GASNET_NDEBUG, page and cache
 * line sizes of this build. */
#include <gasnet_config.h>

/* GASNET_DEBUGMALLOC (1 or undefined): the gasnett_debug_* allocation calls
 * use the checked allocator. On in debug builds; a client may define it to
 * 1 or 0 before this header to choose for its own calls (the library has
 * both allocators in every build). */
#if defined(GASNET_DEBUGMALLOC)
#if GASNET_DEBUGMALLOC
#undef GASNET_DEBUGMALLOC
#define GASNET_DEBUGMALLOC 1
#else
#undef GASNET_DEBUGMALLOC
#endif
#elif defined(GASNET_DEBUG) && !defined(GASNETT_LITE_MODE)
#define GASNET_DEBUGMALLOC 1
#endif

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <sched.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/param.h> /* MIN, MAX: taken from here so a later include agrees */
#include <time.h>
#include <unistd.h>
#if defined(GASNETT_THREAD_SAFE) || (defined(GASNETT_USE_TRUE_MUTEXES) && GASNETT_USE_TRUE_MUTEXES)
#include <pthread.h>
#endif
#if !defined(GASNETT_LITE_MODE)
#include <gasnet_fwd.h> /* gex_DT_t, gex_OP_t for the formatters */
#endif

#ifndef MIN
#define MIN(x, y) ((x) < (y) ? (x) : (y))
#endif
#ifndef MAX
#define MAX(x, y) ((x) > (y) ? (x) : (y))
#endif

/* ---- 1. basic macros ------------------------------------------------ */

#define GASNETT_SPEC_VERSION_MAJOR 1
#define GASNETT_SPEC_VERSION_MINOR 20
#ifdef GASNET_RELEASE_VERSION_MAJOR
#define GASNETT_RELEASE_VERSION_MAJOR GASNET_RELEASE_VERSION_MAJOR
#define GASNETT_RELEASE_VERSION_MINOR GASNET_RELEASE_VERSION_MINOR
#define GASNETT_RELEASE_VERSION_PATCH GASNET_RELEASE_VERSION_PATCH
#else /* (without gasnet_config.h: the same release) */
#define GASNETT_RELEASE_VERSION_MAJOR 2025
#define GASNETT_RELEASE_VERSION_MINOR 8
#define GASNETT_RELEASE_VERSION_PATCH 0
#endif

#ifdef __cplusplus
#define GASNETT_BEGIN_EXTERNC extern "C" {
#define GASNETT_END_EXTERNC }
#define GASNETT_EXTERNC extern "C"
#else
#define GASNETT_BEGIN_EXTERNC
#define GASNETT_END_EXTERNC
#define GASNETT_EXTERNC extern
#endif

#ifndef _STRINGIFY
#define _STRINGIFY_HELPER(x) #x
#define _STRINGIFY(x) _STRINGIFY_HELPER(x)
#endif
#ifndef _CONCAT
#define _CONCAT_HELPER(a, b) a##b
#define _CONCAT(a, b) _CONCAT_HELPER(a, b)
#endif

/* A global array, so the text is in the binary; `used` keeps it there. */
#define GASNETT_IDENT(_id, text)                 \
    GASNETT_EXTERNC volatile char _id[];         \
    __attribute__((__used__)) volatile char _id[] = text

#define GASNETT_FORMAT_PRINTF(_fn, fmtidx, firstarg, declarator) \
    __attribute__((__format__(__printf__, fmtidx, firstarg))) declarator
#define GASNETT_FORMAT_PRINTF_FUNCPTR(_fn, fmtidx, firstarg, declarator) \
    __attribute__((__format__(__printf__, fmtidx, firstarg))) declarator
#define GASNETT_NORETURN __attribute__((__noreturn__))
#define GASNETT_NORETURNP(_fn)

/* The INLINE forms must supply `static`; a plain hint is enough. */
#define GASNETT_INLINE(_fn) static inline
#define GASNETT_ALWAYS_INLINE(_fn) static inline
#define GASNETT_PLEASE_INLINE(_fn) static inline
#define GASNETT_NEVER_INLINE(_fn, decl) __attribute__((__noinline__)) decl
#define GASNETT_RESTRICT __restrict__
#define GASNETT_USED __attribute__((__used__))
#define GASNETT_UNUSED __attribute__((__unused__))
#define GASNETT_MALLOC __attribute__((__malloc__))
#define GASNETT_MALLOCP(_fn)
#define GASNETT_PURE __attribute__((__pure__))
#define GASNETT_PUREP(_fn)
#define GASNETT_CONST __attribute__((__const__))
#define GASNETT_CONSTP(_fn)
#define GASNETT_HOT __attribute__((__hot__))
#define GASNETT_COLD __attribute__((__cold__))
#define GASNETT_DEPRECATED __attribute__((__deprecated__))
#define GASNETT_WARN_UNUSED_RESULT __attribute__((__warn_unused_result__))
#define GASNETT_CURRENT_FUNCTION __func__

#define GASNETT_PREDICT_TRUE(e) __builtin_expect(!!(e), 1)
#define GASNETT_PREDICT_FALSE(e) __builtin_expect(!!(e), 0)
#define if_pf(c) if (GASNETT_PREDICT_FALSE(c))
#define if_pt(c) if (GASNETT_PREDICT_TRUE(c))
#define gasnett_constant_p(e) __builtin_constant_p(e)

#ifdef GASNETI_PAGESIZE
#define GASNETT_PAGESIZE GASNETI_PAGESIZE
#else
#define GASNETT_PAGESIZE 4096
#endif
#if GASNETT_PAGESIZE == 4096
#define GASNETT_PAGESHIFT 12
#elif GASNETT_PAGESIZE == 16384
#define GASNETT_PAGESHIFT 14
#elif GASNETT_PAGESIZE == 65536
#define GASNETT_PAGESHIFT 16
#endif
#ifdef GASNETI_CACHE_LINE_BYTES
#define GASNETT_CACHE_LINE_BYTES GASNETI_CACHE_LINE_BYTES
#else
#define GASNETT_CACHE_LINE_BYTES 64
#endif

/* PLATFORM_*: compiler, OS and architecture (gasnet_portable_platform.h). */
#include <gasnet_portable_platform.h>
#if !defined(PLATFORM_COMPILER_GNU) && !defined(PLATFORM_COMPILER_CLANG)
#error "gasnet_tools.h needs gcc or clang (it uses GNU C builtins and attributes)"
#endif
#define GASNETT_PLATFORM_COMPILER_IDSTR PLATFORM_COMPILER_IDSTR
#define GASNETT_PLATFORM_COMPILER_FAMILYID PLATFORM_COMPILER_FAMILYID
#define GASNETT_PLATFORM_COMPILER_ID PLATFORM_COMPILER_ID
#define GASNETT_PLATFORM_COMPILER_VERSION PLATFORM_COMPILER_VERSION
#if defined(__x86_64__)
#define GASNETI_ARCH_NAME "x86_64"
#elif defined(__i386__)
#define GASNETI_ARCH_NAME "i686"
#elif defined(__aarch64__)
#define GASNETI_ARCH_NAME "aarch64"
#elif defined(__powerpc64__)
#define GASNETI_ARCH_NAME "powerpc64"
#else
#define GASNETI_ARCH_NAME "unknown"
#endif
#if defined(__linux__)
#define GASNETT_SYSTEM_TUPLE GASNETI_ARCH_NAME "-pc-linux-gnu"
#else
#define GASNETT_SYSTEM_TUPLE GASNETI_ARCH_NAME "-unknown-unknown"
#endif

/* printf formats of size_t (SZ) and ptrdiff_t (PD), and their scanf
 * forms: the length modifier of the integer type each is ("l" on LP64),
 * so that C++98 and C89 accept them too. */
#if __SIZEOF_SIZE_T__ == __SIZEOF_LONG__
#define GASNETI_SZ_MOD "l"
#else
#define GASNETI_SZ_MOD ""
#endif
#if __SIZEOF_PTRDIFF_T__ == __SIZEOF_LONG__
#define GASNETI_PD_MOD "l"
#else
#define GASNETI_PD_MOD ""
#endif
#define PRIdSZ GASNETI_SZ_MOD "d"
#define PRIiSZ GASNETI_SZ_MOD "i"
#define PRIoSZ GASNETI_SZ_MOD "o"
#define PRIuSZ GASNETI_SZ_MOD "u"
#define PRIxSZ GASNETI_SZ_MOD "x"
#define PRIXSZ GASNETI_SZ_MOD "X"
#define PRIdPD GASNETI_PD_MOD "d"
#define PRIiPD GASNETI_PD_MOD "i"
#define PRIoPD GASNETI_PD_MOD "o"
#define PRIuPD GASNETI_PD_MOD "u"
#define PRIxPD GASNETI_PD_MOD "x"
#define PRIXPD GASNETI_PD_MOD "X"
#define SCNdSZ GASNETI_SZ_MOD "d"
#define SCNiSZ GASNETI_SZ_MOD "i"
#define SCNoSZ GASNETI_SZ_MOD "o"
#define SCNuSZ GASNETI_SZ_MOD "u"
#define SCNxSZ GASNETI_SZ_MOD "x"
#define SCNdPD GASNETI_PD_MOD "d"
#define SCNiPD GASNETI_PD_MOD "i"
#define SCNoPD GASNETI_PD_MOD "o"
#define SCNuPD GASNETI_PD_MOD "u"
#define SCNxPD GASNETI_PD_MOD "x"

/* What the compiler offers that the headers use (gcc and clang: all). */
#define GASNETT_USE_BUILTIN_CONSTANT_P 1
#define GASNETT_USE_BUILTIN_EXPECT 1
#define GASNETT_USE_BUILTIN_PREFETCH 1
#define GASNETT_USE_BUILTIN_UNREACHABLE 1
#define GASNETT_USE_CTYPE_WRAPPERS 0
#define GASNETT_USE_GCC_ATTRIBUTE_ALWAYSINLINE 1
#define GASNETT_USE_GCC_ATTRIBUTE_COLD 1
#define GASNETT_USE_GCC_ATTRIBUTE_CONST 1
#define GASNETT_USE_GCC_ATTRIBUTE_DEPRECATED 1
#define GASNETT_USE_GCC_ATTRIBUTE_FALLTHROUGH 1
#define GASNETT_USE_GCC_ATTRIBUTE_FORMAT 1
#define GASNETT_USE_GCC_ATTRIBUTE_FORMAT_FUNCPTR 1
#define GASNETT_USE_GCC_ATTRIBUTE_FORMAT_FUNCPTR_ARG 1
#define GASNETT_USE_GCC_ATTRIBUTE_HOT 1
#define GASNETT_USE_GCC_ATTRIBUTE_MALLOC 1
#define GASNETT_USE_GCC_ATTRIBUTE_MAYALIAS 1
#define GASNETT_USE_GCC_ATTRIBUTE_NOINLINE 1
#define GASNETT_USE_GCC_ATTRIBUTE_NORETURN 1
#define GASNETT_USE_GCC_ATTRIBUTE_PURE 1
#define GASNETT_USE_GCC_ATTRIBUTE_USED 1
#define GASNETT_USE_GCC_ATTRIBUTE_WARNUNUSEDRESULT 1
/* A statement: falling through to the next case label is intended. */
#define GASNETT_FALLTHROUGH __attribute__((__fallthrough__));

/* Swallow 1..8 arguments (evaluated) in an expression, without warnings. */
#define GASNETT_UNUSED_ARGS1(a) ((void)(a))
#define GASNETT_UNUSED_ARGS2(a, b) ((void)(a), (void)(b))
#define GASNETT_UNUSED_ARGS3(a, b, c) (GASNETT_UNUSED_ARGS2(a, b), (void)(c))
#define GASNETT_UNUSED_ARGS4(a, b, c, d) (GASNETT_UNUSED_ARGS3(a, b, c), (void)(d))
#define GASNETT_UNUSED_ARGS5(a, b, c, d, e) (GASNETT_UNUSED_ARGS4(a, b, c, d), (void)(e))
#define GASNETT_UNUSED_ARGS6(a, b, c, d, e, f) (GASNETT_UNUSED_ARGS5(a, b, c, d, e), (void)(f))
#define GASNETT_UNUSED_ARGS7(a, b, c, d, e, f, g) (GASNETT_UNUSED_ARGS6(a, b, c, d, e, f), (void)(g))
#define GASNETT_UNUSED_ARGS8(a, b, c, d, e, f, g, h) (GASNETT_UNUSED_ARGS7(a, b, c, d, e, f, g), (void)(h))

#define GASNETT_TIMER_CONFIG timers_posix_monotonic
#define GASNETT_MEMBAR_CONFIG membars_atomic_builtins
#define GASNETT_ATOMIC_CONFIG atomics_atomic_builtins
#define GASNETT_ATOMIC32_CONFIG atomics_atomic_builtins
#define GASNETT_ATOMIC64_CONFIG atomics_atomic_builtins
#if defined(GASNET_DEBUG)
#define GASNETT_DEBUG_CONFIG debug
#else
#define GASNETT_DEBUG_CONFIG nodebug
#endif
#if PLATFORM_ARCH_64
#define GASNETT_PTR_CONFIG 64bit
#else
#define GASNETT_PTR_CONFIG 32bit
#endif
/* The build's configuration choices (there is no configure script). */
#ifdef GASNETI_CONFIGURE_ARGS
#define GASNETT_CONFIGURE_ARGS GASNETI_CONFIGURE_ARGS
#else
#define GASNETT_CONFIGURE_ARGS ""
#endif
#if defined(GASNETT_LITE_MODE) || !defined(GASNETT_THREAD_SAFE)
#define GASNETT_THREAD_MODEL SEQ
#define GASNETT_THREAD_SINGLE 1
#else
#define GASNETT_THREAD_MODEL PAR
#endif
#if defined(GASNETT_LITE_MODE)
#define GASNETI_THREAD_MODEL_STR "LITE"
#elif defined(GASNETT_THREAD_SAFE)
#define GASNETI_THREAD_MODEL_STR "PAR"
#else
#define GASNETI_THREAD_MODEL_STR "SEQ"
#endif
#if defined(GASNET_DEBUG)
#define GASNETI_DEBUG_STR "debug"
#else
#define GASNETI_DEBUG_STR "nodebug"
#endif
#define GASNETT_CONFIG_STRING                                                   \
    "RELEASE=" _STRINGIFY(GASNETT_RELEASE_VERSION_MAJOR) "."                    \
    _STRINGIFY(GASNETT_RELEASE_VERSION_MINOR) "."                               \
    _STRINGIFY(GASNETT_RELEASE_VERSION_PATCH) ",SPEC=1.20,TOOLS_"                \
    GASNETI_THREAD_MODEL_STR "," GASNETI_DEBUG_STR ",PTR=" _STRINGIFY(          \
        __SIZEOF_POINTER__) "byte," _STRINGIFY(GASNETT_TIMER_CONFIG) ","        \
    _STRINGIFY(GASNETT_MEMBAR_CONFIG) "," _STRINGIFY(GASNETT_ATOMIC_CONFIG)

GASNETT_BEGIN_EXTERNC

/* ---- 3. memory barriers --------------------------------------------- */

/* C11 fences: wmb = release, rmb = acquire, mb = seq_cst. gcc cannot tell
 * ThreadSanitizer about a fence and warns; the fence is still emitted. */
#if defined(__SANITIZE_THREAD__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wtsan"
#endif
static inline void gasneti_fence_release(void) { __atomic_thread_fence(__ATOMIC_RELEASE); }
static inline void gasneti_fence_acquire(void) { __atomic_thread_fence(__ATOMIC_ACQUIRE); }
static inline void gasneti_fence_full(void) { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
#if defined(__SANITIZE_THREAD__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
#define gasnett_local_wmb() gasneti_fence_release()
#define gasnett_local_rmb() gasneti_fence_acquire()
#define gasnett_local_mb() gasneti_fence_full()
#define gasnett_compiler_fence() __asm__ __volatile__("" : : : "memory")
#if defined(GASNETT_THREAD_SAFE)
#define gasnett_weak_wmb() gasnett_local_wmb()
#define gasnett_weak_rmb() gasnett_local_rmb()
#define gasnett_weak_mb() gasnett_local_mb()
#else
#define gasnett_weak_wmb() ((void)0)
#define gasnett_weak_rmb() ((void)0)
#define gasnett_weak_mb() ((void)0)
#endif
#if defined(__x86_64__) || defined(__i386__)
#define gasnett_spinloop_hint() __asm__ __volatile__("pause" : : : "memory")
#else
#define gasnett_spinloop_hint() gasnett_compiler_fence()
#endif

/* ---- 2. timers: CLOCK_MONOTONIC, one tick is one nanosecond ---------- */

typedef uint64_t gasneti_tick_t;
#define gasnett_tick_t gasneti_tick_t
#define GASNETT_TICK_MIN ((gasnett_tick_t)0)
#define GASNETT_TICK_MAX (~(gasnett_tick_t)0)

#if defined(CLOCK_MONOTONIC)
static inline gasnett_tick_t gasnett_ticks_now(void)
{
    struct timespec _ts;
    clock_gettime(CLOCK_MONOTONIC, &_ts);
    return (gasnett_tick_t)_ts.tv_sec * 1000000000u + (gasnett_tick_t)_ts.tv_nsec;
}
#elif !defined(GASNETT_LITE_MODE)
/* Strict ISO modes hide clock_gettime; the library always has it. */
extern gasnett_tick_t gasneti_ticks_now_lib(void);
#define gasnett_ticks_now() gasneti_ticks_now_lib()
#else
#error "GASNETT_LITE_MODE needs CLOCK_MONOTONIC: compile with POSIX features (e.g. -std=gnu11)"
#endif
#define gasnett_ticks_to_ns(t) ((uint64_t)(t))
#define gasnett_ticks_to_us(t) ((uint64_t)(t) / 1000u)

/* Measures the smallest non-zero step between two readings (granularity)
 * and the cost of one reading, both in ns; both come out positive. */
static inline void gasneti_ticks_calibrate(double *_granularity_ns, double *_overhead_ns)
{
    gasnett_tick_t _best = GASNETT_TICK_MAX, _start, _end;
    uint64_t _reads = 0;
    int _i;
    for (_i = 0; _i < 1000; _i++) {
        gasnett_tick_t _t0 = gasnett_ticks_now(), _t1;
        while ((_t1 = gasnett_ticks_now()) == _t0) {
        }
        if (_t1 - _t0 < _best) _best = _t1 - _t0;
    }
    _start = gasnett_ticks_now();
    do {
        for (_i = 0; _i < 1000; _i++) (void)gasnett_ticks_now();
        _reads += 1000;
    } while ((_end = gasnett_ticks_now()) == _start);
    *_granularity_ns = (double)_best;
    *_overhead_ns = (double)(_end - _start) / (double)_reads;
}

#if defined(GASNETT_LITE_MODE)
/* No library to cache in: measure at each call. */
static inline double gasnett_tick_granularityus(void)
{
    double g, o;
    gasneti_ticks_calibrate(&g, &o);
    return g / 1000.0;
}
static inline double gasnett_tick_overheadus(void)
{
    double g, o;
    gasneti_ticks_calibrate(&g, &o);
    return o / 1000.0;
}
#else
extern double gasnett_tick_granularityus(void); /* measured once */
extern double gasnett_tick_overheadus(void);
extern uint64_t gasnett_gettimeofday_us(void);
#endif

#if !defined(GASNETT_LITE_MODE)

/* ---- 8. miscellaneous (declared first: the lock helpers use them) --- */

GASNETT_FORMAT_PRINTF(gasnett_fatalerror, 1, 2,
                      extern void gasnett_fatalerror(const char *_fmt, ...)) GASNETT_NORETURN;
/* The same, for messages that carry their own position (GASNet-EX name). */
GASNETT_FORMAT_PRINTF(gasnett_fatalerror_nopos, 1, 2,
                      extern void gasnett_fatalerror_nopos(const char *_fmt, ...)) GASNETT_NORETURN;
extern void gasnett_killmyprocess(int _exitcode) GASNETT_NORETURN;
extern const char *gasnett_performance_warning_str(void);
#define gasnett_sched_yield() sched_yield()
extern int gasnett_cpu_count(void);
extern const char *gasnett_gethostname(void);
typedef void (*gasneti_sighandlerfn_t)(int);
#define gasnett_sighandlerfn_t gasneti_sighandlerfn_t
extern gasneti_sighandlerfn_t gasnett_reghandler(int _sigtocatch, gasneti_sighandlerfn_t _fn);
/* "SIGINT" for SIGINT; NULL for a number that is no signal here. */
extern const char *gasnett_signame_fromval(int _sigval);
/* Binds the calling thread to CPU rank % (CPUs); 0 when bound, -1 when it
 * could not be (rank < 0, a CPU this process may not use). */
extern int gasnett_set_affinity(int _rank);
#if defined(__linux__) /* sched_setaffinity binds the calling thread */
#define GASNETT_SET_AFFINITY_SUPPORT 1
#define GASNETT_SET_AFFINITY(_rank) gasnett_set_affinity(_rank)
#endif
extern uint64_t gasnett_checksum(const void *_p, int _numbytes);
extern int64_t gasnett_parse_int(const char *_str, uint64_t _mem_size_multiplier);
extern char *gasnett_format_number(int64_t _val, char *_buf, size_t _bufsz, int _is_mem_size);
extern size_t gasnett_count0s(const void *_src, size_t _bytes);
extern size_t gasnett_count0s_copy(void *GASNETT_RESTRICT _dst, const void *GASNETT_RESTRICT _src,
                                   size_t _bytes);
extern int gasnett_count0s_uint32_t(uint32_t _v);
extern int gasnett_count0s_uint64_t(uint64_t _v);
#if PLATFORM_ARCH_64
#define gasnett_count0s_uintptr_t(_v) gasnett_count0s_uint64_t((uint64_t)(_v))
#else
#define gasnett_count0s_uintptr_t(_v) gasnett_count0s_uint32_t((uint32_t)(_v))
#endif
#if defined(HAVE_MMAP)
extern void *gasnett_mmap(uintptr_t size);
#endif
extern uint64_t gasnett_getPhysMemSz(int _failureIsFatal);
extern int gasnett_isLittleEndian(void);
extern void gasnett_flush_streams(void);
/* Flushes the output streams at the end of a run (there are no trace or
 * statistics files to close). */
extern void gasnett_close_streams(void);
/* The running executable's path (/proc/self/exe; else argv[0]'s name). */
extern const char *gasnett_exe_name(void);
/* "func at file:line" of the place it is written, in a buffer of the
 * calling thread that the next call reuses. */
extern const char *gasneti_build_loc_str(const char *_func, const char *_file, int _line);
#define gasnett_current_loc gasneti_build_loc_str(GASNETT_CURRENT_FUNCTION, __FILE__, __LINE__)

/* Assertions. gasneti_assert checks only in debug builds (a fatal error
 * naming the expression and the place); gasnett_assume(e) lets the
 * compiler take e as true (debug builds check it); gasnett_unreachable()
 * marks a place control never reaches (debug builds: a fatal error). */
#define gasneti_builtin_unreachable() __builtin_unreachable()
#if defined(GASNET_DEBUG)
#define gasneti_assert(e)                                                                     \
    (GASNETT_PREDICT_TRUE(e) ? (void)0                                                         \
                             : gasnett_fatalerror("assertion failure at %s: %s", gasnett_current_loc, #e))
#define gasnett_assume(e) gasneti_assert(e)
#define gasneti_unreachable() gasnett_fatalerror("unreachable code reached at %s", gasnett_current_loc)
#else
#define gasneti_assert(e) ((void)0)
#define gasnett_assume(e) (GASNETT_PREDICT_TRUE(e) ? (void)0 : gasneti_builtin_unreachable())
#define gasneti_unreachable() gasneti_builtin_unreachable()
#endif
#define gasnett_unreachable gasneti_unreachable

/* Copies: the reference's small-size fast paths are what memcpy does. */
#define GASNETT_FAST_ALIGNED_MEMCPY memcpy
#define GASNETT_FAST_UNALIGNED_MEMCPY memcpy
/* A register value (gex_RMA_Value_t, the low nbytes of a uint64_t: 1, 2, 4
 * or 8) stored to dst, and read from src. */
#define GASNETT_VALUE_ASSIGN gasneti_value_assign
#define GASNETT_VALUE_RETURN gasneti_value_return
static inline void gasneti_value_assign(void *_dst, uint64_t _v, size_t _nbytes)
{
    switch (_nbytes) {
    case 1: { uint8_t _x = (uint8_t)_v; memcpy(_dst, &_x, 1); break; }
    case 2: { uint16_t _x = (uint16_t)_v; memcpy(_dst, &_x, 2); break; }
    case 4: { uint32_t _x = (uint32_t)_v; memcpy(_dst, &_x, 4); break; }
    case 8: memcpy(_dst, &_v, 8); break;
    default: gasnett_fatalerror("GASNETT_VALUE_ASSIGN: %lu bytes (1, 2, 4 or 8)", (unsigned long)_nbytes);
    }
}
static inline uint64_t gasneti_value_return(const void *_src, size_t _nbytes)
{
    switch (_nbytes) {
    case 1: { uint8_t _x; memcpy(&_x, _src, 1); return _x; }
    case 2: { uint16_t _x; memcpy(&_x, _src, 2); return _x; }
    case 4: { uint32_t _x; memcpy(&_x, _src, 4); return _x; }
    case 8: { uint64_t _x; memcpy(&_x, _src, 8); return _x; }
    default: gasnett_fatalerror("GASNETT_VALUE_RETURN: %lu bytes (1, 2, 4 or 8)", (unsigned long)_nbytes);
    }
}
extern void gasnett_freezeForDebuggerNow(volatile int *_flag, const char *_flagname);
extern void gasnett_freezeForDebuggerErr(void);

/* Sleeps at least ns nanoseconds of gasnett_ticks_now() time (signals do
 * not cut it short); 0 on success, -1 with errno if the clock fails. */
extern int gasnett_nsleep(uint64_t _ns);
/* The library's release: MAJOR*1000000 + MINOR*10000 + PATCH of its
 * GASNET_RELEASE_VERSION_* macros, and "MAJOR.MINOR.PATCH". */
extern uint64_t gasnett_release_version(void);
extern const char *gasnett_release_version_str(void);
/* Raise the soft limit of one resource (RLIMIT_*) or of the usual set
 * (CPU, data, RSS, stack, address space, processes, open files, locked
 * memory) to the hard limit; non-zero when every limit could be raised. */
extern int gasnett_maximize_rlimit(int _resource, const char *_lim_desc);
extern int gasnett_maximize_rlimits(void);

/* ---- 4. atomics ------------------------------------------------------ */

#define GASNETT_ATOMIC_NONE 0
#define GASNETT_ATOMIC_RMB_PRE 0x1
#define GASNETT_ATOMIC_WMB_PRE 0x2
#define GASNETT_ATOMIC_RMB_POST 0x4
#define GASNETT_ATOMIC_WMB_POST 0x8
#define GASNETT_ATOMIC_RMB_POST_IF_TRUE 0x10
#define GASNETT_ATOMIC_RMB_POST_IF_FALSE 0x20
#define GASNETT_ATOMIC_MB_PRE (GASNETT_ATOMIC_RMB_PRE | GASNETT_ATOMIC_WMB_PRE)
#define GASNETT_ATOMIC_MB_POST (GASNETT_ATOMIC_RMB_POST | GASNETT_ATOMIC_WMB_POST)
#define GASNETT_ATOMIC_REL GASNETT_ATOMIC_WMB_PRE
#define GASNETT_ATOMIC_ACQ GASNETT_ATOMIC_RMB_POST
#define GASNETT_ATOMIC_ACQ_IF_TRUE GASNETT_ATOMIC_RMB_POST_IF_TRUE
#define GASNETT_ATOMIC_ACQ_IF_FALSE GASNETT_ATOMIC_RMB_POST_IF_FALSE

/* One member of exactly the counter's size, so the types overlay any
 * same-size object. */
typedef struct { volatile uint32_t _ctr; } gasneti_atomic32_t;
typedef struct { volatile uint64_t _ctr; } gasneti_atomic64_t;
#define gasnett_atomic32_t gasneti_atomic32_t
#define gasnett_atomic64_t gasneti_atomic64_t
#define gasnett_atomic32_init(_v) { (uint32_t)(_v) }
#define gasnett_atomic64_init(_v) { (uint64_t)(_v) }

/* The fences an operation's flags ask for; `result` is the outcome of a
 * compare-and-swap or decrement-and-test (1 for other operations). */
static inline void gasneti_atomic_fence(int _want_r, int _want_w)
{
    if (_want_r && _want_w) gasnett_local_mb();
    else if (_want_r) gasnett_local_rmb();
    else if (_want_w) gasnett_local_wmb();
}
static inline void gasneti_atomic_fence_pre(int _flags)
{
    gasneti_atomic_fence(_flags & GASNETT_ATOMIC_RMB_PRE, _flags & GASNETT_ATOMIC_WMB_PRE);
}
static inline void gasneti_atomic_fence_post(int _flags, int _result)
{
    int _r = (_flags & GASNETT_ATOMIC_RMB_POST) ||
            (_result && (_flags & GASNETT_ATOMIC_RMB_POST_IF_TRUE)) ||
            (!_result && (_flags & GASNETT_ATOMIC_RMB_POST_IF_FALSE));
    gasneti_atomic_fence(_r, _flags & GASNETT_ATOMIC_WMB_POST);
}

/* The ten operations for one width. `real` (a constant at every call
 * site) picks a seq_cst atomic operation or plain loads and stores; either
 * way the fences of `flags` surround it. */
#define GASNETI_ATOMIC_OPS(W)                                                              \
    static inline uint##W##_t gasneti_atomic##W##_read(gasnett_atomic##W##_t *_p, int _flags, \
                                                       int _real)                            \
    {                                                                                       \
        uint##W##_t _v;                                                                      \
        gasneti_atomic_fence_pre(_flags);                                                    \
        _v = _real ? __atomic_load_n(&_p->_ctr, __ATOMIC_SEQ_CST) : _p->_ctr;                     \
        gasneti_atomic_fence_post(_flags, 1);                                                \
        return _v;                                                                           \
    }                                                                                       \
    static inline void gasneti_atomic##W##_set(gasnett_atomic##W##_t *_p, uint##W##_t _v,     \
                                               int _flags, int _real)                         \
    {                                                                                       \
        gasneti_atomic_fence_pre(_flags);                                                    \
        if (_real) __atomic_store_n(&_p->_ctr, _v, __ATOMIC_SEQ_CST);                           \
        else _p->_ctr = _v;                                                                    \
        gasneti_atomic_fence_post(_flags, 1);                                                \
    }                                                                                       \
    /* add: returns the new value; the other updates are built on it */                    \
    static inline uint##W##_t gasneti_atomic##W##_add(gasnett_atomic##W##_t *_p,            \
                                                      uint##W##_t _v, int _flags, int _real)   \
    {                                                                                       \
        uint##W##_t _n;                                                                      \
        gasneti_atomic_fence_pre(_flags);                                                    \
        if (_real) _n = __atomic_add_fetch(&_p->_ctr, _v, __ATOMIC_SEQ_CST);                     \
        else {                                                                              \
            _n = (uint##W##_t)(_p->_ctr + _v);                                                  \
            _p->_ctr = _n;                                                                     \
        }                                                                                   \
        gasneti_atomic_fence_post(_flags, _n == 0);                                           \
        return _n;                                                                           \
    }                                                                                       \
    static inline uint##W##_t gasneti_atomic##W##_swap(gasnett_atomic##W##_t *_p,           \
                                                       uint##W##_t _v, int _flags, int _real)  \
    {                                                                                       \
        uint##W##_t _old;                                                                    \
        gasneti_atomic_fence_pre(_flags);                                                    \
        if (_real) _old = __atomic_exchange_n(&_p->_ctr, _v, __ATOMIC_SEQ_CST);                  \
        else {                                                                              \
            _old = _p->_ctr;                                                                   \
            _p->_ctr = _v;                                                                     \
        }                                                                                   \
        gasneti_atomic_fence_post(_flags, 1);                                                \
        return _old;                                                                         \
    }                                                                                       \
    static inline int gasneti_atomic##W##_cas(gasnett_atomic##W##_t *_p, uint##W##_t _oldv,   \
                                              uint##W##_t _newv, int _flags, int _real)        \
    {                                                                                       \
        int _ok;                                                                             \
        gasneti_atomic_fence_pre(_flags);                                                    \
        if (_real)                                                                           \
            _ok = __atomic_compare_exchange_n(&_p->_ctr, &_oldv, _newv, 0, __ATOMIC_SEQ_CST,     \
                                             __ATOMIC_SEQ_CST);                             \
        else if ((_ok = (_p->_ctr == _oldv)))                                                   \
            _p->_ctr = _newv;                                                                  \
        gasneti_atomic_fence_post(_flags, _ok);                                               \
        return _ok;                                                                          \
    }

GASNETI_ATOMIC_OPS(32)
GASNETI_ATOMIC_OPS(64)

/* Maps one family (prefix F, width W, real = 0 or 1) onto the operations. */
#define gasneti_atomic_read(W, _p, f, _real) gasneti_atomic##W##_read(_p, f, _real)
#define gasneti_atomic_set(W, _p, _v, f, _real) gasneti_atomic##W##_set(_p, (uint##W##_t)(_v), f, _real)
#define gasneti_atomic_add(W, _p, _v, f, _real) gasneti_atomic##W##_add(_p, (uint##W##_t)(_v), f, _real)
#define gasneti_atomic_sub(W, _p, _v, f, _real) \
    gasneti_atomic##W##_add(_p, (uint##W##_t)(0 - (uint##W##_t)(_v)), f, _real)
#define gasneti_atomic_dec_test(W, _p, f, _real) (gasneti_atomic##W##_add(_p, (uint##W##_t)-1, f, _real) == 0)
#define gasneti_atomic_swap(W, _p, _v, f, _real) gasneti_atomic##W##_swap(_p, (uint##W##_t)(_v), f, _real)
#define gasneti_atomic_cas(W, _p, o, _n, f, _real) \
    gasneti_atomic##W##_cas(_p, (uint##W##_t)(o), (uint##W##_t)(_n), f, _real)

#if defined(GASNETT_THREAD_SAFE)
#define GASNETI_ATOMIC_REAL 1
#else
#define GASNETI_ATOMIC_REAL 0
#endif

/* gasnett_atomic32_*, gasnett_atomic64_*: atomic only in PAR */
#define gasnett_atomic32_read(_p, f) gasneti_atomic_read(32, _p, f, GASNETI_ATOMIC_REAL)
#define gasnett_atomic32_set(_p, _v, f) gasneti_atomic_set(32, _p, _v, f, GASNETI_ATOMIC_REAL)
#define gasnett_atomic32_increment(_p, f) ((void)gasneti_atomic_add(32, _p, 1, f, GASNETI_ATOMIC_REAL))
#define gasnett_atomic32_decrement(_p, f) ((void)gasneti_atomic_sub(32, _p, 1, f, GASNETI_ATOMIC_REAL))
#define gasnett_atomic32_decrement_and_test(_p, f) gasneti_atomic_dec_test(32, _p, f, GASNETI_ATOMIC_REAL)
#define gasnett_atomic32_compare_and_swap(_p, o, _n, f) gasneti_atomic_cas(32, _p, o, _n, f, GASNETI_ATOMIC_REAL)
#define gasnett_atomic32_swap(_p, _v, f) gasneti_atomic_swap(32, _p, _v, f, GASNETI_ATOMIC_REAL)
#define gasnett_atomic32_add(_p, _v, f) gasneti_atomic_add(32, _p, _v, f, GASNETI_ATOMIC_REAL)
#define gasnett_atomic32_subtract(_p, _v, f) gasneti_atomic_sub(32, _p, _v, f, GASNETI_ATOMIC_REAL)

#define gasnett_atomic64_read(_p, f) gasneti_atomic_read(64, _p, f, GASNETI_ATOMIC_REAL)
#define gasnett_atomic64_set(_p, _v, f) gasneti_atomic_set(64, _p, _v, f, GASNETI_ATOMIC_REAL)
#define gasnett_atomic64_increment(_p, f) ((void)gasneti_atomic_add(64, _p, 1, f, GASNETI_ATOMIC_REAL))
#define gasnett_atomic64_decrement(_p, f) ((void)gasneti_atomic_sub(64, _p, 1, f, GASNETI_ATOMIC_REAL))
#define gasnett_atomic64_decrement_and_test(_p, f) gasneti_atomic_dec_test(64, _p, f, GASNETI_ATOMIC_REAL)
#define gasnett_atomic64_compare_and_swap(_p, o, _n, f) gasneti_atomic_cas(64, _p, o, _n, f, GASNETI_ATOMIC_REAL)
#define gasnett_atomic64_swap(_p, _v, f) gasneti_atomic_swap(64, _p, _v, f, GASNETI_ATOMIC_REAL)
#define gasnett_atomic64_add(_p, _v, f) gasneti_atomic_add(64, _p, _v, f, GASNETI_ATOMIC_REAL)
#define gasnett_atomic64_subtract(_p, _v, f) gasneti_atomic_sub(64, _p, _v, f, GASNETI_ATOMIC_REAL)

/* gasnett_atomic_*: the 32-bit family under its own names */
typedef gasneti_atomic32_t gasneti_atomic_t;
typedef uint32_t gasneti_atomic_val_t;
typedef int32_t gasneti_atomic_sval_t;
#define gasnett_atomic_t gasneti_atomic_t
#define gasnett_atomic_val_t gasneti_atomic_val_t
#define gasnett_atomic_sval_t gasneti_atomic_sval_t
#define GASNETT_HAVE_ATOMIC_CAS 1
#define GASNETT_HAVE_ATOMIC_ADD_SUB 1
#define GASNETT_ATOMIC_MAX ((gasnett_atomic_val_t)UINT32_MAX)
#define GASNETT_ATOMIC_SIGNED_MIN ((gasnett_atomic_sval_t)INT32_MIN)
#define GASNETT_ATOMIC_SIGNED_MAX ((gasnett_atomic_sval_t)INT32_MAX)
#define gasnett_atomic_signed(_v) ((gasnett_atomic_sval_t)(_v))
#define gasnett_atomic_init(_v) gasnett_atomic32_init(_v)
#define gasnett_atomic_read(_p, f) gasnett_atomic32_read(_p, f)
#define gasnett_atomic_set(_p, _v, f) gasnett_atomic32_set(_p, _v, f)
#define gasnett_atomic_increment(_p, f) gasnett_atomic32_increment(_p, f)
#define gasnett_atomic_decrement(_p, f) gasnett_atomic32_decrement(_p, f)
#define gasnett_atomic_decrement_and_test(_p, f) gasnett_atomic32_decrement_and_test(_p, f)
#define gasnett_atomic_compare_and_swap(_p, o, _n, f) gasnett_atomic32_compare_and_swap(_p, o, _n, f)
#define gasnett_atomic_swap(_p, _v, f) gasnett_atomic32_swap(_p, _v, f)
#define gasnett_atomic_add(_p, _v, f) gasnett_atomic32_add(_p, _v, f)
#define gasnett_atomic_subtract(_p, _v, f) gasnett_atomic32_subtract(_p, _v, f)

/* Strong atomics: atomic in every model. 32- and 64-bit __atomic
 * operations are lock-free where gcc says so, hence signal-safe. */
#define gasnett_strongatomic_t gasneti_atomic_t
#define gasnett_strongatomic32_t gasneti_atomic32_t
#define gasnett_strongatomic64_t gasneti_atomic64_t
#define GASNETT_HAVE_STRONGATOMIC_CAS 1
#define GASNETT_HAVE_STRONGATOMIC_ADD_SUB 1
#if !defined(__GCC_ATOMIC_INT_LOCK_FREE) || __GCC_ATOMIC_INT_LOCK_FREE != 2
#define GASNETT_STRONGATOMIC_NOT_SIGNALSAFE 1
#define GASNETT_STRONGATOMIC32_NOT_SIGNALSAFE 1
#endif
#if !defined(__GCC_ATOMIC_LLONG_LOCK_FREE) || __GCC_ATOMIC_LLONG_LOCK_FREE != 2
#define GASNETT_STRONGATOMIC64_NOT_SIGNALSAFE 1
#endif
#define gasnett_strongatomic32_init(_v) gasnett_atomic32_init(_v)
#define gasnett_strongatomic32_read(_p, f) gasneti_atomic_read(32, _p, f, 1)
#define gasnett_strongatomic32_set(_p, _v, f) gasneti_atomic_set(32, _p, _v, f, 1)
#define gasnett_strongatomic32_increment(_p, f) ((void)gasneti_atomic_add(32, _p, 1, f, 1))
#define gasnett_strongatomic32_decrement(_p, f) ((void)gasneti_atomic_sub(32, _p, 1, f, 1))
#define gasnett_strongatomic32_decrement_and_test(_p, f) gasneti_atomic_dec_test(32, _p, f, 1)
#define gasnett_strongatomic32_compare_and_swap(_p, o, _n, f) gasneti_atomic_cas(32, _p, o, _n, f, 1)
#define gasnett_strongatomic32_swap(_p, _v, f) gasneti_atomic_swap(32, _p, _v, f, 1)
#define gasnett_strongatomic32_add(_p, _v, f) gasneti_atomic_add(32, _p, _v, f, 1)
#define gasnett_strongatomic32_subtract(_p, _v, f) gasneti_atomic_sub(32, _p, _v, f, 1)

#define gasnett_strongatomic64_init(_v) gasnett_atomic64_init(_v)
#define gasnett_strongatomic64_read(_p, f) gasneti_atomic_read(64, _p, f, 1)
#define gasnett_strongatomic64_set(_p, _v, f) gasneti_atomic_set(64, _p, _v, f, 1)
#define gasnett_strongatomic64_increment(_p, f) ((void)gasneti_atomic_add(64, _p, 1, f, 1))
#define gasnett_strongatomic64_decrement(_p, f) ((void)gasneti_atomic_sub(64, _p, 1, f, 1))
#define gasnett_strongatomic64_decrement_and_test(_p, f) gasneti_atomic_dec_test(64, _p, f, 1)
#define gasnett_strongatomic64_compare_and_swap(_p, o, _n, f) gasneti_atomic_cas(64, _p, o, _n, f, 1)
#define gasnett_strongatomic64_swap(_p, _v, f) gasneti_atomic_swap(64, _p, _v, f, 1)
#define gasnett_strongatomic64_add(_p, _v, f) gasneti_atomic_add(64, _p, _v, f, 1)
#define gasnett_strongatomic64_subtract(_p, _v, f) gasneti_atomic_sub(64, _p, _v, f, 1)

#define gasnett_strongatomic_init(_v) gasnett_strongatomic32_init(_v)
#define gasnett_strongatomic_read(_p, f) gasnett_strongatomic32_read(_p, f)
#define gasnett_strongatomic_set(_p, _v, f) gasnett_strongatomic32_set(_p, _v, f)
#define gasnett_strongatomic_increment(_p, f) gasnett_strongatomic32_increment(_p, f)
#define gasnett_strongatomic_decrement(_p, f) gasnett_strongatomic32_decrement(_p, f)
#define gasnett_strongatomic_decrement_and_test(_p, f) gasnett_strongatomic32_decrement_and_test(_p, f)
#define gasnett_strongatomic_compare_and_swap(_p, o, _n, f) gasnett_strongatomic32_compare_and_swap(_p, o, _n, f)
#define gasnett_strongatomic_swap(_p, _v, f) gasnett_strongatomic32_swap(_p, _v, f)
#define gasnett_strongatomic_add(_p, _v, f) gasnett_strongatomic32_add(_p, _v, f)
#define gasnett_strongatomic_subtract(_p, _v, f) gasnett_strongatomic32_subtract(_p, _v, f)

/* ---- 5. mutex, condition variable, rwlock ---------------------------- */

#if defined(GASNETT_THREAD_SAFE) || (defined(GASNETT_USE_TRUE_MUTEXES) && GASNETT_USE_TRUE_MUTEXES)
/* A pthread call that fails means a broken program: stop with its name. */
static inline void gasneti_pthread_check(int _rc, const char *_what)
{
    if_pf(_rc) gasnett_fatalerror("%s failed: %s", _what, strerror(_rc));
}
typedef pthread_mutex_t gasneti_mutex_t;
#define GASNETT_MUTEX_INITIALIZER PTHREAD_MUTEX_INITIALIZER
#define gasnett_mutex_init(_p) gasneti_pthread_check(pthread_mutex_init(_p, NULL), "pthread_mutex_init")
#define gasnett_mutex_destroy(_p) gasneti_pthread_check(pthread_mutex_destroy(_p), "pthread_mutex_destroy")
#define gasnett_mutex_destroy_ignoreerr(_p) pthread_mutex_destroy(_p)
#define gasnett_mutex_lock(_p) gasneti_pthread_check(pthread_mutex_lock(_p), "pthread_mutex_lock")
#define gasnett_mutex_unlock(_p) gasneti_pthread_check(pthread_mutex_unlock(_p), "pthread_mutex_unlock")
#define gasnett_mutex_trylock(_p) pthread_mutex_trylock(_p)

typedef pthread_cond_t gasneti_cond_t;
#define GASNETT_COND_INITIALIZER PTHREAD_COND_INITIALIZER
#define gasnett_cond_init(_p) gasneti_pthread_check(pthread_cond_init(_p, NULL), "pthread_cond_init")
#define gasnett_cond_destroy(_p) gasneti_pthread_check(pthread_cond_destroy(_p), "pthread_cond_destroy")
#define gasnett_cond_signal(_p) gasneti_pthread_check(pthread_cond_signal(_p), "pthread_cond_signal")
#define gasnett_cond_broadcast(_p) gasneti_pthread_check(pthread_cond_broadcast(_p), "pthread_cond_broadcast")
#define gasnett_cond_wait(c, m) gasneti_pthread_check(pthread_cond_wait(c, m), "pthread_cond_wait")

#if defined(PTHREAD_RWLOCK_INITIALIZER)
typedef pthread_rwlock_t gasneti_rwlock_t;
#define GASNETT_RWLOCK_INITIALIZER PTHREAD_RWLOCK_INITIALIZER
#define gasnett_rwlock_init(_p) gasneti_pthread_check(pthread_rwlock_init(_p, NULL), "pthread_rwlock_init")
#define gasnett_rwlock_destroy(_p) gasneti_pthread_check(pthread_rwlock_destroy(_p), "pthread_rwlock_destroy")
#define gasnett_rwlock_rdlock(_p) gasneti_pthread_check(pthread_rwlock_rdlock(_p), "pthread_rwlock_rdlock")
#define gasnett_rwlock_wrlock(_p) gasneti_pthread_check(pthread_rwlock_wrlock(_p), "pthread_rwlock_wrlock")
#define gasnett_rwlock_unlock(_p) gasneti_pthread_check(pthread_rwlock_unlock(_p), "pthread_rwlock_unlock")
#define gasnett_rwlock_tryrdlock(_p) pthread_rwlock_tryrdlock(_p)
#define gasnett_rwlock_trywrlock(_p) pthread_rwlock_trywrlock(_p)
#else
/* Strict ISO modes hide pthread_rwlock_t: serialize readers on a mutex. */
typedef pthread_mutex_t gasneti_rwlock_t;
#define GASNETT_RWLOCK_INITIALIZER PTHREAD_MUTEX_INITIALIZER
#define gasnett_rwlock_init(_p) gasnett_mutex_init(_p)
#define gasnett_rwlock_destroy(_p) gasnett_mutex_destroy(_p)
#define gasnett_rwlock_rdlock(_p) gasnett_mutex_lock(_p)
#define gasnett_rwlock_wrlock(_p) gasnett_mutex_lock(_p)
#define gasnett_rwlock_unlock(_p) gasnett_mutex_unlock(_p)
#define gasnett_rwlock_tryrdlock(_p) pthread_mutex_trylock(_p)
#define gasnett_rwlock_trywrlock(_p) pthread_mutex_trylock(_p)
#endif

#else /* SEQ: one thread, nothing to exclude */
typedef char gasneti_mutex_t;
#define GASNETT_MUTEX_INITIALIZER '\0'
#define gasnett_mutex_init(_p) ((void)(_p))
#define gasnett_mutex_destroy(_p) ((void)(_p))
#define gasnett_mutex_destroy_ignoreerr(_p) ((void)(_p), 0)
#define gasnett_mutex_lock(_p) ((void)(_p))
#define gasnett_mutex_unlock(_p) ((void)(_p))
#define gasnett_mutex_trylock(_p) ((void)(_p), 0)

typedef char gasneti_cond_t;
#define GASNETT_COND_INITIALIZER '\0'
#define gasnett_cond_init(_p) ((void)(_p))
#define gasnett_cond_destroy(_p) ((void)(_p))
#define gasnett_cond_signal(_p) ((void)(_p))
#define gasnett_cond_broadcast(_p) ((void)(_p))
/* No other thread could ever signal: waiting would hang forever. */
#define gasnett_cond_wait(c, m)                                                         \
    ((void)(c), (void)(m),                                                              \
     gasnett_fatalerror("gasnett_cond_wait() called in a non-threaded (SEQ) build, "   \
                        "where nothing can signal it; build with GASNETT_THREAD_SAFE"))

typedef char gasneti_rwlock_t;
#define GASNETT_RWLOCK_INITIALIZER '\0'
#define gasnett_rwlock_init(_p) ((void)(_p))
#define gasnett_rwlock_destroy(_p) ((void)(_p))
#define gasnett_rwlock_rdlock(_p) ((void)(_p))
#define gasnett_rwlock_wrlock(_p) ((void)(_p))
#define gasnett_rwlock_unlock(_p) ((void)(_p))
#define gasnett_rwlock_tryrdlock(_p) ((void)(_p), 0)
#define gasnett_rwlock_trywrlock(_p) ((void)(_p), 0)
#endif

#define gasnett_mutex_t gasneti_mutex_t
#define gasnett_cond_t gasneti_cond_t
#define gasnett_rwlock_t gasneti_rwlock_t

/* Lock assertions are not checked. */
#define gasnett_mutex_assertlocked(_p) ((void)(_p))
#define gasnett_mutex_assertunlocked(_p) ((void)(_p))
#define gasnett_rwlock_assertlocked(_p) ((void)(_p))
#define gasnett_rwlock_assertrdlocked(_p) ((void)(_p))
#define gasnett_rwlock_assertwrlocked(_p) ((void)(_p))
#define gasnett_rwlock_assertunlocked(_p) ((void)(_p))

/* ---- 6. thread keys: a void * per thread (PAR) or one global (SEQ) ---- */

#if defined(GASNETT_THREAD_SAFE)
#define GASNETI_THREADKEY_STORAGE __thread
#else
#define GASNETI_THREADKEY_STORAGE
#endif
#define GASNETT_THREADKEY_DECLARE(_key) \
    GASNETT_EXTERNC GASNETI_THREADKEY_STORAGE void *gasneti_threadkey_##_key
#define GASNETT_THREADKEY_DEFINE(_key)                                   \
    GASNETT_THREADKEY_DECLARE(_key);                                     \
    GASNETI_THREADKEY_STORAGE void *gasneti_threadkey_##_key = NULL
/* __thread variables need no initialization; the helper is named because
 * client code names it. */
static inline void _gasneti_threadkey_init(void *_keyaddr) { (void)_keyaddr; }
#define gasnett_threadkey_init(_key) _gasneti_threadkey_init((void *)&gasneti_threadkey_##_key)
#define gasnett_threadkey_get(_key) ((void *)gasneti_threadkey_##_key)
#define gasnett_threadkey_set(_key, _v) ((void)(gasneti_threadkey_##_key = (void *)(_v)))
#define gasnett_threadkey_get_noinit(_key) gasnett_threadkey_get(_key)
#define gasnett_threadkey_set_noinit(_key, _v) gasnett_threadkey_set(_key, _v)

/* ---- 7. environment -------------------------------------------------- */

extern char *gasnett_getenv(const char *_key);
extern void gasnett_setenv(const char *_key, const char *_value);
extern void gasnett_unsetenv(const char *_key);
extern int gasnett_getenv_yesno_withdefault(const char *_key, int _dflt);
extern int64_t gasnett_getenv_int_withdefault(const char *_key, int64_t _dflt,
                                              uint64_t _mem_size_multiplier);
extern char *gasnett_getenv_withdefault(const char *_key, const char *_dflt);
extern double gasnett_getenv_dbl_withdefault(const char *_key, double _dflt);
extern int gasnett_verboseenv(void);
extern void gasnett_envstr_display(const char *_key, const char *_val, int _is_dflt);
extern void gasnett_envint_display(const char *_key, int64_t _val, int _is_dflt, int _is_mem_size);
extern void gasnett_envdbl_display(const char *_key, double _val, int _is_dflt);

/* ---- 9. backtrace ----------------------------------------------------- */

typedef struct {
    const char *name;
    int (*fnp)(int _fd); /* writes the calling thread's stack to fd; 0 = done */
    int threadsupport;
} gasnett_backtrace_type_t;
/* The client may define this (the library's copy is a weak all-zero one). */
extern gasnett_backtrace_type_t gasnett_backtrace_user;
extern void gasnett_backtrace_init(const char *_exename);
extern int gasnett_print_backtrace(int _fd);
extern int (*gasnett_print_backtrace_ifenabled)(int _fd);

/* ---- 10. trace and stats ------------------------------------------- */

/* With gasnet.h (libgasnet), tracing and statistics are compiled in and
 * off until GASNET_TRACEFILE / GASNET_STATSFILE name an output (design:
 * core-mpi/trace.c, docs/debugging.md). Tools-only code has no tracing
 * library: the macros are no-op expressions there. */
/* Declared with tracing or without: clients name it (to silence "defined
 * but not used"), as in the reference's headers. */
GASNETT_FORMAT_PRINTF(_gasnett_trace_printf_noop, 1, 2,
                      static inline void _gasnett_trace_printf_noop(const char *_format, ...));
static inline void _gasnett_trace_printf_noop(const char *_format, ...) { (void)_format; }
#if defined(_GASNETEX_H)
/* The categories' bits, by letter (GASNETI_TRACE_BIT('P')), set for the
 * categories this node traces / counts now. */
#define GASNETI_TRACE_BIT(_c) (1U << ((_c) - 'A'))
extern unsigned gasneti_trace_mask, gasneti_stats_mask;
/* The client's source position (GASNETT_TRACE_SETSOURCELINE, and every
 * traced call of a client built with -DGASNET_SRCLINES). */
extern __thread const char *gasneti_srcfile;
extern __thread unsigned gasneti_srcline;
extern __thread int gasneti_srcfrozen;
GASNETT_FORMAT_PRINTF(gasneti_trace_printf, 1, 2,
                      extern void gasneti_trace_printf(const char *_format, ...));
GASNETT_FORMAT_PRINTF(gasneti_trace_printf_force, 1, 2,
                      extern void gasneti_trace_printf_force(const char *_format, ...));
GASNETT_FORMAT_PRINTF(gasneti_stats_printf, 1, 2,
                      extern void gasneti_stats_printf(const char *_format, ...));
GASNETT_FORMAT_PRINTF(gasneti_stats_printf_force, 1, 2,
                      extern void gasneti_stats_printf_force(const char *_format, ...));
extern void gasneti_stats_dump(int _reset);
extern const char *gasneti_trace_getmask(int _stats);
extern void gasneti_trace_setmask(int _stats, const char *_mask);
extern int gasneti_trace_tracelocal;
extern void gasneti_trace_set_tracelocal(int _v);
#define GASNETT_TRACE_SETSOURCELINE(_file, _line) \
    ((void)(gasneti_srcfrozen || ((gasneti_srcfile = (_file)), (gasneti_srcline = (unsigned)(_line)), 0)))
#define GASNETT_TRACE_GETSOURCELINE(pfile, pline) \
    ((void)((*(pfile) = gasneti_srcfile), (*(pline) = gasneti_srcline)))
#define GASNETT_TRACE_FREEZESOURCELINE() ((void)gasneti_srcfrozen++)
#define GASNETT_TRACE_UNFREEZESOURCELINE() ((void)gasneti_srcfrozen--)
#define GASNETT_TRACE_PRINTF gasneti_trace_printf
#define GASNETT_TRACE_PRINTF_FORCE gasneti_trace_printf_force
#define GASNETT_STATS_PRINTF gasneti_stats_printf
#define GASNETT_STATS_PRINTF_FORCE gasneti_stats_printf_force
#define GASNETT_STATS_DUMP(reset) gasneti_stats_dump(reset)
#define GASNETT_TRACE_ENABLED ((gasneti_trace_mask & GASNETI_TRACE_BIT('H')) != 0)
#define GASNETT_TRACE_GETMASK() gasneti_trace_getmask(0)
#define GASNETT_TRACE_SETMASK(_mask) gasneti_trace_setmask(0, _mask)
#define GASNETT_STATS_GETMASK() gasneti_trace_getmask(1)
#define GASNETT_STATS_SETMASK(_mask) gasneti_trace_setmask(1, _mask)
#define GASNETT_TRACE_GET_TRACELOCAL() (gasneti_trace_tracelocal)
#define GASNETT_TRACE_SET_TRACELOCAL(_v) gasneti_trace_set_tracelocal(_v)
#define GASNETT_STATS_INIT(callback) 0
#else
#define GASNETT_TRACE_SETSOURCELINE(_file, _line) ((void)0)
#define GASNETT_TRACE_GETSOURCELINE(pfile, pline) ((void)0)
#define GASNETT_TRACE_FREEZESOURCELINE() ((void)0)
#define GASNETT_TRACE_UNFREEZESOURCELINE() ((void)0)
#define GASNETT_TRACE_PRINTF _gasnett_trace_printf_noop
#define GASNETT_TRACE_PRINTF_FORCE _gasnett_trace_printf_noop
#define GASNETT_STATS_PRINTF _gasnett_trace_printf_noop
#define GASNETT_STATS_PRINTF_FORCE _gasnett_trace_printf_noop
#define GASNETT_STATS_DUMP(reset) ((void)(reset))
#define GASNETT_TRACE_ENABLED 0
#define GASNETT_TRACE_GETMASK() ""
#define GASNETT_TRACE_SETMASK(_mask) ((void)0)
#define GASNETT_STATS_GETMASK() ""
#define GASNETT_STATS_SETMASK(_mask) ((void)0)
#define GASNETT_TRACE_GET_TRACELOCAL() (0)
#define GASNETT_TRACE_SET_TRACELOCAL(_v) ((void)0)
#define GASNETT_STATS_INIT(callback) 0
#endif

/* ---- 11. debug malloc ------------------------------------------------ */

/* The checked allocator (gasnet_tools_malloc.c): guard bytes around each
 * block, a table of live blocks, freed blocks held back a while; any
 * misuse it sees is a fatal error naming the block and where it was
 * allocated. file/line are the caller's. */
extern void *gasneti_debug_malloc(size_t size, const char *_file, int _line);
extern void *gasneti_debug_calloc(size_t _n, size_t size, const char *_file, int _line);
extern void *gasneti_debug_realloc(void *_p, size_t size, const char *_file, int _line);
extern void gasneti_debug_free(void *_p, const char *_file, int _line);
extern char *gasneti_debug_strdup(const char *_s, const char *_file, int _line);
extern char *gasneti_debug_strndup(const char *_s, size_t _n, const char *_file, int _line);
extern void gasneti_debug_memcheck(const void *_p, const char *_file, int _line);
extern void gasneti_debug_memcheck_one(const char *_file, int _line);
extern void gasneti_debug_memcheck_all(const char *_file, int _line);
/* strdup and strndup on malloc, for strict ISO modes that hide them */
extern char *gasneti_libc_strdup(const char *_s);
extern char *gasneti_libc_strndup(const char *_s, size_t _n);

#if defined(GASNET_DEBUGMALLOC)
/* What the checked allocator has done (live: allocated and not yet freed;
 * overhead: guard and bookkeeping bytes, freed blocks held back). */
typedef struct {
    uint64_t allocated_bytes, freed_bytes, live_bytes, live_bytes_max;
    uint64_t allocated_objects, freed_objects, live_objects, live_objects_max;
    uint64_t overhead_bytes;
} gasnett_heapstats_t;
extern int gasnett_getheapstats(gasnett_heapstats_t *_pstat); /* 0: filled in */
#define gasnett_debug_malloc(sz) gasneti_debug_malloc(sz, __FILE__, __LINE__)
#define gasnett_debug_calloc(_n, sz) gasneti_debug_calloc(_n, sz, __FILE__, __LINE__)
#define gasnett_debug_realloc(_p, sz) gasneti_debug_realloc(_p, sz, __FILE__, __LINE__)
#define gasnett_debug_free(_p) gasneti_debug_free(_p, __FILE__, __LINE__)
#define gasnett_debug_strdup(_s) gasneti_debug_strdup(_s, __FILE__, __LINE__)
#define gasnett_debug_strndup(_s, _n) gasneti_debug_strndup(_s, _n, __FILE__, __LINE__)
#define gasnett_debug_memcheck(_p) gasneti_debug_memcheck(_p, __FILE__, __LINE__)
#define gasnett_debug_memcheck_one() gasneti_debug_memcheck_one(__FILE__, __LINE__)
#define gasnett_debug_memcheck_all() gasneti_debug_memcheck_all(__FILE__, __LINE__)
#else
#define gasnett_debug_malloc(sz) malloc(sz)
#define gasnett_debug_calloc(_n, sz) calloc(_n, sz)
#define gasnett_debug_realloc(_p, sz) realloc(_p, sz)
#define gasnett_debug_free(_p) free(_p)
#define gasnett_debug_strdup(_s) gasneti_libc_strdup(_s)
#define gasnett_debug_strndup(_s, _n) gasneti_libc_strndup(_s, _n)
#define gasnett_debug_memcheck(_p) ((void)(_p))
#define gasnett_debug_memcheck_one() ((void)0)
#define gasnett_debug_memcheck_all() ((void)0)
#endif

/* ---- GASNet-EX values and VIS descriptors as text (diagnostics) ------- */

/* A readable name: "GEX_DT_I32", or the set bits joined with '|'
 * ("GEX_OP_ADD|GEX_OP_FADD"), unknown bits as one hex number, 0 as "0".
 * Writes it with its NUL into buf and returns its size with the NUL; with
 * buf == NULL returns that size only. ti is a gex_TI_t. */
extern size_t gasnett_format_dt(char *_buf, gex_DT_t _dt);
extern size_t gasnett_format_op(char *_buf, gex_OP_t _op);
extern size_t gasnett_format_ti(char *_buf, unsigned int _ti);

/* VIS descriptors as text. ..._bufsz(...) is the size of the buffer the
 * formatter needs; each writes one line into buf. Those returning size_t
 * return the bytes written with the NUL; addrlist and memveclist return
 * what they saw (lowest address, highest last byte; memvec lengths, of
 * the non-empty entries: min UINTPTR_MAX/SIZE_MAX and max 0 if none).
 *   strides:    "[8,-64]"
 *   addrlist:   "2 entries, len=8: [0x1000, 0x2000]"
 *   memveclist: "2 entries: [{0x1000,16}, {0x2000,0}]"
 *   putvgetv:   "tm=0x5 rank=1 dst=1 entry: [{0x1000,16}] src=2 entries: [...]"
 *   putigeti:   "tm=0x5 rank=1 dst=2 entries, len=8: [...] src=1 entry, len=16: [...]"
 *   putsgets:   "tm=0x5 rank=1 dst=0x1000 dststrides=[8,64] src=0x2000
 *                srcstrides=[16,128] elemsz=8 count=[8,4,2]" (one line;
 *               count has stridelevels+1 entries, the strides stridelevels;
 *               pstats, if not NULL, is a size_t * that receives the
 *               bytes described: elemsz times every count)
 * The memvec lists are gex_Memvec_t arrays (`const void *` in tools-only
 * code, which has no gasnetex.h), tm a gex_TM_t. */
typedef struct {
    uintptr_t _minaddr, _maxaddr;
} gasneti_addrlist_stats_t;
typedef struct {
    size_t _minsz, _maxsz, _totalsz;
    uintptr_t _minaddr, _maxaddr;
} gasneti_memveclist_stats_t;
struct gasneti_tm_s;
#ifdef GEX_SPEC_VERSION_MAJOR /* gasnetex.h came first */
#define GASNETI_FMT_MEMVEC gex_Memvec_t const
#else
#define GASNETI_FMT_MEMVEC void const
#endif
extern size_t gasnett_format_strides_bufsz(size_t _count);
extern void gasnett_format_strides(char *_buf, size_t _count, const ptrdiff_t *_list);
extern size_t gasnett_format_addrlist_bufsz(size_t _count);
extern gasneti_addrlist_stats_t gasnett_format_addrlist(char *_buf, size_t _count, void *const *_list,
                                                        size_t _len);
extern size_t gasnett_format_memveclist_bufsz(size_t _count);
extern gasneti_memveclist_stats_t gasnett_format_memveclist(char *_buf, size_t _count,
                                                            GASNETI_FMT_MEMVEC *_list);
extern size_t gasnett_format_putvgetv_bufsz(size_t _dstcount, size_t _srccount);
extern size_t gasnett_format_putvgetv(char *_buf, struct gasneti_tm_s *_tm, gex_Rank_t _rank, size_t _dstcount,
                                      GASNETI_FMT_MEMVEC *_dstlist, size_t _srccount,
                                      GASNETI_FMT_MEMVEC *_srclist);
extern size_t gasnett_format_putigeti_bufsz(size_t _dstcount, size_t _srccount);
extern size_t gasnett_format_putigeti(char *_buf, struct gasneti_tm_s *_tm, gex_Rank_t _rank, size_t _dstcount,
                                      void *const _dstlist[], size_t _dstlen, size_t _srccount,
                                      void *const _srclist[], size_t _srclen);
extern size_t gasnett_format_putsgets_bufsz(size_t _stridelevels);
extern size_t gasnett_format_putsgets(char *_buf, void *_pstats, struct gasneti_tm_s *_tm, gex_Rank_t _rank,
                                      void *_dstaddr, const ptrdiff_t _dststrides[], void *_srcaddr,
                                      const ptrdiff_t _srcstrides[], size_t _elemsz, const size_t _count[],
                                      size_t _stridelevels);

/* Every client of this header refers to a symbol named after the release
 * of the header, which only the library of the same release defines: a
 * program built with another GASNet's header does not link. */
#define GASNETT_LINKCONFIG_IDIOTCHECK(name) _CONCAT(gasnett_linkconfig_idiotcheck_, name)
#define GASNETI_LINKCONFIG_SYMBOL                                                          \
    GASNETT_LINKCONFIG_IDIOTCHECK(_CONCAT(                                                   \
        _CONCAT(_CONCAT(gasnett_release_, GASNETT_RELEASE_VERSION_MAJOR), _CONCAT(_, GASNETT_RELEASE_VERSION_MINOR)), \
        _CONCAT(_, GASNETT_RELEASE_VERSION_PATCH)))
extern int GASNETI_LINKCONFIG_SYMBOL;
#ifndef GASNETI_BUILDING_TOOLS
GASNETT_USED static int *gasnett_linkconfig_idiotcheck(void) { return &GASNETI_LINKCONFIG_SYMBOL; }
#endif

/* Self-tests, for test programs, in a GASNet-EX client (after gasnetex.h,
 * which declares the types): the tools checks of sections A-H (see
 * tools/gasnet_tools_internal.h) and, with the team given, I: AM round
 * trips to peer through the handlers gasnett_diagnostic_gethandlers
 * returns (the client registers them first, and synchronises), J: puts and
 * gets between myseg and peerseg (a 4 KiB area at each; peerseg lies in
 * peer's bound segment). testsections NULL or "" runs all. 0: all passed. */
#ifdef GEX_SPEC_VERSION_MAJOR /* gasnetex.h came first */
extern int gasnett_run_diagnostics(int _iters, int _threadcnt, const char *_testsections,
                                   gex_TM_t _myteam, void *_myseg, gex_Rank_t _peer, void *_peerseg);
extern void gasnett_diagnostic_gethandlers(gex_AM_Entry_t **_table, int *_count);
#endif

#endif /* !GASNETT_LITE_MODE */

GASNETT_END_EXTERNC

#endif /* _GASNET_TOOLS_H */
