/* The EX RMA entry points (§9): blocking, NB and NBI puts and gets and
 * their value forms, over the protocols of putget.c (the puts and gets
 * come here when the header's on-node fast path does not apply). Each checks its team
 * and flags, picks the operation record (a stack record for blocking
 * calls, a new root event for NB, the thread's NBI record for NBI) and
 * maps lc_opt onto the protocol's local-completion modes.
 */
#include "extended.h"

/* Flags every RMA call accepts: IMMEDIATE (never needed: puts and gets
 * do not wait for resources here), the segment assertions and the peer
 * assertions (the header's fast path skips its lookup under
 * PEER_NEVER_NBRHD; debug builds check both here). */
#define RMA_FLAGS (GEX_FLAG_IMMEDIATE | GEX_FLAG_SELF_SEG_UNKNOWN | GEX_FLAG_SELF_SEG_SOME | \
                   GEX_FLAG_SELF_SEG_BOUND | GEX_FLAG_SELF_SEG_OFFSET |                      \
                   GEX_FLAG_PEER_SEG_UNKNOWN | GEX_FLAG_PEER_SEG_SOME |                      \
                   GEX_FLAG_PEER_SEG_BOUND | GEX_FLAG_PEER_SEG_OFFSET | GEX_FLAG_LC_COPY_YES | \
                   GEX_FLAG_LC_COPY_NO | GEX_FLAG_PEER_NEVER_SELF | GEX_FLAG_PEER_NEVER_NBRHD)

#ifdef GASNET_DEBUG
static void check_peer_never(gasneti_tm_t t, gex_Rank_t rank, gex_Flags_t flags, const char *call)
{
    if (!(flags & (GEX_FLAG_PEER_NEVER_SELF | GEX_FLAG_PEER_NEVER_NBRHD)) || rank >= t->size) return;
    gex_Rank_t jobrank = gasneti_tm_member(t, rank).gex_rank;
    if (jobrank == gasneti_mynode)
        gasneti_fatalerror("%s: GEX_FLAG_PEER_NEVER_%s, but rank %u is this process", call,
                           (flags & GEX_FLAG_PEER_NEVER_SELF) ? "SELF" : "NBRHD", rank);
    if ((flags & GEX_FLAG_PEER_NEVER_NBRHD) &&
        gasneti_nodeinfo[jobrank].supernode == gasneti_nodeinfo[gasneti_mynode].supernode)
        gasneti_fatalerror("%s: GEX_FLAG_PEER_NEVER_NBRHD, but rank %u (node %u) is in this "
                           "process's neighbourhood", call, rank, jobrank);
}
#endif

static gasneti_tm_t check_call(gex_TM_t tm, gex_Rank_t rank, gex_Flags_t flags, const char *call)
{
    GASNETI_CHECK_INIT(call);
    gasneti_tm_t t = gasneti_import_tm(tm, call);
    if (flags & ~RMA_FLAGS)
        gasneti_fatalerror("%s: flags 0x%x are not RMA flags", call, (unsigned)(flags & ~RMA_FLAGS));
    if (flags & (GEX_FLAG_SELF_SEG_OFFSET | GEX_FLAG_PEER_SEG_OFFSET))
        gasneti_fatalerror("%s: GEX_FLAG_*_SEG_OFFSET is not supported (pass addresses)", call);
    const gex_Flags_t self = GEX_FLAG_SELF_SEG_UNKNOWN | GEX_FLAG_SELF_SEG_SOME | GEX_FLAG_SELF_SEG_BOUND,
                      peer = GEX_FLAG_PEER_SEG_UNKNOWN | GEX_FLAG_PEER_SEG_SOME | GEX_FLAG_PEER_SEG_BOUND;
    if (__builtin_popcount(flags & self) > 1 || __builtin_popcount(flags & peer) > 1)
        gasneti_fatalerror("%s: flags 0x%x give more than one SELF_SEG or PEER_SEG assertion", call,
                           (unsigned)flags);
#ifdef GASNET_DEBUG
    check_peer_never(t, rank, flags, call);
#else
    (void)rank;
#endif
    return t;
}

/* A put's lc_opt, for an NB (nb = 1) or NBI call: the mode, and for
 * LC_COUNTER the counter. For an NB pointer, op gets a leaf. */
static int lc_mode(gex_Event_t *lc_opt, int nb, gasneti_op_t *op, uint32_t **lc, const char *call)
{
    *lc = NULL;
    if (lc_opt == GEX_EVENT_NOW) return LC_NOW;
    if (lc_opt == GEX_EVENT_DEFER) return LC_DEFER;
    if (lc_opt == GEX_EVENT_GROUP && !nb) {
        gasneti_op_t *nbi = gasneti_nbi_op();
        if (gasneti_in_access_region()) nbi->has_leaf = 1;
        *lc = gasneti_counter(nbi, GASNETI_LC);
        return LC_COUNTER;
    }
    if (lc_opt && lc_opt != GEX_EVENT_GROUP && nb) {
        op->has_leaf = 1;
        *lc = gasneti_counter(op, GASNETI_LC);
        return LC_COUNTER;
    }
    gasneti_fatalerror("%s: lc_opt %s is not allowed here", call,
                       !lc_opt ? "NULL" : lc_opt == GEX_EVENT_GROUP ? "GEX_EVENT_GROUP"
                                                                   : "(an event pointer)");
}

