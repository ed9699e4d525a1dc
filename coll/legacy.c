/* The GASNet-1 collectives of gasnet_coll.h (§16.5) over the primordial
 * team, GASNET_TEAM_ALL, one image per process.
 *
 * An operation runs up to three phases under one sequence number: a
 * barrier when IN_ALLSYNC asks that no data move before every member has
 * entered; the data movement; and a barrier when OUT_ALLSYNC asks that no
 * member's sync succeed before every member's buffers are done. The data
 * movement itself satisfies MYSYNC both ways (a member sends its data
 * after it has entered, and writes what it receives, from the mailbox,
 * only while it is inside the operation), and so NOSYNC too.
 *
 * Broadcast is the EX broadcast's binomial tree, or, where the team has
 * the shared-memory path on one host (coll/shm.c; over several hosts these
 * keep their AM algorithms), the EX broadcast's way through it
 * (the root's slot, or the stages above 1976 bytes), between the same
 * barriers. Scatter, gather, gather_all and exchange send each block
 * straight to its member (to rank + 1, + 2, ... in turn, which spreads the
 * load), as pieces; on the shared-memory path, when what a member posts
 * fits a slot (a scatter's or an exchange's n blocks, one block of the
 * others), every member posts its src in its slot and each copies the
 * blocks it needs out of the others' slots. A member posts as it enters
 * there, so under IN_ALLSYNC the barrier runs before (op->shm_first):
 * another member's puts to its src until the last has entered count.
 */
#include "coll.h"

#include <errno.h>
#include <gasnet_coll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct gasnete_coll_legacy_team {
    gasneti_tm_t tm;
};
static struct gasnete_coll_legacy_team team_all;
gasnet_team_handle_t gasnete_coll_team_all;

void gasnete_coll_legacy_init(gasneti_tm_t tm0)
{
    if (gasnete_coll_team_all) return; /* the first client's */
    team_all.tm = tm0;
    gasnete_coll_team_all = &team_all;
}

void gasnet_coll_init(const gasnet_image_t images[], gasnet_image_t my_image,
                      gasnet_coll_fn_entry_t fn_tbl[], size_t fn_count, int init_flags)
{
    const char *call = "gasnet_coll_init";
    GASNETI_CHECK_INIT(call);
    (void)fn_tbl;
    (void)fn_count;
    if (init_flags)
        gasneti_fatalerror("%s: init_flags must be 0 (got 0x%x)", call, (unsigned)init_flags);
    if (!images) return;
    for (gex_Rank_t i = 0; i < gasneti_nodes; i++)
        if (images[i] != 1)
            gasneti_fatalerror("%s: images[%u] is %u: only one image per process is supported", call,
                               i, (unsigned)images[i]);
    if (my_image != gasneti_mynode)
        gasneti_fatalerror("%s: my_image %u is not this process's image (%u)", call,
                           (unsigned)my_image, gasneti_mynode);
}

enum { BROADCAST, SCATTER, GATHER, GATHER_ALL, EXCHANGE };
static const char *const names[] = {"gasnet_coll_broadcast", "gasnet_coll_scatter",
                                    "gasnet_coll_gather", "gasnet_coll_gather_all",
                                    "gasnet_coll_exchange"};
enum { TAG_IN = 0, TAG_OUT = 32, TAG_DATA = 64 }; /* barriers take up to 32 tags */

typedef struct {
    int kind, flags;
    gex_Rank_t root;
    char *dst, *src;
    size_t nb;
    int phase, bstep;
    gasnete_coll_bcast_t b;
    gex_Rank_t left; /* senders not yet complete */
    gex_Rank_t next; /* shared-memory path: the next member to copy from */
    size_t pieces[]; /* taken from each rank */
} legacy_t;

/* Where rank r's block lies in src (a block per rank for scatter and
 * exchange) and in dst (a block per rank but for scatter), and how many
 * bytes of src each member gives on a team of n. */
