/* Active Messages through shared memory between the processes of a
 * neighbourhood (an ammpi channel: ammpi.h). On by default where the shm
 * backend's neighbourhood has more than one process; GASNET_SHM_AM=no
 * keeps every AM on MPI.
 *
 * RINGS. Each process owns one shared-memory object holding a ring per
 * neighbour that sends to it: a byte ring of GASNET_SHM_AM_RING bytes
 * (default 256 KiB; a power of two, so a position is a mask, not a
 * division: some 40 cycles here, on every message) and a head, the bytes
 * the receiver has consumed, in a cache line of its own. An entry is a
 * 16-byte frame (its length, the message's, and a stamp: 1 + the entry's
 * position counted in bytes since the start), then the message in ammpi's
 * wire form (header, arguments, payload), padded to 64 bytes; an entry
 * that would cross the end is preceded by a wrap frame. The stamp, not a
 * shared tail, says an entry is there: a receiver waiting for a short
 * message reads one cache line, the one the sender writes, and a sender
 * reads the head only when its last reading of it says the ring is full
 * (the cost of a round trip is then close to that of bouncing one cache
 * line).
 * The objects are created at start-up (memfds: gasneti_shm_create, base/shm.c)
 * and mapped by every neighbour; none is ever named in /dev/shm, so none
 * stays there, whenever a process dies.
 *
 * SENDING. The rings are one of ammpi's channels: requests (from the
 * core's ammpi_request_checked, whose callers' checks stand) and replies
 * come through it to shm_send. A sender copies a Medium payload into the entry (its one
 * copy); a Long payload goes straight to its destination when the
 * destination segment is mapped here (the on-node fast path's table,
 * gasnet_extended.h, or a created endpoint's published segment,
 * core-mpi/segment.c; a device segment imported here, memkind/, is
 * written with its class copy), else into the entry (the receiver copies
 * it out, with the class copy for a device segment: ammpi's segment copy). It publishes the entry by
 * writing its stamp (release). A request that finds no room polls until
 * there is (or returns AMMPI_ERR_AGAIN under IMMEDIATE); a reply never
 * waits: without room it is kept in a private list per destination and
 * written by a later poll (a full ring holds back only the replies to its
 * reader). So a handler can always reply, and nothing waits without
 * polling. Each request sent counts in awaiting[dest]; ammpi_deliver
 * accepts a reply from a neighbour only while that count is above zero,
 * and takes one.
 *
 * RECEIVING. Every ammpi poll visits the rings: it takes the entries from
 * the head on whose stamps match (acquire), hands each to ammpi_deliver, which
 * copies the header and arguments out of the ring (the sender can still
 * write there), validates the copy like an MPI message (a bad one is
 * reported naming the sender and never runs) and runs its handler from
 * the copy, the payload read in place (copied too for the library's
 * handlers that parse theirs: AMMPI_PRIVATE), then advances the head
 * (release). A frame that does not make sense is fatal,
 * naming the sender: the ring cannot be read past it.
 *
 * THREADS. A ring has one writing process and one reading process; a
 * lock per ring on each side orders that process's threads (readers only
 * try it: a ring another thread drains is skipped), where it has several
 * in the library (PAR, or a progress thread).
 *
 * MEMORY. (n-1) rings of GASNET_SHM_AM_RING bytes per process in shared
 * memory, n the neighbourhood's size; the private reply lists hold one
 * copy per reply that found its ring full, until the neighbour reads its
 * ring: a neighbour that sends requests and never reads its ring makes
 * them grow (docs/threat-model.md).
 */
#include "gasnet_internal.h"
#include "route.h"
#include "shmam.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define LINE GASNETI_SHMAM_LINE
#define FRAME GASNETI_SHMAM_FRAME
typedef gasneti_shmam_ctl_t ring_ctl_t;
typedef gasneti_shmam_frame_t frame_t;

/* One direction between this process and one neighbour. */
typedef struct {
    ring_ctl_t *ctl;
    char *data;
    int busy;           /* the lock between this process's threads (ring_lock) */
    gex_Rank_t peer;    /* jobrank */
    uint64_t tail;      /* writer: bytes written */
    uint64_t head_seen; /* writer: the head last read, reread only when the ring looks full */
} ring_t;

typedef struct pending_reply {
    struct pending_reply *next;
    int dest_ep;
    size_t len;
    char wire[];
} pending_reply_t;

