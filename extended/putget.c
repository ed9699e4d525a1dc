/* Put, get and memset protocols over the core AM API, after the seed's
 * extended-ref design:
 *
 *   put   n <= GASNET_PUT_MEDIUM_MAX   one Medium request carrying the data
 *         larger                      Long requests of up to 1 MiB each; the
 *                                     source is sent in place, and its local
 *                                     completion is waited for, deferred to
 *                                     the operation's, or counted (LC_*)
 *   get   any size                    Short requests, each answered by up to
 *                                     MaxMedium bytes: a Long reply straight
 *                                     into the destination when it lies in
 *                                     the local segment, else a Medium reply
 *   memset, put_val, get_val          one Short request, answered by a Short
 *
 * A peer is named by (team, rank): the member's jobrank and endpoint
 * index. Every request carries a reply ticket (ticket.c) naming, in this
 * process, the completion target (core-mpi/events.h) and for a get the
 * piece's destination; its reply echoes it, and the reply handler redeems
 * it and completes the target. Each initiator asks the peer's route once
 * (core-native/route.h): SELF and MAPPED are plain copies with no message,
 * NET the backend's put or get, and only AM takes the protocols above.
 * Remote ranges are checked at initiation against the
 * peer endpoint's bound segment, and again by the handler on the target
 * against its own endpoint's segment: it trusts nothing from the wire.
 *
 * Device memory (memkind/): when a put's source or a get's destination
 * lies in a local device segment, or the peer's bound segment is device
 * memory, the transfer goes by put_device/get_device: a copy with the
 * memory class's operations in this process (loopback) or into this
 * process's mapping of a neighbour's device memory (shm), left to complete
 * later when both sides are device memory (the operation then counts it
 * until a poll sees it done; a put whose source must be free on return
 * copies at once); otherwise the
 * AM path, pipelined through host buffers in pieces of STAGE bytes: each
 * piece is a Medium (staged by the class's copy into a host buffer when
 * the source is device memory) and the target copies it into device
 * memory with its class. No Long lands in device memory and no whole
 * transfer is bounced. The handlers copy with the class wherever the
 * local range is device memory. Before staging, a put from host memory
 * into a peer's device segment, or a get from it into host memory, goes
 * by the ofi or verbs backend where the owner registered that segment
 * with it (core-native/rma.h): the card reaches the device memory.
 */
#include "extended.h"
#include "route.h"

#include <stdlib.h>
#include <string.h>

static size_t put_medium_max;
static int get_long_reply;
#define PUT_CHUNK ((size_t)AMMPI_MAX_LONG_REQUEST)
#define GET_CHUNK (GASNETI_AM_MAX_PAYLOAD & ~(size_t)63)

static void putget_init(void)
{
    put_medium_max = (size_t)gasneti_getenv_size("GASNET_PUT_MEDIUM_MAX", 512, 0,
                                                 (int64_t)GASNETI_AM_MAX_PAYLOAD);
    get_long_reply = gasneti_getenv_yesno("GASNET_GET_LONG_REPLY", 1);
    gasnete_pack_init(put_medium_max);
}

/* ---- checks */

/* Checks the remote side of an operation and returns the member it names. */
static gex_EP_Location_t check_remote(const char *call, gasneti_tm_t tm, gex_Rank_t rank,
                                      const void *raddr, size_t n, const void *laddr)
{
    GASNETI_CHECK_MAY_COMMUNICATE(call);
    if (rank >= tm->size) {
        if (!tm->members)
            gasneti_fatalerror("%s: node %u is not in the job (%u nodes)", call, rank, tm->size);
        gasneti_fatalerror("%s: rank %u is not in the team (%u members)", call, rank, tm->size);
    }
    gex_EP_Location_t loc = gasneti_tm_member(tm, rank);
    if (n == 0) return loc;
    /* remote first: calls without a local buffer pass the remote address */
    const gasnet_seginfo_t *seg = gasneti_peer_segment(loc);
    if (!gasneti_in_seginfo(seg, raddr, n)) {
        char who[80], where[96] = "(none bound, or none published here)";
        int w = tm->members ? snprintf(who, sizeof who, "rank %u (node %u)", rank, loc.gex_rank)
                            : snprintf(who, sizeof who, "node %u", loc.gex_rank);
        if (loc.gex_ep_index) snprintf(who + w, sizeof who - w, " endpoint %u", loc.gex_ep_index);
        if (seg) snprintf(where, sizeof where, "[%p, +%lu)", seg->addr, (unsigned long)seg->size);
        gasneti_fatalerror("%s: remote range [%p, +%zu) lies outside %s's segment %s", call, raddr,
                           n, who, where);
    }
    if (!laddr) gasneti_fatalerror("%s: NULL local address for %zu bytes", call, n);
    return loc;
}

