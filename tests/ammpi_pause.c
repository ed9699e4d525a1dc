/* ammpi_pause_receives / ammpi_resume_receives (the benchmarks' hook).
 * First, rank 0 pauses, the others send it requests and all meet in an
 * MPI_Barrier on MPI_COMM_WORLD: MPI traffic flows while paused, and the
 * requests are handled after the resume. Then every rank floods every
 * other rank with numbered requests and, between bursts and while it
 * waits, pauses and resumes its endpoint, so that messages arrive before,
 * during and after the cancels. Every request must be handled exactly
 * once and in sending order, and every reply must come back.
 * Usage: ammpi_pause [requests per destination] */
#include "ammpi_test.h"

#include <unistd.h>

static volatile long handled, replies;
static long *from;

static void on_req(ammpi_token_t t, int32_t seq)
{
    int src;
    CHECK_OK(ammpi_token_source(t, &src));
    CHECK(seq == from[src], "request %d from %d out of order (expected %ld)", seq, src, from[src]);
    from[src]++;
    handled++;
    CHECK_OK(ammpi_reply_short(t, 2, 0, NULL));
}

static void on_rep(ammpi_token_t t)
{
    (void)t;
    replies++;
}

/* Pauses, lets messages arrive for a moment, and resumes. */
static void pause_a_while(ammpi_ep_t *ep)
{
    CHECK_OK(ammpi_pause_receives(ep));
    usleep(20);
    CHECK_OK(ammpi_resume_receives(ep));
}

int main(int argc, char **argv)
{
    ammpi_ep_t *ep = test_open(&argc, &argv);
    long n = argc > 1 ? atol(argv[1]) : 20000;
    int size = ammpi_size(ep), me = ammpi_rank(ep);
    from = calloc((size_t)size, sizeof *from);
    ammpi_set_handler(ep, 1, (ammpi_handler_fn)on_req);
    ammpi_set_handler(ep, 2, (ammpi_handler_fn)on_rep);
    CHECK(ammpi_resume_receives(ep) == AMMPI_ERR_BAD_ARG, "resumed a running endpoint");

    const long first = 8; /* within the default credits: the senders never wait */
    if (me == 0) {
        CHECK_OK(ammpi_pause_receives(ep));
        CHECK(ammpi_pause_receives(ep) == AMMPI_ERR_BAD_ARG, "paused twice");
    }
    MPI_Barrier(MPI_COMM_WORLD);
    for (int32_t s = 0; me != 0 && s < first; s++) CHECK_OK(ammpi_request_short(ep, 0, 1, 1, &s));
    MPI_Barrier(MPI_COMM_WORLD);
    if (me == 0) {
        CHECK_OK(ammpi_resume_receives(ep));
        wait_until(ep, &handled, first * (size - 1));
    } else {
        wait_until(ep, &replies, first);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    handled = replies = 0;
    for (int p = 0; p < size; p++) from[p] = 0;
    for (long s = 0; s < n; s++) {
        for (int d = 1; d < size; d++) {
            int32_t seq = (int32_t)s;
            CHECK_OK(ammpi_request_short(ep, (me + d) % size, 1, 1, &seq));
        }
        if (s % 64 == 63) pause_a_while(ep);
    }
    long expect = n * (size - 1);
    for (long polls = 0; handled < expect || replies < expect; polls++) {
        ammpi_poll(ep);
        if (polls % 256 == 255) pause_a_while(ep);
    }
    /* both counts are exact: one more message would have failed the order check */
    CHECK(handled == expect && replies == expect, "handled %ld, replies %ld of %ld", handled,
          replies, expect);
    MPI_Barrier(MPI_COMM_WORLD);
    if (me == 0) printf("pause: %ld requests and replies per rank\n", expect);
    test_close(ep, "ammpi_pause");
    free(from);
    return 0;
}
