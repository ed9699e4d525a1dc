/* ammpi.h: Active Messages over MPI, in the style of AM-2.0 / AMMPI.
 *
 * One endpoint per process carries Short, Medium and Long requests and
 * replies between the ranks of an MPI communicator. The endpoint owns
 * duplicated communicators (it never touches the caller's). Messages are
 * addressed to a rank and an endpoint index there (0..AMMPI_MAX_EPS-1: the
 * GASNet endpoints a process owns); each index has its own table of 256
 * handlers and its own memory segment that Long messages write into.
 * Index 0 exists from ammpi_open; the calls without an index use it.
 * Progress happens only inside ammpi calls: ammpi_poll() and every send.
 *
 * Handler prototypes (M = number of 32-bit arguments, 0..AMMPI_MAX_ARGS):
 *   short:        void h(ammpi_token_t tok, int32_t a0, ..., int32_t aM-1);
 *   medium, long: void h(ammpi_token_t tok, void *buf, size_t nbytes,
 *                        int32_t a0, ..., int32_t aM-1);
 * A request handler may send at most one reply through its token; a reply
 * handler may not send. See internal.h for the protocol, flow control and
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
#define AMMPI_MAX_EPS 64                /* endpoint indices per process */

enum {
    AMMPI_OK = 0,
    AMMPI_ERR_BAD_ARG = 1,  /* illegal argument from the caller */
    AMMPI_ERR_RESOURCE = 2, /* MPI or memory failure */
    AMMPI_ERR_NOT_INIT = 3, /* endpoint missing or already finalised */
    AMMPI_ERR_AGAIN = 4,    /* AMMPI_IMMEDIATE: would have had to wait; nothing sent */
    AMMPI_ERR_NOT_HERE = 5  /* a channel cannot send this message (ammpi uses MPI) */
};

/* Message categories, and what a handler accepts (an OR of them). */
enum { AMMPI_SHORT = 1, AMMPI_MEDIUM = 2, AMMPI_LONG = 4, AMMPI_REQUEST = 8, AMMPI_REPLY = 16 };
#define AMMPI_ACCEPT_ANY 31
/* Registration flag: the handler parses its Medium payload, so a channel's
 * message (memory its sender can still write) reaches it as a private copy. */
#define AMMPI_PRIVATE 32

typedef struct ammpi_ep ammpi_ep_t;
typedef struct ammpi_token *ammpi_token_t;
typedef void (*ammpi_handler_fn)(void); /* cast to the real prototype */

/* Tunables. ammpi_config_default() fills them from AMMPI_* environment
 * variables (see README.md) so that a caller may adjust before ammpi_open;
 * a value that is not an integer in the setting's range ends the process,
 * naming the variable and the value. */
typedef struct {
    int depth;          /* AMMPI_NETWORKDEPTH: request send buffers, default 16 */
    int credits_pp;     /* AMMPI_CREDITS_PP: requests in flight per peer, default = depth */
    int eager_size;     /* AMMPI_EAGER_SIZE: largest payload sent inline, default 4096 */
    int recv_buffers;   /* AMMPI_RECV_BUFFERS: preposted receives, 0 = derived */
    int payload_buffers; /* AMMPI_PAYLOAD_BUFFERS: separate payloads received at once, 0 = depth */
    int thread_safe;    /* lock the endpoint: several threads may call at once */
    int spin_polls;     /* idle polls in a wait loop before yielding the CPU */
} ammpi_config_t;

void ammpi_config_default(ammpi_config_t *cfg);
/* The same defaults without reading the environment (a caller with settings
 * of its own: GASNet). */
void ammpi_config_builtin(ammpi_config_t *cfg);

/* Collective over parent: every rank opens its endpoint together. */
int ammpi_open(ammpi_ep_t **ep, MPI_Comm parent, const ammpi_config_t *cfg);
/* Collective: settles every request, then leaves the endpoint's
 * communicators quiescent (nothing in flight, nothing unreceived, no
 * receive posted) and frees everything. */
