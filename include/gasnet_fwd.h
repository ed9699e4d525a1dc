/* gasnet_fwd.h: the GASNet-EX types and constants that client headers use
 * without the rest of the API (spec §1.1): ranks, endpoint locations,
 * events, data types, operation codes and flags. Self-contained (only
 * <stdint.h>), no function declarations, clean in C and C++; every
 * constant is a preprocessor integer constant expression. gasnetex.h
 * includes it, so including both, in either order, is harmless.
 */
#ifndef _GASNET_FWD_H
#define _GASNET_FWD_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef uint32_t gex_Rank_t;
#define GEX_RANK_INVALID ((gex_Rank_t)~(gex_Rank_t)0)

typedef uint16_t gex_EP_Index_t;
typedef struct {
    gex_Rank_t gex_rank;
    gex_EP_Index_t gex_ep_index;
} gex_EP_Location_t;

/* An event is an operation record (extended/extended.h); the low bits of
 * a leaf event name which counter of the record it stands for. */
typedef struct gasneti_op *gex_Event_t;
#define GEX_EVENT_INVALID ((gex_Event_t)0)
#define GEX_EVENT_NO_OP ((gex_Event_t)1)
#define GEX_EVENT_NOW ((gex_Event_t *)1)
#define GEX_EVENT_DEFER ((gex_Event_t *)2)
#define GEX_EVENT_GROUP ((gex_Event_t *)3)

typedef void *gex_Addr_t;
typedef uint32_t gex_Flags_t;

/* ---- data types (§13.1): distinct bits */
typedef uint32_t gex_DT_t;
#define GEX_DT_I32 ((gex_DT_t)1U << 0)
#define GEX_DT_U32 ((gex_DT_t)1U << 1)
#define GEX_DT_I64 ((gex_DT_t)1U << 2)
#define GEX_DT_U64 ((gex_DT_t)1U << 3)
#define GEX_DT_FLT ((gex_DT_t)1U << 4)
#define GEX_DT_DBL ((gex_DT_t)1U << 5)
#define GEX_DT_USER ((gex_DT_t)1U << 6)

/* ---- operation codes (§13.2): distinct bits; a fetching code is its
 * non-fetching partner shifted left by 15 */
typedef uint32_t gex_OP_t;
#define GEX_OP_AND ((gex_OP_t)1U << 0)
#define GEX_OP_OR ((gex_OP_t)1U << 1)
#define GEX_OP_XOR ((gex_OP_t)1U << 2)
#define GEX_OP_ADD ((gex_OP_t)1U << 3)
#define GEX_OP_SUB ((gex_OP_t)1U << 4)
#define GEX_OP_MULT ((gex_OP_t)1U << 5)
#define GEX_OP_MIN ((gex_OP_t)1U << 6)
#define GEX_OP_MAX ((gex_OP_t)1U << 7)
#define GEX_OP_INC ((gex_OP_t)1U << 8)
#define GEX_OP_DEC ((gex_OP_t)1U << 9)
#define GEX_OP_SET ((gex_OP_t)1U << 10)
#define GEX_OP_CAS ((gex_OP_t)1U << 11)
#define GEX_OP_FAND ((gex_OP_t)1U << 15)
#define GEX_OP_FOR ((gex_OP_t)1U << 16)
#define GEX_OP_FXOR ((gex_OP_t)1U << 17)
#define GEX_OP_FADD ((gex_OP_t)1U << 18)
#define GEX_OP_FSUB ((gex_OP_t)1U << 19)
#define GEX_OP_FMULT ((gex_OP_t)1U << 20)
#define GEX_OP_FMIN ((gex_OP_t)1U << 21)
#define GEX_OP_FMAX ((gex_OP_t)1U << 22)
#define GEX_OP_FINC ((gex_OP_t)1U << 23)
#define GEX_OP_FDEC ((gex_OP_t)1U << 24)
#define GEX_OP_SWAP ((gex_OP_t)1U << 25)
#define GEX_OP_FCAS ((gex_OP_t)1U << 26)
#define GEX_OP_GET ((gex_OP_t)1U << 27)
#define GEX_OP_USER ((gex_OP_t)1U << 30)
#define GEX_OP_USER_NC ((gex_OP_t)1U << 31)
#define GEX_OP_CSWAP GEX_OP_FCAS
#define GEX_OP_TO_FETCHING(_op) ((gex_OP_t)((gex_OP_t)(_op) << 15))
#define GEX_OP_TO_NONFETCHING(_op) ((gex_OP_t)((gex_OP_t)(_op) >> 15))

/* ---- flags (§3). Flags one call accepts never share a bit; flags of
 * unrelated calls may. */
