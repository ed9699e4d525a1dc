/* Internal declarations of the core (core-mpi, gasnetc_ and gasneti_)
 * for the layers above it (extended, barrier, coll, ratomic: gasnete_),
 * the RMA backends (core-native) and memory kinds; the base they all use
 * is base/base.h. Not installed.
 *
 * OBJECTS. The EX objects are the engine; GASNet-1 is a layer over the
 * first client's primordial ones (include/gasnet.h).
 *   client   its name and flags, its endpoints by index, its primordial team
 *   endpoint an index (0 = primordial; the index AM headers carry), a
 *            handler table (the registered gex_AM_Entry_t per index, which
 *            ammpi also knows, to reject messages that do not fit), the
 *            bound segment
 *   segment  base, size, owner
 *   team     this process's member (endpoint and rank), the size, and the
 *            members: rank -> (jobrank, endpoint index); NULL members mean
 *            rank r is (jobrank r, peer_index): the primordial team (index
 *            0) and the TM-pairs. The team id names it in collective
 *            messages (coll/).
 *   TM-pair  gex_TM_Pair(ep, i) is a team object the endpoint owns (one
 *            per remote index, made with the endpoint): so pairs compare
 *            equal iff made from the same arguments, cost nothing to make,
 *            and every point-to-point path takes them unchanged.
 * Every object starts with a magic word, checked when a handle comes in
 * from the client, so a stale or wrong handle is a clear fatal error.
 */
#ifndef GASNET_INTERNAL_H
#define GASNET_INTERNAL_H

#include <gasnet.h>
#include <mpi.h>

#include "ammpi.h"
#include "base.h"
#include "trace.h"

/* ---- objects */
enum {
    GASNETI_CLIENT_MAGIC = 0x434c4e54, GASNETI_EP_MAGIC = 0x45505054,
    GASNETI_SEG_MAGIC = 0x5345474d, GASNETI_TM_MAGIC = 0x54454d4d
};
/* Client flags beyond the public ones: created by gasnet_init. */
#define GASNETI_FLAG_LEGACY_INIT ((gex_Flags_t)1U << 31)

typedef struct gasneti_client_s *gasneti_client_t;
typedef struct gasneti_ep_s *gasneti_ep_t;
typedef struct gasneti_segment_s *gasneti_segment_t;
typedef struct gasneti_tm_s *gasneti_tm_t;

struct gasneti_client_s {
    uint32_t magic;
    gex_Flags_t flags;
    const char *name;
    void *cdata;
    gasneti_ep_t eps[GASNET_MAXEPS];
    int neps;
    gasneti_tm_t tm0;
};

struct gasneti_ep_s {
    uint32_t magic;
    gex_EP_Index_t index;
    gasneti_client_t client;
    gex_Flags_t flags;
    gex_EP_Capabilities_t caps;
    void *cdata;
    gasneti_segment_t segment; /* bound segment, or NULL */
    gex_AM_Entry_t handlers[256]; /* gex_fnptr NULL: not registered */
    pthread_mutex_t lock;         /* registration */
    struct gasneti_tm_s *pairs;   /* gex_TM_Pair(this, i) is &pairs[i] */
};

struct gasneti_segment_s {
    uint32_t magic;
    gasneti_client_t client;
    void *addr;
    uintptr_t size;
    gex_Flags_t flags;
    void *cdata;
    gex_MK_t kind;
    int fd;        /* GASNet-allocated host memory: its memfd, which peers map */
    int allocated; /* by GASNet (freed at destroy) */
    int bound;     /* to some endpoint */
};

struct gasneti_tm_s {
    uint32_t magic;
    gasneti_client_t client;
    gasneti_ep_t ep;
    gex_Rank_t rank, size;
    gex_EP_Location_t *members; /* NULL: rank r is jobrank r, endpoint 0 */
    gex_Flags_t flags;
    void *cdata;
    uint64_t id;                /* job-wide name of the team */
    void *scratch;              /* granted by the client, or NULL */
    size_t scratch_size;
    struct gasnete_coll_team *coll; /* collective state (coll/) */
    gex_EP_Index_t peer_index;  /* members NULL: every member's endpoint index */
    int is_pair;                /* a TM-pair: ranks are jobranks, no collectives */
    uint32_t creates;           /* gex_TM_Create/Dup calls on it (coll/tmcreate.c) */
};

