/* ex_v019: what the releases 2020.11 to 2025.8 (spec v0.11 to v0.19) added
 * for clients, from ../shared/spec/surface-2025.8-additions.md. Usage:
 *   ex_v019          (2+ ranks) the constants and their values, verbose
 *                    errors, the thread and hidden-AM queries, NPAM Cancel
 *                    and Commit_v2, zero-byte Long, GEX_FLAG_PEER_NEVER_*,
 *                    a root and its leaf synced in one array
 *   ex_v019 defer    GEX_FLAG_DEFER_THREADS (2 ranks): with
 *                    GASNET_PROGRESS_THREAD=yes the library starts no
 *                    thread; node 1's handlers run on its main thread
 *                    while it polls, then on the thread the client
 *                    started from gex_System_QueryProgressThreads while it
 *                    computes without calling GASNet; without it the
 *                    list is empty
 *   ex_v019 never_self  a debug build diagnoses a false PEER_NEVER_SELF
 */
#include "ex_test.h"

#include <pthread.h>
#include <unistd.h>

/* ---- §0-5: values clients check at compile time */
_Static_assert(GEX_FLAG_AM_PREPARE_LEAST_CLIENT == (1U << 11) && GEX_FLAG_AM_PREPARE_LEAST_ALLOC == (1U << 12),
               "GEX_FLAG_AM_PREPARE_LEAST_* have the 2021+ values 1U<<11 and 1U<<12");
_Static_assert(GASNET_ERR_NOT_READY == 10004 && GEX_DT_U64 == (1U << 3) && GEX_OP_ADD == (1U << 3) &&
                   GEX_EP_CAPABILITY_RMA == 1U && GEX_FLAG_IMMEDIATE == 1U,
               "a value a client checks statically differs");
#if !defined(GEX_FLAG_PEER_NEVER_SELF) || !defined(GEX_FLAG_PEER_NEVER_NBRHD) || !defined(GEX_FLAG_DEFER_THREADS)
#error "GEX_FLAG_PEER_NEVER_* and GEX_FLAG_DEFER_THREADS must be macros"
#endif
#if GASNET_SUPPORTS_TI_SRCRANK != 1 || GASNET_SUPPORTS_TI_EP != 1 || GASNET_SUPPORTS_TI_ENTRY != 1 || \
    GASNET_SUPPORTS_TI_IS_REQ != 1 || GASNET_SUPPORTS_TI_IS_LONG != 1
#error "GASNET_SUPPORTS_TI_* are 1 (or undefined for an optional query)"
#endif
#if GASNET_SUPPORTS_AM_CANCEL != 1 || GASNET_SUPPORTS_AM_COMMIT_V2 != 1
#error "GASNET_SUPPORTS_AM_CANCEL / _COMMIT_V2"
#endif

static ex_ctx_t X;
static gex_Rank_t peer;
static void *peer_seg;
enum { MOST = 512, CANCELS = 3000, COMMITS = 40 };

/* Flags of one group share no bit. */
static void distinct(const char *group, const gex_Flags_t *f, size_t n)
{
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < i; j++)
            CHECK(f[i] && !(f[i] & f[j]), "%s: entries %zu (0x%x) and %zu (0x%x)", group, j, f[j], i, f[i]);
}
#define GROUP(name, ...)                                \
    do {                                                \
        const gex_Flags_t f_[] = {__VA_ARGS__};         \
        distinct(name, f_, EX_NELEM(f_));               \
    } while (0)

