/* gasnetex.h: the GASNet-EX client API (spec v0.19, release 2025.8.0,
 * with seed 003's endpoints and segments) for the MPI conduit.
 *
 * The client defines exactly one of GASNET_SEQ, GASNET_PARSYNC, GASNET_PAR
 * before including this header (the makefile fragments do it). It declares
 * the objects (client, endpoints, segments, teams), Active Messages, RMA,
 * events and implicit-event operations, barriers, and the GASNet-1 names EX
 * clients keep using (gasnet_exit, gasnet_AMPoll, GASNET_BLOCKUNTIL, ...).
 * The GASNet-1 layer is gasnet.h, which includes this header;
 * gasnet_coll.h, gasnet_vis.h, gasnet_ratomic.h and gasnet_mk.h add the
 * rest of EX. gasnet_tools.h is included at the end.
 *
 * gex_Client_Init is renamed after the thread mode and the debug setting,
 * so a client compiled for one mode fails to link against another library.
 */
#ifndef _GASNETEX_H
#define _GASNETEX_H 1

#ifdef _GASNET_TOOLS_H
#error "include gasnetex.h (or gasnet.h) before gasnet_tools.h"
#endif

#if (defined(GASNET_SEQ) && (defined(GASNET_PARSYNC) || defined(GASNET_PAR))) || \
    (defined(GASNET_PARSYNC) && defined(GASNET_PAR))
#error "define exactly one of GASNET_SEQ, GASNET_PARSYNC or GASNET_PAR, not several"
#elif defined(GASNET_SEQ)
#undef GASNET_SEQ
#define GASNET_SEQ 1
#define GASNETI_THREADMODEL_STR "SEQ"
#elif defined(GASNET_PARSYNC)
#undef GASNET_PARSYNC
#define GASNET_PARSYNC 1
#define GASNETI_THREADMODEL_STR "PARSYNC"
#elif defined(GASNET_PAR)
#undef GASNET_PAR
#define GASNET_PAR 1
#define GASNETI_THREADMODEL_STR "PAR"
#else
#error "define exactly one of GASNET_SEQ, GASNET_PARSYNC or GASNET_PAR before including gasnetex.h"
#endif

#include <gasnet_config.h>
#include <gasnet_fwd.h>

#include <inttypes.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#if defined(GASNET_DEBUG) == defined(GASNET_NDEBUG)
#error "gasnet_config.h must define exactly one of GASNET_DEBUG and GASNET_NDEBUG"
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ---- versions and identification (§1.3) */
#define GEX_SPEC_VERSION_MAJOR 0
#define GEX_SPEC_VERSION_MINOR 19
#define GASNET_CONDUIT_MPI 1
#define GASNET_CONDUIT_NAME MPI
#define GASNET_CONDUIT_NAME_STR "MPI"
#define GASNET_CORE_NAME AMMPI
#define GASNET_CORE_NAME_STR "AMMPI"
#define GASNET_CORE_VERSION 2.0
#define GASNET_CORE_VERSION_STR "2.0"
#define GASNET_EXTENDED_NAME REFERENCE
#define GASNET_EXTENDED_NAME_STR "REFERENCE"
#define GASNET_EXTENDED_VERSION 2.0
#define GASNET_EXTENDED_VERSION_STR "2.0"

#define GASNETI_STRINGIFY_(x) #x
#define GASNETI_STRINGIFY(x) GASNETI_STRINGIFY_(x)
#define GASNETI_CONCAT_(a, b) a##b
#define GASNETI_CONCAT(a, b) GASNETI_CONCAT_(a, b)

#ifdef GASNET_DEBUG
#define GASNETI_DEBUG_STR "debug"
#else
#define GASNETI_DEBUG_STR "nodebug"
#endif
#if UINTPTR_MAX == 0xffffffffffffffffu
#define GASNETI_PTR_STR "64bit"
#else
#define GASNETI_PTR_STR "32bit"
#endif

/* (Strings and whole identifiers below: a bare word such as SEQ or debug
 * pasted or stringified through a macro would expand a client's macro of
 * that name, spec §18.7.) */
