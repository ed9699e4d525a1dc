/* Team collectives: the machinery every collective over a team shares
 * (coll.c), team construction (team.c), and the barrier.
 *
 * MESSAGES. A collective's messages are AM Mediums to one handler,
 * carrying the team id, the operation's sequence number on that team, a
 * tag (the algorithm's round or step), the sender's rank in the team, the
 * operation's signature (a hash of the call and its single-valued
 * arguments: root, data type, operation, sizes; a member that called
 * something else is reported, not misread) and the piece's offset: a payload larger than a Medium travels as pieces of
 * GASNETE_COLL_PIECE bytes (at least one, even when empty), which a tree
 * forwards as they arrive (a pipeline).
 * The handler only files them in a mailbox; the operation takes them out
 * when it needs them, so a message may arrive before its operation
 * starts here. Sequence numbers are per team and follow the call order,
 * which every member shares, so any number of collectives may be in
 * flight on one team.
 *
 * PROGRESS. An operation in flight is a record with a progress function
 * that sends what it can and consumes what has arrived; every poll runs
 * the progress of every active operation (never inside a handler), and
 * the operation's event completes when its function reports done and
 * every earlier operation of its team has completed: a team's
 * collectives complete in call order.
 *
 * MEMORY. A mailbox entry holds one message until consumed: at most the
 * messages of the collectives in flight (for the dissemination barrier,
 * ceil(lg N) per barrier; for a team split, N-1; for a broadcast or a
 * reduction, the pieces of one payload per tree child).
 */
#ifndef GASNETE_COLL_H
#define GASNETE_COLL_H

#include "events.h"

/* Per-team collective state (tm->coll). */
typedef struct gasnete_coll_op gasnete_coll_op_t;
struct gasnete_coll_team {
    uint32_t next_seq; /* sequence number of the next collective */
    uint32_t retired;  /* sequence number of the next to complete */
    /* its operations in flight, in start order, and its link in the list of
     * teams that have some (coll.c; under its progress lock) */
    gasnete_coll_op_t *active, **active_tail;
    struct gasnete_coll_team *next_busy;
    struct gasnete_coll_shm *shm; /* the shared-memory path (shm.c), or NULL */
    uint64_t shm_started;         /* collectives numbered for it so far */
};

/* Bytes of one message piece (a Medium's payload fits every peer). */
#define GASNETE_COLL_PIECE ((size_t)65000)
/* Pieces of a payload of n bytes. */
static inline size_t gasnete_coll_pieces(size_t n)
{
    return n ? (n + GASNETE_COLL_PIECE - 1) / GASNETE_COLL_PIECE : 1;
}

struct gasnete_coll_op {
    gasnete_coll_op_t *next;
    gasneti_tm_t tm;
    uint32_t seq;
    int (*progress)(gasnete_coll_op_t *op); /* 1 when done */
    gasneti_op_t *event;                    /* completed when done (or NULL) */
    int done;                               /* set once finished (atomic) */
    int ready;                              /* progress said done; waits its turn */
    int step;                               /* algorithm state */
    int detached;                           /* nobody waits: freed when done */
    void *state;                            /* algorithm data, freed when done */
    const char *call;                       /* the entry point, for messages */
    uint32_t sig; /* the call and its single-valued arguments, hashed: every
                     message carries it, so members that disagree are told */
    /* the shared-memory path (shm.c), where the team has one: */
    uint64_t shm_n; /* this collective's number there (0: not on it) */
    int shm_phase;
    int (*shm_run)(gasnete_coll_op_t *op, uint64_t n); /* NULL: the AM algorithm */
    /* what must be done before this member enters (NULL: nothing): on a
     * team over several hosts, a host's leader's (or a broadcast's
     * root's) part between hosts; a GASNet-1 IN_ALLSYNC's barrier. 1
     * once done; shm_first_step is its state */
    int (*shm_first)(gasnete_coll_op_t *op, uint64_t n);
    int shm_first_step;
    const void *shm_data; /* what this member posts with it */
    size_t shm_len;       /* at most GASNETE_COLL_SHM_SLOT */
    uint64_t shm_word;    /* a word to post (shm_data may point here) */
    int shm_staged;       /* the payload goes through the stages instead */
    size_t shm_k[3];      /* staged: chunks posted, reduced, taken here */
    const void *shm_chunk; /* staged, a payload of one chunk: written to this
                              member's ring as it enters (shm_chunk_len bytes) */
    size_t shm_chunk_len;
    char *shm_tmp;        /* the path's scratch (staged reductions by slices: two chunks;
                             a leader's reduction: its host's part), freed when done */
};

