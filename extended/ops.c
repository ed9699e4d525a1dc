/* The extended API's entry points: blocking, explicit-handle (nb) and
 * implicit-handle (nbi) puts, gets and memsets, register-value forms,
 * synchronisation and access regions, over the protocols of putget.c.
 *
 * Per-thread state (threaded builds keep one per thread): a free list of
 * operation records, the default implicit op counting this thread's nbi
 * operations, and the access region open, if any. A handle is a pointer
 * to an op record; it returns to its thread's free list when synced.
 * Memory: 32 bytes per live explicit handle or access region, allocated in
 * slabs of 128 and reused (a thread that exits leaves its free records to
 * the others); nbi operations cost nothing once issued.
 */
#include "extended.h"
#include "rma.h"

#include <stdlib.h>

typedef struct {
    gasnete_op_t *free;       /* op records ready for reuse */
    gasnete_op_t default_iop; /* nbi operations outside access regions */
    gasnete_op_t *region;     /* the open access region, or NULL */
} threaddata_t;

static __thread threaddata_t td = {NULL, {0, 0, OP_MAGIC, OP_IOP, 1, NULL, 0}, NULL};

/* Records a thread leaves behind when it exits, for other threads to reuse. */
static gasnete_op_t *spare;
static pthread_mutex_t spare_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_key_t exit_key;
static pthread_once_t exit_key_once = PTHREAD_ONCE_INIT;

static void donate_free_list(void *unused)
{
    (void)unused;
    pthread_mutex_lock(&spare_lock);
    while (td.free) {
        gasnete_op_t *op = td.free;
        td.free = op->next;
        op->next = spare;
        spare = op;
    }
    pthread_mutex_unlock(&spare_lock);
}

static void make_exit_key(void) { pthread_key_create(&exit_key, donate_free_list); }

#define SLAB 128

/* Refills this thread's free list: from what exited threads left, else a
 * new slab of SLAB records. */
static void refill(void)
{
    pthread_once(&exit_key_once, make_exit_key);
    pthread_setspecific(exit_key, &td); /* any non-NULL value: run the destructor */
    pthread_mutex_lock(&spare_lock);
    for (int i = 0; spare && i < SLAB; i++) {
        gasnete_op_t *op = spare;
        spare = op->next;
        op->next = td.free;
        td.free = op;
    }
    pthread_mutex_unlock(&spare_lock);
    if (td.free) return;
    gasnete_op_t *slab = calloc(SLAB, sizeof *slab);
    if (!slab) gasneti_fatalerror("out of memory for operation handles");
    for (int i = 0; i < SLAB; i++) {
        slab[i].magic = OP_MAGIC;
        slab[i].next = td.free;
        td.free = &slab[i];
    }
}

static gasnete_op_t *op_alloc(int kind)
{
    if (!td.free) refill();
    gasnete_op_t *op = td.free;
    td.free = op->next;
    op->kind = (uint8_t)kind;
    op->live = 1;
    op->puts = op->gets = 0;
    return op;
}

static void op_free(gasnete_op_t *op)
{
    op->live = 0;
    op->next = td.free;
    td.free = op;
}

static int op_done(gasnete_op_t *op)
{
    return (__atomic_load_n(&op->puts, __ATOMIC_ACQUIRE) |
            __atomic_load_n(&op->gets, __ATOMIC_ACQUIRE)) == 0;
}

void gasnete_wait(gasnete_op_t *op, const char *call)
{
    if (op_done(op)) return;
    GASNETI_CHECK_MAY_POLL(call);
    int idle = 0;
    while (!op_done(op)) gasneti_poll_wait(&idle);
}

/* A handle for an op just initiated: INVALID if it already completed. */
static gasnet_handle_t handle_of(gasnete_op_t *op)
{
    if (op_done(op)) {
        op_free(op);
        return GASNET_INVALID_HANDLE;
    }
    return (gasnet_handle_t)op;
}

static gasnete_op_t *check_handle(gasnet_handle_t h, const char *call)
{
    gasnete_op_t *op = (gasnete_op_t *)h;
    if (!op || op->magic != OP_MAGIC || !op->live)
        gasneti_fatalerror("%s: %p is not a live handle (already synced, or not a handle)", call,
                           (void *)h);
    return op;
}