/* The replies kept for one neighbour, oldest first. */
typedef struct {
    pending_reply_t *head, **tail;
} kept_t;

static ammpi_channel_t channel;
static uint64_t ring_size;
static int nlocal, local_rank;
static ring_t *in, *out; /* by local rank of the neighbour */
static int *local_of;    /* jobrank -> local rank, -1 elsewhere */
static kept_t *kept;     /* by local rank of the neighbour, under replies_lock */
static pthread_mutex_t replies_lock = PTHREAD_MUTEX_INITIALIZER;
static int nreplies; /* atomic hint: replies waiting for room */
static unsigned *awaiting; /* by jobrank: requests sent a reply may answer (ammpi.h) */

static size_t object_size(void) { return (size_t)nlocal * (sizeof(ring_ctl_t) + ring_size); }
static ring_ctl_t *ctl_of(char *obj, int sender) { return (ring_ctl_t *)(obj + (size_t)sender * sizeof(ring_ctl_t)); }
static char *data_of(char *obj, int sender)
{
    return obj + (size_t)nlocal * sizeof(ring_ctl_t) + (size_t)sender * ring_size;
}

/* A ring's lock is held for a copy or to drain the ring, never across a
 * wait (readers only try it), so a flag does: a pthread mutex costs more
 * than writing a short message. With one thread in the library (SEQ, no
 * progress thread) there is nothing to order, and the atomic exchange
 * would stall each end of every message for nothing. */
static int ring_locking;
static int ring_trylock(ring_t *r)
{
    return !ring_locking || !__atomic_exchange_n(&r->busy, 1, __ATOMIC_ACQUIRE);
}
static void ring_lock(ring_t *r)
{
    while (!ring_trylock(r)) sched_yield();
}
static void ring_unlock(ring_t *r)
{
    if (ring_locking) __atomic_store_n(&r->busy, 0, __ATOMIC_RELEASE);
}

/* ---- writing */

/* With r's lock held, before the entry ending at end is published: the
 * reader will next look for a stamp at end, where an earlier lap may have
 * left bytes of a message that read like one, so that stamp is zeroed;
 * unless end is not free: then it is the frame of the unread entry at the
 * head, which carries a stamp of its own lap. (One line: zeroing lines
 * further ahead makes the CPU read them, which a long copy into them
 * would not.) */
static void clear_next(ring_t *r, uint64_t end)
{
    if (end + FRAME <= r->head_seen + ring_size)
        __atomic_store_n(&((frame_t *)(r->data + (end & (ring_size - 1))))->stamp, 0, __ATOMIC_RELAXED);
}

/* A Long's payload (host memory: am.c staged a device source) to its
 * destination mapped here, with mk's class copy for device memory. */
static void place(void *in_place, gasneti_mk_t mk, const ammpi_msg_t *m)
{
    gasneti_mk_t smk = gasneti_mk_lookup(m->src, m->nbytes); /* core-mpi/am.c left it unstaged */
    if (mk || smk) gasneti_mk_copy(mk, in_place, smk, m->src, m->nbytes);
    else memcpy(in_place, m->src, m->nbytes);
}

/* With r's lock held: writes an entry holding m (len bytes of wire form;
 * or the ready wire bytes of a kept reply), if there is room; a Long's
 * payload goes to in_place first. Returns whether it did. */
static int try_write(ring_t *r, size_t len, const ammpi_msg_t *m, int dest_ep, int is_reply,
                     void *in_place, gasneti_mk_t mk, const void *wire)
{
    uint64_t total = (FRAME + len + LINE - 1) & ~(uint64_t)(LINE - 1);
    uint64_t tail = r->tail;
    uint64_t pos = tail & (ring_size - 1), to_end = ring_size - pos;
    uint64_t need = total + (total > to_end ? to_end : 0);
    if (ring_size - (tail - r->head_seen) < need) { /* the head's line is the reader's: read it rarely */
        r->head_seen = __atomic_load_n(&r->ctl->head, __ATOMIC_ACQUIRE);
        if (ring_size - (tail - r->head_seen) < need) return 0;
    }
    if (in_place) place(in_place, mk, m);
    if (total > to_end) { /* wrap: the rest of the ring is skipped */
        frame_t *w = (frame_t *)(r->data + pos);
        w->total = (uint32_t)to_end;
        w->len = 0;
        __atomic_store_n(&w->stamp, tail + 1, __ATOMIC_RELEASE);
        tail += to_end;
        pos = 0;
    }
    frame_t *f = (frame_t *)(r->data + pos);
    if (wire) memcpy((char *)f + FRAME, wire, len);
    else ammpi_wire_write((char *)f + FRAME, m, dest_ep, is_reply, in_place != NULL);
    f->total = (uint32_t)total;
    f->len = (uint32_t)len;
    clear_next(r, tail + total);
    __atomic_store_n(&f->stamp, tail + 1, __ATOMIC_RELEASE);
    r->tail = tail + total;
    return 1;
}

