/* The collective machinery (see coll.h): mailbox, sending, operations in
 * flight and their progress, and the team barrier.
 *
 * BARRIER. Dissemination: in round r a member sends to rank + 2^r and
 * waits for rank - 2^r (mod N); after ceil(lg N) rounds every member has
 * heard, directly or not, from every other, so all have entered.
 */
#include "coll.h"

#include <stdlib.h>
#include <string.h>

typedef struct letter {
    struct letter *next;
    uint64_t team;
    uint32_t seq;
    int tag;
    uint32_t sig;
    gex_Rank_t src;
    int dest_ep; /* the member it is for: a process may hold several of one team */
    int from;    /* the sender's job rank */
    int early;   /* its team was unknown here when it came (counted in early_bytes) */
    size_t off; /* of a piece in its payload */
    size_t len;
    char data[];
} letter_t;

/* The mailbox and the operations are FIFO lists: pieces are taken in the
 * order they came, a team's operations progress in the order they
 * started. A new operation joins `started` (under lock); the thread
 * holding progress_lock moves those to the end of their team's `active`
 * list, and the team into `busy` (the teams with operations in flight),
 * which only it touches, so that a poll with operations in flight and
 * nothing new takes one trylock, not the mailbox's lock as well. */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER; /* mailbox and started list */
static letter_t *mailbox, **mailbox_tail = &mailbox;
static gasnete_coll_op_t *started, **started_tail = &started;
static pthread_mutex_t progress_lock = PTHREAD_MUTEX_INITIALIZER;
static struct gasnete_coll_team *busy; /* under progress_lock; read unlocked */

/* With one thread in the library (SEQ, no progress thread) the mutexes
 * order nothing, and their calls were a tenth of a small collective's
 * instructions: they are skipped, and progress_lock is then a flag that
 * keeps coll_progress from running inside itself (a step that polls). */
static int locking = 1; /* until coll_init knows */
static int progressing;
static void take_lock(void)
{
    if (locking) pthread_mutex_lock(&lock);
}
static void drop_lock(void)
{
    if (locking) pthread_mutex_unlock(&lock);
}
static int try_progress_lock(void)
{
    if (locking) return pthread_mutex_trylock(&progress_lock) == 0;
    if (progressing) return 0;
    progressing = 1;
    return 1;
}
static void drop_progress_lock(void)
{
    if (locking) pthread_mutex_unlock(&progress_lock);
    else progressing = 0;
}

enum { A_ID_HI, A_ID_LO, A_SEQ, A_TAG, A_SRC, A_SIG, A_OFF_HI, A_OFF_LO, NARGS };

/* Letters of more than LETTER_SMALL bytes, up to a piece, hold a whole
 * piece and are kept for reuse (up to LETTERS_KEPT): a large broadcast's pieces,
 * malloc'd and freed one after another, made glibc give the heap's top
 * back to the kernel and fault it in again for every piece, which made
 * such broadcasts 3-5 times slower in some runs. */
#define LETTER_SMALL 4096
#define LETTERS_KEPT 16
static letter_t *kept; /* under lock */
static int nkept;

static int reusable(size_t len) { return len > LETTER_SMALL && len <= GASNETE_COLL_PIECE; }

/* EARLY LETTERS. A letter for a team this node does not know is kept: a
 * member may start using a team a little before this node has finished
 * creating it. Not without bound, though: what each sender holds here in
 * such letters is counted (early_bytes, by job rank) and may not pass
 * GASNET_COLL_EARLY_MAX (default 256 MiB), whatever a faulty or hostile
 * peer sends. The teams this node knows are those with collectives
 * (gasnete_coll_team_init to _fini), with a count per id: a process may
 * hold several members of one team. All under lock. */
typedef struct {
    uint64_t id;
    int refs;
} known_t;
static known_t *known;
static int nknown, known_cap;
static uint64_t *early_bytes;
static uint64_t early_max = (uint64_t)256 << 20;