int ammpi_close(ammpi_ep_t *ep);
/* For ranks that leave one by one without ammpi_close, so that
 * MPI_Finalize still finds the communicators quiescent. ammpi_stop locks
 * the endpoint for good (no other thread sends or polls through it any
 * more) and stores in sent[p] how many messages this rank sent to each
 * rank p; the caller delivers these counts to the peers itself. Then, from
 * the same thread, ammpi_drain is called repeatedly: it receives without
 * running handlers and returns 1 once expected[p] messages from each rank
 * p have arrived with their payloads and this rank's sends are complete
 * (expected NULL: not all counts known yet; 0 is returned). Finally
 * ammpi_cancel_receives cancels the receives that can no longer match. */
void ammpi_stop(ammpi_ep_t *ep, uint64_t *sent);
int ammpi_drain(ammpi_ep_t *ep, const uint64_t *expected);
void ammpi_cancel_receives(ammpi_ep_t *ep);
/* Benchmark hook (bench/): under MPICH/UCX every message the process
 * receives, on any communicator, is compared with each MPI_ANY_SOURCE
 * receive posted, so an open endpoint slows other MPI traffic. Pausing
 * cancels the endpoint's header receives; messages that arrive meanwhile
 * wait in MPI, and after resume the next poll takes them in order. While
 * paused the endpoint must not be used (no sends, no polls). Pausing a
 * paused endpoint, or resuming a running one, is AMMPI_ERR_BAD_ARG. */
int ammpi_pause_receives(ammpi_ep_t *ep);
int ammpi_resume_receives(ammpi_ep_t *ep);

int ammpi_rank(const ammpi_ep_t *ep);
int ammpi_size(const ammpi_ep_t *ep);
MPI_Comm ammpi_comm(const ammpi_ep_t *ep); /* header communicator (tests) */
const ammpi_config_t *ammpi_config(const ammpi_ep_t *ep);

/* Handler 0 is reserved; 1..255 may be set. fn == NULL unregisters.
 * ammpi_set_handler registers at endpoint index 0 for every category and
 * argument count. ammpi_register names the index, the categories the
 * handler accepts (an OR of AMMPI_SHORT/MEDIUM/LONG with AMMPI_REQUEST
 * and/or AMMPI_REPLY, and optionally AMMPI_PRIVATE) and its argument
 * count (-1: any); a message that does not fit is rejected as malformed,
 * its handler not run. */
int ammpi_set_handler(ammpi_ep_t *ep, int index, ammpi_handler_fn fn);
int ammpi_register(ammpi_ep_t *ep, int ep_index, int index, ammpi_handler_fn fn,
                   unsigned accepts, int nargs);
/* The memory region Long payloads may target at an endpoint index (size
 * 0: none). ammpi_set_segment sets index 0's. */
int ammpi_set_segment(ammpi_ep_t *ep, void *base, uintptr_t size);
int ammpi_set_segment_at(ammpi_ep_t *ep, int ep_index, void *base, uintptr_t size);
/* A segment the host may not write directly (device memory): a Long
 * payload, received into host memory, reaches it only through
 * copy(ctx, dst, src, n), before its handler runs; its handler gets the
 * destination address. Setting a segment with ammpi_set_segment_at makes
 * it plain memory again. */
typedef void (*ammpi_copy_fn)(void *ctx, void *dst, const void *src, size_t n);
int ammpi_set_segment_copy(ammpi_ep_t *ep, int ep_index, void *base, uintptr_t size,
                           ammpi_copy_fn copy, void *ctx);

/* Called when a message from the wire is malformed, or a protocol rule is
 * broken. The default prints the message and aborts the job. A handler that
 * returns lets ammpi drop the message (tests use this). */
typedef void (*ammpi_error_fn)(ammpi_ep_t *ep, int src, const char *what);
void ammpi_set_error_handler(ammpi_ep_t *ep, ammpi_error_fn fn);

/* Optional hooks run around every handler on the thread that runs it
 * (GASNet's debug build checks handler rules with them). */
typedef void (*ammpi_hook_fn)(ammpi_token_t tok, int is_request);
void ammpi_set_handler_hooks(ammpi_ep_t *ep, ammpi_hook_fn before, ammpi_hook_fn after);

/* An optional hook run, with no lock held, after each poll of a request
 * that waits for flow control (a credit or a slot of the depth): the
 * client's chance to see that the peer it waits on has ended (GASNet
 * serves its exit notices), since that peer will not answer. (A payload's
 * send needs no hook: a node that has exited still receives what it was
 * announced.) */
