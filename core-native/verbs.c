/* The verbs backend: puts and gets as RDMA writes and reads over InfiniBand
 * or RoCE, through libibverbs.
 *
 * Set-up (attach, collective over gasnetc_comm; every node makes the same
 * MPI calls whether or not its own set-up worked):
 *   1. Device: GASNET_VERBS_DEVICE names one; otherwise, of the devices
 *      ibv_get_device_list returns, the one nearest this process's cores
 *      (gasneti_nic_distance on the device name, then on its PCI bus id;
 *      unknown distances rank last, ties go by list order) that has an
 *      active port. Port: GASNET_VERBS_PORT, or the first active one.
 *      Addressing: an InfiniBand port is addressed by its LID; an Ethernet
 *      (RoCE) port, or one that requires a GRH, by the GID at
 *      GASNET_VERBS_GID_INDEX (default 0).
 *   2. One protection domain, one completion queue, this node's whole
 *      segment registered (LOCAL_WRITE | REMOTE_WRITE | REMOTE_READ) at its
 *      own virtual address, a registered pool of bounce buffers, and one
 *      reliable-connected QP per peer (not self, nor a peer a backend tried
 *      earlier already serves: auto tries shm first), moved to INIT.
 *   3. MPI_Allgather of what each node is (set-up ok, LID, GID, MTU, the
 *      RDMA reads it accepts per QP, the segment's rkey); MPI_Alltoall of
 *      the QP number and first PSN that node i made for node j. Segment
 *      bases need no exchange: gasneti_seginfo[] already holds every
 *      node's, and remote addresses are those virtual addresses.
 *   4. Each QP to a peer whose set-up worked (and that addresses the same
 *      way) goes INIT -> RTR (the peer's QP number and PSN, the smaller
 *      MTU) -> RTS. An MPI_Alltoall of "my QP to you is ready" then agrees
 *      per pair: reach[p] is set only when both QPs of the pair are ready.
 *      QPs of unreached peers are destroyed at once. No traffic is sent at
 *      attach: a pair whose ports cannot reach each other (separate
 *      fabrics) is found at its first transfer, which fails fatally.
 *   5. The nodes that serve some peer form a communicator (MPI_Comm_split)
 *      for detach; a node that serves none frees everything and reports
 *      why (no device: "no InfiniBand/RoCE device found (...)"), and
 *      rma.c falls back to ofi or the AM path.
 *
 * Transfers (all under one mutex: PAR clients call put/get/poll from many
 * threads; work completions only bump counters, so nothing runs outside
 * this file while it is held):
 *   put  RDMA write, split into work requests (WRs). A piece of at most the
 *        QP's max_inline_data bytes (GASNET_VERBS_INLINE asks for it) goes
 *        inline: the source is copied into the WQE by ibv_post_send. A bulk
 *        put from this node's segment goes straight from the registered
 *        segment (pieces of at most the port's max_msg_sz; the source may
 *        be read until the counter drops, as rma.h allows bulk puts). Any
 *        other source is copied into bounce buffers (pieces of one buffer),
 *        so a non-bulk put never reads its source after returning.
 *   get  RDMA read, straight into the destination when it lies in this
 *        node's segment, else into a bounce buffer copied out when its
 *        completion is polled.
 *   memset  RDMA writes from bounce buffers filled with the value.
 *   Created endpoints' segments: registered when published (rma.h), each
 *        its own MR whose rkey travels in the publish record; CUDA
 *        memory registers where the peer-memory module lets the HCA reach
 *        it. A put or get names its remote segment's rkey.
 *   Sources and destinations outside the segment use the bounce pool, not
 *   registration on the fly: registration pins pages with a system call
 *   per transfer, and a cache of registrations goes stale when the client
 *   frees or remaps memory; one copy is simpler and bounded.
 *
 * Completion: every WR is signalled (sq_sig_all), inline ones too. An
 * inline write frees its source at once, but only its work completion (the
 * target's acknowledgement) says the data is in the target's memory, which
 * is when rma.h lets the counter drop; signalling every WR also frees its
 * send-queue slot and bounce buffer at a known point. Each WR adds 1 to
 * the operation's counter before it is posted (an operation split into k
 * WRs adds k); poll() subtracts 1 (__ATOMIC_RELEASE) when it polls the WR's
 * successful completion, after copying a bounced get's data out. A failed
 * work completion is a fatal error naming this node, the peer, the
 * operation and ibv_wc_status_str.
 *
 * Flow control: a WR is posted only while its QP has fewer than
 * GASNET_VERBS_SQ_DEPTH WRs outstanding, fewer than the CQ's size are
 * outstanding in all (so the CQ never overruns) and, if it needs one, a
 * bounce buffer is free; otherwise the poster polls the CQ until there is
 * room. RDMA needs no work from the peer's CPU, so this always ends.
 *
 * Memory bound per node: pinned: the whole segment plus the bounce pool,
 * GASNET_VERBS_BOUNCE_COUNT x GASNET_VERBS_BOUNCE_SIZE (32 x 64 KiB = 2 MiB
 * by default); host: one record per CQ entry (at most 1024) and per node;
 * in the provider, one QP per peer with GASNET_VERBS_SQ_DEPTH send entries.
 *
 * Detach (collective over the nodes that attached it, MPI usable): wait
 * for this node's WRs, barrier (so no peer still reads or writes this
 * segment), then destroy the QPs, deregister, free.
 *
 * Settings (node 0's environment): GASNET_VERBS_DEVICE, GASNET_VERBS_PORT
 * (0: the first active), GASNET_VERBS_GID_INDEX (0), GASNET_VERBS_INLINE
 * (64 bytes asked for; a device that refuses it gets QPs with none),
 * GASNET_VERBS_SQ_DEPTH (64), GASNET_VERBS_BOUNCE_SIZE (64K),
 * GASNET_VERBS_BOUNCE_COUNT (32).
 *
 * Not handled: fork() after attach (ibv_fork_init is not called); choosing
 * a RoCE v2 GID by itself (give its index); completion channels (the CQ is
 * only polled). Tested against the emulated device of tests/fakeverbs and
 * without a device; not yet on InfiniBand or RoCE hardware.
 */
