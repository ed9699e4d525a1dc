/* Broadcast and reductions on any team (EX §12.3-12.4, §13).
 *
 * BROADCAST. A binomial tree over ranks relative to the root: relative
 * rank v receives from v - lowbit(v) and sends to v + m for every power
 * of two m < lowbit(v) (the root: every m < N), the largest subtree
 * first. A payload travels as pieces (coll.h) and a rank forwards each
 * piece as soon as it lands in its dst, so long payloads pipeline down
 * the tree. The root is done once it has sent; the others once every
 * piece has arrived.
 *
 * REDUCTION. A binomial tree over the team's own ranks towards rank 0:
 * rank r combines its input with its children r + m (m = 1, 2, 4, ...
 * below lowbit(r)) in increasing order, each child's subtree holding the
 * ranks just above the ranks combined so far, so the result is
 * src_0 (+) src_1 (+) ... (+) src_{N-1} in rank order, which
 * GEX_OP_USER_NC needs. Rank 0 then sends the result to the root
 * (ToOne), or broadcasts it from rank 0 (ToAll). Each rank keeps two
 * private buffers of the vector's size while the operation runs.
 *
 * Payloads up to a slot of the shared-memory path (shm.c) take it where
 * the team has it: bcast_shm and reduce_shm; larger ones its stages where
 * the team has those (gasnete_coll_bcast_shm, reduce_staged: chunks pipelined
 * through each member's ring, shm.c). On a team over several hosts, the
 * trees above run among one member per host, before it enters
 * (bcast_first, reduce_first), and the path within each host.
 */
#include "coll.h"

#include <gasnet_coll.h>
#include <stdlib.h>
#include <string.h>

static gex_Rank_t lowbit(gex_Rank_t v) { return v & (~v + 1); }

/* The smallest power of two >= n. */
static gex_Rank_t pow2_above(gex_Rank_t n)
{
    gex_Rank_t m = 1;
    while (m < n) m <<= 1;
    return m;
}

int gasnete_coll_bcast_step(gasnete_coll_op_t *op, gasnete_coll_bcast_t *b, int tag)
{
    gasnete_coll_group_t g = gasnete_coll_group(op->tm, &b->g);
    gex_Rank_t n = g.n, root = g.rank ? b->root_at : b->root;
    gex_Rank_t v = (g.me + n - root) % n, top = v ? lowbit(v) : pow2_above(n);
    if (b->nbytes == 0) return 1;
    if (v == 0) {
        if (b->dst && b->dst != b->src) memcpy(b->dst, b->src, b->nbytes);
        for (gex_Rank_t m = top / 2; m >= 1; m /= 2)
            if (v + m < n)
                gasnete_coll_send_all(op, tag, gasnete_coll_at(&g, (v + m + root) % n), b->src,
                                      b->nbytes);
        return 1;
    }
    gex_Rank_t parent = gasnete_coll_at(&g, (v - lowbit(v) + root) % n);
    size_t total = gasnete_coll_pieces(b->nbytes), off;
    long len;
    while (b->pieces < total &&
           (len = gasnete_coll_take_piece(op, tag, parent, b->dst, b->nbytes, &off)) >= 0) {
        for (gex_Rank_t m = top / 2; m >= 1; m /= 2)
            if (v + m < n)
                gasnete_coll_send_piece(op, tag, gasnete_coll_at(&g, (v + m + root) % n),
                                        (char *)b->dst + off, (size_t)len, off);
        b->pieces++;
    }
    return b->pieces == total;
}

static int bcast_progress(gasnete_coll_op_t *op)
{
    return gasnete_coll_bcast_step(op, op->state, 0);
}

/* This host's source of b: the root, or between hosts b->g's member on
 * this host; and where the payload is there: a root's src, and once its
 * part between hosts (bcast_first) has run, its dst, which that filled in. */
static gex_Rank_t source(const gasnete_coll_bcast_t *b) { return b->g.n ? b->g.rank[b->g.me] : b->root; }
static const void *source_data(const gasnete_coll_op_t *op, const gasnete_coll_bcast_t *b)
{
    return op->tm->rank == b->root ? b->src : b->dst;
}
static const void *filled_source_data(const gasnete_coll_op_t *op, const gasnete_coll_bcast_t *b)
{
    return b->g.n ? b->dst : source_data(op, b);
}

/* On the shared-memory path (shm.c): up to a slot, the host's source
 * posted the payload with its entry; above, it goes through the stages. */