static size_t src_off(const legacy_t *x, gex_Rank_t r)
{
    return x->kind == SCATTER || x->kind == EXCHANGE ? r * x->nb : 0;
}
static size_t dst_off(const legacy_t *x, gex_Rank_t r) { return x->kind != SCATTER ? r * x->nb : 0; }
static size_t src_bytes(const legacy_t *x, gex_Rank_t n) { return src_off(x, n - 1) + x->nb; }

/* Whether this rank receives from rank i, and sends to it. */
static int receives_from(const legacy_t *x, gex_Rank_t me, gex_Rank_t i)
{
    if (i == me) return 0;
    return x->kind == SCATTER ? i == x->root : x->kind == GATHER ? me == x->root : 1;
}
static int sends_to(const legacy_t *x, gex_Rank_t me, gex_Rank_t j)
{
    return receives_from(x, j, me);
}

/* Scatter, gather, gather_all, exchange: 1 once this rank's part is done. */
static int blocks_step(gasnete_coll_op_t *op, legacy_t *x)
{
    gasneti_tm_t tm = op->tm;
    gex_Rank_t n = tm->size, me = tm->rank;
    if (!x->b.started) {
        x->b.started = 1;
        for (gex_Rank_t k = 1; k < n; k++) {
            gex_Rank_t j = (me + k) % n;
            if (sends_to(x, me, j))
                gasnete_coll_send_all(op, TAG_DATA, j, x->src + src_off(x, j), x->nb);
        }
        if (x->kind != GATHER || me == x->root) {
            if (x->kind != SCATTER || me == x->root) { /* my own block */
                char *to = x->dst + dst_off(x, me);
                char *from = x->src + src_off(x, me);
                if (to != from) memcpy(to, from, x->nb);
            }
        }
        x->left = 0;
        for (gex_Rank_t i = 0; i < n; i++) x->left += (gex_Rank_t)receives_from(x, me, i);
    }
    size_t total = gasnete_coll_pieces(x->nb), off;
    for (gex_Rank_t k = 1; k < n && x->left; k++) {
        gex_Rank_t i = (me + n - k) % n;
        if (!receives_from(x, me, i) || x->pieces[i] == total) continue;
        char *to = x->dst + dst_off(x, i);
        while (x->pieces[i] < total &&
               gasnete_coll_take_piece(op, TAG_DATA, i, to, x->nb, &off) >= 0)
            x->pieces[i]++;
        if (x->pieces[i] == total) x->left--;
    }
    return x->left == 0;
}

static int legacy_progress(gasnete_coll_op_t *op)
{
    legacy_t *x = op->state;
    switch (x->phase) {
    case 0:
        if ((x->flags & GASNET_COLL_IN_ALLSYNC) && !gasnete_coll_barrier_step(op, TAG_IN, &x->bstep))
            return 0;
        x->phase = 1;
        x->bstep = 0;
        /* fall through */
    case 1:
        if (x->kind == BROADCAST ? !gasnete_coll_bcast_step(op, &x->b, TAG_DATA) : !blocks_step(op, x))
            return 0;
        x->phase = 2;
        /* fall through */
    default:
        return !(x->flags & GASNET_COLL_OUT_ALLSYNC) || gasnete_coll_barrier_step(op, TAG_OUT, &x->bstep);
    }
}

/* IN_ALLSYNC on the shared-memory path: a member posts its src in its
 * slot as it enters there, so the barrier comes first (op->shm_first). */
static int in_barrier_first(gasnete_coll_op_t *op, uint64_t n)
{
    legacy_t *x = op->state;
    (void)n;
    if (!gasnete_coll_barrier_step(op, TAG_IN, &x->bstep)) return 0;
    x->bstep = 0;
    return 1;
}

/* A broadcast on the shared-memory path. */
static int legacy_bcast_shm(gasnete_coll_op_t *op, uint64_t n)
{
    legacy_t *x = op->state;
    switch (x->phase) {
    case 0:
        if (!gasnete_coll_bcast_shm(op, n, &x->b)) return 0;
        x->phase = 1;
        /* fall through */
    default:
        return !(x->flags & GASNET_COLL_OUT_ALLSYNC) || gasnete_coll_barrier_step(op, TAG_OUT, &x->bstep);
    }
}

