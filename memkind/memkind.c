/* gex_MK_Create / gex_MK_Destroy, the host class, the registry of local
 * device ranges and the copy between any two kinds. The classes' tables
 * are in this folder, one file each.
 *
 * The registry is a small array under a read-write lock; lookups cost an
 * atomic load while no device range exists (every host-only client).
 */
#include "memkind.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* ---- the host class: plain memory */

static void *host_alloc(gasneti_mk_t mk, size_t n, char *why, size_t whylen)
{
    (void)mk;
    void *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
        snprintf(why, whylen, "mmap of %zu bytes failed", n);
        return NULL;
    }
    return p;
}
static void host_free(gasneti_mk_t mk, void *p, size_t n) { (void)mk; munmap(p, n); }
static int host_owns(gasneti_mk_t mk, const void *p, size_t n)
{
    (void)mk, (void)p, (void)n;
    return 1;
}
static void host_copy(gasneti_mk_t mk, void *dst, const void *src, size_t n)
{
    (void)mk;
    memcpy(dst, src, n);
}

const gasneti_mk_class_t gasneti_mk_class_host = {
    "host", NULL, NULL, host_alloc, host_free, host_owns, host_copy, host_copy, host_copy,
    NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
};
struct gasneti_mk_s gasneti_mk_host = {GASNETI_MK_MAGIC, &gasneti_mk_class_host, GEX_MK_CLASS_HOST,
                                       NULL, 0, NULL, NULL, PTHREAD_MUTEX_INITIALIZER, NULL};

gasneti_mk_t gasneti_mk_import(gex_MK_t kind, const char *call)
{
    if (kind == GEX_MK_HOST) return &gasneti_mk_host;
    if (!kind || kind->magic != GASNETI_MK_MAGIC) gasneti_bad_handle(call, "memory kind", kind);
    return kind;
}

/* ---- gex_MK_Create (core-mpi/objects.c checks its client), gex_MK_Destroy */

static void copies_complete(gasneti_mk_t until_mk);
enum { BOUNCE = 65536, BOUNCE_MIN = 4096 }; /* see bounce_take */

/* Destroyed kind objects are kept for reuse rather than freed (as teams
 * and segments are): a stale handle then fails its magic check without
 * touching freed memory. */
static gasneti_mk_t dead_kinds;
static pthread_mutex_t dead_lock = PTHREAD_MUTEX_INITIALIZER;
static void kind_bury(gasneti_mk_t mk)
{
    mk->magic = 0;
    pthread_mutex_lock(&dead_lock);
    mk->priv = dead_kinds;
    dead_kinds = mk;
    pthread_mutex_unlock(&dead_lock);
}

