/* RMA backends: native one-sided paths that bypass the AM layer.
 *
 * Each backend fills one table of operations (as libfabric providers do);
 * at attach every node picks, per peer, the first backend that reaches it,
 * in the order GASNET_RMA asks for (auto: shm for peers on this host, then
 * verbs, then ofi), and the AM reference path for the rest. The extended
 * API asks each peer's route (route.h), which reads that choice, and never
 * names a backend.
 *
 * Completion: an initiator passes the counter of its operation (a put's or
 * a get's counter, see extended/extended.h). A backend that completes the
 * transfer before returning leaves the counter alone; otherwise it adds 1
 * (atomically) per piece it has in flight and subtracts 1 (atomically,
 * release) once that piece is complete at both ends: a put's data is in
 * the target's memory, a get's data is in the local buffer. Pieces may
 * complete while later ones are still being issued (the backend polls when
 * it waits for room), so the counter may touch zero before the initiating
 * call returns: callers look at it only after that.
 */
#ifndef GASNETI_RMA_H
#define GASNETI_RMA_H

#include "gasnet_internal.h"

/* How a backend names a remote segment: the address it gives the card for
 * an owner address a is a + delta (mod 2^64), with key. A put or get names
 * one for a created endpoint's segment; NULL names the node's primordial
 * segment, which the backend set up at attach. */
typedef struct {
    uint64_t delta, key;
} gasneti_rma_key_t;

typedef struct gasneti_rma {
    const char *name; /* "shm", "ofi", "verbs" */

    /* Collective over every node (all call it, in the same order, even
     * when this node cannot use the backend). Sets up the backend for the
     * attached segments (gasneti_seginfo) and sets reach[p] = 1 for every
     * peer p it can serve; reach[p] is set only where the backend works on
     * both ends (agree with the peers). Returns 0 when it serves any peer;
     * otherwise -1 with the reason in why (one line, no newline). */
    int (*attach)(unsigned char *reach, char *why, size_t whylen);

    /* Network backends only (NULL for shm, whose peers' routes are MAPPED).
     * [dest, dest+n) lies in node's segment (seg: see gasneti_rma_key_t),
     * [src, src+n) is local host memory (a put's source need not be in the
     * segment, nor a get's destination).
     * n > 0. A put may read its source after returning only when bulk is
     * set (the source then stays unchanged until the counter drops);
     * otherwise the backend injects, copies or waits for local completion.
     * Return 0 on success; on failure the backend reports why and the
     * caller stops the job. */
    int (*put)(gasnet_node_t node, const gasneti_rma_key_t *seg, void *dest, const void *src,
               size_t n, int bulk, uint32_t *counter);
    int (*get)(void *dest, gasnet_node_t node, const gasneti_rma_key_t *seg, const void *src,
               size_t n, uint32_t *counter);
    /* Optional (NULL: the AM path serves memsets). Same rules as put. */
    int (*memset)(gasnet_node_t node, const gasneti_rma_key_t *seg, void *dest, int val, size_t n,
                  uint32_t *counter);

    /* Network backends only (verbs, ofi; NULL for shm, whose peers map
     * created segments instead). Registers [addr, addr+size) of this
     * process for the peers' reads and writes: host memory (cuda_device
     * -1) or CUDA device memory of that ordinal. Fills key and returns a
     * handle for seg_unregister, or NULL with why. Any thread. What is
     * still registered at detach, detach closes (after its barrier). */
    void *(*seg_register)(void *addr, uintptr_t size, int cuda_device, gasneti_rma_key_t *key,
                          char *why, size_t whylen);
    void (*seg_unregister)(void *handle);

    /* Advances outstanding transfers; every poll runs it while the backend
     * is attached (gasneti_poll_add), the progress thread's too. May be NULL. */
    void (*poll)(void);

    /* Collective at shutdown (MPI still usable); frees everything. */
    void (*detach)(void);
} gasneti_rma_t;

