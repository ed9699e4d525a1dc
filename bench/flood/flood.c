/* flood: bandwidth and inverse throughput (the paper's section 4.1 and
 * figure 5). Rank 0 issues `iters` operations back to back, letting them
 * overlap as far as the layer allows, and synchronises once at the end;
 * rank 1 is passive. Time per operation (inverse throughput) = loop time
 * / iters; bandwidth = size / time per operation, in MB/s with MB = 2^20
 * bytes. Every layer runs in the one job, interleaved (see layers.h): at
 * each size, one untimed warm-up loop per operation, then -r repetitions,
 * each running every operation once; the median and quartiles of the
 * times and of the per-repetition ratios to raw MPI are reported.
 *
 * The network depth (GASNET_NETWORKDEPTH, default 16) bounds what is in
 * flight: it is GASNet's and the ammpi endpoint's depth, and the MPI
 * window. Messages in flight land in distinct slots of the target's
 * segment (MPI forbids overlapping receive buffers).
 *
 * mpi:
 *   mpi           MPI_Isend with a window of `depth` requests (the oldest is
 *                 waited for when the window is full); rank 1 keeps `depth`
 *                 MPI_Irecv posted; a 0-byte message back ends the loop
 * ammpi:
 *   ammpi_medium  ammpi Medium requests (n <= 65000), each with a Short reply
 *   ammpi_long    ammpi async Long requests (1 MiB pieces), Short replies
 * gasnet:
 *   am_medium     GASNet AM Medium requests, each with a Short reply
 *   am_long       GASNet AM Long requests into rank 1's segment, Short replies
 *   get, put      blocking gasnet_get, gasnet_put: no overlap     } once per
 *   get_nb, put_nb     gasnet_get_nb, gasnet_put_nb; wait_syncnb_all } RMA
 *   get_nbi, put_nbi   gasnet_get_nbi, gasnet_put_nbi; syncnbi      } path
 *   put_nbi_bulk  gasnet_put_nbi_bulk: the source need not be reusable  } (-P)
 *                 until the sync, so large puts need not wait for delivery
 */
#include "layers.h"

static char *lbuf;
static MPI_Request *win;       /* the MPI window */
static gasnet_handle_t *handles;

/* The i-th message's place in the window of depth: a mask where the
 * depth allows (the default 16), as a division costs more than an 8-byte
 * shm put, and some 10% of raw MPI's time per message. */
static long in_window(long i) { return depth & (depth - 1) ? i % depth : i & (depth - 1); }

/* The i-th message's slot in a segment. */
static char *slot(char *seg, long i, size_t n) { return seg + (size_t)in_window(i) * n; }

static void mpi_active(size_t n, long iters)
{
    for (int s = 0; s < depth; s++) win[s] = MPI_REQUEST_NULL;
    for (long i = 0; i < iters; i++) {
        MPI_Request *r = &win[in_window(i)];
        MPI_Wait(r, MPI_STATUS_IGNORE); /* no-op until the window is full */
        MPI_Isend(lbuf, (int)n, MPI_BYTE, PASSIVE, 1, raw_comm, r);
    }
    for (int s = 0; s < depth; s++) MPI_Wait(&win[s], MPI_STATUS_IGNORE);
    MPI_Recv(NULL, 0, MPI_BYTE, PASSIVE, 2, raw_comm, MPI_STATUS_IGNORE);
}

static void mpi_passive(size_t n, long iters)
{
    for (long i = 0; i < depth && i < iters; i++)
        MPI_Irecv(slot(lseg, i, n), (int)n, MPI_BYTE, ACTIVE, 1, raw_comm, &win[i]);
    for (long i = 0; i < iters; i++) {
        MPI_Wait(&win[in_window(i)], MPI_STATUS_IGNORE);
        if (i + depth < iters)
            MPI_Irecv(slot(lseg, i, n), (int)n, MPI_BYTE, ACTIVE, 1, raw_comm, &win[in_window(i)]);
    }
    MPI_Send(NULL, 0, MPI_BYTE, ACTIVE, 2, raw_comm);
}