int gasneti_mk_create(gex_MK_t *kind_p, gex_Client_t client, const gex_MK_Create_args_t *args,
                      gex_Flags_t flags)
{
    const char *call = "gex_MK_Create";
    if (!kind_p) return gasneti_report(call, GASNET_ERR_BAD_ARG, "kind_p is NULL");
    if (!args) return gasneti_report(call, GASNET_ERR_BAD_ARG, "args is NULL");
    if (flags) return gasneti_report(call, GASNET_ERR_BAD_ARG, "flags 0x%x: must be 0", (unsigned)flags);
    if (args->gex_flags)
        return gasneti_report(call, GASNET_ERR_BAD_ARG, "args->gex_flags 0x%llx: must be 0",
                              (unsigned long long)args->gex_flags);
    const gasneti_mk_class_t *cls = NULL;
    int device = 0;
    switch (args->gex_class) {
    case GEX_MK_CLASS_HOST: /* host memory is one kind, predefined (spec: rejected) */
        return gasneti_report(call, GASNET_ERR_BAD_ARG,
                              "class GEX_MK_CLASS_HOST: host memory is the predefined kind "
                              "GEX_MK_HOST, which is used as it is");
    case GEX_MK_CLASS_CUDA_UVA:
#ifdef GASNET_HAVE_MK_CLASS_CUDA_UVA
        cls = &gasneti_mk_class_cuda_uva;
        device = args->gex_args.gex_class_cuda_uva.gex_CUdevice;
        break;
#else
        return gasneti_report(call, GASNET_ERR_BAD_ARG,
                              "class GEX_MK_CLASS_CUDA_UVA is not supported: this library was built "
                              "without the CUDA headers (cuda.h)");
#endif
    case GEX_MK_CLASS_HIP:
        return gasneti_report(call, GASNET_ERR_BAD_ARG,
                              "class GEX_MK_CLASS_HIP is not supported by this library (no HIP class "
                              "is built; GASNET_HAVE_MK_CLASS_HIP is undefined)");
    case GEX_MK_CLASS_ZE:
        return gasneti_report(call, GASNET_ERR_BAD_ARG,
                              "class GEX_MK_CLASS_ZE is not supported by this library (no Level Zero "
                              "class is built; GASNET_HAVE_MK_CLASS_ZE is undefined)");
    case GASNETI_MK_CLASS_EMULATED:
        cls = &gasneti_mk_class_emulated;
        break;
    default:
        return gasneti_report(call, GASNET_ERR_BAD_ARG, "unknown memory kind class %d",
                              (int)args->gex_class);
    }
    pthread_mutex_lock(&dead_lock);
    gasneti_mk_t mk = dead_kinds;
    if (mk) dead_kinds = mk->priv;
    pthread_mutex_unlock(&dead_lock);
    if (!mk) mk = calloc(1, sizeof *mk);
    if (!mk) return gasneti_report(call, GASNET_ERR_RESOURCE, "out of memory");
    *mk = (struct gasneti_mk_s){GASNETI_MK_MAGIC, cls, args->gex_class, client, device, NULL, NULL,
                                PTHREAD_MUTEX_INITIALIZER, NULL};
    char why[256] = "";
    int rc = cls->create ? cls->create(mk, args, why, sizeof why) : GASNET_OK;
    if (rc != GASNET_OK) {
        kind_bury(mk);
        return gasneti_report(call, rc, "the %s class is unavailable: %s", cls->name, why);
    }
    gasneti_mk_kind_added(mk, 1);
    if (gasneti_getenv_yesno("GASNET_VERBOSEENV", 0))
        fprintf(stderr, "GASNet node %u: memory kind %s (device %d): RMA with its memory is a class "
                "copy in this process and to neighbours that import it (shm path), a card's "
                "transfer where ofi or verbs registered the peer's segment (each publish says), "
                "else staged through host buffers over the AM path\n", gasneti_mynode, cls->name,
                mk->device);
    *kind_p = mk;
    return GASNET_OK;
}

/* A created kind, for the queries GEX_MK_HOST has no answer to. */
static gasneti_mk_t created_kind(gex_MK_t kind, const char *call)
{
    if (kind == GEX_MK_HOST)
        gasneti_fatalerror("%s: GEX_MK_HOST is predefined: only kinds from gex_MK_Create have "
                           "client data and properties", call);
    return gasneti_mk_import(kind, call);
}

void gex_MK_SetCData(gex_MK_t kind, const void *val) { created_kind(kind, "gex_MK_SetCData")->cdata = (void *)val; }
void *gex_MK_QueryCData(gex_MK_t kind) { return created_kind(kind, "gex_MK_QueryCData")->cdata; }
gex_Flags_t gex_MK_QueryFlags(gex_MK_t kind)
{
    created_kind(kind, "gex_MK_QueryFlags");
    return 0; /* gex_MK_Create takes flags 0 only */
}
gex_Client_t gex_MK_QueryClient(gex_MK_t kind) { return created_kind(kind, "gex_MK_QueryClient")->client; }
gex_MK_Class_t gex_MK_QueryClass(gex_MK_t kind) { return created_kind(kind, "gex_MK_QueryClass")->class_id; }

