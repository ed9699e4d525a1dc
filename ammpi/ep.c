/* ammpi endpoint: configuration, open/close, handler table, segment,
 * error reporting and the memory pool. The protocol is described in
 * internal.h.
 *
 * SHUTDOWN. MPI_Finalize needs the endpoint's communicators quiescent:
 * no send incomplete, no message unreceived, no receive still posted. An
 * endpoint counts the header messages it sends to each peer (sent[p]) and
 * receives from each (received[p]); a separate payload always follows its
 * header, and the receiver starts its receive on reading the header. So
 * once a rank has received exactly the messages each peer says it sent,
 * has no payload receive pending and no send incomplete, nothing is in
 * flight towards it or from it, and its preposted header receives can no
 * longer match: cancelling them leaves nothing behind. Two ways get there:
 *   ammpi_close (collective): the ranks settle their requests and credits
 *     while running handlers, meet in a barrier, after which nobody sends
 *     any more, exchange their counts (one message to every rank) and
 *     receive until they match;
 *   ammpi_stop/ammpi_drain/ammpi_cancel_receives, for a caller whose ranks
 *     leave one by one (GASNet's exit): stop sends nothing more and gives
 *     the counts, which the caller delivers itself; drain receives without
 *     running handlers until the counts match.
 * Receiving without handlers is what makes the counts final: a handler
 * could reply or return credits, which would be messages not counted. */
#include "internal.h"

#include <errno.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__thread struct ammpi_token *ammpi_running_token;

/* A standalone endpoint's setting: unset or empty gives dflt; otherwise a
 * decimal (or 0x hexadecimal) integer in [lo, hi] and nothing else, or the
 * process ends naming the variable and the value. (Under GASNet the core
 * reads its own settings: core-mpi/core.c.) */
static int env_int(const char *name, int dflt, int lo, int hi)
{
    const char *s = getenv(name);
    if (!s || !*s) return dflt;
    const char *digits = s;
    while (*digits == ' ' || *digits == '\t' || *digits == '+' || *digits == '-') digits++;
    int hex = digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X');
    char *end;
    errno = 0;
    long v = strtol(s, &end, hex ? 16 : 10);
    while (*end == ' ' || *end == '\t') end++;
    if (end == s || *end || errno == ERANGE || v < lo || v > hi) {
        fprintf(stderr, "ammpi: environment variable %s='%s' is not an integer from %d to %d\n",
                name, s, lo, hi);
        fflush(stderr);
        int up = 0;
        MPI_Initialized(&up);
        if (up) MPI_Abort(MPI_COMM_WORLD, 1);
        abort();
    }
    return (int)v;
}

void ammpi_config_builtin(ammpi_config_t *cfg)
{
    *cfg = (ammpi_config_t){.depth = 16, .credits_pp = 16, .eager_size = 4096, .recv_buffers = 0,
                            .payload_buffers = 0, .thread_safe = 0, .spin_polls = 64};
}

void ammpi_config_default(ammpi_config_t *cfg)
{
    ammpi_config_builtin(cfg);
    cfg->depth = env_int("AMMPI_NETWORKDEPTH", cfg->depth, 1, 4096);
    cfg->credits_pp = env_int("AMMPI_CREDITS_PP", cfg->depth, 1, 4096);
    cfg->eager_size = env_int("AMMPI_EAGER_SIZE", cfg->eager_size, 0, AMMPI_MAX_MEDIUM);
    cfg->recv_buffers = env_int("AMMPI_RECV_BUFFERS", cfg->recv_buffers, 0, 1 << 20);
    cfg->payload_buffers = env_int("AMMPI_PAYLOAD_BUFFERS", cfg->payload_buffers, 0, 1 << 20);
    cfg->spin_polls = env_int("AMMPI_SPIN_POLLS", cfg->spin_polls, 0, 1 << 30);
}

void *ammpi_pool_get(pool_t *p)
{
    void *obj = p->free;
    if (obj) {
        p->free = *(void **)obj;
        return obj;
    }
    /* 16-byte aligned so a Medium payload inside is aligned for any type */
    if (posix_memalign(&obj, 16, p->size)) return NULL;
    return obj;
}

