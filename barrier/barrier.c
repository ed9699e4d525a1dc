/* Split-phase named barriers (spec 8), selected by GASNET_BARRIER:
 *
 *   AMDISSEM            dissemination over AM: ceil(lg N) rounds; in round i
 *                       node n sends what it knows to (n + 2^i) mod N and
 *                       waits for (n - 2^i) mod N. After the last round every
 *                       node has merged every node's (id, flags).
 *   AMCENTRAL           every node reports to node 0, which merges and, once
 *                       all N have reported, tells every node the result.
 *   SHM                 hierarchical: the nodes of a host meet in a page of
 *                       shared memory (core-native/shm.c); the first node of
 *                       each host then runs AMDISSEM among those first nodes
 *                       and publishes the result in the page. On a single
 *                       host every node reads every node's line instead
 *                       (flat, no leader).
 * The default is SHM when the shm backend serves this job's hosts, else
 * AMDISSEM. Barriers work from client start-up on, before any segment
 * exists (EX clients rely on that): until the segment attach brings up
 * the shm backend, SHM runs as AMDISSEM; the attach, itself collective and
 * ended by a barrier of its own, switches every node at the same point.
 *
 * Both compute the same merged value, so results are identical: anonymous
 * entries match anything, two different named ids or a MISMATCH flag make
 * the barrier mismatch. Messages carry the phase parity: a node can be at
 * most one barrier ahead of another. Progress runs in every poll (a node
 * that has notified keeps forwarding rounds while it computes and polls),
 * never inside a handler; handlers only record what arrived.
 */
#include "events.h"
#include "rma.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define FLAG_ANON GASNET_BARRIERFLAG_ANONYMOUS
#define FLAG_MISMATCH GASNET_BARRIERFLAG_MISMATCH
#define KNOWN_FLAGS (GASNET_BARRIERFLAG_ANONYMOUS | GASNET_BARRIERFLAG_MISMATCH | \
                     GASNET_BARRIERFLAG_IMAGES | GASNET_BARRIERFLAG_UNNAMED)

typedef struct {
    int id;
    int flags; /* FLAG_ANON: no node named it (yet); FLAG_MISMATCH */
} value_t;

static const value_t EMPTY = {0, FLAG_ANON};

static value_t merge(value_t a, value_t b)
{
    if ((a.flags | b.flags) & FLAG_MISMATCH) return (value_t){0, FLAG_MISMATCH};
    if (a.flags & FLAG_ANON) return b;
    if (b.flags & FLAG_ANON) return a;
    return a.id == b.id ? a : (value_t){0, FLAG_MISMATCH};
}

enum { DISSEM, CENTRAL, SHM };
static int algorithm;
/* The nodes the dissemination runs among: all of them, or (SHM) the first
 * node of each host; this node's place in that list. */
static gasnet_node_t *team;
static int team_size, team_index, rounds;
static pthread_mutex_t state_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t progress_lock = PTHREAD_MUTEX_INITIALIZER;

/* This node's current barrier; written by the notifying thread. */
static int phase, notified, notify_id, notify_flags;
static int active; /* notified and not yet complete: progress has work */
static int completed_once, last_named, last_id;

/* Guarded by state_lock. DISSEM: what arrived per phase and round, what
 * this node knows and how many rounds it finished. CENTRAL: node 0's
 * count and merge per phase; every node's announced result per phase. */
static struct { int arrived; value_t v; } recv[2][32];
static value_t known;
static int step;
static int count[2];
static value_t gathered[2];
static int done[2];
static value_t result[2];

static void send4(gasnet_node_t node, int handler, int a, int b, value_t v)
{
    gex_EP_Location_t loc = {node, 0};
    gasnete_am_request(gasneti_tm0, loc, AMMPI_SHORT, handler, NULL, 0, NULL, NULL, 4, a, b, v.id,
                       v.flags);
}

enum { H_DISSEM = GASNETE_H_BARRIER, H_CENTRAL_NOTIFY, H_CENTRAL_DONE };

/* ---- AMDISSEM */

static gasnet_node_t dissem_peer(int round, int dir)
{
    long n = team_size, d = 1L << round;
    return team[((team_index + dir * d) % n + n) % n];
}

