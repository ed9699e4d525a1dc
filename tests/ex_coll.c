/* ex_coll: GASNet-EX broadcast and reductions (spec §12.3, §12.4, §13),
 * from the spec alone.
 *
 *   ex_coll [quick|matrix]     results (quick: fewer roots and sizes)
 *   ex_coll threads T          (PAR) T threads, each on a team of its own
 *   ex_coll teams              (quick) on splits of 1..5 and 8 members
 *   ex_coll inflight [N]       N (default 2^18) barriers and reductions in
 *                              flight at once, then waited: the cost of
 *                              many in flight must grow linearly (stepping
 *                              every one on every poll did not finish)
 *   ex_coll barrier [N]        N (default 5000) rounds of gex_Coll_BarrierNB
 *                              on the world and a split (its lanes in
 *                              the scratch): before each, every member
 *                              puts the round's number at every member;
 *                              after it, every member must see all of
 *                              them (a member that left before everyone
 *                              entered sees an older round); members
 *                              arrive in a different order each round
 *   ex_coll bad WHAT [attached]  one bad call, which must be fatal (after
 *                              a segment is attached)
 *
 * On each team shape (the primordial team before and after a segment is
 * attached, halves, an odd/even split
 * whose ranks run backwards against jobranks, twice (granted the
 * RECOMMENDED and the MIN scratch from the segment), a team of one per
 * rank):
 * - gex_Coll_BroadcastNB from several roots (every root in matrix mode),
 *   of sizes from 0 bytes to several Medium payloads, all in flight at
 *   once, and once with src == dst on the root; once a segment is
 *   attached, one at a time from src in the root's segment, which the
 *   root overwrites as soon as its call completes;
 * - gex_Coll_ReduceToOneNB (several roots) and ReduceToAllNB for every
 *   GEX_DT_* built-in type with every operation §13.2 allows for it
 *   (ADD, MULT, MIN, MAX; AND, OR, XOR on integers), with values that
 *   catch signed/unsigned confusion, all in flight at once; ToAll with
 *   src == dst on every rank;
 * - GEX_OP_USER on GEX_DT_USER (a 12-byte struct summed) and on
 *   GEX_DT_DBL, and GEX_OP_USER_NC on GEX_DT_USER (2x2 matrix products,
 *   which do not commute: the result must be M_0 M_1 ... M_{N-1} in rank
 *   order), with user_cdata handed to every call;
 * every result is compared exactly with a sequential computation; a team
 * whose scratch the client scribbles on as soon as gex_TM_Destroy hands it
 * back, round after round. In
 * "threads" mode each of T threads runs rounds of a broadcast and both
 * reductions, and a burst of 100 reductions in flight at once, on a copy
 * of the world team of its own (§4.5: collectives of different teams may
 * be issued concurrently).
 */
#include "ex_test.h"

#include <gasnet_coll.h>
#include <pthread.h>

static ex_ctx_t X;
static int matrix;
static int cdata_marker;
static volatile int cdata_wrong;

/* ---- built-in types: values and the sequential reference */

typedef struct {
    const char *name;
    gex_DT_t dt;
    size_t sz;
    int integer;
    /* src of team rank j, cnt elements, for op */
    void (*gen)(gex_OP_t op, gex_Rank_t j, size_t cnt, void *out);
    /* acc[i] = acc[i] OP x[i] (§13.2: op0 = acc, op1 = x) */
    void (*fold)(gex_OP_t op, void *acc, const void *x, size_t cnt);
} dtinfo_t;

/* Small values for ADD, ones and twos for MULT (no overflow, exact in
 * floating point on up to 128 ranks: the order of combination is the
 * library's, and a rounded product would depend on it),
 * values of both signs (signed) or with the top bit set (unsigned) for
 * MIN and MAX, scattered bits for AND, OR, XOR. */
#define DEFINE_DT(NAME, T, TOP, NEG)                                                    \
    static void gen_##NAME(gex_OP_t op, gex_Rank_t j, size_t cnt, void *out)          \
    {                                                                                  \
        T *o = out;                                                                    \
        for (size_t i = 0; i < cnt; i++) {                                             \
            if (op == GEX_OP_ADD)                                                      \
                o[i] = (T)((j * 3 + i) % 5 + 1);                                       \
            else if (op == GEX_OP_MULT)                                                \
                o[i] = (T)((j * 3 + i) % 5 ? 1 : 2);                                   \
            else if (op == GEX_OP_MIN || op == GEX_OP_MAX)                             \
                o[i] = (T)(TOP + (T)((i * 7 + j * 13) % 41) - (T)(NEG));               \
            else                                                                       \
                o[i] = (T)((uint64_t)(i * 2654435761u + j * 40503u + 12345u) *        \
                           0x9E3779B97F4A7C15ull >> 17);                               \
        }                                                                              \
    }
DEFINE_DT(i32, int32_t, 0, 20)
DEFINE_DT(u32, uint32_t, 0xFFFFFF00u, 0)
DEFINE_DT(i64, int64_t, 0, 20)
DEFINE_DT(u64, uint64_t, 0xFFFFFFFFFFFFFF00ull, 0)
DEFINE_DT(flt, float, 0, 20.5f)
DEFINE_DT(dbl, double, 0, 20.5)

