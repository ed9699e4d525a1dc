/* The plain-MPI twin of tests/mem_probe.c: the same exchanges (an
 * allgather as attach's, a request to every other rank and its reply,
 * a barrier) with nothing but MPI, then the peak resident set (VmHWM):
 *     mpi_probe: node N of M: hwm K kB
 * What it grows by per peer is MPI's own share (tests/memory_test.sh). */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "proc_status.h"

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
    /* a request to every other rank and its reply, as mem_probe's AMs */
    for (int d = 1; d < n; d++) {
        int to = (me + d) % n, from = (me + n - d) % n;
        int32_t out = d, in = -1;
        MPI_Sendrecv(&out, 1, MPI_INT32_T, to, 0, &in, 1, MPI_INT32_T, from, 0, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        int32_t back = in, reply = -1;
        MPI_Sendrecv(&back, 1, MPI_INT32_T, from, 1, &reply, 1, MPI_INT32_T, to, 1, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        if (in != d || reply != d) {
            fprintf(stderr, "mpi_probe: node %d: got %d from node %d and %d back from node %d, "
                    "expected %d\n", me, in, from, reply, to, d);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
    }
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
    MPI_Finalize();
    return 0;
}