static void constants(void)
{
    CHECK(GEX_CLIENT_INVALID == 0 && GEX_EP_INVALID == 0 && GEX_MK_INVALID == 0, "INVALID handles are 0");
    CHECK(GEX_MK_HOST == (gex_MK_t)1 && GEX_MK_INVALID != GEX_MK_HOST, "GEX_MK_HOST is 1, not GEX_MK_INVALID");
    CHECK(GEX_EVENT_INVALID == (gex_Event_t)0 && GEX_EVENT_NO_OP == (gex_Event_t)1 &&
              GEX_EVENT_NOW == (gex_Event_t *)1 && GEX_EVENT_DEFER == (gex_Event_t *)2 &&
              GEX_EVENT_GROUP == (gex_Event_t *)3, "event constants 0-3");
    GROUP("RMA", GEX_FLAG_IMMEDIATE, GEX_FLAG_SELF_SEG_UNKNOWN, GEX_FLAG_SELF_SEG_SOME, GEX_FLAG_SELF_SEG_BOUND,
          GEX_FLAG_SELF_SEG_OFFSET, GEX_FLAG_PEER_SEG_UNKNOWN, GEX_FLAG_PEER_SEG_SOME, GEX_FLAG_PEER_SEG_BOUND,
          GEX_FLAG_PEER_SEG_OFFSET, GEX_FLAG_LC_COPY_YES, GEX_FLAG_LC_COPY_NO, GEX_FLAG_PEER_NEVER_SELF,
          GEX_FLAG_PEER_NEVER_NBRHD);
    GROUP("Prepare", GEX_FLAG_IMMEDIATE, GEX_FLAG_SELF_SEG_UNKNOWN, GEX_FLAG_SELF_SEG_SOME, GEX_FLAG_SELF_SEG_BOUND,
          GEX_FLAG_SELF_SEG_OFFSET, GEX_FLAG_PEER_SEG_UNKNOWN, GEX_FLAG_PEER_SEG_SOME, GEX_FLAG_PEER_SEG_BOUND,
          GEX_FLAG_PEER_SEG_OFFSET, GEX_FLAG_LC_COPY_YES, GEX_FLAG_LC_COPY_NO, GEX_FLAG_AM_PREPARE_LEAST_CLIENT,
          GEX_FLAG_AM_PREPARE_LEAST_ALLOC);
    GROUP("Client_Init", GEX_FLAG_USES_GASNET1, GEX_FLAG_DEFER_THREADS);
    CHECK(GEX_THREAD_ROLE_RCV && GEX_THREAD_ROLE_SND && !(GEX_THREAD_ROLE_RCV & GEX_THREAD_ROLE_SND),
          "GEX_THREAD_ROLE_* distinct bits");
}

/* Bytes written to stderr by call() (stderr sent to a file meanwhile). */
static long stderr_bytes(int (*call)(void), int *rc)
{
    fflush(stderr);
    FILE *tmp = tmpfile();
    CHECK(tmp != NULL, "tmpfile");
    int saved = dup(2);
    dup2(fileno(tmp), 2);
    *rc = call();
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    fseek(tmp, 0, SEEK_END);
    long n = ftell(tmp);
    fclose(tmp);
    return n;
}
static int bad_bind(void) { return gex_EP_BindSegment(GEX_EP_INVALID, GEX_SEGMENT_INVALID, 0); }

static void verbose_errors(void)
{
    int rc;
    CHECK(gex_System_GetVerboseErrors() != 0, "verbose errors are on by default");
    CHECK(stderr_bytes(bad_bind, &rc) > 0 && rc == GASNET_ERR_BAD_ARG, "an error is reported on stderr (rc %d)", rc);
    gex_System_SetVerboseErrors(0);
    CHECK(gex_System_GetVerboseErrors() == 0, "Set(0) turns them off");
    long quiet = stderr_bytes(bad_bind, &rc);
    CHECK(quiet == 0 && rc == GASNET_ERR_BAD_ARG, "with verbose errors off: %ld bytes on stderr, rc %d", quiet, rc);
    gex_System_SetVerboseErrors(1);
    CHECK(gex_System_GetVerboseErrors() == 1, "Set(1) turns them on again");
}

static int progress_thread_env(void)
{
    const char *v = gasnet_getenv("GASNET_PROGRESS_THREAD");
    return v && (!strcmp(v, "yes") || !strcmp(v, "1") || !strcmp(v, "YES") || !strcmp(v, "y"));
}

