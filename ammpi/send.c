/* ammpi sends: requests (wait for a credit and a request buffer, polling),
 * replies and credit returns (never wait), and the bookkeeping of sends
 * MPI still owns. The protocol is described in internal.h.
 *
 * LOOPBACK. A request to this rank marked AMMPI_LOOPBACK goes through
 * ep->loop, a channel that delivers at once: the message is written in
 * its wire form and given to ammpi_deliver, which validates it like any
 * other and runs its handler on the sender's thread, with no lock held.
 * The handler's reply goes back through the same channel, so its handler
 * runs inside the request handler's reply call. Nesting stops there:
 * request handlers cannot send requests and reply handlers cannot send at
 * all (check_request, check_reply), so the depth is at most two handlers.
 * Why this order of waits cannot deadlock: docs/loopback.md. */
#include "internal.h"

#include <stddef.h>
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

void ammpi_track_send(ammpi_ep_t *ep, MPI_Request req, char *buf, pool_t *owner, uint32_t *lc,
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
    ep->inflight[ep->ninflight] = (inflight_t){buf, owner, lc, counts_depth};
    ep->ninflight++;
    if (lc) ep->lc_waiting++;
}

/* Returns buffers of completed sends to their pools. */
int ammpi_reclaim_sends(ammpi_ep_t *ep)
{
    if (ep->ninflight == 0) return 0;
    int done = 0;
    /* gcc 12 mistakes MPI_STATUSES_IGNORE for a zero-length array */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstringop-overflow"
    int rc = MPI_Testsome(ep->ninflight, ep->inflight_req, &done, ep->testsome_idx,
                          MPI_STATUSES_IGNORE);
#pragma GCC diagnostic pop
    if (rc != MPI_SUCCESS) ammpi_mpi_fatal(ep, "MPI_Testsome (sends)", -1, rc);
    if (done == MPI_UNDEFINED || done == 0) return 0;
    for (int i = 0; i < done; i++) {
        inflight_t *f = &ep->inflight[ep->testsome_idx[i]];
        if (f->owner) ammpi_pool_put(f->owner, f->buf);
        if (f->lc) {
            __atomic_fetch_sub(f->lc, 1, __ATOMIC_RELEASE);
            ep->lc_waiting--;
        }
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

/* Writes the header of m (sent as kind, to endpoint index ep) into buf;
 * returns its length. */
static size_t fill_header(char *buf, int kind, const ammpi_msg_t *m, int ep, int tag,
                          uint16_t credits)
{
    ammpi_hdr_t *h = (ammpi_hdr_t *)buf;
    h->kind = (uint8_t)kind;
    h->handler = (uint8_t)m->handler;
    h->nargs = (uint8_t)m->nargs;
    h->flags = tag >= 0 ? F_SEPARATE : 0;
    h->credits = credits;
    h->ep = (uint8_t)ep;
    h->src_ep = (uint8_t)m->src_ep;
    h->nbytes = (uint32_t)m->nbytes;
    h->tag = tag;
    h->dest = (uint64_t)(uintptr_t)m->dest_addr;
    if (m->nargs) memcpy(buf + sizeof *h, m->args, 4 * (size_t)m->nargs);
    return hdr_len(m->nargs);
}

static char *get_buffer(ammpi_ep_t *ep, pool_t *pool)
{
    char *buf = ammpi_pool_get(pool);
    if (!buf) fatal(ep, "out of memory for a send buffer");
    return buf;
}

static void post_send(ammpi_ep_t *ep, MPI_Comm comm, int dest, const void *buf, size_t len,
                      int tag, pool_t *owner, uint32_t *lc, int counts_depth)
{
    MPI_Request req;
    int rc = MPI_Isend(buf, (int)len, MPI_BYTE, dest, tag, comm, &req);
    if (rc != MPI_SUCCESS) ammpi_mpi_fatal(ep, "MPI_Isend", dest, rc);
    ammpi_track_send(ep, req, (char *)buf, owner, lc, counts_depth);
    if (comm == ep->comm) ep->sent[dest]++;
    __atomic_store_n(&ep->mpi_quiet, 0, __ATOMIC_RELAXED); /* an answer may come through MPI */
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
    static const ammpi_msg_t none = {0};
    size_t len = fill_header(buf, K_CREDIT, &none, 0, -1, take_owed(ep, peer));
    post_send(ep, ep->comm, peer, buf, len, TAG_HEADER, &ep->ebufs, NULL, 0);
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

static int check_msg(int kind, const ammpi_msg_t *m)
{
    if (m->handler < 1 || m->handler >= AMMPI_NUM_HANDLERS) return AMMPI_ERR_BAD_ARG;
    if (m->nargs < 0 || m->nargs > AMMPI_MAX_ARGS || (m->nargs && !m->args)) return AMMPI_ERR_BAD_ARG;
    if (m->nbytes > ammpi_max_payload(kind) || (m->nbytes && !m->src)) return AMMPI_ERR_BAD_ARG;
    if (m->src_ep < 0 || m->src_ep >= AMMPI_MAX_EPS) return AMMPI_ERR_BAD_ARG;
    return AMMPI_OK;
}

/* With the lock held: waits, polling, until the send completes. */
static void wait_send(ammpi_ep_t *ep, MPI_Request *req, int dest)
{
    int done = 0, idle = 0;
    for (;;) {
        int rc = MPI_Test(req, &done, MPI_STATUS_IGNORE);
        if (rc != MPI_SUCCESS) ammpi_mpi_fatal(ep, "MPI_Test (a payload send)", dest, rc);
        if (done) return;
        UNLOCK(ep);
        ammpi_poll_wait(ep, &idle);
        LOCK(ep);
    }
}

/* With the lock held: takes a credit to dest and a request buffer slot,
 * waiting (polling) for them, or returns AMMPI_ERR_AGAIN under
 * AMMPI_IMMEDIATE. Returns with the lock held either way. */
static int take_credit(ammpi_ep_t *ep, int dest, int flags)
{
    int idle = 0;
    int polled = 0;
    while (ep->credits[dest] == 0 || ep->depth_used >= ep->cfg.depth) {
        if (ep->credits[dest] && ammpi_reclaim_sends(ep)) continue;
        if ((flags & AMMPI_IMMEDIATE) && polled) return AMMPI_ERR_AGAIN;
        if (flags & AMMPI_IMMEDIATE) {
            /* one poll, which does not wait, takes the credits and sends
             * that came back meanwhile: without it a client that retries
             * without polling would never see them */
            polled = 1;
            UNLOCK(ep);
            ammpi_poll_internal(ep);
            LOCK(ep);
            continue;
        }
        if (ep->credits[dest]) ep->stats.buffer_waits++;
        else ep->stats.credit_waits++;
        UNLOCK(ep);
        ammpi_poll_wait(ep, &idle);
        if (ep->wait_hook) ep->wait_hook();
        LOCK(ep);
    }
    ep->credits[dest]--;
    ep->credits_out++;
    ep->depth_used++;
    return AMMPI_OK;
}

/* With the lock held: sends message m (kind, to dest's endpoint dest_ep)
 * whose header goes in buf, an eager buffer. The payload is m->src: it
 * may already sit in buf after the header, or in a large buffer of
 * `owner` (handed over), or be the caller's memory; an eager payload is
 * copied into buf, a larger one travels separately. The caller's memory
 * as a separate payload: a reply copies it (a handler cannot wait); a
 * request tracks it with m->lc when async, or else waits for MPI. */
static void send_message(ammpi_ep_t *ep, int kind, const ammpi_msg_t *m, int dest, int dest_ep,
                         char *buf, pool_t *owner, int async)
{
    int is_request = !(kind & K_REPLY);
    int separate = m->nbytes > (size_t)ep->cfg.eager_size;
    int tag = separate ? next_tag(ep) : -1;
    size_t len = fill_header(buf, kind, m, dest_ep, tag, take_owed(ep, dest));
    if (!separate && m->nbytes && m->src != buf + len) memcpy(buf + len, m->src, m->nbytes);
    if (!separate && owner) ammpi_pool_put(owner, (void *)m->src);
    post_send(ep, ep->comm, dest, buf, separate ? len : len + m->nbytes, TAG_HEADER, &ep->ebufs,
              NULL, is_request);
    if (is_request) ep->stats.requests_sent++;
    else ep->stats.replies_sent++;
    if (!separate) return;
    ep->stats.payloads_separate++;
    const void *payload = m->src;
    /* A reply cannot wait for the requester, nor an IMMEDIATE request for
     * a peer that may not poll: they send a copy. So does a request of up
     * to a Medium's size that must not read the source after return: the
     * payload moves only once the peer polls, and a peer that polls
     * rarely would hold the sender up for each message (a copy lets it go
     * on to other peers). A request's copy holds a slot of the depth until
     * MPI is done with it, which bounds the copies. */
    int copy_request = is_request && !async &&
                       ((m->flags & AMMPI_IMMEDIATE) || m->nbytes <= AMMPI_MAX_MEDIUM);
    /* a prepared request's large buffer holds a slot too, as a copy does */
    int holds_depth = is_request && owner;
    if (!owner && (!is_request || copy_request)) {
        pool_t *pool = m->nbytes <= AMMPI_MAX_MEDIUM ? &ep->lbufs : &ep->hbufs;
        char *copy = get_buffer(ep, pool);
        memcpy(copy, m->src, m->nbytes);
        payload = copy;
        owner = pool;
        holds_depth = copy_request;
    }
    ep->depth_used += holds_depth;
    if (owner || async) {
        if (!owner && m->lc) __atomic_fetch_add(m->lc, 1, __ATOMIC_RELAXED);
        post_send(ep, ep->payload_comm, dest, payload, m->nbytes, tag, owner, owner ? NULL : m->lc,
                  holds_depth);
        return;
    }
    MPI_Request preq;
    int rc = MPI_Isend(payload, (int)m->nbytes, MPI_BYTE, dest, tag, ep->payload_comm, &preq);
    if (rc != MPI_SUCCESS) ammpi_mpi_fatal(ep, "MPI_Isend", dest, rc);
    wait_send(ep, &preq, dest);
}

static int check_request(ammpi_ep_t *ep, const ammpi_msg_t *m)
{
    if (!ep) return AMMPI_ERR_NOT_INIT;
    int kind = m->category;
    if (kind != K_SHORT && kind != K_MEDIUM && kind != K_LONG) return AMMPI_ERR_BAD_ARG;
    if (m->dest < 0 || m->dest >= ep->size || m->dest_ep < 0 || m->dest_ep >= AMMPI_MAX_EPS ||
        ammpi_in_handler())
        return AMMPI_ERR_BAD_ARG;
    return check_msg(kind, m);
}

static int check_reply(ammpi_token_t tok, const ammpi_msg_t *m)
{
    if (!tok || tok != ammpi_running_token || (tok->hdr->kind & K_REPLY) || tok->replied)
        return AMMPI_ERR_BAD_ARG;
    int kind = m->category;
    if (kind != K_SHORT && kind != K_MEDIUM && kind != K_LONG) return AMMPI_ERR_BAD_ARG;
    return check_msg(kind | K_REPLY, m);
}

/* ---- loopback: the channel that delivers in the sender's call */

static int loop_send(ammpi_channel_t *ch, const ammpi_msg_t *m, int dest, int dest_ep, int is_reply)
{
    ammpi_ep_t *ep = (ammpi_ep_t *)((char *)ch - offsetof(ammpi_ep_t, loop));
    (void)dest; /* always this rank */
    size_t len = ammpi_wire_size(m, 0);
    _Alignas(16) char small[HDR_MAX + 1024]; /* Short and small payloads: no malloc */
    char *buf = len <= sizeof small ? small : malloc(len);
    if (!buf) return AMMPI_ERR_RESOURCE;
    ammpi_wire_write(buf, m, dest_ep, is_reply, 0);
    /* a message that fails validation was reported by the error handler,
     * as one arriving from MPI would be: the send itself succeeded */
    ammpi_deliver(ep, ch, ep->rank, buf, len);
    if (buf != small) free(buf);
    return AMMPI_OK;
}

static int loop_poll(ammpi_channel_t *ch)
{
    (void)ch;
    return 0; /* nothing is ever queued */
}

void ammpi_loop_init(ammpi_ep_t *ep) { ep->loop = (ammpi_channel_t){loop_send, loop_poll, NULL, NULL}; /* (its replies are this process's own) */ }

/* The channel a request takes, or NULL (MPI). */
static ammpi_channel_t *route(ammpi_ep_t *ep, const ammpi_msg_t *m)
{
    if (m->dest == ep->rank && (m->flags & AMMPI_LOOPBACK)) return &ep->loop;
    return ep->channel_of ? ep->channel_of[m->dest] : NULL;
}

/* The one dispatch of a checked request: the channel that serves its
 * destination, else MPI. async: a separate payload may still be read after
 * return (tracked by m->lc when set); otherwise the call waits until MPI
 * is done with it. */
static int send_request(ammpi_ep_t *ep, const ammpi_msg_t *m, int async)
{
    int rc;
    ammpi_channel_t *ch = route(ep, m);
    if (ch && (rc = ch->send(ch, m, m->dest, m->dest_ep, 0)) != AMMPI_ERR_NOT_HERE) return rc;
    LOCK(ep);
    rc = take_credit(ep, m->dest, m->flags);
    if (rc == AMMPI_OK)
        send_message(ep, m->category, m, m->dest, m->dest_ep, get_buffer(ep, &ep->ebufs), NULL, async);
    UNLOCK(ep);
    return rc;
}

int ammpi_reply(ammpi_token_t tok, const ammpi_msg_t *req)
{
    int rc = check_reply(tok, req);
    if (rc != AMMPI_OK) return rc;
    ammpi_ep_t *ep = tok->ep;
    /* a reply comes from the endpoint the request went to */
    ammpi_msg_t reply = *req;
    reply.src_ep = tok->hdr->ep;
    const ammpi_msg_t *m = &reply;
    if (tok->ch) {
        rc = tok->ch->send(tok->ch, m, tok->src, tok->hdr->src_ep, 1);
        if (rc == AMMPI_OK) tok->replied = 1;
        return rc;
    }
    LOCK(ep);
    /* this reply returns the request's credit plus whatever else is owed */
    ep->owed[tok->src]++;
    send_message(ep, m->category | K_REPLY, m, tok->src, tok->hdr->src_ep,
                 get_buffer(ep, &ep->ebufs), NULL, 0);
    tok->replied = 1;
    UNLOCK(ep);
    return AMMPI_OK;
}

/* ---- negotiated payload */

int ammpi_prepare(ammpi_ep_t *ep, ammpi_token_t tok, const ammpi_msg_t *m, size_t most,
                  ammpi_prep_t *p)
{
    static const int32_t no_args[AMMPI_MAX_ARGS];
    ammpi_msg_t probe = *m; /* handler, nbytes and arguments come at commit */
    probe.handler = 1;
    probe.nbytes = 0;
    probe.args = no_args;
    int rc = tok ? check_reply(tok, &probe) : check_request(ep, &probe);
    if (rc != AMMPI_OK) return rc;
    if (tok) ep = tok->ep;
    size_t max = ammpi_max_payload(m->category | (tok ? K_REPLY : 0));
    if (most > max) most = max;
    int via_channel = tok ? tok->ch != NULL : route(ep, m) != NULL;
    LOCK(ep);
    if (!tok && !via_channel) rc = take_credit(ep, m->dest, m->flags);
    if (rc == AMMPI_OK) {
        *p = (ammpi_prep_t){*m, ep, tok, get_buffer(ep, &ep->ebufs), NULL, (void *)m->src, most};
        if (!m->src && most <= (size_t)ep->cfg.eager_size) {
            p->offer = p->buf + hdr_len(m->nargs);
        } else if (!m->src) {
            p->large = get_buffer(ep, &ep->lbufs);
            p->offer = p->large;
        }
    }
    UNLOCK(ep);
    return rc;
}

int ammpi_commit_flags(ammpi_prep_t *p, int handler, size_t nbytes, void *dest_addr,
                       const int32_t *args, int flags)
{
    ammpi_ep_t *ep = p->ep;
    ammpi_msg_t m = p->msg;
    m.handler = handler;
    m.nbytes = nbytes;
    m.dest_addr = dest_addr;
    m.args = args;
    m.src = p->offer;
    if (p->tok) m.src_ep = p->tok->hdr->ep; /* a reply comes from the request's endpoint */
    ammpi_channel_t *ch = p->tok ? p->tok->ch : route(ep, &m);
    if (ch) {
        /* channels take any prepared size; only a request under the
         * commit's AMMPI_IMMEDIATE may find no room (p stays prepared) */
        m.flags = (m.flags & ~AMMPI_IMMEDIATE) | (flags & AMMPI_IMMEDIATE);
        int rc = ch->send(ch, &m, p->tok ? p->tok->src : m.dest, p->tok ? p->tok->hdr->src_ep : m.dest_ep,
                          p->tok != NULL);
        if (rc == AMMPI_ERR_AGAIN && (flags & AMMPI_IMMEDIATE)) return rc;
        if (rc != AMMPI_OK) fatal(ep, "a channel refused a prepared message");
        /* the channel copied the payload: give back what prepare took */
        LOCK(ep);
        ammpi_pool_put(&ep->ebufs, p->buf);
        if (p->large) ammpi_pool_put(&ep->lbufs, p->large);
        UNLOCK(ep);
        if (p->tok) p->tok->replied = 1;
        return AMMPI_OK;
    }
    LOCK(ep);
    if (p->tok) {
        ep->owed[p->tok->src]++;
        send_message(ep, m.category | K_REPLY, &m, p->tok->src, p->tok->hdr->src_ep, p->buf,
                     p->large ? &ep->lbufs : NULL, 0);
        p->tok->replied = 1;
    } else {
        send_message(ep, m.category, &m, m.dest, m.dest_ep, p->buf, p->large ? &ep->lbufs : NULL,
                     m.lc != NULL);
    }
    UNLOCK(ep);
    return AMMPI_OK;
}

void ammpi_commit(ammpi_prep_t *p, int handler, size_t nbytes, void *dest_addr, const int32_t *args)
{
    ammpi_commit_flags(p, handler, nbytes, dest_addr, args, 0);
}

void ammpi_cancel(ammpi_prep_t *p)
{
    ammpi_ep_t *ep = p->ep;
    /* the route prepare took (a loopback request took no credit either) */
    int via_channel = p->tok ? p->tok->ch != NULL : route(ep, &p->msg) != NULL;
    LOCK(ep);
    ammpi_pool_put(&ep->ebufs, p->buf);
    if (p->large) ammpi_pool_put(&ep->lbufs, p->large);
    if (!p->tok && !via_channel) { /* the credit and request slot prepare took */
        return_credits(ep, p->msg.dest, 1);
        ep->depth_used--;
    }
    UNLOCK(ep);
}

static int request(ammpi_ep_t *ep, const ammpi_msg_t *m, int async)
{
    int rc = check_request(ep, m);
    return rc != AMMPI_OK ? rc : send_request(ep, m, async);
}

int ammpi_request(ammpi_ep_t *ep, const ammpi_msg_t *m) { return request(ep, m, m->lc != NULL); }

int ammpi_request_checked(ammpi_ep_t *ep, const ammpi_msg_t *m)
{
    if (ammpi_in_handler()) return AMMPI_ERR_BAD_ARG;
    return send_request(ep, m, m->lc != NULL);
}

#define MSG(cat, ...) (&(const ammpi_msg_t){.category = (cat), __VA_ARGS__})

int ammpi_request_short(ammpi_ep_t *ep, int dest, int handler, int nargs, const int32_t *args)
{
    return request(ep, MSG(K_SHORT, .dest = dest, .handler = handler, .nargs = nargs, .args = args), 0);
}

int ammpi_request_medium(ammpi_ep_t *ep, int dest, int handler, const void *src,
                         size_t nbytes, int nargs, const int32_t *args)
{
    return request(ep, MSG(K_MEDIUM, .dest = dest, .handler = handler, .src = src,
                           .nbytes = nbytes, .nargs = nargs, .args = args), 0);
}

int ammpi_request_long(ammpi_ep_t *ep, int dest, int handler, const void *src, size_t nbytes,
                       void *dest_addr, int nargs, const int32_t *args)
{
    return request(ep, MSG(K_LONG, .dest = dest, .handler = handler, .src = src, .nbytes = nbytes,
                           .dest_addr = dest_addr, .nargs = nargs, .args = args), 0);
}

int ammpi_request_long_async(ammpi_ep_t *ep, int dest, int handler, const void *src,
                             size_t nbytes, void *dest_addr, int nargs, const int32_t *args)
{
    return request(ep, MSG(K_LONG, .dest = dest, .handler = handler, .src = src, .nbytes = nbytes,
                           .dest_addr = dest_addr, .nargs = nargs, .args = args), 1);
}

int ammpi_reply_short(ammpi_token_t tok, int handler, int nargs, const int32_t *args)
{
    return ammpi_reply(tok, MSG(K_SHORT, .handler = handler, .nargs = nargs, .args = args));
}

int ammpi_reply_medium(ammpi_token_t tok, int handler, const void *src, size_t nbytes,
                       int nargs, const int32_t *args)
{
    return ammpi_reply(tok, MSG(K_MEDIUM, .handler = handler, .src = src, .nbytes = nbytes,
                                .nargs = nargs, .args = args));
}

int ammpi_reply_long(ammpi_token_t tok, int handler, const void *src, size_t nbytes,
                     void *dest_addr, int nargs, const int32_t *args)
{
    return ammpi_reply(tok, MSG(K_LONG, .handler = handler, .src = src, .nbytes = nbytes,
                                .dest_addr = dest_addr, .nargs = nargs, .args = args));
}

/* ---- channels */

int ammpi_in_place(ammpi_ep_t *ep, ammpi_token_t tok, int dest, int dest_ep, const void *addr, size_t n)
{
    ammpi_channel_t *ch = tok ? tok->ch : ep->channel_of ? ep->channel_of[dest] : NULL;
    return ch && ch->in_place && ch->in_place(ch, dest, dest_ep, addr, n);
}

int ammpi_add_channel(ammpi_ep_t *ep, ammpi_channel_t *ch, const unsigned char *peers)
{
    if (!ep || !ch || ep->nchannels == (int)(sizeof ep->channels / sizeof ep->channels[0]))
        return AMMPI_ERR_BAD_ARG;
    if (!ep->channel_of && !(ep->channel_of = calloc((size_t)ep->size, sizeof *ep->channel_of)))
        return AMMPI_ERR_RESOURCE;
    ep->channels[ep->nchannels++] = ch;
    int all = 1;
    for (int p = 0; p < ep->size; p++) {
        if (peers[p]) ep->channel_of[p] = ch;
        if (p != ep->rank && !ep->channel_of[p]) all = 0;
    }
    ep->channels_serve_all = all;
    return AMMPI_OK;
}

size_t ammpi_wire_size(const ammpi_msg_t *m, int inplace)
{
    return hdr_len(m->nargs) + (inplace ? 0 : m->nbytes);
}

void ammpi_wire_write(void *buf, const ammpi_msg_t *m, int dest_ep, int is_reply, int inplace)
{
    size_t len = fill_header(buf, m->category | (is_reply ? K_REPLY : 0), m, dest_ep, -1, 0);
    if (inplace) ((ammpi_hdr_t *)buf)->flags = F_INPLACE;
    else if (m->nbytes) memcpy((char *)buf + len, m->src, m->nbytes);
}
