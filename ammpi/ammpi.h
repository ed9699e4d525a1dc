/* ammpi.h: Active Messages over MPI, in the style of AM-2.0 / AMMPI.
 *
 * One endpoint per process carries Short, Medium and Long requests and
 * replies between the ranks of an MPI communicator. The endpoint owns
 * duplicated communicators (it never touches the caller's), a table of 256
 * handlers and one registered memory segment that Long messages write into.
 * Progress happens only inside ammpi calls: ammpi_poll() and every send.
 *
 * Handler prototypes (M = number of 32-bit arguments, 0..AMMPI_MAX_ARGS):
 *   short:        void h(ammpi_token_t tok, int32_t a0, ..., int32_t aM-1);
 *   medium, long: void h(ammpi_token_t tok, void *buf, size_t nbytes,
 *                        int32_t a0, ..., int32_t aM-1);
 * A request handler may send at most one reply through its token; a reply
 * handler may not send. See ammpi.c for the protocol, flow control and
 * memory bound.
 */
#ifndef AMMPI_H
#define AMMPI_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define AMMPI_MAX_ARGS 16
#define AMMPI_NUM_HANDLERS 256
#define AMMPI_MAX_MEDIUM 65000          /* bytes of a Medium payload */
#define AMMPI_MAX_LONG_REQUEST 1048576  /* Long request: lands in place, no copy */
#define AMMPI_MAX_LONG_REPLY 65000      /* Long reply: the replier sends a copy */

enum {
    AMMPI_OK = 0,
    AMMPI_ERR_BAD_ARG = 1,  /* illegal argument from the caller */
    AMMPI_ERR_RESOURCE = 2, /* MPI or memory failure */
    AMMPI_ERR_NOT_INIT = 3  /* endpoint missing or already finalised */
};

typedef struct ammpi_ep ammpi_ep_t;
typedef struct ammpi_token *ammpi_token_t;
typedef void (*ammpi_handler_fn)(void); /* cast to the real prototype */

/* Tunables. ammpi_config_default() fills them from AMMPI_* environment
 * variables (see README.md) so that a caller may adjust before ammpi_open. */
typedef struct {
    int depth;          /* AMMPI_NETWORKDEPTH: request send buffers, default 16 */
    int credits_pp;     /* AMMPI_CREDITS_PP: requests in flight per peer, default = depth */
    int eager_size;     /* AMMPI_EAGER_SIZE: largest payload sent inline, default 4096 */
    int recv_buffers;   /* AMMPI_RECV_BUFFERS: preposted receives, 0 = derived */
    int thread_safe;    /* lock the endpoint: several threads may call at once */
    int spin_polls;     /* idle polls in a wait loop before yielding the CPU */
} ammpi_config_t;

void ammpi_config_default(ammpi_config_t *cfg);

/* Collective over parent: every rank opens its endpoint together. */
int ammpi_open(ammpi_ep_t **ep, MPI_Comm parent, const ammpi_config_t *cfg);
/* Collective: waits for this rank's sends to complete, frees everything. */
int ammpi_close(ammpi_ep_t *ep);
/* For a process about to end without ammpi_close: cancels the endpoint's
 * posted receives so that MPI_Finalize finds no pending request, and
 * returns with the endpoint locked for good, so that no other thread makes
 * MPI calls through it any more. */
void ammpi_cancel_receives(ammpi_ep_t *ep);

int ammpi_rank(const ammpi_ep_t *ep);
int ammpi_size(const ammpi_ep_t *ep);
MPI_Comm ammpi_comm(const ammpi_ep_t *ep); /* header communicator (tests) */
const ammpi_config_t *ammpi_config(const ammpi_ep_t *ep);

/* Handler 0 is reserved; 1..255 may be set. fn == NULL unregisters. */
int ammpi_set_handler(ammpi_ep_t *ep, int index, ammpi_handler_fn fn);
/* The memory region Long payloads may target on this rank (size 0: none). */
int ammpi_set_segment(ammpi_ep_t *ep, void *base, uintptr_t size);

