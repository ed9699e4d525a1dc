/* Team construction and destruction (§6.7): gex_TM_Split and
 * gex_TM_Destroy.
 *
 * SPLIT. Every member of the parent sends its record (colour, key, and a
 * split ticket) to every other member as a collective
 * message of the parent, then waits for all of them. Each caller with a
 * team ranks the members of its colour by (key, parent rank). A team's
 * id, which names it in collective messages, is its rank 0's jobrank and
 * that process's ticket for this split, so ids are unique in the job
 * without further agreement. The split costs N-1 messages per member:
 * team construction is rare.
 *
 * SCRATCH. Scratch space, when the client grants it, must lie in the bound
 * segment of the caller's endpoint; where every member is on one host the
 * team's collectives use it (shm.c), and gex_TM_Destroy hands it back.
 * The size queries answer GASNET_COLL_MIN_SCRATCH_SIZE (default: a lane
 * of shm.c plus a cache line to align it), or the team's size rounded up
 * to a cache line if larger, and GASNET_COLL_SCRATCH_SIZE (default: a lane
 * and a stage of shm.c, 264 KiB and a cache line, for collectives above a
 * slot).
 *
 * DESTROY. The team leaves the shared-memory path first, and the barrier
 * that follows goes over AMs: once it is passed, every member has finished
 * its collectives, so nobody reads the lanes in the scratch handed back.
 * With GEX_FLAG_GLOBALLY_QUIESCED the client promises that already.
 */
#include "coll.h"

#include <stdlib.h>
#include <string.h>

/* tickets taken by this process's splits (atomic: threads may split
 * different teams at once) */
static uint32_t split_tickets;

typedef struct {
    int32_t color; /* -1: not joining */
    int32_t key;
    uint32_t ticket;
} record_t;

/* what the scratch-size settings may ask for: 1 TiB */
#define SCRATCH_MAX ((int64_t)1 << 40)

size_t gasnete_coll_scratch_size(gex_Rank_t size, gex_Flags_t flags)
{
    size_t min = (size_t)gasneti_getenv_size("GASNET_COLL_MIN_SCRATCH_SIZE",
                                             GASNETE_COLL_SHM_SCRATCH, 0, SCRATCH_MAX);
    size_t by_size = ((size_t)size + GASNETI_CACHE_LINE_BYTES - 1) & ~(size_t)(GASNETI_CACHE_LINE_BYTES - 1);
    if (by_size > min) min = by_size;
    if (flags & GEX_FLAG_TM_SCRATCH_SIZE_MIN) return min;
    size_t rec = (size_t)gasneti_getenv_size("GASNET_COLL_SCRATCH_SIZE", GASNETE_COLL_SHM_STAGED_SCRATCH,
                                             0, SCRATCH_MAX);
    return rec > min ? rec : min;
}

