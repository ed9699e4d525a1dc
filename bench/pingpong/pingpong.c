/* pingpong: round-trip latency (the paper's section 4.1 and figure 4).
 * Rank 0 starts an operation and waits for it to complete, `iters` times
 * in a timed loop; the time per iteration is one round trip. Rank 1 is
 * passive. Every layer runs in the one job, interleaved (see layers.h):
 * at each size, one untimed warm-up loop per operation, then -r
 * repetitions, each running every operation once; the median and
 * quartiles of the times and of the per-repetition ratios to raw MPI are
 * reported.
 *
 * mpi:
 *   mpi           MPI_Send of n bytes, answered by a 0-byte MPI_Send
 *   mpi_with_gasnet  the same with GASNet's endpoint running (up to 8 bytes;
 *                 needs -l gasnet too): what its posted receives cost MPI
 *   mpi_am        the MPI calls an AM layer makes for a Short round trip,
 *                 with no layer around them (no payload); mpi_am_named,
 *                 _irecv, _mprobe, _send, _free, _lazy: the same with one MPI
 *                 call chosen otherwise (see mpi_am_send below)
 * floor:
 *   floor         one cache line bounced through shared memory (no payload)
 *   ring          a Short AM's entry each way through two rings laid out as
 *                 the shared-memory AM rings are, no software around it
 * ammpi:
 *   ammpi_short   ammpi Short request answered by a Short reply (no payload)
 *   ammpi_medium  ammpi Medium request of n bytes (n <= 65000), Short reply
 *   ammpi_long    ammpi Long request of n bytes into rank 1's segment (split
 *                 into 1 MiB pieces above that), a Short reply per piece
 * gasnet:
 *   am_short      GASNet AM Short request answered by a Short reply
 *   am_medium     GASNet AM Medium request of n bytes, Short reply
 *   am_long       GASNet AM Long request of n bytes into rank 1's segment
 *   get, put      blocking gasnet_get, gasnet_put          } once per RMA
 *   get_nb, put_nb     initiate, then gasnet_wait_syncnb   } path (-P)
 *   get_nbi, put_nbi   initiate, then gasnet_wait_syncnbi_* }
 * gasnet, the GASNet-EX twins (same handlers and peers, on the primordial
 * team; report.sh compares each with its GASNet-1 twin per repetition):
 *   ex_am_medium  gex_AM_RequestMedium0 with GEX_EVENT_NOW, Short reply
 *   ex_get, ex_put  gex_RMA_GetBlocking, gex_RMA_PutBlocking (per RMA path)
 * Operations without payload are measured once, as size 0, beside the
 * first size of the sweep.
 */
#include "layers.h"

static char *lbuf, *rbuf; /* local source or destination; the remote one */
static gex_TM_t tm0;      /* the primordial team, for the EX twins */

static void mpi_active(size_t n, long iters)
{
    for (long i = 0; i < iters; i++) {
        MPI_Send(lbuf, (int)n, MPI_BYTE, PASSIVE, 1, raw_comm);
        MPI_Recv(NULL, 0, MPI_BYTE, PASSIVE, 2, raw_comm, MPI_STATUS_IGNORE);
    }
}

static void mpi_passive(size_t n, long iters)
{
    for (long i = 0; i < iters; i++) {
        MPI_Recv(lbuf, (int)n, MPI_BYTE, ACTIVE, 1, raw_comm, MPI_STATUS_IGNORE);
        MPI_Send(NULL, 0, MPI_BYTE, ACTIVE, 2, raw_comm);
    }
}

/* The MPI calls of an AM layer (ammpi's, ammpi/recv.c and send.c) for a
 * Short round trip, with no layer around them: a Short AM's header each
 * way, received by a persistent MPI_ANY_SOURCE receive found by MPI_Test
 * in a loop and restarted once the answer is sent, sent by MPI_Isend and
 * completed by MPI_Testsome over 8 sends at a time (mpi_am). The other
 * mpi_am_* change one of those choices, to show what each costs with the
 * MPI and machine at hand (docs/ammpi-profile.md):
 *   mpi_am_named   the persistent receive names its sender
 *   mpi_am_irecv   a fresh MPI_Irecv from any sender per message
 *   mpi_am_mprobe  MPI_Improbe from any sender, then MPI_Mrecv
 *   mpi_am_send    blocking MPI_Send (eager at this size) instead of Isend
 *   mpi_am_free    MPI_Isend then MPI_Request_free: nothing to reclaim
 *   mpi_am_lazy    MPI_Testsome over 32 sends at a time instead of 8
 *   mpi_am_test    MPI_Test on each send as soon as it is made (an eager
 *                  send is often complete then); kept for Testsome if not
 *   mpi_am_wait    MPI_Wait on the receive instead of MPI_Test in a loop
 *                  (what polling costs over blocking in MPI) */
