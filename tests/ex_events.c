/* ex_events: GASNet-EX events, NBI and access regions (spec §10, §11),
 * from the spec alone.
 *
 *   ex_events           any path, any number of ranks
 *   ex_events nopoll    GASNET_RMA=am, 2+ ranks (3+ for every check)
 *
 * The first form checks what holds whatever completes when: empty and
 * all-INVALID arrays for TestSome/TestAll/WaitSome/WaitAll, Test and
 * Wait of GEX_EVENT_INVALID, an empty NBI set per category, completed
 * entries overwritten with INVALID, gex_Event_QueryLeaf(root, GEX_EC_LC)
 * (stable, equal to the lc_opt event, INVALID root allowed), access
 * regions (empty; RMA puts and gets, Val puts and a GROUP AM inside one;
 * GROUP local completion as the root's LC leaf, DEFER held to the root).
 *
 * "nopoll" needs operations that cannot complete before a given poll: on
 * the AM path a get or put completes only when the target runs a handler
 * and the initiator runs the reply handler, both in polls. Rank 0 is the
 * tester; rank 1 ("P") first serves it from a barrier, then blocks in MPI
 * (no GASNet call) until told to go on; rank 2 ("Q"), if present, serves
 * from a barrier throughout. Checked: Test, TestSome, TestAll and
 * NBI_Test do not poll (an operation to a polling peer never completes
 * while the tester only tests); with P blocked: TestAll and TestSome fail
 * on a pending entry yet overwrite completed ones, WaitSome returns with
 * only Q's entry done, NBI_Test separates GEX_EC_GET from GEX_EC_PUT, an
 * access region's operations are outside the NBI set while its root
 * event is pending, and (PAR) another thread's NBI set is its own: empty
 * at first, and its gex_NBI_Wait returns while rank 0's main thread still
 * has operations pending at P.
 */
#include "ex_test.h"

#include <mpi.h>
#include <pthread.h>

static ex_ctx_t X;
static char *my_seg;
static void **seg_of;
#define AREA 65536 /* per writer, in every segment */
#define H_AM 200

static volatile int am_in;
static void am_h(gex_Token_t t, void *buf, size_t n, gex_AM_Arg_t seed)
{
    (void)t;
    CHECK(ex_verify(buf, n, (unsigned)seed) == n, "GROUP AM payload (%zu bytes, seed %d)", n, seed);
    am_in++;
}

static char *remote(gex_Rank_t r, size_t off) { return (char *)seg_of[r] + X.me * AREA + off; }

static void empty_and_invalid(void)
{
    gex_Event_t none[1] = {GEX_EVENT_INVALID};
    CHECK(gex_Event_TestSome(none, 0, 0) == 0, "TestSome of an empty array failed");
    CHECK(gex_Event_TestAll(none, 0, 0) == 0, "TestAll of an empty array failed");
    gex_Event_WaitSome(none, 0, 0);
    gex_Event_WaitAll(none, 0, 0);
    gex_Event_t inv[3] = {GEX_EVENT_INVALID, GEX_EVENT_INVALID, GEX_EVENT_INVALID};
    CHECK(gex_Event_TestSome(inv, 3, 0) == 0, "TestSome of INVALID entries failed");
    CHECK(gex_Event_TestAll(inv, 3, 0) == 0, "TestAll of INVALID entries failed");
    gex_Event_WaitSome(inv, 3, 0);
    gex_Event_WaitAll(inv, 3, 0);
    for (int i = 0; i < 3; i++) CHECK(gex_Event_Test(GEX_EVENT_INVALID) == 0, "Test(GEX_EVENT_INVALID) failed");
    gex_Event_Wait(GEX_EVENT_INVALID);
    gex_Event_Wait(GEX_EVENT_INVALID);
    const gex_EC_t cats[] = {GEX_EC_GET, GEX_EC_PUT, GEX_EC_AM, GEX_EC_LC, GEX_EC_RMW, GEX_EC_ALL,
                             GEX_EC_GET | GEX_EC_PUT};
    for (size_t i = 0; i < EX_NELEM(cats); i++) {
        CHECK(cats[i] != 0 && (GEX_EC_ALL & cats[i]) == cats[i], "category 0x%x", cats[i]);
        CHECK(gex_NBI_Test(cats[i], 0) == 0, "gex_NBI_Test(0x%x) of an empty set failed", cats[i]);
        gex_NBI_Wait(cats[i], 0);
    }
    gex_Event_t leaf = gex_Event_QueryLeaf(GEX_EVENT_INVALID, GEX_EC_LC);
    if (leaf != GEX_EVENT_INVALID)
        CHECK(gex_Event_Test(leaf) == 0, "QueryLeaf(GEX_EVENT_INVALID) gave an event that is not done");
}

