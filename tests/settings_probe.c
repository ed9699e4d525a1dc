/* Reads every setting once and passes a message: the program
 * tests/settings_test.sh runs under each bad value. It prints its pid
 * before gasnet_init (a bad setting may end it there), then starts the
 * client, prints "settings_probe: node R pid P" and, on node 0, the
 * largest local segment, attaches a segment, asks a team split for its
 * scratch sizes (which reads the collective settings), sends each node an
 * AM and waits for the answer, and exits with 0 after "settings_probe: ok".
 *   settings_probe crash NODE   node NODE (-1: every node) writes through
 *                               a NULL pointer after init (SIGSEGV)
 *   settings_probe signals      node 0 raises SIGUSR1, then SIGUSR2 (the
 *                               test sets them as the backtrace and freeze
 *                               signals), then goes on */
#include "ex_test.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { H_PING = GEX_AM_INDEX_BASE, H_PONG };

static volatile int pongs;

static void ping_h(gex_Token_t t) { gex_AM_ReplyShort0(t, H_PONG, 0); }
static void pong_h(gex_Token_t t)
{
    (void)t;
    __atomic_fetch_add(&pongs, 1, __ATOMIC_RELAXED);
}

int main(int argc, char **argv)
{
    printf("settings_probe: pid %ld\n", (long)getpid());
    fflush(stdout);
    gex_Client_t client;
    gex_EP_t ep;
    gex_TM_t tm;
    gex_Segment_t seg;
    CHECK_OK(gex_Client_Init(&client, &ep, &tm, "settings_probe", &argc, &argv, 0));
    gex_Rank_t me = gex_TM_QueryRank(tm);
    printf("settings_probe: node %u pid %ld\n", (unsigned)me, (long)getpid());
    if (me == 0) printf("settings_probe: max local segment %lu\n", (unsigned long)gasnet_getMaxLocalSegmentSize());
    fflush(stdout);
    if (argc > 2 && !strcmp(argv[1], "crash")) {
        int node = atoi(argv[2]);
        gex_Event_Wait(gex_Coll_BarrierNB(tm, 0)); /* every node prints its pid first */
        if (node < 0 || (gex_Rank_t)node == me) {
            volatile int *volatile nowhere = NULL;
            *nowhere = 1;
        }
    }
    if (argc > 1 && !strcmp(argv[1], "signals") && me == 0) {
        raise(SIGUSR1);
        raise(SIGUSR2);
        printf("settings_probe: unfrozen\n");
        fflush(stdout);
    }
    gex_AM_Entry_t table[] = {{H_PING, (gex_AM_Fn_t)ping_h, GEX_FLAG_AM_SHORT | GEX_FLAG_AM_REQUEST, 0, NULL, NULL},
                              {H_PONG, (gex_AM_Fn_t)pong_h, GEX_FLAG_AM_SHORT | GEX_FLAG_AM_REPLY, 0, NULL, NULL}};
    CHECK_OK(gex_EP_RegisterHandlers(ep, table, 2));
    CHECK_OK(gex_Segment_Attach(&seg, tm, 1 << 20));
    gex_TM_t unused;
    size_t scratch = gex_TM_Split(&unused, tm, 0, 0, NULL, 0, GEX_FLAG_TM_SCRATCH_SIZE_RECOMMENDED);
    CHECK(scratch > 0, "no scratch size recommended");
    gex_Rank_t n = gex_TM_QuerySize(tm);
    for (gex_Rank_t r = 0; r < n; r++) CHECK_OK(gex_AM_RequestShort0(tm, r, H_PING, 0));
    GASNET_BLOCKUNTIL(__atomic_load_n(&pongs, __ATOMIC_RELAXED) == (int)n);
    gex_Event_Wait(gex_Coll_BarrierNB(tm, 0));
    MSG0("settings_probe: ok");
    gasnet_exit(0);
    return 0;
}