#define MPI_AM_TAG 4
#define MPI_AM_RECLAIM 8
#define MPI_AM_RECLAIM_LAZY 32
enum { AM_PERSIST_ANY, AM_PERSIST_NAMED, AM_IRECV_ANY, AM_MPROBE_ANY, AM_PERSIST_ANY_WAIT };
enum { AM_ISEND, AM_SEND, AM_ISEND_FREE, AM_ISEND_LAZY, AM_ISEND_TEST };
static int mpi_am_recv_style, mpi_am_send_style;
static MPI_Request mpi_am_recv, mpi_am_sends[MPI_AM_RECLAIM_LAZY];
static int mpi_am_nsends;
static MPI_Status mpi_am_statuses[MPI_AM_RECLAIM_LAZY]; /* not MPI_STATUSES_IGNORE: gcc 12 misreads it */
static char mpi_am_in[64], mpi_am_out[64];
static int mpi_am_len;

static void mpi_am_send(int to)
{
    if (mpi_am_send_style == AM_SEND) {
        MPI_Send(mpi_am_out, mpi_am_len, MPI_BYTE, to, MPI_AM_TAG, raw_comm);
        return;
    }
    int reclaim = mpi_am_send_style == AM_ISEND_LAZY ? MPI_AM_RECLAIM_LAZY : MPI_AM_RECLAIM;
    if (mpi_am_nsends == reclaim) {
        int done, idx[MPI_AM_RECLAIM_LAZY], keep = 0;
        MPI_Testsome(reclaim, mpi_am_sends, &done, idx, mpi_am_statuses);
        for (int i = 0; i < reclaim; i++)
            if (mpi_am_sends[i] != MPI_REQUEST_NULL) mpi_am_sends[keep++] = mpi_am_sends[i];
        mpi_am_nsends = keep;
        if (keep == reclaim) {
            MPI_Waitall(keep, mpi_am_sends, mpi_am_statuses);
            mpi_am_nsends = 0;
        }
    }
    MPI_Isend(mpi_am_out, mpi_am_len, MPI_BYTE, to, MPI_AM_TAG, raw_comm,
              &mpi_am_sends[mpi_am_nsends]);
    int done = 0;
    if (mpi_am_send_style == AM_ISEND_FREE) MPI_Request_free(&mpi_am_sends[mpi_am_nsends]);
    else if (mpi_am_send_style == AM_ISEND_TEST) MPI_Test(&mpi_am_sends[mpi_am_nsends], &done, MPI_STATUS_IGNORE);
    if (mpi_am_send_style != AM_ISEND_FREE && !done) mpi_am_nsends++;
}

/* (re)posts the receive for the next header, where the style has one */
static void mpi_am_post(void)
{
    if (mpi_am_recv_style == AM_IRECV_ANY)
        MPI_Irecv(mpi_am_in, sizeof mpi_am_in, MPI_BYTE, MPI_ANY_SOURCE, MPI_AM_TAG, raw_comm,
                  &mpi_am_recv);
    else if (mpi_am_recv_style != AM_MPROBE_ANY)
        MPI_Start(&mpi_am_recv);
}

static void mpi_am_wait(void)
{
    if (mpi_am_recv_style == AM_MPROBE_ANY) {
        MPI_Message msg;
        for (int found = 0; !found;)
            MPI_Improbe(MPI_ANY_SOURCE, MPI_AM_TAG, raw_comm, &found, &msg, MPI_STATUS_IGNORE);
        MPI_Mrecv(mpi_am_in, sizeof mpi_am_in, MPI_BYTE, &msg, MPI_STATUS_IGNORE);
        return;
    }
    if (mpi_am_recv_style == AM_PERSIST_ANY_WAIT) MPI_Wait(&mpi_am_recv, MPI_STATUS_IGNORE);
    else
        for (int done = 0; !done;) MPI_Test(&mpi_am_recv, &done, MPI_STATUS_IGNORE);
}

