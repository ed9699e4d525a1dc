/* The ofi backend: puts and gets as libfabric RMA on a reliable datagram
 * (FI_EP_RDM) endpoint.
 *
 * SET-UP (attach, collective). fi_getinfo asks for FI_RMA with local and
 * remote read and write on an RDM endpoint; libfabric reads FI_PROVIDER
 * itself and lists what fits in its order of preference. We keep its first
 * provider and, among that provider's entries (one per NIC, address family
 * or domain), take the one whose device gasneti_nic_distance puts nearest
 * to this process's cores: the PCI address from the entry's nic attributes
 * when it has one, else the domain name (a network interface such as
 * "eth0", which hwloc knows by name). Unknown distances rank last and ties
 * keep libfabric's order, so on a host with one NIC (or virtual ones that
 * hwloc cannot place, as here) libfabric's first entry is used. Then:
 * fabric, domain, a completion queue, an address vector (FI_AV_TABLE), the
 * endpoint, and this node's segment registered for remote read and write.
 * Every node, whether its set-up worked or not, then makes the same MPI
 * calls on gasnetc_comm: an allgather of (ok, provider, mr_mode, MR key,
 * reason, endpoint name); each node inserts the names of the nodes that
 * use the same provider into its AV; an alltoall tells each node which
 * peers could insert it, and a peer is served (reach[p]) only where both
 * directions work. Segment bases need no exchange: gasneti_seginfo holds
 * every node's already.
 *
 * MEMORY REGISTRATION. The hints accept FI_MR_VIRT_ADDR (remote addresses
 * are virtual addresses, else offsets from the segment base), FI_MR_PROV_KEY
 * (we exchange whatever key fi_mr_key reports, so a requested key of 0 or a
 * provider's own both work) and FI_MR_ALLOCATED (the segment's pages are
 * touched before registering). They do not accept FI_MR_LOCAL: a get may
 * land, and a bulk put may start, anywhere in the client's memory, which we
 * would have to register per operation; providers that need it either hide
 * it (the ofi_rxm layer does) or are not chosen. Local buffers are passed
 * with no descriptor, as fi_mr(3) recommends then. FI_MR_ENDPOINT and
 * FI_MR_RAW are not accepted either (no provider here needs them).
 * Created endpoints' segments are registered when published (rma.h), with
 * keys we choose (1, 2, ...; the primordial segment's is 0) where the
 * provider does not choose them; device memory with fi_mr_regattr
 * (FI_HMEM_CUDA) where the provider has FI_HMEM (prefer_hmem). Each op
 * carries the key and address translation of its remote segment.
 *
 * OPERATIONS. Every write and read carries an op record as its context.
 * The records form a fixed pool (the provider's TX queue size, clamped to
 * 16..4096), so the number of transfers in flight is bounded by it; a
 * caller that finds the pool empty polls until one frees.
 * Transfers larger than the endpoint's max_msg_size are split, each piece
 * with its own record.
 *   put, n <= inject_size    fi_writemsg with FI_INJECT: the source is
 *                            copied before the call returns.
 *   put, bulk                fi_writemsg straight from the source, which
 *                            the client leaves alone until the sync.
 *   put, non-bulk, larger    copied into a bounce buffer (pieces of up to
 *                            BOUNCE_SIZE) that the record holds until the
 *                            completion: the caller may reuse its source at
 *                            once and still overlap the transfer, rather
 *                            than waiting a round trip per put. NBOUNCE
 *                            buffers exist; when all are in flight the
 *                            caller polls until one frees. They are
 *                            not registered (no FI_MR_LOCAL, see above).
 *   get                      fi_readmsg into the destination.
 *   memset                   not provided (NULL): the AM path serves it.
 * fi_inject_write is not used: it reports no completion at all, while a
 * put's sync must know that the data reached the target. Writes therefore
 * ask for FI_DELIVERY_COMPLETE (also required of the provider in the hints):
 * their completion means the data is visible in the target's memory, so a
 * synced put followed by a barrier is seen by every node.
 *
 * COMPLETION COUNTING (rma.h). Before posting a piece we add 1 to the
 * caller's counter; poll() reads the CQ and, for each completion, returns
 * the record (and its bounce buffer) to the pools and then subtracts 1
 * from the counter with release ordering. After that subtraction the
 * counter is never touched again (it may live on a stack that is gone). A
 * CQ error is fatal, naming the operation, the peer, the address and the
 * provider's reason. A post that meets FI_EAGAIN (queue full) polls and
 * retries; it never spins without progressing.
 *
 * PROGRESS. We ask for FI_PROGRESS_MANUAL data progress (any provider
 * fits; one that insists on its own threads is taken as it is): providers
 * then progress only when we read the CQ, at the target of an RMA too, and
 * no provider thread competes with the nodes for cores (sockets' threads
 * made each transfer take ~15 ms on a busy 2-core host). poll() reads the
 * CQ on every GASNet poll of every node (am.c, the progress thread), even
 * with nothing of its own in flight, and that serves the peers' transfers;
 * a node that stays out of GASNet delays its peers' RMA to it, as it
 * delays their AMs. The loops that wait for a record or a queue slot call
 * the whole GASNet poll, not only ours: the peer we wait for may itself be
 * waiting, outside our poll, for AM credits that only our AM polling
 * returns (that cycle hung 3-node floods over shm).
 *
 * THREADS. One mutex guards every libfabric call and both pools, so the
 * domain needs only FI_THREAD_DOMAIN. poll() only tries the lock and skips
 * a held one: the holder is briefly taking a record or posting, and the
 * next poll reaps what this one skipped.
 *
 * SHUTDOWN. detach (at MPI_Finalize, collective over the nodes this
 * backend serves, which form ofi.comm) waits for this node's transfers,
 * then for every such node in a barrier while progressing (peers may still
 * need this node's progress), then closes everything.
 *
 * PROVIDERS seen here (libfabric 1.17; inject_size, TX queue, mr_mode):
 * tcp;ofi_rxm (64, 2048, none; libfabric's default), sockets (255, 256,
 * none), shm (4096, 1024, FI_MR_VIRT_ADDR), udp;ofi_rxd (1256, 1024, none);
 * max_msg_size is about 2^64 for all, so nothing is split in practice. All
 * pass the extended-API tests. shm, though, creates a 16 MB region in
 * /dev/shm per endpoint (named after its address, fi_shm://NAME) that only
 * fi_close (or libfabric's exit-time destructor) unlinks, while GASNet
 * ends its processes with _exit and a killed node runs nothing: a region
 * left behind also makes a later process with a recycled pid fail in
 * fi_enable (EBUSY). So attach unlinks the name as soon as every node has
 * inserted every other into its address vector, which maps the peers'
 * regions (libfabric 1.17): the memory lives on in the mappings.
 *
 * MEMORY per node, paid only where ofi is tried (GASNET_RMA=ofi, or auto
 * with a peer on another host): the op pool (at most 4096 records of 48
 * bytes), the bounce buffers (NBOUNCE x BOUNCE_SIZE = 2 MiB), 16 bytes per
 * node (AV address and key) plus the provider's AV entry and, for
 * connection-based providers (ofi_rxm), a connection to each peer actually
 * used; attach briefly holds every node's card (about 200 bytes plus the
 * address). The provider's own is most of it: measured (peak per process,
 * 4 ranks, tests/mem_probe.c) 16.4 MB without ofi, 89 MB over tcp;ofi_rxm
 * with rxm's default 16 KiB buffers, 40 MB with the 4 KiB ones open_lib
 * asks for, 24 MB over shm, 19.5 MB over sockets (docs/memory.md).
 */