#include "rma.h"

#include <infiniband/verbs.h>

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define CQ_ENTRIES 1024 /* at most this many WRs in flight (fewer if the device says so) */
#define RD_ATOMIC_MAX 16 /* RDMA reads outstanding per QP, at most */

/* What a node tells every other at attach (MPI_Allgather, as bytes). */
typedef struct {
    int32_t ok;        /* device, port, CQ, registrations and QPs are set up */
    int32_t use_grh;   /* addressed by GID (RoCE, or the port requires a GRH) */
    uint32_t rkey;     /* of its segment (0 when the segment is empty) */
    uint16_t lid;
    uint8_t mtu;       /* the port's active MTU (enum ibv_mtu) */
    uint8_t dest_rd;   /* RDMA reads it accepts outstanding per QP */
    union ibv_gid gid;
} node_info_t;

/* The QP node i made for node j (MPI_Alltoall). */
typedef struct {
    uint32_t qpn, psn;
} qp_info_t;

typedef struct {
    struct ibv_qp *qp; /* NULL: not served */
    gasneti_rma_key_t seg; /* the peer's primordial segment: rkey, delta 0 */
    uint32_t psn;      /* first PSN of our QP to it */
    uint32_t inflight; /* WRs posted on qp whose completions are not polled yet */
} peer_t;

/* One posted WR; its wr_id is the index. Free slots form a list. */
typedef struct {
    uint32_t *counter;
    char *copy_to;   /* a bounced get: where its data goes */
    int32_t bounce;  /* its bounce buffer, or -1 */
    int32_t next;    /* next free slot (while free) */
    uint32_t len;
    gasnet_node_t peer;
    int is_read;
} wr_slot_t;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct ibv_context *ctx;
static struct ibv_pd *pd;
static struct ibv_cq *cq;
static struct ibv_mr *seg_mr, *bounce_mr;
/* Created segments' registrations (rma.h seg_register), listed so that
 * teardown deregisters what is left after the detach barrier. */
struct created {
    struct ibv_mr *mr;
    struct created *next;
};
static struct created *created;
static char dev_name[64];
static uint8_t port;
static int gid_index;
static node_info_t mine;
static uint8_t init_rd; /* RDMA reads this node may issue per QP */
static size_t max_msg;  /* bytes per WR */
static peer_t *peers;
static uint32_t sq_depth, inline_want, max_inline; /* max_inline: the smallest QP's */
static wr_slot_t *slots;
static int32_t nslots, free_slot, inflight;
static char *bounce_mem;
static size_t bounce_size;
static int32_t bounce_count, *bounce_free, nbounce_free;
static MPI_Comm up_comm = MPI_COMM_NULL;

/* ---- set-up */

/* How far a device is from this process's cores (-1: unknown). */
static int device_distance(struct ibv_device *dev)
{
    int d = gasneti_nic_distance(ibv_get_device_name(dev));
    if (d >= 0) return d;
    char link[sizeof dev->ibdev_path + 16], real[PATH_MAX];
    snprintf(link, sizeof link, "%s/device", dev->ibdev_path);
    if (!realpath(link, real)) return -1;
    const char *busid = strrchr(real, '/');
    return gasneti_nic_distance(busid ? busid + 1 : real);
}

