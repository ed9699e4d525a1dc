/* ratomic: the round trip of a remote fetch-and-add, GASNet-EX atomics
 * against MPI_Fetch_and_op, in the same job on 2 ranks.
 *
 * Rank 0 times `iters` back-to-back 64-bit fetch-and-adds on a word of
 * rank 1, waiting for each result: gex_AD_OpNB_I64(GEX_OP_FADD) + wait
 * on an atomic domain over the primordial team, and MPI_Fetch_and_op
 * (MPI_SUM) + MPI_Win_flush in a passive-target epoch (MPI_Win_lock_all)
 * on a window from MPI_Win_allocate. Each repetition times both, in an
 * order that alternates, so that both see the same machine state; the
 * ratio is GASNet's time over MPI's in that repetition, and the table's
 * ratio is the median of those ratios. Rank 1 polls GASNet (which also
 * drives MPI's progress) until rank 0 is done. Both counters are checked
 * at the end.
 *
 * The domain's mechanism comes from the environment: CPU atomics when
 * both ranks map each other's segments (the default on one host), the
 * target's handler otherwise (GASNET_RMA=am or GASNET_SUPERNODE_MAXSIZE=1).
 * bench/ratomic/run.sh runs both.
 *
 *   ratomic [-n iters] [-r reps] [-c file.csv]
 */
#include <gasnetex.h>
#include <gasnet_ratomic.h>

#include "bench.h"

#define FLAG_OFF 0
#define WORD_OFF 64