/* Where [addr, addr+n) of dest's endpoint dest_ep is mapped here (n > 0),
 * or NULL; *mk: the kind to copy into it with (NULL: host memory). */
static void *mapped(int dest, int dest_ep, const void *addr, size_t n, gasneti_mk_t *mk)
{
    gex_EP_Location_t loc = {(gex_Rank_t)dest, (gex_EP_Index_t)dest_ep};
    gasneti_route_t r;
    gasneti_route(loc, &r);
    *mk = r.mk;
    if (r.how != GASNETI_ROUTE_MAPPED || !gasneti_in_seginfo(gasneti_peer_segment(loc), addr, n))
        return NULL;
    return (char *)addr + r.offset;
}

static int shm_in_place(ammpi_channel_t *ch, int dest, int dest_ep, const void *addr, size_t n)
{
    (void)ch;
    gasneti_mk_t mk;
    return mapped(dest, dest_ep, addr, n, &mk) != NULL;
}

/* Keeps a reply that found no room (len bytes of wire form): a Long's
 * payload goes to in_place now, as the source may be reused on return. */
static void keep_reply(int dest, int dest_ep, const ammpi_msg_t *m, size_t len, void *in_place,
                       gasneti_mk_t mk)
{
    pending_reply_t *p = malloc(sizeof *p + len);
    if (!p) gasneti_fatalerror("shared-memory AMs: out of memory for a %zu-byte reply", len);
    p->next = NULL; /* the list's end: flush_replies follows next */
    p->dest_ep = dest_ep;
    p->len = len;
    if (in_place) place(in_place, mk, m);
    ammpi_wire_write(p->wire, m, dest_ep, 1, in_place != NULL);
    pthread_mutex_lock(&replies_lock);
    kept_t *k = &kept[local_of[dest]];
    if (!k->head) k->tail = &k->head;
    *k->tail = p; /* in order */
    k->tail = &p->next;
    __atomic_fetch_add(&nreplies, 1, __ATOMIC_RELAXED);
    pthread_mutex_unlock(&replies_lock);
}

static int shm_send(ammpi_channel_t *ch, const ammpi_msg_t *m, int dest, int dest_ep, int is_reply)
{
    (void)ch;
    ring_t *r = &out[local_of[dest]];
    gasneti_mk_t mk = NULL; /* a Long's payload goes straight to its destination where mapped */
    void *in_place = m->category == AMMPI_LONG && m->nbytes
                         ? mapped(dest, dest_ep, m->dest_addr, m->nbytes, &mk) : NULL;
    size_t len = ammpi_wire_size(m, in_place != NULL);
    if (FRAME + len + LINE > ring_size / 2) return AMMPI_ERR_NOT_HERE; /* too big for the ring */
    /* counted before it is written: its reply may come at once */
    if (!is_reply) __atomic_fetch_add(&awaiting[dest], 1, __ATOMIC_RELAXED);
    int idle = 0;
    for (;;) {
        ring_lock(r);
        int ok = try_write(r, len, m, dest_ep, is_reply, in_place, mk, NULL);
        ring_unlock(r);
        if (ok) return AMMPI_OK;
        if (is_reply) {
            keep_reply(dest, dest_ep, m, len, in_place, mk); /* a reply never waits */
            return AMMPI_OK;
        }
        if (m->flags & AMMPI_IMMEDIATE) {
            __atomic_fetch_sub(&awaiting[dest], 1, __ATOMIC_RELAXED);
            return AMMPI_ERR_AGAIN;
        }
        ammpi_poll_wait(gasnetc_ep, &idle);
        gasnetc_exit_poll(); /* a neighbour that has exited will never read its ring */
    }
}

/* Writes the kept replies that now fit, in order per destination: a
 * neighbour whose ring is full holds back its own replies only. */
