/* The one decision per operation of how a peer's segment is reached (see
 * route.h). */
#include "route.h"

#include <string.h>

/* The attach-time choice, read once per question: detach clears it while
 * ammpi_close may still deliver (rma.c). */
static const gasneti_rma_t **chosen(void)
{
    return __atomic_load_n(&gasneti_rma_for, __ATOMIC_ACQUIRE);
}

void gasneti_route(gex_EP_Location_t loc, gasneti_route_t *r)
{
    memset(r, 0, sizeof *r);
    const gasneti_rma_t **rma_for = chosen();
    if (loc.gex_rank == gasneti_mynode) {
        r->how = GASNETI_ROUTE_SELF;
        return;
    }
    /* device memory: imported here, else a card's or the AM path's */
    r->device = gasneti_mk_peer_is_device(loc);
    if (r->device && gasneti_mk_peer_map(loc, &r->offset, &r->mk)) {
        r->how = GASNETI_ROUTE_MAPPED;
        return;
    }
    if (rma_for && rma_for[loc.gex_rank] == &gasneti_rma_shm) {
        if (loc.gex_ep_index == 0) { /* the shm backend's mapping */
            r->how = GASNETI_ROUTE_MAPPED;
            r->offset = gasneti_nodeinfo[loc.gex_rank].offset;
            return;
        }
        /* a created endpoint's segment: mapped at publish, when GASNet allocated it */
        const gasneti_epseg_t *row = __atomic_load_n(&gasneti_epsegs[loc.gex_ep_index], __ATOMIC_ACQUIRE);
        if (!r->device && row && __atomic_load_n(&row[loc.gex_rank].map, __ATOMIC_ACQUIRE)) {
            r->how = GASNETI_ROUTE_MAPPED;
            r->offset = __atomic_load_n(&row[loc.gex_rank].offset, __ATOMIC_RELAXED);
        }
        return;
    }
    if (loc.gex_ep_index == 0) {
        r->net = rma_for ? rma_for[loc.gex_rank] : NULL;
    } else {
        r->net = gasneti_rma_for_ep(loc, &r->key);
        r->created = 1;
    }
    if (r->net) r->how = GASNETI_ROUTE_NET;
}

void *gasneti_peer_local(gex_EP_Location_t loc, const void *addr)
{
    gasneti_route_t r;
    gasneti_route(loc, &r);
    if (r.how == GASNETI_ROUTE_SELF) return (void *)addr;
    return r.how == GASNETI_ROUTE_MAPPED && !r.mk ? (char *)addr + r.offset : NULL;
}

int gasneti_route_neighbour(gex_Rank_t node)
{
    const gasneti_rma_t **rma_for = chosen();
    if (rma_for) return rma_for[node] == &gasneti_rma_shm;
    return gasneti_nodeinfo && gasneti_nodeinfo[node].supernode == gasneti_nodeinfo[gasneti_mynode].supernode &&
           strcmp(gasneti_getenv_str("GASNET_RMA", "auto"), "am") != 0;
}