static void dissem_h(gasnet_token_t tok, gasnet_handlerarg_t ph, gasnet_handlerarg_t round,
                     gasnet_handlerarg_t id, gasnet_handlerarg_t flags)
{
    gasnet_node_t src;
    gasnet_AMGetMsgSource(tok, &src);
    if ((ph != 0 && ph != 1) || round < 0 || round >= rounds || src != dissem_peer(round, -1))
        gasneti_fatalerror("barrier: malformed message from node %u (phase %d, round %d)", src,
                           ph, round);
    pthread_mutex_lock(&state_lock);
    if (recv[ph][round].arrived)
        gasneti_fatalerror("barrier: node %u sent round %d of one barrier twice", src, round);
    recv[ph][round].arrived = 1;
    recv[ph][round].v = (value_t){id, flags};
    pthread_mutex_unlock(&state_lock);
}

static int dissem_progress(void)
{
    for (;;) {
        pthread_mutex_lock(&state_lock);
        if (step >= rounds || !recv[phase][step].arrived) {
            int finished = step >= rounds;
            pthread_mutex_unlock(&state_lock);
            return finished;
        }
        known = merge(known, recv[phase][step].v);
        recv[phase][step].arrived = 0;
        int s = ++step;
        value_t v = known;
        pthread_mutex_unlock(&state_lock);
        if (s < rounds) send4(dissem_peer(s, +1), H_DISSEM, phase, s, v);
    }
}

static void dissem_start(value_t mine)
{
    pthread_mutex_lock(&state_lock);
    known = mine;
    step = 0;
    pthread_mutex_unlock(&state_lock);
    if (rounds) send4(dissem_peer(0, +1), H_DISSEM, phase, 0, mine);
}

/* ---- AMCENTRAL */

static void gather(int ph, value_t v)
{
    pthread_mutex_lock(&state_lock);
    count[ph]++;
    gathered[ph] = merge(gathered[ph], v);
    pthread_mutex_unlock(&state_lock);
}

static void central_notify_h(gasnet_token_t tok, gasnet_handlerarg_t ph, gasnet_handlerarg_t unused,
                             gasnet_handlerarg_t id, gasnet_handlerarg_t flags)
{
    (void)unused;
    gasnet_node_t src;
    gasnet_AMGetMsgSource(tok, &src);
    if (gasneti_mynode != 0 || (ph != 0 && ph != 1))
        gasneti_fatalerror("barrier: misdirected AMCENTRAL notify from node %u (phase %d; notifies "
                           "go to node 0, for phase 0 or 1)", src, ph);
    gather(ph, (value_t){id, flags});
}

static void central_done_h(gasnet_token_t tok, gasnet_handlerarg_t ph, gasnet_handlerarg_t unused,
                           gasnet_handlerarg_t id, gasnet_handlerarg_t flags)
{
    (void)unused;
    gasnet_node_t src;
    gasnet_AMGetMsgSource(tok, &src);
    if (src != 0 || (ph != 0 && ph != 1))
        gasneti_fatalerror("barrier: malformed AMCENTRAL result from node %u (phase %d; results "
                           "come from node 0, for phase 0 or 1)", src, ph);
    pthread_mutex_lock(&state_lock);
    done[ph] = 1;
    result[ph] = (value_t){id, flags};
    pthread_mutex_unlock(&state_lock);
}

static int central_progress(void)
{
    pthread_mutex_lock(&state_lock);
    int ready = gasneti_mynode == 0 && count[phase] == (int)gasneti_nodes && !done[phase];
    value_t v = gathered[phase];
    if (ready) {
        count[phase] = 0;
        gathered[phase] = EMPTY;
        result[phase] = v;
        done[phase] = 1;
    }
    int finished = done[phase];
    pthread_mutex_unlock(&state_lock);
    if (ready)
        for (gasnet_node_t n = 1; n < gasneti_nodes; n++) send4(n, H_CENTRAL_DONE, phase, 0, v);
    return finished;
}

static void central_start(value_t mine)
{
    if (gasneti_mynode == 0) gather(phase, mine);
    else send4(0, H_CENTRAL_NOTIFY, phase, 0, mine);
}

/* ---- SHM: the host's nodes meet in shared memory; the first node of each
 * host runs the dissemination among hosts and publishes the result. The
 * page is zero at start, so values are stored with FLAG_ANON flipped and a
 * zero word reads as EMPTY. Per phase parity: arrivals, merged value,
 * completions published (a node waits for the count to change) and the
 * result. */
