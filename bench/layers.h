/* The layers the ping-pong and flood benchmarks compare, measured in one
 * job of two ranks, interleaved. This VM's latency jumps between states
 * (MPI's 8-byte round trip 0.25 or 1.2 us) and the state can change
 * between jobs, so only ratios taken within one job mean anything: each
 * repetition runs every operation once, in turn (starting one further
 * along the list each time), and the ratio to raw MPI is taken per
 * repetition; its median and quartiles are reported. The layers (-l):
 *
 *   mpi     MPI point-to-point on a communicator of its own
 *   floor   the two ranks bouncing one cache line in shared memory
 *           (MPI_Win_allocate_shared): the physical limit of an on-node
 *           round trip; measured where both ranks share a host. Also the
 *           rings' floor: the shared-memory AM rings' protocol alone
 *           (an entry each way, no software around it)
 *   ammpi   an ammpi endpoint of the benchmark's own, driven through the
 *           ammpi API (no GASNet in between)
 *   gasnet  the GASNet-1 API (SEQ). Puts and gets run once per RMA path:
 *           am (every put and get an active message) and the backend that
 *           GASNET_RMA chose for the peer (shm on one host); both ranks
 *           switch between loops with gasneti_rma_force_am
 *           (core-native/rma.h); check_paths makes sure a put over am is
 *           an active message. -P am_nopack (only when named) adds the am
 *           path with packing of small NB/NBI puts and gets turned off
 *           (gasnete_pack_enable), to compare the two in one job.
 *           GASNet's AMs between two ranks of one host go through shared
 *           memory unless GASNET_SHM_AM=no (fixed at start-up: bench/run.sh
 *           runs a job each way).
 *
 * Endpoints not under test are paused. Under MPICH/UCX every message the
 * process receives, on any communicator, is compared with each
 * MPI_ANY_SOURCE receive posted, and both ammpi endpoints (GASNet's and
 * ours) prepost such receives: an endpoint left open slows every other
 * layer. So before each loop both ranks pause the endpoints of the other
 * layers (ammpi_pause_receives) and resume the one under test. The
 * operation mpi_with_gasnet measures raw MPI with GASNet's endpoint
 * running, as an application that mixes the two sees it.
 *
 * Rank 0 is active: it times. Rank 1 is passive: it runs the operation's
 * passive loop (mpi, floor) or polls the layer until rank 0 says the loop
 * is over. ammpi and GASNet use the same network depth,
 * GASNET_NETWORKDEPTH (default 16, as in the library), which the MPI
 * flood also uses as its window. Every layer uses the same buffers:
 * GASNet's segment (memory of our own in a job without GASNet), which is
 * also our ammpi endpoint's segment.
 *
 * Memory per rank: the buffers the program asks for (pingpong: the
 * largest size; flood: depth x the largest size, 64 MiB by default), one
 * time per repetition for each case, and one shared cache line.
 *
 * Adding an operation (a GASNet-EX twin of a GASNet-1 call, say) is one
 * loop function and one entry in the program's op table; a job measures
 * it beside everything else, and bench/report.sh can take any two rows'
 * per-repetition ratio (ex_NAME against NAME by itself).
 */
#ifndef BENCH_LAYERS_H
#define BENCH_LAYERS_H

#include "bench.h"
#include "ammpi.h"
#include "gasnet_internal.h" /* gasnetc_ep: GASNet's endpoint, paused like ours */
#include "rma.h"             /* gasneti_rma_for, gasneti_rma_force_am */
#include "shmam.h"           /* the rings' entries, for the rings' floor */

#include <math.h>
#include <sched.h>
#include <stdatomic.h>

enum { L_MPI, L_FLOOR, L_AMMPI, L_GASNET, NLAYERS };
static const char *const layer_names[NLAYERS] = {"mpi", "floor", "ammpi", "gasnet"};
#define LAYER_LIST "mpi, floor, ammpi, gasnet"
#define ACTIVE 0
#define PASSIVE 1

static int me, depth;
static char *lseg, *rseg; /* my segment and the peer's */
static uintptr_t segsize;
static MPI_Comm raw_comm = MPI_COMM_NULL; /* raw MPI's own communicator */
static ammpi_ep_t *ep;                    /* our ammpi endpoint */
static int started[NLAYERS];

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

/* ---- GASNet client handlers: the same pattern. */
enum { G_DONE = 200, G_SREQ, G_BREQ, G_REP };
static volatile long g_replies, g_done;