#include "rma.h"
#include "memkind.h"

#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <rdma/fabric.h>
#include <rdma/fi_cm.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_endpoint.h>
#include <rdma/fi_errno.h>
#include <rdma/fi_rma.h>

#include <dlfcn.h>

/* libfabric is opened at the first attach that tries this backend, not
 * linked: Debian's libfabric pulls in libpsm_infinipath, whose constructor
 * spends 0.2 s of every process's start timing a clock, which a job on one
 * host (it never tries ofi) need not pay. Only these five are functions
 * in the library; the rest of the API is inline calls through the objects'
 * operation tables. */
static struct {
    int (*getinfo)(uint32_t, const char *, const char *, uint64_t, const struct fi_info *,
                   struct fi_info **);
    void (*freeinfo)(struct fi_info *);
    struct fi_info *(*dupinfo)(const struct fi_info *);
    int (*fabric)(struct fi_fabric_attr *, struct fid_fabric **, void *);
    const char *(*strerror)(int);
} lib;
#define fi_getinfo lib.getinfo
#define fi_freeinfo lib.freeinfo
#define fi_dupinfo lib.dupinfo
#define fi_fabric lib.fabric
#define fi_strerror lib.strerror

static int open_lib(char *why, size_t whylen)
{
    if (lib.strerror) return 0;
    /* ofi_rxm preallocates pools of 16 KiB buffers for the messages we
     * never send (we ask for FI_RMA only): 61 MB per process of the 72 MB
     * the tcp;ofi_rxm provider cost here. 4 KiB buffers leave 23 MB;
     * puts and gets took the same time (MEMORY above). Set before
     * libfabric reads it; a value the user set wins. */
    setenv("FI_OFI_RXM_BUFFER_SIZE", "4096", 0);
    void *h = dlopen("libfabric.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        snprintf(why, whylen, "libfabric.so.1 could not be opened on node %u: %s", gasneti_mynode,
                 dlerror());
        return -1;
    }
    *(void **)&lib.getinfo = dlsym(h, "fi_getinfo");
    *(void **)&lib.freeinfo = dlsym(h, "fi_freeinfo");
    *(void **)&lib.dupinfo = dlsym(h, "fi_dupinfo");
    *(void **)&lib.fabric = dlsym(h, "fi_fabric");
    *(void **)&lib.strerror = dlsym(h, "fi_strerror");
    if (!lib.getinfo || !lib.freeinfo || !lib.dupinfo || !lib.fabric || !lib.strerror) {
        snprintf(why, whylen, "libfabric.so.1 on node %u lacks fi_getinfo, fi_freeinfo, "
                 "fi_dupinfo, fi_fabric or fi_strerror", gasneti_mynode);
        memset(&lib, 0, sizeof lib);
        dlclose(h);
        return -1;
    }
    return 0; /* kept open: libfabric's providers stay loaded until exit */
}