/* On the target: a range named by a peer must lie in the bound segment of
 * the endpoint the message came to. */
static void *check_local(ammpi_token_t tok, const char *what, void *addr, size_t n)
{
    ammpi_token_info_t ti;
    ammpi_token_info(tok, &ti);
    gex_EP_Location_t me = {gasneti_mynode, (gex_EP_Index_t)ti.ep};
    if (n && !gasneti_in_seginfo(gasneti_peer_segment(me), addr, n))
        gasneti_fatalerror("%s from node %d names [%p, +%zu), outside the segment of endpoint %d",
                           what, ti.src, addr, n, ti.ep);
    return addr;
}

static void store_value(void *dest, uint64_t v, size_t n)
{
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    memcpy(dest, (char *)&v + sizeof v - n, n);
#else
    memcpy(dest, &v, n);
#endif
}

static uint64_t load_value(const void *src, size_t n)
{
    uint64_t v = 0;
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    memcpy((char *)&v + sizeof v - n, src, n);
#else
    memcpy(&v, src, n);
#endif
    return v;
}

static void check_val_size(const char *call, size_t n)
{
    if (n == 0 || n > SIZEOF_GEX_RMA_VALUE_T)
        gasneti_fatalerror("%s: nbytes = %zu, must be 1..%d", call, n, SIZEOF_GEX_RMA_VALUE_T);
}

/* ---- device memory (see the top comment) */

#define STAGE GET_CHUNK

/* Reads n bytes at addr of this process (device memory or not) into
 * host memory, and the reverse. */
static void read_local(void *host, const void *addr, size_t n)
{
    gasneti_mk_copy(NULL, host, gasneti_mk_lookup(addr, n), addr, n);
}
static void write_local(void *addr, const void *host, size_t n)
{
    gasneti_mk_copy(gasneti_mk_lookup(addr, n), addr, NULL, host, n);
}

/* memset of n bytes at dest, device memory of kind mk or host (NULL). */
static void fill(gasneti_mk_t mk, void *dest, int val, size_t n)
{
    if (!mk) {
        memset(dest, val, n);
        return;
    }
    char buf[4096];
    memset(buf, val, sizeof buf);
    for (size_t off = 0; off < n; off += sizeof buf)
        gasneti_mk_copy(mk, (char *)dest + off, NULL, buf, n - off < sizeof buf ? n - off : sizeof buf);
}

/* Whether the local buffer or the remote range is device memory (this
 * process's own ranges are in the registry; a peer's, the route says). */
static int device_involved(const gasneti_route_t *r, const void *local, const void *remote, size_t n)
{
    if (gasneti_mk_lookup(local, n)) return 1;
    return r->how == GASNETI_ROUTE_SELF ? gasneti_mk_lookup(remote, n) != NULL : r->device;
}

/* A copy in this process, device memory on one side at least: one between
 * two device ranges is left to complete later (counted in op) unless the
 * source must be free when the call returns (LC_NOW). */