static void g_done_h(gasnet_token_t t) { (void)t; g_done = 1; }
static void g_sreq_h(gasnet_token_t t) { gasnet_AMReplyShort0(t, G_REP); }
static void g_bulk_h(gasnet_token_t t, void *buf, size_t n)
{
    (void)buf;
    (void)n;
    gasnet_AMReplyShort0(t, G_REP);
}
static void g_rep_h(gasnet_token_t t) { (void)t; g_replies++; }

/* The network depth GASNet will use; readable before gasnet_init (the
 * launcher forwards GASNET_* variables to every rank). */
static int network_depth(void)
{
    const char *d = getenv("GASNET_NETWORKDEPTH");
    return d ? atoi(d) : 16;
}

/* ---- the cache-line floor: a counter alone in one cache line. In a
 * round trip rank 0 stores seq+1 and waits for seq+2, rank 1 waits for
 * seq+1 and stores seq+2. Both ranks run the same loops, so floor_seq
 * advances alike on both and the line never needs a reset. */
static MPI_Comm node_comm = MPI_COMM_NULL;
static MPI_Win floor_win = MPI_WIN_NULL;
static _Atomic long *floor_line;
static long floor_seq;

/* A tight spin (the floor is what a load sees, with nothing in between),
 * yielding now and then in case the two ranks share a core. */
static inline void floor_wait(long want)
{
    for (unsigned spins = 1; atomic_load_explicit(floor_line, memory_order_acquire) != want; spins++)
        if (spins % 4096 == 0) sched_yield();
}

static inline void floor_store(long v) { atomic_store_explicit(floor_line, v, memory_order_release); }

static inline void floor_active(size_t n, long iters)
{
    (void)n;
    for (long i = 0; i < iters; i++) {
        long v = floor_seq + 2 * i;
        floor_store(v + 1);
        floor_wait(v + 2);
    }
    floor_seq += 2 * iters;
}

static inline void floor_passive(size_t n, long iters)
{
    (void)n;
    for (long i = 0; i < iters; i++) {
        long v = floor_seq + 2 * i;
        floor_wait(v + 1);
        floor_store(v + 2);
    }
    floor_seq += 2 * iters;
}

/* The bytes of a Short AM's header in ammpi's wire form. */
static size_t short_am_len(void)
{
    ammpi_msg_t m = {.category = AMMPI_SHORT, .handler = 1};
    return ammpi_wire_size(&m, 0);
}

/* ---- the rings' floor: the shared-memory AM rings' protocol
 * (shmam/shmam.c) with no software around it. Each rank writes
 * entries into a ring the other reads: a frame (shmam.h's), a Short AM's
 * wire bytes, the next entry's stamp cleared, then its own stamp
 * (release); the reader spins on the stamp (acquire), reads the
 * message and stores its head; the writer rereads the head only when
 * the ring looks full. What a round trip costs above the floor here is
 * the protocol's; what GASNet's AM Short costs above this is software. */
#define RING_ENTRIES 64
typedef struct {
    gasneti_shmam_ctl_t ctl;
    char data[RING_ENTRIES * GASNETI_SHMAM_LINE];
} bench_ring_t;
static bench_ring_t *ring_rx, *ring_tx; /* this rank reads rx, writes tx */
static uint64_t ring_tail, ring_head_seen, ring_head;
static size_t ring_msg_len;                /* short_am_len() */
#define RING_BYTES (RING_ENTRIES * GASNETI_SHMAM_LINE)

static gasneti_shmam_frame_t *ring_frame(bench_ring_t *r, uint64_t pos)
{
    return (gasneti_shmam_frame_t *)(r->data + (pos & (RING_BYTES - 1)));
}

static inline void ring_send(const char *msg)
{
    uint64_t tail = ring_tail;
    while (tail + GASNETI_SHMAM_LINE - ring_head_seen > RING_BYTES) /* looks full: reread */
        ring_head_seen = __atomic_load_n(&ring_tx->ctl.head, __ATOMIC_ACQUIRE);
    gasneti_shmam_frame_t *f = ring_frame(ring_tx, tail);
    memcpy((char *)f + GASNETI_SHMAM_FRAME, msg, ring_msg_len);
    f->total = GASNETI_SHMAM_LINE;
    f->len = (uint32_t)ring_msg_len;
    if (tail + 2 * GASNETI_SHMAM_LINE <= ring_head_seen + RING_BYTES)
        __atomic_store_n(&ring_frame(ring_tx, tail + GASNETI_SHMAM_LINE)->stamp, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&f->stamp, tail + 1, __ATOMIC_RELEASE);
    ring_tail = tail + GASNETI_SHMAM_LINE;
}