/* Opens dev and finds the port to use; fills mine's addressing. */
static int try_device(struct ibv_device *dev, int want_port, char *why, size_t whylen)
{
    const char *name = ibv_get_device_name(dev);
    struct ibv_device_attr dattr;
    struct ibv_port_attr pattr;
    snprintf(dev_name, sizeof dev_name, "%s", name ? name : "?");
    ctx = ibv_open_device(dev);
    if (!ctx) {
        snprintf(why, whylen, "ibv_open_device(%s) failed: %s", dev_name, strerror(errno));
        return -1;
    }
    int err = ibv_query_device(ctx, &dattr);
    if (err) {
        snprintf(why, whylen, "ibv_query_device(%s) failed: %s", dev_name, strerror(err));
        goto fail;
    }
    int first = want_port ? want_port : 1, last = want_port ? want_port : dattr.phys_port_cnt;
    if (want_port > dattr.phys_port_cnt) {
        snprintf(why, whylen, "GASNET_VERBS_PORT=%d, but %s has %d port%s", want_port, dev_name,
                 dattr.phys_port_cnt, dattr.phys_port_cnt == 1 ? "" : "s");
        goto fail;
    }
    port = 0;
    for (int p = first; p <= last && !port; p++) {
        err = ibv_query_port(ctx, (uint8_t)p, &pattr);
        if (err)
            snprintf(why, whylen, "ibv_query_port(%s, %d) failed: %s", dev_name, p, strerror(err));
        else if (pattr.state != IBV_PORT_ACTIVE)
            snprintf(why, whylen, "port %d of %s is %s, not active", p, dev_name,
                     ibv_port_state_str(pattr.state));
        else
            port = (uint8_t)p;
    }
    if (!port) {
        if (!want_port && dattr.phys_port_cnt > 1)
            snprintf(why, whylen, "no port of %s is active", dev_name);
        goto fail;
    }
    mine.use_grh = pattr.link_layer == IBV_LINK_LAYER_ETHERNET || (pattr.flags & IBV_QPF_GRH_REQUIRED);
    mine.lid = pattr.lid;
    mine.mtu = (uint8_t)pattr.active_mtu;
    memset(&mine.gid, 0, sizeof mine.gid);
    if (mine.use_grh) {
        static const union ibv_gid zero;
        if (gid_index >= pattr.gid_tbl_len || ibv_query_gid(ctx, port, gid_index, &mine.gid) ||
            !memcmp(&mine.gid, &zero, sizeof zero)) {
            snprintf(why, whylen, "%s port %d (%s) has no GID at GASNET_VERBS_GID_INDEX=%d", dev_name,
                     port, pattr.link_layer == IBV_LINK_LAYER_ETHERNET ? "RoCE" : "InfiniBand",
                     gid_index);
            goto fail;
        }
    } else if (mine.lid == 0) {
        snprintf(why, whylen, "%s port %d has no LID (is a subnet manager running?)", dev_name, port);
        goto fail;
    }
    max_msg = pattr.max_msg_sz < (1u << 30) ? pattr.max_msg_sz : (1u << 30);
    if (max_msg == 0) max_msg = 1u << 30; /* not reported: RC allows 2^31 */
    init_rd = (uint8_t)(dattr.max_qp_init_rd_atom < RD_ATOMIC_MAX ? dattr.max_qp_init_rd_atom : RD_ATOMIC_MAX);
    mine.dest_rd = (uint8_t)(dattr.max_qp_rd_atom < RD_ATOMIC_MAX ? dattr.max_qp_rd_atom : RD_ATOMIC_MAX);
    if (init_rd == 0 || mine.dest_rd == 0) {
        snprintf(why, whylen, "%s supports no outstanding RDMA reads", dev_name);
        goto fail;
    }
    if (sq_depth > (uint32_t)dattr.max_qp_wr) sq_depth = (uint32_t)dattr.max_qp_wr;
    nslots = dattr.max_cqe < CQ_ENTRIES ? dattr.max_cqe : CQ_ENTRIES;
    return 0;
fail:
    ibv_close_device(ctx);
    ctx = NULL;
    return -1;
}

