/* The GASNet-1 extended API (spec 7) as calls on the legacy team: the
 * same protocols as the EX calls (gex_rma.c), under their GASNet-1 names,
 * so a message about a bad argument names the call the client made. Puts
 * and gets come here (as gasnete_g1_*) when gasnet.h's on-node fast path
 * does not apply.
 * Bulk puts defer the source's local completion to the operation's; the
 * others complete it before returning. try_syncs poll once, then test.
 */
#include "extended.h"

static gasneti_tm_t legacy_tm(const char *call)
{
    GASNETI_CHECK_ATTACHED(call);
    return gasneti_tm0;
}

#define BLOCKING(call, start)                      \
    do {                                           \
        gasneti_op_t op = GASNETI_OP_INIT;         \
        gasneti_tm_t tm = legacy_tm(call);         \
        start;                                     \
        gasneti_wait(&op, call);                   \
    } while (0)

#define EXPLICIT(call, start)                      \
    do {                                           \
        gasneti_tm_t tm = legacy_tm(call);         \
        gasneti_op_t *op = gasneti_op_alloc(OP_EOP); \
        start;                                     \
        return gasneti_event_of(op);               \
    } while (0)

#define IMPLICIT(call, start)                      \
    do {                                           \
        gasneti_tm_t tm = legacy_tm(call);         \
        gasneti_op_t *op = gasneti_nbi_op();       \
        start;                                     \
    } while (0)

void gasnete_g1_get(void *dest, gasnet_node_t node, void *src, size_t n)
{
    BLOCKING("gasnet_get", gasnete_get(&op, tm, dest, node, src, n, "gasnet_get"));
}

void gasnete_g1_put(gasnet_node_t node, void *dest, void *src, size_t n)
{
    BLOCKING("gasnet_put", gasnete_put(&op, tm, node, dest, src, n, LC_NOW, NULL, "gasnet_put"));
}

void gasnete_g1_get_bulk(void *dest, gasnet_node_t node, void *src, size_t n)
{
    BLOCKING("gasnet_get_bulk", gasnete_get(&op, tm, dest, node, src, n, "gasnet_get_bulk"));
}

void gasnete_g1_put_bulk(gasnet_node_t node, void *dest, void *src, size_t n)
{
    BLOCKING("gasnet_put_bulk",
             gasnete_put(&op, tm, node, dest, src, n, LC_DEFER, NULL, "gasnet_put_bulk"));
}

void gasnet_memset(gasnet_node_t node, void *dest, int val, size_t n)
{
    BLOCKING("gasnet_memset", gasnete_memset(&op, tm, node, dest, val, n, "gasnet_memset"));
}

gasnet_handle_t gasnete_g1_get_nb(void *dest, gasnet_node_t node, void *src, size_t n)
{
    EXPLICIT("gasnet_get_nb", gasnete_get(op, tm, dest, node, src, n, "gasnet_get_nb"));
}

gasnet_handle_t gasnete_g1_put_nb(gasnet_node_t node, void *dest, void *src, size_t n)
{
    EXPLICIT("gasnet_put_nb", gasnete_put(op, tm, node, dest, src, n, LC_NOW, NULL, "gasnet_put_nb"));
}

gasnet_handle_t gasnete_g1_get_nb_bulk(void *dest, gasnet_node_t node, void *src, size_t n)
{
    EXPLICIT("gasnet_get_nb_bulk", gasnete_get(op, tm, dest, node, src, n, "gasnet_get_nb_bulk"));
}

gasnet_handle_t gasnete_g1_put_nb_bulk(gasnet_node_t node, void *dest, void *src, size_t n)
{
    EXPLICIT("gasnet_put_nb_bulk",
             gasnete_put(op, tm, node, dest, src, n, LC_DEFER, NULL, "gasnet_put_nb_bulk"));
}

gasnet_handle_t gasnet_memset_nb(gasnet_node_t node, void *dest, int val, size_t n)
{
    EXPLICIT("gasnet_memset_nb", gasnete_memset(op, tm, node, dest, val, n, "gasnet_memset_nb"));
}

void gasnete_g1_get_nbi(void *dest, gasnet_node_t node, void *src, size_t n)
{
    IMPLICIT("gasnet_get_nbi", gasnete_get(op, tm, dest, node, src, n, "gasnet_get_nbi"));
}

void gasnete_g1_put_nbi(gasnet_node_t node, void *dest, void *src, size_t n)
{
    IMPLICIT("gasnet_put_nbi", gasnete_put(op, tm, node, dest, src, n, LC_NOW, NULL, "gasnet_put_nbi"));
}

void gasnete_g1_get_nbi_bulk(void *dest, gasnet_node_t node, void *src, size_t n)
{
    IMPLICIT("gasnet_get_nbi_bulk", gasnete_get(op, tm, dest, node, src, n, "gasnet_get_nbi_bulk"));
}

void gasnete_g1_put_nbi_bulk(gasnet_node_t node, void *dest, void *src, size_t n)
{
    IMPLICIT("gasnet_put_nbi_bulk",
             gasnete_put(op, tm, node, dest, src, n, LC_DEFER, NULL, "gasnet_put_nbi_bulk"));
}

void gasnet_memset_nbi(gasnet_node_t node, void *dest, int val, size_t n)
{
    IMPLICIT("gasnet_memset_nbi", gasnete_memset(op, tm, node, dest, val, n, "gasnet_memset_nbi"));
}