#define FOLD_ARITH(T)                                                                  \
    T *a = acc;                                                                        \
    const T *x = xv;                                                                   \
    for (size_t i = 0; i < cnt; i++) {                                                 \
        if (op == GEX_OP_ADD) a[i] = a[i] + x[i];                                      \
        else if (op == GEX_OP_MULT) a[i] = a[i] * x[i];                                \
        else if (op == GEX_OP_MIN) a[i] = a[i] < x[i] ? a[i] : x[i];                   \
        else if (op == GEX_OP_MAX) a[i] = a[i] > x[i] ? a[i] : x[i];
#define DEFINE_FOLD_INT(NAME, T)                                                       \
    static void fold_##NAME(gex_OP_t op, void *acc, const void *xv, size_t cnt)       \
    {                                                                                  \
        FOLD_ARITH(T)                                                                  \
        else if (op == GEX_OP_AND) a[i] = a[i] & x[i];                                 \
        else if (op == GEX_OP_OR) a[i] = a[i] | x[i];                                  \
        else a[i] = a[i] ^ x[i];                                                       \
        }                                                                              \
    }
#define DEFINE_FOLD_FP(NAME, T)                                                        \
    static void fold_##NAME(gex_OP_t op, void *acc, const void *xv, size_t cnt)       \
    {                                                                                  \
        FOLD_ARITH(T)                                                                  \
        }                                                                              \
    }
DEFINE_FOLD_INT(i32, int32_t)
DEFINE_FOLD_INT(u32, uint32_t)
DEFINE_FOLD_INT(i64, int64_t)
DEFINE_FOLD_INT(u64, uint64_t)
DEFINE_FOLD_FP(flt, float)
DEFINE_FOLD_FP(dbl, double)

static const dtinfo_t dts[] = {
    {"I32", GEX_DT_I32, 4, 1, gen_i32, fold_i32}, {"U32", GEX_DT_U32, 4, 1, gen_u32, fold_u32},
    {"I64", GEX_DT_I64, 8, 1, gen_i64, fold_i64}, {"U64", GEX_DT_U64, 8, 1, gen_u64, fold_u64},
    {"FLT", GEX_DT_FLT, 4, 0, gen_flt, fold_flt}, {"DBL", GEX_DT_DBL, 8, 0, gen_dbl, fold_dbl},
};
static const struct {
    const char *name;
    gex_OP_t op;
    int integer_only;
} ops[] = {{"ADD", GEX_OP_ADD, 0}, {"MULT", GEX_OP_MULT, 0}, {"MIN", GEX_OP_MIN, 0},
           {"MAX", GEX_OP_MAX, 0}, {"AND", GEX_OP_AND, 1},   {"OR", GEX_OP_OR, 1},
           {"XOR", GEX_OP_XOR, 1}};

/* ---- user operations */

typedef struct {
    int32_t a, b, c;
} triple_t; /* GEX_DT_USER, 12 bytes: summed component-wise */
typedef struct {
    uint32_t m[4];
} mat_t; /* GEX_DT_USER, 16 bytes: 2x2 products (mod 2^32) */

static void triple_sum(const void *arg1, void *arg2_and_out, size_t count, const void *cdata)
{
    const triple_t *x = arg1;
    triple_t *y = arg2_and_out;
    if (cdata != &cdata_marker) cdata_wrong = 1;
    for (size_t i = 0; i < count; i++) {
        y[i].a += x[i].a;
        y[i].b += x[i].b;
        y[i].c += x[i].c;
    }
}
static mat_t mat_mul(mat_t p, mat_t q)
{
    mat_t r = {{p.m[0] * q.m[0] + p.m[1] * q.m[2], p.m[0] * q.m[1] + p.m[1] * q.m[3],
                p.m[2] * q.m[0] + p.m[3] * q.m[2], p.m[2] * q.m[1] + p.m[3] * q.m[3]}};
    return r;
}
/* y = x y (§13.3: y[i] = x[i] (+) y[i]) */
static void mat_product(const void *arg1, void *arg2_and_out, size_t count, const void *cdata)
{
    const mat_t *x = arg1;
    mat_t *y = arg2_and_out;
    if (cdata != &cdata_marker) cdata_wrong = 1;
    for (size_t i = 0; i < count; i++) y[i] = mat_mul(x[i], y[i]);
}
static void dbl_absmax(const void *arg1, void *arg2_and_out, size_t count, const void *cdata)
{
    const double *x = arg1;
    double *y = arg2_and_out;
    if (cdata != &cdata_marker) cdata_wrong = 1;
    for (size_t i = 0; i < count; i++)
        if ((x[i] < 0 ? -x[i] : x[i]) > (y[i] < 0 ? -y[i] : y[i])) y[i] = x[i];
}
static triple_t triple_of(gex_Rank_t j, size_t i)
{
    triple_t t = {(int32_t)(j + i), -(int32_t)(j * 2 + 1), (int32_t)(i * 3)};
    return t;
}
static mat_t mat_of(gex_Rank_t j, size_t i)
{
    mat_t m = {{(uint32_t)(j + 1), (uint32_t)(i + 2), (uint32_t)(j * 3 + i), 1u}};
    return m;
}
static double dbl_of(gex_Rank_t j, size_t i)
{
    return (j + 1 + (double)(i % 7) / 8) * ((j + i) % 2 ? -1.0 : 1.0); /* |value|: one per rank */
}

/* ---- one team */

typedef struct {
    gex_Event_t ev;
    void *dst;
    void *expect; /* NULL: nothing to check on this rank */
    size_t len;
    char what[96];
} pending_t;

static pending_t *pend;
static size_t npend, cappend;

static pending_t *add_pending(gex_Event_t ev, void *dst, void *expect, size_t len)
{
    if (npend == cappend) {
        cappend = cappend ? 2 * cappend : 64;
        pend = realloc(pend, cappend * sizeof *pend);
        CHECK(pend, "out of memory");
    }
    pending_t *p = &pend[npend++];
    p->ev = ev;
    p->dst = dst;
    p->expect = expect;
    p->len = len;
    p->what[0] = 0;
    return p;
}

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    CHECK(p, "out of memory for %zu bytes", n);
    return p;
}

