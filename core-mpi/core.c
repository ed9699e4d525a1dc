/* Job control over MPI: the job's start-up shared by gex_Client_Init and
 * gasnet_init (MPI, the job's environment, hosts and neighbourhoods, the
 * ammpi endpoint, exit, then the layers conduit/ passes, each one's init
 * in turn), segment attach shared by gex_Segment_Attach and gasnet_attach
 * (mapping, exchange of segment addresses, RMA backends, then each layer's
 * attach) and the queries.
 *
 * gex_Client_Init leaves the job ready for AMs, barriers and collectives
 * on the primordial team and ends with a barrier. gasnet_init does the
 * same start-up but, as GASNet-1 has it, communication waits for
 * gasnet_attach, which also holds the start-up barrier.
 *
 * Attach checks its arguments on every node and then agrees on the
 * outcome with one MPI_Allreduce, so a bad argument on one node makes every
 * node return an error instead of leaving the others waiting. A failed
 * attach changes nothing: the library stays initialised and unattached.
 */
#include "gasnet_internal.h"
#include "gasnet_tools_internal.h"
#include "memkind.h"
#include <gasnet_tools.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

ammpi_ep_t *gasnetc_ep;
MPI_Comm gasnetc_comm = MPI_COMM_NULL;
int gasneti_attach_done;
gasnet_seginfo_t *gasneti_seginfo;
int gasneti_wait_mode = GASNET_WAIT_SPINBLOCK;
void (*gasnet_client_attach_hook)(void *segbase, uintptr_t segsize);
uint64_t gasnet_max_segsize;
const char *gasnet_max_segsize_str;

/* The ident strings (ident.c; among them the client header's configuration
 * string, GASNet-1 spec §1.4): referred to here so that every program
 * linked with the core carries them. */
extern const char *const gasneti_idents[];
__attribute__((used)) static const char *const *const idents_kept = gasneti_idents;

__thread char gasneti_threadinfo_tag;
const gasneti_layer_t *const *gasneti_layers;

static uintptr_t max_local_segsize, max_global_segsize;
static int default_spin_polls;

/* ---- MPI start-up */


static int thread_level(const char *name)
{
    if (!strcasecmp(name, "SINGLE")) return MPI_THREAD_SINGLE;
    if (!strcasecmp(name, "FUNNELED")) return MPI_THREAD_FUNNELED;
    if (!strcasecmp(name, "SERIALIZED")) return MPI_THREAD_SERIALIZED;
    if (!strcasecmp(name, "MULTIPLE")) return MPI_THREAD_MULTIPLE;
    return -1;
}

static const char *level_name(int level)
{
    return level == MPI_THREAD_SINGLE ? "MPI_THREAD_SINGLE"
         : level == MPI_THREAD_FUNNELED ? "MPI_THREAD_FUNNELED"
         : level == MPI_THREAD_SERIALIZED ? "MPI_THREAD_SERIALIZED"
         : "MPI_THREAD_MULTIPLE";
}

/* The library makes MPI calls from one thread at a time (ammpi serialises
 * them), so SEQ needs no thread support and PAR, PARSYNC or a progress
 * thread need MPI_THREAD_SERIALIZED. When GASNet starts MPI itself it asks
 * for SERIALIZED, or for GASNET_MPI_THREAD. */
static void start_mpi(int *argc, char ***argv, int need_threads)
{
    int required = need_threads ? MPI_THREAD_SERIALIZED : MPI_THREAD_SINGLE;
    int initialized = 0, finalized = 0, provided = MPI_THREAD_SINGLE;
    MPI_Finalized(&finalized);
    if (finalized) gasneti_fatalerror("gasnet_init: MPI has already been finalized");
    MPI_Initialized(&initialized);
    if (initialized) {
        MPI_Query_thread(&provided);
        if (provided < required)
            gasneti_fatalerror("gasnet_init: this GASNet mode needs %s but the client initialised "
                               "MPI with %s; call MPI_Init_thread with %s or higher",
                               level_name(required), level_name(provided), level_name(required));
        return;
    }
    const char *want = getenv("GASNET_MPI_THREAD");
    int requested = want ? thread_level(want) : MPI_THREAD_SERIALIZED;
    if (requested < 0)
        gasneti_fatalerror("gasnet_init: GASNET_MPI_THREAD=%s: use SINGLE, FUNNELED, SERIALIZED "
                           "or MULTIPLE", want);
    if (MPI_Init_thread(argc, argv, requested, &provided) != MPI_SUCCESS)
        gasneti_fatalerror("gasnet_init: MPI_Init_thread failed");
    if (provided < required)
        gasneti_fatalerror("gasnet_init: this GASNet mode needs %s, MPI provides only %s",
                           level_name(required), level_name(provided));
}

