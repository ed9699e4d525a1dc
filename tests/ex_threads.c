/* ex_threads: GASNet-EX calls from several threads at once (spec §4.5),
 * from the spec alone.
 *
 *   ex_threads [THREADS] [ITERATIONS]      (SEQ builds: one thread)
 *
 * Every thread, concurrently with the others, does per iteration to a
 * rotating peer (itself included): an NB put with an LC event and an NB
 * get synced with WaitAll; GROUP NBI puts synced by its own
 * gex_NBI_Wait(GEX_EC_LC) then (GEX_EC_PUT), and NBI gets by
 * gex_NBI_Wait(GEX_EC_GET); an access region whose root it waits; an AM
 * Medium request with a GROUP local completion (gex_NBI_Wait(GEX_EC_AM))
 * answered by a Medium reply, and a Long request with an event pointer.
 * Events and NBI are per thread: each thread syncs only what it started,
 * and its data must be complete when its own sync returns. Each thread
 * owns its slots in every segment, so the checks are exact. Handlers
 * and threads update one count under a handler-safe lock; gex_HSL_Trylock
 * answers GASNET_OK for a free lock and (PAR) GASNET_ERR_NOT_READY for one
 * another thread holds.
 */
#include "ex_test.h"

#include <pthread.h>
#include <stdatomic.h>

#define MAXT 16
#define CHUNK 3000 /* bytes per operation; not a multiple of anything */
#define SLOT (8 * CHUNK)

static ex_ctx_t X;
static void **seg_of;
static int nthreads = 4, iters = 40;
static atomic_int replies[MAXT];
/* a count kept under a handler-safe lock by handlers and threads alike */
static gex_HSL_t count_lock = GEX_HSL_INITIALIZER;
static long handled, worked;

#define H_REQ 200
#define H_REP 201
#define H_LONG 202

static unsigned seed_of(int t, int it, int k) { return X.me * 7919u + (unsigned)t * 131u + (unsigned)it * 17u + (unsigned)k; }

/* Medium request: check, echo the payload back; a0 = thread, a1 = seed */
static void req_h(gex_Token_t tok, void *buf, size_t n, gex_AM_Arg_t t, gex_AM_Arg_t seed)
{
    CHECK(n == CHUNK && ex_verify(buf, n, (unsigned)seed) == n, "thread %d's request payload", t);
    gex_HSL_Lock(&count_lock);
    handled++;
    gex_HSL_Unlock(&count_lock);
    CHECK_OK(gex_AM_ReplyMedium2(tok, H_REP, buf, n, GEX_EVENT_NOW, 0, t, seed));
}
static void rep_h(gex_Token_t tok, void *buf, size_t n, gex_AM_Arg_t t, gex_AM_Arg_t seed)
{
    (void)tok;
    CHECK(n == CHUNK && ex_verify(buf, n, (unsigned)seed) == n, "thread %d's reply payload", t);
    CHECK(t >= 0 && t < MAXT, "thread %d", t);
    atomic_fetch_add(&replies[t], 1);
}
/* Long request: the data is in place; reply Short */
static void long_h(gex_Token_t tok, void *buf, size_t n, gex_AM_Arg_t t, gex_AM_Arg_t seed)
{
    CHECK(n == CHUNK && ex_verify(buf, n, (unsigned)seed) == n, "thread %d's Long payload", t);
    CHECK_OK(gex_AM_ReplyMedium2(tok, H_REP, buf, n, GEX_EVENT_NOW, 0, t, seed));
}

static char *slot(gex_Rank_t r, int t, int k) { return (char *)seg_of[r] + ((size_t)X.me * MAXT + (size_t)t) * SLOT + (size_t)k * CHUNK; }

