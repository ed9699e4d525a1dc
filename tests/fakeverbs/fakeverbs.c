/* fakeverbs: an emulated RDMA device for tests. Linked into test programs
 * in place of libibverbs (mk/flavor.mk: tests/fakeverbs/<mode>/<test>), it
 * lets core-native/verbs.c run on machines without InfiniBand or RoCE. It
 * is not part of the library and not a libibverbs provider: it implements
 * only the calls verbs.c makes, as the libibverbs manual pages describe
 * them, and checks how they are used. Its symbols are hidden, so the
 * libibverbs that MPI's transports load is untouched.
 *
 * Model: every process is one device on one host. A reliable connection
 * is emulated by reading and writing the peer process's memory with
 * process_vm_readv/process_vm_writev (same user; ibv_open_device allows
 * it with prctl(PR_SET_PTRACER)). The peer is the process named by the
 * address vector the QP was moved to RTR with: the GID carries the process
 * id (RoCE, the default), or the LID is pid % 65535 + 1 (InfiniBand,
 * FAKEVERBS_LINK=ib; the process is found among the pids with that
 * residue running the same executable). Each process keeps its QP and MR
 * tables in `pub`, which peers read at the same offset from the start of
 * the executable's mapping (/proc/PID/maps).
 *
 * Work requests run late: ibv_post_send only queues a WR (an inline WR
 * takes a copy of its data, since the manual lets the caller reuse the
 * buffer at once), and each ibv_poll_cq first executes at most one queued
 * WR per QP of that CQ. A caller that reuses a buffer before its
 * completion, overfills a send queue or a CQ, or counts completions wrong
 * is caught. What is checked (a call fails with an errno value as the
 * manual says, a WR fails with the status real hardware would give, and a
 * CQ overrun or a leak aborts):
 *   - QP transitions RESET -> INIT -> RTR -> RTS with the attribute masks
 *     ibv_modify_qp(3) lists for RC (and no others), a valid port, MTU,
 *     P_Key index, rd_atomic limits, 24-bit PSNs, the AV's addressing;
 *   - ibv_post_send: QP in RTS, room in the send queue, one SGE, every WR
 *     signalled, inline only for writes within max_inline_data, length
 *     within max_msg_sz;
 *   - at execution: the lkey names a live local MR covering the SGE (with
 *     LOCAL_WRITE for a read's destination); the peer's QP is connected
 *     back to this one (its dest QPN, rq_psn and peer match) and grants the
 *     remote access; the rkey names a live MR of the peer covering the
 *     range with that access; a read's initiator depth is within the
 *     peer's responder resources;
 *   - ibv_reg_mr: REMOTE_WRITE needs LOCAL_WRITE; ibv_close_device,
 *     ibv_dealloc_pd, ibv_destroy_cq: nothing created on them is alive.
 * The first failed WR moves the QP to the error state: the WRs queued
 * behind it complete with IBV_WC_WR_FLUSH_ERR.
 *
 * Settings (environment): FAKEVERBS_DEVICES (devices, 0..4, default 1),
 * FAKEVERBS_NODEV_RANK (this rank, from PMI_RANK, PMIX_RANK or
 * OMPI_COMM_WORLD_RANK, sees no device),
 * FAKEVERBS_LINK=roce|ib, FAKEVERBS_PORT1=down (port 1 down; port 2 is
 * always up), FAKEVERBS_MAX_INLINE (default 128), FAKEVERBS_MAX_MSG
 * (default 1 MiB), FAKEVERBS_MAX_CQE (default 4096), FAKEVERBS_MAX_MR
 * (memory registrations, default and at most 64), FAKEVERBS_MAX_QP_WR
 * (default 256), FAKEVERBS_FAIL_WR=N (the N-th WR this process executes
 * fails with IBV_WC_REM_ACCESS_ERR). Callers serialise their calls
 * (verbs.c holds its lock); peers only read `pub`.
 */
/* The C library first: only the verbs declarations are to be hidden. */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

#pragma GCC visibility push(hidden)
#include <infiniband/verbs.h>
#pragma GCC visibility pop

