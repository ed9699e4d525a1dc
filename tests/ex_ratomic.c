/* ex_ratomic: GASNet-EX remote atomics (spec §14), from the spec alone.
 *
 *   ex_ratomic [all [THREADS [ITERS]]]   every check below (default)
 *   ex_ratomic contend [THREADS [ITERS]] the mechanism, hand-off, contention
 *   ex_ratomic CASE                      one bad-input case: must be fatal
 *
 * all:
 *   - every data type x every operation the spec allows for it, NB and NBI,
 *     with every ACQ/REL combination, on the caller itself and on its right
 *     neighbour: fetched values, untouched results of non-fetching
 *     operations and the final value (read back with GEX_OP_GET) are
 *     compared bit for bit with a sequential reference;
 *   - the mechanism: a domain whose members all map each other's segments
 *     (gex_Segment_QueryBound gives a local address) completes an
 *     operation on another process before the call returns; otherwise it
 *     must take a message (the NB call returns a live event). Node 0 prints
 *     which one each team's domains use, for the suite to check;
 *   - NBI categories (SET in GEX_EC_PUT, GET in GEX_EC_GET, the rest in
 *     GEX_EC_RMW) and access regions; with messages, an operation on
 *     another process is not complete before the next poll (handlers run
 *     only inside GASNet calls here), so gex_NBI_Test sees it in its
 *     category and in no other;
 *   - queries, client data, the segment-offset flags, MY_RANK/MY_NBRHD,
 *     RANK_IS_JOBRANK on split teams, and a release/acquire hand-off;
 *   - contention: every rank and THREADS threads (PAR) hit the same words
 *     ITERS times each: fetch-and-add (every fetched value seen exactly
 *     once), mixed INC/ADD/DEC, a compare-and-swap counter, double adds,
 *     OR of distinct bits and a swap chain; the final values are exact.
 */
#include <gasnetex.h>
#include <gasnet_ratomic.h>
#include <gasnet_tools.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static gex_TM_t tm0;
static gex_Rank_t me, nodes;
static char *seg;        /* my segment */
static char **base;      /* every node's segment, as its owner sees it */
static uintptr_t *segsize;
static long checks;      /* made by this node's main thread */

