/* coll: the latency of a broadcast from rank 0 (operation bcast) and of a
 * reduction to all of doubles summed (allreduce; -o picks, default both),
 * of the broadcast from a buffer in the segment when -o names bcast_seg
 * (the shared-memory path reads the root's in place; MPI alone: a
 * private buffer), of gex_Coll_BarrierNB against MPI_Barrier when -o names
 * barrier (once, at the smallest size),
 * and, when -o names them, of the GASNet-1 gather_all and exchange
 * (blocks of the size from every rank) against MPI_Allgather and
 * MPI_Alltoall, on however many ranks the job has, for each size (powers
 * of two in [-s, -S]). Each repetition
 * times GASNet's broadcast and then MPI_Bcast, after a warm-up of each;
 * a loop runs `iters` broadcasts, each waited for and followed by an
 * untimed barrier (as in OSU's osu_bcast), and the time per broadcast is
 * the slowest rank's average (a broadcast is over when the last rank has
 * its data). Median and quartiles over the repetitions are reported,
 * with the ratio to MPI_Bcast taken per repetition (see bench/layers.h on
 * why only ratios within one job mean anything). The layers (-l, default
 * all):
 *
 *   gasnet  gex_Coll_BroadcastNB + gex_Event_Wait on the primordial team
 *           (gex_Coll_ReduceToAllNB for allreduce; gasnet_coll_gather_all
 *           and gasnet_coll_exchange on GASNET_TEAM_ALL, IN_MYSYNC and
 *           OUT_MYSYNC, private buffers)
 *   mpi     MPI_Bcast (MPI_Allreduce) on a communicator of its own. GASNet's endpoint is
 *           paused meanwhile: its posted MPI_ANY_SOURCE receives would
 *           slow MPI down (see bench/layers.h)
 */
#include "bench.h"
#include "gasnet_internal.h" /* gasnetc_ep */

#include <gasnet_coll.h>
#include <math.h>

static MPI_Comm raw_comm;
static int use_gasnet, use_mpi;
static gex_TM_t tm0;
static char *buf, *out, *seg; /* seg: in GASNet's segment, for bcast_seg */
enum { BCAST, ALLREDUCE, GATHER_ALL, EXCHANGE, BCAST_SEG, BARRIER, NOPS };
static const char *const op_names[NOPS] = {"bcast", "allreduce", "gather_all", "exchange",
                                           "bcast_seg", "barrier"};
static const char *const gasnet_labels[NOPS] = {"BroadcastNB", "ReduceToAllNB", "gather_all",
                                                "exchange", "BroadcastNB_seg", "BarrierNB"};
static const char *const mpi_labels[NOPS] = {"MPI_Bcast", "MPI_Allreduce", "MPI_Allgather",
                                             "MPI_Alltoall", "MPI_Bcast_seg", "MPI_Barrier"};
static int op; /* the operation being timed */
#define LEGACY_FLAGS (GASNET_COLL_LOCAL | GASNET_COLL_IN_MYSYNC | GASNET_COLL_OUT_MYSYNC)

/* Seconds spent in `iters` broadcasts on this rank. As OSU's osu_bcast
 * does, a barrier of the same layer follows each broadcast, outside the
 * timing, so that broadcasts do not pipeline into each other: each one
 * starts with every rank ready, and what is timed is its latency. */