/* Waits for every pending operation and checks its result. */
static void settle(const char *team)
{
    gex_Event_t *evs = xmalloc(npend * sizeof *evs);
    for (size_t k = 0; k < npend; k++) evs[k] = pend[k].ev;
    gex_Event_WaitAll(evs, npend, 0);
    CHECK(!cdata_wrong, "a user function got a cdata other than user_cdata");
    for (size_t k = 0; k < npend; k++) {
        pending_t *p = &pend[k];
        if (p->expect) {
            size_t i = 0;
            while (i < p->len && ((unsigned char *)p->dst)[i] == ((unsigned char *)p->expect)[i]) i++;
            CHECK(i == p->len, "team %s: %s: byte %zu of %zu differs (got 0x%02x, expected 0x%02x)",
                  team, p->what, i, p->len, ((unsigned char *)p->dst)[i],
                  ((unsigned char *)p->expect)[i]);
        }
        free(p->dst);
        free(p->expect);
    }
    free(evs);
    npend = 0;
}

/* The roots to try on a team of n. */
static int nroots(gex_Rank_t n, gex_Rank_t *roots)
{
    if (matrix) {
        for (gex_Rank_t r = 0; r < n; r++) roots[r] = r;
        return (int)n;
    }
    roots[0] = n - 1;
    roots[1] = 0;
    return n > 1 ? 2 : 1;
}

static void test_broadcast(gex_TM_t tm, const char *team)
{
    gex_Rank_t me = gex_TM_QueryRank(tm), n = gex_TM_QuerySize(tm);
    gex_Rank_t roots[64];
    int nr = nroots(n, roots);
    /* above 1976 bytes the library may go chunk by chunk (16 KiB, rings of
     * 8): sizes around those too */
    const size_t quick_sizes[] = {0, 1, 1000, 1977, 16385, 150001},
                 matrix_sizes[] = {0, 1, 7, 1976, 1977, 16383, 16384, 16385, 64999, 65000, 65001,
                                   131071, 131073, 300000, (1 << 20) + 3};
    const size_t *sizes = matrix ? matrix_sizes : quick_sizes;
    size_t nsizes = matrix ? EX_NELEM(matrix_sizes) : EX_NELEM(quick_sizes);
    for (int k = 0; k < nr; k++) {
        for (size_t s = 0; s < nsizes; s++) {
            size_t len = sizes[s];
            unsigned seed = (unsigned)(roots[k] * 31 + s);
            char *src = xmalloc(len), *dst = xmalloc(len), *expect = xmalloc(len);
            ex_fill(src, len, seed);
            ex_fill(expect, len, seed);
            memset(dst, 0xEE, len);
            gex_Event_t ev = gex_Coll_BroadcastNB(tm, roots[k], dst, src, len, 0);
            pending_t *p = add_pending(ev, dst, expect, len);
            snprintf(p->what, sizeof p->what, "broadcast of %zu bytes from root %u", len, roots[k]);
            /* src must stay valid until completion: freed after settle */
            add_pending(GEX_EVENT_INVALID, src, NULL, 0);
        }
    }
    /* src == dst on the root */
    size_t len = 70000;
    char *buf = xmalloc(len), *expect = xmalloc(len);
    ex_fill(expect, len, 99);
    if (me == n - 1) ex_fill(buf, len, 99);
    else memset(buf, 0, len);
    pending_t *p = add_pending(gex_Coll_BroadcastNB(tm, n - 1, buf, buf, len, 0), buf, expect, len);
    snprintf(p->what, sizeof p->what, "broadcast in place on root %u", n - 1);
    settle(team);
}

/* Broadcasts whose src lies in the root's segment (4 MiB into it), which
 * the others may read in place: the root's call may complete only once
 * nobody reads src any more, so the root scribbles on src as soon as its
 * call returns (a root that completed early would corrupt what the others
 * receive; above 128 KiB the library may read src in place). The sizes go
 * up, then down (a counter left from an earlier broadcast must not pass
 * for this one's). Then src == dst in everyone's segment, and two at once
 * from different roots. */
