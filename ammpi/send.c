/* ammpi sends: requests (wait for a credit and a request buffer, polling),
 * replies and credit returns (never wait), and the bookkeeping of sends
 * MPI still owns. The protocol is described in internal.h. */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Resource failures while a message is half built are fatal: rolling back
 * credits already promised to a peer would be worse. */
static void fatal(ammpi_ep_t *ep, const char *what)
{
    fprintf(stderr, "ammpi: node %d: %s\n", ep->rank, what);
    fflush(stderr);
    MPI_Abort(ep->comm, 1);
}

void ammpi_track_send(ammpi_ep_t *ep, MPI_Request req, char *buf, pool_t *owner,
                      int counts_depth)
{
    if (ep->ninflight == ep->cap_inflight) {
        int cap = 2 * ep->cap_inflight;
        MPI_Request *r = realloc(ep->inflight_req, (size_t)cap * sizeof *r);
        if (r) ep->inflight_req = r;
        inflight_t *f = realloc(ep->inflight, (size_t)cap * sizeof *f);
        if (f) ep->inflight = f;
        int *x = realloc(ep->testsome_idx, (size_t)cap * sizeof *x);
        if (x) ep->testsome_idx = x;
        if (!r || !f || !x) fatal(ep, "out of memory tracking sends");
        ep->cap_inflight = cap;
    }
    ep->inflight_req[ep->ninflight] = req;
    ep->inflight[ep->ninflight] = (inflight_t){buf, owner, counts_depth};
    ep->ninflight++;
}

/* Returns buffers of completed sends to their pools. */
int ammpi_reclaim_sends(ammpi_ep_t *ep)
{
    if (ep->ninflight == 0) return 0;
    int done = 0;
    /* gcc 12 mistakes MPI_STATUSES_IGNORE for a zero-length array */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstringop-overflow"
    MPI_Testsome(ep->ninflight, ep->inflight_req, &done, ep->testsome_idx, MPI_STATUSES_IGNORE);
#pragma GCC diagnostic pop
    if (done == MPI_UNDEFINED || done == 0) return 0;
    for (int i = 0; i < done; i++) {
        inflight_t *f = &ep->inflight[ep->testsome_idx[i]];
        if (f->owner) pool_put(f->owner, f->buf);
        if (f->counts_depth) ep->depth_used--;
    }
    int keep = 0;
    for (int i = 0; i < ep->ninflight; i++) {
        if (ep->inflight_req[i] == MPI_REQUEST_NULL) continue;
        ep->inflight_req[keep] = ep->inflight_req[i];
        ep->inflight[keep] = ep->inflight[i];
        keep++;
    }
    ep->ninflight = keep;
    return done;
}

static uint16_t take_owed(ammpi_ep_t *ep, int peer)
{
    uint16_t c = ep->owed[peer];
    ep->owed[peer] = 0;
    ep->incoming[peer] = (uint16_t)(ep->incoming[peer] - c);
    return c;
}

static size_t fill_header(char *buf, int kind, int handler, int nargs, const int32_t *args,
                          size_t nbytes, void *dest_addr, int tag, uint16_t credits)
{
    ammpi_hdr_t *h = (ammpi_hdr_t *)buf;
    h->kind = (uint8_t)kind;
    h->handler = (uint8_t)handler;
    h->nargs = (uint8_t)nargs;
    h->flags = tag >= 0 ? F_SEPARATE : 0;
    h->credits = credits;
    h->reserved = 0;
    h->nbytes = (uint32_t)nbytes;
    h->tag = tag;
    h->dest = (uint64_t)(uintptr_t)dest_addr;
    if (nargs) memcpy(buf + sizeof *h, args, 4 * (size_t)nargs);
    return hdr_len(nargs);
}

static char *get_buffer(ammpi_ep_t *ep, pool_t *pool)
{
    char *buf = pool_get(pool);
    if (!buf) fatal(ep, "out of memory for a send buffer");
    return buf;
}

