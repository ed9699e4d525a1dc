/* Remote atomics (EX §14): atomic domains and gex_AD_Op{NB,NBI}_<T>.
 *
 * MECHANISM. gex_AD_Create decides, collectively, how the domain works:
 *   cpu      every member's bound segment is mapped into every member's
 *            process (all on one host, shm backend; or all in one
 *            process): an operation is a CPU atomic on the target word
 *            through the mapping, complete before the call returns, with
 *            no message.
 *   handler  otherwise: an operation on a word of another process is a
 *            Short request (GASNETE_H_AD_REQUEST) whose handler applies it
 *            on the target with the same CPU atomics and replies (with the
 *            old value for fetching opcodes); the reply completes the
 *            operation's counter. An operation on a word of the calling
 *            process is applied directly, as the handler would.
 * In both, every operation on a word is one CPU atomic instruction (or a
 * compare-and-swap loop) in the process that owns the memory or maps it,
 * so operations of one domain are atomic with each other whichever rank
 * or thread issues them, and members may use different mechanisms (a
 * handler applies the same instruction to the same memory as a member
 * that maps it). So each member decides alone, from what it maps, and
 * gex_AD_Create completes locally, waiting for no other member (as the
 * reference outside its debug builds; a client may create the domain on
 * one rank and wait, before creating it on another, for a message the
 * first sends afterwards). That dt, ops and the FAVOR hint are
 * single-valued is still checked: by a dissemination exchange of ceil(lg
 * N) rounds that runs detached, in the polls that follow, and stops the
 * job if two members disagree. Flags other than the FAVOR hints are
 * accepted and ignored, as the reference does (clients pass
 * GEX_FLAG_PEER_SEG_OFFSET and others), and kept for gex_AD_QueryFlags.
 * The GEX_FLAG_AD_FAVOR_* hints are checked and kept but change nothing:
 * where the cpu mechanism is possible it is the fastest for every target.
 * A domain created before the segments are attached (no shm mappings yet)
 * uses the handler mechanism. gex_AD_Destroy frees the local record only.
 *
 * OPERATIONS. Integer ADD, SUB, INC, DEC, AND, OR, XOR, SET, SWAP, CAS and
 * GET map to one atomic builtin; MULT, MIN, MAX and every floating-point
 * arithmetic are compare-and-swap loops. Signed arithmetic wraps (done on
 * the unsigned type). Floating-point SET, SWAP, CAS and GET work on the bit
 * pattern (the spec allows CAS to compare bits). GEX_FLAG_AD_REL makes the
 * atomic a release, GEX_FLAG_AD_ACQ an acquire (a GET with REL and a SET
 * with ACQ become read-modify-writes to carry them).
 *
 * COMPLETION. NB calls return GEX_EVENT_INVALID when done at once, else a
 * new operation record; NBI calls count in the thread's NBI record: SET in
 * GEX_EC_PUT, GET in GEX_EC_GET, every other opcode in GEX_EC_RMW. A
 * fetching reply writes the old value into result_p before completing.
 *
 * TRUST. The initiator checks the domain, type, opcode, flags, rank,
 * alignment and segment range (fatal, naming the call and the value); the
 * target's handler checks the type, opcode, alignment and range again
 * against its own endpoint's segment, and a reply names an operation
 * record of this process before anything is written.
 *
 * MEMORY. A domain is one record, plus for a team that is not the
 * primordial one a jobrank -> rank table (4 bytes per process in the job)
 * for GEX_FLAG_RANK_IS_JOBRANK. Operations in flight use the events'
 * records only.
 */
#include "coll.h"
#include "extended.h"
#include "route.h"

#include <gasnet_ratomic.h>

#include <stdlib.h>
#include <string.h>

#define GASNETI_AD_MAGIC 0x41544f4du

struct gasneti_ad_s {
    uint32_t magic;
    gasneti_tm_t tm;
    gex_DT_t dt;
    int dti;         /* index of dt: I32, U32, I64, U64, FLT, DBL */
    gex_OP_t ops;
    gex_Flags_t flags;
    void *cdata;
    int cpu;         /* 1: the cpu mechanism; 0: the handler mechanism */
    gex_Rank_t *rank_of_jobrank; /* NULL: the primordial team (identity) */
};
typedef struct gasneti_ad_s *gasneti_ad_t;

enum { DT_I32, DT_U32, DT_I64, DT_U64, DT_FLT, DT_DBL, NDT };
static const char *const dt_name[NDT] = {"GEX_DT_I32", "GEX_DT_U32", "GEX_DT_I64",
                                         "GEX_DT_U64", "GEX_DT_FLT", "GEX_DT_DBL"};
static const size_t dt_size[NDT] = {4, 4, 8, 8, 4, 8};

