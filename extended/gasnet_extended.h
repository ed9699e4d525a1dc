/* gasnet_extended.h: the GASNet-EX extended API of the MPI conduit: RMA
 * (§9), events (§10), implicit-event operations and access regions (§11),
 * the team barrier (§12.2) and the GASNet-1 barriers EX keeps (§7.3).
 * Included by gasnetex.h; not for direct inclusion.
 */
#ifndef _GASNET_EXTENDED_H
#define _GASNET_EXTENDED_H

#ifndef _GASNETEX_H
#error "include gasnetex.h or gasnet.h, not gasnet_extended.h"
#endif

#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- the on-node fast path. A put or get on the primordial team to a
 * process whose segment is mapped here (this one, or a neighbour through
 * the shm backend) is a copy, decided in the caller in a few
 * instructions; anything else, and every case a check would refuse, goes
 * to the library's call (gasnete_RMA_*), which checks everything. Debug
 * builds always take the library's call, whose checks are then complete
 * (restricted context, NULL addresses...). gasneti_pshm is indexed by
 * jobrank: the peer's segment and the offset that maps it here; size 0
 * where it is not mapped. */
typedef struct {
    uintptr_t _base, size, offset;
} gasneti_pshm_t;
extern gasneti_pshm_t *gasneti_pshm; /* NULL until a segment is attached */
/* The table the fast path reads: gasneti_pshm, but NULL while device
 * memory is registered in this process (memkind/), as a local buffer may
 * then be device memory, which only the library's call (which looks it
 * up) may touch. One pointer, so the fast path loads and tests one word. */
extern const gasneti_pshm_t *gasneti_pshm_fast;
extern gex_TM_t gasneti_tm0;
#ifdef GASNET_DEBUG
#define GASNETI_FAST_PATHS 0
#else
#define GASNETI_FAST_PATHS 1
#endif
/* Flags the fast path may ignore (the rest go to the library's checks). */
#define GASNETI_FAST_FLAGS (GEX_FLAG_IMMEDIATE | GEX_FLAG_SELF_SEG_UNKNOWN | GEX_FLAG_SELF_SEG_SOME | \
                            GEX_FLAG_SELF_SEG_BOUND | GEX_FLAG_PEER_SEG_UNKNOWN |                      \
                            GEX_FLAG_PEER_SEG_SOME | GEX_FLAG_PEER_SEG_BOUND | GEX_FLAG_PEER_NEVER_SELF)

/* Where [addr, addr+n) of rank's segment lies in this process by table
 * (rank < gasneti_nodes), or NULL where it is not mapped here. */
static inline char *gasneti_pshm_local(const gasneti_pshm_t *_table, gex_Rank_t _rank,
                                       const void *_addr, size_t _n)
{
    const gasneti_pshm_t *_p = &_table[_rank];
    uintptr_t _off = (uintptr_t)_addr - _p->_base;
    if (_off >= _p->size || _n > _p->size - _off) return NULL;
    return (char *)_addr + _p->offset;
}

/* Whether the fast path applies; if so, *here is where [raddr, raddr+n)
 * of rank's segment lies in this process. */
static inline int gasneti_pshm_addr(gex_TM_t tm, gex_Rank_t _rank, const void *_raddr, size_t _n,
                                    const void *_laddr, gex_Flags_t _flags, char **_here)
{
    const gasneti_pshm_t *_table = __atomic_load_n(&gasneti_pshm_fast, __ATOMIC_RELAXED);
    /* (PEER_NEVER_NBRHD is not a fast flag: no neighbour of the peer is mapped here) */
    if (!GASNETI_FAST_PATHS || tm != gasneti_tm0 || !_table || _rank >= gasneti_nodes || !_laddr ||
        (_flags & ~GASNETI_FAST_FLAGS))
        return 0;
    return (*_here = gasneti_pshm_local(_table, _rank, _raddr, _n)) != NULL;
}

/* memcpy for the fast path: words as one load and store each, where a
 * call to the library's memcpy would cost more than the rest of the
 * operation (tests, not a switch: its jump table costs an indirect jump). */
static inline void gasneti_fast_copy(void *_d, const void *_s, size_t _n)
{
    if (__builtin_expect(_n == 8, 1)) memcpy(_d, _s, 8); /* the common size: no jump */
    else if (_n == 4) memcpy(_d, _s, 4);
    else memcpy(_d, _s, _n);
}