static void leaves_and_arrays(void)
{
    char buf[4096], back[4096];
    for (gex_Rank_t i = 0; i < X.n; i++) {
        gex_Rank_t r = (X.me + 1 + i) % X.n;
        /* the LC leaf */
        ex_fill(buf, sizeof buf, r);
        gex_Event_t lc = (gex_Event_t)(uintptr_t)0x99;
        gex_Event_t root = gex_RMA_PutNB(X.tm, r, remote(r, 0), buf, sizeof buf, &lc, 0);
        CHECK(lc != (gex_Event_t)(uintptr_t)0x99, "PutNB did not write *lc_opt");
        if (root != GEX_EVENT_INVALID) {
            gex_Event_t l1 = gex_Event_QueryLeaf(root, GEX_EC_LC), l2 = gex_Event_QueryLeaf(root, GEX_EC_LC);
            if (l1 != GEX_EVENT_INVALID && l2 != GEX_EVENT_INVALID) CHECK(l1 == l2, "QueryLeaf not stable");
            if (l1 != GEX_EVENT_INVALID && lc != GEX_EVENT_INVALID)
                CHECK(l1 == lc, "QueryLeaf(root, GEX_EC_LC) %p differs from the lc_opt event %p", (void *)l1, (void *)lc);
        }
        gex_Event_Wait(lc);
        memset(buf, 0xee, sizeof buf);
        gex_Event_Wait(root);
        CHECK_OK(gex_RMA_GetBlocking(X.tm, back, r, remote(r, 0), sizeof back, 0));
        CHECK(ex_verify(back, sizeof back, r) == sizeof back, "put to rank %u with an LC event", r);

        /* TestSome: the completed entry becomes INVALID */
        gex_Event_t arr[3] = {GEX_EVENT_INVALID, gex_RMA_GetNB(X.tm, back, r, remote(r, 0), 64, 0), GEX_EVENT_INVALID};
        while (gex_Event_TestSome(arr, 3, 0) != 0) gasnet_AMPoll();
        CHECK(arr[0] == GEX_EVENT_INVALID && arr[1] == GEX_EVENT_INVALID && arr[2] == GEX_EVENT_INVALID,
              "TestSome succeeded but left %p", (void *)arr[1]);
        /* TestAll: polls between tests until done, all INVALID after */
        gex_Event_t two[2] = {gex_RMA_GetNB(X.tm, back, r, remote(r, 0), 64, 0),
                              gex_RMA_PutNB(X.tm, r, remote(r, 100), back, 64, GEX_EVENT_DEFER, 0)};
        while (gex_Event_TestAll(two, 2, 0) != 0) gasnet_AMPoll();
        CHECK(two[0] == GEX_EVENT_INVALID && two[1] == GEX_EVENT_INVALID, "TestAll succeeded but left entries");
        /* WaitSome then WaitAll */
        two[0] = gex_RMA_GetNB(X.tm, back, r, remote(r, 0), 64, 0);
        two[1] = gex_RMA_GetNB(X.tm, back + 64, r, remote(r, 64), 64, 0);
        gex_Event_WaitSome(two, 2, 0);
        CHECK(two[0] == GEX_EVENT_INVALID || two[1] == GEX_EVENT_INVALID, "WaitSome returned with nothing done");
        gex_Event_WaitAll(two, 2, 0);
        CHECK(two[0] == GEX_EVENT_INVALID && two[1] == GEX_EVENT_INVALID, "WaitAll left entries");
    }
}