#define BITWISE_OPS (GEX_OP_AND | GEX_OP_OR | GEX_OP_XOR | GEX_OP_FAND | GEX_OP_FOR | GEX_OP_FXOR)
#define FETCHING_OPS                                                                          \
    (GEX_OP_FAND | GEX_OP_FOR | GEX_OP_FXOR | GEX_OP_FADD | GEX_OP_FSUB | GEX_OP_FMULT |      \
     GEX_OP_FMIN | GEX_OP_FMAX | GEX_OP_FINC | GEX_OP_FDEC | GEX_OP_SWAP | GEX_OP_FCAS |      \
     GEX_OP_GET)
#define INT_OPS                                                                               \
    (BITWISE_OPS | GEX_OP_ADD | GEX_OP_SUB | GEX_OP_MULT | GEX_OP_MIN | GEX_OP_MAX |          \
     GEX_OP_INC | GEX_OP_DEC | GEX_OP_SET | GEX_OP_CAS | FETCHING_OPS)
#define FP_OPS (INT_OPS & ~BITWISE_OPS)
static const gex_OP_t valid_ops[NDT] = {INT_OPS, INT_OPS, INT_OPS, INT_OPS, FP_OPS, FP_OPS};

#define FAVOR_FLAGS \
    (GEX_FLAG_AD_FAVOR_MY_RANK | GEX_FLAG_AD_FAVOR_MY_NBRHD | GEX_FLAG_AD_FAVOR_REMOTE)
#define SELF_SEG_FLAGS                                                                  \
    (GEX_FLAG_SELF_SEG_UNKNOWN | GEX_FLAG_SELF_SEG_SOME | GEX_FLAG_SELF_SEG_BOUND |     \
     GEX_FLAG_SELF_SEG_OFFSET)
#define PEER_SEG_FLAGS                                                                  \
    (GEX_FLAG_PEER_SEG_UNKNOWN | GEX_FLAG_PEER_SEG_SOME | GEX_FLAG_PEER_SEG_BOUND |     \
     GEX_FLAG_PEER_SEG_OFFSET)
#define ORDER_FLAGS (GEX_FLAG_AD_ACQ | GEX_FLAG_AD_REL)
#define OP_FLAGS                                                                        \
    (GEX_FLAG_IMMEDIATE | SELF_SEG_FLAGS | PEER_SEG_FLAGS | GEX_FLAG_AD_MY_RANK |       \
     GEX_FLAG_AD_MY_NBRHD | ORDER_FLAGS | GEX_FLAG_RANK_IS_JOBRANK)

static int one_bit(uint32_t x) { return x && !(x & (x - 1)); }

/* "GEX_OP_ADD|GEX_OP_FADD" into buf (every name fits in 512 bytes). */
static const char *op_names(char buf[512], gex_OP_t ops)
{
    if (gasnett_format_op(NULL, ops) > 512) return "(many operations)";
    gasnett_format_op(buf, ops);
    return buf;
}

/* ---- the atomics themselves */

/* Stores NEW (an expression of old, the word's current value) in the word
 * at p by compare-and-swap, retrying until no other write intervenes. */
#define CAS_LOOP(UT, p, old, NEW)                                                    \
    do {                                                                              \
        old = __atomic_load_n(p, __ATOMIC_RELAXED);                                   \
        while (!__atomic_compare_exchange_n(p, &old, (UT)(NEW), 1, mo, fail)) {}      \
    } while (0)

#define INT_APPLY(T, UT)                                                                    \
    do {                                                                                    \
        UT *w = p, x = (UT)a, y = (UT)b, old = 0;                                           \
        switch (op) {                                                                       \
        case GEX_OP_ADD: case GEX_OP_FADD: old = __atomic_fetch_add(w, x, mo); break;       \
        case GEX_OP_SUB: case GEX_OP_FSUB: old = __atomic_fetch_sub(w, x, mo); break;       \
        case GEX_OP_INC: case GEX_OP_FINC: old = __atomic_fetch_add(w, (UT)1, mo); break;   \
        case GEX_OP_DEC: case GEX_OP_FDEC: old = __atomic_fetch_sub(w, (UT)1, mo); break;   \
        case GEX_OP_AND: case GEX_OP_FAND: old = __atomic_fetch_and(w, x, mo); break;       \
        case GEX_OP_OR: case GEX_OP_FOR: old = __atomic_fetch_or(w, x, mo); break;          \
        case GEX_OP_XOR: case GEX_OP_FXOR: old = __atomic_fetch_xor(w, x, mo); break;       \
        case GEX_OP_MULT: case GEX_OP_FMULT: CAS_LOOP(UT, w, old, old * x); break;          \
        case GEX_OP_MIN: case GEX_OP_FMIN:                                                  \
            CAS_LOOP(UT, w, old, (T)old < (T)x ? old : x); break;                           \
        case GEX_OP_MAX: case GEX_OP_FMAX:                                                  \
            CAS_LOOP(UT, w, old, (T)old > (T)x ? old : x); break;                           \
        default: return bits_apply_##UT(op, w, x, y, mo, fail, acq, rel);                   \
        }                                                                                   \
        return old;                                                                         \
    } while (0)

