/* Internals of the extended API: the put, get and memset protocols
 * (putget.c) that the EX entry points (rma.c) and the GASNet-1 ones
 * (legacy.c) share. Completion is counted in operation records
 * (core-mpi/events.h): a put's remote completion in its record's PUT
 * counter, a get's in GET.
 */
#ifndef GASNETE_EXTENDED_H
#define GASNETE_EXTENDED_H

#include "gasnet_internal.h"
#include "events.h"

/* When a put's source may be reused (its local completion):
 *   LC_NOW      on return
 *   LC_DEFER    as late as the operation's completion (counted with it)
 *   LC_COUNTER  when the counter given with it drops (an lc_opt pointer's
 *               leaf, or the NBI LC counter for GEX_EVENT_GROUP) */
enum { LC_NOW, LC_DEFER, LC_COUNTER };

/* Each adds its pieces to op's counters, or finishes before returning.
 * Arguments are checked (fatal, naming call); n may be 0. */
void gasnete_put(gasneti_op_t *op, gasneti_tm_t tm, gex_Rank_t rank, void *dest, const void *src,
                 size_t n, int lc_mode, uint32_t *lc, const char *call);
void gasnete_get(gasneti_op_t *op, gasneti_tm_t tm, void *dest, gex_Rank_t rank, const void *src,
                 size_t n, const char *call);
void gasnete_memset(gasneti_op_t *op, gasneti_tm_t tm, gex_Rank_t rank, void *dest, int val,
                    size_t n, const char *call);
void gasnete_put_val(gasneti_op_t *op, gasneti_tm_t tm, gex_Rank_t rank, void *dest,
                     gex_RMA_Value_t value, size_t n, const char *call);
/* The value lands in op->value. */
void gasnete_get_val(gasneti_op_t *op, gasneti_tm_t tm, gex_Rank_t rank, void *src, size_t n,
                     const char *call);

/* Packed small puts and gets (pack.c): each returns 1 when the operation
 * joined the calling thread's batch (counted in op), 0 when it must be
 * sent on its own (too large, a blocking call, packing off). */
void gasnete_pack_init(size_t put_medium_max);
int gasnete_pack_put(gasneti_op_t *op, gasneti_tm_t tm, gex_EP_Location_t loc, void *dest,
                     const void *src, size_t n);
int gasnete_pack_get(gasneti_op_t *op, gasneti_tm_t tm, gex_EP_Location_t loc, void *dest,
                     const void *src, size_t n);

/* Reply tickets (ticket.c): a request whose reply touches memory or
 * completes an operation of this process sends a ticket, never a pointer;
 * the reply handler redeems it, once, checked against the kind of reply
 * and the node the request went to (fatal otherwise, naming the handler,
 * the sender and the ticket). */
#include "ticket.h"

#endif
