/* A shared-memory ring entry rewritten by its sender while it is being
 * delivered (issue 27, item 1). The ring lies in memory the sending
 * process can still write, so the reader must check a private copy of
 * the header and dispatch from that copy only.
 *
 * One process, one ring of its own, read by gasneti_shmam_take (the code
 * every poll runs on a neighbour's ring) and so ammpi_deliver. The entry
 * holds a valid 40-byte Medium request for handler H_MED; a second
 * thread, standing for the sender, rewrites its header: nbytes to 60000,
 * kind to Short, or handler to H_SHORT (registered for Short requests
 * only). Each of those makes the entry invalid, so a delivery either runs
 * H_MED with exactly the validated message or is rejected; H_SHORT must
 * never run, and H_MED must see 40 bytes of the right pattern.
 *   phase 1: the writer rewrites the header while the library sits between
 *            its check and the handler (the handler-entry hook asks it to,
 *            and waits until it has): a deterministic check-then-use race;
 *   phase 2: the writer flips the fields freely while the reader delivers.
 * Usage: shm_ring_race [ROUNDS]  (phase 2's deliveries, default 200000) */
#include "ex_test.h"
#include "gasnet_internal.h"
#include "shmam.h"
#include "internal.h" /* the wire header */

#include <pthread.h>

#define H_MED 201
#define H_SHORT 202
#define NBYTES 40
#define RING (64 * 1024)

static char *ring;
static ammpi_hdr_t *hdr; /* the entry's header, in the ring */
static gasneti_shmam_ctl_t ctl;
static long delivered, rejected;

static void med_h(gex_Token_t t, void *buf, size_t n)
{
    (void)t;
    CHECK(n == NBYTES, "H_MED ran with %zu bytes; %d were validated", n, NBYTES);
    for (size_t i = 0; i < n; i++)
        CHECK(((unsigned char *)buf)[i] == (unsigned char)i, "payload byte %zu is %d", i,
              ((unsigned char *)buf)[i]);
    delivered++;
}

static void short_h(gex_Token_t t)
{
    (void)t;
    CHECK(0, "H_SHORT ran: only Mediums for H_MED were validated");
}

static void count_rejection(ammpi_ep_t *ep, int src, const char *what)
{
    (void)ep;
    CHECK(src == 0 && strstr(what, "node 0"), "rejection from %d: %s", src, what);
    rejected++;
}

static int ch_send(ammpi_channel_t *ch, const ammpi_msg_t *m, int dest, int dest_ep, int is_reply)
{
    (void)ch, (void)m, (void)dest, (void)dest_ep, (void)is_reply;
    CHECK(0, "no handler here sends");
    return AMMPI_OK;
}
static int ch_poll(ammpi_channel_t *ch) { (void)ch; return 0; }
static ammpi_channel_t channel = {ch_send, ch_poll, NULL, NULL};

/* The one entry: frame, header, payload 0, 1, 2 ... */
static void write_entry(void)
{
    static const char payload[NBYTES] = {0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13,
                                         14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27,
                                         28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39};
    ammpi_msg_t m = {.category = AMMPI_MEDIUM, .handler = H_MED, .src = payload, .nbytes = NBYTES};
    size_t len = ammpi_wire_size(&m, 0);
    gasneti_shmam_frame_t *f = (gasneti_shmam_frame_t *)ring;
    ammpi_wire_write(ring + GASNETI_SHMAM_FRAME, &m, 0, 0, 0);
    f->len = (uint32_t)len;
    f->total = (uint32_t)((GASNETI_SHMAM_FRAME + len + GASNETI_SHMAM_LINE - 1) &
                          ~(size_t)(GASNETI_SHMAM_LINE - 1));
    f->stamp = 1;
}

/* The writer's rewrites, one at a time, and the valid values back. */
static void corrupt(int which)
{
    switch (which % 3) {
    case 0: __atomic_store_n(&hdr->nbytes, 60000, __ATOMIC_RELAXED); break;
    case 1: __atomic_store_n(&hdr->kind, (uint8_t)K_SHORT, __ATOMIC_RELAXED); break;
    default: __atomic_store_n(&hdr->handler, (uint8_t)H_SHORT, __ATOMIC_RELAXED); break;
    }
}
static void restore(void)
{
    __atomic_store_n(&hdr->nbytes, NBYTES, __ATOMIC_RELAXED);
    __atomic_store_n(&hdr->kind, (uint8_t)K_MEDIUM, __ATOMIC_RELAXED);
    __atomic_store_n(&hdr->handler, (uint8_t)H_MED, __ATOMIC_RELAXED);
}

