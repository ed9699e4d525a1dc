/* ex_pack: random mixes of small NB and NBI puts and gets to several peers
 * (spec §9-§11), the traffic that packing on the AM path batches.
 *
 *   ex_pack THREADS ROUNDS strict|loose [test]      (SEQ builds: 1 thread)
 *
 * Each thread owns a slot of SLOT bytes in every rank's segment and keeps
 * a model of what each of its slots holds. Per round it issues OPS
 * operations to random peers (itself included): NBI and NB puts (their
 * source overwritten as soon as the call returns: local completion is
 * immediate for GEX_EVENT_NOW, §9.3), NB and NBI gets, and now and then a
 * blocking put or get, at random offsets, often adjacent to the previous
 * range on that peer. Checks, from the spec:
 *   - an NB get's destination holds the data when its event completes,
 *     NBI gets when gex_NBI_Wait(GEX_EC_GET) returns (§10, §11);
 *   - when an NB put's event completes, its data is in place: a blocking
 *     get of its range sees it;
 *   - after gex_NBI_Wait(GEX_EC_ALL) and every event synced, a blocking get
 *     of each slot equals the model.
 * strict: ranges overlap freely and the model says the later put wins and
 * a get sees every earlier put: the order in which one thread's operations
 * to a peer were issued (what packing must keep). This holds only where
 * one thread per rank runs handlers (SEQ, or PAR with one thread, no
 * progress thread). loose: within a round no byte is touched twice, so
 * the checks hold with handlers on any number of threads.
 * test: events and NBI are waited with gex_Event_Test / gex_NBI_Test
 * loops that never poll (run with GASNET_PROGRESS_THREAD=yes): an
 * operation sitting unsent must be sent by the Test itself.
 *
 *   ex_pack forge KIND      (2 ranks)
 * Rank 0 sends rank 1 a forged batch to the library's packing handler
 * (index 74): KIND outside (a put record naming an address outside the
 * segment), short (a header cut off), overrun (a put longer than its
 * data). Rank 1 must reject it, naming node 0, before applying anything.
 */
#define EX_TEST_LEGACY /* gasnet_init and gasnet_attach: see main */
#include "ex_test.h"

#ifdef GASNET_PAR
#include <pthread.h>
#endif

#define MAXT 8
#define SLOT 512
#define OPS 300
#define MAXLEN 48
#define PENDING (OPS + 1)

static ex_ctx_t X;
static int nthreads = 1, rounds = 10, strict, test_only;
static uint8_t **seg_of; /* each rank's segment address */

typedef struct {
    gex_Event_t ev;
    int is_get, peer;
    size_t off, len;
    uint8_t want[MAXLEN]; /* a get's expected bytes, a put's data */
    uint8_t got[MAXLEN];  /* a get's destination */
} pend_t;

typedef struct {
    int tid;
    uint64_t rng;
    uint8_t (*model)[SLOT];   /* [peer][byte] */
    uint8_t (*touched)[SLOT]; /* loose: bytes used this round */
    size_t *next_off;         /* [peer]: the end of the last range there */
    pend_t pool[PENDING];        /* NB operations; a get's destination stays put */
    pend_t *nb[PENDING], *spare[PENDING];
    pend_t nbi[PENDING];
    int nnb, nspare, nnbi;
    long ops, checked;
} thr_t;

static uint64_t rnd(thr_t *t)
{
    t->rng ^= t->rng << 13;
    t->rng ^= t->rng >> 7;
    t->rng ^= t->rng << 17;
    return t->rng;
}

static uint8_t *slot(thr_t *t, int peer)
{
    return seg_of[peer] + ((size_t)X.me * (size_t)nthreads + (size_t)t->tid) * SLOT;
}

static void wait_event(gex_Event_t ev)
{
    if (!test_only) {
        gex_Event_Wait(ev);
        return;
    }
    while (gex_Event_Test(ev) != GASNET_OK) sched_yield();
}

static void wait_nbi(gex_EC_t mask)
{
    if (!test_only) {
        gex_NBI_Wait(mask, 0);
        return;
    }
    while (gex_NBI_Test(mask, 0) != GASNET_OK) sched_yield();
}

/* A blocking get of [off, off+len) of peer's slot compared with want. */
static void check_remote(thr_t *t, int peer, size_t off, size_t len, const uint8_t *want,
                         const char *what)
{
    uint8_t got[SLOT];
    gex_RMA_GetBlocking(X.tm, got, (gex_Rank_t)peer, slot(t, peer) + off, len, 0);
    for (size_t i = 0; i < len; i++)
        CHECK(got[i] == want[i], "thread %d, rank %d: %s [%zu, +%zu): byte %zu is %u, not %u",
              t->tid, peer, what, off, len, i, got[i], want[i]);
    t->checked++;
}

static void check_get(thr_t *t, const pend_t *p, const char *what)
{
    for (size_t i = 0; i < p->len; i++)
        CHECK(p->got[i] == p->want[i], "thread %d: %s of rank %d [%zu, +%zu): byte %zu is %u, not %u",
              t->tid, what, p->peer, p->off, p->len, i, p->got[i], p->want[i]);
    t->checked++;
}

