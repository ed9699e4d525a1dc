/* gex_TM_Create and gex_TM_Dup (seed 003 §5.2-5.3, spec §17.6): teams of
 * any endpoints, several of them in one process.
 *
 * MEMBERSHIP. Every member already knows the whole membership (Create's
 * args[] are single-valued over the new team; Dup copies the original's),
 * and the endpoints they name exist before the call. The one thing members
 * must agree on is the team id that names it in collective messages: it is
 * a hash of the parent's id, the number of Create/Dup calls made on the
 * parent so far (collective calls, so the same count at every member) and
 * the new team's first member, with the top bit set (gex_TM_Split's ids
 * have it clear). Distinct teams made by one call have disjoint members,
 * hence distinct first members and ids. A collective message that arrives
 * before the receiver's call waits in the mailbox (coll.c), which files it
 * by team id and the endpoint it is for, so several members in one
 * process stay apart. The only messages: where every member is on one
 * host, the members tell each other where their scratch lies (shm.c).
 *
 * SCRATCH. As the seed says: exactly one of SYMMETRIC, LOCAL, GLOBAL (Create
 * only) or NO_SCRATCH; addresses or, with GEX_FLAG_SCRATCH_SEG_OFFSET,
 * offsets into the member endpoint's bound segment, which must be host
 * memory and hold the whole range. NO_SCRATCH makes a team without
 * collectives (they are refused on it). Scratch is used as gex_TM_Split's
 * (team.c) and handed back by gex_TM_Destroy.
 *
 * Several callers in one process (a parent with several members there)
 * that pass the same args[] each get their own handles.
 */
#include "coll.h"

#include <stdlib.h>
#include <string.h>

static uint64_t mix(uint64_t h, uint64_t v)
{
    h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    h *= 0xff51afd7ed558ccdull;
    return h ^ (h >> 33);
}

/* n: the parent's count of Create/Dup calls before this one, taken by
 * every caller (with or without members), so all members agree on it */
static uint64_t team_id(gasneti_tm_t parent, uint32_t n, gex_EP_Location_t first, int dup)
{
    uint64_t h = mix(mix(mix(mix(0, parent->id), n), ((uint64_t)first.gex_rank << 16) | first.gex_ep_index),
                     (uint64_t)dup);
    return h | (1ull << 63);
}

/* The checks every Create and Dup makes of its flags; returns the scratch mode. */
static gex_Flags_t check_flags(const char *call, gex_Flags_t flags, gex_Flags_t allowed)
{
    const gex_Flags_t modes = GEX_FLAG_TM_SYMMETRIC_SCRATCH | GEX_FLAG_TM_LOCAL_SCRATCH |
                              GEX_FLAG_TM_GLOBAL_SCRATCH | GEX_FLAG_TM_NO_SCRATCH;
    if (flags & ~allowed)
        gasneti_fatalerror("%s: flags 0x%x are not allowed here", call, (unsigned)(flags & ~allowed));
    if (__builtin_popcount(flags & modes) != 1)
        gasneti_fatalerror("%s: flags 0x%x: give exactly one of GEX_FLAG_TM_SYMMETRIC_SCRATCH, "
                           "_LOCAL_SCRATCH%s or _NO_SCRATCH", call, (unsigned)flags,
                           (allowed & GEX_FLAG_TM_GLOBAL_SCRATCH) ? ", _GLOBAL_SCRATCH" : "");
    return flags & modes;
}

/* The scratch of a member on endpoint ep: its address, checked. */
static void *scratch_of(const char *call, gasneti_ep_t ep, void *addr, size_t len, size_t min,
                        gex_Flags_t flags)
{
    gasneti_segment_t seg = ep->segment;
    if (!seg || seg->magic != GASNETI_SEG_MAGIC)
        gasneti_fatalerror("%s: endpoint %u has no bound segment for the scratch", call, ep->index);
    if (seg->kind != GEX_MK_HOST)
        gasneti_fatalerror("%s: endpoint %u's segment is not host memory: scratch must be (pass "
                           "GEX_FLAG_TM_NO_SCRATCH)", call, ep->index);
    if (flags & GEX_FLAG_SCRATCH_SEG_OFFSET) addr = (char *)seg->addr + (uintptr_t)addr;
    if (len < min)
        gasneti_fatalerror("%s: scratch of %zu bytes is less than the minimum (%zu, "
                           "GEX_FLAG_TM_SCRATCH_SIZE_MIN)", call, len, min);
    gasnet_seginfo_t s = {seg->addr, seg->size};
    if (!gasneti_in_seginfo(&s, addr, len))
        gasneti_fatalerror("%s: scratch [%p, +%zu) is not inside the bound segment of endpoint %u",
                           call, addr, len, ep->index);
    return addr;
}

