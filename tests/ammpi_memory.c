/* Memory under load, from before ammpi_open to the end, against the bound
 * internal.h documents (MEMORY BOUND): what malloc counts as in use (MPI's
 * share included) must grow by no more than the bound, and the peak
 * resident set (VmHWM) by no more than the bound and the allocator's own
 * overhead (a quarter more, and 256 KiB: block headers, free space at the
 * heap's top, partly used pages). Two loads:
 *  - storm (the default): every rank sends its share of TOTAL requests to
 *    the other ranks in turn, Short ones mostly, every 32nd a Medium larger
 *    than the eager size (a separate payload). Every 16th request is
 *    answered, alternately by a Short reply and by a Medium one larger
 *    than the eager size; the others return their credits in CREDIT
 *    messages. P = Q = N-1 in the bound.
 *  - sink: every other rank sends rank 0 all the largest Mediums its
 *    credits allow while rank 0 waits in an MPI barrier, and then more;
 *    rank 0 finds C*(N-1) separate payloads announced at once and must
 *    receive them through its L payload buffers, not one buffer each
 *    (rank 0's bound has no per-peer payload term: it sends nothing).
 * MPI's own connections and buffers are set up before the first reading
 * (an exchange of small and large messages between all ranks, and the
 * sink's burst over MPI), and the peak is reset after that, so what grows
 * is the endpoint. Every request must be handled once, every reply
 * must arrive. Usage: ammpi_memory [TOTAL] | ammpi_memory sink [ROUNDS] */
#include "ammpi_test.h"
#include "internal.h" /* HDR_MAX, the H of the bound */
#include "proc_status.h"

#include <malloc.h>

enum { H_REQ = 1, H_MREQ = 2, H_REP = 3, H_MREP = 4, H_SINK = 5 };
#define BIG 16384 /* > the default eager size: a separate payload */

static ammpi_ep_t *ep;
static char big[AMMPI_MAX_MEDIUM];
static volatile long replies;
static long handled;

static void handle(ammpi_token_t t, int32_t i)
{
    handled++;
    if (i % 32 == 8) CHECK_OK(ammpi_reply_short(t, H_REP, 1, &i));
    if (i % 32 == 24) CHECK_OK(ammpi_reply_medium(t, H_MREP, big, BIG, 1, &i));
}
static void on_req(ammpi_token_t t, int32_t i) { handle(t, i); }
static void on_mreq(ammpi_token_t t, void *buf, size_t n, int32_t i)
{
    CHECK(n == BIG && ((char *)buf)[n - 1] == 7, "request %d damaged", i);
    handle(t, i);
}
static void on_sink(ammpi_token_t t, void *buf, size_t n, int32_t i)
{
    (void)t;
    CHECK(n == AMMPI_MAX_MEDIUM && ((char *)buf)[0] == 7 && ((char *)buf)[n - 1] == 7,
          "Medium %d damaged", i);
    handled++;
}
static void on_rep(ammpi_token_t t, int32_t i)
{
    (void)t;
    CHECK(i % 32 == 8, "reply %d unexpected", i);
    replies++;
}
static void on_mrep(ammpi_token_t t, void *buf, size_t n, int32_t i)
{
    (void)t;
    CHECK(i % 32 == 24 && n == BIG && ((char *)buf)[n - 1] == 7, "reply %d damaged", i);
    replies++;
}

static long peak_kib(void)
{
    long kib = proc_status_kib("VmHWM");
    CHECK(kib > 0, "no VmHWM in /proc/self/status");
    return kib;
}

/* Bytes the process has taken from malloc and not freed (every arena,
 * and the blocks it mapped), which the bound is about. */
static size_t allocated(void)
{
    struct mallinfo2 m = mallinfo2();
    return m.uordblks + m.hblkhd;
}

/* Sets the peak (VmHWM) to the present resident set, so that what the
 * warm-up held and gave back does not hide what the endpoint takes
 * (proc(5), clear_refs, Linux 4.0). */
static void reset_peak(void)
{
    FILE *f = fopen("/proc/self/clear_refs", "w");
    CHECK(f && fputs("5", f) >= 0 && fclose(f) == 0, "cannot reset the peak through /proc/self/clear_refs");
}