static void device_copy(gasneti_op_t *op, int which, int lc_mode, uint32_t *lc, gasneti_mk_t dmk,
                        void *dst, gasneti_mk_t smk, const void *src, size_t n)
{
    if (lc_mode == LC_NOW) gasneti_mk_copy(dmk, dst, smk, src, n);
    else
        gasneti_mk_copy_start(dmk, dst, smk, src, n, gasneti_counter(op, which),
                              lc_mode == LC_COUNTER ? lc : NULL);
}

static void put_device(gasneti_op_t *op, gasneti_tm_t tm, gex_EP_Location_t loc,
                       const gasneti_route_t *r, void *dest, const void *src, size_t n, int lc_mode,
                       uint32_t *lc)
{
    gasneti_mk_t smk = gasneti_mk_lookup(src, n);
    switch (r->how) {
    case GASNETI_ROUTE_SELF:
        device_copy(op, GASNETI_PUT, lc_mode, lc, gasneti_mk_lookup(dest, n), dest, smk, src, n);
        return;
    case GASNETI_ROUTE_MAPPED:
        device_copy(op, GASNETI_PUT, lc_mode, lc, r->mk, (char *)dest + r->offset, smk, src, n);
        __atomic_thread_fence(__ATOMIC_RELEASE);
        return;
    case GASNETI_ROUTE_NET: /* a card reaching the peer's device memory, from host memory */
        if (smk) break;
        if (r->net->put(loc.gex_rank, gasneti_route_key(r), dest, src, n, lc_mode == LC_DEFER,
                        gasneti_counter(op, GASNETI_PUT)))
            gasneti_fatalerror("a device-memory put: %s put of %zu bytes to node %u failed",
                               r->net->name, n, loc.gex_rank);
        return;
    case GASNETI_ROUTE_AM:
        break;
    }
    uintptr_t t = gasneti_target(op, GASNETI_PUT);
    char *bounce = smk ? malloc(n < STAGE ? n : STAGE) : NULL;
    if (smk && !bounce) gasneti_fatalerror("out of memory staging a put from device memory");
    gasneti_add(op, GASNETI_PUT, (uint32_t)((n + STAGE - 1) / STAGE));
    for (size_t off = 0; off < n; off += STAGE) {
        size_t len = n - off < STAGE ? n - off : STAGE;
        const char *piece = (const char *)src + off;
        if (smk) {
            gasneti_mk_copy(NULL, bounce, smk, piece, len);
            piece = bounce;
        }
        char *d = (char *)dest + off; /* the Medium's payload is copied before the call returns */
        uint64_t k = gasnete_ticket_issue(GASNETE_TK_ACK, loc.gex_rank, NULL, 0, t);
        gasnete_am_request(tm, loc, AMMPI_MEDIUM, GASNETE_H_PUT_MEDIUM, piece, len, NULL, NULL, 4,
                           GASNETE_HI(d), GASNETE_LO(d), GASNETE_HI(k), GASNETE_LO(k));
    }
    free(bounce);
}

/* SELF and MAPPED; 0 when the route is NET or AM (a get then goes the
 * usual way, with Medium replies: the handlers copy with the class). */
static int get_device_here(gasneti_op_t *op, const gasneti_route_t *r, void *dest, const void *src,
                           size_t n)
{
    gasneti_mk_t dmk = gasneti_mk_lookup(dest, n);
    if (r->how == GASNETI_ROUTE_SELF) {
        device_copy(op, GASNETI_GET, LC_DEFER, NULL, dmk, dest, gasneti_mk_lookup(src, n), src, n);
        return 1;
    }
    if (r->how != GASNETI_ROUTE_MAPPED) return 0;
    __atomic_thread_fence(__ATOMIC_ACQUIRE);
    device_copy(op, GASNETI_GET, LC_DEFER, NULL, dmk, dest, r->mk, (const char *)src + r->offset, n);
    return 1;
}

/* ---- initiators: check, trace, ask the route, act on it */