typedef struct {
    uint64_t merged[2];
    int arrived[2];
    int published[2];
    uint64_t result[2];
} shm_page_t;

static shm_page_t *page;
static int host_nodes, host_index, host_started, seen_published;

/* One host (no dissemination) of at most FLAT_MAX nodes: no leader, so a
 * barrier costs one cache-line transfer instead of two. Each node owns a
 * line of the page after the first; for barrier k it writes its value in
 * the slot of k's parity, then k in its epoch, and is through once every
 * node's epoch >= k, merging all values itself. A node rewrites a slot
 * (barrier k+2) only after passing k+1, which no node enters before it
 * has read k's values. */
typedef struct {
    uint64_t epoch;
    uint64_t value[2];
    char pad[GASNETI_CACHE_LINE_BYTES - 24];
} flat_line_t;
#define PAGE_BYTES 4096 /* gasneti_shm_control's page */
#define FLAT_MAX (PAGE_BYTES / GASNETI_CACHE_LINE_BYTES - 1)
static int flat, flat_seen; /* nodes seen through this barrier */
static uint64_t flat_epoch;
static value_t flat_result;

static flat_line_t *flat_line(int i) { return (flat_line_t *)((char *)page + GASNETI_CACHE_LINE_BYTES) + i; }

static uint64_t pack(value_t v)
{
    return (uint64_t)(uint32_t)v.id << 32 | (uint32_t)(v.flags ^ FLAG_ANON);
}

static value_t unpack(uint64_t w)
{
    return (value_t){(int)(uint32_t)(w >> 32), (int)(uint32_t)w ^ FLAG_ANON};
}

