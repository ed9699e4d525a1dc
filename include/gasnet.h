/* gasnet.h: the GASNet-1 client API, spec 1.8, for the MPI conduit.
 *
 * The client defines exactly one of GASNET_SEQ, GASNET_PARSYNC, GASNET_PAR
 * before including this header (the makefile fragments do it). The build
 * configuration (debug or not, segment kind, page size) comes from
 * gasnet_config.h; gasnet_init is renamed after it, so a client compiled
 * for one thread mode or build fails to link against another library
 * instead of misbehaving at run time.
 */
#ifndef _GASNET_H
#define _GASNET_H 1

#ifdef _GASNET_TOOLS_H
#error "include gasnet.h before gasnet_tools.h"
#endif

#if (defined(GASNET_SEQ) && (defined(GASNET_PARSYNC) || defined(GASNET_PAR))) || \
    (defined(GASNET_PARSYNC) && defined(GASNET_PAR))
#error "define exactly one of GASNET_SEQ, GASNET_PARSYNC or GASNET_PAR, not several"
#elif defined(GASNET_SEQ)
#undef GASNET_SEQ
#define GASNET_SEQ 1
#define GASNETI_THREADMODEL SEQ
#elif defined(GASNET_PARSYNC)
#undef GASNET_PARSYNC
#define GASNET_PARSYNC 1
#define GASNETI_THREADMODEL PARSYNC
#elif defined(GASNET_PAR)
#undef GASNET_PAR
#define GASNET_PAR 1
#define GASNETI_THREADMODEL PAR
#else
#error "define exactly one of GASNET_SEQ, GASNET_PARSYNC or GASNET_PAR before including gasnet.h"
#endif

#include <gasnet_config.h>

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

/* ---- version and identification (spec 1.4, 1.5) */
#define GASNET_SPEC_VERSION_MAJOR 1
#define GASNET_SPEC_VERSION_MINOR 8
#define GASNET_VERSION GASNET_SPEC_VERSION_MAJOR
#define GASNET_CONDUIT_MPI 1
#define GASNET_CONDUIT_NAME MPI
#define GASNET_CONDUIT_NAME_STR "MPI"
#define GASNET_CORE_NAME AMMPI
#define GASNET_CORE_NAME_STR "AMMPI"
#define GASNET_CORE_VERSION 1.0
#define GASNET_CORE_VERSION_STR "1.0"
#define GASNET_EXTENDED_NAME REFERENCE
#define GASNET_EXTENDED_NAME_STR "REFERENCE"
#define GASNET_EXTENDED_VERSION 1.0
#define GASNET_EXTENDED_VERSION_STR "1.0"

#define GASNETI_STRINGIFY_(x) #x
#define GASNETI_STRINGIFY(x) GASNETI_STRINGIFY_(x)
#define GASNETI_CONCAT_(a, b) a##b
#define GASNETI_CONCAT(a, b) GASNETI_CONCAT_(a, b)

#ifdef GASNET_DEBUG
#define GASNETI_DEBUG_CONFIG debug
#else
#define GASNETI_DEBUG_CONFIG nodebug
#endif
#if UINTPTR_MAX == 0xffffffffffffffffu
#define GASNETI_PTR_CONFIG 64bit
#else
#define GASNETI_PTR_CONFIG 32bit
#endif

#define GASNET_CONFIG_STRING                                                           \
    "RELEASE=" GASNETI_STRINGIFY(GASNET_RELEASE_VERSION_MAJOR) "."                     \
    GASNETI_STRINGIFY(GASNET_RELEASE_VERSION_MINOR) "."                                \
    GASNETI_STRINGIFY(GASNET_RELEASE_VERSION_PATCH) ",SPEC=1.8,CONDUIT=MPI(AMMPI-1.0/" \
    "REFERENCE-1.0),THREADMODEL=" GASNETI_STRINGIFY(GASNETI_THREADMODEL)               \
    ",SEGMENT=FAST,PTR=" GASNETI_STRINGIFY(GASNETI_PTR_CONFIG) ",noalign,"             \
    GASNETI_STRINGIFY(GASNETI_DEBUG_CONFIG)