static known_t *known_find(uint64_t id)
{
    for (int i = 0; i < nknown; i++)
        if (known[i].id == id) return &known[i];
    return NULL;
}

static uint64_t letter_cost(const letter_t *l) { return sizeof *l + l->len; }

static letter_t *letter_new(size_t len)
{
    letter_t *l = NULL;
    if (reusable(len)) {
        take_lock();
        if ((l = kept)) {
            kept = l->next;
            nkept--;
        }
        drop_lock();
    }
    if (!l) l = malloc(sizeof *l + (reusable(len) ? GASNETE_COLL_PIECE : len));
    if (!l) gasneti_fatalerror("collectives: out of memory for a %zu-byte message", len);
    return l;
}

static void letter_free(letter_t *l)
{
    if (reusable(l->len)) {
        take_lock();
        int keep = nkept < LETTERS_KEPT;
        if (keep) {
            l->next = kept;
            kept = l;
            nkept++;
        }
        drop_lock();
        if (keep) return;
    }
    free(l);
}

static void coll_h(ammpi_token_t tok, void *buf, size_t len, int32_t id_hi, int32_t id_lo,
                   int32_t seq, int32_t tag, int32_t src, int32_t sig, int32_t off_hi,
                   int32_t off_lo)
{
    letter_t *l = letter_new(len);
    ammpi_token_info_t ti;
    ammpi_token_info(tok, &ti);
    l->dest_ep = ti.ep;
    l->next = NULL;
    l->team = GASNETE_U64(id_hi, id_lo);
    l->seq = (uint32_t)seq;
    l->tag = tag;
    l->sig = (uint32_t)sig;
    l->src = (gex_Rank_t)src;
    l->off = (size_t)GASNETE_U64(off_hi, off_lo);
    l->len = len;
    l->from = ti.src;
    memcpy(l->data, buf, len);
    uint64_t held = 0, team = l->team; /* l may be taken once unlocked */
    take_lock();
    l->early = !known_find(l->team);
    if (l->early) {
        if (!early_bytes) early_bytes = calloc(gasneti_nodes, sizeof *early_bytes);
        if (!early_bytes) gasneti_fatalerror("collectives: out of memory");
        held = early_bytes[l->from] += letter_cost(l);
    }
    *mailbox_tail = l;
    mailbox_tail = &l->next;
    drop_lock();
    if (held > early_max)
        gasneti_fatalerror("collectives: node %d has sent %llu bytes of collective messages for "
                           "teams this node does not know (the last for team %llx), more than "
                           "GASNET_COLL_EARLY_MAX=%llu: every member must create a team before "
                           "using it, and the limit allows for one that starts a little early",
                           ti.src, (unsigned long long)held, (unsigned long long)team,
                           (unsigned long long)early_max);
}

void gasnete_coll_send_piece(const gasnete_coll_op_t *op, int tag, gex_Rank_t rank,
                             const void *data, size_t len, size_t off)
{
    gasneti_tm_t tm = op->tm;
    gasnete_am_request(tm, gasneti_tm_member(tm, rank), AMMPI_MEDIUM, GASNETE_H_COLL, data, len,
                       NULL, NULL, NARGS, GASNETE_HI(tm->id), GASNETE_LO(tm->id), (int32_t)op->seq,
                       tag, (int32_t)tm->rank, (int32_t)op->sig, GASNETE_HI(off), GASNETE_LO(off));
}

void gasnete_coll_send(const gasnete_coll_op_t *op, int tag, gex_Rank_t rank, const void *data,
                       size_t len)
{
    gasnete_coll_send_piece(op, tag, rank, data, len, 0);
}

void gasnete_coll_send_all(const gasnete_coll_op_t *op, int tag, gex_Rank_t rank,
                           const void *data, size_t n)
{
    size_t off = 0;
    do {
        size_t len = n - off < GASNETE_COLL_PIECE ? n - off : GASNETE_COLL_PIECE;
        gasnete_coll_send_piece(op, tag, rank, (const char *)data + off, len, off);
        off += len;
    } while (off < n);
}

