/* tools_basic: checks the tools-only gasnet_tools.h API. Built twice:
 * tools_basic-seq (SEQ model) and tools_basic-par (GASNETT_THREAD_SAFE,
 * where the thread checks run too).
 *
 *   tools_basic                 every check; prints "tools_basic: OK"
 *   tools_basic verbose         run with GASNET_VERBOSEENV=1: the report
 *   tools_basic yesno-garbage   dies: yes/no variable set to "maybe"
 *   tools_basic int-garbage     dies: integer variable set to "lots"
 *   tools_basic fatal           dies through gasnett_fatalerror
 *   tools_basic kill            gasnett_killmyprocess(7), skipping atexit
 *   tools_basic condwait        SEQ: gasnett_cond_wait is fatal
 *   tools_basic nopos           dies through gasnett_fatalerror_nopos
 */
#include <gasnet_tools.h>
#include <gasnet_tools_internal.h> /* gasneti_tools_diagnostics */

#include <signal.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <stdarg.h>
#include <sys/mman.h>
#if defined(GASNETT_THREAD_SAFE)
#include <pthread.h>
#endif

/* ---- the model this build must have got */
#ifdef GASNETT_MAX_THREADS
#error "GASNETT_MAX_THREADS must be undefined in tools-only code"
#endif
#if defined(_REENTRANT) != defined(GASNETT_THREAD_SAFE)
#error "the PAR build (-D_REENTRANT) must get GASNETT_THREAD_SAFE, the SEQ build must not"
#endif
#if defined(GASNETT_THREAD_SAFE) && GASNETT_THREAD_SAFE != 1
#error "GASNETT_THREAD_SAFE must be 1"
#endif
#if !HAVE_PTHREAD_H
#error "HAVE_PTHREAD_H must be provided"
#endif
#if defined(GASNETT_THREAD_SAFE)
#define GASNETT_THREAD_SAFE_STR "PAR"
#if defined(GASNETT_THREAD_SINGLE)
#error "GASNETT_THREAD_SINGLE is for SEQ"
#endif
#else
#define GASNETT_THREAD_SAFE_STR "SEQ"
#if GASNETT_THREAD_SINGLE != 1
#error "GASNETT_THREAD_SINGLE must be 1 in SEQ"
#endif
#endif
#if PLATFORM_ARCH_64 + PLATFORM_ARCH_32 != 1
#error "exactly one of PLATFORM_ARCH_64 and PLATFORM_ARCH_32"
#endif
#if PLATFORM_COMPILER_TINY
#error "PLATFORM_COMPILER_TINY must be 0 or undefined"
#endif
#if !PLATFORM_COMPILER_VERSION_GE(3, 0, 0)
#error "PLATFORM_COMPILER_VERSION_GE"
#endif
#if GASNETT_SPEC_VERSION_MAJOR != 1 || GASNETT_SPEC_VERSION_MINOR != 20
#error "tools spec version 1.20"
#endif
#if defined(GASNETT_USING_GENERIC_ATOMICOPS) || defined(GASNETT_USING_GETTIMEOFDAY)
#error "atomics are not emulated and timers do not use gettimeofday here"
#endif
#if !GASNETT_SET_AFFINITY_SUPPORT
#error "GASNETT_SET_AFFINITY_SUPPORT: sched_setaffinity binds threads on Linux"
#endif
#if defined(GASNET_DEBUG) && GASNET_DEBUGMALLOC != 1
#error "debug builds check gasnett_debug_* allocations: GASNET_DEBUGMALLOC must be 1"
#endif
#if !defined(GASNET_DEBUG) && defined(GASNET_DEBUGMALLOC)
#error "GASNET_DEBUGMALLOC must be undefined in optimised builds"
#endif
#if !defined(GASNETT_HAVE_ATOMIC_CAS) || !defined(GASNETT_HAVE_ATOMIC_ADD_SUB) || \
    !defined(GASNETT_HAVE_STRONGATOMIC_CAS) || !defined(GASNETT_HAVE_STRONGATOMIC_ADD_SUB)
#error "all atomic groups must be available"
#endif

#define CHECK(cond)                                                                    \
    do {                                                                               \
        if (!(cond)) {                                                                 \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);   \
            exit(1);                                                                   \
        }                                                                              \
    } while (0)