static inline int gasneti_fast_put(gex_TM_t tm, gex_Rank_t _rank, void *_dest, const void *_src,
                                   size_t _n, gex_Flags_t _flags)
{
    char *_d;
    if (!gasneti_pshm_addr(tm, _rank, _dest, _n, _src, _flags, &_d)) return 0;
    gasneti_fast_copy(_d, _src, _n);
    __atomic_thread_fence(__ATOMIC_RELEASE);
    return 1;
}

static inline int gasneti_fast_get(gex_TM_t tm, void *_dest, gex_Rank_t _rank, const void *_src,
                                   size_t _n, gex_Flags_t _flags)
{
    char *_s;
    if (!gasneti_pshm_addr(tm, _rank, _src, _n, _dest, _flags, &_s)) return 0;
    __atomic_thread_fence(__ATOMIC_ACQUIRE);
    gasneti_fast_copy(_dest, _s, _n);
    return 1;
}

/* ---- RMA (§9): the fast path, else the library's call */
int gasnete_RMA_PutBlocking(gex_TM_t tm, gex_Rank_t _rank, void *_dest, const void *_src,
                            size_t _nbytes, gex_Flags_t _flags);
int gasnete_RMA_PutNBI(gex_TM_t tm, gex_Rank_t _rank, void *_dest, const void *_src, size_t _nbytes,
                       gex_Event_t *_lc_opt, gex_Flags_t _flags);
gex_Event_t gasnete_RMA_PutNB(gex_TM_t tm, gex_Rank_t _rank, void *_dest, const void *_src,
                              size_t _nbytes, gex_Event_t *_lc_opt, gex_Flags_t _flags);
int gasnete_RMA_GetBlocking(gex_TM_t tm, void *_dest, gex_Rank_t _rank, void *_src, size_t _nbytes,
                            gex_Flags_t _flags);
int gasnete_RMA_GetNBI(gex_TM_t tm, void *_dest, gex_Rank_t _rank, void *_src, size_t _nbytes,
                       gex_Flags_t _flags);
gex_Event_t gasnete_RMA_GetNB(gex_TM_t tm, void *_dest, gex_Rank_t _rank, void *_src, size_t _nbytes,
                              gex_Flags_t _flags);

static inline int gex_RMA_PutBlocking(gex_TM_t tm, gex_Rank_t _rank, void *_dest, const void *_src,
                                      size_t _nbytes, gex_Flags_t _flags)
{
    if (gasneti_fast_put(tm, _rank, _dest, _src, _nbytes, _flags)) return 0;
    return gasnete_RMA_PutBlocking(tm, _rank, _dest, _src, _nbytes, _flags);
}

static inline int gex_RMA_PutNBI(gex_TM_t tm, gex_Rank_t _rank, void *_dest, const void *_src,
                                 size_t _nbytes, gex_Event_t *_lc_opt, gex_Flags_t _flags)
{
    if ((uintptr_t)_lc_opt - 1 < 3 && gasneti_fast_put(tm, _rank, _dest, _src, _nbytes, _flags))
        return 0;
    return gasnete_RMA_PutNBI(tm, _rank, _dest, _src, _nbytes, _lc_opt, _flags);
}

static inline gex_Event_t gex_RMA_PutNB(gex_TM_t tm, gex_Rank_t _rank, void *_dest, const void *_src,
                                        size_t _nbytes, gex_Event_t *_lc_opt, gex_Flags_t _flags)
{
    if (_lc_opt && _lc_opt != GEX_EVENT_GROUP && gasneti_fast_put(tm, _rank, _dest, _src, _nbytes, _flags)) {
        if ((uintptr_t)_lc_opt > (uintptr_t)GEX_EVENT_GROUP) *_lc_opt = GEX_EVENT_INVALID;
        return GEX_EVENT_INVALID;
    }
    return gasnete_RMA_PutNB(tm, _rank, _dest, _src, _nbytes, _lc_opt, _flags);
}

static inline int gex_RMA_GetBlocking(gex_TM_t tm, void *_dest, gex_Rank_t _rank, void *_src,
                                      size_t _nbytes, gex_Flags_t _flags)
{
    if (gasneti_fast_get(tm, _dest, _rank, _src, _nbytes, _flags)) return 0;
    return gasnete_RMA_GetBlocking(tm, _dest, _rank, _src, _nbytes, _flags);
}