void gasnete_put(gasneti_op_t *op, gasneti_tm_t tm, gex_Rank_t rank, void *dest, const void *src,
                 size_t n, int lc_mode, uint32_t *lc, const char *call)
{
    gex_EP_Location_t loc = check_remote(call, tm, rank, dest, n, src);
    GASNETI_TRACE_XFER('P', call, loc.gex_rank, dest, src, n);
    if (n == 0) return;
    gasneti_route_t r;
    gasneti_route(loc, &r);
    if (device_involved(&r, src, dest, n)) {
        put_device(op, tm, loc, &r, dest, src, n, lc_mode, lc);
        return;
    }
    switch (r.how) {
    case GASNETI_ROUTE_SELF:
        memcpy(dest, src, n);
        return;
    case GASNETI_ROUTE_MAPPED:
        memcpy((char *)dest + r.offset, src, n);
        __atomic_thread_fence(__ATOMIC_RELEASE);
        return;
    case GASNETI_ROUTE_NET:
        if (r.net->put(loc.gex_rank, gasneti_route_key(&r), dest, src, n, lc_mode == LC_DEFER,
                       gasneti_counter(op, GASNETI_PUT)))
            gasneti_fatalerror("%s: %s put of %zu bytes to node %u failed", call, r.net->name, n,
                               loc.gex_rank);
        return;
    case GASNETI_ROUTE_AM:
        break;
    }
    if (gasnete_pack_put(op, tm, loc, dest, src, n)) return;
    uintptr_t t = gasneti_target(op, GASNETI_PUT);
    if (n <= put_medium_max) {
        gasneti_add(op, GASNETI_PUT, 1);
        uint64_t k = gasnete_ticket_issue(GASNETE_TK_ACK, loc.gex_rank, NULL, 0, t);
        gasnete_am_request(tm, loc, AMMPI_MEDIUM, GASNETE_H_PUT_MEDIUM, src, n, NULL, NULL, 4,
                           GASNETE_HI(dest), GASNETE_LO(dest), GASNETE_HI(k), GASNETE_LO(k));
        return;
    }
    uint32_t *src_free = lc_mode == LC_NOW ? NULL : lc_mode == LC_DEFER ? gasneti_counter(op, GASNETI_PUT) : lc;
    size_t pieces = (n + PUT_CHUNK - 1) / PUT_CHUNK;
    gasneti_add(op, GASNETI_PUT, (uint32_t)pieces);
    for (size_t off = 0; off < n; off += PUT_CHUNK) {
        size_t len = n - off < PUT_CHUNK ? n - off : PUT_CHUNK;
        uint64_t k = gasnete_ticket_issue(GASNETE_TK_ACK, loc.gex_rank, NULL, 0, t);
        gasnete_am_request(tm, loc, AMMPI_LONG, GASNETE_H_PUT_LONG, (const char *)src + off, len,
                           (char *)dest + off, src_free, 2, GASNETE_HI(k), GASNETE_LO(k));
    }
}

