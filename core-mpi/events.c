/* Events and implicit-event tracking (see events.h for the mechanism):
 * operation records and their free lists, completion targets, gex_Event_*,
 * gex_NBI_* and access regions. Test calls never poll; wait calls do.
 */
#include "events.h"

#include <stdlib.h>

typedef struct {
    gasneti_op_t *free;       /* op records ready for reuse */
    gasneti_op_t default_iop; /* nbi operations outside access regions */
    gasneti_op_t *region;     /* the open access region, or NULL */
} threaddata_t;

static __thread threaddata_t td = {NULL, {{0}, OP_MAGIC, OP_IOP, 1, 0, NULL, 0}, NULL};

/* Records a thread leaves behind when it exits, for other threads to reuse. */
static gasneti_op_t *spare;
static pthread_mutex_t spare_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_key_t exit_key;
static pthread_once_t exit_key_once = PTHREAD_ONCE_INIT;

static void donate_free_list(void *unused)
{
    (void)unused;
    pthread_mutex_lock(&spare_lock);
    while (td.free) {
        gasneti_op_t *op = td.free;
        td.free = op->next;
        op->next = spare;
        spare = op;
    }
    pthread_mutex_unlock(&spare_lock);
}

static void make_exit_key(void) { pthread_key_create(&exit_key, donate_free_list); }

#define SLAB 128

/* Refills this thread's free list: from what exited threads left, else a
 * new slab of SLAB records. */
static void refill(void)
{
    pthread_once(&exit_key_once, make_exit_key);
    pthread_setspecific(exit_key, &td); /* any non-NULL value: run the destructor */
    pthread_mutex_lock(&spare_lock);
    for (int i = 0; spare && i < SLAB; i++) {
        gasneti_op_t *op = spare;
        spare = op->next;
        op->next = td.free;
        td.free = op;
    }
    pthread_mutex_unlock(&spare_lock);
    if (td.free) return;
    gasneti_op_t *slab = calloc(SLAB, sizeof *slab);
    if (!slab) gasneti_fatalerror("out of memory for operation handles");
    for (int i = 0; i < SLAB; i++) {
        slab[i].magic = OP_MAGIC;
        slab[i].next = td.free;
        td.free = &slab[i];
    }
}

gasneti_op_t *gasneti_op_alloc(int kind)
{
    if (!td.free) refill();
    gasneti_op_t *op = td.free;
    td.free = op->next;
    op->kind = (uint8_t)kind;
    op->live = 1;
    op->has_leaf = 0;
    for (int i = 0; i < GASNETI_NCOUNTERS; i++) op->cnt[i] = 0;
    return op;
}

void gasneti_op_free(gasneti_op_t *op)
{
    op->live = 0;
    op->next = td.free;
    td.free = op;
}

int gasneti_op_done(gasneti_op_t *op)
{
    uint32_t any = 0;
    for (int i = 0; i < GASNETI_NCOUNTERS; i++) any |= __atomic_load_n(&op->cnt[i], __ATOMIC_ACQUIRE);
    return any == 0;
}

void gasneti_wait(gasneti_op_t *op, const char *call)
{
    if (gasneti_op_done(op)) return;
    GASNETI_CHECK_MAY_POLL(call);
    uint64_t t0 = GASNETI_TRACE_T0('S');
    int idle = 0;
    while (!gasneti_op_done(op)) gasneti_poll_wait(&idle);
    GASNETI_TRACE_TIME('S', call, t0);
}

gex_Event_t gasneti_event_of(gasneti_op_t *op)
{
    if (gasneti_op_done(op)) {
        gasneti_op_free(op);
        return GEX_EVENT_INVALID;
    }
    return op;
}

gasneti_op_t *gasneti_target_op(uintptr_t target)
{
    gasneti_op_t *op = gasneti_target_record(target);
    int which = gasneti_target_counter(target);
    if (!op || which >= GASNETI_NCOUNTERS || op->magic != OP_MAGIC)
        gasneti_fatalerror("a reply names operation %p (counter %d), which is not an operation "
                           "of this node", (void *)op, which);
    return op;
}