static gasneti_tm_t make(gasneti_tm_t parent, gasneti_ep_t ep, gex_Rank_t rank, gex_Rank_t size,
                         const gex_EP_Location_t *members, uint64_t id, void *scratch, size_t len)
{
    gasneti_tm_t tm = gasneti_tm_create(parent->client, ep, rank, size, members, id);
    if (scratch) {
        tm->scratch = scratch;
        tm->scratch_size = len;
    }
    if (scratch) gasnete_coll_team_init(tm); /* NO_SCRATCH: no collectives */
    return tm;
}

size_t gex_TM_Create(gex_TM_t *new_tms, size_t num_new_tms, gex_TM_t parent_tm,
                     gex_EP_Location_t *args, size_t numargs, gex_Addr_t *scratch_addrs,
                     size_t scratch_length, gex_Flags_t flags)
{
    const char *call = "gex_TM_Create";
    GASNETI_CHECK_READY(call);
    gasneti_tm_t parent = gasneti_import_team(parent_tm, call);
    GASNETI_CHECK_MAY_COMMUNICATE(call);
    const gex_Flags_t queries = GEX_FLAG_TM_SCRATCH_SIZE_MIN | GEX_FLAG_TM_SCRATCH_SIZE_RECOMMENDED;
    if ((flags & queries) == queries)
        gasneti_fatalerror("%s: GEX_FLAG_TM_SCRATCH_SIZE_MIN and _RECOMMENDED are exclusive", call);
    if (flags & queries) return numargs ? gasnete_coll_scratch_size((gex_Rank_t)numargs, flags) : 0;
    gex_Flags_t mode = check_flags(call, flags, GEX_FLAG_TM_SYMMETRIC_SCRATCH | GEX_FLAG_TM_LOCAL_SCRATCH |
                                   GEX_FLAG_TM_GLOBAL_SCRATCH | GEX_FLAG_TM_NO_SCRATCH |
                                   GEX_FLAG_SCRATCH_SEG_OFFSET | GEX_FLAG_RANK_IS_JOBRANK);
    uint32_t ncreated = __atomic_fetch_add(&parent->creates, 1, __ATOMIC_RELAXED);
    if (numargs == 0) return 0;
    if (!args) gasneti_fatalerror("%s: args is NULL with numargs = %zu", call, numargs);
    if (numargs >= GEX_RANK_INVALID) gasneti_fatalerror("%s: numargs = %zu is too many", call, numargs);
    gex_EP_Location_t *members = malloc(numargs * sizeof *members);
    if (!members) gasneti_fatalerror("%s: out of memory for %zu members", call, numargs);
    size_t local = 0;
    for (size_t i = 0; i < numargs; i++) {
        gex_EP_Location_t a = args[i];
        if (!(flags & GEX_FLAG_RANK_IS_JOBRANK)) {
            if (a.gex_rank >= parent->size)
                gasneti_fatalerror("%s: args[%zu] names rank %u of a parent of %u members", call, i,
                                   a.gex_rank, parent->size);
            a.gex_rank = gasneti_tm_member(parent, a.gex_rank).gex_rank;
        }
        if (a.gex_rank >= gasneti_nodes || a.gex_ep_index >= GASNET_MAXEPS)
            gasneti_fatalerror("%s: args[%zu] = (%u, %u) names no endpoint of the job", call, i,
                               args[i].gex_rank, args[i].gex_ep_index);
        for (size_t k = 0; k < i; k++)
            if (members[k].gex_rank == a.gex_rank && members[k].gex_ep_index == a.gex_ep_index)
                gasneti_fatalerror("%s: args[%zu] and args[%zu] name the same endpoint", call, k, i);
        if (a.gex_rank == gasneti_mynode) {
            if (a.gex_ep_index >= parent->client->neps || !parent->client->eps[a.gex_ep_index])
                gasneti_fatalerror("%s: args[%zu] names endpoint %u of this process, which does not "
                                   "exist", call, i, a.gex_ep_index);
            local++;
        }
        members[i] = a;
    }
    if (local != num_new_tms)
        gasneti_fatalerror("%s: num_new_tms = %zu, but args[] names %zu endpoints of this process",
                           call, num_new_tms, local);
    if (local && !new_tms) gasneti_fatalerror("%s: new_tms is NULL", call);
    if (mode != GEX_FLAG_TM_NO_SCRATCH && !scratch_addrs)
        gasneti_fatalerror("%s: scratch_addrs is NULL", call);
    uint64_t id = team_id(parent, ncreated, members[0], 0);
    size_t min = gasnete_coll_scratch_size((gex_Rank_t)numargs, GEX_FLAG_TM_SCRATCH_SIZE_MIN), k = 0;
    for (size_t i = 0; i < numargs; i++) {
        if (members[i].gex_rank != gasneti_mynode) continue;
        gasneti_ep_t ep = parent->client->eps[members[i].gex_ep_index];
        void *scratch = NULL;
        if (mode != GEX_FLAG_TM_NO_SCRATCH) {
            void *a = scratch_addrs[mode == GEX_FLAG_TM_SYMMETRIC_SCRATCH ? 0
                                    : mode == GEX_FLAG_TM_LOCAL_SCRATCH ? k : i];
            scratch = scratch_of(call, ep, a, scratch_length, min, flags);
        }
        new_tms[k++] = make(parent, ep, (gex_Rank_t)i, (gex_Rank_t)numargs, members, id, scratch,
                            scratch ? scratch_length : 0);
    }
    free(members);
    gasnete_coll_shm_teams(new_tms, k, call);
    return 1;
}