/* Sets up a new team's collective state. */
void gasnete_coll_team_init(gasneti_tm_t tm);
void gasnete_coll_team_fini(gasneti_tm_t tm);

/* Sends a message of op to the member at rank. */
void gasnete_coll_send(const gasnete_coll_op_t *op, int tag, gex_Rank_t rank, const void *data,
                       size_t len);
/* Takes op's message tag from rank if it arrived: copies at most cap
 * bytes into buf, returns its length, or -1 if not there yet. A message
 * whose signature differs from op's is fatal. */
long gasnete_coll_take(gasnete_coll_op_t *op, int tag, gex_Rank_t rank, void *buf, size_t cap);

/* Sends the piece at offset off of a payload. */
void gasnete_coll_send_piece(const gasnete_coll_op_t *op, int tag, gex_Rank_t rank,
                             const void *data, size_t len, size_t off);
/* Sends data (n bytes) to rank as pieces tagged tag. */
void gasnete_coll_send_all(const gasnete_coll_op_t *op, int tag, gex_Rank_t rank,
                           const void *data, size_t n);
/* Takes one piece of op's message tag from rank if one arrived: copies it to
 * base + its offset (fatal beyond cap), and returns its length with *off
 * set, or -1. cap is the payload's size: a piece that shows the sender's
 * size differs is fatal. */
long gasnete_coll_take_piece(gasnete_coll_op_t *op, int tag, gex_Rank_t rank, void *base,
                             size_t cap, size_t *off);

/* Starts op (tm, progress, state set by the caller; seq is assigned),
 * counting it in event (GASNETI_GET), and runs its first step. */
void gasnete_coll_start(gasnete_coll_op_t *op, gasneti_op_t *event);
/* Starts an internal collective that nobody waits for: it runs in the
 * polls and is freed once done (gex_AD_Create's agreement check). */
void gasnete_coll_start_detached(gasnete_coll_op_t *op);
/* Polls until every collective started on tm has completed here. */
void gasnete_coll_quiesce(gasneti_tm_t tm, const char *call);
/* Runs an internal collective to completion, polling. */
void gasnete_coll_run(gasnete_coll_op_t *op, const char *call);
/* Starts n of them (on different teams: several members in this process),
 * then waits for all. */
void gasnete_coll_run_all(gasnete_coll_op_t **ops, size_t n, const char *call);
/* An allgather of one record of size bytes per member into all (by team
 * rank; this member's filled in by the caller): the op to run. */
gasnete_coll_op_t *gasnete_coll_allgather_op(gasneti_tm_t tm, void *all, size_t size, const char *call);

/* The members an AM algorithm runs over: n of them, this member at index
 * me, index i being team rank rank[i] (rank NULL: the whole team, i
 * itself). All zero means the whole team. Between the hosts of a team: one
 * member per host (shm.c). */
typedef struct {
    gex_Rank_t n, me;
    const gex_Rank_t *rank;
} gasnete_coll_group_t;
/* g, or the whole team if g is all zero. */
static inline gasnete_coll_group_t gasnete_coll_group(gasneti_tm_t tm, const gasnete_coll_group_t *g)
{
    return g->n ? *g : (gasnete_coll_group_t){tm->size, tm->rank, NULL};
}
static inline gex_Rank_t gasnete_coll_at(const gasnete_coll_group_t *g, gex_Rank_t i)
{
    return g->rank ? g->rank[i] : i;
}