/* Chooses and opens the device (step 1). */
static int open_device(const char *want, int want_port, char *why, size_t whylen)
{
    int num = 0, ok = 0;
    struct ibv_device **list = ibv_get_device_list(&num);
    if (!list) {
        snprintf(why, whylen, "no InfiniBand/RoCE device found (ibv_get_device_list failed: %s)",
                 strerror(errno));
        return -1;
    }
    int *rank = num > 0 ? malloc((size_t)num * sizeof *rank) : NULL;
    if (num == 0)
        snprintf(why, whylen, "no InfiniBand/RoCE device found (ibv_get_device_list returned 0 devices)");
    else if (!rank)
        snprintf(why, whylen, "out of memory");
    else {
        int matched = 0;
        for (int i = 0; i < num; i++) {
            const char *name = ibv_get_device_name(list[i]);
            if (want[0] && (!name || strcmp(name, want))) {
                rank[i] = -1; /* not a candidate */
                continue;
            }
            matched++;
            int d = device_distance(list[i]);
            rank[i] = d >= 0 ? d : INT_MAX;
        }
        if (!matched) snprintf(why, whylen, "GASNET_VERBS_DEVICE=%s: no such device", want);
        while (!ok) {
            int best = -1;
            for (int i = 0; i < num; i++)
                if (rank[i] >= 0 && (best < 0 || rank[i] < rank[best])) best = i;
            if (best < 0) break;
            rank[best] = -1;
            ok = try_device(list[best], want_port, why, whylen) == 0;
        }
    }
    free(rank);
    ibv_free_device_list(list); /* the opened context stays valid */
    return ok ? 0 : -1;
}

static uint32_t make_psn(gasnet_node_t peer)
{
    uint64_t x = ((uint64_t)getpid() << 32) ^ ((uint64_t)gasneti_mynode << 16) ^ peer ^
                 (uint64_t)time(NULL);
    x *= 0x9e3779b97f4a7c15ull;
    return (uint32_t)(x >> 40) & 0xffffff;
}

static int qp_to_init(struct ibv_qp *qp)
{
    struct ibv_qp_attr a;
    memset(&a, 0, sizeof a);
    a.qp_state = IBV_QPS_INIT;
    a.pkey_index = 0;
    a.port_num = port;
    a.qp_access_flags = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ;
    return ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS);
}

/* Step 2: PD, CQ, registrations, one QP per peer in INIT. */
static int create_resources(char *why, size_t whylen)
{
    void *base = gasneti_seginfo[gasneti_mynode].addr;
    size_t size = gasneti_seginfo[gasneti_mynode].size;
    int access = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ;
    if (!(pd = ibv_alloc_pd(ctx))) {
        snprintf(why, whylen, "ibv_alloc_pd(%s) failed: %s", dev_name, strerror(errno));
        return -1;
    }
    if (!(cq = ibv_create_cq(ctx, nslots, NULL, NULL, 0))) {
        snprintf(why, whylen, "ibv_create_cq(%s, %d) failed: %s", dev_name, nslots, strerror(errno));
        return -1;
    }
    if (size && !(seg_mr = ibv_reg_mr(pd, base, size, access))) {
        snprintf(why, whylen, "registering the %zu-byte segment with %s failed: %s (locked-memory "
                 "limit: ulimit -l)", size, dev_name, strerror(errno));
        return -1;
    }
    mine.rkey = seg_mr ? seg_mr->rkey : 0;
    if (bounce_size > max_msg) bounce_size = max_msg;
    size_t pool = bounce_size * (size_t)bounce_count;
    if (posix_memalign((void **)&bounce_mem, (size_t)sysconf(_SC_PAGESIZE), pool)) {
        bounce_mem = NULL;
        snprintf(why, whylen, "no memory for %zu bytes of bounce buffers", pool);
        return -1;
    }
    if (!(bounce_mr = ibv_reg_mr(pd, bounce_mem, pool, IBV_ACCESS_LOCAL_WRITE))) {
        snprintf(why, whylen, "registering %zu bytes of bounce buffers with %s failed: %s", pool,
                 dev_name, strerror(errno));
        return -1;
    }
    for (gasnet_node_t p = 0; p < gasneti_nodes; p++) {
        if (p == gasneti_mynode || gasneti_rma_for[p]) continue; /* self, or served already (shm) */
        struct ibv_qp_init_attr ia;
        memset(&ia, 0, sizeof ia);
        ia.send_cq = ia.recv_cq = cq;
        ia.cap.max_send_wr = sq_depth;
        ia.cap.max_recv_wr = 1; /* nothing is ever received: RDMA only */
        ia.cap.max_send_sge = ia.cap.max_recv_sge = 1;
        ia.cap.max_inline_data = inline_want;
        ia.qp_type = IBV_QPT_RC;
        ia.sq_sig_all = 1;
        struct ibv_qp *qp = ibv_create_qp(pd, &ia);
        if (!qp && inline_want) { /* the device may allow less inline data: ask for none */
            ia.cap.max_inline_data = 0;
            qp = ibv_create_qp(pd, &ia);
        }
        if (!qp) {
            snprintf(why, whylen, "ibv_create_qp(%s, RC, %u send WRs) for node %u failed: %s",
                     dev_name, sq_depth, p, strerror(errno));
            return -1;
        }
        peers[p].qp = qp;
        if (ia.cap.max_inline_data < max_inline) max_inline = ia.cap.max_inline_data;
        peers[p].psn = make_psn(p);
        int err = qp_to_init(qp);
        if (err) {
            snprintf(why, whylen, "moving the QP for node %u to INIT failed: %s", p, strerror(err));
            return -1;
        }
    }
    slots = calloc((size_t)nslots, sizeof *slots);
    bounce_free = malloc((size_t)bounce_count * sizeof *bounce_free);
    if (!slots || !bounce_free) {
        snprintf(why, whylen, "out of memory");
        return -1;
    }
    for (int32_t i = 0; i < nslots; i++) slots[i].next = i + 1 < nslots ? i + 1 : -1;
    free_slot = 0;
    for (int32_t i = 0; i < bounce_count; i++) bounce_free[i] = i;
    nbounce_free = bounce_count;
    return 0;
}