static void post_send(ammpi_ep_t *ep, MPI_Comm comm, int dest, const void *buf, size_t len,
                      int tag, pool_t *owner, int counts_depth)
{
    MPI_Request req;
    if (MPI_Isend(buf, (int)len, MPI_BYTE, dest, tag, comm, &req) != MPI_SUCCESS)
        fatal(ep, "MPI_Isend failed");
    ammpi_track_send(ep, req, (char *)buf, owner, counts_depth);
}

static int next_tag(ammpi_ep_t *ep)
{
    int t = ep->next_tag;
    ep->next_tag = (t + 1) % TAG_SPACE;
    return t;
}

/* Sends a CREDIT message returning everything owed to peer. */
void ammpi_send_credits(ammpi_ep_t *ep, int peer)
{
    if (ep->owed[peer] == 0) return;
    char *buf = get_buffer(ep, &ep->ebufs);
    size_t len = fill_header(buf, K_CREDIT, 0, 0, NULL, 0, NULL, -1, take_owed(ep, peer));
    post_send(ep, ep->comm, peer, buf, len, TAG_HEADER, &ep->ebufs, 0);
    ep->stats.credit_msgs_sent++;
}

void ammpi_flush_owed(ammpi_ep_t *ep)
{
    for (int i = 0; i < ep->owed_count; i++) {
        ammpi_send_credits(ep, ep->owed_list[i]);
        ep->owed_listed[ep->owed_list[i]] = 0;
    }
    ep->owed_count = 0;
}

size_t ammpi_max_payload(int kind)
{
    switch (kind) {
    case K_MEDIUM: case K_MEDIUM | K_REPLY: return AMMPI_MAX_MEDIUM;
    case K_LONG: return AMMPI_MAX_LONG_REQUEST;
    case K_LONG | K_REPLY: return AMMPI_MAX_LONG_REPLY;
    default: return 0;
    }
}

static int check_args(int kind, int handler, const void *src, size_t nbytes, int nargs,
                      const int32_t *args)
{
    if (handler < 1 || handler >= AMMPI_NUM_HANDLERS) return AMMPI_ERR_BAD_ARG;
    if (nargs < 0 || nargs > AMMPI_MAX_ARGS || (nargs && !args)) return AMMPI_ERR_BAD_ARG;
    if (nbytes > ammpi_max_payload(kind) || (nbytes && !src)) return AMMPI_ERR_BAD_ARG;
    return AMMPI_OK;
}

/* With the lock held: waits, polling, until the send completes. */
static void wait_send(ammpi_ep_t *ep, MPI_Request *req)
{
    int done = 0, idle = 0;
    for (;;) {
        MPI_Test(req, &done, MPI_STATUS_IGNORE);
        if (done) return;
        UNLOCK(ep);
        ammpi_poll_wait(ep, &idle);
        LOCK(ep);
    }
}

static int request(ammpi_ep_t *ep, int kind, int dest, int handler, const void *src,
                   size_t nbytes, void *dest_addr, int nargs, const int32_t *args, int async)
{
    if (!ep) return AMMPI_ERR_NOT_INIT;
    int rc = check_args(kind, handler, src, nbytes, nargs, args);
    if (rc != AMMPI_OK) return rc;
    if (dest < 0 || dest >= ep->size || ammpi_in_handler()) return AMMPI_ERR_BAD_ARG;
    int separate = nbytes > (size_t)ep->cfg.eager_size;
    int idle = 0;
    LOCK(ep);
    while (ep->credits[dest] == 0 || ep->depth_used >= ep->cfg.depth) {
        if (ep->credits[dest] && ammpi_reclaim_sends(ep)) continue;
        if (ep->credits[dest]) ep->stats.buffer_waits++;
        else ep->stats.credit_waits++;
        UNLOCK(ep);
        ammpi_poll_wait(ep, &idle);
        LOCK(ep);
    }
    char *buf = get_buffer(ep, &ep->ebufs);
    ep->credits[dest]--;
    ep->depth_used++;
    int tag = separate ? next_tag(ep) : -1;
    size_t len = fill_header(buf, kind, handler, nargs, args, nbytes, dest_addr, tag,
                             take_owed(ep, dest));
    if (!separate && nbytes) memcpy(buf + len, src, nbytes);
    post_send(ep, ep->comm, dest, buf, separate ? len : len + nbytes, TAG_HEADER, &ep->ebufs, 1);
    ep->stats.requests_sent++;
    if (separate) {
        /* straight from the caller's buffer into the destination */
        ep->stats.payloads_separate++;
        if (async) {
            post_send(ep, ep->payload_comm, dest, src, nbytes, tag, NULL, 0);
        } else {
            MPI_Request preq;
            if (MPI_Isend(src, (int)nbytes, MPI_BYTE, dest, tag, ep->payload_comm, &preq) !=
                MPI_SUCCESS)
                fatal(ep, "MPI_Isend failed");
            wait_send(ep, &preq);
        }
    }
    UNLOCK(ep);
    return AMMPI_OK;
}

