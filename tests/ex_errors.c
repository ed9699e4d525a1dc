/* ex_errors: bad input to GASNet-EX calls (spec §4, §6-12, issue 11 item
 * 6), one case per run, on 2 ranks:
 *
 *   ex_errors CASE
 *
 * The bad call is made by jobrank 0 (or by a handler or context on
 * jobrank 1, for the restricted-context cases); the other rank waits in a
 * barrier until the job ends. The library must either stop the job with a
 * message naming the node, the call and the bad value (the suite checks
 * the message), or, where the spec names an error code, return it: then
 * this program prints "ex_errors CASE: CALL returned CODE (NAME)" and
 * exits with 3. An erroneous call that returns nothing, or returns 0,
 * makes this program print "... accepted" and exit with 0, which the
 * suite counts as a failure. The case names are the IS("...") tests in
 * run() below; an AM the receiver must reject (DELIVER) is accepted by
 * the sender, which then waits for the job to end.
 */
#include "ex_test.h"

static ex_ctx_t X;
static const char *which;
static char *peer_seg; /* jobrank 1's segment (owner address) */
static uintptr_t peer_size;
static char buf[256];
static volatile int replied;

#define H_REQ 200
#define H_REP 201
#define H_BAD 202
#define H_MED 203

static void returned(const char *call, int rc)
{
    if (rc == 0) printf("ex_errors %s: %s accepted\n", which, call);
    else printf("ex_errors %s: %s returned %d (%s)\n", which, call, rc, gasnet_ErrorName(rc));
    fflush(stdout);
    gasnet_exit(rc ? 3 : 0);
}
#define RET(call) returned(#call, (call))
#define VOID(call) ((call), returned(#call, 0))
/* a call whose return value says nothing (gex_TM_Split outside query mode) */
#define ANY(call) ((void)(call), returned(#call, 0))
/* an AM that may be rejected by the sender (an error code) or by the
 * receiver (fatal there): a sender that accepts it waits for the end */