/* Step 4: INIT -> RTR -> RTS for the QP to peer p. */
static int connect_qp(gasnet_node_t p, const node_info_t *them, const qp_info_t *theirs)
{
    struct ibv_qp_attr a;
    memset(&a, 0, sizeof a);
    a.qp_state = IBV_QPS_RTR;
    a.path_mtu = (enum ibv_mtu)(mine.mtu < them->mtu ? mine.mtu : them->mtu);
    a.dest_qp_num = theirs->qpn;
    a.rq_psn = theirs->psn;
    a.max_dest_rd_atomic = mine.dest_rd;
    a.min_rnr_timer = 12; /* RNR naks come only with receives, which are never used */
    a.ah_attr.port_num = port;
    a.ah_attr.dlid = them->lid;
    if (mine.use_grh) {
        a.ah_attr.is_global = 1;
        a.ah_attr.grh.dgid = them->gid;
        a.ah_attr.grh.sgid_index = (uint8_t)gid_index;
        a.ah_attr.grh.hop_limit = 64;
    }
    int err = ibv_modify_qp(peers[p].qp, &a,
                            IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN |
                                IBV_QP_RQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER);
    if (err) return err;
    memset(&a, 0, sizeof a);
    a.qp_state = IBV_QPS_RTS;
    a.sq_psn = peers[p].psn;
    a.timeout = 14;   /* 4.096 us * 2^14 = 67 ms before a retry */
    a.retry_cnt = 7;
    a.rnr_retry = 7;
    a.max_rd_atomic = init_rd < them->dest_rd ? init_rd : them->dest_rd;
    return ibv_modify_qp(peers[p].qp, &a,
                         IBV_QP_STATE | IBV_QP_SQ_PSN | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT |
                             IBV_QP_RNR_RETRY | IBV_QP_MAX_QP_RD_ATOMIC);
}

/* Frees whatever set-up created (any subset). */
static void teardown(void)
{
    while (created) {
        struct created *c = created;
        created = c->next;
        ibv_dereg_mr(c->mr);
        free(c);
    }
    for (gasnet_node_t p = 0; peers && p < gasneti_nodes; p++)
        if (peers[p].qp) ibv_destroy_qp(peers[p].qp);
    if (bounce_mr) ibv_dereg_mr(bounce_mr);
    if (seg_mr) ibv_dereg_mr(seg_mr);
    if (cq) ibv_destroy_cq(cq);
    if (pd) ibv_dealloc_pd(pd);
    if (ctx) ibv_close_device(ctx);
    free(bounce_mem);
    free(bounce_free);
    free(slots);
    free(peers);
    peers = NULL;
    slots = NULL;
    bounce_free = NULL;
    bounce_mem = NULL;
    bounce_mr = seg_mr = NULL;
    cq = NULL;
    pd = NULL;
    ctx = NULL;
}

static uint32_t env_count(const char *key, int64_t dflt, int64_t lo, int64_t hi, int is_size)
{
    return (uint32_t)(is_size ? gasneti_getenv_size(key, dflt, lo, hi)
                              : gasneti_getenv_int(key, dflt, lo, hi));
}