void gex_MK_Destroy(gex_MK_t kind, gex_Flags_t flags)
{
    const char *call = "gex_MK_Destroy";
    gasneti_mk_t mk = gasneti_mk_import(kind, call);
    if (flags) gasneti_fatalerror("%s: flags 0x%x: must be 0", call, (unsigned)flags);
    if (mk == &gasneti_mk_host) return; /* predefined: nothing to release */
    copies_complete(mk);
    gasneti_mk_kind_added(mk, 0);
    if (mk->bounce) mk->cls->pinned_free(mk, mk->bounce, BOUNCE);
    mk->bounce = NULL;
    if (mk->cls->destroy) mk->cls->destroy(mk);
    kind_bury(mk);
}

/* ---- the registry of local device ranges */

typedef struct {
    uintptr_t base, size;
    gasneti_mk_t mk;
} range_t;
static range_t *ranges;
static int nalloc;
int gasneti_mk_nranges;
void (*gasneti_mk_ranges_changed)(void);
static pthread_rwlock_t ranges_lock = PTHREAD_RWLOCK_INITIALIZER;

void gasneti_mk_register(gasneti_mk_t mk, void *base, size_t size)
{
    pthread_rwlock_wrlock(&ranges_lock);
    if (gasneti_mk_nranges == nalloc) {
        nalloc = nalloc ? 2 * nalloc : 16;
        ranges = realloc(ranges, (size_t)nalloc * sizeof *ranges);
        if (!ranges) gasneti_fatalerror("out of memory registering device memory");
    }
    ranges[gasneti_mk_nranges] = (range_t){(uintptr_t)base, size, mk};
    __atomic_store_n(&gasneti_mk_nranges, gasneti_mk_nranges + 1, __ATOMIC_RELEASE);
    if (gasneti_mk_ranges_changed) gasneti_mk_ranges_changed();
    pthread_rwlock_unlock(&ranges_lock);
}

void gasneti_mk_unregister(void *base)
{
    pthread_rwlock_wrlock(&ranges_lock);
    int n = gasneti_mk_nranges;
    for (int i = 0; i < n; i++)
        if (ranges[i].base == (uintptr_t)base) {
            ranges[i] = ranges[n - 1];
            __atomic_store_n(&gasneti_mk_nranges, n - 1, __ATOMIC_RELEASE);
            break;
        }
    if (!__atomic_load_n(&gasneti_mk_nranges, __ATOMIC_RELAXED)) {
        free(ranges);
        ranges = NULL;
        nalloc = 0;
    }
    if (gasneti_mk_ranges_changed) gasneti_mk_ranges_changed();
    pthread_rwlock_unlock(&ranges_lock);
}

gasneti_mk_t gasneti_mk_lookup_slow(const void *p, size_t n)
{
    gasneti_mk_t mk = NULL;
    uintptr_t a = (uintptr_t)p;
    pthread_rwlock_rdlock(&ranges_lock);
    for (int i = 0; i < gasneti_mk_nranges; i++)
        if (a >= ranges[i].base && a - ranges[i].base < ranges[i].size) {
            if (n <= ranges[i].size - (a - ranges[i].base)) mk = ranges[i].mk;
            break;
        }
    pthread_rwlock_unlock(&ranges_lock);
    return mk;
}

/* ---- copies between kinds */

/* A host-device copy of BOUNCE_MIN..BOUNCE bytes goes through the kind's
 * pinned buffer (a memcpy and a copy from pinned memory): at these sizes
 * CUDA's copy from pageable memory is slower than the two together
 * (1.1-1.3x at 64 KiB on an H200, results/gpu/), and the AM path stages
 * through pieces of this size. While another thread uses the buffer, the
 * copy goes straight. */
static char *bounce_take(gasneti_mk_t mk, size_t n)
{
    if (n < BOUNCE_MIN || n > BOUNCE || !mk->cls->pinned_alloc || pthread_mutex_trylock(&mk->bounce_lock))
        return NULL;
    if (!mk->bounce) mk->bounce = mk->cls->pinned_alloc(mk, BOUNCE);
    if (!mk->bounce) pthread_mutex_unlock(&mk->bounce_lock);
    return mk->bounce;
}

/* Whether the class copies between two device kinds itself (dev_to_dev,
 * copy_start): they are one device of one class. */