static void regions(void)
{
    /* an empty region */
    gex_NBI_BeginAccessRegion(0);
    gex_Event_Wait(gex_NBI_EndAccessRegion(0));

    enum { N = 2048 };
    static char grp[4][N], def[N], now[N], back[N];
    gex_Rank_t peer = (X.me + 1) % X.n;
    am_in = 0;
    ex_barrier(X.tm);
    gex_NBI_BeginAccessRegion(0);
    for (int k = 0; k < 4; k++) {
        gex_Rank_t r = (X.me + (gex_Rank_t)k) % X.n;
        ex_fill(grp[k], N, 10u + (unsigned)k);
        CHECK_OK(gex_RMA_PutNBI(X.tm, r, remote(r, (size_t)k * N), grp[k], N, GEX_EVENT_GROUP, 0));
    }
    ex_fill(def, N, 20);
    CHECK_OK(gex_RMA_PutNBI(X.tm, peer, remote(peer, 4 * N), def, N, GEX_EVENT_DEFER, 0));
    ex_fill(now, N, 21);
    CHECK_OK(gex_RMA_PutNBI(X.tm, peer, remote(peer, 5 * N), now, N, GEX_EVENT_NOW, 0));
    memset(now, 0xee, N);
    CHECK_OK(gex_RMA_PutNBIVal(X.tm, peer, remote(peer, 6 * N), 0x0123456789abcdefull, 8, 0));
    memset(back, 0, N);
    CHECK_OK(gex_RMA_GetNBI(X.tm, back, peer, remote(peer, 0), N, 0)); /* the region's puts are unordered: any value */
    static char amsrc[N];
    ex_fill(amsrc, N, 22);
    CHECK_OK(gex_AM_RequestMedium1(X.tm, peer, H_AM, amsrc, N, GEX_EVENT_GROUP, 0, 22));
    gex_Event_t root = gex_NBI_EndAccessRegion(0);
    gex_Event_t leaf = gex_Event_QueryLeaf(root, GEX_EC_LC);
    gex_Event_Wait(leaf); /* local completion of the GROUP puts and AM */
    for (int k = 0; k < 4; k++) memset(grp[k], 0xee, N);
    memset(amsrc, 0xee, N);
    gex_Event_Wait(root);
    memset(def, 0xee, N); /* DEFER: held until the root was synced */
    CHECK(gex_NBI_Test(GEX_EC_ALL, 0) == 0, "the region's operations stayed in the NBI set");
    GASNET_BLOCKUNTIL(am_in == 1); /* my peer's AM to me */
    ex_barrier(X.tm);
    for (int k = 0; k < 4; k++) {
        gex_Rank_t r = (X.me + (gex_Rank_t)k) % X.n;
        CHECK_OK(gex_RMA_GetBlocking(X.tm, back, r, remote(r, (size_t)k * N), N, 0));
        CHECK(ex_verify(back, N, 10u + (unsigned)k) == N, "GROUP put %d in a region", k);
    }
    CHECK_OK(gex_RMA_GetBlocking(X.tm, back, peer, remote(peer, 4 * N), N, 0));
    CHECK(ex_verify(back, N, 20) == N, "DEFER put in a region");
    CHECK_OK(gex_RMA_GetBlocking(X.tm, back, peer, remote(peer, 5 * N), N, 0));
    CHECK(ex_verify(back, N, 21) == N, "NOW put in a region");
    CHECK(gex_RMA_GetBlockingVal(X.tm, peer, remote(peer, 6 * N), 8, 0) == 0x0123456789abcdefull, "PutNBIVal in a region");
    ex_barrier(X.tm);
}

/* ---- nopoll */
static MPI_Comm comm;

