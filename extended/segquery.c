/* gex_Segment_QueryBound, and gex_EP_QueryBoundSegmentNB
 * (spec §17.4): gex_Segment_QueryBound that may ask the owner. What the segment table knows (this process's endpoints,
 * and what was published here) is answered at once (GEX_EVENT_INVALID);
 * otherwise a Short request asks the endpoint itself, its reply fills the
 * caller's outputs and the table, and completes the returned event. With
 * GEX_FLAG_IMMEDIATE nothing is sent and GEX_EVENT_NO_OP returned. An
 * endpoint with no bound segment answers size 0 and NULL addresses.
 */
#include "extended.h"
#include "route.h"

#include <stdlib.h>

/* What the reply fills in, named by the request's argument. */
typedef struct {
    uintptr_t target;
    gex_EP_Location_t loc;
    void **owner_p, **local_p;
    uintptr_t *size_p;
} query_t;

static void fill(gex_EP_Location_t loc, const gasnet_seginfo_t *s, void **owner_p, void **local_p,
                 uintptr_t *size_p)
{
    void *addr = s ? s->addr : NULL;
    if (owner_p) *owner_p = addr;
    if (local_p) *local_p = addr ? gasneti_peer_local(loc, addr) : NULL;
    if (size_p) *size_p = s ? s->size : 0;
}

gex_Event_t gex_EP_QueryBoundSegmentNB(gex_TM_t tm_, gex_Rank_t rank, void **owneraddr_p,
                                       void **localaddr_p, uintptr_t *size_p, gex_Flags_t flags)
{
    const char *call = "gex_EP_QueryBoundSegmentNB";
    GASNETI_CHECK_READY(call);
    gasneti_tm_t tm = gasneti_import_tm(tm_, call);
    GASNETI_CHECK_MAY_COMMUNICATE(call);
    if (flags & ~GEX_FLAG_IMMEDIATE)
        gasneti_fatalerror("%s: flags 0x%x (only GEX_FLAG_IMMEDIATE)", call, (unsigned)flags);
    gex_EP_Location_t loc = gasneti_tm_peer(tm, rank, call);
    const gasnet_seginfo_t *s = gasneti_peer_segment(loc);
    if (s || loc.gex_rank == gasneti_mynode) {
        fill(loc, s, owneraddr_p, localaddr_p, size_p);
        return GEX_EVENT_INVALID;
    }
    if (flags & GEX_FLAG_IMMEDIATE) return GEX_EVENT_NO_OP;
    gasneti_op_t *op = gasneti_op_alloc(OP_EOP);
    query_t *q = malloc(sizeof *q);
    if (!q) gasneti_fatalerror("%s: out of memory", call);
    *q = (query_t){gasneti_target(op, GASNETI_GET), loc, owneraddr_p, localaddr_p, size_p};
    gasneti_add(op, GASNETI_GET, 1);
    uint64_t k = gasnete_ticket_issue(GASNETE_TK_SEGQ, loc.gex_rank, q, 0, q->target);
    gasnete_am_request(tm, loc, AMMPI_SHORT, GASNETE_H_SEGQ, NULL, 0, NULL, NULL, 2, GASNETE_HI(k),
                       GASNETE_LO(k));
    return gasneti_event_of(op);
}

static void segq_h(ammpi_token_t tok, int32_t q_hi, int32_t q_lo)
{
    ammpi_token_info_t ti;
    ammpi_token_info(tok, &ti);
    gex_EP_Location_t me = {gasneti_mynode, (gex_EP_Index_t)ti.ep};
    const gasnet_seginfo_t *s = gasneti_peer_segment(me);
    void *addr = s ? s->addr : NULL;
    uint64_t size = s ? s->size : 0;
    gasnete_am_reply(tok, AMMPI_SHORT, GASNETE_H_SEGQ_REPLY, NULL, 0, NULL, 6, q_hi, q_lo,
                     GASNETE_HI(addr), GASNETE_LO(addr), GASNETE_HI(size), GASNETE_LO(size));
}

static void segq_reply_h(ammpi_token_t tok, int32_t q_hi, int32_t q_lo, int32_t a_hi, int32_t a_lo,
                         int32_t s_hi, int32_t s_lo)
{
    ammpi_token_info_t ti;
    ammpi_token_info(tok, &ti);
    query_t *q = gasnete_ticket_redeem(q_hi, q_lo, GASNETE_TK_SEGQ, ti.src, "a segment query's reply").ptr;
    if (ti.src_ep != q->loc.gex_ep_index)
        gasneti_fatalerror("a segment query reply from node %d endpoint %d answers a query to "
                           "node %u endpoint %u", ti.src, ti.src_ep, q->loc.gex_rank,
                           q->loc.gex_ep_index);
    gasnet_seginfo_t s = {GASNETE_PTR(a_hi, a_lo), (uintptr_t)GASNETE_U64(s_hi, s_lo)};
    if (s.size) gasneti_epseg_set(q->loc, s.addr, s.size, 0, -1);
    fill(q->loc, s.size ? &s : NULL, q->owner_p, q->local_p, q->size_p);
    uintptr_t t = q->target;
    free(q);
    gasneti_complete(t);
}

static const gasneti_handler_t handlers[] = {
    {GASNETE_H_SEGQ, (ammpi_handler_fn)segq_h, AMMPI_SHORT | AMMPI_REQUEST, 2},
    {GASNETE_H_SEGQ_REPLY, (ammpi_handler_fn)segq_reply_h, AMMPI_SHORT | AMMPI_REPLY, 6},
    {0, NULL, 0, 0},
};

/* What this process knows now; the local address by the route. */
int gex_Segment_QueryBound(gex_TM_t tm_, gex_Rank_t rank, void **owneraddr_p, void **localaddr_p,
                           uintptr_t *size_p)
{
    const char *call = "gex_Segment_QueryBound";
    gasneti_tm_t tm = gasneti_import_tm(tm_, call);
    GASNETI_CHECK_MAY_COMMUNICATE(call);
    if (rank == GEX_RANK_INVALID) gasneti_fatalerror("%s: rank GEX_RANK_INVALID is not allowed", call);
    gex_EP_Location_t loc = gasneti_tm_peer(tm, rank, call);
    const gasnet_seginfo_t *s = gasneti_peer_segment(loc);
    if (!s) return 1;
    if (owneraddr_p) *owneraddr_p = s->addr;
    if (localaddr_p) *localaddr_p = gasneti_peer_local(loc, s->addr);
    if (size_p) *size_p = s->size;
    return 0;
}

const gasneti_layer_t gasnete_segquery_layer = {.name = "segquery", .handlers = handlers};