__attribute__((noinline)) static void flush_replies(void)
{
    if (pthread_mutex_trylock(&replies_lock)) return;
    for (int i = 0; i < nlocal; i++) {
        kept_t *k = &kept[i];
        while (k->head) {
            pending_reply_t *p = k->head;
            ring_t *r = &out[i];
            ring_lock(r);
            int ok = try_write(r, p->len, NULL, p->dest_ep, 1, NULL, NULL, p->wire);
            ring_unlock(r);
            if (!ok) break; /* keep the order: later ones to i wait too */
            k->head = p->next;
            free(p);
            __atomic_fetch_sub(&nreplies, 1, __ATOMIC_RELAXED);
        }
    }
    pthread_mutex_unlock(&replies_lock);
}

/* ---- reading */

#define POLL_BUDGET 32

int gasneti_shmam_take(gasneti_shmam_ctl_t *ctl, char *data, uint64_t size, gex_Rank_t peer,
                       ammpi_channel_t *ch, int budget)
{
    int handled = 0;
    uint64_t head = ctl->head;
    /* the head lies in memory the peer may write: one off an entry
     * boundary would read a frame across the ring's end (found by fuzzing) */
    if (head % LINE)
        gasneti_fatalerror("shared-memory AMs: the ring from node %u is corrupt (head %llu)", peer,
                           (unsigned long long)head);
    while (handled < budget) {
        uint64_t pos = head & (size - 1);
        frame_t *f = (frame_t *)(data + pos);
        if (__atomic_load_n(&f->stamp, __ATOMIC_ACQUIRE) != head + 1) break;
        /* read once: the peer may rewrite the frame (ammpi_deliver copies the message's header) */
        uint32_t total = __atomic_load_n(&f->total, __ATOMIC_RELAXED);
        uint32_t len = __atomic_load_n(&f->len, __ATOMIC_RELAXED);
        if (total < FRAME || total % LINE || total > size - pos || (len && len > total - FRAME) ||
            (!len && pos + total != size))
            gasneti_fatalerror("shared-memory AMs: a malformed entry from node %u (frame of %u "
                               "bytes, message of %u, at %llu)", peer, total, len,
                               (unsigned long long)head);
        if (len) {
            ammpi_deliver(gasnetc_ep, ch, (int)peer, (const char *)f + FRAME, len);
            handled++;
        }
        head += total;
        __atomic_store_n(&ctl->head, head, __ATOMIC_RELEASE);
    }
    return handled;
}

/* Whether the entry at r's head is there: one cache line read, no lock. */
static int has_entry(const ring_t *r)
{
    uint64_t head = __atomic_load_n(&r->ctl->head, __ATOMIC_RELAXED);
    const frame_t *f = (const frame_t *)(r->data + (head & (ring_size - 1)));
    return __atomic_load_n(&f->stamp, __ATOMIC_RELAXED) == head + 1;
}

/* Out of line, as is flush_replies: an idle poll, which a message waits
 * half of on average, then saves no registers. */
__attribute__((noinline)) static int drain(ring_t *r)
{
    if (!ring_trylock(r)) return 0;
    int handled = gasneti_shmam_take(r->ctl, r->data, ring_size, r->peer, &channel, POLL_BUDGET);
    ring_unlock(r);
    return handled;
}

static int shm_poll(ammpi_channel_t *ch)
{
    (void)ch;
    int handled = 0;
    for (int i = 0; i < nlocal; i++)
        if (i != local_rank && has_entry(&in[i])) handled += drain(&in[i]);
    if (__atomic_load_n(&nreplies, __ATOMIC_RELAXED)) flush_replies();
    return handled;
}

/* ---- start-up */