void ammpi_set_wait_hook(ammpi_ep_t *ep, void (*fn)(void));

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

/* The general form of a message. Requests name dest and dest_ep; a reply
 * goes back to the requesting rank and endpoint, so those are ignored.
 * src_ep is the sending endpoint's index (replies come back to it).
 * Local completion: with lc == NULL a request returns once the source may
 * be reused. Otherwise it may return while MPI still reads the source:
 * it then increments *lc (atomically) and decrements it (release) once
 * the source may be reused, on whichever thread polls; *lc is untouched
 * when the source was free on return. Replies always copy or finish. AMMPI_IMMEDIATE in flags
 * makes a request return AMMPI_ERR_AGAIN, sending nothing, where it would
 * wait for a credit or a send buffer. */
#define AMMPI_IMMEDIATE 1
/* AMMPI_LOOPBACK: a request to this rank runs its handler (and the
 * handler's reply's) in the sender's call, before it returns, instead of
 * travelling through MPI to the next poll (docs/loopback.md). */
#define AMMPI_LOOPBACK 2
typedef struct ammpi_msg {
    int category; /* AMMPI_SHORT, AMMPI_MEDIUM or AMMPI_LONG */
    int dest, dest_ep, src_ep;
    int handler;
    const void *src;
    size_t nbytes;
    void *dest_addr; /* Long */
    int nargs;
    const int32_t *args;
    int flags;
    uint32_t *lc;
} ammpi_msg_t;
int ammpi_request(ammpi_ep_t *ep, const ammpi_msg_t *m);
/* The same for a caller that has checked m against ammpi's limits (the
 * GASNet core checks every AM it sends): only the refusal inside a handler
 * is kept, and the message goes to its channel or MPI without a second set
 * of checks (a Short request through the shared-memory rings: about 50
 * instructions fewer). */
int ammpi_request_checked(ammpi_ep_t *ep, const ammpi_msg_t *m);
int ammpi_reply(ammpi_token_t tok, const ammpi_msg_t *m);

/* Negotiated payload. ammpi_prepare takes what a request needs (a credit
 * and a send buffer: it waits for them, or returns AMMPI_ERR_AGAIN under
 * AMMPI_IMMEDIATE; a reply, from its request handler (tok), never waits)
 * and offers a payload buffer of p->offer_size bytes (<= most) at
 * p->offer: m->src when the caller has one, else a send buffer of its own
 * that the caller fills in place. m gives the category, destination,
 * endpoints, nargs, flags and lc; its handler and nbytes are ignored.
 * ammpi_commit sends nbytes (<= p->offer_size) from p->offer with the
 * handler and arguments chosen then; it cannot fail. ammpi_commit_flags
 * is the same, except that under AMMPI_IMMEDIATE in flags a request to a
 * channel without room returns AMMPI_ERR_AGAIN, sending nothing (p stays
 * prepared). ammpi_cancel gives back what ammpi_prepare took, sending
 * nothing. */
typedef struct {
    ammpi_msg_t msg;
    ammpi_ep_t *ep;
    ammpi_token_t tok;
    char *buf, *large;
    void *offer;
    size_t offer_size;
} ammpi_prep_t;
int ammpi_prepare(ammpi_ep_t *ep, ammpi_token_t tok, const ammpi_msg_t *m, size_t most,
                  ammpi_prep_t *p);
void ammpi_commit(ammpi_prep_t *p, int handler, size_t nbytes, void *dest_addr,
                  const int32_t *args);
int ammpi_commit_flags(ammpi_prep_t *p, int handler, size_t nbytes, void *dest_addr,
                       const int32_t *args, int flags);
void ammpi_cancel(ammpi_prep_t *p);

/* Replies: only from a request handler, at most once; never block. */
int ammpi_reply_short(ammpi_token_t tok, int handler, int nargs, const int32_t *args);
int ammpi_reply_medium(ammpi_token_t tok, int handler, const void *src,
                       size_t nbytes, int nargs, const int32_t *args);
int ammpi_reply_long(ammpi_token_t tok, int handler, const void *src,
                     size_t nbytes, void *dest_addr, int nargs, const int32_t *args);

