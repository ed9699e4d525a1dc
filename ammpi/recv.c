/* ammpi receives: preposted header receives tested at their head, wire
 * validation, separate payloads, handler dispatch and credit return. The
 * protocol is described in internal.h. */
#include "internal.h"

#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* sends in MPI before a poll reclaims their buffers (at once when a
 * caller waits for a send's local completion) */
#define RECLAIM_AT 8

/* The next index of the ring of posted receives: a compare, where `%`
 * would be a division (some 25 cycles) on every message. */
static unsigned next_posted(const ammpi_ep_t *ep, unsigned i)
{
    return i + 1 == (unsigned)ep->nrecv ? 0 : i + 1;
}

/* Header receives are persistent requests (MPI_Recv_init at open):
 * reposting one is an MPI_Start, cheaper than a new MPI_Irecv. */
void ammpi_post_recv(ammpi_ep_t *ep, int slot)
{
    int rc = MPI_Start(&ep->recv_req[slot]);
    if (rc != MPI_SUCCESS) ammpi_mpi_fatal(ep, "MPI_Start", -1, rc);
    ep->posted[ep->posted_tail] = slot;
    ep->posted_tail = next_posted(ep, ep->posted_tail);
    ep->posted_count++;
}

static int pop_posted(ammpi_ep_t *ep)
{
    int slot = ep->posted[ep->posted_head];
    ep->posted_head = next_posted(ep, ep->posted_head);
    ep->posted_count--;
    return slot;
}

static const char *kind_name(int kind)
{
    return kind == K_SHORT ? "Short" : kind == K_MEDIUM ? "Medium" : kind == K_LONG ? "Long"
                                                                    : "Credit";
}

static const char *dir_name(int is_reply) { return is_reply ? "reply" : "request"; }

/* Checks a header that arrived from src in `count` bytes (through a
 * channel: no credits, and a Long may be in place). Returns 0 if it may be
 * delivered; otherwise reports it and returns -1. */
