/* barrier: the latency of one barrier on however many ranks the job has
 * (bench/run.sh runs it for 1, 2, ... ranks). All ranks run `iters`
 * barriers back to back in a timed loop, after a warm-up, -r times;
 * rank 0's time per barrier is reported (median and spread). The layer:
 *
 *   -l gasnet  gasnet_barrier_notify + gasnet_barrier_wait, anonymous; the
 *              algorithm is GASNET_BARRIER (AMDISSEM by default, or AMCENTRAL)
 *   -l mpi     MPI_Barrier on MPI_COMM_WORLD, for reference, in a job
 *              without GASNet (whose posted receives would slow MPI down)
 */
#include "bench.h"

static void gasnet_loop(long iters)
{
    for (long i = 0; i < iters; i++) {
        gasnet_barrier_notify(0, GASNET_BARRIERFLAG_ANONYMOUS);
        gasnet_barrier_wait(0, GASNET_BARRIERFLAG_ANONYMOUS);
    }
}

static void mpi_loop(long iters)
{
    for (long i = 0; i < iters; i++) MPI_Barrier(MPI_COMM_WORLD);
}

int main(int argc, char **argv)
{
    bench_opts_t o;
    bench_parse(argc, argv, &o, "(none: the layer decides)");
    int use_gasnet = !strcmp(o.layer, "gasnet");
    if (!use_gasnet && strcmp(o.layer, "mpi")) bench_die("-l %s: use gasnet or mpi", o.layer);
    const char *label = "MPI_Barrier";
    if (use_gasnet) {
        if (gasnet_init(&argc, &argv) != GASNET_OK) bench_die("gasnet_init failed");
        if (gasnet_attach(NULL, 0, GASNET_PAGESIZE, 0) != GASNET_OK)
            bench_die("gasnet_attach failed");
        label = gasnet_getenv("GASNET_BARRIER");
        if (!label) label = "AMDISSEM"; /* the library's default */
    } else {
        MPI_Init(&argc, &argv);
    }
    void (*loop)(long) = use_gasnet ? gasnet_loop : mpi_loop;
    int me, ranks;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &ranks);
    char settings[128];
    snprintf(settings, sizeof settings, "layer=%s iters=%ld reps=%d ranks=%d", o.layer, o.iters,
             o.reps, ranks);
    FILE *csv = NULL;
    if (me == 0) {
        bench_describe(stdout, argc, argv, settings);
        csv = bench_csv_open(&o, argc, argv, settings,
                             "bench,op,algorithm,ranks,iters,reps,lat_us_median,lat_us_min,"
                             "lat_us_max,samples_us");
    }
    double t[o.reps];
    loop(o.iters / 10 + 1); /* warm-up */
    for (int r = 0; r < o.reps; r++) {
        MPI_Barrier(MPI_COMM_WORLD); /* start together */
        double t0 = bench_now();
        loop(o.iters);
        t[r] = (bench_now() - t0) / (double)o.iters;
    }
    if (me == 0) {
        bench_stat_t s = bench_stats(t, o.reps);
        printf("%-7s %-12s ranks %3d iters %6ld  median %10.3f us  min %10.3f  max %10.3f\n",
               o.layer, label, ranks, o.iters, s.med * 1e6, s.min * 1e6, s.max * 1e6);
        if (csv) {
            fprintf(csv, "barrier,%s,%s,%d,%ld,%d,%.4f,%.4f,%.4f,", o.layer, label, ranks, o.iters,
                    o.reps, s.med * 1e6, s.min * 1e6, s.max * 1e6);
            bench_csv_samples(csv, t, o.reps, 1e6);
            fprintf(csv, "\n");
            fclose(csv);
        }
    }
    if (!use_gasnet) {
        MPI_Finalize();
        return 0;
    }
    gasnet_barrier_notify(0, GASNET_BARRIERFLAG_ANONYMOUS);
    gasnet_barrier_wait(0, GASNET_BARRIERFLAG_ANONYMOUS);
    gasnet_exit(0);
    return 0;
}