void gasneti_complete_n(uintptr_t target, uint32_t n)
{
    gasneti_op_t *op = gasneti_target_op(target);
    uint32_t was = __atomic_fetch_sub(&op->cnt[gasneti_target_counter(target)], n, __ATOMIC_RELEASE);
    if (was < n)
        gasneti_fatalerror("a reply completes operation %p more often than it was split", (void *)op);
}

void gasneti_complete(uintptr_t target) { gasneti_complete_n(target, 1); }

gasneti_op_t *gasneti_nbi_op(void) { return td.region ? td.region : &td.default_iop; }
int gasneti_in_access_region(void) { return td.region != NULL; }

/* ---- gex_Event_* */

static int is_leaf(gex_Event_t ev) { return ((uintptr_t)ev & 1) != 0; }

static gasneti_op_t *record_of(gex_Event_t ev, const char *call)
{
    gasneti_op_t *op = (gasneti_op_t *)((uintptr_t)ev & ~(uintptr_t)7);
    if (ev == GEX_EVENT_NO_OP)
        gasneti_fatalerror("%s: GEX_EVENT_NO_OP (a failed IMMEDIATE call) is not an event to "
                           "sync", call);
    if (!op || ((uintptr_t)ev & 6) || op->magic != OP_MAGIC || !op->live ||
        (is_leaf(ev) && !op->has_leaf))
        gasneti_fatalerror("%s: %p is not a live handle (already synced, or not a handle)", call,
                           (void *)ev);
    return op;
}

gasneti_op_t *gasneti_check_event(gex_Event_t ev, const char *call)
{
    if (is_leaf(ev) && ev != GEX_EVENT_NO_OP)
        gasneti_fatalerror("%s: %p is a leaf event, not a root", call, (void *)ev);
    return record_of(ev, call);
}

/* Whether ev is complete; a complete root is recycled. */
static int try_event(gex_Event_t ev, const char *call)
{
    if (ev == GEX_EVENT_INVALID) return 1;
    gasneti_op_t *op = record_of(ev, call);
    if (is_leaf(ev)) return __atomic_load_n(&op->cnt[GASNETI_LC], __ATOMIC_ACQUIRE) == 0;
    if (!gasneti_op_done(op)) return 0;
    gasneti_op_free(op);
    return 1;
}

int gasneti_test_one(gex_Event_t ev, const char *call)
{
    gasneti_flush(); /* an op in this thread's batch completes only once it is sent */
    return try_event(ev, call) ? GASNET_OK : GASNET_ERR_NOT_READY;
}

/* Completed entries become INVALID; returns how many live ones remain.
 * Leaves are tried before roots: an array may hold a root and its own
 * leaves in any order (spec v0.14), and a complete root is recycled, its
 * leaves complete with it (another thread's poll may have completed a
 * leaf found live in the first pass: the root's completion ends it too,
 * before the record can be reused). */
static void check_array(const gex_Event_t *ev, size_t n, const char *call)
{
    if (n && !ev) gasneti_fatalerror("%s: NULL event array of %zu entries", call, n);
}

static size_t sweep(gex_Event_t *ev, size_t n, size_t *completed, const char *call)
{
    size_t left = 0, leaves = 0;
    gasneti_flush();
    check_array(ev, n, call);
    for (size_t i = 0; i < n; i++) {
        if (ev[i] == GEX_EVENT_INVALID || !is_leaf(ev[i])) continue;
        if (try_event(ev[i], call)) {
            ev[i] = GEX_EVENT_INVALID;
            ++*completed;
        } else {
            leaves++;
        }
    }
    left = leaves;
    for (size_t i = 0; i < n; i++) {
        if (ev[i] == GEX_EVENT_INVALID || is_leaf(ev[i])) continue;
        uintptr_t root = (uintptr_t)ev[i];
        if (!try_event(ev[i], call)) {
            left++;
            continue;
        }
        ev[i] = GEX_EVENT_INVALID;
        ++*completed;
        /* its own leaves, counted live above; looked for only while some
         * are (a scan per root made large arrays of roots quadratic) */
        for (size_t j = 0; leaves && j < n; j++)
            if (is_leaf(ev[j]) && ((uintptr_t)ev[j] & ~(uintptr_t)7) == root) {
                ev[j] = GEX_EVENT_INVALID;
                ++*completed;
                left--;
                leaves--;
            }
    }
    return left;
}

