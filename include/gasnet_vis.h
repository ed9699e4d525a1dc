/* gasnet_vis.h: GASNet-EX non-contiguous transfers (spec v0.10 §15):
 * vector (lists of address/length pairs), indexed (lists of addresses of
 * equal-length regions) and strided (a dense array section) puts and gets,
 * each as NB (returns an event), NBI (counts with GEX_EC_PUT / GEX_EC_GET)
 * and Blocking calls, and the peer-completion notification.
 *
 * The concatenation of the source regions, in list order, is copied into
 * the concatenation of the destination regions; remote regions must lie in
 * the peer's bound segment, local ones anywhere. Destinations must not
 * overlap each other. Vector and indexed lists must stay valid until the
 * operation completes; strided metadata is read before the call returns.
 * The GASNet-1 names (gasnet_putv_bulk and friends) are in gasnet.h.
 * How the data travels: extended/vis.c.
 */
#ifndef _GASNET_VIS_H
#define _GASNET_VIS_H 1

#include <gasnetex.h>

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Largest payload of a peer-completion notification (§15.5). */
#define GEX_VIS_MAX_PEERCOMPLETION 127

/* ---- vector (§15.2) */
gex_Event_t gex_VIS_VectorGetNB(gex_TM_t tm, size_t _dstcount, gex_Memvec_t const _dstlist[],
                                gex_Rank_t _srcrank, size_t _srccount,
                                gex_Memvec_t const _srclist[], gex_Flags_t _flags);
int gex_VIS_VectorGetNBI(gex_TM_t tm, size_t _dstcount, gex_Memvec_t const _dstlist[],
                         gex_Rank_t _srcrank, size_t _srccount, gex_Memvec_t const _srclist[],
                         gex_Flags_t _flags);
int gex_VIS_VectorGetBlocking(gex_TM_t tm, size_t _dstcount, gex_Memvec_t const _dstlist[],
                              gex_Rank_t _srcrank, size_t _srccount,
                              gex_Memvec_t const _srclist[], gex_Flags_t _flags);
gex_Event_t gex_VIS_VectorPutNB(gex_TM_t tm, gex_Rank_t _dstrank, size_t _dstcount,
                                gex_Memvec_t const _dstlist[], size_t _srccount,
                                gex_Memvec_t const _srclist[], gex_Flags_t _flags);
int gex_VIS_VectorPutNBI(gex_TM_t tm, gex_Rank_t _dstrank, size_t _dstcount,
                         gex_Memvec_t const _dstlist[], size_t _srccount,
                         gex_Memvec_t const _srclist[], gex_Flags_t _flags);
int gex_VIS_VectorPutBlocking(gex_TM_t tm, gex_Rank_t _dstrank, size_t _dstcount,
                              gex_Memvec_t const _dstlist[], size_t _srccount,
                              gex_Memvec_t const _srclist[], gex_Flags_t _flags);

/* ---- indexed (§15.3) */
gex_Event_t gex_VIS_IndexedGetNB(gex_TM_t tm, size_t _dstcount, void *const _dstlist[],
                                 size_t _dstlen, gex_Rank_t _srcrank, size_t _srccount,
                                 void *const _srclist[], size_t _srclen, gex_Flags_t _flags);
int gex_VIS_IndexedGetNBI(gex_TM_t tm, size_t _dstcount, void *const _dstlist[], size_t _dstlen,
                          gex_Rank_t _srcrank, size_t _srccount, void *const _srclist[],
                          size_t _srclen, gex_Flags_t _flags);
int gex_VIS_IndexedGetBlocking(gex_TM_t tm, size_t _dstcount, void *const _dstlist[],
                               size_t _dstlen, gex_Rank_t _srcrank, size_t _srccount,
                               void *const _srclist[], size_t _srclen, gex_Flags_t _flags);
gex_Event_t gex_VIS_IndexedPutNB(gex_TM_t tm, gex_Rank_t _dstrank, size_t _dstcount,
                                 void *const _dstlist[], size_t _dstlen, size_t _srccount,
                                 void *const _srclist[], size_t _srclen, gex_Flags_t _flags);
int gex_VIS_IndexedPutNBI(gex_TM_t tm, gex_Rank_t _dstrank, size_t _dstcount,
                          void *const _dstlist[], size_t _dstlen, size_t _srccount,
                          void *const _srclist[], size_t _srclen, gex_Flags_t _flags);
int gex_VIS_IndexedPutBlocking(gex_TM_t tm, gex_Rank_t _dstrank, size_t _dstcount,
                               void *const _dstlist[], size_t _dstlen, size_t _srccount,
                               void *const _srclist[], size_t _srclen, gex_Flags_t _flags);

/* ---- strided (§15.4): count[0] x ... x count[stridelevels-1] chunks of
 * elemsz bytes; strides are signed byte distances */
gex_Event_t gex_VIS_StridedGetNB(gex_TM_t tm, void *_dstaddr, const ptrdiff_t _dststrides[],
                                 gex_Rank_t _srcrank, void *_srcaddr,
                                 const ptrdiff_t _srcstrides[], size_t _elemsz,
                                 const size_t _count[], size_t _stridelevels, gex_Flags_t _flags);
int gex_VIS_StridedGetNBI(gex_TM_t tm, void *_dstaddr, const ptrdiff_t _dststrides[],
                          gex_Rank_t _srcrank, void *_srcaddr, const ptrdiff_t _srcstrides[],
                          size_t _elemsz, const size_t _count[], size_t _stridelevels,
                          gex_Flags_t _flags);
int gex_VIS_StridedGetBlocking(gex_TM_t tm, void *_dstaddr, const ptrdiff_t _dststrides[],
                               gex_Rank_t _srcrank, void *_srcaddr, const ptrdiff_t _srcstrides[],
                               size_t _elemsz, const size_t _count[], size_t _stridelevels,
                               gex_Flags_t _flags);
gex_Event_t gex_VIS_StridedPutNB(gex_TM_t tm, gex_Rank_t _dstrank, void *_dstaddr,
                                 const ptrdiff_t _dststrides[], void *_srcaddr,
                                 const ptrdiff_t _srcstrides[], size_t _elemsz,
                                 const size_t _count[], size_t _stridelevels, gex_Flags_t _flags);
int gex_VIS_StridedPutNBI(gex_TM_t tm, gex_Rank_t _dstrank, void *_dstaddr,
                          const ptrdiff_t _dststrides[], void *_srcaddr,
                          const ptrdiff_t _srcstrides[], size_t _elemsz, const size_t _count[],
                          size_t _stridelevels, gex_Flags_t _flags);
int gex_VIS_StridedPutBlocking(gex_TM_t tm, gex_Rank_t _dstrank, void *_dstaddr,
                               const ptrdiff_t _dststrides[], void *_srcaddr,
                               const ptrdiff_t _srcstrides[], size_t _elemsz,
                               const size_t _count[], size_t _stridelevels, gex_Flags_t _flags);

/* ---- peer completion (§15.5): the calling thread's next VIS put, once
 * its data is in place at the peer, makes the peer's endpoint run handler
 * (registered there as a 0-argument Medium Reply handler) with a copy of
 * [source_addr, source_addr + nbytes), nbytes <= GEX_VIS_MAX_PEERCOMPLETION.
 * handler 0 cancels a pending arming; flags must be 0. */
void gex_VIS_SetPeerCompletionHandler(gex_AM_Index_t _handler, const void *_source_addr,
                                      size_t _nbytes, gex_Flags_t _flags);

#ifdef __cplusplus
}
#endif
#endif