static int verbs_attach(unsigned char *reach, char *why, size_t whylen)
{
    gasnet_node_t n = gasneti_nodes, me = gasneti_mynode;
    /* every node reads the same settings (node 0's environment) */
    const char *want = gasneti_getenv_str("GASNET_VERBS_DEVICE", "");
    int want_port = (int)env_count("GASNET_VERBS_PORT", 0, 0, 255, 0);
    gid_index = (int)env_count("GASNET_VERBS_GID_INDEX", 0, 0, 255, 0);
    inline_want = env_count("GASNET_VERBS_INLINE", 64, 0, 1024, 1);
    sq_depth = env_count("GASNET_VERBS_SQ_DEPTH", 64, 1, 16384, 0);
    bounce_size = env_count("GASNET_VERBS_BOUNCE_SIZE", 64 << 10, 4096, 1 << 30, 1);
    bounce_count = (int32_t)env_count("GASNET_VERBS_BOUNCE_COUNT", 32, 1, 65536, 0);

    if (n == 1) {
        snprintf(why, whylen, "the job has one node: no peer to reach");
        return -1;
    }
    memset(&mine, 0, sizeof mine);
    max_inline = UINT32_MAX;
    peers = calloc(n, sizeof *peers);
    node_info_t *info = calloc(n, sizeof *info);
    qp_info_t *out = calloc(n, sizeof *out), *in = calloc(n, sizeof *in);
    unsigned char *ready = calloc(n, 1), *their_ready = calloc(n, 1);
    if (!peers || !info || !out || !in || !ready || !their_ready)
        gasneti_fatalerror("verbs: out of memory at attach");

    mine.ok = open_device(want, want_port, why, whylen) == 0 &&
              create_resources(why, whylen) == 0;
    if (mine.ok)
        for (gasnet_node_t p = 0; p < n; p++)
            if (peers[p].qp) out[p] = (qp_info_t){peers[p].qp->qp_num, peers[p].psn};
    MPI_Allgather(&mine, sizeof mine, MPI_BYTE, info, sizeof mine, MPI_BYTE, gasnetc_comm);
    MPI_Alltoall(out, sizeof *out, MPI_BYTE, in, sizeof *in, MPI_BYTE, gasnetc_comm);

    gasnet_node_t first_failed = n;
    for (gasnet_node_t p = 0; p < n; p++) {
        if (!info[p].ok && first_failed == n) first_failed = p;
        if (!mine.ok || !peers[p].qp || !info[p].ok || info[p].use_grh != mine.use_grh || !in[p].qpn)
            continue;
        int err = connect_qp(p, &info[p], &in[p]);
        if (err)
            fprintf(stderr, "GASNet node %u: verbs: connecting the QP to node %u failed: %s\n", me,
                    p, strerror(err));
        ready[p] = err == 0;
        peers[p].seg = (gasneti_rma_key_t){0, info[p].rkey};
    }
    MPI_Alltoall(ready, 1, MPI_BYTE, their_ready, 1, MPI_BYTE, gasnetc_comm);
    int served = 0;
    for (gasnet_node_t p = 0; p < n; p++) {
        reach[p] = ready[p] && their_ready[p];
        served += reach[p];
        if (!reach[p] && peers[p].qp) {
            ibv_destroy_qp(peers[p].qp);
            peers[p].qp = NULL;
        }
    }
    MPI_Comm_split(gasnetc_comm, served ? 0 : MPI_UNDEFINED, (int)me, &up_comm);
    if (mine.ok && !served) {
        if (first_failed < n)
            snprintf(why, whylen, "verbs is up on node %u but on no peer (node %u could not set it "
                     "up)", me, first_failed);
        else
            snprintf(why, whylen, "verbs is up on node %u but connects to no peer that needs it", me);
    }
    if (served && gasneti_getenv_yesno("GASNET_VERBOSEENV", 0))
        fprintf(stderr, "GASNet node %u: verbs on %s port %u (%s), MTU %d, inline %u bytes\n", me,
                dev_name, port, mine.use_grh ? "GID" : "LID", 128 << mine.mtu, max_inline);
    free(info);
    free(out);
    free(in);
    free(ready);
    free(their_ready);
    if (!served) {
        teardown();
        return -1;
    }
    return 0;
}

/* ---- transfers */