/* Scatter, gather, gather_all and exchange on the shared-memory path,
 * where each member's posted src fits its slot: this member copies the
 * blocks it receives from the slots (its own too), member by member. */
static int legacy_blocks_shm(gasnete_coll_op_t *op, uint64_t n)
{
    legacy_t *x = op->state;
    gex_Rank_t size = op->tm->size, me = op->tm->rank;
    size_t posted = src_bytes(x, size);
    int receives = x->kind != GATHER || me == x->root;
    switch (x->phase) {
    case 0:
        for (; receives && x->next < size; x->next++) {
            gex_Rank_t i = x->next;
            if (x->kind == SCATTER && i != x->root) continue;
            if (!gasnete_coll_shm_entered(op, i, n)) return 0;
            const char *from = gasnete_coll_shm_data(op, i, n, posted);
            memcpy(x->dst + dst_off(x, i), from + src_off(x, me), x->nb);
        }
        x->phase = 1;
        /* fall through */
    default:
        return !(x->flags & GASNET_COLL_OUT_ALLSYNC) || gasnete_coll_barrier_step(op, TAG_OUT, &x->bstep);
    }
}

/* Sets op up for legacy_blocks_shm if what each member posts fits a
 * slot (used where the team has the path); returns whether it did. */
static int legacy_blocks_shm_prepare(gasnete_coll_op_t *op, const legacy_t *x)
{
    size_t posted = src_bytes(x, op->tm->size);
    if (posted > GASNETE_COLL_SHM_SLOT) return 0;
    if (x->kind != SCATTER || op->tm->rank == x->root) {
        op->shm_data = x->src;
        op->shm_len = posted;
    }
    return 1;
}

static void check_flags(const char *call, int flags)
{
    const int known = GASNET_COLL_SYNC_FLAG_MASK | GASNET_COLL_LOCAL |
                      GASNET_COLL_FIXED_THREADS_PER_NODE | GASNET_COLL_DST_IN_SEGMENT |
                      GASNET_COLL_SRC_IN_SEGMENT | GASNET_COLL_DISABLE_AUTOTUNE |
                      GASNET_COLL_NO_IMAGES;
    int in = flags & (GASNET_COLL_IN_NOSYNC | GASNET_COLL_IN_MYSYNC | GASNET_COLL_IN_ALLSYNC);
    int out = flags & (GASNET_COLL_OUT_NOSYNC | GASNET_COLL_OUT_MYSYNC | GASNET_COLL_OUT_ALLSYNC);
    if (flags & ~known)
        gasneti_fatalerror("%s: flags 0x%x: bits 0x%x are not GASNET_COLL_* flags of this call", call,
                           (unsigned)flags, (unsigned)(flags & ~known));
    if (!in || (in & (in - 1)))
        gasneti_fatalerror("%s: flags 0x%x need exactly one of GASNET_COLL_IN_{NOSYNC,MYSYNC,ALLSYNC}",
                           call, (unsigned)flags);
    if (!out || (out & (out - 1)))
        gasneti_fatalerror("%s: flags 0x%x need exactly one of GASNET_COLL_OUT_{NOSYNC,MYSYNC,ALLSYNC}",
                           call, (unsigned)flags);
    if (!(flags & GASNET_COLL_LOCAL))
        gasneti_fatalerror("%s: flags 0x%x lack GASNET_COLL_LOCAL (the only addressing mode)", call,
                           (unsigned)flags);
}

static void check_buffer(const char *call, const char *what, const void *p, size_t n, int in_seg)
{
    if (!p) gasneti_fatalerror("%s: %s is NULL", call, what);
    gex_EP_Location_t me = {gasneti_mynode, 0};
    if (in_seg && !gasneti_in_seginfo(gasneti_peer_segment(me), p, n))
        gasneti_fatalerror("%s: %s [%p, +%zu) is not in the segment, but the flags say "
                           "GASNET_COLL_%s_IN_SEGMENT", call, what, p, n, what[0] == 'd' ? "DST" : "SRC");
}

