/* The collectives' shared-memory path, for the members of a team on one
 * host (GASNET_COLL_SHM=no keeps the AM algorithms).
 *
 * LANES. Each member has a lane, which every member on its host maps: a
 * counter in a cache line of its own, and two slots.
 *   done:   the number of the last collective this member has finished
 *           reading other lanes for;
 *   slots:  a member entering collective n (its own count of that,
 *           `entered`, is private) puts its signature (coll.h) and data,
 *           if any, in the slot of n's parity, whose header says which
 *           number it holds (slot_t: others wait on that line, so what
 *           they read comes with it: a cache-line transfer less than a
 *           separate counter).
 * Entries and done grow one step at a time, in call order (an operation that is ready
 * early waits for the one before); the collectives started once the team
 * has the path are numbered from 1 (coll.c, as it assigns sequence
 * numbers). A member writes its slot for number n only once the done of
 * every member on its host is >= n-2, so nobody still reads it then.
 *
 * WHERE THE LANES ARE. The primordial team's: in the shm backend's
 * control object (core-native/rma.h), from attach, where the backend
 * serves every host's processes. Any other team's:
 * in the scratch space its members granted (team.c, tmcreate.c), which
 * lies in their bound segments. When a team is made, each member zeroes
 * its lane and sends the others (an allgather on the new team) whether it
 * can take part (a lane fits its scratch, and it maps the segment of
 * every member on its host) and where its lane lies;
 * the team takes the path only if every member can. gex_TM_Destroy leaves
 * the path before its barrier, which then goes over AMs, so a member's
 * scratch is no longer read once it is handed back.
 *
 * SEVERAL HOSTS. A team whose members are on several hosts has the path
 * too, if every member can take it: lanes only among the members of each
 * host (the primordial team's from the backend, or a lane of its own for a
 * node alone on its host where the backend runs), numbered as on one host;
 * not where every member is alone on its host (nothing to share: the AM
 * algorithms). Each host's lowest
 * rank is its leader. A collective that has a hierarchical form runs
 * within each host through the lanes and between hosts by AMs among one
 * member per host, done by that member before it enters (op->shm_first),
 * so that its entry tells the others of its host the part between hosts
 * is over: the barrier (the leader waits for its host, then a
 * dissemination among leaders), the broadcast (the root, and each other
 * host's leader, take part in a tree over AMs; each host's source posts
 * the payload as a root on one host would), and reductions up to a slot
 * where each host's members hold consecutive ranks (reduce.c). The others
 * take their AM algorithm and step the counters. Reading another
 * member's lane before entering is safe: nobody writes its slot for n+2
 * before this member is done with n.
 *
 * ALGORITHMS, flat (every member reads the lanes it needs; one host has
 * few members): a barrier waits until every member has entered; a
 * broadcast posts the payload in the root's slot and the others copy it
 * out; a reduction posts every member's contribution, and the root (ToOne)
 * or every member (ToAll) combines them in rank order. A payload larger
 * than a slot goes through the members' stages (below) where the team has
 * them; otherwise, like every other collective, it keeps its AM
 * algorithm, and still steps the counters.
 *
 * STAGES. After each lane (LANE_BYTES from it) a stage where the team has
 * them: the primordial team always (the backend's lanes hold one), other
 * teams where every member's scratch holds one (the RECOMMENDED query's
 * size). Per parity of the collective's number: counters READY, RED and
 * GOT and a ring of RING_CHUNKS chunks. The slots' rule keeps the ring of
 * parity n%2 unread by others while a member writes it for n, and a
 * member zeroes its counters of that parity on entering n, before anyone
 * reads them (readers wait until it has entered). Within collective n,
 * chunk k sits at ring position k % RING_CHUNKS, and its producer writes
 * chunk k + RING_CHUNKS there only once every reader's GOT > k: the
 * chunks pipeline. A payload of one chunk is written to the ring as its
 * member enters, READY 1 with the entry (gasnete_coll_shm_stage_first):
 * a reader that sees the entry reads the chunk without waiting on that
 * counter's line too. The broadcast and the reduction over stages are
 * described at gasnete_coll_shm_bcast_staged and _reduce_staged. Reading another member's entry checks its
 * signature against this member's: a member that called something else
 * is reported, as on the AM path.
 */
#include "coll.h"
#include "route.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NOBODY ((gex_Rank_t)-1) /* a rank no member has */