static int validate(ammpi_ep_t *ep, int src, const char *buf, int count, int via_channel)
{
    const ammpi_hdr_t *h = (const ammpi_hdr_t *)buf;
    if (count < (int)sizeof *h) {
        ammpi_protocol_error(ep, src, "truncated header (%d bytes)", count);
        return -1;
    }
    int kind = h->kind & ~K_REPLY, is_reply = (h->kind & K_REPLY) != 0;
    if ((kind != K_SHORT && kind != K_MEDIUM && kind != K_LONG && kind != K_CREDIT) ||
        (kind == K_CREDIT && is_reply)) {
        ammpi_protocol_error(ep, src, "unknown message kind %d", h->kind);
        return -1;
    }
    int room = via_channel ? 0 : ep->cfg.credits_pp - ep->credits[src] - ep->held[src];
    if (h->credits > room) {
        ammpi_protocol_error(ep, src, "returns %u credits, but only %d requests are outstanding",
                             h->credits, room);
        return -1;
    }
    if (kind == K_CREDIT) {
        if (count != (int)hdr_len(0) || via_channel) {
            ammpi_protocol_error(ep, src, "credit message of %d bytes", count);
            return -1;
        }
        return 0;
    }
    const target_t *t =
        h->ep < AMMPI_MAX_EPS ? __atomic_load_n(&ep->targets[h->ep], __ATOMIC_ACQUIRE) : NULL;
    if (!t || h->src_ep >= AMMPI_MAX_EPS) {
        ammpi_protocol_error(ep, src, "%s %s for handler %d names endpoint %u (from endpoint %u), "
                             "which does not exist here", kind_name(kind), dir_name(is_reply),
                             h->handler, h->ep, h->src_ep);
        return -1;
    }
    const handler_t *hd = &t->handlers[h->handler];
    if (!hd->fn) {
        ammpi_protocol_error(ep, src, "%s %s names handler %d, which is not registered",
                             kind_name(kind), dir_name(is_reply), h->handler);
        return -1;
    }
    size_t max = ammpi_max_payload(h->kind);
    unsigned flags_ok = via_channel ? (kind == K_LONG ? F_INPLACE : 0) : F_SEPARATE;
    if (h->nargs > AMMPI_MAX_ARGS || h->nbytes > max || (h->flags & ~flags_ok)) {
        ammpi_protocol_error(ep, src, "%s for handler %d has %u args, %u payload bytes "
                             "(limit %zu), flags 0x%x", kind_name(kind), h->handler, h->nargs,
                             h->nbytes, max, h->flags);
        return -1;
    }
    if (!(hd->accepts & kind) || !(hd->accepts & (is_reply ? AMMPI_REPLY : AMMPI_REQUEST)) ||
        (hd->nargs >= 0 && hd->nargs != h->nargs)) {
        ammpi_protocol_error(ep, src, "%s %s with %u args for handler %d, registered for other "
                             "messages (categories 0x%x, %d args)", kind_name(kind),
                             dir_name(is_reply), h->nargs, h->handler, hd->accepts, hd->nargs);
        return -1;
    }
    int separate = (h->flags & (F_SEPARATE | F_INPLACE)) != 0;
    size_t expect = hdr_len(h->nargs) + (separate ? 0 : h->nbytes);
    if ((size_t)count != expect) {
        ammpi_protocol_error(ep, src, "%s for handler %d is %d bytes long, header implies %zu",
                             kind_name(kind), h->handler, count, expect);
        return -1;
    }
    /* a separate payload is never empty: its receive could not start
     * (found by fuzzing: a 0-byte Long at address 0 leaked its record) */
    if ((h->flags & F_SEPARATE) && (h->tag < 0 || h->tag >= TAG_SPACE || h->nbytes == 0)) {
        ammpi_protocol_error(ep, src, "%s for handler %d announces a separate payload of %u bytes "
                             "on tag %d", kind_name(kind), h->handler, h->nbytes, h->tag);
        return -1;
    }
    if (kind == K_LONG && h->nbytes) {
        uintptr_t base = (uintptr_t)t->seg_base;
        if (h->dest < base || h->dest - base > t->seg_size ||
            h->nbytes > t->seg_size - (h->dest - base)) {
            ammpi_protocol_error(ep, src, "Long for handler %d targets [0x%llx, +%u), outside "
                                 "endpoint %u's segment [%p, +%lu)", h->handler,
                                 (unsigned long long)h->dest, h->nbytes, h->ep,
                                 (void *)t->seg_base, (unsigned long)t->seg_size);
            return -1;
        }
    }
    /* a reply over MPI returns its request's credit (and maybe more owed):
     * one that returns none answers nothing we sent */
    if (is_reply && !via_channel && h->credits == 0) {
        ammpi_protocol_error(ep, src, "%s reply for handler %d returns no credit: it answers no "
                             "request", kind_name(kind), h->handler);
        return -1;
    }
    if (!is_reply && !via_channel && ep->incoming[src] >= ep->cfg.credits_pp) {
        ammpi_protocol_error(ep, src, "request for handler %d exceeds the %d credits per peer",
                             h->handler, ep->cfg.credits_pp);
        return -1;
    }
    return 0;
}

/* A Long's destination (a validated header): the payload, arrived in
 * host memory at from, is copied there, by the segment's copy where the
 * host may not write it. */
static void *land_long(ammpi_ep_t *ep, const ammpi_hdr_t *h, const void *from)
{
    void *dest = (void *)(uintptr_t)h->dest;
    const target_t *t = ep->targets[h->ep];
    if (!h->nbytes || from == dest) return dest;
    if (t->seg_copy) t->seg_copy(t->seg_ctx, dest, from, h->nbytes);
    else memcpy(dest, from, h->nbytes);
    return dest;
}

/* A reply with a separate payload holds its credits until the payload has
 * arrived: so a peer has at most C replies' payloads pending here (and C
 * requests', by incoming[]), whatever it sends. */
