/* ex_clients: what real client programs (which pass on the reference)
 * do that our suite did not (issue 26).
 *
 *   ex_clients loopback    a request to oneself runs its handler before the
 *                          call returns (docs/loopback.md): the PAR scenario
 *                          of a thread that sends itself the AM the other
 *                          threads wait for, while they only do blocking
 *                          puts and gets (which need not poll); replies to
 *                          oneself from such a handler, every category, a
 *                          negotiated payload, and GASNet-1's requests

 *   ex_clients loopback_bad   a loopback handler that sends a request (the
 *                          debug build stops the job, naming the call)
 *   ex_clients self_poll   rank 0 makes round trips to itself (which run
 *                          in the call, so its waits never poll) until
 *                          every other rank has made its round trips and
 *                          gets to rank 0: they are served only if
 *                          requests to oneself poll (a testlocks-style
 *                          client retrying a lock it keeps itself)
 *   ex_clients ad_self_poll  every rank, rank 0 too, takes a lock in rank
 *                          0's segment with remote atomics (retries
 *                          without polling) and updates a count there
 *                          with a get and a put: rank 0's operations on
 *                          its own memory must poll now and then
 *   ex_clients ad_local    gex_AD_Create completes locally: every rank but
 *                          0 creates a domain, then sends rank 0 an AM;
 *                          rank 0 waits for them all before it creates its
 *                          own (the reference does not synchronise there);
 *                          gex_AD_Destroy likewise
 *   ex_clients flags       flags the reference accepts: gex_AD_Create with
 *                          GEX_FLAG_PEER_SEG_OFFSET (and the initiation
 *                          flags), gex_TM_Split with GEX_FLAG_TM_NO_SCRATCH
 *   ex_clients query_null  queries with several outputs take NULL for an
 *                          output not wanted (gasnet_QueryGexObjects,
 *                          gex_Segment_QueryBound, gex_EP_QueryBoundSegmentNB,
 *                          gex_System_Query{Nbrhd,Host}Info, _MyPosition,
 *                          gex_TM_Destroy's scratch_p); with a second
 *                          argument `gasnet1`, as a GASNet-1 client
 *
 * Checks follow the spec (../shared/spec) and the reference's behaviour
 * the issue names; a failed check ends the job with status 1.
 */
#define EX_TEST_LEGACY /* gasnet_AMRequest*, gasnet_QueryGexObjects */
#include "ex_test.h"

#include <gasnet_coll.h>
#include <gasnet_ratomic.h>

#ifdef GASNET_PAR
#include <pthread.h>
#endif

static ex_ctx_t c;

/* ---- loopback */

enum { H_FLAG = 200, H_PING, H_PONG, H_MPING, H_MPONG, H_LPING, H_LPONG, H_INFO };
#define NTHREADS 4
#define PUTS 50

static int flag;          /* H_FLAG requests handled here */
static int pongs;         /* reply handlers run here */
static int info_ok;       /* H_INFO saw itself as the sender */
static char medium_back[256];

static void flag_h(gex_Token_t t)
{
    (void)t;
    __atomic_fetch_add(&flag, 1, __ATOMIC_RELEASE);
}

static void pong_h(gex_Token_t t, gex_AM_Arg_t a)
{
    (void)t;
    CHECK(a == 41, "Short reply argument %d", (int)a);
    __atomic_fetch_add(&pongs, 1, __ATOMIC_RELEASE);
}

static void ping_h(gex_Token_t t, gex_AM_Arg_t a)
{
    /* a handler run in its sender's call may reply: the reply's handler
     * runs before this one's reply call returns */
    int before = __atomic_load_n(&pongs, __ATOMIC_ACQUIRE);
    CHECK_OK(gex_AM_ReplyShort1(t, H_PONG, 0, a + 1));
    gex_Token_Info_t ti;
    gex_Token_Info(t, &ti, GEX_TI_SRCRANK);
    if (ti.gex_srcrank == c.me)
        CHECK(__atomic_load_n(&pongs, __ATOMIC_ACQUIRE) == before + 1,
              "the reply to oneself had not run when gex_AM_ReplyShort returned");
}