static void spin_tests(const char *what, gex_Event_t ev)
{
    gex_Event_t one[1];
    for (int i = 0; i < 40; i++) {
        CHECK(gex_Event_Test(ev) != 0, "%s: gex_Event_Test succeeded without a poll", what);
        one[0] = ev;
        CHECK(gex_Event_TestSome(one, 1, 0) != 0 && one[0] == ev, "%s: gex_Event_TestSome succeeded without a poll", what);
        CHECK(gex_Event_TestAll(one, 1, 0) != 0 && one[0] == ev, "%s: gex_Event_TestAll succeeded without a poll", what);
        ex_sleep_ms(2);
    }
}

#ifdef GASNET_PAR
static void *other_thread(void *arg)
{
    (void)arg;
    static char b[64];
    CHECK(gex_NBI_Test(GEX_EC_ALL, 0) == 0, "gex_NBI_Test in a thread that started nothing fails "
          "(another thread's operations are pending)");
    gex_Rank_t to = X.n > 2 ? 2 : 0; /* Q if any, else myself */
    CHECK_OK(gex_RMA_PutNBI(X.tm, to, remote(to, 512), b, sizeof b, GEX_EVENT_DEFER, 0));
    gex_NBI_Wait(GEX_EC_ALL, 0); /* must not wait for the other thread's operations at the blocked peer */
    return NULL;
}
#endif

static void nopoll(void)
{
    CHECK(X.n >= 2, "nopoll needs 2 ranks");
    const gex_Rank_t P = 1, Q = 2;
    char back[256];
    /* 1: P serves from a barrier; tests never complete anything */
    if (X.me == 0) {
        gex_Event_t ev = gex_RMA_GetNB(X.tm, back, P, remote(P, 0), sizeof back, 0);
        CHECK(ev != GEX_EVENT_INVALID, "a get on the AM path completed at once");
        spin_tests("get from a polling peer", ev);
        gex_Event_Wait(ev);
        CHECK_OK(gex_RMA_GetNBI(X.tm, back, P, remote(P, 0), sizeof back, 0));
        for (int i = 0; i < 40; i++) {
            CHECK(gex_NBI_Test(GEX_EC_GET, 0) != 0, "gex_NBI_Test(GEX_EC_GET) succeeded without a poll");
            ex_sleep_ms(2);
        }
        gex_NBI_Wait(GEX_EC_GET, 0);
    }
    ex_barrier(X.tm);
    /* 2: P blocks in MPI */
    int token = 0;
    if (X.me == P) {
        MPI_Send(&token, 1, MPI_INT, 0, 1, comm); /* no GASNet call from here ... */
        MPI_Recv(&token, 1, MPI_INT, 0, 2, comm, MPI_STATUS_IGNORE); /* ... to here */
    } else if (X.me == 0) {
        MPI_Recv(&token, 1, MPI_INT, P, 1, comm, MPI_STATUS_IGNORE);
        /* an access region's operations are outside the NBI set */
        gex_NBI_BeginAccessRegion(0);
        CHECK_OK(gex_RMA_PutNBI(X.tm, P, remote(P, 0), back, 64, GEX_EVENT_DEFER, 0));
        CHECK_OK(gex_RMA_GetNBI(X.tm, back + 64, P, remote(P, 0), 64, 0));
        gex_Event_t root = gex_NBI_EndAccessRegion(0);
        CHECK(root != GEX_EVENT_INVALID && gex_Event_Test(root) != 0, "a region with operations to a blocked peer is done");
        CHECK(gex_NBI_Test(GEX_EC_ALL, 0) == 0, "gex_NBI_Test covers a region's operations");
        /* entries pending at P; Test* fail, but completed ones are cleared */
        gex_Event_t ep = gex_RMA_GetNB(X.tm, back, P, remote(P, 0), 8, 0);
        gex_Event_t a[2] = {GEX_EVENT_INVALID, ep};
        CHECK(gex_Event_TestAll(a, 2, 0) != 0 && a[1] == ep, "TestAll with an entry pending at a blocked peer");
        CHECK(gex_Event_TestSome(a, 2, 0) != 0 && a[1] == ep, "TestSome with an entry pending at a blocked peer");
        if (X.n > Q) {
            gex_Event_t s[3] = {ep, gex_RMA_GetNB(X.tm, back + 8, Q, remote(Q, 0), 8, 0), GEX_EVENT_INVALID};
            gex_Event_WaitSome(s, 3, 0);
            CHECK(s[0] == ep && s[1] == GEX_EVENT_INVALID, "WaitSome: the blocked peer's entry %p, Q's %p", (void *)s[0],
                  (void *)s[1]);
            gex_Event_t b[2] = {gex_RMA_GetNB(X.tm, back + 16, Q, remote(Q, 0), 8, 0), ep};
            for (;;) {
                CHECK(gex_Event_TestAll(b, 2, 0) != 0, "TestAll succeeded with an entry pending at a blocked peer");
                CHECK(b[1] == ep, "TestAll cleared the pending entry");
                if (b[0] == GEX_EVENT_INVALID) break; /* cleared although the call failed */
                gasnet_AMPoll();
            }
        }
        /* NBI categories: a pending put does not hold GEX_EC_GET */
        CHECK_OK(gex_RMA_PutNBI(X.tm, P, remote(P, 128), back, 64, GEX_EVENT_DEFER, 0));
        CHECK(gex_NBI_Test(GEX_EC_GET, 0) == 0, "gex_NBI_Test(GEX_EC_GET) fails with only a put pending");
        CHECK(gex_NBI_Test(GEX_EC_PUT, 0) != 0, "gex_NBI_Test(GEX_EC_PUT) succeeds with a put pending at a blocked peer");
        CHECK_OK(gex_RMA_GetNBI(X.tm, back + 128, P, remote(P, 0), 64, 0));
        CHECK(gex_NBI_Test(GEX_EC_GET, 0) != 0, "gex_NBI_Test(GEX_EC_GET) succeeds with a get pending at a blocked peer");
#ifdef GASNET_PAR
        /* NBI is per thread: another thread's set is empty, and its own
         * operations complete while mine stay pending */
        pthread_t th;
        CHECK(pthread_create(&th, NULL, other_thread, NULL) == 0, "pthread_create");
        pthread_join(th, NULL);
        CHECK(gex_NBI_Test(GEX_EC_PUT, 0) != 0, "my pending put vanished from my NBI set");
#endif
        MPI_Send(&token, 1, MPI_INT, P, 2, comm);
        gex_Event_Wait(root);
        gex_Event_Wait(ep);
        gex_NBI_Wait(GEX_EC_ALL, 0);
        printf("ex_events nopoll: tests do not poll; pending entries at a blocked peer: ok\n");
        fflush(stdout);
    }
    ex_barrier(X.tm);
}