/* The first client (the one GASNet-1 calls act on) and its objects. */
extern gasneti_client_t gasneti_client;
extern gasneti_ep_t gasneti_ep0;
extern gasneti_segment_t gasneti_seg0;

/* Handles from the client: fatal with the call named when not an object
 * of the expected kind (gasneti_bad_handle, base.h). */
static inline gasneti_tm_t gasneti_import_tm(gex_TM_t tm, const char *call)
{
    if (__builtin_expect(!tm || tm->magic != GASNETI_TM_MAGIC, 0)) gasneti_bad_handle(call, "team", tm);
    return tm;
}
/* A team proper: TM-pairs are refused (gex_TM_*, collectives, AD). */
void gasneti_pair_refused(const char *call) __attribute__((__noreturn__));
static inline gasneti_tm_t gasneti_import_team(gex_TM_t tm, const char *call)
{
    gasneti_tm_t t = gasneti_import_tm(tm, call);
    if (__builtin_expect(t->is_pair, 0)) gasneti_pair_refused(call);
    return t;
}
static inline gasneti_ep_t gasneti_import_ep(gex_EP_t ep, const char *call)
{
    if (__builtin_expect(!ep || ep->magic != GASNETI_EP_MAGIC, 0)) gasneti_bad_handle(call, "endpoint", ep);
    return ep;
}

/* The member at rank of tm (rank < tm->size). */
static inline gex_EP_Location_t gasneti_tm_member(gasneti_tm_t tm, gex_Rank_t rank)
{
    if (tm->members) return tm->members[rank];
    gex_EP_Location_t loc = {rank, tm->peer_index};
    return loc;
}
/* Fatal unless rank names a member of tm. */
void gasneti_check_rank(gasneti_tm_t tm, gex_Rank_t rank, const char *call);
static inline gex_EP_Location_t gasneti_tm_peer(gasneti_tm_t tm, gex_Rank_t rank, const char *call)
{
    if (__builtin_expect(rank >= tm->size, 0)) gasneti_check_rank(tm, rank, call);
    return gasneti_tm_member(tm, rank);
}

/* Creates the primordial objects of a client (core objects.c). */
gasneti_client_t gasneti_client_create(const char *name, gex_Flags_t flags);
/* Registers the library's own handlers (gasnete_handlers and friends) on
 * an endpoint; every endpoint gets them. */
void gasneti_register_internal(gasneti_ep_t ep);
/* A team object over the given members (copied; NULL: the identity). */
gasneti_tm_t gasneti_tm_create(gasneti_client_t client, gasneti_ep_t ep, gex_Rank_t rank,
                               gex_Rank_t size, const gex_EP_Location_t *members, uint64_t id);
void gasneti_tm_free(gasneti_tm_t tm);

/* ---- job state (core.c) */
extern ammpi_ep_t *gasnetc_ep;
extern MPI_Comm gasnetc_comm;  /* GASNet's own dup of MPI_COMM_WORLD */
extern int gasneti_attach_done; /* the primordial segment is attached (RMA backends up) */
extern gasnet_seginfo_t *gasneti_seginfo;   /* every node's primordial segment */
extern int gasneti_wait_mode;

/* ---- handlers. Core: 1..63, extended, barriers and collectives: 64..127,
 * client: 128..255. Each layer lists its handlers in a table ended by
 * index 0; nargs -1 means any count. */
typedef struct {
    int index;
    ammpi_handler_fn fn;
    unsigned accepts; /* AMMPI_SHORT.. | AMMPI_REQUEST/REPLY */
    int nargs;
} gasneti_handler_t;

/* Pointers and 64-bit values travel as two handler arguments, high word first. */
#define GASNETE_HI(p) ((gex_AM_Arg_t)(uint32_t)((uint64_t)(uintptr_t)(p) >> 32))
#define GASNETE_LO(p) ((gex_AM_Arg_t)(uint32_t)(uintptr_t)(p))
#define GASNETE_PTR(hi, lo) ((void *)(uintptr_t)(((uint64_t)(uint32_t)(hi) << 32) | (uint32_t)(lo)))
#define GASNETE_U64(hi, lo) (((uint64_t)(uint32_t)(hi) << 32) | (uint32_t)(lo))

