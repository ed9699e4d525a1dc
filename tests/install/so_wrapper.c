/* A runtime's GASNet wrapper, built as a shared object from the installed
 * static libraries (so.mk): the program that uses it includes no GASNet
 * header, and may link it or load it with dlopen. wrapper_run starts
 * GASNet-EX, sends an AM round to the next node, puts into the next node's
 * segment, checks what the previous node put here, and ends the job. */
#include <gasnetex.h>

#include <stdio.h>
#include <string.h>

static gex_TM_t tm;
static volatile int hellos;

static void hello(gex_Token_t t, gex_AM_Arg_t from)
{
    gex_Token_Info_t info;
    gex_Token_Info(t, &info, GEX_TI_SRCRANK);
    if ((gex_AM_Arg_t)info.gex_srcrank == from) hellos++;
}

#define FAIL(...)                                   \
    do {                                            \
        fprintf(stderr, "so wrapper: " __VA_ARGS__); \
        fprintf(stderr, "\n");                       \
        gasnet_exit(1);                             \
    } while (0)

int wrapper_run(int *argc, char ***argv)
{
    gex_Client_t client;
    gex_EP_t ep;
    gex_Segment_t seg;
    gex_AM_Entry_t table[] = {{0, (gex_AM_Fn_t)hello, GEX_FLAG_AM_REQUEST | GEX_FLAG_AM_SHORT, 1, NULL, "hello"}};
    if (gex_Client_Init(&client, &ep, &tm, "so_wrapper", argc, argv, 0) != GASNET_OK) FAIL("init failed");
    if (gex_EP_RegisterHandlers(ep, table, 1) != GASNET_OK) FAIL("handlers not registered");
    if (gex_Segment_Attach(&seg, tm, 1 << 16) != GASNET_OK) FAIL("attach failed");
    gex_Rank_t me = gex_TM_QueryRank(tm), n = gex_TM_QuerySize(tm);
    gex_Rank_t next = (me + 1) % n, prev = (me + n - 1) % n;
    gex_AM_RequestShort1(tm, next, table[0].gex_index, 0, (gex_AM_Arg_t)me);
    GASNET_BLOCKUNTIL(hellos == 1);
    unsigned long word = 0x5e1f0000UL + me;
    void *there = gex_Segment_QueryAddr(seg);
    gex_Event_t done = gex_EP_QueryBoundSegmentNB(tm, next, &there, NULL, NULL, 0);
    gex_Event_Wait(done);
    gex_RMA_PutBlocking(tm, next, there, &word, sizeof word, 0);
    gex_Event_Wait(gex_Coll_BarrierNB(tm, 0));
    unsigned long got;
    memcpy(&got, gex_Segment_QueryAddr(seg), sizeof got);
    if (got != 0x5e1f0000UL + prev) FAIL("node %u: found %#lx from node %u", (unsigned)me, got, (unsigned)prev);
    return (int)me;
}

void wrapper_exit(int code) { gasnet_exit(code); }