/* A barrier over tm (dissemination): the op to start. */
gasnete_coll_op_t *gasnete_coll_barrier_op(gasneti_tm_t tm);
/* One step of that barrier inside another operation, with tags from
 * tag0 (ceil(lg N) of them) and *step starting at 0: 1 when passed. */
int gasnete_coll_barrier_step(gasnete_coll_op_t *op, int tag0, int *step);
/* The same over the members of g. */
int gasnete_coll_barrier_among(gasnete_coll_op_t *op, const gasnete_coll_group_t *g, int tag0,
                               int *step);

/* The team the collective entry points act on, checked (flags must be 0). */
gasneti_tm_t gasnete_coll_team(gex_TM_t tm, gex_Flags_t flags, const char *call);
/* An operation record with tm, progress and state set, signed with call. */
gasnete_coll_op_t *gasnete_coll_op_new(gasneti_tm_t tm, int (*progress)(gasnete_coll_op_t *),
                                       void *state, const char *call);
/* Adds a single-valued argument to op's signature (before it starts). */
void gasnete_coll_sign(gasnete_coll_op_t *op, uint64_t value);
/* Starts op with a fresh event and returns the event (INVALID if done). */
gex_Event_t gasnete_coll_start_nb(gasnete_coll_op_t *op);

/* Broadcast (binomial tree over ranks relative to root, pipelined by
 * pieces) as a step of an operation, tags tag0..tag0: 1 when this rank
 * is done. Over the members of g (zero: the whole team), which include the
 * root; between hosts, the member of g on this host is the host's source
 * (the root on its own host), which the others copy from (shm.c). */
typedef struct {
    gex_Rank_t root; /* a team rank */
    void *dst;
    const void *src;
    size_t nbytes;
    size_t pieces; /* taken so far (non-roots) */
    int started;
    gasnete_coll_group_t g;
    gex_Rank_t root_at; /* the root's index in g, where g is set */
} gasnete_coll_bcast_t;
int gasnete_coll_bcast_step(gasnete_coll_op_t *op, gasnete_coll_bcast_t *b, int tag);
/* The same broadcast on the shared-memory path, collective number n (1
 * when this member is done), once _prepare has said the path can take it
 * (and set op up for it; the caller then sets op->shm_run). */
int gasnete_coll_bcast_shm(gasnete_coll_op_t *op, uint64_t n, gasnete_coll_bcast_t *b);
int gasnete_coll_bcast_shm_prepare(gasnete_coll_op_t *op, const gasnete_coll_bcast_t *b);

/* The shared-memory path (shm.c). A creator sets an operation's shm_run
 * (and shm_data, shm_len) where it can run that way; it is used when the
 * team has the path. */
#define GASNETE_COLL_SHM_SLOT ((size_t)1976)
/* How many of each team's oldest operations in flight a poll steps
 * (coll.c): an operation is stepped only within that many of the oldest
 * one of its team this process has not retired, which bounds how far
 * behind the other members' lanes can be when it reads them (shm.c,
 * slot_t). */
#define GASNETE_COLL_WINDOW 64
/* Scratch enough for a member's lane (shm.c): the default minimum. */
#define GASNETE_COLL_SHM_SCRATCH ((size_t)4096 + GASNETI_CACHE_LINE_BYTES)
/* Scratch enough for a lane and a stage (shm.c): the default RECOMMENDED. */
#define GASNETE_COLL_SHM_STAGED_SCRATCH ((size_t)4096 * 66 + GASNETI_CACHE_LINE_BYTES)
/* The scratch-size queries' answer for a team of size members (team.c). */
size_t gasnete_coll_scratch_size(gex_Rank_t size, gex_Flags_t flags);
/* At segment attach (collective): the primordial team's path (shm.c). */
void gasnete_coll_attach(void);
/* Gives the new teams tms[0..n) of this process the path where every
 * member has one: collective over each team (gasnete_coll_attach sets up
 * the primordial team's). */
