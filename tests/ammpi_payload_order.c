/* Messages whose payloads travel separately run in the order their
 * headers came from one peer (issue 27, item 5: they ran newest first).
 * Rank 1 sends a round of async Long requests of 64 KiB, each numbered,
 * and only then lets rank 0 poll: every header is there before the first
 * poll, so rank 0 starts all their payload receives at once, and must run
 * the handlers in the order sent.
 * Usage: ammpi_payload_order [ROUNDS] (default 20) */
#include "ammpi_test.h"
#include "internal.h"

#define PER_ROUND 8
#define SIZE 65536
static char *seg;
static volatile long handled;
static long expect_next;

static void on_long(ammpi_token_t t, void *buf, size_t n, int32_t seq)
{
    (void)t, (void)buf, (void)n;
    CHECK(seq == expect_next, "message %d ran when %ld was due", seq, expect_next);
    expect_next++;
    handled++;
}

int main(int argc, char **argv)
{
    ammpi_ep_t *ep = test_open(&argc, &argv);
    CHECK(ammpi_size(ep) == 2, "needs 2 ranks");
    long rounds = argc > 1 ? atol(argv[1]) : 20;
    int me = ammpi_rank(ep);
    seg = calloc(PER_ROUND, SIZE);
    CHECK(seg, "out of memory");
    CHECK_OK(ammpi_set_segment(ep, seg, (uintptr_t)PER_ROUND * SIZE));
    ammpi_set_handler(ep, 5, (ammpi_handler_fn)on_long);
    uint64_t base = (uint64_t)(uintptr_t)seg, peer;
    MPI_Sendrecv(&base, 1, MPI_UINT64_T, 1 - me, 0, &peer, 1, MPI_UINT64_T, 1 - me, 0,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    char *src = malloc(SIZE);
    CHECK(src, "out of memory");
    memset(src, 7, SIZE);
    for (long r = 0; r < rounds; r++) {
        if (me == 1) {
            for (int i = 0; i < PER_ROUND; i++) {
                int32_t seq = (int32_t)(r * PER_ROUND + i);
                CHECK_OK(ammpi_request_long_async(ep, 0, 5, src, SIZE,
                                                  (void *)(uintptr_t)(peer + (uint64_t)i * SIZE),
                                                  1, &seq));
            }
        }
        MPI_Barrier(MPI_COMM_WORLD);
        if (me == 0) wait_until(ep, &handled, (r + 1) * PER_ROUND);
        MPI_Barrier(MPI_COMM_WORLD);
    }
    test_close(ep, "ammpi_payload_order");
    free(src);
    free(seg);
    return 0;
}
