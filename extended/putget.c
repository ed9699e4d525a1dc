/* Put, get and memset protocols over the core AM API, after the seed's
 * extended-ref design:
 *
 *   put   n <= GASNET_PUT_MEDIUM_MAX   one Medium request carrying the data
 *         larger                      Long requests of up to MaxLongRequest
 *                                     (LongAsync for bulk puts, whose source
 *                                     need not be reusable before the sync)
 *   get   any size                    Short requests, each answered by up to
 *                                     MaxMedium bytes: a Long reply straight
 *                                     into the destination when it lies in
 *                                     the local segment, else a Medium reply
 *   memset, put_val, get_val          one Short request, answered by a Short
 *
 * Every request names a completion target (extended.h) that its reply
 * echoes; the reply handler completes it. A transfer to the calling node is
 * a plain copy with no message; a peer served by a native RMA backend
 * (core-native/rma.h) gets the backend's put and get instead of AMs. Remote ranges are checked at initiation
 * and again by the handler on the target, which trusts nothing from the
 * wire.
 */
#include "extended.h"
#include "rma.h"

#include <string.h>

static size_t put_medium_max;
static int get_long_reply;
#define PUT_CHUNK gasnet_AMMaxLongRequest()
#define GET_CHUNK (gasnet_AMMaxMedium() & ~(size_t)63)

void gasnete_putget_init(void)
{
    put_medium_max = (size_t)gasneti_getenv_size("GASNET_PUT_MEDIUM_MAX", 512);
    if (put_medium_max > gasnet_AMMaxMedium())
        gasneti_fatalerror("GASNET_PUT_MEDIUM_MAX=%zu exceeds gasnet_AMMaxMedium() = %zu",
                           put_medium_max, gasnet_AMMaxMedium());
    get_long_reply = gasneti_getenv_yesno("GASNET_GET_LONG_REPLY", 1);
}

void gasnete_complete(uintptr_t target)
{
    gasnete_op_t *op = (gasnete_op_t *)(target & ~(uintptr_t)1);
    if (((uintptr_t)op & 7) || !op || op->magic != OP_MAGIC)
        gasneti_fatalerror("a reply completes %p, which is not an operation of this node",
                           (void *)op);
    uint32_t was = __atomic_fetch_sub(gasnete_counter(op, (int)(target & 1)), 1, __ATOMIC_RELEASE);
    if (was == 0) gasneti_fatalerror("a reply completes operation %p more often than it was split",
                                     (void *)op);
}

static void check_remote(const char *call, gasnet_node_t node, const void *raddr, size_t n,
                         const void *laddr)
{
    GASNETI_CHECK_ATTACHED(call);
    GASNETI_CHECK_MAY_COMMUNICATE(call);
    if (node >= gasneti_nodes)
        gasneti_fatalerror("%s: node %u is not in the job (%u nodes)", call, node, gasneti_nodes);
    /* remote first: calls without a local buffer pass the remote address */
    if (n && !gasneti_in_segment(node, raddr, n))
        gasneti_fatalerror("%s: remote range [%p, +%zu) lies outside node %u's segment [%p, +%lu)",
                           call, raddr, n, node, gasneti_seginfo[node].addr,
                           (unsigned long)gasneti_seginfo[node].size);
    if (n && !laddr) gasneti_fatalerror("%s: NULL local address for %zu bytes", call, n);
}

/* On the target: a range named by a peer must lie in this node's segment. */
static void *check_local(gasnet_token_t tok, const char *what, void *addr, size_t n)
{
    if (n && !gasneti_in_segment(gasneti_mynode, addr, n)) {
        gasnet_node_t src = 0;
        gasnet_AMGetMsgSource(tok, &src);
        gasneti_fatalerror("%s from node %u names [%p, +%zu), outside this node's segment", what,
                           src, addr, n);
    }
    return addr;
}

