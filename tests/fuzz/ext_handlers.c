/* Fuzzes the arguments and payloads of the library's own request handlers
 * (extended/ put, get, memset and value ops, remote atomics, VIS packets,
 * collectives, barriers): what the target of an operation receives.
 *
 * GASNet runs for real as a one-node job (MPI singleton, a 64 KiB
 * segment). The input picks a request handler from the library's handler
 * tables and gives its arguments and payload; the message is written by
 * ammpi_wire_write and handed to ammpi_deliver as a channel would, so
 * ammpi validates it and runs the real handler, whose reply the channel
 * swallows. A handler that finds the message malformed ends in
 * gasneti_fatalerror (fuzz.h turns that into a rejection).
 *
 * Addresses: the fuzzer cannot know where the segment is mapped, so an
 * argument pair (hi, lo) with hi == SEG_MARK, and a 64-bit payload word
 * whose high half is SEG_MARK, is moved to segment base + lo before
 * delivery. Not fuzzed here: reply handlers and VIS's FETCH request, which
 * take back a reply ticket of this process (extended/ticket.c): a random
 * one is always rejected (tests/ex_forge_reply.c checks each; docs/fuzzing.md).
 *
 * Input: the handler's index (or any byte: one of them), then 4 bytes per
 * argument, 8 bytes of Long
 * destination when the handler takes Longs, then the payload. */
#include "fuzz.h"
#include "gasnet.h"
#include "extended.h"
#include "coll.h"
#include "internal.h" /* ammpi_leave_handler, after a fatal error in a handler */

#define SEG_MARK 0x2000u
#define SEGSIZE (64 * 1024)

static char *seg;
static const gasneti_handler_t *targets[64];
static int ntargets;

static int ch_send(ammpi_channel_t *ch, const ammpi_msg_t *m, int dest, int dest_ep, int is_reply)
{
    (void)ch;
    (void)dest_ep;
    FUZZ_CHECK(is_reply && dest == 0, "a handler sent a request");
    /* the reply is written as it would go out, then dropped */
    size_t len = ammpi_wire_size(m, 0);
    char *w = malloc(len);
    FUZZ_CHECK(w, "out of memory");
    ammpi_wire_write(w, m, dest_ep, 1, 0);
    free(w);
    return AMMPI_OK;
}
static int ch_poll(ammpi_channel_t *ch) { (void)ch; return 0; }
static ammpi_channel_t channel = {ch_send, ch_poll, NULL, NULL};

static void add_requests(const gasneti_handler_t *table)
{
    for (const gasneti_handler_t *h = table; h->index; h++)
        if ((h->accepts & AMMPI_REQUEST) && h->index != GASNETE_H_VIS_FETCH)
            targets[ntargets++] = h;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    static char *args[] = {"ext_handlers", NULL};
    int n = 1;
    char **v = args;
    FUZZ_CHECK(gasnet_init(&n, &v) == GASNET_OK, "gasnet_init");
    FUZZ_CHECK(gasnet_attach(NULL, 0, SEGSIZE, 0) == GASNET_OK, "gasnet_attach");
    gasnet_seginfo_t si;
    gasnet_getSegmentInfo(&si, 1);
    seg = si.addr;
    ammpi_set_error_handler(gasnetc_ep, fuzz_count_rejection);
    /* guard pages where nothing else is mapped: a write just past the
     * segment then crashes (best effort) */
    mmap(seg - FUZZ_GUARD, FUZZ_GUARD, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE,
         -1, 0);
    mmap(seg + si.size, FUZZ_GUARD, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE,
         -1, 0);
    static const char *const fuzzed[] = {"putget", "barrier", "coll", "ratomic", "vis"};
    for (const gasneti_layer_t *const *l = gasneti_layers; *l; l++)
        for (size_t i = 0; i < sizeof fuzzed / sizeof fuzzed[0]; i++)
            if (!strcmp((*l)->name, fuzzed[i])) add_requests((*l)->handlers);
    return 0;
}

static uint64_t relocate(uint64_t v)
{
    return (v >> 32) == SEG_MARK ? (uint64_t)(uintptr_t)seg + (uint32_t)v : v;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_in_t in = {data, size};
    unsigned index = (unsigned)fuzz_take(&in, 1);
    const gasneti_handler_t *h = targets[index % (unsigned)ntargets];
    for (int i = 0; i < ntargets; i++)
        if ((unsigned)targets[i]->index == index) h = targets[i];
    int category = h->accepts & AMMPI_SHORT ? AMMPI_SHORT : h->accepts & AMMPI_MEDIUM ? AMMPI_MEDIUM
                                                                                        : AMMPI_LONG;
    int32_t args[AMMPI_MAX_ARGS];
    int nargs = h->nargs < 0 ? 0 : h->nargs;
    for (int i = 0; i < nargs; i++) args[i] = (int32_t)fuzz_take(&in, 4);
    for (int i = 0; i + 1 < nargs; i++)
        if ((uint32_t)args[i] == SEG_MARK) {
            uint64_t v = relocate((uint64_t)SEG_MARK << 32 | (uint32_t)args[i + 1]);
            args[i] = (int32_t)(v >> 32);
            args[i + 1] = (int32_t)v;
        }
    void *dest = NULL;
    if (category == AMMPI_LONG) dest = (void *)(uintptr_t)relocate(fuzz_take(&in, 8));
    size_t n = category == AMMPI_SHORT ? 0 : in.left;
    if (n > AMMPI_MAX_MEDIUM) n = AMMPI_MAX_MEDIUM;
    /* the payload in its own allocation (reads past it are caught) */
    uint64_t *payload = malloc(n + 8);
    FUZZ_CHECK(payload, "out of memory");
    memcpy(payload, in.p, n);
    for (size_t i = 0; i + 8 <= n; i += 8) payload[i / 8] = relocate(payload[i / 8]);
    ammpi_msg_t m = {category, 0, 0, 0, h->index, payload, n, dest, nargs, args, 0, NULL};
    size_t len = ammpi_wire_size(&m, 0);
    char *wire = malloc(len);
    FUZZ_CHECK(wire, "out of memory");
    ammpi_wire_write(wire, &m, 0, 0, 0);
    free(payload);
    int rc = -1;
    if (!FUZZ_TRY(rc = ammpi_deliver(gasnetc_ep, &channel, 0, wire, len)))
        ammpi_leave_handler(NULL); /* the handler ended in a fatal error */
    free(wire);
    if (rc == 0 && h->index == GASNETE_H_COLL) {
        /* the collective a letter is for takes it (at most what fits) */
        static char buf[AMMPI_MAX_MEDIUM];
        struct gasneti_tm_s tm;
        memset(&tm, 0, sizeof tm);
        tm.id = (uint64_t)(uint32_t)args[0] << 32 | (uint32_t)args[1];
        tm.ep = gasneti_ep0; /* the letter was delivered to endpoint 0 */
        gasnete_coll_op_t op;
        memset(&op, 0, sizeof op);
        op.tm = &tm;
        op.seq = (uint32_t)args[2];
        op.sig = (uint32_t)args[5]; /* the signature it carries: taken, not refused */
        op.call = "fuzzed collective";
        long got = -1;
        size_t cap = n ? (size_t)in.p[0] * 256 : 0;
        FUZZ_TRY(got = gasnete_coll_take(&op, args[3], (gex_Rank_t)args[4], buf, cap));
        (void)got;
    }
    return 0;
}
