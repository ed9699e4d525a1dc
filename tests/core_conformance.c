/* Conformance of the GASNet-1 core API (spec 1-6): configuration macros
 * and types, error names, init and attach (argument errors, the handler
 * table rules, a failed attach leaving the library usable), segment and
 * node queries, the job environment, every AM family with every argument
 * count and payload sizes up to the limits (loopback included), handler
 * rules, HSLs and no-interrupt sections. Run on 1..4 nodes, SEQ and PAR,
 * debug and optimised builds. The job's environment must hold
 * CONFORMANCE_ENV=launch-value (the suite sets it). */
#include "test.h"

#include <pthread.h>
#include <unistd.h>

/* ---- compile-time facts */
#if GASNET_SPEC_VERSION_MAJOR != 1 || GASNET_SPEC_VERSION_MINOR != 8 || GASNET_VERSION != 1
#error "spec version"
#endif
#if !defined(GASNET_SEGMENT_FAST) + !defined(GASNET_SEGMENT_LARGE) + !defined(GASNET_SEGMENT_EVERYTHING) != 2
#error "exactly one segment kind"
#endif
#if GASNET_ALIGNED_SEGMENTS != 0 && GASNET_ALIGNED_SEGMENTS != 1
#error "GASNET_ALIGNED_SEGMENTS"
#endif
#if GASNET_PAGESIZE < 512 || (GASNET_PAGESIZE & (GASNET_PAGESIZE - 1))
#error "GASNET_PAGESIZE"
#endif
#if SIZEOF_GASNET_REGISTER_VALUE_T < 4
#error "SIZEOF_GASNET_REGISTER_VALUE_T"
#endif
#if !defined(GASNET_CONDUIT_MPI) || GASNET_RELEASE_VERSION_MAJOR < 1 || \
    (GASNET_RELEASE_VERSION_MAJOR == 1 && GASNET_RELEASE_VERSION_MINOR < 18)
#error "conduit or release identification"
#endif
_Static_assert(sizeof(gasnet_handlerarg_t) == 4 && (gasnet_handlerarg_t)-1 < 0, "handlerarg");
_Static_assert(sizeof(gasnet_register_value_t) == SIZEOF_GASNET_REGISTER_VALUE_T, "regval");
_Static_assert((gasnet_register_value_t)-1 > 0, "register value unsigned");
_Static_assert((gasnet_node_t)-1 > 0 && GASNET_MAXNODES <= (gasnet_node_t)-1, "node type");
_Static_assert(sizeof(gasnet_handler_t) == 1, "256 handlers");
static const gasnet_handle_t invalid_handle = GASNET_INVALID_HANDLE; /* constant expression */
static gasnet_hsl_t file_lock = GASNET_HSL_INITIALIZER;

#define SLOT ((uintptr_t)1 << 20) /* per peer, for Long requests; a second set for replies */
enum { FAM_SHORT, FAM_MEDIUM, FAM_LONG, FAM_LONG_ASYNC };
enum { H_REQ = 128, H_REP = 192 }; /* handler = base + 17*family + arity (Long/LongAsync share) */

static gasnet_seginfo_t *seg;
static gasnet_node_t me, nodes;
static volatile int replies;
static gasnet_hsl_t counter_lock;
static int locked_count;
static char reply_src[65536];

static gasnet_handlerarg_t arg_value(gasnet_node_t src, int n, int i)
{
    return (gasnet_handlerarg_t)(0x9E3779B9u * (unsigned)(i + 1) ^ (src << 20) ^ (unsigned)n);
}

static gasnet_node_t source(gasnet_token_t t)
{
    gasnet_node_t src = nodes;
    CHECK_OK(gasnet_AMGetMsgSource(t, &src));
    CHECK(src < nodes, "source %u", src);
    return src;
}

static char *request_slot(gasnet_node_t target, gasnet_node_t from)
{
    return (char *)seg[target].addr + from * SLOT;
}

static char *reply_slot(gasnet_node_t target, gasnet_node_t from)
{
    return (char *)seg[target].addr + (nodes + from) * SLOT;
}

