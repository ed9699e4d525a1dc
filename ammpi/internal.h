/* ammpi internals: how Active Messages travel over MPI.
 *
 * WIRE. Every message starts with an ammpi_hdr_t, then its 32-bit arguments,
 * then (padded to 16 bytes, so a Medium handler gets a buffer aligned for
 * any type) its payload when the payload is at most eager_size bytes. All
 * headers go on one tag of the endpoint's header communicator (a dup of the
 * caller's). A larger payload travels as a second message on the payload
 * communicator, with the tag named in the header, straight from the
 * sender's source buffer (requests) into the destination: a Long payload is
 * received directly at its address in the segment, a Medium one into a
 * temporary buffer; so is a Long one whose segment the host may not write
 * (device memory, ammpi_set_segment_copy): the segment's copy then takes
 * it, or an eager one from the header's buffer, to its destination. The source rank is taken from MPI_Status, never from
 * the wire; everything else in a header is validated before any byte is
 * written (endpoint index open, handler registered there and accepting the
 * message's category and argument count, sizes within limits, Long range
 * inside that endpoint's segment, credits consistent).
 *
 * RECEIVES. R receives are preposted with MPI_ANY_SOURCE on the header
 * tag. MPI matches wildcard receives in posting order, so only the oldest
 * posted receive (the head of the `posted` FIFO) needs testing: an idle
 * poll is one MPI_Test. A handler runs directly on the receive buffer; the
 * buffer is reposted at the tail when the handler returns. Messages whose
 * payload travels separately run when it has arrived, a peer's in the
 * order their headers came. A failed MPI call on these paths is fatal,
 * naming the call, the peer and MPI's error string (ammpi_mpi_fatal).
 *
 * FLOW CONTROL. Each rank holds C credits per peer (credits[p]); a request
 * to p takes one and waits, polling, while there is none. The credit comes
 * back with the reply, so a request handler never needs a credit to reply,
 * and a replying handler never blocks: reply buffers are taken from the
 * pool or from the heap. When a handler does not reply, the receiver owes
 * the credit (owed[p]); owed credits ride on the next message to p, or go
 * in a CREDIT message once C/2 are owed or when a poll finds nothing to do.
 * At most D request buffers are in MPI at once: a sender out of them polls.
 * A request's separate payload of up to M bytes is sent from a copy (it
 * holds one of the D), so the sender need not wait for the peer to poll.
 * Requests are never sent from handlers, so every wait polls and runs
 * handlers; replies never wait. Hence no cycle of waits: deadlock-free for
 * any mix of requests from any ranks, as long as every rank polls.
 *
 * THREADS. With thread_safe, one mutex per endpoint guards all state and
 * every MPI call (MPI_THREAD_SERIALIZED suffices). Handlers run with it
 * released, so several threads may run handlers at once.
 *
 * MEMORY BOUND per process, N ranks, C credits per peer, D depth, E eager
 * size, H = 96 header bytes, M = 65000 (largest Medium payload or Long
 * reply; Long requests up to 1 MiB land in place), R receive buffers
 * (default D/2: 8 with the defaults, whatever N is; a header that finds
 * no receive posted waits in MPI, as an unexpected message, until a
 * handled buffer is reposted), L buffers for separate
 * payloads received (AMMPI_PAYLOAD_BUFFERS, default D), P <= N-1 the peers
 * that actually send this rank requests or replies, Q <= P those whose
 * requests this rank answers with replies above E:
 *     (R + D + 4) * (E+H)             receive buffers and the warm eager
 *                                     pool (allocated at open: 0.12 MB with
 *                                     the defaults)
 *   + 96 * N + 128 * D                per-rank counters and send tracking
 *                                     (at open: 9.6 MB at 10^5 ranks)
 *   + (C+1)*P * (E+H)                 eager reply and credit buffers MPI
 *                                     still holds
 *   + 128 * (2*C*P + D)               pending-payload records
 *   + L * M                           separate payloads being received
 *                                     (Medium ones, and Longs for a segment
 *                                     the host may not write: L * 1 MiB more
 *                                     if such Longs above M arrive)
 *   + D * M                           copies of requests' payloads, and
 *                                     prepared requests' own buffers (each
 *                                     holds a slot of the depth; IMMEDIATE
 *                                     Long requests: D * 1 MiB)
 *   + C*Q * M                         copies of replies' payloads (a reply
 *                                     cannot wait for its requester)
 * At rest (every request answered, no payload in flight) only the first
 * two lines remain: tests/memory_test.sh checks that a job's peak grows by
 * at most 4 KB per peer beyond a plain MPI program's doing the same
 * exchanges (docs/memory.md: measured points and the projection to 10^5
 * ranks). Under load the per-peer terms are what C credits per peer allow:
 * up to C*(E+H) of eager buffers per peer talked to (67 KB with the
 * defaults, held by MPI), 4 KB of pending records, and C*M (1 MB) for
 * each peer this rank's handlers answer with large replies; what any peer
 * sends costs the receiver no more than L*M (1 MB) of payload buffers in
 * all. The load terms are bounded, whatever peers send, because every
 * message in flight holds a credit or a buffer: a request needs one of C
 * credits per peer; a reply over MPI must return at least one (a reply
 * returning none answers no request and is rejected), and one whose
 * payload travels separately holds its credits until the payload has
 * arrived (held[]), so at most C requests and C replies per peer wait for
 * a payload. A record beyond the L buffers waits (recv.c, start_payload):
 * its payload stays in MPI, at the sender for a message MPI sends by
 * rendezvous (an MPI that sends 65000 bytes eagerly keeps it in its own
 * unexpected-message memory instead, which this bound does not count). Through a channel a reply is accepted only while the channel
 * counts a request to its sender awaiting one (ammpi_channel_t.awaiting);
 * the channel's own buffers are its bound (shmam/shmam.c).
 */
