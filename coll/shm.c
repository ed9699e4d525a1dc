/* The collectives' shared-memory path, for a team whose members are all
 * on one host (GASNET_COLL_SHM=no keeps the AM algorithms).
 *
 * LANES. Each member has a lane, which every member maps: two counters in
 * cache lines of their own, and two slots.
 *   posted: the number of the last collective this member has entered;
 *           its signature (coll.h) and data, if any, are in the slot of
 *           that number's parity;
 *   done:   the number of the last collective this member has finished
 *           reading other lanes for.
 * Both grow one step at a time, in call order (an operation that is ready
 * early waits for the one before); the collectives started once the team
 * has the path are numbered from 1 (coll.c, as it assigns sequence
 * numbers). A member writes its slot for number n only once every
 * member's done >= n-2, so nobody still reads it then.
 *
 * WHERE THE LANES ARE. The primordial team's: in the shm backend's
 * control object (core-native/rma.h), from attach, when every process of
 * the job is on the host and the backend serves them. Any other team's:
 * in the scratch space its members granted (team.c, tmcreate.c), which
 * lies in their bound segments. When a team is made and its members are
 * all on one host, each member zeroes its lane and sends the others (an
 * allgather on the new team) whether it can take part (a lane fits its
 * scratch, and it maps every member's segment) and where its lane lies;
 * the team takes the path only if every member can. gex_TM_Destroy leaves
 * the path before its barrier, which then goes over AMs, so a member's
 * scratch is no longer read once it is handed back.
 *
 * ALGORITHMS, flat (every member reads the lanes it needs; one host has
 * few members): a barrier waits until every member has entered; a
 * broadcast posts the payload in the root's slot and the others copy it
 * out; a reduction posts every member's contribution, and the root (ToOne)
 * or every member (ToAll) combines them in rank order. A payload larger
 * than a slot, and every other collective, keeps its AM algorithm, and
 * still steps the counters. Reading another member's entry checks its
 * signature against this member's: a member that called something else
 * is reported, as on the AM path.
 */
#include "coll.h"
#include "rma.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    uint32_t sig;
    uint32_t len;
    char data[GASNETE_COLL_SHM_SLOT];
} slot_t;

typedef struct {
    uint64_t posted;
    char pad1[GASNETI_CACHE_LINE_BYTES - 8];
    uint64_t done;
    char pad2[GASNETI_CACHE_LINE_BYTES - 8];
    slot_t slot[2];
} lane_t;

_Static_assert(sizeof(lane_t) <= GASNETI_SHM_COLL_LANE, "a lane fits the backend's");

_Static_assert(sizeof(lane_t) + GASNETI_CACHE_LINE_BYTES <= GASNETE_COLL_SHM_SCRATCH,
               "a lane fits the minimum scratch, aligned");

struct gasnete_coll_shm {
    lane_t *lanes[1]; /* by rank of the team (allocated for all) */
};

static lane_t *lane(const gasnete_coll_op_t *op, gex_Rank_t rank)
{
    return op->tm->coll->shm->lanes[rank];
}

static struct gasnete_coll_shm *shm_new(gex_Rank_t size)
{
    struct gasnete_coll_shm *sh = malloc(sizeof *sh + size * sizeof sh->lanes[0]);
    if (!sh) gasneti_fatalerror("collectives: out of memory");
    return sh;
}

void gasnete_coll_attach(void)
{
    gasneti_tm_t tm0 = gasneti_tm0;
    int me, nlocal = gasneti_shm_local_nodes(&me);
    int ok = gasneti_getenv_yesno("GASNET_COLL_SHM", 1) && gasneti_shm_coll_lanes() &&
             nlocal == (int)gasneti_nodes, all;
    /* every node must agree (an environment may differ); the host's nodes
     * are indexed in jobrank order, so lane r is the primordial rank r's */
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, gasnetc_comm);
    if (gasneti_mynode == 0 && gasneti_getenv_yesno("GASNET_VERBOSEENV", 0)) {
        if (all)
            fprintf(stderr, "GASNet node 0: collectives on the primordial team go through shared "
                            "memory up to %zu bytes\n", GASNETE_COLL_SHM_SLOT);
        else
            fprintf(stderr, "GASNet node 0: collectives on the primordial team go through AMs\n");
    }
    if (!all) return;
    struct gasnete_coll_shm *sh = shm_new(tm0->size);
    for (gex_Rank_t r = 0; r < tm0->size; r++)
        sh->lanes[r] = (lane_t *)((char *)gasneti_shm_coll_lanes() + (size_t)r * GASNETI_SHM_COLL_LANE);
    tm0->coll->shm = sh; /* collectives started from now on take numbers */
}