/* Called when a message from the wire is malformed, or a protocol rule is
 * broken. The default prints the message and aborts the job. A handler that
 * returns lets ammpi drop the message (tests use this). */
typedef void (*ammpi_error_fn)(ammpi_ep_t *ep, int src, const char *what);
void ammpi_set_error_handler(ammpi_ep_t *ep, ammpi_error_fn fn);

/* Optional hooks run around every handler on the thread that runs it
 * (GASNet's debug build checks handler rules with them). */
typedef void (*ammpi_hook_fn)(ammpi_token_t tok, int is_request);
void ammpi_set_handler_hooks(ammpi_ep_t *ep, ammpi_hook_fn before, ammpi_hook_fn after);

/* Requests: may poll (and run handlers) while waiting for flow control.
 * The source buffer may be reused on return, except for long_async, whose
 * source must stay unchanged until the matching reply handler starts. */
int ammpi_request_short(ammpi_ep_t *ep, int dest, int handler,
                        int nargs, const int32_t *args);
int ammpi_request_medium(ammpi_ep_t *ep, int dest, int handler,
                         const void *src, size_t nbytes, int nargs, const int32_t *args);
int ammpi_request_long(ammpi_ep_t *ep, int dest, int handler,
                       const void *src, size_t nbytes, void *dest_addr,
                       int nargs, const int32_t *args);
int ammpi_request_long_async(ammpi_ep_t *ep, int dest, int handler,
                             const void *src, size_t nbytes, void *dest_addr,
                             int nargs, const int32_t *args);

/* Replies: only from a request handler, at most once; never block. */
int ammpi_reply_short(ammpi_token_t tok, int handler, int nargs, const int32_t *args);
int ammpi_reply_medium(ammpi_token_t tok, int handler, const void *src,
                       size_t nbytes, int nargs, const int32_t *args);
int ammpi_reply_long(ammpi_token_t tok, int handler, const void *src,
                     size_t nbytes, void *dest_addr, int nargs, const int32_t *args);

/* Serialises the caller's own MPI calls with the endpoint's, for callers
 * that use MPI beside ammpi under MPI_THREAD_SERIALIZED. Never held while
 * a handler runs. */
void ammpi_lock(ammpi_ep_t *ep);
void ammpi_unlock(ammpi_ep_t *ep);
/* Idle polls in ammpi_poll_wait before it yields the CPU (INT_MAX: never). */
void ammpi_set_spin_polls(ammpi_ep_t *ep, int spin_polls);

/* Services the network: runs the handlers of arrived messages. */
int ammpi_poll(ammpi_ep_t *ep);
/* Like ammpi_poll, but returns how many messages it handled (or -1 when
 * called from a handler). */
int ammpi_poll_count(ammpi_ep_t *ep);
/* One iteration of a wait loop: poll, and yield the CPU once the caller
 * has seen *idle consecutive polls with nothing to do. Returns what
 * ammpi_poll returns. */
int ammpi_poll_wait(ammpi_ep_t *ep, int *idle);

int ammpi_token_source(ammpi_token_t tok, int *src);
int ammpi_token_is_request(ammpi_token_t tok);
int ammpi_token_replied(ammpi_token_t tok);
/* The token of the handler running on the calling thread, or NULL. */
ammpi_token_t ammpi_current_token(void);

/* Counters for tests and benchmarks. */
typedef struct {
    uint64_t requests_sent, replies_sent, credit_msgs_sent;
    uint64_t msgs_received, payloads_separate, heap_reply_buffers;
    uint64_t credit_waits, buffer_waits;
} ammpi_stats_t;
void ammpi_get_stats(const ammpi_ep_t *ep, ammpi_stats_t *out);

#ifdef __cplusplus
}
#endif
#endif