int gasnete_coll_bcast_shm(gasnete_coll_op_t *op, uint64_t n, gasnete_coll_bcast_t *b)
{
    gex_Rank_t from = source(b);
    if (b->nbytes > GASNETE_COLL_SHM_SLOT)
        return gasnete_coll_shm_bcast_staged(op, n, from, b->dst, filled_source_data(op, b), b->nbytes);
    if (op->tm->rank == from) {
        const void *src = filled_source_data(op, b);
        if (b->nbytes && b->dst != src) memcpy(b->dst, src, b->nbytes);
        return 1;
    }
    if (!gasnete_coll_shm_entered(op, from, n)) return 0;
    if (b->nbytes) memcpy(b->dst, gasnete_coll_shm_data(op, from, n, b->nbytes), b->nbytes);
    return 1;
}

int gasnete_coll_bcast_shm_prepare(gasnete_coll_op_t *op, const gasnete_coll_bcast_t *b)
{
    int from_here = op->tm->rank == source(b);
    if (b->nbytes > GASNETE_COLL_SHM_SLOT) {
        if (!gasnete_coll_shm_staged(op->tm)) return 0;
        op->shm_staged = 1;
        if (from_here) {
            gasnete_coll_shm_bcast_post(op, source_data(op, b), b->nbytes);
            gasnete_coll_shm_stage_first(op, source_data(op, b), b->nbytes, 1);
        }
    } else if (from_here) {
        op->shm_data = source_data(op, b);
        op->shm_len = b->nbytes;
    }
    return 1;
}

static int bcast_shm(gasnete_coll_op_t *op, uint64_t n)
{
    return gasnete_coll_bcast_shm(op, n, op->state);
}

/* Between hosts: the root and each other host's leader, before they enter,
 * take part in a broadcast over AMs among the hosts' sources. */
static int bcast_first(gasnete_coll_op_t *op, uint64_t n)
{
    (void)n;
    return gasnete_coll_bcast_step(op, op->state, 0);
}

/* Sets b up to run between the hosts h (sources[] has room for one rank
 * per host), if the path can take it. */
static int bcast_hosts_prepare(gasnete_coll_op_t *op, gasnete_coll_bcast_t *b,
                               const gasnete_coll_hosts_t *h, gex_Rank_t *sources)
{
    if (b->nbytes > GASNETE_COLL_SHM_SLOT && !gasnete_coll_shm_staged(op->tm)) return 0;
    memcpy(sources, h->leaders.rank, h->n * sizeof *sources);
    sources[h->of[b->root]] = b->root;
    b->g = (gasnete_coll_group_t){h->n, h->leaders.me, sources};
    b->root_at = h->of[b->root];
    if (op->tm->rank == sources[h->leaders.me]) op->shm_first = bcast_first;
    return gasnete_coll_bcast_shm_prepare(op, b);
}

gex_Event_t gex_Coll_BroadcastNB(gex_TM_t tm, gex_Rank_t root, void *dst, const void *src,
                                 size_t nbytes, gex_Flags_t flags)
{
    const char *call = "gex_Coll_BroadcastNB";
    gasneti_tm_t t = gasnete_coll_team(tm, flags, call);
    if (root >= t->size)
        gasneti_fatalerror("%s: root %u is not a rank of the team (size %u)", call, root, t->size);
    if (nbytes && !dst) gasneti_fatalerror("%s: dst is NULL for %zu bytes", call, nbytes);
    if (nbytes && t->rank == root && !src)
        gasneti_fatalerror("%s: src is NULL on the root for %zu bytes", call, nbytes);
    const gasnete_coll_hosts_t *h = gasnete_coll_shm_hosts(t);
    /* not calloc: see gasnete_coll_op_new; between hosts, the sources follow */
    gasnete_coll_bcast_t *b = malloc(sizeof *b + (h ? h->n * sizeof(gex_Rank_t) : 0));
    if (!b) gasneti_fatalerror("%s: out of memory", call);
    *b = (gasnete_coll_bcast_t){root, dst, src, nbytes, 0, 0, {0, 0, NULL}, 0};
    gasnete_coll_op_t *op = gasnete_coll_op_new(t, bcast_progress, b, call);
    gasnete_coll_sign(op, root);
    gasnete_coll_sign(op, nbytes);
    if (h ? bcast_hosts_prepare(op, b, h, (gex_Rank_t *)(b + 1)) : gasnete_coll_bcast_shm_prepare(op, b))
        op->shm_run = bcast_shm;
    return gasnete_coll_start_nb(op);
}