#define HIDDEN __attribute__((visibility("hidden")))
#define MAX_DEVICES 4
#define MAX_QPS 256
#define MAX_MRS 64
#define PORT_MTU IBV_MTU_2048
#define RD_ATOM 4
#define MAGIC 0xfa4e5e5bu

/* What peers read. QP number = index + 1; MR key = pid bits | index + 1. */
typedef struct {
    int state; /* enum ibv_qp_state */
    uint32_t dest_qpn, rq_psn, access;
    int peer_pid;
    uint8_t max_dest_rd_atomic;
} pub_qp_t;
typedef struct {
    int live, access;
    uint64_t addr, len;
    uint32_t key;
} pub_mr_t;
typedef struct {
    uint32_t magic;
    pub_qp_t qp[MAX_QPS];
    pub_mr_t mr[MAX_MRS];
} pub_t;
static pub_t pub;

typedef struct {
    int opcode; /* IBV_WR_RDMA_WRITE or IBV_WR_RDMA_READ */
    uint64_t wr_id, laddr, raddr;
    uint32_t len, lkey, rkey;
    char *inline_copy;
} wqe_t;

typedef struct {
    struct ibv_qp ibv; /* first: the caller's handle */
    struct ibv_qp_cap cap;
    uint8_t port, max_rd_atomic;
    uint32_t sq_psn;
    int peer_pid;
    uintptr_t peer_pub; /* address of `pub` in the peer */
    int in_error;
    wqe_t *sq; /* ring of cap.max_send_wr */
    uint32_t head, count;
} fqp_t;

typedef struct {
    struct ibv_cq ibv;
    struct ibv_wc *ring;
    int head, count;
} fcq_t;

typedef struct {
    struct ibv_context ibv;
    int objects; /* PDs, CQs, QPs and MRs alive on it */
} fctx_t;

typedef struct {
    struct ibv_pd ibv;
    int objects; /* QPs and MRs alive on it */
} fpd_t;

typedef struct {
    struct ibv_mr ibv;
    int index;
} fmr_t;

static struct ibv_device devices[MAX_DEVICES];
static fqp_t *qps[MAX_QPS];
static unsigned long executed; /* WRs executed by this process */

static long setting(const char *name, long dflt)
{
    const char *v = getenv(name);
    return v && *v ? strtol(v, NULL, 0) : dflt;
}

static int ib_mode(void)
{
    const char *v = getenv("FAKEVERBS_LINK");
    return v && !strcmp(v, "ib");
}

static void die(const char *what)
{
    fprintf(stderr, "fakeverbs (pid %d): %s\n", (int)getpid(), what);
    abort();
}

/* ---- finding a peer process and its `pub` */

/* Where the executable is mapped in process pid (0: not found). */
static uintptr_t exe_base(int pid)
{
    char exe[PATH_MAX], maps[64], line[PATH_MAX + 256];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (len <= 0) return 0;
    exe[len] = '\0';
    snprintf(maps, sizeof maps, "/proc/%d/maps", pid);
    FILE *f = fopen(maps, "r");
    uintptr_t base = 0;
    while (f && !base && fgets(line, sizeof line, f)) {
        unsigned long lo, hi, off;
        int name = 0;
        if (sscanf(line, "%lx-%lx %*s %lx %*s %*s %n", &lo, &hi, &off, &name) >= 3 && name &&
            off == 0 && !strncmp(line + name, exe, (size_t)len) && line[name + len] == '\n')
            base = lo;
    }
    if (f) fclose(f);
    return base;
}

static int same_exe(int pid)
{
    char a[PATH_MAX], b[PATH_MAX], link[64];
    snprintf(link, sizeof link, "/proc/%d/exe", pid);
    ssize_t la = readlink("/proc/self/exe", a, sizeof a), lb = readlink(link, b, sizeof b);
    return la > 0 && la == lb && !memcmp(a, b, (size_t)la);
}

static int peek(int pid, uintptr_t addr, void *buf, size_t len)
{
    struct iovec local = {buf, len}, remote = {(void *)addr, len};
    return process_vm_readv(pid, &local, 1, &remote, 1, 0) == (ssize_t)len ? 0 : -1;
}

