/* The plain-MPI twin of tests/mem_probe.c: the same exchanges (an
 * allgather as attach's, WARMUP round trips with the next rank, a request
 * to every other rank and its reply, a barrier) with nothing but MPI, then the peak resident set (VmHWM):
 *     mpi_probe: node N of M: hwm K kB
 * What it grows by per peer is MPI's own share (tests/memory_test.sh). */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "proc_status.h"

enum { WARMUP = 64 };

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int me, n;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    uint64_t mine[2] = {(uint64_t)me, 1 << 20}, *all = malloc(2 * (size_t)n * sizeof *all);
    if (!all) {
        fprintf(stderr, "mpi_probe: node %d: out of memory\n", me);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    MPI_Allgather(mine, 2, MPI_UINT64_T, all, 2, MPI_UINT64_T, MPI_COMM_WORLD);
    /* round trips with the neighbours, one at a time, as mem_probe's */
    for (int i = 0; i < WARMUP; i++) {
        int32_t ping = i, got = -1, pong;
        MPI_Sendrecv(&ping, 1, MPI_INT32_T, (me + 1) % n, 2, &got, 1, MPI_INT32_T, (me + n - 1) % n, 2,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Sendrecv(&got, 1, MPI_INT32_T, (me + n - 1) % n, 3, &pong, 1, MPI_INT32_T, (me + 1) % n, 3,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (got != i || pong != i) {
            fprintf(stderr, "mpi_probe: node %d: warm-up round %d got %d and %d back\n", me, i, got, pong);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
    }
    MPI_Barrier(MPI_COMM_WORLD);
    /* a request to every other rank at once, and a reply to each request
     * as it arrives, in any order: mem_probe's AMs in MPI's terms */
    int32_t *out = malloc(2 * (size_t)n * sizeof *out);
    MPI_Request *sent = malloc(2 * (size_t)n * sizeof *sent);
    if (!out || !sent) {
        fprintf(stderr, "mpi_probe: node %d: out of memory\n", me);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    int nsent = 0, replies = 0;
    for (int d = 1; d < n; d++) {
        out[nsent] = d;
        MPI_Isend(&out[nsent], 1, MPI_INT32_T, (me + d) % n, 0, MPI_COMM_WORLD, &sent[nsent]);
        nsent++;
    }
    for (int got = 0; got < 2 * (n - 1); got++) {
        int32_t in = -1;
        MPI_Status st;
        MPI_Recv(&in, 1, MPI_INT32_T, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
        int d = st.MPI_TAG == 0 ? (me + n - st.MPI_SOURCE) % n : (st.MPI_SOURCE + n - me) % n;
        if (in != d) {
            fprintf(stderr, "mpi_probe: node %d: got %d from node %d (tag %d), expected %d\n", me, in,
                    st.MPI_SOURCE, st.MPI_TAG, d);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        if (st.MPI_TAG == 0) {
            out[nsent] = in;
            MPI_Isend(&out[nsent], 1, MPI_INT32_T, st.MPI_SOURCE, 1, MPI_COMM_WORLD, &sent[nsent]);
            nsent++;
        } else {
            replies++;
        }
    }
    for (int i = 0; i < nsent; i++)
        MPI_Wait(&sent[i], MPI_STATUS_IGNORE);
    MPI_Barrier(MPI_COMM_WORLD);
    long kib = proc_status_kib("VmHWM");
    if (kib <= 0) {
        fprintf(stderr, "mpi_probe: node %d: no VmHWM in /proc/self/status\n", me);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    printf("mpi_probe: node %d of %d: hwm %ld kB\n", me, n, kib);
    fflush(stdout);
    MPI_Barrier(MPI_COMM_WORLD);
    free(all);
    free(out);
    free(sent);
    MPI_Finalize();
    return 0;
}