static void complete(const struct ibv_wc *wc)
{
    wr_slot_t *s = &slots[wc->wr_id];
    if (wc->status != IBV_WC_SUCCESS) {
        pthread_mutex_unlock(&lock); /* the fatal path may poll */
        gasneti_fatalerror("verbs: RDMA %s of %u bytes by node %u %s node %u failed: %s "
                           "(vendor error 0x%x)", s->is_read ? "read" : "write", s->len,
                           gasneti_mynode, s->is_read ? "from" : "to", s->peer,
                           ibv_wc_status_str(wc->status), wc->vendor_err);
    }
    if (s->copy_to) memcpy(s->copy_to, bounce_mem + (size_t)s->bounce * bounce_size, s->len);
    if (s->bounce >= 0) bounce_free[nbounce_free++] = s->bounce;
    peers[s->peer].inflight--;
    inflight--;
    uint32_t *counter = s->counter;
    s->next = free_slot;
    free_slot = (int32_t)wc->wr_id;
    __atomic_fetch_sub(counter, 1, __ATOMIC_RELEASE);
}

/* Polls the CQ once; the lock is held. */
static void progress(void)
{
    struct ibv_wc wc[16];
    int got = ibv_poll_cq(cq, 16, wc);
    if (got < 0) {
        pthread_mutex_unlock(&lock);
        gasneti_fatalerror("verbs: ibv_poll_cq on %s failed (%d)", dev_name, got);
    }
    for (int i = 0; i < got; i++) complete(&wc[i]);
}

/* Polls until a WR to node may be posted (with a bounce buffer if asked). */
static void wait_for_room(gasnet_node_t node, int bounce)
{
    while (peers[node].inflight >= sq_depth || free_slot < 0 ||
           (bounce && nbounce_free == 0))
        progress();
}

static char *take_bounce(int32_t *index)
{
    *index = bounce_free[--nbounce_free];
    return bounce_mem + (size_t)*index * bounce_size;
}

/* Posts one signalled RDMA WR (room was waited for); counts it on counter. */
static int post(gasnet_node_t node, uint32_t rkey, int is_read, uint64_t raddr, void *laddr,
                uint32_t len, uint32_t lkey, int is_inline, int32_t bounce, char *copy_to,
                uint32_t *counter)
{
    int32_t i = free_slot;
    wr_slot_t *s = &slots[i];
    free_slot = s->next;
    *s = (wr_slot_t){counter, copy_to, bounce, -1, len, node, is_read};
    struct ibv_sge sge = {(uint64_t)(uintptr_t)laddr, len, lkey};
    struct ibv_send_wr wr, *bad = NULL;
    memset(&wr, 0, sizeof wr);
    wr.wr_id = (uint64_t)i;
    wr.sg_list = &sge;
    wr.num_sge = 1;
    wr.opcode = is_read ? IBV_WR_RDMA_READ : IBV_WR_RDMA_WRITE;
    wr.send_flags = is_inline ? IBV_SEND_INLINE : 0;
    wr.wr.rdma.remote_addr = raddr;
    wr.wr.rdma.rkey = rkey;
    __atomic_fetch_add(counter, 1, __ATOMIC_RELAXED);
    int err = ibv_post_send(peers[node].qp, &wr, &bad);
    if (err) {
        __atomic_fetch_sub(counter, 1, __ATOMIC_RELAXED);
        if (bounce >= 0) bounce_free[nbounce_free++] = bounce;
        s->next = free_slot;
        free_slot = i;
        fprintf(stderr, "GASNet node %u: verbs: ibv_post_send (RDMA %s of %u bytes, node %u) "
                "failed: %s\n", gasneti_mynode, is_read ? "read" : "write", len, node, strerror(err));
        return -1;
    }
    peers[node].inflight++;
    inflight++;
    return 0;
}

static int verbs_put(gasnet_node_t node, const gasneti_rma_key_t *seg, void *dest,
                     const void *src, size_t n, int bulk, uint32_t *counter)
{
    if (!seg) seg = &peers[node].seg;
    uint32_t rkey = (uint32_t)seg->key;
    int direct = bulk && seg_mr && gasneti_in_segment(gasneti_mynode, src, n);
    int rc = 0;
    pthread_mutex_lock(&lock);
    for (size_t off = 0, len; off < n && rc == 0; off += len) {
        uint64_t raddr = (uint64_t)(uintptr_t)dest + off + seg->delta;
        char *s = (char *)src + off;
        len = n - off;
        if (len <= max_inline) {
            wait_for_room(node, 0);
            rc = post(node, rkey, 0, raddr, s, (uint32_t)len, 0, 1, -1, NULL, counter);
        } else if (direct) {
            if (len > max_msg) len = max_msg;
            wait_for_room(node, 0);
            rc = post(node, rkey, 0, raddr, s, (uint32_t)len, seg_mr->lkey, 0, -1, NULL, counter);
        } else {
            if (len > bounce_size) len = bounce_size;
            int32_t b;
            wait_for_room(node, 1);
            char *buf = take_bounce(&b);
            memcpy(buf, s, len);
            rc = post(node, rkey, 0, raddr, buf, (uint32_t)len, bounce_mr->lkey, 0, b, NULL, counter);
        }
    }
    pthread_mutex_unlock(&lock);
    return rc;
}