/* The address of pid's `pub`, checked by its magic (0: none). */
static uintptr_t peer_pub(int pid)
{
    uintptr_t mine = exe_base(getpid()), theirs = exe_base(pid);
    if (!mine || !theirs) return 0;
    uintptr_t addr = theirs + ((uintptr_t)&pub - mine);
    uint32_t magic = 0;
    if (peek(pid, addr, &magic, sizeof magic)) {
        fprintf(stderr, "fakeverbs (pid %d): cannot read process %d: %s (ptrace restrictions?)\n",
                (int)getpid(), pid, strerror(errno));
        return 0;
    }
    return magic == MAGIC ? addr : 0;
}

static void make_gid(union ibv_gid *gid)
{
    uint32_t pid = (uint32_t)getpid();
    memset(gid, 0, sizeof *gid);
    gid->raw[0] = 0xfe;
    gid->raw[1] = 0x80;
    memcpy(&gid->raw[8], "FAKE", 4);
    for (int i = 0; i < 4; i++) gid->raw[12 + i] = (uint8_t)(pid >> (24 - 8 * i));
}

/* The process an address vector names (0: none). */
static int resolve(const struct ibv_ah_attr *ah)
{
    if (!ib_mode()) {
        const uint8_t *g = ah->grh.dgid.raw;
        if (!ah->is_global || g[0] != 0xfe || g[1] != 0x80 || memcmp(&g[8], "FAKE", 4)) return 0;
        return (int)((uint32_t)g[12] << 24 | (uint32_t)g[13] << 16 | (uint32_t)g[14] << 8 | g[15]);
    }
    if (ah->dlid == 0) return 0;
    for (long pid = ah->dlid - 1; pid < 64L * 65535; pid += 65535)
        if (pid > 0 && same_exe((int)pid) && peer_pub((int)pid)) return (int)pid;
    return 0;
}

/* ---- devices */

HIDDEN struct ibv_device **ibv_get_device_list(int *num)
{
    long n = setting("FAKEVERBS_DEVICES", 1);
    const char *rank = getenv("PMI_RANK"); /* the launcher's rank (MPICH, then others) */
    if (!rank) rank = getenv("PMIX_RANK");
    if (!rank) rank = getenv("OMPI_COMM_WORLD_RANK");
    if (rank && setting("FAKEVERBS_NODEV_RANK", -1) == strtol(rank, NULL, 10)) n = 0;
    if (n < 0 || n > MAX_DEVICES) die("FAKEVERBS_DEVICES must be 0..4");
    struct ibv_device **list = calloc((size_t)n + 1, sizeof *list);
    if (!list) {
        errno = ENOMEM;
        return NULL;
    }
    for (int i = 0; i < n; i++) {
        snprintf(devices[i].name, sizeof devices[i].name, "fake%d", i);
        snprintf(devices[i].ibdev_path, sizeof devices[i].ibdev_path, "/nonexistent/fake%d", i);
        list[i] = &devices[i];
    }
    if (num) *num = (int)n;
    return list;
}

HIDDEN void ibv_free_device_list(struct ibv_device **list)
{
    free(list);
}

HIDDEN const char *ibv_get_device_name(struct ibv_device *device)
{
    return device->name;
}

static int fake_post_send(struct ibv_qp *qp, struct ibv_send_wr *wr, struct ibv_send_wr **bad);
static int fake_poll_cq(struct ibv_cq *cq, int n, struct ibv_wc *wc);

HIDDEN struct ibv_context *ibv_open_device(struct ibv_device *device)
{
    fctx_t *c = calloc(1, sizeof *c);
    if (!c) {
        errno = ENOMEM;
        return NULL;
    }
    c->ibv.device = device;
    c->ibv.ops.post_send = fake_post_send;
    c->ibv.ops.poll_cq = fake_poll_cq;
    c->ibv.num_comp_vectors = 1;
    pub.magic = MAGIC;
    prctl(PR_SET_PTRACER, PR_SET_PTRACER_ANY, 0, 0, 0); /* fails harmlessly without Yama */
    return &c->ibv;
}

