/* A flood of requests whose handler never replies: the credits must come
 * back on their own (coalesced), without deadlock, and every request must
 * be handled exactly once. Every rank floods every other rank at once.
 * Usage: ammpi_noreply [requests per destination] */
#include "ammpi_test.h"

static volatile long handled;
static long *from;

static void on_req(ammpi_token_t t, int32_t seq)
{
    int src;
    CHECK_OK(ammpi_token_source(t, &src));
    CHECK(seq == from[src], "request %d from %d out of order (expected %ld)", seq, src, from[src]);
    from[src]++;
    handled++;
}

int main(int argc, char **argv)
{
    ammpi_ep_t *ep = test_open(&argc, &argv);
    long n = argc > 1 ? atol(argv[1]) : 50000;
    int size = ammpi_size(ep), me = ammpi_rank(ep);
    from = calloc((size_t)size, sizeof *from);
    ammpi_set_handler(ep, 1, (ammpi_handler_fn)on_req);
    MPI_Barrier(MPI_COMM_WORLD);
    /* Short requests from one sender are handled in sending order: MPI
     * matches messages of one source in order, and so does the ring. */
    for (long s = 0; s < n; s++)
        for (int d = 1; d < size || (size == 1 && d == 1); d++) {
            int32_t seq = (int32_t)s;
            CHECK_OK(ammpi_request_short(ep, (me + d) % size, 1, 1, &seq));
        }
    long expect = size == 1 ? n : n * (size - 1);
    wait_until(ep, &handled, expect);
    ammpi_stats_t st;
    ammpi_get_stats(ep, &st);
    long sent = (long)st.requests_sent;
    CHECK(sent == expect, "sent %ld", sent);
    /* a credit message carries every credit owed, at least one: never more
     * of them than requests. How many fewer depends on how many polls find
     * the queue empty, which scheduling decides (on a busy machine, about
     * half as many as requests; a bound on that failed under load). */
    CHECK((long)st.credit_msgs_sent <= expect, "credit messages %llu for %ld requests",
          (unsigned long long)st.credit_msgs_sent, expect);
    if (me == 0)
        printf("noreply: %ld requests handled, %llu credit messages\n", handled,
               (unsigned long long)st.credit_msgs_sent);
    test_close(ep, "ammpi_noreply");
    free(from);
    return 0;
}
