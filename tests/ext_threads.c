/* ext_threads: several client threads per node issue puts, gets, memsets
 * and value operations at once, each synchronising only its own work (nb
 * handles, the nbi syncs, which cover the calling thread's operations,
 * and access regions), while the main thread runs barriers. Meaningful
 * in the PAR build; the SEQ build runs one worker on the main thread.
 *
 *   ext_threads [THREADS [ITERS [BARRIERS]]]   defaults 4, 60, 30
 *
 * Thread t of node s writes only to its own slot on each node. Every
 * iteration writes a new pattern there, syncs, reads it back with a get
 * started after the sync and compares, so a sync that returned before the
 * thread's own operation completed, or an operation completed into
 * another's counter, shows up as stale or foreign data. The barriers are
 * checked as in ext_barrier: before barrier j every node puts j into its
 * word on every node; after it all words must read j.
 */
#include "test.h"

#include <pthread.h>

#define SLOT ((size_t)80 * 1024)
#define MAX_THREADS 8

static gasnet_node_t me, nodes;
static gasnet_seginfo_t *seg;
static int threads = 4, iters = 60, barriers = 30;

/* In every segment: barrier words [2][nodes], then slots [node][thread]. */
static char *slot(gasnet_node_t node, gasnet_node_t writer, int t)
{
    return (char *)seg[node].addr + GASNET_PAGESIZE + ((size_t)writer * MAX_THREADS + (size_t)t) * SLOT;
}

static void *worker(void *arg)
{
    int t = (int)(intptr_t)arg;
    static const size_t sizes[] = {8, 513, 4096, 65001};
    unsigned char *src = malloc(SLOT), *back = malloc(SLOT);
    CHECK(src && back, "out of memory");
    for (int k = 0; k < iters; k++) {
        gasnet_node_t p = (gasnet_node_t)((me + (unsigned)t + (unsigned)k) % nodes);
        char *dst = slot(p, me, t);
        size_t n = sizes[(k / 5) % 4];
        unsigned seed = (unsigned)(me * 1000 + (unsigned)t * 100 + (unsigned)k);
        int form = k % 5;
        test_fill(src, n, seed);
        memset(back, 0, n);
        switch (form) {
        case 0: /* blocking */
            gasnet_put(p, dst, src, n);
            gasnet_get(back, p, dst, n);
            break;
        case 1: { /* nb, synced by wait, then by try */
            gasnet_wait_syncnb(gasnet_put_nb_bulk(p, dst, src, n));
            gasnet_handle_t h = gasnet_get_nb_bulk(back, p, dst, n);
            while (gasnet_try_syncnb(h) != GASNET_OK) continue;
            break;
        }
        case 2: /* nbi in two halves: this thread's syncs must cover them */
            gasnet_put_nbi(p, dst, src, n / 2);
            gasnet_put_nbi_bulk(p, dst + n / 2, src + n / 2, n - n / 2);
            gasnet_wait_syncnbi_puts();
            gasnet_get_nbi_bulk(back, p, dst, n / 2);
            gasnet_get_nbi(back + n / 2, p, dst + n / 2, n - n / 2);
            while (gasnet_try_syncnbi_gets() != GASNET_OK) continue;
            break;
        case 3: { /* an access region with a memset at the end */
            memset(src + n - 8, 0x77, 8);
            gasnet_begin_nbi_accessregion();
            gasnet_put_nbi(p, dst, src, n - 8);
            gasnet_memset_nbi(p, dst + n - 8, 0x77, 8);
            gasnet_wait_syncnb(gasnet_end_nbi_accessregion());
            gasnet_get_nbi_bulk(back, p, dst, n);
            gasnet_wait_syncnbi_all();
            break;
        }
        default: { /* register values, then the rest by put_nb and get_nb */
            uint64_t v;
            memcpy(&v, src, 8);
            gasnet_wait_syncnb(gasnet_put_nb_val(p, dst, (gasnet_register_value_t)v, 8));
            gasnet_handle_t h[2] = {GASNET_INVALID_HANDLE, GASNET_INVALID_HANDLE};
            if (n > 8) h[0] = gasnet_put_nb(p, dst + 8, src + 8, n - 8);
            gasnet_wait_syncnb_all(h, 2);
            gasnet_valget_handle_t vh = gasnet_get_nb_val(p, dst, 8);
            if (n > 8) h[1] = gasnet_get_nb(back + 8, p, dst + 8, n - 8);
            v = gasnet_wait_syncnb_valget(vh);
            memcpy(back, &v, 8);
            gasnet_wait_syncnb_all(h, 2);
            break;
        }
        }
        if (memcmp(back, src, n) != 0) {
            size_t i = 0;
            while (back[i] == src[i]) i++;
            CHECK(0, "thread %d iteration %d (form %d, %zu bytes, node %u): byte %zu differs", t,
                  k, form, n, p, i);
        }
    }
    free(src);
    free(back);
    return NULL;
}

/* Barriers with a data check, run by the main thread meanwhile. */
static void run_barriers(void)
{
    for (int j = 1; j <= barriers; j++) {
        for (gasnet_node_t p = 0; p < nodes; p++) {
            uint64_t *w = (uint64_t *)seg[p].addr + (size_t)(j & 1) * nodes + me;
            gasnet_put_val(p, w, (gasnet_register_value_t)j, 8);
        }
        if (j % 2) {
            gasnet_barrier_notify(j, 0);
            CHECK_OK(gasnet_barrier_wait(j, 0));
        } else {
            CHECK_OK(gasnet_barrier(j, 0));
        }
        uint64_t *words = (uint64_t *)seg[me].addr + (size_t)(j & 1) * nodes;
        for (gasnet_node_t s = 0; s < nodes; s++)
            CHECK(__atomic_load_n(&words[s], __ATOMIC_ACQUIRE) == (uint64_t)j,
                  "barrier %d completed before node %u's put (word holds %llu)", j, s,
                  (unsigned long long)words[s]);
    }
}

int main(int argc, char **argv)
{
    if (argc > 1) threads = atoi(argv[1]);
    if (argc > 2) iters = atoi(argv[2]);
    if (argc > 3) barriers = atoi(argv[3]);
#ifndef GASNET_PAR
    threads = 1; /* only one thread may call GASNet */
#endif
    seg = test_start(&argc, &argv, NULL, 0, GASNET_PAGESIZE + 8 * MAX_THREADS * SLOT);
    me = gasnet_mynode();
    nodes = gasnet_nodes();
    CHECK(threads >= 1 && threads <= MAX_THREADS && iters >= 0 && barriers >= 0 && nodes <= 8,
          "usage: ext_threads [THREADS (1..%d) [ITERS [BARRIERS]]] on at most 8 nodes",
          MAX_THREADS);
    BARRIER();
#ifdef GASNET_PAR
    pthread_t tid[MAX_THREADS];
    for (int t = 0; t < threads; t++)
        CHECK(pthread_create(&tid[t], NULL, worker, (void *)(intptr_t)t) == 0, "pthread_create");
    run_barriers();
    for (int t = 0; t < threads; t++) pthread_join(tid[t], NULL);
#else
    worker((void *)0);
    run_barriers();
#endif
    BARRIER();
    MSG0("ext_threads: %d threads x %d iterations on %u nodes, %d barriers meanwhile: OK",
         threads, iters, nodes, barriers);
    gasnet_exit(0);
}