static void ammpi_medium_active(size_t n, long iters)
{
    for (long i = 0; i < iters; i++) ammpi_request_medium(ep, PASSIVE, A_MREQ, lbuf, n, 0, NULL);
    ammpi_wait_replies(iters);
}

static void ammpi_long_active(size_t n, long iters)
{
    long expect = 0;
    for (long i = 0; i < iters; i++) expect += ammpi_long(lbuf, slot(rseg, i, n), n, 1);
    ammpi_wait_replies(expect);
}

static void am_medium_active(size_t n, long iters)
{
    for (long i = 0; i < iters; i++) gasnet_AMRequestMedium0(PASSIVE, G_BREQ, lbuf, n);
    GASNET_BLOCKUNTIL(g_replies == iters);
}

static void am_long_active(size_t n, long iters)
{
    for (long i = 0; i < iters; i++) gasnet_AMRequestLong0(PASSIVE, G_BREQ, lbuf, n, slot(rseg, i, n));
    GASNET_BLOCKUNTIL(g_replies == iters);
}

static void get_active(size_t n, long iters)
{
    for (long i = 0; i < iters; i++) gasnet_get(slot(lseg, i, n), PASSIVE, rseg, n);
}

static void put_active(size_t n, long iters)
{
    for (long i = 0; i < iters; i++) gasnet_put(PASSIVE, slot(rseg, i, n), lbuf, n);
}

static void get_nb_active(size_t n, long iters)
{
    for (long i = 0; i < iters; i++) handles[i] = gasnet_get_nb(slot(lseg, i, n), PASSIVE, rseg, n);
    gasnet_wait_syncnb_all(handles, (size_t)iters);
}

static void put_nb_active(size_t n, long iters)
{
    for (long i = 0; i < iters; i++) handles[i] = gasnet_put_nb(PASSIVE, slot(rseg, i, n), lbuf, n);
    gasnet_wait_syncnb_all(handles, (size_t)iters);
}

static void get_nbi_active(size_t n, long iters)
{
    for (long i = 0; i < iters; i++) gasnet_get_nbi(slot(lseg, i, n), PASSIVE, rseg, n);
    gasnet_wait_syncnbi_gets();
}

static void put_nbi_active(size_t n, long iters)
{
    for (long i = 0; i < iters; i++) gasnet_put_nbi(PASSIVE, slot(rseg, i, n), lbuf, n);
    gasnet_wait_syncnbi_puts();
}

static void put_nbi_bulk_active(size_t n, long iters)
{
    for (long i = 0; i < iters; i++) gasnet_put_nbi_bulk(PASSIVE, slot(rseg, i, n), lbuf, n);
    gasnet_wait_syncnbi_puts();
}

static const op_t ops[] = {
    {"mpi", L_MPI, mpi_active, mpi_passive, -1, 0},
    {"ammpi_medium", L_AMMPI, ammpi_medium_active, NULL, AMMPI_MAX_MEDIUM, 0},
    {"ammpi_long", L_AMMPI, ammpi_long_active, NULL, -1, 0},
    {"am_medium", L_GASNET, am_medium_active, NULL, (long)gasnet_AMMaxMedium(), 0},
    {"am_long", L_GASNET, am_long_active, NULL, (long)gasnet_AMMaxLongRequest(), 0},
    {"get", L_GASNET, get_active, NULL, -1, OP_RMA},
    {"put", L_GASNET, put_active, NULL, -1, OP_RMA},
    {"get_nb", L_GASNET, get_nb_active, NULL, -1, OP_RMA},
    {"put_nb", L_GASNET, put_nb_active, NULL, -1, OP_RMA},
    {"get_nbi", L_GASNET, get_nbi_active, NULL, -1, OP_RMA},
    {"put_nbi", L_GASNET, put_nbi_active, NULL, -1, OP_RMA},
    {"put_nbi_bulk", L_GASNET, put_nbi_bulk_active, NULL, -1, OP_RMA},
};
#define NOPS ((int)(sizeof ops / sizeof *ops))

