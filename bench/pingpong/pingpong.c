/* pingpong: round-trip latency (the paper's section 4.1 and figure 4).
 * Rank 0 starts an operation and waits for it to complete, `iters` times
 * in a timed loop; the time per iteration is one round trip. Rank 1 is
 * passive and polls. Each loop runs once untimed (warm-up), then -r times;
 * the median and the spread of the repetitions are reported. A job
 * measures the operations of one layer (-l, see layers.h):
 *
 * mpi:
 *   mpi           MPI_Send of n bytes, answered by a 0-byte MPI_Send
 * ammpi:
 *   ammpi_short   ammpi Short request answered by a Short reply (no payload)
 *   ammpi_medium  ammpi Medium request of n bytes (n <= 65000), Short reply
 *   ammpi_long    ammpi Long request of n bytes into rank 1's segment (split
 *                 into 1 MiB pieces above that), a Short reply per piece
 * gasnet:
 *   am_short      GASNet AM Short request answered by a Short reply
 *   get, put      blocking gasnet_get, gasnet_put
 *   get_nb, put_nb     explicit handle: initiate, then gasnet_wait_syncnb
 *   get_nbi, put_nbi   implicit handle: initiate, then gasnet_wait_syncnbi_*
 * Short messages carry no payload: they are measured once, as size 0.
 */
#include "layers.h"

static char *lbuf, *rbuf; /* local source or destination; the remote one */

static void mpi_active(size_t n, long iters)
{
    for (long i = 0; i < iters; i++) {
        MPI_Send(lbuf, (int)n, MPI_BYTE, PASSIVE, 1, MPI_COMM_WORLD);
        MPI_Recv(NULL, 0, MPI_BYTE, PASSIVE, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
}

static void mpi_passive(size_t n, long iters)
{
    for (long i = 0; i < iters; i++) {
        MPI_Recv(lbuf, (int)n, MPI_BYTE, ACTIVE, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(NULL, 0, MPI_BYTE, ACTIVE, 2, MPI_COMM_WORLD);
    }
}

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
        gasnet_AMRequestShort0(PASSIVE, G_REQ);
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
    {"mpi", L_MPI, mpi_active, -1},
    {"ammpi_short", L_AMMPI, ammpi_short_active, 0},
    {"ammpi_medium", L_AMMPI, ammpi_medium_active, AMMPI_MAX_MEDIUM},
    {"ammpi_long", L_AMMPI, ammpi_long_active, -1},
    {"am_short", L_GASNET, am_short_active, 0},
    {"get", L_GASNET, get_active, -1},
    {"put", L_GASNET, put_active, -1},
    {"get_nb", L_GASNET, get_nb_active, -1},
    {"put_nb", L_GASNET, put_nb_active, -1},
    {"get_nbi", L_GASNET, get_nbi_active, -1},
    {"put_nbi", L_GASNET, put_nbi_active, -1},
};
#define NOPS ((int)(sizeof ops / sizeof *ops))
#define OP_NAMES "mpi,ammpi_short,ammpi_medium,ammpi_long,am_short,get,put,get_nb,put_nb,get_nbi,put_nbi"

int main(int argc, char **argv)
{
    bench_opts_t o;
    bench_parse(argc, argv, &o, OP_NAMES);
    layers_start(&argc, &argv, layer_arg(o.layer), (uintptr_t)o.max_size, o.wildcards);
    check_ops(&o, ops, NOPS);
    lbuf = lseg;
    rbuf = rseg;
    char settings[256];
    snprintf(settings, sizeof settings,
             "layer=%s iters=%ld knee=%ld min_iters=%ld reps=%d sizes=%ld..%ld depth=%d "
             "wildcards=%d", o.layer, o.iters, o.knee, o.min_iters, o.reps, o.min_size,
             o.max_size, depth, o.wildcards);
    FILE *csv = NULL;
    if (me == ACTIVE) {
        bench_describe(stdout, argc, argv, settings);
        csv = bench_csv_open(&o, argc, argv, settings,
                             "bench,op,size,iters,reps,lat_us_median,lat_us_min,lat_us_max,samples_us");
        printf("%-13s %8s %7s %12s %12s %12s\n", "op", "size", "iters", "median us", "min us",
               "max us");
    }
    for (long n = o.min_size; n <= o.max_size; n *= 2) {
        int sel[NOPS];
        double t[NOPS * o.reps];
        measure_size(&o, ops, NOPS, mpi_passive, n, sel, t);
        for (int k = 0; k < NOPS; k++) {
            if (!sel[k] || me != ACTIVE) continue;
            long size = op_size(&ops[k], n);
            bench_stat_t s = bench_stats(&t[k * o.reps], o.reps);
            printf("%-13s %8ld %7ld %12.3f %12.3f %12.3f\n", ops[k].name, size,
                   bench_iters(&o, size), s.med * 1e6, s.min * 1e6, s.max * 1e6);
            fflush(stdout);
            if (csv) {
                fprintf(csv, "pingpong,%s,%ld,%ld,%d,%.4f,%.4f,%.4f,", ops[k].name, size,
                        bench_iters(&o, size), o.reps, s.med * 1e6, s.min * 1e6, s.max * 1e6);
                bench_csv_samples(csv, &t[k * o.reps], o.reps, 1e6);
                fprintf(csv, "\n");
            }
        }
    }
    if (csv) fclose(csv);
    layers_finish();
    return 0;
}