static int one_device(gasneti_mk_t a, gasneti_mk_t b)
{
    return a->cls == b->cls && a->device == b->device;
}

void gasneti_mk_copy(gasneti_mk_t dst_mk, void *dst, gasneti_mk_t src_mk, const void *src, size_t n)
{
    int dh = gasneti_mk_is_host(dst_mk), sh = gasneti_mk_is_host(src_mk);
    char *b;
    if (!n) return;
    if (dh && sh) memcpy(dst, src, n);
    else if (sh && (b = bounce_take(dst_mk, n))) {
        memcpy(b, src, n);
        dst_mk->cls->from_host(dst_mk, dst, b, n);
        pthread_mutex_unlock(&dst_mk->bounce_lock);
    } else if (sh) dst_mk->cls->from_host(dst_mk, dst, src, n);
    else if (dh && (b = bounce_take(src_mk, n))) {
        src_mk->cls->to_host(src_mk, b, src, n);
        memcpy(dst, b, n);
        pthread_mutex_unlock(&src_mk->bounce_lock);
    } else if (dh) src_mk->cls->to_host(src_mk, dst, src, n);
    else if (one_device(dst_mk, src_mk))
        dst_mk->cls->dev_to_dev(dst_mk, dst, src, n);
    else { /* two devices that cannot copy to each other: through the host */
        enum { BOUNCE = 256 * 1024 };
        char *buf = malloc(n < BOUNCE ? n : BOUNCE);
        if (!buf) gasneti_fatalerror("out of memory for a device-to-device copy");
        for (size_t off = 0; off < n; off += BOUNCE) {
            size_t len = n - off < BOUNCE ? n - off : BOUNCE;
            src_mk->cls->to_host(src_mk, buf, (const char *)src + off, len);
            dst_mk->cls->from_host(dst_mk, (char *)dst + off, buf, len);
        }
        free(buf);
    }
}

/* ---- asynchronous device-to-device copies, completed by polls
 *
 * Starting a copy costs the class's queueing alone. A poll puts one fence
 * behind the copies of each kind that have none yet, and asks each fence
 * once whether it is passed; the copies behind a passed fence are done. So
 * a thousand NBI puts cost one fence and a few queries, not one each. */

typedef struct fence {
    gasneti_mk_t mk;
    void *h;         /* the class's handle, until done */
    int done;
    unsigned asked;  /* the poll that last asked */
    int refs;        /* copies behind it */
} fence_t;
typedef struct copy {
    gasneti_mk_t mk;
    uint32_t *cnt, *lc; /* counters to drop when it is done */
    fence_t *fence;     /* NULL until a poll puts one behind it */
    struct copy *next;
} copy_t;
static copy_t *copies; /* in flight */
static unsigned polls;
int gasneti_mk_ncopies;
static pthread_mutex_t copies_lock = PTHREAD_MUTEX_INITIALIZER;

void gasneti_mk_copy_start(gasneti_mk_t dst_mk, void *dst, gasneti_mk_t src_mk, const void *src,
                           size_t n, uint32_t *cnt, uint32_t *lc)
{
    copy_t *c = NULL;
    if (n && !gasneti_mk_is_host(dst_mk) && !gasneti_mk_is_host(src_mk) &&
        one_device(dst_mk, src_mk) && dst_mk->cls->copy_start)
        c = malloc(sizeof *c);
    if (!c) {
        gasneti_mk_copy(dst_mk, dst, src_mk, src, n);
        return;
    }
    __atomic_fetch_add(cnt, 1, __ATOMIC_RELAXED);
    if (lc) __atomic_fetch_add(lc, 1, __ATOMIC_RELAXED);
    dst_mk->cls->copy_start(dst_mk, dst, src, n); /* queued before it is listed: a fence covers it */
    *c = (copy_t){dst_mk, cnt, lc, NULL, NULL};
    pthread_mutex_lock(&copies_lock);
    c->next = copies;
    copies = c;
    __atomic_fetch_add(&gasneti_mk_ncopies, 1, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&copies_lock);
}