static int phase;            /* 1 or 2; 0: the writer stops */
static int asked, answered;  /* phase 1's handshake */

static void *writer(void *arg)
{
    (void)arg;
    int n = 0;
    for (;;) {
        int ph = __atomic_load_n(&phase, __ATOMIC_ACQUIRE);
        if (ph == 0) return NULL;
        if (ph == 1) {
            int a = __atomic_load_n(&asked, __ATOMIC_ACQUIRE);
            if (a != __atomic_load_n(&answered, __ATOMIC_RELAXED)) {
                corrupt(a);
                __atomic_store_n(&answered, a, __ATOMIC_RELEASE);
            } else {
                sched_yield();
            }
        } else {
            corrupt(n++);
            restore();
        }
    }
}

/* Between the library's check of a message and its handler. */
static void before_handler(ammpi_token_t tok, int is_request)
{
    if (__atomic_load_n(&phase, __ATOMIC_RELAXED) == 1) {
        int a = __atomic_add_fetch(&asked, 1, __ATOMIC_RELEASE);
        while (__atomic_load_n(&answered, __ATOMIC_ACQUIRE) != a) sched_yield();
    }
#ifdef GASNET_DEBUG
    gasneti_handler_enter(tok, is_request); /* the rule checks the hook stands in for */
#else
    (void)tok, (void)is_request;
#endif
}
#ifdef GASNET_DEBUG
#define AFTER_HANDLER gasneti_handler_leave
#else
#define AFTER_HANDLER NULL
#endif

static void take_once(void)
{
    ctl.head = 0; /* the same entry again: its stamp still matches position 0 */
    gasneti_shmam_take(&ctl, ring, RING, 0, &channel, 1);
}

int main(int argc, char **argv)
{
    gex_Client_t client;
    gex_EP_t ep;
    gex_TM_t tm;
    gex_Segment_t seg;
    CHECK_OK(gex_Client_Init(&client, &ep, &tm, "shm_ring_race", &argc, &argv, 0));
    CHECK(gex_TM_QuerySize(tm) == 1, "runs on one node");
    CHECK_OK(gex_Segment_Attach(&seg, tm, 65536));
    long rounds = argc > 1 ? atol(argv[1]) : 200000;
    gex_AM_Entry_t table[] = {
        {H_MED, (gex_AM_Fn_t)med_h, GEX_FLAG_AM_MEDIUM | GEX_FLAG_AM_REQUEST, 0, NULL, NULL},
        {H_SHORT, (gex_AM_Fn_t)short_h, GEX_FLAG_AM_SHORT | GEX_FLAG_AM_REQUEST, 0, NULL, NULL}};
    CHECK_OK(gex_EP_RegisterHandlers(ep, table, 2));
    ammpi_set_error_handler(gasnetc_ep, count_rejection);
    ammpi_set_handler_hooks(gasnetc_ep, before_handler, AFTER_HANDLER);
    ring = aligned_alloc(GASNETI_SHMAM_LINE, RING);
    CHECK(ring, "out of memory");
    memset(ring, 0, RING);
    write_entry();
    hdr = (ammpi_hdr_t *)(ring + GASNETI_SHMAM_FRAME);

    pthread_t th;
    __atomic_store_n(&phase, 1, __ATOMIC_RELEASE);
    CHECK(pthread_create(&th, NULL, writer, NULL) == 0, "pthread_create");
    for (int i = 0; i < 30; i++) { /* each rewrite ten times, mid-delivery */
        restore();
        take_once();
    }
    CHECK(delivered == 30 && rejected == 0, "phase 1: %ld delivered, %ld rejected", delivered,
          rejected);
    __atomic_store_n(&phase, 2, __ATOMIC_RELEASE);
    for (long i = 0; i < rounds; i++) take_once();
    __atomic_store_n(&phase, 0, __ATOMIC_RELEASE);
    pthread_join(th, NULL);
    CHECK(delivered + rejected == 30 + rounds, "%ld delivered, %ld rejected of %ld", delivered,
          rejected, 30 + rounds);
    printf("shm_ring_race: %ld delivered, %ld rejected: ok\n", delivered, rejected);
    fflush(stdout);
    free(ring);
    gasnet_exit(0);
    return 0;
}
