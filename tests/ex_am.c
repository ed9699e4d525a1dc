/* ex_am: GASNet-EX Active Messages (spec §8), from the spec alone.
 *
 *   ex_am [CAP]        every rank to every rank, itself included
 *   ex_am immediate    2+ ranks: IMMEDIATE requests to a peer that does
 *                      not poll
 *   ex_am replies      2+ ranks: Long replies to a rank that sends without
 *                      polling, so they pile up at its peer
 *
 * The main run, in order:
 * - the size queries (§8.3): every gex_AM_Max* for every peer, argument
 *   count, lc_opt and flag, with GEX_RANK_INVALID and the LUBs: at least
 *   512, stable, non-increasing in numargs, LUB <= Max, an event pointer
 *   and NULL alike, symmetric between two ranks (the tables are exchanged
 *   through the segments), GEX_RANK_INVALID the minimum over the team
 *   and the same everywhere;
 * - Short, Medium and Long requests with 0..16 arguments, each answered
 *   by a reply of the same category and count: once with the numbered
 *   forms and small payloads (0 bytes every fourth count; a Long request
 *   of 0 bytes still hands the handler its dest_addr), once with the
 *   unnumbered forms and the largest payload the Max queries allow (at
 *   most CAP bytes, default 1 MiB). Arguments, payloads, Medium buffer
 *   alignment, Long destinations, gex_Token_Info in both handlers and
 *   gex_Token_MaxReply* are checked. Request lc_opt rotates over NOW,
 *   GROUP (then gex_NBI_Wait(GEX_EC_AM)) and an event pointer (then
 *   gex_Event_Wait); reply lc_opt over NOW and a pointer synced after the
 *   handler returns. After local completion the source is overwritten at
 *   once: the target must still see the original bytes;
 * - negotiated payloads (§8.6): Prepare/Commit requests and replies,
 *   Medium and Long, with the client's buffer and with GASNet's (filled
 *   in place), committing fewer bytes than offered.
 * The handlers are registered with don't-care indices, MEDLONG and exact
 * argument counts.
 */
#include "ex_test.h"

#include <mpi.h>

enum { SHORT, MEDIUM, LONG };
static const char *const kind_name[] = {"Short", "Medium", "Long"};

static ex_ctx_t X;
static void **peer_seg;       /* every rank's segment, in its address space */
static char *my_seg;
static size_t slot;           /* bytes per source rank in each region */
static size_t cap = 1 << 20;  /* largest payload sent */
#define REQ_REGION 0          /* Long requests from rank s land in slot s */
#define REP_REGION (X.n * slot) /* Long replies from rank s land in slot s */

/* phase state: set by every rank before the barrier that starts a phase */
static int kind, pass;
static volatile int replies_in;

static gex_AM_Arg_t argval(unsigned salt, int i)
{
    uint32_t x = salt * 2654435761u + (uint32_t)i * 40503u + 0x80000001u;
    return (gex_AM_Arg_t)x;
}
static unsigned req_salt(gex_Rank_t src, int m) { return src * 4096u + (unsigned)m * 64u + (unsigned)pass * 8u + (unsigned)kind; }
static unsigned rep_salt(gex_Rank_t replier, int m) { return 0x10000u + req_salt(replier, m); }
static size_t long_off(int m) { return (m & 1) ? 3 : 0; } /* unaligned Long destinations too */

static gex_Event_t *req_lc(int m, gex_Event_t *ev) { return m % 3 == 0 ? GEX_EVENT_NOW : m % 3 == 1 ? GEX_EVENT_GROUP : ev; }

/* Payload sizes. Pass 1 sends the most the Max queries allow (symmetric:
 * the receiver asks the same question about the sender). */
static size_t req_bytes(gex_Rank_t peer, int m)
{
    gex_Event_t ev;
    if (kind == SHORT) return 0;
    if (pass == 0) return m % 4 == 0 ? 0 : (size_t)m * 61 % 1000 + 1;
    size_t max = kind == MEDIUM ? gex_AM_MaxRequestMedium(X.tm, peer, req_lc(m, &ev), 0, (unsigned)m)
                                : gex_AM_MaxRequestLong(X.tm, peer, req_lc(m, &ev), 0, (unsigned)m);
    return max < cap ? max : cap;
}

/* ---- reply buffers whose local completion is synced after the handler */
#define NPOOL 8
static char *pool[NPOOL];
static gex_Event_t pool_ev[NPOOL];
static int pool_busy[NPOOL];
static char *now_buf;

static void sync_pool(void)
{
    for (int i = 0; i < NPOOL; i++)
        if (pool_busy[i]) {
            gex_Event_Wait(pool_ev[i]);
            pool_busy[i] = 0;
        }
}
static int pool_take(void)
{
    for (int i = 0; i < NPOOL; i++)
        if (!pool_busy[i]) return i;
    return -1;
}