void ammpi_pool_put(pool_t *p, void *obj)
{
    *(void **)obj = p->free;
    p->free = obj;
}

void ammpi_pool_drain(pool_t *p)
{
    while (p->free) {
        void *next = *(void **)p->free;
        free(p->free);
        p->free = next;
    }
}

static void default_error(ammpi_ep_t *ep, int src, const char *what)
{
    (void)src;
    fprintf(stderr, "%s\n", what);
    fflush(stderr);
    MPI_Abort(ep->comm, 1);
}

/* MPI failed on a message path (the endpoint's communicators return
 * errors): like MPI's own fail-stop, but naming the call and the peer. */
void ammpi_mpi_fatal(ammpi_ep_t *ep, const char *call, int peer, int rc)
{
    char why[MPI_MAX_ERROR_STRING] = "unknown error";
    int n = 0;
    MPI_Error_string(rc, why, &n);
    if (peer >= 0)
        fprintf(stderr, "ammpi: node %d: %s failed on a message with node %d: %s\n", ep->rank, call,
                peer, why);
    else
        fprintf(stderr, "ammpi: node %d: %s failed: %s\n", ep->rank, call, why);
    fflush(stderr);
    MPI_Abort(ep->comm, 1);
    abort(); /* MPI_Abort does not return */
}

void ammpi_protocol_error(ammpi_ep_t *ep, int src, const char *fmt, ...)
{
    char msg[512];
    int n = snprintf(msg, sizeof msg, "ammpi: node %d: message from node %d rejected: ",
                     ep->rank, src);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg + n, sizeof msg - (size_t)n, fmt, ap);
    va_end(ap);
    ep->on_error(ep, src, msg);
}

static int ep_alloc(ammpi_ep_t *ep)
{
    int n = ep->size, r = ep->nrecv;
    ep->credits = calloc((size_t)n, sizeof *ep->credits);
    ep->owed = calloc((size_t)n, sizeof *ep->owed);
    ep->incoming = calloc((size_t)n, sizeof *ep->incoming);
    ep->owed_list = calloc((size_t)n, sizeof *ep->owed_list);
    ep->owed_listed = calloc((size_t)n, 1);
    ep->recv_req = calloc((size_t)r, sizeof *ep->recv_req);
    ep->posted = calloc((size_t)r, sizeof *ep->posted);
    ep->cap_inflight = 2 * ep->cfg.depth + n;
    ep->inflight_req = calloc((size_t)ep->cap_inflight, sizeof *ep->inflight_req);
    ep->inflight = calloc((size_t)ep->cap_inflight, sizeof *ep->inflight);
    ep->testsome_idx = calloc((size_t)ep->cap_inflight, sizeof *ep->testsome_idx);
    ep->sent = calloc((size_t)n, sizeof *ep->sent);
    ep->received = calloc((size_t)n, sizeof *ep->received);
    ep->held = calloc((size_t)n, sizeof *ep->held);
    ep->scan_mark = calloc((size_t)n, sizeof *ep->scan_mark);
    if (posix_memalign((void **)&ep->recv_mem, 64, (size_t)r * ep->bufsize))
        ep->recv_mem = NULL;
    return ep->credits && ep->owed && ep->incoming && ep->owed_list && ep->owed_listed && ep->recv_req &&
           ep->posted && ep->inflight_req && ep->inflight && ep->testsome_idx && ep->recv_mem &&
           ep->sent && ep->received && ep->held && ep->scan_mark;
}

static void ep_free(ammpi_ep_t *ep)
{
    free(ep->credits);
    free(ep->owed);
    free(ep->incoming);
    free(ep->owed_list);
    free(ep->owed_listed);
    free(ep->recv_req);
    free(ep->posted);
    free(ep->parked);
    free(ep->inflight_req);
    free(ep->inflight);
    free(ep->testsome_idx);
    free(ep->sent);
    free(ep->received);
    free(ep->held);
    free(ep->scan_mark);
    free(ep->recv_mem);
    free(ep->channel_of);
    ammpi_pool_drain(&ep->ebufs);
    ammpi_pool_drain(&ep->lbufs);
    ammpi_pool_drain(&ep->hbufs);
    ammpi_pool_drain(&ep->pends);
    for (int i = 0; i < AMMPI_MAX_EPS; i++) free(ep->targets[i]);
    free(ep);
}

