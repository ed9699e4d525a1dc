/* PAR concurrency: THREADS client threads per node at once send AMs of
 * every kind to random nodes (handlers reply; reply handlers may run on any
 * polling thread), poll, take HSLs shared with handlers, and run puts and
 * gets (blocking, nb, nbi) with their own per-thread syncs, verifying every
 * byte. Meaningful only in the PAR build. Usage: par_stress [rounds]
 *
 * Node n's thread t owns region n*THREADS+t of every segment, so threads
 * never write the same bytes. */
#include "test.h"

#include <pthread.h>

#define THREADS 4
#define REGION 8192
enum { H_SHORT = 200, H_MEDIUM, H_LONG, H_REPLY_SHORT, H_REPLY_MEDIUM };

static gasnet_seginfo_t *seg;
static gasnet_node_t me, nodes;
static int rounds;
static gasnet_hsl_t count_lock = GASNET_HSL_INITIALIZER;
static long handled_total;         /* requests handled on this node, under count_lock */
static long replies[THREADS];      /* per requesting thread, atomic */

static char *region(gasnet_node_t node, gasnet_node_t owner, int thread)
{
    return (char *)seg[node].addr + ((size_t)owner * THREADS + (size_t)thread) * REGION;
}

static void count_request(void)
{
    gasnet_hsl_lock(&count_lock);
    handled_total++;
    gasnet_hsl_unlock(&count_lock);
}

static void short_h(gasnet_token_t t, gasnet_handlerarg_t thread, gasnet_handlerarg_t seq)
{
    count_request();
    gasnet_AMReplyShort2(t, H_REPLY_SHORT, thread, seq);
}

static void medium_h(gasnet_token_t t, void *buf, size_t n, gasnet_handlerarg_t thread,
                     gasnet_handlerarg_t seq)
{
    CHECK(test_verify(buf, n, (unsigned)seq) == n, "Medium payload from thread %d", (int)thread);
    count_request();
    gasnet_AMReplyMedium2(t, H_REPLY_MEDIUM, buf, n, thread, seq);
}

static void long_h(gasnet_token_t t, void *buf, size_t n, gasnet_handlerarg_t thread,
                   gasnet_handlerarg_t seq)
{
    CHECK(test_verify(buf, n, (unsigned)seq) == n, "Long payload from thread %d", (int)thread);
    count_request();
    gasnet_AMReplyShort2(t, H_REPLY_SHORT, thread, seq);
}

static void reply_short_h(gasnet_token_t t, gasnet_handlerarg_t thread, gasnet_handlerarg_t seq)
{
    (void)t;
    (void)seq;
    CHECK(thread >= 0 && thread < THREADS, "reply for thread %d", (int)thread);
    __atomic_fetch_add(&replies[thread], 1, __ATOMIC_RELEASE);
}

static void reply_medium_h(gasnet_token_t t, void *buf, size_t n, gasnet_handlerarg_t thread,
                           gasnet_handlerarg_t seq)
{
    CHECK(test_verify(buf, n, (unsigned)seq) == n, "Medium reply to thread %d", (int)thread);
    reply_short_h(t, thread, seq);
}

static gasnet_handlerentry_t table[] = {
    {H_SHORT, (void (*)())short_h},
    {H_MEDIUM, (void (*)())medium_h},
    {H_LONG, (void (*)())long_h},
    {H_REPLY_SHORT, (void (*)())reply_short_h},
    {H_REPLY_MEDIUM, (void (*)())reply_medium_h},
};

static long sent_total[THREADS];