/* ---- reductions */

/* OUT[i] = x[i] OP y[i], in the unsigned type U for integers (wrapping,
 * never undefined), where OUT is y (combine) or z (combine_to). The
 * operation is chosen outside the loops, so each loop is one the compiler
 * vectorises (x, y and z never overlap; YQUAL is const where y is only
 * read). */
#define EACH(EXPR)                                                                     \
    for (size_t i = 0; i < cnt; i++) OUT[i] = (EXPR)
#define COMBINE(T, U, INTEGER, YQUAL)                                                  \
    do {                                                                               \
        const T *restrict x = xv;                                                      \
        YQUAL T *restrict y = yv;                                                      \
        T *restrict z = zv;                                                            \
        (void)z;                                                                       \
        switch (op) {                                                                  \
        case GEX_OP_ADD: EACH((T)((U)x[i] + (U)y[i])); break;                          \
        case GEX_OP_MULT: EACH((T)((U)x[i] * (U)y[i])); break;                         \
        case GEX_OP_MIN: EACH(x[i] < y[i] ? x[i] : y[i]); break;                       \
        case GEX_OP_MAX: EACH(x[i] > y[i] ? x[i] : y[i]); break;                       \
        default: INTEGER;                                                              \
        }                                                                              \
    } while (0)
#define BITWISE                                                                        \
    if (op == GEX_OP_AND) EACH(x[i] & y[i]);                                           \
    else if (op == GEX_OP_OR) EACH(x[i] | y[i]);                                       \
    else EACH(x[i] ^ y[i])
#define NO_BITWISE (void)0

#define COMBINE_DT(YQUAL)                                                              \
    switch (dt) {                                                                      \
    case GEX_DT_I32: COMBINE(int32_t, uint32_t, BITWISE, YQUAL); break;                \
    case GEX_DT_U32: COMBINE(uint32_t, uint32_t, BITWISE, YQUAL); break;               \
    case GEX_DT_I64: COMBINE(int64_t, uint64_t, BITWISE, YQUAL); break;                \
    case GEX_DT_U64: COMBINE(uint64_t, uint64_t, BITWISE, YQUAL); break;               \
    case GEX_DT_FLT: COMBINE(float, float, NO_BITWISE, YQUAL); break;                  \
    case GEX_DT_DBL: COMBINE(double, double, NO_BITWISE, YQUAL); break;                \
    }

#define OUT y
static void combine(gex_DT_t dt, gex_OP_t op, const void *xv, void *yv, size_t cnt)
{
    void *zv = NULL;
    COMBINE_DT()
}
#undef OUT
#define OUT z
static void combine_to(gex_DT_t dt, gex_OP_t op, const void *xv, const void *yv, void *zv, size_t cnt)
{
    COMBINE_DT(const)
}
#undef OUT

typedef struct {
    gex_Rank_t root; /* an index in g */
    int all;
    void *out; /* the client's dst where this member wants the result, else NULL */
    gasnete_coll_group_t g; /* the tree's members (zero: the whole team) */
    void *dst;
    const void *src;
    gex_DT_t dt;
    size_t cnt, nbytes;
    gex_OP_t op;
    gex_Coll_ReduceFn_t fn;
    void *cdata;
    char *acc, *tmp; /* what is combined so far; a child's part */
    int phase;
    gex_Rank_t m;  /* the child being taken: rank + m */
    size_t pieces; /* of it, taken so far */
    gasnete_coll_bcast_t b;
} reduce_t;

enum { T_UP, T_TO_ROOT, T_DOWN }; /* tags */

static int reduce_done(reduce_t *x)
{
    free(x->acc);
    free(x->tmp);
    x->acc = x->tmp = NULL;
    return 1;
}

/* Takes the pieces of (tag, from) into buf: 1 once all arrived. */
static int take_all(gasnete_coll_op_t *op, reduce_t *x, int tag, gex_Rank_t from, void *buf)
{
    size_t total = gasnete_coll_pieces(x->nbytes), off;
    while (x->pieces < total &&
           gasnete_coll_take_piece(op, tag, from, buf, x->nbytes, &off) >= 0)
        x->pieces++;
    if (x->pieces < total) return 0;
    x->pieces = 0;
    return 1;
}