static void test_broadcast_segment(gex_TM_t tm, const char *team)
{
    gex_Rank_t me = gex_TM_QueryRank(tm), n = gex_TM_QuerySize(tm);
    gex_Rank_t roots[2] = {n - 1, 0}; /* in every mode: the path does not depend on which */
    int nr = n > 1 ? 2 : 1;
    const size_t sizes[] = {1977, 131072, 131073, (1 << 20) + 3}, max = (1 << 20) + 3;
    CHECK(gex_Segment_QuerySize(X.seg) >= (4 << 20) + max, "the segment is too small for the test");
    char *at = (char *)gex_Segment_QueryAddr(X.seg) + (4 << 20), *dst = xmalloc(max), *expect = xmalloc(max);
    for (int k = 0; k < nr; k++) {
        for (size_t j = 0; j < 2 * EX_NELEM(sizes); j++) {
            size_t s = j < EX_NELEM(sizes) ? j : 2 * EX_NELEM(sizes) - 1 - j, len = sizes[s];
            unsigned seed = (unsigned)(roots[k] * 17 + j + 1000);
            ex_fill(expect, len, seed);
            if (me == roots[k]) ex_fill(at, len, seed);
            memset(dst, 0xEE, len);
            gex_Event_Wait(gex_Coll_BroadcastNB(tm, roots[k], dst, at, len, 0));
            if (me == roots[k]) memset(at, 0x5A, len);
            CHECK(!memcmp(dst, expect, len), "%s: broadcast of %zu bytes from root %u's segment: wrong data",
                  team, len, roots[k]);
            /* the root's dst == src */
            char *d = me == roots[k] ? at : dst;
            if (me == roots[k]) ex_fill(at, len, seed);
            else memset(dst, 0xEE, len);
            gex_Event_Wait(gex_Coll_BroadcastNB(tm, roots[k], d, at, len, 0));
            CHECK(!memcmp(d, expect, len), "%s: broadcast of %zu bytes from root %u, its src == dst",
                  team, len, roots[k]);
        }
        /* src == dst in every member's segment */
        size_t len = 200001;
        unsigned seed = (unsigned)(roots[k] + 2000);
        ex_fill(expect, len, seed);
        if (me == roots[k]) ex_fill(at, len, seed);
        else memset(at, 0, len);
        gex_Event_Wait(gex_Coll_BroadcastNB(tm, roots[k], at, at, len, 0));
        CHECK(!memcmp(at, expect, len), "%s: broadcast of %zu bytes from root %u, src == dst in the segments",
              team, len, roots[k]);
        if (me == roots[k]) memset(at, 0x5A, len);
    }
    /* two at once, from the first two roots, 256 KiB apart */
    const size_t len = 200001, apart = 256 << 10;
    char *dst2 = xmalloc(len), *expect2 = xmalloc(len);
    gex_Rank_t r1 = roots[nr > 1];
    ex_fill(expect, len, 3000);
    ex_fill(expect2, len, 3001);
    if (me == roots[0]) ex_fill(at, len, 3000);
    if (me == r1) ex_fill(at + apart, len, 3001);
    gex_Event_t evs[2] = {gex_Coll_BroadcastNB(tm, roots[0], dst, at, len, 0),
                          gex_Coll_BroadcastNB(tm, r1, dst2, at + apart, len, 0)};
    gex_Event_WaitAll(evs, 2, 0);
    if (me == roots[0]) memset(at, 0x5A, len);
    if (me == r1) memset(at + apart, 0x5A, len);
    CHECK(!memcmp(dst, expect, len) && !memcmp(dst2, expect2, len),
          "%s: two broadcasts of %zu bytes at once from roots %u and %u: wrong data", team, len, roots[0], r1);
    free(dst2);
    free(expect2);
    free(dst);
    free(expect);
}

static void test_reduce(gex_TM_t tm, const char *team)
{
    gex_Rank_t me = gex_TM_QueryRank(tm), n = gex_TM_QuerySize(tm);
    gex_Rank_t roots[64];
    int nr = nroots(n, roots);
    const size_t quick_counts[] = {1, 5, 2501}, matrix_counts[] = {1, 5, 2049, 17000, 40001};
    const size_t *counts = matrix ? matrix_counts : quick_counts;
    size_t ncounts = matrix ? EX_NELEM(matrix_counts) : EX_NELEM(quick_counts);
    for (size_t c = 0; c < ncounts; c++) {
        size_t cnt = counts[c];
        for (size_t d = 0; d < EX_NELEM(dts); d++) {
            const dtinfo_t *t = &dts[d];
            size_t len = cnt * t->sz;
            for (size_t o = 0; o < EX_NELEM(ops); o++) {
                if (ops[o].integer_only && !t->integer) continue;
                gex_OP_t op = ops[o].op;
                /* the sequential result, in rank order */
                char *expect = xmalloc(len), *x = xmalloc(len);
                t->gen(op, 0, cnt, expect);
                for (gex_Rank_t j = 1; j < n; j++) {
                    t->gen(op, j, cnt, x);
                    t->fold(op, expect, x, cnt);
                }
                free(x);
                for (int k = 0; k <= nr; k++) { /* k == nr: ToAll */
                    char *src = xmalloc(len), *dst = xmalloc(len);
                    t->gen(op, me, cnt, src);
                    memset(dst, 0xEE, len);
                    gex_Event_t ev;
                    int mine = k == nr || roots[k] == me;
                    if (k < nr)
                        ev = gex_Coll_ReduceToOneNB(tm, roots[k], dst, src, t->dt, t->sz, cnt, op,
                                                    NULL, NULL, 0);
                    else
                        ev = gex_Coll_ReduceToAllNB(tm, dst, src, t->dt, t->sz, cnt, op, NULL, NULL, 0);
                    char *e = NULL;
                    if (mine) {
                        e = xmalloc(len);
                        memcpy(e, expect, len);
                    }
                    pending_t *p = add_pending(ev, dst, e, len);
                    snprintf(p->what, sizeof p->what, "%s of %zu %s with %s (root %d)",
                             k < nr ? "ReduceToOne" : "ReduceToAll", cnt, t->name, ops[o].name,
                             k < nr ? (int)roots[k] : -1);
                    add_pending(GEX_EVENT_INVALID, src, NULL, 0);
                }
                /* ToAll with src == dst on every rank */
                char *buf = xmalloc(len);
                t->gen(op, me, cnt, buf);
                pending_t *p = add_pending(gex_Coll_ReduceToAllNB(tm, buf, buf, t->dt, t->sz, cnt, op,
                                                                  NULL, NULL, 0), buf, expect, len);
                snprintf(p->what, sizeof p->what, "ReduceToAll in place of %zu %s with %s", cnt,
                         t->name, ops[o].name);
            }
        }
    }
    settle(team);
}