static void mpi_am_open(int recv_style, int send_style, int peer)
{
    mpi_am_recv_style = recv_style;
    mpi_am_send_style = send_style;
    mpi_am_len = (int)short_am_len();
    if (recv_style != AM_IRECV_ANY && recv_style != AM_MPROBE_ANY)
        MPI_Recv_init(mpi_am_in, sizeof mpi_am_in, MPI_BYTE,
                      recv_style == AM_PERSIST_NAMED ? peer : MPI_ANY_SOURCE, MPI_AM_TAG, raw_comm,
                      &mpi_am_recv);
    mpi_am_post();
}

static void mpi_am_close(void)
{
    if (mpi_am_recv_style != AM_MPROBE_ANY) {
        MPI_Cancel(&mpi_am_recv);
        MPI_Wait(&mpi_am_recv, MPI_STATUS_IGNORE);
        if (mpi_am_recv_style != AM_IRECV_ANY) MPI_Request_free(&mpi_am_recv);
    }
    MPI_Waitall(mpi_am_nsends, mpi_am_sends, mpi_am_statuses);
    mpi_am_nsends = 0;
}

static void mpi_am_loop(int recv_style, int send_style, long iters)
{
    int peer = me == ACTIVE ? PASSIVE : ACTIVE;
    mpi_am_open(recv_style, send_style, peer);
    for (long i = 0; i < iters; i++) {
        if (me == ACTIVE) mpi_am_send(peer);
        mpi_am_wait();
        if (me != ACTIVE) mpi_am_send(peer);
        mpi_am_post();
    }
    mpi_am_close();
}

/* each variant is the same loop on both ranks */
#define MPI_AM_VARIANT(name, recv_style, send_style)                                               \
    static void name(size_t n, long iters)                                                     \
    {                                                                                          \
        (void)n;                                                                               \
        mpi_am_loop(recv_style, send_style, iters);                                            \
    }
MPI_AM_VARIANT(mpi_am_run, AM_PERSIST_ANY, AM_ISEND)
MPI_AM_VARIANT(mpi_am_named_run, AM_PERSIST_NAMED, AM_ISEND)
MPI_AM_VARIANT(mpi_am_irecv_run, AM_IRECV_ANY, AM_ISEND)
MPI_AM_VARIANT(mpi_am_mprobe_run, AM_MPROBE_ANY, AM_ISEND)
MPI_AM_VARIANT(mpi_am_send_run, AM_PERSIST_ANY, AM_SEND)
MPI_AM_VARIANT(mpi_am_free_run, AM_PERSIST_ANY, AM_ISEND_FREE)
MPI_AM_VARIANT(mpi_am_lazy_run, AM_PERSIST_ANY, AM_ISEND_LAZY)
MPI_AM_VARIANT(mpi_am_test_run, AM_PERSIST_ANY, AM_ISEND_TEST)
MPI_AM_VARIANT(mpi_am_wait_run, AM_PERSIST_ANY_WAIT, AM_ISEND)

static void ammpi_short_active(size_t n, long iters)
{
    (void)n;
    for (long i = 0; i < iters; i++) {
        ammpi_request_short(ep, PASSIVE, A_SREQ, 0, NULL);
        ammpi_wait_replies(i + 1);
    }
}

static void ammpi_medium_active(size_t n, long iters)
{
    for (long i = 0; i < iters; i++) {
        ammpi_request_medium(ep, PASSIVE, A_MREQ, lbuf, n, 0, NULL);
        ammpi_wait_replies(i + 1);
    }
}

static void ammpi_long_active(size_t n, long iters)
{
    long expect = 0;
    for (long i = 0; i < iters; i++) {
        expect += ammpi_long(lbuf, rbuf, n, 0);
        ammpi_wait_replies(expect);
    }
}

static void am_short_active(size_t n, long iters)
{
    (void)n;
    for (long i = 0; i < iters; i++) {
        gasnet_AMRequestShort0(PASSIVE, G_SREQ);
        GASNET_BLOCKUNTIL(g_replies == i + 1);
    }
}

static void am_medium_active(size_t n, long iters)
{
    for (long i = 0; i < iters; i++) {
        gasnet_AMRequestMedium0(PASSIVE, G_BREQ, lbuf, n);
        GASNET_BLOCKUNTIL(g_replies == i + 1);
    }
}

