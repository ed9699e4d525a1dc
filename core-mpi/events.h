/* Events (EX §10, 11): the completion records every layer shares.
 *
 * An operation record counts what is outstanding, per category: remote
 * completion of puts, of gets, local completion (LC) of puts, LC of AMs,
 * and remote atomics. An NB initiation returns its record as the root
 * event, complete when every counter is zero; the record's LC leaf event
 * is the record's address with bit 0 set, complete when its LC counter is
 * zero. Implicit-event (NBI) operations count in the calling thread's
 * default record, or in the access region's record while one is open.
 *
 * A transport that completes a piece elsewhere is handed a completion
 * target: the record's address with the counter's index in the low bits
 * (records are 8-byte aligned); the reply handler (or the poll of a
 * native backend) decrements that counter atomically, on whatever thread
 * polls. Targets never travel on the wire: a request carries a reply
 * ticket (extended/ticket.c) whose slot holds the target.
 *
 * Records come from a per-thread free list grown in slabs, so issuing an
 * operation allocates nothing once warm; a record returns to the list of
 * the thread that syncs it (threads that exit leave their free records to
 * the others). Memory: 48 bytes per live event or access region.
 */
#ifndef GASNETI_EVENTS_H
#define GASNETI_EVENTS_H

#include "gasnet_internal.h"

/* Counter indices; GEX_EC_<X> is 1 << GASNETI_<X>. */
enum { GASNETI_PUT, GASNETI_GET, GASNETI_LC, GASNETI_AM, GASNETI_RMW, GASNETI_NCOUNTERS };
enum { OP_EOP = 1, OP_IOP = 2, OP_BLOCK = 3 }; /* BLOCK: on a blocking call's stack */
#define OP_MAGIC 0x4f50u

typedef struct gasneti_op {
    uint32_t cnt[GASNETI_NCOUNTERS];
    uint16_t magic;
    uint8_t kind;
    uint8_t live;        /* handed out to the client, not yet synced */
    uint8_t has_leaf;    /* its LC leaf exists (a pointer lc_opt, or GROUP in a region) */
    struct gasneti_op *next;     /* free list */
    gex_RMA_Value_t value;       /* result of a value get or a fetching atomic */
} gasneti_op_t;

struct gasneti_valget { gasneti_op_t op; }; /* gasnet_valget_handle_t points here */

/* A record on the stack for a blocking operation. */
#define GASNETI_OP_INIT {{0}, OP_MAGIC, OP_BLOCK, 1, 0, NULL, 0}

static inline uint32_t *gasneti_counter(gasneti_op_t *op, int which) { return &op->cnt[which]; }
static inline uintptr_t gasneti_target(gasneti_op_t *op, int which)
{
    return (uintptr_t)op | (uintptr_t)which;
}
/* The inverse, unchecked: the record and the counter a target names. */
static inline gasneti_op_t *gasneti_target_record(uintptr_t target)
{
    return (gasneti_op_t *)(target & ~(uintptr_t)7);
}
static inline int gasneti_target_counter(uintptr_t target) { return (int)(target & 7); }
static inline void gasneti_add(gasneti_op_t *op, int which, uint32_t n)
{
    __atomic_fetch_add(&op->cnt[which], n, __ATOMIC_RELAXED);
}
/* Completes one piece named by a target that came back from the wire
 * (fatal if it names no record of this process). */
void gasneti_complete(uintptr_t target);
/* Completes one piece named by a target this process kept (a reply
 * ticket's, extended/ticket.h): nothing from the wire to check. */
static inline void gasneti_complete_kept(uintptr_t target)
{
    __atomic_fetch_sub(&gasneti_target_record(target)->cnt[gasneti_target_counter(target)], 1,
                       __ATOMIC_RELEASE);
}
/* Completes n pieces at once (a packed batch's run of one record's ops). */
void gasneti_complete_n(uintptr_t target, uint32_t n);
/* The record a target names, checked (for replies carrying a value). */
gasneti_op_t *gasneti_target_op(uintptr_t target);

gasneti_op_t *gasneti_op_alloc(int kind);
void gasneti_op_free(gasneti_op_t *op);
int gasneti_op_done(gasneti_op_t *op);
/* Waits, polling, until op's counters are zero. */
void gasneti_wait(gasneti_op_t *op, const char *call);
/* The root event for an op just initiated: INVALID if it already
 * completed (the record is then freed). */
gex_Event_t gasneti_event_of(gasneti_op_t *op);
/* The record a root event names, checked; fatal with the call named. */
gasneti_op_t *gasneti_check_event(gex_Event_t ev, const char *call);

/* The calling thread's record for NBI operations: its open access region,
 * or its default record. */
gasneti_op_t *gasneti_nbi_op(void);
int gasneti_in_access_region(void);

/* The LC leaf of op: handed to the client through an lc_opt pointer (or
 * INVALID when LC already happened). */
static inline gex_Event_t gasneti_leaf_lc(gasneti_op_t *op)
{
    return (gex_Event_t)((uintptr_t)op | 1);
}

/* Legacy syncs keep GASNet-1's names in their messages. */
int gasneti_test_some(gex_Event_t *ev, size_t n, const char *call);
int gasneti_test_all(gex_Event_t *ev, size_t n, const char *call);
int gasneti_test_one(gex_Event_t ev, const char *call);
void gasneti_wait_one(gex_Event_t ev, const char *call);
void gasneti_wait_some(gex_Event_t *ev, size_t n, const char *call);
void gasneti_wait_all(gex_Event_t *ev, size_t n, const char *call);
int gasneti_nbi_test(gex_EC_t mask, const char *call);
void gasneti_nbi_wait(gex_EC_t mask, const char *call);
void gasneti_begin_region(const char *call);
gex_Event_t gasneti_end_region(const char *call);

#endif