/* Where addr of loc's bound segment (n bytes from it) is reached here by
 * plain loads and stores, or NULL. */
static void *mapped_here(gex_EP_Location_t loc, const void *addr, size_t n)
{
    if (!gasneti_in_seginfo(gasneti_peer_segment(loc), addr, n)) return NULL;
    return gasneti_peer_local(loc, addr);
}

/* This member's lane: the team's scratch, aligned to a cache line, when it
 * is host memory and holds one; else NULL. */
static lane_t *own_lane(gasneti_tm_t tm)
{
    if (!tm->scratch || !tm->ep->segment || tm->ep->segment->kind != GEX_MK_HOST) return NULL;
    uintptr_t a = ((uintptr_t)tm->scratch + GASNETI_CACHE_LINE_BYTES - 1) &
                  ~(uintptr_t)(GASNETI_CACHE_LINE_BYTES - 1);
    if (a + sizeof(lane_t) > (uintptr_t)tm->scratch + tm->scratch_size) return NULL;
    return (lane_t *)a;
}

/* What each member tells the others when a team is made. */
typedef struct {
    uint64_t ok;     /* its lane is ready and it maps every member's segment */
    uint64_t offset; /* of its lane in its bound segment */
} shm_record_t;

void gasnete_coll_shm_teams(gasneti_tm_t *tms, size_t n, const char *call)
{
    gasnete_coll_op_t **ops = calloc(n + 1, sizeof *ops);
    shm_record_t **recs = calloc(n + 1, sizeof *recs);
    if (!ops || !recs) gasneti_fatalerror("%s: out of memory", call);
    size_t nops = 0;
    int enabled = gasneti_getenv_yesno("GASNET_COLL_SHM", 1);
    for (size_t i = 0; i < n; i++) {
        gasneti_tm_t tm = tms[i];
        if (!tm->coll) continue; /* GEX_FLAG_TM_NO_SCRATCH */
        /* every member on this node's host, as start-up decided: the same
         * answer at every member, so all of them or none exchange records */
        int same_host = 1;
        for (gex_Rank_t r = 0; r < tm->size; r++)
            same_host &= gasneti_nodeinfo[gasneti_tm_member(tm, r).gex_rank].supernode ==
                         gasneti_nodeinfo[gasneti_mynode].supernode;
        if (!same_host) continue;
        shm_record_t *rec = recs[i] = calloc(tm->size, sizeof *rec), *mine = &rec[tm->rank];
        if (!rec) gasneti_fatalerror("%s: out of memory", call);
        lane_t *l = own_lane(tm);
        mine->ok = enabled && l;
        for (gex_Rank_t r = 0; mine->ok && r < tm->size; r++) {
            gex_EP_Location_t m = gasneti_tm_member(tm, r);
            const gasnet_seginfo_t *s = gasneti_peer_segment(m);
            mine->ok = s && mapped_here(m, s->addr, s->size);
        }
        if (mine->ok) { /* zeroed before anyone hears of it */
            memset(l, 0, sizeof *l);
            mine->offset = (uintptr_t)l - (uintptr_t)tm->ep->segment->addr;
        }
        ops[nops++] = gasnete_coll_allgather_op(tm, rec, sizeof *rec, call);
    }
    gasnete_coll_run_all(ops, nops, call);
    for (size_t i = 0; i < n; i++) {
        gasneti_tm_t tm = tms[i];
        shm_record_t *rec = recs[i];
        if (!tm->coll) continue;
        int all = rec != NULL;
        for (gex_Rank_t r = 0; all && r < tm->size; r++) all &= rec[r].ok == 1;
        if (all) {
            struct gasnete_coll_shm *sh = shm_new(tm->size);
            for (gex_Rank_t r = 0; r < tm->size; r++) {
                gex_EP_Location_t m = gasneti_tm_member(tm, r);
                const gasnet_seginfo_t *s = gasneti_peer_segment(m);
                sh->lanes[r] = rec[r].offset <= s->size
                                   ? mapped_here(m, (char *)s->addr + rec[r].offset, sizeof(lane_t))
                                   : NULL;
                if (!sh->lanes[r] || (uintptr_t)sh->lanes[r] % 8)
                    gasneti_fatalerror("%s: rank %u of the team gave its collective lane at offset "
                                       "%llu, outside its segment of %lu bytes", call, r,
                                       (unsigned long long)rec[r].offset, (unsigned long)s->size);
            }
            tm->coll->shm = sh;
        }
        if (tm->rank == 0 && gasneti_getenv_yesno("GASNET_VERBOSEENV", 0))
            fprintf(stderr, "GASNet node %u: collectives on team %llx (%u members) go through %s\n",
                    gasneti_mynode, (unsigned long long)tm->id, tm->size,
                    all ? "shared memory in its scratch space" : "AMs");
        free(rec);
    }
    free(ops);
    free(recs);
}