static void take_credits(ammpi_ep_t *ep, int src, const ammpi_hdr_t *h)
{
    if ((h->kind & K_REPLY) && (h->flags & F_SEPARATE))
        ep->held[src] = (uint16_t)(ep->held[src] + h->credits);
    else
        return_credits(ep, src, h->credits);
    if ((h->kind & K_REPLY) == 0 && h->kind != K_CREDIT) ep->incoming[src]++;
}

/* The credits a reply with a separate payload brought, held until the
 * payload arrived (or the message was dropped), become usable. */
static void release_held(ammpi_ep_t *ep, int src, const ammpi_hdr_t *h)
{
    if (!(h->kind & K_REPLY)) return;
    ep->held[src] = (uint16_t)(ep->held[src] - h->credits);
    return_credits(ep, src, h->credits);
}

/* With the lock held: starts the receives of waiting records from the
 * one *pp on (no record before it waits), oldest first, while buffers are
 * free; stops at the first that finds none. A record that cannot have one
 * for want of memory is reported and dropped (it would hold up every later
 * one). */
static void start_waiting(ammpi_ep_t *ep, pending_t **pp)
{
    while (*pp && ep->payload_waiting) {
        pending_t *p = *pp;
        if (!p->waiting) {
            pp = &p->next;
            continue;
        }
        if (p->temp) {
            if (ep->payload_held >= ep->payload_cap) return;
            p->payload = ammpi_pool_get(p->temp);
        }
        p->waiting = 0;
        ep->payload_waiting--;
        if (!p->payload) {
            *pp = p->next;
            if (!*pp) ep->pending_tail = pp;
            release_held(ep, p->src, &p->hdr);
            ammpi_protocol_error(ep, p->src, "no memory to receive a %u-byte payload",
                                 p->hdr.nbytes);
            ammpi_pool_put(&ep->pends, p);
            continue;
        }
        if (p->temp) ep->payload_held++;
        int rc = MPI_Irecv(p->payload, (int)p->hdr.nbytes, MPI_BYTE, p->src, p->hdr.tag,
                           ep->payload_comm, &p->req);
        if (rc != MPI_SUCCESS) ammpi_mpi_fatal(ep, "MPI_Irecv", p->src, rc);
        pp = &p->next;
    }
}

/* Starts receiving a separate payload; the header is copied so its
 * receive buffer can be reposted at once. A Long one lands in place,
 * unless its segment has a copy: then in a buffer, copied on arrival.
 * Buffers are a shared allowance of payload_cap, whatever the number of
 * peers: when none is free the record waits (its payload waits in MPI, at
 * the sender for a rendezvous-sized one), and so does every later record,
 * in place or not. Receives are thus posted in the order the headers came,
 * as MPI must match them: payload tags cycle, and a later message may
 * carry the tag of an earlier one still unreceived. The oldest records
 * always hold their buffers, so their payloads can arrive: no record
 * waits on a younger one. */
static void start_payload(ammpi_ep_t *ep, int src, const ammpi_hdr_t *h)
{
    pending_t *p = ammpi_pool_get(&ep->pends);
    if (!p) {
        release_held(ep, src, h); /* dropped: its credits must not stay held */
        ammpi_protocol_error(ep, src, "no memory to receive a %u-byte payload", h->nbytes);
        return;
    }
    pool_t *temp = &ep->lbufs;
    if ((h->kind & ~K_REPLY) == K_LONG)
        temp = !ep->targets[h->ep]->seg_copy ? NULL : h->nbytes <= AMMPI_MAX_MEDIUM ? &ep->lbufs
                                                                                  : &ep->hbufs;
    p->src = src;
    p->hdr = *h;
    memcpy(p->args, h + 1, 4 * (size_t)h->nargs);
    p->temp = temp;
    p->payload = temp ? NULL : (void *)(uintptr_t)h->dest;
    p->waiting = 1;
    p->next = NULL;
    if (!ep->pending) ep->pending_tail = &ep->pending;
    pending_t **link = ep->pending_tail;
    *link = p;
    ep->pending_tail = &p->next;
    if (++ep->payload_waiting == 1) start_waiting(ep, link);
    /* p is the youngest: if any record still waits, p does (p itself may
     * have been dropped, so its fields are not read again) */
    ep->stats.payload_waits += ep->payload_waiting != 0;
}