#define GASNET_CONFIG_STRING                                                            \
    "RELEASE=" GASNETI_STRINGIFY(GASNET_RELEASE_VERSION_MAJOR) "."                      \
    GASNETI_STRINGIFY(GASNET_RELEASE_VERSION_MINOR) "."                                 \
    GASNETI_STRINGIFY(GASNET_RELEASE_VERSION_PATCH) ",SPEC=0.19,CONDUIT=MPI(AMMPI-2.0/" \
    "REFERENCE-2.0),THREADMODEL=" GASNETI_THREADMODEL_STR ",SEGMENT=FAST,PTR="          \
    GASNETI_PTR_STR ",noalign,pshm," GASNETI_DEBUG_STR ",CACHE_LINE_BYTES="             \
    GASNETI_STRINGIFY(GASNETI_CACHE_LINE_BYTES)

/* The link-time configuration check: gex_Client_Init's and gasnet_init's
 * real names. */
#if defined(GASNET_SEQ) && defined(GASNET_DEBUG)
#define gex_Client_Init gex_Client_Init_GASNET_SEQ_FAST_debug
#define GASNETI_INIT_NAME gasnet_init_GASNET_SEQ_FAST_debug
#elif defined(GASNET_SEQ)
#define gex_Client_Init gex_Client_Init_GASNET_SEQ_FAST_nodebug
#define GASNETI_INIT_NAME gasnet_init_GASNET_SEQ_FAST_nodebug
#elif defined(GASNET_PARSYNC) && defined(GASNET_DEBUG)
#define gex_Client_Init gex_Client_Init_GASNET_PARSYNC_FAST_debug
#define GASNETI_INIT_NAME gasnet_init_GASNET_PARSYNC_FAST_debug
#elif defined(GASNET_PARSYNC)
#define gex_Client_Init gex_Client_Init_GASNET_PARSYNC_FAST_nodebug
#define GASNETI_INIT_NAME gasnet_init_GASNET_PARSYNC_FAST_nodebug
#elif defined(GASNET_DEBUG)
#define gex_Client_Init gex_Client_Init_GASNET_PAR_FAST_debug
#define GASNETI_INIT_NAME gasnet_init_GASNET_PAR_FAST_debug
#else
#define gex_Client_Init gex_Client_Init_GASNET_PAR_FAST_nodebug
#define GASNETI_INIT_NAME gasnet_init_GASNET_PAR_FAST_nodebug
#endif

/* ---- limits and features (§1.4) */
#define GASNET_PAGESIZE GASNETI_PAGESIZE
#define GASNET_MAXNODES 0x7FFFFFFFu
#define GASNET_MAXEPS 64
#define GEX_AM_INDEX_BASE 128
/* Handlers may run on the library's progress thread (a receive thread,
 * GASNET_PROGRESS_THREAD=yes, core-mpi/progress.c), which every build
 * has; gex_System_QueryHiddenAMConcurrencyLevel says whether it runs.
 * There is no send thread. */
#define GASNET_HIDDEN_AM_CONCURRENCY_LEVEL 1
#define GASNET_RCV_THREAD 1
#define SIZEOF_GEX_RMA_VALUE_T 8
#define GASNET_NULL_ARGV_OK 1
/* Segments are placed wherever mmap puts them: no alignment promise. */
#define GASNET_ALIGNED_SEGMENTS 0
/* Processes of one host map each other's segments (core-native/shm.c). */
#define GASNET_PSHM 1

/* ---- types (§2) */
typedef struct gasneti_client_s *gex_Client_t;
typedef struct gasneti_ep_s *gex_EP_t;
typedef struct gasneti_segment_s *gex_Segment_t;
typedef struct gasneti_tm_s *gex_TM_t;
typedef struct gasneti_token_s *gex_Token_t;
typedef struct gasneti_srcdesc_s *gex_AM_SrcDesc_t;
typedef struct gasneti_ad_s *gex_AD_t;
typedef uint8_t gex_AM_Index_t;
typedef int32_t gex_AM_Arg_t;
typedef void (*gex_AM_Fn_t)();
typedef uint64_t gex_RMA_Value_t;
typedef unsigned int gex_TI_t;
typedef unsigned int gex_EC_t;
typedef uint32_t gex_EP_Capabilities_t;
typedef struct {
    void *gex_addr;
    size_t gex_len;
} gex_Memvec_t;
typedef const struct {
    gex_Rank_t gex_jobrank;
} gex_RankInfo_t;

typedef struct {
    gex_AM_Index_t gex_index; /* 0: don't care; else GEX_AM_INDEX_BASE..255 */
    gex_AM_Fn_t gex_fnptr;
    gex_Flags_t gex_flags;    /* one category flag | one request/reply flag */
    unsigned int gex_nargs;
    const void *gex_cdata;
    const char *gex_name;
} gex_AM_Entry_t;