void gasnete_coll_shm_fini(gasneti_tm_t tm)
{
    if (!tm->coll) return; /* a team without collectives */
    free(tm->coll->shm);
    tm->coll->shm = NULL;
}

int gasnete_coll_shm_entered(gasnete_coll_op_t *op, gex_Rank_t rank, uint64_t n)
{
    lane_t *l = lane(op, rank);
    uint64_t posted = __atomic_load_n(&l->posted, __ATOMIC_ACQUIRE);
    if (posted < n) return 0;
    uint32_t sig = l->slot[n % 2].sig; /* kept until this member's done >= n */
    if (sig != op->sig)
        gasneti_fatalerror("%s: collective number %u on team %llx: rank %u of the team called a "
                           "different collective, or this one with different single-valued "
                           "arguments (signature %08x there, %08x here): every member must make "
                           "the same calls in the same order", op->call, op->seq,
                           (unsigned long long)op->tm->id, rank, sig, op->sig);
    return 1;
}

const void *gasnete_coll_shm_data(gasnete_coll_op_t *op, gex_Rank_t rank, uint64_t n, size_t len)
{
    const slot_t *s = &lane(op, rank)->slot[n % 2];
    if (s->len != len)
        gasneti_fatalerror("%s: rank %u of the team posted %u bytes where this rank expects %zu",
                           op->call, rank, s->len, len);
    return s->data;
}

/* Whether every member has finished reading for collective number n. */
static int all_done(gasnete_coll_op_t *op, uint64_t n)
{
    for (gex_Rank_t r = 0; r < op->tm->size; r++)
        if (__atomic_load_n(&lane(op, r)->done, __ATOMIC_ACQUIRE) < n) return 0;
    return 1;
}

int gasnete_coll_shm_step(gasnete_coll_op_t *op)
{
    uint64_t n = op->shm_n;
    lane_t *me = lane(op, op->tm->rank);
    switch (op->shm_phase) {
    case 0: /* enter, after the collective before; the slot once free */
        if (__atomic_load_n(&me->posted, __ATOMIC_RELAXED) != n - 1 || (n > 2 && !all_done(op, n - 2)))
            return 0;
        slot_t *s = &me->slot[n % 2];
        s->sig = op->sig;
        s->len = (uint32_t)op->shm_len;
        if (op->shm_len) memcpy(s->data, op->shm_data, op->shm_len);
        __atomic_store_n(&me->posted, n, __ATOMIC_RELEASE);
        op->shm_phase = 1;
        /* fall through */
    case 1:
        if (!op->shm_run) /* an AM algorithm: those who entered must have called the same */
            for (gex_Rank_t r = 0; r < op->tm->size; r++) (void)gasnete_coll_shm_entered(op, r, n);
        if (!(op->shm_run ? op->shm_run(op, n) : op->progress(op))) return 0;
        op->shm_phase = 2;
        /* fall through */
    default: /* leave, after the collective before */
        if (__atomic_load_n(&me->done, __ATOMIC_RELAXED) != n - 1) return 0;
        __atomic_store_n(&me->done, n, __ATOMIC_RELEASE);
        return 1;
    }
}

/* A barrier: every member has entered. */
static int shm_barrier(gasnete_coll_op_t *op, uint64_t n)
{
    for (gex_Rank_t r = 0; r < op->tm->size; r++)
        if (!gasnete_coll_shm_entered(op, r, n)) return 0;
    return 1;
}

void gasnete_coll_shm_barrier(gasnete_coll_op_t *op) { op->shm_run = shm_barrier; }