static void test_user_cnt(gex_TM_t tm, size_t cnt)
{
    gex_Rank_t me = gex_TM_QueryRank(tm), n = gex_TM_QuerySize(tm);
    gex_Rank_t roots[64];
    int nr = nroots(n, roots);
    for (int k = 0; k <= nr; k++) {
        gex_Rank_t root = k < nr ? roots[k] : 0;
        int mine = k == nr || root == me;
        /* USER on a 12-byte GEX_DT_USER */
        triple_t *ts = xmalloc(cnt * sizeof *ts), *td = xmalloc(cnt * sizeof *td), *te = NULL;
        for (size_t i = 0; i < cnt; i++) ts[i] = triple_of(me, i);
        if (mine) {
            te = xmalloc(cnt * sizeof *te);
            for (size_t i = 0; i < cnt; i++) {
                te[i] = (triple_t){0, 0, 0};
                for (gex_Rank_t j = 0; j < n; j++) {
                    triple_t v = triple_of(j, i);
                    te[i].a += v.a;
                    te[i].b += v.b;
                    te[i].c += v.c;
                }
            }
        }
        gex_Event_t ev = k < nr ? gex_Coll_ReduceToOneNB(tm, root, td, ts, GEX_DT_USER, sizeof(triple_t), cnt,
                                                         GEX_OP_USER, triple_sum, &cdata_marker, 0)
                                : gex_Coll_ReduceToAllNB(tm, td, ts, GEX_DT_USER, sizeof(triple_t), cnt,
                                                         GEX_OP_USER, triple_sum, &cdata_marker, 0);
        pending_t *p = add_pending(ev, td, te, cnt * sizeof *td);
        snprintf(p->what, sizeof p->what, "USER sum of %zu 12-byte elements (root %d)", cnt,
                 k < nr ? (int)root : -1);
        add_pending(GEX_EVENT_INVALID, ts, NULL, 0);

        /* USER_NC: matrix products in rank order */
        mat_t *ms = xmalloc(cnt * sizeof *ms), *md = xmalloc(cnt * sizeof *md), *me_ = NULL;
        for (size_t i = 0; i < cnt; i++) ms[i] = mat_of(me, i);
        if (mine) {
            me_ = xmalloc(cnt * sizeof *me_);
            for (size_t i = 0; i < cnt; i++) {
                me_[i] = mat_of(0, i);
                for (gex_Rank_t j = 1; j < n; j++) me_[i] = mat_mul(me_[i], mat_of(j, i));
            }
        }
        ev = k < nr ? gex_Coll_ReduceToOneNB(tm, root, md, ms, GEX_DT_USER, sizeof(mat_t), cnt,
                                             GEX_OP_USER_NC, mat_product, &cdata_marker, 0)
                    : gex_Coll_ReduceToAllNB(tm, md, ms, GEX_DT_USER, sizeof(mat_t), cnt,
                                             GEX_OP_USER_NC, mat_product, &cdata_marker, 0);
        p = add_pending(ev, md, me_, cnt * sizeof *md);
        snprintf(p->what, sizeof p->what, "USER_NC matrix product of %zu (root %d)", cnt,
                 k < nr ? (int)root : -1);
        add_pending(GEX_EVENT_INVALID, ms, NULL, 0);

        /* USER on a built-in type */
        double *ds = xmalloc(cnt * sizeof *ds), *dd = xmalloc(cnt * sizeof *dd), *de = NULL;
        for (size_t i = 0; i < cnt; i++) ds[i] = dbl_of(me, i);
        if (mine) {
            de = xmalloc(cnt * sizeof *de);
            for (size_t i = 0; i < cnt; i++) {
                de[i] = dbl_of(0, i);
                for (gex_Rank_t j = 1; j < n; j++) {
                    double v = dbl_of(j, i);
                    if ((de[i] < 0 ? -de[i] : de[i]) > (v < 0 ? -v : v)) v = de[i];
                    de[i] = v;
                }
            }
        }
        ev = k < nr ? gex_Coll_ReduceToOneNB(tm, root, dd, ds, GEX_DT_DBL, sizeof(double), cnt,
                                             GEX_OP_USER, dbl_absmax, &cdata_marker, 0)
                    : gex_Coll_ReduceToAllNB(tm, dd, ds, GEX_DT_DBL, sizeof(double), cnt,
                                             GEX_OP_USER, dbl_absmax, &cdata_marker, 0);
        p = add_pending(ev, dd, de, cnt * sizeof *dd);
        snprintf(p->what, sizeof p->what, "USER on DBL of %zu (root %d)", cnt, k < nr ? (int)root : -1);
        add_pending(GEX_EVENT_INVALID, ds, NULL, 0);
    }
}

/* Small vectors, and ones over several chunks (see test_broadcast). */
static void test_user(gex_TM_t tm, const char *team)
{
    test_user_cnt(tm, 3);
    test_user_cnt(tm, matrix ? 9000 : 700);
    settle(team);
}

/* dbl_absmax commutes only where no two inputs at one index have equal
 * magnitudes and different signs (the spec lets GEX_OP_USER commute):
 * the test's values must avoid that. */
static void check_absmax_values(gex_Rank_t n, size_t cnt)
{
    for (size_t i = 0; i < cnt; i++)
        for (gex_Rank_t a = 0; a < n; a++)
            for (gex_Rank_t b = 0; b < n; b++) {
                double x = dbl_of(a, i), y = dbl_of(b, i);
                if (x != y && (x == -y)) {
                    MSG0("ex_coll: dbl_of(%u, %zu) and dbl_of(%u, %zu) tie in magnitude", a, i, b, i);
                    gasnet_exit(2);
                }
            }
}

static void test_team(gex_TM_t tm, const char *team)
{
    test_broadcast(tm, team);
    if (X.seg != GEX_SEGMENT_INVALID) test_broadcast_segment(tm, team);
    test_reduce(tm, team);
    test_user(tm, team);
    ex_barrier(tm);
}