static void *worker(void *arg)
{
    int id = (int)(intptr_t)arg;
    unsigned rng = 7u * me + 13u * (unsigned)id + 1u;
    char out[REGION], back[REGION];
    long sent = 0;
    for (int r = 0; r < rounds; r++) {
        rng = rng * 1103515245u + 12345u;
        gasnet_node_t peer = (gasnet_node_t)((rng >> 8) % nodes);
        int seq = (int)(rng >> 4) & 0xffff;
        size_t n = 1 + (rng >> 16) % 1500;
        test_fill(out, n, (unsigned)seq);
        switch (r % 3) {
        case 0: CHECK_OK(gasnet_AMRequestShort2(peer, H_SHORT, id, seq)); break;
        case 1: CHECK_OK(gasnet_AMRequestMedium2(peer, H_MEDIUM, out, n, id, seq)); break;
        default:
            /* the previous Long to this spot must be handled before it is overwritten */
            GASNET_BLOCKUNTIL(__atomic_load_n(&replies[id], __ATOMIC_ACQUIRE) == sent);
            CHECK_OK(gasnet_AMRequestLong2(peer, H_LONG, out, n, region(peer, me, id) + REGION / 2,
                                           id, seq));
        }
        sent++;
        /* RMA into this thread's own region of the peer, checked by reading back */
        char *mine = region(peer, me, id);
        size_t len = n < REGION / 2 ? n : REGION / 2;
        switch (r % 4) {
        case 0:
            gasnet_put(peer, mine, out, len);
            gasnet_get(back, peer, mine, len);
            break;
        case 1: {
            gasnet_handle_t h = gasnet_put_nb_bulk(peer, mine, out, len);
            gasnet_wait_syncnb(h);
            h = gasnet_get_nb_bulk(back, peer, mine, len);
            while (gasnet_try_syncnb(h) != GASNET_OK) gasnet_AMPoll();
            break;
        }
        case 2:
            gasnet_put_nbi(peer, mine, out, len);
            gasnet_wait_syncnbi_puts();
            gasnet_get_nbi(back, peer, mine, len);
            gasnet_wait_syncnbi_gets();
            break;
        default:
            gasnet_begin_nbi_accessregion();
            gasnet_put_nbi_bulk(peer, mine, out, len);
            gasnet_wait_syncnb(gasnet_end_nbi_accessregion());
            gasnet_get_bulk(back, peer, mine, len);
        }
        CHECK(test_verify(back, len, (unsigned)seq) == len, "thread %d round %d: %zu bytes", id,
              r, len);
        if (r % 16 == 15) gasnet_AMPoll();
    }
    GASNET_BLOCKUNTIL(__atomic_load_n(&replies[id], __ATOMIC_ACQUIRE) == sent);
    sent_total[id] = sent;
    return NULL;
}

#define MAX_NODES 64
#define SEGSIZE ((uintptr_t)(MAX_NODES * THREADS * REGION + MAX_NODES * 2 * sizeof(long)))

int main(int argc, char **argv)
{
    seg = test_start(&argc, &argv, table, (int)(sizeof table / sizeof table[0]), SEGSIZE);
    me = gasnet_mynode();
    nodes = gasnet_nodes();
    rounds = argc > 1 ? atoi(argv[1]) : 400;
    CHECK(nodes <= MAX_NODES, "at most %d nodes", MAX_NODES);
    BARRIER();
    pthread_t th[THREADS];
    for (int i = 1; i < THREADS; i++) pthread_create(&th[i], NULL, worker, (void *)(intptr_t)i);
    worker((void *)0);
    for (int i = 1; i < THREADS; i++) pthread_join(th[i], NULL);
    BARRIER(); /* every request of every node has been answered */

    /* node 0 checks that the job handled exactly the requests it sent */
    long mine[2] = {0, 0};
    for (int i = 0; i < THREADS; i++) mine[0] += sent_total[i];
    gasnet_hsl_lock(&count_lock);
    mine[1] = handled_total;
    gasnet_hsl_unlock(&count_lock);
    long *table0 = (long *)((char *)seg[0].addr + MAX_NODES * THREADS * REGION);
    gasnet_put(0, table0 + 2 * me, mine, sizeof mine);
    BARRIER();
    if (me == 0) {
        long sent = 0, handled = 0;
        for (gasnet_node_t i = 0; i < nodes; i++) {
            sent += table0[2 * i];
            handled += table0[2 * i + 1];
        }
        CHECK(sent == (long)nodes * THREADS * rounds && handled == sent,
              "requests sent %ld, handled %ld, expected %ld", sent, handled,
              (long)nodes * THREADS * rounds);
    }
    MSG0("par_stress: ok (%u nodes x %d threads x %d rounds)", nodes, THREADS, rounds);
    BARRIER();
    gasnet_exit(0);
    return 0;
}
