/* The collectives' shared-memory path: the primordial team, when every
 * process of the job is on one host and the shm backend serves them
 * (GASNET_COLL_SHM=no keeps the AM algorithms).
 *
 * LANES. The shm backend's control object, which the host's processes
 * share, holds a lane per process (core-native/rma.h): two counters in
 * cache lines of their own, and two slots.
 *   posted: the number of the last collective this member has entered;
 *           its signature (coll.h) and data, if any, are in the slot of
 *           that number's parity;
 *   done:   the number of the last collective this member has finished
 *           reading other lanes for.
 * Both grow one step at a time, in call order (an operation that is ready
 * early waits for the one before); the collectives started after attach
 * are numbered from 1 (coll.c, as it assigns sequence numbers). A member writes its slot for number n
 * only once every member's done >= n-2, so nobody still reads it then.
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

struct gasnete_coll_shm {
    lane_t *lanes; /* by rank of the team */
};

static lane_t *lane(const gasnete_coll_op_t *op, gex_Rank_t rank)
{
    return (lane_t *)((char *)op->tm->coll->shm->lanes + (size_t)rank * GASNETI_SHM_COLL_LANE);
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
    struct gasnete_coll_shm *sh = malloc(sizeof *sh);
    if (!sh) gasneti_fatalerror("collectives: out of memory");
    sh->lanes = gasneti_shm_coll_lanes();
    tm0->coll->shm = sh; /* collectives started from now on take numbers */
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
