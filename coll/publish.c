/* gex_EP_PublishBoundSegment (seed 003, spec §17.4): collective over a
 * team; each member names local endpoints whose bound segments become
 * known to every member's process.
 *
 * Every member sends its records (endpoint index, owner address and size,
 * for a GASNet-allocated host segment the owner's pid and memfd, for a
 * device segment its export handle, and the keys of the network backends
 * it registered the segment with: core-native/rma.h) to
 * every other member as a collective message of the team, then takes
 * theirs; each record goes into the segment table (core-mpi/segment.c),
 * which maps a neighbour's GASNet-allocated segment so the shm path can
 * copy into it. N-1 messages per member, like gex_TM_Split: publishing is
 * rare. A member's own records need no message: binding recorded them.
 */
#include "coll.h"
#include "route.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct {
    uint32_t index;
    int32_t pid, fd;
    uint32_t mk_class; /* gex_MK_Class_t: GEX_MK_CLASS_HOST, or a device segment */
    uint64_t addr, size;
    uint32_t has_handle, pad; /* a device segment: the class exported it */
    gasneti_mk_handle_t handle;
    gasneti_rma_keys_t net;
} pubrec_t;

typedef struct {
    pubrec_t mine[GASNET_MAXEPS];
    size_t nmine;
    unsigned char *have; /* by rank */
    gex_Rank_t got;
} publish_t;

static int publish_progress(gasnete_coll_op_t *op)
{
    gasneti_tm_t tm = op->tm;
    publish_t *x = op->state;
    if (op->step == 0) {
        for (gex_Rank_t r = 0; r < tm->size; r++)
            if (r != tm->rank) gasnete_coll_send(op, 0, r, x->mine, x->nmine * sizeof(pubrec_t));
        op->step = 1;
    }
    for (gex_Rank_t r = 0; r < tm->size; r++) {
        if (r == tm->rank || x->have[r]) continue;
        pubrec_t recs[GASNET_MAXEPS];
        long len = gasnete_coll_take(op, 0, r, recs, sizeof recs);
        if (len < 0) continue;
        if (len % (long)sizeof(pubrec_t))
            gasneti_fatalerror("gex_EP_PublishBoundSegment: malformed records from rank %u", r);
        gex_Rank_t jobrank = gasneti_tm_member(tm, r).gex_rank;
        for (long i = 0; i < len / (long)sizeof(pubrec_t); i++) {
            if (recs[i].index >= GASNET_MAXEPS)
                gasneti_fatalerror("gex_EP_PublishBoundSegment: rank %u names endpoint index %u",
                                   r, recs[i].index);
            gex_EP_Location_t loc = {jobrank, (gex_EP_Index_t)recs[i].index};
            if (jobrank != gasneti_mynode) {
                gasneti_epseg_set(loc, (void *)(uintptr_t)recs[i].addr, (uintptr_t)recs[i].size,
                                  recs[i].pid, recs[i].fd);
                /* device segments: staged, or imported to copy with the class */
                gasneti_mk_peer_set(loc, (gex_MK_Class_t)recs[i].mk_class,
                                    (void *)(uintptr_t)recs[i].addr, (uintptr_t)recs[i].size,
                                    recs[i].has_handle ? &recs[i].handle : NULL,
                                    gasneti_route_neighbour(jobrank));
                gasneti_rma_peer_keys(loc, &recs[i].net);
            }
        }
        x->have[r] = 1;
        x->got++;
    }
    return x->got == tm->size;
}

int gex_EP_PublishBoundSegment(gex_TM_t tm_, gex_EP_t *eps, size_t num_eps, gex_Flags_t flags)
{
    const char *call = "gex_EP_PublishBoundSegment";
    GASNETI_CHECK_READY(call);
    gasneti_tm_t tm = gasneti_import_team(tm_, call);
    GASNETI_CHECK_MAY_COMMUNICATE(call);
    if (flags) gasneti_fatalerror("%s: flags 0x%x (must be 0)", call, (unsigned)flags);
    if (num_eps && !eps) gasneti_fatalerror("%s: eps is NULL with num_eps = %zu", call, num_eps);
    if (num_eps > GASNET_MAXEPS)
        gasneti_fatalerror("%s: num_eps = %zu, but a process has at most %d endpoints", call,
                           num_eps, GASNET_MAXEPS);
    if (!tm->coll) gasneti_fatalerror("%s: the team was created without collectives", call);
    publish_t *x = calloc(1, sizeof *x);
    if (!x || !(x->have = calloc(tm->size, 1))) gasneti_fatalerror("%s: out of memory", call);
    for (size_t i = 0; i < num_eps; i++) {
        gasneti_ep_t ep = gasneti_import_ep(eps[i], call);
        gasneti_segment_t seg = ep->segment;
        if (ep->client != tm->client)
            gasneti_fatalerror("%s: eps[%zu] belongs to another client", call, i);
        if (!seg || seg->magic != GASNETI_SEG_MAGIC)
            gasneti_fatalerror("%s: eps[%zu] (endpoint %u) has no bound segment%s", call, i,
                               ep->index, seg ? " (it was destroyed)" : "");
        pubrec_t *rec = &x->mine[x->nmine++];
        memset(rec, 0, sizeof *rec);
        rec->index = ep->index;
        rec->pid = (int32_t)getpid();
        rec->fd = seg->allocated && seg->kind == GEX_MK_HOST ? seg->fd : -1;
        rec->addr = (uint64_t)(uintptr_t)seg->addr;
        rec->size = (uint64_t)seg->size;
        if (seg->kind != GEX_MK_HOST) {
            rec->mk_class = (uint32_t)gasneti_mk_class_of(seg->kind);
            rec->has_handle = gasneti_mk_export(gasneti_mk_import(seg->kind, call), seg->addr,
                                                seg->size, &rec->handle) == 0;
        }
        gasneti_rma_seg_register(seg, ep->index, &rec->net);
    }
    x->have[tm->rank] = 1;
    x->got = 1;
    unsigned char *have = x->have;
    gasnete_coll_run(gasnete_coll_op_new(tm, publish_progress, x, call), call);
    free(have);
    return GASNET_OK;
}