static inline void ring_receive(char *msg)
{
    gasneti_shmam_frame_t *f = ring_frame(ring_rx, ring_head);
    for (unsigned spins = 1; __atomic_load_n(&f->stamp, __ATOMIC_ACQUIRE) != ring_head + 1; spins++)
        if (spins % 4096 == 0) sched_yield();
    memcpy(msg, (char *)f + GASNETI_SHMAM_FRAME, f->len < 64 ? f->len : 64);
    ring_head += f->total;
    __atomic_store_n(&ring_rx->ctl.head, ring_head, __ATOMIC_RELEASE);
}

static inline void ring_active(size_t n, long iters)
{
    (void)n;
    char msg[64] = {1};
    for (long i = 0; i < iters; i++) {
        ring_send(msg);
        ring_receive(msg);
    }
}

static inline void ring_passive(size_t n, long iters)
{
    (void)n;
    char msg[64];
    for (long i = 0; i < iters; i++) {
        ring_receive(msg);
        ring_send(msg);
    }
}

/* Maps the floor's cache line and the two rings into both ranks; leaves
 * floor_line NULL when they share no memory. */
static void floor_start(void)
{
    int n;
    MPI_Comm_split_type(raw_comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node_comm);
    MPI_Comm_size(node_comm, &n);
    if (n != 2) return;
    char *base, *line;
    MPI_Aint bytes;
    int unit;
    size_t size = 64 + 2 * sizeof(bench_ring_t) + 64; /* zeroed: no stamp matches */
    MPI_Win_allocate_shared(me == ACTIVE ? (MPI_Aint)size : 0, 1, MPI_INFO_NULL, node_comm, &base,
                            &floor_win);
    MPI_Win_shared_query(floor_win, 0, &bytes, &unit, &line);
    MPI_Win_lock_all(MPI_MODE_NOCHECK, floor_win);
    line = (char *)(((uintptr_t)line + 63) & ~(uintptr_t)63); /* whole lines */
    floor_line = (_Atomic long *)line;
    bench_ring_t *rings = (bench_ring_t *)(line + 64);
    ring_rx = &rings[me == ACTIVE];
    ring_tx = &rings[me != ACTIVE];
    if (me == ACTIVE) {
        memset(line, 0, 64 + 2 * sizeof(bench_ring_t));
        floor_store(0);
    }
    ring_msg_len = short_am_len();
    MPI_Barrier(node_comm);
}

static void floor_finish(void)
{
    if (floor_win != MPI_WIN_NULL) {
        MPI_Win_unlock_all(floor_win);
        MPI_Win_free(&floor_win);
    }
    if (node_comm != MPI_COMM_NULL) MPI_Comm_free(&node_comm);
}

/* ---- operations and what a job measures */

typedef void (*loop_fn)(size_t n, long iters);

enum {
    OP_RMA = 1,         /* runs once per RMA path */
    OP_GASNET_LIVE = 2, /* GASNet's endpoint stays running (mpi_with_gasnet) */
};

/* An operation under test: rank 0's loop; rank 1's loop for layers
 * without an endpoint to poll (NULL: it polls the layer); the largest
 * size it takes (-1: any; 0: none, a message without payload, measured
 * once as size 0 at the first size of the sweep). */
typedef struct {
    const char *name;
    int layer;
    loop_fn active, passive;
    long max_size;
    int flags;
} op_t;

/* One measurement: an operation, over one RMA path for RMA operations. */
typedef struct {
    const op_t *op;
    int path;    /* index in rma_paths, or -1 */
    int ran;     /* measured at the current size */
    long size, iters;
    double *t;   /* seconds per iteration, per repetition */
} case_t;

static const char *rma_paths[3];
static int path_is_am[3], npaths; /* 0 native, 1 am, 2 am without packing */
static case_t *cases;
static int ncases;
static const case_t *mpi_case; /* the reference for ratios, if measured */

static const char *case_path(const case_t *c) { return c->path >= 0 ? rma_paths[c->path] : "-"; }

/* ---- which endpoints run: switched between loops, on both ranks alike */

static int gasnet_live = 1, ammpi_live = 1, forced_am;