static void must(int rc, const char *call)
{
    if (rc != GASNET_OK) gasneti_fatalerror("%s: AM request failed: %s", call, gasnet_ErrorName(rc));
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

/* ---- initiators */

void gasnete_put(gasnete_op_t *op, gasnet_node_t node, void *dest, void *src, size_t n, int bulk,
                 const char *call)
{
    check_remote(call, node, dest, n, src);
    if (n == 0) return;
    if (node == gasneti_mynode) {
        memcpy(dest, src, n);
        return;
    }
    const gasneti_rma_t *b = gasneti_rma_for[node];
    if (b) {
        if (b->put(node, dest, src, n, bulk, gasnete_counter(op, 0)))
            gasneti_fatalerror("%s: %s put of %zu bytes to node %u failed", call, b->name, n, node);
        return;
    }
    uintptr_t t = gasnete_target(op, 0);
    if (n <= put_medium_max) {
        gasnete_add(op, 0, 1);
        must(gasnet_AMRequestMedium4(node, GASNETE_H_PUT_MEDIUM, src, n, GASNETE_HI(dest),
                                     GASNETE_LO(dest), GASNETE_HI(t), GASNETE_LO(t)), call);
        return;
    }
    size_t pieces = (n + PUT_CHUNK - 1) / PUT_CHUNK;
    gasnete_add(op, 0, (uint32_t)pieces);
    for (size_t off = 0; off < n; off += PUT_CHUNK) {
        size_t len = n - off < PUT_CHUNK ? n - off : PUT_CHUNK;
        char *s = (char *)src + off, *d = (char *)dest + off;
        must(bulk ? gasnet_AMRequestLongAsync2(node, GASNETE_H_PUT_LONG, s, len, d,
                                                GASNETE_HI(t), GASNETE_LO(t))
                  : gasnet_AMRequestLong2(node, GASNETE_H_PUT_LONG, s, len, d, GASNETE_HI(t),
                                          GASNETE_LO(t)), call);
    }
}

void gasnete_get(gasnete_op_t *op, void *dest, gasnet_node_t node, void *src, size_t n,
                 const char *call)
{
    check_remote(call, node, src, n, dest);
    if (n == 0) return;
    if (node == gasneti_mynode) {
        memcpy(dest, src, n);
        return;
    }
    const gasneti_rma_t *b = gasneti_rma_for[node];
    if (b) {
        if (b->get(dest, node, src, n, gasnete_counter(op, 1)))
            gasneti_fatalerror("%s: %s get of %zu bytes from node %u failed", call, b->name, n, node);
        return;
    }
    uintptr_t t = gasnete_target(op, 1);
    int use_long = get_long_reply && gasneti_in_segment(gasneti_mynode, dest, n);
    gasnete_add(op, 1, (uint32_t)((n + GET_CHUNK - 1) / GET_CHUNK));
    for (size_t off = 0; off < n; off += GET_CHUNK) {
        size_t len = n - off < GET_CHUNK ? n - off : GET_CHUNK;
        char *s = (char *)src + off, *d = (char *)dest + off;
        must(gasnet_AMRequestShort8(node, GASNETE_H_GET, GASNETE_HI(s), GASNETE_LO(s), len,
                                    GASNETE_HI(d), GASNETE_LO(d), GASNETE_HI(t), GASNETE_LO(t),
                                    use_long), call);
    }
}

void gasnete_memset(gasnete_op_t *op, gasnet_node_t node, void *dest, int val, size_t n,
                    const char *call)
{
    check_remote(call, node, dest, n, dest);
    if (n == 0) return;
    if (node == gasneti_mynode) {
        memset(dest, val, n);
        return;
    }
    const gasneti_rma_t *b = gasneti_rma_for[node];
    if (b && b->memset) {
        if (b->memset(node, dest, val, n, gasnete_counter(op, 0)))
            gasneti_fatalerror("%s: %s memset of %zu bytes on node %u failed", call, b->name, n, node);
        return;
    }
    uintptr_t t = gasnete_target(op, 0);
    gasnete_add(op, 0, 1);
    must(gasnet_AMRequestShort7(node, GASNETE_H_MEMSET, GASNETE_HI(dest), GASNETE_LO(dest), val,
                                GASNETE_HI(n), GASNETE_LO(n), GASNETE_HI(t), GASNETE_LO(t)), call);
}

static void check_val_size(const char *call, size_t n)
{
    if (n == 0 || n > SIZEOF_GASNET_REGISTER_VALUE_T)
        gasneti_fatalerror("%s: nbytes = %zu, must be 1..%d", call, n,
                           SIZEOF_GASNET_REGISTER_VALUE_T);
}

void gasnete_put_val(gasnete_op_t *op, gasnet_node_t node, void *dest,
                     gasnet_register_value_t value, size_t n, const char *call)
{
    check_val_size(call, n);
    check_remote(call, node, dest, n, dest);
    if (node == gasneti_mynode) {
        store_value(dest, value, n);
        return;
    }
    const gasneti_rma_t *b = gasneti_rma_for[node];
    if (b) {
        uint64_t bytes = 0;
        store_value(&bytes, value, n); /* the value's n bytes, as they lie in memory */
        if (b->put(node, dest, &bytes, n, 0, gasnete_counter(op, 0)))
            gasneti_fatalerror("%s: %s put of a %zu-byte value to node %u failed", call, b->name,
                               n, node);
        return;
    }
    uintptr_t t = gasnete_target(op, 0);
    gasnete_add(op, 0, 1);
    must(gasnet_AMRequestShort7(node, GASNETE_H_PUT_VAL, GASNETE_HI(dest), GASNETE_LO(dest),
                                GASNETE_HI(value), GASNETE_LO(value), n, GASNETE_HI(t),
                                GASNETE_LO(t)), call);
}

void gasnete_get_val(gasnete_op_t *op, gasnet_node_t node, void *src, size_t n, const char *call)
{
    check_val_size(call, n);
    check_remote(call, node, src, n, src);
    if (node == gasneti_mynode) {
        op->value = load_value(src, n);
        return;
    }
    const gasneti_rma_t *b = gasneti_rma_for[node];
    if (b) {
        /* the value's low-order bytes, zero-extended */
        op->value = 0;
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        char *low = (char *)&op->value + sizeof op->value - n;
#else
        char *low = (char *)&op->value;
#endif
        if (b->get(low, node, src, n, gasnete_counter(op, 0)))
            gasneti_fatalerror("%s: %s get of a %zu-byte value from node %u failed", call, b->name,
                               n, node);
        return;
    }
    uintptr_t t = gasnete_target(op, 0);
    gasnete_add(op, 0, 1);
    must(gasnet_AMRequestShort5(node, GASNETE_H_GET_VAL, GASNETE_HI(src), GASNETE_LO(src), n,
                                GASNETE_HI(t), GASNETE_LO(t)), call);
}

/* ---- handlers */

static void ack(gasnet_token_t tok, gasnet_handlerarg_t t_hi, gasnet_handlerarg_t t_lo)
{
    must(gasnet_AMReplyShort2(tok, GASNETE_H_ACK, t_hi, t_lo), "put reply");
}

static void put_medium_h(gasnet_token_t tok, void *buf, size_t n, gasnet_handlerarg_t d_hi,
                         gasnet_handlerarg_t d_lo, gasnet_handlerarg_t t_hi,
                         gasnet_handlerarg_t t_lo)
{
    memcpy(check_local(tok, "a put", GASNETE_PTR(d_hi, d_lo), n), buf, n);
    ack(tok, t_hi, t_lo);
}

static void put_long_h(gasnet_token_t tok, void *buf, size_t n, gasnet_handlerarg_t t_hi,
                       gasnet_handlerarg_t t_lo)
{
    (void)buf; /* the transport checked and wrote the range */
    (void)n;
    ack(tok, t_hi, t_lo);
}

static void ack_h(gasnet_token_t tok, gasnet_handlerarg_t t_hi, gasnet_handlerarg_t t_lo)
{
    (void)tok;
    gasnete_complete((uintptr_t)GASNETE_U64(t_hi, t_lo));
}

static void get_h(gasnet_token_t tok, gasnet_handlerarg_t s_hi, gasnet_handlerarg_t s_lo,
                  gasnet_handlerarg_t n, gasnet_handlerarg_t d_hi, gasnet_handlerarg_t d_lo,
                  gasnet_handlerarg_t t_hi, gasnet_handlerarg_t t_lo, gasnet_handlerarg_t use_long)
{
    size_t len = (size_t)(uint32_t)n;
    if (len > gasnet_AMMaxMedium()) gasneti_fatalerror("a get asks for %zu bytes in one piece", len);
    void *src = check_local(tok, "a get", GASNETE_PTR(s_hi, s_lo), len);
    if (use_long)
        must(gasnet_AMReplyLong2(tok, GASNETE_H_GET_LONG_REPLY, src, len, GASNETE_PTR(d_hi, d_lo),
                                 t_hi, t_lo), "get reply");
    else
        must(gasnet_AMReplyMedium4(tok, GASNETE_H_GET_MEDIUM_REPLY, src, len, d_hi, d_lo, t_hi,
                                   t_lo), "get reply");
}

static void get_medium_reply_h(gasnet_token_t tok, void *buf, size_t n, gasnet_handlerarg_t d_hi,
                               gasnet_handlerarg_t d_lo, gasnet_handlerarg_t t_hi,
                               gasnet_handlerarg_t t_lo)
{
    (void)tok;
    memcpy(GASNETE_PTR(d_hi, d_lo), buf, n);
    gasnete_complete((uintptr_t)GASNETE_U64(t_hi, t_lo));
}

static void get_long_reply_h(gasnet_token_t tok, void *buf, size_t n, gasnet_handlerarg_t t_hi,
                             gasnet_handlerarg_t t_lo)
{
    (void)tok;
    (void)buf;
    (void)n;
    gasnete_complete((uintptr_t)GASNETE_U64(t_hi, t_lo));
}

static void memset_h(gasnet_token_t tok, gasnet_handlerarg_t d_hi, gasnet_handlerarg_t d_lo,
                     gasnet_handlerarg_t val, gasnet_handlerarg_t n_hi, gasnet_handlerarg_t n_lo,
                     gasnet_handlerarg_t t_hi, gasnet_handlerarg_t t_lo)
{
    size_t n = (size_t)GASNETE_U64(n_hi, n_lo);
    memset(check_local(tok, "a memset", GASNETE_PTR(d_hi, d_lo), n), val, n);
    ack(tok, t_hi, t_lo);
}

static void put_val_h(gasnet_token_t tok, gasnet_handlerarg_t d_hi, gasnet_handlerarg_t d_lo,
                      gasnet_handlerarg_t v_hi, gasnet_handlerarg_t v_lo, gasnet_handlerarg_t n,
                      gasnet_handlerarg_t t_hi, gasnet_handlerarg_t t_lo)
{
    size_t len = (size_t)(uint32_t)n;
    if (len == 0 || len > 8) gasneti_fatalerror("a put_val carries %zu bytes", len);
    store_value(check_local(tok, "a put_val", GASNETE_PTR(d_hi, d_lo), len),
                GASNETE_U64(v_hi, v_lo), len);
    ack(tok, t_hi, t_lo);
}

static void get_val_h(gasnet_token_t tok, gasnet_handlerarg_t s_hi, gasnet_handlerarg_t s_lo,
                      gasnet_handlerarg_t n, gasnet_handlerarg_t t_hi, gasnet_handlerarg_t t_lo)
{
    size_t len = (size_t)(uint32_t)n;
    if (len == 0 || len > 8) gasneti_fatalerror("a get_val asks for %zu bytes", len);
    uint64_t v = load_value(check_local(tok, "a get_val", GASNETE_PTR(s_hi, s_lo), len), len);
    must(gasnet_AMReplyShort4(tok, GASNETE_H_GET_VAL_REPLY, GASNETE_HI(v), GASNETE_LO(v), t_hi,
                              t_lo), "get_val reply");
}

static void get_val_reply_h(gasnet_token_t tok, gasnet_handlerarg_t v_hi,
                            gasnet_handlerarg_t v_lo, gasnet_handlerarg_t t_hi,
                            gasnet_handlerarg_t t_lo)
{
    (void)tok;
    uintptr_t t = (uintptr_t)GASNETE_U64(t_hi, t_lo);
    gasnete_op_t *op = (gasnete_op_t *)(t & ~(uintptr_t)1);
    if (((uintptr_t)op & 7) || !op || op->magic != OP_MAGIC)
        gasneti_fatalerror("a get_val reply names %p, which is not an operation of this node",
                           (void *)op);
    op->value = GASNETE_U64(v_hi, v_lo);
    gasnete_complete(t);
}

#define H(index, fn) {index, (ammpi_handler_fn)(fn)}
const gasneti_handler_t gasnete_handlers[] = {
    H(GASNETE_H_PUT_MEDIUM, put_medium_h),
    H(GASNETE_H_PUT_LONG, put_long_h),
    H(GASNETE_H_ACK, ack_h),
    H(GASNETE_H_GET, get_h),
    H(GASNETE_H_GET_MEDIUM_REPLY, get_medium_reply_h),
    H(GASNETE_H_GET_LONG_REPLY, get_long_reply_h),
    H(GASNETE_H_MEMSET, memset_h),
    H(GASNETE_H_PUT_VAL, put_val_h),
    H(GASNETE_H_GET_VAL, get_val_h),
    H(GASNETE_H_GET_VAL_REPLY, get_val_reply_h),
    {0, NULL},
};
