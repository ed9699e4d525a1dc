/* Packed small puts and gets on the AM path.
 *
 * BATCH. Each thread keeps one open batch: the records of its small NB
 * and NBI puts and gets to one peer (source endpoint, jobrank, endpoint
 * index), in the order they were issued. A put or get of at most
 * GASNET_PUT_MEDIUM_MAX bytes joins it instead of sending its own AM;
 * blocking calls do not (they would wait for the batch anyway). A put's
 * data is copied into the batch, so its source is free at once (local
 * completion is immediate). The batch goes out as one Medium request when
 *   - a put or get to another peer, or one that does not fit, comes;
 *   - the thread polls (every wait loop, gasnet_AMPoll, try_sync*,
 *     barriers: gasneti_poll and gasneti_poll_wait flush first);
 *   - the thread tests an event or its NBI set (tests do not poll, but an
 *     op sitting in the batch must be able to complete);
 *   - the thread sends any other AM (the library's own or the client's),
 *     so that what it issued earlier reaches the peer first;
 *   - the thread calls gasnet_exit (if the batch can go at once), or ends.
 * Events are per thread (EX §10): only the thread that issued an op syncs
 * it, so flushing the calling thread's batch is enough; the progress
 * thread issues nothing and never waits on a batch.
 *
 * WIRE. The request payload is a sequence of records, each a 12-byte
 * header {u64 remote address, u32 len << 1 | is_get} followed, for a put,
 * by len bytes of data; the arguments are the ticket (ticket.c) of the
 * initiator's settle record (below) and the total of the get lengths. The target checks every
 * record (whole header, 0 < len, data present, the range inside the bound
 * segment of the endpoint addressed, get total as announced) before it
 * applies any: a bad batch is fatal, naming the sender. It then applies
 * the records in order (a get sees the puts before it in the batch), the
 * get data going straight into the reply's send buffer, and answers with
 * one reply: a Medium carrying the get data, or a Short when there is
 * none.
 *
 * SETTLE. The initiator keeps, per batch in flight, a settle record: the
 * completion targets of its records, run-length encoded (consecutive NBI
 * ops name one counter), and the local destination and length of each
 * get. Destinations never travel, nor the record's address. The reply
 * handler (on any thread) redeems the ticket (a batch of this node in
 * flight to the reply's sender, answered once), checks the reply carries
 * the announced bytes, copies each get's data to its destination, then
 * completes the targets: an NB handle completes once its own data is in
 * place. Settle records come from a global free list (one lock per batch).
 *
 * MEMORY. Per thread that packs: one buffer of GASNET_PACK_MAX bytes
 * (default 4096: one eager message; 0 turns packing off) and its settle
 * record; per batch in flight, one settle record of about
 * GASNET_PACK_MAX * 2 bytes. Settle records are kept for reuse.
 */
#include "extended.h"
#include "memkind.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define REC_HDR 12

typedef struct {
    uintptr_t target;
    uint32_t n;
} run_t;

typedef struct {
    void *dest;
    uint32_t len;
} getdest_t;

typedef struct settle {
    struct settle *next; /* free list */
    struct settle *all;  /* every settle record, so none is ever lost */
    size_t nruns, ngets, get_bytes;
    run_t *runs;
    getdest_t *gets;
} settle_t;

typedef struct {
    char *buf;
    size_t used;          /* 0: no open batch */
    settle_t *s;
    gasneti_tm_t tm;      /* the sender's endpoint is tm->ep */
    gex_EP_Location_t loc;
} batch_t;

static size_t pack_max, item_max, max_records, item_max_on;
static __thread batch_t *mine;
static pthread_key_t batch_key;

static settle_t *free_settles, *all_settles;
static pthread_mutex_t settle_lock = PTHREAD_MUTEX_INITIALIZER;

static void thread_ends(void *b);

void gasnete_pack_init(size_t put_medium_max)
{
    /* up to the largest Medium payload; 0 turns packing off */
    pack_max = (size_t)gasneti_getenv_size("GASNET_PACK_MAX", 4096, 0, (int64_t)GASNETI_AM_MAX_PAYLOAD);
    item_max = pack_max > REC_HDR ? pack_max - REC_HDR : 0;
    if (item_max > put_medium_max) item_max = put_medium_max;
    item_max_on = item_max;
    max_records = pack_max / REC_HDR + 1;
    static int key_made;
    if (!key_made && pthread_key_create(&batch_key, thread_ends) != 0)
        gasneti_fatalerror("could not create the key for packed-RMA batches");
    key_made = 1;
}

