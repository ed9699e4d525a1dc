/* ex_mixed: one program using GASNet-1 and GASNet-EX calls on the same
 * objects (spec §6.8, §16), from the spec alone.
 *
 *   ex_mixed legacy   gasnet_init + gasnet_attach, then
 *                     gasnet_QueryGexObjects and EX calls on its objects
 *   ex_mixed ex       gex_Client_Init(GEX_FLAG_USES_GASNET1) +
 *                     gex_Segment_Attach, then GASNet-1 calls
 *
 * Both: the legacy objects match the GASNet-1 view (node = rank in the
 * primordial team, the segment gasnet_getSegmentInfo reports), the flag
 * shows on the client, EP, team and segment; handlers registered through
 * either API are reached through both (gasnet_attach's don't-care
 * entries get the highest free indices in table order, written back; a
 * later gex_EP_RegisterHandlers continues below them); gex_Token_Info in
 * GASNet-1 handlers and gasnet_AMGetMsgSource in EX ones;
 * gasnet_QueryGexObjects in a handler; handles and events interchange
 * (gasnet_get_nb synced by gex_Event_Wait and the reverse, NBI of both
 * APIs synced by the other's call); GASNet-1 barriers and
 * gex_Coll_BarrierNB in turn (§12.5); the AM size macros against the EX
 * LUBs (§16.2); gasnet_memset in the legacy-initialized job.
 */
#define EX_TEST_LEGACY
#include "ex_test.h"

static gex_Client_t client;
static gex_EP_t ep;
static gex_TM_t tm;
static gex_Segment_t seg;
static gasnet_seginfo_t *si;
static gex_Rank_t me, n;

/* handlers: GASNet-1 style (registered by gasnet_attach or by index), EX
 * style (gex_EP_RegisterHandlers) */
static volatile int legacy_hits, ex_hits, replies;
static gasnet_handler_t h_rep; /* legacy_rep */
static void legacy_req(gasnet_token_t t, gasnet_handlerarg_t a)
{
    gex_Token_Info_t info;
    CHECK(gex_Token_Info(t, &info, GEX_TI_SRCRANK | GEX_TI_EP) & GEX_TI_SRCRANK, "gex_Token_Info in a GASNet-1 handler");
    CHECK(info.gex_srcrank == (gex_Rank_t)a && info.gex_ep == ep, "srcrank %u, sender says %d", info.gex_srcrank, a);
    gex_Client_t c;
    gex_EP_t e;
    gex_TM_t m;
    gex_Segment_t s;
    gasnet_QueryGexObjects(&c, &e, &m, &s); /* legal in a handler (§6.8) */
    CHECK(c == client && e == ep && m == tm && s == seg, "gasnet_QueryGexObjects in a handler");
    legacy_hits++;
    CHECK_OK(gasnet_AMReplyShort1(t, h_rep, (gasnet_handlerarg_t)me));
}
static void legacy_rep(gasnet_token_t t, gasnet_handlerarg_t a)
{
    gasnet_node_t src;
    CHECK_OK(gasnet_AMGetMsgSource(t, &src));
    CHECK(src == (gasnet_node_t)a, "reply from %u says %d", src, a);
    replies++;
}
static void ex_req(gex_Token_t t, gex_AM_Arg_t a)
{
    gasnet_node_t src;
    CHECK_OK(gasnet_AMGetMsgSource(t, &src));
    CHECK(src == (gasnet_node_t)a, "gasnet_AMGetMsgSource %u in an EX handler, sender says %d", src, a);
    ex_hits++;
    CHECK_OK(gex_AM_ReplyShort1(t, h_rep, 0, (gex_AM_Arg_t)me));
}