#define BOUNCE_SIZE ((size_t)64 * 1024)
#define NBOUNCE 32
#define CQ_BATCH 16

typedef struct op {
    uint32_t *counter; /* the caller's, decremented at completion */
    struct op *next;   /* free list */
    char *bounce;      /* held until completion, or NULL */
    void *remote;      /* the owner's address */
    size_t len;
    gasnet_node_t node;
    int write;
} op_t;

/* A created segment's registration (rma.h seg_register), listed so that
 * teardown closes what is left after the detach barrier. */
struct created {
    struct fid_mr *mr;
    struct created *next;
};

static struct {
    struct fi_info *info;
    struct fid_fabric *fabric;
    struct fid_domain *domain;
    struct fid_cq *cq;
    struct fid_av *av;
    struct fid_ep *ep;
    struct fid_mr *mr;
    int virt_addr;      /* remote addresses are virtual, not offsets */
    size_t inject, max_msg;
    fi_addr_t *addr;    /* per node */
    gasneti_rma_key_t *key; /* per node: its primordial segment's */
    pthread_mutex_t lock;
    op_t *ops, *free_ops;
    char *bounce_mem, *free_bounce[NBOUNCE];
    int nfree_bounce, inflight; /* under lock */
    MPI_Comm comm;      /* the nodes this backend serves, for detach */
    struct created *created; /* created segments' registrations, closed at teardown */
} ofi = {.lock = PTHREAD_MUTEX_INITIALIZER, .comm = MPI_COMM_NULL};

/* ---- set-up */

/* A candidate's distance from our cores, INT_MAX when unknown. */
static int distance(const struct fi_info *i)
{
    int d = -1;
    if (i->nic && i->nic->bus_attr && i->nic->bus_attr->bus_type == FI_BUS_PCI) {
        const struct fi_pci_attr *pci = &i->nic->bus_attr->attr.pci;
        char busid[32];
        snprintf(busid, sizeof busid, "%04x:%02x:%02x.%x", pci->domain_id, pci->bus_id,
                 pci->device_id, pci->function_id);
        d = gasneti_nic_distance(busid);
    }
    if (d < 0 && i->nic && i->nic->device_attr && i->nic->device_attr->name)
        d = gasneti_nic_distance(i->nic->device_attr->name);
    if (d < 0 && i->domain_attr->name) d = gasneti_nic_distance(i->domain_attr->name);
    return d < 0 ? INT_MAX : d;
}

/* PROVIDERS. Under GASNET_RMA=auto, with no FI_PROVIDER set, the first
 * provider libfabric offers that is neither an emulation of RMA over TCP
 * or UDP sockets (tcp, sockets, udp, net, with or without a utility
 * provider over them) nor shm (it reaches only this host, whose peers the
 * shm backend serves). Over sockets the AM path over MPI wins at
 * everything (this VM: an 8-byte get 9.5 us against 1.05, 4 MB puts at
 * 0.55x MPI's bandwidth against 0.85x), and their manual progress, a CQ
 * read in every poll, made every AM round trip over MPI 4.7x MPI's
 * instead of 1.2x. GASNET_RMA=ofi, or FI_PROVIDER naming one, still takes
 * them. */
static int left_to_am(const char *prov)
{
    static const char *const names[] = {"tcp", "sockets", "udp", "net", "shm"};
    size_t core = strcspn(prov, ";");
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strlen(names[i]) == core && !strncmp(prov, names[i], core)) return 1;
    return 0;
}

/* libfabric's provider, on the NIC nearest this process. */
static struct fi_info *choose(struct fi_info *list)
{
    struct fi_info *best = list;
    int best_d = distance(list);
    for (struct fi_info *i = list->next; i; i = i->next) {
        if (strcmp(i->fabric_attr->prov_name, list->fabric_attr->prov_name)) continue;
        int d = distance(i);
        if (d < best_d) {
            best = i;
            best_d = d;
        }
    }
    return best;
}

static void teardown(void)
{
    while (ofi.created) {
        struct created *c = ofi.created;
        ofi.created = c->next;
        fi_close(&c->mr->fid);
        free(c);
    }
    if (ofi.ep) fi_close(&ofi.ep->fid);
    if (ofi.mr) fi_close(&ofi.mr->fid);
    if (ofi.av) fi_close(&ofi.av->fid);
    if (ofi.cq) fi_close(&ofi.cq->fid);
    if (ofi.domain) fi_close(&ofi.domain->fid);
    if (ofi.fabric) fi_close(&ofi.fabric->fid);
    if (ofi.info) fi_freeinfo(ofi.info);
    free(ofi.addr);
    free(ofi.key);
    free(ofi.ops);
    free(ofi.bounce_mem);
    ofi.ep = NULL;
    ofi.mr = NULL;
    ofi.av = NULL;
    __atomic_store_n(&ofi.cq, NULL, __ATOMIC_RELAXED); /* ofi_poll reads it unlocked */
    ofi.domain = NULL;
    ofi.fabric = NULL;
    ofi.info = NULL;
    ofi.addr = NULL;
    ofi.key = NULL;
    ofi.ops = ofi.free_ops = NULL;
    ofi.bounce_mem = NULL;
}