static void shmam_init(void)
{
    int me = (int)gasneti_mynode;
    int wanted = gasneti_getenv_yesno("GASNET_SHM_AM", 1);
    /* at most 1 GiB, so object_size() cannot overflow */
    ring_size = (uint64_t)gasneti_getenv_size("GASNET_SHM_AM_RING", 256 * 1024, 4 * 65536,
                                              (int64_t)1 << 30);
    if (ring_size & (ring_size - 1))
        gasneti_fatalerror("environment variable GASNET_SHM_AM_RING='%s' is not a power of two",
                           gasnet_getenv("GASNET_SHM_AM_RING"));
    MPI_Comm local;
    MPI_Comm_split(gasnetc_comm, (int)gasneti_nodeinfo[me].supernode, me, &local);
    MPI_Comm_size(local, &nlocal);
    MPI_Comm_rank(local, &local_rank);
    int ok = wanted && nlocal > 1;
    int *jobranks = malloc((size_t)nlocal * sizeof *jobranks);
    if (!jobranks) gasneti_fatalerror("shared-memory AMs: out of memory");
    MPI_Allgather(&me, 1, MPI_INT, jobranks, 1, MPI_INT, local);
    char why[256] = "";
    char *mine = NULL, **objs = calloc((size_t)nlocal, sizeof *objs);
    long me_fd[2] = {(long)getpid(), -1}, *fds = malloc(2 * (size_t)nlocal * sizeof *fds);
    if (!objs || !fds) gasneti_fatalerror("shared-memory AMs: out of memory");
    if (ok) { /* each process creates its object of incoming rings (zeroed) */
        void *p = NULL;
        me_fd[1] = gasneti_shm_create(object_size(), NULL, &p, why, sizeof why);
        mine = p;
        ok = me_fd[1] >= 0;
    }
    gasneti_debug_kill_point("shmam");
    int all;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, local);
    if (all) {
        MPI_Allgather(me_fd, 2, MPI_LONG, fds, 2, MPI_LONG, local);
        for (int i = 0; i < nlocal && ok; i++) {
            objs[i] = i == local_rank ? mine
                                      : gasneti_shm_map(fds[2 * i], (int)fds[2 * i + 1], object_size(),
                                                        why, sizeof why);
            ok = objs[i] != NULL;
        }
        MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, local);
    }
    if (me_fd[1] >= 0) close((int)me_fd[1]); /* every neighbour has mapped it (or gave up) */
    free(fds);
    int verbose = gasneti_getenv_yesno("GASNET_VERBOSEENV", 0);
    if (!all) {
        if (verbose || (wanted && nlocal > 1 && me == jobranks[0]))
            fprintf(stderr, "GASNet node %d: AMs to neighbours go through MPI: %s\n", me,
                    !wanted ? "GASNET_SHM_AM=no" : nlocal == 1 ? "no process shares memory with it"
                    : why[0] ? why : "shared memory for the AM queues could not be set up");
        for (int i = 0; i < nlocal; i++)
            if (objs[i] && objs[i] != mine) munmap(objs[i], object_size());
        if (mine) munmap(mine, object_size());
        free(objs);
        free(jobranks);
        MPI_Comm_free(&local);
        return;
    }
    in = calloc((size_t)nlocal, sizeof *in);
    out = calloc((size_t)nlocal, sizeof *out);
    kept = calloc((size_t)nlocal, sizeof *kept);
    awaiting = calloc(gasneti_nodes, sizeof *awaiting);
    local_of = malloc(gasneti_nodes * sizeof *local_of);
    unsigned char *peers = calloc(gasneti_nodes, 1);
    if (!in || !out || !kept || !awaiting || !local_of || !peers)
        gasneti_fatalerror("shared-memory AMs: out of memory");
    for (gasnet_node_t p = 0; p < gasneti_nodes; p++) local_of[p] = -1;
    for (int i = 0; i < nlocal; i++) {
        local_of[jobranks[i]] = i;
        if (i == local_rank) continue;
        peers[jobranks[i]] = 1;
        in[i] = (ring_t){ctl_of(mine, i), data_of(mine, i), 0, (gex_Rank_t)jobranks[i], 0, 0};
        out[i] = (ring_t){ctl_of(objs[i], local_rank), data_of(objs[i], local_rank),
                          0, (gex_Rank_t)jobranks[i], 0, 0};
    }
    ring_locking = ammpi_config(gasnetc_ep)->thread_safe;
    channel = (ammpi_channel_t){shm_send, shm_poll, awaiting, shm_in_place};
    if (ammpi_add_channel(gasnetc_ep, &channel, peers) != AMMPI_OK)
        gasneti_fatalerror("shared-memory AMs: could not add the channel");
    if (verbose)
        fprintf(stderr, "GASNet node %d: AMs to %d neighbour%s go through shared memory\n", me,
                nlocal - 1, nlocal == 2 ? "" : "s");
    free(peers);
    free(objs);
    free(jobranks);
    MPI_Comm_free(&local);
}

/* A layer of its own (conduit/conduit.c lists it first): its init sets up
 * the rings and adds them to ammpi's endpoint as a channel; from then on
 * ammpi sends, polls and delivers through them. */
const gasneti_layer_t gasneti_shmam_layer = {.name = "shmam", .init = shmam_init};