#ifndef AMMPI_INTERNAL_H
#define AMMPI_INTERNAL_H

#include "ammpi.h"
#include <pthread.h>

/* kinds on the wire: a message's category (AMMPI_SHORT/MEDIUM/LONG), or a
 * credit return; | K_REPLY for a reply */
enum { K_SHORT = AMMPI_SHORT, K_MEDIUM = AMMPI_MEDIUM, K_LONG = AMMPI_LONG, K_CREDIT = 8,
       K_REPLY = 0x80 };
/* F_SEPARATE: the payload follows in its own message; F_INPLACE (channels
 * only): a Long's payload is already at its destination */
enum { F_SEPARATE = 1, F_INPLACE = 2 };
#define TAG_HEADER 1
#define TAG_SPACE 32768 /* payload tags cycle through 0..TAG_SPACE-1 */

typedef struct {
    uint8_t kind;     /* K_SHORT..K_CREDIT, | K_REPLY for a reply */
    uint8_t handler;
    uint8_t nargs;
    uint8_t flags;    /* F_SEPARATE: payload follows in its own message */
    uint16_t credits; /* request credits returned to the receiver */
    uint8_t ep;       /* endpoint index addressed */
    uint8_t src_ep;   /* sender's endpoint index */
    uint32_t nbytes;
    int32_t tag;      /* payload message tag when F_SEPARATE */
    uint64_t dest;    /* Long: destination address in the receiver's segment */
} ammpi_hdr_t;

#define HDR_MAX 96
static inline size_t hdr_len(int nargs)
{
    return (sizeof(ammpi_hdr_t) + 4 * (size_t)nargs + 15) & ~(size_t)15;
}

/* A free list of fixed-size blocks; grows from the heap, never shrinks. */
typedef struct {
    size_t size;
    void *free;
} pool_t;
void *ammpi_pool_get(pool_t *p);
void ammpi_pool_put(pool_t *p, void *obj);
void ammpi_pool_drain(pool_t *p);

/* A message whose payload is still arriving in its own MPI message. */
typedef struct pending {
    struct pending *next;
    MPI_Request req;
    int src;
    pool_t *temp; /* the pool of the buffer the payload lands in, or NULL (in place) */
    int waiting;  /* receive not started: no buffer free, or an older record waits */
    void *payload;
    ammpi_hdr_t hdr;
    int32_t args[AMMPI_MAX_ARGS];
} pending_t;

/* A message ready for its handler. */
typedef struct {
    int src;
    const ammpi_hdr_t *hdr;
    const int32_t *args;
    void *payload;
    int slot;        /* receive buffer to repost afterwards, or -1 */
    pending_t *pend; /* record to release afterwards, or NULL */
} msg_t;

struct ammpi_token {
    ammpi_ep_t *ep;
    const ammpi_hdr_t *hdr; /* the message (validated) */
    int src;
    int replied;
    ammpi_channel_t *ch;    /* the channel it came through, or NULL (MPI) */
};

/* A send MPI still owns: its buffer returns to `owner` (if any) once
 * MPI_Testsome reports it done, and `lc` (if any) is decremented. */
typedef struct {
    char *buf;
    pool_t *owner;
    uint32_t *lc;
    int counts_depth; /* a request buffer: frees a depth slot */
} inflight_t;

/* What one endpoint index accepts: handlers and the Long segment. */
typedef struct {
    ammpi_handler_fn fn;
    uint8_t accepts; /* AMMPI_SHORT.. | AMMPI_REQUEST/REPLY */
    int8_t nargs;    /* -1: any */
} handler_t;
typedef struct {
    handler_t handlers[AMMPI_NUM_HANDLERS];
    char *seg_base;
    uintptr_t seg_size;
    ammpi_copy_fn seg_copy; /* NULL: plain memory (memcpy, or received in place) */
    void *seg_ctx;
} target_t;

struct ammpi_ep {
    MPI_Comm comm, payload_comm;
    int rank, size;
    ammpi_config_t cfg;
    size_t bufsize; /* HDR_MAX + eager_size */
    pthread_mutex_t lock;

    target_t *targets[AMMPI_MAX_EPS]; /* NULL: index not open */
    ammpi_channel_t **channel_of;     /* per peer: the channel serving it, or NULL */
    ammpi_channel_t *channels[4];
    ammpi_channel_t loop;             /* AMMPI_LOOPBACK requests and their replies (send.c) */
    int nchannels;
    int channels_serve_all; /* every peer but this rank goes through a channel */
    unsigned mpi_quiet;     /* polls since MPI last carried a message (atomic) */
    ammpi_error_fn on_error;
    ammpi_hook_fn hook_before, hook_after;
    void (*wait_hook)(void);