/* Completes the copies that are done: all of them, or with until_mk, waits
 * for every copy of that kind. One thread polls at a time; others go on. */
static void copies_complete(gasneti_mk_t until_mk)
{
    if (until_mk) pthread_mutex_lock(&copies_lock);
    else if (pthread_mutex_trylock(&copies_lock)) return;
    polls++;
    for (copy_t *c = copies; c; c = c->next) {
        if (c->fence) continue;
        fence_t *f = malloc(sizeof *f);
        if (!f) gasneti_fatalerror("out of memory completing device copies");
        *f = (fence_t){c->mk, c->mk->cls->fence(c->mk), 0, 0, 0};
        for (copy_t *d = c; d; d = d->next)
            if (!d->fence && d->mk == c->mk) d->fence = f, f->refs++;
    }
    for (copy_t **link = &copies, *c; (c = *link);) {
        fence_t *f = c->fence;
        if (!f->done && (f->asked != polls || f->mk == until_mk)) {
            f->asked = polls;
            do f->done = f->mk->cls->fence_done(f->mk, f->h);
            while (!f->done && f->mk == until_mk);
        }
        if (!f->done) {
            link = &c->next;
            continue;
        }
        *link = c->next;
        __atomic_fetch_sub(&gasneti_mk_ncopies, 1, __ATOMIC_RELAXED);
        if (c->lc) __atomic_fetch_sub(c->lc, 1, __ATOMIC_RELEASE);
        __atomic_fetch_sub(c->cnt, 1, __ATOMIC_RELEASE);
        if (!--f->refs) free(f);
        free(c);
    }
    pthread_mutex_unlock(&copies_lock);
}
void gasneti_mk_poll_slow(void) { copies_complete(NULL); }

/* ---- hooks for the library's tests (tests/mk_test.h), not for clients:
 * device memory a client allocates itself (as with cudaMalloc), copies to
 * check it byte by byte, and a class's export/import on their own. */

void *gasneti_mk_test_alloc(gex_MK_t kind, size_t n)
{
    gasneti_mk_t mk = gasneti_mk_import(kind, "gasneti_mk_test_alloc");
    char why[256];
    void *p = mk->cls->alloc(mk, n, why, sizeof why);
    if (!p) gasneti_fatalerror("gasneti_mk_test_alloc: %s", why);
    return p;
}
void gasneti_mk_test_free(gex_MK_t kind, void *p, size_t n)
{
    gasneti_mk_t mk = gasneti_mk_import(kind, "gasneti_mk_test_free");
    mk->cls->free(mk, p, n);
}
void gasneti_mk_test_copy(gex_MK_t dst_kind, void *dst, gex_MK_t src_kind, const void *src, size_t n)
{
    gasneti_mk_copy(gasneti_mk_import(dst_kind, "gasneti_mk_test_copy"), dst,
                    gasneti_mk_import(src_kind, "gasneti_mk_test_copy"), src, n);
}
size_t gasneti_mk_test_handle_size(void) { return sizeof(gasneti_mk_handle_t); }
void gasneti_mk_test_export(gex_MK_t kind, void *p, size_t n, void *handle)
{
    gasneti_mk_t mk = gasneti_mk_import(kind, "gasneti_mk_test_export");
    char why[256];
    if (!mk->cls->export_handle || mk->cls->export_handle(mk, p, n, handle, why, sizeof why))
        gasneti_fatalerror("gasneti_mk_test_export: %s", mk->cls->export_handle ? why : "no export");
}
void *gasneti_mk_test_import(gex_MK_t kind, const void *handle, size_t n)
{
    gasneti_mk_t mk = gasneti_mk_import(kind, "gasneti_mk_test_import");
    char why[256];
    void *p = mk->cls->import_handle(mk, handle, n, why, sizeof why);
    if (!p) gasneti_fatalerror("gasneti_mk_test_import: %s", why);
    return p;
}
void gasneti_mk_test_unimport(gex_MK_t kind, void *p, size_t n)
{
    gasneti_mk_t mk = gasneti_mk_import(kind, "gasneti_mk_test_unimport");
    mk->cls->unimport(mk, p, n);
}

