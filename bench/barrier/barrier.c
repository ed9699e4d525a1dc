/* barrier: the latency of one barrier on however many ranks the job has
 * (bench/run.sh runs it for 1, 2, ... ranks). All ranks run `iters`
 * barriers back to back in a timed loop; each repetition times GASNet's
 * barrier and then MPI_Barrier, after a warm-up of each, and rank 0's
 * time per barrier is reported (median and quartiles), with the ratio to
 * MPI_Barrier taken per repetition. The layers (-l, default all):
 *
 *   gasnet  gasnet_barrier_notify + gasnet_barrier_wait, anonymous; the
 *           algorithm is GASNET_BARRIER (AMDISSEM, AMCENTRAL or SHM;
 *           unset: the library's default, labelled "default")
 *   mpi     MPI_Barrier on a communicator of its own. GASNet's endpoint
 *           is paused meanwhile: its posted MPI_ANY_SOURCE receives would
 *           slow MPI down (see bench/layers.h)
 */
#include "bench.h"
#include "gasnet_internal.h" /* gasnetc_ep */

#include <math.h>

static MPI_Comm raw_comm;
static int use_gasnet, use_mpi;

static void gasnet_loop(long iters)
{
    for (long i = 0; i < iters; i++) {
        gasnet_barrier_notify(0, GASNET_BARRIERFLAG_ANONYMOUS);
        gasnet_barrier_wait(0, GASNET_BARRIERFLAG_ANONYMOUS);
    }
}

static void mpi_loop(long iters)
{
    for (long i = 0; i < iters; i++) MPI_Barrier(raw_comm);
}

/* Seconds per barrier of one loop; both layers start together. */
static double timed(int gasnet, long iters)
{
    if (use_gasnet && !gasnet) bench_gasnet_live(gasnetc_ep, 0);
    MPI_Barrier(raw_comm);
    double t0 = bench_now();
    if (gasnet) gasnet_loop(iters);
    else mpi_loop(iters);
    double t = (bench_now() - t0) / (double)iters;
    if (use_gasnet && !gasnet) bench_gasnet_live(gasnetc_ep, 1);
    return t;
}

static void report(FILE *csv, const char *layer, const char *label, int ranks, const bench_opts_t *o,
                   const double *t, const double *mpi)
{
    bench_stat_t s = bench_stats(t, o->reps), x = {NAN, NAN, NAN, NAN, NAN};
    if (mpi) {
        double r[o->reps];
        for (int i = 0; i < o->reps; i++) r[i] = t[i] / mpi[i];
        x = bench_stats(r, o->reps);
    }
    printf("%-7s %-12s ranks %3d iters %6ld  median %10.3f us  q1 %10.3f  q3 %10.3f  x MPI %.3f "
           "[%.3f, %.3f]\n", layer, label, ranks, o->iters, s.med * 1e6, s.q1 * 1e6, s.q3 * 1e6,
           x.med, x.q1, x.q3);
    if (!csv) return;
    fprintf(csv, "barrier,%s,%s,%d,%ld,%d,%.6g,%.6g,%.6g,%.6g,%.6g,%.4g,%.4g,%.4g,", layer, label,
            ranks, o->iters, o->reps, s.med * 1e6, s.q1 * 1e6, s.q3 * 1e6, s.min * 1e6, s.max * 1e6,
            x.med, x.q1, x.q3);
    bench_csv_samples(csv, t, o->reps, 1e6);
    fprintf(csv, "\n");
}

static const bench_about_t about = {
    "Barrier latency on any number of ranks: GASNet's barrier and MPI_Barrier, interleaved\n"
    "in one job (see the top of bench/barrier/barrier.c). Of the options below, only\n"
    "-l, -n, -r and -c apply; the run takes any rank count.",
    "gasnet, mpi", "(none: the layers decide)"};

int main(int argc, char **argv)
{
    bench_opts_t o;
    bench_parse(argc, argv, &o, &about);
    bench_start_gasnet_mpi(o.layers, &use_gasnet, &use_mpi, &argc, &argv, 0);
    const char *label = "";
    if (use_gasnet) {
        label = getenv("GASNET_BARRIER");
        if (!label) label = "default"; /* SHM where the shm backend runs, else AMDISSEM */
    }
    MPI_Comm_dup(MPI_COMM_WORLD, &raw_comm);
    int me, ranks;
    MPI_Comm_rank(raw_comm, &me);
    MPI_Comm_size(raw_comm, &ranks);
    char settings[128];
    snprintf(settings, sizeof settings, "layers=%s iters=%ld reps=%d ranks=%d", o.layers, o.iters,
             o.reps, ranks);
    FILE *csv = NULL;
    if (me == 0) {
        bench_describe(stdout, argc, argv, settings);
        csv = bench_csv_open(&o, argc, argv, settings,
                             "bench,op,algorithm,ranks,iters,reps,lat_us_median,lat_us_q1,lat_us_q3,"
                             "lat_us_min,lat_us_max,x_mpi_median,x_mpi_q1,x_mpi_q3,samples_us");
    }
    double tg[o.reps], tm[o.reps];
    long warm = o.iters / 10 + 1;
    if (use_gasnet) timed(1, warm);
    if (use_mpi) timed(0, warm);
    for (int r = 0; r < o.reps; r++) {
        if (use_gasnet) tg[r] = timed(1, o.iters);
        if (use_mpi) tm[r] = timed(0, o.iters);
    }
    if (me == 0) {
        if (use_gasnet) report(csv, "gasnet", label, ranks, &o, tg, use_mpi ? tm : NULL);
        if (use_mpi) report(csv, "mpi", "MPI_Barrier", ranks, &o, tm, use_mpi ? tm : NULL);
        if (csv) fclose(csv);
    }
    MPI_Comm_free(&raw_comm);
    if (!use_gasnet) {
        MPI_Finalize();
        return 0;
    }
    gasnet_barrier_notify(0, GASNET_BARRIERFLAG_ANONYMOUS);
    gasnet_barrier_wait(0, GASNET_BARRIERFLAG_ANONYMOUS);
    gasnet_exit(0);
    return 0;
}
