/* Routes: how this process reaches the bound segment of each (rank,
 * endpoint), decided in one place. Every RMA path (puts, gets, memsets and
 * values in extended/putget.c, VIS, atomics, the collectives' and the AM
 * rings' in-place tests) asks gasneti_route once per operation and acts
 * on its answer; none of them tests backends, mappings or memory kinds
 * itself.
 *
 * The answer comes from per-peer records fixed when segments are
 * attached, published or bound, and only read here:
 *   - at attach, the backend each node chose per peer (rma.c,
 *     gasneti_rma_for) and the shm backend's mappings (gasneti_nodeinfo);
 *   - at publish, a created endpoint's mapping here (core-mpi/segment.c,
 *     gasneti_epsegs), its device memory imported here (memkind/), and
 *     the key a network backend registered it under (rma.c).
 * The header's inline fast path (gasnet_extended.h, gasneti_pshm) is the
 * same MAPPED answer for the primordial segments, cached for the caller.
 *
 *   SELF    this process: its own addresses (device memory by lookup)
 *   MAPPED  a neighbour's segment mapped here: owner address a is at
 *           a + offset, host memory or, with mk, device memory to copy with
 *           that kind's class
 *   NET     a network backend (verbs, ofi) reaches it; device is set when
 *           the card reaches the peer's device memory
 *   AM      the AM path (packed, Medium or Long; staged through host
 *           buffers where device is set)
 */
#ifndef GASNETI_ROUTE_H
#define GASNETI_ROUTE_H

#include "rma.h"
#include "memkind.h"

typedef enum { GASNETI_ROUTE_AM, GASNETI_ROUTE_SELF, GASNETI_ROUTE_MAPPED, GASNETI_ROUTE_NET } gasneti_route_how_t;

typedef struct {
    gasneti_route_how_t how;
    int device;               /* the peer's segment is device memory (not SELF) */
    uintptr_t offset;         /* MAPPED */
    gasneti_mk_t mk;          /* MAPPED: the kind to copy with, NULL for host memory */
    const gasneti_rma_t *net; /* NET */
    int created;              /* NET: key names a created segment (else the primordial) */
    gasneti_rma_key_t key;
} gasneti_route_t;

void gasneti_route(gex_EP_Location_t loc, gasneti_route_t *r);

/* NET: the segment argument of the backend's operations. */
static inline const gasneti_rma_key_t *gasneti_route_key(const gasneti_route_t *r)
{
    return r->created ? &r->key : NULL;
}

/* Where owner address addr of loc's segment is reached here by plain loads
 * and stores (SELF, or MAPPED host memory), or NULL. Not range-checked. */
void *gasneti_peer_local(gex_EP_Location_t loc, const void *addr);

/* Whether node's memory may be mapped here (the shm backend serves it, or,
 * before attach, it is a neighbour and GASNET_RMA allows shm): publish
 * imports a neighbour's device segment only then. */
int gasneti_route_neighbour(gex_Rank_t node);

#endif