/* ---- peers' device segments */

typedef struct {
    gex_MK_Class_t mk_class; /* GEX_MK_CLASS_HOST: not a device segment */
    uintptr_t base, size;    /* in the owner's address space */
    char *local;             /* our import of it, or NULL */
    gasneti_mk_t mk;         /* the kind the import was made with */
} peer_t;
static peer_t *peers[GASNET_MAXEPS]; /* by endpoint index, then jobrank */
int gasneti_mk_npeers;
static pthread_mutex_t peers_lock = PTHREAD_MUTEX_INITIALIZER;

/* This process's kinds, to import peers' memory with. */
static gasneti_mk_t kinds[64];
static int nkinds;
/* The emulated class needs no device state: its imports can always be made. */
static struct gasneti_mk_s emulated_any = {GASNETI_MK_MAGIC, &gasneti_mk_class_emulated,
                                           GASNETI_MK_CLASS_EMULATED, NULL, 0, NULL, NULL,
                                           PTHREAD_MUTEX_INITIALIZER, NULL};

static gasneti_mk_t kind_of_class(gex_MK_Class_t c)
{
    for (int i = 0; i < nkinds; i++)
        if (kinds[i] && kinds[i]->class_id == c) return kinds[i];
    return c == GASNETI_MK_CLASS_EMULATED ? &emulated_any : NULL;
}

/* Undoes an import: out of the local ranges, then unmapped. */
static void drop_import(peer_t *p)
{
    gasneti_mk_unregister(p->local);
    p->mk->cls->unimport(p->mk, p->local, p->size);
    p->local = NULL;
}

/* A kind going away takes its imports with it (CUDA: they belong to the
 * device context it releases); those peers are then reached through the
 * AM path, staged. */
void gasneti_mk_kind_added(gasneti_mk_t mk, int add)
{
    pthread_mutex_lock(&peers_lock);
    if (add && nkinds < (int)(sizeof kinds / sizeof kinds[0])) kinds[nkinds++] = mk;
    for (int i = 0; !add && i < nkinds; i++)
        if (kinds[i] == mk) kinds[i] = NULL;
    for (int e = 0; !add && e < GASNET_MAXEPS; e++)
        for (gex_Rank_t r = 0; peers[e] && r < gasneti_nodes; r++)
            if (peers[e][r].local && peers[e][r].mk == mk) drop_import(&peers[e][r]);
    pthread_mutex_unlock(&peers_lock);
}

int gasneti_mk_export(gasneti_mk_t mk, void *base, uintptr_t size, gasneti_mk_handle_t *h)
{
    char why[256];
    memset(h, 0, sizeof *h);
    return mk->cls->export_handle ? mk->cls->export_handle(mk, base, size, h, why, sizeof why) : -1;
}