HIDDEN int ibv_close_device(struct ibv_context *context)
{
    fctx_t *c = (fctx_t *)context;
    if (c->objects) die("ibv_close_device with PDs, CQs, QPs or MRs still alive");
    free(c);
    return 0;
}

HIDDEN int ibv_query_device(struct ibv_context *context, struct ibv_device_attr *a)
{
    (void)context;
    memset(a, 0, sizeof *a);
    snprintf(a->fw_ver, sizeof a->fw_ver, "fakeverbs");
    a->max_mr_size = UINT64_MAX;
    a->max_qp = MAX_QPS;
    a->max_qp_wr = (int)setting("FAKEVERBS_MAX_QP_WR", 256);
    a->max_sge = a->max_sge_rd = 1;
    a->max_cq = 16;
    a->max_cqe = (int)setting("FAKEVERBS_MAX_CQE", 4096);
    a->max_mr = (int)setting("FAKEVERBS_MAX_MR", MAX_MRS);
    a->max_pd = 16;
    a->max_qp_rd_atom = a->max_qp_init_rd_atom = RD_ATOM;
    a->max_pkeys = 1;
    a->phys_port_cnt = 2;
    return 0;
}

static int port_active(uint8_t port)
{
    const char *p1 = getenv("FAKEVERBS_PORT1");
    return port == 2 || (port == 1 && !(p1 && !strcmp(p1, "down")));
}

#undef ibv_query_port
HIDDEN int ibv_query_port(struct ibv_context *context, uint8_t port,
                          struct _compat_ibv_port_attr *compat)
{
    struct ibv_port_attr *a = (struct ibv_port_attr *)compat; /* verbs.h passes the full struct */
    (void)context;
    if (port < 1 || port > 2) return EINVAL;
    memset(a, 0, sizeof *a);
    a->state = port_active(port) ? IBV_PORT_ACTIVE : IBV_PORT_DOWN;
    a->max_mtu = a->active_mtu = PORT_MTU;
    a->gid_tbl_len = 2;
    a->max_msg_sz = (uint32_t)setting("FAKEVERBS_MAX_MSG", 1 << 20);
    a->pkey_tbl_len = 1;
    a->link_layer = ib_mode() ? IBV_LINK_LAYER_INFINIBAND : IBV_LINK_LAYER_ETHERNET;
    if (ib_mode()) a->lid = (uint16_t)(getpid() % 65535 + 1);
    return 0;
}

/* GID 0 names this process; GID 1 is empty; there are no others. */
HIDDEN int ibv_query_gid(struct ibv_context *context, uint8_t port, int index, union ibv_gid *gid)
{
    (void)context;
    if (port < 1 || port > 2 || index < 0 || index > 1) return -1;
    if (index == 0)
        make_gid(gid);
    else
        memset(gid, 0, sizeof *gid);
    return 0;
}

HIDDEN const char *ibv_port_state_str(enum ibv_port_state state)
{
    return state == IBV_PORT_ACTIVE ? "PORT_ACTIVE" : state == IBV_PORT_DOWN ? "PORT_DOWN" : "PORT_OTHER";
}

HIDDEN const char *ibv_wc_status_str(enum ibv_wc_status status)
{
    switch (status) {
    case IBV_WC_SUCCESS: return "success";
    case IBV_WC_LOC_PROT_ERR: return "local protection error";
    case IBV_WC_WR_FLUSH_ERR: return "Work Request Flushed Error";
    case IBV_WC_REM_INV_REQ_ERR: return "remote invalid request error";
    case IBV_WC_REM_ACCESS_ERR: return "remote access error";
    case IBV_WC_RETRY_EXC_ERR: return "transport retry counter exceeded";
    default: return "unknown";
    }
}

/* ---- PD, MR, CQ */

