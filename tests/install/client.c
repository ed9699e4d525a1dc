/* A GASNet-1 client written only against the spec: it is built from an
 * installed GASNet through the makefile fragment or pkg-config, the way
 * existing clients build. AM round trips, puts and gets, a barrier. */
#include <gasnet.h>
#include <gasnet_tools.h> /* after gasnet.h, as clients do */
#include <gasnet_coll.h>

#include <stdio.h>
#include <string.h>

static volatile int pongs;
static gasnet_hsl_t lock = GASNET_HSL_INITIALIZER;

static void ping(gasnet_token_t t, void *buf, size_t n, gasnet_handlerarg_t tag)
{
    gasnet_AMReplyMedium1(t, (gasnet_handler_t)tag, buf, n, tag); /* tag: the reply handler */
}

static void pong(gasnet_token_t t, void *buf, size_t n, gasnet_handlerarg_t tag)
{
    (void)t;
    (void)tag;
    gasnet_hsl_lock(&lock);
    if (n == 6 && memcmp(buf, "hello", 6) == 0) pongs++;
    gasnet_hsl_unlock(&lock);
}

int main(int argc, char **argv)
{
    gasnet_handlerentry_t table[] = {{0, (void (*)())ping}, {0, (void (*)())pong}};
    GASNET_BEGIN_FUNCTION();
    if (gasnet_init(&argc, &argv) != GASNET_OK) return 1;
    if (gasnet_attach(table, 2, 16 * GASNET_PAGESIZE, GASNET_PAGESIZE) != GASNET_OK) return 2;
    gasnet_node_t me = gasnet_mynode(), n = gasnet_nodes(), peer = (me + 1) % n;
    gasnet_seginfo_t seg[64];
    gasnet_getSegmentInfo(seg, 64);
    gasnett_tick_t start = gasnett_ticks_now();
    /* the reply handler index travels as the argument */
    gasnet_AMRequestMedium1(peer, table[0].index, "hello", 6, table[1].index);
    GASNET_BLOCKUNTIL(pongs == 1);
    int mine[4] = {(int)me, 1, 2, 3}, got[4];
    gasnet_put_nbi(peer, seg[peer].addr, mine, sizeof mine);
    gasnet_wait_syncnbi_puts();
    gasnet_barrier_notify(7, 0);
    if (gasnet_barrier_wait(7, 0) != GASNET_OK) return 3;
    gasnet_get(got, peer, seg[peer].addr, sizeof got);
    gasnet_node_t from = (me + n - 1) % n;
    int *landed = seg[me].addr;
    if (landed[0] != (int)from || got[0] != (int)me || got[3] != 3) {
        printf("client FAILED on node %u\n", me);
        gasnet_exit(4);
    }
    /* the collectives as GASNet-1 test programs use them */
    gasnet_coll_init(0, 0, 0, 0, 0);
    int token = me == 0 ? 4242 : 0;
    gasnet_coll_broadcast(GASNET_TEAM_ALL, &token, 0, &token, sizeof token,
                          GASNET_COLL_IN_ALLSYNC | GASNET_COLL_OUT_ALLSYNC | GASNET_COLL_LOCAL);
    if (token != 4242) {
        printf("client FAILED on node %u: gasnet_coll_broadcast\n", me);
        gasnet_exit(5);
    }
    gasnet_barrier_notify(8, GASNET_BARRIERFLAG_ANONYMOUS);
    gasnet_barrier_wait(8, GASNET_BARRIERFLAG_ANONYMOUS);
    printf("client ok node %u of %u (%s, %llu us)\n", me, n, GASNET_CONFIG_STRING,
           (unsigned long long)gasnett_ticks_to_us(gasnett_ticks_now() - start));
    gasnet_exit(0);
    return 0;
}