/* A slot's header and first bytes share the cache line its reader waits
 * on: seq, the low 16 bits of the number of the collective whose entry it
 * holds, is stored last. 16 bits tell n from what the slot of n's parity
 * can hold while a reader asks about n: nobody enters n+2 before the
 * reader is done with n, and the reader steps n only within
 * GASNETE_COLL_WINDOW of the oldest operation it has not retired (even
 * from shm_first, before it enters n-1): it has entered n - WINDOW - 1,
 * so every member has entered n - WINDOW - 3, and the slot holds a number
 * in [n - WINDOW - 4, n]. */
typedef struct {
    uint32_t sig;
    uint16_t len;
    uint16_t seq;
    char data[GASNETE_COLL_SHM_SLOT];
} slot_t;

typedef struct {
    uint64_t done;
    char pad[GASNETI_CACHE_LINE_BYTES - 8];
    slot_t slot[2];
} lane_t;

_Static_assert(sizeof(lane_t) <= 4096, "a lane is a page");
_Static_assert(GASNETE_COLL_SHM_SLOT <= UINT16_MAX, "a slot's length fits its header");
_Static_assert(GASNETE_COLL_WINDOW + 4 < UINT16_MAX, "a slot's seq tells n from older numbers (slot_t)");

/* A counter in a cache line of its own. */
typedef struct {
    uint64_t v;
    char pad[GASNETI_CACHE_LINE_BYTES - 8];
} counter_t;

/* A member's stage, right after its lane: per parity of the collective's
 * number, three counters (zeroed when the member enters, read by others
 * only once they see it entered) and a ring of chunks. */
#define RING_CHUNKS 8
enum {
    READY, /* chunks of its payload in its ring */
    RED,   /* chunks whose slice it has reduced, in place in its ring */
    GOT    /* chunks it has finished reading (its result taken) */
};
typedef struct {
    counter_t c[2][3]; /* READY, RED, GOT (below) */
    char pad[4096 - 2 * 3 * GASNETI_CACHE_LINE_BYTES];
    char ring[2][RING_CHUNKS * GASNETE_COLL_SHM_CHUNK];
} stage_t;

#define LANE_BYTES ((size_t)4096)
_Static_assert(LANE_BYTES + sizeof(stage_t) <= GASNETI_SHM_COLL_LANE, "a lane and a stage fit the backend's");

_Static_assert(sizeof(lane_t) + GASNETI_CACHE_LINE_BYTES <= GASNETE_COLL_SHM_SCRATCH,
               "a lane fits the minimum scratch, aligned");
_Static_assert(LANE_BYTES + sizeof(stage_t) + GASNETI_CACHE_LINE_BYTES <= GASNETE_COLL_SHM_STAGED_SCRATCH,
               "a lane and a stage fit the recommended scratch, aligned");

struct gasnete_coll_shm {
    uint64_t done_by_all; /* every member's done was at least this when last read */
    uint64_t entered; /* the number of the last collective this member has entered */
    int staged;       /* every member has a stage */
    int maps_segments; /* every member maps every member's bound segment on its host */
    stage_t **stages; /* by rank of the team, if staged (this host's members) */
    gex_Rank_t nlocal; /* members on this host */
    gex_Rank_t *local; /* their ranks, ascending */
    gasnete_coll_hosts_t hosts;
    void *own;        /* a lane and stage of this member's own (alone on its host) */
    lane_t *lanes[];  /* by rank of the team (this host's members) */
};

static lane_t *lane(const gasnete_coll_op_t *op, gex_Rank_t rank)
{
    return op->tm->coll->shm->lanes[rank];
}

static stage_t *stage(const gasnete_coll_op_t *op, gex_Rank_t rank)
{
    return op->tm->coll->shm->stages[rank];
}

/* Chunk k of collective n's ring in rank's stage. */
static char *ring(gasnete_coll_op_t *op, gex_Rank_t rank, uint64_t n, size_t k)
{
    return stage(op, rank)->ring[n % 2] + (k % RING_CHUNKS) * GASNETE_COLL_SHM_CHUNK;
}

/* The host of tm's member at rank: its neighbourhood, the nodes that share
 * memory (core-mpi/core.c). */
static gex_Rank_t host_id(gasneti_tm_t tm, gex_Rank_t rank)
{
    return gasneti_nodeinfo[gasneti_tm_member(tm, rank).gex_rank].supernode;
}

/* A team's path, its lanes yet to be filled in: which members share this
 * host, and the hosts the team spans. */
