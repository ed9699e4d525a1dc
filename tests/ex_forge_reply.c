/* Replies nobody asked for, forged by a peer (docs/threat-model.md, reply
 * tickets in extended/ticket.c). Node 0 is the victim, node 1 the forger:
 * node 0 sends node 1 FORGE requests (a client handler), and node 1's
 * handler answers each with a reply to one of the library's own reply
 * handlers, with arguments of its choosing. Every case ends the job with
 * node 0's fatal error naming the handler, node 1 and the ticket (the
 * suite checks the message); a case that returns fails.
 *
 *   ex_forge_reply h_NAME     a flood of replies to the library handler
 *                             NAME, each naming a ticket slot that does
 *                             not exist (for FETCH, a request: the one
 *                             library request that takes a ticket)
 *   ex_forge_reply stale      the ticket of a get node 0 completed, replayed
 *   ex_forge_reply length     a Medium reply for node 0's next 8-byte get,
 *                             ahead of the real one, with 100 bytes
 *   ex_forge_reply long_dest  a Long reply for that get, landing elsewhere
 *                             in node 0's segment
 *   ex_forge_reply other_node (3 nodes) the ticket of a get node 0 sent to
 *                             node 2 (stopped by SIGSTOP), from node 1
 *   ex_forge_reply kind       (3 nodes) that ticket, as an atomic's reply
 *
 * Run with GASNET_RMA=am GASNET_PACK_MAX=0: every get is an AM of its own.
 * The next ticket node 0 issues is predicted by issuing and redeeming one
 * (its thread's free list hands the same slot back, one generation on).
 */
#include "ex_test.h"
#include "extended.h"

#include <signal.h>
#include <unistd.h>

#define FORGE 200
#define FLOOD 64

enum {
    C_H_ACK, C_H_GET_MEDIUM, C_H_GET_LONG, C_H_GET_VAL, C_H_PACK_ACK, C_H_PACK_DATA, C_H_AD_DONE,
    C_H_AD_RESULT, C_H_VIS_ACK, C_H_VIS_GET, C_H_VIS_FETCH, C_H_SEGQ, C_STALE, C_LENGTH,
    C_LONG_DEST, C_OTHER_NODE, C_KIND, NCASES
};
static const char *const names[NCASES] = {
    "h_ack", "h_get_medium", "h_get_long", "h_get_val", "h_pack_ack", "h_pack_data", "h_ad_done",
    "h_ad_result", "h_vis_ack", "h_vis_get", "h_vis_fetch", "h_segq", "stale", "length",
    "long_dest", "other_node", "kind"};

static gex_TM_t tm;
static char *seg0; /* node 0's segment, as node 0 sends it */

/* On node 1: answers a FORGE request with the reply the case forges.
 * (k_hi, k_lo) is the ticket, (s_hi, s_lo) node 0's segment. */
static void forge_h(gex_Token_t tok, gex_AM_Arg_t c, gex_AM_Arg_t k_hi, gex_AM_Arg_t k_lo,
                    gex_AM_Arg_t s_hi, gex_AM_Arg_t s_lo)
{
    char data[100];
    memset(data, 0xab, sizeof data);
    char *seg = GASNETE_PTR(s_hi, s_lo);
    switch (c) {
    case C_H_ACK: gex_AM_ReplyShort2(tok, GASNETE_H_ACK, 0, k_hi, k_lo); break;
    case C_STALE:
    case C_OTHER_NODE:
    case C_H_GET_MEDIUM: gex_AM_ReplyMedium2(tok, GASNETE_H_GET_MEDIUM_REPLY, data, 8, GEX_EVENT_NOW, 0, k_hi, k_lo); break;
    case C_LENGTH: gex_AM_ReplyMedium2(tok, GASNETE_H_GET_MEDIUM_REPLY, data, 100, GEX_EVENT_NOW, 0, k_hi, k_lo); break;
    case C_LONG_DEST:
    case C_H_GET_LONG: gex_AM_ReplyLong2(tok, GASNETE_H_GET_LONG_REPLY, data, 8, seg + 64, GEX_EVENT_NOW, 0, k_hi, k_lo); break;
    case C_H_GET_VAL: gex_AM_ReplyShort4(tok, GASNETE_H_GET_VAL_REPLY, 0, 0, 7, k_hi, k_lo); break;
    case C_H_PACK_ACK: gex_AM_ReplyShort2(tok, GASNETE_H_PACK_ACK, 0, k_hi, k_lo); break;
    case C_H_PACK_DATA: gex_AM_ReplyMedium2(tok, GASNETE_H_PACK_DATA, data, 16, GEX_EVENT_NOW, 0, k_hi, k_lo); break;
    case C_KIND:
    case C_H_AD_DONE: gex_AM_ReplyShort2(tok, GASNETE_H_AD_DONE, 0, k_hi, k_lo); break;
    case C_H_AD_RESULT: gex_AM_ReplyShort5(tok, GASNETE_H_AD_RESULT, 0, 0, 7, k_hi, k_lo, 0); break;
    case C_H_VIS_ACK: gex_AM_ReplyShort2(tok, GASNETE_H_VIS + 1, 0, k_hi, k_lo); break;
    case C_H_VIS_GET: gex_AM_ReplyMedium6(tok, GASNETE_H_VIS + 3, data, 8, GEX_EVENT_NOW, 0, k_hi, k_lo, 0, 0, 0, 0); break;
    case C_H_SEGQ: gex_AM_ReplyShort6(tok, GASNETE_H_SEGQ_REPLY, 0, k_hi, k_lo, s_hi, s_lo, 0, 4096); break;
    default: CHECK(0, "no forged reply for case %d", (int)c);
    }
}