#define CHECK(cond, ...)                                                              \
    do {                                                                              \
        if (!(cond)) {                                                                \
            fprintf(stderr, "FAIL node %u %s:%d: %s: ", me, __FILE__, __LINE__, #cond); \
            fprintf(stderr, __VA_ARGS__);                                             \
            fprintf(stderr, "\n");                                                    \
            fflush(stderr);                                                           \
            gasnet_exit(1);                                                           \
        }                                                                             \
    } while (0)

/* Segment layout (offsets in every node's segment), set by layout() from
 * the number of nodes: whole pages per area, one each up to 256 nodes
 * (then the offsets are 0, 4096, 8192, 12288, 16384, 20480 and the
 * segment 32768 bytes) */
#define SLOT 0                  /* 8 bytes per initiating jobrank: the type x op tests */
static struct {
    uintptr_t handoff;          /* flag word, then the data it guards */
    uintptr_t split;            /* 8 bytes per initiating jobrank: split teams */
    uintptr_t cont;             /* contention words (node 0 and the last node) */
    uintptr_t totals;           /* node 0: 16 bytes per node, the contention sums */
    uintptr_t offsets;          /* results written through GEX_FLAG_SELF_SEG_OFFSET */
    uintptr_t size;
} lay;
#define MAX_THREADS 64

static void barrier(gex_TM_t tm) { gex_Event_Wait(gex_Coll_BarrierNB(tm, 0)); }

/* The contention words: W_OR is the first of one OR word per 64 workers
 * (nodes x threads, at most MAX_THREADS threads per node). */
enum { W_FADD, W_MIX, W_CAS, W_DBL, W_SWAP, W_OR };

static uintptr_t pages(uintptr_t bytes) { return (bytes + 4095) / 4096 * 4096; }

static void layout(void)
{
    uintptr_t n = nodes;
    lay.handoff = SLOT + pages(8 * n);
    lay.split = lay.handoff + 4096;
    lay.cont = lay.split + pages(8 * n);
    lay.totals = lay.cont + pages(8 * (W_OR + (n * MAX_THREADS + 63) / 64));
    lay.offsets = lay.totals + pages(16 * n);
    lay.size = lay.offsets + 4096;
    if (lay.size < 32768) lay.size = 32768;
}

static int same(const void *a, const void *b, size_t n) { return memcmp(a, b, n) == 0; }

static const char *opname(gex_OP_t op)
{
    static char buf[512];
    gasnett_format_op(buf, op);
    return buf;
}

static gex_EC_t ec_of(gex_OP_t op)
{
    return op == GEX_OP_SET ? GEX_EC_PUT : op == GEX_OP_GET ? GEX_EC_GET : GEX_EC_RMW;
}

#define FETCHING                                                                              \
    (GEX_OP_FAND | GEX_OP_FOR | GEX_OP_FXOR | GEX_OP_FADD | GEX_OP_FSUB | GEX_OP_FMULT |      \
     GEX_OP_FMIN | GEX_OP_FMAX | GEX_OP_FINC | GEX_OP_FDEC | GEX_OP_SWAP | GEX_OP_FCAS |      \
     GEX_OP_GET)
#define BITWISE (GEX_OP_AND | GEX_OP_OR | GEX_OP_XOR | GEX_OP_FAND | GEX_OP_FOR | GEX_OP_FXOR)
#define ALL_INT                                                                               \
    (BITWISE | GEX_OP_ADD | GEX_OP_SUB | GEX_OP_MULT | GEX_OP_MIN | GEX_OP_MAX | GEX_OP_INC | \
     GEX_OP_DEC | GEX_OP_SET | GEX_OP_CAS | FETCHING)
#define ALL_FP (ALL_INT & ~BITWISE)

static const gex_Flags_t orders[4] = {0, GEX_FLAG_AD_ACQ, GEX_FLAG_AD_REL,
                                      GEX_FLAG_AD_ACQ | GEX_FLAG_AD_REL};

/* ---- sequential references (C semantics; signed arithmetic wraps) */

#define INT_REF(NAME, T, UT)                                           \
    static T ref_##NAME(gex_OP_t op, T v0, T x, T y)                   \
    {                                                                  \
        UT u = (UT)v0, ux = (UT)x;                                     \
        switch (op) {                                                  \
        case GEX_OP_ADD: case GEX_OP_FADD: return (T)(UT)(u + ux);     \
        case GEX_OP_SUB: case GEX_OP_FSUB: return (T)(UT)(u - ux);     \
        case GEX_OP_MULT: case GEX_OP_FMULT: return (T)(UT)(u * ux);   \
        case GEX_OP_MIN: case GEX_OP_FMIN: return v0 < x ? v0 : x;     \
        case GEX_OP_MAX: case GEX_OP_FMAX: return v0 > x ? v0 : x;     \
        case GEX_OP_INC: case GEX_OP_FINC: return (T)(UT)(u + 1);      \
        case GEX_OP_DEC: case GEX_OP_FDEC: return (T)(UT)(u - 1);      \
        case GEX_OP_AND: case GEX_OP_FAND: return (T)(u & ux);         \
        case GEX_OP_OR: case GEX_OP_FOR: return (T)(u | ux);           \
        case GEX_OP_XOR: case GEX_OP_FXOR: return (T)(u ^ ux);         \
        case GEX_OP_SET: case GEX_OP_SWAP: return x;                   \
        case GEX_OP_CAS: case GEX_OP_FCAS: return v0 == x ? y : v0;    \
        default: return v0; /* GET */                                  \
        }                                                              \
    }
#define FP_REF(NAME, T)                                                \
    static T ref_##NAME(gex_OP_t op, T v0, T x, T y)                   \
    {                                                                  \
        switch (op) {                                                  \
        case GEX_OP_ADD: case GEX_OP_FADD: return (T)(v0 + x);         \
        case GEX_OP_SUB: case GEX_OP_FSUB: return (T)(v0 - x);         \
        case GEX_OP_MULT: case GEX_OP_FMULT: return (T)(v0 * x);       \
        case GEX_OP_MIN: case GEX_OP_FMIN: return v0 < x ? v0 : x;     \
        case GEX_OP_MAX: case GEX_OP_FMAX: return v0 > x ? v0 : x;     \
        case GEX_OP_INC: case GEX_OP_FINC: return (T)(v0 + 1);         \
        case GEX_OP_DEC: case GEX_OP_FDEC: return (T)(v0 - 1);         \
        case GEX_OP_SET: case GEX_OP_SWAP: return x;                   \
        case GEX_OP_CAS: case GEX_OP_FCAS: return v0 == x ? y : v0;    \
        default: return v0; /* GET */                                  \
        }                                                              \
    }
INT_REF(I32, int32_t, uint32_t)
INT_REF(U32, uint32_t, uint32_t)
INT_REF(I64, int64_t, uint64_t)
INT_REF(U64, uint64_t, uint64_t)
FP_REF(FLT, float)
FP_REF(DBL, double)

/* ---- one operation, NB (waited on) or NBI (synced by its category) */

#define DO_OP(NAME, T)                                                                         \
    static void do_##NAME(gex_AD_t ad, T *r, gex_Rank_t tgt, void *addr, gex_OP_t op, T x,     \
                          T y, gex_Flags_t f, int nbi)                                         \
    {                                                                                          \
        if (!nbi) {                                                                            \
            gex_Event_Wait(gex_AD_OpNB_##NAME(ad, r, tgt, addr, op, x, y, f));                 \
        } else {                                                                               \
            CHECK(gex_AD_OpNBI_##NAME(ad, r, tgt, addr, op, x, y, f) == 0, "NBI %s", opname(op)); \
            gex_NBI_Wait(ec_of(op), 0);                                                        \
        }                                                                                      \
    }
DO_OP(I32, int32_t)
DO_OP(U32, uint32_t)
DO_OP(I64, int64_t)
DO_OP(U64, uint64_t)
DO_OP(FLT, float)
DO_OP(DBL, double)

/* The ranks this one targets: itself and its right neighbour (so every
 * rank is the target of another). */
static int targets_of(gex_Rank_t rank, gex_Rank_t size, gex_Rank_t out[2])
{
    out[0] = rank;
    out[1] = (rank + 1) % size;
    return out[1] == rank ? 1 : 2;
}

/* Every type x op: vec holds (initial value, operand1, operand2) triples. */
#define TYPE_TEST(NAME, T, DT, OPS, FMT, CT)                                                   \
    static void types_##NAME(const T (*vec)[3], int nvec)                                      \
    {                                                                                          \
        gex_AD_t ad;                                                                           \
        gex_AD_Create(&ad, tm0, DT, OPS, 0);                                                   \
        CHECK(gex_AD_QueryDT(ad) == DT && gex_AD_QueryOps(ad) == (OPS), "queries");            \
        gex_Rank_t tg[2];                                                                      \
        int ntg = targets_of(me, nodes, tg), k = 0;                                            \
        for (int ti = 0; ti < ntg; ti++) {                                                     \
            T *slot = (T *)(base[tg[ti]] + SLOT + 8 * me);                                     \
            for (int bit = 0; bit < 32; bit++) {                                               \
                gex_OP_t op = (gex_OP_t)1U << bit;                                             \
                if (!((OPS) & op)) continue;                                                   \
                for (int v = 0; v < nvec; v++) {                                               \
                    for (int nbi = 0; nbi < 2; nbi++, k++) {                                   \
                        gex_Flags_t f = orders[k % 4];                                         \
                        T v0 = vec[v][0], x = vec[v][1], y = vec[v][2], r, sentinel = (T)77;   \
                        do_##NAME(ad, &r, tg[ti], slot, GEX_OP_SET, v0, 0, f, nbi);            \
                        r = sentinel;                                                          \
                        do_##NAME(ad, &r, tg[ti], slot, op, x, y, f, nbi);                     \
                        T want = (op & FETCHING) ? v0 : sentinel;                              \
                        CHECK(same(&r, &want, sizeof r), #NAME " %s(" FMT ", " FMT ") on " FMT \
                              " at rank %u (%s, flags 0x%x): result " FMT ", expected " FMT,   \
                              opname(op), (CT)x, (CT)y, (CT)v0, tg[ti], nbi ? "NBI" : "NB",    \
                              (unsigned)f, (CT)r, (CT)want);                                   \
                        T got, final = ref_##NAME(op, v0, x, y);                               \
                        do_##NAME(ad, &got, tg[ti], slot, GEX_OP_GET, 0, 0, f, !nbi);          \
                        CHECK(same(&got, &final, sizeof got), #NAME " %s(" FMT ", " FMT ") on " \
                              FMT " at rank %u (%s, flags 0x%x): target holds " FMT             \
                              ", expected " FMT, opname(op), (CT)x, (CT)y, (CT)v0, tg[ti],      \
                              nbi ? "NBI" : "NB", (unsigned)f, (CT)got, (CT)final);             \
                        checks += 2;                                                           \
                    }                                                                          \
                }                                                                              \
            }                                                                                  \
        }                                                                                      \
        barrier(tm0);                                                                          \
        gex_AD_Destroy(ad);                                                                    \
    }
TYPE_TEST(I32, int32_t, GEX_DT_I32, ALL_INT, "%lld", long long)
TYPE_TEST(U32, uint32_t, GEX_DT_U32, ALL_INT, "%llu", unsigned long long)
TYPE_TEST(I64, int64_t, GEX_DT_I64, ALL_INT, "%lld", long long)
TYPE_TEST(U64, uint64_t, GEX_DT_U64, ALL_INT, "%llu", unsigned long long)
TYPE_TEST(FLT, float, GEX_DT_FLT, ALL_FP, "%.9g", double)
TYPE_TEST(DBL, double, GEX_DT_DBL, ALL_FP, "%.17g", double)

static void all_types(void)
{
    static const int32_t i32[][3] = {{5, 3, 9}, {-7, -7, 100}, {INT32_MAX, 2, 0},
                                     {-1, 0x0f0f, -5}, {INT32_MIN, -1, 7}};
    static const uint32_t u32[][3] = {{5, 3, 9}, {0xfffffff0u, 0xfffffff0u, 1}, {0, 1, 2},
                                      {0x80000000u, 3, 0}, {0x12345678u, 0xff00ff00u, 4}};
    static const int64_t i64[][3] = {{5, 3, 9}, {-7, -7, 100}, {INT64_MIN, -1, 4},
                                     {0x123456789ll, 0x0f0f0f0f0fll, 42}, {INT64_MAX, 3, -3}};
    static const uint64_t u64[][3] = {{5, 3, 9}, {UINT64_MAX, UINT64_MAX, 1}, {0, 7, 3},
                                      {1ull << 63, 3, 0}, {0xdeadbeefcafef00dull, 1ull << 40, 2}};
    static const float flt[][3] = {{1.5f, 2.25f, -3}, {-0.5f, -0.5f, 8}, {3, -4, 0.25f},
                                   {1e30f, 1e30f, 2}, {-2, 0.125f, 7}};
    static const double dbl[][3] = {{1.5, 2.25, -3}, {-0.5, -0.5, 8}, {1e300, 10, 1},
                                    {-2, 0.125, 7}, {3, -4, 0.25}};
    types_I32(i32, 5);
    types_U32(u32, 5);
    types_I64(i64, 5);
    types_U64(u64, 5);
    types_FLT(flt, 5);
    types_DBL(dbl, 5);
}

/* ---- the mechanism of a domain over tm */

/* 1: every member's segment is mapped here; 0: not. */
static int all_mapped(gex_TM_t tm)
{
    for (gex_Rank_t r = 0; r < gex_TM_QuerySize(tm); r++) {
        void *local = NULL;
        CHECK(gex_Segment_QueryBound(tm, r, NULL, &local, NULL) == 0, "rank %u has no segment", r);
        if (!local) return 0;
    }
    return 1;
}

/* A member of tm in another process, or GEX_RANK_INVALID. */
static gex_Rank_t other_process(gex_TM_t tm)
{
    for (gex_Rank_t r = 0; r < gex_TM_QuerySize(tm); r++)
        if (gex_TM_TranslateRankToJobrank(tm, r) != me) return r;
    return GEX_RANK_INVALID;
}

/* Checks that a domain over tm behaves as its mapping says: -1 when all
 * members are this process, 1 for CPU atomics (done before returning), 0
 * for messages. */
static int mechanism(gex_TM_t tm, size_t area)
{
    gex_Rank_t r = other_process(tm);
    if (r == GEX_RANK_INVALID) return -1;
    gex_AD_t ad;
    gex_AD_Create(&ad, tm, GEX_DT_U64, GEX_OP_GET | GEX_OP_FADD, 0);
    void *owner;
    CHECK(gex_Segment_QueryBound(tm, r, &owner, NULL, NULL) == 0, "no segment");
    uint64_t v;
    gex_Event_t ev = gex_AD_OpNB_U64(ad, &v, r, (char *)owner + area + 8 * me, GEX_OP_GET, 0, 0, 0);
    int cpu = ev == GEX_EVENT_INVALID;
    gex_Event_Wait(ev);
    CHECK(cpu == all_mapped(tm), "a domain whose members %s each other's segments %s",
          all_mapped(tm) ? "map" : "do not all map",
          cpu ? "completed a remote operation at once" : "sent a message");
    barrier(tm);
    gex_AD_Destroy(ad);
    return cpu;
}

static void report_mechanism(const char *team, int cpu)
{
    if (me == 0)
        printf("ex_ratomic: %s domains: %s\n", team, cpu < 0 ? "local" : cpu ? "cpu" : "handler");
    fflush(stdout);
}

/* ---- NBI categories and access regions */

static void nbi_categories(int cpu)
{
    gex_AD_t ad;
    gex_AD_Create(&ad, tm0, GEX_DT_I64, GEX_OP_FADD | GEX_OP_SET | GEX_OP_GET | GEX_OP_INC, 0);
    gex_Rank_t peer = (me + 1) % nodes;
    int64_t *w = (int64_t *)(base[peer] + SLOT + 8 * me), r = -1;
    CHECK(gex_NBI_Test(GEX_EC_ALL, 0) == 0, "NBI operations pending before the test");
    static const struct { gex_OP_t op; gex_EC_t ec; } cases[] = {
        {GEX_OP_SET, GEX_EC_PUT}, {GEX_OP_FADD, GEX_EC_RMW}, {GEX_OP_GET, GEX_EC_GET},
        {GEX_OP_INC, GEX_EC_RMW}};
    int64_t expect = 40;
    for (int i = 0; i < 4; i++) {
        gex_OP_t op = cases[i].op;
        CHECK(gex_AD_OpNBI_I64(ad, &r, peer, w, op, 40, 0, 0) == 0, "NBI %s", opname(op));
        if (!cpu) {
            /* not complete before a poll, and only in its own category */
            CHECK(gex_NBI_Test(cases[i].ec, 0) != 0, "%s: done before any poll", opname(op));
            CHECK(gex_NBI_Test(GEX_EC_ALL & ~cases[i].ec, 0) == 0,
                  "%s counts in a category other than 0x%x", opname(op), cases[i].ec);
        } else {
            CHECK(gex_NBI_Test(GEX_EC_ALL, 0) == 0, "%s: not complete at once", opname(op));
        }
        gex_NBI_Wait(cases[i].ec, 0);
        if (op == GEX_OP_FADD || op == GEX_OP_GET) CHECK(r == expect, "%s fetched %lld", opname(op), (long long)r);
        if (op == GEX_OP_FADD) expect += 40;
        checks++;
    }
    /* an access region: everything joins its root event (operations in
     * flight together are unordered: these commute) */
    int64_t got[3] = {-1, -1, -1};
    gex_AD_OpNBI_I64(ad, NULL, peer, w, GEX_OP_SET, 5, 0, 0);
    gex_NBI_Wait(GEX_EC_PUT, 0);
    gex_NBI_BeginAccessRegion(0);
    gex_AD_OpNBI_I64(ad, &got[0], peer, w, GEX_OP_FADD, 2, 0, 0);
    gex_AD_OpNBI_I64(ad, &got[1], me, seg + lay.offsets + 8, GEX_OP_FADD, 1, 0, 0);
    gex_AD_OpNBI_I64(ad, NULL, peer, w, GEX_OP_INC, 0, 0, 0);
    gex_Event_t ev = gex_NBI_EndAccessRegion(0);
    CHECK(gex_NBI_Test(GEX_EC_ALL, 0) == 0, "region operations count in NBI");
    gex_Event_Wait(ev);
    gex_AD_OpNBI_I64(ad, &got[2], peer, w, GEX_OP_GET, 0, 0, 0);
    gex_NBI_Wait(GEX_EC_ALL, 0);
    CHECK((got[0] == 5 || got[0] == 6) && got[2] == 8,
          "region: fetched %lld, final %lld (want 5 or 6, 8)", (long long)got[0],
          (long long)got[2]);
    checks++;
    barrier(tm0);
    gex_AD_Destroy(ad);
}

/* ---- queries, client data, flags */

static void queries_and_flags(void)
{
    gex_AD_t ad;
    gex_OP_t ops = GEX_OP_SET | GEX_OP_GET | GEX_OP_FADD | GEX_OP_CAS;
    gex_AD_Create(&ad, tm0, GEX_DT_U32, ops, GEX_FLAG_AD_FAVOR_REMOTE);
    CHECK(ad != GEX_AD_INVALID, "no domain");
    CHECK(gex_AD_QueryTM(ad) == tm0 && gex_AD_QueryDT(ad) == GEX_DT_U32 &&
          gex_AD_QueryOps(ad) == ops && gex_AD_QueryFlags(ad) == GEX_FLAG_AD_FAVOR_REMOTE,
          "queries");
    CHECK(gex_AD_QueryCData(ad) == NULL, "client data of a new domain");
    gex_AD_SetCData(ad, &checks);
    CHECK(gex_AD_QueryCData(ad) == &checks, "client data");
    gex_Rank_t peer = (me + 1) % nodes;
    uintptr_t off = SLOT + 8 * me;
    uint32_t *mine = (uint32_t *)(seg + off), r = 0;
    /* MY_RANK and MY_NBRHD on the caller's own word */
    gex_Event_Wait(gex_AD_OpNB_U32(ad, NULL, me, mine, GEX_OP_SET, 11, 0, GEX_FLAG_AD_MY_RANK));
    gex_Event_Wait(gex_AD_OpNB_U32(ad, &r, me, mine, GEX_OP_FADD, 1, 0, GEX_FLAG_AD_MY_NBRHD));
    CHECK(r == 11, "MY_NBRHD: fetched %u", r);
    /* the target as an offset in the peer's segment, the result as an
     * offset in mine */
    uint32_t *res = (uint32_t *)(seg + lay.offsets);
    *res = 0;
    gex_Event_Wait(gex_AD_OpNB_U32(ad, NULL, peer, (void *)off, GEX_OP_SET, 21, 0,
                                   GEX_FLAG_PEER_SEG_OFFSET));
    gex_Event_Wait(gex_AD_OpNB_U32(ad, (uint32_t *)(uintptr_t)lay.offsets, peer, (void *)off,
                                   GEX_OP_FADD, 2, 0,
                                   GEX_FLAG_PEER_SEG_OFFSET | GEX_FLAG_SELF_SEG_OFFSET));
    CHECK(*res == 21, "SELF_SEG_OFFSET result %u", *res);
    gex_Event_Wait(gex_AD_OpNB_U32(ad, &r, peer, base[peer] + off, GEX_OP_GET, 0, 0,
                                   GEX_FLAG_PEER_SEG_BOUND | GEX_FLAG_SELF_SEG_SOME |
                                   GEX_FLAG_IMMEDIATE));
    CHECK(r == 23, "PEER_SEG_OFFSET: target holds %u", r);
    /* RANK_IS_JOBRANK on the primordial team */
    gex_Event_Wait(gex_AD_OpNB_U32(ad, &r, peer, base[peer] + off, GEX_OP_FADD, 1, 0,
                                   GEX_FLAG_RANK_IS_JOBRANK));
    CHECK(r == 23, "RANK_IS_JOBRANK: fetched %u", r);
    checks += 5;
    barrier(tm0);
    gex_AD_Destroy(ad);
}

/* ---- split teams: ranks differ from jobranks */

static void split_team(gex_TM_t tm, const char *name)
{
    gex_Rank_t n = gex_TM_QuerySize(tm), rank = gex_TM_QueryRank(tm);
    gex_AD_t ad;
    gex_AD_Create(&ad, tm, GEX_DT_I64, GEX_OP_SET | GEX_OP_FADD | GEX_OP_GET, 0);
    for (gex_Rank_t r = 0; r < n; r++) {
        gex_Rank_t job = gex_TM_TranslateRankToJobrank(tm, r);
        int64_t *w = (int64_t *)(base[job] + lay.split + 8 * me);
        /* by team rank, then by jobrank: the same word */
        gex_Event_Wait(gex_AD_OpNB_I64(ad, NULL, r, w, GEX_OP_SET, 1000 * (int64_t)me, 0, 0));
        int64_t old = -1;
        gex_Event_Wait(gex_AD_OpNB_I64(ad, &old, job, w, GEX_OP_FADD, job, 0,
                                       GEX_FLAG_RANK_IS_JOBRANK));
        CHECK(old == 1000 * (int64_t)me, "%s team: rank %u (jobrank %u) fetched %lld", name, r,
              job, (long long)old);
    }
    checks++;
    barrier(tm);
    /* the atomic phase is over: each member reads its words directly */
    for (gex_Rank_t r = 0; r < n; r++) {
        gex_Rank_t job = gex_TM_TranslateRankToJobrank(tm, r);
        int64_t v;
        memcpy(&v, seg + lay.split + 8 * job, 8);
        CHECK(v == 1000 * (int64_t)job + me, "%s team, rank %u: word of jobrank %u holds %lld",
              name, rank, job, (long long)v);
    }
    barrier(tm);
    gex_AD_Destroy(ad);
}

/* ---- release/acquire: data put before a release SET is seen after the
 * acquire GET that sees the flag */

static gex_AD_t handoff_ad;

static int flag_seen(void)
{
    int64_t v = 0;
    gex_Event_Wait(gex_AD_OpNB_I64(handoff_ad, &v, me, seg + lay.handoff, GEX_OP_GET, 0, 0,
                                   GEX_FLAG_AD_ACQ));
    return v == 1;
}

static void handoff(void)
{
    memset(seg + lay.handoff, 0, 8);
    gex_AD_Create(&handoff_ad, tm0, GEX_DT_I64, GEX_OP_SET | GEX_OP_GET, 0);
    barrier(tm0); /* every flag is clear */
    gex_Rank_t next = (me + 1) % nodes;
    unsigned char data[512];
    for (int i = 0; i < 512; i++) data[i] = (unsigned char)(me * 31 + i);
    gex_RMA_PutBlocking(tm0, next, base[next] + lay.handoff + 64, data, sizeof data, 0);
    gex_Event_Wait(gex_AD_OpNB_I64(handoff_ad, NULL, next, base[next] + lay.handoff, GEX_OP_SET, 1, 0,
                                   GEX_FLAG_AD_REL));
    GASNET_BLOCKUNTIL(flag_seen());
    gex_Rank_t prev = (me + nodes - 1) % nodes;
    const unsigned char *got = (const unsigned char *)seg + lay.handoff + 64;
    for (int i = 0; i < 512; i++)
        CHECK(got[i] == (unsigned char)(prev * 31 + i), "hand-off byte %d is %u", i, got[i]);
    checks++;
    barrier(tm0);
    gex_AD_Destroy(handoff_ad);
}

/* ---- contention */

static int nthreads = 1;
static long iters = 200;
static gex_AD_t ad_i64, ad_u32, ad_dbl, ad_u64;
static gex_Rank_t hot[2]; /* the nodes holding the words: 0 and the last */

typedef struct {
    int id; /* rank * nthreads + thread */
    uint64_t fadd_sum, swap_sum;
} worker_t;

#define W(node, i) (base[node] + lay.cont + 8 * (i))

static void *contend(void *arg)
{
    worker_t *wk = arg;
    gex_Rank_t t = hot[wk->id % 2];
    int64_t prev = -1;
    for (long i = 0; i < iters; i++) {
        /* fetch-and-add: this thread's values increase; all are distinct */
        int64_t v;
        gex_Event_Wait(gex_AD_OpNB_I64(ad_i64, &v, hot[0], W(hot[0], W_FADD), GEX_OP_FADD, 1, 0, 0));
        CHECK(v > prev, "fetch-and-add fetched %lld after %lld", (long long)v, (long long)prev);
        prev = v;
        wk->fadd_sum += (uint64_t)v;
        /* mixed: +1 (NBI), +2 (NB), -1 (NBI with REL): +2 per iteration */
        gex_AD_OpNBI_I64(ad_i64, NULL, t, W(t, W_MIX), GEX_OP_INC, 0, 0, 0);
        gex_Event_Wait(gex_AD_OpNB_I64(ad_i64, NULL, t, W(t, W_MIX), GEX_OP_ADD, 2, 0, GEX_FLAG_AD_ACQ));
        gex_AD_OpNBI_I64(ad_i64, NULL, t, W(t, W_MIX), GEX_OP_DEC, 0, 0, GEX_FLAG_AD_REL);
        if (i % 16 == 15) gex_NBI_Wait(GEX_EC_RMW, 0);
        /* a counter made of compare-and-swap */
        uint32_t cur;
        gex_Event_Wait(gex_AD_OpNB_U32(ad_u32, &cur, t, W(t, W_CAS), GEX_OP_GET, 0, 0, 0));
        for (;;) {
            uint32_t old;
            gex_Event_Wait(gex_AD_OpNB_U32(ad_u32, &old, t, W(t, W_CAS), GEX_OP_FCAS, cur, cur + 1,
                                           GEX_FLAG_AD_ACQ | GEX_FLAG_AD_REL));
            if (old == cur) break;
            cur = old;
        }
        /* double adds of 0.5 (exact) */
        gex_AD_OpNBI_DBL(ad_dbl, NULL, t, W(t, W_DBL), GEX_OP_ADD, 0.5, 0, 0);
        /* a swap chain: every value swapped in comes out once, or stays */
        int64_t out;
        int64_t id = (int64_t)wk->id * iters + i + 1;
        gex_Event_Wait(gex_AD_OpNB_I64(ad_i64, &out, hot[0], W(hot[0], W_SWAP), GEX_OP_SWAP, id, 0, 0));
        wk->swap_sum += (uint64_t)out;
    }
    /* one bit per (node, thread): bit id % 64 of OR word id / 64 */
    gex_AD_OpNBI_U64(ad_u64, NULL, t, W(t, W_OR + wk->id / 64), GEX_OP_OR, 1ull << (wk->id % 64), 0, 0);
    gex_NBI_Wait(GEX_EC_ALL, 0);
    return NULL;
}

static void contention(void)
{
    hot[0] = 0;
    hot[1] = nodes - 1;
    int or_words = (int)(((uint64_t)nodes * (uint64_t)nthreads + 63) / 64);
    memset(seg + lay.cont, 0, 8 * (size_t)(W_OR + or_words));
    gex_AD_Create(&ad_i64, tm0, GEX_DT_I64,
                  GEX_OP_FADD | GEX_OP_INC | GEX_OP_ADD | GEX_OP_DEC | GEX_OP_SWAP | GEX_OP_GET, 0);
    gex_AD_Create(&ad_u32, tm0, GEX_DT_U32, GEX_OP_GET | GEX_OP_FCAS, 0);
    gex_AD_Create(&ad_dbl, tm0, GEX_DT_DBL, GEX_OP_ADD | GEX_OP_GET, 0);
    gex_AD_Create(&ad_u64, tm0, GEX_DT_U64, GEX_OP_OR | GEX_OP_GET, 0);
    barrier(tm0); /* the words are zero everywhere */
    worker_t wk[MAX_THREADS];
    pthread_t th[MAX_THREADS];
    for (int i = 0; i < nthreads; i++) wk[i] = (worker_t){(int)me * nthreads + i, 0, 0};
    for (int i = 1; i < nthreads; i++) CHECK(pthread_create(&th[i], NULL, contend, &wk[i]) == 0, "thread");
    contend(&wk[0]);
    for (int i = 1; i < nthreads; i++) pthread_join(th[i], NULL);
    uint64_t sums[2] = {0, 0};
    for (int i = 0; i < nthreads; i++) sums[0] += wk[i].fadd_sum, sums[1] += wk[i].swap_sum;
    gex_RMA_PutBlocking(tm0, 0, base[0] + lay.totals + 16 * me, sums, sizeof sums, 0);
    barrier(tm0);
    if (me == 0) {
        uint64_t m = (uint64_t)nodes * (uint64_t)nthreads * (uint64_t)iters, fadd = 0, swap = 0;
        for (gex_Rank_t r = 0; r < nodes; r++) {
            uint64_t s[2];
            memcpy(s, seg + lay.totals + 16 * r, sizeof s);
            fadd += s[0];
            swap += s[1];
        }
        int64_t v, last;
        gex_Event_Wait(gex_AD_OpNB_I64(ad_i64, &v, 0, W(0, W_FADD), GEX_OP_GET, 0, 0, 0));
        CHECK((uint64_t)v == m, "fetch-and-add counter %lld, expected %llu", (long long)v,
              (unsigned long long)m);
        CHECK(fadd == m * (m - 1) / 2, "fetched values sum to %llu, expected %llu (each of "
              "0..%llu once)", (unsigned long long)fadd, (unsigned long long)(m * (m - 1) / 2),
              (unsigned long long)(m - 1));
        gex_Event_Wait(gex_AD_OpNB_I64(ad_i64, &last, 0, W(0, W_SWAP), GEX_OP_GET, 0, 0, 0));
        CHECK(swap + (uint64_t)last == m * (m + 1) / 2, "swap chain: fetched %llu + final %lld, "
              "expected %llu", (unsigned long long)swap, (long long)last,
              (unsigned long long)(m * (m + 1) / 2));
        /* the words split between the two hot nodes by worker parity */
        uint64_t per[2] = {0, 0}, *bits[2];
        bits[0] = calloc(2 * (size_t)or_words, sizeof *bits[0]);
        CHECK(bits[0], "out of memory");
        bits[1] = bits[0] + or_words;
        for (gex_Rank_t r = 0; r < nodes; r++)
            for (int i = 0; i < nthreads; i++) {
                int id = (int)r * nthreads + i;
                per[id % 2] += (uint64_t)iters;
                bits[id % 2][id / 64] |= 1ull << (id % 64);
            }
        for (int h = 0; h < 2 && !(h == 1 && hot[1] == hot[0]); h++) {
            gex_Rank_t t = hot[h];
            uint64_t want = hot[0] == hot[1] ? per[0] + per[1] : per[h];
            int64_t mix;
            uint32_t cas;
            double d;
            gex_Event_Wait(gex_AD_OpNB_I64(ad_i64, &mix, t, W(t, W_MIX), GEX_OP_GET, 0, 0, 0));
            gex_Event_Wait(gex_AD_OpNB_U32(ad_u32, &cas, t, W(t, W_CAS), GEX_OP_GET, 0, 0, 0));
            gex_Event_Wait(gex_AD_OpNB_DBL(ad_dbl, &d, t, W(t, W_DBL), GEX_OP_GET, 0, 0, 0));
            CHECK((uint64_t)mix == 2 * want, "node %u: INC/ADD/DEC word %lld, expected %llu", t,
                  (long long)mix, (unsigned long long)(2 * want));
            CHECK(cas == (uint32_t)want, "node %u: CAS counter %u, expected %llu", t, cas,
                  (unsigned long long)want);
            CHECK(d == 0.5 * (double)want, "node %u: double sum %.17g, expected %.17g", t, d,
                  0.5 * (double)want);
            for (int k = 0; k < or_words; k++) {
                uint64_t orv, want_bits = hot[0] == hot[1] ? bits[0][k] | bits[1][k] : bits[h][k];
                gex_Event_Wait(gex_AD_OpNB_U64(ad_u64, &orv, t, W(t, W_OR + k), GEX_OP_GET, 0, 0, 0));
                CHECK(orv == want_bits, "node %u: OR word %d 0x%llx, expected 0x%llx", t, k,
                      (unsigned long long)orv, (unsigned long long)want_bits);
            }
        }
        free(bits[0]);
        checks += 7;
        printf("ex_ratomic: contention: %u nodes x %d threads x %ld iterations exact\n", nodes,
               nthreads, iters);
        fflush(stdout);
    }
    barrier(tm0);
    gex_AD_Destroy(ad_i64);
    gex_AD_Destroy(ad_u32);
    gex_AD_Destroy(ad_dbl);
    gex_AD_Destroy(ad_u64);
}

/* ---- bad input: each case must stop the job with a clear message */

static gex_AD_t handler_ad;

static void ad_in_handler(gex_Token_t t)
{
    (void)t;
    gex_AD_OpNBI_I64(handler_ad, NULL, me, seg, GEX_OP_SET, 1, 0, 0);
}

static void bad_input(const char *c)
{
    gex_AD_t ad;
    int64_t r = 0;
    gex_Rank_t peer = (me + 1) % nodes;
    void *w = base[peer] + SLOT + 8 * me;
    gex_OP_t ops = GEX_OP_FADD | GEX_OP_GET;
    if (!strcmp(c, "fp_bitwise")) gex_AD_Create(&ad, tm0, GEX_DT_DBL, GEX_OP_ADD | GEX_OP_FXOR, 0);
    if (!strcmp(c, "user_type")) gex_AD_Create(&ad, tm0, GEX_DT_USER, GEX_OP_ADD, 0);
    if (!strcmp(c, "user_op")) gex_AD_Create(&ad, tm0, GEX_DT_I32, GEX_OP_USER, 0);
    if (!strcmp(c, "two_favor"))
        gex_AD_Create(&ad, tm0, GEX_DT_I32, GEX_OP_ADD,
                      GEX_FLAG_AD_FAVOR_MY_RANK | GEX_FLAG_AD_FAVOR_REMOTE);
    if (!strcmp(c, "mismatch")) { /* found in the polls after the create: the barrier's */
        gex_AD_Create(&ad, tm0, me ? GEX_DT_U64 : GEX_DT_I64, ops, 0);
        barrier(tm0);
    }
    if (!strcmp(c, "jobrank_not_member")) { /* node 1 is not in node 0's team */
        gex_TM_t parity;
        gex_TM_Split(&parity, tm0, (int)(me % 2), 0, NULL, 0, 0);
        gex_AD_Create(&ad, parity, GEX_DT_I64, ops, 0);
        if (me == 0) gex_AD_OpNB_I64(ad, &r, 1, w, GEX_OP_GET, 0, 0, GEX_FLAG_RANK_IS_JOBRANK);
    }
    gex_AD_Create(&ad, tm0, GEX_DT_I64, ops, 0);
    if (!strcmp(c, "in_handler")) { /* debug builds: node 1's handler stops the job */
        gex_AM_Entry_t e = {0, (gex_AM_Fn_t)ad_in_handler, GEX_FLAG_AM_SHORT | GEX_FLAG_AM_REQUEST,
                            0, NULL, "ad_in_handler"};
        handler_ad = ad;
        CHECK(gex_EP_RegisterHandlers(gex_TM_QueryEP(tm0), &e, 1) == GASNET_OK, "register");
        barrier(tm0);
        if (me == 0) {
            gex_AM_RequestShort0(tm0, 1, e.gex_index, 0);
            GASNET_BLOCKUNTIL(0); /* until node 1 stops the job */
        }
    }
    if (me != 0) {
        barrier(tm0); /* node 0 stops the job */
        return;
    }
    if (!strcmp(c, "not_in_ops")) gex_AD_OpNB_I64(ad, &r, peer, w, GEX_OP_FSUB, 1, 0, 0);
    if (!strcmp(c, "two_ops")) gex_AD_OpNB_I64(ad, &r, peer, w, GEX_OP_FADD | GEX_OP_GET, 1, 0, 0);
    if (!strcmp(c, "wrong_type")) gex_AD_OpNBI_U32(ad, NULL, peer, w, GEX_OP_FADD, 1, 0, 0);
    if (!strcmp(c, "misaligned")) gex_AD_OpNB_I64(ad, &r, peer, (char *)w + 4, GEX_OP_FADD, 1, 0, 0);
    if (!strcmp(c, "outside")) gex_AD_OpNB_I64(ad, &r, peer, base[peer] + segsize[peer], GEX_OP_GET, 0, 0, 0);
    if (!strcmp(c, "bad_rank")) gex_AD_OpNBI_I64(ad, &r, nodes, w, GEX_OP_GET, 0, 0, 0);
    if (!strcmp(c, "bad_jobrank"))
        gex_AD_OpNBI_I64(ad, &r, nodes + 3, w, GEX_OP_GET, 0, 0, GEX_FLAG_RANK_IS_JOBRANK);
    if (!strcmp(c, "bad_flag")) gex_AD_OpNB_I64(ad, &r, peer, w, GEX_OP_GET, 0, 0, 1U << 20);
    if (!strcmp(c, "rank_and_nbrhd"))
        gex_AD_OpNB_I64(ad, &r, me, seg, GEX_OP_GET, 0, 0, GEX_FLAG_AD_MY_RANK | GEX_FLAG_AD_MY_NBRHD);
    if (!strcmp(c, "not_my_rank")) gex_AD_OpNB_I64(ad, &r, peer, w, GEX_OP_GET, 0, 0, GEX_FLAG_AD_MY_RANK);
    if (!strcmp(c, "null_result")) gex_AD_OpNB_I64(ad, NULL, peer, w, GEX_OP_FADD, 1, 0, 0);
    if (!strcmp(c, "not_a_domain")) gex_AD_OpNB_I64((gex_AD_t)&r, &r, peer, w, GEX_OP_GET, 0, 0, 0);
    fprintf(stderr, "ex_ratomic: case %s was not fatal\n", c);
    gasnet_exit(3);
}

int main(int argc, char **argv)
{
    gex_Client_t client;
    gex_EP_t ep;
    gex_Segment_t segment;
    if (gex_Client_Init(&client, &ep, &tm0, "ex_ratomic", &argc, &argv, 0) != GASNET_OK) return 1;
    me = gex_TM_QueryRank(tm0);
    nodes = gex_TM_QuerySize(tm0);
    layout();
    CHECK(gex_Segment_Attach(&segment, tm0, lay.size) == GASNET_OK, "attach");
    seg = gex_Segment_QueryAddr(segment);
    base = calloc(nodes, sizeof *base);
    segsize = calloc(nodes, sizeof *segsize);
    CHECK(base && segsize, "out of memory");
    for (gex_Rank_t r = 0; r < nodes; r++) {
        void *owner;
        CHECK(gex_Segment_QueryBound(tm0, r, &owner, NULL, &segsize[r]) == 0, "node %u: no segment", r);
        base[r] = owner;
    }
    const char *what = argc > 1 ? argv[1] : "all";
    int all = !strcmp(what, "all");
    if (!all && strcmp(what, "contend") != 0) {
        bad_input(what);
        gasnet_exit(0);
    }
#ifdef GASNET_PAR
    nthreads = argc > 2 ? atoi(argv[2]) : 4;
#endif
    if (argc > 3) iters = atol(argv[3]);
    CHECK(nthreads >= 1 && nthreads <= MAX_THREADS && iters > 0, "threads 1..%d and iterations > 0",
          MAX_THREADS);

    int cpu = mechanism(tm0, SLOT);
    report_mechanism("world", cpu);
    gex_TM_t pairs, parity;
    gex_TM_Split(&pairs, tm0, (int)(me / 2), (int)me, NULL, 0, 0);
    report_mechanism("pairs", mechanism(pairs, lay.split));
    gex_TM_Split(&parity, tm0, (int)(me % 2), -(int)me, NULL, 0, 0);
    report_mechanism("parity", mechanism(parity, lay.split));

    if (all) {
        all_types();
        nbi_categories(cpu != 0);
        queries_and_flags();
        split_team(pairs, "pairs");
        split_team(parity, "parity");
    }
    handoff();
    contention();

    gex_TM_Destroy(parity, NULL, 0);
    gex_TM_Destroy(pairs, NULL, 0);
    if (me == 0) printf("ex_ratomic: ok (%ld checks on node 0)\n", checks);
    fflush(stdout);
    barrier(tm0);
    gasnet_exit(0);
}