static void bad(const char *what)
{
    int32_t a[4] = {1, 2, 3, 4}, b[4];
    double d[2] = {1, 2}, e[2];
    gex_TM_t tm = X.tm;
    if (!strcmp(what, "dtop")) /* AND is for integers only (§13.2) */
        gex_Event_Wait(gex_Coll_ReduceToAllNB(tm, e, d, GEX_DT_DBL, 8, 2, GEX_OP_AND, NULL, NULL, 0));
    else if (!strcmp(what, "fetching")) /* fetching forms are atomics-only */
        gex_Event_Wait(gex_Coll_ReduceToAllNB(tm, b, a, GEX_DT_I32, 4, 4, GEX_OP_FADD, NULL, NULL, 0));
    else if (!strcmp(what, "size")) /* dt_sz must be sizeof the type */
        gex_Event_Wait(gex_Coll_ReduceToAllNB(tm, e, d, GEX_DT_DBL, 4, 2, GEX_OP_ADD, NULL, NULL, 0));
    else if (!strcmp(what, "user")) /* GEX_DT_USER needs a user operation */
        gex_Event_Wait(gex_Coll_ReduceToAllNB(tm, b, a, GEX_DT_USER, 4, 4, GEX_OP_ADD, NULL, NULL, 0));
    else if (!strcmp(what, "root"))
        gex_Event_Wait(gex_Coll_BroadcastNB(tm, X.n, b, a, 4, 0));
    else if (!strcmp(what, "mismatch")) /* dt_cnt is single-valued */
        gex_Event_Wait(gex_Coll_ReduceToAllNB(tm, b, a, GEX_DT_I32, 4, X.me ? 4 : 2, GEX_OP_ADD,
                                              NULL, NULL, 0));
    else if (!strcmp(what, "dtmismatch")) /* dt is single-valued */
        gex_Event_Wait(gex_Coll_ReduceToAllNB(tm, b, a, X.me ? GEX_DT_U32 : GEX_DT_I32, 4, 4,
                                              GEX_OP_ADD, NULL, NULL, 0));
    else if (!strcmp(what, "opmismatch")) /* op is single-valued */
        gex_Event_Wait(gex_Coll_ReduceToAllNB(tm, b, a, GEX_DT_I32, 4, 4,
                                              X.me ? GEX_OP_MAX : GEX_OP_ADD, NULL, NULL, 0));
    else if (!strcmp(what, "order")) /* every member calls the same collectives in order */
        gex_Event_Wait(X.me ? gex_Coll_BroadcastNB(tm, 1, b, a, 16, 0)
                            : gex_Coll_ReduceToAllNB(tm, b, a, GEX_DT_I32, 4, 4, GEX_OP_ADD,
                                                     NULL, NULL, 0));
    else if (!strcmp(what, "sizemismatch")) { /* nbytes is single-valued: here across paths */
        static char big[4000];
        gex_Event_Wait(gex_Coll_BroadcastNB(tm, 0, big, big, X.me ? sizeof big : 16, 0));
    } else if (!strcmp(what, "flags"))
        gex_Event_Wait(gex_Coll_BroadcastNB(tm, 0, b, a, 4, GEX_FLAG_IMMEDIATE));
    else {
        MSG0("ex_coll: unknown bad case %s", what);
        gasnet_exit(2);
    }
    ex_barrier(tm);
    MSG0("ex_coll bad %s: no error", what);
    gasnet_exit(0);
}

/* ---- threads, each on its own team */

#ifdef GASNET_PAR
typedef struct {
    gex_TM_t tm;
    int id, rounds;
} worker_t;

static void *worker(void *arg)
{
    worker_t *w = arg;
    gex_Rank_t me = gex_TM_QueryRank(w->tm), n = gex_TM_QuerySize(w->tm);
    for (int r = 0; r < w->rounds; r++) {
        gex_Rank_t root = (gex_Rank_t)(r + w->id) % n;
        char b[3000], e[3000];
        unsigned seed = (unsigned)(w->id * 1000 + r);
        if (me == root) ex_fill(b, sizeof b, seed);
        ex_fill(e, sizeof e, seed);
        int64_t v[4], sum[4], one[4];
        for (int i = 0; i < 4; i++) v[i] = (int64_t)(me + 1) * (i + 1) + w->id;
        /* and a burst of more reductions in flight than the library steps
         * at once per poll: the threads start theirs in different orders
         * on different nodes, which must not keep any team from progress */
        enum { BURST = 100 };
        int64_t in[BURST], out[BURST];
        gex_Event_t evs[3 + BURST];
        evs[0] = gex_Coll_BroadcastNB(w->tm, root, b, b, sizeof b, 0);
        evs[1] = gex_Coll_ReduceToAllNB(w->tm, sum, v, GEX_DT_I64, 8, 4, GEX_OP_ADD, NULL, NULL, 0);
        evs[2] = gex_Coll_ReduceToOneNB(w->tm, root, one, v, GEX_DT_I64, 8, 4, GEX_OP_MAX, NULL, NULL, 0);
        for (int k = 0; k < BURST; k++) {
            in[k] = (int64_t)me + k;
            evs[3 + k] = gex_Coll_ReduceToAllNB(w->tm, &out[k], &in[k], GEX_DT_I64, 8, 1, GEX_OP_ADD, NULL, NULL, 0);
        }
        gex_Event_WaitAll(evs, 3 + BURST, 0);
        for (int k = 0; k < BURST; k++)
            CHECK(out[k] == (int64_t)n * (n - 1) / 2 + (int64_t)n * k, "thread %d round %d: burst sum %d %lld",
                  w->id, r, k, (long long)out[k]);
        CHECK(!memcmp(b, e, sizeof b), "thread %d round %d: broadcast from %u", w->id, r, root);
        for (int i = 0; i < 4; i++) {
            int64_t s = 0;
            for (gex_Rank_t j = 0; j < n; j++) s += (int64_t)(j + 1) * (i + 1) + w->id;
            CHECK(sum[i] == s, "thread %d round %d: sum[%d] %lld, expected %lld", w->id, r, i,
                  (long long)sum[i], (long long)s);
            if (me == root)
                CHECK(one[i] == (int64_t)n * (i + 1) + w->id, "thread %d round %d: max[%d] %lld",
                      w->id, r, i, (long long)one[i]);
        }
    }
    return NULL;
}
#endif

