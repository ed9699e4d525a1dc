/* Fuzzes the shared-memory AM queue entries (shmam/shmam.c): the
 * frames of a ring another process writes, and the ammpi messages in them.
 *
 * GASNet-EX runs as a one-node job (MPI singleton) with one client
 * handler of each category, registered with its category and arity; the
 * input is a ring (its size, head and bytes), and gasneti_shmam_take, the
 * code every poll runs on a neighbour's ring, reads it: frames are
 * checked, messages go to ammpi_deliver and their handlers. A malformed
 * frame or message ends in a fatal error (fuzz.h). Not fuzzed, as in
 * ext_handlers.c: the library's reply handlers and VIS's FETCH request,
 * which take back a reply ticket of this process (a random one is always
 * rejected: tests/ex_forge_reply.c): an input whose entries reach one is
 * skipped.
 *
 * Input: ring size in lines (1, 2, 4 ... 64, of 64 bytes), a 16-bit head,
 * then the ring's bytes from offset 0 (an entry is there when its frame's
 * stamp is 1 + its position: shmam/shmam.h). */
#include "fuzz.h"
#include "gasnetex.h"
#include "extended.h" /* GASNETE_H_VIS_FETCH */
#include "shmam.h"
#include "internal.h" /* ammpi_leave_handler, after a fatal error in a handler */

#define SEGSIZE (64 * 1024)
#define H_SHORT 201 /* client handlers, as the seed corpus names them */
#define H_MEDIUM 202
#define H_LONG 203

static char *seg;
static volatile uint32_t sink;

static void touch(void *buf, size_t n)
{
    for (size_t i = 0; i < n; i++) sink += ((unsigned char *)buf)[i];
}
static void short_h(gex_Token_t t, gex_AM_Arg_t a)
{
    gex_AM_ReplyShort1(t, H_SHORT, 0, a); /* through the channel, which drops it */
}
static void medium_h(gex_Token_t t, void *buf, size_t n)
{
    (void)t;
    FUZZ_CHECK(n <= AMMPI_MAX_MEDIUM, "a Medium of %zu bytes", n);
    touch(buf, n);
}
static void long_h(gex_Token_t t, void *buf, size_t n)
{
    (void)t;
    FUZZ_CHECK(!n || ((char *)buf >= seg && (size_t)((char *)buf - seg) <= SEGSIZE - n),
               "a Long of %zu bytes at %p, outside the segment", n, buf);
    touch(buf, n);
}

static int ch_send(ammpi_channel_t *ch, const ammpi_msg_t *m, int dest, int dest_ep, int is_reply)
{
    (void)ch;
    (void)m;
    (void)dest_ep;
    FUZZ_CHECK(is_reply && dest == 0, "a handler sent a request");
    return AMMPI_OK;
}
static int ch_poll(ammpi_channel_t *ch) { (void)ch; return 0; }
static ammpi_channel_t channel = {ch_send, ch_poll, NULL, NULL};

/* Whether an entry gasneti_shmam_take would deliver (it reads the same
 * frames, at most budget of them) names a handler this harness leaves out. */
static int reaches_back_pointer(const char *ring, uint64_t size, uint64_t head, int budget)
{
    for (int taken = 0; taken < budget;) {
        const gasneti_shmam_frame_t *f = (const void *)(ring + (head & (size - 1)));
        if (head % GASNETI_SHMAM_LINE || f->stamp != head + 1 || f->total < GASNETI_SHMAM_FRAME ||
            f->total > size - (head & (size - 1)) || f->len > f->total - GASNETI_SHMAM_FRAME)
            return 0; /* take stops here, or fails */
        if (f->len >= sizeof(ammpi_hdr_t)) {
            const ammpi_hdr_t *h = (const void *)((const char *)f + GASNETI_SHMAM_FRAME);
            if (((h->kind & K_REPLY) && h->handler < 128) || h->handler == GASNETE_H_VIS_FETCH)
                return 1;
        }
        taken += f->len != 0;
        head += f->total;
    }
    return 0;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    gex_Client_t client;
    gex_EP_t ep;
    gex_TM_t tm;
    gex_Segment_t segment;
    FUZZ_CHECK(gex_Client_Init(&client, &ep, &tm, "shm_ring", NULL, NULL, 0) == GASNET_OK,
               "gex_Client_Init");
    FUZZ_CHECK(gex_Segment_Attach(&segment, tm, SEGSIZE) == GASNET_OK, "gex_Segment_Attach");
    gex_AM_Entry_t table[] = {
        {H_SHORT, (gex_AM_Fn_t)short_h, GEX_FLAG_AM_SHORT | GEX_FLAG_AM_REQREP, 1, NULL, NULL},
        {H_MEDIUM, (gex_AM_Fn_t)medium_h, GEX_FLAG_AM_MEDIUM | GEX_FLAG_AM_REQREP, 0, NULL, NULL},
        {H_LONG, (gex_AM_Fn_t)long_h, GEX_FLAG_AM_LONG | GEX_FLAG_AM_REQREP, 0, NULL, NULL}};
    FUZZ_CHECK(gex_EP_RegisterHandlers(ep, table, 3) == GASNET_OK, "gex_EP_RegisterHandlers");
    seg = gex_Segment_QueryAddr(segment);
    ammpi_set_error_handler(gasnetc_ep, fuzz_count_rejection);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_in_t in = {data, size};
    uint64_t ring_size = (uint64_t)GASNETI_SHMAM_LINE << fuzz_take(&in, 1) % 7; /* a power of two */
    gasneti_shmam_ctl_t ctl;
    memset(&ctl, 0, sizeof ctl);
    ctl.head = fuzz_take(&in, 2);
    /* the ring in its own allocation: a read past its end is caught */
    char *ring = calloc(1, ring_size);
    FUZZ_CHECK(ring, "out of memory");
    memcpy(ring, in.p, in.left < ring_size ? in.left : ring_size);
    uint64_t head = ctl.head;
    int taken = 0;
    if (reaches_back_pointer(ring, ring_size, head, 32)) {
        free(ring);
        return 0;
    }
    if (FUZZ_TRY(taken = gasneti_shmam_take(&ctl, ring, ring_size, 0, &channel, 32))) {
        /* each stamp matches one position only: the head passes the ring once at most */
        FUZZ_CHECK(ctl.head % GASNETI_SHMAM_LINE == 0 && ctl.head - head <= 2 * ring_size,
                   "the head moved from %llu to %llu", (unsigned long long)head,
                   (unsigned long long)ctl.head);
        FUZZ_CHECK(taken >= 0 && taken <= 32, "%d messages taken, budget 32", taken);
    } else {
        ammpi_leave_handler(NULL); /* in case a handler was running */
    }
    free(ring);
    return 0;
}