static void *worker(void *arg)
{
    int t = (int)(intptr_t)arg;
    char *src = malloc(4 * CHUNK), *dst = malloc(4 * CHUNK);
    CHECK(src && dst, "out of memory");
    int expect = 0;
    for (int it = 0; it < iters; it++) {
        gex_Rank_t r = (X.me + 1 + (gex_Rank_t)(it + t)) % X.n;
        /* NB put with an LC event, NB get, WaitAll */
        ex_fill(src, CHUNK, seed_of(t, it, 0));
        gex_Event_t lc, ev[2];
        ev[0] = gex_RMA_PutNB(X.tm, r, slot(r, t, 0), src, CHUNK, &lc, 0);
        gex_Event_Wait(lc);
        memset(src, 0xee, CHUNK);
        gex_Event_Wait(ev[0]);
        ev[0] = gex_RMA_GetNB(X.tm, dst, r, slot(r, t, 0), CHUNK, 0);
        ev[1] = gex_RMA_GetNB(X.tm, dst + CHUNK, r, slot(r, t, 0), CHUNK, 0);
        gex_Event_WaitAll(ev, 2, 0);
        CHECK(ex_verify(dst, CHUNK, seed_of(t, it, 0)) == CHUNK && ex_verify(dst + CHUNK, CHUNK, seed_of(t, it, 0)) == CHUNK,
              "thread %d: NB put/get to %u", t, r);
        /* GROUP NBI puts, NBI gets */
        for (int k = 1; k <= 3; k++) {
            ex_fill(src + (k - 1) * CHUNK, CHUNK, seed_of(t, it, k));
            CHECK_OK(gex_RMA_PutNBI(X.tm, r, slot(r, t, k), src + (k - 1) * CHUNK, CHUNK, GEX_EVENT_GROUP, 0));
        }
        gex_NBI_Wait(GEX_EC_LC, 0);
        memset(src, 0xee, 3 * CHUNK);
        gex_NBI_Wait(GEX_EC_PUT, 0);
        for (int k = 1; k <= 3; k++) CHECK_OK(gex_RMA_GetNBI(X.tm, dst + (k - 1) * CHUNK, r, slot(r, t, k), CHUNK, 0));
        gex_NBI_Wait(GEX_EC_GET, 0);
        for (int k = 1; k <= 3; k++)
            CHECK(ex_verify(dst + (k - 1) * CHUNK, CHUNK, seed_of(t, it, k)) == CHUNK, "thread %d: NBI put/get %d", t, k);
        /* an access region */
        gex_NBI_BeginAccessRegion(0);
        ex_fill(src, CHUNK, seed_of(t, it, 4));
        CHECK_OK(gex_RMA_PutNBI(X.tm, r, slot(r, t, 4), src, CHUNK, GEX_EVENT_DEFER, 0));
        CHECK_OK(gex_RMA_PutNBIVal(X.tm, r, slot(r, t, 5), (gex_RMA_Value_t)seed_of(t, it, 5), 4, 0));
        gex_Event_t root = gex_NBI_EndAccessRegion(0);
        gex_Event_Wait(root);
        CHECK_OK(gex_RMA_GetBlocking(X.tm, dst, r, slot(r, t, 4), CHUNK, 0));
        CHECK(ex_verify(dst, CHUNK, seed_of(t, it, 4)) == CHUNK, "thread %d: put in an access region", t);
        CHECK(gex_RMA_GetBlockingVal(X.tm, r, slot(r, t, 5), 4, 0) == (gex_RMA_Value_t)(uint32_t)seed_of(t, it, 5),
              "thread %d: PutNBIVal in an access region", t);
        /* AMs: Medium with GROUP local completion, Long with an LC event */
        ex_fill(src, CHUNK, seed_of(t, it, 6));
        CHECK_OK(gex_AM_RequestMedium2(X.tm, r, H_REQ, src, CHUNK, GEX_EVENT_GROUP, 0, t, (gex_AM_Arg_t)seed_of(t, it, 6)));
        gex_NBI_Wait(GEX_EC_AM, 0);
        memset(src, 0xee, CHUNK);
        ex_fill(src + CHUNK, CHUNK, seed_of(t, it, 7));
        gex_Event_t amlc;
        CHECK_OK(gex_AM_RequestLong2(X.tm, r, H_LONG, src + CHUNK, CHUNK, slot(r, t, 7), &amlc, 0, t,
                                     (gex_AM_Arg_t)seed_of(t, it, 7)));
        gex_Event_Wait(amlc);
        memset(src + CHUNK, 0xee, CHUNK);
        expect += 2;
        GASNET_BLOCKUNTIL(atomic_load(&replies[t]) == expect);
        gex_HSL_Lock(&count_lock);
        worked++;
        gex_HSL_Unlock(&count_lock);
    }
    free(src);
    free(dst);
    return NULL;
}