/* A split of the world with scratch granted from the segment in slot k
 * (slots of the RECOMMENDED query's size), of the MIN query's size (min)
 * or the RECOMMENDED one (clients grant scratch: on one host the team's
 * collectives may use it, the more the more of them). */
static gex_TM_t split(int colour, int key, int k, int min)
{
    gex_TM_t t;
    size_t slot = gex_TM_Split(&t, X.tm, colour, key, NULL, 0, GEX_FLAG_TM_SCRATCH_SIZE_RECOMMENDED);
    size_t len = min ? gex_TM_Split(&t, X.tm, colour, key, NULL, 0, GEX_FLAG_TM_SCRATCH_SIZE_MIN) : slot;
    CHECK(len > 0 && len <= slot && (size_t)(k + 1) * slot <= gex_Segment_QuerySize(X.seg),
          "scratch slot %d of %zu bytes does not fit the segment", k, slot);
    gex_TM_Split(&t, X.tm, colour, key, (char *)gex_Segment_QueryAddr(X.seg) + (size_t)k * slot, len, 0);
    return t;
}

static void threads(int nthreads)
{
#ifdef GASNET_PAR
    worker_t w[16];
    pthread_t th[16];
    if (nthreads < 1 || nthreads > 16) nthreads = 4;
    ex_attach(&X, 16 << 20);
    for (int t = 0; t < nthreads; t++) { /* one copy of the world per thread */
        w[t].tm = split(0, (int)X.me, t, t % 2);
        w[t].id = t;
        w[t].rounds = 30;
    }
    for (int t = 0; t < nthreads; t++)
        CHECK(pthread_create(&th[t], NULL, worker, &w[t]) == 0, "pthread_create");
    for (int t = 0; t < nthreads; t++) pthread_join(th[t], NULL);
    for (int t = 0; t < nthreads; t++) gex_TM_Destroy(w[t].tm, NULL, 0);
    ex_barrier(X.tm);
    MSG0("ex_coll threads: ok (%d threads, %u ranks)", nthreads, X.n);
#else
    (void)nthreads;
    MSG0("ex_coll threads: needs GASNET_PAR");
    gasnet_exit(2);
#endif
    gasnet_exit(0);
}

/* Splits into the first m ranks and the rest, for m = 1..5 and 8 (as far
 * as the job goes): teams of every size up to 8 on the staged path. */
static void teams(void)
{
    ex_attach(&X, 8 << 20);
    const gex_Rank_t firsts[] = {1, 2, 3, 4, 5, 8};
    for (size_t i = 0; i < EX_NELEM(firsts) && firsts[i] <= X.n; i++) {
        gex_Rank_t m = firsts[i];
        gex_TM_t t = split(X.me < m, (int)X.me, (int)(i % 2), 0);
        char name[64];
        snprintf(name, sizeof name, "%s %u of %u ranks", X.me < m ? "first" : "last",
                 X.me < m ? m : X.n - m, X.n);
        test_team(t, name);
        gex_TM_Destroy(t, NULL, 0);
    }
    ex_barrier(X.tm);
    MSG0("ex_coll: ok (teams, %u ranks)", X.n);
    gasnet_exit(0);
}

/* Barrier semantics under varying arrival order: see the top comment. */
static void barrier_rounds(gex_TM_t tm, const char *name, uint32_t rounds)
{
    gex_Rank_t n = gex_TM_QuerySize(tm), me = gex_TM_QueryRank(tm);
    uint32_t *mine = gex_Segment_QueryAddr(X.seg); /* slot r: team rank r's round */
    uintptr_t size;
    for (gex_Rank_t r = 0; r < n; r++) {
        mine[r] = 0;
        CHECK(ex_peer_seg(tm, r, &size) && size >= n * sizeof *mine, "segment too small");
    }
    ex_barrier(X.tm);
    for (uint32_t round = 1; round <= rounds; round++) {
        /* a different member is late each round, some rounds by a while */
        if (round % n == me)
            for (unsigned i = 0; i < (round % 7 == 0 ? 20000u : 2000u); i++) __asm__ volatile("" ::: "memory");
        for (gex_Rank_t r = 0; r < n; r++)
            CHECK_OK(gex_RMA_PutBlocking(tm, r, (uint32_t *)ex_peer_seg(tm, r, &size) + me, &round,
                                         sizeof round, 0));
        gex_Event_Wait(gex_Coll_BarrierNB(tm, 0));
        for (gex_Rank_t r = 0; r < n; r++) { /* the next round's may already be there */
            uint32_t got = __atomic_load_n(&mine[r], __ATOMIC_ACQUIRE);
            CHECK(got == round || got == round + 1,
                  "%s: after barrier %u, team rank %u's round here is %u: it had not entered", name,
                  round, r, got);
        }
    }
}

static void barriers(uint32_t rounds)
{
    ex_attach(&X, 8 << 20);
    barrier_rounds(X.tm, "world", rounds);
    gex_TM_t t = split(0, (int)(X.n - 1 - X.me), 1, 0); /* ranks reversed: another leader */
    barrier_rounds(t, "reversed split", rounds);
    gex_TM_Destroy(t, NULL, 0);
    ex_barrier(X.tm);
    MSG0("ex_coll: ok (barrier, %u rounds, %u ranks)", rounds, X.n);
    gasnet_exit(0);
}

