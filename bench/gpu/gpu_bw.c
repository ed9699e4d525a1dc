/* gpu_bw: put and get bandwidth between device segments of two ranks of
 * one host, against the copy engine's own bandwidth measured in the same
 * job (seed 003, issue 13).
 *
 * Each rank creates a memory kind (CUDA_UVA device 0, or the emulated
 * class of the tests with -k emulated), an endpoint and a device segment
 * of 2 x the largest size (a source half and a destination half; rank 1
 * brings its own memory from cudaMalloc, rank 0 lets GASNet allocate it),
 * binds and publishes it, and names the peer's with a TM-pair. Rank 0 then
 * times, for each size, `iters` transfers and their completion:
 *
 *   put_d2d   gex_RMA_PutNBI, its device memory to rank 1's, then gex_NBI_Wait
 *   get_d2d   gex_RMA_GetNBI, rank 1's device memory to its own
 *   put_h2d   a host buffer to rank 1's device memory
 *   get_d2h   rank 1's device memory to a host buffer
 *   cuda_ipc  cudaMemcpy into rank 1's memory opened by cudaIpcOpenMemHandle,
 *             then cudaDeviceSynchronize: the peer copy our IPC path makes,
 *             without the library (one GPU: a peer is another process)
 *   cuda_h2d  cudaMemcpy from the same (pageable) host buffer into it
 *   cuda_d2h  cudaMemcpy from rank 1's source half to the host buffer
 *   cuda_local  cudaMemcpy device to device within rank 0's own memory
 *
 * The cuda_ operations are the ceilings: put_d2d and get_d2d are compared
 * with cuda_ipc, put_h2d with cuda_h2d, get_d2h with cuda_d2h (where CUDA
 * IPC does not work, the cuda_ copies stay in rank 0's own memory). Every
 * repetition runs each operation once (after a short untimed run of it:
 * the GPU's clocks drop while the staged paths keep it idle), starting one
 * further along the list each time; the ratio of each operation's
 * bandwidth to its ceiling's is taken within the repetition, and the
 * medians (and quartiles) are reported. Which path the library takes is the job's: the default (shm:
 * rank 1's segment is imported through CUDA IPC and the put is one copy),
 * GASNET_RMA=am (staged through host buffers over shared-memory AMs) or
 * GASNET_SUPERNODE_MAXSIZE=1 (staged over MPI); -L names it in the output.
 * Rank 1 serves (polls) until rank 0 says a size is done, then checks that
 * the last put left the right bytes in its memory.
 *
 *   gpu_bw [-k cuda|emulated] [-L label] [-r reps] [-m MB per timed loop]
 *          [-s min_size] [-S max_size] [-c file.csv]
 */
#include <gasnetex.h>
#include <gasnet_mk.h>
#include <mpi.h>

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef BENCH_CUDART
#include <cuda_runtime_api.h>
#endif

#define TAG_DONE 7101
#define MAXREPS 64

static gex_Rank_t me;
static int use_cuda;

static void die(const char *fmt, const char *arg)
{
    fprintf(stderr, "gpu_bw: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
}

#ifdef BENCH_CUDART
static void cu(cudaError_t rc, const char *what)
{
    if (rc == cudaSuccess) return;
    fprintf(stderr, "gpu_bw: node %u: %s: %s\n", (unsigned)me, what, cudaGetErrorString(rc));
    MPI_Abort(MPI_COMM_WORLD, 2);
}
#endif

static long size_arg(const char *s)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (*end == 'K' || *end == 'k')
        v *= 1024, end++;
    else if (*end == 'M' || *end == 'm')
        v *= 1048576, end++;
    if (*end || v <= 0) die("bad size '%s'", s);
    return v;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}
static double quantile(const double *v, int n, double q) /* v sorted */
{
    double pos = q * (n - 1);
    int i = (int)pos;
    return i + 1 < n ? v[i] + (pos - i) * (v[i + 1] - v[i]) : v[i];
}

/* ---- the rig */

static gex_TM_t pair;
static char *lsrc, *ldst;       /* my device segment's halves */
static char *rsrc, *rdst;       /* rank 1's, in its address space */
static char *hbuf;              /* a host buffer of max bytes */
static char *ipc_src, *ipc_dst; /* rank 1's halves, opened here (CUDA IPC) */

/* Reads device memory of this rank into host memory: the client's own copy
 * (cudaMemcpy), or for the emulated class a loopback get. */