/* Unlinks the first letter of op tagged tag from rank, or NULL. */
static letter_t *unlink_letter(const gasnete_coll_op_t *op, int tag, gex_Rank_t rank)
{
    gasneti_tm_t tm = op->tm;
    uint32_t seq = op->seq;
    take_lock();
    letter_t **pl = &mailbox;
    while (*pl && !((*pl)->team == tm->id && (*pl)->seq == seq && (*pl)->tag == tag &&
                    (*pl)->src == rank && (*pl)->dest_ep == tm->ep->index))
        pl = &(*pl)->next;
    letter_t *l = *pl;
    if (l) {
        *pl = l->next;
        if (mailbox_tail == &l->next) mailbox_tail = pl;
    }
    drop_lock();
    if (l && l->sig != op->sig)
        gasneti_fatalerror("%s: collective number %u on team %llx: rank %u of the team called a "
                           "different collective, or this one with different single-valued "
                           "arguments (root, data type, operation, size; signature %08x there, "
                           "%08x here): every member must make the same calls in the same order",
                           op->call, seq, (unsigned long long)tm->id, rank, l->sig, op->sig);
    return l;
}

static void too_long(const gasnete_coll_op_t *op, int tag, gex_Rank_t rank, const letter_t *l,
                     size_t cap)
{
    gasneti_fatalerror("%s: a %zu-byte message (offset %zu) from rank %u where at most %zu fit "
                       "(team %llx, operation %u, step %d): the members disagree on a "
                       "single-valued size", op->call, l->len, l->off, rank, cap,
                       (unsigned long long)op->tm->id, op->seq, tag);
}

long gasnete_coll_take(gasnete_coll_op_t *op, int tag, gex_Rank_t rank, void *buf, size_t cap)
{
    letter_t *l = unlink_letter(op, tag, rank);
    if (!l) return -1;
    if (l->len > cap) too_long(op, tag, rank, l, cap);
    size_t len = l->len;
    if (len) memcpy(buf, l->data, len);
    letter_free(l);
    return (long)len;
}

long gasnete_coll_take_piece(gasnete_coll_op_t *op, int tag, gex_Rank_t rank, void *base,
                             size_t cap, size_t *off)
{
    letter_t *l = unlink_letter(op, tag, rank);
    if (!l) return -1;
    if (l->off > cap || l->len > cap - l->off || (l->len != GASNETE_COLL_PIECE && l->off + l->len != cap))
        gasneti_fatalerror("%s: rank %u of the team sent a payload of %s%zu bytes where this rank "
                           "expects %zu: the members disagree on a single-valued size or count",
                           op->call, rank, l->len == GASNETE_COLL_PIECE ? "at least " : "",
                           l->off + l->len, cap);
    size_t len = l->len;
    if (len) memcpy((char *)base + l->off, l->data, len);
    *off = l->off;
    letter_free(l);
    return (long)len;
}

/* ---- operations in flight */

static void finish(gasnete_coll_op_t *op)
{
    free(op->state);
    gasneti_op_t *ev = op->event;
    __atomic_store_n(&op->done, 1, __ATOMIC_RELEASE);
    if (ev) gasneti_complete(gasneti_target(ev, GASNETI_GET));
}

/* One step of op's algorithm: 1 once its part is done. */
static int step(gasnete_coll_op_t *op)
{
    return op->shm_n ? gasnete_coll_shm_step(op) : op->progress(op);
}

/* Appends op to its team's operations in flight (under progress_lock). */
static void activate(gasnete_coll_op_t *op)
{
    struct gasnete_coll_team *c = op->tm->coll;
    op->next = NULL;
    if (!c->active) {
        c->active_tail = &c->active;
        c->next_busy = busy;
        __atomic_store_n(&busy, c, __ATOMIC_RELEASE);
    }
    *c->active_tail = op;
    c->active_tail = &op->next;
}