static void queries(void)
{
    uint64_t maxthreads = gex_System_QueryMaxThreads();
#ifdef GASNET_SEQ
    CHECK(maxthreads == 1, "gex_System_QueryMaxThreads in SEQ: %llu", (unsigned long long)maxthreads);
#else
    CHECK(maxthreads >= 2, "gex_System_QueryMaxThreads in PAR: %llu", (unsigned long long)maxthreads);
#endif
    CHECK(gex_System_QueryMaxThreads() == maxthreads, "the thread limit changed");
    int level = gex_System_QueryHiddenAMConcurrencyLevel();
    CHECK((level != 0) == progress_thread_env(), "hidden AM concurrency %d with GASNET_PROGRESS_THREAD %s",
          level, progress_thread_env() ? "on" : "off");
    CHECK(level == 0 || GASNET_HIDDEN_AM_CONCURRENCY_LEVEL != 0, "the macro bounds the run-time level");
    unsigned count = 99;
    const gex_ProgressThreadInfo_t *info = NULL;
    gex_System_SetVerboseErrors(0);
    CHECK(gex_System_QueryProgressThreads(X.client, &count, &info, 0) == GASNET_ERR_RESOURCE,
          "QueryProgressThreads without GEX_FLAG_DEFER_THREADS");
    CHECK(gex_System_QueryProgressThreads(X.client, NULL, &info, 0) == GASNET_ERR_BAD_ARG, "NULL count_p");
    gex_System_SetVerboseErrors(1);
}

/* ---- handlers */
static int med_seen, long_seen, replies_seen, zero_seen;
static void *zero_addr;
static size_t zero_len = 99;
static gex_AM_Index_t h_med, h_long, h_zero, h_rep_req, h_rep;

static void med_h(gex_Token_t t, void *buf, size_t n, gex_AM_Arg_t seed, gex_AM_Arg_t len)
{
    (void)t;
    CHECK(n == (size_t)len && ex_verify(buf, n, (unsigned)seed) == n, "Medium seed %d: %zu bytes, byte %zu",
          (int)seed, n, ex_verify(buf, n, (unsigned)seed));
    __atomic_fetch_add(&med_seen, 1, __ATOMIC_RELEASE);
}
static void long_h(gex_Token_t t, void *buf, size_t n, gex_AM_Arg_t seed, gex_AM_Arg_t len)
{
    (void)t;
    CHECK(buf == gex_Segment_QueryAddr(X.seg), "Long landed at %p", buf);
    CHECK(n == (size_t)len && ex_verify(buf, n, (unsigned)seed) == n, "Long seed %d: %zu bytes", (int)seed, n);
    __atomic_fetch_add(&long_seen, 1, __ATOMIC_RELEASE);
}
static void zero_h(gex_Token_t t, void *buf, size_t n)
{
    (void)t;
    zero_addr = buf;
    zero_len = n;
    __atomic_store_n(&zero_seen, 1, __ATOMIC_RELEASE);
}
/* Prepares a Long and a Medium reply and cancels both, then replies with
 * a Commit_v2: each Cancel must have ended its Prepare. */
static void rep_req_h(gex_Token_t t)
{
    gex_AM_SrcDesc_t sd = gex_AM_PrepareReplyLong(t, NULL, 16, 16, NULL, NULL, 0, 2);
    CHECK(sd != GEX_AM_SRCDESC_NO_OP, "PrepareReplyLong");
    CHECK(gex_AM_CancelReplyLong(sd, 0) == 0, "CancelReplyLong");
    sd = gex_AM_PrepareReplyMedium(t, NULL, 8, 64, NULL, 0, 1);
    CHECK(sd != GEX_AM_SRCDESC_NO_OP, "PrepareReplyMedium");
    CHECK(gex_AM_CancelReplyMedium(sd, 0) == 0, "CancelReplyMedium");
    sd = gex_AM_PrepareReplyMedium(t, NULL, 8, 64, NULL, 0, 1);
    CHECK(sd != GEX_AM_SRCDESC_NO_OP, "PrepareReplyMedium after a Cancel");
    ex_fill(gex_AM_SrcDescAddr(sd), 8, 77);
    CHECK(gex_AM_CommitReplyMedium1_v2(sd, h_rep, 8, 0, 77) == 0, "CommitReplyMedium1_v2");
}
static void rep_h(gex_Token_t t, void *buf, size_t n, gex_AM_Arg_t a)
{
    (void)t;
    CHECK(a == 77 && n == 8 && ex_verify(buf, n, 77) == n, "reply: arg %d, %zu bytes", (int)a, n);
    __atomic_fetch_add(&replies_seen, 1, __ATOMIC_RELEASE);
}