void gasnete_init(void)
{
    gasnete_putget_init();
    gasneti_rma_attach();
}

/* ---- blocking: an op on the stack, waited for before returning */

#define BLOCKING(call, start)                                               \
    do {                                                                    \
        gasnete_op_t op = {0, 0, OP_MAGIC, OP_EOP, 1, NULL, 0};             \
        start;                                                              \
        gasnete_wait(&op, call);                                            \
    } while (0)

void gasnet_get(void *dest, gasnet_node_t node, void *src, size_t nbytes)
{
    BLOCKING("gasnet_get", gasnete_get(&op, dest, node, src, nbytes, "gasnet_get"));
}

void gasnet_put(gasnet_node_t node, void *dest, void *src, size_t nbytes)
{
    BLOCKING("gasnet_put", gasnete_put(&op, node, dest, src, nbytes, 0, "gasnet_put"));
}

void gasnet_get_bulk(void *dest, gasnet_node_t node, void *src, size_t nbytes)
{
    BLOCKING("gasnet_get_bulk", gasnete_get(&op, dest, node, src, nbytes, "gasnet_get_bulk"));
}

void gasnet_put_bulk(gasnet_node_t node, void *dest, void *src, size_t nbytes)
{
    BLOCKING("gasnet_put_bulk", gasnete_put(&op, node, dest, src, nbytes, 1, "gasnet_put_bulk"));
}

void gasnet_memset(gasnet_node_t node, void *dest, int val, size_t nbytes)
{
    BLOCKING("gasnet_memset", gasnete_memset(&op, node, dest, val, nbytes, "gasnet_memset"));
}

/* ---- explicit handles */

gasnet_handle_t gasnet_get_nb(void *dest, gasnet_node_t node, void *src, size_t nbytes)
{
    gasnete_op_t *op = op_alloc(OP_EOP);
    gasnete_get(op, dest, node, src, nbytes, "gasnet_get_nb");
    return handle_of(op);
}

gasnet_handle_t gasnet_put_nb(gasnet_node_t node, void *dest, void *src, size_t nbytes)
{
    gasnete_op_t *op = op_alloc(OP_EOP);
    gasnete_put(op, node, dest, src, nbytes, 0, "gasnet_put_nb");
    return handle_of(op);
}

gasnet_handle_t gasnet_get_nb_bulk(void *dest, gasnet_node_t node, void *src, size_t nbytes)
{
    gasnete_op_t *op = op_alloc(OP_EOP);
    gasnete_get(op, dest, node, src, nbytes, "gasnet_get_nb_bulk");
    return handle_of(op);
}

gasnet_handle_t gasnet_put_nb_bulk(gasnet_node_t node, void *dest, void *src, size_t nbytes)
{
    gasnete_op_t *op = op_alloc(OP_EOP);
    gasnete_put(op, node, dest, src, nbytes, 1, "gasnet_put_nb_bulk");
    return handle_of(op);
}

gasnet_handle_t gasnet_memset_nb(gasnet_node_t node, void *dest, int val, size_t nbytes)
{
    gasnete_op_t *op = op_alloc(OP_EOP);
    gasnete_memset(op, node, dest, val, nbytes, "gasnet_memset_nb");
    return handle_of(op);
}

void gasnet_wait_syncnb(gasnet_handle_t h)
{
    if (h == GASNET_INVALID_HANDLE) return;
    gasnete_op_t *op = check_handle(h, "gasnet_wait_syncnb");
    gasnete_wait(op, "gasnet_wait_syncnb");
    op_free(op);
}

static int try_one(gasnet_handle_t h, const char *call)
{
    if (h == GASNET_INVALID_HANDLE) return GASNET_OK;
    gasnete_op_t *op = check_handle(h, call);
    if (!op_done(op)) return GASNET_ERR_NOT_READY;
    op_free(op);
    return GASNET_OK;
}

static void poll_once(const char *call)
{
    GASNETI_CHECK_ATTACHED(call);
    GASNETI_CHECK_MAY_POLL(call);
    gasneti_poll();
}