/* Hosts: the nodes that share memory (MPI's shared-memory split), numbered
 * in order of their lowest node. Neighbourhoods: the nodes of a host that
 * map each other's segments (core-native/shm.c): the whole host, or
 * groups of GASNET_SUPERNODE_MAXSIZE consecutive nodes of it, or each node
 * alone when the shm backend is not wanted (GASNET_RMA other than auto and
 * shm); numbered the same way. gasnet_nodeinfo_t's host and supernode are
 * these numbers. Returns the nodes of this host. */
static int find_hosts(void)
{
    MPI_Comm local;
    int me = (int)gasneti_mynode, nlocal, local_rank;
    MPI_Comm_split_type(gasnetc_comm, MPI_COMM_TYPE_SHARED, me, MPI_INFO_NULL, &local);
    MPI_Comm_size(local, &nlocal);
    MPI_Comm_rank(local, &local_rank);
    int host_leader = me;
    MPI_Allreduce(MPI_IN_PLACE, &host_leader, 1, MPI_INT, MPI_MIN, local);
    int maxsize = (int)gasneti_getenv_int("GASNET_SUPERNODE_MAXSIZE", 0, 0, INT_MAX);
    const char *rma = gasneti_getenv_str("GASNET_RMA", "auto");
    if (strcasecmp(rma, "auto") && strcasecmp(rma, "shm")) maxsize = 1;
    MPI_Comm group;
    MPI_Comm_split(local, maxsize ? local_rank / maxsize : 0, local_rank, &group);
    int nbrhd_leader = me;
    MPI_Allreduce(MPI_IN_PLACE, &nbrhd_leader, 1, MPI_INT, MPI_MIN, group);
    MPI_Comm_free(&group);
    MPI_Comm_free(&local);
    int mine[2] = {host_leader, nbrhd_leader}, *leaders = malloc(2 * gasneti_nodes * sizeof *leaders);
    gasneti_nodeinfo = calloc(gasneti_nodes, sizeof *gasneti_nodeinfo);
    if (!leaders || !gasneti_nodeinfo) gasneti_fatalerror("gasnet_init: out of memory");
    MPI_Allgather(mine, 2, MPI_INT, leaders, 2, MPI_INT, gasnetc_comm);
    gasneti_hosts = gasneti_nbrhds = 0;
    for (gasnet_node_t i = 0; i < gasneti_nodes; i++) {
        gasnet_node_t h = (gasnet_node_t)leaders[2 * i], n = (gasnet_node_t)leaders[2 * i + 1];
        gasneti_nodeinfo[i].host = h == i ? gasneti_hosts++ : gasneti_nodeinfo[h].host;
        gasneti_nodeinfo[i].supernode = n == i ? gasneti_nbrhds++ : gasneti_nodeinfo[n].supernode;
    }
    free(leaders);
    return nlocal;
}

/* GASNET_MAX_SEGSIZE (and gasnet_max_segsize_str) in the reference's
 * forms, for a host of nlocal nodes with phys bytes of memory:
 *   SIZE, SIZE/P   bytes for each node (512M, 4GB, 0x10000000)
 *   SIZE/H         bytes for the host, shared by its nodes
 *   F, F/H         a fraction (0 < F <= 1, written with a decimal point)
 *                  of the host's memory, shared by its nodes (0.85/H)
 *   F/P            that fraction of the host's memory for each node
 * Returns NULL and the bytes, or what is wrong. */