static inline int gex_RMA_GetNBI(gex_TM_t tm, void *_dest, gex_Rank_t _rank, void *_src,
                                 size_t _nbytes, gex_Flags_t _flags)
{
    if (gasneti_fast_get(tm, _dest, _rank, _src, _nbytes, _flags)) return 0;
    return gasnete_RMA_GetNBI(tm, _dest, _rank, _src, _nbytes, _flags);
}

static inline gex_Event_t gex_RMA_GetNB(gex_TM_t tm, void *_dest, gex_Rank_t _rank, void *_src,
                                        size_t _nbytes, gex_Flags_t _flags)
{
    if (gasneti_fast_get(tm, _dest, _rank, _src, _nbytes, _flags)) return GEX_EVENT_INVALID;
    return gasnete_RMA_GetNB(tm, _dest, _rank, _src, _nbytes, _flags);
}

gex_RMA_Value_t gex_RMA_GetBlockingVal(gex_TM_t tm, gex_Rank_t _rank, void *_src, size_t _nbytes,
                                       gex_Flags_t _flags);
int gex_RMA_PutBlockingVal(gex_TM_t tm, gex_Rank_t _rank, void *_dest, gex_RMA_Value_t _value,
                           size_t _nbytes, gex_Flags_t _flags);
int gex_RMA_PutNBIVal(gex_TM_t tm, gex_Rank_t _rank, void *_dest, gex_RMA_Value_t _value,
                      size_t _nbytes, gex_Flags_t _flags);
gex_Event_t gex_RMA_PutNBVal(gex_TM_t tm, gex_Rank_t _rank, void *_dest, gex_RMA_Value_t _value,
                             size_t _nbytes, gex_Flags_t _flags);

/* ---- events (§10). Tests never poll; waits do. */
int gex_Event_Test(gex_Event_t _event);
void gex_Event_Wait(gex_Event_t _event);
int gex_Event_TestSome(gex_Event_t *_pevent, size_t _numevents, gex_Flags_t _flags);
void gex_Event_WaitSome(gex_Event_t *_pevent, size_t _numevents, gex_Flags_t _flags);
int gex_Event_TestAll(gex_Event_t *_pevent, size_t _numevents, gex_Flags_t _flags);
void gex_Event_WaitAll(gex_Event_t *_pevent, size_t _numevents, gex_Flags_t _flags);
gex_Event_t gex_Event_QueryLeaf(gex_Event_t _root, gex_EC_t _event_category);

/* ---- implicit-event operations (§11): one counter per category */
#define GEX_EC_PUT ((gex_EC_t)1U << 0)
#define GEX_EC_GET ((gex_EC_t)1U << 1)
#define GEX_EC_LC ((gex_EC_t)1U << 2)
#define GEX_EC_AM ((gex_EC_t)1U << 3)
#define GEX_EC_RMW ((gex_EC_t)1U << 4)
#define GEX_EC_ALL ((gex_EC_t)~0U)
int gex_NBI_Test(gex_EC_t _event_mask, gex_Flags_t _flags);
void gex_NBI_Wait(gex_EC_t _event_mask, gex_Flags_t _flags);
void gex_NBI_BeginAccessRegion(gex_Flags_t _flags);
gex_Event_t gex_NBI_EndAccessRegion(gex_Flags_t _flags);

/* ---- team barrier (§12.2); the other collectives are in gasnet_coll.h */
gex_Event_t gex_Coll_BarrierNB(gex_TM_t tm, gex_Flags_t _flags);
void gex_Coll_BarrierBlocking(gex_TM_t tm, gex_Flags_t _flags);

/* ---- GASNet-1 barriers over the primordial team (§7.3, GASNet-1 §8) */
#define GASNET_BARRIERFLAG_ANONYMOUS 1
#define GASNET_BARRIERFLAG_MISMATCH 2
#define GASNET_BARRIERFLAG_UNNAMED (GASNET_BARRIERFLAG_ANONYMOUS | 8)
void gasnet_barrier_notify(int _id, int _flags);
int gasnet_barrier_wait(int _id, int _flags);
int gasnet_barrier_try(int _id, int _flags);
int gasnet_barrier(int _id, int _flags);
int gasnet_barrier_result(int *_id);

#ifdef __cplusplus
}
#endif
#endif