/* With the lock held: releases a record taken off the pending list, and
 * its buffer, which goes to the oldest record waiting for one. */
static void release_pending(ammpi_ep_t *ep, pending_t *done)
{
    if (done->temp) {
        ammpi_pool_put(done->temp, done->payload);
        ep->payload_held--;
    }
    ammpi_pool_put(&ep->pends, done);
    if (ep->payload_waiting) start_waiting(ep, &ep->pending);
}

/* The oldest separate payload that has fully arrived and has no older one
 * from the same peer still arriving, or NULL: a peer's messages with
 * separate payloads run in the order their headers came. */
static pending_t *arrived_payload(ammpi_ep_t *ep)
{
    uint32_t scan = ++ep->scans;
    if (scan == 0) { /* wrapped: marks of the first scan would look current */
        memset(ep->scan_mark, 0, (size_t)ep->size * sizeof *ep->scan_mark);
        scan = ep->scans = 1;
    }
    for (pending_t **pp = &ep->pending; *pp; pp = &(*pp)->next) {
        int done = 0, count = 0;
        MPI_Status st;
        if (ep->scan_mark[(*pp)->src] == scan) continue;
        int rc = (*pp)->waiting ? MPI_SUCCESS : MPI_Test(&(*pp)->req, &done, &st);
        if (!done && rc == MPI_SUCCESS) {
            ep->scan_mark[(*pp)->src] = scan;
            continue;
        }
        pending_t *p = *pp;
        *pp = p->next;
        if (!*pp) ep->pending_tail = pp;
        release_held(ep, p->src, &p->hdr);
        if (rc == MPI_SUCCESS) MPI_Get_count(&st, MPI_BYTE, &count);
        if (rc != MPI_SUCCESS || (uint32_t)count != p->hdr.nbytes) {
            char why[MPI_MAX_ERROR_STRING] = "";
            int n = 0;
            if (rc != MPI_SUCCESS) MPI_Error_string(rc, why, &n);
            ammpi_protocol_error(ep, p->src, "payload for handler %d: %d bytes arrived, %u "
                                 "announced%s%s", p->hdr.handler, count, p->hdr.nbytes,
                                 rc != MPI_SUCCESS ? ": MPI_Test: " : "", why);
            release_pending(ep, p);
            return arrived_payload(ep);
        }
        return p;
    }
    return NULL;
}