/* Steps team c's oldest operations and unlinks those done whose turn it
 * is onto *done (finished by the caller, once nothing touches c: a thread
 * waiting for a team's last operation may then free the team). Only the
 * oldest GASNETE_COLL_WINDOW of a team are stepped: every member steps a
 * team's operations in the order it started them, and the spec's rule
 * that collectives be as deadlock-free as if each were a barrier makes
 * any prefix of them safe to run first. Stepping every one on every poll
 * made n in flight cost n^2. The window is per team: teams used by
 * different threads start theirs in different orders on different nodes,
 * and one window over all of them could hold only one team's operations
 * here and only another's there (a client's 4 threads on 4 teams hung). */
static void progress_team(struct gasnete_coll_team *c, gasnete_coll_op_t ***done)
{
    int window = GASNETE_COLL_WINDOW;
    gasnete_coll_op_t **pop = &c->active;
    while (*pop && window > 0) {
        gasnete_coll_op_t *op = *pop;
        if (!op->ready && step(op)) op->ready = 1;
        if (op->ready && op->seq == c->retired) {
            *pop = op->next;
            if (!op->next) c->active_tail = pop;
            __atomic_store_n(&c->retired, c->retired + 1, __ATOMIC_RELEASE);
            op->next = NULL;
            **done = op;
            *done = &op->next;
        } else {
            pop = &op->next;
            window--;
        }
    }
}

/* Runs the operations' progress (one thread at a time), each team's in
 * start order, and completes those done whose turn it is. */
static void coll_progress(void)
{
    if (!__atomic_load_n(&started, __ATOMIC_ACQUIRE) && !__atomic_load_n(&busy, __ATOMIC_ACQUIRE))
        return;
    if (!try_progress_lock()) return;
    if (__atomic_load_n(&started, __ATOMIC_ACQUIRE)) {
        take_lock();
        gasnete_coll_op_t *op = started;
        __atomic_store_n(&started, NULL, __ATOMIC_RELAXED); /* read unlocked */
        started_tail = &started;
        drop_lock();
        while (op) {
            gasnete_coll_op_t *next = op->next;
            activate(op);
            op = next;
        }
    }
    gasnete_coll_op_t *finished = NULL, **done = &finished;
    for (struct gasnete_coll_team **pc = &busy; *pc;) {
        struct gasnete_coll_team *c = *pc;
        progress_team(c, &done);
        if (c->active) pc = &c->next_busy;
        else __atomic_store_n(pc, c->next_busy, __ATOMIC_RELEASE);
    }
    drop_progress_lock();
    while (finished) {
        gasnete_coll_op_t *op = finished;
        finished = op->next;
        int internal = op->event == NULL && !op->detached;
        finish(op);
        if (!internal) free(op);
    }
}

/* Trace category of a collective: barriers B, the others W. */
static char coll_cat(const char *call) { return strstr(call, "arrier") ? 'B' : 'W'; }

static void begin(gasnete_coll_op_t *op, gasneti_op_t *event, int nb)
{
    if (GASNETI_TS_ANY)
        GASNETI_TRACE_EVENT(coll_cat(op->call), op->call, "team %p size %u%s", (void *)op->tm,
                            op->tm->size, nb ? " (NB)" : "");
    op->event = event;
    op->done = 0;
    op->ready = 0;
    op->next = NULL;
    if (event) gasneti_add(event, GASNETI_GET, 1);
}

/* Takes op's numbers in its team's order; with lock held. */
static void number(gasnete_coll_op_t *op)
{
    op->seq = op->tm->coll->next_seq++;
    if (op->tm->coll->shm) op->shm_n = ++op->tm->coll->shm_started;
}

void gasnete_coll_start(gasnete_coll_op_t *op, gasneti_op_t *event)
{
    begin(op, event, event != NULL);
    take_lock();
    number(op);
    __atomic_store_n(started_tail, op, __ATOMIC_RELEASE); /* may be started itself */
    started_tail = &op->next;
    drop_lock();
    coll_progress();
}