HIDDEN struct ibv_pd *ibv_alloc_pd(struct ibv_context *context)
{
    fpd_t *pd = calloc(1, sizeof *pd);
    if (!pd) {
        errno = ENOMEM;
        return NULL;
    }
    pd->ibv.context = context;
    ((fctx_t *)context)->objects++;
    return &pd->ibv;
}

HIDDEN int ibv_dealloc_pd(struct ibv_pd *ibpd)
{
    fpd_t *pd = (fpd_t *)ibpd;
    if (pd->objects) return EBUSY;
    ((fctx_t *)pd->ibv.context)->objects--;
    free(pd);
    return 0;
}

static struct ibv_mr *reg(struct ibv_pd *pd, void *addr, size_t len, unsigned access)
{
    if ((access & IBV_ACCESS_REMOTE_WRITE) && !(access & IBV_ACCESS_LOCAL_WRITE)) {
        errno = EINVAL;
        return NULL;
    }
    int i = 0, max = (int)setting("FAKEVERBS_MAX_MR", MAX_MRS);
    while (i < max && i < MAX_MRS && pub.mr[i].live) i++;
    fmr_t *mr = i < max && i < MAX_MRS ? calloc(1, sizeof *mr) : NULL;
    if (!mr) {
        errno = ENOMEM;
        return NULL;
    }
    uint32_t key = ((uint32_t)getpid() & 0xfffff) << 12 | (uint32_t)(i + 1);
    pub.mr[i] = (pub_mr_t){1, (int)access, (uint64_t)(uintptr_t)addr, len, key};
    mr->index = i;
    mr->ibv = (struct ibv_mr){pd->context, pd, addr, len, 0, key, key};
    ((fctx_t *)pd->context)->objects++;
    ((fpd_t *)pd)->objects++;
    return &mr->ibv;
}

#undef ibv_reg_mr
HIDDEN struct ibv_mr *ibv_reg_mr(struct ibv_pd *pd, void *addr, size_t len, int access)
{
    return reg(pd, addr, len, (unsigned)access);
}

HIDDEN struct ibv_mr *ibv_reg_mr_iova2(struct ibv_pd *pd, void *addr, size_t len, uint64_t iova,
                                       unsigned access)
{
    if (iova != (uint64_t)(uintptr_t)addr) { /* only what ibv_reg_mr passes */
        errno = EINVAL;
        return NULL;
    }
    return reg(pd, addr, len, access);
}

HIDDEN int ibv_dereg_mr(struct ibv_mr *ibmr)
{
    fmr_t *mr = (fmr_t *)ibmr;
    pub.mr[mr->index].live = 0;
    ((fctx_t *)ibmr->context)->objects--;
    ((fpd_t *)ibmr->pd)->objects--;
    free(mr);
    return 0;
}

HIDDEN struct ibv_cq *ibv_create_cq(struct ibv_context *context, int cqe, void *cq_context,
                                    struct ibv_comp_channel *channel, int comp_vector)
{
    fcq_t *cq = calloc(1, sizeof *cq);
    if (cqe < 1 || cqe > setting("FAKEVERBS_MAX_CQE", 4096) || channel || comp_vector != 0 || !cq ||
        !(cq->ring = calloc((size_t)cqe, sizeof *cq->ring))) {
        free(cq);
        errno = EINVAL;
        return NULL;
    }
    cq->ibv.context = context;
    cq->ibv.cq_context = cq_context;
    cq->ibv.cqe = cqe;
    ((fctx_t *)context)->objects++;
    return &cq->ibv;
}

HIDDEN int ibv_destroy_cq(struct ibv_cq *ibcq)
{
    for (int i = 0; i < MAX_QPS; i++)
        if (qps[i] && (qps[i]->ibv.send_cq == ibcq || qps[i]->ibv.recv_cq == ibcq)) return EBUSY;
    fcq_t *cq = (fcq_t *)ibcq;
    ((fctx_t *)ibcq->context)->objects--;
    free(cq->ring);
    free(cq);
    return 0;
}

/* ---- QP */