/* Handler indices of the library's layers, in one place so that no two
 * overlap: each layer owns a range. */
enum {
    GASNETE_H_PUT_MEDIUM = 64, GASNETE_H_PUT_LONG, GASNETE_H_ACK, GASNETE_H_GET, /* 64..79 */
    GASNETE_H_GET_MEDIUM_REPLY, GASNETE_H_GET_LONG_REPLY, GASNETE_H_MEMSET,
    GASNETE_H_PUT_VAL, GASNETE_H_GET_VAL, GASNETE_H_GET_VAL_REPLY,
    GASNETE_H_PACK, GASNETE_H_PACK_ACK, GASNETE_H_PACK_DATA,
    GASNETE_H_BARRIER = 80, /* 80..95: barriers */
    GASNETE_H_COLL = 96,    /* 96..103: collectives */
    GASNETE_H_AD = 104,     /* 104..111: remote atomics */
    GASNETE_H_AD_REQUEST = GASNETE_H_AD, GASNETE_H_AD_DONE, GASNETE_H_AD_RESULT,
    GASNETE_H_VIS = 112,    /* 112..119: VIS */
    GASNETE_H_VIS_FETCH = GASNETE_H_VIS + 5, /* takes back a pointer (the fuzz harnesses skip it) */
    GASNETE_H_MK = 120,     /* 120..127: endpoints and memory kinds */
    GASNETE_H_SEGQ = 126, GASNETE_H_SEGQ_REPLY = 127 /* segquery.c */
};

/* ---- the layers above the core (the RMA backends, shmam, extended,
 * barrier, coll, ratomic): each fills one of these, and conduit/conduit.c
 * hands the list, in start-up order, to gasneti_client_init. The core
 * walks the list and names no layer. Any member may be NULL. */
typedef struct {
    const char *name;
    void (*init)(void);   /* at client creation, every node (collective) */
    void (*attach)(void); /* at segment attach, in list order (collective) */
    const gasneti_handler_t *handlers; /* registered on every endpoint */
    /* Sends what the calling thread batched (see gasneti_batched); at_exit:
     * only what can go without waiting. */
    void (*flush)(int at_exit);
    void (*progress)(void); /* on the client's polls, after the network's messages */
    /* At shutdown, where attach ran, in reverse list order; collective,
     * MPI still usable. */
    void (*exit)(void);
    /* Before a created segment's memory is released (gex_Segment_Destroy). */
    void (*segment_destroy)(gasneti_segment_t seg);
} gasneti_layer_t;

/* Set by a layer when the calling thread has batched work to send; every
 * poll, wait, completion test and AM request sends it first (the flush
 * members). A flag the core tests inline, so the common case (nothing
 * batched) costs a load. */
extern __thread int gasneti_batched;
void gasneti_flush_layers(int at_exit);
static inline void gasneti_flush(void)
{
    if (__builtin_expect(gasneti_batched, 0)) gasneti_flush_layers(0);
}
/* Turns packing on or off at run time (benchmarks compare the two in one
 * job); the calling thread's batch is sent first (extended/pack.c). */
void gasnete_pack_enable(int on);

/* The library's own AMs (layers' handlers only: no checks), from tm's
 * endpoint to the member at loc; lc as for ammpi_msg_t. Fatal on failure
 * (am.c). */
void gasnete_am_request(gasneti_tm_t tm, gex_EP_Location_t loc, int category, int handler,
                        const void *src, size_t n, void *dest_addr, uint32_t *lc, int nargs, ...);
void gasnete_am_reply(ammpi_token_t tok, int category, int handler, const void *src, size_t n,
                      void *dest_addr, int nargs, ...);
/* The same for a request the caller built (m) or a request or reply it
 * wrote in place into what ammpi_prepare lent (p): traced and counted as
 * the library's own. gasnete_am_send returns gasnetc_request's code. */
int gasnete_am_send(const ammpi_msg_t *m);
void gasnete_am_commit(ammpi_prep_t *p, int handler, size_t n, const int32_t *args);