/* ---- the numbered and unnumbered call forms, by argument count */
#define AV0
#define AV1 AV0, a[0]
#define AV2 AV1, a[1]
#define AV3 AV2, a[2]
#define AV4 AV3, a[3]
#define AV5 AV4, a[4]
#define AV6 AV5, a[5]
#define AV7 AV6, a[6]
#define AV8 AV7, a[7]
#define AV9 AV8, a[8]
#define AV10 AV9, a[9]
#define AV11 AV10, a[10]
#define AV12 AV11, a[11]
#define AV13 AV12, a[12]
#define AV14 AV13, a[13]
#define AV15 AV14, a[14]
#define AV16 AV15, a[15]
#define PAR0
#define PAR1 PAR0, gex_AM_Arg_t a0
#define PAR2 PAR1, gex_AM_Arg_t a1
#define PAR3 PAR2, gex_AM_Arg_t a2
#define PAR4 PAR3, gex_AM_Arg_t a3
#define PAR5 PAR4, gex_AM_Arg_t a4
#define PAR6 PAR5, gex_AM_Arg_t a5
#define PAR7 PAR6, gex_AM_Arg_t a6
#define PAR8 PAR7, gex_AM_Arg_t a7
#define PAR9 PAR8, gex_AM_Arg_t a8
#define PAR10 PAR9, gex_AM_Arg_t a9
#define PAR11 PAR10, gex_AM_Arg_t a10
#define PAR12 PAR11, gex_AM_Arg_t a11
#define PAR13 PAR12, gex_AM_Arg_t a12
#define PAR14 PAR13, gex_AM_Arg_t a13
#define PAR15 PAR14, gex_AM_Arg_t a14
#define PAR16 PAR15, gex_AM_Arg_t a15
#define NM0
#define NM1 NM0, a0
#define NM2 NM1, a1
#define NM3 NM2, a2
#define NM4 NM3, a3
#define NM5 NM4, a4
#define NM6 NM5, a5
#define NM7 NM6, a6
#define NM8 NM7, a7
#define NM9 NM8, a8
#define NM10 NM9, a9
#define NM11 NM10, a10
#define NM12 NM11, a11
#define NM13 NM12, a12
#define NM14 NM13, a13
#define NM15 NM14, a14
#define NM16 NM15, a15
/* AVn holds commas: expand it before the numbered macro splits its arguments */
#define CALL(f, ...) f(__VA_ARGS__)
#define FOR_M(X) X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11) X(12) X(13) X(14) X(15) X(16)

static gex_AM_Index_t idx_sreq[17], idx_srep[17], idx_mreq[17], idx_mrep[17];
static gex_AM_Index_t idx_nreq2, idx_nrep2, idx_nreq16, idx_nrep16;