static const char *parse_segsize(const char *v, uint64_t phys, int nlocal, uint64_t *out)
{
    char body[64];
    const char *slash = strchr(v, '/');
    size_t n = slash ? (size_t)(slash - v) : strlen(v);
    int per_host = -1;
    if (slash) {
        if (!strcasecmp(slash + 1, "H")) per_host = 1;
        else if (!strcasecmp(slash + 1, "P")) per_host = 0;
        else return "has an unknown qualifier: end it with /H (for the host) or /P (for each process)";
    }
    if (n == 0 || n >= sizeof body) return "is not a size or a fraction of memory";
    memcpy(body, v, n);
    body[n] = '\0';
    if (strspn(body, "0123456789.") == n && strchr(body, '.')) {
        char *end;
        double f = strtod(body, &end);
        if (*end || !(f > 0 && f <= 1)) return "is not a fraction of memory from 0 (excluded) to 1";
        *out = (uint64_t)((long double)phys * f);
        if (per_host < 0) per_host = 1;
    } else {
        int64_t r;
        const char *why = gasneti_parse_setting(body, 1, &r);
        if (why) return why;
        if (r <= 0) return "is not a positive size";
        *out = (uint64_t)r;
        if (per_host < 0) per_host = 0;
    }
    if (per_host) *out /= (uint64_t)nlocal;
    return NULL;
}

/* The largest segment this node could map: GASNET_MAX_SEGSIZE, or
 * gasnet_max_segsize_str or gasnet_max_segsize, or 0.85/H (85% of
 * physical memory shared among the nodes of this host); then halved until
 * the address space takes it. (Shared segments are memfds,
 * core-native/shm.c: /dev/shm's size does not bound them.) */