static void set_live(ammpi_ep_t *e, int *live, int want, const char *who)
{
    if (!e || *live == want) return;
    int rc = want ? ammpi_resume_receives(e) : ammpi_pause_receives(e);
    if (rc != AMMPI_OK) bench_die("%s %s's endpoint failed (%d)", want ? "resuming" : "pausing", who, rc);
    *live = want;
}

static void set_path(int am)
{
    if (!started[L_GASNET] || am == forced_am) return;
    gasneti_rma_force_am(am != 0);
    gasnete_pack_enable(am != 2);
    forced_am = am;
}

static void set_state(const case_t *c)
{
    set_live(started[L_GASNET] ? gasnetc_ep : NULL, &gasnet_live,
             c->op->layer == L_GASNET || (c->op->flags & OP_GASNET_LIVE), "GASNet");
    set_live(ep, &ammpi_live, c->op->layer == L_AMMPI, "ammpi");
    if (c->path >= 0) set_path(path_is_am[c->path]);
}

/* One timed loop. Both ranks call it: rank 0 runs the active loop and
 * returns the elapsed seconds; rank 1 serves until rank 0 is done. */
static double timed_loop(const case_t *c, long iters)
{
    const op_t *op = c->op;
    set_state(c);
    a_done = g_done = 0;
    a_replies = g_replies = 0;
    MPI_Barrier(raw_comm); /* every layer is quiet here: start together */
    if (me == ACTIVE) {
        double t0 = bench_now();
        op->active((size_t)c->size, iters);
        double t = bench_now() - t0;
        if (!op->passive && op->layer == L_AMMPI) ammpi_request_short(ep, PASSIVE, A_DONE, 0, NULL);
        if (!op->passive && op->layer == L_GASNET) gasnet_AMRequestShort0(PASSIVE, G_DONE);
        return t;
    }
    if (op->passive) {
        op->passive((size_t)c->size, iters);
    } else if (op->layer == L_AMMPI) {
        int idle = 0;
        while (!a_done) ammpi_poll_wait(ep, &idle);
    } else {
        GASNET_BLOCKUNTIL(g_done);
    }
    return 0;
}

/* ---- checking the RMA path switch. Over am a put is an active message:
 * it cannot complete before its target polls, and rank 1 does not poll
 * until rank 0 has looked. (The native path is the library's own choice,
 * nothing to check; some backends need the target's polling to start a
 * put, so there rank 1 polls throughout.) */
static void probe_am_active(size_t n, long iters)
{
    (void)iters;
    gasnet_handle_t h = gasnet_put_nb(PASSIVE, rseg, lseg, n);
    int done = gasnet_try_syncnb(h) == GASNET_OK;
    MPI_Send(NULL, 0, MPI_BYTE, PASSIVE, 3, raw_comm); /* rank 1 may poll now */
    if (!done) gasnet_wait_syncnb(h);
    gasnet_AMRequestShort0(PASSIVE, G_DONE);
    if (done)
        bench_die("RMA path am: a put completed before its target polled, so it was no active "
                  "message: gasneti_rma_force_am is not honoured");
}

static void probe_am_passive(size_t n, long iters)
{
    (void)n;
    (void)iters;
    MPI_Recv(NULL, 0, MPI_BYTE, ACTIVE, 3, raw_comm, MPI_STATUS_IGNORE);
    GASNET_BLOCKUNTIL(g_done);
}

static void probe_native_active(size_t n, long iters)
{
    (void)iters;
    gasnet_put(PASSIVE, rseg, lseg, n);
    gasnet_get(lseg, PASSIVE, rseg, n);
}

static void check_paths(void)
{
    static const op_t am = {"probe", L_GASNET, probe_am_active, probe_am_passive, 8, OP_RMA},
                      native = {"probe", L_GASNET, probe_native_active, NULL, 8, OP_RMA};
    for (int p = 0; p < npaths; p++) {
        case_t c = {path_is_am[p] ? &am : &native, p, 1, 8, 1, NULL};
        timed_loop(&c, 1);
    }
}

/* ---- starting and stopping */

/* Parses -l into want[]. */
static void layers_wanted(const char *list, int *want)
{
    int all = !strcmp(list, "all");
    for (int l = 0; l < NLAYERS; l++) want[l] = all || bench_in_list(list, layer_names[l]);
    for (const char *p = list; !all && *p;) {
        size_t len = strcspn(p, ",");
        int known = 0;
        for (int l = 0; l < NLAYERS; l++)
            known |= strlen(layer_names[l]) == len && !strncmp(p, layer_names[l], len);
        if (!known) bench_die("-l %s: unknown layer '%.*s' (use all or %s)", list, (int)len, p, LAYER_LIST);
        p += len + (p[len] == ',');
    }
}