int main(int argc, char **argv)
{
    ex_init(&X, "EX_EVENTS", &argc, &argv, 0);
    ex_attach(&X, (size_t)X.n * AREA);
    my_seg = gex_Segment_QueryAddr(X.seg);
    seg_of = calloc(X.n, sizeof *seg_of);
    CHECK(seg_of != NULL, "out of memory");
    for (gex_Rank_t r = 0; r < X.n; r++) seg_of[r] = ex_peer_seg(X.tm, r, NULL);
    gex_AM_Entry_t t[] = {{H_AM, (gex_AM_Fn_t)am_h, GEX_FLAG_AM_MEDIUM | GEX_FLAG_AM_REQUEST, 1, NULL, "am"}};
    CHECK_OK(gex_EP_RegisterHandlers(X.ep, t, 1));
    ex_barrier(X.tm);
    if (argc > 1 && !strcmp(argv[1], "nopoll")) {
        MPI_Comm_dup(MPI_COMM_WORLD, &comm);
        nopoll();
        MPI_Comm_free(&comm);
        MSG0("ex_events nopoll: ok");
        gasnet_exit(0);
    }
    empty_and_invalid();
    leaves_and_arrays();
    ex_barrier(X.tm);
    regions();
    MSG0("ex_events: ok");
    gasnet_exit(0);
}