#define DELIVER(call)                                   \
    do {                                                \
        int rc_ = (call);                               \
        if (rc_) returned(#call, rc_);                  \
        static volatile int never_;                     \
        GASNET_BLOCKUNTIL(never_);                      \
    } while (0)

static void rep_h(gex_Token_t t) { (void)t; replied = 1; }
static void med_h(gex_Token_t t, void *b, size_t n) { (void)t; (void)b; (void)n; }

/* request handlers that break a restricted-context rule on jobrank 1 */
static void bad_h(gex_Token_t t, gex_AM_Arg_t what)
{
    switch (what) {
    case 0: RET(gex_RMA_PutBlocking(X.tm, 1, peer_seg, buf, 8, 0)); break; /* a put (to myself) in a handler */
    case 1: VOID(gex_NBI_Wait(GEX_EC_ALL, 0)); break;
    case 2: RET(gex_AM_RequestShort0(X.tm, 0, H_REP, 0)); break;
    case 3: RET(gasnet_AMPoll()); break;
    case 4: VOID(gex_Event_Wait(gex_Coll_BarrierNB(X.tm, 0))); break;
    case 5: /* two replies */
        CHECK_OK(gex_AM_ReplyShort0(t, H_REP, 0));
        RET(gex_AM_ReplyShort0(t, H_REP, 0));
        break;
    case 6: RET(gex_AM_ReplyMedium0(t, H_MED, buf, 8, GEX_EVENT_GROUP, 0)); break;
    case 7: RET(gex_Segment_QueryBound(X.tm, 0, NULL, NULL, NULL)); break;
    case 8: { /* replying while holding an HSL */
        static gex_HSL_t l = GEX_HSL_INITIALIZER;
        gex_HSL_Lock(&l);
        RET(gex_AM_ReplyShort0(t, H_REP, 0));
        break;
    }
    case 9: RET(gex_AM_ReplyMedium0(t, H_MED, buf, 8, GEX_EVENT_DEFER, 0)); break;
    }
}
/* a reply handler that replies */
static void req_h(gex_Token_t t) { CHECK_OK(gex_AM_ReplyShort0(t, H_REQ + 10, 0)); }
static void reply_replies_h(gex_Token_t t) { RET(gex_AM_ReplyShort0(t, H_REP, 0)); }

/* jobrank 0 asks jobrank 1 to run bad_h(what) and waits */
static void in_handler(int what)
{
    static volatile int never;
    if (X.me == 0) CHECK_OK(gex_AM_RequestShort1(X.tm, 1, H_BAD, 0, what));
    if (X.me == 0 && what == 5) GASNET_BLOCKUNTIL(never); /* the first of the two replies is legal */
    GASNET_BLOCKUNTIL(replied);
    printf("ex_errors %s: the handler's call was accepted\n", which);
    gasnet_exit(0);
}

static void run(const char *c)
{
    char *end = peer_seg + peer_size;
    gex_TM_t tm = X.tm;
    gex_Rank_t n = X.n;
    gex_Event_t ev;
#define IS(s) (!strcmp(c, s))
    /* bad team, rank out of range */
    if (IS("team_rma")) RET(gex_RMA_PutBlocking(GEX_TM_INVALID, 1, peer_seg, buf, 8, 0));
    if (IS("team_am")) RET(gex_AM_RequestShort0(GEX_TM_INVALID, 1, H_REP, 0));
    if (IS("team_barrier")) VOID(gex_Event_Wait(gex_Coll_BarrierNB(GEX_TM_INVALID, 0)));
    if (IS("team_destroyed")) {
        size_t sz = gex_TM_Split(&(gex_TM_t){0}, tm, 0, 0, NULL, 0, GEX_FLAG_TM_SCRATCH_SIZE_MIN);
        gex_TM_t dead;
        gex_TM_Split(&dead, tm, 0, 0, gex_Segment_QueryAddr(X.seg), sz, 0);
        gex_TM_Destroy(dead, NULL, 0);
        if (X.me == 0) RET(gex_RMA_PutBlocking(dead, 1, peer_seg, buf, 8, 0));
        return;
    }
    if (IS("rank_rma")) RET(gex_RMA_PutNBI(tm, n, peer_seg, buf, 8, GEX_EVENT_NOW, 0));
    if (IS("rank_get")) VOID(gex_Event_Wait(gex_RMA_GetNB(tm, buf, n + 5, peer_seg, 8, 0)));
    if (IS("rank_am")) RET(gex_AM_RequestMedium0(tm, n, H_MED, buf, 8, GEX_EVENT_NOW, 0));
    if (IS("rank_invalid_am")) RET(gex_AM_RequestShort0(tm, GEX_RANK_INVALID, H_REP, 0));
    if (IS("rank_bound")) RET(gex_Segment_QueryBound(tm, GEX_RANK_INVALID, NULL, NULL, NULL));
    if (IS("rank_translate")) RET((int)gex_TM_TranslateRankToJobrank(tm, n));
    if (IS("jobrank_translate")) RET((int)gex_TM_TranslateJobrankToRank(tm, n + 1));
    if (IS("rank_team_of_one")) {
        /* rank 1 exists in the job but not in a team of one */
        size_t sz = gex_TM_Split(&(gex_TM_t){0}, tm, (int)X.me, 0, NULL, 0, GEX_FLAG_TM_SCRATCH_SIZE_MIN);
        gex_TM_t one;
        gex_TM_Split(&one, tm, (int)X.me, 0, gex_Segment_QueryAddr(X.seg), sz, 0);
        if (X.me == 0) RET(gex_RMA_PutBlocking(one, 1, peer_seg, buf, 8, 0));
        return;
    }
    /* remote range outside the bound segment */
    if (IS("outside_put")) RET(gex_RMA_PutBlocking(tm, 1, end - 4, buf, 8, 0));
    if (IS("outside_get")) RET(gex_RMA_GetNBI(tm, buf, 1, peer_seg - 8, 8, 0));
    if (IS("outside_val")) RET((int)gex_RMA_GetBlockingVal(tm, 1, end, 4, 0));
    if (IS("outside_long")) RET(gex_AM_RequestLong0(tm, 1, H_MED, buf, 16, end - 8, GEX_EVENT_NOW, 0));
    if (IS("outside_split")) {
        /* the reversed team: jobrank 1 is rank 0 */
        size_t sz = gex_TM_Split(&(gex_TM_t){0}, tm, 0, (int)(n - X.me), NULL, 0, GEX_FLAG_TM_SCRATCH_SIZE_MIN);
        gex_TM_t rev;
        gex_TM_Split(&rev, tm, 0, (int)(n - X.me), gex_Segment_QueryAddr(X.seg), sz, 0);
        if (X.me == 0) RET(gex_RMA_PutNBI(rev, 0, end - 1, buf, 2, GEX_EVENT_DEFER, 0));
        return;
    }
    /* sizes */
    if (IS("val_size")) RET(gex_RMA_PutBlockingVal(tm, 1, peer_seg, 1, 9, 0));
    if (IS("val_zero")) RET(gex_RMA_PutNBIVal(tm, 1, peer_seg, 1, 0, 0));
    if (IS("medium_size")) {
        size_t max = gex_AM_MaxRequestMedium(tm, 1, GEX_EVENT_NOW, 0, 0);
        char *big = calloc(1, max + 1);
        RET(gex_AM_RequestMedium0(tm, 1, H_MED, big, max + 1, GEX_EVENT_NOW, 0));
    }
    /* flags */
    if (IS("flags_rma")) RET(gex_RMA_PutBlocking(tm, 1, peer_seg, buf, 8, GEX_FLAG_AD_REL));
    if (IS("flags_two_self")) RET(gex_RMA_GetBlocking(tm, buf, 1, peer_seg, 8, GEX_FLAG_SELF_SEG_SOME | GEX_FLAG_SELF_SEG_BOUND));
    if (IS("flags_am")) RET(gex_AM_RequestMedium0(tm, 1, H_MED, buf, 8, GEX_EVENT_NOW, GEX_FLAG_AM_PREPARE_LEAST_CLIENT));
    if (IS("flags_event")) {
        gex_Event_t a[1] = {GEX_EVENT_INVALID};
        RET(gex_Event_TestAll(a, 1, GEX_FLAG_IMMEDIATE));
    }
    if (IS("flags_nbi")) RET(gex_NBI_Test(GEX_EC_ALL, GEX_FLAG_IMMEDIATE));
    if (IS("flags_barrier")) VOID(gex_Event_Wait(gex_Coll_BarrierNB(tm, GEX_FLAG_IMMEDIATE)));
    if (IS("flags_split")) {
        /* a gex_TM_Create flag */
        size_t sz = gex_TM_Split(&(gex_TM_t){0}, tm, 0, 0, NULL, 0, GEX_FLAG_TM_SCRATCH_SIZE_MIN);
        gex_TM_t t2;
        ANY(gex_TM_Split(&t2, tm, 0, 0, gex_Segment_QueryAddr(X.seg), sz,
                              X.me == 0 ? GEX_FLAG_TM_LOCAL_SCRATCH : 0));
    }
    /* lc_opt */
    if (IS("lc_null_put")) RET(gex_RMA_PutNBI(tm, 1, peer_seg, buf, 8, NULL, 0));
    if (IS("lc_null_am")) RET(gex_AM_RequestMedium0(tm, 1, H_MED, buf, 8, NULL, 0));
    if (IS("lc_defer_am")) RET(gex_AM_RequestLong0(tm, 1, H_MED, buf, 8, peer_seg, GEX_EVENT_DEFER, 0));
    if (IS("lc_group_putnb")) VOID(gex_Event_Wait(gex_RMA_PutNB(tm, 1, peer_seg, buf, 8, GEX_EVENT_GROUP, 0)));
    if (IS("lc_pointer_putnbi")) RET(gex_RMA_PutNBI(tm, 1, peer_seg, buf, 8, &ev, 0));
    /* events */
    if (IS("sync_no_op")) VOID(gex_Event_Wait(GEX_EVENT_NO_OP));
    if (IS("test_no_op")) RET(gex_Event_Test(GEX_EVENT_NO_OP) ? 0 : 0);
    if (IS("sync_twice")) {
        ev = gex_RMA_GetNB(tm, buf, 1, peer_seg, 8, 0); /* on the AM path: a real event */
        CHECK(ev != GEX_EVENT_INVALID, "run with GASNET_RMA=am: the get completed at once");
        gex_Event_Wait(ev);
        VOID(gex_Event_Wait(ev));
    }
    if (IS("leaf_all")) {
        ev = gex_RMA_PutNB(tm, 1, peer_seg, buf, 8, &(gex_Event_t){0}, 0);
        CHECK(ev != GEX_EVENT_INVALID, "run with GASNET_RMA=am: the put completed at once");
        RET(gex_Event_QueryLeaf(ev, GEX_EC_ALL) != GEX_EVENT_INVALID ? 0 : 0);
    }
    if (IS("nbi_in_region")) {
        gex_NBI_BeginAccessRegion(0);
        VOID(gex_NBI_Wait(GEX_EC_ALL, 0));
    }
    /* teams */
    if (IS("destroy_primordial")) RET(gex_TM_Destroy(tm, NULL, 0));
    if (IS("negative_colour")) {
        size_t sz = gex_TM_Split(&(gex_TM_t){0}, tm, 0, 0, NULL, 0, GEX_FLAG_TM_SCRATCH_SIZE_MIN);
        gex_TM_t t2;
        ANY(gex_TM_Split(&t2, tm, X.me == 0 ? -1 : 0, 0, gex_Segment_QueryAddr(X.seg), sz, 0));
    }
    if (IS("scratch_outside")) {
        /* scratch must lie in the caller's bound segment */
        size_t sz = gex_TM_Split(&(gex_TM_t){0}, tm, 0, 0, NULL, 0, GEX_FLAG_TM_SCRATCH_SIZE_MIN);
        char *heap = malloc(sz);
        gex_TM_t t2;
        ANY(gex_TM_Split(&t2, tm, 0, 0, X.me == 0 ? heap : gex_Segment_QueryAddr(X.seg), sz, 0));
    }
    /* handler registration (§6.5: fatal at registration in the ref) */
    if (IS("register_no_category") || IS("register_no_reqrep") || IS("register_short_medium") ||
        IS("register_nargs")) {
        gex_AM_Entry_t e = {0, (gex_AM_Fn_t)rep_h, GEX_FLAG_AM_SHORT | GEX_FLAG_AM_REQUEST, 0, NULL, "bad"};
        if (IS("register_no_category")) e.gex_flags = GEX_FLAG_AM_REQUEST;
        if (IS("register_no_reqrep")) e.gex_flags = GEX_FLAG_AM_SHORT;
        if (IS("register_short_medium")) e.gex_flags = GEX_FLAG_AM_SHORT | GEX_FLAG_AM_MEDIUM | GEX_FLAG_AM_REPLY;
        if (IS("register_nargs")) e.gex_nargs = gex_AM_MaxArgs() + 1;
        RET(gex_EP_RegisterHandlers(X.ep, &e, 1));
    }
    /* delivery: an unregistered index, a category, direction or argument
     * count the handler was not registered for (§6.5, §18.3) */
    if (IS("am_unregistered")) DELIVER(gex_AM_RequestShort0(tm, 1, 150, 0));
    if (IS("am_category")) DELIVER(gex_AM_RequestMedium0(tm, 1, H_REQ, buf, 8, GEX_EVENT_NOW, 0)); /* a Short handler */
    if (IS("am_direction")) DELIVER(gex_AM_RequestShort0(tm, 1, H_REP, 0));                          /* a reply handler */
    if (IS("am_nargs")) DELIVER(gex_AM_RequestShort2(tm, 1, H_REQ, 0, 1, 2));                        /* registered with 0 */
    /* once-only calls and object misuse */
    if (IS("init_twice")) {
        gex_Client_t c;
        gex_EP_t e;
        gex_TM_t m;
        RET(gex_Client_Init(&c, &e, &m, "EX_ERRORS", NULL, NULL, 0));
    }
    if (IS("attach_twice")) {
        gex_Segment_t s2;
        RET(gex_Segment_Attach(&s2, tm, GASNET_PAGESIZE));
    }
    if (IS("destroy_twice")) {
        size_t sz = gex_TM_Split(&(gex_TM_t){0}, tm, 0, 0, NULL, 0, GEX_FLAG_TM_SCRATCH_SIZE_MIN);
        gex_TM_t t2;
        gex_TM_Split(&t2, tm, 0, 0, gex_Segment_QueryAddr(X.seg), sz, 0);
        gex_TM_Destroy(t2, NULL, 0);
        RET(gex_TM_Destroy(t2, NULL, 0));
    }
    if (IS("scratch_small")) {
        size_t sz = gex_TM_Split(&(gex_TM_t){0}, tm, 0, 0, NULL, 0, GEX_FLAG_TM_SCRATCH_SIZE_MIN);
        gex_TM_t t2;
        ANY(gex_TM_Split(&t2, tm, 0, 0, gex_Segment_QueryAddr(X.seg), sz - 1, 0));
    }
    if (IS("leaf_no_op")) RET(gex_Event_QueryLeaf(GEX_EVENT_NO_OP, GEX_EC_LC) != GEX_EVENT_INVALID ? 0 : 0);
    /* restricted context */
    if (IS("handler_put")) in_handler(0);
    if (IS("handler_nbi_wait")) in_handler(1);
    if (IS("handler_request")) in_handler(2);
    if (IS("handler_poll")) in_handler(3);
    if (IS("handler_barrier")) in_handler(4);
    if (IS("second_reply")) in_handler(5);
    if (IS("reply_group")) in_handler(6);
    if (IS("handler_bound")) in_handler(7);
    if (IS("reply_with_hsl")) in_handler(8);
    if (IS("reply_defer")) in_handler(9);
    if (IS("reply_from_reply")) {
        if (X.me == 0) CHECK_OK(gex_AM_RequestShort0(tm, 1, H_REQ, 0));
        GASNET_BLOCKUNTIL(replied);
        printf("ex_errors %s: the reply handler's reply was accepted\n", which);
        gasnet_exit(0);
    }
    if (IS("hsl_put")) {
        gex_HSL_t l = GEX_HSL_INITIALIZER;
        gex_HSL_Lock(&l);
        RET(gex_RMA_PutBlocking(tm, 1, peer_seg, buf, 8, 0));
    }
    fprintf(stderr, "ex_errors: no case '%s'\n", c);
    gasnet_exit(2);
}

int main(int argc, char **argv)
{
    ex_start(&X, "EX_ERRORS", &argc, &argv, 4 * GASNET_PAGESIZE);
    CHECK(argc == 2 && X.n == 2, "usage: ex_errors CASE, on 2 ranks");
    which = argv[1];
    peer_seg = ex_peer_seg(X.tm, 1, &peer_size);
    gex_AM_Entry_t t[] = {
        {H_REQ, (gex_AM_Fn_t)req_h, GEX_FLAG_AM_SHORT | GEX_FLAG_AM_REQUEST, 0, NULL, "req"},
        {H_REP, (gex_AM_Fn_t)rep_h, GEX_FLAG_AM_SHORT | GEX_FLAG_AM_REPLY, 0, NULL, "rep"},
        {H_BAD, (gex_AM_Fn_t)bad_h, GEX_FLAG_AM_SHORT | GEX_FLAG_AM_REQUEST, 1, NULL, "bad"},
        {H_MED, (gex_AM_Fn_t)med_h, GEX_FLAG_AM_MEDLONG | GEX_FLAG_AM_REQREP, 0, NULL, "med"},
        {H_REQ + 10, (gex_AM_Fn_t)reply_replies_h, GEX_FLAG_AM_SHORT | GEX_FLAG_AM_REPLY, 0, NULL, "replies"},
    };
    CHECK_OK(gex_EP_RegisterHandlers(X.ep, t, EX_NELEM(t)));
    ex_barrier(X.tm);
    int collective = !strcmp(which, "rank_team_of_one") || !strcmp(which, "team_destroyed") ||
                     !strcmp(which, "init_twice") || !strcmp(which, "attach_twice") || !strcmp(which, "destroy_twice") ||
                     !strcmp(which, "scratch_small") || !strcmp(which, "outside_split") ||
                     !strcmp(which, "negative_colour") || !strcmp(which, "scratch_outside") ||
                     !strcmp(which, "flags_split") || !strncmp(which, "handler_", 8) || !strncmp(which, "reply_", 6) ||
                     !strcmp(which, "second_reply");
    if (X.me == 0 || collective) run(which);
    ex_barrier(X.tm); /* the job ends while jobrank 1 waits here */
    fprintf(stderr, "ex_errors %s: the bad call went unnoticed\n", which);
    gasnet_exit(0);
}
