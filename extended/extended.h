/* Internals of the extended API (the reference implementation over AM).
 *
 * OPERATIONS. Every put, get and memset counts its outstanding pieces in a
 * gasnete_op_t: an explicit handle (eop) counts them in `puts`; an implicit
 * one (iop: the thread's default, or an access region) counts puts and
 * gets apart. The completion target sent with each request is the op's
 * address with bit 0 set for the gets counter; the reply handler checks the
 * op's magic and decrements the counter atomically, on whatever thread
 * polls. Handles come from a per-thread free list grown in slabs, so
 * issuing an operation allocates nothing once warm; nbi operations only
 * bump counters, so any number may be in flight in bounded memory.
 */
#ifndef GASNETE_EXTENDED_H
#define GASNETE_EXTENDED_H

#include "gasnet_internal.h"

enum { OP_EOP = 1, OP_IOP = 2 };
#define OP_MAGIC 0x4f50u

typedef struct gasnete_op {
    uint32_t puts, gets; /* outstanding pieces (eops use puts only) */
    uint16_t magic;
    uint8_t kind;
    uint8_t live;        /* handed out to the client, not yet synced */
    struct gasnete_op *next;       /* free list */
    gasnet_register_value_t value; /* result of gasnet_get_nb_val */
} gasnete_op_t;

struct gasnete_valget { gasnete_op_t op; }; /* gasnet_valget_handle_t points here */

static inline uintptr_t gasnete_target(gasnete_op_t *op, int gets)
{
    return (uintptr_t)op | (uintptr_t)(gets != 0);
}

static inline uint32_t *gasnete_counter(gasnete_op_t *op, int gets)
{
    return gets ? &op->gets : &op->puts;
}

static inline void gasnete_add(gasnete_op_t *op, int gets, uint32_t n)
{
    __atomic_fetch_add(gasnete_counter(op, gets), n, __ATOMIC_RELAXED);
}

/* Completes one piece named by a target that came back from the wire. */
void gasnete_complete(uintptr_t target);

/* Protocols (putget.c): each adds its pieces to op, or finishes at once. */
void gasnete_put(gasnete_op_t *op, gasnet_node_t node, void *dest, void *src, size_t n, int bulk,
                 const char *call);
void gasnete_get(gasnete_op_t *op, void *dest, gasnet_node_t node, void *src, size_t n,
                 const char *call);
void gasnete_memset(gasnete_op_t *op, gasnet_node_t node, void *dest, int val, size_t n,
                    const char *call);
void gasnete_put_val(gasnete_op_t *op, gasnet_node_t node, void *dest,
                     gasnet_register_value_t value, size_t n, const char *call);
void gasnete_get_val(gasnete_op_t *op, gasnet_node_t node, void *src, size_t n, const char *call);
void gasnete_putget_init(void);

/* Waits, polling, until op's counters are zero. */
void gasnete_wait(gasnete_op_t *op, const char *call);

/* Pointers travel as two handler arguments, high word first. */
#define GASNETE_HI(p) ((gasnet_handlerarg_t)(uint32_t)((uint64_t)(uintptr_t)(p) >> 32))
#define GASNETE_LO(p) ((gasnet_handlerarg_t)(uint32_t)(uintptr_t)(p))
#define GASNETE_PTR(hi, lo) ((void *)(uintptr_t)(((uint64_t)(uint32_t)(hi) << 32) | (uint32_t)(lo)))
#define GASNETE_U64(hi, lo) (((uint64_t)(uint32_t)(hi) << 32) | (uint32_t)(lo))

/* Handler indices of the extended API (64..79) and barriers (80..95). */
enum {
    GASNETE_H_PUT_MEDIUM = 64, GASNETE_H_PUT_LONG, GASNETE_H_ACK, GASNETE_H_GET,
    GASNETE_H_GET_MEDIUM_REPLY, GASNETE_H_GET_LONG_REPLY, GASNETE_H_MEMSET,
    GASNETE_H_PUT_VAL, GASNETE_H_GET_VAL, GASNETE_H_GET_VAL_REPLY,
    GASNETE_H_BARRIER = 80
};

#endif