/* An operation started while no collective of any team is in flight is
 * stepped at once by the starting thread, and if that step finishes it,
 * retired there: no event, no list (GEX_EVENT_INVALID, which the spec
 * allows for an operation complete on return). A small broadcast's root
 * and a barrier's last member to arrive end so: the event and the lists
 * were a fifth of such a call's instructions. Returns 0 if op could not
 * go first (the caller starts it as usual); else 1, with *event
 * GEX_EVENT_INVALID if op is over (and freed), or op's event, op then
 * first in its team's list. */
static int run_at_once(gasnete_coll_op_t *op, gex_Event_t *event)
{
    if (__atomic_load_n(&started, __ATOMIC_ACQUIRE) || __atomic_load_n(&busy, __ATOMIC_ACQUIRE))
        return 0;
    if (!try_progress_lock()) return 0;
    take_lock();
    int first = !started && !busy; /* `busy` changes only under progress_lock */
    if (first) number(op);
    drop_lock();
    if (!first) {
        drop_progress_lock();
        return 0;
    }
    begin(op, NULL, 1);
    /* nothing in flight: every collective numbered before op has retired */
    op->ready = step(op);
    struct gasnete_coll_team *c = op->tm->coll;
    if (op->ready && op->seq == c->retired) {
        __atomic_store_n(&c->retired, c->retired + 1, __ATOMIC_RELEASE);
        drop_progress_lock();
        finish(op); /* no event to complete */
        free(op);
        *event = GEX_EVENT_INVALID;
        return 1;
    }
    gasneti_op_t *ev = gasneti_op_alloc(OP_EOP);
    op->event = ev;
    gasneti_add(ev, GASNETI_GET, 1);
    activate(op); /* ops started meanwhile go after it */
    drop_progress_lock();
    *event = gasneti_event_of(ev);
    return 1;
}

gasnete_coll_op_t *gasnete_coll_op_new(gasneti_tm_t tm, int (*progress)(gasnete_coll_op_t *),
                                       void *state, const char *call)
{
    /* malloc, not calloc, for what each operation allocates: glibc's calloc
     * never takes from its per-thread cache, so an operation's objects went
     * through the slow paths of malloc and free every time (a quarter of a
     * small broadcast's instructions) */
    gasnete_coll_op_t *op = malloc(sizeof *op);
    if (!op) gasneti_fatalerror("collectives: out of memory for an operation");
    *op = (gasnete_coll_op_t){.tm = tm, .progress = progress, .state = state, .call = call};
    /* FNV-1a of the name, eight bytes at a time (a byte at a time was a
     * sixth of a small broadcast's instructions): the same in every process */
    uint64_t h = 14695981039346656037ull;
    for (size_t i = 0, len = strlen(call); i < len; i += 8) {
        uint64_t w = 0;
        memcpy(&w, call + i, len - i < 8 ? len - i : 8);
        h = (h ^ w) * 1099511628211ull;
    }
    gasnete_coll_sign(op, h);
    return op;
}

void gasnete_coll_sign(gasnete_coll_op_t *op, uint64_t value)
{
    uint64_t h = (op->sig ^ value) * 0x9e3779b97f4a7c15ull; /* a multiplicative mix */
    op->sig = (uint32_t)(h >> 32);
}

gex_Event_t gasnete_coll_start_nb(gasnete_coll_op_t *op)
{
    gex_Event_t done;
    if (run_at_once(op, &done)) return done;
    gasneti_op_t *ev = gasneti_op_alloc(OP_EOP);
    gasnete_coll_start(op, ev);
    return gasneti_event_of(ev);
}

void gasnete_coll_run(gasnete_coll_op_t *op, const char *call) { gasnete_coll_run_all(&op, 1, call); }

void gasnete_coll_start_detached(gasnete_coll_op_t *op)
{
    op->detached = 1;
    gasnete_coll_start(op, NULL);
}

