/* flood: bandwidth and inverse throughput (the paper's section 4.1 and
 * figure 5). Rank 0 issues `iters` operations back to back, letting them
 * overlap as far as the layer allows, and synchronises once at the end;
 * rank 1 is passive and polls. Time per operation (inverse throughput) =
 * loop time / iters; bandwidth = size / time per operation, in MB/s with
 * MB = 2^20 bytes. As in pingpong, one untimed warm-up loop, then -r
 * repetitions: median and spread.
 *
 * The network depth (GASNET_NETWORKDEPTH, default 16) bounds what is in
 * flight: it is GASNet's and the ammpi endpoint's depth, and the MPI
 * window. Messages in flight land in distinct slots of the target's
 * segment (MPI forbids overlapping receive buffers). A job measures the
 * operations of one layer (-l, see layers.h):
 *
 * mpi:
 *   mpi           MPI_Isend with a window of `depth` requests (the oldest is
 *                 waited for when the window is full); rank 1 keeps `depth`
 *                 MPI_Irecv posted; a 0-byte message back ends the loop
 * ammpi:
 *   ammpi_medium  ammpi Medium requests (n <= 65000), each with a Short reply
 *   ammpi_long    ammpi async Long requests (1 MiB pieces), Short replies
 * gasnet:
 *   get, put      blocking gasnet_get, gasnet_put: no overlap
 *   get_nb, put_nb     gasnet_get_nb, gasnet_put_nb; gasnet_wait_syncnb_all
 *   get_nbi, put_nbi   gasnet_get_nbi, gasnet_put_nbi; gasnet_wait_syncnbi_*
 *   put_nbi_bulk  gasnet_put_nbi_bulk: the source need not be reusable until
 *                 the sync, so large puts need not wait for delivery
 */
#include "layers.h"

static char *lbuf;
static MPI_Request *win;       /* the MPI window */
static gasnet_handle_t *handles;

/* The i-th message's slot in a segment. */
static char *slot(char *seg, long i, size_t n) { return seg + (size_t)(i % depth) * n; }

static void mpi_active(size_t n, long iters)
{
    for (int s = 0; s < depth; s++) win[s] = MPI_REQUEST_NULL;
    for (long i = 0; i < iters; i++) {
        MPI_Request *r = &win[i % depth];
        MPI_Wait(r, MPI_STATUS_IGNORE); /* no-op until the window is full */
        MPI_Isend(lbuf, (int)n, MPI_BYTE, PASSIVE, 1, MPI_COMM_WORLD, r);
    }
    for (int s = 0; s < depth; s++) MPI_Wait(&win[s], MPI_STATUS_IGNORE);
    MPI_Recv(NULL, 0, MPI_BYTE, PASSIVE, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

static void mpi_passive(size_t n, long iters)
{
    for (long i = 0; i < depth && i < iters; i++)
        MPI_Irecv(slot(lseg, i, n), (int)n, MPI_BYTE, ACTIVE, 1, MPI_COMM_WORLD, &win[i]);
    for (long i = 0; i < iters; i++) {
        MPI_Wait(&win[i % depth], MPI_STATUS_IGNORE);
        if (i + depth < iters)
            MPI_Irecv(slot(lseg, i, n), (int)n, MPI_BYTE, ACTIVE, 1, MPI_COMM_WORLD, &win[i % depth]);
    }
    MPI_Send(NULL, 0, MPI_BYTE, ACTIVE, 2, MPI_COMM_WORLD);
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
    {"mpi", L_MPI, mpi_active, -1},
    {"ammpi_medium", L_AMMPI, ammpi_medium_active, AMMPI_MAX_MEDIUM},
    {"ammpi_long", L_AMMPI, ammpi_long_active, -1},
    {"get", L_GASNET, get_active, -1},
    {"put", L_GASNET, put_active, -1},
    {"get_nb", L_GASNET, get_nb_active, -1},
    {"put_nb", L_GASNET, put_nb_active, -1},
    {"get_nbi", L_GASNET, get_nbi_active, -1},
    {"put_nbi", L_GASNET, put_nbi_active, -1},
    {"put_nbi_bulk", L_GASNET, put_nbi_bulk_active, -1},
};
#define NOPS ((int)(sizeof ops / sizeof *ops))
#define OP_NAMES "mpi,ammpi_medium,ammpi_long,get,put,get_nb,put_nb,get_nbi,put_nbi,put_nbi_bulk"

int main(int argc, char **argv)
{
    bench_opts_t o;
    bench_parse(argc, argv, &o, OP_NAMES);
    /* a slot per message in flight, on both ranks (puts land on rank 1,
     * gets on rank 0); the source is slot 0 of the sender */
    layers_start(&argc, &argv, layer_arg(o.layer),
                 (uintptr_t)network_depth() * (uintptr_t)o.max_size, o.wildcards);
    check_ops(&o, ops, NOPS);
    lbuf = lseg;
    win = malloc((size_t)depth * sizeof *win);
    handles = malloc((size_t)o.iters * sizeof *handles);
    if (!win || !handles) bench_die("out of memory");
    char settings[256];
    snprintf(settings, sizeof settings,
             "layer=%s iters=%ld knee=%ld min_iters=%ld reps=%d sizes=%ld..%ld depth=%d "
             "wildcards=%d", o.layer, o.iters, o.knee, o.min_iters, o.reps, o.min_size,
             o.max_size, depth, o.wildcards);
    FILE *csv = NULL;
    if (me == ACTIVE) {
        bench_describe(stdout, argc, argv, settings);
        csv = bench_csv_open(&o, argc, argv, settings,
                             "bench,op,size,depth,iters,reps,invtp_us_median,invtp_us_min,"
                             "invtp_us_max,mbps_median,mbps_min,mbps_max,samples_us");
        printf("%-13s %8s %5s %7s %12s %12s %12s %10s\n", "op", "size", "depth", "iters",
               "median us", "min us", "max us", "MB/s");
    }
    for (long n = o.min_size; n <= o.max_size; n *= 2) {
        int sel[NOPS];
        double t[NOPS * o.reps];
        measure_size(&o, ops, NOPS, mpi_passive, n, sel, t);
        for (int k = 0; k < NOPS; k++) {
            if (!sel[k] || me != ACTIVE) continue;
            long iters = bench_iters(&o, n);
            bench_stat_t s = bench_stats(&t[k * o.reps], o.reps);
            double bw = (double)n / s.med / MB, bw_lo = (double)n / s.max / MB,
                   bw_hi = (double)n / s.min / MB;
            printf("%-13s %8ld %5d %7ld %12.3f %12.3f %12.3f %10.1f\n", ops[k].name, n, depth,
                   iters, s.med * 1e6, s.min * 1e6, s.max * 1e6, bw);
            fflush(stdout);
            if (csv) {
                fprintf(csv, "flood,%s,%ld,%d,%ld,%d,%.4f,%.4f,%.4f,%.2f,%.2f,%.2f,", ops[k].name,
                        n, depth, iters, o.reps, s.med * 1e6, s.min * 1e6, s.max * 1e6, bw, bw_lo,
                        bw_hi);
                bench_csv_samples(csv, &t[k * o.reps], o.reps, 1e6);
                fprintf(csv, "\n");
            }
        }
    }
    if (csv) fclose(csv);
    layers_finish();
    return 0;
}