/* ---- register values */

void gasnet_put_val(gasnet_node_t node, void *dest, gasnet_register_value_t value, size_t n)
{
    BLOCKING("gasnet_put_val", gasnete_put_val(&op, tm, node, dest, value, n, "gasnet_put_val"));
}

gasnet_handle_t gasnet_put_nb_val(gasnet_node_t node, void *dest, gasnet_register_value_t value,
                                  size_t n)
{
    EXPLICIT("gasnet_put_nb_val", gasnete_put_val(op, tm, node, dest, value, n, "gasnet_put_nb_val"));
}

void gasnet_put_nbi_val(gasnet_node_t node, void *dest, gasnet_register_value_t value, size_t n)
{
    IMPLICIT("gasnet_put_nbi_val", gasnete_put_val(op, tm, node, dest, value, n, "gasnet_put_nbi_val"));
}

gasnet_register_value_t gasnet_get_val(gasnet_node_t node, void *src, size_t n)
{
    gasneti_op_t op = GASNETI_OP_INIT;
    gasnete_get_val(&op, legacy_tm("gasnet_get_val"), node, src, n, "gasnet_get_val");
    gasneti_wait(&op, "gasnet_get_val");
    return op.value;
}

gasnet_valget_handle_t gasnet_get_nb_val(gasnet_node_t node, void *src, size_t n)
{
    gasneti_tm_t tm = legacy_tm("gasnet_get_nb_val");
    gasneti_op_t *op = gasneti_op_alloc(OP_EOP);
    gasnete_get_val(op, tm, node, src, n, "gasnet_get_nb_val");
    return (gasnet_valget_handle_t)op;
}

gasnet_register_value_t gasnet_wait_syncnb_valget(gasnet_valget_handle_t handle)
{
    const char *call = "gasnet_wait_syncnb_valget";
    gasneti_op_t *op = gasneti_check_event((gex_Event_t)handle, call);
    gasneti_wait(op, call);
    gasnet_register_value_t v = op->value;
    gasneti_op_free(op);
    return v;
}

/* ---- synchronisation */

static void poll_once(const char *call)
{
    GASNETI_CHECK_ATTACHED(call);
    GASNETI_CHECK_MAY_POLL(call);
    gasneti_poll();
}

void gasnet_wait_syncnb(gasnet_handle_t h) { gasneti_wait_one(h, "gasnet_wait_syncnb"); }
int gasnet_try_syncnb_nopoll(gasnet_handle_t h) { return gasneti_test_one(h, "gasnet_try_syncnb"); }

int gasnet_try_syncnb(gasnet_handle_t h)
{
    poll_once("gasnet_try_syncnb");
    return gasneti_test_one(h, "gasnet_try_syncnb");
}

void gasnet_wait_syncnb_all(gasnet_handle_t *hs, size_t n) { gasneti_wait_all(hs, n, "gasnet_wait_syncnb_all"); }
void gasnet_wait_syncnb_some(gasnet_handle_t *hs, size_t n) { gasneti_wait_some(hs, n, "gasnet_wait_syncnb_some"); }

int gasnet_try_syncnb_all_nopoll(gasnet_handle_t *hs, size_t n)
{
    return gasneti_test_all(hs, n, "gasnet_try_syncnb_all");
}

int gasnet_try_syncnb_all(gasnet_handle_t *hs, size_t n)
{
    poll_once("gasnet_try_syncnb_all");
    return gasneti_test_all(hs, n, "gasnet_try_syncnb_all");
}

int gasnet_try_syncnb_some_nopoll(gasnet_handle_t *hs, size_t n)
{
    return gasneti_test_some(hs, n, "gasnet_try_syncnb_some");
}

int gasnet_try_syncnb_some(gasnet_handle_t *hs, size_t n)
{
    poll_once("gasnet_try_syncnb_some");
    return gasneti_test_some(hs, n, "gasnet_try_syncnb_some");
}

void gasnet_wait_syncnbi_gets(void) { gasneti_nbi_wait(GEX_EC_GET, "gasnet_wait_syncnbi_gets"); }
void gasnet_wait_syncnbi_puts(void) { gasneti_nbi_wait(GEX_EC_PUT, "gasnet_wait_syncnbi_puts"); }
void gasnet_wait_syncnbi_all(void) { gasneti_nbi_wait(GEX_EC_ALL, "gasnet_wait_syncnbi_all"); }

static int try_nbi(gex_EC_t mask, const char *call)
{
    if (gasneti_in_access_region()) return gasneti_nbi_test(mask, call); /* fatal there */
    poll_once(call);
    return gasneti_nbi_test(mask, call);
}

int gasnet_try_syncnbi_gets(void) { return try_nbi(GEX_EC_GET, "gasnet_try_syncnbi_gets"); }
int gasnet_try_syncnbi_puts(void) { return try_nbi(GEX_EC_PUT, "gasnet_try_syncnbi_puts"); }
int gasnet_try_syncnbi_all(void) { return try_nbi(GEX_EC_ALL, "gasnet_try_syncnbi_all"); }

void gasnet_begin_nbi_accessregion(void) { gasneti_begin_region("gasnet_begin_nbi_accessregion"); }
gasnet_handle_t gasnet_end_nbi_accessregion(void) { return gasneti_end_region("gasnet_end_nbi_accessregion"); }