#ifdef GASNET_PAR
static void *try_held(void *lock)
{
    int rc = gex_HSL_Trylock(lock);
    CHECK(rc == GASNET_ERR_NOT_READY, "gex_HSL_Trylock of a lock another thread holds returned %d", rc);
    return NULL;
}
#endif

/* gex_HSL_* (§5.4): Trylock's two answers, a dynamic lock */
static void hsl_basics(void)
{
    gex_HSL_t l;
    gex_HSL_Init(&l);
    CHECK(gex_HSL_Trylock(&l) == GASNET_OK, "gex_HSL_Trylock of a free lock");
#ifdef GASNET_PAR
    pthread_t th;
    CHECK(pthread_create(&th, NULL, try_held, &l) == 0, "pthread_create");
    pthread_join(th, NULL);
#endif
    gex_HSL_Unlock(&l);
    gex_HSL_Lock(&l);
    gex_HSL_Unlock(&l);
    gex_HSL_Destroy(&l);
}

int main(int argc, char **argv)
{
    if (argc > 1) nthreads = atoi(argv[1]);
    if (argc > 2) iters = atoi(argv[2]);
#ifndef GASNET_PAR
    nthreads = 1;
#endif
    ex_init(&X, "ex_threads", &argc, &argv, 0);
    CHECK(nthreads >= 1 && nthreads <= MAXT, "1..%d threads", MAXT);
    ex_attach(&X, (size_t)X.n * MAXT * SLOT);
    seg_of = calloc(X.n, sizeof *seg_of);
    CHECK(seg_of != NULL, "out of memory");
    for (gex_Rank_t r = 0; r < X.n; r++) seg_of[r] = ex_peer_seg(X.tm, r, NULL);
    gex_AM_Entry_t t[] = {{H_REQ, (gex_AM_Fn_t)req_h, GEX_FLAG_AM_MEDIUM | GEX_FLAG_AM_REQUEST, 2, NULL, "req"},
                          {H_REP, (gex_AM_Fn_t)rep_h, GEX_FLAG_AM_MEDIUM | GEX_FLAG_AM_REPLY, 2, NULL, "rep"},
                          {H_LONG, (gex_AM_Fn_t)long_h, GEX_FLAG_AM_LONG | GEX_FLAG_AM_REQUEST, 2, NULL, "long"}};
    CHECK_OK(gex_EP_RegisterHandlers(X.ep, t, EX_NELEM(t)));
    hsl_basics();
    ex_barrier(X.tm);
    pthread_t th[MAXT];
    for (int i = 1; i < nthreads; i++) CHECK(pthread_create(&th[i], NULL, worker, (void *)(intptr_t)i) == 0, "pthread_create");
    worker((void *)0);
    for (int i = 1; i < nthreads; i++) pthread_join(th[i], NULL);
    ex_barrier(X.tm);
    /* the Medium requests this rank handled: every (rank, thread,
     * iteration) that chose it */
    long want = 0;
    for (gex_Rank_t src = 0; src < X.n; src++)
        for (int t = 0; t < nthreads; t++)
            for (int it = 0; it < iters; it++) want += (src + 1 + (gex_Rank_t)(it + t)) % X.n == X.me;
    gex_HSL_Lock(&count_lock);
    CHECK(worked == (long)nthreads * iters && handled == want, "under the HSL: %ld thread increments (expected %ld), "
          "%ld handler increments (expected %ld)", worked, (long)nthreads * iters, handled, want);
    gex_HSL_Unlock(&count_lock);
    MSG0("ex_threads: %d threads x %d iterations of NB, NBI, access-region RMA and AMs per rank: ok", nthreads, iters);
    gasnet_exit(0);
}