static double gasnet_loop(long iters, size_t size)
{
    double t = 0;
    for (long i = 0; i < iters; i++) {
        double t0 = bench_now();
        switch (op) {
        case BCAST: gex_Event_Wait(gex_Coll_BroadcastNB(tm0, 0, buf, buf, size, 0)); break;
        case ALLREDUCE:
            gex_Event_Wait(gex_Coll_ReduceToAllNB(tm0, out, buf, GEX_DT_DBL, 8, size / 8, GEX_OP_ADD,
                                                  NULL, NULL, 0));
            break;
        case GATHER_ALL: gasnet_coll_gather_all(GASNET_TEAM_ALL, out, buf, size, LEGACY_FLAGS); break;
        case BCAST_SEG: gex_Event_Wait(gex_Coll_BroadcastNB(tm0, 0, seg, seg, size, 0)); break;
        case BARRIER: gex_Event_Wait(gex_Coll_BarrierNB(tm0, 0)); break;
        default: gasnet_coll_exchange(GASNET_TEAM_ALL, out, buf, size, LEGACY_FLAGS); break;
        }
        t += bench_now() - t0;
        gex_Event_Wait(gex_Coll_BarrierNB(tm0, 0));
    }
    return t;
}

static double mpi_loop(long iters, size_t size)
{
    double t = 0;
    for (long i = 0; i < iters; i++) {
        double t0 = bench_now();
        switch (op) {
        case BCAST: MPI_Bcast(buf, (int)size, MPI_BYTE, 0, raw_comm); break;
        case ALLREDUCE: MPI_Allreduce(buf, out, (int)(size / 8), MPI_DOUBLE, MPI_SUM, raw_comm); break;
        case GATHER_ALL: MPI_Allgather(buf, (int)size, MPI_BYTE, out, (int)size, MPI_BYTE, raw_comm); break;
        case BCAST_SEG: MPI_Bcast(seg ? seg : buf, (int)size, MPI_BYTE, 0, raw_comm); break;
        case BARRIER: MPI_Barrier(raw_comm); break;
        default: MPI_Alltoall(buf, (int)size, MPI_BYTE, out, (int)size, MPI_BYTE, raw_comm); break;
        }
        t += bench_now() - t0;
        MPI_Barrier(raw_comm);
    }
    return t;
}

/* Seconds per broadcast of one loop on the slowest rank; both layers
 * start together. */
static double timed(int gasnet, long iters, size_t size)
{
    if (use_gasnet && !gasnet) bench_gasnet_live(gasnetc_ep, 0);
    MPI_Barrier(raw_comm);
    double t = (gasnet ? gasnet_loop(iters, size) : mpi_loop(iters, size)) / (double)iters, slowest;
    if (use_gasnet && !gasnet) bench_gasnet_live(gasnetc_ep, 1);
    MPI_Allreduce(&t, &slowest, 1, MPI_DOUBLE, MPI_MAX, raw_comm);
    return slowest;
}

static void report(FILE *csv, const char *layer, const char *label, int ranks, long size,
                   long iters, const bench_opts_t *o, const double *t, const double *mpi)
{
    bench_stat_t s = bench_stats(t, o->reps), x = {NAN, NAN, NAN, NAN, NAN};
    if (mpi) {
        double r[o->reps];
        for (int i = 0; i < o->reps; i++) r[i] = t[i] / mpi[i];
        x = bench_stats(r, o->reps);
    }
    printf("%-7s %-14s ranks %3d size %8ld iters %6ld  median %10.3f us  q1 %10.3f  q3 %10.3f  "
           "x MPI %.3f [%.3f, %.3f]\n", layer, label, ranks, size, iters, s.med * 1e6, s.q1 * 1e6,
           s.q3 * 1e6, x.med, x.q1, x.q3);
    if (!csv) return;
    fprintf(csv, "coll,%s,%s,%d,%ld,%ld,%d,%.6g,%.6g,%.6g,%.6g,%.6g,%.4g,%.4g,%.4g,", layer, label,
            ranks, size, iters, o->reps, s.med * 1e6, s.q1 * 1e6, s.q3 * 1e6, s.min * 1e6,
            s.max * 1e6, x.med, x.q1, x.q3);
    bench_csv_samples(csv, t, o->reps, 1e6);
    fprintf(csv, "\n");
}