void gasnete_get(gasneti_op_t *op, gasneti_tm_t tm, void *dest, gex_Rank_t rank, const void *src,
                 size_t n, const char *call)
{
    gex_EP_Location_t loc = check_remote(call, tm, rank, src, n, dest);
    GASNETI_TRACE_XFER('G', call, loc.gex_rank, dest, src, n);
    if (n == 0) return;
    gasneti_route_t r;
    gasneti_route(loc, &r);
    int device = device_involved(&r, dest, src, n);
    if (device && get_device_here(op, &r, dest, src, n)) return;
    switch (r.how) {
    case GASNETI_ROUTE_SELF:
        memcpy(dest, src, n);
        return;
    case GASNETI_ROUTE_MAPPED:
        __atomic_thread_fence(__ATOMIC_ACQUIRE);
        memcpy(dest, (const char *)src + r.offset, n);
        return;
    case GASNETI_ROUTE_NET: /* into device memory only where a card reaches the peer's */
        if (device && gasneti_mk_lookup(dest, n)) break;
        if (r.net->get(dest, loc.gex_rank, gasneti_route_key(&r), src, n, gasneti_counter(op, GASNETI_GET)))
            gasneti_fatalerror("%s: %s get of %zu bytes from node %u failed", call, r.net->name, n,
                               loc.gex_rank);
        return;
    case GASNETI_ROUTE_AM:
        break;
    }
    if (!device && gasnete_pack_get(op, tm, loc, dest, src, n)) return; /* batches copy host memory */
    uintptr_t t = gasneti_target(op, GASNETI_GET);
    gex_EP_Location_t me = {gasneti_mynode, tm->ep->index};
    int use_long = get_long_reply && !device && gasneti_in_seginfo(gasneti_peer_segment(me), dest, n);
    gasneti_add(op, GASNETI_GET, (uint32_t)((n + GET_CHUNK - 1) / GET_CHUNK));
    for (size_t off = 0; off < n; off += GET_CHUNK) {
        size_t len = n - off < GET_CHUNK ? n - off : GET_CHUNK;
        const char *s = (const char *)src + off;
        char *d = (char *)dest + off; /* sent for a Long reply; a Medium one lands where k says */
        uint64_t k = gasnete_ticket_issue(GASNETE_TK_GET, loc.gex_rank, d, len, t);
        gasnete_am_request(tm, loc, AMMPI_SHORT, GASNETE_H_GET, NULL, 0, NULL, NULL, 8,
                           GASNETE_HI(s), GASNETE_LO(s), (int32_t)len, GASNETE_HI(d), GASNETE_LO(d),
                           GASNETE_HI(k), GASNETE_LO(k), use_long);
    }
}

void gasnete_memset(gasneti_op_t *op, gasneti_tm_t tm, gex_Rank_t rank, void *dest, int val,
                    size_t n, const char *call)
{
    gex_EP_Location_t loc = check_remote(call, tm, rank, dest, n, dest);
    GASNETI_TRACE_XFER('P', call, loc.gex_rank, dest, NULL, n);
    if (n == 0) return;
    gasneti_route_t r;
    gasneti_route(loc, &r);
    switch (r.how) {
    case GASNETI_ROUTE_SELF:
        fill(gasneti_mk_lookup(dest, n), dest, val, n);
        return;
    case GASNETI_ROUTE_MAPPED:
        fill(r.mk, (char *)dest + r.offset, val, n);
        __atomic_thread_fence(__ATOMIC_RELEASE);
        return;
    case GASNETI_ROUTE_NET:
        if (!r.net->memset) break; /* the AM path serves memsets */
        if (r.net->memset(loc.gex_rank, gasneti_route_key(&r), dest, val, n, gasneti_counter(op, GASNETI_PUT)))
            gasneti_fatalerror("%s: %s memset of %zu bytes on node %u failed", call, r.net->name,
                               n, loc.gex_rank);
        return;
    case GASNETI_ROUTE_AM:
        break;
    }
    uintptr_t t = gasneti_target(op, GASNETI_PUT);
    gasneti_add(op, GASNETI_PUT, 1);
    uint64_t k = gasnete_ticket_issue(GASNETE_TK_ACK, loc.gex_rank, NULL, 0, t);
    gasnete_am_request(tm, loc, AMMPI_SHORT, GASNETE_H_MEMSET, NULL, 0, NULL, NULL, 7,
                       GASNETE_HI(dest), GASNETE_LO(dest), val, GASNETE_HI(n), GASNETE_LO(n),
                       GASNETE_HI(k), GASNETE_LO(k));
}