typedef struct {
    gex_Rank_t gex_srcrank;
    gex_EP_t gex_ep;
    const gex_AM_Entry_t *gex_entry;
    int gex_is_req;
    int gex_is_long;
} gex_Token_Info_t;

/* Memory kinds (seed 003 §4.1, §6): a kind names one memory (host, or one
 * device) and the way the library reaches it. GEX_MK_HOST is predefined;
 * gasnet_mk.h creates the others. The old names are aliases. */
typedef struct gasneti_mk_s *gex_MK_t;
#define GEX_MK_HOST ((gex_MK_t)(uintptr_t)1)
#define GEX_MK_INVALID ((gex_MK_t)0)
typedef gex_MK_t gex_MemKind_t;
#define GEX_MEMKIND_HOST GEX_MK_HOST
typedef enum {
    GEX_MK_CLASS_HOST = 0,
    GEX_MK_CLASS_CUDA_UVA,
    GEX_MK_CLASS_HIP,
    GEX_MK_CLASS_ZE,
    GASNETI_MK_CLASS_EMULATED = 0x454d55 /* tests only, see gasnet_mk.h */
} gex_MK_Class_t;
/* GASNET_HAVE_MK_CLASS_CUDA_UVA and _MULTIPLE come from gasnet_config.h:
 * defined (to 1) only when the CUDA class was built. HIP and ZE are never
 * built here. */

#define GEX_CLIENT_INVALID ((gex_Client_t)0)
#define GEX_SEGMENT_INVALID ((gex_Segment_t)0)
#define GEX_TM_INVALID ((gex_TM_t)0)
#define GEX_EP_INVALID ((gex_EP_t)0)
#define GEX_AM_SRCDESC_NO_OP ((gex_AM_SrcDesc_t)0)
#define GEX_AD_INVALID ((gex_AD_t)0)

/* GASNet-1 types EX keeps */
typedef struct {
    void *addr;
    uintptr_t size;
} gasnet_seginfo_t;
typedef struct {
    gex_Rank_t host;      /* physical host id */
    gex_Rank_t supernode; /* shared-memory group id */
    uintptr_t offset;     /* add to a peer's segment address to access it locally */
} gasnet_nodeinfo_t;

/* ---- errors (§4.1) */
#define GASNET_OK 0
#define GASNET_ERR_NOT_INIT 1
#define GASNET_ERR_BAD_ARG 2
#define GASNET_ERR_RESOURCE 3
#define GASNET_ERR_NOT_READY 10004
#define GASNET_ERR_BARRIER_MISMATCH 10005
const char *gasnet_ErrorName(int _errval);
const char *gasnet_ErrorDesc(int _errval);

/* ---- thread discovery (GASNet-1 §1.8) */
typedef void *gasnet_threadinfo_t;
extern __thread char gasneti_threadinfo_tag;
#define GASNET_GET_THREADINFO() ((gasnet_threadinfo_t)&gasneti_threadinfo_tag)
#define GASNET_POST_THREADINFO(_info) \
    gasnet_threadinfo_t gasneti_threadinfo_posted __attribute__((__unused__)) = (_info)
#define GASNET_BEGIN_FUNCTION() GASNET_POST_THREADINFO(GASNET_GET_THREADINFO())

/* ---- handler-safe locks (§5.4); gasnet_hsl_t is the same type */
typedef struct gasneti_hsl_s {
    pthread_mutex_t _lock;
    unsigned _magic;             /* GASNETI_HSL_MAGIC once initialised */
    const void *_owner;          /* holder's thread tag (debug builds) */
    struct gasneti_hsl_s *_next; /* the holder's previously locked HSL */
} gex_HSL_t;
#define GASNETI_HSL_MAGIC 0x48534c31u
#define GEX_HSL_INITIALIZER {PTHREAD_MUTEX_INITIALIZER, GASNETI_HSL_MAGIC, 0, 0}
void gex_HSL_Init(gex_HSL_t *_hsl);
void gex_HSL_Destroy(gex_HSL_t *_hsl);
void gex_HSL_Lock(gex_HSL_t *_hsl);
void gex_HSL_Unlock(gex_HSL_t *_hsl);
int gex_HSL_Trylock(gex_HSL_t *_hsl);