static gex_Event_t legacy_nb(int kind, gasnet_team_handle_t team, gasnet_image_t root, void *dst,
                             void *src, size_t nbytes, int flags)
{
    const char *call = names[kind];
    if (!team || team != gasnete_coll_team_all)
        gasneti_fatalerror("%s: team %p is not GASNET_TEAM_ALL (the only legacy team)", call,
                           (void *)team);
    gasneti_tm_t tm = gasnete_coll_team(team->tm, 0, call);
    gex_Rank_t n = tm->size, me = tm->rank;
    check_flags(call, flags);
    if (nbytes == 0) gasneti_fatalerror("%s: nbytes is 0 (a block has at least one byte)", call);
    if (nbytes > SIZE_MAX / n) gasneti_fatalerror("%s: %u blocks of %zu bytes overflow", call, n, nbytes);
    if (kind <= GATHER && root >= n)
        gasneti_fatalerror("%s: image %u is not a rank of the team (size %u)", call, (unsigned)root, n);
    size_t all = nbytes * n;
    int rooted = kind <= GATHER, is_root = rooted && me == root;
    /* which buffers this rank uses, and their sizes */
    size_t dsz = kind == BROADCAST || kind == SCATTER ? nbytes : all;
    size_t ssz = kind == SCATTER || kind == EXCHANGE ? all : nbytes;
    int uses_dst = kind != GATHER || is_root, uses_src = kind > SCATTER || is_root;
    if (uses_dst) check_buffer(call, "dst", dst, dsz, flags & GASNET_COLL_DST_IN_SEGMENT);
    if (uses_src) check_buffer(call, "src", src, ssz, flags & GASNET_COLL_SRC_IN_SEGMENT);

    legacy_t *x = calloc(1, sizeof *x + n * sizeof x->pieces[0]);
    if (!x) gasneti_fatalerror("%s: out of memory", call);
    x->kind = kind;
    x->flags = flags;
    x->root = rooted ? root : 0;
    x->dst = dst;
    x->src = src;
    x->nb = nbytes;
    if (kind == BROADCAST) x->b = (gasnete_coll_bcast_t){root, dst, src, nbytes, 0, 0, {0, 0, NULL}, 0};
    gasnete_coll_op_t *op = gasnete_coll_op_new(tm, legacy_progress, x, call);
    gasnete_coll_sign(op, x->root);
    gasnete_coll_sign(op, nbytes);
    int one_host = !gasnete_coll_shm_hosts(tm); /* else the AM algorithms */
    if (one_host && kind == BROADCAST && gasnete_coll_bcast_shm_prepare(op, &x->b))
        op->shm_run = legacy_bcast_shm;
    if (one_host && kind != BROADCAST && legacy_blocks_shm_prepare(op, x))
        op->shm_run = legacy_blocks_shm;
    if (op->shm_run && (flags & GASNET_COLL_IN_ALLSYNC)) op->shm_first = in_barrier_first;
    return gasnete_coll_start_nb(op);
}

gex_Event_t gasnet_coll_broadcast_nb(gasnet_team_handle_t team, void *dst, gasnet_image_t srcimage,
                                     void *src, size_t nbytes, int flags)
{
    return legacy_nb(BROADCAST, team, srcimage, dst, src, nbytes, flags);
}
gex_Event_t gasnet_coll_scatter_nb(gasnet_team_handle_t team, void *dst, gasnet_image_t srcimage,
                                   void *src, size_t nbytes, int flags)
{
    return legacy_nb(SCATTER, team, srcimage, dst, src, nbytes, flags);
}
gex_Event_t gasnet_coll_gather_nb(gasnet_team_handle_t team, gasnet_image_t dstimage, void *dst,
                                  void *src, size_t nbytes, int flags)
{
    return legacy_nb(GATHER, team, dstimage, dst, src, nbytes, flags);
}
gex_Event_t gasnet_coll_gather_all_nb(gasnet_team_handle_t team, void *dst, void *src,
                                      size_t nbytes, int flags)
{
    return legacy_nb(GATHER_ALL, team, 0, dst, src, nbytes, flags);
}
gex_Event_t gasnet_coll_exchange_nb(gasnet_team_handle_t team, void *dst, void *src, size_t nbytes,
                                    int flags)
{
    return legacy_nb(EXCHANGE, team, 0, dst, src, nbytes, flags);
}