/* The NB operation at index i has completed: check it and drop it. */
static void nb_done(thr_t *t, int i)
{
    pend_t *p = t->nb[i];
    /* a put, loose: nothing else touches its range this round; strict:
     * the model holds every later put too, and the blocking get follows
     * them all */
    if (p->is_get) check_get(t, p, "NB get");
    else check_remote(t, p->peer, p->off, p->len, strict ? &t->model[p->peer][p->off] : p->want,
                      "NB put");
    t->nb[i] = t->nb[--t->nnb];
    t->spare[t->nspare++] = p;
}

/* A range on peer for a new operation (loose: untouched this round). */
static int pick_range(thr_t *t, int peer, size_t *off, size_t *len)
{
    for (int tries = 0; tries < 8; tries++) {
        *len = 1 + rnd(t) % MAXLEN;
        *off = rnd(t) % 2 ? t->next_off[peer] : rnd(t) % SLOT;
        if (*off + *len > SLOT) *off = rnd(t) % (SLOT - *len + 1);
        if (strict) return 1;
        int free = 1;
        for (size_t i = 0; i < *len && free; i++) free = !t->touched[peer][*off + i];
        if (!free) continue;
        memset(&t->touched[peer][*off], 1, *len);
        return 1;
    }
    return 0;
}

static void one_op(thr_t *t)
{
    int peer = (int)(rnd(t) % X.n);
    size_t off, len;
    if (!pick_range(t, peer, &off, &len)) return;
    t->next_off[peer] = off + len;
    uint8_t *remote = slot(t, peer) + off, *model = &t->model[peer][off];
    unsigned kind = (unsigned)(rnd(t) % 20);
    t->ops++;
    if (kind < 10) { /* puts: NBI, NB, blocking */
        uint8_t src[MAXLEN];
        for (size_t i = 0; i < len; i++) src[i] = (uint8_t)rnd(t);
        memcpy(model, src, len);
        if (kind < 5) {
            gex_RMA_PutNBI(X.tm, (gex_Rank_t)peer, remote, src, len, GEX_EVENT_NOW, 0);
        } else if (kind < 9 && t->nspare) {
            pend_t *p = t->nb[t->nnb++] = t->spare[--t->nspare];
            p->is_get = 0, p->peer = peer, p->off = off, p->len = len;
            memcpy(p->want, src, len);
            p->ev = gex_RMA_PutNB(X.tm, (gex_Rank_t)peer, remote, src, len, GEX_EVENT_NOW, 0);
        } else {
            gex_RMA_PutBlocking(X.tm, (gex_Rank_t)peer, remote, src, len, 0);
        }
        memset(src, 0xee, len); /* the source was free on return */
        return;
    }
    if (kind < 19) { /* gets: NB, NBI */
        int nb = kind < 15;
        if (nb ? !t->nspare : t->nnbi == PENDING) return;
        pend_t *p = nb ? (t->nb[t->nnb++] = t->spare[--t->nspare]) : &t->nbi[t->nnbi++];
        p->is_get = 1, p->peer = peer, p->off = off, p->len = len;
        memcpy(p->want, model, len);
        memset(p->got, 0xdd, len);
        if (nb) p->ev = gex_RMA_GetNB(X.tm, p->got, (gex_Rank_t)peer, remote, len, 0);
        else gex_RMA_GetNBI(X.tm, p->got, (gex_Rank_t)peer, remote, len, 0);
        return;
    }
    check_remote(t, peer, off, len, model, "blocking get");
}

static void round_end(thr_t *t)
{
    while (t->nnb) {
        int i = (int)(rnd(t) % (uint64_t)t->nnb);
        wait_event(t->nb[i]->ev);
        nb_done(t, i);
    }
    wait_nbi(GEX_EC_ALL);
    for (int i = 0; i < t->nnbi; i++) check_get(t, &t->nbi[i], "NBI get");
    t->nnbi = 0;
    for (gex_Rank_t p = 0; p < X.n; p++) check_remote(t, (int)p, 0, SLOT, t->model[p], "slot");
    if (!strict) memset(t->touched, 0, (size_t)X.n * SLOT);
}

static void *run(void *arg)
{
    thr_t *t = arg;
    t->rng = 0x9e3779b97f4a7c15ull ^ ((uint64_t)X.me << 32) ^ (uint64_t)(t->tid + 1) * 7919;
    t->model = calloc(X.n, SLOT);
    t->touched = calloc(X.n, SLOT);
    t->next_off = calloc(X.n, sizeof *t->next_off);
    CHECK(t->model && t->touched && t->next_off, "out of memory");
    for (int i = 0; i < PENDING; i++) t->spare[t->nspare++] = &t->pool[i];
    for (int r = 0; r < rounds; r++) {
        for (int k = 0; k < OPS; k++) {
            one_op(t);
            unsigned what = (unsigned)(rnd(t) % 16);
            if (what == 0 && t->nnb) { /* test one event now and then */
                int i = (int)(rnd(t) % (uint64_t)t->nnb);
                if (gex_Event_Test(t->nb[i]->ev) == GASNET_OK) nb_done(t, i);
            } else if (what == 1 && t->nnb) { /* wait for the newest */
                wait_event(t->nb[t->nnb - 1]->ev);
                nb_done(t, t->nnb - 1);
            } else if (what == 2 && !test_only) {
                gasnet_AMPoll();
            }
        }
        round_end(t);
    }
    free(t->model);
    free(t->touched);
    free(t->next_off);
    return NULL;
}