static const bench_about_t about = {
    "Broadcast latency from rank 0 on any number of ranks: gex_Coll_BroadcastNB and\n"
    "MPI_Bcast, and gex_Coll_ReduceToAllNB and MPI_Allreduce (doubles summed), interleaved\n"
    "in one job (see the top of bench/coll/coll.c). Of the options below, -P does not\n"
    "apply; the run takes any rank count.",
    "gasnet, mpi", "bcast, allreduce (the default), gather_all, exchange, bcast_seg, barrier"};

int main(int argc, char **argv)
{
    bench_opts_t o;
    bench_parse(argc, argv, &o, &about);
    if (o.max_size > INT32_MAX) bench_die("-S %ld: at most 2G (MPI_Bcast takes an int count)", o.max_size);
    int want_seg = o.ops && bench_in_list(o.ops, "bcast_seg");
    bench_start_gasnet_mpi(o.layers, &use_gasnet, &use_mpi, &argc, &argv,
                           want_seg ? (uintptr_t)o.max_size : 0);
    if (use_gasnet) {
        gex_Segment_t sg;
        gasnet_QueryGexObjects(NULL, NULL, &tm0, &sg);
        if (want_seg) seg = gex_Segment_QueryAddr(sg);
        gasnet_coll_init(NULL, 0, NULL, 0, 0); /* for gather_all and exchange */
    }
    MPI_Comm_dup(MPI_COMM_WORLD, &raw_comm);
    int me, ranks;
    MPI_Comm_rank(raw_comm, &me);
    MPI_Comm_size(raw_comm, &ranks);
    /* an exchange's src and a gather_all's or exchange's dst hold a block per rank */
    buf = malloc((size_t)o.max_size * (size_t)ranks);
    out = malloc((size_t)o.max_size * (size_t)ranks);
    if (!buf || !out) bench_die("out of memory for %ld bytes", o.max_size);
    memset(buf, me, (size_t)o.max_size * (size_t)ranks);
    memset(out, 0, (size_t)o.max_size * (size_t)ranks);
    if (seg) memset(seg, me, (size_t)o.max_size);
    char settings[160];
    snprintf(settings, sizeof settings, "layers=%s iters=%ld knee=%ld reps=%d ranks=%d sizes=%ld..%ld",
             o.layers, o.iters, o.knee, o.reps, ranks, o.min_size, o.max_size);
    FILE *csv = NULL;
    if (me == 0) {
        bench_describe(stdout, argc, argv, settings);
        csv = bench_csv_open(&o, argc, argv, settings,
                             "bench,layer,op,ranks,size,iters,reps,lat_us_median,lat_us_q1,lat_us_q3,"
                             "lat_us_min,lat_us_max,x_mpi_median,x_mpi_q1,x_mpi_q3,samples_us");
    }
    double tg[o.reps], tm[o.reps];
    for (op = 0; op < NOPS; op++) {
        if (o.ops ? !bench_in_list(o.ops, op_names[op]) : op > ALLREDUCE) continue;
        for (long size = o.min_size; size <= o.max_size; size *= 2) {
            if (op == ALLREDUCE && size < 8) continue;
            if (op == BARRIER && size > o.min_size) break; /* no payload: once */
            long iters = bench_iters(&o, size), warm = iters / 10 + 1;
            if (use_gasnet) timed(1, warm, (size_t)size);
            if (use_mpi) timed(0, warm, (size_t)size);
            for (int r = 0; r < o.reps; r++) {
                if (use_gasnet) tg[r] = timed(1, iters, (size_t)size);
                if (use_mpi) tm[r] = timed(0, iters, (size_t)size);
            }
            if (me == 0) {
                if (use_gasnet)
                    report(csv, "gasnet", gasnet_labels[op], ranks, size,
                           iters, &o, tg, use_mpi ? tm : NULL);
                if (use_mpi)
                    report(csv, "mpi", mpi_labels[op], ranks, size, iters, &o,
                           tm, tm);
            }
        }
    }
    if (csv) fclose(csv);
    free(buf);
    free(out);
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