/* Floating-point arithmetic as a compare-and-swap loop on the bits: CUR
 * is the word's current value as FT, EXPR the value to store. */
#define CUR(FT) fp_##FT##_of(old)
#define FP_LOOP(FT, UT, EXPR) CAS_LOOP(UT, w, old, fp_##FT(EXPR))
#define FP_APPLY(FT, UT)                                                                    \
    do {                                                                                    \
        UT *w = p, old = 0, xb = (UT)a;                                                     \
        FT x = fp_##FT##_of(xb);                                                            \
        switch (op) {                                                                       \
        case GEX_OP_ADD: case GEX_OP_FADD: FP_LOOP(FT, UT, CUR(FT) + x); break;             \
        case GEX_OP_SUB: case GEX_OP_FSUB: FP_LOOP(FT, UT, CUR(FT) - x); break;             \
        case GEX_OP_MULT: case GEX_OP_FMULT: FP_LOOP(FT, UT, CUR(FT) * x); break;           \
        case GEX_OP_INC: case GEX_OP_FINC: FP_LOOP(FT, UT, CUR(FT) + 1); break;             \
        case GEX_OP_DEC: case GEX_OP_FDEC: FP_LOOP(FT, UT, CUR(FT) - 1); break;             \
        case GEX_OP_MIN: case GEX_OP_FMIN: CAS_LOOP(UT, w, old, CUR(FT) < x ? old : xb); break; \
        case GEX_OP_MAX: case GEX_OP_FMAX: CAS_LOOP(UT, w, old, CUR(FT) > x ? old : xb); break; \
        default: return bits_apply_##UT(op, w, xb, (UT)b, mo, fail, acq, rel);              \
        }                                                                                   \
        return old;                                                                         \
    } while (0)

static inline uint32_t fp_float(float f) { uint32_t u; memcpy(&u, &f, sizeof u); return u; }
static inline float fp_float_of(uint32_t u) { float f; memcpy(&f, &u, sizeof f); return f; }
static inline uint64_t fp_double(double d) { uint64_t u; memcpy(&u, &d, sizeof u); return u; }
static inline double fp_double_of(uint64_t u) { double d; memcpy(&d, &u, sizeof d); return d; }

/* SET, SWAP, CAS and GET on the bits of a word. A SET with ACQ and a GET
 * with REL are read-modify-writes: a plain store cannot acquire, nor a
 * plain load release. */
#define BITS_APPLY(UT)                                                                      \
    static inline __attribute__((always_inline)) UT bits_apply_##UT(                        \
        gex_OP_t op, UT *w, UT x, UT y, int mo, int fail, int acq, int rel)                 \
    {                                                                                       \
        UT old = x;                                                                         \
        switch (op) {                                                                       \
        case GEX_OP_SET:                                                                    \
            if (acq) return __atomic_exchange_n(w, x, mo);                                  \
            __atomic_store_n(w, x, rel ? __ATOMIC_RELEASE : __ATOMIC_RELAXED);              \
            return 0;                                                                       \
        case GEX_OP_SWAP: return __atomic_exchange_n(w, x, mo);                             \
        case GEX_OP_CAS: case GEX_OP_FCAS:                                                  \
            __atomic_compare_exchange_n(w, &old, y, 0, mo, fail);                           \
            return old;                                                                     \
        case GEX_OP_GET:                                                                    \
            if (rel) return __atomic_fetch_or(w, (UT)0, mo);                                \
            return __atomic_load_n(w, acq ? __ATOMIC_ACQUIRE : __ATOMIC_RELAXED);           \
        default:                                                                            \
            gasneti_fatalerror("remote atomics: opcode 0x%x reached the CPU path",          \
                               (unsigned)op);                                               \
        }                                                                                   \
    }
BITS_APPLY(uint32_t)
BITS_APPLY(uint64_t)

/* Applies op to the word at p with memory orders mo (success) and fail
 * (a failed compare-and-swap); a and b are the operands' bits. Returns
 * the old value's bits. Always inlined so that the orders are constants. */
static inline __attribute__((always_inline)) uint64_t apply_mo(int dti, gex_OP_t op, void *p,
                                                               uint64_t a, uint64_t b, int mo,
                                                               int fail, int acq, int rel)
{
    switch (dti) {
    case DT_I32: INT_APPLY(int32_t, uint32_t);
    case DT_U32: INT_APPLY(uint32_t, uint32_t);
    case DT_I64: INT_APPLY(int64_t, uint64_t);
    case DT_U64: INT_APPLY(uint64_t, uint64_t);
    case DT_FLT: FP_APPLY(float, uint32_t);
    default: FP_APPLY(double, uint64_t);
    }
}