void gasnete_coll_quiesce(gasneti_tm_t tm, const char *call)
{
    int idle = 0;
    for (;;) {
        take_lock();
        int busy = tm->coll->next_seq != __atomic_load_n(&tm->coll->retired, __ATOMIC_ACQUIRE);
        drop_lock();
        if (!busy) return;
        GASNETI_CHECK_MAY_POLL(call);
        gasneti_poll_wait(&idle);
    }
}

/* ---- allgather of one fixed-size record per member (team construction) */

typedef struct {
    char *all;
    size_t size;
    gex_Rank_t have;
    unsigned char got[]; /* by rank */
} allgather_t;

/* Sends this member's record to every other (step 0), then takes theirs. */
static int allgather_progress(gasnete_coll_op_t *op)
{
    gasneti_tm_t tm = op->tm;
    allgather_t *x = op->state;
    if (op->step == 0) {
        for (gex_Rank_t r = 0; r < tm->size; r++)
            if (r != tm->rank) gasnete_coll_send(op, 0, r, x->all + tm->rank * x->size, x->size);
        op->step = 1;
    }
    for (gex_Rank_t r = 0; r < tm->size; r++) {
        if (r == tm->rank || x->got[r]) continue;
        long len = gasnete_coll_take(op, 0, r, x->all + r * x->size, x->size);
        if (len < 0) continue;
        if ((size_t)len != x->size)
            gasneti_fatalerror("%s: rank %u of the team sent a record of %ld bytes (expected %zu)",
                               op->call, r, len, x->size);
        x->got[r] = 1;
        x->have++;
    }
    return x->have == tm->size;
}

gasnete_coll_op_t *gasnete_coll_allgather_op(gasneti_tm_t tm, void *all, size_t size, const char *call)
{
    allgather_t *x = calloc(1, sizeof *x + tm->size);
    if (!x) gasneti_fatalerror("%s: out of memory", call);
    x->all = all;
    x->size = size;
    x->have = 1;
    gasnete_coll_op_t *op = gasnete_coll_op_new(tm, allgather_progress, x, call);
    gasnete_coll_sign(op, size);
    return op;
}

void gasnete_coll_run_all(gasnete_coll_op_t **ops, size_t n, const char *call)
{
    uint64_t t0 = GASNETI_TS_ANY ? gasneti_trace_now() : 0;
    for (size_t i = 0; i < n; i++) gasnete_coll_start(ops[i], NULL);
    int idle = 0;
    for (size_t i = 0; i < n; i++) {
        while (!__atomic_load_n(&ops[i]->done, __ATOMIC_ACQUIRE)) {
            GASNETI_CHECK_MAY_POLL(call);
            gasneti_poll_wait(&idle);
        }
        free(ops[i]);
    }
    GASNETI_TRACE_TIME(coll_cat(call), call, t0);
}

void gasnete_coll_team_init(gasneti_tm_t tm)
{
    tm->coll = calloc(1, sizeof *tm->coll);
    if (!tm->coll) gasneti_fatalerror("out of memory for a team");
    take_lock();
    known_t *k = known_find(tm->id);
    if (!k) {
        if (nknown == known_cap) {
            known_cap = known_cap ? 2 * known_cap : 16;
            known = realloc(known, (size_t)known_cap * sizeof *known);
            if (!known) gasneti_fatalerror("out of memory for a team");
        }
        k = &known[nknown++];
        *k = (known_t){tm->id, 0};
        /* the letters that came early for it count no more */
        for (letter_t *l = mailbox; l; l = l->next)
            if (l->early && l->team == tm->id) {
                l->early = 0;
                early_bytes[l->from] -= letter_cost(l);
            }
    }
    k->refs++;
    drop_lock();
}

void gasnete_coll_team_fini(gasneti_tm_t tm)
{
    gasnete_coll_shm_fini(tm);
    free(tm->coll);
    tm->coll = NULL;
    take_lock();
    known_t *k = known_find(tm->id);
    if (k && --k->refs == 0) *k = known[--nknown];
    drop_lock();
}