/* A batch as the wire format in extended/pack.c lays it out: records
 * {u64 address, u32 len << 1 | is_get, put data}. */
static void forge(const char *kind)
{
    uint8_t msg[64] = {0};
    uint64_t addr = (uint64_t)(uintptr_t)seg_of[1];
    uint32_t word = 8u << 1;
    size_t n = 12 + 8;
    if (!strcmp(kind, "outside")) addr = 64;
    else if (!strcmp(kind, "short")) n = 12 + 8 + 5;
    else if (!strcmp(kind, "overrun")) word = 40u << 1;
    else CHECK(0, "forge: KIND is outside, short or overrun, not %s", kind);
    memcpy(msg, &addr, 8);
    memcpy(msg + 8, &word, 4);
    if (X.me == 0)
        CHECK_OK(gex_AM_RequestMedium3(X.tm, 1, 74, msg, n, GEX_EVENT_NOW, 0, 0, 0, 0));
    for (;;) { /* rank 1 dies; the job ends */
        gasnet_AMPoll();
        sched_yield();
    }
}

int main(int argc, char **argv)
{
    /* GASNet-1's start-up, then the EX calls on its objects: it starts the
     * progress thread only once the segment is attached */
    if (gasnet_init(&argc, &argv) != GASNET_OK) return 1;
    X.me = gasnet_mynode();
    X.n = gasnet_nodes();
    if (argc == 3 && !strcmp(argv[1], "forge")) {
        CHECK_OK(gasnet_attach(NULL, 0, GASNET_PAGESIZE, 0));
        gasnet_QueryGexObjects(&X.client, &X.ep, &X.tm, &X.seg);
        seg_of = calloc(X.n, sizeof *seg_of);
        for (gex_Rank_t r = 0; r < X.n; r++) seg_of[r] = ex_peer_seg(X.tm, r, NULL);
        forge(argv[2]);
    }
    CHECK(argc >= 4 && (!strcmp(argv[3], "strict") || !strcmp(argv[3], "loose")),
          "usage: ex_pack THREADS ROUNDS strict|loose [test]");
    nthreads = atoi(argv[1]);
    rounds = atoi(argv[2]);
    strict = !strcmp(argv[3], "strict");
    test_only = argc > 4 && !strcmp(argv[4], "test");
#ifndef GASNET_PAR
    nthreads = 1;
#endif
    CHECK(nthreads >= 1 && nthreads <= MAXT && rounds >= 1, "THREADS 1..%d, ROUNDS >= 1", MAXT);
    CHECK(!strict || nthreads == 1, "strict needs one thread per rank");
    size_t need = (size_t)X.n * (size_t)nthreads * SLOT;
    uintptr_t segsize = (need + GASNET_PAGESIZE - 1) / GASNET_PAGESIZE * GASNET_PAGESIZE;
    CHECK_OK(gasnet_attach(NULL, 0, segsize, 0));
    gasnet_QueryGexObjects(&X.client, &X.ep, &X.tm, &X.seg);
    seg_of = calloc(X.n, sizeof *seg_of);
    for (gex_Rank_t r = 0; r < X.n; r++) {
        uintptr_t size;
        seg_of[r] = ex_peer_seg(X.tm, r, &size);
        CHECK(size >= need, "rank %u's segment has %lu bytes, not %zu", r, (unsigned long)size, need);
    }
    /* each slot starts as zeros, as the model does */
    memset(seg_of[X.me], 0, need);
    ex_barrier(X.tm);

    static thr_t thr[MAXT];
    for (int i = 0; i < nthreads; i++) thr[i].tid = i;
#ifdef GASNET_PAR
    pthread_t th[MAXT];
    for (int i = 1; i < nthreads; i++)
        CHECK(pthread_create(&th[i], NULL, run, &thr[i]) == 0, "pthread_create");
    run(&thr[0]);
    for (int i = 1; i < nthreads; i++) pthread_join(th[i], NULL);
#else
    run(&thr[0]);
#endif
    long ops = 0, checked = 0;
    for (int i = 0; i < nthreads; i++) ops += thr[i].ops, checked += thr[i].checked;
    ex_barrier(X.tm);
    printf("ex_pack: node %u: %d threads, %ld operations, %ld checks: ok\n", X.me, nthreads, ops,
           checked);
    fflush(stdout);
    ex_barrier(X.tm);
    free(seg_of);
    gasnet_exit(0);
    return 0;
}
