/* bcast_parts: where a broadcast's time goes, for ranks on one host. As in
 * bench/coll/coll (OSU's method), each broadcast from rank 0 follows a
 * barrier of the same layer; here every rank also notes, on the host's
 * one clock (CLOCK_MONOTONIC), when it left the barrier and when the
 * broadcast was over for it, and rank 0 when its call returned. Reported
 * per layer, medians over the iterations (the first tenth left out):
 *
 *   root call     rank 0's gex_Coll_BroadcastNB (MPI: the whole MPI_Bcast)
 *   root done     rank 0, barrier to broadcast over
 *   skew          how much later the slowest rank left the barrier than
 *                 rank 0 (negative: earlier)
 *   rank done     that rank, barrier to broadcast over: what
 *                 bench/coll counts
 *   after root    that rank's broadcast over, from rank 0's leaving the
 *                 barrier: the latency with the barrier's skew taken out
 *
 * A barrier releases its members at different times, and which one first
 * depends on the algorithm: OSU's figure for a rank includes how much
 * sooner than the root it got going. The slowest rank is the one whose
 * "rank done" is largest. GASNet's endpoint is paused while MPI runs, as in
 * bench/coll. */
#include "bench.h"
#include "gasnet_internal.h" /* gasnetc_ep */

#include <gasnet_coll.h>
#include <time.h>

enum { LEFT, CALLED, OVER, NSTAMP };

static double clock_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static double median(double *v, long n)
{
    qsort(v, (size_t)n, sizeof *v, bench_cmp);
    return v[n / 2];
}

/* Runs iters broadcasts of size bytes on the layer, stamping each. */
static void run(int gasnet, gex_TM_t tm, MPI_Comm comm, char *buf, long size, long iters, double *st)
{
    for (long i = 0; i < iters; i++) {
        double *s = st + i * NSTAMP;
        if (gasnet) {
            gex_Event_Wait(gex_Coll_BarrierNB(tm, 0));
            s[LEFT] = clock_ns();
            gex_Event_t e = gex_Coll_BroadcastNB(tm, 0, buf, buf, (size_t)size, 0);
            s[CALLED] = clock_ns();
            gex_Event_Wait(e);
        } else {
            MPI_Barrier(comm);
            s[LEFT] = clock_ns();
            MPI_Bcast(buf, (int)size, MPI_BYTE, 0, comm);
            s[CALLED] = clock_ns();
        }
        s[OVER] = clock_ns();
    }
}

static void report(const char *layer, int ranks, long size, long iters, const double *all)
{
    long from = iters / 10, n = iters - from;
    double *v = malloc((size_t)n * sizeof *v);
    if (!v) bench_die("out of memory");
    double parts[5] = {0};
    int slowest = 0;
    for (int r = 1; r < ranks; r++) { /* the rank with the largest median "rank done" */
        for (long i = 0; i < n; i++) {
            const double *s = all + ((size_t)r * (size_t)iters + (size_t)(from + i)) * NSTAMP;
            v[i] = s[OVER] - s[LEFT];
        }
        double d = median(v, n);
        if (r == 1 || d > parts[3]) {
            parts[3] = d;
            slowest = r;
        }
    }
    for (int k = 0; k < 5; k++) {
        if (k == 3) continue;
        for (long i = 0; i < n; i++) {
            const double *s0 = all + (size_t)(from + i) * NSTAMP;
            const double *s = all + ((size_t)slowest * (size_t)iters + (size_t)(from + i)) * NSTAMP;
            v[i] = k == 0   ? s0[CALLED] - s0[LEFT]
                   : k == 1 ? s0[OVER] - s0[LEFT]
                   : k == 2 ? s[LEFT] - s0[LEFT]
                            : s[OVER] - s0[LEFT];
        }
        parts[k] = median(v, n);
    }
    printf("%-7s size %6ld ranks %3d  root call %8.3f us  root done %8.3f us  rank %d: skew %8.3f us  "
           "rank done %8.3f us  after root %8.3f us\n",
           layer, size, ranks, parts[0] / 1e3, parts[1] / 1e3, slowest, parts[2] / 1e3,
           parts[3] / 1e3, parts[4] / 1e3);
    free(v);
}

static const bench_about_t about = {
    "Where a broadcast's time goes on one host: rank 0's call, the barrier's skew\n"
    "and the latency without it, gex_Coll_BroadcastNB against MPI_Bcast (see the top\n"
    "of bench/coll/bcast_parts.c). Sizes from -s to -S; -r, -k, -m, -o, -P, -c do not apply.",
    "gasnet, mpi", "bcast"};

int main(int argc, char **argv)
{
    bench_opts_t o;
    bench_parse(argc, argv, &o, &about);
    if (o.max_size > INT32_MAX) bench_die("-S %ld: at most 2G (MPI_Bcast takes an int count)", o.max_size);
    int use_gasnet, use_mpi;
    bench_start_gasnet_mpi(o.layers, &use_gasnet, &use_mpi, &argc, &argv, 0);
    gex_TM_t tm = NULL;
    if (use_gasnet) gasnet_QueryGexObjects(NULL, NULL, &tm, NULL);
    MPI_Comm comm, host;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    int me, ranks, on_host;
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &ranks);
    MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &host);
    MPI_Comm_size(host, &on_host);
    if (on_host != ranks) bench_die("bcast_parts compares clocks: every rank must be on one host");
    if (ranks < 2) bench_die("bcast_parts needs at least 2 ranks");
    char *buf = calloc(1, (size_t)o.max_size);
    double *st = malloc((size_t)o.iters * NSTAMP * sizeof *st);
    double *all = me == 0 ? malloc((size_t)ranks * (size_t)o.iters * NSTAMP * sizeof *all) : NULL;
    if (!buf || !st || (me == 0 && !all)) bench_die("out of memory");
    if (me == 0) {
        char settings[160];
        snprintf(settings, sizeof settings, "layers=%s iters=%ld ranks=%d sizes=%ld..%ld", o.layers,
                 o.iters, ranks, o.min_size, o.max_size);
        bench_describe(stdout, argc, argv, settings);
    }
    for (long size = o.min_size; size <= o.max_size; size *= 2) {
        for (int gasnet = 1; gasnet >= 0; gasnet--) {
            if (gasnet ? !use_gasnet : !use_mpi) continue;
            /* GASNet's posted receives would slow MPI down (bench/layers.h) */
            if (!gasnet && use_gasnet) bench_gasnet_live(gasnetc_ep, 0);
            run(gasnet, tm, comm, buf, size, o.iters / 10 + 1, st); /* warm-up */
            run(gasnet, tm, comm, buf, size, o.iters, st);
            if (!gasnet && use_gasnet) bench_gasnet_live(gasnetc_ep, 1);
            MPI_Gather(st, (int)(o.iters * NSTAMP), MPI_DOUBLE, all, (int)(o.iters * NSTAMP),
                       MPI_DOUBLE, 0, comm);
            if (me == 0) report(gasnet ? "gasnet" : "mpi", ranks, size, o.iters, all);
        }
    }
    free(buf);
    free(st);
    free(all);
    MPI_Comm_free(&host);
    MPI_Comm_free(&comm);
    if (!use_gasnet) {
        MPI_Finalize();
        return 0;
    }
    gasnet_exit(0);
    return 0;
}
