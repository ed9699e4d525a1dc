/* MPI interoperability: the client may start MPI itself before gasnet_init
 * (GASNet then neither starts nor finishes it) or leave that to GASNet, use
 * MPI_COMM_WORLD collectives between GASNet calls, and end by finalizing MPI
 * itself, by gasnet_exit, or by returning from main. Usage:
 *   interop_mpi client-init|gasnet-init finalize|exit|return
 *   interop_mpi low-level      (PAR: client gives only MPI_THREAD_SINGLE) */
#include "test.h"

#include <mpi.h>

int main(int argc, char **argv)
{
    const char *start = argc > 1 ? argv[1] : "", *end = argc > 2 ? argv[2] : "";
    int client_init = !strcmp(start, "client-init") || !strcmp(start, "low-level");
    if (client_init) {
        int provided;
#ifdef GASNET_SEQ
        MPI_Init(&argc, &argv);
#else
        int level = !strcmp(start, "low-level") ? MPI_THREAD_SINGLE : MPI_THREAD_SERIALIZED;
        MPI_Init_thread(&argc, &argv, level, &provided);
#endif
        (void)provided;
    }
    gasnet_seginfo_t *seg = test_start(&argc, &argv, NULL, 0, GASNET_PAGESIZE);
    gasnet_node_t me = gasnet_mynode(), n = gasnet_nodes(), peer = (me + 1) % n;
    int wrank, wsize;
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    CHECK(wrank == (int)me && wsize == (int)n, "MPI rank %d of %d, GASNet node %u of %u", wrank,
          wsize, me, n);
    for (int round = 0; round < 3; round++) {
        long mine = (long)me * 1000 + round, got = -1;
        gasnet_put(peer, seg[peer].addr, &mine, sizeof mine);
        BARRIER(); /* GASNet traffic complete before MPI takes over */
        long sum = 0, expect = 0;
        for (gasnet_node_t i = 0; i < n; i++) expect += (long)i * 1000 + round;
        MPI_Allreduce(&mine, &sum, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
        CHECK(sum == expect, "MPI_Allreduce gave %ld, expected %ld", sum, expect);
        int token = round == 1 ? 4242 : -1;
        MPI_Bcast(&token, 1, MPI_INT, 0, MPI_COMM_WORLD);
        CHECK(round != 1 || token == 4242, "MPI_Bcast");
        gasnet_get(&got, peer, seg[peer].addr, sizeof got); /* what this node put there */
        CHECK(got == mine, "round %d: got %ld back", round, got);
        gasnet_node_t from = (me + n - 1) % n;
        CHECK(*(long *)seg[me].addr == (long)from * 1000 + round, "round %d: node %u's put",
              round, from);
        BARRIER();
    }
    printf("interop ok node %u (%s MPI, ends by %s)\n", me, client_init ? "client" : "GASNet",
           end);
    fflush(stdout);
    if (!strcmp(end, "finalize")) {
        MPI_Finalize();
        return 0;
    }
    if (!strcmp(end, "exit")) gasnet_exit(0);
    return 0;
}