/* The atomic with the orders GEX_FLAG_AD_ACQ and _REL in flags ask for. */
static uint64_t apply(int dti, gex_OP_t op, void *p, uint64_t a, uint64_t b, gex_Flags_t flags)
{
    switch (flags & ORDER_FLAGS) {
    case 0:
        return apply_mo(dti, op, p, a, b, __ATOMIC_RELAXED, __ATOMIC_RELAXED, 0, 0);
    case GEX_FLAG_AD_ACQ:
        return apply_mo(dti, op, p, a, b, __ATOMIC_ACQUIRE, __ATOMIC_ACQUIRE, 1, 0);
    case GEX_FLAG_AD_REL:
        return apply_mo(dti, op, p, a, b, __ATOMIC_RELEASE, __ATOMIC_RELAXED, 0, 1);
    default:
        return apply_mo(dti, op, p, a, b, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE, 1, 1);
    }
}

/* Writes the low dt_size[dti] bytes of v (a value's bits) to dest. */
static void store_result(void *dest, uint64_t v, int dti)
{
    if (dt_size[dti] == 4) {
        uint32_t v32 = (uint32_t)v;
        memcpy(dest, &v32, 4);
    } else {
        memcpy(dest, &v, 8);
    }
}

/* The NBI counter of an opcode (EX §11.1). */
static int category(gex_OP_t op)
{
    return op == GEX_OP_SET ? GASNETI_PUT : op == GEX_OP_GET ? GASNETI_GET : GASNETI_RMW;
}

/* ---- domains */

static gasneti_ad_t import_ad(gex_AD_t ad, const char *call)
{
    if (__builtin_expect(!ad || ad->magic != GASNETI_AD_MAGIC, 0))
        gasneti_bad_handle(call, "atomic domain", ad);
    return ad;
}

/* Whether the member at loc has its bound segment mapped into this
 * process (as gex_Segment_QueryBound decides): its own endpoints, the
 * primordial segments of the neighbours the shm backend serves, and their
 * created endpoints' GASNet-allocated segments once published. */
static int mapped_here(gex_EP_Location_t loc)
{
    if (loc.gex_rank == gasneti_mynode) return 1;
    const gasnet_seginfo_t *s = gasneti_peer_segment(loc);
    return s && gasneti_peer_local(loc, s->addr) != NULL;
}

/* What each member sends in the creation check. */
typedef struct {
    uint32_t dt, ops, flags; /* flags: the FAVOR hint only */
    uint32_t unused;         /* 0 */
} create_rec_t;

typedef struct {
    create_rec_t mine;
} create_state_t;

/* Dissemination: in round r a member sends its record to rank + 2^r and
 * takes the one of rank - 2^r. A member whose arguments differ from its
 * predecessor's stops the job (if any two differ, some neighbours do). */
static int create_progress(gasnete_coll_op_t *op)
{
    gasneti_tm_t tm = op->tm;
    gex_Rank_t n = tm->size;
    create_state_t *st = op->state;
    for (;;) {
        int round = op->step / 2;
        if ((1UL << round) >= n) return 1;
        gex_Rank_t d = (gex_Rank_t)(1UL << round), from = (tm->rank + n - d) % n;
        if (op->step % 2 == 0) {
            gasnete_coll_send(op, round, (tm->rank + d) % n, &st->mine, sizeof st->mine);
            op->step++;
        }
        create_rec_t in;
        long len = gasnete_coll_take(op, round, from, &in, sizeof in);
        if (len < 0) return 0;
        if (len != (long)sizeof in || in.unused)
            gasneti_fatalerror("gex_AD_Create: malformed record from rank %u of the team", from);
        if (in.dt != st->mine.dt || in.ops != st->mine.ops || in.flags != st->mine.flags) {
            char a[512], b[512], da[64] = "?", db[64] = "?";
            if (gasnett_format_dt(NULL, st->mine.dt) <= sizeof da) gasnett_format_dt(da, st->mine.dt);
            if (gasnett_format_dt(NULL, in.dt) <= sizeof db) gasnett_format_dt(db, in.dt);
            gasneti_fatalerror("gex_AD_Create: dt, ops and flags must be single-valued, but rank "
                               "%u passed dt %s, ops %s, flags 0x%x and rank %u passed dt %s, "
                               "ops %s, flags 0x%x", tm->rank, da, op_names(a, st->mine.ops),
                               (unsigned)st->mine.flags, from, db, op_names(b, in.ops),
                               (unsigned)in.flags);
        }
        op->step++;
    }
}