/* The backend that serves each node, or NULL for the AM path (rma.c). */
extern const gasneti_rma_t **gasneti_rma_for;
/* GASNET_RMA=auto: a backend may decline a stack the AM path beats (ofi.c). */
extern int gasneti_rma_auto;

/* Created endpoints' segments over the network backends (seed 003).
 * When a segment is published, its owner registers it with each network
 * backend running here that can (once per segment; the memory class says
 * how a card reaches device memory: memkind.h, nic_view) and the publish
 * record carries the keys; each peer keeps the key of the backend that
 * serves the owner's node, and puts and gets to that endpoint then go by
 * that backend (gasneti_rma_for_ep). Destroying the segment deregisters
 * it; peers learn of that only from the next publish, as with any access
 * to a destroyed segment. Registrations alive at shutdown are closed by
 * each backend's detach, after its barrier. Under GASNET_VERBOSEENV the owner says, per
 * segment and backend, whether it registered it and why not. */
#define GASNETI_RMA_NETS 2 /* verbs, ofi */
typedef struct {
    gasneti_rma_key_t key[GASNETI_RMA_NETS];
    uint32_t have; /* bit i: key[i] holds a registration */
    uint32_t pad;
} gasneti_rma_keys_t;
void gasneti_rma_seg_register(gasneti_segment_t seg, gex_EP_Index_t index, gasneti_rma_keys_t *keys);
void gasneti_rma_seg_unregister(gasneti_segment_t seg);
void gasneti_rma_peer_keys(gex_EP_Location_t loc, const gasneti_rma_keys_t *keys);
/* The backend and key for a created endpoint's segment (index > 0), or
 * NULL: the AM path (or a copy, where it is mapped here). */
const gasneti_rma_t *gasneti_rma_for_ep(gex_EP_Location_t loc, gasneti_rma_key_t *key);

/* Chooses the backends at attach (after the segments are exchanged), and
 * releases them at shutdown: the layer gasneti_rma_layer (rma.c). */
void gasneti_rma_attach(void);
void gasneti_rma_detach(void);

/* Benchmark hook (bench/, not for clients): on = 1 sends every peer's
 * puts, gets and memsets of host memory through the AM path (a
 * neighbour's device segment imported here stays a copy with its class), as GASNET_RMA=am would (no
 * backend in gasneti_rma_for, and a fast-path table, gasneti_pshm, that
 * maps this process alone); on = 0 restores the attach-time choice. So
 * one job can time both paths in turn. Call only with no RMA operation in
 * flight on any node (after the syncs and a barrier), on every node
 * alike. Any other dispatch added later must honour it (bench/layers.h
 * checks that a put over the AM path waits for its target to poll). */
void gasneti_rma_force_am(int on);

/* The backends this build may have (core-native/shm.c, ofi.c, verbs.c). */
extern const gasneti_rma_t gasneti_rma_shm;
#ifdef GASNETI_HAVE_OFI
extern const gasneti_rma_t gasneti_rma_ofi;
#endif
#ifdef GASNETI_HAVE_VERBS
extern const gasneti_rma_t gasneti_rma_verbs;
#endif

/* What the shm backend found at attach: how many nodes share memory with
 * this one (itself included; 0 if the backend did not run) and this node's
 * index among them, and a zeroed page they all map (NULL unless the
 * backend serves them), for the shared-memory barrier. */
int gasneti_shm_local_nodes(int *my_index);
void *gasneti_shm_control(void);
/* After that page, zeroed too, a lane of GASNETI_SHM_COLL_LANE bytes per
 * node of the host, by index, for the collectives (coll/shm.c: a page of
 * counters and slots, then a stage of chunks; pages only touched by
 * collectives above a slot); NULL unless the backend serves the host's
 * nodes. */
#define GASNETI_SHM_COLL_LANE ((size_t)4096 * 66)
void *gasneti_shm_coll_lanes(void);

#endif