/* With the lock held: finds the next message ready for its handler. */
static int take_message(ammpi_ep_t *ep, msg_t *m)
{
    pending_t *p = ep->pending ? arrived_payload(ep) : NULL;
    if (p) {
        void *payload = p->payload;
        if ((p->hdr.kind & ~K_REPLY) == K_LONG) payload = land_long(ep, &p->hdr, payload);
        *m = (msg_t){p->src, &p->hdr, p->args, payload, -1, p};
        return 1;
    }
    while (ep->posted_count) {
        int slot = ep->posted[ep->posted_head], done = 0, count = 0, cls = MPI_SUCCESS;
        MPI_Status st;
        int rc = MPI_Test(&ep->recv_req[slot], &done, &st);
        if (rc != MPI_SUCCESS) MPI_Error_class(rc, &cls);
        if (rc != MPI_SUCCESS && cls != MPI_ERR_TRUNCATE) ammpi_mpi_fatal(ep, "MPI_Test", -1, rc);
        if (!done && rc == MPI_SUCCESS) return 0;
        pop_posted(ep);
        __atomic_store_n(&ep->mpi_quiet, 0, __ATOMIC_RELAXED);
        int src = st.MPI_SOURCE;
        if (src < 0 || src >= ep->size) {
            fprintf(stderr, "ammpi: node %d: MPI_Test: a header from rank %d, outside the "
                    "communicator of %d ranks\n", ep->rank, src, ep->size);
            ammpi_mpi_fatal(ep, "MPI_Test", -1, rc);
        }
        ep->received[src]++;
        char *buf = ep->recv_mem + (size_t)slot * ep->bufsize;
        const ammpi_hdr_t *h = (const ammpi_hdr_t *)buf;
        if (rc != MPI_SUCCESS) { /* truncated: longer than any valid header and payload */
            char why[MPI_MAX_ERROR_STRING] = "";
            int n = 0;
            MPI_Error_string(rc, why, &n);
            ammpi_protocol_error(ep, src, "a header message of more than %zu bytes (MPI_Test: %s)",
                                 ep->bufsize, why);
            ammpi_post_recv(ep, slot);
            continue;
        }
        MPI_Get_count(&st, MPI_BYTE, &count);
        if (validate(ep, src, buf, count, 0) != 0) {
            ammpi_post_recv(ep, slot);
            continue;
        }
        ep->stats.msgs_received++;
        take_credits(ep, src, h);
        if (h->kind == K_CREDIT) {
            ammpi_post_recv(ep, slot);
            continue;
        }
        if (h->flags & F_SEPARATE) {
            start_payload(ep, src, h);
            ammpi_post_recv(ep, slot);
            continue;
        }
        char *payload = buf + hdr_len(h->nargs);
        if ((h->kind & ~K_REPLY) == K_LONG) /* the handler sees dest, even for 0 bytes */
            payload = land_long(ep, h, payload);
        *m = (msg_t){src, h, (const int32_t *)(h + 1), payload, slot, NULL};
        return 1;
    }
    return 0;
}