HIDDEN struct ibv_qp *ibv_create_qp(struct ibv_pd *pd, struct ibv_qp_init_attr *ia)
{
    int i = 0;
    while (i < MAX_QPS && qps[i]) i++;
    if (i == MAX_QPS || ia->qp_type != IBV_QPT_RC || !ia->send_cq || !ia->recv_cq || ia->srq ||
        ia->cap.max_send_wr < 1 || ia->cap.max_send_wr > (uint32_t)setting("FAKEVERBS_MAX_QP_WR", 256) ||
        ia->cap.max_send_sge > 1 || ia->cap.max_recv_sge > 1 ||
        ia->cap.max_inline_data > (uint32_t)setting("FAKEVERBS_MAX_INLINE", 128)) {
        errno = EINVAL;
        return NULL;
    }
    fqp_t *qp = calloc(1, sizeof *qp);
    if (!qp || !(qp->sq = calloc(ia->cap.max_send_wr, sizeof *qp->sq))) {
        free(qp);
        errno = ENOMEM;
        return NULL;
    }
    if (!ia->sq_sig_all) die("only sq_sig_all QPs are emulated");
    qp->cap = ia->cap;
    qp->ibv.context = pd->context;
    qp->ibv.qp_context = ia->qp_context;
    qp->ibv.pd = pd;
    qp->ibv.send_cq = ia->send_cq;
    qp->ibv.recv_cq = ia->recv_cq;
    qp->ibv.qp_num = (uint32_t)i + 1;
    qp->ibv.state = IBV_QPS_RESET;
    qp->ibv.qp_type = IBV_QPT_RC;
    pub.qp[i] = (pub_qp_t){IBV_QPS_RESET, 0, 0, 0, 0, 0};
    qps[i] = qp;
    ((fctx_t *)pd->context)->objects++;
    ((fpd_t *)pd)->objects++;
    return &qp->ibv;
}

HIDDEN int ibv_destroy_qp(struct ibv_qp *ibqp)
{
    fqp_t *qp = (fqp_t *)ibqp;
    int i = (int)ibqp->qp_num - 1;
    pub.qp[i].state = IBV_QPS_RESET;
    qps[i] = NULL;
    for (uint32_t k = 0; k < qp->count; k++) free(qp->sq[(qp->head + k) % qp->cap.max_send_wr].inline_copy);
    ((fctx_t *)ibqp->context)->objects--;
    ((fpd_t *)ibqp->pd)->objects--;
    free(qp->sq);
    free(qp);
    return 0;
}

HIDDEN int ibv_modify_qp(struct ibv_qp *ibqp, struct ibv_qp_attr *a, int mask)
{
    fqp_t *qp = (fqp_t *)ibqp;
    pub_qp_t *p = &pub.qp[ibqp->qp_num - 1];
    int from = ibqp->state, to = a->qp_state, need;
    if (!(mask & IBV_QP_STATE)) return EINVAL;
    if (from == IBV_QPS_RESET && to == IBV_QPS_INIT)
        need = IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS;
    else if (from == IBV_QPS_INIT && to == IBV_QPS_RTR)
        need = IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
               IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER;
    else if (from == IBV_QPS_RTR && to == IBV_QPS_RTS)
        need = IBV_QP_STATE | IBV_QP_SQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC | IBV_QP_RETRY_CNT |
               IBV_QP_RNR_RETRY | IBV_QP_TIMEOUT;
    else if (to == IBV_QPS_RESET || to == IBV_QPS_ERR)
        need = IBV_QP_STATE;
    else
        return EINVAL;
    if (mask != need) return EINVAL; /* required ones missing, or optional ones (not emulated) */
    if (to == IBV_QPS_INIT) {
        if (a->port_num < 1 || a->port_num > 2 || a->pkey_index != 0) return EINVAL;
        qp->port = a->port_num;
        p->access = a->qp_access_flags;
    } else if (to == IBV_QPS_RTR) {
        const struct ibv_ah_attr *ah = &a->ah_attr;
        union ibv_gid sgid;
        if (a->path_mtu < IBV_MTU_256 || a->path_mtu > PORT_MTU || a->dest_qp_num == 0 ||
            a->dest_qp_num > 0xffffff || a->rq_psn > 0xffffff || a->max_dest_rd_atomic > RD_ATOM ||
            a->min_rnr_timer > 31 || ah->port_num != qp->port || !port_active(ah->port_num))
            return EINVAL;
        if (!ib_mode() && !ah->is_global) return EINVAL; /* RoCE needs a GRH */
        if (ah->is_global && (ibv_query_gid(ibqp->context, qp->port, ah->grh.sgid_index, &sgid) ||
                              sgid.global.interface_id == 0))
            return EINVAL;
        int pid = resolve(ah);
        uintptr_t addr = pid ? peer_pub(pid) : 0;
        if (!addr) return EINVAL;
        qp->peer_pid = pid;
        qp->peer_pub = addr;
        p->dest_qpn = a->dest_qp_num;
        p->rq_psn = a->rq_psn;
        p->peer_pid = pid;
        p->max_dest_rd_atomic = a->max_dest_rd_atomic;
    } else if (to == IBV_QPS_RTS) {
        if (a->sq_psn > 0xffffff || a->max_rd_atomic > RD_ATOM || a->timeout > 31 ||
            a->retry_cnt > 7 || a->rnr_retry > 7)
            return EINVAL;
        qp->sq_psn = a->sq_psn;
        qp->max_rd_atomic = a->max_rd_atomic;
    }
    ibqp->state = (enum ibv_qp_state)to;
    p->state = to;
    return 0;
}