void gasnete_put_val(gasneti_op_t *op, gasneti_tm_t tm, gex_Rank_t rank, void *dest,
                     gex_RMA_Value_t value, size_t n, const char *call)
{
    check_val_size(call, n);
    gex_EP_Location_t loc = check_remote(call, tm, rank, dest, n, dest);
    uint64_t bytes = 0;
    store_value(&bytes, value, n); /* the value's n bytes, as they lie in memory */
    GASNETI_TRACE_XFER('P', call, loc.gex_rank, dest, &bytes, n);
    gasneti_route_t r;
    gasneti_route(loc, &r);
    switch (r.how) {
    case GASNETI_ROUTE_SELF:
        write_local(dest, &bytes, n);
        return;
    case GASNETI_ROUTE_MAPPED:
        gasneti_mk_copy(r.mk, (char *)dest + r.offset, NULL, &bytes, n);
        __atomic_thread_fence(__ATOMIC_RELEASE);
        return;
    case GASNETI_ROUTE_NET:
        if (r.net->put(loc.gex_rank, gasneti_route_key(&r), dest, &bytes, n, 0, gasneti_counter(op, GASNETI_PUT)))
            gasneti_fatalerror("%s: %s put of a %zu-byte value to node %u failed", call,
                               r.net->name, n, loc.gex_rank);
        return;
    case GASNETI_ROUTE_AM:
        break;
    }
    uintptr_t t = gasneti_target(op, GASNETI_PUT);
    gasneti_add(op, GASNETI_PUT, 1);
    uint64_t k = gasnete_ticket_issue(GASNETE_TK_ACK, loc.gex_rank, NULL, 0, t);
    gasnete_am_request(tm, loc, AMMPI_SHORT, GASNETE_H_PUT_VAL, NULL, 0, NULL, NULL, 7,
                       GASNETE_HI(dest), GASNETE_LO(dest), GASNETE_HI(value), GASNETE_LO(value),
                       (int32_t)n, GASNETE_HI(k), GASNETE_LO(k));
}

void gasnete_get_val(gasneti_op_t *op, gasneti_tm_t tm, gex_Rank_t rank, void *src, size_t n,
                     const char *call)
{
    check_val_size(call, n);
    gex_EP_Location_t loc = check_remote(call, tm, rank, src, n, src);
    GASNETI_TRACE_XFER('G', call, loc.gex_rank, NULL, src, n);
    uint64_t bytes = 0;
    gasneti_route_t r;
    gasneti_route(loc, &r);
    switch (r.how) {
    case GASNETI_ROUTE_SELF:
        read_local(&bytes, src, n);
        op->value = load_value(&bytes, n);
        return;
    case GASNETI_ROUTE_MAPPED:
        __atomic_thread_fence(__ATOMIC_ACQUIRE);
        gasneti_mk_copy(NULL, &bytes, r.mk, (const char *)src + r.offset, n);
        op->value = load_value(&bytes, n);
        return;
    case GASNETI_ROUTE_NET: {
        /* the value's low-order bytes, zero-extended */
        op->value = 0;
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        char *low = (char *)&op->value + sizeof op->value - n;
#else
        char *low = (char *)&op->value;
#endif
        if (r.net->get(low, loc.gex_rank, gasneti_route_key(&r), src, n, gasneti_counter(op, GASNETI_GET)))
            gasneti_fatalerror("%s: %s get of a %zu-byte value from node %u failed", call,
                               r.net->name, n, loc.gex_rank);
        return;
    }
    case GASNETI_ROUTE_AM:
        break;
    }
    uintptr_t t = gasneti_target(op, GASNETI_GET);
    gasneti_add(op, GASNETI_GET, 1);
    uint64_t k = gasnete_ticket_issue(GASNETE_TK_GET_VAL, loc.gex_rank, NULL, n, t);
    gasnete_am_request(tm, loc, AMMPI_SHORT, GASNETE_H_GET_VAL, NULL, 0, NULL, NULL, 5,
                       GASNETE_HI(src), GASNETE_LO(src), (int32_t)n, GASNETE_HI(k), GASNETE_LO(k));
}

/* ---- handlers (run by ammpi with an ammpi token) */

static int source(ammpi_token_t tok)
{
    int src = -1;
    ammpi_token_source(tok, &src);
    return src;
}

static void ack(ammpi_token_t tok, int32_t t_hi, int32_t t_lo)
{
    gasnete_am_reply(tok, AMMPI_SHORT, GASNETE_H_ACK, NULL, 0, NULL, 2, t_hi, t_lo);
}