static int reduce_progress(gasnete_coll_op_t *op)
{
    reduce_t *x = op->state;
    gasnete_coll_group_t g = gasnete_coll_group(op->tm, &x->g);
    gex_Rank_t r = g.me, n = g.n;
    switch (x->phase) {
    case 0:
        x->acc = malloc(x->nbytes);
        x->tmp = malloc(x->nbytes);
        if (!x->acc || !x->tmp)
            gasneti_fatalerror("collectives: out of memory for a %zu-byte reduction", x->nbytes);
        memcpy(x->acc, x->src, x->nbytes);
        x->m = 1;
        x->phase = 1;
        /* fall through */
    case 1: {
        gex_Rank_t top = r ? lowbit(r) : pow2_above(n);
        for (; x->m < top && r + x->m < n; x->m *= 2) {
            if (!take_all(op, x, T_UP, gasnete_coll_at(&g, r + x->m), x->tmp)) return 0;
            if (x->fn) x->fn(x->acc, x->tmp, x->cnt, x->cdata);
            else combine(x->dt, x->op, x->acc, x->tmp, x->cnt);
            char *t = x->acc; /* tmp = acc (+) child: the new acc */
            x->acc = x->tmp;
            x->tmp = t;
        }
        if (r != 0) {
            gasnete_coll_send_all(op, T_UP, gasnete_coll_at(&g, r - lowbit(r)), x->acc, x->nbytes);
            if (!x->all && r != x->root) return reduce_done(x);
            x->phase = x->all ? 3 : 2;
            if (x->all)
                x->b = (gasnete_coll_bcast_t){gasnete_coll_at(&g, 0), x->dst, NULL, x->nbytes, 0, 0, x->g, 0};
        } else if (!x->all) {
            if (x->root == 0) memcpy(x->dst, x->acc, x->nbytes);
            else gasnete_coll_send_all(op, T_TO_ROOT, gasnete_coll_at(&g, x->root), x->acc, x->nbytes);
            return reduce_done(x);
        } else {
            x->b = (gasnete_coll_bcast_t){gasnete_coll_at(&g, 0), x->dst, x->acc, x->nbytes, 0, 0, x->g, 0};
            x->phase = 3;
        }
        return x->phase == 3 ? gasnete_coll_bcast_step(op, &x->b, T_DOWN) && reduce_done(x) : 0;
    }
    case 2: /* the root of ToOne, not rank 0 */
        return take_all(op, x, T_TO_ROOT, gasnete_coll_at(&g, 0), x->dst) && reduce_done(x);
    default:
        return gasnete_coll_bcast_step(op, &x->b, T_DOWN) && reduce_done(x);
    }
}

/* out = a (+) b; out is b, or overlaps neither (a built-in operation then
 * writes out directly, where a client's function is given a copy of b) */
static void fold(void *cx, const void *a, const void *b, void *out, size_t cnt)
{
    reduce_t *x = cx;
    if (x->fn) {
        if (out != b) memcpy(out, b, x->nbytes / x->cnt * cnt);
        x->fn(a, out, cnt, x->cdata);
    } else if (out == b) {
        combine(x->dt, x->op, a, out, cnt);
    } else {
        combine_to(x->dt, x->op, a, b, out, cnt);
    }
}

/* acc = what ranks from..to-1 posted with collective n, combined in rank
 * order and folded from the right (x_r (+) acc for r descending, which the
 * spec's association rule allows): the posted slots are read in place. */
static void fold_posted(gasnete_coll_op_t *op, uint64_t n, void *acc, gex_Rank_t from, gex_Rank_t to)
{
    reduce_t *x = op->state;
    const void *last = gasnete_coll_shm_data(op, to - 1, n, x->nbytes);
    if (to - from == 1) {
        memcpy(acc, last, x->nbytes);
        return;
    }
    fold(x, gasnete_coll_shm_data(op, to - 2, n, x->nbytes), last, acc, x->cnt);
    for (gex_Rank_t r = to - 2; r-- > from;)
        fold(x, gasnete_coll_shm_data(op, r, n, x->nbytes), acc, acc, x->cnt); /* acc = x_r (+) acc */
}

/* On the shared-memory path (shm.c): every member posted its
 * contribution; the root (ToOne) or everyone (ToAll) combines them in rank
 * order, into dst. */