/* ---- work requests */

static int fake_post_send(struct ibv_qp *ibqp, struct ibv_send_wr *wr, struct ibv_send_wr **bad)
{
    fqp_t *qp = (fqp_t *)ibqp;
    uint32_t max_msg = (uint32_t)setting("FAKEVERBS_MAX_MSG", 1 << 20);
    for (; wr; wr = wr->next) {
        int err = 0, is_inline = (wr->send_flags & IBV_SEND_INLINE) != 0;
        if ((ibqp->state != IBV_QPS_RTS && ibqp->state != IBV_QPS_ERR) || wr->num_sge != 1 ||
            (wr->opcode != IBV_WR_RDMA_WRITE && wr->opcode != IBV_WR_RDMA_READ) ||
            wr->sg_list[0].length > max_msg ||
            (is_inline && (wr->opcode != IBV_WR_RDMA_WRITE || wr->sg_list[0].length > qp->cap.max_inline_data)))
            err = EINVAL;
        else if (qp->count == qp->cap.max_send_wr)
            err = ENOMEM;
        if (err) {
            *bad = wr;
            return err;
        }
        wqe_t w = {wr->opcode, wr->wr_id, wr->sg_list[0].addr, wr->wr.rdma.remote_addr,
                   wr->sg_list[0].length, wr->sg_list[0].lkey, wr->wr.rdma.rkey, NULL};
        if (is_inline) {
            if (!(w.inline_copy = malloc(w.len ? w.len : 1))) {
                *bad = wr;
                return ENOMEM;
            }
            memcpy(w.inline_copy, (void *)(uintptr_t)w.laddr, w.len);
        }
        qp->sq[(qp->head + qp->count++) % qp->cap.max_send_wr] = w;
    }
    return 0;
}

static int covers(const pub_mr_t *mr, uint32_t key, uint64_t addr, uint64_t len, int access)
{
    return mr->live && mr->key == key && (mr->access & access) == access && addr >= mr->addr &&
           addr - mr->addr <= mr->len && len <= mr->len - (addr - mr->addr);
}