int gasnete_RMA_PutBlocking(gex_TM_t tm, gex_Rank_t rank, void *dest, const void *src, size_t nbytes,
                        gex_Flags_t flags)
{
    const char *call = "gex_RMA_PutBlocking";
    gasneti_tm_t t = check_call(tm, rank, flags, call);
    gasneti_op_t op = GASNETI_OP_INIT;
    gasnete_put(&op, t, rank, dest, src, nbytes, LC_NOW, NULL, call);
    gasneti_wait(&op, call);
    return 0;
}

int gasnete_RMA_PutNBI(gex_TM_t tm, gex_Rank_t rank, void *dest, const void *src, size_t nbytes,
                   gex_Event_t *lc_opt, gex_Flags_t flags)
{
    const char *call = "gex_RMA_PutNBI";
    gasneti_tm_t t = check_call(tm, rank, flags, call);
    uint32_t *lc;
    int mode = lc_mode(lc_opt, 0, NULL, &lc, call);
    gasnete_put(gasneti_nbi_op(), t, rank, dest, src, nbytes, mode, lc, call);
    return 0;
}

gex_Event_t gasnete_RMA_PutNB(gex_TM_t tm, gex_Rank_t rank, void *dest, const void *src, size_t nbytes,
                          gex_Event_t *lc_opt, gex_Flags_t flags)
{
    const char *call = "gex_RMA_PutNB";
    gasneti_tm_t t = check_call(tm, rank, flags, call);
    gasneti_op_t *op = gasneti_op_alloc(OP_EOP);
    uint32_t *lc;
    int mode = lc_mode(lc_opt, 1, op, &lc, call);
    gasnete_put(op, t, rank, dest, src, nbytes, mode, lc, call);
    int lc_done = mode == LC_COUNTER && __atomic_load_n(lc, __ATOMIC_ACQUIRE) == 0;
    gex_Event_t root = gasneti_event_of(op);
    if (mode == LC_COUNTER)
        *lc_opt = root == GEX_EVENT_INVALID || lc_done ? GEX_EVENT_INVALID : gasneti_leaf_lc(op);
    return root;
}

int gasnete_RMA_GetBlocking(gex_TM_t tm, void *dest, gex_Rank_t rank, void *src, size_t nbytes,
                        gex_Flags_t flags)
{
    const char *call = "gex_RMA_GetBlocking";
    gasneti_tm_t t = check_call(tm, rank, flags, call);
    gasneti_op_t op = GASNETI_OP_INIT;
    gasnete_get(&op, t, dest, rank, src, nbytes, call);
    gasneti_wait(&op, call);
    return 0;
}

int gasnete_RMA_GetNBI(gex_TM_t tm, void *dest, gex_Rank_t rank, void *src, size_t nbytes,
                   gex_Flags_t flags)
{
    const char *call = "gex_RMA_GetNBI";
    gasneti_tm_t t = check_call(tm, rank, flags, call);
    gasnete_get(gasneti_nbi_op(), t, dest, rank, src, nbytes, call);
    return 0;
}

gex_Event_t gasnete_RMA_GetNB(gex_TM_t tm, void *dest, gex_Rank_t rank, void *src, size_t nbytes,
                          gex_Flags_t flags)
{
    const char *call = "gex_RMA_GetNB";
    gasneti_tm_t t = check_call(tm, rank, flags, call);
    gasneti_op_t *op = gasneti_op_alloc(OP_EOP);
    gasnete_get(op, t, dest, rank, src, nbytes, call);
    return gasneti_event_of(op);
}

gex_RMA_Value_t gex_RMA_GetBlockingVal(gex_TM_t tm, gex_Rank_t rank, void *src, size_t nbytes,
                                       gex_Flags_t flags)
{
    const char *call = "gex_RMA_GetBlockingVal";
    gasneti_tm_t t = check_call(tm, rank, flags, call);
    gasneti_op_t op = GASNETI_OP_INIT;
    gasnete_get_val(&op, t, rank, src, nbytes, call);
    gasneti_wait(&op, call);
    return op.value;
}

int gex_RMA_PutBlockingVal(gex_TM_t tm, gex_Rank_t rank, void *dest, gex_RMA_Value_t value,
                           size_t nbytes, gex_Flags_t flags)
{
    const char *call = "gex_RMA_PutBlockingVal";
    gasneti_tm_t t = check_call(tm, rank, flags, call);
    gasneti_op_t op = GASNETI_OP_INIT;
    gasnete_put_val(&op, t, rank, dest, value, nbytes, call);
    gasneti_wait(&op, call);
    return 0;
}

int gex_RMA_PutNBIVal(gex_TM_t tm, gex_Rank_t rank, void *dest, gex_RMA_Value_t value,
                      size_t nbytes, gex_Flags_t flags)
{
    const char *call = "gex_RMA_PutNBIVal";
    gasneti_tm_t t = check_call(tm, rank, flags, call);
    gasnete_put_val(gasneti_nbi_op(), t, rank, dest, value, nbytes, call);
    return 0;
}

gex_Event_t gex_RMA_PutNBVal(gex_TM_t tm, gex_Rank_t rank, void *dest, gex_RMA_Value_t value,
                             size_t nbytes, gex_Flags_t flags)
{
    const char *call = "gex_RMA_PutNBVal";
    gasneti_tm_t t = check_call(tm, rank, flags, call);
    gasneti_op_t *op = gasneti_op_alloc(OP_EOP);
    gasnete_put_val(op, t, rank, dest, value, nbytes, call);
    return gasneti_event_of(op);
}
