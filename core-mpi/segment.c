/* Created segments (seed 003, spec §17.4-17.5): gex_Segment_Create and
 * _Destroy, gex_EP_BindSegment, and the table of what is known of every
 * endpoint's bound segment (gasneti_peer_segment).
 *
 * MEMORY. Where a segment's memory comes from is decided in one place,
 * segment_memory(): a kind other than GEX_MK_HOST asks its memory class
 * (memkind/: allocate, or check that the client's range is device memory
 * of the kind, and register the range so data paths recognise it). A
 * GASNet-allocated host segment is a memfd mapping (shared, rounded up to
 * pages), so a process of the same host can map it too: it opens
 * /proc/<owner pid>/fd/<fd> when the segment is published to it
 * (coll/publish.c). Nothing is ever named in /dev/shm, so nothing stays
 * behind after a crash. Where that open is refused the peer simply uses
 * the AM path. A client-allocated segment is the client's memory as given
 * (any alignment), and only the owner reaches it directly.
 *
 * THE TABLE. gasneti_epsegs[index][jobrank] holds the owner's address and
 * size of that endpoint's bound segment, and where this process mapped it
 * (offset). Binding fills this process's own entry; a publish fills the
 * peers'; destroying clears the owner's entry and its ammpi Long segment,
 * so later messages naming it are rejected instead of writing freed
 * memory. A device segment's ammpi Long segment carries its class copy:
 * Long payloads received for it are copied in with it. Index 0 falls back
 * to the table only where the primordial segment was not attached. One
 * row per endpoint index in use, allocated at first use: nodes x 32 bytes
 * each.
 */
#include "gasnet_internal.h"
#include "memkind.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

gasneti_epseg_t *gasneti_epsegs[GASNET_MAXEPS];
static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;

/* Destroyed segment objects are kept, like teams: a stale handle then
 * fails its magic check without touching freed memory. One that was never
 * bound is reused; a bound one stays put, as endpoints still name it. */
static gasneti_segment_t dead_segments, bound_graveyard;

static gasneti_epseg_t *row(gex_EP_Index_t index)
{
    gasneti_epseg_t *r = __atomic_load_n(&gasneti_epsegs[index], __ATOMIC_ACQUIRE);
    if (r) return r;
    r = calloc(gasneti_nodes, sizeof *r);
    if (!r) gasneti_fatalerror("out of memory for the segment table of endpoint index %u", index);
    gasneti_epseg_t *expected = NULL;
    if (!__atomic_compare_exchange_n(&gasneti_epsegs[index], &expected, r, 0, __ATOMIC_ACQ_REL,
                                     __ATOMIC_ACQUIRE)) {
        free(r);
        r = expected;
    }
    return r;
}

void gasneti_epseg_set(gex_EP_Location_t loc, void *addr, uintptr_t size, int pid, int fd)
{
    gasneti_epseg_t *r = row(loc.gex_ep_index);
    pthread_mutex_lock(&table_lock);
    gasneti_epseg_t *e = &r[loc.gex_rank];
    if (fd < 0 && e->map && e->info.addr == addr && e->info.size == size) {
        pthread_mutex_unlock(&table_lock); /* a query's answer about a segment mapped here */
        return;
    }
    /* Readers take no lock: map goes NULL first and is set last, so none
     * sees a mapping with another segment's offset. The old mapping is
     * unmapped (it holds the owner's memory): RMA racing with the owner's
     * new publish was erroneous anyway. */
    void *old = __atomic_exchange_n(&e->map, NULL, __ATOMIC_ACQ_REL);
    if (old) munmap(old, e->info.size);
    e->info = (gasnet_seginfo_t){addr, size};
    /* a neighbour's GASNet-allocated segment: map it here when we may */
    if (size && fd >= 0 && loc.gex_rank != gasneti_mynode &&
        gasneti_nodeinfo[loc.gex_rank].host == gasneti_nodeinfo[gasneti_mynode].host) {
        char why[256];
        void *p = gasneti_shm_map(pid, fd, size, why, sizeof why);
        if (p) {
            __atomic_store_n(&e->offset, (uintptr_t)p - (uintptr_t)addr, __ATOMIC_RELAXED);
            __atomic_store_n(&e->map, p, __ATOMIC_RELEASE);
        } else if (gasneti_getenv_yesno("GASNET_VERBOSEENV", 0)) {
            fprintf(stderr, "GASNet node %u: cannot map the segment of endpoint %u of node %u (%s): "
                    "the AM path serves it\n", gasneti_mynode, loc.gex_ep_index, loc.gex_rank, why);
        }
    }
    pthread_mutex_unlock(&table_lock);
}

