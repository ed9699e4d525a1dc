/* Reply tickets (ticket.c has the design): the fast paths, inline. */
#ifndef GASNETE_TICKET_H
#define GASNETE_TICKET_H

/* Which reply may redeem a ticket. */
enum {
    GASNETE_TK_ACK = 1, GASNETE_TK_GET, GASNETE_TK_GET_VAL, GASNETE_TK_AD, GASNETE_TK_SEGQ,
    GASNETE_TK_PACK, GASNETE_TK_VIS_GET, GASNETE_TK_VIS_FETCH
};
typedef struct {
    void *ptr;        /* a destination or a private record */
    size_t len;       /* what the reply may bring there */
    uintptr_t target; /* the completion target (core-mpi/events.h), or 0 */
} gasnete_ticket_t;

#define GASNETE_TK_CHUNK 1024u
#define GASNETE_TK_MAXCHUNKS 16384u
typedef struct {
    uint32_t gen;  /* atomic: odd while issued */
    uint32_t node; /* atomic (relaxed): the node that may answer */
    uint32_t kind; /* atomic (relaxed): the reply that may answer */
    uint32_t next; /* free list: slot + 1, 0 ends it */
    gasnete_ticket_t t;
} gasnete_tk_entry_t;
extern gasnete_tk_entry_t *gasnete_tk_chunks[GASNETE_TK_MAXCHUNKS];
extern uint32_t gasnete_tk_nchunks; /* atomic: chunks [0, n) are set */
typedef struct {
    uint32_t head; /* slot + 1, 0: empty */
    uint32_t count;
} gasnete_tk_list_t;
extern __thread gasnete_tk_list_t gasnete_tk_mine;
void gasnete_tk_refill(void);
void gasnete_tk_spill(void);
void gasnete_tk_adopt(void); /* a thread's list became non-empty: give it back at thread exit */
void gasnete_tk_reject(const char *handler, int src, uint32_t slot, uint32_t gen, int kind)
    __attribute__((__noreturn__, __cold__));

static inline gasnete_tk_entry_t *gasnete_tk_at(uint32_t slot)
{
    return &gasnete_tk_chunks[slot / GASNETE_TK_CHUNK][slot % GASNETE_TK_CHUNK];
}

/* A ticket for a request to node whose reply may bring len bytes to ptr
 * (or names the record ptr) and completes target. */
static inline uint64_t gasnete_ticket_issue(int kind, gex_Rank_t node, void *ptr, size_t len,
                                            uintptr_t target)
{
    if (__builtin_expect(!gasnete_tk_mine.head, 0)) gasnete_tk_refill();
    uint32_t slot = gasnete_tk_mine.head - 1;
    gasnete_tk_entry_t *e = gasnete_tk_at(slot);
    gasnete_tk_mine.head = e->next;
    gasnete_tk_mine.count--;
    e->t = (gasnete_ticket_t){ptr, len, target};
    __atomic_store_n(&e->node, node, __ATOMIC_RELAXED);
    __atomic_store_n(&e->kind, (uint32_t)kind, __ATOMIC_RELAXED);
    uint32_t gen = e->gen + 1; /* only the issuer writes a free slot's generation */
    __atomic_store_n(&e->gen, gen, __ATOMIC_RELEASE);
    return (uint64_t)gen << 32 | slot;
}

/* Takes back the ticket (hi, lo) that a reply of the given kind from node
 * src names: fatal, naming handler, src and the ticket, unless it is out,
 * of that kind, issued for src, and not redeemed already. */
static inline gasnete_ticket_t gasnete_ticket_redeem(int32_t hi, int32_t lo, int kind, int src,
                                                     const char *handler)
{
    uint32_t gen = (uint32_t)hi, slot = (uint32_t)lo;
    if (__builtin_expect(slot / GASNETE_TK_CHUNK >= __atomic_load_n(&gasnete_tk_nchunks, __ATOMIC_ACQUIRE), 0))
        gasnete_tk_reject(handler, src, slot, gen, kind);
    gasnete_tk_entry_t *e = gasnete_tk_at(slot);
    uint32_t now = gen;
    if (__builtin_expect(!(gen & 1) || __atomic_load_n(&e->gen, __ATOMIC_ACQUIRE) != gen ||
                         __atomic_load_n(&e->kind, __ATOMIC_RELAXED) != (uint32_t)kind ||
                         __atomic_load_n(&e->node, __ATOMIC_RELAXED) != (uint32_t)src ||
                         !__atomic_compare_exchange_n(&e->gen, &now, gen + 1, 0, __ATOMIC_ACQ_REL,
                                                      __ATOMIC_RELAXED), 0))
        gasnete_tk_reject(handler, src, slot, gen, kind);
    gasnete_ticket_t t = e->t; /* the slot is ours until it is pushed */
    e->next = gasnete_tk_mine.head;
    gasnete_tk_mine.head = slot + 1;
    if (__builtin_expect(++gasnete_tk_mine.count > 2 * GASNETE_TK_CHUNK, 0)) gasnete_tk_spill();
    else if (__builtin_expect(gasnete_tk_mine.count == 1, 0)) gasnete_tk_adopt();
    return t;
}

#endif