static void coll_init(void)
{
    locking = ammpi_config(gasnetc_ep)->thread_safe;
    early_max = (uint64_t)gasneti_getenv_size("GASNET_COLL_EARLY_MAX", (int64_t)early_max, 65536,
                                              INT64_MAX);
    gasnete_coll_team_init(gasneti_tm0);
    gasnete_coll_legacy_init(gasneti_tm0);
}

/* ---- barrier */

int gasnete_coll_barrier_among(gasnete_coll_op_t *op, const gasnete_coll_group_t *g, int tag0,
                               int *step)
{
    gex_Rank_t n = g->n;
    for (;;) {
        int round = *step / 2;
        if ((1UL << round) >= n) return 1;
        gex_Rank_t d = (gex_Rank_t)(1UL << round);
        if (*step % 2 == 0) { /* send this round */
            gasnete_coll_send(op, tag0 + round, gasnete_coll_at(g, (g->me + d) % n), NULL, 0);
            (*step)++;
        }
        char none;
        if (gasnete_coll_take(op, tag0 + round, gasnete_coll_at(g, (g->me + n - d) % n), &none, 0) < 0)
            return 0;
        (*step)++;
    }
}

int gasnete_coll_barrier_step(gasnete_coll_op_t *op, int tag0, int *step)
{
    gasnete_coll_group_t all = {op->tm->size, op->tm->rank, NULL};
    return gasnete_coll_barrier_among(op, &all, tag0, step);
}

static int barrier_progress(gasnete_coll_op_t *op)
{
    return gasnete_coll_barrier_step(op, 0, &op->step);
}

gasnete_coll_op_t *gasnete_coll_barrier_op(gasneti_tm_t tm)
{
    gasnete_coll_op_t *op = gasnete_coll_op_new(tm, barrier_progress, NULL, "gex_Coll_BarrierNB");
    gasnete_coll_shm_barrier(op);
    return op;
}

gasneti_tm_t gasnete_coll_team(gex_TM_t tm, gex_Flags_t flags, const char *call)
{
    GASNETI_CHECK_READY(call);
    gasneti_tm_t t = gasneti_import_team(tm, call);
    GASNETI_CHECK_MAY_COMMUNICATE(call);
    if (flags) gasneti_fatalerror("%s: flags must be 0 (got 0x%x)", call, (unsigned)flags);
    if (!t->coll || (t->flags & GEX_FLAG_TM_NO_SCRATCH))
        gasneti_fatalerror("%s: the team was created without collectives (or with "
                           "GEX_FLAG_TM_NO_SCRATCH)", call);
    return t;
}

gex_Event_t gex_Coll_BarrierNB(gex_TM_t tm, gex_Flags_t flags)
{
    gasneti_tm_t t = gasnete_coll_team(tm, flags, "gex_Coll_BarrierNB");
    __atomic_thread_fence(__ATOMIC_RELEASE);
    return gasnete_coll_start_nb(gasnete_coll_barrier_op(t));
}

void gex_Coll_BarrierBlocking(gex_TM_t tm, gex_Flags_t flags)
{
    gasneti_tm_t t = gasnete_coll_team(tm, flags, "gex_Coll_BarrierBlocking");
    __atomic_thread_fence(__ATOMIC_RELEASE);
    gasnete_coll_run(gasnete_coll_barrier_op(t), "gex_Coll_BarrierBlocking");
    __atomic_thread_fence(__ATOMIC_ACQUIRE);
}

static const gasneti_handler_t handlers[] = {
    {GASNETE_H_COLL, (ammpi_handler_fn)coll_h, AMMPI_MEDIUM | AMMPI_REQUEST, NARGS},
    {0, NULL, 0, 0},
};

const gasneti_layer_t gasnete_coll_layer = {
    .name = "coll",
    .init = coll_init,
    .attach = gasnete_coll_attach,
    .handlers = handlers,
    .progress = coll_progress,
};
