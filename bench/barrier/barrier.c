/* barrier: the latency of one barrier on however many ranks the job has
 * (bench/run.sh runs it for 1, 2, ... ranks). All ranks run `iters`
 * barriers back to back in a timed loop, after a warm-up, -r times;
 * rank 0's time per barrier is reported (median and spread).
 *
 *   gasnet  gasnet_barrier_notify + gasnet_barrier_wait, anonymous; the
 *           algorithm is GASNET_BARRIER (AMDISSEM by default, or AMCENTRAL)
 *   mpi     MPI_Barrier on MPI_COMM_WORLD, for reference
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

static const struct {
    const char *name;
    void (*loop)(long iters);
} ops[] = {{"gasnet", gasnet_loop}, {"mpi", mpi_loop}};

int main(int argc, char **argv)
{
    bench_opts_t o;
    bench_parse(argc, argv, &o, "gasnet,mpi");
    if (gasnet_init(&argc, &argv) != GASNET_OK) bench_die("gasnet_init failed");
    if (gasnet_attach(NULL, 0, GASNET_PAGESIZE, 0) != GASNET_OK) bench_die("gasnet_attach failed");
    int me = (int)gasnet_mynode(), ranks = (int)gasnet_nodes();
    const char *algo = gasnet_getenv("GASNET_BARRIER");
    if (!algo) algo = "AMDISSEM"; /* the library's default */
    char settings[128];
    snprintf(settings, sizeof settings, "iters=%ld reps=%d ranks=%d", o.iters, o.reps, ranks);
    FILE *csv = NULL;
    if (me == 0) {
        bench_describe(stdout, argc, argv, settings);
        csv = bench_csv_open(&o, argc, argv, settings,
                             "bench,op,algorithm,ranks,iters,reps,lat_us_median,lat_us_min,"
                             "lat_us_max,samples_us");
    }
    for (size_t k = 0; k < sizeof ops / sizeof *ops; k++) {
        if (!bench_wants(&o, ops[k].name)) continue;
        const char *label = k == 0 ? algo : "MPI_Barrier";
        double t[o.reps];
        ops[k].loop(o.iters / 10 + 1);
        for (int r = 0; r < o.reps; r++) {
            MPI_Barrier(MPI_COMM_WORLD); /* start together */
            double t0 = bench_now();
            ops[k].loop(o.iters);
            t[r] = (bench_now() - t0) / (double)o.iters;
        }
        if (me != 0) continue;
        bench_stat_t s = bench_stats(t, o.reps);
        printf("%-7s %-12s ranks %3d iters %6ld  median %10.3f us  min %10.3f  max %10.3f\n",
               ops[k].name, label, ranks, o.iters, s.med * 1e6, s.min * 1e6, s.max * 1e6);
        fflush(stdout);
        if (csv) {
            fprintf(csv, "barrier,%s,%s,%d,%ld,%d,%.4f,%.4f,%.4f,", ops[k].name, label, ranks,
                    o.iters, o.reps, s.med * 1e6, s.min * 1e6, s.max * 1e6);
            bench_csv_samples(csv, t, o.reps, 1e6);
            fprintf(csv, "\n");
        }
    }
    if (csv) fclose(csv);
    gasnet_barrier_notify(0, GASNET_BARRIERFLAG_ANONYMOUS);
    gasnet_barrier_wait(0, GASNET_BARRIERFLAG_ANONYMOUS);
    gasnet_exit(0);
    return 0;
}