    /* per peer */
    uint16_t *credits;  /* requests we may still send to p */
    int credits_out;    /* all peers' credits taken and not yet returned */
    uint16_t *owed;     /* credits we owe p for handled requests */
    uint16_t *incoming; /* requests from p not yet credited back */
    uint16_t *held;     /* credits of p's replies whose separate payload is still arriving */
    uint32_t *scan_mark; /* arrived_payload: the scan that found p's oldest payload unfinished */
    int *owed_list, owed_count; /* peers owed[p] grew for since the last flush */
    uint8_t *owed_listed;

    /* preposted header receives */
    int nrecv;
    char *recv_mem;
    MPI_Request *recv_req;
    int *posted; /* FIFO of slots in posting order */
    unsigned posted_head, posted_tail, posted_count;
    int *parked, nparked; /* slots cancelled by ammpi_pause_receives */
    int paused;

    /* sends MPI still owns */
    int ninflight, cap_inflight;
    MPI_Request *inflight_req;
    inflight_t *inflight;
    int *testsome_idx;
    int depth_used; /* request buffers in MPI */
    int lc_waiting; /* sends whose completion a caller's lc counter waits for */

    pool_t ebufs;   /* eager buffers: bufsize bytes */
    pool_t lbufs;   /* large buffers: AMMPI_MAX_MEDIUM bytes */
    pool_t hbufs;   /* copies of IMMEDIATE Long requests: AMMPI_MAX_LONG_REQUEST bytes */
    pool_t pends;   /* pending_t records */
    pending_t *pending, **pending_tail; /* payloads being received, in arrival order */
    int payload_cap;     /* buffers separate payloads may hold at once (cfg.payload_buffers) */
    int payload_held;    /* pending records holding one */
    int payload_waiting; /* pending records waiting for one */
    uint32_t scans;     /* arrived_payload's scans, for scan_mark */
    int next_tag;

    ammpi_stats_t stats;
    uint64_t *sent, *received; /* header messages per peer: shutdown counts them (ep.c) */
};

/* With the lock held: n credits to peer come back (credits_out follows). */
static inline void return_credits(ammpi_ep_t *ep, int peer, unsigned n)
{
    ep->credits[peer] = (uint16_t)(ep->credits[peer] + n);
    ep->credits_out -= (int)n;
}

#define LOCK(ep) do { if ((ep)->cfg.thread_safe) pthread_mutex_lock(&(ep)->lock); } while (0)
#define UNLOCK(ep) do { if ((ep)->cfg.thread_safe) pthread_mutex_unlock(&(ep)->lock); } while (0)

/* ep.c */
void ammpi_protocol_error(ammpi_ep_t *ep, int src, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* An MPI call on a message path returned rc (peer: the node, or -1):
 * fatal, naming the call, the peer and MPI's error string. */
void ammpi_mpi_fatal(ammpi_ep_t *ep, const char *call, int peer, int rc) __attribute__((noreturn));
/* The token of the handler running on this thread, or NULL: read and set
 * inline, as every message's dispatch and every call's check does. */
extern __thread struct ammpi_token *ammpi_running_token;
static inline int ammpi_in_handler(void) { return ammpi_running_token != NULL; }
static inline void ammpi_enter_handler(struct ammpi_token *tok) { ammpi_running_token = tok; }
static inline void ammpi_leave_handler(struct ammpi_token *prev) { ammpi_running_token = prev; }

/* send.c (all with the lock held, but ammpi_loop_init) */
void ammpi_loop_init(ammpi_ep_t *ep);
int ammpi_reclaim_sends(ammpi_ep_t *ep);
void ammpi_send_credits(ammpi_ep_t *ep, int peer);
void ammpi_flush_owed(ammpi_ep_t *ep);
void ammpi_track_send(ammpi_ep_t *ep, MPI_Request req, char *buf, pool_t *owner, uint32_t *lc,
                      int counts_depth);
target_t *ammpi_target(ammpi_ep_t *ep, int ep_index); /* opens it on first use; NULL: bad index */

/* The payload limit of a kind, | K_REPLY for replies (0: Short, credit):
 * inline, as every message received is checked against it. */
static inline size_t ammpi_max_payload(int kind)
{
    switch (kind) {
    case K_MEDIUM: case K_MEDIUM | K_REPLY: return AMMPI_MAX_MEDIUM;
    case K_LONG: return AMMPI_MAX_LONG_REQUEST;
    case K_LONG | K_REPLY: return AMMPI_MAX_LONG_REPLY;
    default: return 0;
    }
}

/* recv.c */
int ammpi_poll_internal(ammpi_ep_t *ep); /* messages handled; takes the lock */
void ammpi_post_recv(ammpi_ep_t *ep, int slot);
void ammpi_discard_arrived(ammpi_ep_t *ep); /* lock held: receive without running handlers */

#endif