#define TRY(call, what)                                                                      \
    do {                                                                                     \
        int rc_ = (int)(call);                                                               \
        if (rc_) {                                                                           \
            snprintf(why, whylen, "%s failed on node %u (provider %s): %s", what,            \
                     gasneti_mynode, ofi.info->fabric_attr->prov_name, fi_strerror(-rc_));   \
            return -1;                                                                       \
        }                                                                                    \
    } while (0)

/* This node's libfabric objects and segment registration; on failure says
 * why (teardown() releases what exists). */
/* Operation records, as many as the provider's TX queue holds (16..4096);
 * the CQ is sized for all of them. */
static size_t op_count(void)
{
    size_t n = ofi.info->tx_attr->size;
    return n < 16 ? 16 : n > 4096 ? 4096 : n;
}

/* Backs every page of [base, base+size) before registering (FI_MR_ALLOCATED):
 * an atomic or of 0 writes each page without losing a client's store. */
static void touch_pages(char *base, uintptr_t size)
{
    if (!(ofi.info->domain_attr->mr_mode & FI_MR_ALLOCATED)) return;
    long page = sysconf(_SC_PAGESIZE);
    for (uintptr_t off = 0; off < size; off += (uintptr_t)page)
        __atomic_fetch_or(base + off, 0, __ATOMIC_RELAXED);
}

/* The same provider with FI_HMEM (device memory registration), when it has
 * it and this process can use CUDA: asked after the choice, so the choice
 * never depends on it, and not without a GPU, since a provider's FI_HMEM
 * variant may cost host transfers (libfabric 1.17's shm: no inject). */
static void prefer_hmem(struct fi_info *hints)
{
    struct fi_info *list = NULL;
    if (!gasneti_mk_cuda_usable()) return;
    hints->caps |= FI_HMEM;
    hints->domain_attr->mr_mode |= FI_MR_HMEM; /* we pass no device buffers as local ones */
    free(hints->fabric_attr->prov_name);
    free(hints->domain_attr->name);
    const char *domain = ofi.info->domain_attr->name;
    hints->fabric_attr->prov_name = strdup(ofi.info->fabric_attr->prov_name);
    hints->domain_attr->name = domain ? strdup(domain) : NULL;
    if (!hints->fabric_attr->prov_name || (domain && !hints->domain_attr->name))
        gasneti_fatalerror("ofi: out of memory");
    if (fi_getinfo(FI_VERSION(FI_MAJOR_VERSION, FI_MINOR_VERSION), NULL, NULL, 0, hints, &list) == 0) {
        fi_freeinfo(ofi.info);
        if (!(ofi.info = fi_dupinfo(list))) gasneti_fatalerror("ofi: out of memory");
        fi_freeinfo(list);
    }
}