void gasnet_coll_broadcast(gasnet_team_handle_t team, void *dst, gasnet_image_t srcimage, void *src,
                           size_t nbytes, int flags)
{
    gex_Event_Wait(legacy_nb(BROADCAST, team, srcimage, dst, src, nbytes, flags));
}
void gasnet_coll_scatter(gasnet_team_handle_t team, void *dst, gasnet_image_t srcimage, void *src,
                         size_t nbytes, int flags)
{
    gex_Event_Wait(legacy_nb(SCATTER, team, srcimage, dst, src, nbytes, flags));
}
void gasnet_coll_gather(gasnet_team_handle_t team, gasnet_image_t dstimage, void *dst, void *src,
                        size_t nbytes, int flags)
{
    gex_Event_Wait(legacy_nb(GATHER, team, dstimage, dst, src, nbytes, flags));
}
void gasnet_coll_gather_all(gasnet_team_handle_t team, void *dst, void *src, size_t nbytes,
                            int flags)
{
    gex_Event_Wait(legacy_nb(GATHER_ALL, team, 0, dst, src, nbytes, flags));
}
void gasnet_coll_exchange(gasnet_team_handle_t team, void *dst, void *src, size_t nbytes, int flags)
{
    gex_Event_Wait(legacy_nb(EXCHANGE, team, 0, dst, src, nbytes, flags));
}

/* ---- team barriers: GASNET_TEAM_ALL is the job, so the GASNet-1 barrier */

static void check_team(gasnet_team_handle_t team, const char *call)
{
    if (!team || team != gasnete_coll_team_all)
        gasneti_fatalerror("%s: team %p is not GASNET_TEAM_ALL (the only legacy team)", call,
                           (void *)team);
}
void gasnet_coll_barrier_notify(gasnet_team_handle_t team, int id, int flags)
{
    check_team(team, "gasnet_coll_barrier_notify");
    gasnet_barrier_notify(id, flags);
}
int gasnet_coll_barrier_wait(gasnet_team_handle_t team, int id, int flags)
{
    check_team(team, "gasnet_coll_barrier_wait");
    return gasnet_barrier_wait(id, flags);
}
int gasnet_coll_barrier_try(gasnet_team_handle_t team, int id, int flags)
{
    check_team(team, "gasnet_coll_barrier_try");
    return gasnet_barrier_try(id, flags);
}
int gasnet_coll_barrier(gasnet_team_handle_t team, int id, int flags)
{
    check_team(team, "gasnet_coll_barrier");
    return gasnet_barrier(id, flags);
}
int gasnet_coll_barrier_result(gasnet_team_handle_t team, int *id)
{
    check_team(team, "gasnet_coll_barrier_result");
    return gasnet_barrier_result(id);
}

/* ---- tuning and profiling hooks (gasnet_coll.h): nothing to tune, see
 * there. The state file is a short text file: its first line marks it as
 * ours, the rest says why it holds no parameters. */

#define TUNING_MAGIC "# GASNet-EX over MPI: collective tuning state, version 1"
#define PROFILE_MAGIC "# GASNet-EX over MPI: collective profile, version 1"

