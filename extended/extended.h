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
void gasnete_put(gasnete_op_t *op, gasneti_tm_t tm, gex_Rank_t rank, void *dest, const void *src,
                 size_t n, int lc_mode, uint32_t *lc, const char *call);
void gasnete_get(gasnete_op_t *op, gasneti_tm_t tm, void *dest, gex_Rank_t rank, const void *src,
                 size_t n, const char *call);
void gasnete_memset(gasnete_op_t *op, gasneti_tm_t tm, gex_Rank_t rank, void *dest, int val,
                    size_t n, const char *call);
void gasnete_put_val(gasnete_op_t *op, gasneti_tm_t tm, gex_Rank_t rank, void *dest,
                     gex_RMA_Value_t value, size_t n, const char *call);
/* The value lands in op->value. */
void gasnete_get_val(gasnete_op_t *op, gasneti_tm_t tm, gex_Rank_t rank, void *src, size_t n,
                     const char *call);

/* Packed small puts and gets (pack.c): each returns 1 when the operation
 * joined the calling thread's batch (counted in op), 0 when it must be
 * sent on its own (too large, a blocking call, packing off). */
void gasnete_pack_init(size_t put_medium_max);
int gasnete_pack_put(gasnete_op_t *op, gasneti_tm_t tm, gex_EP_Location_t loc, void *dest,
                     const void *src, size_t n);
int gasnete_pack_get(gasnete_op_t *op, gasneti_tm_t tm, gex_EP_Location_t loc, void *dest,
                     const void *src, size_t n);

/* Reply tickets (ticket.c): a request whose reply touches memory or
 * completes an operation of this process sends a ticket, never a pointer;
 * the reply handler redeems it, once, checked against the kind of reply
 * and the node the request went to (fatal otherwise, naming the handler,
 * the sender and the ticket). */
#include "ticket.h"

/* Pointers and 64-bit values travel as two handler arguments, high word first. */
#define GASNETE_HI(p) ((gex_AM_Arg_t)(uint32_t)((uint64_t)(uintptr_t)(p) >> 32))
#define GASNETE_LO(p) ((gex_AM_Arg_t)(uint32_t)(uintptr_t)(p))
#define GASNETE_PTR(hi, lo) ((void *)(uintptr_t)(((uint64_t)(uint32_t)(hi) << 32) | (uint32_t)(lo)))
#define GASNETE_U64(hi, lo) (((uint64_t)(uint32_t)(hi) << 32) | (uint32_t)(lo))

/* Handler indices of the library's layers: each owns a range. */
enum {
    GASNETE_H_PUT_MEDIUM = 64, GASNETE_H_PUT_LONG, GASNETE_H_ACK, GASNETE_H_GET, /* 64..79 */
    GASNETE_H_GET_MEDIUM_REPLY, GASNETE_H_GET_LONG_REPLY, GASNETE_H_MEMSET,
    GASNETE_H_PUT_VAL, GASNETE_H_GET_VAL, GASNETE_H_GET_VAL_REPLY,
    GASNETE_H_PACK, GASNETE_H_PACK_ACK, GASNETE_H_PACK_DATA,
    GASNETE_H_BARRIER = 80, /* 80..95: barriers */
    GASNETE_H_COLL = 96,    /* 96..103: collectives */
    GASNETE_H_AD = 104,     /* 104..111: remote atomics */
    GASNETE_H_AD_REQUEST = GASNETE_H_AD, GASNETE_H_AD_DONE, GASNETE_H_AD_RESULT,
    GASNETE_H_VIS = 112,    /* 112..119: VIS */
    GASNETE_H_VIS_FETCH = GASNETE_H_VIS + 5, /* takes back a pointer (the fuzz harnesses skip it) */
    GASNETE_H_MK = 120,     /* 120..127: endpoints and memory kinds */
    GASNETE_H_SEGQ = 126, GASNETE_H_SEGQ_REPLY = 127 /* segquery.c */
};

/* Sends an AM from tm's endpoint to the member at loc (library handlers
 * only: no checks); lc as for ammpi_msg_t. Fatal on failure. */
void gasnete_am_request(gasneti_tm_t tm, gex_EP_Location_t loc, int category, int handler,
                        const void *src, size_t n, void *dest_addr, uint32_t *lc, int nargs, ...);
void gasnete_am_reply(ammpi_token_t tok, int category, int handler, const void *src, size_t n,
                      void *dest_addr, int nargs, ...);

#endif