#ifdef __cplusplus
}
#endif

#include <gasnet_core.h>
#include <gasnet_extended.h>

#include <gasnet_tools.h>

/* -DGASNET_SRCLINES: each call below records the client's file and line
 * first, for the trace's N category (core-mpi/trace.c). Macros over the
 * functions' own names (not expanded again inside), defined after every
 * header body so that only the client's calls expand them. */
#if defined(GASNET_SRCLINES) && (!defined(__cplusplus) || __cplusplus >= 201103L)
#define GASNETI_SRCLINE_HERE GASNETT_TRACE_SETSOURCELINE(__FILE__, __LINE__)
#define gex_RMA_PutBlocking(...) (GASNETI_SRCLINE_HERE, gex_RMA_PutBlocking(__VA_ARGS__))
#define gex_RMA_PutNBI(...) (GASNETI_SRCLINE_HERE, gex_RMA_PutNBI(__VA_ARGS__))
#define gex_RMA_PutNB(...) (GASNETI_SRCLINE_HERE, gex_RMA_PutNB(__VA_ARGS__))
#define gex_RMA_GetBlocking(...) (GASNETI_SRCLINE_HERE, gex_RMA_GetBlocking(__VA_ARGS__))
#define gex_RMA_GetNBI(...) (GASNETI_SRCLINE_HERE, gex_RMA_GetNBI(__VA_ARGS__))
#define gex_RMA_GetNB(...) (GASNETI_SRCLINE_HERE, gex_RMA_GetNB(__VA_ARGS__))
#define gex_RMA_GetBlockingVal(...) (GASNETI_SRCLINE_HERE, gex_RMA_GetBlockingVal(__VA_ARGS__))
#define gex_RMA_PutBlockingVal(...) (GASNETI_SRCLINE_HERE, gex_RMA_PutBlockingVal(__VA_ARGS__))
#define gex_RMA_PutNBIVal(...) (GASNETI_SRCLINE_HERE, gex_RMA_PutNBIVal(__VA_ARGS__))
#define gex_RMA_PutNBVal(...) (GASNETI_SRCLINE_HERE, gex_RMA_PutNBVal(__VA_ARGS__))
#define gasnetc_AMRequestShort(...) (GASNETI_SRCLINE_HERE, gasnetc_AMRequestShort(__VA_ARGS__))
#define gasnetc_AMRequestMedium(...) (GASNETI_SRCLINE_HERE, gasnetc_AMRequestMedium(__VA_ARGS__))
#define gasnetc_AMRequestLong(...) (GASNETI_SRCLINE_HERE, gasnetc_AMRequestLong(__VA_ARGS__))
#define gasnetc_AMReplyShort(...) (GASNETI_SRCLINE_HERE, gasnetc_AMReplyShort(__VA_ARGS__))
#define gasnetc_AMReplyMedium(...) (GASNETI_SRCLINE_HERE, gasnetc_AMReplyMedium(__VA_ARGS__))
#define gasnetc_AMReplyLong(...) (GASNETI_SRCLINE_HERE, gasnetc_AMReplyLong(__VA_ARGS__))
#define gex_Event_Wait(...) (GASNETI_SRCLINE_HERE, gex_Event_Wait(__VA_ARGS__))
#define gex_Event_WaitSome(...) (GASNETI_SRCLINE_HERE, gex_Event_WaitSome(__VA_ARGS__))
#define gex_Event_WaitAll(...) (GASNETI_SRCLINE_HERE, gex_Event_WaitAll(__VA_ARGS__))
#define gex_NBI_Wait(...) (GASNETI_SRCLINE_HERE, gex_NBI_Wait(__VA_ARGS__))
#define gex_Coll_BarrierNB(...) (GASNETI_SRCLINE_HERE, gex_Coll_BarrierNB(__VA_ARGS__))
#define gex_Coll_BarrierBlocking(...) (GASNETI_SRCLINE_HERE, gex_Coll_BarrierBlocking(__VA_ARGS__))
#define gasnet_barrier_notify(...) (GASNETI_SRCLINE_HERE, gasnet_barrier_notify(__VA_ARGS__))
#define gasnet_barrier_wait(...) (GASNETI_SRCLINE_HERE, gasnet_barrier_wait(__VA_ARGS__))
#define gasnet_barrier(...) (GASNETI_SRCLINE_HERE, gasnet_barrier(__VA_ARGS__))
#endif

#endif