static int reduce_shm(gasnete_coll_op_t *op, uint64_t n)
{
    reduce_t *x = op->state;
    gasneti_tm_t tm = op->tm;
    if (!x->all && tm->rank != x->root) return 1;
    for (gex_Rank_t r = 0; r < tm->size; r++)
        if (!gasnete_coll_shm_entered(op, r, n)) return 0;
    fold_posted(op, n, x->dst, 0, tm->size);
    return 1;
}

/* BETWEEN HOSTS, where each host's members hold consecutive ranks (so that
 * combining per host keeps rank order) and the vector fits a slot: every
 * member posts its contribution; each host's leader, before it enters,
 * combines its host's in rank order, takes part in the reduction above
 * among the leaders (its tree's ranks are hosts) and then enters with the
 * result (ToAll, or ToOne on the root's host), which the others of its
 * host, and the leader itself, copy out. */
static int reduce_first(gasnete_coll_op_t *op, uint64_t n)
{
    reduce_t *x = op->state;
    if (!op->shm_tmp) {
        if (!gasnete_coll_shm_host_entered(op, n, op->tm->rank)) return 0;
        const gasnete_coll_hosts_t *h = gasnete_coll_shm_hosts(op->tm);
        char *part = op->shm_tmp = malloc(2 * x->nbytes), *result = part + x->nbytes;
        if (!part) gasneti_fatalerror("%s: out of memory", op->call);
        gex_Rank_t end = op->tm->rank + 1; /* past this host's ranks */
        while (end < op->tm->size && h->of[end] == h->leaders.me) end++;
        if (end == op->tm->rank + 1) {
            memcpy(part, x->src, x->nbytes);
        } else { /* its own is not posted: the leader enters with the result */
            fold_posted(op, n, part, op->tm->rank + 1, end);
            fold(x, x->src, part, part, x->cnt);
        }
        x->src = part;
        x->dst = result;
        x->root = h->of[x->root];
        x->g = h->leaders;
        op->shm_data = result;
        op->shm_len = x->all || x->root == h->leaders.me ? x->nbytes : 0;
    }
    return reduce_progress(op);
}

static int reduce_hosts(gasnete_coll_op_t *op, uint64_t n)
{
    reduce_t *x = op->state;
    if (!x->out) return 1;
    const gasnete_coll_group_t *l = &gasnete_coll_shm_hosts(op->tm)->leaders;
    gex_Rank_t leader = l->rank[l->me];
    if (!gasnete_coll_shm_entered(op, leader, n)) return 0;
    memcpy(x->out, gasnete_coll_shm_data(op, leader, n, x->nbytes), x->nbytes);
    return 1;
}

/* Above a slot, through the stages (shm.c). */
static int reduce_staged(gasnete_coll_op_t *op, uint64_t n)
{
    reduce_t *x = op->state;
    return gasnete_coll_shm_reduce_staged(op, n, x->all || op->tm->rank == x->root, x->dst, x->src,
                                          x->nbytes, x->nbytes / x->cnt, fold, x);
}

static size_t builtin_size(gex_DT_t dt)
{
    switch (dt) {
    case GEX_DT_I32: case GEX_DT_U32: case GEX_DT_FLT: return 4;
    case GEX_DT_I64: case GEX_DT_U64: case GEX_DT_DBL: return 8;
    default: return 0;
    }
}