static void shm_start(value_t mine)
{
    if (flat) {
        uint64_t k = ++flat_epoch;
        flat_line_t *l = flat_line(host_index);
        __atomic_store_n(&l->value[k % 2], pack(mine), __ATOMIC_RELAXED);
        __atomic_store_n(&l->epoch, k, __ATOMIC_RELEASE);
        flat_seen = 0;
        return;
    }
    int ph = phase;
    seen_published = __atomic_load_n(&page->published[ph], __ATOMIC_ACQUIRE);
    uint64_t old = __atomic_load_n(&page->merged[ph], __ATOMIC_RELAXED);
    while (!__atomic_compare_exchange_n(&page->merged[ph], &old, pack(merge(unpack(old), mine)),
                                        0, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
        continue;
    __atomic_fetch_add(&page->arrived[ph], 1, __ATOMIC_ACQ_REL);
}

static int shm_progress(void)
{
    if (flat) {
        uint64_t k = flat_epoch;
        for (; flat_seen < host_nodes; flat_seen++)
            if (__atomic_load_n(&flat_line(flat_seen)->epoch, __ATOMIC_ACQUIRE) < k) return 0;
        value_t v = EMPTY;
        for (int i = 0; i < host_nodes; i++)
            v = merge(v, unpack(__atomic_load_n(&flat_line(i)->value[k % 2], __ATOMIC_RELAXED)));
        flat_result = v;
        return 1;
    }
    int ph = phase;
    if (host_index != 0)
        return __atomic_load_n(&page->published[ph], __ATOMIC_ACQUIRE) != seen_published;
    if (!host_started) {
        if (__atomic_load_n(&page->arrived[ph], __ATOMIC_ACQUIRE) < host_nodes) return 0;
        host_started = 1;
        dissem_start(unpack(__atomic_load_n(&page->merged[ph], __ATOMIC_ACQUIRE)));
    }
    if (!dissem_progress()) return 0;
    host_started = 0;
    __atomic_store_n(&page->result[ph], pack(known), __ATOMIC_RELAXED);
    __atomic_store_n(&page->merged[ph], 0, __ATOMIC_RELAXED);
    __atomic_store_n(&page->arrived[ph], 0, __ATOMIC_RELAXED);
    __atomic_fetch_add(&page->published[ph], 1, __ATOMIC_RELEASE);
    return 1;
}

/* Whether every node can use SHM (agreed by all), and if so the team of
 * first nodes: the lowest node of each neighbourhood
 * (gasneti_nodeinfo[p].supernode). */
static int shm_setup(void)
{
    host_nodes = gasneti_shm_local_nodes(&host_index);
    page = gasneti_shm_control();
    if (host_nodes == 1 && !page) page = calloc(1, PAGE_BYTES); /* alone on the host */
    int mine = host_nodes > 0 && page != NULL, all;
    MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_LAND, gasnetc_comm);
    if (!all) return 0;
    unsigned char *seen = calloc(gasneti_nbrhds, 1);
    if (!seen) gasneti_fatalerror("barrier: out of memory");
    team_size = 0;
    for (gasnet_node_t p = 0; p < gasneti_nodes; p++) {
        gex_Rank_t n = gasneti_nodeinfo[p].supernode;
        if (seen[n]) continue;
        seen[n] = 1;
        if (p == gasneti_mynode) team_index = team_size;
        team[team_size++] = p;
    }
    free(seen);
    flat = team_size == 1 && host_nodes <= FLAT_MAX;
    return 1;
}

/* ---- common */

static void use_all_nodes(void)
{
    for (gasnet_node_t p = 0; p < gasneti_nodes; p++) team[p] = p;
    team_size = (int)gasneti_nodes;
    team_index = (int)gasneti_mynode;
}

static void count_rounds(void)
{
    rounds = 0;
    while ((1L << rounds) < (long)team_size) rounds++;
}

static const char *wanted; /* GASNET_BARRIER, or NULL: SHM when possible */

static void barrier_progress(void);

static void barrier_init(void)
{
    team = calloc(gasneti_nodes, sizeof *team);
    if (!team) gasneti_fatalerror("barrier: out of memory");
    wanted = gasnet_getenv("GASNET_BARRIER");
    if (wanted && !*wanted) wanted = NULL;
    if (!wanted || !strcasecmp(wanted, "AMDISSEM") || !strcasecmp(wanted, "SHM")) algorithm = DISSEM;
    else if (!strcasecmp(wanted, "AMCENTRAL")) algorithm = CENTRAL;
    else gasneti_fatalerror("GASNET_BARRIER=%s: use AMDISSEM, AMCENTRAL or SHM", wanted);
    use_all_nodes();
    count_rounds();
    gathered[0] = gathered[1] = EMPTY;
}

static void barrier_attach(void)
{
    if (active) gasneti_fatalerror("a segment attach while a barrier is in progress");
    int shm_ok = shm_setup(); /* collective; on success team holds the first nodes */
    gasneti_getenv_str("GASNET_BARRIER", shm_ok ? "SHM" : "AMDISSEM"); /* reported once */
    if (wanted && !strcasecmp(wanted, "SHM") && !shm_ok)
        gasneti_fatalerror("GASNET_BARRIER=SHM needs the shm backend on every host (GASNET_RMA=auto "
                           "or shm, and shared memory that works)");
    if (shm_ok && (!wanted || !strcasecmp(wanted, "SHM"))) algorithm = SHM;
    else use_all_nodes();
    count_rounds();
}

/* Advances the barrier; returns whether it is complete. */
static int progress(void)
{
    return algorithm == DISSEM ? dissem_progress()
         : algorithm == CENTRAL ? central_progress() : shm_progress();
}

static void barrier_progress(void)
{
    if (!__atomic_load_n(&active, __ATOMIC_ACQUIRE)) return;
    if (pthread_mutex_trylock(&progress_lock) != 0) return; /* another thread is at it */
    if (__atomic_load_n(&active, __ATOMIC_ACQUIRE) && progress())
        __atomic_store_n(&active, 0, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&progress_lock);
}

static void check_flags(const char *call, int flags)
{
    if (flags & ~KNOWN_FLAGS) gasneti_fatalerror("%s: unknown flag bits 0x%x", call, flags & ~KNOWN_FLAGS);
}

void gasnet_barrier_notify(int id, int flags)
{
    GASNETI_CHECK_READY("gasnet_barrier_notify");
    GASNETI_CHECK_MAY_COMMUNICATE("gasnet_barrier_notify");
    check_flags("gasnet_barrier_notify", flags);
    if (notified)
        gasneti_fatalerror("gasnet_barrier_notify called twice without a gasnet_barrier_wait or "
                           "successful gasnet_barrier_try in between");
    GASNETI_TRACE_EVENT('B', "gasnet_barrier_notify", "id %d flags 0x%x", id, (unsigned)flags);
    notified = 1;
    notify_id = id;
    notify_flags = flags;
    value_t mine = flags & FLAG_MISMATCH ? (value_t){0, FLAG_MISMATCH}
                 : flags & FLAG_ANON ? EMPTY : (value_t){id, 0};
    if (algorithm == DISSEM) dissem_start(mine);
    else if (algorithm == CENTRAL) central_start(mine);
    else shm_start(mine);
    /* only now may other threads' polls run progress: before the start
     * they would see the last barrier's finished state and end this one */
    __atomic_store_n(&active, 1, __ATOMIC_RELEASE);
    barrier_progress();
}

static int finish(int id, int flags)
{
    pthread_mutex_lock(&state_lock);
    value_t r = algorithm == DISSEM ? known
              : algorithm == CENTRAL ? result[phase]
              : flat ? flat_result : unpack(__atomic_load_n(&page->result[phase], __ATOMIC_ACQUIRE));
    if (algorithm == CENTRAL) done[phase] = 0;
    pthread_mutex_unlock(&state_lock);
    notified = 0;
    phase ^= 1;
    completed_once = 1;
    last_named = !(r.flags & FLAG_ANON);
    last_id = r.id;
    /* The wait's flags need not be the notify's (GASNet 1.20 on, as the
     * reference): an anonymous wait checks nothing; a named one checks its
     * id against the barrier's name (the named nodes' id, or this node's
     * own notify id when every node was anonymous); MISMATCH in the wait
     * makes this node mismatch. */
    int named_wait = !(flags & FLAG_ANON);
    int name = last_named ? r.id : notify_id;
    int mismatch = (r.flags & FLAG_MISMATCH) || (flags & FLAG_MISMATCH) ||
                   (named_wait && id != name);
    return mismatch ? GASNET_ERR_BARRIER_MISMATCH : GASNET_OK;
}

static void check_notified(const char *call)
{
    GASNETI_CHECK_READY(call);
    if (!notified)
        gasneti_fatalerror("%s without a pending gasnet_barrier_notify on this node", call);
}

int gasnet_barrier_wait(int id, int flags)
{
    check_notified("gasnet_barrier_wait");
    check_flags("gasnet_barrier_wait", flags);
    uint64_t t0 = GASNETI_TRACE_T0('B');
    GASNETI_CHECK_MAY_POLL("gasnet_barrier_wait");
    int idle = 0;
    while (__atomic_load_n(&active, __ATOMIC_ACQUIRE)) gasneti_poll_wait(&idle);
    /* One poll once the barrier is complete (a poll runs the barrier's
     * progress after the AMs, and a node whose notify completed it polled
     * not at all): an AM that reached this node before its sender
     * notified is handled by the time the wait returns, as clients of a
     * polling GASNet expect. */
    gasneti_poll();
    GASNETI_TRACE_TIME('B', "gasnet_barrier_wait", t0);
    return finish(id, flags);
}

int gasnet_barrier_try(int id, int flags)
{
    check_notified("gasnet_barrier_try");
    check_flags("gasnet_barrier_try", flags);
    GASNETI_CHECK_MAY_POLL("gasnet_barrier_try");
    gasneti_poll();
    if (__atomic_load_n(&active, __ATOMIC_ACQUIRE)) return GASNET_ERR_NOT_READY;
    return finish(id, flags);
}

int gasnet_barrier(int id, int flags)
{
    gasnet_barrier_notify(id, flags);
    return gasnet_barrier_wait(id, flags);
}

int gasnet_barrier_result(int *id)
{
    if (notified)
        gasneti_fatalerror("gasnet_barrier_result called between notify and wait");
    if (!completed_once) gasneti_fatalerror("gasnet_barrier_result called before any barrier");
    if (!last_named) return 1;
    if (id) *id = last_id;
    return 0;
}

#define REQ4(index, fn) {index, (ammpi_handler_fn)(fn), AMMPI_SHORT | AMMPI_REQUEST, 4}
static const gasneti_handler_t handlers[] = {
    REQ4(H_DISSEM, dissem_h),
    REQ4(H_CENTRAL_NOTIFY, central_notify_h),
    REQ4(H_CENTRAL_DONE, central_done_h),
    {0, NULL, 0, 0},
};

const gasneti_layer_t gasnete_barrier_layer = {
    .name = "barrier",
    .init = barrier_init,
    .attach = barrier_attach,
    .handlers = handlers,
    .progress = barrier_progress,
};