static int seen(int *c) { return __atomic_load_n(c, __ATOMIC_ACQUIRE); }

/* §4.6-4.7: a cancelled Prepare sends nothing and gives back what it took:
 * without that, the credits to the peer run out (over MPI) within a few
 * dozen Prepares and the next one waits for ever. */
static void cancel_and_commit_v2(void)
{
    char *buf = malloc(MOST);
    CHECK(buf != NULL, "out of memory");
    for (int i = 0; i < CANCELS; i++) {
        gex_AM_SrcDesc_t sd;
        if (i % 3 == 2) {
            sd = gex_AM_PrepareRequestLong(X.tm, peer, NULL, 1, MOST, peer_seg, NULL, 0, 2);
            ex_fill(gex_AM_SrcDescAddr(sd), gex_AM_SrcDescSize(sd), 5);
            CHECK(gex_AM_CancelRequestLong(sd, 0) == 0, "CancelRequestLong");
        } else {
            /* a client buffer with an event: cancelled, the event is never handed out */
            gex_Event_t ev = (gex_Event_t)&ev;
            sd = i % 3 ? gex_AM_PrepareRequestMedium(X.tm, peer, buf, 1, MOST, &ev, 0, 2)
                       : gex_AM_PrepareRequestMedium(X.tm, peer, NULL, 1, MOST, NULL, 0, 2);
            CHECK(gex_AM_SrcDescSize(sd) >= 1, "Prepare offered %zu bytes", gex_AM_SrcDescSize(sd));
            CHECK(gex_AM_CancelRequestMedium(sd, 0) == 0, "CancelRequestMedium");
            CHECK(ev == (gex_Event_t)&ev, "a cancelled Prepare wrote its lc_opt");
        }
    }
    /* Prepares to this process (which take no credit: the request would
     * run in place) cancelled too; then the library's own traffic to this
     * process (a put into the own segment: an AM with a reply over the AM
     * path) must still find its credits as they were */
    for (int i = 0; i < 4; i++) {
        gex_AM_SrcDesc_t sd = gex_AM_PrepareRequestMedium(X.tm, X.me, NULL, 1, MOST, NULL, 0, 2);
        CHECK(gex_AM_CancelRequestMedium(sd, 0) == 0, "CancelRequestMedium to self");
    }
    for (int i = 0; i < 64; i++) {
        uint64_t word = 0xc0ffee00u + (unsigned)i, got = 0;
        char *mine = (char *)gex_Segment_QueryAddr(X.seg) + 512;
        gex_RMA_PutBlocking(X.tm, X.me, mine, &word, sizeof word, 0);
        gex_RMA_GetBlocking(X.tm, &got, X.me, mine, sizeof got, 0);
        CHECK(got == word, "put and get to self after cancels: %#llx", (unsigned long long)got);
    }
    ex_barrier(X.tm);
    CHECK(seen(&med_seen) == 0 && seen(&long_seen) == 0, "a cancelled Prepare delivered (%d Medium, %d Long)",
          seen(&med_seen), seen(&long_seen));
    ex_barrier(X.tm);

    int retried = 0;
    for (int i = 0; i < COMMITS; i++) {
        size_t n = 1 + (size_t)i * 11 % MOST;
        gex_AM_SrcDesc_t sd = gex_AM_PrepareRequestMedium(X.tm, peer, NULL, n, MOST, NULL, 0, 2);
        ex_fill(gex_AM_SrcDescAddr(sd), n, (unsigned)i);
        gex_Flags_t cf = i % 2 ? GEX_FLAG_IMMEDIATE : 0;
        int rc = i % 4 == 1 ? gex_AM_CommitRequestMedium_v2(sd, h_med, n, cf, i, (gex_AM_Arg_t)n)
                            : gex_AM_CommitRequestMedium2_v2(sd, h_med, n, cf, i, (gex_AM_Arg_t)n);
        if (rc) { /* only under IMMEDIATE; the descriptor stays pending */
            CHECK(cf, "Commit_v2 without IMMEDIATE returned %d", rc);
            CHECK(ex_verify(gex_AM_SrcDescAddr(sd), n, (unsigned)i) == n, "the pending buffer changed");
            CHECK(gex_AM_CommitRequestMedium2_v2(sd, h_med, n, 0, i, (gex_AM_Arg_t)n) == 0, "retry");
            retried++;
        }
        ex_fill(buf, n, (unsigned)i + 1000);
        sd = gex_AM_PrepareRequestLong(X.tm, peer, buf, n, n, peer_seg, GEX_EVENT_NOW, 0, 2);
        rc = i % 4 == 3 ? gex_AM_CommitRequestLong_v2(sd, h_long, n, peer_seg, cf, i + 1000, (gex_AM_Arg_t)n)
                        : gex_AM_CommitRequestLong2_v2(sd, h_long, n, peer_seg, cf, i + 1000, (gex_AM_Arg_t)n);
        if (rc) {
            CHECK(cf, "Commit_v2 without IMMEDIATE returned %d", rc);
            CHECK(gex_AM_CommitRequestLong2_v2(sd, h_long, n, peer_seg, 0, i + 1000, (gex_AM_Arg_t)n) == 0, "retry");
            retried++;
        }
        /* one Long at a time into each segment: its handler has run before
         * the next one lands there */
        GASNET_BLOCKUNTIL(seen(&long_seen) == i + 1);
        ex_barrier(X.tm);
    }
    GASNET_BLOCKUNTIL(seen(&med_seen) == COMMITS && seen(&long_seen) == COMMITS);
    ex_barrier(X.tm);
    CHECK(seen(&med_seen) == COMMITS && seen(&long_seen) == COMMITS, "%d Medium and %d Long arrived, not %d",
          seen(&med_seen), seen(&long_seen), COMMITS);

    CHECK_OK(gex_AM_RequestShort0(X.tm, peer, h_rep_req, 0));
    GASNET_BLOCKUNTIL(seen(&replies_seen) == 1);
    free(buf);
    if (X.me == 0 && retried) printf("ex_v019: %d IMMEDIATE commits found no room\n", retried);
}