static void dev_read(void *host, const void *dev, size_t n)
{
#ifdef BENCH_CUDART
    if (use_cuda) {
        cu(cudaMemcpy(host, dev, n, cudaMemcpyDeviceToHost), "cudaMemcpy to the host");
        return;
    }
#endif
    gex_RMA_GetBlocking(pair, host, me, (void *)dev, n, 0);
}
static void dev_write(void *dev, const void *host, size_t n)
{
#ifdef BENCH_CUDART
    if (use_cuda) {
        cu(cudaMemcpy(dev, host, n, cudaMemcpyHostToDevice), "cudaMemcpy from the host");
        return;
    }
#endif
    gex_RMA_PutBlocking(pair, me, dev, (void *)host, n, 0);
}

static unsigned char pattern(size_t i, unsigned seed)
{
    return (unsigned char)(i * 131 + seed * 7 + (i >> 9));
}

/* ---- the operations (rank 0) */

enum { PUT_D2D, GET_D2D, PUT_H2D, GET_D2H, CUDA_IPC, CUDA_H2D, CUDA_D2H, CUDA_LOCAL, NOPS };
static const char *op_names[NOPS] = {"put_d2d",  "get_d2d",  "put_h2d",  "get_d2h",
                                     "cuda_ipc", "cuda_h2d", "cuda_d2h", "cuda_local"};
static const int ceiling[NOPS] = {CUDA_IPC, CUDA_IPC, CUDA_H2D, CUDA_D2H,
                                  CUDA_IPC, CUDA_H2D, CUDA_D2H, CUDA_IPC};

