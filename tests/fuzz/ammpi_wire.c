/* Fuzzes ammpi's wire: headers and separate-payload descriptors as they
 * arrive over MPI, and messages handed over by a channel (ammpi_deliver).
 *
 * A real endpoint on MPI_COMM_SELF receives what the input says: the
 * header message is sent to it on its header communicator, a poll
 * validates it (rejections go to the counting error handler) and runs the
 * handler; a header that announced a separate payload gets the rest of the
 * input as that payload, on the tag it named. Handlers check what they are
 * given against the limits the header promised; Long segments are mapped
 * at fixed addresses between PROT_NONE pages, so a write outside them
 * crashes.
 *
 * Input: mode (bit 0: through a channel; bits 1-3: requests outstanding to
 * the sender, which bounds the credits a message may return; bits 4-6:
 * requests already received from it), then a 16-bit header length, the
 * header message, and the separate payload. With mode bit 7, a sequence
 * of up to SEQ_MAX messages from the same state instead (a flood of
 * replies, credits spent and returned across messages, a payload longer
 * or shorter than its header announced): each a byte (bit 0: through a
 * channel), a 16-bit header length, the header message, a 16-bit payload
 * length and the payload. */
#include "fuzz.h"
#include "internal.h"

#define SEG0 ((char *)FUZZ_ARENA)
#define SEG0_SIZE 65536
#define SEG1 ((char *)(FUZZ_ARENA + 0x100000))
#define SEG1_SIZE 4096

static ammpi_ep_t *ep;
static long errors;
static volatile uint32_t sink;

static void count_error(ammpi_ep_t *e, int src, const char *what)
{
    (void)e;
    FUZZ_CHECK(src == 0 && what && *what, "error report from %d: %s", src, what);
    if (getenv("FUZZ_VERBOSE")) fprintf(stderr, "rejected: %s\n", what);
    errors++;
}

/* Every byte a handler is given must be readable (ASan checks) and, for
 * a Long, inside the segment of the endpoint addressed. */
static void touch(const void *buf, size_t n)
{
    uint32_t s = 0;
    for (size_t i = 0; i < n; i++) s += ((const unsigned char *)buf)[i];
    sink += s;
}

static void check_payload(ammpi_token_t tok, void *buf, size_t n)
{
    ammpi_token_info_t ti;
    FUZZ_CHECK(ammpi_token_info(tok, &ti) == AMMPI_OK, "token info");
    size_t limit = ti.category == AMMPI_LONG && ti.is_request ? AMMPI_MAX_LONG_REQUEST
                   : ti.category == AMMPI_LONG                ? AMMPI_MAX_LONG_REPLY
                   : ti.category == AMMPI_MEDIUM              ? AMMPI_MAX_MEDIUM
                                                               : 0;
    FUZZ_CHECK(n <= limit, "%zu bytes for category %d", n, ti.category);
    if (ti.category == AMMPI_LONG && n) {
        char *base = ti.ep == 0 ? SEG0 : SEG1;
        size_t size = ti.ep == 0 ? SEG0_SIZE : SEG1_SIZE;
        FUZZ_CHECK((char *)buf >= base && (size_t)((char *)buf - base) <= size - n,
                   "Long payload at %p, %zu bytes, outside endpoint %d's segment", buf, n, ti.ep);
    }
    touch(buf, n);
}

/* handler 1: anything, any arity (ammpi_set_handler) */
static void any_h(ammpi_token_t tok, void *buf, size_t n)
{
    ammpi_token_info_t ti;
    ammpi_token_info(tok, &ti);
    if (ti.category != AMMPI_SHORT) check_payload(tok, buf, n);
}
/* handler 2: Short requests with 2 args, answered by a Short reply */
static void ping_h(ammpi_token_t tok, int32_t a, int32_t b)
{
    int32_t args[2] = {a, b};
    FUZZ_CHECK(ammpi_reply_short(tok, 3, 2, args) == AMMPI_OK, "Short reply");
}
/* handler 3: Short replies, any arity */
static void pong_h(ammpi_token_t tok) { (void)tok; }
/* handler 4: Medium and Long requests with 1 arg, echoed by a Medium reply
 * (at most ECHO_MAX bytes: an eager one, so that no payload of ammpi's own
 * is on a tag an input may also name) */
#define ECHO_MAX 64
static void echo_h(ammpi_token_t tok, void *buf, size_t n, int32_t a)
{
    check_payload(tok, buf, n);
    if (n > ECHO_MAX) n = ECHO_MAX;
    FUZZ_CHECK(ammpi_reply_medium(tok, 1, buf, n, 1, &a) == AMMPI_OK, "Medium reply");
}

/* A channel that keeps what a handler sends back; the harness delivers it
 * afterwards (never from a handler), and ammpi must accept what it wrote. */