/* §4.3: a zero-byte Long needs no segment there, and its dest_addr arrives
 * unchanged. */
static void zero_byte_long(void)
{
    void *nowhere = (void *)(uintptr_t)0xdead000;
    CHECK_OK(gex_AM_RequestLong0(X.tm, peer, h_zero, NULL, 0, nowhere, GEX_EVENT_NOW, 0));
    GASNET_BLOCKUNTIL(seen(&zero_seen));
    CHECK(zero_addr == nowhere && zero_len == 0, "zero-byte Long: %p, %zu bytes", zero_addr, zero_len);
    ex_barrier(X.tm);
}

/* §5: the assertions are accepted by gex_RMA_* and change nothing. */
static void peer_never(void)
{
    gex_RankInfo_t *nb;
    gex_Rank_t nbn, mine;
    gex_System_QueryNbrhdInfo(&nb, &nbn, &mine);
    int in_nbrhd = 0;
    for (gex_Rank_t i = 0; i < nbn; i++) in_nbrhd |= nb[i].gex_jobrank == peer;
    gex_Flags_t f = in_nbrhd ? GEX_FLAG_PEER_NEVER_SELF : GEX_FLAG_PEER_NEVER_NBRHD | GEX_FLAG_PEER_NEVER_SELF;
    uint64_t v = 0x1234000 + X.me, back = 0;
    char *slot = (char *)peer_seg + 1024;
    CHECK_OK(gex_RMA_PutBlocking(X.tm, peer, slot, &v, sizeof v, f));
    CHECK_OK(gex_RMA_GetBlocking(X.tm, &back, peer, slot, sizeof back, f));
    CHECK(back == v, "PEER_NEVER flags 0x%x: read back 0x%llx", f, (unsigned long long)back);
    ex_barrier(X.tm);
    if (X.me == 0) printf("ex_v019: PEER_NEVER flags 0x%x (peer %sin the neighbourhood)\n", f, in_nbrhd ? "" : "not ");
}