static int setup(void **name, size_t *namelen, gasneti_rma_key_t *key, char *why, size_t whylen)
{
    if (open_lib(why, whylen)) return -1;
    struct fi_info *hints = fi_dupinfo(NULL), *list = NULL; /* fi_allocinfo, unlinked */
    if (!hints) gasneti_fatalerror("ofi: out of memory");
    hints->caps = FI_RMA | FI_READ | FI_WRITE | FI_REMOTE_READ | FI_REMOTE_WRITE;
    hints->mode = 0; /* no FI_CONTEXT: our contexts are op records of our own */
    hints->ep_attr->type = FI_EP_RDM;
    hints->domain_attr->mr_mode = FI_MR_VIRT_ADDR | FI_MR_PROV_KEY | FI_MR_ALLOCATED;
    hints->domain_attr->threading = FI_THREAD_DOMAIN; /* we serialise with ofi.lock */
    hints->domain_attr->av_type = FI_AV_TABLE;
    hints->tx_attr->op_flags = FI_DELIVERY_COMPLETE;
    /* we progress in every poll anyway; spare us the provider's threads */
    hints->domain_attr->data_progress = FI_PROGRESS_MANUAL;
    int rc = fi_getinfo(FI_VERSION(FI_MAJOR_VERSION, FI_MINOR_VERSION), NULL, NULL, 0, hints, &list);
    if (rc == -FI_ENODATA) { /* a provider that only progresses on its own is fine too */
        hints->domain_attr->data_progress = FI_PROGRESS_UNSPEC;
        rc = fi_getinfo(FI_VERSION(FI_MAJOR_VERSION, FI_MINOR_VERSION), NULL, NULL, 0, hints, &list);
    }
    if (rc) {
        fi_freeinfo(hints);
        const char *prov = getenv("FI_PROVIDER");
        snprintf(why, whylen, "fi_getinfo found no provider with FI_RMA for FI_PROVIDER=%s on node %u: %s",
                 prov ? prov : "(unset)", gasneti_mynode, fi_strerror(-rc));
        return -1;
    }
    struct fi_info *first = list;
    if (gasneti_rma_auto && !getenv("FI_PROVIDER")) {
        char names[160] = "";
        while (first && left_to_am(first->fabric_attr->prov_name)) {
            if (!strstr(names, first->fabric_attr->prov_name) && strlen(names) < 100)
                snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s",
                         *names ? ", " : "", first->fabric_attr->prov_name);
            first = first->next;
        }
        if (!first) {
            fi_freeinfo(list);
            fi_freeinfo(hints);
            snprintf(why, whylen, "GASNET_RMA=auto leaves these peers to AMs: every provider "
                     "here emulates RMA over sockets or reaches only this host (FI_PROVIDER or "
                     "GASNET_RMA=ofi takes one anyway): %s", names);
            return -1;
        }
    }
    ofi.info = fi_dupinfo(choose(first));
    fi_freeinfo(list);
    if (!ofi.info) gasneti_fatalerror("ofi: out of memory");
    prefer_hmem(hints);
    fi_freeinfo(hints);
    struct fi_info *info = ofi.info;
    ofi.virt_addr = (info->domain_attr->mr_mode & FI_MR_VIRT_ADDR) != 0;
    ofi.inject = info->tx_attr->inject_size;
    ofi.max_msg = info->ep_attr->max_msg_size;
    if (ofi.max_msg == 0) ofi.max_msg = SIZE_MAX; /* 0: not stated */

    TRY(fi_fabric(info->fabric_attr, &ofi.fabric, NULL), "fi_fabric");
    TRY(fi_domain(ofi.fabric, info, &ofi.domain, NULL), "fi_domain");
    struct fi_cq_attr cq_attr = {.format = FI_CQ_FORMAT_CONTEXT, .wait_obj = FI_WAIT_NONE,
                                 .size = op_count()}; /* room for every op in flight */
    TRY(fi_cq_open(ofi.domain, &cq_attr, &ofi.cq, NULL), "fi_cq_open");
    struct fi_av_attr av_attr = {.type = FI_AV_TABLE, .count = gasneti_nodes};
    TRY(fi_av_open(ofi.domain, &av_attr, &ofi.av, NULL), "fi_av_open");
    TRY(fi_endpoint(ofi.domain, info, &ofi.ep, NULL), "fi_endpoint");
    TRY(fi_ep_bind(ofi.ep, &ofi.av->fid, 0), "fi_ep_bind(av)");
    TRY(fi_ep_bind(ofi.ep, &ofi.cq->fid, FI_TRANSMIT | FI_RECV), "fi_ep_bind(cq)");
    TRY(fi_enable(ofi.ep), "fi_enable");

    *namelen = 0;
    rc = fi_getname(&ofi.ep->fid, NULL, namelen); /* asks for the size */
    if (rc != -FI_ETOOSMALL && rc != 0) TRY(rc, "fi_getname");
    if (!(*name = malloc(*namelen ? *namelen : 1))) gasneti_fatalerror("ofi: out of memory");
    TRY(fi_getname(&ofi.ep->fid, *name, namelen), "fi_getname");

    char *base = gasneti_seginfo[gasneti_mynode].addr;
    uintptr_t size = gasneti_seginfo[gasneti_mynode].size;
    *key = (gasneti_rma_key_t){0, 0};
    if (size == 0) return 0; /* nothing to register; no peer may address it */
    touch_pages(base, size);
    TRY(fi_mr_reg(ofi.domain, base, size, FI_REMOTE_READ | FI_REMOTE_WRITE, 0, 0, 0, &ofi.mr, NULL),
        "fi_mr_reg of the segment");
    key->key = fi_mr_key(ofi.mr);
    key->delta = ofi.virt_addr ? 0 : -(uint64_t)(uintptr_t)base;
    if (key->key == FI_KEY_NOTAVAIL) {
        snprintf(why, whylen, "provider %s on node %u gives MR keys only as raw bytes (FI_MR_RAW)",
                 info->fabric_attr->prov_name, gasneti_mynode);
        return -1;
    }
    return 0;
}

/* What every node tells the others at attach; its endpoint name follows. */
typedef struct {
    int32_t ok;
    uint32_t namelen;
    gasneti_rma_key_t key;
    uint64_t mr_mode;
    char prov[48];
    char why[160];
} card_t;

static void init_pools(void)
{
    size_t nops = op_count();
    ofi.ops = calloc(nops, sizeof *ofi.ops);
    ofi.bounce_mem = malloc(NBOUNCE * BOUNCE_SIZE);
    if (!ofi.ops || !ofi.bounce_mem) gasneti_fatalerror("ofi: out of memory");
    for (size_t i = 0; i < nops; i++) {
        ofi.ops[i].next = ofi.free_ops;
        ofi.free_ops = &ofi.ops[i];
    }
    for (int i = 0; i < NBOUNCE; i++) ofi.free_bounce[i] = ofi.bounce_mem + (size_t)i * BOUNCE_SIZE;
    ofi.nfree_bounce = NBOUNCE;
    ofi.inflight = 0;
}

/* shm provider: this node's region is /dev/shm/NAME for address
 * fi_shm://NAME (see PROVIDERS above). */
static void unlink_shm_region(const char *addr, size_t len)
{
    static const char scheme[] = "fi_shm://";
    size_t skip = sizeof scheme - 1;
    char name[256];
    if (len <= skip || len - skip >= sizeof name - 1 || memcmp(addr, scheme, skip)) return;
    snprintf(name, sizeof name, "/%.*s", (int)(len - skip), addr + skip);
    shm_unlink(name);
}