void gex_AD_Create(gex_AD_t *ad_p, gex_TM_t tm_, gex_DT_t dt, gex_OP_t ops, gex_Flags_t flags)
{
    const char *call = "gex_AD_Create";
    GASNETI_CHECK_READY(call);
    gasneti_tm_t tm = gasneti_import_team(tm_, call);
    GASNETI_CHECK_MAY_COMMUNICATE(call);
    if (!ad_p) gasneti_fatalerror("%s: ad_p is NULL", call);
    if (!one_bit(dt) || dt > GEX_DT_DBL) {
        char buf[256];
        gasnett_format_dt(buf, dt);
        gasneti_fatalerror("%s: dt %s is not one of GEX_DT_I32, _U32, _I64, _U64, _FLT, _DBL", call,
                           buf);
    }
    int dti = __builtin_ctz(dt);
    char buf[512];
    if (!ops) gasneti_fatalerror("%s: ops is 0 (name at least one GEX_OP_*)", call);
    if (ops & ~valid_ops[dti])
        gasneti_fatalerror("%s: ops include %s, not an atomic operation on %s%s", call,
                           op_names(buf, ops & ~valid_ops[dti]), dt_name[dti],
                           dti >= DT_FLT && (ops & BITWISE_OPS) ? " (bitwise operations are for "
                                                                 "integer types)" : "");
    gex_Flags_t favor = flags & FAVOR_FLAGS;
    if (favor && !one_bit(favor))
        gasneti_fatalerror("%s: flags 0x%x name more than one GEX_FLAG_AD_FAVOR_* hint", call,
                           (unsigned)flags);

    /* (an atomic domain is a collective object: seed 003's teams made
     * without scratch have none) */
    if (!tm->coll) gasneti_fatalerror("%s: the team was created without collectives", call);

    gasneti_ad_t ad = calloc(1, sizeof *ad);
    if (!ad) gasneti_fatalerror("%s: out of memory", call);
    int cpu = 1;
    for (gex_Rank_t r = 0; r < tm->size && cpu; r++) cpu = mapped_here(gasneti_tm_member(tm, r));
    if (tm->size > 1) {
        create_state_t *st = malloc(sizeof *st);
        if (!st) gasneti_fatalerror("%s: out of memory", call);
        st->mine = (create_rec_t){dt, ops, favor, 0};
        gasnete_coll_start_detached(gasnete_coll_op_new(tm, create_progress, st, call));
    }

    *ad = (struct gasneti_ad_s){GASNETI_AD_MAGIC, tm, dt, dti, ops, flags, NULL, cpu, NULL};
    if (tm->members) {
        ad->rank_of_jobrank = malloc(gasneti_nodes * sizeof *ad->rank_of_jobrank);
        if (!ad->rank_of_jobrank) gasneti_fatalerror("%s: out of memory", call);
        for (gex_Rank_t j = 0; j < gasneti_nodes; j++) ad->rank_of_jobrank[j] = GEX_RANK_INVALID;
        for (gex_Rank_t r = tm->size; r-- > 0;) ad->rank_of_jobrank[tm->members[r].gex_rank] = r;
    }
    GASNETI_TRACE_EVENT('O', call, "%p team %p dt 0x%x ops 0x%x", (void *)ad, (void *)tm,
                        (unsigned)dt, (unsigned)ops);
    *ad_p = ad;
}

void gex_AD_Destroy(gex_AD_t ad_)
{
    gasneti_ad_t ad = import_ad(ad_, "gex_AD_Destroy");
    GASNETI_TRACE_EVENT('O', "gex_AD_Destroy", "%p", (void *)ad);
    ad->magic = 0;
    free(ad->rank_of_jobrank);
    free(ad);
}

gex_Flags_t gex_AD_QueryFlags(gex_AD_t ad) { return import_ad(ad, "gex_AD_QueryFlags")->flags; }
gex_TM_t gex_AD_QueryTM(gex_AD_t ad) { return import_ad(ad, "gex_AD_QueryTM")->tm; }
gex_DT_t gex_AD_QueryDT(gex_AD_t ad) { return import_ad(ad, "gex_AD_QueryDT")->dt; }
gex_OP_t gex_AD_QueryOps(gex_AD_t ad) { return import_ad(ad, "gex_AD_QueryOps")->ops; }
void gex_AD_SetCData(gex_AD_t ad, const void *v) { import_ad(ad, "gex_AD_SetCData")->cdata = (void *)v; }
void *gex_AD_QueryCData(gex_AD_t ad) { return import_ad(ad, "gex_AD_QueryCData")->cdata; }

/* ---- operations */

/* The member an operation names: tgt_rank of the team, or with
 * GEX_FLAG_RANK_IS_JOBRANK a process hosting a member (its lowest rank). */