/* Which operations this job runs (-l, -o); sel[k] for ops[k]. Dies on an
 * unknown name, or on one asked for whose layer is not measured. */
static void select_ops(const bench_opts_t *o, const op_t *ops, int nops, const int *want, int *sel)
{
    for (const char *p = o->ops; p && *p;) {
        size_t len = strcspn(p, ",");
        int k = 0;
        while (k < nops && !(strlen(ops[k].name) == len && !strncmp(p, ops[k].name, len))) k++;
        if (k == nops) bench_die("-o: no operation '%.*s' in this benchmark", (int)len, p);
        p += len + (p[len] == ',');
    }
    int any = 0;
    for (int k = 0; k < nops; k++) {
        int ok = want[ops[k].layer] && (!(ops[k].flags & OP_GASNET_LIVE) || want[L_GASNET]);
        sel[k] = ok && bench_in_list(o->ops, ops[k].name);
        if (o->ops && bench_in_list(o->ops, ops[k].name) && !ok)
            bench_die("-o %s needs layer %s, not in -l %s", ops[k].name,
                      layer_names[want[ops[k].layer] ? L_GASNET : ops[k].layer], o->layers);
        any |= sel[k];
    }
    if (!any) bench_die("no operation to measure (-l %s, -o %s)", o->layers, o->ops ? o->ops : "all");
}

/* The RMA paths of this job: am, and the backend GASNET_RMA chose for
 * the peer (the choice is pairwise, so both ranks see the same); -P
 * keeps some of them. */
static void find_paths(const bench_opts_t *o)
{
    const char *have[3] = {"am", gasneti_rma_for[1 - me] ? gasneti_rma_for[1 - me]->name : NULL,
                           o->paths ? "am_nopack" : NULL};
    for (int i = 0; i < 3; i++)
        if (have[i] && bench_in_list(o->paths, have[i])) {
            path_is_am[npaths] = i == 0 ? 1 : i == 1 ? 0 : 2;
            rma_paths[npaths++] = have[i];
        }
    for (const char *p = o->paths; p && *p;) {
        size_t len = strcspn(p, ",");
        int found = 0;
        for (int i = 0; i < npaths; i++) found |= strlen(rma_paths[i]) == len && !strncmp(p, rma_paths[i], len);
        if (!found)
            bench_die("-P: this job has no RMA path '%.*s' (it has am, am_nopack%s%s; GASNET_RMA "
                      "picks the backend)", (int)len, p, have[1] ? ", " : "", have[1] ? have[1] : "");
        p += len + (p[len] == ',');
    }
}

/* Starts what the selected operations need, with buffers of `bytes` on
 * each rank, learns the peer's address of them, and lists the cases. */