static struct gasnete_coll_shm *shm_new(gasneti_tm_t tm, int staged)
{
    gex_Rank_t size = tm->size;
    struct gasnete_coll_shm *sh = calloc(1, sizeof *sh + size * sizeof sh->lanes[0]);
    gex_Rank_t *ranks = malloc(3 * (size_t)size * sizeof *ranks);
    if (!sh || !ranks || (staged && !(sh->stages = calloc(size, sizeof *sh->stages))))
        gasneti_fatalerror("collectives: out of memory");
    sh->staged = staged;
    sh->local = ranks;
    gex_Rank_t *of = ranks + size, *leader = ranks + 2 * size, n = 0, here = host_id(tm, tm->rank);
    gex_Rank_t *host_of_id = malloc(gasneti_nbrhds * sizeof *host_of_id); /* ids are dense */
    if (!host_of_id) gasneti_fatalerror("collectives: out of memory");
    for (gex_Rank_t i = 0; i < gasneti_nbrhds; i++) host_of_id[i] = NOBODY;
    int contiguous = 1;
    for (gex_Rank_t r = 0; r < size; r++) {
        gex_Rank_t id = host_id(tm, r);
        if (host_of_id[id] == NOBODY) {
            host_of_id[id] = n;
            leader[n++] = r;
        }
        gex_Rank_t h = of[r] = host_of_id[id];
        contiguous &= r == 0 || h == of[r - 1] || leader[h] == r;
        if (id == here) sh->local[sh->nlocal++] = r;
    }
    free(host_of_id);
    sh->hosts = (gasnete_coll_hosts_t){n, of, {n, of[tm->rank], leader}, contiguous};
    return sh;
}

static void shm_free(struct gasnete_coll_shm *sh)
{
    if (!sh) return;
    free(sh->stages);
    free(sh->local);
    free(sh->own);
    free(sh);
}

/* Whether tm's members are each alone on their host: then lanes share
 * nothing (every step would be between hosts) and the team keeps the AM
 * algorithms, exchanging nothing. The same answer at every member. */
static int members_alone(gasneti_tm_t tm)
{
    if (tm->size < 2) return 0;
    unsigned char *seen = calloc(gasneti_nbrhds, 1);
    if (!seen) gasneti_fatalerror("collectives: out of memory");
    int alone = 1;
    for (gex_Rank_t r = 0; alone && r < tm->size; r++) alone = !seen[host_id(tm, r)]++;
    free(seen);
    return alone;
}

const gasnete_coll_hosts_t *gasnete_coll_shm_hosts(gasneti_tm_t tm)
{
    struct gasnete_coll_shm *sh = tm->coll ? tm->coll->shm : NULL;
    return sh && sh->hosts.n > 1 ? &sh->hosts : NULL;
}

int gasnete_coll_shm_staged(gasneti_tm_t tm)
{
    return tm->coll && tm->coll->shm && tm->coll->shm->staged;
}

/* Where addr of loc's bound segment (n bytes from it) is reached here by
 * plain loads and stores, or NULL. */
static void *mapped_here(gex_EP_Location_t loc, const void *addr, size_t n)
{
    if (!gasneti_in_seginfo(gasneti_peer_segment(loc), addr, n)) return NULL;
    return gasneti_peer_local(loc, addr);
}

/* Whether this process maps the bound segment of every member of tm on
 * its host. */
static int maps_host_segments(gasneti_tm_t tm)
{
    gex_Rank_t here = host_id(tm, tm->rank);
    for (gex_Rank_t r = 0; r < tm->size; r++) {
        if (host_id(tm, r) != here) continue;
        gex_EP_Location_t m = gasneti_tm_member(tm, r);
        const gasnet_seginfo_t *s = gasneti_peer_segment(m);
        if (!s || !mapped_here(m, s->addr, s->size)) return 0;
    }
    return 1;
}

