/* Reply tickets: what a reply names instead of a pointer.
 *
 * A request whose reply completes something of this process (a put's ack,
 * a get's data, an atomic's result, a segment query, a packed batch, a
 * VIS packet, a peer-completion fetch) takes a ticket: a slot in one
 * process-wide table holding what the reply may touch (a destination and
 * its length, or a private record, and the completion target), the kind
 * of handler that may answer it, and the node the request went to. The
 * wire carries the ticket, never a pointer: 32 bits of slot (the low
 * argument) and 32 bits of the slot's generation (the high one).
 *
 * A slot's generation is odd while its ticket is out, even while free;
 * issuing and redeeming each add one. A reply redeems its ticket once: the
 * slot must exist, its generation be the ticket's, its kind the handler's
 * and its node the reply's sender, and a compare-and-swap of the
 * generation takes it, so a second reply with the same ticket finds it
 * stale. Anything else is a reply no request of this node asked for: the
 * library's stance (docs/threat-model.md) is that a message that breaks
 * the protocol is fatal, naming the sender, the handler and the value.
 *
 * Free slots sit on per-thread free lists (no lock on the message paths;
 * a reply's slot goes to the list of the thread that ran the handler). A
 * list longer than two chunks gives a chunk back to a shared spare list,
 * and a thread that ends gives back all of its own, so replies handled by
 * one thread for requests issued by another do not grow the table. The
 * table grows a chunk at a time up to GASNETE_TK_MAXCHUNKS chunks: 16 Mi
 * tickets out at once, 40 bytes each. Issuing and redeeming are inline
 * (ticket.h): a put's or get's round trip costs the initiator 90-105
 * instructions more than when the wire carried a pointer
 * (results/reply-tickets-callgrind.txt).
 */
#include "extended.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define CHUNK GASNETE_TK_CHUNK

gasnete_tk_entry_t *gasnete_tk_chunks[GASNETE_TK_MAXCHUNKS];
uint32_t gasnete_tk_nchunks;
__thread gasnete_tk_list_t gasnete_tk_mine;
#define mine gasnete_tk_mine
#define at gasnete_tk_at

static uint32_t spare; /* the shared free list (slot + 1), under spare_lock */
static pthread_mutex_t spare_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_key_t exit_key;
static pthread_once_t exit_key_once = PTHREAD_ONCE_INIT;

/* Puts the run of slots first..last (slot + 1, slot) on the spare list. */
static void to_spare(uint32_t first, uint32_t last)
{
    pthread_mutex_lock(&spare_lock);
    at(last)->next = spare;
    spare = first;
    pthread_mutex_unlock(&spare_lock);
}

/* A thread that ends gives its free slots to the spare list. */
static void give_back(void *unused)
{
    (void)unused;
    if (!mine.head) return;
    uint32_t tail = mine.head - 1;
    while (at(tail)->next) tail = at(tail)->next - 1;
    to_spare(mine.head, tail);
    mine.head = mine.count = 0;
}

static void make_exit_key(void) { pthread_key_create(&exit_key, give_back); }

/* Also for a thread that only runs reply handlers: its redeemed slots
 * return to the spare list when it ends. */
void gasnete_tk_adopt(void)
{
    pthread_once(&exit_key_once, make_exit_key);
    pthread_setspecific(exit_key, &mine); /* any non-NULL value: run give_back */
}

/* Takes up to a chunk of the spare list, else a new chunk. */
void gasnete_tk_refill(void)
{
    gasnete_tk_adopt();
    pthread_mutex_lock(&spare_lock);
    if (spare) {
        uint32_t first = spare, last = spare - 1, n = 1;
        while (n < CHUNK && at(last)->next) {
            last = at(last)->next - 1;
            n++;
        }
        spare = at(last)->next;
        at(last)->next = 0;
        pthread_mutex_unlock(&spare_lock);
        mine.head = first;
        mine.count = n;
        return;
    }
    uint32_t c = __atomic_load_n(&gasnete_tk_nchunks, __ATOMIC_RELAXED);
    if (c == GASNETE_TK_MAXCHUNKS)
        gasneti_fatalerror("more than %u operations await replies at once",
                           GASNETE_TK_MAXCHUNKS * CHUNK);
    gasnete_tk_entry_t *e = calloc(CHUNK, sizeof *e);
    if (!e) gasneti_fatalerror("out of memory for the table of operations awaiting replies");
    for (uint32_t i = 0; i < CHUNK; i++) e[i].next = i + 1 < CHUNK ? c * CHUNK + i + 2 : 0;
    gasnete_tk_chunks[c] = e;
    __atomic_store_n(&gasnete_tk_nchunks, c + 1, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&spare_lock);
    mine.head = c * CHUNK + 1;
    mine.count = CHUNK;
}

/* Gives the first chunk of this thread's list to the spare list. */
void gasnete_tk_spill(void)
{
    uint32_t first = mine.head, last = mine.head - 1;
    for (uint32_t n = 1; n < CHUNK; n++) last = at(last)->next - 1;
    mine.head = at(last)->next;
    mine.count -= CHUNK;
    to_spare(first, last);
}

static const char *const kind_name[] = {
    [GASNETE_TK_ACK] = "a put's acknowledgement",
    [GASNETE_TK_GET] = "a get's data",
    [GASNETE_TK_GET_VAL] = "a value get's value",
    [GASNETE_TK_AD] = "a remote atomic's reply",
    [GASNETE_TK_SEGQ] = "a segment query's answer",
    [GASNETE_TK_PACK] = "a packed RMA batch's reply",
    [GASNETE_TK_VIS_GET] = "a VIS get's data",
    [GASNETE_TK_VIS_FETCH] = "a VIS peer-completion fetch",
};

void gasnete_tk_reject(const char *handler, int src, uint32_t slot, uint32_t gen, int kind)
{
    char why[96];
    if (slot / CHUNK >= __atomic_load_n(&gasnete_tk_nchunks, __ATOMIC_ACQUIRE)) {
        snprintf(why, sizeof why, "no such slot");
    } else {
        gasnete_tk_entry_t *e = at(slot);
        uint32_t now = __atomic_load_n(&e->gen, __ATOMIC_ACQUIRE);
        uint32_t k = __atomic_load_n(&e->kind, __ATOMIC_RELAXED);
        uint32_t node = __atomic_load_n(&e->node, __ATOMIC_RELAXED);
        if (!(gen & 1) || gen > now)
            snprintf(why, sizeof why, "the slot is not out under that generation");
        else if (gen < now)
            snprintf(why, sizeof why, "stale (answered already)");
        else if (k != (uint32_t)kind)
            snprintf(why, sizeof why, "it awaits %s",
                     k < sizeof kind_name / sizeof *kind_name && kind_name[k] ? kind_name[k]
                                                                             : "another reply");
        else if (node != (uint32_t)src)
            snprintf(why, sizeof why, "it awaits a reply from node %u", node);
        else
            snprintf(why, sizeof why, "answered by another reply at the same moment");
    }
    gasneti_fatalerror("%s from node %d names ticket 0x%08x%08x (slot %u, generation %u), which "
                       "awaits no reply from it: %s", handler, src, gen, slot, slot, gen, why);
}
