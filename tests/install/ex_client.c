/* A GASNet-EX client written only against the spec, built from an
 * installed GASNet through the makefile fragment or pkg-config (as C, and
 * as C++ from ex_client.cc, which includes every public header first).
 * Client init, AMs before any segment, a barrier, segment attach, puts and
 * gets on the primordial team and on a team split in two, events. */
#include <gasnetex.h>
#include <gasnet_tools.h>

#include <stdio.h>
#include <string.h>

static volatile int pongs;

static void ping(gex_Token_t t, void *buf, size_t n, gex_AM_Arg_t reply_index)
{
    gex_AM_ReplyMedium1(t, (gex_AM_Index_t)reply_index, buf, n, GEX_EVENT_NOW, 0, reply_index);
}

static void pong(gex_Token_t t, void *buf, size_t n, gex_AM_Arg_t unused)
{
    (void)t;
    (void)unused;
    if (n == 6 && memcmp(buf, "hello", 6) == 0) pongs++;
}

#define FAIL(...)                                  \
    do {                                           \
        fprintf(stderr, "ex client: " __VA_ARGS__); \
        fprintf(stderr, "\n");                      \
        gasnet_exit(1);                            \
    } while (0)

int main(int argc, char **argv)
{
    gex_Client_t client;
    gex_EP_t ep;
    gex_TM_t tm;
    gex_Segment_t seg;
    if (gex_Client_Init(&client, &ep, &tm, "exclient", &argc, &argv, 0) != GASNET_OK) return 1;
    gex_Rank_t me = gex_TM_QueryRank(tm), n = gex_TM_QuerySize(tm);
    if (me != gex_System_QueryJobRank() || n != gex_System_QueryJobSize()) FAIL("rank/size");

    gex_AM_Entry_t table[] = {
        {0, (gex_AM_Fn_t)ping, GEX_FLAG_AM_MEDIUM | GEX_FLAG_AM_REQUEST, 1, NULL, "ping"},
        {0, (gex_AM_Fn_t)pong, GEX_FLAG_AM_MEDIUM | GEX_FLAG_AM_REPLY, 1, NULL, "pong"},
    };
    if (gex_EP_RegisterHandlers(ep, table, 2) != GASNET_OK) FAIL("register");
    gasnet_barrier(0, GASNET_BARRIERFLAG_UNNAMED); /* registered everywhere */
    gex_AM_RequestMedium1(tm, (me + 1) % n, table[0].gex_index, "hello", 6, GEX_EVENT_NOW, 0,
                          table[1].gex_index);
    GASNET_BLOCKUNTIL(pongs == 1);

    uintptr_t size = 4 * GASNET_PAGESIZE;
    if (gex_Segment_Attach(&seg, tm, size) != GASNET_OK) FAIL("attach");
    unsigned char *mine = (unsigned char *)gex_Segment_QueryAddr(seg);
    gex_Rank_t peer = (me + 1) % n;
    void *peer_base;
    if (gex_Segment_QueryBound(tm, peer, &peer_base, NULL, NULL)) FAIL("peer has no segment");
    unsigned char block[100];
    for (int i = 0; i < 100; i++) block[i] = (unsigned char)(me * 7 + i);
    gex_RMA_PutBlocking(tm, peer, (char *)peer_base + 64, block, sizeof block, 0);
    gex_Event_Wait(gex_Coll_BarrierNB(tm, 0));
    gex_Rank_t from = (me + n - 1) % n;
    for (int i = 0; i < 100; i++)
        if (mine[64 + i] != (unsigned char)(from * 7 + i)) FAIL("put data at %d", i);
    unsigned char back[100];
    gex_Event_Wait(gex_RMA_GetNB(tm, back, peer, (char *)peer_base + 64, sizeof back, 0));
    for (int i = 0; i < 100; i++)
        if (back[i] != block[i]) FAIL("get data at %d", i);

    gex_TM_t half;
    gex_TM_Split(&half, tm, (int)(me % 2), (int)me, NULL, 0, 0);
    gex_Rank_t hn = gex_TM_QuerySize(half), hr = gex_TM_QueryRank(half);
    if (hn != (n + 1 - me % 2) / 2 || gex_TM_TranslateRankToJobrank(half, hr) != me) FAIL("split");
    void *next_base;
    if (gex_Segment_QueryBound(half, (hr + 1) % hn, &next_base, NULL, NULL)) FAIL("half peer");
    gex_RMA_PutBlockingVal(half, (hr + 1) % hn, next_base, (gex_RMA_Value_t)me + 1000, 8, 0);
    gex_Event_Wait(gex_Coll_BarrierNB(half, 0));
    uint64_t got;
    memcpy(&got, mine, 8);
    if (got != gex_TM_TranslateRankToJobrank(half, (hr + hn - 1) % hn) + 1000) FAIL("half put %llu",
                                                                                 (unsigned long long)got);
    gex_TM_Destroy(half, NULL, 0);

    gex_Event_Wait(gex_Coll_BarrierNB(tm, 0));
    printf("ex client ok %u\n", (unsigned)me);
    fflush(stdout);
    gasnet_exit(0);
    return 0;
}