void gasneti_mk_peer_set(gex_EP_Location_t loc, gex_MK_Class_t mk_class, const void *owner_base,
                         uintptr_t size, const gasneti_mk_handle_t *h, int neighbour)
{
    if (loc.gex_ep_index >= GASNET_MAXEPS || loc.gex_rank >= gasneti_nodes)
        gasneti_fatalerror("a device segment published for endpoint %u of node %u, out of range",
                           loc.gex_ep_index, loc.gex_rank);
    pthread_mutex_lock(&peers_lock);
    peer_t *row = peers[loc.gex_ep_index];
    if (!row) {
        if (mk_class == GEX_MK_CLASS_HOST) goto out;
        row = calloc(gasneti_nodes, sizeof *row);
        if (!row) gasneti_fatalerror("out of memory recording device segments");
        __atomic_store_n(&peers[loc.gex_ep_index], row, __ATOMIC_RELEASE);
    }
    peer_t *p = &row[loc.gex_rank];
    if (p->local) drop_import(p);
    if (p->mk_class != GEX_MK_CLASS_HOST) __atomic_fetch_sub(&gasneti_mk_npeers, 1, __ATOMIC_RELEASE);
    peer_t np = {mk_class, (uintptr_t)owner_base, size, NULL, NULL};
    /* (our own segment is never imported: loopback copies use it as it is) */
    if (mk_class != GEX_MK_CLASS_HOST && h && loc.gex_rank != gasneti_mynode && neighbour) {
        np.mk = kind_of_class(mk_class);
        char why[256];
        if (np.mk && np.mk->cls->import_handle)
            np.local = np.mk->cls->import_handle(np.mk, h, size, why, sizeof why);
        if (np.local) gasneti_mk_register(np.mk, np.local, size); /* copies there use the class */
        if (np.local && gasneti_getenv_yesno("GASNET_VERBOSEENV", 0))
            fprintf(stderr, "GASNet node %u: the device segment of endpoint %u of node %u is mapped "
                    "here (shm path: %s class copies)\n", gasneti_mynode, loc.gex_ep_index,
                    loc.gex_rank, np.mk->cls->name);
        if (!np.local && gasneti_getenv_yesno("GASNET_VERBOSEENV", 0))
            fprintf(stderr, "GASNet node %u: the device segment of endpoint %u of node %u is reached "
                    "through the AM path (staged): %s\n", gasneti_mynode, loc.gex_ep_index,
                    loc.gex_rank, np.mk ? why : "no kind of its class here to map it with");
    }
    *p = np;
    if (mk_class != GEX_MK_CLASS_HOST) __atomic_fetch_add(&gasneti_mk_npeers, 1, __ATOMIC_RELEASE);
out:
    pthread_mutex_unlock(&peers_lock);
}

int gasneti_mk_peer_is_device_slow(gex_EP_Location_t loc)
{
    const peer_t *row = __atomic_load_n(&peers[loc.gex_ep_index], __ATOMIC_ACQUIRE);
    return row && row[loc.gex_rank].mk_class != GEX_MK_CLASS_HOST;
}

int gasneti_mk_peer_map(gex_EP_Location_t loc, uintptr_t *offset, gasneti_mk_t *mk)
{
    const peer_t *row = __atomic_load_n(&peers[loc.gex_ep_index], __ATOMIC_ACQUIRE);
    if (!row || !row[loc.gex_rank].local) return 0;
    const peer_t *p = &row[loc.gex_rank];
    *mk = p->mk;
    *offset = (uintptr_t)p->local - p->base;
    return 1;
}

/* ---- device segments (gex_Segment_Create, gex_Segment_Destroy) */

int gasneti_mk_segment_memory(const char *call, gex_MK_t kind, gex_Addr_t address, uintptr_t length,
                              void **addr_p, uintptr_t *size_p)
{
    gasneti_mk_t mk = gasneti_mk_import(kind, call);
    if (address) { /* client-allocated: must be this kind's memory, all of it */
        if (!mk->cls->owns(mk, address, length))
            return gasneti_report(call, GASNET_ERR_BAD_ARG,
                                  "[%p, +%lu) is not allocated memory of the %s kind", address,
                                  (unsigned long)length, mk->cls->name);
        *addr_p = address;
        *size_p = length;
    } else {
        uintptr_t size = (length + GASNET_PAGESIZE - 1) / GASNET_PAGESIZE * GASNET_PAGESIZE;
        char why[256];
        void *p = mk->cls->alloc(mk, size, why, sizeof why);
        if (!p) return gasneti_report(call, GASNET_ERR_RESOURCE, "%s", why);
        *addr_p = p;
        *size_p = size;
    }
    gasneti_mk_register(mk, *addr_p, *size_p);
    return GASNET_OK;
}

void gasneti_mk_segment_release(gex_MK_t kind, void *addr, uintptr_t size, int allocated)
{
    gasneti_mk_t mk = gasneti_mk_import(kind, "gex_Segment_Destroy");
    gasneti_mk_unregister(addr);
    if (allocated) mk->cls->free(mk, addr, size);
}

gex_MK_Class_t gasneti_mk_class_of(gex_MK_t kind)
{
    return gasneti_mk_import(kind, "gasneti_mk_class_of")->class_id;
}
