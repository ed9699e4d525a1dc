/* vis_strided: strided put bandwidth of gex_VIS_StridedPutNBI against
 * MPI_Put with an MPI_Type_vector datatype on a window, 2 ranks, in one
 * job.
 *
 * Rank 0 puts a section of `chunks` chunks of `elemsz` bytes, one in every
 * two chunk-sized slots (stride 2 * elemsz on both sides), into rank 1,
 * `iters` times per timed loop, then completes them (gex_NBI_Wait, or
 * MPI_Win_flush in a lock_all epoch). Each repetition times both back to
 * back, alternating which goes first; the bandwidth ratio GASNet/MPI is
 * taken per repetition and its median (with the quartiles) is reported
 * beside the median bandwidths. Rank 1 polls the library under test
 * (gasnet_AMPoll, or MPI_Iprobe alone) until rank 0 says a loop is over
 * (an MPI message). After the untimed warm-up of each size, rank 1 checks
 * both destinations. GASNet's AM layer keeps its wildcard receives posted
 * while MPI is timed.
 *
 * The RMA path is the job's (GASNET_RMA): bench/vis/run.sh runs it once on
 * the AM path and once with the default (shm between the ranks of a host).
 *
 *   vis_strided [-r reps] [-m MB moved per timed loop] [-b bytes,...] [-e elemsz,...]
 */
#include <gasnetex.h>
#include <gasnet_vis.h>
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define TAG_DONE 7001
#define MAXN 16

static gex_TM_t tm;
static gex_Rank_t me;

static void die(const char *msg)
{
    fprintf(stderr, "vis_strided: %s\n", msg);
    MPI_Abort(MPI_COMM_WORLD, 2);
}

/* "65536,1M" -> values; K and M suffixes */
static int parse_list(const char *s, long *out)
{
    int n = 0;
    while (*s && n < MAXN) {
        char *end;
        long v = strtol(s, &end, 10);
        if (*end == 'K' || *end == 'k') v *= 1024, end++;
        else if (*end == 'M' || *end == 'm') v *= 1048576, end++;
        if (v <= 0 || (*end && *end != ',')) die("bad list (want e.g. 65536,1M)");
        out[n++] = v;
        s = *end ? end + 1 : end;
    }
    return n;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The q-quantile (0..1) of v[0..n), by the nearest rank. */
static double quantile(double *v, int n, double q)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    int i = (int)(q * (n - 1) + 0.5);
    return v[i];
}

/* Rank 1: serve the library under test until rank 0 ends the loop (MPI
 * progresses in MPI_Iprobe). */
