/* The three layers the ping-pong and flood benchmarks compare; a job of
 * two ranks measures one of them (-l), started alone:
 *   mpi    plain MPI point-to-point on MPI_COMM_WORLD (MPI_Init only);
 *   ammpi  an ammpi endpoint on MPI_COMM_WORLD, driven through the ammpi
 *          API (MPI_Init and ammpi_open, no GASNet);
 *   gasnet the GASNet-1 API (SEQ), with nothing else open.
 * One layer per job because they disturb each other: ammpi preposts its
 * header receives with MPI_ANY_SOURCE, and under MPICH/UCX every message
 * the process receives is matched against every such receive posted, so
 * an endpoint left open slows all other traffic (see results/README.md).
 * Rank 0 is active: it times. Rank 1 is passive: it serves requests by
 * polling the layer under test until rank 0 says the loop is over. ammpi
 * and GASNet use the same network depth, GASNET_NETWORKDEPTH (default 16,
 * as in the library), which the MPI flood also uses as its window. */
#ifndef BENCH_LAYERS_H
#define BENCH_LAYERS_H

#include "bench.h"
#include "ammpi.h"

enum { L_MPI, L_AMMPI, L_GASNET };
#define ACTIVE 0
#define PASSIVE 1

static int me, depth;
static char *lseg, *rseg; /* my segment and the peer's */
static uintptr_t segsize;
static ammpi_ep_t *ep;

/* ---- ammpi handlers: a request is answered by a Short reply, which
 * rank 0 counts; A_DONE ends the passive rank's polling. */
enum { A_DONE = 1, A_SREQ, A_MREQ, A_LREQ, A_REP };
static volatile long a_replies, a_done;

static void a_done_h(ammpi_token_t t) { (void)t; a_done = 1; }
static void a_sreq_h(ammpi_token_t t) { ammpi_reply_short(t, A_REP, 0, NULL); }
static void a_bulk_h(ammpi_token_t t, void *buf, size_t n)
{
    (void)buf;
    (void)n;
    ammpi_reply_short(t, A_REP, 0, NULL);
}
static void a_rep_h(ammpi_token_t t) { (void)t; a_replies++; }

/* ---- GASNet client handlers: the same pattern for AM Short. */
enum { G_DONE = 200, G_REQ, G_REP };
static volatile long g_replies, g_done;

static void g_done_h(gasnet_token_t t) { (void)t; g_done = 1; }
static void g_req_h(gasnet_token_t t) { gasnet_AMReplyShort0(t, G_REP); }
static void g_rep_h(gasnet_token_t t) { (void)t; g_replies++; }

/* The network depth GASNet will use; readable before gasnet_init (the
 * launcher forwards GASNET_* variables to every rank). */
static int network_depth(void)
{
    const char *d = getenv("GASNET_NETWORKDEPTH");
    return d ? atoi(d) : 16;
}

static const char *const layer_names[] = {"mpi", "ammpi", "gasnet"};

static int layer_arg(const char *name)
{
    for (int l = L_MPI; l <= L_GASNET; l++)
        if (!strcmp(name, layer_names[l])) return l;
    bench_die("unknown layer '%s': use mpi, ammpi or gasnet", name);
    return -1;
}

static int the_layer;

/* -w: receives posted with MPI_ANY_SOURCE on a communicator of their own,
 * where nothing is ever sent: the shape of an ammpi endpoint's preposted
 * header receives, without the endpoint. */
static MPI_Comm idle_comm = MPI_COMM_NULL;
static MPI_Request *idle_reqs;
static int n_idle;
static char idle_buf[64];

static void post_wildcards(int n)
{
    n_idle = n;
    MPI_Comm_dup(MPI_COMM_WORLD, &idle_comm);
    idle_reqs = malloc((size_t)n * sizeof *idle_reqs);
    if (n && !idle_reqs) bench_die("out of memory");
    for (int i = 0; i < n; i++) /* one buffer: these receives never complete */
        MPI_Irecv(idle_buf, (int)sizeof idle_buf, MPI_BYTE, MPI_ANY_SOURCE, 1, idle_comm,
                  &idle_reqs[i]);
}