/* ---- sending with a literal arity: the numbered macros are separate names */
#define A(i) arg_value(me, n, i)
#define ARGS0
#define ARGS1 ARGS0, A(0)
#define ARGS2 ARGS1, A(1)
#define ARGS3 ARGS2, A(2)
#define ARGS4 ARGS3, A(3)
#define ARGS5 ARGS4, A(4)
#define ARGS6 ARGS5, A(5)
#define ARGS7 ARGS6, A(6)
#define ARGS8 ARGS7, A(7)
#define ARGS9 ARGS8, A(8)
#define ARGS10 ARGS9, A(9)
#define ARGS11 ARGS10, A(10)
#define ARGS12 ARGS11, A(11)
#define ARGS13 ARGS12, A(12)
#define ARGS14 ARGS13, A(13)
#define ARGS15 ARGS14, A(14)
#define ARGS16 ARGS15, A(15)
#define CALL(macro, ...) macro(__VA_ARGS__) /* expands ARGSk before the call splits its arguments */
#define ALL(X) X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11) X(12) X(13) X(14) \
    X(15) X(16)

static int send_request(int fam, int n, gasnet_node_t dest, void *src, size_t nb, void *daddr)
{
    gasnet_handler_t h = (gasnet_handler_t)(H_REQ + 17 * (fam == FAM_LONG_ASYNC ? FAM_LONG : fam) + n);
#define RS(k) case k: return CALL(gasnet_AMRequestShort##k, dest, h ARGS##k);
#define RM(k) case k: return CALL(gasnet_AMRequestMedium##k, dest, h, src, nb ARGS##k);
#define RL(k) case k: return CALL(gasnet_AMRequestLong##k, dest, h, src, nb, daddr ARGS##k);
#define RA(k) case k: return CALL(gasnet_AMRequestLongAsync##k, dest, h, src, nb, daddr ARGS##k);
    switch (fam) {
    case FAM_SHORT: switch (n) { ALL(RS) } break;
    case FAM_MEDIUM: switch (n) { ALL(RM) } break;
    case FAM_LONG: switch (n) { ALL(RL) } break;
    default: switch (n) { ALL(RA) } break;
    }
    return -1;
}

static int send_reply(int fam, int n, gasnet_token_t t, void *src, size_t nb, void *daddr)
{
    gasnet_handler_t h = (gasnet_handler_t)(H_REP + 17 * fam + n);
#define PS(k) case k: return CALL(gasnet_AMReplyShort##k, t, h ARGS##k);
#define PM(k) case k: return CALL(gasnet_AMReplyMedium##k, t, h, src, nb ARGS##k);
#define PL(k) case k: return CALL(gasnet_AMReplyLong##k, t, h, src, nb, daddr ARGS##k);
    switch (fam) {
    case FAM_SHORT: switch (n) { ALL(PS) } break;
    case FAM_MEDIUM: switch (n) { ALL(PM) } break;
    default: switch (n) { ALL(PL) } break;
    }
    return -1;
}

/* ---- handlers: check what arrived, answer in kind */
static void check_args(gasnet_node_t src, int n, const gasnet_handlerarg_t *v)
{
    for (int i = 0; i < n; i++)
        CHECK(v[i] == arg_value(src, n, i), "arg %d of %d from node %u: %d", i, n, src, (int)v[i]);
}

static void on_request(gasnet_token_t t, int fam, int n, const gasnet_handlerarg_t *v, void *buf,
                       size_t nb)
{
    gasnet_node_t src = source(t);
    check_args(src, n, v);
    CHECK(test_verify(buf, nb, src * 31u + (unsigned)nb) == nb, "request payload of %zu", nb);
    if (fam == FAM_LONG && nb) CHECK(buf == request_slot(me, src), "Long landed at %p", buf);
    if (fam == FAM_MEDIUM && nb) CHECK(((uintptr_t)buf & 15) == 0, "Medium buffer %p", buf);
    gasnet_hold_interrupts(); /* ignored inside a handler */
    gasnet_resume_interrupts();
    gasnet_hsl_lock(&counter_lock);
    locked_count++;
    gasnet_hsl_unlock(&counter_lock);
    size_t rb = fam == FAM_LONG && nb > gasnet_AMMaxLongReply() ? gasnet_AMMaxLongReply() : nb;
    test_fill(reply_src, rb, me * 31u + (unsigned)rb + 1);
    CHECK_OK(send_reply(fam, n, t, reply_src, rb, reply_slot(src, me)));
#ifndef GASNET_DEBUG /* a debug build stops the job instead */
    if (n == 3)
        CHECK(send_reply(fam, n, t, reply_src, rb, reply_slot(src, me)) == GASNET_ERR_BAD_ARG,
              "a second reply must be refused");
#endif
}