static char *reply_wire;
static size_t reply_len;
static int reply_ep;
static int ch_send(ammpi_channel_t *ch, const ammpi_msg_t *m, int dest, int dest_ep, int is_reply)
{
    (void)ch;
    FUZZ_CHECK(is_reply && dest == 0 && !reply_wire, "channel send: reply %d to %d", is_reply, dest);
    reply_ep = dest_ep;
    reply_len = ammpi_wire_size(m, 0);
    reply_wire = malloc(reply_len);
    FUZZ_CHECK(reply_wire, "out of memory");
    ammpi_wire_write(reply_wire, m, dest_ep, 1, 0);
    return AMMPI_OK;
}
static int ch_poll(ammpi_channel_t *ch) { (void)ch; return 0; }
static ammpi_channel_t channel = {ch_send, ch_poll, NULL, NULL};

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fuzz_mpi_init();
    ammpi_config_t cfg;
    ammpi_config_default(&cfg);
    cfg.eager_size = 256; /* both ways of carrying a payload are reachable */
    FUZZ_CHECK(ammpi_open(&ep, MPI_COMM_SELF, &cfg) == AMMPI_OK, "ammpi_open");
    ammpi_set_error_handler(ep, count_error);
    FUZZ_CHECK(ammpi_set_handler(ep, 1, (ammpi_handler_fn)any_h) == AMMPI_OK, "handler 1");
    ammpi_register(ep, 0, 2, (ammpi_handler_fn)ping_h, AMMPI_SHORT | AMMPI_REQUEST, 2);
    ammpi_register(ep, 0, 3, (ammpi_handler_fn)pong_h, AMMPI_SHORT | AMMPI_REPLY, -1);
    ammpi_register(ep, 0, 4, (ammpi_handler_fn)echo_h, AMMPI_MEDIUM | AMMPI_LONG | AMMPI_REQUEST, 1);
    ammpi_register(ep, 1, 1, (ammpi_handler_fn)any_h, AMMPI_ACCEPT_ANY, -1);
    ammpi_set_segment_at(ep, 0, fuzz_map_fixed((uintptr_t)SEG0, SEG0_SIZE), SEG0_SIZE);
    ammpi_set_segment_at(ep, 1, fuzz_map_fixed((uintptr_t)SEG1, SEG1_SIZE), SEG1_SIZE);
    return 0;
}

/* Polls until nothing is left to handle (replies to ourselves included). */
static void settle(void)
{
    for (int quiet = 0; quiet < 4;) quiet = ammpi_poll_count(ep) > 0 ? 0 : quiet + 1;
}

/* A message longer than its receive is MPI's to refuse (MPI_ERR_TRUNCATE,
 * which ammpi reports), but MPICH makes that fatal when a process sends
 * to itself: the harness sends at most what the receive holds. */
static void over_mpi(const uint8_t *hdr, size_t hlen, const uint8_t *payload, size_t plen)
{
    long before = errors;
    if (hlen > ep->bufsize) hlen = ep->bufsize;
    MPI_Send(hdr, (int)hlen, MPI_BYTE, 0, TAG_HEADER, ammpi_comm(ep));
    settle();
    pending_t *p = ep->pending;
    if (p) { /* the header was accepted and announced a separate payload */
        FUZZ_CHECK(errors == before && !p->next, "a payload receive after a rejection");
        MPI_Request req;
        if (plen > p->hdr.nbytes) plen = p->hdr.nbytes;
        MPI_Isend(payload, (int)plen, MPI_BYTE, 0, p->hdr.tag, ep->payload_comm, &req);
        while (ep->pending) settle();
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        settle();
    }
}

static void over_channel(const uint8_t *msg, size_t len)
{
    /* a channel hands over its entry in place: give the message its own
     * allocation, so that reading past it is caught */
    char *copy = malloc(len ? len : 1);
    FUZZ_CHECK(copy, "out of memory");
    memcpy(copy, msg, len);
    long before = errors;
    int rc = ammpi_deliver(ep, &channel, 0, copy, len);
    FUZZ_CHECK((rc == 0) == (errors == before), "ammpi_deliver returned %d after %ld reports", rc,
               errors - before);
    free(copy);
    if (reply_wire) { /* what ammpi wrote, ammpi must accept (where the
                         * handlers it goes to exist: the sender is us) */
        char *w = reply_wire;
        reply_wire = NULL;
        rc = ammpi_deliver(ep, &channel, 0, w, reply_len);
        FUZZ_CHECK(rc == 0 || reply_ep != 0, "ammpi rejected a reply it wrote itself");
        free(w);
    }
}

/* One message, through a channel or over MPI (header, then payload). */
static void one(int channel, const uint8_t *hdr, size_t hlen, const uint8_t *payload, size_t plen)
{
    /* the sender is this process: a request over MPI is one more
     * outstanding, which its reply or credit message returns */
    if (!channel && hlen && !(hdr[0] & K_REPLY) && hdr[0] != K_CREDIT && ep->credits[0])
        ep->credits[0]--;
    if (channel) over_channel(hdr, hlen);
    else over_mpi(hdr, hlen, payload, plen);
}

#define SEQ_MAX 32
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_in_t in = {data, size};
    unsigned mode = (unsigned)fuzz_take(&in, 1);
    /* the state a sender's messages are judged against */
    int cpp = ep->cfg.credits_pp;
    int outstanding = (int)((mode >> 1) & 7) % (cpp + 1), received = (int)((mode >> 4) & 7) % (cpp + 1);
    ep->credits[0] = (uint16_t)(cpp - outstanding);
    ep->incoming[0] = (uint16_t)received;
    if (!(mode & 0x80)) {
        size_t hlen = (size_t)fuzz_take(&in, 2);
        if (hlen > in.left) hlen = in.left;
        one(mode & 1, in.p, hlen, in.p + hlen, in.left - hlen);
        return 0;
    }
    for (int i = 0; i < SEQ_MAX && in.left; i++) {
        int channel = (int)fuzz_take(&in, 1) & 1;
        size_t hlen = (size_t)fuzz_take(&in, 2);
        if (hlen > in.left) hlen = in.left;
        const uint8_t *hdr = in.p;
        in.p += hlen;
        in.left -= hlen;
        size_t plen = (size_t)fuzz_take(&in, 2);
        if (plen > in.left) plen = in.left;
        one(channel, hdr, hlen, in.p, plen);
        in.p += plen;
        in.left -= plen;
    }
    return 0;
}