void gasnete_coll_attach(void)
{
    gasneti_tm_t tm0 = gasneti_tm0;
    int me, nlocal = gasneti_shm_local_nodes(&me);
    struct gasnete_coll_shm *sh = shm_new(tm0, 1);
    /* the backend's lanes, one per node of the host, or one of its own for
     * a node alone on its host; the host's nodes are indexed in jobrank
     * order, so the host's i-th lane is its i-th lowest primordial rank's */
    int ok[2] = {gasneti_getenv_yesno("GASNET_COLL_SHM", 1) && nlocal == (int)sh->nlocal &&
                     (gasneti_shm_coll_lanes() || nlocal == 1),
                 0}, agreed[2];
    ok[1] = ok[0] && maps_host_segments(tm0);
    /* every node must agree (an environment may differ) */
    MPI_Allreduce(ok, agreed, 2, MPI_INT, MPI_LAND, gasnetc_comm);
    int all = agreed[0] && !members_alone(tm0);
    if (gasneti_mynode == 0 && gasneti_getenv_yesno("GASNET_VERBOSEENV", 0)) {
        if (all && sh->hosts.n > 1)
            fprintf(stderr, "GASNet node 0: collectives on the primordial team go through shared "
                            "memory within each of its %u hosts and AMs between them\n", sh->hosts.n);
        else if (all)
            fprintf(stderr, "GASNet node 0: collectives on the primordial team go through shared "
                            "memory (chunks of %zu bytes above %zu%s)\n", GASNETE_COLL_SHM_CHUNK,
                    GASNETE_COLL_SHM_SLOT,
                    agreed[1] ? "; broadcasts from the segment above a ring read in place" : "");
        else
            fprintf(stderr, "GASNet node 0: collectives on the primordial team go through AMs\n");
    }
    if (!all) {
        shm_free(sh);
        return;
    }
    char *at = gasneti_shm_coll_lanes();
    if (!at) { /* alone on the host: zeroed as the backend's are */
        if (posix_memalign(&sh->own, 4096, GASNETI_SHM_COLL_LANE))
            gasneti_fatalerror("collectives: out of memory for a lane");
        memset(sh->own, 0, LANE_BYTES + offsetof(stage_t, pad));
        at = sh->own;
    }
    sh->maps_segments = agreed[1];
    for (gex_Rank_t i = 0; i < sh->nlocal; i++, at += GASNETI_SHM_COLL_LANE) {
        sh->lanes[sh->local[i]] = (lane_t *)at;
        sh->stages[sh->local[i]] = (stage_t *)(at + LANE_BYTES);
    }
    tm0->coll->shm = sh; /* collectives started from now on take numbers */
}

/* This member's lane: the team's scratch, aligned to a cache line, when it
 * is host memory and holds one; else NULL. *staged: whether a stage
 * follows it there (LANE_BYTES after it). */
static lane_t *own_lane(gasneti_tm_t tm, int *staged)
{
    if (!tm->scratch || !tm->ep->segment || tm->ep->segment->kind != GEX_MK_HOST) return NULL;
    uintptr_t a = ((uintptr_t)tm->scratch + GASNETI_CACHE_LINE_BYTES - 1) &
                  ~(uintptr_t)(GASNETI_CACHE_LINE_BYTES - 1);
    uintptr_t end = (uintptr_t)tm->scratch + tm->scratch_size;
    if (a + sizeof(lane_t) > end) return NULL;
    *staged = a + LANE_BYTES + sizeof(stage_t) <= end;
    return (lane_t *)a;
}

/* What each member tells the others when a team is made. */
typedef struct {
    uint64_t ok;     /* its lane is ready and it maps the segment of every
                        member on its host: 1, or 2 with a stage */
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
        if (!tm->coll || members_alone(tm)) continue; /* GEX_FLAG_TM_NO_SCRATCH; AMs */
        shm_record_t *rec = recs[i] = calloc(tm->size, sizeof *rec), *mine = &rec[tm->rank];
        if (!rec) gasneti_fatalerror("%s: out of memory", call);
        int staged = 0;
        lane_t *l = own_lane(tm, &staged);
        mine->ok = enabled && l && maps_host_segments(tm) ? 1 + staged : 0;
        if (mine->ok) { /* zeroed before anyone hears of it (a stage's counters too) */
            memset(l, 0, staged ? LANE_BYTES + offsetof(stage_t, pad) : sizeof *l);
            mine->offset = (uintptr_t)l - (uintptr_t)tm->ep->segment->addr;
        }
        ops[nops++] = gasnete_coll_allgather_op(tm, rec, sizeof *rec, call);
    }
    gasnete_coll_run_all(ops, nops, call);
    for (size_t i = 0; i < n; i++) {
        gasneti_tm_t tm = tms[i];
        shm_record_t *rec = recs[i];
        if (!tm->coll) continue;
        int all = rec != NULL, staged = 1;
        for (gex_Rank_t r = 0; all && r < tm->size; r++) {
            all &= rec[r].ok == 1 || rec[r].ok == 2;
            staged &= rec[r].ok == 2;
        }
        struct gasnete_coll_shm *sh = all ? shm_new(tm, staged) : NULL;
        if (sh) {
            sh->maps_segments = 1; /* each member's ok said so */
            for (gex_Rank_t i = 0; i < sh->nlocal; i++) {
                gex_Rank_t r = sh->local[i];
                gex_EP_Location_t m = gasneti_tm_member(tm, r);
                const gasnet_seginfo_t *s = gasneti_peer_segment(m);
                size_t need = staged ? LANE_BYTES + sizeof(stage_t) : sizeof(lane_t);
                sh->lanes[r] = rec[r].offset <= s->size
                                   ? mapped_here(m, (char *)s->addr + rec[r].offset, need)
                                   : NULL;
                if (staged && sh->lanes[r]) sh->stages[r] = (stage_t *)((char *)sh->lanes[r] + LANE_BYTES);
                if (!sh->lanes[r] || (uintptr_t)sh->lanes[r] % 8)
                    gasneti_fatalerror("%s: rank %u of the team gave its collective lane at offset "
                                       "%llu, outside its segment of %lu bytes", call, r,
                                       (unsigned long long)rec[r].offset, (unsigned long)s->size);
            }
            tm->coll->shm = sh;
        }
        if (tm->rank == 0 && gasneti_getenv_yesno("GASNET_VERBOSEENV", 0))
            fprintf(stderr, "GASNet node %u: collectives on team %llx (%u members%s) go through %s%s\n",
                    gasneti_mynode, (unsigned long long)tm->id, tm->size,
                    sh && sh->hosts.n > 1 ? ", several hosts" : "",
                    !all ? "AMs" : staged ? "shared memory in its scratch space (with stages)"
                                          : "shared memory in its scratch space (slots only)",
                    sh && sh->hosts.n > 1 ? " within each host and AMs between them" : "");
        free(rec);
    }
    free(ops);
    free(recs);
}