static void on_reply(gasnet_token_t t, int fam, int n, const gasnet_handlerarg_t *v, void *buf,
                     size_t nb)
{
    gasnet_node_t src = source(t);
    check_args(src, n, v);
    CHECK(test_verify(buf, nb, src * 31u + (unsigned)nb + 1) == nb, "reply payload of %zu", nb);
    if (fam == FAM_LONG && nb) CHECK(buf == reply_slot(me, src), "Long reply at %p", buf);
#ifndef GASNET_DEBUG
    if (n == 3)
        CHECK(gasnet_AMReplyShort0(t, H_REP) == GASNET_ERR_BAD_ARG, "reply from a reply handler");
#endif
    replies++;
}

#define P0
#define P1 P0, gasnet_handlerarg_t a0
#define P2 P1, gasnet_handlerarg_t a1
#define P3 P2, gasnet_handlerarg_t a2
#define P4 P3, gasnet_handlerarg_t a3
#define P5 P4, gasnet_handlerarg_t a4
#define P6 P5, gasnet_handlerarg_t a5
#define P7 P6, gasnet_handlerarg_t a6
#define P8 P7, gasnet_handlerarg_t a7
#define P9 P8, gasnet_handlerarg_t a8
#define P10 P9, gasnet_handlerarg_t a9
#define P11 P10, gasnet_handlerarg_t a10
#define P12 P11, gasnet_handlerarg_t a11
#define P13 P12, gasnet_handlerarg_t a12
#define P14 P13, gasnet_handlerarg_t a13
#define P15 P14, gasnet_handlerarg_t a14
#define P16 P15, gasnet_handlerarg_t a15
#define V0
#define V1 V0, a0
#define V2 V1, a1
#define V3 V2, a2
#define V4 V3, a3
#define V5 V4, a4
#define V6 V5, a5
#define V7 V6, a6
#define V8 V7, a7
#define V9 V8, a8
#define V10 V9, a9
#define V11 V10, a10
#define V12 V11, a11
#define V13 V12, a12
#define V14 V13, a13
#define V15 V14, a14
#define V16 V15, a15
#define HANDLERS(k)                                                                            \
    static void sreq##k(gasnet_token_t t P##k)                                                 \
    {                                                                                          \
        gasnet_handlerarg_t v[] = {0 V##k};                                                    \
        on_request(t, FAM_SHORT, k, v + 1, NULL, 0);                                           \
    }                                                                                          \
    static void srep##k(gasnet_token_t t P##k)                                                 \
    {                                                                                          \
        gasnet_handlerarg_t v[] = {0 V##k};                                                    \
        on_reply(t, FAM_SHORT, k, v + 1, NULL, 0);                                             \
    }                                                                                          \
    static void mreq##k(gasnet_token_t t, void *b, size_t nb P##k)                             \
    {                                                                                          \
        gasnet_handlerarg_t v[] = {0 V##k};                                                    \
        on_request(t, FAM_MEDIUM, k, v + 1, b, nb);                                            \
    }                                                                                          \
    static void mrep##k(gasnet_token_t t, void *b, size_t nb P##k)                             \
    {                                                                                          \
        gasnet_handlerarg_t v[] = {0 V##k};                                                    \
        on_reply(t, FAM_MEDIUM, k, v + 1, b, nb);                                              \
    }                                                                                          \
    static void lreq##k(gasnet_token_t t, void *b, size_t nb P##k)                             \
    {                                                                                          \
        gasnet_handlerarg_t v[] = {0 V##k};                                                    \
        on_request(t, FAM_LONG, k, v + 1, b, nb);                                              \
    }                                                                                          \
    static void lrep##k(gasnet_token_t t, void *b, size_t nb P##k)                             \
    {                                                                                          \
        gasnet_handlerarg_t v[] = {0 V##k};                                                    \
        on_reply(t, FAM_LONG, k, v + 1, b, nb);                                                \
    }
ALL(HANDLERS)

#define ENTRIES(k)                                                             \
    {H_REQ + k, (void (*)())sreq##k}, {H_REP + k, (void (*)())srep##k},        \
    {H_REQ + 17 + k, (void (*)())mreq##k}, {H_REP + 17 + k, (void (*)())mrep##k}, \
    {H_REQ + 34 + k, (void (*)())lreq##k}, {H_REP + 34 + k, (void (*)())lrep##k},

/* Don't-care entries get the highest free indices, in table order (the
 * GASNet-1 layer of EX, EX spec 16.1): 128..178, 192..242 and 250 are
 * fixed, so they get 255, 254, 253. */
static volatile int dontcare_calls;
static void dontcare_h(gasnet_token_t t, gasnet_handlerarg_t x)
{
    (void)t;
    CHECK(x == 7, "don't-care handler argument %d", (int)x);
    dontcare_calls++;
}

#define H_BASE 250
static void base_h(gasnet_token_t t, void *buf, size_t nb);
static gasnet_handlerentry_t table[] = {
    {0, (void (*)())dontcare_h}, ALL(ENTRIES) {H_BASE, (void (*)())base_h},
    {0, (void (*)())dontcare_h}, {0, (void (*)())dontcare_h}};
#define TABLE_SIZE ((int)(sizeof table / sizeof table[0]))

static void wait_replies(int target) { GASNET_BLOCKUNTIL(replies >= target); }

/* ---- the parts of the test */

static void check_errors_and_names(void)
{
    int codes[] = {GASNET_OK, GASNET_ERR_NOT_INIT, GASNET_ERR_RESOURCE, GASNET_ERR_BAD_ARG,
                   GASNET_ERR_NOT_READY, GASNET_ERR_BARRIER_MISMATCH};
    const char *names[] = {"GASNET_OK", "GASNET_ERR_NOT_INIT", "GASNET_ERR_RESOURCE",
                           "GASNET_ERR_BAD_ARG", "GASNET_ERR_NOT_READY",
                           "GASNET_ERR_BARRIER_MISMATCH"};
    CHECK(GASNET_OK == 0, "GASNET_OK");
    for (int i = 0; i < 6; i++) {
        CHECK(!strcmp(gasnet_ErrorName(codes[i]), names[i]), "name of %d", codes[i]);
        CHECK(strlen(gasnet_ErrorDesc(codes[i])) > 0, "description of %d", codes[i]);
        for (int j = 0; j < i; j++) CHECK(codes[i] != codes[j], "codes %d and %d collide", i, j);
    }
    CHECK(!strcmp(gasnet_ErrorName(424242), "*unknown*"), "unknown code name");
    /* one spec level everywhere: the EX header, gasnet_config.h and the
     * configuration string (release 2025.8, EX spec 0.19) */
    CHECK(strstr(GASNET_CONFIG_STRING, "SPEC=0.19") != NULL, "%s", GASNET_CONFIG_STRING);
    CHECK(GEX_SPEC_VERSION_MAJOR == 0 && GEX_SPEC_VERSION_MINOR == 19, "GEX_SPEC_VERSION %d.%d",
          GEX_SPEC_VERSION_MAJOR, GEX_SPEC_VERSION_MINOR);
    CHECK(GASNETI_EX_SPEC_VERSION_MAJOR == GEX_SPEC_VERSION_MAJOR &&
              GASNETI_EX_SPEC_VERSION_MINOR == GEX_SPEC_VERSION_MINOR,
          "gasnet_config.h's spec %d.%d", GASNETI_EX_SPEC_VERSION_MAJOR, GASNETI_EX_SPEC_VERSION_MINOR);
    CHECK(GASNET_RELEASE_VERSION_MAJOR == 2025 && GASNET_RELEASE_VERSION_MINOR == 8 &&
              GASNETT_RELEASE_VERSION_MAJOR == 2025 && GASNETT_RELEASE_VERSION_MINOR == 8 &&
              GASNETT_SPEC_VERSION_MAJOR == 1 && GASNETT_SPEC_VERSION_MINOR == 20,
          "release %d.%d, tools %d.%d spec %d.%d", GASNET_RELEASE_VERSION_MAJOR, GASNET_RELEASE_VERSION_MINOR,
          GASNETT_RELEASE_VERSION_MAJOR, GASNETT_RELEASE_VERSION_MINOR, GASNETT_SPEC_VERSION_MAJOR,
          GASNETT_SPEC_VERSION_MINOR);
#ifdef GASNET_SEQ
    CHECK(strstr(GASNET_CONFIG_STRING, "THREADMODEL=SEQ") != NULL, "%s", GASNET_CONFIG_STRING);
#else
    CHECK(strstr(GASNET_CONFIG_STRING, "THREADMODEL=PAR") != NULL, "%s", GASNET_CONFIG_STRING);
#endif
    CHECK(!strcmp(GASNET_CONDUIT_NAME_STR, "MPI"), "conduit name");
    gasnet_handle_t zero;
    memset(&zero, 0, sizeof zero);
    CHECK(invalid_handle == zero, "GASNET_INVALID_HANDLE is all zero bytes");
    CHECK(gasnet_AMMaxArgs() >= 2 * sizeof(void *) && gasnet_AMMaxArgs() == 16, "AMMaxArgs");
    CHECK(gasnet_AMMaxMedium() >= 512 && gasnet_AMMaxLongRequest() >= 512 &&
          gasnet_AMMaxLongReply() >= 512, "AM limits below the spec's minimum");
}

static void threadinfo_user(void)
{
    GASNET_BEGIN_FUNCTION();
    gasnet_threadinfo_t ti = GASNET_GET_THREADINFO();
    {
        GASNET_POST_THREADINFO(ti);
        CHECK(ti == GASNET_GET_THREADINFO(), "thread info differs within a thread");
    }
}

/* Every node makes the same bad calls, so the collective agreement inside
 * gasnet_attach is exercised; each must fail without attaching. */
static void check_bad_attach(void)
{
    gasnet_handlerentry_t reserved[] = {{5, (void (*)())dontcare_h}};
    gasnet_handlerentry_t dup[] = {{200, (void (*)())dontcare_h}, {200, (void (*)())dontcare_h}};
    gasnet_handlerentry_t nullfn[] = {{0, NULL}};
    uintptr_t max = gasnet_getMaxLocalSegmentSize();
    CHECK(gasnet_attach(NULL, 0, GASNET_PAGESIZE + 1, 0) == GASNET_ERR_BAD_ARG, "unaligned segsize");
    CHECK(gasnet_attach(NULL, 0, max + GASNET_PAGESIZE, 0) == GASNET_ERR_BAD_ARG, "huge segsize");
    CHECK(gasnet_attach(NULL, -1, 0, 0) == GASNET_ERR_BAD_ARG, "negative table size");
    CHECK(gasnet_attach(reserved, 1, 0, 0) == GASNET_ERR_RESOURCE, "reserved index");
    CHECK(gasnet_attach(dup, 2, 0, 0) == GASNET_ERR_RESOURCE, "duplicate index");
    CHECK(gasnet_attach(nullfn, 1, 0, 0) == GASNET_ERR_RESOURCE, "NULL handler");
    CHECK(gasnet_AMRequestShort0(0, 200) == GASNET_ERR_NOT_INIT, "AM before attach");
    gasnet_seginfo_t s;
    CHECK(gasnet_getSegmentInfo(&s, 1) == GASNET_ERR_NOT_INIT, "segment info before attach");
}

static void check_queries(uintptr_t segsize)
{
    gasnet_seginfo_t *s = calloc(nodes + 1, sizeof *s);
    s[nodes].addr = (void *)0x1234;
    CHECK_OK(gasnet_getSegmentInfo(s, (int)nodes + 1));
    CHECK(s[nodes].addr == (void *)0x1234, "entries past gasnet_nodes() must stay untouched");
    for (gasnet_node_t i = 0; i < nodes; i++) {
        CHECK(s[i].size == segsize, "node %u segment size %lu", i, (unsigned long)s[i].size);
        CHECK(((uintptr_t)s[i].addr % GASNET_PAGESIZE) == 0, "segment base %p", s[i].addr);
    }
    CHECK(gasnet_getSegmentInfo(s, -1) == GASNET_ERR_BAD_ARG, "negative count");
    free(s);
    gasnet_nodeinfo_t *ni = calloc(nodes, sizeof *ni);
    CHECK_OK(gasnet_getNodeInfo(ni, (int)nodes));
    CHECK_OK(gasnet_getNodeInfo(NULL, 0));
    CHECK(gasnet_getNodeInfo(ni, -2) == GASNET_ERR_BAD_ARG, "negative count");
    for (gasnet_node_t i = 0; i < nodes; i++) CHECK(ni[i].host < nodes, "host id %u", ni[i].host);
    free(ni);
    /* the segment is usable at once, even untouched pages */
    memset(seg[me].addr, 0, (size_t)segsize);
}

/* Each node sends its segment base to node 0 in a Medium; node 0 compares
 * with its own table: every node sees the same segment addresses. */
static volatile int bases_checked;
static void check_bases(void)
{
    void *mine = seg[me].addr;
    CHECK_OK(gasnet_AMRequestMedium0(0, H_BASE, &mine, sizeof mine));
    if (me == 0) GASNET_BLOCKUNTIL(bases_checked == (int)nodes);
}

static void base_h(gasnet_token_t t, void *buf, size_t nb)
{
    gasnet_node_t src = source(t);
    void *addr;
    CHECK(nb == sizeof addr, "base message size");
    memcpy(&addr, buf, sizeof addr);
    CHECK(addr == seg[src].addr, "node %u's segment is at %p, node 0 sees %p", src, addr,
          seg[src].addr);
    bases_checked++;
}

static void am_matrix(void)
{
    static char src[1 << 20];
    size_t msizes[] = {0, 1, 7, 4096, 4097, 12345, gasnet_AMMaxMedium()};
    size_t lsizes[] = {0, 1, 9, 4097, gasnet_AMMaxLongReply(), gasnet_AMMaxLongReply() + 1,
                       gasnet_AMMaxLongRequest()};
    int expect = replies;
    for (gasnet_node_t d0 = 0; d0 < nodes; d0++) {
        gasnet_node_t dest = (me + d0) % nodes;
        for (int n = 0; n <= 16; n++) {
            int all_sizes = n == 0 || n == 5 || n == 16; /* every size for some arities */
            CHECK_OK(send_request(FAM_SHORT, n, dest, NULL, 0, NULL));
            wait_replies(++expect);
            for (int s = 0; s < 7; s++) {
                if (!all_sizes && s != 1 && s != 4) continue;
                test_fill(src, msizes[s], me * 31u + (unsigned)msizes[s]);
                CHECK_OK(send_request(FAM_MEDIUM, n, dest, src, msizes[s], NULL));
                wait_replies(++expect);
                test_fill(src, lsizes[s], me * 31u + (unsigned)lsizes[s]);
                CHECK_OK(send_request(s % 2 ? FAM_LONG : FAM_LONG_ASYNC, n, dest, src, lsizes[s],
                                      request_slot(dest, me)));
                wait_replies(++expect);
            }
        }
    }
}

static void am_arg_errors(void)
{
    char b[8] = {0};
    gasnet_node_t peer = (me + 1) % nodes;
    CHECK(gasnet_AMRequestShort0(nodes, H_REQ) == GASNET_ERR_BAD_ARG, "bad node");
    CHECK(gasnet_AMRequestShort0(peer, 0) == GASNET_ERR_BAD_ARG, "handler 0");
    CHECK(gasnet_AMRequestMedium0(peer, H_REQ + 17, b, gasnet_AMMaxMedium() + 1) ==
              GASNET_ERR_BAD_ARG, "Medium over the limit");
    CHECK(gasnet_AMRequestLong0(peer, H_REQ + 34, b, gasnet_AMMaxLongRequest() + 1,
                                seg[peer].addr) == GASNET_ERR_BAD_ARG, "Long over the limit");
    CHECK(gasnet_AMRequestMedium0(peer, H_REQ + 17, NULL, 4) == GASNET_ERR_BAD_ARG, "NULL source");
#ifndef GASNET_DEBUG /* debug builds stop the job here; core_violations checks that */
    CHECK(gasnet_AMRequestLong0(peer, H_REQ + 34, b, 8, (char *)seg[peer].addr + seg[peer].size - 4) ==
              GASNET_ERR_BAD_ARG, "Long destination outside the segment");
#endif
    CHECK(gasnet_AMGetMsgSource(NULL, &peer) == GASNET_ERR_BAD_ARG, "NULL token");
    CHECK(gasnet_set_waitmode(99) == GASNET_ERR_BAD_ARG, "bad wait mode");
    CHECK_OK(gasnet_set_waitmode(GASNET_WAIT_BLOCK));
    CHECK_OK(gasnet_set_waitmode(GASNET_WAIT_SPINBLOCK));
}

#ifdef GASNET_PAR
static gasnet_hsl_t held;
static volatile int holding, release_it;
static void *holder(void *arg)
{
    (void)arg;
    gasnet_hsl_lock(&held);
    __atomic_store_n(&holding, 1, __ATOMIC_SEQ_CST);
    while (!__atomic_load_n(&release_it, __ATOMIC_SEQ_CST)) usleep(100);
    gasnet_hsl_unlock(&held);
    return NULL;
}
#endif

static void check_hsls(void)
{
    static gasnet_hsl_t block_lock = GASNET_HSL_INITIALIZER;
    gasnet_hsl_t dyn;
    gasnet_hsl_init(&dyn);
    gasnet_hsl_lock(&file_lock);
    gasnet_hsl_lock(&block_lock);
    CHECK(gasnet_hsl_trylock(&dyn) == GASNET_OK, "trylock of a free HSL");
    gasnet_hsl_unlock(&dyn);
    gasnet_hsl_unlock(&block_lock);
    gasnet_hsl_unlock(&file_lock);
    gasnet_hsl_destroy(&dyn);
    gasnet_hold_interrupts();
    gasnet_resume_interrupts();
#ifdef GASNET_PAR
    pthread_t th;
    gasnet_hsl_init(&held);
    pthread_create(&th, NULL, holder, NULL);
    while (!__atomic_load_n(&holding, __ATOMIC_SEQ_CST)) usleep(100);
    CHECK(gasnet_hsl_trylock(&held) == GASNET_ERR_NOT_READY, "trylock of an HSL held elsewhere");
    __atomic_store_n(&release_it, 1, __ATOMIC_SEQ_CST);
    pthread_join(th, NULL);
    CHECK(gasnet_hsl_trylock(&held) == GASNET_OK, "trylock after release");
    gasnet_hsl_unlock(&held);
    gasnet_hsl_destroy(&held);
#endif
}

int main(int argc, char **argv)
{
    check_errors_and_names();
    CHECK_OK(gasnet_init(&argc, &argv));
    CHECK(gasnet_init(&argc, &argv) == GASNET_ERR_NOT_INIT, "second gasnet_init");
    me = gasnet_mynode();
    nodes = gasnet_nodes();
    CHECK(me < nodes && nodes >= 1, "node %u of %u", me, nodes);
    const char *e = gasnet_getenv("CONFORMANCE_ENV");
    CHECK(e && !strcmp(e, "launch-value"), "job environment: CONFORMANCE_ENV=%s", e ? e : "(unset)");
    CHECK(gasnet_getenv("CONFORMANCE_SURELY_UNSET_VARIABLE") == NULL, "unset variable");
    uintptr_t local = gasnet_getMaxLocalSegmentSize(), global = gasnet_getMaxGlobalSegmentSize();
    CHECK(local % GASNET_PAGESIZE == 0 && global % GASNET_PAGESIZE == 0 && global <= local &&
          global > 0, "segment limits %lu / %lu", (unsigned long)local, (unsigned long)global);
    gasnet_nodeinfo_t ni;
    CHECK_OK(gasnet_getNodeInfo(&ni, 1)); /* legal before attach */
    threadinfo_user();
    check_bad_attach();

    uintptr_t segsize = 2 * nodes * SLOT;
    CHECK_OK(gasnet_attach(table, TABLE_SIZE, segsize, GASNET_PAGESIZE));
    CHECK(gasnet_attach(table, TABLE_SIZE, segsize, 0) == GASNET_ERR_NOT_INIT, "second attach");
    CHECK(table[0].index == 255 && table[TABLE_SIZE - 2].index == 254 &&
          table[TABLE_SIZE - 1].index == 253, "don't-care indices %d %d %d", table[0].index,
          table[TABLE_SIZE - 2].index, table[TABLE_SIZE - 1].index);
    CHECK(table[1].index == H_REQ, "fixed index kept");
    seg = calloc(nodes, sizeof *seg);
    CHECK_OK(gasnet_getSegmentInfo(seg, (int)nodes));
    gasnet_hsl_init(&counter_lock);
    check_queries(segsize);
    check_hsls();
    BARRIER();

    check_bases();
    CHECK_OK(gasnet_AMRequestShort1((me + 1) % nodes, table[0].index, 7));
    GASNET_BLOCKUNTIL(dontcare_calls == 1);
    BARRIER();

    am_matrix();
    am_arg_errors();
    BARRIER();
    gasnet_hsl_lock(&counter_lock);
    CHECK(locked_count > 0, "request handlers ran under the HSL");
    gasnet_hsl_unlock(&counter_lock);
    MSG0("core_conformance: ok (%u nodes)", nodes);
    BARRIER();
    gasnet_exit(0);
    return 0;
}