/* Runs one WR against the peer; returns its completion status. */
static enum ibv_wc_status execute(fqp_t *qp, const wqe_t *w)
{
    int is_read = w->opcode == IBV_WR_RDMA_READ;
    int fail_at = (int)setting("FAKEVERBS_FAIL_WR", 0);
    if (++executed == (unsigned long)fail_at) return IBV_WC_REM_ACCESS_ERR;
    if (!w->inline_copy) {
        uint32_t i = (w->lkey & 0xfff) - 1;
        if (i >= MAX_MRS || !covers(&pub.mr[i], w->lkey, w->laddr, w->len,
                                    is_read ? IBV_ACCESS_LOCAL_WRITE : 0))
            return IBV_WC_LOC_PROT_ERR;
    }
    pub_qp_t peer;
    uint32_t dest_qpn = pub.qp[qp->ibv.qp_num - 1].dest_qpn;
    uintptr_t at = qp->peer_pub + offsetof(pub_t, qp) + (uintptr_t)(dest_qpn - 1) * sizeof peer;
    if (peek(qp->peer_pid, at, &peer, sizeof peer) ||
        (peer.state != IBV_QPS_RTR && peer.state != IBV_QPS_RTS) ||
        peer.dest_qpn != qp->ibv.qp_num || peer.peer_pid != (int)getpid() || peer.rq_psn != qp->sq_psn)
        return IBV_WC_RETRY_EXC_ERR; /* nobody answers at the other end */
    if (!(peer.access & (is_read ? IBV_ACCESS_REMOTE_READ : IBV_ACCESS_REMOTE_WRITE)))
        return IBV_WC_REM_ACCESS_ERR;
    if (is_read && qp->max_rd_atomic > peer.max_dest_rd_atomic) return IBV_WC_REM_INV_REQ_ERR;
    pub_mr_t mr;
    uint32_t k = (w->rkey & 0xfff) - 1;
    if (k >= MAX_MRS ||
        peek(qp->peer_pid, qp->peer_pub + offsetof(pub_t, mr) + k * sizeof mr, &mr, sizeof mr) ||
        !covers(&mr, w->rkey, w->raddr, w->len,
                is_read ? IBV_ACCESS_REMOTE_READ : IBV_ACCESS_REMOTE_WRITE))
        return IBV_WC_REM_ACCESS_ERR;
    void *local = w->inline_copy ? w->inline_copy : (void *)(uintptr_t)w->laddr;
    struct iovec l = {local, w->len}, r = {(void *)(uintptr_t)w->raddr, w->len};
    ssize_t done = is_read ? process_vm_readv(qp->peer_pid, &l, 1, &r, 1, 0)
                           : process_vm_writev(qp->peer_pid, &l, 1, &r, 1, 0);
    return done == (ssize_t)w->len ? IBV_WC_SUCCESS : IBV_WC_REM_ACCESS_ERR;
}

static void push(fcq_t *cq, const struct ibv_wc *wc)
{
    if (cq->count == cq->ibv.cqe) die("CQ overrun: more completions than the CQ holds");
    cq->ring[(cq->head + cq->count++) % cq->ibv.cqe] = *wc;
}

static int fake_poll_cq(struct ibv_cq *ibcq, int n, struct ibv_wc *wc)
{
    fcq_t *cq = (fcq_t *)ibcq;
    for (int i = 0; i < MAX_QPS; i++) {
        fqp_t *qp = qps[i];
        if (!qp || qp->ibv.send_cq != ibcq || qp->count == 0) continue;
        wqe_t *w = &qp->sq[qp->head];
        struct ibv_wc done;
        memset(&done, 0, sizeof done);
        done.wr_id = w->wr_id;
        done.qp_num = qp->ibv.qp_num;
        done.status = qp->in_error ? IBV_WC_WR_FLUSH_ERR : execute(qp, w);
        done.opcode = w->opcode == IBV_WR_RDMA_READ ? IBV_WC_RDMA_READ : IBV_WC_RDMA_WRITE;
        done.byte_len = w->opcode == IBV_WR_RDMA_READ ? w->len : 0;
        if (done.status != IBV_WC_SUCCESS) {
            qp->in_error = 1;
            qp->ibv.state = IBV_QPS_ERR;
            pub.qp[i].state = IBV_QPS_ERR;
        }
        free(w->inline_copy);
        qp->head = (qp->head + 1) % qp->cap.max_send_wr;
        qp->count--;
        push(cq, &done);
    }
    int got = 0;
    for (; got < n && cq->count; got++, cq->count--) {
        wc[got] = cq->ring[cq->head];
        cq->head = (cq->head + 1) % cq->ibv.cqe;
    }
    return got;
}