/* The layers, as gasneti_client_init received them (NULL-terminated). */
extern const gasneti_layer_t *const *gasneti_layers;
/* A layer has started (core.c, after its init): from now on the client's
 * polls run its progress member (am.c). */
void gasneti_layer_started(const gasneti_layer_t *layer);
/* A transport of a layer's own (an RMA backend that needs polling) joins
 * or leaves every poll, the progress thread's too, with the AM network's:
 * only while it runs, so that a job without one pays nothing. fn must be
 * thread-safe. Remove only with the progress thread stopped. */
void gasneti_poll_add(void (*fn)(void));
void gasneti_poll_remove(void (*fn)(void));
void gasneti_poll_transports(void); /* (the progress thread's) */
/* The entry points (conduit/conduit.c) pass the layers in start-up order. */
int gasneti_legacy_init(const gasneti_layer_t *const *layers, int *argc, char ***argv);
int gasneti_client_init(const gasneti_layer_t *const *layers, gex_Client_t *client_p, gex_EP_t *ep_p,
                        gex_TM_t *tm_p, const char *clientName, int *argc, char ***argv,
                        gex_Flags_t flags);
/* Sends a request the caller has checked: ammpi's one dispatch (the
 * channel that serves its destination: the shared-memory rings or
 * loopback; else MPI). An ammpi code. */
int gasnetc_request(const ammpi_msg_t *m);
int gasneti_poll(void);            /* one poll; also services exit requests */
/* A client's operation that was done in the call because dest is this
 * process: now and then a poll (am.c). */
void gasneti_poll_after_loopback(gex_Rank_t dest);
void gasneti_poll_wait(int *idle); /* one iteration of a wait loop */

/* ---- exit (exit.c) */
/* Non-zero while this thread is inside an MPI call GASNet made: MPI may call
 * exit() from there when the job aborts, and the exit hook must then leave
 * MPI alone. */
extern __thread int gasnetc_in_mpi;
void gasnetc_exit_init(void);       /* at init: exit channel, on_exit */
void gasnetc_signals_init(void);    /* at init: GASNET_FREEZE, fatal, backtrace and freeze signals (signals.c) */
void gasnetc_signals_reclaim(void); /* after attach: the fatal-signal handlers a backend's libraries replaced */
/* watch.c: the nodes of this host that end without exiting are reported */
void gasnetc_watch_start(void); /* at init, collective */
void gasnetc_watch_quiet(void); /* this node ends: peers may end too (async-signal-safe) */
void gasnetc_watch_stop(void);  /* quiet, and the watch thread ends */
extern int gasnetc_exit_requested; /* a peer asked this node to exit (atomic) */
void gasnetc_exit_now(void) __attribute__((__noreturn__));
void gasnetc_exit_poll(void);       /* after each poll: serve exit notices */
/* Checks an exit notice of `words` 64-bit words (MSG_EXIT, code, origin,
 * count) from a node that had (heard_before) or had not sent one yet, in
 * a job of `nodes`: NULL if it is well formed, else what is wrong. */
const char *gasnetc_exit_notice_error(const int64_t *msg, int words, long nodes, int heard_before);

/* ---- progress thread (progress.c) */
int gasnetc_progress_thread_wanted(void); /* GASNET_PROGRESS_THREAD, read early */
/* When the client may communicate; with defer (GEX_FLAG_DEFER_THREADS)
 * the thread is only made ready for the client to start. */
void gasnetc_progress_start(int defer);
void gasnetc_progress_stop(void);
/* Keeps the progress thread out of MPI while a caller makes MPI calls of
 * its own (collectives at attach), which MPI_THREAD_SERIALIZED requires. */
void gasnetc_progress_hold(void);
void gasnetc_progress_release(void);

/* ---- debug-build checks of the handler, NIS and HSL rules (hsl.c). In
 * optimised builds they compile to nothing. */