static settle_t *settle_get(void)
{
    pthread_mutex_lock(&settle_lock);
    settle_t *s = free_settles;
    if (s) free_settles = s->next;
    pthread_mutex_unlock(&settle_lock);
    if (!s) {
        s = malloc(sizeof *s + max_records * (sizeof(run_t) + sizeof(getdest_t)));
        if (!s) gasneti_fatalerror("out of memory for a packed-RMA batch");
        s->runs = (run_t *)(s + 1);
        s->gets = (getdest_t *)(s->runs + max_records);
        pthread_mutex_lock(&settle_lock);
        s->all = all_settles;
        all_settles = s;
        pthread_mutex_unlock(&settle_lock);
    }
    s->nruns = s->ngets = s->get_bytes = 0;
    return s;
}

static void settle_put(settle_t *s)
{
    pthread_mutex_lock(&settle_lock);
    s->next = free_settles;
    free_settles = s;
    pthread_mutex_unlock(&settle_lock);
}

static batch_t *my_batch(void)
{
    if (mine) return mine;
    batch_t *b = calloc(1, sizeof *b);
    if (b) b->buf = malloc(pack_max);
    if (!b || !b->buf) gasneti_fatalerror("out of memory for a packed-RMA batch buffer");
    pthread_setspecific(batch_key, b);
    return mine = b;
}

void gasnete_pack_enable(int on)
{
    gasneti_flush();
    __atomic_store_n(&item_max, on ? item_max_on : 0, __ATOMIC_RELAXED);
}

/* Sends the open batch. At exit (immediate) a batch that cannot go at
 * once is dropped: the peer may be exiting too, and never return a credit. */
static void send_batch(batch_t *b, int immediate)
{
    if (ammpi_current_token()) { /* a handler cannot send requests: the next poll will */
        gasneti_batched = 1;
        return;
    }
    settle_t *s = b->s;
    uint64_t k = gasnete_ticket_issue(GASNETE_TK_PACK, b->loc.gex_rank, s, 0, 0);
    int32_t args[3] = {GASNETE_HI(k), GASNETE_LO(k), (int32_t)s->get_bytes};
    ammpi_msg_t m = {AMMPI_MEDIUM, (int)b->loc.gex_rank, b->loc.gex_ep_index, b->tm->ep->index,
                     GASNETE_H_PACK, b->buf, b->used, NULL, 3, args,
                     immediate ? AMMPI_IMMEDIATE : 0, NULL};
    b->used = 0;
    b->s = NULL;
    int rc = gasnete_am_send(&m);
    if (rc == AMMPI_OK) return;
    if (!immediate)
        gasneti_fatalerror("the library's AM request (a packed RMA batch to node %u) failed: "
                           "transport error %d", b->loc.gex_rank, rc);
    gasnete_ticket_redeem(args[0], args[1], GASNETE_TK_PACK, (int)b->loc.gex_rank, "a batch not sent");
    settle_put(s);
}

static void pack_flush(int at_exit)
{
    if (mine && mine->used) send_batch(mine, at_exit);
}

static void thread_ends(void *p)
{
    batch_t *b = p;
    if (b->used && gasneti_init_done) send_batch(b, 0);
    free(b->buf);
    free(b);
    mine = NULL;
}

/* The open batch to loc from tm's endpoint with room for a record of
 * bytes on the wire and get bytes in the reply: the current one, or a new
 * one after the current is sent. */
static batch_t *room_for(gasneti_tm_t tm, gex_EP_Location_t loc, size_t bytes, size_t get)
{
    batch_t *b = my_batch();
    if (b->used && (b->tm->ep != tm->ep || b->loc.gex_rank != loc.gex_rank ||
                    b->loc.gex_ep_index != loc.gex_ep_index || b->used + bytes > pack_max ||
                    b->s->get_bytes + get > pack_max || b->s->nruns == max_records)) {
        send_batch(b, 0);
        if (b->used) /* still open: refused inside a handler */
            gasneti_fatalerror("a GASNet put or get was made inside an AM handler; handlers may "
                               "only reply");
    }
    if (!b->used) {
        gasneti_batched = 1; /* the core sends it before the thread polls, waits or sends an AM */
        b->s = settle_get();
        b->tm = tm;
        b->loc = loc;
    }
    return b;
}