static int verbs_get(void *dest, gasnet_node_t node, const gasneti_rma_key_t *seg,
                     const void *src, size_t n, uint32_t *counter)
{
    if (!seg) seg = &peers[node].seg;
    uint32_t rkey = (uint32_t)seg->key;
    int direct = seg_mr && gasneti_in_segment(gasneti_mynode, dest, n);
    int rc = 0;
    pthread_mutex_lock(&lock);
    for (size_t off = 0, len; off < n && rc == 0; off += len) {
        uint64_t raddr = (uint64_t)(uintptr_t)src + off + seg->delta;
        char *d = (char *)dest + off;
        len = n - off;
        if (direct) {
            if (len > max_msg) len = max_msg;
            wait_for_room(node, 0);
            rc = post(node, rkey, 1, raddr, d, (uint32_t)len, seg_mr->lkey, 0, -1, NULL, counter);
        } else {
            if (len > bounce_size) len = bounce_size;
            int32_t b;
            wait_for_room(node, 1);
            char *buf = take_bounce(&b);
            rc = post(node, rkey, 1, raddr, buf, (uint32_t)len, bounce_mr->lkey, 0, b, d, counter);
        }
    }
    pthread_mutex_unlock(&lock);
    return rc;
}

static int verbs_memset(gasnet_node_t node, const gasneti_rma_key_t *seg, void *dest, int val,
                        size_t n, uint32_t *counter)
{
    if (!seg) seg = &peers[node].seg;
    int rc = 0;
    pthread_mutex_lock(&lock);
    for (size_t off = 0, len; off < n && rc == 0; off += len) {
        len = n - off < bounce_size ? n - off : bounce_size;
        int32_t b;
        wait_for_room(node, 1);
        char *buf = take_bounce(&b);
        memset(buf, val, len);
        uint64_t raddr = (uint64_t)(uintptr_t)dest + off + seg->delta;
        rc = post(node, (uint32_t)seg->key, 0, raddr, buf, (uint32_t)len, bounce_mr->lkey, 0, b,
                  NULL, counter);
    }
    pthread_mutex_unlock(&lock);
    return rc;
}

/* Skips a held lock: its holder polls the CQ itself while it waits for
 * room, and a poll of any thread must not stall behind a bounced copy. */
static void verbs_poll(void)
{
    if (pthread_mutex_trylock(&lock) != 0) return;
    if (inflight) progress();
    pthread_mutex_unlock(&lock);
}

/* Created endpoints' segments (rma.h). CUDA memory registers only where
 * the peer-memory module (nvidia-peermem) lets the HCA reach the GPU. */
static void *verbs_seg_register(void *addr, uintptr_t size, int cuda_device, gasneti_rma_key_t *key,
                                char *why, size_t whylen)
{
    int access = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ;
    struct created *c = malloc(sizeof *c);
    if (!c) gasneti_fatalerror("verbs: out of memory");
    pthread_mutex_lock(&lock);
    struct ibv_mr *mr = ibv_reg_mr(pd, addr, size, access);
    int err = errno;
    if (mr) {
        *c = (struct created){mr, created};
        created = c;
    }
    pthread_mutex_unlock(&lock);
    if (!mr) {
        free(c);
        snprintf(why, whylen, "ibv_reg_mr of %lu bytes of %s with %s failed: %s",
                 (unsigned long)size, cuda_device >= 0 ? "CUDA memory (it needs the peer-memory "
                 "module, nvidia-peermem)" : "host memory", dev_name, strerror(err));
        return NULL;
    }
    *key = (gasneti_rma_key_t){0, mr->rkey};
    return c;
}

static void verbs_seg_unregister(void *handle)
{
    struct created *c = handle, **link = &created;
    pthread_mutex_lock(&lock);
    while (*link != c) link = &(*link)->next;
    *link = c->next;
    ibv_dereg_mr(c->mr);
    pthread_mutex_unlock(&lock);
    free(c);
}

static void verbs_detach(void)
{
    pthread_mutex_lock(&lock);
    while (inflight) progress();
    pthread_mutex_unlock(&lock);
    MPI_Barrier(up_comm); /* no peer still reads or writes this segment */
    MPI_Comm_free(&up_comm);
    teardown();
}

const gasneti_rma_t gasneti_rma_verbs = {
    "verbs", verbs_attach, verbs_put, verbs_get, verbs_memset, verbs_seg_register,
    verbs_seg_unregister, verbs_poll, verbs_detach,
};