size_t gex_TM_Dup(gex_TM_t *new_tm_p, gex_TM_t orig_tm, void *scratch_addr, size_t scratch_size,
                  gex_Flags_t flags)
{
    const char *call = "gex_TM_Dup";
    GASNETI_CHECK_READY(call);
    gasneti_tm_t orig = gasneti_import_team(orig_tm, call);
    GASNETI_CHECK_MAY_COMMUNICATE(call);
    const gex_Flags_t queries = GEX_FLAG_TM_SCRATCH_SIZE_MIN | GEX_FLAG_TM_SCRATCH_SIZE_RECOMMENDED;
    if ((flags & queries) == queries)
        gasneti_fatalerror("%s: GEX_FLAG_TM_SCRATCH_SIZE_MIN and _RECOMMENDED are exclusive", call);
    if (flags & queries) return gasnete_coll_scratch_size(orig->size, flags);
    gex_Flags_t mode = check_flags(call, flags, GEX_FLAG_TM_SYMMETRIC_SCRATCH | GEX_FLAG_TM_LOCAL_SCRATCH |
                                   GEX_FLAG_TM_NO_SCRATCH | GEX_FLAG_SCRATCH_SEG_OFFSET);
    if (!new_tm_p) gasneti_fatalerror("%s: new_tm_p is NULL", call);
    void *scratch = NULL;
    if (mode != GEX_FLAG_TM_NO_SCRATCH)
        scratch = scratch_of(call, orig->ep, scratch_addr, scratch_size,
                             gasnete_coll_scratch_size(orig->size, GEX_FLAG_TM_SCRATCH_SIZE_MIN), flags);
    if (scratch && orig->scratch && (char *)scratch < (char *)orig->scratch + orig->scratch_size &&
        (char *)orig->scratch < (char *)scratch + scratch_size)
        gasneti_fatalerror("%s: scratch [%p, +%zu) overlaps the original team's", call, scratch,
                           scratch_size);
    gex_EP_Location_t first = gasneti_tm_member(orig, 0);
    uint64_t id = team_id(orig, __atomic_fetch_add(&orig->creates, 1, __ATOMIC_RELAXED), first, 1);
    gasneti_tm_t tm = make(orig, orig->ep, orig->rank, orig->size, orig->members, id, scratch,
                           scratch ? scratch_size : 0);
    tm->peer_index = orig->peer_index;
    gasnete_coll_shm_teams(&tm, 1, call);
    *new_tm_p = tm;
    return 1;
}