static void add_record(batch_t *b, gasneti_op_t *op, int which, const void *raddr, size_t n,
                       int is_get)
{
    uint64_t addr = (uint64_t)(uintptr_t)raddr;
    uint32_t word = (uint32_t)n << 1 | (uint32_t)is_get;
    memcpy(b->buf + b->used, &addr, 8);
    memcpy(b->buf + b->used + 8, &word, 4);
    b->used += REC_HDR;
    settle_t *s = b->s;
    uintptr_t t = gasneti_target(op, which);
    if (s->nruns && s->runs[s->nruns - 1].target == t) {
        s->runs[s->nruns - 1].n++;
    } else {
        s->runs[s->nruns].target = t;
        s->runs[s->nruns++].n = 1;
    }
    gasneti_add(op, which, 1);
}

int gasnete_pack_put(gasneti_op_t *op, gasneti_tm_t tm, gex_EP_Location_t loc, void *dest,
                     const void *src, size_t n)
{
    if (n > __atomic_load_n(&item_max, __ATOMIC_RELAXED) || op->kind == OP_BLOCK) return 0;
    batch_t *b = room_for(tm, loc, REC_HDR + n, 0);
    add_record(b, op, GASNETI_PUT, dest, n, 0);
    memcpy(b->buf + b->used, src, n);
    b->used += n;
    return 1;
}

int gasnete_pack_get(gasneti_op_t *op, gasneti_tm_t tm, gex_EP_Location_t loc, void *dest,
                     const void *src, size_t n)
{
    if (n > __atomic_load_n(&item_max, __ATOMIC_RELAXED) || op->kind == OP_BLOCK) return 0;
    batch_t *b = room_for(tm, loc, REC_HDR, n);
    add_record(b, op, GASNETI_GET, src, n, 1);
    settle_t *s = b->s;
    s->gets[s->ngets].dest = dest;
    s->gets[s->ngets++].len = (uint32_t)n;
    s->get_bytes += n;
    return 1;
}

/* ---- the target */

typedef struct {
    uint64_t addr;
    size_t len;
    int is_get;
} rec_t;

/* The record at *off of a batch of n bytes, checked against the wire's
 * framing; advances *off past it. */
static rec_t next_record(const char *buf, size_t n, size_t *off, int from)
{
    rec_t r;
    uint32_t word;
    if (n - *off < REC_HDR)
        gasneti_fatalerror("a packed RMA batch from node %d ends inside a record header (byte %zu "
                           "of %zu)", from, *off, n);
    memcpy(&r.addr, buf + *off, 8);
    memcpy(&word, buf + *off + 8, 4);
    r.len = word >> 1;
    r.is_get = word & 1;
    *off += REC_HDR;
    if (r.len == 0 || (!r.is_get && r.len > n - *off))
        gasneti_fatalerror("a packed RMA batch from node %d has a %s record of %zu bytes at byte "
                           "%zu, with %zu bytes left", from, r.is_get ? "get" : "put", r.len,
                           *off - REC_HDR, n - *off);
    if (!r.is_get) *off += r.len;
    return r;
}