static void am_long_active(size_t n, long iters)
{
    for (long i = 0; i < iters; i++) {
        gasnet_AMRequestLong0(PASSIVE, G_BREQ, lbuf, n, rbuf);
        GASNET_BLOCKUNTIL(g_replies == i + 1);
    }
}

static void get_active(size_t n, long iters)
{
    for (long i = 0; i < iters; i++) gasnet_get(lbuf, PASSIVE, rbuf, n);
}

static void put_active(size_t n, long iters)
{
    for (long i = 0; i < iters; i++) gasnet_put(PASSIVE, rbuf, lbuf, n);
}

static void ex_am_medium_active(size_t n, long iters)
{
    for (long i = 0; i < iters; i++) {
        gex_AM_RequestMedium0(tm0, PASSIVE, G_BREQ, lbuf, n, GEX_EVENT_NOW, 0);
        GASNET_BLOCKUNTIL(g_replies == i + 1);
    }
}

static void ex_get_active(size_t n, long iters)
{
    for (long i = 0; i < iters; i++) gex_RMA_GetBlocking(tm0, lbuf, PASSIVE, rbuf, n, 0);
}

static void ex_put_active(size_t n, long iters)
{
    for (long i = 0; i < iters; i++) gex_RMA_PutBlocking(tm0, PASSIVE, rbuf, lbuf, n, 0);
}

static void get_nb_active(size_t n, long iters)
{
    for (long i = 0; i < iters; i++) gasnet_wait_syncnb(gasnet_get_nb(lbuf, PASSIVE, rbuf, n));
}

static void put_nb_active(size_t n, long iters)
{
    for (long i = 0; i < iters; i++) gasnet_wait_syncnb(gasnet_put_nb(PASSIVE, rbuf, lbuf, n));
}

static void get_nbi_active(size_t n, long iters)
{
    for (long i = 0; i < iters; i++) {
        gasnet_get_nbi(lbuf, PASSIVE, rbuf, n);
        gasnet_wait_syncnbi_gets();
    }
}

static void put_nbi_active(size_t n, long iters)
{
    for (long i = 0; i < iters; i++) {
        gasnet_put_nbi(PASSIVE, rbuf, lbuf, n);
        gasnet_wait_syncnbi_puts();
    }
}

static const op_t ops[] = {
    {"mpi", L_MPI, mpi_active, mpi_passive, -1, 0},
    {"mpi_with_gasnet", L_MPI, mpi_active, mpi_passive, 8, OP_GASNET_LIVE},
    {"mpi_am", L_MPI, mpi_am_run, mpi_am_run, 0, 0},
    {"mpi_am_named", L_MPI, mpi_am_named_run, mpi_am_named_run, 0, 0},
    {"mpi_am_irecv", L_MPI, mpi_am_irecv_run, mpi_am_irecv_run, 0, 0},
    {"mpi_am_mprobe", L_MPI, mpi_am_mprobe_run, mpi_am_mprobe_run, 0, 0},
    {"mpi_am_send", L_MPI, mpi_am_send_run, mpi_am_send_run, 0, 0},
    {"mpi_am_free", L_MPI, mpi_am_free_run, mpi_am_free_run, 0, 0},
    {"mpi_am_lazy", L_MPI, mpi_am_lazy_run, mpi_am_lazy_run, 0, 0},
    {"mpi_am_test", L_MPI, mpi_am_test_run, mpi_am_test_run, 0, 0},
    {"mpi_am_wait", L_MPI, mpi_am_wait_run, mpi_am_wait_run, 0, 0},
    {"floor", L_FLOOR, floor_active, floor_passive, 0, 0},
    {"ring", L_FLOOR, ring_active, ring_passive, 0, 0},
    {"ammpi_short", L_AMMPI, ammpi_short_active, NULL, 0, 0},
    {"ammpi_medium", L_AMMPI, ammpi_medium_active, NULL, AMMPI_MAX_MEDIUM, 0},
    {"ammpi_long", L_AMMPI, ammpi_long_active, NULL, -1, 0},
    {"am_short", L_GASNET, am_short_active, NULL, 0, 0},
    {"am_medium", L_GASNET, am_medium_active, NULL, (long)gasnet_AMMaxMedium(), 0},
    {"am_long", L_GASNET, am_long_active, NULL, (long)gasnet_AMMaxLongRequest(), 0},
    {"get", L_GASNET, get_active, NULL, -1, OP_RMA},
    {"put", L_GASNET, put_active, NULL, -1, OP_RMA},
    {"get_nb", L_GASNET, get_nb_active, NULL, -1, OP_RMA},
    {"put_nb", L_GASNET, put_nb_active, NULL, -1, OP_RMA},
    {"get_nbi", L_GASNET, get_nbi_active, NULL, -1, OP_RMA},
    {"put_nbi", L_GASNET, put_nbi_active, NULL, -1, OP_RMA},
    {"ex_am_medium", L_GASNET, ex_am_medium_active, NULL, (long)gasnet_AMMaxMedium(), 0},
    {"ex_get", L_GASNET, ex_get_active, NULL, -1, OP_RMA},
    {"ex_put", L_GASNET, ex_put_active, NULL, -1, OP_RMA},
};
#define NOPS ((int)(sizeof ops / sizeof *ops))