static void objects(const char *mode, const char *name)
{
    gex_Client_t c = NULL;
    gex_EP_t e = NULL;
    gex_TM_t m = NULL;
    gex_Segment_t s = NULL;
    gasnet_QueryGexObjects(&c, &e, &m, &s);
    CHECK(c != NULL && e != NULL && m != NULL && s != GEX_SEGMENT_INVALID, "%s: gasnet_QueryGexObjects", mode);
    if (client) CHECK(c == client && e == ep && m == tm && s == seg, "%s: gasnet_QueryGexObjects differs from Init", mode);
    client = c;
    ep = e;
    tm = m;
    seg = s;
    /* each output may be NULL */
    gasnet_QueryGexObjects(NULL, NULL, NULL, NULL);
    gasnet_QueryGexObjects(NULL, NULL, &m, NULL);
    CHECK(m == tm, "gasnet_QueryGexObjects with only tm_p");
    me = gasnet_mynode();
    n = gasnet_nodes();
    CHECK(gex_TM_QueryRank(tm) == me && gex_TM_QuerySize(tm) == n && gex_System_QueryJobRank() == me,
          "%s: team rank %u of %u, gasnet_mynode %u of %u", mode, gex_TM_QueryRank(tm), gex_TM_QuerySize(tm), me, n);
    CHECK(gex_TM_QueryEP(tm) == ep && gex_EP_QueryClient(ep) == client && gex_EP_QuerySegment(ep) == seg, "%s: object links",
          mode);
    CHECK(!strcmp(gex_Client_QueryName(client), name), "%s: client name '%s', expected '%s'", mode,
          gex_Client_QueryName(client), name);
    CHECK(gex_Client_QueryFlags(client) & GEX_FLAG_USES_GASNET1, "%s: client flags 0x%x lack GEX_FLAG_USES_GASNET1", mode,
          gex_Client_QueryFlags(client));
    CHECK(gex_EP_QueryFlags(ep) & GEX_FLAG_USES_GASNET1, "%s: EP flags 0x%x lack GEX_FLAG_USES_GASNET1", mode,
          gex_EP_QueryFlags(ep));
    CHECK(gex_TM_QueryFlags(tm) & GEX_FLAG_USES_GASNET1, "%s: team flags 0x%x lack GEX_FLAG_USES_GASNET1", mode,
          gex_TM_QueryFlags(tm));
    CHECK(gex_Segment_QueryFlags(seg) & GEX_FLAG_USES_GASNET1, "%s: segment flags 0x%x lack GEX_FLAG_USES_GASNET1", mode,
          gex_Segment_QueryFlags(seg));
    si = calloc(n, sizeof *si);
    CHECK(si != NULL, "out of memory");
    CHECK_OK(gasnet_getSegmentInfo(si, (int)n));
    CHECK(si[me].addr == gex_Segment_QueryAddr(seg) && si[me].size == gex_Segment_QuerySize(seg),
          "%s: gasnet_getSegmentInfo [%p, +%" PRIuPTR ") vs the segment [%p, +%" PRIuPTR ")", mode, si[me].addr,
          si[me].size, gex_Segment_QueryAddr(seg), gex_Segment_QuerySize(seg));
    for (gex_Rank_t r = 0; r < n; r++) {
        void *owner = NULL;
        uintptr_t size = 0;
        CHECK(gex_Segment_QueryBound(tm, r, &owner, NULL, &size) == 0 && owner == si[r].addr && size == si[r].size,
              "%s: QueryBound(%u) vs gasnet_getSegmentInfo", mode, r);
    }
    CHECK(gasnet_AMMaxArgs() == gex_AM_MaxArgs(), "gasnet_AMMaxArgs");
    size_t lubmed = gex_AM_LUBRequestMedium() < gex_AM_LUBReplyMedium() ? gex_AM_LUBRequestMedium() : gex_AM_LUBReplyMedium();
    CHECK(gasnet_AMMaxMedium() == lubmed && gasnet_AMMaxLongRequest() == gex_AM_LUBRequestLong() &&
              gasnet_AMMaxLongReply() == gex_AM_LUBReplyLong(),
          "%s: GASNet-1 AM sizes %zu/%zu/%zu, EX LUBs %zu/%zu/%zu", mode, gasnet_AMMaxMedium(),
          gasnet_AMMaxLongRequest(), gasnet_AMMaxLongReply(), lubmed, gex_AM_LUBRequestLong(), gex_AM_LUBReplyLong());
}

static gasnet_handler_t h_legacy_req, h_ex_req;

/* Every rank calls every rank's handlers through both APIs. */
static void handlers_both_ways(void)
{
    legacy_hits = ex_hits = replies = 0;
    gasnet_barrier_notify(1, 0);
    CHECK_OK(gasnet_barrier_wait(1, 0));
    for (gex_Rank_t r = 0; r < n; r++) {
        CHECK_OK(gasnet_AMRequestShort1(r, h_legacy_req, (gasnet_handlerarg_t)me));
        CHECK_OK(gex_AM_RequestShort1(tm, r, h_legacy_req, 0, (gex_AM_Arg_t)me));
        CHECK_OK(gasnet_AMRequestShort1(r, h_ex_req, (gasnet_handlerarg_t)me));
        CHECK_OK(gex_AM_RequestShort1(tm, r, h_ex_req, 0, (gex_AM_Arg_t)me));
    }
    GASNET_BLOCKUNTIL(replies == 4 * (int)n && legacy_hits == 2 * (int)n && ex_hits == 2 * (int)n);
    ex_barrier(tm);
}