static void run_op(int op, size_t n, long iters)
{
    for (long i = 0; i < iters; i++)
        switch (op) {
        case PUT_D2D: gex_RMA_PutNBI(pair, 1, rdst, lsrc, n, GEX_EVENT_DEFER, 0); break;
        case GET_D2D: gex_RMA_GetNBI(pair, ldst, 1, rsrc, n, 0); break;
        case PUT_H2D: gex_RMA_PutNBI(pair, 1, rdst, hbuf, n, GEX_EVENT_DEFER, 0); break;
        case GET_D2H: gex_RMA_GetNBI(pair, hbuf, 1, rsrc, n, 0); break;
#ifdef BENCH_CUDART
        case CUDA_IPC:
            cu(cudaMemcpy(ipc_dst, lsrc, n, cudaMemcpyDeviceToDevice), "cudaMemcpy ipc");
            break;
        case CUDA_H2D: cu(cudaMemcpy(ipc_dst, hbuf, n, cudaMemcpyHostToDevice), "cudaMemcpy h2d"); break;
        case CUDA_D2H: cu(cudaMemcpy(hbuf, ipc_src, n, cudaMemcpyDeviceToHost), "cudaMemcpy d2h"); break;
        case CUDA_LOCAL:
            cu(cudaMemcpy(ldst, lsrc, n, cudaMemcpyDeviceToDevice), "cudaMemcpy local");
            break;
#endif
        }
    if (op >= CUDA_IPC) {
#ifdef BENCH_CUDART
        cu(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
#endif
    } else
        gex_NBI_Wait(GEX_EC_ALL, 0);
}

/* Rank 1: poll until rank 0 says this size is done. */
static void serve(void)
{
    for (;;) {
        int flag = 0;
        gasnet_AMPoll();
        MPI_Iprobe(0, TAG_DONE, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
        if (flag) break;
    }
    int seed;
    MPI_Recv(&seed, 1, MPI_INT, 0, TAG_DONE, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

int main(int argc, char **argv)
{
    const char *kind_name = "cuda", *label = "default", *csv = NULL;
    int reps = 5;
    long mb = 64, min_size = 4096, max_size = 64L << 20;
    static const struct option longopts[] = {{"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
    int ch;
    while ((ch = getopt_long(argc, argv, "k:L:r:m:s:S:c:h", longopts, NULL)) != -1)
        switch (ch) {
        case 'k': kind_name = optarg; break;
        case 'L': label = optarg; break;
        case 'r': reps = atoi(optarg); break;
        case 'm': mb = size_arg(optarg); break;
        case 's': min_size = size_arg(optarg); break;
        case 'S': max_size = size_arg(optarg); break;
        case 'c': csv = optarg; break;
        case 'h':
        default:
            fprintf(
                ch == 'h' ? stdout : stderr,
                "usage: %s [-k cuda|emulated] [-L label] [-r reps] [-m MB] [-s min] [-S max] [-c "
                "file.csv]\n"
                "Device-to-device put/get bandwidth between two ranks' device segments, and\n"
                "host to device, against cudaMemcpy in the same job (see the top of gpu_bw.c).\n"
                "Run it on 2 ranks of one host through launch/gasnetrun_mpi (bench/gpu/run.sh).\n"
                "  -k  the memory class: cuda (CUDA_UVA device 0, default) or emulated (tests' class)\n"
                "  -L  the path's name in the output (default \"default\")\n"
                "  -r  repetitions (5, at most %d)   -m  MB moved per timed loop (64)\n"
                "  -s, -S  sizes: powers of four from min to max (4K, 64M)\n"
                "  -c  also write CSV rows to this file\n",
                argv[0], MAXREPS);
            exit(ch == 'h' ? 0 : 2);
        }
    if (reps < 1 || reps > MAXREPS || min_size > max_size) {
        fprintf(stderr, "gpu_bw: bad -r, -s or -S\n");
        exit(2);
    }
    use_cuda = !strcmp(kind_name, "cuda");
    if (!use_cuda && strcmp(kind_name, "emulated")) {
        fprintf(stderr, "gpu_bw: -k %s: cuda or emulated\n", kind_name);
        exit(2);
    }
#ifndef BENCH_CUDART
    if (use_cuda) {
        fprintf(stderr, "gpu_bw: built without the CUDA runtime: only -k emulated\n");
        exit(2);
    }
#endif

    gex_Client_t client;
    gex_EP_t ep0, ep;
    gex_TM_t world;
    gex_Segment_t seg;
    gex_Client_Init(&client, &ep0, &world, "gpu_bw", &argc, &argv, 0);
    me = gex_TM_QueryRank(world);
    if (gex_TM_QuerySize(world) != 2) die("%s", "run it on 2 ranks");
    gex_MK_Create_args_t a;
    memset(&a, 0, sizeof a);
    a.gex_class = use_cuda ? GEX_MK_CLASS_CUDA_UVA : GASNETI_MK_CLASS_EMULATED;
    gex_MK_t kind;
    if (gex_MK_Create(&kind, client, &a, 0) != GASNET_OK) die("%s", "gex_MK_Create failed");
    size_t seglen = 2 * (size_t)max_size;
    void *mine = NULL;
#ifdef BENCH_CUDART
    if (use_cuda && me == 1) cu(cudaMalloc(&mine, seglen), "cudaMalloc");
#endif
    if (gex_Segment_Create(&seg, client, mine, seglen, kind, 0) != GASNET_OK)
        die("%s", "gex_Segment_Create failed");
    if (gex_EP_Create(&ep, client, GEX_EP_CAPABILITY_RMA, 0) != GASNET_OK ||
        gex_EP_BindSegment(ep, seg, 0) != GASNET_OK ||
        gex_EP_PublishBoundSegment(world, &ep, 1, 0) != GASNET_OK)
        die("%s", "creating, binding or publishing the endpoint failed");
    pair = gex_TM_Pair(ep, gex_EP_QueryIndex(ep));
    lsrc = gex_Segment_QueryAddr(seg);
    ldst = lsrc + max_size;
    void *base;
    if (gex_Segment_QueryBound(pair, 1 - me, &base, NULL, NULL))
        die("%s", "the peer's segment is unknown");
    rsrc = base;
    rdst = rsrc + max_size;
    hbuf = malloc(max_size);
    unsigned char *chk = malloc(max_size);
    if (!hbuf || !chk) die("%s", "out of memory");
    for (long i = 0; i < max_size; i++)
        hbuf[i] = (char)pattern(i, me + 1);
    dev_write(lsrc, hbuf, max_size); /* each rank's source half: pattern seed me+1 */
#ifdef BENCH_CUDART
    if (use_cuda) { /* the raw IPC ceiling: rank 1's destination half, opened by rank 0 */
        struct {
            cudaIpcMemHandle_t h;
            int rc;
        } m;
        memset(&m, 0, sizeof m);
        if (me == 1) m.rc = cudaIpcGetMemHandle(&m.h, mine);
        MPI_Bcast(&m, sizeof m, MPI_BYTE, 1, MPI_COMM_WORLD);
        void *p = NULL;
        if (me == 0 && m.rc == cudaSuccess)
            m.rc = cudaIpcOpenMemHandle(&p, m.h, cudaIpcMemLazyEnablePeerAccess);
        ipc_src = lsrc, ipc_dst = ldst;
        if (me == 0 && m.rc == cudaSuccess)
            ipc_src = p, ipc_dst = (char *)p + max_size;
        else if (me == 0) /* a host where CUDA IPC does not work */
            printf("# gpu_bw: no CUDA IPC here (%s): the cuda_ copies stay in rank 0's memory\n",
                   cudaGetErrorString((cudaError_t)m.rc));
    }
#endif
    MPI_Barrier(MPI_COMM_WORLD);

    FILE *out = NULL;
    if (me == 0) {
        printf("# gpu_bw: %s class, path %s; MB = 2^20 bytes; x_ceiling = bandwidth / its ceiling's "
               "(cuda_ipc, _h2d, _d2h), per repetition\n",
               use_cuda ? "CUDA_UVA" : "emulated", label);
        printf("%-8s %-10s %10s %6s %11s %11s %9s %19s\n", "path", "op", "size", "iters", "us/op",
               "MB/s", "x_ceiling", "[q1, q3]");
        if (csv && !(out = fopen(csv, "a"))) die("cannot open %s", csv);
        if (out && ftell(out) == 0)
            fprintf(out, "bench,class,path,op,size,iters,reps,us_median,mbps_median,x_ceiling_median,x_"
                         "ceiling_q1,x_ceiling_q3\n");
    }
    int ops[NOPS], nops = 0; /* the operations this job measures */
    for (int op = 0; op < NOPS; op++)
        if (op < CUDA_IPC || use_cuda) ops[nops++] = op;
    for (long n = min_size; n <= max_size; n *= 4) {
        long iters = mb * 1048576 / n;
        if (iters > 2000) iters = 2000;
        if (iters < 3) iters = 3;
        if (me == 1) {
            serve();
            /* the last put_d2d/put_h2d left rank 0's source pattern here */
            dev_read(chk, ldst, n); /* my destination half */
            for (long i = 0; i < n; i++)
                if (chk[i] != pattern(i, 1)) {
                    fprintf(stderr,
                            "gpu_bw: node 1: byte %ld of %ld in my destination is %u, expected %u\n", i,
                            n, chk[i], pattern(i, 1));
                    MPI_Abort(MPI_COMM_WORLD, 3);
                }
            MPI_Barrier(MPI_COMM_WORLD);
            continue;
        }
        double t[NOPS][MAXREPS], x[NOPS][MAXREPS];
        for (int r = 0; r < reps; r++) {
            for (int k = 0; k < nops; k++) {
                int op = ops[(k + r) % nops];
                run_op(op, n, 1 + iters / 20);
                double t0 = MPI_Wtime();
                run_op(op, n, iters);
                t[op][r] = (MPI_Wtime() - t0) / iters;
            }
            for (int k = 0; k < nops; k++)
                x[ops[k]][r] = use_cuda ? t[ceiling[ops[k]]][r] / t[ops[k]][r] : 0;
        }
        /* the last operations: a get of rank 1's source, then a put of mine */
        gex_RMA_GetBlocking(pair, ldst, 1, rsrc, n, 0);
        dev_read(chk, ldst, n);
        for (long i = 0; i < n; i++)
            if (chk[i] != pattern(i, 2)) {
                fprintf(stderr, "gpu_bw: node 0: byte %ld of %ld got is %u, expected %u\n", i, n, chk[i],
                        pattern(i, 2));
                MPI_Abort(MPI_COMM_WORLD, 3);
            }
        gex_RMA_PutBlocking(pair, 1, rdst, lsrc, n, 0);
        int seed = 1;
        MPI_Send(&seed, 1, MPI_INT, 1, TAG_DONE, MPI_COMM_WORLD);
        for (int k = 0; k < nops; k++) {
            int op = ops[k];
            qsort(t[op], reps, sizeof(double), cmp_double);
            qsort(x[op], reps, sizeof(double), cmp_double);
            double us = quantile(t[op], reps, 0.5) * 1e6, mbps = n / (us * 1e-6) / 1048576;
            double xm = quantile(x[op], reps, 0.5), x1 = quantile(x[op], reps, 0.25),
                   x3 = quantile(x[op], reps, 0.75);
            if (use_cuda)
                printf("%-8s %-10s %10ld %6ld %11.2f %11.0f %9.3f    [%.3f, %.3f]\n", label,
                       op_names[op], n, iters, us, mbps, xm, x1, x3);
            else /* no ceiling without CUDA */
                printf("%-8s %-10s %10ld %6ld %11.2f %11.0f %9s %19s\n", label, op_names[op], n, iters,
                       us, mbps, "-", "-");
            if (out)
                fprintf(out, "gpu_bw,%s,%s,%s,%ld,%ld,%d,%.3f,%.1f,%.4f,%.4f,%.4f\n",
                        use_cuda ? "CUDA_UVA" : "emulated", label, op_names[op], n, iters, reps, us,
                        mbps, xm, x1, x3);
        }
        fflush(stdout);
        MPI_Barrier(MPI_COMM_WORLD);
    }
    if (out) fclose(out);
    MPI_Barrier(MPI_COMM_WORLD);
    if (me == 0) printf("gpu_bw: ok (data checked at every size)\n");
    gasnet_exit(0);
    return 0;
}