/* Registration rules two nodes must share; FI_MR_HMEM is local (device
 * buffers passed with descriptors), and only nodes that load CUDA ask for it. */
static int same_mr_mode(uint64_t a, uint64_t b)
{
    return ((a ^ b) & ~(uint64_t)FI_MR_HMEM) == 0;
}

static int ofi_attach(unsigned char *reach, char *why, size_t whylen)
{
    gasnet_node_t me = gasneti_mynode, nodes = gasneti_nodes;
    void *name = NULL;
    size_t namelen = 0;
    gasneti_rma_key_t key = {0, 0};
    int ok = setup(&name, &namelen, &key, why, whylen) == 0;

    /* every node makes these calls, whatever happened above */
    uint32_t mylen = ok ? (uint32_t)namelen : 0, maxlen;
    MPI_Allreduce(&mylen, &maxlen, 1, MPI_UINT32_T, MPI_MAX, gasnetc_comm);
    size_t stride = (sizeof(card_t) + maxlen + 7) & ~(size_t)7;
    char *mine = calloc(1, stride), *all = malloc(stride * nodes);
    unsigned char *usable = calloc(nodes, 1), *theirs = malloc(nodes);
    ofi.addr = calloc(nodes, sizeof *ofi.addr);
    ofi.key = calloc(nodes, sizeof *ofi.key);
    if (!mine || !all || !usable || !theirs || !ofi.addr || !ofi.key)
        gasneti_fatalerror("ofi: out of memory");
    card_t *c = (card_t *)mine;
    c->ok = ok;
    c->namelen = mylen;
    c->key = key;
    if (ok) {
        c->mr_mode = ofi.info->domain_attr->mr_mode;
        snprintf(c->prov, sizeof c->prov, "%s", ofi.info->fabric_attr->prov_name);
        memcpy(mine + sizeof(card_t), name, namelen);
    } else {
        snprintf(c->why, sizeof c->why, "%s", why);
    }
    free(name);
    MPI_Allgather(mine, (int)stride, MPI_BYTE, all, (int)stride, MPI_BYTE, gasnetc_comm);

    /* the peers we can address: same provider and registration rules */
    gasnet_node_t first_bad = nodes;
    for (gasnet_node_t p = 0; ok && p < nodes; p++) {
        if (gasneti_rma_for[p]) continue; /* served already (shm, verbs): pairwise, so both skip */
        const card_t *pc = (const card_t *)(all + stride * p);
        int same = pc->ok && !strcmp(pc->prov, c->prov) && same_mr_mode(pc->mr_mode, c->mr_mode);
        if (same && fi_av_insert(ofi.av, all + stride * p + sizeof(card_t), 1, &ofi.addr[p], 0, NULL) == 1) {
            usable[p] = 1;
            ofi.key[p] = pc->key;
        } else if (first_bad == nodes) {
            first_bad = p;
        }
    }
    MPI_Alltoall(usable, 1, MPI_BYTE, theirs, 1, MPI_BYTE, gasnetc_comm);
    /* every node has inserted this one: its region's name is needed no more */
    if (ok && !strcmp(c->prov, "shm")) unlink_shm_region(mine + sizeof(card_t), mylen);
    int served = 0;
    for (gasnet_node_t p = 0; p < nodes; p++) {
        reach[p] = usable[p] && theirs[p];
        if (p != me && reach[p]) served++;
        if (p != me && !reach[p] && !gasneti_rma_for[p] && first_bad == nodes) first_bad = p;
    }

    /* one line on why some peer is not served (for rma.c's report) */
    if (ok && first_bad < nodes) {
        const card_t *pc = (const card_t *)(all + stride * first_bad);
        if (!pc->ok)
            snprintf(why, whylen, "%s", pc->why);
        else if (strcmp(pc->prov, c->prov))
            snprintf(why, whylen, "node %u uses provider %s, node %u %s", first_bad, pc->prov, me,
                     c->prov);
        else if (!same_mr_mode(pc->mr_mode, c->mr_mode))
            snprintf(why, whylen, "node %u registers memory with %s in mode 0x%llx, node %u in "
                     "mode 0x%llx", first_bad, c->prov, (unsigned long long)pc->mr_mode, me,
                     (unsigned long long)c->mr_mode);
        else
            snprintf(why, whylen, "node %u and node %u could not address each other with %s", me,
                     first_bad, c->prov);
    } else if (ok && served == 0) {
        snprintf(why, whylen, "no other node left to reach (%u node%s, the others served already)",
                 nodes, nodes == 1 ? "" : "s");
    }
    free(mine);
    free(all);
    free(usable);
    free(theirs);

    MPI_Comm_split(gasnetc_comm, served ? 0 : MPI_UNDEFINED, (int)me, &ofi.comm);
    if (!served) {
        teardown();
        return -1;
    }
    init_pools();
    if (gasneti_getenv_yesno("GASNET_VERBOSEENV", 0)) {
        const struct fi_info *i = ofi.info;
        fprintf(stderr, "GASNet node %u: ofi provider %s, fabric %s, domain %s, inject_size %zu, "
                        "max_msg_size %zu, mr_mode 0x%x, data progress %s, tx queue %zu, "
                        "device memory (FI_HMEM) %s\n",
                me, i->fabric_attr->prov_name, i->fabric_attr->name, i->domain_attr->name,
                ofi.inject, ofi.max_msg, (unsigned)i->domain_attr->mr_mode,
                i->domain_attr->data_progress == FI_PROGRESS_AUTO ? "auto" : "manual",
                i->tx_attr->size, i->caps & FI_HMEM ? "yes" : "no");
    }
    return 0;
}