static void mpong_h(gex_Token_t t, void *buf, size_t n, gex_AM_Arg_t a)
{
    (void)t;
    CHECK(n == (size_t)a, "Medium reply of %zu bytes, expected %d", n, (int)a);
    CHECK(((uintptr_t)buf & 7) == 0, "Medium reply buffer %p not 8-byte aligned", buf);
    memcpy(medium_back, buf, n);
    __atomic_fetch_add(&pongs, 1, __ATOMIC_RELEASE);
}

static void mping_h(gex_Token_t t, void *buf, size_t n, gex_AM_Arg_t a)
{
    CHECK(n == (size_t)a, "Medium request of %zu bytes, expected %d", n, (int)a);
    CHECK(ex_verify(buf, n, 3) == n, "Medium request payload corrupt");
    ((char *)buf)[0] ^= 1; /* the handler's buffer is its own */
    ex_fill(buf, n, 4);
    CHECK_OK(gex_AM_ReplyMedium1(t, H_MPONG, buf, n, GEX_EVENT_NOW, 0, a));
}

static void lpong_h(gex_Token_t t, void *buf, size_t n, gex_AM_Arg_t a)
{
    (void)t;
    (void)a;
    CHECK(ex_verify(buf, n, 6) == n, "Long reply payload not in place");
    __atomic_fetch_add(&pongs, 1, __ATOMIC_RELEASE);
}

static void lping_h(gex_Token_t t, void *buf, size_t n, gex_AM_Arg_t a)
{
    CHECK(ex_verify(buf, n, 5) == n, "Long request payload not in place");
    char *seg = (char *)buf - a;
    ex_fill(seg + 8192, n, 6);
    CHECK_OK(gex_AM_ReplyLong1(t, H_LPONG, seg + 8192, n, seg + 16384, GEX_EVENT_NOW, 0, a));
}

static void info_h(gex_Token_t t)
{
    gex_Token_Info_t ti;
    gex_TI_t got = gex_Token_Info(t, &ti, GEX_TI_SRCRANK | GEX_TI_IS_REQ);
    if ((got & GEX_TI_SRCRANK) && ti.gex_srcrank == c.me && ti.gex_is_req)
        __atomic_store_n(&info_ok, 1, __ATOMIC_RELEASE);
}

#ifdef GASNET_PAR
static void *loop_thread(void *arg)
{
    int id = (int)(intptr_t)arg;
    gex_Rank_t peer = (c.me + 1) % c.n;
    uint64_t *remote = (uint64_t *)ex_peer_seg(c.tm, peer, NULL) + 64 + id;
    uint64_t v = id;
    if (id == 0) {
        for (int i = 0; i < PUTS; i++) gex_RMA_PutBlocking(c.tm, peer, remote, &v, sizeof v, 0);
        CHECK_OK(gex_AM_RequestShort0(c.tm, peer, H_FLAG, 0));
        CHECK_OK(gex_AM_RequestShort0(c.tm, c.me, H_FLAG, 0));
        return NULL;
    }
    /* the other threads only put and get until the flag is set: nothing
     * here needs to poll on a peer whose segment is mapped */
    while (!__atomic_load_n(&flag, __ATOMIC_ACQUIRE)) {
        if (id & 1) gex_RMA_PutBlocking(c.tm, peer, remote, &v, sizeof v, 0);
        else gex_RMA_GetBlocking(c.tm, &v, peer, remote, sizeof v, 0);
    }
    return NULL;
}
#endif

