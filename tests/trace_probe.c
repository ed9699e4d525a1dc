/* The program tests/trace_test.sh runs under the tracing and statistics
 * settings: a few events whose trace lines and counts the script knows.
 * Built with GASNET_SRCLINES, so each call records its line here.
 *
 * Each node: one 8-byte gex_RMA_PutBlocking and one 1000-byte NBI put to
 * the next node, one 16-byte blocking get and one 32-byte NBI get from
 * it (over the AM path: a packed put and get), two puts to itself (one
 * of a value), an AM request Short (handler 200, answered by a reply on
 * 201) to the next node, a barrier, GASNETT_TRACE_PRINTF("probe says 42"), a stats note
 * and dump. Then, with A taken out of the trace mask, an AM on handler
 * 202 (which must not be traced) and a put of 24 bytes (which must).
 * It prints the masks it saw, and "trace_probe: ok". */
#define GASNET_SRCLINES 1
#include "ex_test.h"

#include <string.h>

enum { H_PING = 200, H_PONG = 201, H_QUIET = 202 };

static volatile int pongs, quiet;

static void ping_h(gex_Token_t t) { gex_AM_ReplyShort0(t, H_PONG, 0); }
static void pong_h(gex_Token_t t)
{
    (void)t;
    __atomic_fetch_add(&pongs, 1, __ATOMIC_RELAXED);
}
static void quiet_h(gex_Token_t t)
{
    (void)t;
    __atomic_fetch_add(&quiet, 1, __ATOMIC_RELAXED);
}

int main(int argc, char **argv)
{
    gex_Client_t client;
    gex_EP_t ep;
    gex_TM_t tm;
    gex_Segment_t seg;
    CHECK_OK(gex_Client_Init(&client, &ep, &tm, "trace_probe", &argc, &argv, 0));
    gex_AM_Entry_t table[] = {
        {H_PING, (gex_AM_Fn_t)ping_h, GEX_FLAG_AM_SHORT | GEX_FLAG_AM_REQUEST, 0, NULL, NULL},
        {H_PONG, (gex_AM_Fn_t)pong_h, GEX_FLAG_AM_SHORT | GEX_FLAG_AM_REPLY, 0, NULL, NULL},
        {H_QUIET, (gex_AM_Fn_t)quiet_h, GEX_FLAG_AM_SHORT | GEX_FLAG_AM_REQUEST, 0, NULL, NULL}};
    CHECK_OK(gex_EP_RegisterHandlers(ep, table, 3));
    CHECK_OK(gex_Segment_Attach(&seg, tm, 1 << 20));
    gex_Rank_t me = gex_TM_QueryRank(tm), n = gex_TM_QuerySize(tm), next = (me + 1) % n;
    gex_Event_Wait(gex_Coll_BarrierNB(tm, 0));
    printf("trace_probe: node %u trace mask %s stats mask %s enabled %d tracelocal %d\n", me,
           GASNETT_TRACE_GETMASK(), GASNETT_STATS_GETMASK(), GASNETT_TRACE_ENABLED,
           GASNETT_TRACE_GET_TRACELOCAL());

    char *mine = gex_Segment_QueryAddr(seg), *theirs;
    void *peer_base;
    uintptr_t peer_size;
    gex_Event_Wait(gex_EP_QueryBoundSegmentNB(tm, next, &peer_base, NULL, &peer_size, 0));
    theirs = peer_base;
    char buf[1000];
    memset(buf, 7, sizeof buf);
    CHECK_OK(gex_RMA_PutBlocking(tm, next, theirs + 64 * me, buf, 8, 0));
    CHECK_OK(gex_RMA_PutNBI(tm, next, theirs + 4096, buf, 1000, GEX_EVENT_DEFER, 0));
    gex_NBI_Wait(GEX_EC_ALL, 0);
    CHECK_OK(gex_RMA_GetBlocking(tm, buf, next, theirs, 16, 0));
    CHECK_OK(gex_RMA_GetNBI(tm, buf + 512, next, theirs + 4096, 32, 0));
    gex_NBI_Wait(GEX_EC_ALL, 0);
    CHECK_OK(gex_RMA_PutBlocking(tm, me, mine + 8192, buf, 4, 0));
    CHECK_OK(gex_RMA_PutBlockingVal(tm, me, mine + 8200, 0x0a0b0c0d, 4, 0));
    CHECK_OK(gex_AM_RequestShort0(tm, next, H_PING, 0));
    GASNET_BLOCKUNTIL(__atomic_load_n(&pongs, __ATOMIC_RELAXED) == 1);
    gex_Event_Wait(gex_Coll_BarrierNB(tm, 0));
    GASNETT_TRACE_PRINTF("probe says %d", 42);
    GASNETT_STATS_PRINTF("probe note %d", 7);
    GASNETT_STATS_DUMP(0);

    char without_a[32];
    size_t k = 0;
    for (const char *c = GASNETT_TRACE_GETMASK(); *c && k < sizeof without_a - 1; c++)
        if (*c != 'A') without_a[k++] = *c;
    without_a[k] = '\0';
    GASNETT_TRACE_SETMASK(without_a);
    printf("trace_probe: node %u after setmask %s\n", me, GASNETT_TRACE_GETMASK());
    CHECK_OK(gex_AM_RequestShort0(tm, next, H_QUIET, 0));
    GASNET_BLOCKUNTIL(__atomic_load_n(&quiet, __ATOMIC_RELAXED) == 1);
    CHECK_OK(gex_RMA_PutBlocking(tm, next, theirs + 128, buf, 24, 0));
    gex_Event_Wait(gex_Coll_BarrierNB(tm, 0));
    MSG0("trace_probe: ok");
    gasnet_exit(0);
    return 0;
}
