/* All-to-all storm: every rank sends NREQ requests (Short and Medium mixed)
 * to pseudo-random ranks, itself included, each answered by a reply. Every
 * request and every reply is recorded in a bitmap: none may be lost and
 * none may arrive twice. Usage: ammpi_storm [requests per rank] */
#include "ammpi_test.h"

enum { H_REQ = 1, H_MREQ = 2, H_REP = 3 };

static ammpi_ep_t *ep;
static int nranks;
static long nreq;
static unsigned char **seen;     /* seen[src][seq]: request seq from src arrived */
static unsigned char *answered;  /* answered[seq]: reply to my request seq arrived */
static volatile long replies;
static long *received_from;      /* requests handled per source */

static void mark_request(ammpi_token_t t, int32_t seq, int32_t check)
{
    int src;
    CHECK_OK(ammpi_token_source(t, &src));
    CHECK(seq >= 0 && seq < nreq && check == (seq ^ 0x5a5a5a5a), "request seq %d", seq);
    CHECK(!seen[src][seq], "request %d from %d arrived twice", seq, src);
    seen[src][seq] = 1;
    received_from[src]++;
    int32_t a[2] = {seq, ~seq};
    CHECK_OK(ammpi_reply_short(t, H_REP, 2, a));
}

static void on_req(ammpi_token_t t, int32_t seq, int32_t check) { mark_request(t, seq, check); }

static void on_mreq(ammpi_token_t t, void *buf, size_t n, int32_t seq, int32_t check)
{
    CHECK(n == 64 + (size_t)(seq % 64), "medium size %zu", n);
    for (size_t i = 0; i < n; i++) CHECK(((unsigned char *)buf)[i] == pattern(i, (unsigned)seq), "byte %zu", i);
    mark_request(t, seq, check);
}

static void on_rep(ammpi_token_t t, int32_t seq, int32_t inv)
{
    (void)t;
    CHECK(seq >= 0 && seq < nreq && inv == ~seq, "reply seq %d", seq);
    CHECK(!answered[seq], "reply %d arrived twice", seq);
    answered[seq] = 1;
    replies++;
}

/* Waits for a nonblocking collective while still serving messages. */
static void poll_until(MPI_Request *r)
{
    int done = 0, idle = 0;
    while (!done) {
        MPI_Test(r, &done, MPI_STATUS_IGNORE);
        if (!done) ammpi_poll_wait(ep, &idle);
    }
}

int main(int argc, char **argv)
{
    ep = test_open(&argc, &argv);
    nreq = argc > 1 ? atol(argv[1]) : 100000;
    nranks = ammpi_size(ep);
    int me = ammpi_rank(ep);
    seen = calloc((size_t)nranks, sizeof *seen);
    for (int r = 0; r < nranks; r++) seen[r] = calloc((size_t)nreq, 1);
    answered = calloc((size_t)nreq, 1);
    received_from = calloc((size_t)nranks, sizeof *received_from);
    long *sent_to = calloc((size_t)nranks, sizeof *sent_to);
    long *expect_from = calloc((size_t)nranks, sizeof *expect_from);
    ammpi_set_handler(ep, H_REQ, (ammpi_handler_fn)on_req);
    ammpi_set_handler(ep, H_MREQ, (ammpi_handler_fn)on_mreq);
    ammpi_set_handler(ep, H_REP, (ammpi_handler_fn)on_rep);
    MPI_Barrier(MPI_COMM_WORLD);

    unsigned rng = 12345u + (unsigned)me * 7919u;
    unsigned char buf[128];
    for (long s = 0; s < nreq; s++) {
        rng = rng * 1103515245u + 12345u;
        int dest = (int)((rng >> 16) % (unsigned)nranks);
        int32_t a[2] = {(int32_t)s, (int32_t)s ^ 0x5a5a5a5a};
        if (s % 4 == 3) {
            size_t n = 64 + (size_t)(s % 64);
            for (size_t i = 0; i < n; i++) buf[i] = pattern(i, (unsigned)s);
            CHECK_OK(ammpi_request_medium(ep, dest, H_MREQ, buf, n, 2, a));
        } else {
            CHECK_OK(ammpi_request_short(ep, dest, H_REQ, 2, a));
        }
        sent_to[dest]++;
    }
    wait_until(ep, &replies, nreq);
    for (long s = 0; s < nreq; s++) CHECK(answered[s], "reply %ld missing", s);

    MPI_Request r;
    MPI_Ialltoall(sent_to, 1, MPI_LONG, expect_from, 1, MPI_LONG, MPI_COMM_WORLD, &r);
    poll_until(&r);
    for (int p = 0; p < nranks; p++)
        CHECK(received_from[p] == expect_from[p], "from %d: handled %ld of %ld", p,
              received_from[p], expect_from[p]);
    ammpi_stats_t st;
    ammpi_get_stats(ep, &st);
    CHECK(st.requests_sent == (uint64_t)nreq, "requests_sent %llu", (unsigned long long)st.requests_sent);
    if (me == 0)
        printf("storm: %d ranks x %ld requests, credit waits %llu, buffer waits %llu\n", nranks,
               nreq, (unsigned long long)st.credit_waits, (unsigned long long)st.buffer_waits);
    test_close(ep, "ammpi_storm");
    for (int p = 0; p < nranks; p++) free(seen[p]);
    free(seen);
    free(answered);
    free(received_from);
    free(sent_to);
    free(expect_from);
    return 0;
}
