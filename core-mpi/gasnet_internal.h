/* Internal declarations shared by the layers of the library: core-mpi
 * (gasnetc_), extended and barrier (gasnete_), core-native, and common
 * helpers (gasneti_). Not installed. */
#ifndef GASNET_INTERNAL_H
#define GASNET_INTERNAL_H

#include <gasnet.h>
#include <mpi.h>

#include "ammpi.h"

/* ---- job state (core.c) */
extern ammpi_ep_t *gasnetc_ep;
extern MPI_Comm gasnetc_comm;  /* GASNet's own dup of MPI_COMM_WORLD */
extern int gasneti_init_done;  /* gasnet_init succeeded */
extern int gasneti_attach_done; /* gasnet_attach succeeded */
extern gasnet_seginfo_t *gasneti_seginfo;   /* every node's segment */
extern gasnet_nodeinfo_t *gasneti_nodeinfo; /* every node's host grouping */
extern int gasneti_wait_mode;
extern int gasnetc_mpi_started; /* GASNet called MPI_Init, so it finalizes MPI too */

/* Prints "*** FATAL ERROR: node N of M: ..." and aborts the whole job. */
void gasneti_fatalerror(const char *fmt, ...)
    __attribute__((__noreturn__, __format__(__printf__, 1, 2)));
/* Prints "GASNet <call> on node N: <why> (<code name>)" and returns code. */
int gasneti_report(const char *call, int code, const char *fmt, ...)
    __attribute__((__format__(__printf__, 3, 4)));

/* Environment from the job's launch (node 0's), reported under
 * GASNET_VERBOSEENV with its value and whether it was the default. */
int64_t gasneti_getenv_int(const char *key, int64_t dflt);
int64_t gasneti_getenv_size(const char *key, int64_t dflt); /* accepts 16K, 2M... */
int gasneti_getenv_yesno(const char *key, int dflt);
const char *gasneti_getenv_str(const char *key, const char *dflt);

/* ---- handlers. Core: 1..63, extended and barriers: 64..127, client:
 * 128..255. Each layer lists its handlers in a table ended by index 0. */
typedef struct {
    int index;
    ammpi_handler_fn fn;
} gasneti_handler_t;
extern const gasneti_handler_t gasnete_handlers[];
extern const gasneti_handler_t gasnete_barrier_handlers[];

/* ---- layer start-up, called at the end of gasnet_attach on every node */
void gasnete_init(void);
void gasnete_barrier_init(void);

/* ---- barrier progress, run by every poll (barrier.c) */
void gasnete_barrier_progress(void);

/* ---- polling (am.c) */
int gasneti_poll(void); /* one poll; also services exit requests */
void gasneti_poll_wait(int *idle); /* one iteration of a wait loop */

/* ---- exit (exit.c) */
/* Non-zero while this thread is inside an MPI call GASNet made: MPI may call
 * exit() from there when the job aborts, and the exit hook must then leave
 * MPI alone. */
extern __thread int gasnetc_in_mpi;
void gasnetc_exit_init(void);       /* at gasnet_init: exit channel, on_exit */
extern volatile int gasnetc_exit_requested; /* a peer asked this node to exit */
void gasnetc_exit_now(void) __attribute__((__noreturn__));
void gasnetc_exit_poll(void);       /* after each poll: serve exit notices */

/* ---- progress thread (progress.c) */
int gasnetc_progress_thread_wanted(void); /* GASNET_PROGRESS_THREAD, read early */
void gasnetc_progress_start(void);        /* end of gasnet_attach */
void gasnetc_progress_stop(void);

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

/* Fatal unless the library is attached: every call that needs it. */
#define GASNETI_CHECK_ATTACHED(call)                                              \
    do {                                                                          \
        if (__builtin_expect(!gasneti_attach_done, 0))                            \
            gasneti_fatalerror("%s called before a successful gasnet_attach", call); \
    } while (0)

/* Whether [addr, addr+n) lies in node's segment. */
static inline int gasneti_in_segment(gasnet_node_t node, const void *addr, size_t n)
{
    uintptr_t base = (uintptr_t)gasneti_seginfo[node].addr, a = (uintptr_t)addr;
    uintptr_t size = gasneti_seginfo[node].size;
    return a >= base && a - base <= size && n <= size - (a - base);
}

#endif