static gex_EP_Location_t target_of(gasneti_ad_t ad, gex_Rank_t tgt_rank, gex_Flags_t flags,
                                   const char *call)
{
    gasneti_tm_t tm = ad->tm;
    if (!(flags & GEX_FLAG_RANK_IS_JOBRANK)) return gasneti_tm_peer(tm, tgt_rank, call);
    if (tgt_rank >= gasneti_nodes)
        gasneti_fatalerror("%s: jobrank %u is not in the job (%u processes)", call, tgt_rank,
                           gasneti_nodes);
    gex_Rank_t r = ad->rank_of_jobrank ? ad->rank_of_jobrank[tgt_rank] : tgt_rank;
    if (r == GEX_RANK_INVALID)
        gasneti_fatalerror("%s: jobrank %u hosts no member of the domain's team", call, tgt_rank);
    return gasneti_tm_peer(tm, r, call);
}

static void check_flags(gex_Flags_t flags, const char *call)
{
    if (flags & ~OP_FLAGS)
        gasneti_fatalerror("%s: flags 0x%x are not flags of atomic operations", call,
                           (unsigned)(flags & ~OP_FLAGS));
    if ((flags & GEX_FLAG_AD_MY_RANK) && (flags & GEX_FLAG_AD_MY_NBRHD))
        gasneti_fatalerror("%s: GEX_FLAG_AD_MY_RANK and GEX_FLAG_AD_MY_NBRHD are exclusive", call);
    if ((flags & SELF_SEG_FLAGS) && !one_bit(flags & SELF_SEG_FLAGS))
        gasneti_fatalerror("%s: flags 0x%x name more than one GEX_FLAG_SELF_SEG_*", call,
                           (unsigned)(flags & SELF_SEG_FLAGS));
    if ((flags & PEER_SEG_FLAGS) && !one_bit(flags & PEER_SEG_FLAGS))
        gasneti_fatalerror("%s: flags 0x%x name more than one GEX_FLAG_PEER_SEG_*", call,
                           (unsigned)(flags & PEER_SEG_FLAGS));
}

/* Every NB and NBI call: checks, then the cpu path (done on return) or a
 * request to the target (counted in op's counter of the opcode's
 * category). Returns the root event (NB) or GEX_EVENT_INVALID. */