int main(int argc, char **argv)
{
    long iters = 2000;
    int reps = 15;
    const char *csv_path = NULL;
    static const struct option longopts[] = {{"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
    int c;
    while ((c = getopt_long(argc, argv, "n:r:c:h", longopts, NULL)) != -1) {
        switch (c) {
        case 'n': iters = bench_size_arg(optarg); break;
        case 'r': reps = (int)bench_size_arg(optarg); break;
        case 'c': csv_path = optarg; break;
        case 'h':
        default:
            fprintf(c == 'h' ? stdout : stderr,
                    "usage: %s [-n iters (2000)] [-r reps (15)] [-c file.csv]\n"
                    "The round trip of a remote fetch-and-add, gex_AD_OpNB_I64 against\n"
                    "MPI_Fetch_and_op, interleaved in one job on 2 ranks (bench/ratomic/README.md).\n",
                    argv[0]);
            return c == 'h' ? 0 : 2;
        }
    }
    if (iters < 1 || reps < 1) bench_die("-n and -r must be positive");

    gex_Client_t client;
    gex_EP_t ep;
    gex_TM_t tm;
    gex_Segment_t seg;
    if (gex_Client_Init(&client, &ep, &tm, "ratomic", &argc, &argv, 0) != GASNET_OK)
        bench_die("gex_Client_Init failed");
    if (gex_Segment_Attach(&seg, tm, GASNET_PAGESIZE) != GASNET_OK) bench_die("attach failed");
    gex_Rank_t me = gex_TM_QueryRank(tm);
    if (gex_TM_QuerySize(tm) != 2) bench_die("run on 2 ranks (this job has %u)", gex_TM_QuerySize(tm));
    char *mine = gex_Segment_QueryAddr(seg), *peer;
    if (gex_Segment_QueryBound(tm, 1 - me, (void **)&peer, NULL, NULL)) bench_die("no peer segment");
    memset(mine, 0, 128);

    gex_AD_t ad;
    gex_AD_Create(&ad, tm, GEX_DT_I64, GEX_OP_FADD | GEX_OP_GET | GEX_OP_SET, 0);
    int64_t *window;
    MPI_Win win;
    MPI_Win_allocate(sizeof(int64_t), sizeof(int64_t), MPI_INFO_NULL, MPI_COMM_WORLD, &window, &win);
    *window = 0;
    MPI_Win_fence(0, win); /* the window is zero everywhere */
    gex_Event_Wait(gex_Coll_BarrierNB(tm, 0)); /* so is the segment */

    /* which mechanism: an operation on the peer done before returning */
    int64_t v = 0;
    gex_Event_t ev = gex_AD_OpNB_I64(ad, &v, 1 - me, peer + WORD_OFF, GEX_OP_GET, 0, 0, 0);
    const char *mech = ev == GEX_EVENT_INVALID ? "cpu" : "handler";
    gex_Event_Wait(ev);
    gex_Event_Wait(gex_Coll_BarrierNB(tm, 0));

    if (me == 1) {
        int64_t flag = 0;
        while (!flag) {
            gasnet_AMPoll();
            gex_Event_Wait(gex_AD_OpNB_I64(ad, &flag, 1, mine + FLAG_OFF, GEX_OP_GET, 0, 0,
                                           GEX_FLAG_AD_ACQ));
        }
    } else {
        char settings[160];
        snprintf(settings, sizeof settings, "iters=%ld reps=%d mechanism=%s GASNET_RMA=%s", iters,
                 reps, mech, gasnet_getenv("GASNET_RMA") ? gasnet_getenv("GASNET_RMA") : "(default)");
        bench_describe(stdout, argc, argv, settings);
        MPI_Win_lock_all(0, win);
        const int64_t one = 1;
        int64_t got;
        double tg[reps], tmpi[reps], ratio[reps];
        long warm = iters / 10 + 1, total_g = 0, total_m = 0;
        for (long i = 0; i < warm; i++, total_g++, total_m++) {
            gex_Event_Wait(gex_AD_OpNB_I64(ad, &got, 1, peer + WORD_OFF, GEX_OP_FADD, 1, 0, 0));
            MPI_Fetch_and_op(&one, &got, MPI_INT64_T, 1, 0, MPI_SUM, win);
            MPI_Win_flush(1, win);
        }
        for (int r = 0; r < reps; r++) {
            for (int k = 0; k < 2; k++) {
                int gasnet_turn = (k == 0) == (r % 2 == 0);
                double t0 = bench_now();
                if (gasnet_turn) {
                    for (long i = 0; i < iters; i++)
                        gex_Event_Wait(gex_AD_OpNB_I64(ad, &got, 1, peer + WORD_OFF, GEX_OP_FADD,
                                                       1, 0, 0));
                    tg[r] = (bench_now() - t0) / (double)iters;
                } else {
                    for (long i = 0; i < iters; i++) {
                        MPI_Fetch_and_op(&one, &got, MPI_INT64_T, 1, 0, MPI_SUM, win);
                        MPI_Win_flush(1, win);
                    }
                    tmpi[r] = (bench_now() - t0) / (double)iters;
                }
            }
            ratio[r] = tg[r] / tmpi[r];
            total_g += iters;
            total_m += iters;
        }
        /* both counters saw every operation */
        int64_t gcount = -1, mcount = -1;
        gex_Event_Wait(gex_AD_OpNB_I64(ad, &gcount, 1, peer + WORD_OFF, GEX_OP_GET, 0, 0, 0));
        MPI_Fetch_and_op(NULL, &mcount, MPI_INT64_T, 1, 0, MPI_NO_OP, win);
        MPI_Win_flush(1, win);
        MPI_Win_unlock_all(win);
        if (gcount != total_g || mcount != total_m)
            bench_die("counters: GASNet %lld (expected %ld), MPI %lld (expected %ld)",
                      (long long)gcount, total_g, (long long)mcount, total_m);
        gex_Event_Wait(gex_AD_OpNB_I64(ad, NULL, 1, peer + FLAG_OFF, GEX_OP_SET, 1, 0,
                                       GEX_FLAG_AD_REL));

        bench_stat_t sg = bench_stats(tg, reps), sm = bench_stats(tmpi, reps),
                     sr = bench_stats(ratio, reps);
        printf("\nfetch-and-add round trip, 2 ranks, atomic domain mechanism: %s\n", mech);
        printf("%-28s %10s %10s %10s\n", "", "median", "min", "max");
        printf("%-28s %10.3f %10.3f %10.3f\n", "gex_AD_OpNB_I64 FADD (us)", sg.med * 1e6,
               sg.min * 1e6, sg.max * 1e6);
        printf("%-28s %10.3f %10.3f %10.3f\n", "MPI_Fetch_and_op (us)", sm.med * 1e6,
               sm.min * 1e6, sm.max * 1e6);
        printf("%-28s %10.4f %10.4f %10.4f\n", "ratio GASNet/MPI", sr.med, sr.min, sr.max);
        printf("(ratio: the median of the %d per-repetition ratios; %ld operations each)\n", reps,
               iters);
        if (csv_path) {
            FILE *f = fopen(csv_path, "w");
            if (!f) bench_die("cannot write %s", csv_path);
            bench_describe(f, argc, argv, settings);
            fprintf(f, "bench,mechanism,iters,reps,gasnet_us_median,mpi_us_median,ratio_median,"
                       "ratio_min,ratio_max,gasnet_us,mpi_us\n");
            fprintf(f, "ratomic,%s,%ld,%d,%.4f,%.4f,%.4f,%.4f,%.4f,", mech, iters, reps,
                    sg.med * 1e6, sm.med * 1e6, sr.med, sr.min, sr.max);
            bench_csv_samples(f, tg, reps, 1e6);
            fprintf(f, ",");
            bench_csv_samples(f, tmpi, reps, 1e6);
            fprintf(f, "\n");
            fclose(f);
        }
        fflush(stdout);
    }
    MPI_Win_free(&win);
    gex_Event_Wait(gex_Coll_BarrierNB(tm, 0));
    gex_AD_Destroy(ad);
    gasnet_exit(0);
}