static void check_optype(gasnet_coll_optype_t optype, const char *call)
{
    if ((int)optype < 0 || optype >= GASNET_COLL_NUM_COLL_OPTYPES)
        gasneti_fatalerror("%s: optype %d is not a gasnet_coll_optype_t (0..%d)", call, (int)optype,
                           GASNET_COLL_NUM_COLL_OPTYPES - 1);
}

/* Broadcast has one tree (binomial); the others use none. */
int gasnet_coll_get_num_tree_classes(gasnet_team_handle_t team, gasnet_coll_optype_t optype)
{
    check_team(team, "gasnet_coll_get_num_tree_classes");
    check_optype(optype, "gasnet_coll_get_num_tree_classes");
    return optype == GASNET_COLL_BROADCAST_OP ? 1 : 0;
}

void gasnet_coll_set_tree_kind(gasnet_team_handle_t team, int tree_type, int fanout,
                               gasnet_coll_optype_t optype)
{
    const char *call = "gasnet_coll_set_tree_kind";
    check_team(team, call);
    check_optype(optype, call);
    if (tree_type < 0 || fanout < 1)
        gasneti_fatalerror("%s: tree_type %d and fanout %d (a class index and a fanout of at least 1)",
                           call, tree_type, fanout);
    /* the tree is fixed: nothing changes */
}

void gasnet_coll_set_dissem_limit(gasnet_team_handle_t team, size_t dissemlimit,
                                  gasnet_coll_optype_t optype)
{
    check_team(team, "gasnet_coll_set_dissem_limit");
    check_optype(optype, "gasnet_coll_set_dissem_limit");
    (void)dissemlimit; /* no algorithm switches on a size here */
}

/* Rank 0 of team writes lines to filename (or dflt). */
static void write_note(const char *filename, const char *dflt, gasnet_team_handle_t team,
                       const char *const *lines, const char *call)
{
    check_team(team, call);
    if (team->tm->rank != 0) return;
    const char *name = filename ? filename : dflt;
    FILE *f = fopen(name, "w");
    if (!f) gasneti_fatalerror("%s: cannot write %s: %s", call, name, strerror(errno));
    for (; *lines; lines++) fprintf(f, "%s\n", *lines);
    if (fclose(f) != 0) gasneti_fatalerror("%s: cannot write %s: %s", call, name, strerror(errno));
}

void gasnete_coll_dumpTuningState(char *filename, gasnet_team_handle_t team)
{
    static const char *const lines[] = {
        TUNING_MAGIC,
        "# No tunable parameters: the collectives use fixed algorithms (a binomial tree for",
        "# broadcast, direct sends for scatter, gather, gather_all and exchange).",
        NULL};
    write_note(filename, "gasnet_coll_tuning_defaults.bin", team, lines, "gasnet_coll_dumpTuningState");
}

/* Every caller reads the file: one this library wrote is accepted (it
 * sets nothing); another (say, the reference's) is ignored with a note,
 * as there is nothing here it could set. A missing file is an error. */
void gasnete_coll_loadTuningState(char *filename, gasnet_team_handle_t team)
{
    const char *call = "gasnet_coll_loadTuningState";
    check_team(team, call);
    const char *name = filename ? filename : "gasnet_coll_tuning_defaults.bin";
    FILE *f = fopen(name, "r");
    if (!f) gasneti_fatalerror("%s: cannot read %s: %s", call, name, strerror(errno));
    char first[128] = "";
    int ours = fgets(first, sizeof first, f) && !strncmp(first, TUNING_MAGIC, strlen(TUNING_MAGIC));
    fclose(f);
    if (!ours && team->tm->rank == 0)
        fprintf(stderr, "GASNet %s on node %u: %s is not a tuning state this library wrote; "
                "ignored (there is nothing to tune)\n", call, gasneti_mynode, name);
}

void gasnete_coll_dumpProfile(char *filename, gasnet_team_handle_t team)
{
    static const char *const lines[] = {
        PROFILE_MAGIC, "# No profile: this library does not record collective calls.", NULL};
    write_note(filename, "gasnet_coll_profile.bin", team, lines, "gasnet_coll_dumpProfile");
}