/* §6: a root and its own leaf in one array, in either order (the events
 * are only real on the AM or a network path: run with GASNET_RMA=am). */
static void root_leaf_mix(void)
{
    static char src[128 * 1024]; /* large enough to be sent from in place: a real LC leaf */
    char *slot = (char *)peer_seg + 64 * 1024;
    for (int order = 0; order < 4; order++) {
        gex_Event_t lc = GEX_EVENT_INVALID;
        gex_Event_t root = gex_RMA_PutNB(X.tm, peer, slot, src, sizeof src, &lc, 0);
        gex_Event_t ev[2] = {order % 2 ? lc : root, order % 2 ? root : lc};
        /* (the put is most likely complete after this: then one sweep
         * finds root and leaf both done) */
        ex_barrier(X.tm);
        for (int i = 0; i < 100; i++) gasnet_AMPoll();
        if (order < 2) {
            gex_Event_WaitAll(ev, 2, 0);
        } else {
            while (gex_Event_TestAll(ev, 2, 0) != GASNET_OK) gasnet_AMPoll();
        }
        CHECK(ev[0] == GEX_EVENT_INVALID && ev[1] == GEX_EVENT_INVALID, "order %d: entries left", order);
    }
    ex_barrier(X.tm);
}

/* ---- GEX_FLAG_DEFER_THREADS */
static pthread_t main_thread, client_thread;
static int ran_on_main, ran_on_client, defer_hits, acks;
static gex_AM_Index_t h_ack;
static void defer_h(gex_Token_t t)
{
    if (pthread_equal(pthread_self(), main_thread)) __atomic_fetch_add(&ran_on_main, 1, __ATOMIC_RELAXED);
    if (pthread_equal(pthread_self(), client_thread)) __atomic_fetch_add(&ran_on_client, 1, __ATOMIC_RELAXED);
    __atomic_fetch_add(&defer_hits, 1, __ATOMIC_RELEASE);
    gex_AM_ReplyShort0(t, h_ack, 0);
}
static void ack_h(gex_Token_t t)
{
    (void)t;
    __atomic_fetch_add(&acks, 1, __ATOMIC_RELEASE);
}
enum { ROUNDS = 20 };

