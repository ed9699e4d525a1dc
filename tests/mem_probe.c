/* Memory per peer (issue 28): initialise, attach a 1 MiB segment; warm up
 * with WARMUP round trips to the next node (so that the pools whose size
 * does not depend on the job, such as ammpi's receive buffers, are touched
 * through at every rank count and only per-peer state shows in the slope);
 * send a Short request to every other node (its handler replies), wait for
 * every reply, barrier; then print this process's peak resident set (VmHWM of
 * /proc/self/status) as one line per node:
 *     mem_probe: node N of M: hwm K kB
 * tests/mpi_probe.c does the same exchanges in plain MPI; tests/memory_test.sh
 * compares how both grow with the number of ranks. */
#include "test.h"
#include "proc_status.h"

enum { H_PING = 200, H_PONG, WARMUP = 64 };

static volatile int pongs;

static void on_ping(gasnet_token_t t, gasnet_handlerarg_t i)
{
    CHECK_OK(gasnet_AMReplyShort1(t, H_PONG, i));
}
static void on_pong(gasnet_token_t t, gasnet_handlerarg_t i)
{
    (void)t;
    (void)i;
    pongs++;
}

int main(int argc, char **argv)
{
    gasnet_handlerentry_t table[] = {{H_PING, (void (*)())on_ping}, {H_PONG, (void (*)())on_pong}};
    test_start(&argc, &argv, table, 2, 1 << 20);
    gasnet_node_t me = gasnet_mynode(), n = gasnet_nodes();
    for (int i = 1; i <= WARMUP; i++) {
        CHECK_OK(gasnet_AMRequestShort1((me + 1) % n, H_PING, 1));
        GASNET_BLOCKUNTIL(pongs == i);
    }
    BARRIER();
    pongs = 0;
    for (gasnet_node_t d = 1; d < n; d++)
        CHECK_OK(gasnet_AMRequestShort1((me + d) % n, H_PING, (gasnet_handlerarg_t)d));
    GASNET_BLOCKUNTIL(pongs == (int)n - 1);
    BARRIER();
    long kib = proc_status_kib("VmHWM");
    CHECK(kib > 0, "no VmHWM in /proc/self/status");
    printf("mem_probe: node %u of %u: hwm %ld kB\n", me, n, kib);
    fflush(stdout);
    BARRIER();
    gasnet_exit(0);
    return 0;
}