int ammpi_open(ammpi_ep_t **out, MPI_Comm parent, const ammpi_config_t *cfg)
{
    if (!out) return AMMPI_ERR_BAD_ARG;
    ammpi_ep_t *ep = calloc(1, sizeof *ep);
    if (!ep) return AMMPI_ERR_RESOURCE;
    if (cfg) ep->cfg = *cfg;
    else ammpi_config_default(&ep->cfg);
    if (ep->cfg.depth < 1 || ep->cfg.credits_pp < 1 || ep->cfg.credits_pp > 4096 ||
        ep->cfg.eager_size < 0 || ep->cfg.eager_size > AMMPI_MAX_MEDIUM) {
        free(ep);
        return AMMPI_ERR_BAD_ARG;
    }
    if (MPI_Comm_dup(parent, &ep->comm) != MPI_SUCCESS ||
        MPI_Comm_dup(parent, &ep->payload_comm) != MPI_SUCCESS) {
        free(ep);
        return AMMPI_ERR_RESOURCE;
    }
    MPI_Comm_set_errhandler(ep->comm, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(ep->payload_comm, MPI_ERRORS_RETURN);
    MPI_Comm_rank(ep->comm, &ep->rank);
    MPI_Comm_size(ep->comm, &ep->size);
    ep->bufsize = HDR_MAX + (size_t)ep->cfg.eager_size;
    ep->ebufs.size = ep->bufsize;
    ep->lbufs.size = AMMPI_MAX_MEDIUM;
    ep->hbufs.size = AMMPI_MAX_LONG_REQUEST;
    ep->pends.size = sizeof(pending_t);
    long r = ep->cfg.recv_buffers;
    if (r <= 0) {
        /* Few, and as many whatever the number of ranks: a header that
         * finds no receive posted waits in MPI (internal.h, MEMORY BOUND),
         * while every MPI_ANY_SOURCE receive posted is compared with every
         * message this process receives, on any communicator: 48 of them
         * made a client's own 8-byte MPI round trip 1.37x slower, 8 1.05x,
         * with no loss of AM throughput (docs/ammpi-profile.md). */
        r = ep->cfg.depth / 2 > 0 ? ep->cfg.depth / 2 : 1;
    }
    ep->nrecv = (int)r;
    ep->payload_cap = ep->cfg.payload_buffers > 0 ? ep->cfg.payload_buffers : ep->cfg.depth;
    ep->on_error = default_error;
    ammpi_loop_init(ep);
    pthread_mutex_init(&ep->lock, NULL);
    if (!ep_alloc(ep)) {
        MPI_Comm_free(&ep->comm);
        MPI_Comm_free(&ep->payload_comm);
        ep_free(ep);
        return AMMPI_ERR_RESOURCE;
    }
    for (int p = 0; p < ep->size; p++) ep->credits[p] = (uint16_t)ep->cfg.credits_pp;
    if (!ammpi_target(ep, 0)) {
        MPI_Comm_free(&ep->comm);
        MPI_Comm_free(&ep->payload_comm);
        ep_free(ep);
        return AMMPI_ERR_RESOURCE;
    }
    /* warm the eager pool so steady-state sends never call malloc: take
     * D + 4 buffers at once (taking and returning one at a time would
     * allocate only one), then return them all */
    void *warm = NULL;
    for (int i = 0; i < ep->cfg.depth + 4; i++) {
        void **b = ammpi_pool_get(&ep->ebufs);
        if (!b) break;
        *b = warm;
        warm = b;
    }
    while (warm) {
        void *next = *(void **)warm;
        ammpi_pool_put(&ep->ebufs, warm);
        warm = next;
    }
    for (int s = 0; s < ep->nrecv; s++) {
        MPI_Recv_init(ep->recv_mem + (size_t)s * ep->bufsize, (int)ep->bufsize, MPI_BYTE,
                      MPI_ANY_SOURCE, TAG_HEADER, ep->comm, &ep->recv_req[s]);
        ammpi_post_recv(ep, s);
    }
    *out = ep;
    return AMMPI_OK;
}

/* Cancels the posted header receives and frees all of them. */
static void free_header_receives(ammpi_ep_t *ep)
{
    for (unsigned i = 0; i < ep->posted_count; i++)
        MPI_Cancel(&ep->recv_req[ep->posted[(ep->posted_head + i) % (unsigned)ep->nrecv]]);
    for (int s = 0; s < ep->nrecv; s++) {
        MPI_Wait(&ep->recv_req[s], MPI_STATUS_IGNORE);
        MPI_Request_free(&ep->recv_req[s]);
    }
    ep->posted_count = 0;
}

/* With the lock held, sending nothing: receives what has arrived without
 * running handlers and completes this rank's sends. Returns 1 once
 * `expected` is known (non-NULL), every peer's expected messages have
 * arrived, no payload is pending and no send is incomplete. */
static int drained(ammpi_ep_t *ep, const uint64_t *expected)
{
    ammpi_reclaim_sends(ep);
    ammpi_discard_arrived(ep);
    if (!expected) return 0;
    int done = ep->pending == NULL && ep->ninflight == 0;
    for (int p = 0; p < ep->size; p++) {
        if (ep->received[p] > expected[p]) {
            ammpi_protocol_error(ep, p, "%llu messages arrived, the sender counted %llu",
                                 (unsigned long long)ep->received[p],
                                 (unsigned long long)expected[p]);
            ep->received[p] = expected[p]; /* reported once; nothing more is due */
        }
        if (ep->received[p] < expected[p]) done = 0;
    }
    return done;
}

#define TAG_COUNTS 2 /* ammpi_close's counts; headers use TAG_HEADER */

/* Every rank: settle what it owes and what it is owed, then leave together
 * while still polling, so a peer that is behind is never left waiting;
 * then exchange counts and drain (see SHUTDOWN above). */
int ammpi_close(ammpi_ep_t *ep)
{
    if (!ep) return AMMPI_ERR_NOT_INIT;
    if (ammpi_in_handler()) return AMMPI_ERR_BAD_ARG;
    int idle = 0;
    for (;;) {
        LOCK(ep);
        ammpi_flush_owed(ep);
        ammpi_reclaim_sends(ep);
        int settled = ep->ninflight == 0 && ep->pending == NULL;
        for (int p = 0; settled && p < ep->size; p++)
            settled = ep->credits[p] == ep->cfg.credits_pp;
        UNLOCK(ep);
        if (settled) break;
        ammpi_poll_wait(ep, &idle);
    }
    MPI_Request bar;
    MPI_Ibarrier(ep->comm, &bar);
    for (int done = 0; !done;) {
        LOCK(ep);
        MPI_Test(&bar, &done, MPI_STATUS_IGNORE);
        UNLOCK(ep);
        if (!done) ammpi_poll_wait(ep, &idle);
    }
    /* Every rank has all its credits back, so every request was handled:
     * no rank sends on the endpoint any more, CREDIT messages and replies
     * sent during the barrier may still be on their way. */
    int n = ep->size;
    uint64_t *theirs = malloc((size_t)n * sizeof *theirs);
    MPI_Request *req = malloc(2 * (size_t)n * sizeof *req);
    if (!theirs || !req) {
        free(theirs);
        free(req);
        return AMMPI_ERR_RESOURCE;
    }
    LOCK(ep);
    for (int p = 0; p < n; p++) {
        MPI_Irecv(&theirs[p], 1, MPI_UINT64_T, p, TAG_COUNTS, ep->comm, &req[p]);
        MPI_Isend(&ep->sent[p], 1, MPI_UINT64_T, p, TAG_COUNTS, ep->comm, &req[n + p]);
    }
    UNLOCK(ep);
    for (int counted = 0, done = 0, next = 0; !done;) {
        LOCK(ep);
        for (counted = 1; counted && next < 2 * n; next += counted)
            MPI_Test(&req[next], &counted, MPI_STATUS_IGNORE);
        done = drained(ep, counted ? theirs : NULL);
        UNLOCK(ep);
        if (!done) sched_yield();
    }
    free(theirs);
    free(req);
    free_header_receives(ep);
    MPI_Comm_free(&ep->comm);
    MPI_Comm_free(&ep->payload_comm);
    pthread_mutex_destroy(&ep->lock);
    ep_free(ep);
    return AMMPI_OK;
}

void ammpi_stop(ammpi_ep_t *ep, uint64_t *sent)
{
    LOCK(ep);
    memcpy(sent, ep->sent, (size_t)ep->size * sizeof *sent);
}

int ammpi_drain(ammpi_ep_t *ep, const uint64_t *expected)
{
    return drained(ep, expected);
}

void ammpi_cancel_receives(ammpi_ep_t *ep)
{
    free_header_receives(ep);
}

/* A receive whose cancel fails already holds a message: it stays posted,
 * complete, in FIFO order, for the next poll. MPI_Request_get_status
 * reads its status without consuming it. */
int ammpi_pause_receives(ammpi_ep_t *ep)
{
    if (!ep) return AMMPI_ERR_NOT_INIT;
    if (ammpi_in_handler()) return AMMPI_ERR_BAD_ARG;
    LOCK(ep);
    if (ep->paused) {
        UNLOCK(ep);
        return AMMPI_ERR_BAD_ARG;
    }
    if (!ep->parked && !(ep->parked = malloc((size_t)ep->nrecv * sizeof *ep->parked))) {
        UNLOCK(ep);
        return AMMPI_ERR_RESOURCE;
    }
    unsigned n = ep->posted_count, kept = 0, r = (unsigned)ep->nrecv;
    for (unsigned i = 0; i < n; i++) MPI_Cancel(&ep->recv_req[ep->posted[(ep->posted_head + i) % r]]);
    ep->nparked = 0;
    for (unsigned i = 0; i < n; i++) {
        int slot = ep->posted[(ep->posted_head + i) % r], done = 0, cancelled = 0;
        MPI_Status st;
        while (!done) MPI_Request_get_status(ep->recv_req[slot], &done, &st);
        MPI_Test_cancelled(&st, &cancelled);
        if (cancelled) {
            MPI_Wait(&ep->recv_req[slot], MPI_STATUS_IGNORE); /* inactive again */
            ep->parked[ep->nparked++] = slot;
        } else {
            ep->posted[(ep->posted_head + kept++) % r] = slot; /* kept <= i: in place */
        }
    }
    ep->posted_count = kept;
    ep->posted_tail = (ep->posted_head + kept) % r;
    ep->paused = 1;
    UNLOCK(ep);
    return AMMPI_OK;
}

int ammpi_resume_receives(ammpi_ep_t *ep)
{
    if (!ep) return AMMPI_ERR_NOT_INIT;
    LOCK(ep);
    if (!ep->paused) {
        UNLOCK(ep);
        return AMMPI_ERR_BAD_ARG;
    }
    for (int i = 0; i < ep->nparked; i++) ammpi_post_recv(ep, ep->parked[i]);
    ep->nparked = 0;
    ep->paused = 0;
    UNLOCK(ep);
    return AMMPI_OK;
}

int ammpi_rank(const ammpi_ep_t *ep) { return ep->rank; }
int ammpi_size(const ammpi_ep_t *ep) { return ep->size; }
MPI_Comm ammpi_comm(const ammpi_ep_t *ep) { return ep->comm; }
const ammpi_config_t *ammpi_config(const ammpi_ep_t *ep) { return &ep->cfg; }

target_t *ammpi_target(ammpi_ep_t *ep, int ep_index)
{
    if (ep_index < 0 || ep_index >= AMMPI_MAX_EPS) return NULL;
    target_t *t = __atomic_load_n(&ep->targets[ep_index], __ATOMIC_ACQUIRE);
    if (t) return t;
    t = calloc(1, sizeof *t);
    if (!t) return NULL;
    target_t *none = NULL;
    if (!__atomic_compare_exchange_n(&ep->targets[ep_index], &none, t, 0, __ATOMIC_ACQ_REL,
                                     __ATOMIC_ACQUIRE)) {
        free(t);
        return none;
    }
    return t;
}

int ammpi_register(ammpi_ep_t *ep, int ep_index, int index, ammpi_handler_fn fn,
                   unsigned accepts, int nargs)
{
    if (!ep) return AMMPI_ERR_NOT_INIT;
    if (index < 1 || index >= AMMPI_NUM_HANDLERS ||
        (accepts & ~(unsigned)(AMMPI_ACCEPT_ANY | AMMPI_PRIVATE)) || nargs < -1 || nargs > AMMPI_MAX_ARGS)
        return AMMPI_ERR_BAD_ARG;
    target_t *t = ammpi_target(ep, ep_index);
    if (!t) return ep_index < 0 || ep_index >= AMMPI_MAX_EPS ? AMMPI_ERR_BAD_ARG : AMMPI_ERR_RESOURCE;
    /* the function last: a poll on another thread sees a complete entry */
    LOCK(ep);
    t->handlers[index].accepts = (uint8_t)accepts;
    t->handlers[index].nargs = (int8_t)nargs;
    t->handlers[index].fn = fn;
    UNLOCK(ep);
    return AMMPI_OK;
}

int ammpi_set_handler(ammpi_ep_t *ep, int index, ammpi_handler_fn fn)
{
    return ammpi_register(ep, 0, index, fn, AMMPI_ACCEPT_ANY, -1);
}

int ammpi_set_segment_copy(ammpi_ep_t *ep, int ep_index, void *base, uintptr_t size,
                           ammpi_copy_fn copy, void *ctx)
{
    if (!ep) return AMMPI_ERR_NOT_INIT;
    if ((!base && size) || (uintptr_t)base + size < (uintptr_t)base) return AMMPI_ERR_BAD_ARG;
    target_t *t = ammpi_target(ep, ep_index);
    if (!t) return AMMPI_ERR_BAD_ARG;
    LOCK(ep);
    t->seg_base = base;
    t->seg_size = size;
    t->seg_copy = copy;
    t->seg_ctx = ctx;
    UNLOCK(ep);
    return AMMPI_OK;
}

int ammpi_set_segment_at(ammpi_ep_t *ep, int ep_index, void *base, uintptr_t size)
{
    return ammpi_set_segment_copy(ep, ep_index, base, size, NULL, NULL);
}

int ammpi_set_segment(ammpi_ep_t *ep, void *base, uintptr_t size)
{
    return ammpi_set_segment_at(ep, 0, base, size);
}

void ammpi_set_error_handler(ammpi_ep_t *ep, ammpi_error_fn fn)
{
    ep->on_error = fn ? fn : default_error;
}

void ammpi_set_handler_hooks(ammpi_ep_t *ep, ammpi_hook_fn before, ammpi_hook_fn after)
{
    ep->hook_before = before;
    ep->hook_after = after;
}

void ammpi_set_wait_hook(ammpi_ep_t *ep, void (*fn)(void)) { ep->wait_hook = fn; }

int ammpi_token_source(ammpi_token_t tok, int *src)
{
    if (!tok || !src) return AMMPI_ERR_BAD_ARG;
    *src = tok->src;
    return AMMPI_OK;
}

int ammpi_token_info(ammpi_token_t tok, ammpi_token_info_t *info)
{
    if (!tok || !info) return AMMPI_ERR_BAD_ARG;
    const ammpi_hdr_t *h = tok->hdr;
    *info = (ammpi_token_info_t){tok->src, h->src_ep, h->ep, h->handler, h->kind & ~K_REPLY,
                                 (h->kind & K_REPLY) == 0, tok->ch != NULL};
    return AMMPI_OK;
}

int ammpi_token_is_request(ammpi_token_t tok) { return tok && !(tok->hdr->kind & K_REPLY); }
int ammpi_token_replied(ammpi_token_t tok) { return tok && tok->replied; }
ammpi_token_t ammpi_current_token(void) { return ammpi_running_token; }

void ammpi_lock(ammpi_ep_t *ep) { LOCK(ep); }
void ammpi_unlock(ammpi_ep_t *ep) { UNLOCK(ep); }
void ammpi_set_spin_polls(ammpi_ep_t *ep, int spin_polls) { ep->cfg.spin_polls = spin_polls; }

void ammpi_get_stats(const ammpi_ep_t *ep, ammpi_stats_t *out) { *out = ep->stats; }