static void inflight(size_t n)
{
    ex_attach(&X, 8 << 20);
    gex_Event_t *ev = malloc(n * sizeof *ev);
    int64_t *in = malloc(n * sizeof *in), *out = malloc(n * sizeof *out);
    CHECK(ev && in && out, "out of memory");
    for (size_t i = 0; i < n; i++) {
        in[i] = (int64_t)(i + X.me);
        out[i] = -1;
        ev[i] = i % 2 ? gex_Coll_BarrierNB(X.tm, 0)
                      : gex_Coll_ReduceToAllNB(X.tm, &out[i], &in[i], GEX_DT_I64, 8, 1, GEX_OP_ADD,
                                               NULL, NULL, 0);
    }
    gex_Event_WaitAll(ev, n, 0);
    int64_t ranks = 0;
    for (gex_Rank_t j = 0; j < X.n; j++) ranks += j;
    for (size_t i = 0; i < n; i += 2)
        CHECK(out[i] == (int64_t)i * X.n + ranks, "reduction %zu of %zu in flight: %lld, expected %lld",
              i, n, (long long)out[i], (long long)((int64_t)i * X.n + ranks));
    free(ev);
    free(in);
    free(out);
    ex_barrier(X.tm);
    MSG0("ex_coll: ok (%zu in flight, %u ranks)", n, X.n);
    gasnet_exit(0);
}

int main(int argc, char **argv)
{
    ex_init(&X, "EXCOLL", &argc, &argv, 0);
    if (argc > 1 && !strcmp(argv[1], "inflight")) inflight(argc > 2 ? strtoul(argv[2], NULL, 0) : 1 << 18);
    if (argc > 1 && !strcmp(argv[1], "barrier")) barriers(argc > 2 ? (uint32_t)strtoul(argv[2], NULL, 0) : 5000);
    if (argc > 3 && !strcmp(argv[1], "bad") && !strcmp(argv[3], "attached")) ex_attach(&X, 65536);
    if (argc > 2 && !strcmp(argv[1], "bad")) bad(argv[2]);
    if (argc > 2 && !strcmp(argv[1], "threads")) threads(atoi(argv[2]));
    if (argc > 1 && !strcmp(argv[1], "teams")) teams();
    matrix = argc > 1 && !strcmp(argv[1], "matrix");
    check_absmax_values(X.n, matrix ? 9000 : 700);

    /* the world before and after a segment is attached: on one host the
     * library may take another path once the segments are shared */
    test_team(X.tm, "world");
    ex_attach(&X, 8 << 20);
    test_team(X.tm, "world, attached");
    gex_TM_t halves, oddeven, oddeven_min, one;
    halves = split(X.me < X.n / 2, (int)X.me, 0, 0);
    test_team(halves, "halves");
    /* ranks run against jobranks: rank != jobrank */
    oddeven = split((int)(X.me % 2), -(int)X.me, 1, 0);
    test_team(oddeven, "odd/even reversed");
    oddeven_min = split((int)(X.me % 2), -(int)X.me, 2, 1);
    test_team(oddeven_min, "odd/even reversed, minimum scratch");
    one = split((int)X.me, 0, 3, 0);
    test_team(one, "one");

    /* two teams at once: a broadcast on the split in flight beside a
     * reduction on the world */
    char big[5000], bigexp[5000];
    int64_t s = X.me + 1, sum = 0;
    for (gex_Rank_t j = 0; j < X.n; j++) sum += j + 1;
    gex_Rank_t sme = gex_TM_QueryRank(oddeven);
    if (sme == 0) ex_fill(big, sizeof big, 7);
    ex_fill(bigexp, sizeof bigexp, 7);
    gex_Event_t evs[2];
    evs[0] = gex_Coll_BroadcastNB(oddeven, 0, big, big, sizeof big, 0);
    int64_t r = 0;
    evs[1] = gex_Coll_ReduceToAllNB(X.tm, &r, &s, GEX_DT_I64, 8, 1, GEX_OP_ADD, NULL, NULL, 0);
    gex_Event_WaitAll(evs, 2, 0);
    CHECK(r == sum, "sum over the world %lld, expected %lld", (long long)r, (long long)sum);
    CHECK(!memcmp(big, bigexp, sizeof big), "broadcast on the split beside a world reduction");

    gex_TM_Destroy(one, NULL, 0);
    gex_TM_Destroy(oddeven_min, NULL, 0);
    gex_TM_Destroy(oddeven, NULL, 0);
    gex_TM_Destroy(halves, NULL, 0);

    /* scratch is the client's again once gex_TM_Destroy returns: scribbled
     * on at once, round after round, while slower members leave theirs */
    for (int round = 0; round < 50; round++) {
        gex_TM_t t = split(round % 2 ? (int)(X.me % 2) : 0, (int)X.me, 4, round % 4 < 2);
        int64_t v = round, got = -1;
        if (gex_TM_QueryRank(t) != 0) v = -1;
        gex_Event_Wait(gex_Coll_BroadcastNB(t, 0, &got, &v, sizeof v, 0));
        CHECK(got == round, "round %d: broadcast gave %lld", round, (long long)got);
        gex_Memvec_t back;
        CHECK(gex_TM_Destroy(t, &back, round % 3 ? 0 : GEX_FLAG_SCRATCH_SEG_OFFSET),
              "round %d: the scratch was not handed back", round);
        char *addr = round % 3 ? back.gex_addr
                               : (char *)gex_Segment_QueryAddr(X.seg) + (uintptr_t)back.gex_addr;
        memset(addr, 0xa5 ^ round, back.gex_len);
    }
    ex_barrier(X.tm);
    MSG0("ex_coll: ok (%s, %u ranks)", matrix ? "matrix" : "quick", X.n);
    gasnet_exit(0);
    return 0;
}