static void serve(int mpi)
{
    for (;;) {
        int flag = 0;
        if (!mpi) gasnet_AMPoll();
        MPI_Iprobe(0, TAG_DONE, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
        if (flag) {
            MPI_Recv(NULL, 0, MPI_BYTE, 0, TAG_DONE, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            return;
        }
    }
}

static void loop_done(void) { MPI_Send(NULL, 0, MPI_BYTE, 1, TAG_DONE, MPI_COMM_WORLD); }

static unsigned char pattern(long i, long elemsz) { return (unsigned char)(i * 13 + elemsz + 1); }

int main(int argc, char **argv)
{
    gex_Client_t client;
    gex_EP_t ep;
    gex_Segment_t seg;
    if (gex_Client_Init(&client, &ep, &tm, "vis_strided", &argc, &argv, 0) != GASNET_OK) return 1;
    me = gex_TM_QueryRank(tm);
    if (gex_TM_QuerySize(tm) != 2) die("run on 2 ranks");

    int reps = 11;
    long mb = 16, bytes[MAXN] = {65536, 1048576}, elems[MAXN] = {8, 64, 512, 4096};
    int nbytes = 2, nelems = 4, c;
    while ((c = getopt(argc, argv, "r:m:b:e:h")) != -1) {
        switch (c) {
        case 'r': reps = atoi(optarg); break;
        case 'm': mb = atol(optarg); break;
        case 'b': nbytes = parse_list(optarg, bytes); break;
        case 'e': nelems = parse_list(optarg, elems); break;
        default:
            if (me == 0)
                fprintf(stderr, "usage: vis_strided [-r reps (11)] [-m MB per timed loop (16)] "
                                "[-b bytes per put,... (64K,1M)] [-e elemsz,... (8,64,512,4096)]\n");
            MPI_Finalize();
            return c == 'h' ? 0 : 2;
        }
    }
    if (reps < 1 || mb < 1) die("-r and -m must be positive");
    long maxbytes = 0;
    for (int i = 0; i < nbytes; i++) maxbytes = bytes[i] > maxbytes ? bytes[i] : maxbytes;
    size_t span = 2 * (size_t)maxbytes; /* every other slot */
    size_t segsize = (span + GASNET_PAGESIZE - 1) / GASNET_PAGESIZE * GASNET_PAGESIZE;
    if (gex_Segment_Attach(&seg, tm, segsize) != GASNET_OK) die("gex_Segment_Attach failed");
    void *peer_seg, *mapped;
    gex_Segment_QueryBound(tm, 1 - me, &peer_seg, &mapped, NULL);
    unsigned char *gdst = gex_Segment_QueryAddr(seg), *src = malloc(span), *wbase;
    MPI_Win win;
    MPI_Win_allocate((MPI_Aint)span, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &wbase, &win);
    if (!src) die("out of memory");
    MPI_Win_lock_all(0, win);

    if (me == 0) {
        const char *rma = getenv("GASNET_RMA");
        printf("VIS strided put against MPI_Put(MPI_Type_vector), 2 ranks, GASNET_RMA=%s: the "
               "peer's segment is %s\n", rma ? rma : "(default)",
               mapped ? "mapped here (shm: direct copies)" : "not mapped (packed AMs or a network backend)");
        printf("each put: chunks of elemsz bytes in every other slot on both sides; %ld MB per "
               "timed loop; %d repetitions\n", mb, reps);
        printf("%10s %7s %8s %13s %11s %9s %18s\n", "bytes", "elemsz", "chunks", "GASNet MB/s",
               "MPI MB/s", "ratio", "[q1, q3]");
    }
    for (int b = 0; b < nbytes; b++)
        for (int e = 0; e < nelems; e++) {
            long elemsz = elems[e], chunks = bytes[b] / elemsz, total = chunks * elemsz;
            if (chunks < 1) continue;
            long iters = (mb * 1048576 + total - 1) / total;
            size_t count[1] = {(size_t)chunks};
            ptrdiff_t stride[1] = {2 * elemsz};
            MPI_Datatype vec;
            MPI_Type_vector((int)chunks, (int)elemsz, (int)(2 * elemsz), MPI_BYTE, &vec);
            MPI_Type_commit(&vec);
            for (long i = 0; i < 2 * total; i++) src[i] = pattern(i, elemsz);
            if (me == 1) memset(gdst, 0, span), memset(wbase, 0, span);
            MPI_Win_sync(win);
            MPI_Barrier(MPI_COMM_WORLD);
            double gbw[64], mbw[64], ratio[64];
            int nrep = reps < 64 ? reps : 64;
            for (int r = -1; r < nrep; r++) { /* r = -1: warm-up, checked */
                double bw[2];
                for (int k = 0; k < 2; k++) {
                    int mpi = (k + (r & 1)) & 1; /* alternate the order */
                    if (me == 1) {
                        serve(mpi);
                        continue;
                    }
                    long n = r < 0 ? 1 : iters;
                    double t0 = MPI_Wtime();
                    if (mpi) {
                        for (long i = 0; i < n; i++) MPI_Put(src, 1, vec, 1, 0, 1, vec, win);
                        MPI_Win_flush(1, win);
                    } else {
                        for (long i = 0; i < n; i++)
                            gex_VIS_StridedPutNBI(tm, 1, peer_seg, stride, src, stride, (size_t)elemsz,
                                                  count, 1, 0);
                        gex_NBI_Wait(GEX_EC_PUT, 0);
                    }
                    bw[mpi] = (double)total * (double)n / (MPI_Wtime() - t0) / 1048576.0;
                    loop_done();
                }
                if (r < 0 && me == 1) { /* both destinations hold the section, nothing else */
                    MPI_Win_sync(win);
                    for (long i = 0; i < 2 * total; i++) {
                        unsigned char want = (i / elemsz) % 2 ? 0 : pattern(i, elemsz);
                        if (gdst[i] != want || wbase[i] != want) {
                            fprintf(stderr, "vis_strided: byte %ld after the warm-up: GASNet %u, "
                                    "MPI %u, expected %u\n", i, gdst[i], wbase[i], want);
                            MPI_Abort(MPI_COMM_WORLD, 1);
                        }
                    }
                }
                if (r < 0) MPI_Barrier(MPI_COMM_WORLD);
                if (r >= 0 && me == 0) gbw[r] = bw[0], mbw[r] = bw[1], ratio[r] = bw[0] / bw[1];
            }
            MPI_Type_free(&vec);
            if (me == 0) {
                double q1 = quantile(ratio, nrep, 0.25), q3 = quantile(ratio, nrep, 0.75);
                printf("%10ld %7ld %8ld %13.0f %11.0f %9.2f     [%5.2f, %5.2f]\n", total, elemsz, chunks,
                       quantile(gbw, nrep, 0.5), quantile(mbw, nrep, 0.5), quantile(ratio, nrep, 0.5),
                       q1, q3);
                fflush(stdout);
            }
        }
    MPI_Win_unlock_all(win);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_free(&win);
    free(src);
    gasnet_exit(0);
    return 0;
}