static void test_loopback(void)
{
    gex_AM_Entry_t table[] = {
        {H_FLAG, (gex_AM_Fn_t)flag_h, GEX_FLAG_AM_SHORT | GEX_FLAG_AM_REQUEST, 0, NULL, "flag"},
        {H_PING, (gex_AM_Fn_t)ping_h, GEX_FLAG_AM_SHORT | GEX_FLAG_AM_REQUEST, 1, NULL, "ping"},
        {H_PONG, (gex_AM_Fn_t)pong_h, GEX_FLAG_AM_SHORT | GEX_FLAG_AM_REPLY, 1, NULL, "pong"},
        {H_MPING, (gex_AM_Fn_t)mping_h, GEX_FLAG_AM_MEDIUM | GEX_FLAG_AM_REQUEST, 1, NULL, "mping"},
        {H_MPONG, (gex_AM_Fn_t)mpong_h, GEX_FLAG_AM_MEDIUM | GEX_FLAG_AM_REPLY, 1, NULL, "mpong"},
        {H_LPING, (gex_AM_Fn_t)lping_h, GEX_FLAG_AM_LONG | GEX_FLAG_AM_REQUEST, 1, NULL, "lping"},
        {H_LPONG, (gex_AM_Fn_t)lpong_h, GEX_FLAG_AM_LONG | GEX_FLAG_AM_REPLY, 1, NULL, "lpong"},
        {H_INFO, (gex_AM_Fn_t)info_h, GEX_FLAG_AM_SHORT | GEX_FLAG_AM_REQUEST, 0, NULL, "info"},
    };
    CHECK_OK(gex_EP_RegisterHandlers(c.ep, table, EX_NELEM(table)));
    ex_barrier(c.tm);

#ifdef GASNET_PAR
    /* the scenario: nobody polls until every thread is joined */
    pthread_t th[NTHREADS];
    for (int i = 0; i < NTHREADS; i++)
        CHECK(pthread_create(&th[i], NULL, loop_thread, (void *)(intptr_t)i) == 0, "pthread_create");
    for (int i = 0; i < NTHREADS; i++) pthread_join(th[i], NULL);
    ex_barrier(c.tm);
    while (__atomic_load_n(&flag, __ATOMIC_ACQUIRE) < 2) gasnet_AMPoll(); /* the peer's too */
    MSG0("loopback: a PAR thread's request to itself ran while the others only put and got");
#endif

    /* every category: the handler, and its reply's, have run on return */
    int p = __atomic_load_n(&pongs, __ATOMIC_ACQUIRE);
    CHECK_OK(gex_AM_RequestShort1(c.tm, c.me, H_PING, 0, 40));
    CHECK(__atomic_load_n(&pongs, __ATOMIC_ACQUIRE) == p + 1,
          "gex_AM_RequestShort to oneself returned before its handler's reply ran");
    char src[200];
    ex_fill(src, sizeof src, 3);
    CHECK_OK(gex_AM_RequestMedium1(c.tm, c.me, H_MPING, src, sizeof src, GEX_EVENT_NOW, 0, (int)sizeof src));
    CHECK(__atomic_load_n(&pongs, __ATOMIC_ACQUIRE) == p + 2,
          "gex_AM_RequestMedium to oneself returned before its handler's reply ran");
    CHECK(ex_verify(src, sizeof src, 3) == sizeof src, "the handler changed the Medium source");
    CHECK(ex_verify(medium_back, sizeof src, 4) == sizeof src, "Medium reply payload corrupt");
    uintptr_t segsize;
    char *seg = ex_peer_seg(c.tm, c.me, &segsize);
    size_t n = 3000;
    char *lsrc = malloc(n);
    ex_fill(lsrc, n, 5);
    gex_Event_t lc;
    CHECK_OK(gex_AM_RequestLong1(c.tm, c.me, H_LPING, lsrc, n, seg + 100, &lc, 0, 100));
    gex_Event_Wait(lc);
    CHECK(__atomic_load_n(&pongs, __ATOMIC_ACQUIRE) == p + 3,
          "gex_AM_RequestLong to oneself returned before its handler's reply ran");
    CHECK(ex_verify(seg + 16384, n, 6) == n, "Long reply not in place");
    free(lsrc);
    /* negotiated payload */
    gex_AM_SrcDesc_t sd = gex_AM_PrepareRequestMedium(c.tm, c.me, NULL, 64, 64, NULL, 0, 1);
    CHECK(sd != GEX_AM_SRCDESC_NO_OP, "gex_AM_PrepareRequestMedium to oneself gave NO_OP");
    ex_fill(gex_AM_SrcDescAddr(sd), 64, 3);
    gex_AM_CommitRequestMedium1(sd, H_MPING, 64, 64);
    CHECK(__atomic_load_n(&pongs, __ATOMIC_ACQUIRE) == p + 4,
          "a committed Medium request to oneself returned before its handler's reply ran");
    /* GASNet-1's requests to oneself, and the token names the sender */
    CHECK_OK(gasnet_AMRequestShort1(gasnet_mynode(), H_PING, 40));
    CHECK(__atomic_load_n(&pongs, __ATOMIC_ACQUIRE) == p + 5,
          "gasnet_AMRequestShort1 to oneself returned before its handler's reply ran");
    CHECK_OK(gasnet_AMRequestMedium1(gasnet_mynode(), H_MPING, src, 8, 8));
    CHECK(__atomic_load_n(&pongs, __ATOMIC_ACQUIRE) == p + 6,
          "gasnet_AMRequestMedium1 to oneself returned before its handler's reply ran");
    CHECK_OK(gex_AM_RequestShort0(c.tm, c.me, H_INFO, 0));
    CHECK(__atomic_load_n(&info_ok, __ATOMIC_ACQUIRE), "gex_Token_Info in a loopback handler");
    ex_barrier(c.tm);
    MSG0("loopback: every category to oneself ran its handler and its reply's before returning");
}