/* ---- creation */

static gasneti_segment_t import_segment(gex_Segment_t s, const char *call)
{
    if (!s || s->magic != GASNETI_SEG_MAGIC) gasneti_bad_handle(call, "segment", s);
    return s;
}

/* The one place a segment's memory is found: allocates it (address NULL)
 * or validates the client's. Returns GASNET_OK, or a reported code. */
static int segment_memory(const char *call, gasneti_segment_t seg, gex_Addr_t address,
                          uintptr_t length)
{
    if (seg->kind != GEX_MK_HOST) { /* device memory: its fd stays -1 (no host mapping) */
        int rc = gasneti_mk_segment_memory(call, seg->kind, address, length, &seg->addr, &seg->size);
        seg->allocated = rc == GASNET_OK && !address;
        return rc;
    }
    if (address) { /* client-allocated: any alignment */
        if ((uintptr_t)address + length < (uintptr_t)address)
            return gasneti_report(call, GASNET_ERR_BAD_ARG, "[%p, +%lu) wraps around the address "
                                  "space", address, (unsigned long)length);
        seg->addr = address;
        seg->size = length;
        return GASNET_OK;
    }
    uintptr_t max = gasnet_getMaxLocalSegmentSize();
    if (length > max)
        return gasneti_report(call, GASNET_ERR_BAD_ARG, "length %lu exceeds "
                              "gasnet_getMaxLocalSegmentSize() = %lu", (unsigned long)length,
                              (unsigned long)max);
    uintptr_t size = (length + GASNET_PAGESIZE - 1) / GASNET_PAGESIZE * GASNET_PAGESIZE;
    int fd = memfd_create("gasnet-segment", MFD_CLOEXEC);
    void *p = MAP_FAILED;
    if (fd >= 0 && ftruncate(fd, (off_t)size) == 0)
        p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_NORESERVE, fd, 0);
    if (p == MAP_FAILED) {
        int err = errno;
        if (fd >= 0) close(fd);
        return gasneti_report(call, GASNET_ERR_RESOURCE, "could not allocate %lu bytes of shared "
                              "memory: %s", (unsigned long)size, strerror(err));
    }
    seg->addr = p;
    seg->size = size;
    seg->fd = fd;
    seg->allocated = 1;
    return GASNET_OK;
}

int gex_Segment_Create(gex_Segment_t *segment_p, gex_Client_t client, gex_Addr_t address,
                       uintptr_t length, gex_MK_t kind, gex_Flags_t flags)
{
    const char *call = "gex_Segment_Create";
    GASNETI_CHECK_INIT(call);
    if (!client || client->magic != GASNETI_CLIENT_MAGIC) gasneti_bad_handle(call, "client", client);
    if (!segment_p) return gasneti_report(call, GASNET_ERR_BAD_ARG, "NULL segment_p");
    if (flags) return gasneti_report(call, GASNET_ERR_BAD_ARG, "flags 0x%x (must be 0)", (unsigned)flags);
    if (length == 0) return gasneti_report(call, GASNET_ERR_BAD_ARG, "length 0");
    if (!kind) return gasneti_report(call, GASNET_ERR_BAD_ARG, "kind is NULL (GEX_MK_HOST for host memory)");
    pthread_mutex_lock(&table_lock);
    gasneti_segment_t seg = dead_segments;
    if (seg) dead_segments = seg->cdata;
    pthread_mutex_unlock(&table_lock);
    if (!seg) seg = malloc(sizeof *seg);
    if (!seg) return gasneti_report(call, GASNET_ERR_RESOURCE, "out of memory");
    *seg = (struct gasneti_segment_s){.client = client, .kind = kind, .fd = -1};
    int rc = segment_memory(call, seg, address, length);
    if (rc != GASNET_OK) {
        pthread_mutex_lock(&table_lock);
        seg->cdata = dead_segments;
        dead_segments = seg;
        pthread_mutex_unlock(&table_lock);
        return rc;
    }
    seg->magic = GASNETI_SEG_MAGIC;
    *segment_p = seg;
    return GASNET_OK;
}

