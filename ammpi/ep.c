/* ammpi endpoint: configuration, open/close, handler table, segment,
 * error reporting and the memory pool. The protocol is described in
 * internal.h. */
#include "internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static __thread struct ammpi_token *current_token;

static int env_int(const char *name, int dflt, int lo, int hi)
{
    const char *s = getenv(name);
    if (!s || !*s) return dflt;
    char *end;
    long v = strtol(s, &end, 0);
    if (*end || v < lo || v > hi) {
        fprintf(stderr, "ammpi: %s=%s is not an integer in [%d, %d]; using %d\n",
                name, s, lo, hi, dflt);
        return dflt;
    }
    return (int)v;
}

void ammpi_config_default(ammpi_config_t *cfg)
{
    cfg->depth = env_int("AMMPI_NETWORKDEPTH", 16, 1, 4096);
    cfg->credits_pp = env_int("AMMPI_CREDITS_PP", cfg->depth, 1, 4096);
    cfg->eager_size = env_int("AMMPI_EAGER_SIZE", 4096, 0, AMMPI_MAX_MEDIUM);
    cfg->recv_buffers = env_int("AMMPI_RECV_BUFFERS", 0, 0, 1 << 20);
    cfg->spin_polls = env_int("AMMPI_SPIN_POLLS", 64, 0, 1 << 30);
    cfg->thread_safe = 0;
}

void *pool_get(pool_t *p)
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

void pool_put(pool_t *p, void *obj)
{
    *(void **)obj = p->free;
    p->free = obj;
}

void pool_drain(pool_t *p)
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
    if (posix_memalign((void **)&ep->recv_mem, 64, (size_t)r * ep->bufsize))
        ep->recv_mem = NULL;
    return ep->credits && ep->owed && ep->incoming && ep->owed_list && ep->owed_listed && ep->recv_req &&
           ep->posted && ep->inflight_req && ep->inflight && ep->testsome_idx && ep->recv_mem;
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
    free(ep->inflight_req);
    free(ep->inflight);
    free(ep->testsome_idx);
    free(ep->recv_mem);
    pool_drain(&ep->ebufs);
    pool_drain(&ep->lbufs);
    pool_drain(&ep->pends);
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
    ep->pends.size = sizeof(pending_t);
    long r = ep->cfg.recv_buffers;
    if (r <= 0) {
        r = ep->cfg.depth + (long)ep->cfg.credits_pp * ep->size;
        if (r > 1024) r = 1024;
    }
    ep->nrecv = (int)r;
    ep->on_error = default_error;
    pthread_mutex_init(&ep->lock, NULL);
    if (!ep_alloc(ep)) {
        MPI_Comm_free(&ep->comm);
        MPI_Comm_free(&ep->payload_comm);
        ep_free(ep);
        return AMMPI_ERR_RESOURCE;
    }
    for (int p = 0; p < ep->size; p++) ep->credits[p] = (uint16_t)ep->cfg.credits_pp;
    /* warm the eager pool so steady-state sends never call malloc */
    for (int i = 0; i < ep->cfg.depth + 4; i++) {
        void *b = pool_get(&ep->ebufs);
        if (b) pool_put(&ep->ebufs, b);
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
}

/* Every rank: settle what it owes and what it is owed, then leave together
 * while still polling, so a peer that is behind is never left waiting. */
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
    /* Replies sent while in the barrier may still be leaving. */
    for (int settled = 0; !settled;) {
        LOCK(ep);
        ammpi_reclaim_sends(ep);
        settled = ep->ninflight == 0;
        UNLOCK(ep);
    }
    /* Only CREDIT messages can still be in flight; nothing waits for them. */
    free_header_receives(ep);
    MPI_Comm_free(&ep->comm);
    MPI_Comm_free(&ep->payload_comm);
    pthread_mutex_destroy(&ep->lock);
    ep_free(ep);
    return AMMPI_OK;
}

void ammpi_cancel_receives(ammpi_ep_t *ep)
{
    LOCK(ep);
    free_header_receives(ep);
    ep->posted_count = 0;
    for (pending_t *p = ep->pending; p; p = p->next) {
        MPI_Cancel(&p->req);
        MPI_Request_free(&p->req);
    }
    ep->pending = NULL;
}

int ammpi_rank(const ammpi_ep_t *ep) { return ep->rank; }
int ammpi_size(const ammpi_ep_t *ep) { return ep->size; }
MPI_Comm ammpi_comm(const ammpi_ep_t *ep) { return ep->comm; }
const ammpi_config_t *ammpi_config(const ammpi_ep_t *ep) { return &ep->cfg; }

int ammpi_set_handler(ammpi_ep_t *ep, int index, ammpi_handler_fn fn)
{
    if (!ep) return AMMPI_ERR_NOT_INIT;
    if (index < 1 || index >= AMMPI_NUM_HANDLERS) return AMMPI_ERR_BAD_ARG;
    ep->handlers[index] = fn;
    return AMMPI_OK;
}

int ammpi_set_segment(ammpi_ep_t *ep, void *base, uintptr_t size)
{
    if (!ep) return AMMPI_ERR_NOT_INIT;
    if ((!base && size) || (uintptr_t)base + size < (uintptr_t)base) return AMMPI_ERR_BAD_ARG;
    ep->seg_base = base;
    ep->seg_size = size;
    return AMMPI_OK;
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

int ammpi_token_source(ammpi_token_t tok, int *src)
{
    if (!tok || !src) return AMMPI_ERR_BAD_ARG;
    *src = tok->src;
    return AMMPI_OK;
}

int ammpi_token_is_request(ammpi_token_t tok) { return tok && tok->is_request; }
int ammpi_token_replied(ammpi_token_t tok) { return tok && tok->replied; }
ammpi_token_t ammpi_current_token(void) { return current_token; }
int ammpi_in_handler(void) { return current_token != NULL; }
void ammpi_enter_handler(struct ammpi_token *tok) { current_token = tok; }
void ammpi_leave_handler(struct ammpi_token *prev) { current_token = prev; }

void ammpi_lock(ammpi_ep_t *ep) { LOCK(ep); }
void ammpi_unlock(ammpi_ep_t *ep) { UNLOCK(ep); }
void ammpi_set_spin_polls(ammpi_ep_t *ep, int spin_polls) { ep->cfg.spin_polls = spin_polls; }

void ammpi_get_stats(const ammpi_ep_t *ep, ammpi_stats_t *out) { *out = ep->stats; }