static gex_Event_t ad_op(gex_AD_t ad_, int nb, int dti, void *result_p, gex_Rank_t tgt_rank,
                         void *tgt_addr, gex_OP_t opcode, uint64_t a, uint64_t b,
                         gex_Flags_t flags, const char *call)
{
    gasneti_ad_t ad = import_ad(ad_, call);
    GASNETI_CHECK_MAY_COMMUNICATE(call);
    if (__builtin_expect(ad->dti != dti, 0))
        gasneti_fatalerror("%s: the domain's data type is %s, not %s", call, dt_name[ad->dti],
                           dt_name[dti]);
    if (__builtin_expect(!one_bit(opcode) || !(opcode & ad->ops), 0)) {
        char o[512], s[512];
        if (!one_bit(opcode))
            gasneti_fatalerror("%s: opcode %s must be exactly one GEX_OP_*", call,
                               op_names(o, opcode));
        gasneti_fatalerror("%s: opcode %s is not one of the domain's operations (%s)", call,
                           op_names(o, opcode), op_names(s, ad->ops));
    }
    if (flags) check_flags(flags, call);
    gex_EP_Location_t loc = target_of(ad, tgt_rank, flags, call);
    GASNETI_TRACE_EVENT('R', call, "peer %u addr %p op 0x%x a 0x%llx b 0x%llx flags 0x%x",
                        loc.gex_rank, tgt_addr, (unsigned)opcode, (unsigned long long)a,
                        (unsigned long long)b, (unsigned)flags);
    gasneti_tm_t tm = ad->tm;
    if (flags & GEX_FLAG_AD_MY_RANK) {
        gex_EP_Location_t me = gasneti_tm_member(tm, tm->rank);
        if (loc.gex_rank != me.gex_rank || loc.gex_ep_index != me.gex_ep_index)
            gasneti_fatalerror("%s: GEX_FLAG_AD_MY_RANK, but the target (rank %u) is not the "
                               "caller (rank %u)", call, tgt_rank, tm->rank);
    }
    if ((flags & GEX_FLAG_AD_MY_NBRHD) &&
        gasneti_nodeinfo[loc.gex_rank].supernode != gasneti_nodeinfo[gasneti_mynode].supernode)
        gasneti_fatalerror("%s: GEX_FLAG_AD_MY_NBRHD, but the target (jobrank %u) is not in the "
                           "caller's neighbourhood", call, loc.gex_rank);
    const gasnet_seginfo_t *seg = gasneti_peer_segment(loc);
    if ((flags & GEX_FLAG_PEER_SEG_OFFSET) && seg) tgt_addr = (char *)seg->addr + (uintptr_t)tgt_addr;
    size_t size = dt_size[dti];
    if (__builtin_expect((uintptr_t)tgt_addr % size != 0, 0))
        gasneti_fatalerror("%s: target address %p is not aligned for %s (%zu bytes)", call,
                           tgt_addr, dt_name[dti], size);
    if (__builtin_expect(!gasneti_in_seginfo(seg, tgt_addr, size), 0)) {
        char where[96] = "it has no bound segment";
        if (seg) snprintf(where, sizeof where, "[%p, +%lu)", seg->addr, (unsigned long)seg->size);
        gasneti_fatalerror("%s: target [%p, +%zu) lies outside the segment of rank %u (jobrank %u): "
                           "%s", call, tgt_addr, size, tgt_rank, loc.gex_rank, where);
    }
    int fetching = (opcode & FETCHING_OPS) != 0;
    if (fetching && (flags & GEX_FLAG_SELF_SEG_OFFSET)) {
        gex_EP_Location_t me = {gasneti_mynode, tm->ep->index};
        const gasnet_seginfo_t *mine = gasneti_peer_segment(me);
        if (!mine) gasneti_fatalerror("%s: GEX_FLAG_SELF_SEG_OFFSET, but the caller's endpoint "
                                      "has no bound segment", call);
        result_p = (char *)mine->addr + (uintptr_t)result_p;
    }
    if (__builtin_expect(fetching && !result_p, 0)) {
        char o[512];
        gasneti_fatalerror("%s: result_p is NULL for the fetching opcode %s", call,
                           op_names(o, opcode));
    }

    if (ad->cpu || loc.gex_rank == gasneti_mynode) {
        uint64_t old = apply(dti, opcode, gasneti_peer_local(loc, tgt_addr), a, b, flags);
        if (fetching) store_result(result_p, old, dti);
        if (!ad->cpu) gasneti_poll_after_loopback(loc.gex_rank); /* others may need serving */
        return GEX_EVENT_INVALID;
    }
    gasneti_op_t *op = nb ? gasneti_op_alloc(OP_EOP) : gasneti_nbi_op();
    int which = category(opcode);
    uintptr_t t = gasneti_target(op, which);
    void *r = fetching ? result_p : NULL;
    int32_t desc = dti | __builtin_ctz(opcode) << 4;
    if (flags & GEX_FLAG_AD_ACQ) desc |= 1 << 9;
    if (flags & GEX_FLAG_AD_REL) {
        desc |= 1 << 10;
        __atomic_thread_fence(__ATOMIC_RELEASE);
    }
    gasneti_add(op, which, 1);
    /* the ticket holds where the result goes (r) and its type */
    uint64_t k = gasnete_ticket_issue(GASNETE_TK_AD, loc.gex_rank, r, (size_t)dti, t);
    gasnete_am_request(tm, loc, AMMPI_SHORT, GASNETE_H_AD_REQUEST, NULL, 0, NULL, NULL, 9,
                       GASNETE_HI(tgt_addr), GASNETE_LO(tgt_addr), GASNETE_HI(a), GASNETE_LO(a),
                       GASNETE_HI(b), GASNETE_LO(b), GASNETE_HI(k), GASNETE_LO(k), desc);
    return nb ? gasneti_event_of(op) : GEX_EVENT_INVALID;
}

/* Operands as bits: integers zero-extended from their width, floats by
 * their representation. */
static inline uint64_t bits_i32(int32_t v) { return (uint32_t)v; }
static inline uint64_t bits_u32(uint32_t v) { return v; }
static inline uint64_t bits_i64(int64_t v) { return (uint64_t)v; }
static inline uint64_t bits_u64(uint64_t v) { return v; }
static inline uint64_t bits_flt(float v) { return fp_float(v); }
static inline uint64_t bits_dbl(double v) { return fp_double(v); }