static void put_medium_h(ammpi_token_t tok, void *buf, size_t n, int32_t d_hi, int32_t d_lo,
                         int32_t t_hi, int32_t t_lo)
{
    write_local(check_local(tok, "a put", GASNETE_PTR(d_hi, d_lo), n), buf, n);
    ack(tok, t_hi, t_lo);
}

static void put_long_h(ammpi_token_t tok, void *buf, size_t n, int32_t t_hi, int32_t t_lo)
{
    (void)buf; /* the transport checked and wrote the range */
    (void)n;
    ack(tok, t_hi, t_lo);
}

static void ack_h(ammpi_token_t tok, int32_t k_hi, int32_t k_lo)
{
    gasneti_complete_kept(gasnete_ticket_redeem(k_hi, k_lo, GASNETE_TK_ACK, source(tok), "a put's ack").target);
}

static void get_h(ammpi_token_t tok, int32_t s_hi, int32_t s_lo, int32_t n, int32_t d_hi,
                  int32_t d_lo, int32_t t_hi, int32_t t_lo, int32_t use_long)
{
    size_t len = (size_t)(uint32_t)n;
    if (len > GASNETI_AM_MAX_PAYLOAD)
        gasneti_fatalerror("a get from node %d asks for %zu bytes in one piece", source(tok), len);
    void *src = check_local(tok, "a get", GASNETE_PTR(s_hi, s_lo), len);
    gasneti_mk_t smk = gasneti_mk_lookup(src, len);
    if (smk) { /* staged: the Medium reply's payload is copied before it returns */
        char *bounce = malloc(len ? len : 1);
        if (!bounce) gasneti_fatalerror("out of memory staging a get from device memory");
        gasneti_mk_copy(NULL, bounce, smk, src, len);
        gasnete_am_reply(tok, AMMPI_MEDIUM, GASNETE_H_GET_MEDIUM_REPLY, bounce, len, NULL, 2, t_hi,
                         t_lo);
        free(bounce);
    } else if (use_long)
        gasnete_am_reply(tok, AMMPI_LONG, GASNETE_H_GET_LONG_REPLY, src, len, GASNETE_PTR(d_hi, d_lo),
                         2, t_hi, t_lo);
    else
        gasnete_am_reply(tok, AMMPI_MEDIUM, GASNETE_H_GET_MEDIUM_REPLY, src, len, NULL, 2, t_hi,
                         t_lo);
}

/* A get's piece comes back whole: the bytes the ticket asked for, where
 * it said (a Long reply's destination was checked to lie in the segment
 * by ammpi; here it must be the piece's own). */
static void get_medium_reply_h(ammpi_token_t tok, void *buf, size_t n, int32_t k_hi, int32_t k_lo)
{
    int src = source(tok);
    gasnete_ticket_t k = gasnete_ticket_redeem(k_hi, k_lo, GASNETE_TK_GET, src, "a get's Medium reply");
    if (n != k.len)
        gasneti_fatalerror("a get's Medium reply from node %d brings %zu bytes to a piece of %zu",
                           src, n, k.len);
    write_local(k.ptr, buf, n);
    gasneti_complete_kept(k.target);
}

static void get_long_reply_h(ammpi_token_t tok, void *buf, size_t n, int32_t k_hi, int32_t k_lo)
{
    int src = source(tok);
    gasnete_ticket_t k = gasnete_ticket_redeem(k_hi, k_lo, GASNETE_TK_GET, src, "a get's Long reply");
    if (buf != k.ptr || n != k.len)
        gasneti_fatalerror("a get's Long reply from node %d wrote [%p, +%zu), not its piece "
                           "[%p, +%zu)", src, buf, n, k.ptr, k.len);
    gasneti_complete_kept(k.target);
}