int gasnet_try_syncnb_nopoll(gasnet_handle_t h) { return try_one(h, "gasnet_try_syncnb"); }

int gasnet_try_syncnb(gasnet_handle_t h)
{
    poll_once("gasnet_try_syncnb");
    return try_one(h, "gasnet_try_syncnb");
}

/* Completed entries become INVALID; returns how many valid ones remain. */
static size_t sweep(gasnet_handle_t *hs, size_t n, size_t *completed, const char *call)
{
    size_t left = 0;
    if (n && !hs) gasneti_fatalerror("%s: NULL handle array of %zu entries", call, n);
    for (size_t i = 0; i < n; i++) {
        if (hs[i] == GASNET_INVALID_HANDLE) continue;
        if (try_one(hs[i], call) == GASNET_OK) {
            hs[i] = GASNET_INVALID_HANDLE;
            ++*completed;
        } else {
            left++;
        }
    }
    return left;
}

int gasnet_try_syncnb_all_nopoll(gasnet_handle_t *hs, size_t n)
{
    size_t done = 0;
    return sweep(hs, n, &done, "gasnet_try_syncnb_all") ? GASNET_ERR_NOT_READY : GASNET_OK;
}

int gasnet_try_syncnb_all(gasnet_handle_t *hs, size_t n)
{
    poll_once("gasnet_try_syncnb_all");
    return gasnet_try_syncnb_all_nopoll(hs, n);
}

void gasnet_wait_syncnb_all(gasnet_handle_t *hs, size_t n)
{
    size_t done = 0;
    int idle = 0;
    while (sweep(hs, n, &done, "gasnet_wait_syncnb_all")) {
        GASNETI_CHECK_MAY_POLL("gasnet_wait_syncnb_all");
        gasneti_poll_wait(&idle);
    }
}

int gasnet_try_syncnb_some_nopoll(gasnet_handle_t *hs, size_t n)
{
    size_t done = 0;
    size_t left = sweep(hs, n, &done, "gasnet_try_syncnb_some");
    return done || left == 0 ? GASNET_OK : GASNET_ERR_NOT_READY;
}

int gasnet_try_syncnb_some(gasnet_handle_t *hs, size_t n)
{
    poll_once("gasnet_try_syncnb_some");
    return gasnet_try_syncnb_some_nopoll(hs, n);
}

void gasnet_wait_syncnb_some(gasnet_handle_t *hs, size_t n)
{
    size_t done = 0;
    int idle = 0;
    while (sweep(hs, n, &done, "gasnet_wait_syncnb_some") && !done) {
        GASNETI_CHECK_MAY_POLL("gasnet_wait_syncnb_some");
        gasneti_poll_wait(&idle);
    }
}

/* ---- implicit handles */

static gasnete_op_t *nbi_op(void) { return td.region ? td.region : &td.default_iop; }

void gasnet_get_nbi(void *dest, gasnet_node_t node, void *src, size_t nbytes)
{
    gasnete_get(nbi_op(), dest, node, src, nbytes, "gasnet_get_nbi");
}

void gasnet_put_nbi(gasnet_node_t node, void *dest, void *src, size_t nbytes)
{
    gasnete_put(nbi_op(), node, dest, src, nbytes, 0, "gasnet_put_nbi");
}

void gasnet_get_nbi_bulk(void *dest, gasnet_node_t node, void *src, size_t nbytes)
{
    gasnete_get(nbi_op(), dest, node, src, nbytes, "gasnet_get_nbi_bulk");
}

void gasnet_put_nbi_bulk(gasnet_node_t node, void *dest, void *src, size_t nbytes)
{
    gasnete_put(nbi_op(), node, dest, src, nbytes, 1, "gasnet_put_nbi_bulk");
}

void gasnet_memset_nbi(gasnet_node_t node, void *dest, int val, size_t nbytes)
{
    gasnete_memset(nbi_op(), node, dest, val, nbytes, "gasnet_memset_nbi");
}

static void check_no_region(const char *call)
{
    if (td.region)
        gasneti_fatalerror("%s inside an access region (implicit-handle syncs are not allowed "
                           "there)", call);
}