/* A loopback handler that breaks the rules: a request (debug builds stop
 * the job: the rule that bounds the nesting is enforced on this path too) */
static void bad_h(gex_Token_t t)
{
    (void)t;
    gex_AM_RequestShort0(c.tm, c.me, H_FLAG, 0);
}

static void test_loopback_bad(void)
{
    gex_AM_Entry_t table[] = {
        {H_FLAG, (gex_AM_Fn_t)flag_h, GEX_FLAG_AM_SHORT | GEX_FLAG_AM_REQUEST, 0, NULL, "flag"},
        {H_INFO, (gex_AM_Fn_t)bad_h, GEX_FLAG_AM_SHORT | GEX_FLAG_AM_REQUEST, 0, NULL, "bad"},
    };
    CHECK_OK(gex_EP_RegisterHandlers(c.ep, table, EX_NELEM(table)));
    ex_barrier(c.tm);
    if (c.me == 0) gex_AM_RequestShort0(c.tm, 0, H_INFO, 0);
    ex_barrier(c.tm);
}

/* ---- rank 0 busy with requests to itself */

enum { H_ASK = 240, H_ANSWER, H_DONE };
static int answer = -1;    /* the last H_ANSWER's argument */
static int others_done;    /* rank 0: H_DONE requests received */

static void ask_h(gex_Token_t t, gex_AM_Arg_t a) { CHECK_OK(gex_AM_ReplyShort1(t, H_ANSWER, 0, a + 1)); }

static void answer_h(gex_Token_t t, gex_AM_Arg_t a)
{
    (void)t;
    __atomic_store_n(&answer, (int)a, __ATOMIC_RELEASE);
}

static void done_h(gex_Token_t t)
{
    (void)t;
    __atomic_fetch_add(&others_done, 1, __ATOMIC_RELEASE);
}

/* A round trip to rank 0, waited for as clients do (a lock's retry loop):
 * GASNET_BLOCKUNTIL, which polls only while the answer is not there. */
static void ask(int a)
{
    __atomic_store_n(&answer, -1, __ATOMIC_RELEASE);
    CHECK_OK(gex_AM_RequestShort1(c.tm, 0, H_ASK, 0, a));
    GASNET_BLOCKUNTIL(__atomic_load_n(&answer, __ATOMIC_ACQUIRE) >= 0);
    CHECK(answer == a + 1, "answer %d to %d", answer, a);
}

static void test_self_poll(void)
{
    gex_AM_Entry_t table[] = {
        {H_ASK, (gex_AM_Fn_t)ask_h, GEX_FLAG_AM_SHORT | GEX_FLAG_AM_REQUEST, 1, NULL, "ask"},
        {H_ANSWER, (gex_AM_Fn_t)answer_h, GEX_FLAG_AM_SHORT | GEX_FLAG_AM_REPLY, 1, NULL, "answer"},
        {H_DONE, (gex_AM_Fn_t)done_h, GEX_FLAG_AM_SHORT | GEX_FLAG_AM_REQUEST, 0, NULL, "done"},
    };
    CHECK_OK(gex_EP_RegisterHandlers(c.ep, table, EX_NELEM(table)));
    uint64_t *word = (uint64_t *)ex_peer_seg(c.tm, c.me, NULL);
    *word = 0x5e1f0000u + c.me;
    ex_barrier(c.tm);
    const int rounds = 50;
    long own = 0;
    if (c.me == 0) {
        /* every answer is there when its request returns: only the
         * requests themselves can serve the others */
        while (__atomic_load_n(&others_done, __ATOMIC_ACQUIRE) < (int)c.n - 1) ask((int)(own++ & 0xffff));
    } else {
        for (int i = 0; i < rounds; i++) {
            ask(i);
            uint64_t v = 0;
            gex_RMA_GetBlocking(c.tm, &v, 0, ex_peer_seg(c.tm, 0, NULL), sizeof v, 0);
            CHECK(v == 0x5e1f0000u, "got %#llx from rank 0", (unsigned long long)v);
        }
        CHECK_OK(gex_AM_RequestShort0(c.tm, 0, H_DONE, 0));
    }
    ex_barrier(c.tm);
    MSG0("self_poll: %u ranks made %d round trips and gets to rank 0 while it made %ld to itself", c.n - 1,
         rounds, own);
}