int gasneti_test_all(gex_Event_t *ev, size_t n, const char *call)
{
    size_t done = 0;
    return sweep(ev, n, &done, call) ? GASNET_ERR_NOT_READY : GASNET_OK;
}

int gasneti_test_some(gex_Event_t *ev, size_t n, const char *call)
{
    size_t done = 0, left = sweep(ev, n, &done, call);
    return done || left == 0 ? GASNET_OK : GASNET_ERR_NOT_READY;
}

void gasneti_wait_one(gex_Event_t ev, const char *call)
{
    uint64_t t0 = GASNETI_TRACE_T0('S');
    int idle = 0;
    while (!try_event(ev, call)) {
        GASNETI_CHECK_MAY_POLL(call);
        gasneti_poll_wait(&idle);
    }
    GASNETI_TRACE_TIME('S', call, t0);
}

/* One entry at a time, leaves first (a root's completion recycles the
 * record its leaves point into), not a sweep of the whole array after
 * every poll: that was quadratic in the array's length (64,000 puts took
 * seconds to sync). */
void gasneti_wait_all(gex_Event_t *ev, size_t n, const char *call)
{
    uint64_t t0 = GASNETI_TRACE_T0('S');
    int idle = 0;
    check_array(ev, n, call);
    gasneti_flush();
    for (int leaves = 1; leaves >= 0; leaves--)
        for (size_t i = 0; i < n; i++) {
            if (ev[i] == GEX_EVENT_INVALID || is_leaf(ev[i]) != leaves) continue;
            while (!try_event(ev[i], call)) {
                GASNETI_CHECK_MAY_POLL(call);
                gasneti_poll_wait(&idle);
            }
            ev[i] = GEX_EVENT_INVALID;
        }
    GASNETI_TRACE_TIME('S', call, t0);
}

void gasneti_wait_some(gex_Event_t *ev, size_t n, const char *call)
{
    uint64_t t0 = GASNETI_TRACE_T0('S');
    size_t done = 0;
    int idle = 0;
    while (sweep(ev, n, &done, call) && !done) {
        GASNETI_CHECK_MAY_POLL(call);
        gasneti_poll_wait(&idle);
    }
    GASNETI_TRACE_TIME('S', call, t0);
}

static void check_zero_flags(gex_Flags_t flags, const char *call)
{
    GASNETI_CHECK_MAY_POLL(call);
    if (flags) gasneti_fatalerror("%s: flags must be 0 (got 0x%x)", call, (unsigned)flags);
}

/* Events and NBI cannot be tested or waited in restricted context (§4.3):
 * debug builds check every EX call. */
int gex_Event_Test(gex_Event_t ev)
{
    GASNETI_CHECK_MAY_POLL("gex_Event_Test");
    return gasneti_test_one(ev, "gex_Event_Test");
}

void gex_Event_Wait(gex_Event_t ev)
{
    GASNETI_CHECK_MAY_POLL("gex_Event_Wait");
    gasneti_wait_one(ev, "gex_Event_Wait");
}

int gex_Event_TestSome(gex_Event_t *ev, size_t n, gex_Flags_t flags)
{
    check_zero_flags(flags, "gex_Event_TestSome");
    return gasneti_test_some(ev, n, "gex_Event_TestSome");
}

void gex_Event_WaitSome(gex_Event_t *ev, size_t n, gex_Flags_t flags)
{
    check_zero_flags(flags, "gex_Event_WaitSome");
    gasneti_wait_some(ev, n, "gex_Event_WaitSome");
}

int gex_Event_TestAll(gex_Event_t *ev, size_t n, gex_Flags_t flags)
{
    check_zero_flags(flags, "gex_Event_TestAll");
    return gasneti_test_all(ev, n, "gex_Event_TestAll");
}