static int nbi_pending(int gets)
{
    return __atomic_load_n(gasnete_counter(&td.default_iop, gets), __ATOMIC_ACQUIRE) != 0;
}

static void wait_nbi(int puts, int gets, const char *call)
{
    check_no_region(call);
    int idle = 0;
    while ((puts && nbi_pending(0)) || (gets && nbi_pending(1))) {
        GASNETI_CHECK_MAY_POLL(call);
        gasneti_poll_wait(&idle);
    }
}

static int try_nbi(int puts, int gets, const char *call)
{
    check_no_region(call);
    poll_once(call);
    return (puts && nbi_pending(0)) || (gets && nbi_pending(1)) ? GASNET_ERR_NOT_READY : GASNET_OK;
}

void gasnet_wait_syncnbi_gets(void) { wait_nbi(0, 1, "gasnet_wait_syncnbi_gets"); }
void gasnet_wait_syncnbi_puts(void) { wait_nbi(1, 0, "gasnet_wait_syncnbi_puts"); }
void gasnet_wait_syncnbi_all(void) { wait_nbi(1, 1, "gasnet_wait_syncnbi_all"); }
int gasnet_try_syncnbi_gets(void) { return try_nbi(0, 1, "gasnet_try_syncnbi_gets"); }
int gasnet_try_syncnbi_puts(void) { return try_nbi(1, 0, "gasnet_try_syncnbi_puts"); }
int gasnet_try_syncnbi_all(void) { return try_nbi(1, 1, "gasnet_try_syncnbi_all"); }

void gasnet_begin_nbi_accessregion(void)
{
    if (td.region)
        gasneti_fatalerror("gasnet_begin_nbi_accessregion: access regions do not nest");
    td.region = op_alloc(OP_IOP);
}

gasnet_handle_t gasnet_end_nbi_accessregion(void)
{
    gasnete_op_t *region = td.region;
    if (!region)
        gasneti_fatalerror("gasnet_end_nbi_accessregion without gasnet_begin_nbi_accessregion");
    td.region = NULL;
    return handle_of(region);
}

/* ---- register values */

void gasnet_put_val(gasnet_node_t node, void *dest, gasnet_register_value_t value, size_t nbytes)
{
    BLOCKING("gasnet_put_val", gasnete_put_val(&op, node, dest, value, nbytes, "gasnet_put_val"));
}

gasnet_handle_t gasnet_put_nb_val(gasnet_node_t node, void *dest, gasnet_register_value_t value,
                                  size_t nbytes)
{
    gasnete_op_t *op = op_alloc(OP_EOP);
    gasnete_put_val(op, node, dest, value, nbytes, "gasnet_put_nb_val");
    return handle_of(op);
}

void gasnet_put_nbi_val(gasnet_node_t node, void *dest, gasnet_register_value_t value,
                        size_t nbytes)
{
    gasnete_put_val(nbi_op(), node, dest, value, nbytes, "gasnet_put_nbi_val");
}

gasnet_register_value_t gasnet_get_val(gasnet_node_t node, void *src, size_t nbytes)
{
    gasnete_op_t op = {0, 0, OP_MAGIC, OP_EOP, 1, NULL, 0};
    gasnete_get_val(&op, node, src, nbytes, "gasnet_get_val");
    gasnete_wait(&op, "gasnet_get_val");
    return op.value;
}

gasnet_valget_handle_t gasnet_get_nb_val(gasnet_node_t node, void *src, size_t nbytes)
{
    gasnete_op_t *op = op_alloc(OP_EOP);
    gasnete_get_val(op, node, src, nbytes, "gasnet_get_nb_val");
    return (gasnet_valget_handle_t)op;
}

gasnet_register_value_t gasnet_wait_syncnb_valget(gasnet_valget_handle_t handle)
{
    gasnete_op_t *op = check_handle((gasnet_handle_t)handle, "gasnet_wait_syncnb_valget");
    gasnete_wait(op, "gasnet_wait_syncnb_valget");
    gasnet_register_value_t v = op->value;
    op_free(op);
    return v;
}