/* Small and large messages between all ranks, so that MPI has set up
 * whatever it keeps per peer before the first reading. */
static void warm_up_mpi(int me, int n)
{
    char *out = calloc(2, 1 << 20), *in = out + (1 << 20);
    CHECK(out, "out of memory");
    for (int size = 8; size <= 1 << 20; size = size < AMMPI_MAX_MEDIUM && size * 8 > AMMPI_MAX_MEDIUM ? AMMPI_MAX_MEDIUM : size * 8)
        for (int d = 1; d < n; d++)
            MPI_Sendrecv(out, size, MPI_BYTE, (me + d) % n, 0, in, size, MPI_BYTE,
                         (me + n - d) % n, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    /* and a large message that arrives before its receive is posted, as
     * separate payloads do */
    MPI_Request req;
    MPI_Isend(out, AMMPI_MAX_MEDIUM, MPI_BYTE, (me + 1) % n, 1, MPI_COMM_WORLD, &req);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Recv(in, AMMPI_MAX_MEDIUM, MPI_BYTE, (me + n - 1) % n, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    /* and the sink's burst: SINK_WARM large messages from every other rank
     * to rank 0, sent before it posts their receives and then received all
     * at once, as the sink's payloads are (many at a time): what MPI keeps
     * for transfers in flight (its share, not the endpoint's) grows here */
    enum { SINK_WARM = 16 }; /* the default credits per peer */
    int count = me == 0 ? SINK_WARM * (n - 1) : SINK_WARM;
    MPI_Request *reqs = malloc((size_t)count * sizeof *reqs);
    char *bufs = me == 0 ? malloc((size_t)count * AMMPI_MAX_MEDIUM) : out;
    CHECK(reqs && bufs, "out of memory");
    for (int k = 0; k < count && me != 0; k++)
        MPI_Isend(out, AMMPI_MAX_MEDIUM, MPI_BYTE, 0, 2, MPI_COMM_WORLD, &reqs[k]);
    MPI_Barrier(MPI_COMM_WORLD);
    for (int k = 0; k < count && me == 0; k++)
        MPI_Irecv(bufs + (size_t)k * AMMPI_MAX_MEDIUM, AMMPI_MAX_MEDIUM, MPI_BYTE, MPI_ANY_SOURCE, 2,
                  MPI_COMM_WORLD, &reqs[k]);
    for (int k = 0; k < count; k++) MPI_Wait(&reqs[k], MPI_STATUS_IGNORE);
    if (me == 0) free(bufs);
    free(reqs);
    free(out);
}

/* The storm; returns the requests this rank sent. */
static long storm(int me, int n, long total)
{
    long mine = total / n + (me < total % n), answered = 0;
    for (long k = 0; k < mine; k++) {
        int32_t i = (int32_t)(k % 1048576);
        int dest = (me + 1 + (int)(k % (n - 1))) % n;
        if (i % 32 == 0) CHECK_OK(ammpi_request_medium(ep, dest, H_MREQ, big, BIG, 1, &i));
        else CHECK_OK(ammpi_request_short(ep, dest, H_REQ, 1, &i));
        answered += i % 16 == 8;
    }
    wait_until(ep, &replies, answered);
    return mine;
}

/* The sink: ROUNDS times the credits' worth of Mediums from every other
 * rank to rank 0, the first round while rank 0 does not poll. */
static long sink(int me, int n, int credits, long rounds)
{
    /* the first round must go out before rank 0 polls: each Medium's copy
     * holds a slot of the depth until rank 0 receives it */
    CHECK(credits <= ammpi_config(ep)->depth, "sink needs AMMPI_CREDITS_PP <= the depth");
    long mine = me == 0 ? 0 : credits * rounds;
    for (long k = 0; k < mine; k++) {
        int32_t i = (int32_t)k;
        if (k == credits) MPI_Barrier(MPI_COMM_WORLD);
        CHECK_OK(ammpi_request_medium(ep, 0, H_SINK, big, AMMPI_MAX_MEDIUM, 1, &i));
    }
    if (me == 0) {
        MPI_Barrier(MPI_COMM_WORLD);
        wait_until(ep, (volatile long *)&handled, (long)(n - 1) * credits * rounds);
    } else if (mine <= credits) {
        MPI_Barrier(MPI_COMM_WORLD);
    }
    return mine;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &test_rank);
    int me = test_rank, n;
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    CHECK(n >= 2, "needs 2 ranks or more");
    int sinking = argc > 1 && strcmp(argv[1], "sink") == 0;
    long total = argc > 1 + sinking ? atol(argv[1 + sinking]) : sinking ? 4 : 1000000;
    memset(big, 7, sizeof big);
    warm_up_mpi(me, n);
    reset_peak();
    long before = peak_kib();
    size_t allocated_before = allocated();

    CHECK_OK(ammpi_open(&ep, MPI_COMM_WORLD, NULL));
    const ammpi_config_t *cfg = ammpi_config(ep);
    CHECK(cfg->eager_size < BIG, "AMMPI_EAGER_SIZE=%d is not below %d", cfg->eager_size, BIG);
    ammpi_set_handler(ep, H_REQ, (ammpi_handler_fn)on_req);
    ammpi_set_handler(ep, H_MREQ, (ammpi_handler_fn)on_mreq);
    ammpi_set_handler(ep, H_REP, (ammpi_handler_fn)on_rep);
    ammpi_set_handler(ep, H_MREP, (ammpi_handler_fn)on_mrep);
    ammpi_set_handler(ep, H_SINK, (ammpi_handler_fn)on_sink);
    MPI_Barrier(MPI_COMM_WORLD);
    long mine = sinking ? sink(me, n, cfg->credits_pp, total) : storm(me, n, total);
    long after = peak_kib();
    double allocated_grew = (double)allocated() - (double)allocated_before;

    double N = n, C = cfg->credits_pp, D = cfg->depth, E = cfg->eager_size, H = HDR_MAX;
    double M = AMMPI_MAX_MEDIUM, L = cfg->payload_buffers > 0 ? cfg->payload_buffers : D;
    double R = D + C * N < 3 * D ? D + C * N : 3 * D;
    if (R > 1024) R = 1024;
    if (cfg->recv_buffers > 0) R = cfg->recv_buffers;
    double P = N - 1; /* every other rank may send this one requests and replies */
    double Q = sinking ? 0 : N - 1; /* the peers this rank answers with large replies */
    double copies = sinking && me == 0 ? 0 : D * M; /* rank 0 of the sink sends nothing */
    double bound = (R + D + 4) * (E + H) + 96 * N + 128 * D + (C + 1) * P * (E + H) +
                   128 * (2 * C * P + D) + L * M + copies + C * Q * M;
    double grew = 1024.0 * (double)(after - before);
    ammpi_stats_t st;
    ammpi_get_stats(ep, &st);
    /* The peak resident set also holds what the allocator keeps beside
     * the blocks (headers, free space at the heap's top, partly used
     * pages): it may exceed the bound by that much, no more. */
    double rss_ceiling = bound * 1.25 + 256 * 1024;
    printf("ammpi_memory: rank %d sent %ld requests; allocations grew %.0f KiB, peak RSS %.0f KiB, "
           "bound %.0f KiB (RSS %.0f); %llu payloads waited for a buffer\n", me, mine,
           allocated_grew / 1024, grew / 1024, bound / 1024, rss_ceiling / 1024,
           (unsigned long long)st.payload_waits);
    fflush(stdout);
    CHECK(allocated_grew <= bound, "allocations grew %.0f bytes, more than the bound %.0f",
          allocated_grew, bound);
    CHECK(grew <= rss_ceiling, "peak memory grew %.0f bytes, more than the bound %.0f with the "
          "allocator's allowance (%.0f)", grew, bound, rss_ceiling);
    /* the sink's first round announces C*(N-1) payloads at once */
    CHECK(!sinking || me != 0 || L >= C * P || st.payload_waits > 0,
          "%.0f payloads announced at once, none waited for one of the %.0f buffers", C * P, L);
    long want = sinking ? (long)(n - 1) * cfg->credits_pp * total : total;
    CHECK_OK(ammpi_close(ep)); /* every request handled: all credits came back */
    long all = 0;
    MPI_Reduce(&handled, &all, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    CHECK(me != 0 || all == want, "%ld requests handled, %ld sent", all, want);
    if (me == 0) printf("ammpi_memory: ok\n");
    MPI_Finalize();
    return 0;
}