void gex_Segment_Destroy(gex_Segment_t segment, gex_Flags_t flags)
{
    const char *call = "gex_Segment_Destroy";
    gasneti_segment_t seg = import_segment(segment, call);
    if (flags) gasneti_fatalerror("%s: flags 0x%x (must be 0)", call, (unsigned)flags);
    if (seg == gasneti_seg0)
        gasneti_fatalerror("%s: the segment of gex_Segment_Attach cannot be destroyed", call);
    /* The binding stays (there is no unbind), but nothing reaches the
     * memory any more: messages naming it are rejected here. */
    gasneti_client_t c = seg->client;
    for (int i = 0; i < c->neps; i++) {
        gasneti_ep_t ep = c->eps[i];
        if (!ep || ep->segment != seg) continue;
        ammpi_set_segment_at(gasnetc_ep, ep->index, NULL, 0);
        gex_EP_Location_t me = {gasneti_mynode, ep->index};
        gasneti_epseg_set(me, NULL, 0, 0, -1);
    }
    for (const gasneti_layer_t *const *l = gasneti_layers; *l; l++)
        if ((*l)->segment_destroy) (*l)->segment_destroy(seg);
    if (seg->kind != GEX_MK_HOST) {
        gasneti_mk_segment_release(seg->kind, seg->addr, seg->size, seg->allocated);
    } else if (seg->allocated) {
        munmap(seg->addr, seg->size);
        close(seg->fd);
    }
    pthread_mutex_lock(&table_lock);
    gasneti_segment_t *list = seg->bound ? &bound_graveyard : &dead_segments;
    memset(seg, 0, sizeof *seg);
    seg->cdata = *list;
    *list = seg;
    pthread_mutex_unlock(&table_lock);
}

/* ammpi's copy into a device segment (ctx: its kind) */
static void to_device(void *ctx, void *dst, const void *src, size_t n)
{
    gasneti_mk_copy(ctx, dst, NULL, src, n);
}

int gex_EP_BindSegment(gex_EP_t ep_, gex_Segment_t segment, gex_Flags_t flags)
{
    const char *call = "gex_EP_BindSegment";
    if (!ep_) return gasneti_report(call, GASNET_ERR_BAD_ARG, "GEX_EP_INVALID");
    if (!segment) return gasneti_report(call, GASNET_ERR_BAD_ARG, "GEX_SEGMENT_INVALID");
    gasneti_ep_t ep = gasneti_import_ep(ep_, call);
    gasneti_segment_t seg = import_segment(segment, call);
    if (flags) return gasneti_report(call, GASNET_ERR_BAD_ARG, "flags 0x%x (must be 0)", (unsigned)flags);
    if (seg->client != ep->client)
        return gasneti_report(call, GASNET_ERR_BAD_ARG, "the segment belongs to another client");
    if (seg->kind != GEX_MK_HOST && ep->index == 0)
        return gasneti_report(call, GASNET_ERR_BAD_ARG, "a device segment cannot be bound to the "
                              "primordial endpoint (create one with gex_EP_Create)");
    pthread_mutex_lock(&ep->lock);
    if (ep->segment) {
        pthread_mutex_unlock(&ep->lock);
        return gasneti_report(call, GASNET_ERR_BAD_ARG, "endpoint %u already has a bound segment%s",
                              ep->index, ep->segment->magic == GASNETI_SEG_MAGIC ? ""
                              : " (destroyed, and there is no unbind)");
    }
    ep->segment = seg;
    seg->bound = 1;
    pthread_mutex_unlock(&ep->lock);
    /* Long payloads for device memory arrive in host memory: the
     * transport copies them in with the kind's class copy */
    if (seg->kind == GEX_MK_HOST) ammpi_set_segment_at(gasnetc_ep, ep->index, seg->addr, seg->size);
    else
        ammpi_set_segment_copy(gasnetc_ep, ep->index, seg->addr, seg->size, to_device,
                               gasneti_mk_import(seg->kind, call));
    gex_EP_Location_t me = {gasneti_mynode, ep->index};
    gasneti_epseg_set(me, seg->addr, seg->size, 0, -1);
    return GASNET_OK;
}

/* ---- the header's on-node fast path (gasnet_extended.h): the shm
 * backend fills gasneti_pshm at attach; the table the fast path reads is
 * off while device memory is registered here or puts and gets are traced
 * or counted. */
gasneti_pshm_t *gasneti_pshm;
const gasneti_pshm_t *gasneti_pshm_fast;

void gasneti_pshm_fast_update(void)
{
    static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER; /* the last update sees both inputs */
    pthread_mutex_lock(&lock);
    /* device memory, or puts and gets traced or counted (core-mpi/trace.c) */
    int device = __atomic_load_n(&gasneti_mk_nranges, __ATOMIC_ACQUIRE) != 0;
    int off = device || gasneti_trace_wants_rma();
    __atomic_store_n(&gasneti_pshm_fast, off ? NULL : gasneti_pshm, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&lock);
}
