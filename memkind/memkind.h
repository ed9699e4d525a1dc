/* Memory classes: what an RMA backend is to a network, a memory class is
 * to device memory. Each class (host, CUDA UVA, the emulated device of the
 * tests) fills one table of operations; a kind (gex_MK_t) is an instance
 * of a class for one device. The data paths ask the kind of each side and
 * call through the table: they never name CUDA.
 *
 * Device addresses are never dereferenced by host code: every byte moves
 * through the class's copy operations (the emulated class makes a mistake
 * fault). Copies are synchronous: when one returns, the bytes are at the
 * destination and the source may change.
 *
 * Local device ranges (device segments of this process, and peers' device
 * memory mapped here) are registered, so that a put's source or a get's
 * destination can be recognised as device memory by lookup.
 */
#ifndef GASNETI_MEMKIND_H
#define GASNETI_MEMKIND_H

#include "base.h"
#include <gasnet_mk.h>
#include <pthread.h>

typedef struct gasneti_mk_s *gasneti_mk_t;

/* A handle naming device memory, that another process of this host can
 * map (import). Opaque bytes, copied between processes as they are. */
typedef struct {
    uint64_t words[16];
} gasneti_mk_handle_t;

/* How a network card reaches device memory (nic_view below). */
typedef struct {
    void *addr;      /* the address to register with the card */
    int cuda_device; /* -1: host memory at addr; else CUDA memory of this device ordinal */
} gasneti_mk_nic_t;

typedef struct gasneti_mk_class {
    const char *name; /* "host", "CUDA_UVA", "emulated" */

    /* Opens the device named by args for mk (mk->device set by the
     * caller where the class has one). GASNET_OK, or an error code with a
     * one-line reason in why. */
    int (*create)(gasneti_mk_t mk, const gex_MK_Create_args_t *args, char *why, size_t whylen);
    void (*destroy)(gasneti_mk_t mk);

    /* n > 0 bytes of device memory, or NULL with why. */
    void *(*alloc)(gasneti_mk_t mk, size_t n, char *why, size_t whylen);
    void (*free)(gasneti_mk_t mk, void *p, size_t n);
    /* Whether [p, p+n) is allocated memory of this kind (client-allocated
     * segments are checked with it). */
    int (*owns)(gasneti_mk_t mk, const void *p, size_t n);

    /* Synchronous copies; a failure is fatal (the class says why). */
    void (*to_host)(gasneti_mk_t mk, void *host, const void *dev, size_t n);
    void (*from_host)(gasneti_mk_t mk, void *dev, const void *host, size_t n);
    void (*dev_to_dev)(gasneti_mk_t mk, void *dst, const void *src, size_t n);

    /* export: a handle for [p, p+n) (inside one allocation); 0 or -1 with
     * why. import: maps a peer's exported memory here and returns its
     * local device address (NULL with why); unimport undoes it. */
    int (*export_handle)(gasneti_mk_t mk, void *p, size_t n, gasneti_mk_handle_t *h, char *why,
                         size_t whylen);
    void *(*import_handle)(gasneti_mk_t mk, const gasneti_mk_handle_t *h, size_t n, char *why,
                           size_t whylen);
    void (*unimport)(gasneti_mk_t mk, void *p, size_t n);

    /* Waits until every copy this process started on the device is done. */
    void (*sync)(gasneti_mk_t mk);

    /* Asynchronous device-to-device copies, finished in the order they
     * are started (NULL: the class has none). copy_start queues one and
     * returns; fence marks everything queued so far and returns a handle;
     * fence_done says whether all of that is finished (bytes in place,
     * sources read), and then releases the handle. */
    void (*copy_start)(gasneti_mk_t mk, void *dst, const void *src, size_t n);
    void *(*fence)(gasneti_mk_t mk);
    int (*fence_done)(gasneti_mk_t mk, void *h);

    /* Page-locked host memory, which the device copies to and from at full
     * speed (NULL: the class has none); NULL when it cannot be had. */
    void *(*pinned_alloc)(gasneti_mk_t mk, size_t n);
    void (*pinned_free)(gasneti_mk_t mk, void *p, size_t n);

    /* How a network card reaches [p, p+n) of this kind, for the ofi and
     * verbs backends to register it (NULL: it cannot). 0, or -1 with why. */
    int (*nic_view)(gasneti_mk_t mk, void *p, size_t n, gasneti_mk_nic_t *v, char *why,
                    size_t whylen);
} gasneti_mk_class_t;

enum { GASNETI_MK_MAGIC = 0x4d4b4e44 };
struct gasneti_mk_s {
    uint32_t magic;
    const gasneti_mk_class_t *cls;
    gex_MK_Class_t class_id;
    gex_Client_t client;
    int device;  /* the device ordinal, where the class has one */
    void *priv;  /* the class's state (CUDA: its primary context) */
    char *bounce; /* pinned buffer for small host-device copies (memkind.c) */
    pthread_mutex_t bounce_lock;
    void *cdata; /* gex_MK_SetCData */
};

extern const gasneti_mk_class_t gasneti_mk_class_host;
extern const gasneti_mk_class_t gasneti_mk_class_emulated;
#ifdef GASNET_HAVE_MK_CLASS_CUDA_UVA
extern const gasneti_mk_class_t gasneti_mk_class_cuda_uva;
#endif
extern struct gasneti_mk_s gasneti_mk_host; /* what GEX_MK_HOST names */
/* Whether this process can use the CUDA driver (a network backend then
 * asks its provider for device memory registration). */