static void rma_both_ways(int legacy)
{
    enum { N = 8192 };
    static char buf[N], back[N];
    for (gex_Rank_t i = 0; i < n; i++) {
        gex_Rank_t r = (me + 1 + i) % n;
        char *rem = (char *)si[r].addr + me * N;
        ex_fill(buf, N, r + 1);
        gasnet_put(r, rem, buf, N);
        CHECK_OK(gex_RMA_GetBlocking(tm, back, r, rem, N, 0));
        CHECK(ex_verify(back, N, r + 1) == N, "gasnet_put, then gex_RMA_GetBlocking from %u", r);
        ex_fill(buf, N, r + 2);
        CHECK_OK(gex_RMA_PutBlocking(tm, r, rem, buf, N, 0));
        gasnet_get(back, r, rem, N);
        CHECK(ex_verify(back, N, r + 2) == N, "gex_RMA_PutBlocking, then gasnet_get from %u", r);
        /* handles are events */
        gasnet_handle_t h = gasnet_get_nb(back, r, rem, N);
        gex_Event_Wait(h);
        CHECK(ex_verify(back, N, r + 2) == N, "gasnet_get_nb synced by gex_Event_Wait");
        gex_Event_t e = gex_RMA_PutNB(tm, r, rem, buf, N, GEX_EVENT_DEFER, 0);
        gasnet_wait_syncnb(e);
        /* NBI of one API synced by the other */
        ex_fill(buf, N, r + 3);
        gasnet_put_nbi(r, rem, buf, N);
        gex_NBI_Wait(GEX_EC_PUT, 0);
        CHECK_OK(gex_RMA_GetNBI(tm, back, r, rem, N, 0));
        gasnet_wait_syncnbi_gets();
        CHECK(ex_verify(back, N, r + 3) == N, "gasnet_put_nbi / gex_RMA_GetNBI");
        if (legacy) {
            gasnet_memset(r, rem, 0x3c, N);
            CHECK_OK(gex_RMA_GetBlocking(tm, back, r, rem, N, 0));
            for (int k = 0; k < N; k++) CHECK((unsigned char)back[k] == 0x3c, "gasnet_memset byte %d", k);
        }
    }
    /* collectives and GASNet-1 barriers in turn: each synced first (§12.5) */
    ex_barrier(tm);
    gasnet_barrier(5, 0);
    gex_Event_Wait(gex_Coll_BarrierNB(tm, 0));
    gasnet_barrier_notify(0, GASNET_BARRIERFLAG_ANONYMOUS);
    CHECK_OK(gasnet_barrier_wait(0, GASNET_BARRIERFLAG_ANONYMOUS));
}

int main(int argc, char **argv)
{
    int legacy = argc > 1 && !strcmp(argv[1], "legacy");
    if (legacy) {
        /* fixed 200, don't-care: 255, 254, 253 in table order */
        gasnet_handlerentry_t t[] = {
            {0, (void (*)())legacy_rep}, {200, (void (*)())legacy_req}, {0, (void (*)())legacy_req},
            {0, (void (*)())legacy_req}};
        if (gasnet_init(&argc, &argv) != GASNET_OK) return 1;
        CHECK_OK(gasnet_attach(t, 4, 16 * 8192, 0));
        CHECK(t[0].index == 255 && t[1].index == 200 && t[2].index == 254 && t[3].index == 253,
              "gasnet_attach assigned %u, %u, %u, %u; expected 255, 200, 254, 253", t[0].index, t[1].index, t[2].index,
              t[3].index);
        h_legacy_req = 200;
        h_rep = t[0].index;
        objects("legacy", "LEGACY");
    } else {
        gex_Client_t c;
        gex_EP_t e;
        gex_TM_t m;
        gex_Segment_t s = (gex_Segment_t)(uintptr_t)0x42;
        CHECK_OK(gex_Client_Init(&c, &e, &m, "mixed_ex", &argc, &argv, GEX_FLAG_USES_GASNET1));
        client = c;
        ep = e;
        tm = m;
        /* before the segment: the segment output is GEX_SEGMENT_INVALID */
        gex_Client_t c2;
        gasnet_QueryGexObjects(&c2, NULL, NULL, &s);
        CHECK(c2 == c && s == GEX_SEGMENT_INVALID, "gasnet_QueryGexObjects before attach");
        CHECK_OK(gex_Segment_Attach(&seg, tm, 16 * 8192));
        gex_AM_Entry_t t[] = {{255, (gex_AM_Fn_t)legacy_rep, GEX_FLAG_AM_SHORT | GEX_FLAG_AM_REPLY, 1, NULL, "rep"},
                              {0, (gex_AM_Fn_t)legacy_req, GEX_FLAG_AM_SHORT | GEX_FLAG_AM_REQUEST, 1, NULL, "req"}};
        CHECK_OK(gex_EP_RegisterHandlers(ep, t, 2));
        CHECK(t[1].gex_index == 254, "don't-care got %u", t[1].gex_index);
        h_legacy_req = t[1].gex_index;
        h_rep = 255;
        objects("ex", "mixed_ex");
    }
    /* an EX handler added after either start: below every taken index */
    gex_AM_Entry_t more[] = {{0, (gex_AM_Fn_t)ex_req, GEX_FLAG_AM_SHORT | GEX_FLAG_AM_REQUEST, 1, NULL, "ex_req"}};
    CHECK_OK(gex_EP_RegisterHandlers(ep, more, 1));
    CHECK(more[0].gex_index == (legacy ? 252 : 253), "gex_EP_RegisterHandlers after the %s start assigned %u",
          legacy ? "legacy" : "EX",
          more[0].gex_index);
    h_ex_req = more[0].gex_index;
    gasnet_barrier(0, GASNET_BARRIERFLAG_ANONYMOUS);
    handlers_both_ways();
    rma_both_ways(legacy);
    MSG0("ex_mixed %s: ok", legacy ? "legacy" : "ex");
    gasnet_exit(0);
}