#define GEX_FLAG_IMMEDIATE ((gex_Flags_t)1U << 0)
#define GEX_FLAG_SELF_SEG_UNKNOWN ((gex_Flags_t)1U << 1)
#define GEX_FLAG_SELF_SEG_SOME ((gex_Flags_t)1U << 2)
#define GEX_FLAG_SELF_SEG_BOUND ((gex_Flags_t)1U << 3)
#define GEX_FLAG_SELF_SEG_OFFSET ((gex_Flags_t)1U << 4)
#define GEX_FLAG_PEER_SEG_UNKNOWN ((gex_Flags_t)1U << 5)
#define GEX_FLAG_PEER_SEG_SOME ((gex_Flags_t)1U << 6)
#define GEX_FLAG_PEER_SEG_BOUND ((gex_Flags_t)1U << 7)
#define GEX_FLAG_PEER_SEG_OFFSET ((gex_Flags_t)1U << 8)
#define GEX_FLAG_LC_COPY_YES ((gex_Flags_t)1U << 14)
#define GEX_FLAG_LC_COPY_NO ((gex_Flags_t)1U << 15)
/* gex_RMA_* only (spec v0.14): the peer is not this process / not in this
 * neighbourhood (NBRHD implies SELF). Debug builds check the assertion. */
#define GEX_FLAG_PEER_NEVER_SELF ((gex_Flags_t)1U << 16)
#define GEX_FLAG_PEER_NEVER_NBRHD ((gex_Flags_t)1U << 17)

/* the values of the 2021-2025 releases (clients check them statically) */
#define GEX_FLAG_AM_PREPARE_LEAST_CLIENT ((gex_Flags_t)1U << 11)
#define GEX_FLAG_AM_PREPARE_LEAST_ALLOC ((gex_Flags_t)1U << 12)

#define GEX_FLAG_AD_MY_RANK ((gex_Flags_t)1U << 9)
#define GEX_FLAG_AD_MY_NBRHD ((gex_Flags_t)1U << 10)
#define GEX_FLAG_AD_ACQ ((gex_Flags_t)1U << 11)
#define GEX_FLAG_AD_REL ((gex_Flags_t)1U << 12)
#define GEX_FLAG_RANK_IS_JOBRANK ((gex_Flags_t)1U << 13)
#define GEX_FLAG_AD_FAVOR_MY_RANK ((gex_Flags_t)1U << 0)
#define GEX_FLAG_AD_FAVOR_MY_NBRHD ((gex_Flags_t)1U << 1)
#define GEX_FLAG_AD_FAVOR_REMOTE ((gex_Flags_t)1U << 2)

#define GEX_FLAG_AM_SHORT ((gex_Flags_t)1U << 0)
#define GEX_FLAG_AM_MEDIUM ((gex_Flags_t)1U << 1)
#define GEX_FLAG_AM_LONG ((gex_Flags_t)1U << 2)
#define GEX_FLAG_AM_MEDLONG (GEX_FLAG_AM_MEDIUM | GEX_FLAG_AM_LONG)
#define GEX_FLAG_AM_REQUEST ((gex_Flags_t)1U << 3)
#define GEX_FLAG_AM_REPLY ((gex_Flags_t)1U << 4)
#define GEX_FLAG_AM_REQREP (GEX_FLAG_AM_REQUEST | GEX_FLAG_AM_REPLY)

#define GEX_FLAG_ENABLE_LEAF_LC ((gex_Flags_t)1U << 9)

#define GEX_FLAG_USES_GASNET1 ((gex_Flags_t)1U << 0)
/* gex_Client_Init (spec v0.18): the client starts the progress threads
 * itself (gex_System_QueryProgressThreads) */
#define GEX_FLAG_DEFER_THREADS ((gex_Flags_t)1U << 1)

#define GEX_FLAG_TM_SCRATCH_SIZE_MIN ((gex_Flags_t)1U << 0)
#define GEX_FLAG_TM_SCRATCH_SIZE_RECOMMENDED ((gex_Flags_t)1U << 1)
#define GEX_FLAG_TM_GLOBAL_SCRATCH ((gex_Flags_t)1U << 2)
#define GEX_FLAG_TM_LOCAL_SCRATCH ((gex_Flags_t)1U << 3)
#define GEX_FLAG_TM_SYMMETRIC_SCRATCH ((gex_Flags_t)1U << 4)
#define GEX_FLAG_TM_NO_SCRATCH ((gex_Flags_t)1U << 5)
#define GEX_FLAG_SCRATCH_SEG_OFFSET ((gex_Flags_t)1U << 6)
#define GEX_FLAG_GLOBALLY_QUIESCED ((gex_Flags_t)1U << 13)

/* Seed 003 (§17.2): hints for gex_EP_Create */
#define GEX_FLAG_HINT_ACCEL_AD ((gex_Flags_t)1U << 0)
#define GEX_FLAG_HINT_ACCEL_COLL ((gex_Flags_t)1U << 1)
#define GEX_FLAG_HINT_ACCEL_ALL (GEX_FLAG_HINT_ACCEL_AD | GEX_FLAG_HINT_ACCEL_COLL)

#ifdef __cplusplus
}
#endif
#endif