#define AD_OPS(NAME, T, DTI, BITS)                                                            \
    gex_Event_t gex_AD_OpNB_##NAME(gex_AD_t ad, T *result_p, gex_Rank_t tgt_rank,             \
                                   void *tgt_addr, gex_OP_t opcode, T operand1, T operand2,   \
                                   gex_Flags_t flags)                                         \
    {                                                                                         \
        return ad_op(ad, 1, DTI, result_p, tgt_rank, tgt_addr, opcode, BITS(operand1),        \
                     BITS(operand2), flags, "gex_AD_OpNB_" #NAME);                            \
    }                                                                                         \
    int gex_AD_OpNBI_##NAME(gex_AD_t ad, T *result_p, gex_Rank_t tgt_rank, void *tgt_addr,    \
                            gex_OP_t opcode, T operand1, T operand2, gex_Flags_t flags)       \
    {                                                                                         \
        ad_op(ad, 0, DTI, result_p, tgt_rank, tgt_addr, opcode, BITS(operand1), BITS(operand2), \
              flags, "gex_AD_OpNBI_" #NAME);                                                  \
        return 0;                                                                             \
    }
AD_OPS(I32, int32_t, DT_I32, bits_i32)
AD_OPS(U32, uint32_t, DT_U32, bits_u32)
AD_OPS(I64, int64_t, DT_I64, bits_i64)
AD_OPS(U64, uint64_t, DT_U64, bits_u64)
AD_OPS(FLT, float, DT_FLT, bits_flt)
AD_OPS(DBL, double, DT_DBL, bits_dbl)

/* ---- handlers */

/* On the target: checks what the request names against this endpoint's
 * segment, applies it, and replies (with the old value when fetching). */
static void ad_request_h(ammpi_token_t tok, int32_t a_hi, int32_t a_lo, int32_t x_hi, int32_t x_lo,
                         int32_t y_hi, int32_t y_lo, int32_t k_hi, int32_t k_lo, int32_t desc)
{
    ammpi_token_info_t ti;
    ammpi_token_info(tok, &ti);
    unsigned dti = (unsigned)desc & 15, bit = ((unsigned)desc >> 4) & 31;
    if (dti >= NDT || ((unsigned)desc >> 11) != 0 || !(valid_ops[dti] & (1U << bit)))
        gasneti_fatalerror("an atomic from node %d names data type %u and opcode bit %u "
                           "(descriptor 0x%x), not a valid pair", ti.src, dti, bit, (unsigned)desc);
    gex_OP_t op = 1U << bit;
    gex_Flags_t flags = (desc & (1 << 9) ? GEX_FLAG_AD_ACQ : 0) | (desc & (1 << 10) ? GEX_FLAG_AD_REL : 0);
    void *addr = GASNETE_PTR(a_hi, a_lo);
    size_t size = dt_size[dti];
    gex_EP_Location_t me = {gasneti_mynode, (gex_EP_Index_t)ti.ep};
    if ((uintptr_t)addr % size || !gasneti_in_seginfo(gasneti_peer_segment(me), addr, size))
        gasneti_fatalerror("an atomic from node %d names [%p, +%zu), misaligned or outside the "
                           "segment of endpoint %d", ti.src, addr, size, ti.ep);
    uint64_t old = apply((int)dti, op, addr, GASNETE_U64(x_hi, x_lo), GASNETE_U64(y_hi, y_lo), flags);
    if (op & FETCHING_OPS)
        gasnete_am_reply(tok, AMMPI_SHORT, GASNETE_H_AD_RESULT, NULL, 0, NULL, 5, GASNETE_HI(old),
                         GASNETE_LO(old), k_hi, k_lo, (int32_t)dti);
    else
        gasnete_am_reply(tok, AMMPI_SHORT, GASNETE_H_AD_DONE, NULL, 0, NULL, 2, k_hi, k_lo);
}

static int source(ammpi_token_t tok)
{
    int src = -1;
    ammpi_token_source(tok, &src);
    return src;
}

/* A non-fetching atomic's ticket names no result. */
static void ad_done_h(ammpi_token_t tok, int32_t k_hi, int32_t k_lo)
{
    int src = source(tok);
    gasnete_ticket_t k = gasnete_ticket_redeem(k_hi, k_lo, GASNETE_TK_AD, src, "an atomic's done reply");
    if (k.ptr)
        gasneti_fatalerror("an atomic's done reply from node %d answers a fetching atomic", src);
    gasneti_complete_kept(k.target);
}

/* The result goes where the ticket says, in the ticket's type. */
static void ad_result_h(ammpi_token_t tok, int32_t v_hi, int32_t v_lo, int32_t k_hi, int32_t k_lo,
                        int32_t dti)
{
    int src = source(tok);
    gasnete_ticket_t k = gasnete_ticket_redeem(k_hi, k_lo, GASNETE_TK_AD, src, "an atomic's result reply");
    if (!k.ptr || (size_t)(uint32_t)dti != k.len)
        gasneti_fatalerror("an atomic's result reply from node %d names data type %d for an "
                           "atomic of type %zu%s", src, (int)dti, k.len, k.ptr ? "" : " that fetches nothing");
    store_result(k.ptr, GASNETE_U64(v_hi, v_lo), (int)k.len);
    gasneti_complete_kept(k.target);
}

static const gasneti_handler_t handlers[] = {
    {GASNETE_H_AD_REQUEST, (ammpi_handler_fn)ad_request_h, AMMPI_SHORT | AMMPI_REQUEST, 9},
    {GASNETE_H_AD_DONE, (ammpi_handler_fn)ad_done_h, AMMPI_SHORT | AMMPI_REPLY, 2},
    {GASNETE_H_AD_RESULT, (ammpi_handler_fn)ad_result_h, AMMPI_SHORT | AMMPI_REPLY, 5},
    {0, NULL, 0, 0},
};

const gasneti_layer_t gasnete_ratomic_layer = {.name = "ratomic", .handlers = handlers};