static void memset_h(ammpi_token_t tok, int32_t d_hi, int32_t d_lo, int32_t val, int32_t n_hi,
                     int32_t n_lo, int32_t t_hi, int32_t t_lo)
{
    size_t n = (size_t)GASNETE_U64(n_hi, n_lo);
    char *dest = check_local(tok, "a memset", GASNETE_PTR(d_hi, d_lo), n);
    if (n) fill(gasneti_mk_lookup(dest, n), dest, val, n); /* an empty one may name any address */
    ack(tok, t_hi, t_lo);
}

static void put_val_h(ammpi_token_t tok, int32_t d_hi, int32_t d_lo, int32_t v_hi, int32_t v_lo,
                      int32_t n, int32_t t_hi, int32_t t_lo)
{
    size_t len = (size_t)(uint32_t)n;
    if (len == 0 || len > 8) gasneti_fatalerror("a put_val from node %d carries %zu bytes", source(tok), len);
    uint64_t bytes = 0;
    store_value(&bytes, GASNETE_U64(v_hi, v_lo), len);
    write_local(check_local(tok, "a put_val", GASNETE_PTR(d_hi, d_lo), len), &bytes, len);
    ack(tok, t_hi, t_lo);
}

static void get_val_h(ammpi_token_t tok, int32_t s_hi, int32_t s_lo, int32_t n, int32_t t_hi,
                      int32_t t_lo)
{
    size_t len = (size_t)(uint32_t)n;
    if (len == 0 || len > 8)
        gasneti_fatalerror("a get_val from node %d asks for %zu bytes", source(tok), len);
    uint64_t bytes = 0;
    read_local(&bytes, check_local(tok, "a get_val", GASNETE_PTR(s_hi, s_lo), len), len);
    uint64_t v = load_value(&bytes, len);
    gasnete_am_reply(tok, AMMPI_SHORT, GASNETE_H_GET_VAL_REPLY, NULL, 0, NULL, 4, GASNETE_HI(v),
                     GASNETE_LO(v), t_hi, t_lo);
}

static void get_val_reply_h(ammpi_token_t tok, int32_t v_hi, int32_t v_lo, int32_t k_hi,
                            int32_t k_lo)
{
    gasnete_ticket_t k = gasnete_ticket_redeem(k_hi, k_lo, GASNETE_TK_GET_VAL, source(tok),
                                               "a value get's reply");
    gasneti_target_record(k.target)->value = GASNETE_U64(v_hi, v_lo);
    gasneti_complete_kept(k.target);
}

#define REQ(index, fn, cat, n) {index, (ammpi_handler_fn)(fn), (cat) | AMMPI_REQUEST, n}
#define REP(index, fn, cat, n) {index, (ammpi_handler_fn)(fn), (cat) | AMMPI_REPLY, n}
static const gasneti_handler_t handlers[] = {
    REQ(GASNETE_H_PUT_MEDIUM, put_medium_h, AMMPI_MEDIUM, 4),
    REQ(GASNETE_H_PUT_LONG, put_long_h, AMMPI_LONG, 2),
    REP(GASNETE_H_ACK, ack_h, AMMPI_SHORT, 2),
    REQ(GASNETE_H_GET, get_h, AMMPI_SHORT, 8),
    REP(GASNETE_H_GET_MEDIUM_REPLY, get_medium_reply_h, AMMPI_MEDIUM, 2),
    REP(GASNETE_H_GET_LONG_REPLY, get_long_reply_h, AMMPI_LONG, 2),
    REQ(GASNETE_H_MEMSET, memset_h, AMMPI_SHORT, 7),
    REQ(GASNETE_H_PUT_VAL, put_val_h, AMMPI_SHORT, 7),
    REQ(GASNETE_H_GET_VAL, get_val_h, AMMPI_SHORT, 5),
    REP(GASNETE_H_GET_VAL_REPLY, get_val_reply_h, AMMPI_SHORT, 4),
    {0, NULL, 0, 0},
};

const gasneti_layer_t gasnete_putget_layer = {
    .name = "putget",
    .init = putget_init,
    .handlers = handlers,
};