#ifdef GASNET_HAVE_MK_CLASS_CUDA_UVA
int gasneti_mk_cuda_usable(void);
#else
static inline int gasneti_mk_cuda_usable(void) { return 0; }
#endif

/* A kind from the client (GEX_MK_HOST included); fatal when not a kind. */
gasneti_mk_t gasneti_mk_import(gex_MK_t kind, const char *call);
static inline int gasneti_mk_is_host(gasneti_mk_t mk) { return !mk || mk == &gasneti_mk_host; }

/* The registry of local device ranges: the kind of [p, p+n), or NULL for
 * host memory (also when the range is not wholly inside one device range). */
void gasneti_mk_register(gasneti_mk_t mk, void *base, size_t size);
void gasneti_mk_unregister(void *base);
extern int gasneti_mk_nranges; /* how many are registered (atomic): 0 is the fast case */
/* Called (under the registry's lock) after a range comes or goes: the
 * core's, which turns the header's on-node fast path off while any is. */
extern void (*gasneti_mk_ranges_changed)(void);
gasneti_mk_t gasneti_mk_lookup_slow(const void *p, size_t n);
static inline gasneti_mk_t gasneti_mk_lookup(const void *p, size_t n)
{
    if (__builtin_expect(!__atomic_load_n(&gasneti_mk_nranges, __ATOMIC_ACQUIRE), 1)) return NULL;
    return gasneti_mk_lookup_slow(p, n);
}

/* Peers' device segments, as published to this process (by
 * gex_EP_PublishBoundSegment): the initiator of a put or get must know
 * that the remote side is device memory, to stage it through host buffers
 * on the AM path (the transport never writes device memory), or to copy
 * with the class's operations into its own mapping of the peer's memory
 * (a neighbour on the shm path).
 *
 * gasneti_mk_peer_set records loc's bound segment: a device one (mk_class
 * not GEX_MK_CLASS_HOST, with the owner's export handle, NULL: none), or
 * clears it (host). A neighbour's device memory (the caller says whether
 * loc's node is one whose memory may be mapped here) is imported at once
 * when this process has a kind of the class to map it with. */
void gasneti_mk_peer_set(gex_EP_Location_t loc, gex_MK_Class_t mk_class, const void *owner_base,
                         uintptr_t size, const gasneti_mk_handle_t *h, int neighbour);
extern int gasneti_mk_npeers; /* device segments known (atomic): 0 is the fast case */
int gasneti_mk_peer_is_device_slow(gex_EP_Location_t loc);
static inline int gasneti_mk_peer_is_device(gex_EP_Location_t loc)
{
    if (__builtin_expect(!__atomic_load_n(&gasneti_mk_npeers, __ATOMIC_ACQUIRE), 1)) return 0;
    return gasneti_mk_peer_is_device_slow(loc);
}
/* Whether loc's device segment is imported here; if so, owner address a
 * is at local device address a + *offset, copied with kind *mk. */
int gasneti_mk_peer_map(gex_EP_Location_t loc, uintptr_t *offset, gasneti_mk_t *mk);

/* gex_MK_Create, once the core has checked the client. */
int gasneti_mk_create(gex_MK_t *kind_p, gex_Client_t client, const gex_MK_Create_args_t *args,
                      gex_Flags_t flags);
/* Kinds of this process come and go (gex_MK_Create, gex_MK_Destroy). */
void gasneti_mk_kind_added(gasneti_mk_t mk, int add);

/* A local segment of a device kind: its export handle (for publishing).
 * 0, or -1 when the class cannot export it (peers then use the AM path). */
int gasneti_mk_export(gasneti_mk_t mk, void *base, uintptr_t size, gasneti_mk_handle_t *h);

/* gex_Segment_Create's memory for a device kind (core-mpi/segment.c):
 * allocates it (address NULL; length rounded up to pages) or checks that
 * the client's range is memory of the kind, and registers the range.
 * GASNET_OK, or a reported error code. Release undoes it. */
int gasneti_mk_segment_memory(const char *call, gex_MK_t kind, gex_Addr_t address, uintptr_t length,
                              void **addr_p, uintptr_t *size_p);
void gasneti_mk_segment_release(gex_MK_t kind, void *addr, uintptr_t size, int allocated);
gex_MK_Class_t gasneti_mk_class_of(gex_MK_t kind);

/* Copies n bytes between any two kinds (NULL or host: plain memory):
 * the class's own copies, or through a host bounce buffer in pieces when
 * the two sides are devices of different classes. */
void gasneti_mk_copy(gasneti_mk_t dst_mk, void *dst, gasneti_mk_t src_mk, const void *src, size_t n);

/* The same copy, left to complete later where both sides are device memory
 * of one device and the class copies asynchronously: it is counted in *cnt
 * (and *lc, when not NULL), each of which drops by one once the copy is
 * done, as a poll finds (gasneti_mk_poll, from every poll of the library).
 * Otherwise the copy is made at once. A kind's copies finish before
 * gex_MK_Destroy returns. */
void gasneti_mk_copy_start(gasneti_mk_t dst_mk, void *dst, gasneti_mk_t src_mk, const void *src,
                           size_t n, uint32_t *cnt, uint32_t *lc);
extern int gasneti_mk_ncopies; /* asynchronous copies in flight (atomic) */
void gasneti_mk_poll_slow(void);
static inline void gasneti_mk_poll(void)
{
    if (__builtin_expect(__atomic_load_n(&gasneti_mk_ncopies, __ATOMIC_ACQUIRE) != 0, 0))
        gasneti_mk_poll_slow();
}

#endif