/* ---- progress and completion */

static void fail_from_cq(void)
{
    struct fi_cq_err_entry err;
    char prov[256];
    memset(&err, 0, sizeof err);
    if (fi_cq_readerr(ofi.cq, &err, 0) < 0)
        gasneti_fatalerror("ofi: the completion queue reported an error that could not be read");
    const op_t *op = err.op_context;
    const char *detail = fi_cq_strerror(ofi.cq, err.prov_errno, err.err_data, prov, sizeof prov);
    if (!op)
        gasneti_fatalerror("ofi: a completion without an operation failed: %s (%s)",
                           fi_strerror(err.err), detail ? detail : "");
    gasneti_fatalerror("ofi: %s of %zu bytes %s node %u at %p failed: %s (provider: %s)",
                       op->write ? "fi_write" : "fi_read", op->len, op->write ? "to" : "from",
                       op->node, op->remote, fi_strerror(err.err), detail ? detail : "");
}

/* One completed piece: release its record, then count it (rma.h). */
static void complete(op_t *op)
{
    if (!op) gasneti_fatalerror("ofi: a completion arrived for no operation of this node");
    uint32_t *counter = op->counter;
    if (op->bounce) ofi.free_bounce[ofi.nfree_bounce++] = op->bounce;
    op->next = ofi.free_ops;
    ofi.free_ops = op;
    ofi.inflight--;
    __atomic_fetch_sub(counter, 1, __ATOMIC_RELEASE);
}

/* Reads the CQ (which also makes progress for manual-progress providers),
 * a few batches at most per call; with the lock held. */
static void drain(void)
{
    struct fi_cq_entry ev[CQ_BATCH];
    for (int round = 0; round < 4; round++) {
        ssize_t got = fi_cq_read(ofi.cq, ev, CQ_BATCH);
        if (got == -FI_EAGAIN) return;
        if (got == -FI_EAVAIL) fail_from_cq();
        if (got < 0) gasneti_fatalerror("ofi: fi_cq_read failed: %s", fi_strerror((int)-got));
        for (ssize_t i = 0; i < got; i++) complete(ev[i].op_context);
        if (got < CQ_BATCH) return;
    }
}

/* Also called by threads that read the poll list before detach took ofi
 * off it: the CQ is closed under the lock, so it is checked again there. */
static void ofi_poll(void)
{
    if (!__atomic_load_n(&ofi.cq, __ATOMIC_RELAXED) || pthread_mutex_trylock(&ofi.lock)) return;
    if (ofi.cq) drain();
    pthread_mutex_unlock(&ofi.lock);
}

/* ---- initiation */

/* A record for one piece, with a bounce buffer if asked; polls while the
 * pools are empty. The caller's counter counts the piece from here. */
static op_t *take(int bounce, uint32_t *counter, gasnet_node_t node, void *remote, size_t len,
                  int write)
{
    for (int idle = 0;; gasneti_poll_wait(&idle)) {
        pthread_mutex_lock(&ofi.lock);
        if (ofi.free_ops && (!bounce || ofi.nfree_bounce)) {
            op_t *op = ofi.free_ops;
            ofi.free_ops = op->next;
            op->bounce = bounce ? ofi.free_bounce[--ofi.nfree_bounce] : NULL;
            ofi.inflight++;
            pthread_mutex_unlock(&ofi.lock);
            op->counter = counter;
            op->node = node;
            op->remote = remote;
            op->len = len;
            op->write = write;
            __atomic_fetch_add(counter, 1, __ATOMIC_RELAXED);
            return op;
        }
        pthread_mutex_unlock(&ofi.lock);
    }
}

/* Posts one piece; on a full queue polls and retries. */
static void post(op_t *op, const gasneti_rma_key_t *seg, void *local, uint64_t flags)
{
    struct iovec iov = {local, op->len};
    struct fi_rma_iov rma_iov = {(uint64_t)(uintptr_t)op->remote + seg->delta, op->len, seg->key};
    struct fi_msg_rma msg = {.msg_iov = &iov, .desc = NULL, .iov_count = 1,
                             .addr = ofi.addr[op->node], .rma_iov = &rma_iov, .rma_iov_count = 1,
                             .context = op, .data = 0};
    for (int idle = 0;; gasneti_poll_wait(&idle)) {
        pthread_mutex_lock(&ofi.lock);
        ssize_t rc = op->write ? fi_writemsg(ofi.ep, &msg, flags) : fi_readmsg(ofi.ep, &msg, flags);
        pthread_mutex_unlock(&ofi.lock);
        if (rc == 0) return;
        if (rc != -FI_EAGAIN)
            gasneti_fatalerror("ofi: %s of %zu bytes %s node %u at %p failed: %s",
                               op->write ? "fi_writemsg" : "fi_readmsg", op->len,
                               op->write ? "to" : "from", op->node, op->remote,
                               fi_strerror((int)-rc));
    }
}