static int send_request(int unnumbered, gex_Rank_t r, int m, const void *src, size_t n, void *dest,
                        gex_Event_t *lc, const gex_AM_Arg_t *a)
{
    gex_TM_t tm = X.tm;
#define REQ_CASE(M)                                                                                    \
    case M:                                                                                            \
        if (kind == SHORT)                                                                             \
            return unnumbered ? gex_AM_RequestShort(tm, r, idx_sreq[M], 0 AV##M)                       \
                              : CALL(gex_AM_RequestShort##M, tm, r, idx_sreq[M], 0 AV##M);                   \
        if (kind == MEDIUM)                                                                            \
            return unnumbered ? gex_AM_RequestMedium(tm, r, idx_mreq[M], src, n, lc, 0 AV##M)          \
                              : CALL(gex_AM_RequestMedium##M, tm, r, idx_mreq[M], src, n, lc, 0 AV##M);      \
        return unnumbered ? gex_AM_RequestLong(tm, r, idx_mreq[M], src, n, dest, lc, 0 AV##M)          \
                          : CALL(gex_AM_RequestLong##M, tm, r, idx_mreq[M], src, n, dest, lc, 0 AV##M);
    switch (m) { FOR_M(REQ_CASE) }
    CHECK(0, "numargs %d", m);
    return -1;
}

static int send_reply(int unnumbered, gex_Token_t t, int m, const void *src, size_t n, void *dest,
                      gex_Event_t *lc, const gex_AM_Arg_t *a)
{
#define REP_CASE(M)                                                                                    \
    case M:                                                                                            \
        if (kind == SHORT)                                                                             \
            return unnumbered ? gex_AM_ReplyShort(t, idx_srep[M], 0 AV##M)                             \
                              : CALL(gex_AM_ReplyShort##M, t, idx_srep[M], 0 AV##M);                         \
        if (kind == MEDIUM)                                                                            \
            return unnumbered ? gex_AM_ReplyMedium(t, idx_mrep[M], src, n, lc, 0 AV##M)                \
                              : CALL(gex_AM_ReplyMedium##M, t, idx_mrep[M], src, n, lc, 0 AV##M);            \
        return unnumbered ? gex_AM_ReplyLong(t, idx_mrep[M], src, n, dest, lc, 0 AV##M)                \
                          : CALL(gex_AM_ReplyLong##M, t, idx_mrep[M], src, n, dest, lc, 0 AV##M);
    switch (m) { FOR_M(REP_CASE) }
    CHECK(0, "numargs %d", m);
    return -1;
}

/* gex_Token_Info: SRCRANK and EP always (§8.5); optional fields only
 * where the returned mask says they are valid. */
static gex_Rank_t token_check(gex_Token_t t, int is_req, int is_long, gex_AM_Index_t index)
{
    gex_Token_Info_t info;
    memset(&info, 0, sizeof info);
    gex_TI_t got = gex_Token_Info(t, &info, GEX_TI_ALL);
    CHECK((got & GEX_TI_SRCRANK) && (got & GEX_TI_EP), "gex_Token_Info(GEX_TI_ALL) returned mask 0x%x", got);
    CHECK(info.gex_srcrank < X.n, "srcrank %u", info.gex_srcrank);
    CHECK(info.gex_ep == X.ep, "token's EP");
    if (got & GEX_TI_IS_REQ) CHECK(!info.gex_is_req == !is_req, "gex_is_req %d in a %s handler", info.gex_is_req,
                                   is_req ? "request" : "reply");
    if (got & GEX_TI_IS_LONG) CHECK(!info.gex_is_long == !is_long, "gex_is_long %d, Long %d", info.gex_is_long, is_long);
    if (got & GEX_TI_ENTRY) CHECK(info.gex_entry != NULL && info.gex_entry->gex_index == index,
                                  "gex_entry of index %u", info.gex_entry ? info.gex_entry->gex_index : 0);
    /* a narrower mask still answers the required fields */
    gex_Token_Info_t one;
    got = gex_Token_Info(t, &one, GEX_TI_SRCRANK);
    CHECK((got & GEX_TI_SRCRANK) && one.gex_srcrank == info.gex_srcrank, "gex_Token_Info(GEX_TI_SRCRANK)");
    got = gex_Token_Info(t, &one, GEX_TI_EP);
    CHECK((got & GEX_TI_EP) && one.gex_ep == X.ep, "gex_Token_Info(GEX_TI_EP)");
    return info.gex_srcrank;
}

static void check_args(const char *what, int m, const gex_AM_Arg_t *got, unsigned salt)
{
    for (int i = 0; i < m; i++)
        CHECK(got[i] == argval(salt, i), "%s %s with %d args: arg %d is %d, expected %d", kind_name[kind], what, m,
              i, got[i], argval(salt, i));
}

static void check_medium_buf(const char *what, void *buf, size_t n)
{
    if (n && kind == MEDIUM)
        CHECK((uintptr_t)buf % _Alignof(max_align_t) == 0, "Medium %s buffer %p not aligned for any type", what, buf);
}

static void on_request(gex_Token_t t, void *buf, size_t n, int m, const gex_AM_Arg_t *got)
{
    gex_AM_Index_t index = kind == SHORT ? idx_sreq[m] : idx_mreq[m];
    gex_Rank_t src = token_check(t, 1, kind == LONG, index);
    unsigned salt = req_salt(src, m);
    check_args("request", m, got, salt);
    if (kind != SHORT) {
        size_t want = req_bytes(src, m);
        CHECK(n == want, "%s request from %u with %d args: %zu bytes, expected %zu", kind_name[kind], src, m, n, want);
        check_medium_buf("request", buf, n);
        if (kind == LONG) {
            char *dest = my_seg + REQ_REGION + src * slot + long_off(m);
            CHECK(buf == dest, "Long request of %zu bytes from %u: handler got %p, dest_addr was %p", n, src, buf,
                  (void *)dest);
        }
        size_t bad = ex_verify(buf, n, salt);
        CHECK(bad == n, "%s request from %u, %zu bytes: byte %zu differs", kind_name[kind], src, n, bad);
    }
    /* the reply: same category and count */
    gex_AM_Arg_t a[16];
    for (int i = 0; i < m; i++) a[i] = argval(rep_salt(X.me, m), i);
    int use_ev = m % 2 == 1 && kind != SHORT;
    int slot_i = use_ev ? pool_take() : -1;
    gex_Event_t *lc = slot_i >= 0 ? &pool_ev[slot_i] : GEX_EVENT_NOW;
    size_t rn = 0;
    if (kind != SHORT) {
        if (pass == 0) {
            rn = m % 4 == 1 ? 0 : (size_t)m * 53 % 900 + 1;
        } else {
            size_t max = kind == MEDIUM ? gex_Token_MaxReplyMedium(t, lc, 0, (unsigned)m)
                                        : gex_Token_MaxReplyLong(t, lc, 0, (unsigned)m);
            size_t max2 = kind == MEDIUM ? gex_AM_MaxReplyMedium(X.tm, src, lc, 0, (unsigned)m)
                                         : gex_AM_MaxReplyLong(X.tm, src, lc, 0, (unsigned)m);
            CHECK(max >= 512 && max == max2, "gex_Token_MaxReply%s = %zu, gex_AM_MaxReply%s to the requester = %zu",
                  kind_name[kind], max, kind_name[kind], max2);
            rn = max < cap ? max : cap;
        }
    }
    char *rsrc = slot_i >= 0 ? pool[slot_i] : now_buf;
    ex_fill(rsrc, rn, rep_salt(X.me, m));
    char *rdest = (char *)peer_seg[src] + REP_REGION + X.me * slot + long_off(m);
    CHECK_OK(send_reply(pass, t, m, rsrc, rn, rdest, lc, a));
    if (slot_i >= 0) pool_busy[slot_i] = 1;
    else memset(now_buf, 0xee, rn); /* GEX_EVENT_NOW: reusable at once */
}

static size_t expected_reply_bytes(int m)
{
    if (kind == SHORT) return 0;
    if (pass == 0) return m % 4 == 1 ? 0 : (size_t)m * 53 % 900 + 1;
    return (size_t)-1; /* the replier's token query: checked against the Max query below */
}

static void on_reply(gex_Token_t t, void *buf, size_t n, int m, const gex_AM_Arg_t *got)
{
    gex_AM_Index_t index = kind == SHORT ? idx_srep[m] : idx_mrep[m];
    gex_Rank_t src = token_check(t, 0, kind == LONG, index);
    unsigned salt = rep_salt(src, m);
    check_args("reply", m, got, salt);
    if (kind != SHORT) {
        size_t want = expected_reply_bytes(m);
        if (want == (size_t)-1) {
            gex_Event_t ev;
            size_t a = kind == MEDIUM ? gex_AM_MaxReplyMedium(X.tm, src, GEX_EVENT_NOW, 0, (unsigned)m)
                                      : gex_AM_MaxReplyLong(X.tm, src, GEX_EVENT_NOW, 0, (unsigned)m);
            size_t b = kind == MEDIUM ? gex_AM_MaxReplyMedium(X.tm, src, &ev, 0, (unsigned)m)
                                      : gex_AM_MaxReplyLong(X.tm, src, &ev, 0, (unsigned)m);
            if (a > cap) a = cap;
            if (b > cap) b = cap;
            CHECK(n == a || n == b, "%s reply with %d args from %u: %zu bytes, the Max query says %zu or %zu",
                  kind_name[kind], m, src, n, a, b);
        } else {
            CHECK(n == want, "%s reply from %u with %d args: %zu bytes, expected %zu", kind_name[kind], src, m, n, want);
        }
        check_medium_buf("reply", buf, n);
        if (kind == LONG) {
            char *dest = my_seg + REP_REGION + src * slot + long_off(m);
            CHECK(buf == dest, "Long reply from %u: handler got %p, dest_addr was %p", src, buf, (void *)dest);
        }
        size_t bad = ex_verify(buf, n, salt);
        CHECK(bad == n, "%s reply from %u, %zu bytes: byte %zu differs", kind_name[kind], src, n, bad);
    }
    replies_in++;
}

#define DEF_HANDLERS(M)                                                                               \
    static void sreq##M(gex_Token_t t PAR##M) { gex_AM_Arg_t g[] = {0 NM##M}; on_request(t, NULL, 0, M, g + 1); } \
    static void srep##M(gex_Token_t t PAR##M) { gex_AM_Arg_t g[] = {0 NM##M}; on_reply(t, NULL, 0, M, g + 1); }   \
    static void mreq##M(gex_Token_t t, void *b, size_t n PAR##M) { gex_AM_Arg_t g[] = {0 NM##M}; on_request(t, b, n, M, g + 1); } \
    static void mrep##M(gex_Token_t t, void *b, size_t n PAR##M) { gex_AM_Arg_t g[] = {0 NM##M}; on_reply(t, b, n, M, g + 1); }
FOR_M(DEF_HANDLERS)

/* ---- the exchange of every request kind */
static void request_all(void)
{
    char *src = malloc(cap + 8);
    CHECK(src != NULL, "out of memory");
    for (kind = SHORT; kind <= LONG; kind++) {
        for (pass = 0; pass < 2; pass++) {
            replies_in = 0;
            ex_barrier(X.tm);
            int sent = 0;
            for (gex_Rank_t i = 0; i < X.n; i++) {
                gex_Rank_t r = (X.me + 1 + i) % X.n; /* peers first, myself last */
                for (int m = 0; m <= 16; m++) {
                    unsigned salt = req_salt(X.me, m);
                    gex_AM_Arg_t a[16];
                    for (int j = 0; j < m; j++) a[j] = argval(salt, j);
                    size_t n = req_bytes(r, m);
                    ex_fill(src, n, salt);
                    gex_Event_t ev = (gex_Event_t)(uintptr_t)0x1234, *lc = req_lc(m, &ev);
                    char *dest = (char *)peer_seg[r] + REQ_REGION + X.me * slot + long_off(m);
                    CHECK_OK(send_request(pass, r, m, src, n, dest, lc, a));
                    if (lc == GEX_EVENT_GROUP) {
                        gex_NBI_Wait(GEX_EC_AM, 0);
                    } else if (lc == &ev && kind != SHORT) {
                        CHECK(ev != (gex_Event_t)(uintptr_t)0x1234, "lc_opt pointer not written");
                        gex_Event_Wait(ev);
                    }
                    memset(src, 0xee, n); /* locally complete: the target must not see this */
                    sent++;
                    GASNET_BLOCKUNTIL(replies_in == sent);
                    sync_pool();
                }
            }
            ex_barrier(X.tm);
            sync_pool();
            MSG0("ex_am: %s requests and replies with 0..16 arguments (%s forms, %s payloads): ok", kind_name[kind],
                 pass ? "unnumbered" : "numbered", pass ? "largest" : "small");
        }
    }
    free(src);
}

/* ---- size queries (§8.3) */
enum { Q_REQ_MED, Q_REP_MED, Q_REQ_LONG, Q_REP_LONG, NQ };
static const char *const qname[NQ] = {"MaxRequestMedium", "MaxReplyMedium", "MaxRequestLong", "MaxReplyLong"};
#define NLC 3 /* NOW, GROUP (requests), pointer */
#define NFL 4
static const gex_Flags_t qflags[NFL] = {0, GEX_FLAG_IMMEDIATE, GEX_FLAG_AM_PREPARE_LEAST_CLIENT,
                                        GEX_FLAG_AM_PREPARE_LEAST_ALLOC};
#define QCOUNT (NQ * NLC * NFL * 17)
static size_t qi(int q, int l, int f, int m) { return (((size_t)q * NLC + l) * NFL + f) * 17 + m; }

static size_t query(int q, gex_Rank_t r, const gex_Event_t *lc, gex_Flags_t f, unsigned m)
{
    switch (q) {
    case Q_REQ_MED: return gex_AM_MaxRequestMedium(X.tm, r, lc, f, m);
    case Q_REP_MED: return gex_AM_MaxReplyMedium(X.tm, r, lc, f, m);
    case Q_REQ_LONG: return gex_AM_MaxRequestLong(X.tm, r, lc, f, m);
    default: return gex_AM_MaxReplyLong(X.tm, r, lc, f, m);
    }
}

static void size_queries(void)
{
    CHECK(gex_AM_MaxArgs() >= 2 * (sizeof(int) > sizeof(void *) ? sizeof(int) : sizeof(void *)),
          "gex_AM_MaxArgs() = %u", gex_AM_MaxArgs());
    size_t lub[NQ] = {gex_AM_LUBRequestMedium(), gex_AM_LUBReplyMedium(), gex_AM_LUBRequestLong(),
                      gex_AM_LUBReplyLong()};
    size_t lub2[NQ] = {gex_AM_LUBRequestMedium(), gex_AM_LUBReplyMedium(), gex_AM_LUBRequestLong(),
                       gex_AM_LUBReplyLong()};
    for (int q = 0; q < NQ; q++) CHECK(lub[q] >= 512 && lub[q] == lub2[q], "LUB of %s: %zu then %zu", qname[q], lub[q], lub2[q]);

    /* table[r][...], r = X.n for GEX_RANK_INVALID; published in every
     * rank's segment after the regions */
    size_t tbytes = (size_t)(X.n + 1) * QCOUNT * sizeof(uint64_t);
    uint64_t *mine = calloc(1, tbytes);
    CHECK(mine != NULL, "out of memory");
    gex_Event_t ev;
    for (gex_Rank_t ri = 0; ri <= X.n; ri++) {
        gex_Rank_t r = ri == X.n ? GEX_RANK_INVALID : ri;
        uint64_t *t = mine + (size_t)ri * QCOUNT;
        for (int q = 0; q < NQ; q++)
            for (int l = 0; l < NLC; l++) {
                int reply = q == Q_REP_MED || q == Q_REP_LONG;
                if (reply && l == 1) continue; /* GROUP is not for replies */
                const gex_Event_t *lc = l == 0 ? GEX_EVENT_NOW : l == 1 ? GEX_EVENT_GROUP : &ev;
                for (int f = 0; f < NFL; f++)
                    for (unsigned m = 0; m <= 16; m++) {
                        size_t v = query(q, r, lc, qflags[f], m);
                        const char *who = ri == X.n ? "GEX_RANK_INVALID" : "a rank";
                        CHECK(v >= 512, "gex_AM_%s(%s %u, lc %d, flags 0x%x, %u args) = %zu < 512", qname[q], who, r, l,
                              qflags[f], m, v);
                        CHECK(query(q, r, lc, qflags[f], m) == v, "gex_AM_%s(rank %u) not stable", qname[q], r);
                        if (l == 2) CHECK(query(q, r, NULL, qflags[f], m) == v,
                                          "gex_AM_%s(rank %u, %u args): NULL lc_opt and a pointer differ", qname[q], r, m);
                        if (m) CHECK(v <= t[qi(q, l, f, (int)m - 1)], "gex_AM_%s(rank %u, lc %d, flags 0x%x) grows "
                                     "from %zu to %zu at %u args", qname[q], r, l, qflags[f],
                                     (size_t)t[qi(q, l, f, (int)m - 1)], v, m);
                        if (f < 2) CHECK(lub[q] <= v, "LUB %zu > gex_AM_%s(rank %u, lc %d, flags 0x%x, %u args) = %zu",
                                         lub[q], qname[q], r, l, qflags[f], m, v);
                        t[qi(q, l, f, (int)m)] = v;
                    }
            }
    }
    /* GEX_RANK_INVALID: the minimum over the team */
    for (size_t k = 0; k < QCOUNT; k++) {
        uint64_t min = UINT64_MAX;
        for (gex_Rank_t r = 0; r < X.n; r++)
            if (mine[r * QCOUNT + k] < min) min = mine[r * QCOUNT + k];
        CHECK(mine[X.n * QCOUNT + k] == min, "query %zu: GEX_RANK_INVALID gives %" PRIu64 ", the minimum is %" PRIu64,
              k, mine[X.n * QCOUNT + k], min);
    }
    /* publish: my table goes to offset me*tbytes of everyone's table area */
    size_t area = 2 * X.n * slot;
    for (gex_Rank_t r = 0; r < X.n; r++)
        CHECK_OK(gex_RMA_PutBlocking(X.tm, r, (char *)peer_seg[r] + area + X.me * tbytes, mine, tbytes, 0));
    ex_barrier(X.tm);
    for (gex_Rank_t r = 0; r < X.n; r++) {
        const uint64_t *theirs = (const uint64_t *)(my_seg + area + r * tbytes);
        for (size_t k = 0; k < QCOUNT; k++) {
            CHECK(theirs[X.me * QCOUNT + k] == mine[r * QCOUNT + k], "query %zu not symmetric: I get %" PRIu64
                  " for rank %u, it gets %" PRIu64 " for me", k, mine[r * QCOUNT + k], r, theirs[X.me * QCOUNT + k]);
            CHECK(theirs[X.n * QCOUNT + k] == mine[X.n * QCOUNT + k], "query %zu with GEX_RANK_INVALID: %" PRIu64
                  " here, %" PRIu64 " on rank %u", k, mine[X.n * QCOUNT + k], theirs[X.n * QCOUNT + k], r);
        }
    }
    free(mine);
    ex_barrier(X.tm);
    MSG0("ex_am: size queries (%zu per peer): ok", (size_t)QCOUNT);
}

/* ---- negotiated payloads (§8.6) */
static char *cbuf;                 /* the client's buffer */
#define CBUF_SIZE (128 * 1024)
static volatile int nreplies;
static int nkind;                   /* MEDIUM or LONG, set before each phase's barrier */

/* args: a0 = salt, a1 = nbytes, a2.. = argval(salt, i) */
static void check_nargs(const char *what, void *buf, size_t n, int m, const gex_AM_Arg_t *g, gex_Rank_t src,
                        char *expect_dest)
{
    unsigned salt = (unsigned)g[0];
    CHECK((size_t)g[1] == n, "negotiated %s from %u: %zu bytes, Commit said %d", what, src, n, g[1]);
    for (int i = 2; i < m; i++) CHECK(g[i] == argval(salt, i), "negotiated %s arg %d", what, i);
    if (nkind == LONG) CHECK(buf == expect_dest, "negotiated Long %s: buf %p, dest_addr %p", what, buf, (void *)expect_dest);
    else if (n) CHECK((uintptr_t)buf % _Alignof(max_align_t) == 0, "negotiated Medium %s buffer %p", what, buf);
    size_t bad = ex_verify(buf, n, salt);
    CHECK(bad == n, "negotiated %s from %u of %zu bytes: byte %zu differs", what, src, n, bad);
}

/* Commits the prepared descriptor with m (2 or 16) arguments; the numbered
 * form for 2, the unnumbered one for 16. */
static void commit(int req, gex_AM_SrcDesc_t sd, size_t n, void *dest, unsigned salt, int m)
{
    gex_AM_Arg_t a[16];
    a[0] = (gex_AM_Arg_t)salt;
    a[1] = (gex_AM_Arg_t)n;
    for (int i = 2; i < 16; i++) a[i] = argval(salt, i);
    if (req && nkind == MEDIUM) {
        if (m == 2) gex_AM_CommitRequestMedium2(sd, idx_nreq2, n, a[0], a[1]);
        else CALL(gex_AM_CommitRequestMedium, sd, idx_nreq16, n AV16);
    } else if (req) {
        if (m == 2) gex_AM_CommitRequestLong2(sd, idx_nreq2, n, dest, a[0], a[1]);
        else CALL(gex_AM_CommitRequestLong, sd, idx_nreq16, n, dest AV16);
    } else if (nkind == MEDIUM) {
        if (m == 2) gex_AM_CommitReplyMedium2(sd, idx_nrep2, n, a[0], a[1]);
        else CALL(gex_AM_CommitReplyMedium, sd, idx_nrep16, n AV16);
    } else {
        if (m == 2) gex_AM_CommitReplyLong2(sd, idx_nrep2, n, dest, a[0], a[1]);
        else CALL(gex_AM_CommitReplyLong, sd, idx_nrep16, n, dest AV16);
    }
}

static void check_sd(gex_AM_SrcDesc_t sd, const void *client_buf, size_t least, size_t most)
{
    CHECK(sd != GEX_AM_SRCDESC_NO_OP, "Prepare without IMMEDIATE returned GEX_AM_SRCDESC_NO_OP");
    void *addr = gex_AM_SrcDescAddr(sd);
    size_t size = gex_AM_SrcDescSize(sd);
    if (client_buf) CHECK(addr == client_buf, "gex_AM_SrcDescAddr %p, client_buf %p", addr, client_buf);
    else CHECK(addr != NULL && (uintptr_t)addr % _Alignof(max_align_t) == 0, "GASNet's buffer %p", addr);
    CHECK(size >= least && size <= most, "gex_AM_SrcDescSize %zu not in [%zu, %zu]", size, least, most);
}

static void on_nrequest(gex_Token_t t, void *buf, size_t n, int m, const gex_AM_Arg_t *g)
{
    gex_Rank_t src = token_check(t, 1, nkind == LONG, m == 2 ? idx_nreq2 : idx_nreq16);
    check_nargs("request", buf, n, m, g, src, my_seg + REQ_REGION + src * slot);
    /* reply in kind: GASNet's buffer for a 2-argument request, mine for 16 */
    unsigned salt = (unsigned)g[0] + 1;
    int client = m == 16;
    gex_Event_t *lc = NULL;
    int slot_i = -1;
    if (client) {
        slot_i = pool_take();
        lc = slot_i >= 0 ? &pool_ev[slot_i] : GEX_EVENT_NOW;
    }
    char *cb = client ? (slot_i >= 0 ? pool[slot_i] : now_buf) : NULL;
    size_t least = 512, most = client ? CBUF_SIZE : 2000;
    gex_Flags_t lf = client ? GEX_FLAG_AM_PREPARE_LEAST_CLIENT : GEX_FLAG_AM_PREPARE_LEAST_ALLOC;
    size_t maxleast = nkind == MEDIUM ? gex_Token_MaxReplyMedium(t, lc, lf, (unsigned)m)
                                      : gex_Token_MaxReplyLong(t, lc, lf, (unsigned)m);
    CHECK(maxleast >= least, "gex_Token_MaxReply%s with a PREPARE_LEAST flag: %zu", kind_name[nkind], maxleast);
    char *dest = (char *)peer_seg[src] + REP_REGION + X.me * slot;
    gex_AM_SrcDesc_t sd = nkind == MEDIUM
        ? gex_AM_PrepareReplyMedium(t, cb, least, most, lc, 0, (unsigned)m)
        : gex_AM_PrepareReplyLong(t, cb, least, most, client ? dest : NULL, lc, 0, (unsigned)m);
    check_sd(sd, cb, least, most);
    size_t size = gex_AM_SrcDescSize(sd), send = size - size / 3; /* fewer than offered */
    ex_fill(gex_AM_SrcDescAddr(sd), send, salt);
    commit(0, sd, send, dest, salt, m);
    if (slot_i >= 0) pool_busy[slot_i] = 1;
}

static void on_nreply(gex_Token_t t, void *buf, size_t n, int m, const gex_AM_Arg_t *g)
{
    gex_Rank_t src = token_check(t, 0, nkind == LONG, m == 2 ? idx_nrep2 : idx_nrep16);
    check_nargs("reply", buf, n, m, g, src, my_seg + REP_REGION + src * slot);
    nreplies++;
}

static void nreq2(gex_Token_t t, void *b, size_t n PAR2) { gex_AM_Arg_t g[] = {a0, a1}; on_nrequest(t, b, n, 2, g); }
static void nrep2(gex_Token_t t, void *b, size_t n PAR2) { gex_AM_Arg_t g[] = {a0, a1}; on_nreply(t, b, n, 2, g); }
static void nreq16(gex_Token_t t, void *b, size_t n PAR16) { gex_AM_Arg_t g[] = {0 NM16}; on_nrequest(t, b, n, 16, g + 1); }
static void nrep16(gex_Token_t t, void *b, size_t n PAR16) { gex_AM_Arg_t g[] = {0 NM16}; on_nreply(t, b, n, 16, g + 1); }

static void negotiated(void)
{
    int done = 0;
    for (nkind = MEDIUM; nkind <= LONG; nkind++) {
        nreplies = done = 0;
        ex_barrier(X.tm);
        for (gex_Rank_t i = 0; i < X.n; i++) {
            gex_Rank_t r = (X.me + 1 + i) % X.n;
            char *dest = (char *)peer_seg[r] + REQ_REGION + X.me * slot;
            for (int variant = 0; variant < 4; variant++) {
                /* variants: client buffer with NOW / GROUP / pointer (16
                 * args), GASNet's buffer (2 args) */
                int client = variant < 3, m = client ? 16 : 2;
                gex_Event_t ev = GEX_EVENT_INVALID;
                gex_Event_t *lc = !client ? NULL : variant == 0 ? GEX_EVENT_NOW : variant == 1 ? GEX_EVENT_GROUP : &ev;
                gex_Flags_t lf = client ? GEX_FLAG_AM_PREPARE_LEAST_CLIENT : GEX_FLAG_AM_PREPARE_LEAST_ALLOC;
                size_t maxleast = nkind == MEDIUM ? gex_AM_MaxRequestMedium(X.tm, r, lc, lf, (unsigned)m)
                                                  : gex_AM_MaxRequestLong(X.tm, r, lc, lf, (unsigned)m);
                size_t least = 600, most = client ? CBUF_SIZE : 3000;
                CHECK(maxleast >= least, "gex_AM_MaxRequest%s with a PREPARE_LEAST flag: %zu", kind_name[nkind], maxleast);
                char *cb = client ? cbuf : NULL;
                gex_AM_SrcDesc_t sd = nkind == MEDIUM
                    ? gex_AM_PrepareRequestMedium(X.tm, r, cb, least, most, lc, 0, (unsigned)m)
                    : gex_AM_PrepareRequestLong(X.tm, r, cb, least, most, variant == 1 ? NULL : dest, lc, 0,
                                                (unsigned)m);
                check_sd(sd, cb, least, most);
                unsigned salt = X.me * 7919u + r * 31u + (unsigned)variant * 5u + (unsigned)nkind;
                size_t send = gex_AM_SrcDescSize(sd) - 1 - (size_t)variant; /* fewer than offered */
                ex_fill(gex_AM_SrcDescAddr(sd), send, salt);
                commit(1, sd, send, dest, salt, m);
                if (lc == GEX_EVENT_GROUP) gex_NBI_Wait(GEX_EC_AM, 0);
                else if (lc == &ev) gex_Event_Wait(ev);
                if (client) memset(cbuf, 0xee, send);
                done++;
                GASNET_BLOCKUNTIL(nreplies == done);
                sync_pool();
            }
        }
        ex_barrier(X.tm);
        sync_pool();
        MSG0("ex_am: Prepare/Commit %s requests and replies, client and GASNet buffers: ok", kind_name[nkind]);
    }
}

/* ---- IMMEDIATE (§4.2, issue 11): rank 0 floods rank 1, which does not
 * poll (it waits in MPI) until rank 0 has seen a request refused. Then
 * rank 1 polls, and every accepted request arrives exactly once. */
static unsigned char *seen;
static volatile long arrived, dup_seen;
#define FLOOD_MAX 2000000
static void flood_h(gex_Token_t t, void *buf, size_t n, gex_AM_Arg_t seq)
{
    (void)t;
    CHECK(seq >= 0 && seq < FLOOD_MAX && n == 64, "flood seq %d, %zu bytes", seq, n);
    CHECK(ex_verify(buf, n, (unsigned)seq) == n, "flood payload %d", seq);
    if (seen[seq]) dup_seen++;
    seen[seq] = 1;
    arrived++;
}
static gex_AM_Index_t idx_flood, idx_long_reply_req, idx_long_reply;

static void immediate(void)
{
    CHECK(X.n >= 2, "immediate needs 2 ranks");
    MPI_Comm comm;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    ex_barrier(X.tm);
    long accepted = 0;
    if (X.me == 0) {
        char payload[64];
        long refused_at = -1;
        for (long seq = 0; seq < FLOOD_MAX; seq++) {
            ex_fill(payload, sizeof payload, (unsigned)accepted);
            int rc = gex_AM_RequestMedium1(X.tm, 1, idx_flood, payload, sizeof payload, GEX_EVENT_NOW,
                                           GEX_FLAG_IMMEDIATE, (gex_AM_Arg_t)accepted);
            if (rc != 0) {
                refused_at = seq;
                break;
            }
            accepted++;
        }
        CHECK(refused_at >= 0, "%d IMMEDIATE requests to a rank that does not poll were all accepted", FLOOD_MAX);
        MPI_Send(&accepted, 1, MPI_LONG, 1, 0, comm);
        printf("ex_am immediate: rank 0 saw request %ld refused with rank 1 not polling\n", refused_at);
        fflush(stdout);
    } else if (X.me == 1) {
        MPI_Recv(&accepted, 1, MPI_LONG, 0, 0, comm, MPI_STATUS_IGNORE);
        GASNET_BLOCKUNTIL(arrived >= accepted);
    }
    ex_barrier(X.tm);
    ex_barrier(X.tm);
    if (X.me == 1) {
        CHECK(dup_seen == 0 && arrived == accepted, "%ld arrived (%ld twice), %ld accepted", arrived, dup_seen, accepted);
        for (long s = 0; s < accepted; s++) CHECK(seen[s], "request %ld lost", s);
        printf("ex_am immediate: %ld accepted requests arrived exactly once\n", accepted);
        fflush(stdout);
    }
    MPI_Comm_free(&comm);
}

/* ---- Long replies that cannot be delivered at once: rank 0 sends
 * IMMEDIATE Short requests (which never poll) as fast as it can, polling
 * only when one is refused, and each handler on rank 1 answers with a
 * Long reply of 8 bytes into its own slot of rank 0's segment; so replies
 * pile up at rank 1 (on one host: in the queue of replies that did not fit
 * the ring). Every reply must arrive once, its bytes intact. */
#define REPLIES 20000
static volatile long replies_arrived;
static void long_reply_h(gex_Token_t t, void *buf, size_t n, gex_AM_Arg_t seq)
{
    (void)t;
    CHECK(seq >= 0 && seq < REPLIES && n == 8, "Long reply %d of %zu bytes", seq, n);
    CHECK(buf == (char *)my_seg + 8 * (size_t)seq, "Long reply %d landed at %p", seq, buf);
    uint64_t v;
    memcpy(&v, buf, 8);
    CHECK(v == 0x5eed0000ull + (uint64_t)seq, "Long reply %d carried %llx", seq, (unsigned long long)v);
    CHECK(!seen[seq], "Long reply %d arrived twice", seq);
    seen[seq] = 1;
    replies_arrived++;
}
static void long_reply_req_h(gex_Token_t t, gex_AM_Arg_t seq)
{
    gex_Token_Info_t info;
    gex_Token_Info(t, &info, GEX_TI_SRCRANK);
    uint64_t v = 0x5eed0000ull + (uint64_t)seq;
    gex_AM_ReplyLong1(t, idx_long_reply, &v, 8, (char *)peer_seg[info.gex_srcrank] + 8 * (size_t)seq,
                      GEX_EVENT_NOW, 0, seq);
}

static void replies(void)
{
    CHECK(X.n >= 2, "replies needs 2 ranks");
    ex_barrier(X.tm);
    if (X.me == 0) {
        for (long seq = 0; seq < REPLIES; seq++)
            while (gex_AM_RequestShort1(X.tm, 1, idx_long_reply_req, GEX_FLAG_IMMEDIATE, (gex_AM_Arg_t)seq))
                gasnet_AMPoll(); /* refused: no room or no credit yet */
        GASNET_BLOCKUNTIL(replies_arrived == REPLIES);
        for (long s = 0; s < REPLIES; s++) CHECK(seen[s], "Long reply %ld lost", s);
    }
    ex_barrier(X.tm);
}

int main(int argc, char **argv)
{
    int imm = argc > 1 && !strcmp(argv[1], "immediate");
    int rep = argc > 1 && !strcmp(argv[1], "replies");
    if (argc > 1 && !imm && !rep) cap = strtoul(argv[1], NULL, 0);
    ex_init(&X, "EX_AM", &argc, &argv, 0);
    slot = ((cap > CBUF_SIZE ? cap : CBUF_SIZE) + 64 + 4095) / 4096 * 4096;
    size_t tbytes = (size_t)(X.n + 1) * QCOUNT * sizeof(uint64_t);
    ex_attach(&X, imm ? GASNET_PAGESIZE : rep ? 8 * REPLIES : 2 * X.n * slot + X.n * tbytes);
    my_seg = gex_Segment_QueryAddr(X.seg);
    peer_seg = calloc(X.n, sizeof *peer_seg);
    CHECK(peer_seg != NULL, "out of memory");
    for (gex_Rank_t r = 0; r < X.n; r++) peer_seg[r] = ex_peer_seg(X.tm, r, NULL);

    gex_AM_Entry_t table[4 * 17 + 7];
    int k = 0;
#define ENTRIES(M)                                                                                          \
    table[k++] = (gex_AM_Entry_t){0, (gex_AM_Fn_t)sreq##M, GEX_FLAG_AM_SHORT | GEX_FLAG_AM_REQUEST, M, NULL, "sreq"}; \
    table[k++] = (gex_AM_Entry_t){0, (gex_AM_Fn_t)srep##M, GEX_FLAG_AM_SHORT | GEX_FLAG_AM_REPLY, M, NULL, "srep"};   \
    table[k++] = (gex_AM_Entry_t){0, (gex_AM_Fn_t)mreq##M, GEX_FLAG_AM_MEDLONG | GEX_FLAG_AM_REQUEST, M, NULL, "mreq"}; \
    table[k++] = (gex_AM_Entry_t){0, (gex_AM_Fn_t)mrep##M, GEX_FLAG_AM_MEDLONG | GEX_FLAG_AM_REPLY, M, NULL, "mrep"};
    FOR_M(ENTRIES)
    table[k++] = (gex_AM_Entry_t){0, (gex_AM_Fn_t)nreq2, GEX_FLAG_AM_MEDLONG | GEX_FLAG_AM_REQUEST, 2, NULL, "nreq2"};
    table[k++] = (gex_AM_Entry_t){0, (gex_AM_Fn_t)nrep2, GEX_FLAG_AM_MEDLONG | GEX_FLAG_AM_REPLY, 2, NULL, "nrep2"};
    table[k++] = (gex_AM_Entry_t){0, (gex_AM_Fn_t)nreq16, GEX_FLAG_AM_MEDLONG | GEX_FLAG_AM_REQUEST, 16, NULL, "nreq16"};
    table[k++] = (gex_AM_Entry_t){0, (gex_AM_Fn_t)nrep16, GEX_FLAG_AM_MEDLONG | GEX_FLAG_AM_REPLY, 16, NULL, "nrep16"};
    table[k++] = (gex_AM_Entry_t){0, (gex_AM_Fn_t)flood_h, GEX_FLAG_AM_MEDIUM | GEX_FLAG_AM_REQUEST, 1, NULL, "flood"};
    table[k++] = (gex_AM_Entry_t){0, (gex_AM_Fn_t)long_reply_req_h, GEX_FLAG_AM_SHORT | GEX_FLAG_AM_REQUEST, 1, NULL, "lrreq"};
    table[k++] = (gex_AM_Entry_t){0, (gex_AM_Fn_t)long_reply_h, GEX_FLAG_AM_LONG | GEX_FLAG_AM_REPLY, 1, NULL, "lrrep"};
    CHECK_OK(gex_EP_RegisterHandlers(X.ep, table, (size_t)k));
    k = 0;
#define INDICES(M)                     \
    idx_sreq[M] = table[k++].gex_index; \
    idx_srep[M] = table[k++].gex_index; \
    idx_mreq[M] = table[k++].gex_index; \
    idx_mrep[M] = table[k++].gex_index;
    FOR_M(INDICES)
    idx_nreq2 = table[k++].gex_index;
    idx_nrep2 = table[k++].gex_index;
    idx_nreq16 = table[k++].gex_index;
    idx_nrep16 = table[k++].gex_index;
    idx_flood = table[k++].gex_index;
    idx_long_reply_req = table[k++].gex_index;
    idx_long_reply = table[k++].gex_index;
    /* the handler tables are local: every rank registers before anyone sends */
    ex_barrier(X.tm);

    if (rep) {
        seen = calloc(REPLIES, 1);
        CHECK(seen != NULL, "out of memory");
        replies();
        MSG0("ex_am replies: ok");
        gasnet_exit(0);
    }
    if (imm) {
        seen = calloc(FLOOD_MAX, 1);
        CHECK(seen != NULL, "out of memory");
        immediate();
        ex_barrier(X.tm);
        MSG0("ex_am immediate: ok");
        gasnet_exit(0);
    }
    for (int i = 0; i < NPOOL; i++) {
        pool[i] = malloc(cap > CBUF_SIZE ? cap : CBUF_SIZE);
        CHECK(pool[i] != NULL, "out of memory");
    }
    now_buf = malloc(cap > CBUF_SIZE ? cap : CBUF_SIZE);
    cbuf = malloc(CBUF_SIZE);
    CHECK(now_buf && cbuf, "out of memory");

    size_queries();
    request_all();
    negotiated();
    ex_barrier(X.tm);
    MSG0("ex_am: ok");
    gasnet_exit(0);
}