void gasnete_coll_shm_teams(gasneti_tm_t *tms, size_t n, const char *call);
/* Frees a team's path: nothing in flight on it. */
void gasnete_coll_shm_fini(gasneti_tm_t tm);
/* Runs op on the path: enters, runs, leaves, in call order: 1 when done. */
int gasnete_coll_shm_step(gasnete_coll_op_t *op);
/* Whether rank has entered collective number n (fatal if it is another
 * collective), and the data it posted with it (fatal unless len bytes). */
int gasnete_coll_shm_entered(gasnete_coll_op_t *op, gex_Rank_t rank, uint64_t n);
const void *gasnete_coll_shm_data(gasnete_coll_op_t *op, gex_Rank_t rank, uint64_t n, size_t len);
/* Makes op a barrier on the path. */
void gasnete_coll_shm_barrier(gasnete_coll_op_t *op);

/* A team over several hosts has the path on each (its members on one host
 * share lanes) and runs the collectives that have a hierarchical form that
 * way: within each host through its lanes, between hosts by AMs among one
 * member per host. */
typedef struct {
    gex_Rank_t n;                 /* hosts the team spans */
    const gex_Rank_t *of;         /* by team rank: its host (hosts numbered
                                     in the order of their lowest rank) */
    gasnete_coll_group_t leaders; /* by host: its lowest rank (me: this
                                     member's host) */
    int contiguous;               /* each host's members hold consecutive ranks */
} gasnete_coll_hosts_t;
/* tm's hosts where it has the path and spans several, else NULL. */
const gasnete_coll_hosts_t *gasnete_coll_shm_hosts(gasneti_tm_t tm);
/* Whether every member on this host but skip has entered collective n. */
int gasnete_coll_shm_host_entered(gasnete_coll_op_t *op, uint64_t n, gex_Rank_t skip);

/* Payloads above a slot go through each member's stage (shm.c), a ring
 * of chunks, where the team's path has stages. */
#define GASNETE_COLL_SHM_CHUNK ((size_t)16384)
/* Whether tm's path has stages (the same answer at every member). */
int gasnete_coll_shm_staged(gasneti_tm_t tm);
/* Steps of staged collectives, for an op's shm_run (op->shm_staged set):
 * 1 when this member is done. A broadcast of nbytes from root; a
 * reduction of nbytes of elements of elem bytes (at most a chunk), whose
 * result in rank order this member wants in dst if want (fold(cx, a, b,
 * out, cnt): out = a OP b over cnt elements, out being b or apart from a
 * and b). The broadcast's root posts a word
 * with its entry (op->shm_word, set by gasnete_coll_shm_bcast_post): src,
 * if the others read it in place, else 0. */
void gasnete_coll_shm_bcast_post(gasnete_coll_op_t *op, const void *src, size_t nbytes);
/* Where a staged payload of nbytes (elements of elem bytes) is one chunk:
 * this member writes it, from src, to its ring as it enters, so that
 * others who see it entered need not wait on its READY. Every member that
 * posts a payload calls it (the readers rely on it). */
void gasnete_coll_shm_stage_first(gasnete_coll_op_t *op, const void *src, size_t nbytes, size_t elem);
int gasnete_coll_shm_bcast_staged(gasnete_coll_op_t *op, uint64_t n, gex_Rank_t root, void *dst,
                                  const void *src, size_t nbytes);
typedef void (*gasnete_coll_fold_t)(void *cx, const void *a, const void *b, void *out, size_t cnt);
int gasnete_coll_shm_reduce_staged(gasnete_coll_op_t *op, uint64_t n, int want, void *dst,
                                   const void *src, size_t nbytes, size_t elem,
                                   gasnete_coll_fold_t fold, void *cx);

/* The legacy team over the primordial team (legacy.c). */
void gasnete_coll_legacy_init(gasneti_tm_t tm0);

#endif