static void defer(int argc, char **argv)
{
    ex_init(&X, "EX_V019_DEFER", &argc, &argv, GEX_FLAG_DEFER_THREADS);
    CHECK(X.n == 2, "run defer on 2 ranks");
    main_thread = pthread_self();
    gex_AM_Entry_t e[] = {{0, (gex_AM_Fn_t)defer_h, GEX_FLAG_AM_SHORT | GEX_FLAG_AM_REQUEST, 0, NULL, "defer"},
                          {0, (gex_AM_Fn_t)ack_h, GEX_FLAG_AM_SHORT | GEX_FLAG_AM_REPLY, 0, NULL, "ack"}};
    CHECK_OK(gex_EP_RegisterHandlers(X.ep, e, 2));
    h_ack = e[1].gex_index;
    const int wanted = progress_thread_env();
    unsigned count = 99;
    const gex_ProgressThreadInfo_t *info = NULL;
    gex_System_SetVerboseErrors(0);
    CHECK(gex_System_QueryProgressThreads(X.client, &count, NULL, 0) == GASNET_ERR_BAD_ARG, "NULL info_p");
    CHECK(gex_System_QueryProgressThreads(X.client, &count, &info, 1) == GASNET_ERR_BAD_ARG, "flags 1");
    gex_System_SetVerboseErrors(1);
    CHECK_OK(gex_System_QueryProgressThreads(X.client, &count, &info, 0));
    CHECK(count == (wanted ? 1u : 0u), "%u progress threads with GASNET_PROGRESS_THREAD %s", count,
          wanted ? "on" : "off");
    CHECK((gex_System_QueryHiddenAMConcurrencyLevel() != 0) == wanted, "hidden AM concurrency");
    ex_barrier(X.tm);
    if (!wanted) {
        MSG0("ex_v019 defer: ok (no threads)");
        gasnet_exit(0);
    }
    CHECK(info[0].gex_device_list != NULL && info[0].gex_progress_fn != NULL &&
              (info[0].gex_thread_roles & GEX_THREAD_ROLE_RCV), "the entry: a device list, a function, role RCV");
    void *(*fn)(void *) = info[0].gex_progress_fn;
    void *arg = info[0].gex_progress_arg;
    /* Nothing is started yet: node 1 sleeps while node 0's request
     * arrives, then polls; the handler runs on node 1's main thread. */
    if (X.me == 0) CHECK_OK(gex_AM_RequestShort0(X.tm, 1, e[0].gex_index, 0));
    if (X.me == 1) {
        ex_sleep_ms(300);
        GASNET_BLOCKUNTIL(seen(&defer_hits) == 1);
        CHECK(seen(&ran_on_main) == 1, "before the client started the thread a handler ran off the main thread");
    }
    ex_barrier(X.tm);
    /* Now the client starts it: node 1 waits without calling GASNet while
     * node 0 sends requests one after another (each after the last one's
     * reply): those node 1's main thread did not run while it was still
     * in the barrier, only that thread can. */
    CHECK(pthread_create(&client_thread, NULL, fn, arg) == 0, "pthread_create");
    ex_barrier(X.tm);
    if (X.me == 0)
        for (int k = 0; k < ROUNDS; k++) {
            CHECK_OK(gex_AM_RequestShort0(X.tm, 1, e[0].gex_index, 0));
            GASNET_BLOCKUNTIL(seen(&acks) == k + 2);
        }
    if (X.me == 1) {
        while (seen(&defer_hits) < 1 + ROUNDS) sched_yield();
        CHECK(seen(&ran_on_client) >= 1 && seen(&ran_on_main) + seen(&ran_on_client) == 1 + ROUNDS,
              "%d handlers on the thread the client started, %d on the main thread, of %d", seen(&ran_on_client),
              seen(&ran_on_main), 1 + ROUNDS);
    }
    ex_barrier(X.tm);
    MSG0("ex_v019 defer: ok");
    gasnet_exit(0); /* stops and joins the client-started thread */
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "all";
    if (!strcmp(mode, "defer")) defer(argc, argv);
    ex_init(&X, "EX_V019", &argc, &argv, 0);
    constants();
    verbose_errors();
    queries();
    ex_attach(&X, 256 * 1024);
    peer = (X.me + 1) % X.n;
    peer_seg = ex_peer_seg(X.tm, peer, NULL);
    if (!strcmp(mode, "never_self")) {
        uint64_t v = 1;
        gex_RMA_PutBlocking(X.tm, X.me, gex_Segment_QueryAddr(X.seg), &v, sizeof v, GEX_FLAG_PEER_NEVER_SELF);
        MSG0("ex_v019 never_self: not diagnosed");
        gasnet_exit(0);
    }
    gex_AM_Entry_t e[] = {
        {0, (gex_AM_Fn_t)med_h, GEX_FLAG_AM_MEDIUM | GEX_FLAG_AM_REQUEST, 2, NULL, "med"},
        {0, (gex_AM_Fn_t)long_h, GEX_FLAG_AM_LONG | GEX_FLAG_AM_REQUEST, 2, NULL, "long"},
        {0, (gex_AM_Fn_t)zero_h, GEX_FLAG_AM_LONG | GEX_FLAG_AM_REQUEST, 0, NULL, "zero"},
        {0, (gex_AM_Fn_t)rep_req_h, GEX_FLAG_AM_SHORT | GEX_FLAG_AM_REQUEST, 0, NULL, "rep_req"},
        {0, (gex_AM_Fn_t)rep_h, GEX_FLAG_AM_MEDIUM | GEX_FLAG_AM_REPLY, 1, NULL, "rep"}};
    CHECK_OK(gex_EP_RegisterHandlers(X.ep, e, EX_NELEM(e)));
    h_med = e[0].gex_index;
    h_long = e[1].gex_index;
    h_zero = e[2].gex_index;
    h_rep_req = e[3].gex_index;
    h_rep = e[4].gex_index;
    ex_barrier(X.tm);
    cancel_and_commit_v2();
    zero_byte_long();
    peer_never();
    root_leaf_mix();
    MSG0("ex_v019: ok");
    gasnet_exit(0);
}