#define CHECK_STR(got, want)                                                           \
    do {                                                                               \
        const char *got_ = (got), *want_ = (want);                                     \
        if (!got_ || strcmp(got_, want_)) {                                            \
            fprintf(stderr, "%s:%d: %s is \"%s\", expected \"%s\"\n", __FILE__,         \
                    __LINE__, #got, got_ ? got_ : "(null)", want_);                    \
            exit(1);                                                                   \
        }                                                                              \
    } while (0)

/* ---- 1. basic macros */

GASNETT_IDENT(tools_basic_ident, "$ToolsBasic: " GASNETT_SYSTEM_TUPLE " $");

GASNETT_FORMAT_PRINTF(tb_format, 3, 4, static int tb_format(char *buf, size_t n, const char *fmt, ...));
static int tb_format(char *buf, size_t n, const char *fmt, ...)
{
    va_list ap;
    int r;
    va_start(ap, fmt);
    r = vsnprintf(buf, n, fmt, ap);
    va_end(ap);
    return r;
}

static void tb_exit_now(int code) GASNETT_NORETURN;
static void tb_exit_now(int code) { _exit(code); }
GASNETT_NORETURN static void tb_die(const char *why) { gasnett_fatalerror("%s", why); }
GASNETT_NORETURNP(tb_die)

GASNETT_INLINE(tb_twice) int tb_twice(int x) { return 2 * x; }

GASNETT_BEGIN_EXTERNC
int tb_externc_fn(void);
GASNETT_END_EXTERNC
int tb_externc_fn(void) { return 3; }

static const char *tb_current_function(void) { return GASNETT_CURRENT_FUNCTION; }

static void check_macros(void)
{
    char buf[64];
    static char line[GASNETT_CACHE_LINE_BYTES]; /* usable as an array size */
    int taken = 0;

    CHECK_STR((const char *)tools_basic_ident, "$ToolsBasic: " GASNETT_SYSTEM_TUPLE " $");
    CHECK(tb_format(buf, sizeof buf, "%d-%s", 4, "x") == 3);
    CHECK_STR(buf, "4-x");
    CHECK(tb_twice(21) == 42);
    CHECK(tb_externc_fn() == 3);
    CHECK_STR(tb_current_function(), "tb_current_function");

    if_pf(taken) CHECK(0);
    else taken = 1;
    CHECK(taken == 1);
    if_pt(taken == 1) taken = 2;
    else CHECK(0);
    CHECK(taken == 2);
    CHECK(GASNETT_PREDICT_TRUE(1) && !GASNETT_PREDICT_FALSE(0));

    CHECK(GASNETT_PAGESIZE > 0 && GASNETT_PAGESIZE == sysconf(_SC_PAGESIZE));
    CHECK((1 << GASNETT_PAGESHIFT) == GASNETT_PAGESIZE);
    CHECK(sizeof line >= 16 && (sizeof line & (sizeof line - 1)) == 0);
    line[0] = 1;
    CHECK(line[0] == 1);

    CHECK(strlen(GASNETT_SYSTEM_TUPLE) > 0);
    CHECK(strlen("arch=" GASNETT_SYSTEM_TUPLE) == 5 + strlen(GASNETT_SYSTEM_TUPLE));
    CHECK(strncmp(GASNETT_CONFIG_STRING, "RELEASE=", 8) == 0);
    CHECK(!strcmp(_STRINGIFY(PLATFORM_COMPILER_FAMILYNAME), "GNU") ||
          !strcmp(_STRINGIFY(PLATFORM_COMPILER_FAMILYNAME), "CLANG"));
    CHECK(strlen(PLATFORM_COMPILER_VERSION_STR) > 0);
#if PLATFORM_ARCH_64
    CHECK(sizeof(void *) == 8);
#else
    CHECK(sizeof(void *) == 4);
#endif
    CHECK(MIN(3, 4) == 3 && MAX(3, 4) == 4);

    /* Trace and stats macros are no-op expressions. */
    GASNETT_TRACE_SETSOURCELINE(__FILE__, __LINE__);
    {
        const char *file = "untouched";
        unsigned lineno = 7;
        GASNETT_TRACE_GETSOURCELINE(&file, &lineno);
        CHECK(!strcmp(file, "untouched") && lineno == 7);
    }
    GASNETT_TRACE_FREEZESOURCELINE();
    GASNETT_TRACE_UNFREEZESOURCELINE();
    (void)(taken ? GASNETT_TRACE_PRINTF("x=%d", taken) : (void)0);
    (void)(GASNETT_TRACE_PRINTF_FORCE("%s", "y"), 0);
    CHECK(GASNETT_TRACE_ENABLED == 0);
    CHECK_STR(GASNETT_TRACE_GETMASK(), "");
    CHECK_STR(GASNETT_STATS_GETMASK(), "");
    GASNETT_TRACE_SETMASK("ALL");
    GASNETT_STATS_SETMASK("ALL");
    CHECK(GASNETT_TRACE_GET_TRACELOCAL() == 0);
    GASNETT_TRACE_SET_TRACELOCAL(1);
}

/* ---- 2. timers */

static void check_timers(void)
{
    gasnett_tick_t prev = gasnett_ticks_now(), t0, t1;
    struct timespec nap = {0, 2000000}; /* 2 ms */
    double g, o;
    int i;

    for (i = 0; i < 10000; i++) {
        gasnett_tick_t t = gasnett_ticks_now();
        CHECK(t >= prev);
        prev = t;
    }
    /* A sleep lasts at least what it asked for, measured on the same
     * clock: a lower bound, never an upper one. */
    t0 = gasnett_ticks_now();
    CHECK(clock_nanosleep(CLOCK_MONOTONIC, 0, &nap, NULL) == 0);
    t1 = gasnett_ticks_now();
    CHECK(t1 > t0);
    CHECK(gasnett_ticks_to_ns(t1 - t0) >= 2000000);
    CHECK(gasnett_ticks_to_us(t1 - t0) >= 2000);
    CHECK(gasnett_ticks_to_us(t1 - t0) == gasnett_ticks_to_ns(t1 - t0) / 1000);
    CHECK(gasnett_ticks_to_ns(1000) == 1000 && gasnett_ticks_to_us(1000) == 1);

    g = gasnett_tick_granularityus();
    o = gasnett_tick_overheadus();
    CHECK(g > 0 && o > 0);
    CHECK(g == gasnett_tick_granularityus() && o == gasnett_tick_overheadus()); /* measured once */
    CHECK(GASNETT_TICK_MIN == 0 && GASNETT_TICK_MAX == ~(gasnett_tick_t)0);
    CHECK(gasnett_gettimeofday_us() > 0);
}

/* ---- 4. atomics */

_Static_assert(sizeof(gasnett_atomic32_t) == 4, "atomic32 is 4 bytes");
_Static_assert(sizeof(gasnett_atomic64_t) == 8, "atomic64 is 8 bytes");
_Static_assert(_Alignof(gasnett_atomic64_t) <= _Alignof(uint64_t), "no extra alignment");
_Static_assert(sizeof(gasnett_atomic_t) <= sizeof(gasnett_atomic_sval_t) &&
                   _Alignof(gasnett_atomic_t) <= _Alignof(gasnett_atomic_sval_t),
               "an sval_t can be used as an atomic_t");
_Static_assert((gasnett_atomic_val_t)-1 > 0 && (gasnett_atomic_sval_t)-1 < 0, "val unsigned, sval signed");
_Static_assert(sizeof(gasnett_atomic_val_t) >= 3, "at least 24 bits");

/* Each flag combination takes a different fence path. */
static const int flag_sets[] = {
    GASNETT_ATOMIC_NONE, GASNETT_ATOMIC_REL, GASNETT_ATOMIC_ACQ,
    GASNETT_ATOMIC_MB_PRE | GASNETT_ATOMIC_MB_POST, GASNETT_ATOMIC_RMB_PRE, GASNETT_ATOMIC_WMB_POST,
    GASNETT_ATOMIC_ACQ_IF_TRUE, GASNETT_ATOMIC_ACQ_IF_FALSE};

/* The ten operations of family F (type T, value type V) under flags f. */
#define CHECK_ATOMIC_FAMILY(F, T, V, f)                                       \
    do {                                                                      \
        T a = F##_init(5);                                                    \
        const V maxv = (V)~(V)0;                                              \
        CHECK(F##_read(&a, f) == 5);                                          \
        F##_set(&a, 7, f);                                                    \
        CHECK(F##_read(&a, f) == 7);                                          \
        F##_increment(&a, f);                                                 \
        CHECK(F##_read(&a, f) == 8);                                          \
        F##_decrement(&a, f);                                                 \
        CHECK(F##_read(&a, f) == 7);                                          \
        CHECK(F##_add(&a, 3, f) == 10);        /* returns the new value */    \
        CHECK(F##_subtract(&a, 4, f) == 6);                                   \
        CHECK(F##_swap(&a, 9, f) == 6);        /* returns the old value */    \
        CHECK(F##_read(&a, f) == 9);                                          \
        CHECK(F##_compare_and_swap(&a, 9, 11, f));                            \
        CHECK(F##_read(&a, f) == 11);                                         \
        CHECK(!F##_compare_and_swap(&a, 9, 12, f));                           \
        CHECK(F##_read(&a, f) == 11);                                         \
        F##_set(&a, 2, f);                                                    \
        CHECK(!F##_decrement_and_test(&a, f));                                \
        CHECK(F##_decrement_and_test(&a, f));                                 \
        CHECK(F##_read(&a, f) == 0);                                          \
        F##_decrement(&a, f);                  /* wraps around */             \
        CHECK(F##_read(&a, f) == maxv);                                       \
        F##_increment(&a, f);                                                 \
        CHECK(F##_read(&a, f) == 0);                                          \
        CHECK(F##_subtract(&a, 1, f) == maxv);                                \
        CHECK(F##_add(&a, 2, f) == 1);                                        \
        F##_set(&a, maxv, f);                                                 \
        CHECK(F##_add(&a, maxv, f) == (V)(maxv - 1));                         \
        F##_set(&a, -1, f);                    /* truncated to the width */   \
        CHECK(F##_read(&a, f) == maxv);                                       \
        CHECK(F##_compare_and_swap(&a, -1, 0, f));                            \
        CHECK(F##_read(&a, f) == 0);                                          \
        CHECK(F##_swap(&a, maxv, f) == 0);                                    \
        CHECK(!F##_decrement_and_test(&a, f));                                \
        CHECK(F##_read(&a, f) == (V)(maxv - 1));                              \
    } while (0)

static void check_atomics(void)
{
    size_t i;
    for (i = 0; i < sizeof flag_sets / sizeof flag_sets[0]; i++) {
        int f = flag_sets[i];
        CHECK_ATOMIC_FAMILY(gasnett_atomic, gasnett_atomic_t, gasnett_atomic_val_t, f);
        CHECK_ATOMIC_FAMILY(gasnett_atomic32, gasnett_atomic32_t, uint32_t, f);
        CHECK_ATOMIC_FAMILY(gasnett_atomic64, gasnett_atomic64_t, uint64_t, f);
        CHECK_ATOMIC_FAMILY(gasnett_strongatomic, gasnett_strongatomic_t, gasnett_atomic_val_t, f);
        CHECK_ATOMIC_FAMILY(gasnett_strongatomic32, gasnett_strongatomic32_t, uint32_t, f);
        CHECK_ATOMIC_FAMILY(gasnett_strongatomic64, gasnett_strongatomic64_t, uint64_t, f);
    }

    /* Values are truncated to the width; 64 bits keep everything. */
    {
        gasnett_atomic32_t a32 = gasnett_atomic32_init(UINT64_C(0x100000005));
        gasnett_atomic64_t a64 = gasnett_atomic64_init(UINT64_C(0x100000005));
        CHECK(gasnett_atomic32_read(&a32, 0) == 5);
        gasnett_atomic32_set(&a32, UINT64_C(0x300000007), 0);
        CHECK(gasnett_atomic32_read(&a32, 0) == 7);
        CHECK(gasnett_atomic64_read(&a64, 0) == UINT64_C(0x100000005));
        CHECK(gasnett_atomic64_add(&a64, UINT64_C(0xffffffff), 0) == UINT64_C(0x200000004));
    }

    /* Signed views. */
    CHECK(gasnett_atomic_signed(GASNETT_ATOMIC_MAX) == -1);
    CHECK(gasnett_atomic_signed((gasnett_atomic_val_t)5) == 5);
    CHECK(GASNETT_ATOMIC_SIGNED_MIN < 0 && GASNETT_ATOMIC_SIGNED_MAX > 0);
    {
        gasnett_atomic_t a = gasnett_atomic_init(0);
        gasnett_atomic_decrement(&a, 0);
        CHECK(gasnett_atomic_signed(gasnett_atomic_read(&a, 0)) == -1);
    }

    /* The initializer works inside an aggregate. */
    {
        static struct { int x; gasnett_atomic_t a; gasnett_atomic64_t b; } s = {
            4, gasnett_atomic_init(1), gasnett_atomic64_init(2)};
        CHECK(s.x == 4 && gasnett_atomic_read(&s.a, 0) == 1 && gasnett_atomic64_read(&s.b, 0) == 2);
    }

    /* The atomic types overlay plain objects of the same size. */
    {
        gasnett_atomic_sval_t sv = 41;
        struct { double d; } dbl = {1.0};
        double two_and_half = 2.5, back;
        uint64_t bits;
        gasnett_atomic_increment((gasnett_atomic_t *)&sv, 0);
        CHECK(sv == 42);
        memcpy(&bits, &two_and_half, sizeof bits);
        gasnett_atomic64_set((gasnett_atomic64_t *)&dbl.d, bits, 0);
        memcpy(&back, &dbl.d, sizeof back);
        CHECK(back == 2.5);
        CHECK(gasnett_strongatomic64_compare_and_swap((gasnett_strongatomic64_t *)&dbl.d, bits, 0, 0));
        CHECK(dbl.d == 0.0);
    }
}

/* ---- 3, 4, 5, 6 across threads (PAR) */

GASNETT_THREADKEY_DECLARE(tb_key);
GASNETT_THREADKEY_DEFINE(tb_key);

#if defined(GASNETT_THREAD_SAFE)
#define NTHREADS 4
#define NITERS 20000

static gasnett_atomic_t c_atomic = gasnett_atomic_init(0);
static gasnett_atomic64_t c_atomic64 = gasnett_atomic64_init(0);
static gasnett_strongatomic32_t c_strong = gasnett_strongatomic32_init(0);
static gasnett_atomic_t c_dectest = gasnett_atomic_init(NTHREADS * NITERS);
static gasnett_atomic_t c_dectest_hits = gasnett_atomic_init(0);
static gasnett_atomic64_t c_cas = gasnett_atomic64_init(0);
static gasnett_mutex_t c_lock = GASNETT_MUTEX_INITIALIZER;
static uint64_t c_plain; /* under c_lock */
static gasnett_rwlock_t c_rw = GASNETT_RWLOCK_INITIALIZER;
static uint64_t c_rw_a, c_rw_b; /* equal whenever c_rw is not write-locked */
static gasnett_atomic_t c_arrived = gasnett_atomic_init(0);

static void *counter_thread(void *arg)
{
    int slot = 0, i;
    (void)arg;
    /* Thread keys: each thread starts at NULL and sees only its own value. */
    CHECK(gasnett_threadkey_get(tb_key) == NULL);
    gasnett_threadkey_init(tb_key);
    gasnett_threadkey_set(tb_key, &slot);
    gasnett_atomic_increment(&c_arrived, 0);
    while (gasnett_atomic_read(&c_arrived, 0) < NTHREADS) gasnett_sched_yield();
    CHECK(gasnett_threadkey_get(tb_key) == &slot);
    CHECK(gasnett_threadkey_get_noinit(tb_key) == &slot);

    for (i = 0; i < NITERS; i++) {
        uint64_t old;
        gasnett_atomic_increment(&c_atomic, 0);
        gasnett_atomic64_add(&c_atomic64, 3, 0);
        gasnett_strongatomic32_increment(&c_strong, 0);
        if (gasnett_atomic_decrement_and_test(&c_dectest, GASNETT_ATOMIC_ACQ_IF_TRUE))
            gasnett_atomic_increment(&c_dectest_hits, 0);
        do {
            old = gasnett_atomic64_read(&c_cas, 0);
        } while (!gasnett_atomic64_compare_and_swap(&c_cas, old, old + 1, 0));
        gasnett_mutex_lock(&c_lock);
        c_plain++;
        gasnett_mutex_unlock(&c_lock);
        if (i % 8 == 0) {
            gasnett_rwlock_wrlock(&c_rw);
            c_rw_a++;
            c_rw_b++;
            gasnett_rwlock_unlock(&c_rw);
        } else {
            gasnett_rwlock_rdlock(&c_rw);
            CHECK(c_rw_a == c_rw_b);
            gasnett_rwlock_unlock(&c_rw);
        }
    }
    return NULL;
}

static gasnett_mutex_t cv_lock = GASNETT_MUTEX_INITIALIZER;
static gasnett_cond_t cv = GASNETT_COND_INITIALIZER;
static int cv_go, cv_woken; /* under cv_lock */

static void *waiter_thread(void *arg)
{
    (void)arg;
    gasnett_mutex_lock(&cv_lock);
    while (!cv_go) gasnett_cond_wait(&cv, &cv_lock); /* wakeups may be spurious */
    cv_woken++;
    gasnett_mutex_unlock(&cv_lock);
    return NULL;
}

static int mp_data; /* published through mp_flag */
static gasnett_atomic_t mp_flag = gasnett_atomic_init(0);

static void *publisher_thread(void *arg)
{
    (void)arg;
    mp_data = 42;
    gasnett_local_wmb();
    gasnett_atomic_set(&mp_flag, 1, GASNETT_ATOMIC_REL);
    return NULL;
}

static void check_threads(void)
{
    pthread_t th[NTHREADS];
    int main_slot = 0, i;

    gasnett_threadkey_set(tb_key, &main_slot);
    for (i = 0; i < NTHREADS; i++) CHECK(pthread_create(&th[i], NULL, counter_thread, NULL) == 0);
    for (i = 0; i < NTHREADS; i++) CHECK(pthread_join(th[i], NULL) == 0);
    CHECK(gasnett_threadkey_get(tb_key) == &main_slot);
    CHECK(gasnett_atomic_read(&c_atomic, 0) == NTHREADS * NITERS);
    CHECK(gasnett_atomic64_read(&c_atomic64, 0) == 3u * NTHREADS * NITERS);
    CHECK(gasnett_strongatomic32_read(&c_strong, 0) == NTHREADS * NITERS);
    CHECK(gasnett_atomic_read(&c_dectest, 0) == 0);
    CHECK(gasnett_atomic_read(&c_dectest_hits, 0) == 1); /* exactly one thread saw zero */
    CHECK(gasnett_atomic64_read(&c_cas, 0) == NTHREADS * NITERS);
    CHECK(c_plain == NTHREADS * NITERS);
    CHECK(c_rw_a == c_rw_b && c_rw_a == NTHREADS * ((NITERS + 7) / 8));

    /* A broadcast wakes every waiter; a late waiter sees the flag. */
    for (i = 0; i < NTHREADS; i++) CHECK(pthread_create(&th[i], NULL, waiter_thread, NULL) == 0);
    gasnett_mutex_lock(&cv_lock);
    cv_go = 1;
    gasnett_cond_broadcast(&cv);
    gasnett_mutex_unlock(&cv_lock);
    for (i = 0; i < NTHREADS; i++) CHECK(pthread_join(th[i], NULL) == 0);
    CHECK(cv_woken == NTHREADS);

    /* Message passing with barriers and an acquire read. */
    CHECK(pthread_create(&th[0], NULL, publisher_thread, NULL) == 0);
    while (!gasnett_atomic_read(&mp_flag, GASNETT_ATOMIC_ACQ)) gasnett_sched_yield();
    gasnett_local_rmb();
    CHECK(mp_data == 42);
    CHECK(pthread_join(th[0], NULL) == 0);
}
#endif /* GASNETT_THREAD_SAFE */

/* ---- 5, 6 in the calling thread (both models) */

static void check_locks_local(void)
{
    gasnett_mutex_t m = GASNETT_MUTEX_INITIALIZER;
    gasnett_rwlock_t rw = GASNETT_RWLOCK_INITIALIZER;
    gasnett_cond_t c = GASNETT_COND_INITIALIZER;
    struct { struct { gasnett_cond_t c; gasnett_mutex_t m; } pair; int n; } nested = {
        {GASNETT_COND_INITIALIZER, GASNETT_MUTEX_INITIALIZER}, 1};
    int v = 5;

    gasnett_mutex_lock(&m);
    gasnett_mutex_assertlocked(&m);
#if defined(GASNETT_THREAD_SAFE)
    CHECK(gasnett_mutex_trylock(&m) == EBUSY);
#endif
    gasnett_mutex_unlock(&m);
    gasnett_mutex_assertunlocked(&m);
    CHECK(gasnett_mutex_trylock(&m) == 0);
    gasnett_mutex_unlock(&m);
    gasnett_mutex_init(&m);
    gasnett_mutex_destroy(&m);

    gasnett_rwlock_rdlock(&rw);
#if defined(GASNETT_THREAD_SAFE)
    CHECK(gasnett_rwlock_trywrlock(&rw) == EBUSY);
#endif
    gasnett_rwlock_unlock(&rw);
    gasnett_rwlock_wrlock(&rw);
    gasnett_rwlock_unlock(&rw);
    CHECK(gasnett_rwlock_tryrdlock(&rw) == 0);
    gasnett_rwlock_unlock(&rw);

    gasnett_mutex_lock(&nested.pair.m);
    gasnett_cond_signal(&nested.pair.c);
    gasnett_cond_broadcast(&c);
    gasnett_mutex_unlock(&nested.pair.m);
    CHECK(nested.n == 1);

    CHECK(gasnett_threadkey_get(tb_key) == NULL);
    gasnett_threadkey_set(tb_key, &v);
    CHECK(gasnett_threadkey_get(tb_key) == &v);
    gasnett_threadkey_set_noinit(tb_key, NULL);
    CHECK(gasnett_threadkey_get(tb_key) == NULL);

    /* Barriers compile as statements and run. */
    gasnett_local_wmb();
    gasnett_local_rmb();
    gasnett_local_mb();
    gasnett_weak_wmb();
    gasnett_weak_rmb();
    gasnett_weak_mb();
    gasnett_compiler_fence();
    gasnett_spinloop_hint();
}

/* ---- 7. environment */

/* Runs fn with stderr going to a file; returns what it wrote (malloc'ed). */
static char *capture_stderr(void (*fn)(void))
{
    FILE *tmp = tmpfile();
    int saved;
    long len;
    char *out;

    CHECK(tmp != NULL);
    fflush(stderr);
    saved = dup(STDERR_FILENO);
    CHECK(saved >= 0 && dup2(fileno(tmp), STDERR_FILENO) >= 0);
    fn();
    fflush(stderr);
    CHECK(dup2(saved, STDERR_FILENO) >= 0);
    close(saved);
    len = (long)lseek(fileno(tmp), 0, SEEK_END);
    CHECK(len >= 0);
    out = (char *)malloc((size_t)len + 1);
    CHECK(out != NULL);
    CHECK(pread(fileno(tmp), out, (size_t)len, 0) == len);
    out[len] = '\0';
    fclose(tmp);
    return out;
}

static int count_occurrences(const char *hay, const char *needle)
{
    int n = 0;
    for (hay = strstr(hay, needle); hay; hay = strstr(hay + 1, needle)) n++;
    return n;
}

static void query_some_settings(void)
{
    (void)gasnett_getenv_int_withdefault("GASNET_TB_SHOWN", 1, 1);
    (void)gasnett_getenv_int_withdefault("GASNET_TB_SHOWN", 1, 1);
    (void)gasnett_getenv_yesno_withdefault("GASNET_TB_UNSET_YN", 1);
    (void)gasnett_getenv_yesno_withdefault("GASNET_TB_UNSET_YN", 1);
}

static void check_env(void)
{
    static const struct { const char *val; int want; } yesno[] = {
        {"Y", 1}, {"y", 1}, {"YES", 1}, {"yes", 1}, {"YeS", 1}, {"1", 1},
        {"N", 0}, {"n", 0}, {"NO", 0}, {"no", 0}, {"nO", 0}, {"0", 0}};
    size_t i;
    char *out;

    gasnett_setenv("GASNET_TB_VAR", "hello");
    CHECK_STR(gasnett_getenv("GASNET_TB_VAR"), "hello");
    gasnett_setenv("GASNET_TB_VAR", "again"); /* overwrites */
    CHECK_STR(gasnett_getenv("GASNET_TB_VAR"), "again");
    CHECK_STR(getenv("GASNET_TB_VAR"), "again");
    gasnett_unsetenv("GASNET_TB_VAR");
    CHECK(gasnett_getenv("GASNET_TB_VAR") == NULL);

    for (i = 0; i < sizeof yesno / sizeof yesno[0]; i++) {
        gasnett_setenv("GASNET_TB_YN", yesno[i].val);
        CHECK(gasnett_getenv_yesno_withdefault("GASNET_TB_YN", !yesno[i].want) == yesno[i].want);
    }
    gasnett_unsetenv("GASNET_TB_YN");
    CHECK(gasnett_getenv_yesno_withdefault("GASNET_TB_YN", 5) == 1); /* default as 0 or 1 */
    CHECK(gasnett_getenv_yesno_withdefault("GASNET_TB_YN", 0) == 0);

    CHECK(gasnett_getenv_int_withdefault("GASNET_TB_INT", 3, 1024) == 3); /* default unscaled */
    CHECK(gasnett_getenv_int_withdefault("GASNET_TB_INT", -9, 0) == -9);
    gasnett_setenv("GASNET_TB_INT", "2M");
    CHECK(gasnett_getenv_int_withdefault("GASNET_TB_INT", 0, 1) == 2 * 1048576);
    CHECK(gasnett_getenv_int_withdefault("GASNET_TB_INT", 0, 0) == 2); /* counts ignore units */
    gasnett_setenv("GASNET_TB_INT", "4");
    CHECK(gasnett_getenv_int_withdefault("GASNET_TB_INT", 0, 1024) == 4096);
    gasnett_setenv("GASNET_TB_INT", "-12");
    CHECK(gasnett_getenv_int_withdefault("GASNET_TB_INT", 0, 0) == -12);
    gasnett_setenv("GASNET_TB_INT", "1.5k");
    CHECK(gasnett_getenv_int_withdefault("GASNET_TB_INT", 0, 1) == 1536);
    gasnett_unsetenv("GASNET_TB_INT");

    CHECK_STR(gasnett_getenv_withdefault("GASNET_TB_STR", "dflt"), "dflt");
    gasnett_setenv("GASNET_TB_STR", "set");
    CHECK_STR(gasnett_getenv_withdefault("GASNET_TB_STR", "dflt"), "set");
    CHECK(gasnett_getenv_dbl_withdefault("GASNET_TB_DBL", 0.25) == 0.25);
    gasnett_setenv("GASNET_TB_DBL", "2.5");
    CHECK(gasnett_getenv_dbl_withdefault("GASNET_TB_DBL", 0.25) == 2.5);

    /* Reporting is off unless GASNET_VERBOSEENV says yes. */
    gasnett_setenv("GASNET_VERBOSEENV", "0");
    CHECK(!gasnett_verboseenv());
    gasnett_setenv("GASNET_VERBOSEENV", "no");
    CHECK(!gasnett_verboseenv());
    gasnett_unsetenv("GASNET_VERBOSEENV");
    CHECK(!gasnett_verboseenv());
    gasnett_setenv("GASNET_TB_SHOWN", "2M");
    out = capture_stderr(query_some_settings);
    CHECK_STR(out, "");
    free(out);
    gasnett_setenv("GASNET_VERBOSEENV", "1");
    CHECK(gasnett_verboseenv());
    gasnett_unsetenv("GASNET_VERBOSEENV");
    gasnett_unsetenv("GASNET_TB_SHOWN");
}

/* Run with GASNET_VERBOSEENV=1: each setting is reported once, with
 * "(default)" when unset. */
static void check_verbose(void)
{
    char *out;
    CHECK(gasnett_verboseenv());
    gasnett_setenv("GASNET_TB_SHOWN", "2M");
    out = capture_stderr(query_some_settings);
    CHECK(count_occurrences(out, "ENV parameter: GASNET_TB_SHOWN = 2M\n") == 1);
    CHECK(count_occurrences(out, "ENV parameter: GASNET_TB_UNSET_YN = YES   (default)\n") == 1);
    CHECK(count_occurrences(out, "ENV parameter:") == 2);
    free(out);
    /* For the suite to find in the output. */
    CHECK(gasnett_getenv_int_withdefault("GASNET_TB_VISIBLE", 64, 1) == 64);
}

/* ---- 8. numbers and utilities */

static void check_parse_int(void)
{
    static const struct { const char *s; uint64_t m; int64_t want; } cases[] = {
        {"", 0, 0}, {"42", 0, 42}, {"-42", 0, -42}, {"+42", 0, 42}, {"- 7", 0, -7},
        {"  13", 0, 13}, {"0x1f", 0, 31}, {"0X1F", 0, 31}, {"-0x10", 0, -16},
        {"1.5", 0, 1}, {"0.5", 0, 0}, {"1.5K", 1, 1536}, {"-1.5k", 1, -1536},
        {"2G", 1, INT64_C(1) << 31}, {"3t", 1, INT64_C(3) << 40}, {"5M", 1, 5 << 20},
        {"5M", 0, 5}, {"10", 1024, 10240}, {"10 k", 1, 10240}, {"10B", 1024, 10},
        {"7 x", 1024, 7 * 1024}, {"12abc", 0, 12}, {"0.25", 1024, 256}, {"0.1K", 1, 102},
        {"1.0000001G", 1, (INT64_C(1) << 30) + 107}, {"9223372036854775807", 0, INT64_MAX},
        {"0x1B", 1, 27}};
    size_t i;
    CHECK(gasnett_parse_int(NULL, 0) == 0);
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int64_t got = gasnett_parse_int(cases[i].s, cases[i].m);
        if (got != cases[i].want) {
            fprintf(stderr, "gasnett_parse_int(\"%s\", %" PRIu64 ") = %" PRId64 ", expected %" PRId64 "\n",
                    cases[i].s, cases[i].m, got, cases[i].want);
            exit(1);
        }
    }
}

static void check_format_number(void)
{
    static const struct { int64_t v; int mem; const char *want; } cases[] = {
        {3 << 20, 1, "3 MB"}, {1536, 1, "1536 B"}, {0, 1, "0"}, {0, 0, "0"},
        {1024, 1, "1 KB"}, {10240, 1, "10 KB"}, {20000, 1, "19 KB"}, {5, 1, "5 B"},
        {-(3 << 20), 1, "-3 MB"}, {INT64_C(7) << 40, 1, "7 TB"}, {12345, 0, "12345"},
        {-5, 0, "-5"}, {INT64_C(1) << 50, 0, "0x4000000000000"}, {INT64_C(1) << 50, 1, "0x4000000000000"},
        {-(INT64_C(1) << 52), 0, "-0x10000000000000"}};
    char buf[64];
    size_t i;
    int k;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        CHECK(gasnett_format_number(cases[i].v, buf, sizeof buf, cases[i].mem) == buf);
        CHECK_STR(buf, cases[i].want);
    }
    /* Powers of two survive a round trip, as memory sizes and as counts. */
    for (k = 0; k < 62; k++) {
        int64_t v = INT64_C(1) << k;
        CHECK(gasnett_parse_int(gasnett_format_number(v, buf, sizeof buf, 1), 1) == v);
        CHECK(gasnett_parse_int(gasnett_format_number(v, buf, sizeof buf, 0), 0) == v);
        CHECK(gasnett_parse_int(gasnett_format_number(-v, buf, sizeof buf, 1), 1) == -v);
    }
}

static int usr1_seen;
static void on_usr1(int sig) { usr1_seen = sig; }

static void check_utilities(void)
{
    unsigned char buf[37], copy[37];
    char host[256];
    size_t off, len, i;
    const unsigned char nines[9] = {1, 1, 1, 1, 1, 1, 1, 1, 1};

    CHECK(gasnett_checksum("hello", 5) == UINT64_C(0x68656c6c6f));
    CHECK(gasnett_checksum("", 0) == 0);
    CHECK(gasnett_checksum(nines, 9) == UINT64_C(0x0101010101010100)); /* rotates, not shifts */

    for (i = 0; i < sizeof buf; i++) buf[i] = (unsigned char)(i % 3 == 0 ? 0 : i);
    for (off = 0; off < 8; off++) {
        for (len = 0; off + len <= sizeof buf; len += 5) {
            size_t want = 0;
            for (i = off; i < off + len; i++) want += buf[i] == 0;
            CHECK(gasnett_count0s(buf + off, len) == want);
            memset(copy, 0xee, sizeof copy);
            CHECK(gasnett_count0s_copy(copy + off, buf + off, len) == want);
            CHECK(memcmp(copy + off, buf + off, len) == 0);
        }
    }
    CHECK(gasnett_count0s_uint32_t(0) == 4);
    CHECK(gasnett_count0s_uint32_t(0x00ff0000u) == 3);
    CHECK(gasnett_count0s_uint32_t(0x01020304u) == 0);
    CHECK(gasnett_count0s_uint64_t(0) == 8);
    CHECK(gasnett_count0s_uint64_t(UINT64_C(0x0100000000000001)) == 6);
    CHECK(gasnett_count0s_uintptr_t((uintptr_t)0) == (int)sizeof(uintptr_t));

    CHECK(gethostname(host, sizeof host) == 0);
    CHECK(strlen(gasnett_gethostname()) > 0);
    CHECK(!strncmp(gasnett_gethostname(), host, sizeof host));
    CHECK(gasnett_gethostname() == gasnett_gethostname()); /* one static buffer */

    CHECK(gasnett_cpu_count() > 0 && gasnett_cpu_count() == sysconf(_SC_NPROCESSORS_ONLN));
    CHECK(gasnett_getPhysMemSz(1) > 0);
#if PLATFORM_ARCH_LITTLE_ENDIAN
    CHECK(gasnett_isLittleEndian());
#else
    CHECK(!gasnett_isLittleEndian());
#endif

    CHECK(gasnett_reghandler(SIGUSR1, on_usr1) == SIG_DFL);
    raise(SIGUSR1);
    CHECK(usr1_seen == SIGUSR1);
    CHECK(gasnett_reghandler(SIGUSR1, SIG_DFL) == on_usr1);

    /* Pinning: where CPU 0 is allowed, rank 0 (and rank ncpus) lands there. */
    {
        cpu_set_t before, after;
        CHECK(sched_getaffinity(0, sizeof before, &before) == 0);
        if (CPU_ISSET(0, &before)) {
            CHECK(gasnett_set_affinity(gasnett_cpu_count()) == 0);
            CHECK(sched_getaffinity(0, sizeof after, &after) == 0);
            CHECK(CPU_COUNT(&after) == 1 && CPU_ISSET(0, &after));
            CHECK(sched_setaffinity(0, sizeof before, &before) == 0);
        }
        CHECK(gasnett_set_affinity(-1) == -1); /* no CPU: the mask stays */
        CHECK(sched_getaffinity(0, sizeof after, &after) == 0 && CPU_EQUAL(&before, &after));
    }

#if defined(HAVE_MMAP)
    {
        char *p = (char *)gasnett_mmap(3 * GASNETT_PAGESIZE);
        CHECK(((uintptr_t)p % GASNETT_PAGESIZE) == 0);
        CHECK(p[0] == 0 && p[3 * GASNETT_PAGESIZE - 1] == 0); /* fresh, zeroed */
        p[0] = p[3 * GASNETT_PAGESIZE - 1] = 1;
        CHECK(munmap(p, 3 * GASNETT_PAGESIZE) == 0);
    }
#endif

    gasnett_sched_yield();
    gasnett_flush_streams();
#if defined(GASNET_DEBUG)
    {
        const char *w = gasnett_performance_warning_str();
        CHECK(strstr(w, "        debugging\n") != NULL && w[strlen(w) - 1] == '\n');
    }
#else
    CHECK_STR(gasnett_performance_warning_str(), "");
#endif
}

/* ---- GASNet-EX-era names */

static void check_release_version(void)
{
    char want[64];
    CHECK(gasnett_release_version() == (uint64_t)GASNETT_RELEASE_VERSION_MAJOR * 1000000 +
                                           (uint64_t)GASNETT_RELEASE_VERSION_MINOR * 10000 +
                                           GASNETT_RELEASE_VERSION_PATCH);
    snprintf(want, sizeof want, "%d.%d.%d", GASNET_RELEASE_VERSION_MAJOR, GASNET_RELEASE_VERSION_MINOR,
             GASNET_RELEASE_VERSION_PATCH);
    CHECK_STR(gasnett_release_version_str(), want);
    CHECK(GASNETT_RELEASE_VERSION_MAJOR == GASNET_RELEASE_VERSION_MAJOR &&
          GASNETT_RELEASE_VERSION_MINOR == GASNET_RELEASE_VERSION_MINOR &&
          GASNETT_RELEASE_VERSION_PATCH == GASNET_RELEASE_VERSION_PATCH);
}

static int alarms;
static void on_alarm(int sig) { (void)sig; alarms++; }

/* Sleeps last at least what they ask for on the tools clock (a lower
 * bound, never an upper one), also when signals arrive meanwhile. */
static void check_nsleep(void)
{
    struct sigaction sa, old;
    struct itimerval every_ms = {{0, 1000}, {0, 1000}}, off = {{0, 0}, {0, 0}};
    gasnett_tick_t t0, t1;

    CHECK(gasnett_nsleep(0) == 0);
    t0 = gasnett_ticks_now();
    CHECK(gasnett_nsleep(3000000) == 0);
    t1 = gasnett_ticks_now();
    CHECK(gasnett_ticks_to_ns(t1 - t0) >= 3000000);

    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_alarm; /* no SA_RESTART: each signal interrupts the sleep */
    CHECK(sigaction(SIGALRM, &sa, &old) == 0);
    CHECK(setitimer(ITIMER_REAL, &every_ms, NULL) == 0);
    t0 = gasnett_ticks_now();
    CHECK(gasnett_nsleep(20000000) == 0);
    t1 = gasnett_ticks_now();
    CHECK(setitimer(ITIMER_REAL, &off, NULL) == 0);
    CHECK(sigaction(SIGALRM, &old, NULL) == 0);
    CHECK(alarms > 0);
    CHECK(gasnett_ticks_to_ns(t1 - t0) >= 20000000);
}

static void check_rlimits(void)
{
    static const int resources[] = {RLIMIT_CPU, RLIMIT_DATA,   RLIMIT_RSS,    RLIMIT_STACK,
                                    RLIMIT_AS,  RLIMIT_NPROC, RLIMIT_NOFILE, RLIMIT_MEMLOCK};
    struct rlimit lim;
    size_t i;

    /* Lower a soft limit first, so that raising it is seen. */
    CHECK(getrlimit(RLIMIT_NOFILE, &lim) == 0);
    if (lim.rlim_max > 64) {
        lim.rlim_cur = 64;
        CHECK(setrlimit(RLIMIT_NOFILE, &lim) == 0);
    }
    CHECK(gasnett_maximize_rlimits() != 0);
    for (i = 0; i < sizeof resources / sizeof resources[0]; i++) {
        CHECK(getrlimit(resources[i], &lim) == 0);
        CHECK(lim.rlim_cur == lim.rlim_max);
    }
    CHECK(getrlimit(RLIMIT_NOFILE, &lim) == 0);
    lim.rlim_cur = lim.rlim_max > 64 ? 64 : lim.rlim_max;
    CHECK(setrlimit(RLIMIT_NOFILE, &lim) == 0);
    CHECK(gasnett_maximize_rlimit(RLIMIT_NOFILE, "RLIMIT_NOFILE") != 0);
    CHECK(getrlimit(RLIMIT_NOFILE, &lim) == 0 && lim.rlim_cur == lim.rlim_max);
}

/* f(buf, v) must give `want` into an exactly sized buffer, and its size
 * with buf == NULL. */
#define CHECK_FORMAT(f, v, want)                                               \
    do {                                                                       \
        size_t need_ = f(NULL, v);                                             \
        char *buf_ = (char *)malloc(need_);                                    \
        CHECK(buf_ != NULL);                                                   \
        CHECK(need_ == strlen(want) + 1);                                      \
        CHECK(f(buf_, v) == need_);                                            \
        CHECK_STR(buf_, want);                                                 \
        free(buf_);                                                            \
    } while (0)

static void check_format_ex(void)
{
    static const struct { gex_DT_t v; const char *name; } dts[] = {
        {GEX_DT_I32, "GEX_DT_I32"}, {GEX_DT_U32, "GEX_DT_U32"}, {GEX_DT_I64, "GEX_DT_I64"},
        {GEX_DT_U64, "GEX_DT_U64"}, {GEX_DT_FLT, "GEX_DT_FLT"}, {GEX_DT_DBL, "GEX_DT_DBL"},
        {GEX_DT_USER, "GEX_DT_USER"}};
    static const struct { gex_OP_t v; const char *name; } ops[] = {
        {GEX_OP_AND, "GEX_OP_AND"},   {GEX_OP_OR, "GEX_OP_OR"},       {GEX_OP_XOR, "GEX_OP_XOR"},
        {GEX_OP_ADD, "GEX_OP_ADD"},   {GEX_OP_SUB, "GEX_OP_SUB"},     {GEX_OP_MULT, "GEX_OP_MULT"},
        {GEX_OP_MIN, "GEX_OP_MIN"},   {GEX_OP_MAX, "GEX_OP_MAX"},     {GEX_OP_INC, "GEX_OP_INC"},
        {GEX_OP_DEC, "GEX_OP_DEC"},   {GEX_OP_SET, "GEX_OP_SET"},     {GEX_OP_CAS, "GEX_OP_CAS"},
        {GEX_OP_FAND, "GEX_OP_FAND"}, {GEX_OP_FOR, "GEX_OP_FOR"},     {GEX_OP_FXOR, "GEX_OP_FXOR"},
        {GEX_OP_FADD, "GEX_OP_FADD"}, {GEX_OP_FSUB, "GEX_OP_FSUB"},   {GEX_OP_FMULT, "GEX_OP_FMULT"},
        {GEX_OP_FMIN, "GEX_OP_FMIN"}, {GEX_OP_FMAX, "GEX_OP_FMAX"},   {GEX_OP_FINC, "GEX_OP_FINC"},
        {GEX_OP_FDEC, "GEX_OP_FDEC"}, {GEX_OP_SWAP, "GEX_OP_SWAP"},   {GEX_OP_FCAS, "GEX_OP_FCAS"},
        {GEX_OP_GET, "GEX_OP_GET"},   {GEX_OP_USER, "GEX_OP_USER"},   {GEX_OP_USER_NC, "GEX_OP_USER_NC"}};
    unsigned int ti_all = (1u << 5) - 1; /* GEX_TI_ALL, as gasnetex.h will define it */
    char all_ops[600] = "";
    size_t i;

    for (i = 0; i < sizeof dts / sizeof dts[0]; i++) CHECK_FORMAT(gasnett_format_dt, dts[i].v, dts[i].name);
    CHECK_FORMAT(gasnett_format_dt, GEX_DT_I32 | GEX_DT_DBL, "GEX_DT_I32|GEX_DT_DBL");
    CHECK_FORMAT(gasnett_format_dt, (gex_DT_t)0, "0");
    CHECK_FORMAT(gasnett_format_dt, (gex_DT_t)1 << 7, "0x80");
    CHECK_FORMAT(gasnett_format_dt, GEX_DT_U64 | (1u << 9) | (1u << 31), "GEX_DT_U64|0x80000200");

    for (i = 0; i < sizeof ops / sizeof ops[0]; i++) { /* in bit order */
        CHECK_FORMAT(gasnett_format_op, ops[i].v, ops[i].name);
        strcat(all_ops, i ? "|" : "");
        strcat(all_ops, ops[i].name);
    }
    CHECK_FORMAT(gasnett_format_op, GEX_OP_CSWAP, "GEX_OP_FCAS"); /* another name of FCAS */
    CHECK_FORMAT(gasnett_format_op, GEX_OP_ADD | GEX_OP_FADD, "GEX_OP_ADD|GEX_OP_FADD");
    CHECK_FORMAT(gasnett_format_op, GEX_OP_TO_FETCHING(GEX_OP_XOR), "GEX_OP_FXOR");
    CHECK_FORMAT(gasnett_format_op, (gex_OP_t)0, "0");
    CHECK_FORMAT(gasnett_format_op, (gex_OP_t)1 << 12, "0x1000");
    /* every bit: all the names in bit order, then the unnamed bits */
    strcat(all_ops, "|0x30007000");
    CHECK_FORMAT(gasnett_format_op, ~(gex_OP_t)0, all_ops);

    CHECK_FORMAT(gasnett_format_ti, 1u << 0, "GEX_TI_SRCRANK");
    CHECK_FORMAT(gasnett_format_ti, 1u << 4, "GEX_TI_EP");
    CHECK_FORMAT(gasnett_format_ti, ti_all, "GEX_TI_SRCRANK|GEX_TI_ENTRY|GEX_TI_IS_REQ|GEX_TI_IS_LONG|GEX_TI_EP");
    CHECK_FORMAT(gasnett_format_ti, (1u << 2) | (1u << 5), "GEX_TI_IS_REQ|0x20");
    CHECK_FORMAT(gasnett_format_ti, 0u, "0");
}

/* gex_Memvec_t's layout (gasnetex.h is not included here). */
typedef struct { void *gex_addr; size_t gex_len; } tb_Memvec_t;

/* A formatter writes into a buffer of exactly its _bufsz size: it is
 * allocated so, and the text must fit. `call` uses buf. */
#define CHECK_VIS(bufsz, call, want)                                         \
    do {                                                                     \
        size_t sz_ = (bufsz);                                                \
        char *buf = (char *)malloc(sz_);                                     \
        CHECK(buf != NULL);                                                  \
        call;                                                                \
        CHECK(strlen(buf) < sz_);                                            \
        if (want) CHECK_STR(buf, (const char *)want);                        \
        free(buf);                                                           \
    } while (0)

static void check_format_vis(void)
{
    void *addrs[3] = {(void *)0x1000, (void *)0x2000, NULL};
    void *far[3] = {(void *)UINTPTR_MAX, (void *)UINTPTR_MAX, (void *)UINTPTR_MAX};
    tb_Memvec_t mv[2] = {{(void *)0x1000, 16}, {(void *)0x2000, 0}};
    tb_Memvec_t mv3[3] = {{(void *)0x3000, 8}, {(void *)0x500, 0}, {(void *)0x1000, 64}};
    tb_Memvec_t mvfar[3] = {{(void *)UINTPTR_MAX, SIZE_MAX}, {(void *)UINTPTR_MAX, SIZE_MAX},
                            {(void *)UINTPTR_MAX, SIZE_MAX}};
    ptrdiff_t ds[2] = {8, 64}, ss[2] = {16, -128}, extreme[3] = {PTRDIFF_MIN, PTRDIFF_MIN, PTRDIFF_MIN};
    size_t count[3] = {8, 4, 2}, bigcount[4] = {SIZE_MAX, SIZE_MAX, SIZE_MAX, SIZE_MAX}, bytes = 0, n = 0;
    struct gasneti_tm_s *tm = (struct gasneti_tm_s *)0x5;
    gasneti_addrlist_stats_t ast;
    gasneti_memveclist_stats_t mst;

    CHECK_VIS(gasnett_format_strides_bufsz(2), gasnett_format_strides(buf, 2, ss), "[16,-128]");
    CHECK_VIS(gasnett_format_strides_bufsz(0), gasnett_format_strides(buf, 0, ss), "[]");
    CHECK_VIS(gasnett_format_strides_bufsz(3), gasnett_format_strides(buf, 3, extreme),
              "[-9223372036854775808,-9223372036854775808,-9223372036854775808]");

    CHECK_VIS(gasnett_format_addrlist_bufsz(2), ast = gasnett_format_addrlist(buf, 2, addrs, 8),
              "2 entries, len=8: [0x1000, 0x2000]");
    CHECK(ast._minaddr == 0x1000 && ast._maxaddr == 0x2007);
    CHECK_VIS(gasnett_format_addrlist_bufsz(3), ast = gasnett_format_addrlist(buf, 3, addrs, 0),
              "3 entries, len=0: [0x1000, 0x2000, 0x0]");
    CHECK(ast._minaddr == UINTPTR_MAX && ast._maxaddr == 0); /* nothing is addressed */
    CHECK_VIS(gasnett_format_addrlist_bufsz(1), gasnett_format_addrlist(buf, 1, addrs + 1, 4),
              "1 entry, len=4: [0x2000]");
    CHECK_VIS(gasnett_format_addrlist_bufsz(0), gasnett_format_addrlist(buf, 0, addrs, 4), "0 entries, len=4: []");
    CHECK_VIS(gasnett_format_addrlist_bufsz(3), gasnett_format_addrlist(buf, 3, far, SIZE_MAX), NULL);

    CHECK_VIS(gasnett_format_memveclist_bufsz(2), mst = gasnett_format_memveclist(buf, 2, mv),
              "2 entries: [{0x1000,16}, {0x2000,0}]");
    CHECK(mst._totalsz == 16 && mst._minsz == 16 && mst._maxsz == 16); /* the empty entry does not count */
    CHECK(mst._minaddr == 0x1000 && mst._maxaddr == 0x100f);
    CHECK_VIS(gasnett_format_memveclist_bufsz(3), mst = gasnett_format_memveclist(buf, 3, mv3),
              "3 entries: [{0x3000,8}, {0x500,0}, {0x1000,64}]");
    CHECK(mst._totalsz == 72 && mst._minsz == 8 && mst._maxsz == 64);
    CHECK(mst._minaddr == 0x1000 && mst._maxaddr == 0x3007);
    CHECK_VIS(gasnett_format_memveclist_bufsz(0), gasnett_format_memveclist(buf, 0, mv), "0 entries: []");
    CHECK_VIS(gasnett_format_memveclist_bufsz(3), gasnett_format_memveclist(buf, 3, mvfar), NULL);

    CHECK_VIS(gasnett_format_putvgetv_bufsz(1, 3), n = gasnett_format_putvgetv(buf, tm, 7, 1, mv, 3, mv3),
              "tm=0x5 rank=7 dst=1 entry: [{0x1000,16}] src=3 entries: [{0x3000,8}, {0x500,0}, {0x1000,64}]");
    CHECK(n == sizeof "tm=0x5 rank=7 dst=1 entry: [{0x1000,16}] src=3 entries: [{0x3000,8}, {0x500,0}, {0x1000,64}]");
    CHECK_VIS(gasnett_format_putvgetv_bufsz(3, 3), gasnett_format_putvgetv(buf, tm, 0xffffffffu, 3, mvfar, 3, mvfar),
              NULL);

    CHECK_VIS(gasnett_format_putigeti_bufsz(2, 1), n = gasnett_format_putigeti(buf, tm, 2, 2, addrs, 8, 1, addrs + 1, 16),
              "tm=0x5 rank=2 dst=2 entries, len=8: [0x1000, 0x2000] src=1 entry, len=16: [0x2000]");
    CHECK(n == sizeof "tm=0x5 rank=2 dst=2 entries, len=8: [0x1000, 0x2000] src=1 entry, len=16: [0x2000]");
    CHECK_VIS(gasnett_format_putigeti_bufsz(3, 3),
              gasnett_format_putigeti(buf, (struct gasneti_tm_s *)UINTPTR_MAX, 0xffffffffu, 3, far, SIZE_MAX, 3, far,
                                      SIZE_MAX),
              NULL);

    CHECK_VIS(gasnett_format_putsgets_bufsz(2),
              n = gasnett_format_putsgets(buf, &bytes, tm, 1, (void *)0x1000, ds, (void *)0x2000, ss, 8, count, 2),
              "tm=0x5 rank=1 dst=0x1000 dststrides=[8,64] src=0x2000 srcstrides=[16,-128] elemsz=8 count=[8,4,2]");
    CHECK(bytes == 8 * 8 * 4 * 2);
    CHECK(n == sizeof "tm=0x5 rank=1 dst=0x1000 dststrides=[8,64] src=0x2000 srcstrides=[16,-128] elemsz=8 count=[8,4,2]");
    CHECK_VIS(gasnett_format_putsgets_bufsz(0),
              gasnett_format_putsgets(buf, NULL, tm, 1, (void *)0x1000, ds, (void *)0x2000, ss, 8, count, 0),
              "tm=0x5 rank=1 dst=0x1000 dststrides=[] src=0x2000 srcstrides=[] elemsz=8 count=[8]");
    CHECK_VIS(gasnett_format_putsgets_bufsz(3),
              gasnett_format_putsgets(buf, NULL, (struct gasneti_tm_s *)UINTPTR_MAX, 0xffffffffu, (void *)UINTPTR_MAX,
                                      extreme, (void *)UINTPTR_MAX, extreme, SIZE_MAX, bigcount, 3),
              NULL);
}

/* Tools 1.17-1.20 and the other names GASNet-EX-era clients use. */
static int unused_evaluated;
static int bump(void) { return ++unused_evaluated; }
static void check_tools_120(void)
{
    char buf[64];
    unsigned char bytes[8];
    const char *loc, *exe = gasnett_exe_name();
    int x = 3, line;

    /* the executable: this test's own file */
    CHECK(exe != NULL && strstr(exe, "tools_basic") != NULL);
    CHECK(access(exe, X_OK) == 0);
    CHECK(gasnett_exe_name() == exe);

    line = __LINE__, loc = gasnett_current_loc;
    snprintf(buf, sizeof buf, "check_tools_120 at %s:%d", __FILE__, line);
    CHECK_STR(loc, buf);

    CHECK(gasnett_signame_fromval(SIGINT) != NULL && strcmp(gasnett_signame_fromval(SIGINT), "SIGINT") == 0);
    CHECK(strcmp(gasnett_signame_fromval(SIGSEGV), "SIGSEGV") == 0);
    CHECK(gasnett_signame_fromval(0) == NULL && gasnett_signame_fromval(-5) == NULL);

    /* GASNETT_UNUSED_ARGS* evaluate their arguments, inside expressions */
    unused_evaluated = 0;
    x = (GASNETT_UNUSED_ARGS1(bump()), x + 1);
    CHECK(x == 4 && unused_evaluated == 1);
    (void)(GASNETT_UNUSED_ARGS8(bump(), bump(), bump(), bump(), bump(), bump(), bump(), bump()), 0);
    CHECK(unused_evaluated == 9);
    GASNETT_UNUSED_ARGS3(x, buf, loc);

    gasnett_assume(x == 4);
    CHECK(x == 4);
    GASNETT_STATS_PRINTF("%d", x);
    GASNETT_STATS_PRINTF_FORCE("%s", "no statistics here");
    GASNETT_STATS_DUMP(0);
    gasnett_close_streams();

    /* register values: the low bytes of a uint64_t, in the memory's order */
    memset(bytes, 0xee, sizeof bytes);
    GASNETT_VALUE_ASSIGN(bytes, 0x1122334455667788ull, 2);
    CHECK(GASNETT_VALUE_RETURN(bytes, 2) == 0x7788 && bytes[2] == 0xee);
    GASNETT_VALUE_ASSIGN(bytes, 0x1122334455667788ull, 8);
    CHECK(GASNETT_VALUE_RETURN(bytes, 8) == 0x1122334455667788ull);
    CHECK(GASNETT_VALUE_RETURN(bytes, 4) == 0x55667788u && GASNETT_VALUE_RETURN(bytes, 1) == 0x88);

    /* printf formats of size_t and ptrdiff_t */
    snprintf(buf, sizeof buf, "%" PRIuSZ " %" PRIdSZ " %" PRIxSZ " %" PRIXSZ " %" PRIoSZ, (size_t)SIZE_MAX,
             (ssize_t)-2, (size_t)255, (size_t)255, (size_t)8);
    CHECK_STR(buf, "18446744073709551615 -2 ff FF 10");
    snprintf(buf, sizeof buf, "%" PRIdPD " %" PRIiPD " %" PRIxPD, (ptrdiff_t)PTRDIFF_MIN, (ptrdiff_t)-1,
             (ptrdiff_t)31);
    CHECK_STR(buf, "-9223372036854775808 -1 1f");

    /* compiler identification: this compiler's own version */
    snprintf(buf, sizeof buf, "|COMPILER_VERSION:%s|", PLATFORM_COMPILER_VERSION_STR);
    CHECK(strstr(PLATFORM_COMPILER_IDSTR, buf) != NULL);
    CHECK(strcmp(GASNETT_PLATFORM_COMPILER_IDSTR, PLATFORM_COMPILER_IDSTR) == 0);
#if defined(__clang__)
    snprintf(buf, sizeof buf, "%d.%d.%d", __clang_major__, __clang_minor__, __clang_patchlevel__);
    CHECK(strncmp(PLATFORM_COMPILER_IDSTR, "|COMPILER_FAMILY:CLANG|", 23) == 0);
#else
    snprintf(buf, sizeof buf, "%d.%d.%d", __GNUC__, __GNUC_MINOR__, __GNUC_PATCHLEVEL__);
    CHECK(strncmp(PLATFORM_COMPILER_IDSTR, "|COMPILER_FAMILY:GNU|", 21) == 0);
    CHECK(PLATFORM_COMPILER_FAMILYID == 1 && PLATFORM_COMPILER_GNU_C == 1);
#endif
    CHECK_STR(PLATFORM_COMPILER_VERSION_STR, buf);
    CHECK(PLATFORM_COMPILER_C_LANGLVL == __STDC_VERSION__);
    CHECK(strcmp(PLATFORM_STRINGIFY(PLATFORM_OS_FAMILYNAME), "LINUX") == 0 &&
          strcmp(PLATFORM_STRINGIFY(PLATFORM_ARCH_FAMILYNAME), "X86_64") == 0);
    CHECK(strcmp(PLATFORM_STRINGIFY(GASNETT_THREAD_MODEL), GASNETT_THREAD_SAFE_STR) == 0);
}

/* The allocator the build chose: checked in debug builds, libc otherwise. */
static void check_debug_malloc(void)
{
    char *p = (char *)gasnett_debug_malloc(10);
    char *z = (char *)gasnett_debug_calloc(2, 8);
    char *s = gasnett_debug_strdup("abc");
    char *t = gasnett_debug_strndup("abcdef", 3);
    CHECK(p && z && s && t);
    memcpy(p, "0123456789", 10);
    CHECK(z[0] == 0 && z[15] == 0);
    CHECK_STR(s, "abc");
    CHECK_STR(t, "abc");
    gasnett_debug_memcheck(p);
    gasnett_debug_memcheck_one();
    gasnett_debug_memcheck_all();
#if GASNET_DEBUGMALLOC
    {
        gasnett_heapstats_t before, after;
        CHECK(gasnett_getheapstats(&before) == 0);
        CHECK(before.live_objects == 4 && before.live_bytes == 10 + 16 + 4 + 4);
        CHECK(before.allocated_objects == 4 && before.freed_objects == 0);
        CHECK(before.live_bytes_max == before.live_bytes && before.live_objects_max == 4);
        CHECK(before.overhead_bytes > 0);
        p = (char *)gasnett_debug_realloc(p, 100);
        CHECK(p != NULL && memcmp(p, "0123456789", 10) == 0);
        gasnett_debug_memcheck(p);
        CHECK(gasnett_getheapstats(&after) == 0);
        CHECK(after.allocated_objects == 5 && after.freed_objects == 1 && after.live_objects == 4);
        CHECK(after.live_bytes == 100 + 16 + 4 + 4 && after.live_bytes_max == 110 + 16 + 4 + 4);
        CHECK(after.allocated_bytes == 34 + 100 && after.freed_bytes == 10);
    }
#else
    /* plain libc: the blocks may go back through free() */
    free(p);
    p = (char *)gasnett_debug_realloc(NULL, 100);
    CHECK(p != NULL);
#endif
    gasnett_debug_free(p);
    gasnett_debug_free(z);
    gasnett_debug_free(s);
    gasnett_debug_free(t);
    gasnett_debug_free(NULL);
#if GASNET_DEBUGMALLOC
    {
        gasnett_heapstats_t end;
        CHECK(gasnett_getheapstats(&end) == 0);
        CHECK(end.live_objects == 0 && end.live_bytes == 0 && end.freed_objects == 5);
        CHECK(end.allocated_bytes == end.freed_bytes);
    }
#endif
}

static void diagnostics_bad_args(void)
{
    CHECK(gasneti_tools_diagnostics(-1, 1, NULL) == 1);
    CHECK(gasneti_tools_diagnostics(10, 257, NULL) == 1);
}

static void check_diagnostics(void)
{
    char *out;
    CHECK(gasneti_tools_diagnostics(200, 4, NULL) == 0);
    CHECK(gasneti_tools_diagnostics(50, 0, "ac") == 0); /* default thread count, lower case */
    CHECK(gasneti_tools_diagnostics(10, 2, "Z") == 0);  /* no tools section: nothing to fail */
    out = capture_stderr(diagnostics_bad_args);
    CHECK(count_occurrences(out, "gasnett diagnostics: iters=-1 threadcnt=1: ") == 1);
    CHECK(count_occurrences(out, "gasnett diagnostics: iters=10 threadcnt=257: ") == 1);
    free(out);
}

/* ---- 9. backtrace */

static int bt_user_calls;
static int bt_user_fn(int fd)
{
    bt_user_calls++;
    CHECK(dprintf(fd, "tools_basic: user backtrace hook ran\n") > 0);
    return 0;
}
gasnett_backtrace_type_t gasnett_backtrace_user = {"USER", &bt_user_fn, 1};

static const char *bt_exename;
static void bt_init_again(void) { gasnett_backtrace_init(bt_exename); }

static void check_backtrace(const char *exename)
{
    FILE *tmp = tmpfile();
    int fd;
    off_t len;
    char *warning;

    CHECK(tmp != NULL);
    fd = fileno(tmp);
    CHECK(gasnett_print_backtrace(fd) == -1); /* before init */

    gasnett_setenv("GASNET_BACKTRACE_TYPE", "USER");
    gasnett_backtrace_init(exename);
    CHECK(gasnett_print_backtrace(fd) == 0);
    CHECK(bt_user_calls == 1);
    len = lseek(fd, 0, SEEK_END);
    CHECK(len > 0);

    gasnett_setenv("GASNET_BACKTRACE_TYPE", "EXECINFO");
    gasnett_backtrace_init(exename);
    CHECK(gasnett_print_backtrace(fd) == 0);
    CHECK(bt_user_calls == 1);
    CHECK(lseek(fd, 0, SEEK_END) > len); /* the stack went to fd */

    /* Unknown names are skipped with a warning; names match in any case,
     * with any separator. */
    bt_exename = exename;
    gasnett_setenv("GASNET_BACKTRACE_TYPE", "NOSUCH");
    warning = capture_stderr(bt_init_again);
    CHECK(strstr(warning, "WARNING: GASNET_BACKTRACE_TYPE names 'NOSUCH'") != NULL);
    free(warning);
    CHECK(gasnett_print_backtrace(fd) != 0);
    gasnett_setenv("GASNET_BACKTRACE_TYPE", "nosuch;user");
    warning = capture_stderr(bt_init_again);
    CHECK(strstr(warning, "names 'nosuch'") != NULL && strstr(warning, "'user'") == NULL);
    free(warning);
    CHECK(gasnett_print_backtrace(fd) == 0);
    CHECK(bt_user_calls == 2);

    /* By default every mechanism is listed, EXECINFO first. */
    gasnett_unsetenv("GASNET_BACKTRACE_TYPE");
    gasnett_backtrace_init(exename);
    CHECK(gasnett_print_backtrace(fd) == 0);
    CHECK(bt_user_calls == 2);

    /* The fatal-error path backtraces only when GASNET_BACKTRACE says so. */
    gasnett_setenv("GASNET_BACKTRACE_TYPE", "USER");
    gasnett_backtrace_init(exename);
    CHECK(gasnett_print_backtrace_ifenabled(fd) != 0);
    CHECK(bt_user_calls == 2);
    gasnett_setenv("GASNET_BACKTRACE", "1");
    gasnett_backtrace_init(exename);
    CHECK(gasnett_print_backtrace_ifenabled(fd) == 0);
    CHECK(bt_user_calls == 3);

    gasnett_unsetenv("GASNET_BACKTRACE");
    gasnett_unsetenv("GASNET_BACKTRACE_TYPE");
    gasnett_backtrace_init(exename);
    fclose(tmp);
}

/* ---- modes that end the process */

static void exit_99(void) { tb_exit_now(99); }

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";

    if (!strcmp(mode, "verbose")) {
        check_verbose();
    } else if (!strcmp(mode, "yesno-garbage")) {
        gasnett_setenv("GASNET_TB_BAD", "maybe");
        (void)gasnett_getenv_yesno_withdefault("GASNET_TB_BAD", 0);
        fprintf(stderr, "tools_basic: a garbage yes/no value was accepted\n");
        return 1;
    } else if (!strcmp(mode, "int-garbage")) {
        gasnett_setenv("GASNET_TB_BADINT", "lots");
        (void)gasnett_getenv_int_withdefault("GASNET_TB_BADINT", 0, 1);
        fprintf(stderr, "tools_basic: a garbage integer was accepted\n");
        return 1;
    } else if (!strcmp(mode, "fatal")) {
        tb_die("deliberate failure 42"); /* adds the missing newline */
    } else if (!strcmp(mode, "nopos")) {
        gasnett_fatalerror_nopos("deliberate %s failure %d", "nopos", 43);
    } else if (!strcmp(mode, "kill")) {
        CHECK(atexit(exit_99) == 0); /* would turn the status into 99 */
        gasnett_killmyprocess(7);
    } else if (!strcmp(mode, "condwait")) {
#if defined(GASNETT_THREAD_SAFE)
        fprintf(stderr, "tools_basic: condwait is a SEQ-only mode\n");
        return 1;
#else
        gasnett_mutex_t m = GASNETT_MUTEX_INITIALIZER;
        gasnett_cond_t c = GASNETT_COND_INITIALIZER;
        gasnett_mutex_lock(&m);
        gasnett_cond_wait(&c, &m);
        return 1;
#endif
    } else if (!*mode) {
        check_backtrace(argv[0]); /* first: it checks the state before init */
        check_macros();
        check_timers();
        check_atomics();
        check_locks_local();
#if defined(GASNETT_THREAD_SAFE)
        check_threads();
#endif
        check_env();
        check_parse_int();
        check_format_number();
        check_utilities();
        check_release_version();
        check_nsleep();
        check_rlimits();
        check_format_ex();
        check_format_vis();
        check_tools_120();
        check_debug_malloc();
        check_diagnostics();
    } else {
        fprintf(stderr, "usage: %s [verbose|yesno-garbage|int-garbage|fatal|nopos|kill|condwait]\n", argv[0]);
        return 2;
    }
    printf("tools_basic: OK (%s)\n",
#if defined(GASNETT_THREAD_SAFE)
           "PAR"
#else
           "SEQ"
#endif
    );
    return 0;
}