static uintptr_t find_max_segsize(int nlocal)
{
    const char *key = "GASNET_MAX_SEGSIZE";
    uint64_t phys = (uint64_t)sysconf(_SC_PHYS_PAGES) * (uint64_t)sysconf(_SC_PAGESIZE), limit = 0;
    const char *v = gasnett_getenv(key), *what = "environment variable GASNET_MAX_SEGSIZE", *why;
    int is_default = 0;
    char shown[160], sz[64], num[32];
    if (!v || !*v) {
        what = "client variable gasnet_max_segsize_str";
        v = gasnet_max_segsize_str;
        is_default = 1;
    }
    if (v) {
        if ((why = parse_segsize(v, phys, nlocal, &limit))) gasneti_fatalerror("%s='%s' %s", what, v, why);
    } else if (gasnet_max_segsize) {
        limit = gasnet_max_segsize;
        what = "client variable gasnet_max_segsize";
        snprintf(num, sizeof num, "%llu", (unsigned long long)limit);
        v = num;
    } else {
        what = "the default GASNET_MAX_SEGSIZE";
        parse_segsize(v = "0.85/H", phys, nlocal, &limit);
    }
    if (limit < GASNET_PAGESIZE)
        gasneti_fatalerror("%s='%s' is out of range: it comes to %llu bytes for each process, less "
                           "than a page (%d)", what, v, (unsigned long long)limit, GASNET_PAGESIZE);
    if (limit > (uint64_t)INT64_MAX) limit = (uint64_t)INT64_MAX;
    snprintf(shown, sizeof shown, "%s (%s for each of %d processes of this host)", v,
             gasnett_format_number((int64_t)limit, sz, sizeof sz, 1), nlocal);
    gasneti_envdisplay(key, shown, is_default);
    uintptr_t size = (uintptr_t)limit & ~(uintptr_t)(GASNET_PAGESIZE - 1);
    while (size > GASNET_PAGESIZE) {
        void *p = mmap(NULL, size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (p != MAP_FAILED) {
            munmap(p, size);
            break;
        }
        size = (size / 2) & ~(uintptr_t)(GASNET_PAGESIZE - 1);
    }
    return size;
}

static void open_endpoint(int thread_safe)
{
    ammpi_config_t cfg; /* GASNet reads the settings itself (not ammpi_config_default) */
    ammpi_config_builtin(&cfg);
    cfg.depth = (int)gasneti_getenv_int("GASNET_NETWORKDEPTH", 16, 1, 4096);
    cfg.credits_pp = (int)gasneti_getenv_int("AMMPI_CREDITS_PP", cfg.depth, 1, 4096);
    cfg.eager_size = (int)gasneti_getenv_size("AMMPI_EAGER_SIZE", 4096, 0, AMMPI_MAX_MEDIUM);
    cfg.recv_buffers = (int)gasneti_getenv_int("AMMPI_RECV_BUFFERS", 0, 0, 1 << 20);
    cfg.payload_buffers = (int)gasneti_getenv_int("AMMPI_PAYLOAD_BUFFERS", 0, 0, 1 << 20);
    cfg.spin_polls = (int)gasneti_getenv_int("GASNET_SPIN_POLLS", 64, 0, INT_MAX);
    cfg.thread_safe = thread_safe;
    default_spin_polls = cfg.spin_polls;
    if (ammpi_open(&gasnetc_ep, gasnetc_comm, &cfg) != AMMPI_OK)
        gasneti_fatalerror("gasnet_init: could not open the AM endpoint");
    ammpi_set_error_handler(gasnetc_ep, NULL);
    /* a request blocked on a node that has exited hears of it */
    ammpi_set_wait_hook(gasnetc_ep, gasnetc_exit_poll);
#ifdef GASNET_DEBUG
    ammpi_set_handler_hooks(gasnetc_ep, gasneti_handler_enter, gasneti_handler_leave);
#endif
    gasneti_trace_set_hooks(gasnetc_ep);
}

static void wire_error(ammpi_ep_t *ep, int src, const char *what)
{
    (void)ep;
    (void)src;
    gasneti_fatalerror("%s", what);
}

static void on_fatal(const char *msg)
{
    gasnetc_watch_quiet(); /* every node may die of the same error: no "node lost" reports */
    gasneti_trace_fatal(msg);
}

/* The job's start-up, once per process: MPI, the environment, hosts, the
 * AM endpoint and the exit channel; the layers start later, with the
 * client (start_client). */
static void start_job(const gasneti_layer_t *const *layers, int *argc, char ***argv)
{
    gasneti_fatal_hook = on_fatal;
    gasneti_mk_ranges_changed = gasneti_pshm_fast_update;
    gasneti_layers = layers;
    gasnett_backtrace_init(argv && *argv && **argv ? (*argv)[0] : "gasnet");
    int threaded = 0;
#if defined(GASNET_PAR) || defined(GASNET_PARSYNC)
    threaded = 1;
#endif
    threaded |= gasnetc_progress_thread_wanted();
    gasnetc_in_mpi++;
    start_mpi(argc, argv, threaded);
    MPI_Comm_dup(MPI_COMM_WORLD, &gasnetc_comm);
    MPI_Comm_set_errhandler(gasnetc_comm, MPI_ERRORS_RETURN);
    int rank, size;
    MPI_Comm_rank(gasnetc_comm, &rank);
    MPI_Comm_size(gasnetc_comm, &size);
    gasneti_mynode = (gasnet_node_t)rank;
    gasneti_nodes = (gasnet_node_t)size;
    gasneti_env_init(gasnetc_comm);
    gasneti_init_done = 1;
    gasneti_trace_init();
    const char *level = getenv("GASNET_MPI_THREAD"); /* read before the job environment existed */
    gasneti_envdisplay("GASNET_MPI_THREAD", level ? level : "SERIALIZED", level == NULL);
    gasnetc_signals_init();
    int nlocal = find_hosts();
    gasnetc_watch_start();
    gasneti_topology_init(gasnetc_comm);
    max_local_segsize = find_max_segsize(nlocal);
    unsigned long local = max_local_segsize, global;
    MPI_Allreduce(&local, &global, 1, MPI_UNSIGNED_LONG, MPI_MIN, gasnetc_comm);
    max_global_segsize = global;
    open_endpoint(threaded);
    ammpi_set_error_handler(gasnetc_ep, wire_error);
    gasnetc_exit_init();
    gasnetc_in_mpi--;
}

/* The client's objects and every layer's state over them: collective. */
static void start_client(const char *name, gex_Flags_t flags)
{
    gasneti_client = gasneti_client_create(name, flags);
    gasneti_ep0 = gasneti_client->eps[0];
    gasneti_tm0 = gasneti_client->tm0;
    gasnetc_in_mpi++;
    for (const gasneti_layer_t *const *l = gasneti_layers; *l; l++) {
        if ((*l)->init) (*l)->init();
        gasneti_layer_started(*l); /* polls from here on run it */
    }
    gasnetc_in_mpi--;
}

int gasneti_legacy_init(const gasneti_layer_t *const *layers, int *argc, char ***argv)
{
    if (gasneti_init_done)
        return gasneti_report("gasnet_init", GASNET_ERR_NOT_INIT, "called a second time");
    start_job(layers, argc, argv);
    start_client("LEGACY", GEX_FLAG_USES_GASNET1 | GASNETI_FLAG_LEGACY_INIT);
    return GASNET_OK;
}

int gasneti_client_init(const gasneti_layer_t *const *layers, gex_Client_t *client_p, gex_EP_t *ep_p,
                        gex_TM_t *tm_p, const char *clientName, int *argc, char ***argv,
                        gex_Flags_t flags)
{
    const char *call = "gex_Client_Init";
    if (gasneti_init_done)
        return gasneti_report(call, GASNET_ERR_RESOURCE, "this implementation supports one client "
                              "per process, and %s exists", gasneti_client ? gasneti_client->name : "one");
    if (!client_p || !ep_p || !tm_p || !clientName)
        return gasneti_report(call, GASNET_ERR_BAD_ARG, "NULL %s", !clientName ? "clientName"
                              : !client_p ? "client_p" : !ep_p ? "ep_p" : "tm_p");
    const gex_Flags_t known = GEX_FLAG_USES_GASNET1 | GEX_FLAG_DEFER_THREADS;
    if (flags & ~known)
        return gasneti_report(call, GASNET_ERR_BAD_ARG, "unknown flags 0x%x (only "
                              "GEX_FLAG_USES_GASNET1 and GEX_FLAG_DEFER_THREADS are defined)",
                              (unsigned)(flags & ~known));
    start_job(layers, argc, argv);
    start_client(clientName, flags);
    *client_p = gasneti_client;
    *ep_p = gasneti_ep0;
    *tm_p = gasneti_tm0;
    gasnetc_in_mpi++;
    MPI_Barrier(gasnetc_comm);
    gasnetc_in_mpi--;
    gasnetc_progress_start((flags & GEX_FLAG_DEFER_THREADS) != 0);
    return GASNET_OK;
}

/* The library keeps no table of threads (their state is thread-local), so
 * PAR and PARSYNC have no limit of their own: the answer is the system's,
 * the smaller of the kernel's thread limit and this user's process limit. */
uint64_t gex_System_QueryMaxThreads(void)
{
#if defined(GASNET_PAR) || defined(GASNET_PARSYNC)
    uint64_t limit = UINT64_MAX;
    FILE *f = fopen("/proc/sys/kernel/threads-max", "r");
    unsigned long long kmax;
    if (f) {
        if (fscanf(f, "%llu", &kmax) == 1 && kmax > 0) limit = kmax;
        fclose(f);
    }
    struct rlimit rl;
    if (getrlimit(RLIMIT_NPROC, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < limit)
        limit = rl.rlim_cur;
    return limit;
#else
    return 1;
#endif
}

uintptr_t gasnet_getMaxLocalSegmentSize(void)
{
    if (!gasneti_init_done) gasneti_fatalerror("gasnet_getMaxLocalSegmentSize called before gasnet_init");
    return max_local_segsize;
}

uintptr_t gasnet_getMaxGlobalSegmentSize(void)
{
    if (!gasneti_init_done) gasneti_fatalerror("gasnet_getMaxGlobalSegmentSize called before gasnet_init");
    return max_global_segsize;
}

/* ---- attach */

/* Fills index[] for the client's table by the EX legacy rules (EX spec
 * 16.1, 18.3): fixed indices first (128..255, no duplicates), then
 * don't-care entries, in table order, get the highest free index. */
static int assign_handlers(const gasnet_handlerentry_t *table, int n, int *index)
{
    unsigned char used[256] = {0};
    for (int i = 0; i < n; i++) {
        int h = table[i].index;
        index[i] = h;
        if (!table[i].fnptr)
            return gasneti_report("gasnet_attach", GASNET_ERR_RESOURCE,
                                  "handler table entry %d has a NULL function", i);
        if (h == 0) continue;
        if (h < 128)
            return gasneti_report("gasnet_attach", GASNET_ERR_RESOURCE,
                                  "handler table entry %d asks for index %d, reserved for GASNet "
                                  "(client handlers use 128..255)", i, h);
        if (used[h])
            return gasneti_report("gasnet_attach", GASNET_ERR_RESOURCE,
                                  "handler index %d appears twice in the table", h);
        used[h] = 1;
    }
    int next = 255;
    for (int i = 0; i < n; i++) {
        if (index[i]) continue;
        while (next >= 128 && used[next]) next--;
        if (next < 128)
            return gasneti_report("gasnet_attach", GASNET_ERR_RESOURCE,
                                  "no free handler index left for table entry %d", i);
        index[i] = next;
        used[next] = 1;
    }
    return GASNET_OK;
}

/* Maps the segment at least minheapoffset above the current heap end. */
static void *map_segment(uintptr_t size, uintptr_t minheapoffset)
{
    if (size == 0) return NULL;
    int prot = PROT_READ | PROT_WRITE, flags = MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE;
    uintptr_t page = GASNET_PAGESIZE;
    uintptr_t lowest = ((uintptr_t)sbrk(0) + minheapoffset + page - 1) & ~(page - 1);
    void *p = mmap(NULL, size, prot, flags, -1, 0);
    if (p == MAP_FAILED) return NULL;
    if ((uintptr_t)p >= lowest) return p;
    munmap(p, size);
    p = mmap((void *)lowest, size, prot, flags | MAP_FIXED_NOREPLACE, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

/* Attaching the primordial endpoint's segment, in two collective steps:
 * segment_map agrees on the outcome (local_rc: this node's verdict on the
 * caller's other arguments) and on success maps, exchanges and binds the
 * segment; segment_finish brings up what needs segments and ends with the
 * barrier after which peers may communicate. Once every node has joined
 * the agreement, none waits for an AM reply any more, so the blocking MPI
 * collectives after it cannot deadlock. */
static int segment_map(uintptr_t size, uintptr_t minheapoffset, int local_rc, const char *call)
{
    int rc = local_rc;
    void *base = NULL;
    if (rc != GASNET_OK)
        ;
    else if (size % GASNET_PAGESIZE)
        rc = gasneti_report(call, GASNET_ERR_BAD_ARG, "segment size %lu is not a multiple of "
                            "GASNET_PAGESIZE (%d)", (unsigned long)size, GASNET_PAGESIZE);
    else if (size > max_local_segsize)
        rc = gasneti_report(call, GASNET_ERR_BAD_ARG, "segment size %lu exceeds "
                            "gasnet_getMaxLocalSegmentSize() = %lu", (unsigned long)size,
                            (unsigned long)max_local_segsize);
    else if (size && !(base = map_segment(size, minheapoffset)))
        rc = gasneti_report(call, GASNET_ERR_RESOURCE, "could not map a %lu-byte segment",
                            (unsigned long)size);
    /* EX clients may still wait for AM replies from nodes already here:
     * agree without blocking, serving AMs meanwhile */
    int worst = rc;
    MPI_Request agree;
    gasnetc_in_mpi++;
    ammpi_lock(gasnetc_ep);
    MPI_Iallreduce(MPI_IN_PLACE, &worst, 1, MPI_INT, MPI_MAX, gasnetc_comm, &agree);
    ammpi_unlock(gasnetc_ep);
    for (int done = 0, idle = 0;;) {
        ammpi_lock(gasnetc_ep);
        MPI_Test(&agree, &done, MPI_STATUS_IGNORE);
        ammpi_unlock(gasnetc_ep);
        if (done) break;
        gasneti_poll_wait(&idle);
    }
    gasnetc_in_mpi--;
    if (worst != GASNET_OK) {
        if (base) munmap(base, size);
        if (rc == GASNET_OK)
            rc = gasneti_report(call, GASNET_ERR_RESOURCE, "%s failed on another node", call);
        return rc;
    }
    gasneti_seginfo = calloc(gasneti_nodes, sizeof *gasneti_seginfo);
    if (!gasneti_seginfo) gasneti_fatalerror("%s: out of memory", call);
    gasnet_seginfo_t mine = {base, size};
    gasnetc_in_mpi++;
    MPI_Allgather(&mine, sizeof mine, MPI_BYTE, gasneti_seginfo, sizeof mine, MPI_BYTE, gasnetc_comm);
    gasnetc_in_mpi--;
    if (size) {
        gasneti_segment_t seg = calloc(1, sizeof *seg);
        if (!seg) gasneti_fatalerror("%s: out of memory", call);
        *seg = (struct gasneti_segment_s){.magic = GASNETI_SEG_MAGIC, .client = gasneti_client,
                                          .addr = base, .size = size,
                                          .flags = gasneti_client->flags & GEX_FLAG_USES_GASNET1,
                                          .kind = GEX_MK_HOST, .fd = -1, .bound = 1};
        gasneti_seg0 = seg;
        gasneti_ep0->segment = seg;
    }
    ammpi_set_segment(gasnetc_ep, base, size);
    return GASNET_OK;
}

static void segment_finish(void)
{
    gasnetc_in_mpi++;
    for (const gasneti_layer_t *const *l = gasneti_layers; *l; l++)
        if ((*l)->attach) (*l)->attach();
    gasnetc_signals_reclaim();
    gasneti_attach_done = 1;
    gasneti_trace_attach();
    MPI_Barrier(gasnetc_comm);
    gasnetc_in_mpi--;
    if (gasnet_client_attach_hook)
        gasnet_client_attach_hook(gasneti_seg0 ? gasneti_seg0->addr : NULL,
                                  gasneti_seg0 ? gasneti_seg0->size : 0);
}

int gasnet_attach(gasnet_handlerentry_t *table, int numentries, uintptr_t segsize,
                  uintptr_t minheapoffset)
{
    const char *call = "gasnet_attach";
    if (!gasneti_init_done) return gasneti_report(call, GASNET_ERR_NOT_INIT, "called before gasnet_init");
    if (gasneti_attach_done) return gasneti_report(call, GASNET_ERR_NOT_INIT, "called a second time");
    GASNETI_CHECK_MAY_COMMUNICATE(call);
    int rc = GASNET_OK;
    int *index = calloc(numentries > 0 ? (size_t)numentries : 1, sizeof *index);
    if (!index)
        rc = gasneti_report(call, GASNET_ERR_RESOURCE, "out of memory");
    else if (numentries < 0 || (numentries > 0 && !table))
        rc = gasneti_report(call, GASNET_ERR_BAD_ARG, "bad handler table (%p, %d entries)",
                            (void *)table, numentries);
    else
        rc = assign_handlers(table, numentries, index);
    rc = segment_map(segsize, minheapoffset, rc, call);
    if (rc == GASNET_OK) {
        for (int i = 0; i < numentries; i++) {
            table[i].index = (gasnet_handler_t)index[i];
            gex_AM_Entry_t e = {(gex_AM_Index_t)index[i], (gex_AM_Fn_t)table[i].fnptr, 0, 0, NULL, NULL};
            gasneti_ep0->handlers[index[i]] = e;
            ammpi_register(gasnetc_ep, 0, index[i], (ammpi_handler_fn)table[i].fnptr,
                           AMMPI_ACCEPT_ANY, -1);
        }
        segment_finish();
        gasnetc_progress_start(0);
    }
    free(index);
    return rc;
}

int gex_Segment_Attach(gex_Segment_t *segment_p, gex_TM_t tm, uintptr_t size)
{
    const char *call = "gex_Segment_Attach";
    GASNETI_CHECK_INIT(call);
    gasneti_tm_t t = gasneti_import_team(tm, call);
    GASNETI_CHECK_MAY_COMMUNICATE(call);
    if (t != gasneti_client->tm0) gasneti_fatalerror("%s: the team must be the primordial team", call);
    if (gasneti_attach_done)
        gasneti_fatalerror("%s: the primordial endpoint already has a segment (one attach per "
                           "process)", call);
    if (gasneti_ep0->segment)
        gasneti_fatalerror("%s: the primordial endpoint already has a bound segment "
                           "(gex_EP_BindSegment)", call);
    int rc = !segment_p ? gasneti_report(call, GASNET_ERR_BAD_ARG, "NULL segment_p")
           : size == 0 ? gasneti_report(call, GASNET_ERR_BAD_ARG, "segment size 0")
           : GASNET_OK;
    gasnetc_progress_hold(); /* MPI is SERIALIZED: the attach's collectives run alone */
    rc = segment_map(size, 0, rc, call);
    if (rc == GASNET_OK) segment_finish();
    gasnetc_progress_release();
    if (rc != GASNET_OK) return rc;
    *segment_p = gasneti_seg0;
    return GASNET_OK;
}

/* ---- queries */

int gasnet_getSegmentInfo(gasnet_seginfo_t *seginfo_table, int numentries)
{
    const char *call = "gasnet_getSegmentInfo";
    if (!gasneti_attach_done) return gasneti_report(call, GASNET_ERR_NOT_INIT, "called before gasnet_attach");
    if (numentries < 0 || (numentries > 0 && !seginfo_table))
        return gasneti_report(call, GASNET_ERR_BAD_ARG, "bad table (%p, %d entries)",
                              (void *)seginfo_table, numentries);
    size_t n = (size_t)numentries < gasneti_nodes ? (size_t)numentries : gasneti_nodes;
    if (n) memcpy(seginfo_table, gasneti_seginfo, n * sizeof *seginfo_table);
    return GASNET_OK;
}

int gasnet_getNodeInfo(gasnet_nodeinfo_t *nodeinfo_table, int numentries)
{
    const char *call = "gasnet_getNodeInfo";
    if (!gasneti_init_done) return gasneti_report(call, GASNET_ERR_NOT_INIT, "called before gasnet_init");
    if (numentries < 0 || (numentries > 0 && !nodeinfo_table))
        return gasneti_report(call, GASNET_ERR_BAD_ARG, "bad table (%p, %d entries)",
                              (void *)nodeinfo_table, numentries);
    size_t n = (size_t)numentries < gasneti_nodes ? (size_t)numentries : gasneti_nodes;
    if (n) memcpy(nodeinfo_table, gasneti_nodeinfo, n * sizeof *nodeinfo_table);
    return GASNET_OK;
}

int gasnet_set_waitmode(int wait_mode)
{
    const char *call = "gasnet_set_waitmode";
    if (!gasneti_init_done) return gasneti_report(call, GASNET_ERR_NOT_INIT, "called before gasnet_init");
    switch (wait_mode) {
    case GASNET_WAIT_SPIN: ammpi_set_spin_polls(gasnetc_ep, INT_MAX); break;
    case GASNET_WAIT_BLOCK: ammpi_set_spin_polls(gasnetc_ep, 0); break;
    case GASNET_WAIT_SPINBLOCK: ammpi_set_spin_polls(gasnetc_ep, default_spin_polls); break;
    default:
        return gasneti_report(call, GASNET_ERR_BAD_ARG, "unknown wait mode %d", wait_mode);
    }
    gasneti_wait_mode = wait_mode;
    return GASNET_OK;
}
