/* gasnet_tools_diag.c: self-tests of the tools, the communication-free half
 * of gasnett_run_diagnostics (gasneti_tools_diagnostics, declared in
 * gasnet_tools_internal.h).
 *
 * Sections, by letter:
 *   A timers: readings never go back; granularity and overhead positive;
 *     the tick conversions agree; gasnett_nsleep lasts at least its time.
 *   B memory barriers: a writer publishes data with gasnett_local_wmb and
 *     readers take it with gasnett_local_rmb (relaxed atomic loads and
 *     stores, so only the fences order them); a store-load (Dekker) round
 *     between two threads with gasnett_local_mb never lets both miss.
 *   C atomics: each operation of every family (gasnett_atomic, 32, 64 and
 *     the strong ones) against its definition, wrap-around included; then
 *     all threads at once on shared counters (increment, add, CAS loops,
 *     decrement-and-test: exactly one thread sees zero).
 *   D mutexes: a plain counter under gasnett_mutex_t from every thread;
 *     trylock of a mutex another thread holds gives EBUSY.
 *   E condition variables: a turn passed round the threads in order with
 *     gasnett_cond_wait/broadcast.
 *   F rwlocks: readers never see a half-done write of a pair.
 *   G thread keys: each thread starts at NULL and sees only its own value.
 *   H the checked allocator: blocks allocated, grown, copied, checked and
 *     freed from every thread at once keep their contents.
 *
 * In a SEQ build the checks run in the calling thread only (threadcnt is
 * taken as 1): there the plain atomics and no-op locks have no contended
 * behaviour to check, and gasnett_cond_wait is never called. Each failed
 * check prints "gasnett diagnostics: <section>: <what>" on stderr.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#define GASNETI_BUILDING_TOOLS 1
#define GASNET_DEBUGMALLOC 1 /* section H checks the checked allocator in every build */
#include "gasnet_tools.h"
#include "gasnet_tools_internal.h"

#include <pthread.h>
#include <stdarg.h>

#define DIAG_MAX_THREADS 256
#define DIAG_DEFAULT_ITERS 1000
#define DIAG_DEFAULT_THREADS 4

static gasnett_strongatomic_t diag_failures = gasnett_strongatomic_init(0);

GASNETT_FORMAT_PRINTF(diag_fail, 2, 3, static void diag_fail(const char *section, const char *fmt, ...));
static void diag_fail(const char *section, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fprintf(stderr, "gasnett diagnostics: %s: %s\n", section, msg);
    fflush(stderr);
    gasnett_strongatomic_increment(&diag_failures, 0);
}