static const bench_about_t about = {
    "Bandwidth and inverse throughput of every layer, interleaved in one job (see the\n"
    "top of bench/flood/flood.c and bench/layers.h). GASNET_NETWORKDEPTH sets the depth.",
    "mpi, ammpi, gasnet",
    "mpi, ammpi_medium, ammpi_long, am_medium, am_long, get, put, get_nb,\n"
    "      put_nb, get_nbi, put_nbi, put_nbi_bulk"};

int main(int argc, char **argv)
{
    bench_opts_t o;
    bench_parse(argc, argv, &o, &about);
    /* a slot per message in flight, on both ranks (puts land on rank 1,
     * gets on rank 0); the source is slot 0 of the sender */
    layers_start(&argc, &argv, &o, ops, NOPS, (uintptr_t)network_depth() * (uintptr_t)o.max_size);
    lbuf = lseg;
    win = malloc((size_t)depth * sizeof *win);
    handles = malloc((size_t)o.iters * sizeof *handles);
    if (!win || !handles) bench_die("out of memory");
    char settings[320];
    snprintf(settings, sizeof settings,
             "layers=%s ops=%s paths=%s iters=%ld knee=%ld min_iters=%ld reps=%d sizes=%ld..%ld "
             "depth=%d", o.layers, o.ops ? o.ops : "all", o.paths ? o.paths : "all", o.iters,
             o.knee, o.min_iters, o.reps, o.min_size, o.max_size, depth);
    FILE *csv = NULL;
    if (me == ACTIVE) {
        bench_describe(stdout, argc, argv, settings);
        csv = bench_csv_open(&o, argc, argv, settings,
                             "bench,op,path,size,step,depth,iters,reps,invtp_us_median,invtp_us_q1,"
                             "invtp_us_q3,invtp_us_min,invtp_us_max,mbps_median,mbps_q1,mbps_q3,"
                             "x_mpi_median,x_mpi_q1,x_mpi_q3,samples_us");
        printf("%-13s %-5s %8s %5s %7s %11s %11s %11s %10s   %s\n", "op", "path", "size", "depth",
               "iters", "median us", "q1 us", "q3 us", "MB/s", "x MPI time: median [q1, q3]");
    }
    for (long n = o.min_size; n <= o.max_size; n *= 2) {
        measure_size(&o, n);
        for (int j = 0; j < ncases && me == ACTIVE; j++) {
            const case_t *c = &cases[j];
            if (!c->ran) continue;
            bench_stat_t s = bench_stats(c->t, o.reps), x = mpi_ratio(c, o.reps);
            /* bandwidth quartiles come from the time quartiles, swapped */
            double bw = (double)n / s.med / MB, bw_q1 = (double)n / s.q3 / MB,
                   bw_q3 = (double)n / s.q1 / MB;
            printf("%-13s %-5s %8ld %5d %7ld %11.4f %11.4f %11.4f %10.1f   %.3f [%.3f, %.3f]\n",
                   c->op->name, case_path(c), n, depth, c->iters, s.med * 1e6, s.q1 * 1e6,
                   s.q3 * 1e6, bw, x.med, x.q1, x.q3);
            fflush(stdout);
            if (csv) {
                fprintf(csv, "flood,%s,%s,%ld,%ld,%d,%ld,%d,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,"
                        "%.4g,%.4g,%.4g,", c->op->name, case_path(c), n, n, depth, c->iters, o.reps,
                        s.med * 1e6, s.q1 * 1e6, s.q3 * 1e6, s.min * 1e6, s.max * 1e6, bw, bw_q1,
                        bw_q3, x.med, x.q1, x.q3);
                bench_csv_samples(csv, c->t, o.reps, 1e6);
                fprintf(csv, "\n");
            }
        }
    }
    if (csv) fclose(csv);
    layers_finish();
    return 0;
}