static int reply(ammpi_token_t tok, int kind, int handler, const void *src, size_t nbytes,
                 void *dest_addr, int nargs, const int32_t *args)
{
    if (!tok || tok != ammpi_current_token() || !tok->is_request || tok->replied)
        return AMMPI_ERR_BAD_ARG;
    int rc = check_args(kind | K_REPLY, handler, src, nbytes, nargs, args);
    if (rc != AMMPI_OK) return rc;
    ammpi_ep_t *ep = tok->ep;
    int dest = tok->src;
    int separate = nbytes > (size_t)ep->cfg.eager_size;
    LOCK(ep);
    char *buf = get_buffer(ep, &ep->ebufs);
    /* this reply returns the request's credit plus whatever else is owed */
    ep->owed[dest]++;
    int tag = separate ? next_tag(ep) : -1;
    size_t len = fill_header(buf, kind | K_REPLY, handler, nargs, args, nbytes, dest_addr,
                             tag, take_owed(ep, dest));
    if (!separate && nbytes) memcpy(buf + len, src, nbytes);
    post_send(ep, ep->comm, dest, buf, separate ? len : len + nbytes, TAG_HEADER, &ep->ebufs, 0);
    if (separate) {
        /* a handler cannot wait for the requester to receive: send a copy */
        char *copy = get_buffer(ep, &ep->lbufs);
        memcpy(copy, src, nbytes);
        post_send(ep, ep->payload_comm, dest, copy, nbytes, tag, &ep->lbufs, 0);
        ep->stats.payloads_separate++;
    }
    tok->replied = 1;
    ep->stats.replies_sent++;
    UNLOCK(ep);
    return AMMPI_OK;
}

int ammpi_request_short(ammpi_ep_t *ep, int dest, int handler, int nargs, const int32_t *args)
{
    return request(ep, K_SHORT, dest, handler, NULL, 0, NULL, nargs, args, 0);
}

int ammpi_request_medium(ammpi_ep_t *ep, int dest, int handler, const void *src,
                         size_t nbytes, int nargs, const int32_t *args)
{
    return request(ep, K_MEDIUM, dest, handler, src, nbytes, NULL, nargs, args, 0);
}

int ammpi_request_long(ammpi_ep_t *ep, int dest, int handler, const void *src, size_t nbytes,
                       void *dest_addr, int nargs, const int32_t *args)
{
    return request(ep, K_LONG, dest, handler, src, nbytes, dest_addr, nargs, args, 0);
}

int ammpi_request_long_async(ammpi_ep_t *ep, int dest, int handler, const void *src,
                             size_t nbytes, void *dest_addr, int nargs, const int32_t *args)
{
    return request(ep, K_LONG, dest, handler, src, nbytes, dest_addr, nargs, args, 1);
}

int ammpi_reply_short(ammpi_token_t tok, int handler, int nargs, const int32_t *args)
{
    return reply(tok, K_SHORT, handler, NULL, 0, NULL, nargs, args);
}

int ammpi_reply_medium(ammpi_token_t tok, int handler, const void *src, size_t nbytes,
                       int nargs, const int32_t *args)
{
    return reply(tok, K_MEDIUM, handler, src, nbytes, NULL, nargs, args);
}

int ammpi_reply_long(ammpi_token_t tok, int handler, const void *src, size_t nbytes,
                     void *dest_addr, int nargs, const int32_t *args)
{
    return reply(tok, K_LONG, handler, src, nbytes, dest_addr, nargs, args);
}
