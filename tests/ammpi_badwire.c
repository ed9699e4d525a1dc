/* Forged messages on the wire: rank 1 writes raw headers onto the
 * endpoint's communicator. Rank 0 must reject each one, with a message that
 * names the source rank, the handler and the bad value, and must write
 * nothing. Then a valid request still goes through.
 *   ammpi_badwire          rank 0 records the errors and checks them
 *   ammpi_badwire fatal    default error handler: the job must die */
#include "ammpi_test.h"
#include "internal.h" /* the wire format, to forge headers */

#define SEGSIZE 65536
static char *seg; /* SEGSIZE bytes with a guard page's worth on each side */
static int nerrors;
static char errors[16][512];
static volatile long good;

static void record_error(ammpi_ep_t *ep, int src, const char *what)
{
    (void)ep;
    CHECK(src == 1, "error blames rank %d", src);
    CHECK(nerrors < 16, "too many errors");
    snprintf(errors[nerrors++], sizeof errors[0], "%s", what);
}

static void on_good(ammpi_token_t t, void *buf, size_t n, int32_t v)
{
    (void)t;
    CHECK(v == 42 && n == 8 && memcmp(buf, "payload", 8) == 0, "valid message damaged");
    good++;
}

static void forge_at(ammpi_ep_t *ep, int ep_index, int kind, int handler, int nargs,
                     uint32_t nbytes, uint64_t dest, uint16_t credits, int flags, int send_len)
{
    char buf[HDR_MAX + 256];
    memset(buf, 0x77, sizeof buf);
    ammpi_hdr_t *h = (ammpi_hdr_t *)buf;
    *h = (ammpi_hdr_t){(uint8_t)kind, (uint8_t)handler, (uint8_t)nargs, (uint8_t)flags,
                       credits, (uint8_t)ep_index, 0, nbytes, flags & F_SEPARATE ? 0 : -1, dest};
    MPI_Send(buf, send_len, MPI_BYTE, 0, TAG_HEADER, ammpi_comm(ep));
}

static void forge(ammpi_ep_t *ep, int kind, int handler, int nargs, uint32_t nbytes,
                  uint64_t dest, uint16_t credits, int flags, int send_len)
{
    forge_at(ep, 0, kind, handler, nargs, nbytes, dest, credits, flags, send_len);
}

struct expectation { const char *words[3]; };

int main(int argc, char **argv)
{
    ammpi_ep_t *ep = test_open(&argc, &argv);
    int fatal = argc > 1 && strcmp(argv[1], "fatal") == 0;
    CHECK(ammpi_size(ep) == 2, "needs 2 ranks");
    int me = ammpi_rank(ep);
    char *mem = malloc(SEGSIZE + 2 * 4096);
    memset(mem, 0x11, SEGSIZE + 2 * 4096);
    seg = mem + 4096;
    CHECK_OK(ammpi_set_segment(ep, seg, SEGSIZE));
    ammpi_set_handler(ep, 5, (ammpi_handler_fn)on_good);
    /* handler 6 takes Short requests with 2 arguments only */
    CHECK_OK(ammpi_register(ep, 0, 6, (ammpi_handler_fn)on_good, AMMPI_SHORT | AMMPI_REQUEST, 2));
    if (!fatal) ammpi_set_error_handler(ep, record_error);
    uint64_t base = (uint64_t)(uintptr_t)seg;
    uint64_t peer_base;
    MPI_Sendrecv(&base, 1, MPI_UINT64_T, 1 - me, 0, &peer_base, 1, MPI_UINT64_T, 1 - me, 0,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Barrier(MPI_COMM_WORLD);

    static const struct expectation expect[] = {
        {{"node 1", "handler 77", "not registered"}},
        {{"node 1", "handler 5", "70000 payload bytes"}},
        {{"node 1", "handler 5", "outside endpoint 0's segment"}},
        {{"node 1", "handler 5", "outside endpoint 0's segment"}},
        {{"node 1", "truncated header", "10 bytes"}},
        {{"node 1", "handler 5", "header implies 132"}},
        {{"node 1", "returns 50 credits", "outstanding"}},
        {{"node 1", "unknown message kind 9", ""}},
        {{"node 1", "handler 5", "17 args"}},
        {{"node 1", "handler 5", "names endpoint 3"}},
        {{"node 1", "handler 6", "Medium request with 2 args for handler 6, registered for other"}},
        {{"node 1", "handler 6", "Short request with 1 args for handler 6, registered for other"}},
        {{"node 1", "handler 6", "Short reply with 2 args for handler 6, registered for other"}},
        /* found by fuzzing (tests/fuzz/corpus/ammpi_wire/regress-empty-separate-long) */
        {{"node 1", "handler 5", "separate payload of 0 bytes"}},
    };
    int nexpect = fatal ? 1 : (int)(sizeof expect / sizeof expect[0]);
    if (me == 1) {
        size_t h0 = hdr_len(0), h1 = hdr_len(1);
        forge(ep, K_SHORT, 77, 0, 0, 0, 0, 0, (int)h0);
        if (!fatal) {
            forge(ep, K_MEDIUM, 5, 1, 70000, 0, 0, 0, (int)h1);
            forge(ep, K_LONG, 5, 1, 100, peer_base + SEGSIZE - 10, 0, 0, (int)h1 + 100);
            forge(ep, K_LONG, 5, 1, 100, peer_base - 50, 0, 0, (int)h1 + 100);
            forge(ep, K_SHORT, 5, 0, 0, 0, 0, 0, 10);
            forge(ep, K_MEDIUM, 5, 1, 100, 0, 0, 0, (int)h1 + 50);
            forge(ep, K_SHORT, 5, 0, 0, 0, 50, 0, (int)h0);
            forge(ep, 9, 5, 0, 0, 0, 0, 0, (int)h0);
            forge(ep, K_SHORT, 5, 17, 0, 0, 0, 0, (int)h0 + 68);
            forge_at(ep, 3, K_SHORT, 5, 0, 0, 0, 0, 0, (int)h0);
            size_t h2 = hdr_len(2);
            forge(ep, K_MEDIUM, 6, 2, 0, 0, 0, 0, (int)h2);
            forge(ep, K_SHORT, 6, 1, 0, 0, 0, 0, (int)h1);
            forge(ep, K_SHORT | K_REPLY, 6, 2, 0, 0, 0, 0, (int)h2);
            forge(ep, K_LONG, 5, 1, 0, 0, 0, F_SEPARATE, (int)h1);
        }
        int32_t v = 42;
        CHECK_OK(ammpi_request_medium(ep, 0, 5, "payload", 8, 1, &v));
    } else {
        wait_until(ep, &good, 1);
        CHECK(nerrors == nexpect, "%d errors reported, %d expected", nerrors, nexpect);
        for (int i = 0; i < nexpect; i++)
            for (int w = 0; w < 3; w++)
                CHECK(strstr(errors[i], expect[i].words[w]), "error %d lacks \"%s\": %s", i,
                      expect[i].words[w], errors[i]);
        for (size_t i = 0; i < SEGSIZE + 2 * 4096; i++)
            CHECK(mem[i] == 0x11, "byte %ld around the segment was written",
                  (long)i - 4096);
    }
    test_close(ep, "ammpi_badwire");
    free(mem);
    return 0;
}