static void forge(int c, uint64_t k)
{
    CHECK_OK(gex_AM_RequestShort5(tm, 1, FORGE, 0, c, GASNETE_HI(k), GASNETE_LO(k), GASNETE_HI(seg0),
                                  GASNETE_LO(seg0)));
}

/* The ticket node 0's next operation takes. */
static uint64_t next_ticket(void)
{
    uint64_t k = gasnete_ticket_issue(GASNETE_TK_ACK, 1, NULL, 0, 0);
    gasnete_ticket_redeem(GASNETE_HI(k), GASNETE_LO(k), GASNETE_TK_ACK, 1, "the test's probe");
    return k + ((uint64_t)2 << 32);
}

static char *seg_of(gex_Rank_t r)
{
    void *addr = NULL;
    CHECK(gex_Segment_QueryBound(tm, r, &addr, NULL, NULL) == GASNET_OK && addr,
          "no segment known for node %u", (unsigned)r);
    return addr;
}

/* Until process pid (node 2, on this host) is stopped. */
static void wait_stopped(int pid)
{
    char path[64], stat[512];
    snprintf(path, sizeof path, "/proc/%d/stat", pid);
    for (;;) {
        FILE *f = fopen(path, "r");
        CHECK(f, "cannot read %s", path);
        size_t len = fread(stat, 1, sizeof stat - 1, f);
        fclose(f);
        stat[len] = 0;
        const char *st = strrchr(stat, ')');
        if (st && st[1] == ' ' && st[2] == 'T') return;
        usleep(1000);
    }
}

static void forever(void)
{
    for (;;) {
        gasnet_AMPoll();
        sched_yield();
    }
}

int main(int argc, char **argv)
{
    gex_Client_t client;
    gex_EP_t ep;
    gex_Segment_t segment;
    CHECK_OK(gex_Client_Init(&client, &ep, &tm, "ex_forge_reply", &argc, &argv, 0));
    CHECK_OK(gex_Segment_Attach(&segment, tm, 1 << 16));
    gex_AM_Entry_t entry = {FORGE, (gex_AM_Fn_t)forge_h, GEX_FLAG_AM_REQUEST | GEX_FLAG_AM_SHORT, 5,
                            NULL, "forge"};
    CHECK_OK(gex_EP_RegisterHandlers(ep, &entry, 1));
    int c = 0;
    while (c < NCASES && !(argc == 2 && !strcmp(argv[1], names[c]))) c++;
    CHECK(c < NCASES, "usage: ex_forge_reply CASE (h_ack ... kind: see the top of the file)");
    gex_Rank_t me = gex_TM_QueryRank(tm), n = gex_TM_QuerySize(tm);
    CHECK(n >= ((c == C_OTHER_NODE || c == C_KIND) ? 3 : 2), "case %s needs more nodes", names[c]);
    seg0 = gex_Segment_QueryAddr(segment);
    if (me == 2) { /* it stops (SIGSTOP, every thread): a get to it stays unanswered */
        int pid = getpid();
        gex_RMA_PutBlocking(tm, 0, seg_of(0) + 256, &pid, sizeof pid, 0);
    }
    gex_Event_Wait(gex_Coll_BarrierNB(tm, 0));
    if (me == 2) {
        raise(SIGSTOP);
        forever();
    }
    if (me == 1) {
        if (c == C_H_VIS_FETCH) /* a request: sent from here */
            for (int i = 0; i < FLOOD; i++)
                CHECK_OK(gex_AM_RequestShort2(tm, 0, GASNETE_H_VIS_FETCH, 0, 1, 0x7fffffff));
        forever();
    }
    uint64_t none = (uint64_t)1 << 32 | 0x7fffffff; /* slot 2^31 - 1: beyond any table */
    char buf[8];
    if (c <= C_H_SEGQ) {
        if (c != C_H_VIS_FETCH)
            for (int i = 0; i < FLOOD; i++) forge(c, none);
    } else if (c == C_STALE) {
        uint64_t k = next_ticket();
        gex_RMA_GetBlocking(tm, buf, 1, seg_of(1), 8, 0);
        forge(c, k);
    } else if (c == C_LENGTH || c == C_LONG_DEST) {
        uint64_t k = next_ticket();
        forge(c, k); /* sent first, answered first: node 0 does not poll until the get waits */
        gex_Event_Wait(gex_RMA_GetNB(tm, c == C_LONG_DEST ? seg0 : buf, 1, seg_of(1), 8, 0));
    } else {
        wait_stopped(*(int *)(seg0 + 256));
        uint64_t k = next_ticket();
        gex_Event_t ev = gex_RMA_GetNB(tm, buf, 2, seg_of(2), 8, 0); /* never answered */
        (void)ev;
        forge(c, k);
    }
    forever();
    return 0;
}