/* Starts the layer with a buffer of `bytes` on each rank: GASNet's
 * segment, or memory of our own that the ammpi endpoint registers as its
 * segment. Learns the peer's address of it. */
static void layers_start(int *argc, char ***argv, int layer, uintptr_t bytes, int wildcards)
{
    the_layer = layer;
    depth = network_depth();
    segsize = (bytes + GASNET_PAGESIZE - 1) / GASNET_PAGESIZE * GASNET_PAGESIZE;
    if (layer == L_GASNET) {
        if (gasnet_init(argc, argv) != GASNET_OK) bench_die("gasnet_init failed");
        gasnet_handlerentry_t table[] = {{G_DONE, (void (*)())g_done_h},
                                         {G_REQ, (void (*)())g_req_h},
                                         {G_REP, (void (*)())g_rep_h}};
        if (gasnet_attach(table, 3, segsize, 0) != GASNET_OK) bench_die("gasnet_attach failed");
        gasnet_seginfo_t si[2];
        gasnet_getSegmentInfo(si, 2);
        lseg = si[gasnet_mynode()].addr;
    } else {
        MPI_Init(argc, argv);
        if (posix_memalign((void **)&lseg, GASNET_PAGESIZE, segsize)) bench_die("out of memory");
        memset(lseg, 0, segsize); /* touch it now, not in a timed loop */
    }
    int nranks;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    if (nranks != 2) bench_die("run with exactly 2 ranks (one active, one passive)");
    MPI_Sendrecv(&lseg, sizeof lseg, MPI_BYTE, 1 - me, 0, &rseg, sizeof rseg, MPI_BYTE, 1 - me,
                 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (wildcards && layer != L_MPI) bench_die("-w is for the mpi layer");
    if (wildcards) post_wildcards(wildcards);
    if (layer != L_AMMPI) return;

    ammpi_config_t cfg;
    ammpi_config_default(&cfg);
    cfg.depth = depth;
    if (!getenv("AMMPI_CREDITS_PP")) cfg.credits_pp = depth; /* as GASNet does */
    const char *spin = getenv("GASNET_SPIN_POLLS");
    if (spin) cfg.spin_polls = atoi(spin);
    if (ammpi_open(&ep, MPI_COMM_WORLD, &cfg) != AMMPI_OK) bench_die("ammpi_open failed");
    ammpi_set_handler(ep, A_DONE, (ammpi_handler_fn)a_done_h);
    ammpi_set_handler(ep, A_SREQ, (ammpi_handler_fn)a_sreq_h);
    ammpi_set_handler(ep, A_MREQ, (ammpi_handler_fn)a_bulk_h);
    ammpi_set_handler(ep, A_LREQ, (ammpi_handler_fn)a_bulk_h);
    ammpi_set_handler(ep, A_REP, (ammpi_handler_fn)a_rep_h);
    ammpi_set_segment(ep, lseg, segsize);
}

static void layers_finish(void)
{
    if (the_layer == L_GASNET) {
        gasnet_barrier_notify(0, GASNET_BARRIERFLAG_ANONYMOUS);
        gasnet_barrier_wait(0, GASNET_BARRIERFLAG_ANONYMOUS);
        gasnet_exit(0);
    }
    if (ep) ammpi_close(ep);
    for (int i = 0; i < n_idle; i++) {
        MPI_Cancel(&idle_reqs[i]);
        MPI_Wait(&idle_reqs[i], MPI_STATUS_IGNORE);
    }
    if (idle_comm != MPI_COMM_NULL) MPI_Comm_free(&idle_comm);
    MPI_Finalize();
}

/* Rank 0 waits, polling the endpoint, until `target` replies have come. */
static void ammpi_wait_replies(long target)
{
    int idle = 0;
    while (a_replies < target) ammpi_poll_wait(ep, &idle);
}

/* An ammpi Long request of n bytes from src to dst in rank 1's segment,
 * split into pieces of at most AMMPI_MAX_LONG_REQUEST (as GASNet's puts
 * are); async: the source is not reused before the replies come.
 * Returns the number of replies to expect. */
static long ammpi_long(char *src, char *dst, size_t n, int async)
{
    long pieces = 0;
    for (size_t off = 0; off < n; off += AMMPI_MAX_LONG_REQUEST, pieces++) {
        size_t len = n - off < AMMPI_MAX_LONG_REQUEST ? n - off : AMMPI_MAX_LONG_REQUEST;
        int rc = async ? ammpi_request_long_async(ep, PASSIVE, A_LREQ, src + off, len, dst + off, 0, NULL)
                       : ammpi_request_long(ep, PASSIVE, A_LREQ, src + off, len, dst + off, 0, NULL);
        if (rc != AMMPI_OK) bench_die("ammpi Long request failed (%d)", rc);
    }
    return pieces;
}

/* One timed loop. Both ranks call it: rank 0 runs `active` and returns
 * the elapsed seconds; rank 1 serves the layer until rank 0 is done (for
 * MPI it runs `passive`, which knows how many messages to expect). */
typedef void (*loop_fn)(size_t n, long iters);

static double timed_loop(int layer, loop_fn active, loop_fn passive, size_t n, long iters)
{
    a_done = g_done = 0;
    a_replies = g_replies = 0;
    MPI_Barrier(MPI_COMM_WORLD); /* both layers are quiet here: start together */
    if (me == ACTIVE) {
        double t0 = bench_now();
        active(n, iters);
        double t = bench_now() - t0;
        if (layer == L_AMMPI) ammpi_request_short(ep, PASSIVE, A_DONE, 0, NULL);
        if (layer == L_GASNET) gasnet_AMRequestShort0(PASSIVE, G_DONE);
        return t;
    }
    if (layer == L_MPI) {
        passive(n, iters);
    } else if (layer == L_AMMPI) {
        int idle = 0;
        while (!a_done) ammpi_poll_wait(ep, &idle);
    } else {
        GASNET_BLOCKUNTIL(g_done);
    }
    return 0;
}

/* An operation under test: its rank-0 loop and the largest size it
 * takes (-1: any; 0: none, a message without payload, measured once as
 * size 0 at the first size of the sweep). */
typedef struct {
    const char *name;
    int layer;
    loop_fn active;
    long max_size;
} op_t;

static long op_size(const op_t *op, long n) { return op->max_size == 0 ? 0 : n; }

/* Dies unless -o names only operations of the job's layer (or none). */
static void check_ops(const bench_opts_t *o, const op_t *ops, int nops)
{
    int any = 0;
    for (int k = 0; k < nops; k++) {
        if (!bench_wants(o, ops[k].name)) continue;
        if (o->ops && ops[k].layer != the_layer)
            bench_die("-o %s: %s is not an operation of layer %s (-l)", o->ops, ops[k].name,
                      layer_names[the_layer]);
        any |= ops[k].layer == the_layer;
    }
    if (!any) bench_die("-o %s: no operation of layer %s", o->ops ? o->ops : "(all)",
                        layer_names[the_layer]);
}

/* Measures every selected op at size n: one warm-up loop each, then the
 * repetitions, interleaved across the ops so that a change in the
 * machine's load hits them alike and their ratios stay meaningful.
 * sel[k]: op k ran; t[k * reps + r]: seconds per iteration. */
static void measure_size(const bench_opts_t *o, const op_t *ops, int nops, loop_fn passive,
                         long n, int *sel, double *t)
{
    for (int k = 0; k < nops; k++)
        sel[k] = ops[k].layer == the_layer && bench_wants(o, ops[k].name) &&
                 (ops[k].max_size == 0 ? n == o->min_size
                                       : ops[k].max_size < 0 || n <= ops[k].max_size);
    for (int r = -1; r < o->reps; r++) { /* r = -1: warm-up */
        for (int k = 0; k < nops; k++) {
            if (!sel[k]) continue;
            long size = op_size(&ops[k], n), iters = bench_iters(o, size);
            if (r < 0) iters = iters / 10 + 1;
            double sec = timed_loop(ops[k].layer, ops[k].active, passive, (size_t)size, iters);
            if (r >= 0) t[k * o->reps + r] = sec / (double)iters;
        }
    }
}

#endif