/* Channels: other ways to reach some peers (shared-memory queues between
 * the processes of a host, shmam/shmam.c). Messages to a peer a
 * channel serves are handed to its send (instead of MPI); messages it
 * receives are given to ammpi_deliver, which validates and dispatches them
 * like ammpi's own, and a handler's reply goes back through the same
 * channel. Every poll runs the channels' poll. Once channels serve every
 * other peer, MPI is tested on every 16th poll only after a quiet spell
 * (recv.c): it then carries only messages to self and ones too big for a
 * channel.
 *   send: writes m (to dest's endpoint dest_ep; a reply when is_reply)
 *         and returns AMMPI_OK once the source may be reused. A request
 *         may wait, polling, for room, or return AMMPI_ERR_AGAIN under
 *         AMMPI_IMMEDIATE; a reply never waits. AMMPI_ERR_NOT_HERE: this
 *         request cannot go this way (ammpi then uses MPI).
 *   poll: delivers what has arrived; returns how many messages.
 *   awaiting: per peer, the requests sent to it through the channel that
 *         a reply may still answer (the channel adds one per request it
 *         sends; ammpi_deliver takes one per reply and rejects a reply
 *         when none is left), or NULL: replies unchecked.
 *   in_place: whether send writes a Long payload of n bytes for addr of
 *         dest's endpoint dest_ep straight into its destination (so a
 *         sender need not stage it), or NULL: never. */
typedef struct ammpi_channel ammpi_channel_t;
struct ammpi_channel {
    int (*send)(ammpi_channel_t *ch, const struct ammpi_msg *m, int dest, int dest_ep, int is_reply);
    int (*poll)(ammpi_channel_t *ch);
    unsigned *awaiting;
    int (*in_place)(ammpi_channel_t *ch, int dest, int dest_ep, const void *addr, size_t n);
};
/* The channel's in_place for the way a Long goes: the reply to tok, or
 * (tok NULL) a request to dest. 0 where MPI carries it. */
int ammpi_in_place(ammpi_ep_t *ep, ammpi_token_t tok, int dest, int dest_ep, const void *addr, size_t n);
/* Routes messages to every peer p with peers[p] != 0 through ch. */
int ammpi_add_channel(ammpi_ep_t *ep, ammpi_channel_t *ch, const unsigned char *peers);
/* The wire form of a message, for channels: ammpi_wire_size(m, inplace)
 * bytes; with inplace, a Long's payload is already at its destination and
 * is not part of the message. */
size_t ammpi_wire_size(const struct ammpi_msg *m, int inplace);
void ammpi_wire_write(void *buf, const struct ammpi_msg *m, int dest_ep, int is_reply, int inplace);
/* A message a channel received from src (len bytes of wire form):
 * validated (rejected with the error handler's report), then its handler
 * runs, with replies going back through ch. Returns 0, or -1 if rejected.
 * Not from a handler (but by the loopback channel, send.c, for a reply). */
int ammpi_deliver(ammpi_ep_t *ep, ammpi_channel_t *ch, int src, const void *msg, size_t len);

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
/* Everything about the message a handler runs for. */
typedef struct {
    int src, src_ep;  /* sender's rank and endpoint index */
    int ep;           /* endpoint index the message was addressed to */
    int handler;
    int category;     /* AMMPI_SHORT, AMMPI_MEDIUM or AMMPI_LONG */
    int is_request;
    int via_channel;  /* it came through a channel (a reply goes back the same way) */
} ammpi_token_info_t;
int ammpi_token_info(ammpi_token_t tok, ammpi_token_info_t *info);
int ammpi_token_is_request(ammpi_token_t tok);
int ammpi_token_replied(ammpi_token_t tok);
/* The token of the handler running on the calling thread, or NULL. */
ammpi_token_t ammpi_current_token(void);

/* Counters for tests and benchmarks. */
typedef struct {
    uint64_t requests_sent, replies_sent, credit_msgs_sent;
    uint64_t msgs_received, payloads_separate, heap_reply_buffers;
    uint64_t credit_waits, buffer_waits;
    uint64_t payload_waits; /* separate payloads received that waited for a buffer */
} ammpi_stats_t;
void ammpi_get_stats(const ammpi_ep_t *ep, ammpi_stats_t *out);

#ifdef __cplusplus
}
#endif
#endif