/* ---- a lock in rank 0's segment, taken with remote atomics by every
 * rank, rank 0 too: its retries are operations on its own memory,
 * complete in the call, so its waits never poll; the holder's get and
 * put to rank 0 (over AMs where the segment is not mapped) are served
 * only if those operations poll */
static void test_ad_self_poll(void)
{
    int64_t *mine = (int64_t *)ex_peer_seg(c.tm, c.me, NULL);
    int64_t *lock = (int64_t *)ex_peer_seg(c.tm, 0, NULL), *count = lock + 1;
    mine[0] = mine[1] = 0;
    gex_AD_t ad;
    gex_AD_Create(&ad, c.tm, GEX_DT_I64, GEX_OP_FCAS | GEX_OP_SET, 0);
    ex_barrier(c.tm);
    const int rounds = 20;
    for (int i = 0; i < rounds; i++) {
        int64_t old;
        do {
            gex_Event_Wait(gex_AD_OpNB_I64(ad, &old, 0, lock, GEX_OP_FCAS, 0, c.me + 1, GEX_FLAG_AD_ACQ));
        } while (old != 0);
        int64_t v;
        CHECK_OK(gex_RMA_GetBlocking(c.tm, &v, 0, count, sizeof v, 0));
        v++;
        CHECK_OK(gex_RMA_PutBlocking(c.tm, 0, count, &v, sizeof v, 0));
        gex_Event_Wait(gex_AD_OpNB_I64(ad, NULL, 0, lock, GEX_OP_SET, 0, 0, GEX_FLAG_AD_REL));
    }
    ex_barrier(c.tm);
    if (c.me == 0)
        CHECK(mine[1] == (int64_t)c.n * rounds, "the lock-protected count is %lld, not %lld",
              (long long)mine[1], (long long)c.n * rounds);
    ex_barrier(c.tm);
    gex_AD_Destroy(ad);
    MSG0("ad_self_poll: %u ranks took the lock %d times each", c.n, rounds);
}

/* ---- gex_AD_Create and gex_AD_Destroy complete locally */

enum { H_CREATED = 220 };
static int created; /* H_CREATED requests received */

static void created_h(gex_Token_t t)
{
    (void)t;
    __atomic_fetch_add(&created, 1, __ATOMIC_RELEASE);
}

static void wait_created(int n)
{
    while (__atomic_load_n(&created, __ATOMIC_ACQUIRE) < n) gasnet_AMPoll();
}

static void test_ad_local(void)
{
    gex_AM_Entry_t e = {H_CREATED, (gex_AM_Fn_t)created_h, GEX_FLAG_AM_SHORT | GEX_FLAG_AM_REQUEST,
                        0, NULL, "created"};
    CHECK_OK(gex_EP_RegisterHandlers(c.ep, &e, 1));
    ex_barrier(c.tm);
    gex_AD_t ad;
    uint64_t *word = ex_peer_seg(c.tm, 0, NULL);
    if (c.me != 0) {
        gex_AD_Create(&ad, c.tm, GEX_DT_U64, GEX_OP_ADD | GEX_OP_GET, 0);
        CHECK_OK(gex_AM_RequestShort0(c.tm, 0, H_CREATED, 0));
    } else {
        wait_created((int)c.n - 1); /* hangs if a create waits for rank 0's */
        gex_AD_Create(&ad, c.tm, GEX_DT_U64, GEX_OP_ADD | GEX_OP_GET, 0);
    }
    /* the domains work: every rank adds 1 to a word of rank 0 */
    gex_Event_Wait(gex_AD_OpNB_U64(ad, NULL, 0, word, GEX_OP_ADD, 1, 0, 0));
    ex_barrier(c.tm);
    uint64_t v = 0;
    gex_Event_Wait(gex_AD_OpNB_U64(ad, &v, 0, word, GEX_OP_GET, 0, 0, 0));
    CHECK(v == c.n, "the word holds %llu after %u increments", (unsigned long long)v, c.n);
    ex_barrier(c.tm);
    /* destroy: rank 0 again waits for the others' message before its own */
    if (c.me != 0) {
        gex_AD_Destroy(ad);
        CHECK_OK(gex_AM_RequestShort0(c.tm, 0, H_CREATED, 0));
    } else {
        wait_created(2 * ((int)c.n - 1));
        gex_AD_Destroy(ad);
    }
    ex_barrier(c.tm);
    MSG0("ad_local: gex_AD_Create and gex_AD_Destroy waited for no other rank");
}