static gex_Event_t reduce_nb(const char *call, gex_TM_t tm, int all, gex_Rank_t root, void *dst,
                             const void *src, gex_DT_t dt, size_t dt_sz, size_t dt_cnt,
                             gex_OP_t op, gex_Coll_ReduceFn_t user_op, void *user_cdata,
                             gex_Flags_t flags)
{
    gasneti_tm_t t = gasnete_coll_team(tm, flags, call);
    if (root >= t->size)
        gasneti_fatalerror("%s: root %u is not a rank of the team (size %u)", call, root, t->size);
    size_t bsz = builtin_size(dt);
    if (!bsz && dt != GEX_DT_USER)
        gasneti_fatalerror("%s: data type 0x%x is not a GEX_DT_* code", call, (unsigned)dt);
    int user = op == GEX_OP_USER || op == GEX_OP_USER_NC;
    int integer = dt == GEX_DT_I32 || dt == GEX_DT_U32 || dt == GEX_DT_I64 || dt == GEX_DT_U64;
    if (!user && op != GEX_OP_ADD && op != GEX_OP_MULT && op != GEX_OP_MIN && op != GEX_OP_MAX &&
        !(integer && (op == GEX_OP_AND || op == GEX_OP_OR || op == GEX_OP_XOR)))
        gasneti_fatalerror("%s: operation 0x%x is not a reduction of data type 0x%x (reductions: "
                           "ADD, MULT, MIN, MAX, AND/OR/XOR on integers, USER, USER_NC)", call,
                           (unsigned)op, (unsigned)dt);
    if (dt == GEX_DT_USER && !user)
        gasneti_fatalerror("%s: GEX_DT_USER needs GEX_OP_USER or GEX_OP_USER_NC (got 0x%x)", call,
                           (unsigned)op);
    if (user && !user_op) gasneti_fatalerror("%s: user_op is NULL for a user operation", call);
    if (dt_sz == 0 || dt_cnt == 0)
        gasneti_fatalerror("%s: dt_sz %zu and dt_cnt %zu must be non-zero", call, dt_sz, dt_cnt);
    if (bsz && dt_sz != bsz)
        gasneti_fatalerror("%s: dt_sz %zu is not the size of data type 0x%x (%zu)", call, dt_sz,
                           (unsigned)dt, bsz);
    if (dt_cnt > SIZE_MAX / dt_sz)
        gasneti_fatalerror("%s: dt_sz %zu times dt_cnt %zu overflows", call, dt_sz, dt_cnt);
    if (!src) gasneti_fatalerror("%s: src is NULL", call);
    if ((all || t->rank == root) && !dst) gasneti_fatalerror("%s: dst is NULL", call);
    reduce_t *x = malloc(sizeof *x); /* not calloc: see gasnete_coll_op_new */
    if (!x) gasneti_fatalerror("%s: out of memory", call);
    *x = (reduce_t){.root = root, .all = all, .out = all || t->rank == root ? dst : NULL,
                    .dst = dst, .src = src, .dt = dt, .cnt = dt_cnt, .nbytes = dt_sz * dt_cnt,
                    .op = op, .fn = user ? user_op : NULL, .cdata = user_cdata};
    gasnete_coll_op_t *o = gasnete_coll_op_new(t, reduce_progress, x, call);
    uint64_t single_valued[] = {root, dt, dt_sz, dt_cnt, op}; /* not user_op: addresses differ */
    for (size_t i = 0; i < sizeof single_valued / sizeof single_valued[0]; i++)
        gasnete_coll_sign(o, single_valued[i]);
    const gasnete_coll_hosts_t *h = gasnete_coll_shm_hosts(t);
    if (h) { /* several hosts */
        if (x->nbytes <= GASNETE_COLL_SHM_SLOT && h->contiguous) {
            o->shm_run = reduce_hosts;
            o->shm_data = src;
            o->shm_len = x->nbytes;
            if (h->leaders.rank[h->leaders.me] == t->rank) o->shm_first = reduce_first;
        }
    } else if (x->nbytes <= GASNETE_COLL_SHM_SLOT) {
        o->shm_run = reduce_shm;
        o->shm_data = src;
        o->shm_len = x->nbytes;
    } else if (gasnete_coll_shm_staged(t) && dt_sz <= GASNETE_COLL_SHM_CHUNK) {
        o->shm_run = reduce_staged;
        o->shm_staged = 1;
        gasnete_coll_shm_stage_first(o, src, x->nbytes, dt_sz);
    }
    return gasnete_coll_start_nb(o);
}

gex_Event_t gex_Coll_ReduceToOneNB(gex_TM_t tm, gex_Rank_t root, void *dst, const void *src,
                                   gex_DT_t dt, size_t dt_sz, size_t dt_cnt, gex_OP_t op,
                                   gex_Coll_ReduceFn_t user_op, void *user_cdata,
                                   gex_Flags_t flags)
{
    return reduce_nb("gex_Coll_ReduceToOneNB", tm, 0, root, dst, src, dt, dt_sz, dt_cnt, op,
                     user_op, user_cdata, flags);
}

gex_Event_t gex_Coll_ReduceToAllNB(gex_TM_t tm, void *dst, const void *src, gex_DT_t dt,
                                   size_t dt_sz, size_t dt_cnt, gex_OP_t op,
                                   gex_Coll_ReduceFn_t user_op, void *user_cdata,
                                   gex_Flags_t flags)
{
    return reduce_nb("gex_Coll_ReduceToAllNB", tm, 1, 0, dst, src, dt, dt_sz, dt_cnt, op, user_op,
                     user_cdata, flags);
}