static const bench_about_t about = {
    "Round-trip latency of every layer, interleaved in one job (see the top of\n"
    "bench/pingpong/pingpong.c and bench/layers.h).",
    LAYER_LIST,
    "mpi, mpi_with_gasnet, mpi_am, mpi_am_named, mpi_am_irecv, mpi_am_mprobe, mpi_am_send,\n"
    "      mpi_am_free, mpi_am_lazy, mpi_am_test, mpi_am_wait, floor, ring, ammpi_short, ammpi_medium,\n"
    "      ammpi_long, am_short, am_medium, am_long, get, put, get_nb, put_nb, get_nbi, put_nbi,\n"
    "      ex_am_medium, ex_get, ex_put"};

int main(int argc, char **argv)
{
    bench_opts_t o;
    bench_parse(argc, argv, &o, &about);
    layers_start(&argc, &argv, &o, ops, NOPS, (uintptr_t)o.max_size);
    lbuf = lseg;
    rbuf = rseg;
    gasnet_QueryGexObjects(NULL, NULL, &tm0, NULL);
    char settings[320];
    snprintf(settings, sizeof settings,
             "layers=%s ops=%s paths=%s iters=%ld knee=%ld min_iters=%ld reps=%d sizes=%ld..%ld "
             "depth=%d", o.layers, o.ops ? o.ops : "all", o.paths ? o.paths : "all", o.iters,
             o.knee, o.min_iters, o.reps, o.min_size, o.max_size, depth);
    FILE *csv = NULL;
    if (me == ACTIVE) {
        bench_describe(stdout, argc, argv, settings);
        csv = bench_csv_open(&o, argc, argv, settings,
                             "bench,op,path,size,step,iters,reps,lat_us_median,lat_us_q1,lat_us_q3,"
                             "lat_us_min,lat_us_max,x_mpi_median,x_mpi_q1,x_mpi_q3,samples_us");
        printf("%-16s %-5s %8s %7s %11s %11s %11s   %s\n", "op", "path", "size", "iters",
               "median us", "q1 us", "q3 us", "x MPI: median [q1, q3]");
    }
    for (long n = o.min_size; n <= o.max_size; n *= 2) {
        measure_size(&o, n);
        for (int j = 0; j < ncases && me == ACTIVE; j++) {
            const case_t *c = &cases[j];
            if (!c->ran) continue;
            bench_stat_t s = bench_stats(c->t, o.reps), x = mpi_ratio(c, o.reps);
            printf("%-16s %-5s %8ld %7ld %11.4f %11.4f %11.4f   %.3f [%.3f, %.3f]\n", c->op->name,
                   case_path(c), c->size, c->iters, s.med * 1e6, s.q1 * 1e6, s.q3 * 1e6, x.med,
                   x.q1, x.q3);
            fflush(stdout);
            if (csv) {
                fprintf(csv, "pingpong,%s,%s,%ld,%ld,%ld,%d,%.6g,%.6g,%.6g,%.6g,%.6g,%.4g,%.4g,%.4g,",
                        c->op->name, case_path(c), c->size, n, c->iters, o.reps, s.med * 1e6,
                        s.q1 * 1e6, s.q3 * 1e6, s.min * 1e6, s.max * 1e6, x.med, x.q1, x.q3);
                bench_csv_samples(csv, c->t, o.reps, 1e6);
                fprintf(csv, "\n");
            }
        }
    }
    if (csv) fclose(csv);
    layers_finish();
    return 0;
}