/* ---- flags the reference accepts */

static void test_flags(void)
{
    /* gex_AD_Create: clients pass initiation flags; ignored, kept */
    static const gex_Flags_t ad_flags[] = {GEX_FLAG_PEER_SEG_OFFSET, GEX_FLAG_SELF_SEG_OFFSET,
                                           GEX_FLAG_PEER_SEG_SOME | GEX_FLAG_AD_FAVOR_REMOTE,
                                           GEX_FLAG_PEER_SEG_BOUND | GEX_FLAG_AD_FAVOR_MY_NBRHD};
    uint64_t *word = ex_peer_seg(c.tm, 0, NULL);
    for (size_t i = 0; i < EX_NELEM(ad_flags); i++) {
        gex_AD_t ad;
        gex_AD_Create(&ad, c.tm, GEX_DT_U64, GEX_OP_ADD | GEX_OP_GET, ad_flags[i]);
        CHECK(gex_AD_QueryFlags(ad) == ad_flags[i], "gex_AD_QueryFlags gave 0x%x, created with 0x%x",
              (unsigned)gex_AD_QueryFlags(ad), (unsigned)ad_flags[i]);
        gex_Event_Wait(gex_AD_OpNB_U64(ad, NULL, 0, word, GEX_OP_ADD, 1, 0, 0));
        ex_barrier(c.tm);
        gex_AD_Destroy(ad);
    }
    uint64_t v = 0;
    gex_RMA_GetBlocking(c.tm, &v, 0, word, sizeof v, 0);
    CHECK(v == EX_NELEM(ad_flags) * c.n, "the word holds %llu", (unsigned long long)v);
    MSG0("flags: gex_AD_Create takes GEX_FLAG_PEER_SEG_OFFSET and the other initiation flags");

    /* gex_TM_Split with GEX_FLAG_TM_NO_SCRATCH: scratch arguments ignored
     * (even a bogus one), collectives work */
    gex_TM_t half;
    gex_TM_Split(&half, c.tm, (int)(c.me % 2), (int)c.me, (void *)(uintptr_t)8, 3,
                 GEX_FLAG_TM_NO_SCRATCH);
    CHECK(gex_TM_QuerySize(half) == (c.n + 1 - c.me % 2) / 2, "split team of %u",
          gex_TM_QuerySize(half));
    ex_barrier(half);
    uint64_t sum = 0, mine = c.me + 1;
    gex_Event_Wait(gex_Coll_ReduceToAllNB(half, &sum, &mine, GEX_DT_U64, sizeof mine, 1, GEX_OP_ADD,
                                          NULL, NULL, 0));
    uint64_t want = 0;
    for (gex_Rank_t r = c.me % 2; r < c.n; r += 2) want += r + 1;
    CHECK(sum == want, "sum over the split team %llu, expected %llu", (unsigned long long)sum,
          (unsigned long long)want);
    gex_Memvec_t sv = {(void *)1, 1};
    CHECK(gex_TM_Destroy(half, &sv, 0) == 0, "a team without scratch handed scratch back");
    /* mixed: half the members grant scratch, half say NO_SCRATCH */
    uintptr_t segsize;
    char *seg = ex_peer_seg(c.tm, c.me, &segsize);
    size_t min = gex_TM_Split(&half, c.tm, 0, 0, NULL, 0, GEX_FLAG_TM_SCRATCH_SIZE_MIN);
    CHECK(min > 0 && min <= segsize / 2, "minimum scratch %zu", min);
    gex_TM_Split(&half, c.tm, 0, (int)c.me, seg + segsize - min, min,
                 c.me % 2 ? GEX_FLAG_TM_NO_SCRATCH : 0);
    ex_barrier(half);
    gex_TM_Destroy(half, NULL, 0);
    MSG0("flags: gex_TM_Split takes GEX_FLAG_TM_NO_SCRATCH");
}