void gex_Event_WaitAll(gex_Event_t *ev, size_t n, gex_Flags_t flags)
{
    check_zero_flags(flags, "gex_Event_WaitAll");
    gasneti_wait_all(ev, n, "gex_Event_WaitAll");
}

gex_Event_t gex_Event_QueryLeaf(gex_Event_t root, gex_EC_t category)
{
    const char *call = "gex_Event_QueryLeaf";
    if (category != GEX_EC_LC)
        gasneti_fatalerror("%s: category 0x%x has no leaf events (only GEX_EC_LC does)", call,
                           category);
    if (root == GEX_EVENT_INVALID) return GEX_EVENT_INVALID;
    gasneti_op_t *op = gasneti_check_event(root, call);
    if (!op->has_leaf)
        gasneti_fatalerror("%s: the operation of %p has no LC leaf (it was initiated with "
                           "GEX_EVENT_NOW or GEX_EVENT_DEFER)", call, (void *)root);
    return gasneti_leaf_lc(op);
}

/* ---- implicit events */

static void check_no_region(const char *call)
{
    if (td.region)
        gasneti_fatalerror("%s inside an access region (implicit-handle syncs are not allowed "
                           "there)", call);
}

static int nbi_pending(gex_EC_t mask)
{
    for (int i = 0; i < GASNETI_NCOUNTERS; i++)
        if ((mask & (1U << i)) && __atomic_load_n(&td.default_iop.cnt[i], __ATOMIC_ACQUIRE)) return 1;
    return 0;
}

/* No implicit operation of this thread is pending: the common case of a
 * sync after shm-only work, which should cost next to nothing. */
static int nbi_idle(void)
{
    const uint32_t *cnt = td.default_iop.cnt;
    uint32_t pending = 0;
#pragma GCC unroll 8
    for (int i = 0; i < GASNETI_NCOUNTERS; i++) pending |= __atomic_load_n(&cnt[i], __ATOMIC_ACQUIRE);
    return !pending;
}

int gasneti_nbi_test(gex_EC_t mask, const char *call)
{
    check_no_region(call);
    gasneti_flush();
    return nbi_pending(mask) ? GASNET_ERR_NOT_READY : GASNET_OK;
}

void gasneti_nbi_wait(gex_EC_t mask, const char *call)
{
    check_no_region(call);
    if (nbi_idle()) return;
    uint64_t t0 = GASNETI_TRACE_T0('S');
    int idle = 0;
    while (nbi_pending(mask)) {
        GASNETI_CHECK_MAY_POLL(call);
        gasneti_poll_wait(&idle);
    }
    GASNETI_TRACE_TIME('S', call, t0);
}

int gex_NBI_Test(gex_EC_t mask, gex_Flags_t flags)
{
    check_zero_flags(flags, "gex_NBI_Test");
    return gasneti_nbi_test(mask, "gex_NBI_Test");
}

void gex_NBI_Wait(gex_EC_t mask, gex_Flags_t flags)
{
    check_zero_flags(flags, "gex_NBI_Wait");
    gasneti_nbi_wait(mask, "gex_NBI_Wait");
}

void gasneti_begin_region(const char *call)
{
    if (td.region) gasneti_fatalerror("%s: access regions do not nest", call);
    td.region = gasneti_op_alloc(OP_IOP);
}

gex_Event_t gasneti_end_region(const char *call)
{
    gasneti_op_t *region = td.region;
    if (!region) gasneti_fatalerror("%s without a matching begin", call);
    td.region = NULL;
    return gasneti_event_of(region);
}

void gex_NBI_BeginAccessRegion(gex_Flags_t flags)
{
    check_zero_flags(flags, "gex_NBI_BeginAccessRegion");
    gasneti_begin_region("gex_NBI_BeginAccessRegion");
}

gex_Event_t gex_NBI_EndAccessRegion(gex_Flags_t flags)
{
    check_zero_flags(flags, "gex_NBI_EndAccessRegion");
    return gasneti_end_region("gex_NBI_EndAccessRegion");
}