void gasnete_coll_shm_fini(gasneti_tm_t tm)
{
    if (!tm->coll) return; /* a team without collectives */
    shm_free(tm->coll->shm);
    tm->coll->shm = NULL;
}

int gasnete_coll_shm_entered(gasnete_coll_op_t *op, gex_Rank_t rank, uint64_t n)
{
    lane_t *l = lane(op, rank);
    const slot_t *s = &l->slot[n % 2];
    if (__atomic_load_n(&s->seq, __ATOMIC_ACQUIRE) != (uint16_t)n) return 0;
    uint32_t sig = s->sig; /* kept until this member's done >= n */
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

/* Whether every member has finished reading for collective number n. The
 * least done seen is kept: reading a line another member just wrote costs
 * a transfer between cores, which most calls can skip. (Only the thread
 * that runs the collectives' progress calls this.) */
static int all_done(gasnete_coll_op_t *op, uint64_t n)
{
    struct gasnete_coll_shm *sh = op->tm->coll->shm;
    if (sh->done_by_all >= n) return 1;
    uint64_t least = UINT64_MAX;
    for (gex_Rank_t i = 0; i < sh->nlocal; i++) {
        uint64_t d = __atomic_load_n(&lane(op, sh->local[i])->done, __ATOMIC_ACQUIRE);
        if (d < n) return 0;
        if (d < least) least = d;
    }
    sh->done_by_all = least;
    return 1;
}

int gasnete_coll_shm_host_entered(gasnete_coll_op_t *op, uint64_t n, gex_Rank_t skip)
{
    struct gasnete_coll_shm *sh = op->tm->coll->shm;
    for (gex_Rank_t i = 0; i < sh->nlocal; i++)
        if (sh->local[i] != skip && !gasnete_coll_shm_entered(op, sh->local[i], n)) return 0;
    return 1;
}

int gasnete_coll_shm_step(gasnete_coll_op_t *op)
{
    uint64_t n = op->shm_n;
    lane_t *me = lane(op, op->tm->rank);
    switch (op->shm_phase) {
    case 0: /* the part between hosts; enter, after the collective before; the slot once free */
        if (op->shm_first) {
            if (!op->shm_first(op, n)) return 0;
            op->shm_first = NULL;
        }
        struct gasnete_coll_shm *sh = op->tm->coll->shm; /* stepped by one thread at a time */
        if (sh->entered != n - 1 || (n > 2 && !all_done(op, n - 2)))
            return 0;
        slot_t *s = &me->slot[n % 2];
        s->sig = op->sig;
        s->len = (uint16_t)op->shm_len;
        if (op->shm_len) memcpy(s->data, op->shm_data, op->shm_len);
        if (op->shm_staged) { /* nobody reads these for n-2 any more */
            stage_t *st = stage(op, op->tm->rank);
            st->c[n % 2][READY].v = st->c[n % 2][RED].v = st->c[n % 2][GOT].v = 0;
            if (op->shm_chunk_len) { /* one chunk, ready with the entry */
                memcpy(ring(op, op->tm->rank, n, 0), op->shm_chunk, op->shm_chunk_len);
                st->c[n % 2][READY].v = op->shm_k[0] = 1;
            }
        }
        __atomic_store_n(&s->seq, (uint16_t)n, __ATOMIC_RELEASE);
        sh->entered = n;
        op->shm_phase = 1;
        /* fall through */
    case 1:
        if (!op->shm_run) /* an AM algorithm: those who entered must have called the same */
            (void)gasnete_coll_shm_host_entered(op, n, NOBODY);
        if (!(op->shm_run ? op->shm_run(op, n) : op->progress(op))) return 0;
        op->shm_phase = 2;
        /* fall through */
    default: /* leave, after the collective before */
        free(op->shm_tmp);
        op->shm_tmp = NULL;
        if (__atomic_load_n(&me->done, __ATOMIC_RELAXED) != n - 1) return 0;
        __atomic_store_n(&me->done, n, __ATOMIC_RELEASE);
        return 1;
    }
}

/* A barrier: each host's leader (its lowest rank) waits until every other
 * member of its host has entered, passes a dissemination barrier among the
 * leaders (none on one host), and then enters itself, which tells the
 * others of its host that everyone has entered. On one host that lets
 * team rank 0 leave first, a cache-line transfer before the others, where
 * every member reading every lane would let the last to arrive leave
 * first: a broadcast from rank 0 right after a barrier (OSU's osu_bcast,
 * and clients that publish then read) then finds its readers arriving as
 * the data does, and on N members the others read one line, not N-1
 * (docs/collectives.md has the measurements). */
static int leader_barrier(gasnete_coll_op_t *op, uint64_t n)
{
    if (!op->shm_first_step) {
        if (!gasnete_coll_shm_host_entered(op, n, op->tm->rank)) return 0;
        op->shm_first_step = 1;
    }
    return gasnete_coll_barrier_among(op, &op->tm->coll->shm->hosts.leaders, 0, &op->step);
}

static int passed(gasnete_coll_op_t *op, uint64_t n)
{
    (void)op;
    (void)n;
    return 1;
}

static int leader_entered(gasnete_coll_op_t *op, uint64_t n)
{
    const gasnete_coll_group_t *l = &op->tm->coll->shm->hosts.leaders;
    return gasnete_coll_shm_entered(op, l->rank[l->me], n);
}

void gasnete_coll_shm_barrier(gasnete_coll_op_t *op)
{
    const struct gasnete_coll_shm *sh = op->tm->coll->shm;
    if (!sh) return; /* the AM algorithm alone */
    const gasnete_coll_group_t *l = &sh->hosts.leaders;
    if (l->rank[l->me] == op->tm->rank) {
        op->shm_first = leader_barrier;
        op->shm_run = passed;
    } else {
        op->shm_run = leader_entered;
    }
}

/* ---- staged collectives: payloads above a slot, chunk by chunk */

static uint64_t ld(const counter_t *c) { return __atomic_load_n(&c->v, __ATOMIC_ACQUIRE); }
static void st(counter_t *c, uint64_t v) { __atomic_store_n(&c->v, v, __ATOMIC_RELEASE); }

/* The least of counter `which` for collective n over the members but
 * `skip`: 0 while one of them has not entered n (its counters may still be
 * those of n-2); UINT64_MAX - RING_CHUNKS if there are none. */
static uint64_t least(gasnete_coll_op_t *op, uint64_t n, int which, gex_Rank_t skip)
{
    uint64_t m = UINT64_MAX - RING_CHUNKS;
    struct gasnete_coll_shm *sh = op->tm->coll->shm;
    for (gex_Rank_t i = 0; i < sh->nlocal; i++) {
        gex_Rank_t r = sh->local[i];
        if (r == skip) continue;
        if (!gasnete_coll_shm_entered(op, r, n)) return 0;
        uint64_t v = ld(&stage(op, r)->c[n % 2][which]);
        if (v < m) m = v;
    }
    return m;
}

/* The least READY of collective n over the members but skip, for a
 * payload of total chunks: one chunk is there once a member has entered
 * (gasnete_coll_shm_stage_first), and its counter is not read. */
static uint64_t least_ready(gasnete_coll_op_t *op, uint64_t n, size_t total, gex_Rank_t skip)
{
    return total == 1 ? (uint64_t)gasnete_coll_shm_host_entered(op, n, skip) : least(op, n, READY, skip);
}

void gasnete_coll_shm_stage_first(gasnete_coll_op_t *op, const void *src, size_t nbytes, size_t elem)
{
    if (nbytes > GASNETE_COLL_SHM_CHUNK / elem * elem) return;
    op->shm_chunk = src;
    op->shm_chunk_len = nbytes;
}

/* BROADCAST. The root copies chunk after chunk into its ring (READY), once
 * every other member has read the chunk that was there (GOT); the others
 * copy each chunk out as it appears. The root is done once its payload is
 * all in the ring: the ring of this parity is written again only once
 * every member is done with n.
 * IN PLACE. Where the payload is larger than a ring, src lies in the root's
 * segment and every member maps every member's, the root posts src's
 * address with its entry instead, and the others copy straight from it
 * and count it all taken (GOT): one copy instead of two. The root is then
 * done only once every member has taken it (src may change once the
 * root's call completes); through the ring it would have waited for all
 * but the last ring's worth. A payload that fits the ring keeps it: there
 * the root is done without waiting for anyone (on an oversubscribed host,
 * waiting for the others made 4-rank broadcasts of 2-128 KiB 3-4x slower:
 * results/bcast-in-place-ab.log). */
void gasnete_coll_shm_bcast_post(gasnete_coll_op_t *op, const void *src, size_t nbytes)
{
    gasneti_tm_t tm = op->tm;
    int in_place = nbytes > RING_CHUNKS * GASNETE_COLL_SHM_CHUNK && tm->coll->shm->maps_segments &&
                   tm->ep->segment && tm->ep->segment->kind == GEX_MK_HOST &&
                   gasneti_in_seginfo(gasneti_peer_segment(gasneti_tm_member(tm, tm->rank)), src, nbytes);
    op->shm_word = in_place ? (uintptr_t)src : 0;
    op->shm_data = &op->shm_word;
    op->shm_len = sizeof op->shm_word;
}

int gasnete_coll_shm_bcast_staged(gasnete_coll_op_t *op, uint64_t n, gex_Rank_t root, void *dst,
                                  const void *src, size_t nbytes)
{
    const size_t C = GASNETE_COLL_SHM_CHUNK, total = (nbytes + C - 1) / C;
    gex_Rank_t me = op->tm->rank;
    size_t *k = &op->shm_k[0];
    if (op->tm->coll->shm->nlocal == 1) { /* a host's only member (several hosts) */
        if (dst != src) memcpy(dst, src, nbytes);
        return 1;
    }
    if (me == root && op->shm_word) {
        if (!*k && dst != src) memcpy(dst, src, nbytes);
        *k = total;
        return least(op, n, GOT, root) >= total;
    }
    if (me == root) {
        counter_t *ready = &stage(op, me)->c[n % 2][READY];
        uint64_t free_to = 0; /* chunks the ring may hold up to */
        while (*k < total) {
            if (*k >= free_to && (free_to = least(op, n, GOT, root) + RING_CHUNKS) <= *k) return 0;
            size_t len = nbytes - *k * C < C ? nbytes - *k * C : C;
            memcpy(ring(op, me, n, *k), (const char *)src + *k * C, len);
            st(ready, ++*k);
        }
        if (dst != src) memcpy(dst, src, nbytes);
        return 1;
    }
    if (!gasnete_coll_shm_entered(op, root, n)) return 0;
    counter_t *got = &stage(op, me)->c[n % 2][GOT];
    uint64_t at;
    memcpy(&at, gasnete_coll_shm_data(op, root, n, sizeof at), sizeof at);
    if (at) { /* in the root's segment, which the team's path maps here */
        gex_EP_Location_t m = gasneti_tm_member(op->tm, root);
        const void *p = mapped_here(m, (const void *)(uintptr_t)at, nbytes);
        if (!p)
            gasneti_fatalerror("%s: the root (rank %u) posted a payload of %zu bytes at %#llx, "
                               "outside its segment", op->call, root, nbytes, (unsigned long long)at);
        memcpy(dst, p, nbytes);
        st(got, total);
        return 1;
    }
    const counter_t *ready = &stage(op, root)->c[n % 2][READY];
    uint64_t avail = 0;
    while (*k < total) {
        if (*k >= avail && (avail = total == 1 ? 1 : ld(ready)) <= *k) return 0; /* root entered */
        size_t len = nbytes - *k * C < C ? nbytes - *k * C : C;
        memcpy((char *)dst + *k * C, ring(op, root, n, *k), len);
        st(got, ++*k);
    }
    return 1;
}

/* REDUCTION. Every member copies its payload chunk by chunk into its ring
 * (READY), once every member has taken the result that was there (GOT).
 * - WHOLE, where N members' chunks together are at most WHOLE_BYTES (on 2
 *   ranks always): each member that wants the result folds every member's
 *   chunk into dst itself, reading the rings in place (from the right,
 *   x_r (+) acc for r descending from the last member's x: the spec lets
 *   an implementation associate so), and counts it taken (GOT). One
 *   hand-over per chunk.
 * - SLICES, otherwise: member r reduces slice r of each chunk (the r-th
 *   N-th of its elements) over the members in rank order (src_0 (+) src_1
 *   (+) ... in two private chunk buffers) and writes the result over its
 *   own slice (RED): nobody else reads that slice of its payload. Then
 *   each member that wants the result copies slice s of the chunk from
 *   member s, and every member counts it taken (GOT). Each member reads
 *   2/N of what WHOLE reads, for one more hand-over.
 * On 2 ranks WHOLE took 0.8-0.9x the time of SLICES at 64 KiB-1 MiB, the
 * same at 4-32 KiB (results/coll-reduce-whole.txt). */
#define WHOLE_BYTES (2 * GASNETE_COLL_SHM_CHUNK)

/* Elements in chunk k of a cnt-element vector cut into chunks of E. */
static size_t chunk_elems(size_t cnt, size_t E, size_t k) { return cnt - k * E < E ? cnt - k * E : E; }

int gasnete_coll_shm_reduce_staged(gasnete_coll_op_t *op, uint64_t n, int want, void *dst,
                                   const void *src, size_t nbytes, size_t elem,
                                   gasnete_coll_fold_t fold, void *cx)
{
    const size_t E = GASNETE_COLL_SHM_CHUNK / elem, C = E * elem, total = (nbytes + C - 1) / C,
                 cnt = nbytes / elem;
    gex_Rank_t me = op->tm->rank, size = op->tm->size;
    const int whole = (nbytes < C ? nbytes : C) * size <= WHOLE_BYTES;
    size_t *posted = &op->shm_k[0], *red = &op->shm_k[1], *got = &op->shm_k[2];
    counter_t *c = stage(op, me)->c[n % 2];
    if (!whole && !op->shm_tmp && !(op->shm_tmp = malloc(2 * C)))
        gasneti_fatalerror("%s: out of memory for a %zu-byte reduction", op->call, nbytes);
    int moved;
    do {
        moved = 0;
        while (*posted < total && (*posted < RING_CHUNKS || least(op, n, GOT, NOBODY) + RING_CHUNKS > *posted)) {
            size_t len = nbytes - *posted * C < C ? nbytes - *posted * C : C;
            memcpy(ring(op, me, n, *posted), (const char *)src + *posted * C, len);
            st(&c[READY], ++*posted);
            moved = 1;
        }
        if (whole) {
            while (*got < *posted && least_ready(op, n, total, NOBODY) > *got) {
                size_t m = chunk_elems(cnt, E, *got);
                char *acc = (char *)dst + *got * C;
                if (want) { /* the last two members' chunks folded straight into acc */
                    gex_Rank_t r = size - 1;
                    if (r == 0) {
                        memcpy(acc, ring(op, 0, n, *got), m * elem);
                    } else {
                        r--;
                        fold(cx, ring(op, r, n, *got), ring(op, r + 1, n, *got), acc, m);
                    }
                    while (r-- > 0) fold(cx, ring(op, r, n, *got), acc, acc, m); /* acc = x_r (+) acc */
                }
                st(&c[GOT], ++*got);
                moved = 1;
            }
            continue;
        }
        while (*red < *posted && least_ready(op, n, total, NOBODY) > *red) {
            size_t ek = chunk_elems(cnt, E, *red);
            size_t a = ek * me / size, m = ek * (me + 1) / size - a, off = a * elem, len = m * elem;
            if (m) { /* each slice copied out first: measured faster than folding in place */
                char *acc = op->shm_tmp, *x = op->shm_tmp + C;
                memcpy(acc, ring(op, 0, n, *red) + off, len);
                for (gex_Rank_t r = 1; r < size; r++) {
                    memcpy(x, ring(op, r, n, *red) + off, len);
                    fold(cx, acc, x, x, m); /* x = acc (+) x */
                    char *t = acc;
                    acc = x;
                    x = t;
                }
                memcpy(ring(op, me, n, *red) + off, acc, len);
            }
            st(&c[RED], ++*red);
            moved = 1;
        }
        while (*got < *red && least(op, n, RED, NOBODY) > *got) {
            size_t ek = chunk_elems(cnt, E, *got);
            for (gex_Rank_t r = 0; want && r < size; r++) {
                size_t a = ek * r / size, len = (ek * (r + 1) / size - a) * elem;
                memcpy((char *)dst + *got * C + a * elem, ring(op, r, n, *got) + a * elem, len);
            }
            st(&c[GOT], ++*got);
            moved = 1;
        }
    } while (moved && *got < total);
    return *got == total;
}