static int ofi_put(gasnet_node_t node, const gasneti_rma_key_t *seg, void *dest, const void *src,
                   size_t n, int bulk, uint32_t *counter)
{
    if (!seg) seg = &ofi.key[node];
    const char *s = src;
    char *d = dest;
    while (n > 0) {
        size_t len = n < ofi.max_msg ? n : ofi.max_msg;
        uint64_t flags = FI_COMPLETION | FI_DELIVERY_COMPLETE;
        int copy = 0;
        if (len <= ofi.inject) flags |= FI_INJECT;
        else if (!bulk) {
            copy = 1;
            if (len > BOUNCE_SIZE) len = BOUNCE_SIZE;
        }
        op_t *op = take(copy, counter, node, d, len, 1);
        if (copy) memcpy(op->bounce, s, len);
        post(op, seg, copy ? op->bounce : (void *)s, flags);
        s += len;
        d += len;
        n -= len;
    }
    return 0;
}

static int ofi_get(void *dest, gasnet_node_t node, const gasneti_rma_key_t *seg, const void *src,
                   size_t n, uint32_t *counter)
{
    if (!seg) seg = &ofi.key[node];
    char *d = dest, *s = (char *)src;
    while (n > 0) {
        size_t len = n < ofi.max_msg ? n : ofi.max_msg;
        op_t *op = take(0, counter, node, s, len, 0);
        post(op, seg, d, FI_COMPLETION);
        s += len;
        d += len;
        n -= len;
    }
    return 0;
}

/* ---- created endpoints' segments (rma.h) */

static void ofi_seg_unregister(void *handle)
{
    struct created *c = handle, **link = &ofi.created;
    pthread_mutex_lock(&ofi.lock);
    while (*link != c) link = &(*link)->next;
    *link = c->next;
    fi_close(&c->mr->fid);
    pthread_mutex_unlock(&ofi.lock);
    free(c);
}

static void *ofi_seg_register(void *addr, uintptr_t size, int cuda_device, gasneti_rma_key_t *key,
                              char *why, size_t whylen)
{
    const char *prov = ofi.info->fabric_attr->prov_name;
    if (cuda_device >= 0 && !(ofi.info->caps & FI_HMEM)) {
        snprintf(why, whylen, "provider %s takes no device memory (no FI_HMEM)", prov);
        return NULL;
    }
    struct iovec iov = {addr, size};
    struct fi_mr_attr attr = {.mr_iov = &iov, .iov_count = 1,
                              .access = FI_REMOTE_READ | FI_REMOTE_WRITE,
                              .iface = cuda_device >= 0 ? FI_HMEM_CUDA : FI_HMEM_SYSTEM};
    if (cuda_device >= 0) attr.device.cuda = cuda_device;
    else touch_pages(addr, size);
    struct fid_mr *mr = NULL;
    static uint64_t last_key; /* keys we choose must differ (the segment's is 0) */
    struct created *c = malloc(sizeof *c);
    if (!c) gasneti_fatalerror("ofi: out of memory");
    pthread_mutex_lock(&ofi.lock);
    attr.requested_key = ++last_key;
    int rc = fi_mr_regattr(ofi.domain, &attr, 0, &mr);
    if (rc == 0) {
        *c = (struct created){mr, ofi.created};
        ofi.created = c;
    }
    pthread_mutex_unlock(&ofi.lock);
    if (rc) {
        free(c);
        snprintf(why, whylen, "fi_mr_regattr of %lu bytes (%s) with provider %s failed: %s",
                 (unsigned long)size, cuda_device >= 0 ? "FI_HMEM_CUDA" : "host", prov,
                 fi_strerror(-rc));
        return NULL;
    }
    *key = (gasneti_rma_key_t){ofi.virt_addr ? 0 : -(uint64_t)(uintptr_t)addr, fi_mr_key(mr)};
    if (key->key == FI_KEY_NOTAVAIL) {
        ofi_seg_unregister(c);
        snprintf(why, whylen, "provider %s gives no MR key", prov);
        return NULL;
    }
    return c;
}

/* ---- shutdown */

static void ofi_detach(void)
{
    for (int busy = 1; busy;) {
        pthread_mutex_lock(&ofi.lock);
        drain();
        busy = ofi.inflight > 0;
        pthread_mutex_unlock(&ofi.lock);
    }
    MPI_Request req;
    MPI_Ibarrier(ofi.comm, &req);
    for (int done = 0; !done;) {
        ofi_poll();
        MPI_Test(&req, &done, MPI_STATUS_IGNORE);
    }
    MPI_Comm_free(&ofi.comm);
    pthread_mutex_lock(&ofi.lock);
    teardown();
    pthread_mutex_unlock(&ofi.lock);
}

const gasneti_rma_t gasneti_rma_ofi = {
    "ofi", ofi_attach, ofi_put, ofi_get, NULL, ofi_seg_register, ofi_seg_unregister, ofi_poll,
    ofi_detach,
};