static void layers_start(int *argc, char ***argv, const bench_opts_t *o, const op_t *ops, int nops,
                         uintptr_t bytes)
{
    int want[NLAYERS], sel[nops], need[NLAYERS] = {0};
    layers_wanted(o->layers, want);
    select_ops(o, ops, nops, want, sel);
    for (int k = 0; k < nops; k++) {
        if (!sel[k]) continue;
        need[ops[k].layer] = 1;
        if (ops[k].flags & OP_GASNET_LIVE) need[L_GASNET] = 1;
    }
    depth = network_depth();
    segsize = (bytes + GASNET_PAGESIZE - 1) / GASNET_PAGESIZE * GASNET_PAGESIZE;
    if (need[L_GASNET]) {
        const char *pt = getenv("GASNET_PROGRESS_THREAD");
        if (pt && strchr("yY1", pt[0]))
            bench_die("GASNET_PROGRESS_THREAD is set: the benchmarks pause GASNet's endpoint "
                      "between loops, which a progress thread would poll");
        if (gasnet_init(argc, argv) != GASNET_OK) bench_die("gasnet_init failed");
        gasnet_handlerentry_t table[] = {{G_DONE, (void (*)())g_done_h},
                                         {G_SREQ, (void (*)())g_sreq_h},
                                         {G_BREQ, (void (*)())g_bulk_h},
                                         {G_REP, (void (*)())g_rep_h}};
        if (gasnet_attach(table, 4, segsize, 0) != GASNET_OK) bench_die("gasnet_attach failed");
        gasnet_seginfo_t si[2];
        gasnet_getSegmentInfo(si, 2);
        lseg = si[gasnet_mynode()].addr;
        started[L_GASNET] = 1;
    } else {
        MPI_Init(argc, argv);
        if (posix_memalign((void **)&lseg, GASNET_PAGESIZE, segsize)) bench_die("out of memory");
        memset(lseg, 0, segsize); /* touch it now, not in a timed loop */
    }
    int nranks;
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    if (nranks != 2) bench_die("run with exactly 2 ranks (one active, one passive)");
    MPI_Comm_dup(MPI_COMM_WORLD, &raw_comm);
    MPI_Comm_rank(raw_comm, &me);
    MPI_Sendrecv(&lseg, sizeof lseg, MPI_BYTE, 1 - me, 0, &rseg, sizeof rseg, MPI_BYTE, 1 - me, 0,
                 raw_comm, MPI_STATUS_IGNORE);
    started[L_MPI] = 1;
    if (need[L_FLOOR]) {
        floor_start();
        started[L_FLOOR] = floor_line != NULL;
        if (!started[L_FLOOR] && me == ACTIVE)
            printf("# floor: the two ranks share no memory (not on one host): not measured\n");
    }
    if (need[L_AMMPI]) {
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
        started[L_AMMPI] = 1;
    }
    if (started[L_GASNET]) find_paths(o);
    cases = calloc((size_t)nops * 2, sizeof *cases);
    if (!cases) bench_die("out of memory");
    for (int k = 0; k < nops; k++) {
        if (!sel[k] || !started[ops[k].layer]) continue;
        for (int p = 0; p < ((ops[k].flags & OP_RMA) ? npaths : 1); p++) {
            case_t *c = &cases[ncases++];
            c->op = &ops[k];
            c->path = (ops[k].flags & OP_RMA) ? p : -1;
            if (!(c->t = calloc((size_t)o->reps, sizeof *c->t))) bench_die("out of memory");
            if (!strcmp(ops[k].name, "mpi")) mpi_case = c;
        }
    }
    if (ncases == 0) bench_die("no operation to measure (-P %s)", o->paths ? o->paths : "all");
    if (started[L_GASNET] && npaths) check_paths();
}

static void layers_finish(void)
{
    set_live(started[L_GASNET] ? gasnetc_ep : NULL, &gasnet_live, 1, "GASNet");
    set_live(ep, &ammpi_live, 1, "ammpi");
    set_path(0);
    floor_finish();
    if (ep) ammpi_close(ep);
    MPI_Comm_free(&raw_comm);
    if (started[L_GASNET]) {
        gasnet_barrier_notify(0, GASNET_BARRIERFLAG_ANONYMOUS);
        gasnet_barrier_wait(0, GASNET_BARRIERFLAG_ANONYMOUS);
        gasnet_exit(0);
    }
    MPI_Finalize();
}

/* ---- helpers for the loops */

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

/* ---- measuring */

/* Measures every case that takes size n: one warm-up loop each, then
 * the repetitions, each running every case once, interleaved. */
static void measure_size(const bench_opts_t *o, long n)
{
    for (int j = 0; j < ncases; j++) {
        case_t *c = &cases[j];
        long max = c->op->max_size;
        c->ran = max == 0 ? n == o->min_size : max < 0 || n <= max;
        c->size = max == 0 ? 0 : n;
        c->iters = bench_iters(o, c->size);
    }
    for (int r = -1; r < o->reps; r++) { /* r = -1: warm-up */
        for (int j = 0; j < ncases; j++) {
            case_t *c = &cases[(j + (r > 0 ? r : 0)) % ncases];
            if (!c->ran) continue;
            long iters = r < 0 ? c->iters / 10 + 1 : c->iters;
            double sec = timed_loop(c, iters);
            if (r >= 0) c->t[r] = sec / (double)iters;
        }
    }
}

/* c's time over raw MPI's at this size, per repetition: median and
 * quartiles (NAN when MPI was not measured at this size). */
static bench_stat_t mpi_ratio(const case_t *c, int reps)
{
    if (!mpi_case || !mpi_case->ran) return (bench_stat_t){NAN, NAN, NAN, NAN, NAN};
    double x[reps];
    for (int r = 0; r < reps; r++) x[r] = c->t[r] / mpi_case->t[r];
    return bench_stats(x, reps);
}

#endif