/* The link-time configuration check: gasnet_init's real name. */
#define GASNETI_LINKCONFIG \
    GASNETI_CONCAT(GASNETI_CONCAT(GASNETI_THREADMODEL, _FAST_), GASNETI_DEBUG_CONFIG)
#define gasnet_init GASNETI_CONCAT(gasnet_init_GASNET_, GASNETI_LINKCONFIG)

/* ---- limits (spec 1.3, 1.6, 1.7) */
#define GASNET_PAGESIZE GASNETI_PAGESIZE
#define GASNET_MAXNODES 0x7FFFFFFFu
/* Segments are placed wherever mmap puts them, so the OS may randomise
 * them; each node learns every peer's base at attach. */
#define GASNET_ALIGNED_SEGMENTS 0
#define GASNET_NULL_ARGV_OK 1

/* ---- types (spec 2) */
typedef uint32_t gasnet_node_t;
typedef uint8_t gasnet_handler_t;
typedef int32_t gasnet_handlerarg_t;
typedef void *gasnet_token_t;
typedef uintptr_t gasnet_register_value_t;
#if UINTPTR_MAX == 0xffffffffffffffffu
#define SIZEOF_GASNET_REGISTER_VALUE_T 8
#else
#define SIZEOF_GASNET_REGISTER_VALUE_T 4
#endif

typedef struct gasnete_op *gasnet_handle_t;
#define GASNET_INVALID_HANDLE ((gasnet_handle_t)0)
typedef struct gasnete_valget *gasnet_valget_handle_t;

typedef struct gasneti_handlerentry_s {
    gasnet_handler_t index; /* 0: don't care; overwritten by gasnet_attach */
    void (*fnptr)();
} gasnet_handlerentry_t;

typedef struct {
    void *addr;
    uintptr_t size;
} gasnet_seginfo_t;

typedef struct {
    gasnet_node_t host;      /* physical host id */
    gasnet_node_t supernode; /* shared-memory group id */
    uintptr_t offset;        /* add to a peer's segment address to access it locally */
} gasnet_nodeinfo_t;

/* ---- errors (spec 3) */
#define GASNET_OK 0
#define GASNET_ERR_NOT_INIT 1
#define GASNET_ERR_BAD_ARG 2
#define GASNET_ERR_RESOURCE 3
#define GASNET_ERR_NOT_READY 10004
#define GASNET_ERR_BARRIER_MISMATCH 10005
const char *gasnet_ErrorName(int errval);
const char *gasnet_ErrorDesc(int errval);

/* ---- thread discovery (spec 1.8) */
typedef void *gasnet_threadinfo_t;
extern __thread char gasneti_threadinfo_tag;
#define GASNET_GET_THREADINFO() ((gasnet_threadinfo_t)&gasneti_threadinfo_tag)
#define GASNET_POST_THREADINFO(info) \
    gasnet_threadinfo_t gasneti_threadinfo_posted __attribute__((__unused__)) = (info)
#define GASNET_BEGIN_FUNCTION() GASNET_POST_THREADINFO(GASNET_GET_THREADINFO())

/* ---- handler-safe locks (spec 6.2); one layout in every build */
typedef struct gasneti_hsl_s {
    pthread_mutex_t lock;
    unsigned magic;             /* GASNETI_HSL_MAGIC once initialised */
    const void *owner;          /* holder's thread tag (debug builds) */
    struct gasneti_hsl_s *next; /* the holder's previously locked HSL */
} gasnet_hsl_t;
#define GASNETI_HSL_MAGIC 0x48534c31u
#define GASNET_HSL_INITIALIZER {PTHREAD_MUTEX_INITIALIZER, GASNETI_HSL_MAGIC, 0, 0}

#ifdef __cplusplus
}
#endif

#include <gasnet_core.h>
#include <gasnet_extended.h>

#endif