/* ---- NULL outputs */

static void test_query_null(void)
{
    gex_TM_t tm = NULL;
    gasnet_QueryGexObjects(NULL, NULL, &tm, NULL);
    CHECK(tm == c.tm, "gasnet_QueryGexObjects(NULL, NULL, &tm, NULL) gave %p, not %p", (void *)tm,
          (void *)c.tm);
    gex_Client_t cl = NULL;
    gex_Segment_t sg = NULL;
    gasnet_QueryGexObjects(&cl, NULL, NULL, NULL);
    gasnet_QueryGexObjects(NULL, NULL, NULL, &sg);
    gasnet_QueryGexObjects(NULL, NULL, NULL, NULL);
    CHECK(cl == c.client && sg == c.seg, "gasnet_QueryGexObjects with NULLs");
    gex_Rank_t peer = (c.me + 1) % c.n;
    uintptr_t size = 0;
    void *owner = NULL;
    CHECK(gex_Segment_QueryBound(tm, peer, NULL, NULL, &size) == 0 && size >= (1 << 16),
          "gex_Segment_QueryBound(size only) gave %lu", (unsigned long)size);
    CHECK(gex_Segment_QueryBound(tm, peer, &owner, NULL, NULL) == 0 && owner,
          "gex_Segment_QueryBound(owner only)");
    CHECK(gex_Segment_QueryBound(tm, peer, NULL, NULL, NULL) == 0, "gex_Segment_QueryBound(none)");
    uintptr_t size2 = 0;
    gex_Event_Wait(gex_EP_QueryBoundSegmentNB(tm, peer, NULL, NULL, &size2, 0));
    CHECK(size2 == size, "gex_EP_QueryBoundSegmentNB(size only) gave %lu", (unsigned long)size2);
    gex_Event_Wait(gex_EP_QueryBoundSegmentNB(tm, peer, NULL, NULL, NULL, 0));
    gex_Rank_t count = 0, pos = GEX_RANK_INVALID;
    gex_System_QueryNbrhdInfo(NULL, &count, NULL);
    CHECK(count >= 1, "gex_System_QueryNbrhdInfo(count only) gave %u", count);
    gex_System_QueryHostInfo(NULL, NULL, &pos);
    CHECK(pos < c.n, "gex_System_QueryHostInfo(index only) gave %u", pos);
    gex_System_QueryMyPosition(NULL, NULL, NULL, &pos);
    gex_System_QueryMyPosition(NULL, NULL, NULL, NULL);
    gex_TM_t dup;
    gex_TM_Split(&dup, c.tm, 0, (int)c.me, NULL, 0, 0);
    gex_TM_Destroy(dup, NULL, 0);
    ex_barrier(c.tm);
    MSG0("query_null: every query took NULL for the outputs not wanted");
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    if (argc > 2 && !strcmp(argv[2], "gasnet1")) {
        /* a GASNet-1 client that reaches for the EX objects */
        if (gasnet_init(&argc, &argv) != GASNET_OK) return 1;
        if (gasnet_attach(NULL, 0, 1 << 16, 0) != GASNET_OK) return 1;
        gasnet_QueryGexObjects(&c.client, &c.ep, &c.tm, &c.seg);
        c.me = gex_TM_QueryRank(c.tm);
        c.n = gex_TM_QuerySize(c.tm);
    } else {
        ex_init(&c, "ex_clients", &argc, &argv, GEX_FLAG_USES_GASNET1);
        ex_attach(&c, 1 << 16);
    }
    if (!strcmp(mode, "loopback")) test_loopback();
    else if (!strcmp(mode, "loopback_bad")) test_loopback_bad();
    else if (!strcmp(mode, "self_poll")) test_self_poll();
    else if (!strcmp(mode, "ad_self_poll")) test_ad_self_poll();
    else if (!strcmp(mode, "ad_local")) test_ad_local();
    else if (!strcmp(mode, "flags")) test_flags();
    else if (!strcmp(mode, "query_null")) test_query_null();
    else CHECK(0, "usage: ex_clients loopback|self_poll|ad_self_poll|ad_local|flags|query_null");
    ex_barrier(c.tm);
    MSG0("ex_clients: ok");
    gasnet_exit(0);
    return 0;
}