#define DIAG_CHECK(section, cond)                                                         \
    do {                                                                                  \
        if (!(cond)) diag_fail(section, "check failed: %s (line %d)", #cond, __LINE__);    \
    } while (0)
#define DIAG_EQ(section, what, got, want)                                                           \
    do {                                                                                            \
        uint64_t got_ = (uint64_t)(got), want_ = (uint64_t)(want);                                  \
        if (got_ != want_)                                                                          \
            diag_fail(section, "%s is %" PRIu64 ", expected %" PRIu64, what, got_, want_);          \
    } while (0)

/* ---- running a section on every thread -------------------------------- */

struct diag_run {
    int iters, nthreads;
    pthread_barrier_t barrier;
};
struct diag_thread {
    struct diag_run *run;
    int id;
};

static void diag_barrier(struct diag_run *run)
{
    int rc = pthread_barrier_wait(&run->barrier);
    if (rc != 0 && rc != PTHREAD_BARRIER_SERIAL_THREAD)
        gasnett_fatalerror("gasnett diagnostics: pthread_barrier_wait failed: %s", strerror(rc));
}

/* Runs fn on run->nthreads threads (the calling thread alone when 1). */
static void run_threads(struct diag_run *run, void *(*fn)(void *))
{
    struct diag_thread th[DIAG_MAX_THREADS];
    pthread_t tid[DIAG_MAX_THREADS];
    int i, rc;

    for (i = 0; i < run->nthreads; i++) {
        th[i].run = run;
        th[i].id = i;
    }
    if (run->nthreads == 1) {
        fn(&th[0]);
        return;
    }
    for (i = 0; i < run->nthreads; i++) {
        if ((rc = pthread_create(&tid[i], NULL, fn, &th[i])) != 0)
            gasnett_fatalerror("gasnett diagnostics: cannot start thread %d of %d: %s", i, run->nthreads,
                               strerror(rc));
    }
    for (i = 0; i < run->nthreads; i++) pthread_join(tid[i], NULL);
}

/* A spin-wait step: other threads may need this core. */
#define DIAG_WAIT_WHILE(cond) \
    do {                      \
        while (cond) gasnett_sched_yield(); \
    } while (0)

/* ---- A: timers -------------------------------------------------------- */

static void diag_timers(struct diag_run *run)
{
    const char *S = "A (timers)";
    gasnett_tick_t prev = gasnett_ticks_now(), t0, t1;
    double g = gasnett_tick_granularityus(), o = gasnett_tick_overheadus();
    int i;

    for (i = 0; i < run->iters; i++) {
        gasnett_tick_t t = gasnett_ticks_now();
        if (t < prev) {
            diag_fail(S, "gasnett_ticks_now went back from %" PRIu64 " to %" PRIu64, (uint64_t)prev, (uint64_t)t);
            break;
        }
        prev = t;
    }
    if (!(g > 0) || !(o > 0)) diag_fail(S, "granularity %g us and overhead %g us must be positive", g, o);
    t0 = gasnett_ticks_now();
    DIAG_CHECK(S, gasnett_nsleep(200000) == 0);
    t1 = gasnett_ticks_now();
    if (gasnett_ticks_to_ns(t1 - t0) < 200000)
        diag_fail(S, "gasnett_nsleep(200000) returned after %" PRIu64 " ns", gasnett_ticks_to_ns(t1 - t0));
    DIAG_EQ(S, "gasnett_ticks_to_us of the sleep", gasnett_ticks_to_us(t1 - t0),
            gasnett_ticks_to_ns(t1 - t0) / 1000);
}

/* ---- B: memory barriers ------------------------------------------------ */

#define MB_WORDS 8
static uint64_t mb_payload[MB_WORDS], mb_flag;
static int mb_x, mb_y, mb_r[2];
static gasnett_atomic_t mb_acks;

#define RELAXED_STORE(p, v) __atomic_store_n(p, v, __ATOMIC_RELAXED)
#define RELAXED_LOAD(p) __atomic_load_n(p, __ATOMIC_RELAXED)

static void *diag_membar_thread(void *arg)
{
    const char *S = "B (memory barriers)";
    struct diag_thread *me = (struct diag_thread *)arg;
    struct diag_run *run = me->run;
    int n = run->nthreads, round, k, bad = 0;

    /* Message passing: thread 0 writes, the others read. */
    for (round = 1; round <= run->iters && n > 1; round++) {
        if (me->id == 0) {
            for (k = 0; k < MB_WORDS; k++) RELAXED_STORE(&mb_payload[k], (uint64_t)round);
            gasnett_local_wmb();
            RELAXED_STORE(&mb_flag, (uint64_t)round);
            DIAG_WAIT_WHILE(gasnett_atomic_read(&mb_acks, GASNETT_ATOMIC_ACQ) !=
                            (gasnett_atomic_val_t)round * (gasnett_atomic_val_t)(n - 1));
        } else {
            DIAG_WAIT_WHILE(RELAXED_LOAD(&mb_flag) != (uint64_t)round);
            gasnett_local_rmb();
            for (k = 0; k < MB_WORDS; k++) {
                uint64_t v = RELAXED_LOAD(&mb_payload[k]);
                if (v != (uint64_t)round && !bad++)
                    diag_fail(S, "thread %d saw the flag of round %d but word %d of its data from round %" PRIu64,
                              me->id, round, k, v);
            }
            gasnett_atomic_increment(&mb_acks, GASNETT_ATOMIC_REL);
        }
    }
    diag_barrier(run);

    /* Store, full barrier, load: threads 0 and 1 cannot both read 0. */
    for (round = 0; round < run->iters && n > 1; round++) {
        if (me->id == 0) {
            RELAXED_STORE(&mb_x, 0);
            RELAXED_STORE(&mb_y, 0);
        }
        diag_barrier(run);
        if (me->id < 2) {
            RELAXED_STORE(me->id ? &mb_y : &mb_x, 1);
            gasnett_local_mb();
            mb_r[me->id] = RELAXED_LOAD(me->id ? &mb_x : &mb_y);
        }
        diag_barrier(run);
        if (me->id == 0 && mb_r[0] == 0 && mb_r[1] == 0 && !bad++)
            diag_fail(S, "round %d: both threads missed the other's store across gasnett_local_mb", round);
    }
    if (n == 1) { /* one thread: the fences only have to run */
        RELAXED_STORE(&mb_flag, 1);
        gasnett_local_wmb();
        gasnett_local_rmb();
        gasnett_local_mb();
        DIAG_CHECK(S, RELAXED_LOAD(&mb_flag) == 1);
    }
    return NULL;
}

static void diag_membar(struct diag_run *run)
{
    memset(mb_payload, 0, sizeof mb_payload);
    mb_flag = 0;
    gasnett_atomic_set(&mb_acks, 0, 0);
    run_threads(run, diag_membar_thread);
}

/* ---- C: atomics ---------------------------------------------------------- */

/* Every operation of family F (type T, value type V) once. */
#define DIAG_ATOMIC_FAMILY(S, F, T, V)                                         \
    do {                                                                       \
        T a = F##_init(5);                                                     \
        const V maxv = (V) ~(V)0;                                              \
        DIAG_CHECK(S, F##_read(&a, 0) == 5);                                   \
        F##_set(&a, 7, GASNETT_ATOMIC_REL);                                    \
        DIAG_CHECK(S, F##_read(&a, GASNETT_ATOMIC_ACQ) == 7);                  \
        F##_increment(&a, 0);                                                  \
        F##_decrement(&a, 0);                                                  \
        F##_increment(&a, 0);                                                  \
        DIAG_CHECK(S, F##_add(&a, 3, 0) == 11);                                \
        DIAG_CHECK(S, F##_subtract(&a, 4, 0) == 7);                            \
        DIAG_CHECK(S, F##_swap(&a, 9, 0) == 7);                                \
        DIAG_CHECK(S, F##_compare_and_swap(&a, 9, 2, GASNETT_ATOMIC_ACQ_IF_TRUE)); \
        DIAG_CHECK(S, !F##_compare_and_swap(&a, 9, 3, GASNETT_ATOMIC_ACQ_IF_FALSE)); \
        DIAG_CHECK(S, !F##_decrement_and_test(&a, 0));                         \
        DIAG_CHECK(S, F##_decrement_and_test(&a, 0));                          \
        F##_decrement(&a, GASNETT_ATOMIC_MB_PRE | GASNETT_ATOMIC_MB_POST);     \
        DIAG_CHECK(S, F##_read(&a, 0) == maxv);                                \
        DIAG_CHECK(S, F##_add(&a, 2, 0) == 1);                                 \
    } while (0)

static gasnett_atomic_t at_inc, at_dectest, at_zero_hits;
static gasnett_atomic64_t at_add, at_cas;
static gasnett_strongatomic32_t at_strong;

static void *diag_atomic_thread(void *arg)
{
    struct diag_thread *me = (struct diag_thread *)arg;
    int i;
    diag_barrier(me->run);
    for (i = 0; i < me->run->iters; i++) {
        uint64_t old;
        gasnett_atomic_increment(&at_inc, 0);
        gasnett_atomic64_add(&at_add, 3, 0);
        gasnett_strongatomic32_increment(&at_strong, 0);
        do {
            old = gasnett_atomic64_read(&at_cas, 0);
        } while (!gasnett_atomic64_compare_and_swap(&at_cas, old, old + 1, 0));
        if (gasnett_atomic_decrement_and_test(&at_dectest, GASNETT_ATOMIC_ACQ_IF_TRUE))
            gasnett_atomic_increment(&at_zero_hits, 0);
    }
    return NULL;
}

static void diag_atomics(struct diag_run *run)
{
    const char *S = "C (atomics)";
    uint64_t total = (uint64_t)run->iters * (uint64_t)run->nthreads;

    DIAG_ATOMIC_FAMILY(S, gasnett_atomic, gasnett_atomic_t, gasnett_atomic_val_t);
    DIAG_ATOMIC_FAMILY(S, gasnett_atomic32, gasnett_atomic32_t, uint32_t);
    DIAG_ATOMIC_FAMILY(S, gasnett_atomic64, gasnett_atomic64_t, uint64_t);
    DIAG_ATOMIC_FAMILY(S, gasnett_strongatomic, gasnett_strongatomic_t, gasnett_atomic_val_t);
    DIAG_ATOMIC_FAMILY(S, gasnett_strongatomic32, gasnett_strongatomic32_t, uint32_t);
    DIAG_ATOMIC_FAMILY(S, gasnett_strongatomic64, gasnett_strongatomic64_t, uint64_t);

    gasnett_atomic_set(&at_inc, 0, 0);
    gasnett_atomic_set(&at_dectest, (gasnett_atomic_val_t)total, 0);
    gasnett_atomic_set(&at_zero_hits, 0, 0);
    gasnett_atomic64_set(&at_add, 0, 0);
    gasnett_atomic64_set(&at_cas, 0, 0);
    gasnett_strongatomic32_set(&at_strong, 0, 0);
    run_threads(run, diag_atomic_thread);
    DIAG_EQ(S, "gasnett_atomic_increment total", gasnett_atomic_read(&at_inc, 0), (gasnett_atomic_val_t)total);
    DIAG_EQ(S, "gasnett_atomic64_add total", gasnett_atomic64_read(&at_add, 0), 3 * total);
    DIAG_EQ(S, "gasnett_strongatomic32_increment total", gasnett_strongatomic32_read(&at_strong, 0),
            (uint32_t)total);
    DIAG_EQ(S, "gasnett_atomic64_compare_and_swap increments", gasnett_atomic64_read(&at_cas, 0), total);
    DIAG_EQ(S, "gasnett_atomic_decrement_and_test counter", gasnett_atomic_read(&at_dectest, 0), 0);
    DIAG_EQ(S, "threads that saw gasnett_atomic_decrement_and_test reach zero",
            gasnett_atomic_read(&at_zero_hits, 0), total ? 1 : 0);
}

/* ---- D: mutexes ------------------------------------------------------------ */

static gasnett_mutex_t mx_lock = GASNETT_MUTEX_INITIALIZER;
static uint64_t mx_count; /* under mx_lock */

static void *diag_mutex_thread(void *arg)
{
    const char *S = "D (mutexes)";
    struct diag_thread *me = (struct diag_thread *)arg;
    int i;
    for (i = 0; i < me->run->iters; i++) {
        gasnett_mutex_lock(&mx_lock);
        mx_count++;
        gasnett_mutex_unlock(&mx_lock);
    }
    /* Thread 0 holds the lock while the others try it. */
    diag_barrier(me->run);
    if (me->id == 0) gasnett_mutex_lock(&mx_lock);
    diag_barrier(me->run);
    if (me->id != 0) {
        int rc = gasnett_mutex_trylock(&mx_lock);
        if (rc != EBUSY) diag_fail(S, "gasnett_mutex_trylock of a mutex another thread holds gave %d, not EBUSY", rc);
        if (rc == 0) gasnett_mutex_unlock(&mx_lock);
    }
    diag_barrier(me->run);
    if (me->id == 0) gasnett_mutex_unlock(&mx_lock);
    return NULL;
}

static void diag_mutex(struct diag_run *run)
{
    const char *S = "D (mutexes)";
    gasnett_mutex_t m;
    mx_count = 0;
    run_threads(run, diag_mutex_thread);
    DIAG_EQ(S, "counter incremented under gasnett_mutex_lock", mx_count,
            (uint64_t)run->iters * (uint64_t)run->nthreads);
    gasnett_mutex_init(&m);
    DIAG_CHECK(S, gasnett_mutex_trylock(&m) == 0);
    gasnett_mutex_unlock(&m);
    gasnett_mutex_destroy(&m);
}

/* ---- E: condition variables ------------------------------------------------ */

static gasnett_mutex_t cv_lock = GASNETT_MUTEX_INITIALIZER;
static gasnett_cond_t cv_turn_changed = GASNETT_COND_INITIALIZER;
static int cv_turn, cv_turns; /* under cv_lock */

static void *diag_cond_thread(void *arg)
{
    const char *S = "E (condition variables)";
    struct diag_thread *me = (struct diag_thread *)arg;
    int n = me->run->nthreads, mine = 0;

    gasnett_mutex_lock(&cv_lock);
    for (;;) {
#if defined(GASNETT_THREAD_SAFE)
        while (cv_turn < cv_turns && cv_turn % n != me->id) gasnett_cond_wait(&cv_turn_changed, &cv_lock);
#endif
        if (cv_turn >= cv_turns) break;
        cv_turn++;
        mine++;
        gasnett_cond_broadcast(&cv_turn_changed);
    }
    gasnett_mutex_unlock(&cv_lock);
    if (mine != cv_turns / n + (me->id < cv_turns % n))
        diag_fail(S, "thread %d took %d turns of %d", me->id, mine, cv_turns);
    return NULL;
}

static void diag_cond(struct diag_run *run)
{
    gasnett_cond_t c;
    cv_turn = 0;
    cv_turns = run->iters;
    run_threads(run, diag_cond_thread);
    gasnett_cond_init(&c);
    gasnett_cond_signal(&c);
    gasnett_cond_destroy(&c);
}

/* ---- F: rwlocks ---------------------------------------------------------------- */

static gasnett_rwlock_t rw_lock = GASNETT_RWLOCK_INITIALIZER;
static uint64_t rw_a, rw_b; /* equal whenever rw_lock is not write-locked */

static void *diag_rwlock_thread(void *arg)
{
    const char *S = "F (rwlocks)";
    struct diag_thread *me = (struct diag_thread *)arg;
    int i, bad = 0;
    for (i = 0; i < me->run->iters; i++) {
        if (i % 8 == 0) {
            gasnett_rwlock_wrlock(&rw_lock);
            rw_a++;
            gasnett_sched_yield(); /* widen the window a reader must not see */
            rw_b++;
            gasnett_rwlock_unlock(&rw_lock);
        } else {
            uint64_t a, b;
            gasnett_rwlock_rdlock(&rw_lock);
            a = rw_a;
            b = rw_b;
            gasnett_rwlock_unlock(&rw_lock);
            if (a != b && !bad++) diag_fail(S, "thread %d read a half-done write under gasnett_rwlock_rdlock", me->id);
        }
    }
    return NULL;
}

static void diag_rwlock(struct diag_run *run)
{
    const char *S = "F (rwlocks)";
    rw_a = rw_b = 0;
    run_threads(run, diag_rwlock_thread);
    DIAG_EQ(S, "writes under gasnett_rwlock_wrlock", rw_a, (uint64_t)run->nthreads * (uint64_t)((run->iters + 7) / 8));
    DIAG_CHECK(S, rw_a == rw_b);
}

/* ---- G: thread keys ------------------------------------------------------------ */

GASNETT_THREADKEY_DEFINE(gasneti_diag_key);

static void *diag_threadkey_thread(void *arg)
{
    const char *S = "G (thread keys)";
    struct diag_thread *me = (struct diag_thread *)arg;
    gasnett_threadkey_init(gasneti_diag_key);
    if (gasnett_threadkey_get(gasneti_diag_key) != NULL) diag_fail(S, "thread %d's key did not start at NULL", me->id);
    gasnett_threadkey_set(gasneti_diag_key, me);
    diag_barrier(me->run); /* every thread has set its value */
    if (gasnett_threadkey_get(gasneti_diag_key) != me || gasnett_threadkey_get_noinit(gasneti_diag_key) != me)
        diag_fail(S, "thread %d does not see the value it set", me->id);
    gasnett_threadkey_set_noinit(gasneti_diag_key, NULL);
    return NULL;
}

static void diag_threadkey(struct diag_run *run)
{
    run_threads(run, diag_threadkey_thread);
}

/* ---- H: the checked allocator --------------------------------------------------- */

static int all_bytes(const unsigned char *p, size_t n, unsigned char v)
{
    size_t i;
    for (i = 0; i < n; i++) {
        if (p[i] != v) return 0;
    }
    return 1;
}

static void *diag_malloc_thread(void *arg)
{
    const char *S = "H (checked allocator)";
    struct diag_thread *me = (struct diag_thread *)arg;
    unsigned char tag = (unsigned char)(me->id + 1);
    int i, bad = 0;
    for (i = 0; i < me->run->iters; i++) {
        size_t n = (size_t)(i * 7 % 200);
        unsigned char *p = (unsigned char *)gasnett_debug_malloc(n);
        unsigned char *z = (unsigned char *)gasnett_debug_calloc(3, n);
        char *s;
        if (!p || !z) gasnett_fatalerror("gasnett diagnostics: %s: out of memory", S);
        memset(p, tag, n);
        gasnett_debug_memcheck(p);
        p = (unsigned char *)gasnett_debug_realloc(p, 2 * n + 1);
        s = gasnett_debug_strdup("diagnostics");
        if (!p || !s) gasnett_fatalerror("gasnett diagnostics: %s: out of memory", S);
        if ((!all_bytes(p, n, tag) || !all_bytes(z, 3 * n, 0) || strcmp(s, "diagnostics")) && !bad++)
            diag_fail(S, "thread %d: a block lost its contents (round %d)", me->id, i);
        gasnett_debug_free(s);
        gasnett_debug_free(z);
        gasnett_debug_free(p);
        if (i % 64 == 0) gasnett_debug_memcheck_one();
    }
    return NULL;
}

static void diag_malloc(struct diag_run *run)
{
    const char *S = "H (checked allocator)";
    gasnett_heapstats_t before, after;
    gasnett_getheapstats(&before);
    run_threads(run, diag_malloc_thread);
    gasnett_debug_memcheck_all();
    gasnett_getheapstats(&after);
    /* Other threads of the client may allocate too: only lower bounds. */
    DIAG_CHECK(S, after.allocated_objects - before.allocated_objects >= 4 * (uint64_t)run->iters * (uint64_t)run->nthreads);
    DIAG_CHECK(S, after.freed_objects - before.freed_objects >= 4 * (uint64_t)run->iters * (uint64_t)run->nthreads);
}

/* ---- the sections --------------------------------------------------------------- */

static const struct {
    char letter;
    void (*fn)(struct diag_run *run);
} diag_sections[] = {{'A', diag_timers},  {'B', diag_membar}, {'C', diag_atomics},   {'D', diag_mutex},
                     {'E', diag_cond},    {'F', diag_rwlock}, {'G', diag_threadkey}, {'H', diag_malloc}};

int gasneti_tools_diagnostics(int iters, int threadcnt, const char *sections)
{
    struct diag_run run;
    size_t i;
    int rc, start;

    if (iters < 0 || threadcnt < 0 || threadcnt > DIAG_MAX_THREADS) {
        fprintf(stderr, "gasnett diagnostics: iters=%d threadcnt=%d: iters must be >= 0 and threadcnt 0..%d\n", iters,
                threadcnt, DIAG_MAX_THREADS);
        return 1;
    }
    run.iters = iters ? iters : DIAG_DEFAULT_ITERS;
#if defined(GASNETT_THREAD_SAFE)
    run.nthreads = threadcnt ? threadcnt : DIAG_DEFAULT_THREADS;
#else
    run.nthreads = 1;
#endif
    if ((rc = pthread_barrier_init(&run.barrier, NULL, (unsigned)run.nthreads)) != 0)
        gasnett_fatalerror("gasnett diagnostics: pthread_barrier_init failed: %s", strerror(rc));
    start = (int)gasnett_strongatomic_read(&diag_failures, 0);
    for (i = 0; i < sizeof diag_sections / sizeof diag_sections[0]; i++) {
        char letter = diag_sections[i].letter;
        if (sections && *sections && !strchr(sections, letter) && !strchr(sections, tolower((unsigned char)letter)))
            continue;
        diag_sections[i].fn(&run);
    }
    pthread_barrier_destroy(&run.barrier);
    return (int)gasnett_strongatomic_read(&diag_failures, 0) - start;
}