size_t gex_TM_Split(gex_TM_t *new_tm_p, gex_TM_t parent_tm, int color, int key,
                    void *scratch_addr, size_t scratch_size, gex_Flags_t flags)
{
    const char *call = "gex_TM_Split";
    GASNETI_CHECK_READY(call);
    gasneti_tm_t parent = gasneti_import_team(parent_tm, call);
    GASNETI_CHECK_MAY_COMMUNICATE(call);
    const gex_Flags_t queries = GEX_FLAG_TM_SCRATCH_SIZE_MIN | GEX_FLAG_TM_SCRATCH_SIZE_RECOMMENDED;
    /* GEX_FLAG_TM_NO_SCRATCH (spec 0.11 on): this member grants no scratch
     * and its scratch arguments are ignored; the team's collectives then
     * take the AM path, as for any team without scratch */
    if (flags & ~(queries | GEX_FLAG_TM_NO_SCRATCH))
        gasneti_fatalerror("%s: flags 0x%x are not allowed (only the scratch-size queries and "
                           "GEX_FLAG_TM_NO_SCRATCH)", call,
                           (unsigned)(flags & ~(queries | GEX_FLAG_TM_NO_SCRATCH)));
    if (flags & GEX_FLAG_TM_NO_SCRATCH) {
        scratch_addr = NULL;
        scratch_size = 0;
    }
    if ((flags & queries) == queries)
        gasneti_fatalerror("%s: GEX_FLAG_TM_SCRATCH_SIZE_MIN and _RECOMMENDED are exclusive", call);
    if (!parent->coll) gasneti_fatalerror("%s: the parent team was created without collectives", call);
    if (flags & queries) return new_tm_p ? gasnete_coll_scratch_size(parent->size, flags) : 0;
    if (new_tm_p && color < 0)
        gasneti_fatalerror("%s: color %d is negative (colours are non-negative)", call, color);
    if (new_tm_p && scratch_addr) {
        size_t min = gasnete_coll_scratch_size(parent->size, GEX_FLAG_TM_SCRATCH_SIZE_MIN);
        if (scratch_size < min)
            gasneti_fatalerror("%s: scratch of %zu bytes is less than the minimum (%zu, "
                               "GEX_FLAG_TM_SCRATCH_SIZE_MIN)", call, scratch_size, min);
        gex_EP_Location_t me = {gasneti_mynode, parent->ep->index};
        if (!gasneti_in_seginfo(gasneti_peer_segment(me), scratch_addr, scratch_size))
            gasneti_fatalerror("%s: scratch [%p, +%zu) is not inside the bound segment of the "
                               "caller's endpoint", call, scratch_addr, scratch_size);
    }

    record_t *all = malloc(parent->size * sizeof *all);
    if (!all) gasneti_fatalerror("%s: out of memory", call);
    all[parent->rank] = (record_t){new_tm_p ? color : -1, key,
                                   __atomic_add_fetch(&split_tickets, 1, __ATOMIC_RELAXED)};
    gasnete_coll_run(gasnete_coll_allgather_op(parent, all, sizeof *all, call), call);
    for (gex_Rank_t r = 0; r < parent->size; r++)
        if (all[r].color < -1)
            gasneti_fatalerror("%s: malformed record from rank %u of the parent team (colour %d)",
                               call, r, all[r].color);

    size_t made = 0;
    if (new_tm_p) {
        /* members of my colour by (key, parent rank) */
        gex_Rank_t n = 0, me = 0, *order = malloc(parent->size * sizeof *order);
        if (!order) gasneti_fatalerror("%s: out of memory", call);
        for (gex_Rank_t r = 0; r < parent->size; r++) {
            if (all[r].color != color) continue;
            gex_Rank_t i = n++;
            while (i > 0 && all[order[i - 1]].key > all[r].key) {
                order[i] = order[i - 1];
                i--;
            }
            order[i] = r;
        }
        gex_EP_Location_t *members = malloc(n * sizeof *members);
        if (!members) gasneti_fatalerror("%s: out of memory", call);
        for (gex_Rank_t i = 0; i < n; i++) {
            members[i] = gasneti_tm_member(parent, order[i]);
            if (order[i] == parent->rank) me = i;
        }
        uint64_t id = (uint64_t)members[0].gex_rank << 32 | all[order[0]].ticket;
        gasneti_tm_t tm = gasneti_tm_create(parent->client, parent->ep, me, n, members, id);
        tm->scratch = scratch_addr;
        tm->scratch_size = scratch_addr ? scratch_size : 0;
        gasnete_coll_team_init(tm);
        gasnete_coll_shm_teams(&tm, 1, call);
        *new_tm_p = tm;
        free(members);
        free(order);
        made = 1;
    }
    free(all);
    return made;
}

int gex_TM_Destroy(gex_TM_t tm_, gex_Memvec_t *scratch_p, gex_Flags_t flags)
{
    const char *call = "gex_TM_Destroy";
    GASNETI_CHECK_READY(call);
    gasneti_tm_t tm = gasneti_import_team(tm_, call);
    GASNETI_CHECK_MAY_COMMUNICATE(call);
    if (tm == tm->client->tm0) gasneti_fatalerror("%s: the primordial team cannot be destroyed", call);
    const gex_Flags_t known = GEX_FLAG_GLOBALLY_QUIESCED | GEX_FLAG_SCRATCH_SEG_OFFSET;
    if (flags & ~known)
        gasneti_fatalerror("%s: flags 0x%x are not allowed", call, (unsigned)(flags & ~known));
    gasnete_coll_shm_fini(tm); /* the barrier goes over AMs (DESTROY above) */
    if (!(flags & GEX_FLAG_GLOBALLY_QUIESCED) && tm->coll)
        gasnete_coll_run(gasnete_coll_barrier_op(tm), call);
    /* a collective nobody waits for (gex_AD_Create's check) may still run
     * on a quiesced team: its state goes with the team */
    if (tm->coll) gasnete_coll_quiesce(tm, call);
    int wrote = 0;
    if (scratch_p && tm->scratch) {
        scratch_p->gex_addr = tm->scratch;
        if (flags & GEX_FLAG_SCRATCH_SEG_OFFSET)
            scratch_p->gex_addr = (void *)((char *)tm->scratch - (char *)tm->ep->segment->addr);
        scratch_p->gex_len = tm->scratch_size;
        wrote = 1;
    }
    gasnete_coll_team_fini(tm);
    gasneti_tm_free(tm);
    return wrote;
}