static void pack_h(ammpi_token_t tok, void *buf, size_t n, int32_t s_hi, int32_t s_lo,
                   int32_t get_bytes)
{
    ammpi_token_info_t ti;
    ammpi_token_info(tok, &ti);
    gex_EP_Location_t me = {gasneti_mynode, (gex_EP_Index_t)ti.ep};
    const gasnet_seginfo_t *seg = gasneti_peer_segment(me);
    const char *p = buf;
    size_t total = 0, want = (size_t)(uint32_t)get_bytes;
    for (size_t off = 0; off < n;) {
        rec_t r = next_record(p, n, &off, ti.src);
        if (!gasneti_in_seginfo(seg, (void *)(uintptr_t)r.addr, r.len))
            gasneti_fatalerror("a packed %s from node %d names [%p, +%zu), outside the segment of "
                               "endpoint %d", r.is_get ? "get" : "put", ti.src,
                               (void *)(uintptr_t)r.addr, r.len, ti.ep);
        if (gasneti_mk_lookup((void *)(uintptr_t)r.addr, r.len))
            gasneti_fatalerror("a packed %s from node %d names [%p, +%zu), device memory (batches "
                               "carry host memory only)", r.is_get ? "get" : "put", ti.src,
                               (void *)(uintptr_t)r.addr, r.len);
        if (r.is_get) total += r.len;
    }
    if (total != want || total > GASNETI_AM_MAX_PAYLOAD)
        gasneti_fatalerror("a packed RMA batch from node %d announces %zu get bytes but its "
                           "records ask for %zu", ti.src, want, total);
    char *out = NULL;
    ammpi_prep_t prep;
    if (total) {
        static const int32_t no_args_yet[2]; /* ammpi_commit gets the real ones */
        ammpi_msg_t m = {AMMPI_MEDIUM, 0, 0, 0, 0, NULL, 0, NULL, 2, no_args_yet, 0, NULL};
        if (ammpi_prepare(NULL, tok, &m, total, &prep) != AMMPI_OK || prep.offer_size < total)
            gasneti_fatalerror("no reply buffer of %zu bytes for a packed RMA batch", total);
        out = prep.offer;
    }
    for (size_t off = 0; off < n;) {
        rec_t r = next_record(p, n, &off, ti.src);
        void *addr = (void *)(uintptr_t)r.addr;
        if (r.is_get) {
            memcpy(out, addr, r.len);
            out += r.len;
        } else {
            memcpy(addr, p + off - r.len, r.len);
        }
    }
    if (total) {
        int32_t args[2] = {s_hi, s_lo};
        gasnete_am_commit(&prep, GASNETE_H_PACK_DATA, total, args);
    } else {
        gasnete_am_reply(tok, AMMPI_SHORT, GASNETE_H_PACK_ACK, NULL, 0, NULL, 2, s_hi, s_lo);
    }
}

/* ---- the initiator, on the reply */

static void settle(ammpi_token_t tok, int32_t k_hi, int32_t k_lo, const char *data, size_t n)
{
    int src = -1;
    ammpi_token_source(tok, &src);
    settle_t *s = gasnete_ticket_redeem(k_hi, k_lo, GASNETE_TK_PACK, src,
                                        data ? "a packed RMA batch's data reply"
                                             : "a packed RMA batch's ack").ptr;
    if (n != s->get_bytes)
        gasneti_fatalerror("the reply from node %d to a packed RMA batch carries %zu bytes, not "
                           "the %zu its gets asked for", src, n, s->get_bytes);
    for (size_t i = 0; i < s->ngets; i++) {
        memcpy(s->gets[i].dest, data, s->gets[i].len);
        data += s->gets[i].len;
    }
    for (size_t i = 0; i < s->nruns; i++) gasneti_complete_n(s->runs[i].target, s->runs[i].n);
    settle_put(s);
}

static void pack_ack_h(ammpi_token_t tok, int32_t k_hi, int32_t k_lo)
{
    settle(tok, k_hi, k_lo, NULL, 0);
}

static void pack_data_h(ammpi_token_t tok, void *buf, size_t n, int32_t k_hi, int32_t k_lo)
{
    settle(tok, k_hi, k_lo, buf ? buf : "", n); /* an empty Medium's buf may be NULL */
}

#define REQ(index, fn, cat, n) {index, (ammpi_handler_fn)(fn), (cat) | AMMPI_REQUEST, n}
#define REP(index, fn, cat, n) {index, (ammpi_handler_fn)(fn), (cat) | AMMPI_REPLY, n}
static const gasneti_handler_t handlers[] = {
    REQ(GASNETE_H_PACK, pack_h, AMMPI_MEDIUM | AMMPI_PRIVATE, 3), /* parses its records */
    REP(GASNETE_H_PACK_ACK, pack_ack_h, AMMPI_SHORT, 2),
    REP(GASNETE_H_PACK_DATA, pack_data_h, AMMPI_MEDIUM, 2),
    {0, NULL, 0, 0},
};

const gasneti_layer_t gasnete_pack_layer = {.name = "pack", .handlers = handlers, .flush = pack_flush};