#ifdef GASNET_DEBUG
void gasneti_check_may_communicate(const char *call); /* not in handler, NIS or HSL */
void gasneti_check_may_poll(const char *call);
void gasneti_handler_enter(ammpi_token_t tok, int is_request);
void gasneti_handler_leave(ammpi_token_t tok, int is_request);
#define GASNETI_CHECK_MAY_COMMUNICATE(call) gasneti_check_may_communicate(call)
#define GASNETI_CHECK_MAY_POLL(call) gasneti_check_may_poll(call)
#else
#define GASNETI_CHECK_MAY_COMMUNICATE(call) ((void)(call))
#define GASNETI_CHECK_MAY_POLL(call) ((void)(call))
#endif
int gasneti_hsls_held(void); /* by the calling thread (debug builds: exact) */

/* Fatal unless the job is up: every call that needs it. */
#define GASNETI_CHECK_INIT(call)                                                 \
    do {                                                                          \
        if (__builtin_expect(!gasneti_init_done, 0))                              \
            gasneti_fatalerror("%s called before gex_Client_Init or gasnet_init", call); \
    } while (0)
/* Fatal unless communication may start: after gex_Client_Init, or after
 * gasnet_attach for a client started by gasnet_init. */
#define GASNETI_CHECK_READY(call)                                                 \
    do {                                                                          \
        GASNETI_CHECK_INIT(call);                                                 \
        if (__builtin_expect((gasneti_client->flags & GASNETI_FLAG_LEGACY_INIT) && \
                             !gasneti_attach_done, 0))                            \
            gasneti_fatalerror("%s called before a successful gasnet_attach", call); \
    } while (0)
/* GASNet-1 calls that need gasnet_attach (after gasnet_init). */
#define GASNETI_CHECK_ATTACHED(call)                                              \
    do {                                                                          \
        if (__builtin_expect(!gasneti_attach_done, 0))                            \
            gasneti_fatalerror("%s called before a successful gasnet_attach", call); \
    } while (0)

/* Recomputes gasneti_pshm_fast (gasnet_extended.h) after gasneti_pshm,
 * the device ranges (memkind/) or the trace mask change (segment.c). */
void gasneti_pshm_fast_update(void);

/* What is known here of each endpoint's bound segment (segment.c):
 * gasneti_epsegs[index][jobrank], a row allocated at the index's first
 * use; size 0: none known. */
typedef struct {
    gasnet_seginfo_t info; /* in the owner's address space */
    uintptr_t offset;      /* map != NULL: add to an owner address to reach it here */
    void *map;             /* our mapping of a neighbour's GASNet-allocated segment */
} gasneti_epseg_t;
extern gasneti_epseg_t *gasneti_epsegs[GASNET_MAXEPS];
/* Records (or clears, size 0) the segment of loc; a neighbour's
 * GASNet-allocated one (fd >= 0 in process pid) is mapped here if it can be. */
void gasneti_epseg_set(gex_EP_Location_t loc, void *addr, uintptr_t size, int pid, int fd);
/* (How this process reaches each of them: core-native/route.h.) */

/* The bound segment of endpoint ep_index of jobrank, or NULL when it has
 * none (or nothing is known of it here). */
static inline const gasnet_seginfo_t *gasneti_peer_segment(gex_EP_Location_t loc)
{
    if (loc.gex_ep_index == 0 && gasneti_seginfo && gasneti_seginfo[loc.gex_rank].size)
        return &gasneti_seginfo[loc.gex_rank];
    const gasneti_epseg_t *r = __atomic_load_n(&gasneti_epsegs[loc.gex_ep_index], __ATOMIC_ACQUIRE);
    return r && r[loc.gex_rank].info.size ? &r[loc.gex_rank].info : NULL;
}

/* Whether [addr, addr+n) lies in the segment s (NULL: none). */
static inline int gasneti_in_seginfo(const gasnet_seginfo_t *s, const void *addr, size_t n)
{
    if (!s) return 0;
    uintptr_t base = (uintptr_t)s->addr, a = (uintptr_t)addr, size = s->size;
    return a >= base && a - base <= size && n <= size - (a - base);
}

/* Whether [addr, addr+n) lies in node's primordial segment. */
static inline int gasneti_in_segment(gasnet_node_t node, const void *addr, size_t n)
{
    gex_EP_Location_t loc = {node, 0};
    return gasneti_in_seginfo(gasneti_peer_segment(loc), addr, n);
}

#endif