/* Argument lists for calling a handler with its real arity. */
#define T0
#define T1 T0, int32_t
#define T2 T1, int32_t
#define T3 T2, int32_t
#define T4 T3, int32_t
#define T5 T4, int32_t
#define T6 T5, int32_t
#define T7 T6, int32_t
#define T8 T7, int32_t
#define T9 T8, int32_t
#define T10 T9, int32_t
#define T11 T10, int32_t
#define T12 T11, int32_t
#define T13 T12, int32_t
#define T14 T13, int32_t
#define T15 T14, int32_t
#define T16 T15, int32_t
#define V0
#define V1 V0, a[0]
#define V2 V1, a[1]
#define V3 V2, a[2]
#define V4 V3, a[3]
#define V5 V4, a[4]
#define V6 V5, a[5]
#define V7 V6, a[6]
#define V8 V7, a[7]
#define V9 V8, a[8]
#define V10 V9, a[9]
#define V11 V10, a[10]
#define V12 V11, a[11]
#define V13 V12, a[12]
#define V14 V13, a[13]
#define V15 V14, a[14]
#define V16 V15, a[15]
#define CALL_SHORT(n) \
    case n: ((void (*)(ammpi_token_t T##n))fn)(tok V##n); break;
#define CALL_BULK(n) \
    case n: ((void (*)(ammpi_token_t, void *, size_t T##n))fn)(tok, buf, nbytes V##n); break;
#define ALL_ARITIES(X) X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11) \
    X(12) X(13) X(14) X(15) X(16)

static void call_handler(ammpi_handler_fn fn, int is_short, ammpi_token_t tok, void *buf,
                         size_t nbytes, const int32_t *a, int nargs)
{
    if (is_short) {
        switch (nargs) { ALL_ARITIES(CALL_SHORT) }
    } else {
        switch (nargs) { ALL_ARITIES(CALL_BULK) }
    }
}

static void owe_credit(ammpi_ep_t *ep, int src)
{
    if (!ep->owed_listed[src]) {
        ep->owed_listed[src] = 1;
        ep->owed_list[ep->owed_count++] = src;
    }
    if (++ep->owed[src] >= (ep->cfg.credits_pp + 1) / 2) ammpi_send_credits(ep, src);
}

static void dispatch(ammpi_ep_t *ep, msg_t *m, ammpi_channel_t *ch)
{
    const ammpi_hdr_t *h = m->hdr;
    struct ammpi_token tok = {ep, h, m->src, 0, ch};
    int is_request = (h->kind & K_REPLY) == 0;
    /* a loopback reply's handler runs inside its request's handler */
    struct ammpi_token *outer = ammpi_running_token;
    ammpi_enter_handler(&tok);
    if (ep->hook_before) ep->hook_before(&tok, is_request);
    call_handler(ep->targets[h->ep]->handlers[h->handler].fn, (h->kind & ~K_REPLY) == K_SHORT,
                 &tok, m->payload, h->nbytes, m->args, h->nargs);
    if (ep->hook_after) ep->hook_after(&tok, is_request);
    ammpi_leave_handler(outer);
    if (ch) return; /* no credits, nothing to repost */
    LOCK(ep);
    if (is_request && !tok.replied) owe_credit(ep, m->src);
    if (m->slot >= 0) ammpi_post_recv(ep, m->slot);
    if (m->pend) release_pending(ep, m->pend);
    UNLOCK(ep);
}

/* Shutdown (ep.c): takes every message that has arrived, starting the
 * receives of separate payloads, and releases it without its handler. */
void ammpi_discard_arrived(ammpi_ep_t *ep)
{
    msg_t m;
    while (take_message(ep, &m)) {
        if (m.slot >= 0) ammpi_post_recv(ep, m.slot);
        if (m.pend) release_pending(ep, m.pend);
    }
}

#define POLL_BUDGET 32 /* messages one poll may handle before returning */

/* Where channels serve every other peer, MPI carries only messages to this
 * rank itself and ones too big for a channel, and testing its receives is
 * most of a poll's cost: after QUIET_POLLS polls in which MPI neither
 * carried nor was given a message, only every QUIET_EVERY-th poll tests. */
#define QUIET_POLLS 256
#define QUIET_EVERY 16

static int mpi_may_skip(ammpi_ep_t *ep)
{
    if (!ep->channels_serve_all) return 0;
    unsigned q = __atomic_load_n(&ep->mpi_quiet, __ATOMIC_RELAXED);
    __atomic_store_n(&ep->mpi_quiet, q + 1, __ATOMIC_RELAXED); /* a lost count is harmless */
    return q >= QUIET_POLLS && q % QUIET_EVERY;
}

int ammpi_poll_internal(ammpi_ep_t *ep)
{
    int handled = 0;
    msg_t m;
    int budget = mpi_may_skip(ep) ? 0 : POLL_BUDGET;
    while (handled < budget) {
        LOCK(ep);
        if (ep->ninflight >= RECLAIM_AT || ep->lc_waiting) ammpi_reclaim_sends(ep);
        int got = take_message(ep, &m);
        if (!got && ep->owed_count) ammpi_flush_owed(ep);
        /* A reply after which no request of ours awaits an answer is
         * likely what the caller waits for: the poll returns it at once
         * rather than test MPI again for more, which made a round trip
         * 0.08x MPI's longer (docs/ammpi-profile.md). While requests are
         * out, more answers are coming, and taking them together keeps a
         * flood's pace. */
        int answered_all = got && (m.hdr->kind & K_REPLY) && ep->credits_out == 0;
        UNLOCK(ep);
        if (!got) break;
        dispatch(ep, &m, NULL);
        handled++;
        if (answered_all) break;
    }
    for (int i = 0; i < ep->nchannels; i++) handled += ep->channels[i]->poll(ep->channels[i]);
    return handled;
}

/* A channel's message lies in memory its sender can still write (a
 * shared-memory ring): the header and arguments are copied out before they
 * are checked, and only the copy is used afterwards; a handler registered
 * with AMMPI_PRIVATE (one that parses its payload) gets the payload copied
 * too, into this thread's buffer. Everything else reads the payload in
 * place: its bytes are the sender's data, whatever they are. */
static __thread char *private_payload;
static pthread_key_t private_key; /* frees a thread's buffer when it exits */
static pthread_once_t private_once = PTHREAD_ONCE_INIT;
static void private_key_init(void) { pthread_key_create(&private_key, free); }

static char *private_buffer(void)
{
    if (!private_payload) {
        pthread_once(&private_once, private_key_init);
        if (posix_memalign((void **)&private_payload, 16, AMMPI_MAX_MEDIUM)) return NULL;
        pthread_setspecific(private_key, private_payload);
    }
    return private_payload;
}

int ammpi_deliver(ammpi_ep_t *ep, ammpi_channel_t *ch, int src, const void *msg, size_t len)
{
    struct {
        ammpi_hdr_t h;
        int32_t args[AMMPI_MAX_ARGS];
    } c;
    if (len > INT_MAX || src < 0 || src >= ep->size) {
        ammpi_protocol_error(ep, src, "a channel delivered %zu bytes from node %d", len, src);
        return -1;
    }
    memcpy(&c, msg, len < sizeof c ? len : sizeof c);
    LOCK(ep);
    int bad = validate(ep, src, (const char *)&c, (int)len, 1);
    UNLOCK(ep);
    if (bad) return -1;
    const ammpi_hdr_t *h = &c.h;
    if ((h->kind & K_REPLY) && ch->awaiting) { /* a reply answers a request sent that way */
        unsigned n = __atomic_load_n(&ch->awaiting[src], __ATOMIC_RELAXED);
        do {
            if (n == 0) {
                ammpi_protocol_error(ep, src, "%s reply for handler %d answers no request",
                                     kind_name(h->kind & ~K_REPLY), h->handler);
                return -1;
            }
        } while (!__atomic_compare_exchange_n(&ch->awaiting[src], &n, n - 1, 1, __ATOMIC_RELAXED,
                                              __ATOMIC_RELAXED));
    }
    void *payload = (char *)msg + hdr_len(h->nargs);
    int kind = h->kind & ~K_REPLY;
    if (kind == K_LONG) { /* in place already, or copied now */
        payload = h->flags & F_INPLACE ? (void *)(uintptr_t)h->dest : land_long(ep, h, payload);
    } else if (kind == K_MEDIUM && h->nbytes &&
               (ep->targets[h->ep]->handlers[h->handler].accepts & AMMPI_PRIVATE)) {
        char *copy = private_buffer();
        if (!copy) {
            ammpi_protocol_error(ep, src, "no memory to copy a %u-byte payload", h->nbytes);
            return -1;
        }
        payload = memcpy(copy, payload, h->nbytes);
    }
    msg_t m = {src, h, c.args, payload, -1, NULL};
    dispatch(ep, &m, ch);
    return 0;
}

int ammpi_poll(ammpi_ep_t *ep)
{
    if (!ep) return AMMPI_ERR_NOT_INIT;
    if (ammpi_in_handler()) return AMMPI_ERR_BAD_ARG;
    ammpi_poll_internal(ep);
    return AMMPI_OK;
}

int ammpi_poll_count(ammpi_ep_t *ep)
{
    if (!ep || ammpi_in_handler()) return -1;
    return ammpi_poll_internal(ep);
}

int ammpi_poll_wait(ammpi_ep_t *ep, int *idle)
{
    if (!ep) return AMMPI_ERR_NOT_INIT;
    if (ammpi_in_handler()) return AMMPI_ERR_BAD_ARG;
    if (ammpi_poll_internal(ep) > 0) *idle = 0;
    else if (++*idle > ep->cfg.spin_polls) sched_yield();
    return AMMPI_OK;
}
