/* Every message category (Short, Medium, Long; request and reply) with
 * every argument count 0..16, argument values checked in the handlers, and
 * payloads of sizes 0, 1, odd sizes, around the eager size, MaxMedium,
 * MaxLongReply and MaxLongRequest verified byte for byte. Each rank sends to every rank, itself
 * included (loopback). */
#include "ammpi_test.h"

/* The segment has a slot per peer for Long requests from it, then a slot
 * per peer for Long replies from it, so concurrent messages never overlap. */
#define SLOT AMMPI_MAX_LONG_REQUEST
enum { H_SHORT = 1, H_SHORT_R = 20, H_MED = 40, H_MED_R = 60, H_LONG = 80, H_LONG_R = 100 };

static ammpi_ep_t *ep;
static char *seg;
static int nranks;
static volatile long replies;

static int32_t arg_value(int src, int nargs, int i)
{
    return (int32_t)(0x9E3779B9u * (unsigned)(i + 1) ^ ((unsigned)src << 20) ^ (unsigned)nargs);
}

static int source(ammpi_token_t t)
{
    int src = -1;
    CHECK_OK(ammpi_token_source(t, &src));
    CHECK(src >= 0 && src < nranks, "source %d", src);
    return src;
}

static void check_args(int src, int nargs, const int32_t *v)
{
    for (int i = 0; i < nargs; i++)
        CHECK(v[i] == arg_value(src, nargs, i), "arg %d of %d from %d: %d", i, nargs, src, v[i]);
}

static void check_payload(const char *buf, size_t n, unsigned seed)
{
    for (size_t i = 0; i < n; i++)
        CHECK((unsigned char)buf[i] == pattern(i, seed), "byte %zu of %zu (seed %u)", i, n, seed);
}

static void fill(char *buf, size_t n, unsigned seed)
{
    for (size_t i = 0; i < n; i++) buf[i] = (char)pattern(i, seed);
}

static char payload_src[AMMPI_MAX_MEDIUM];

/* Request handlers check what arrived and answer in the same category with
 * the same arity; reply handlers check the answer and count it. */
static void on_short(ammpi_token_t t, int n, const int32_t *v, int is_reply)
{
    int src = source(t);
    check_args(src, n, v);
    CHECK(ammpi_token_is_request(t) == !is_reply, "token kind");
    if (is_reply) {
        replies++;
        return;
    }
    int32_t a[16];
    for (int i = 0; i < n; i++) a[i] = arg_value(ammpi_rank(ep), n, i);
    CHECK_OK(ammpi_reply_short(t, H_SHORT_R + n, n, a));
    CHECK(ammpi_reply_short(t, H_SHORT_R + n, n, a) == AMMPI_ERR_BAD_ARG, "second reply");
}

static void on_bulk(ammpi_token_t t, void *buf, size_t nbytes, int n, const int32_t *v,
                    int is_long, int is_reply)
{
    int src = source(t);
    check_args(src, n, v);
    check_payload(buf, nbytes, (unsigned)(src * 31 + nbytes + is_reply));
    if (is_long && nbytes)
        CHECK(buf == seg + (size_t)(nranks + src) * SLOT, "Long landed at %p", buf);
    if (!is_long && nbytes) CHECK(((uintptr_t)buf & 15) == 0, "Medium buffer %p unaligned", buf);
    if (is_reply) {
        replies++;
        return;
    }
    int me = ammpi_rank(ep);
    int32_t a[16];
    for (int i = 0; i < n; i++) a[i] = arg_value(me, n, i);
    fill(payload_src, nbytes, (unsigned)(me * 31 + nbytes + 1));
    CHECK_OK(ammpi_reply_medium(t, H_MED_R + n, payload_src, nbytes, n, a));
}

/* A Long reply lands in the requester's segment, in the replier's slot;
 * every rank published its segment base at start-up. */
static char **seg_bases;

static void reply_long_to(ammpi_token_t t, int n, const int32_t *a, size_t nbytes)
{
    int src = source(t);
    char *dest = seg_bases[src] + (size_t)(nranks + ammpi_rank(ep)) * SLOT;
    CHECK_OK(ammpi_reply_long(t, H_LONG_R + n, payload_src, nbytes, dest, n, a));
}

#define P0
#define P1 P0, int32_t a0
#define P2 P1, int32_t a1
#define P3 P2, int32_t a2
#define P4 P3, int32_t a3
#define P5 P4, int32_t a4
#define P6 P5, int32_t a5
#define P7 P6, int32_t a6
#define P8 P7, int32_t a7
#define P9 P8, int32_t a8
#define P10 P9, int32_t a9
#define P11 P10, int32_t a10
#define P12 P11, int32_t a11
#define P13 P12, int32_t a12
#define P14 P13, int32_t a13
#define P15 P14, int32_t a14
#define P16 P15, int32_t a15
#define L0
#define L1 L0, a0
#define L2 L1, a1
#define L3 L2, a2
#define L4 L3, a3
#define L5 L4, a4
#define L6 L5, a5
#define L7 L6, a6
#define L8 L7, a7
#define L9 L8, a8
#define L10 L9, a9
#define L11 L10, a10
#define L12 L11, a11
#define L13 L12, a12
#define L14 L13, a13
#define L15 L14, a14
#define L16 L15, a15

#define DEFINE_HANDLERS(n)                                                               \
    static void short_req_##n(ammpi_token_t t P##n)                                      \
    {                                                                                    \
        int32_t v[17] = {0 L##n};                                                        \
        on_short(t, n, v + 1, 0);                                                        \
    }                                                                                    \
    static void short_rep_##n(ammpi_token_t t P##n)                                      \
    {                                                                                    \
        int32_t v[17] = {0 L##n};                                                        \
        on_short(t, n, v + 1, 1);                                                        \
    }                                                                                    \
    static void med_req_##n(ammpi_token_t t, void *b, size_t nb P##n)                    \
    {                                                                                    \
        int32_t v[17] = {0 L##n};                                                        \
        on_bulk(t, b, nb, n, v + 1, 0, 0);                                               \
    }                                                                                    \
    static void med_rep_##n(ammpi_token_t t, void *b, size_t nb P##n)                    \
    {                                                                                    \
        int32_t v[17] = {0 L##n};                                                        \
        on_bulk(t, b, nb, n, v + 1, 0, 1);                                               \
    }                                                                                    \
    static void long_req_##n(ammpi_token_t t, void *b, size_t nb P##n)                   \
    {                                                                                    \
        int32_t v[17] = {0 L##n};                                                        \
        int src = source(t);                                                             \
        check_args(src, n, v + 1);                                                       \
        check_payload(b, nb, (unsigned)(src * 31 + nb));                                 \
        if (nb) CHECK(b == seg + (size_t)src * SLOT, "Long landed at %p", b);           \
        int32_t a[17];                                                                   \
        for (int i = 0; i < n; i++) a[i] = arg_value(ammpi_rank(ep), n, i);              \
        size_t rb = nb < AMMPI_MAX_LONG_REPLY ? nb : AMMPI_MAX_LONG_REPLY;               \
        fill(payload_src, rb, (unsigned)(ammpi_rank(ep) * 31 + rb + 1));                 \
        reply_long_to(t, n, a, rb);                                                      \
    }                                                                                    \
    static void long_rep_##n(ammpi_token_t t, void *b, size_t nb P##n)                   \
    {                                                                                    \
        int32_t v[17] = {0 L##n};                                                        \
        on_bulk(t, b, nb, n, v + 1, 1, 1);                                               \
    }

#define ALL(X) X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11) X(12) X(13) \
    X(14) X(15) X(16)
ALL(DEFINE_HANDLERS)

#define REGISTER(n)                                                              \
    ammpi_set_handler(ep, H_SHORT + n, (ammpi_handler_fn)short_req_##n);         \
    ammpi_set_handler(ep, H_SHORT_R + n, (ammpi_handler_fn)short_rep_##n);       \
    ammpi_set_handler(ep, H_MED + n, (ammpi_handler_fn)med_req_##n);             \
    ammpi_set_handler(ep, H_MED_R + n, (ammpi_handler_fn)med_rep_##n);           \
    ammpi_set_handler(ep, H_LONG + n, (ammpi_handler_fn)long_req_##n);           \
    ammpi_set_handler(ep, H_LONG_R + n, (ammpi_handler_fn)long_rep_##n);

int main(int argc, char **argv)
{
    ep = test_open(&argc, &argv);
    nranks = ammpi_size(ep);
    int me = ammpi_rank(ep);
    size_t eager = (size_t)ammpi_config(ep)->eager_size;
    seg = calloc(2 * (size_t)nranks, SLOT);
    CHECK(seg != NULL, "segment");
    CHECK_OK(ammpi_set_segment(ep, seg, 2 * (uintptr_t)nranks * SLOT));
    seg_bases = calloc((size_t)nranks, sizeof *seg_bases);
    MPI_Allgather(&seg, sizeof seg, MPI_BYTE, seg_bases, sizeof seg, MPI_BYTE, MPI_COMM_WORLD);
    ALL(REGISTER)
    MPI_Barrier(MPI_COMM_WORLD); /* every handler is registered before traffic */

    size_t sizes[] = {0, 1, 7, 8, 63, eager - 1, eager, eager + 1, 12345, AMMPI_MAX_MEDIUM};
    int nsizes = (int)(sizeof sizes / sizeof sizes[0]);
    static char src[AMMPI_MAX_LONG_REQUEST];
    long expect = 0;
    for (int d0 = 0; d0 < nranks; d0++) {
        int dest = (me + d0) % nranks;
        char *dest_slot = seg_bases[dest] + (size_t)me * SLOT;
        for (int n = 0; n <= AMMPI_MAX_ARGS; n++) {
            int32_t a[16];
            for (int i = 0; i < n; i++) a[i] = arg_value(me, n, i);
            CHECK_OK(ammpi_request_short(ep, dest, H_SHORT + n, n, a));
            wait_until(ep, &replies, ++expect);
            for (int s = 0; s < nsizes; s++) {
                size_t nb = sizes[s];
                fill(src, nb, (unsigned)(me * 31 + nb));
                CHECK_OK(ammpi_request_medium(ep, dest, H_MED + n, src, nb, n, a));
                wait_until(ep, &replies, ++expect);
                if (s == nsizes - 1) nb = AMMPI_MAX_LONG_REQUEST; /* Longs go further */
                fill(src, nb, (unsigned)(me * 31 + nb));
                int async = (s + n) % 2;
                int rc = async ? ammpi_request_long_async(ep, dest, H_LONG + n, src, nb,
                                                          dest_slot, n, a)
                               : ammpi_request_long(ep, dest, H_LONG + n, src, nb, dest_slot,
                                                    n, a);
                CHECK(rc == AMMPI_OK, "long request rc %d", rc);
                wait_until(ep, &replies, ++expect);
            }
        }
    }
    /* Caller errors come back as codes, nothing is sent. */
    int32_t a[17] = {0};
    CHECK(ammpi_request_short(ep, nranks, H_SHORT, 0, a) == AMMPI_ERR_BAD_ARG, "bad dest");
    CHECK(ammpi_request_short(ep, 0, 0, 0, a) == AMMPI_ERR_BAD_ARG, "handler 0");
    CHECK(ammpi_request_short(ep, 0, H_SHORT, 17, a) == AMMPI_ERR_BAD_ARG, "17 args");
    CHECK(ammpi_request_medium(ep, 0, H_MED, src, AMMPI_MAX_MEDIUM + 1, 0, a) ==
              AMMPI_ERR_BAD_ARG, "oversized medium");
    CHECK(ammpi_request_long(ep, 0, H_LONG, src, AMMPI_MAX_LONG_REQUEST + 1, seg, 0, a) ==
              AMMPI_ERR_BAD_ARG, "oversized long");
    CHECK(ammpi_reply_short(NULL, H_SHORT, 0, a) == AMMPI_ERR_BAD_ARG, "reply outside handler");
    test_close(ep, "ammpi_categories");
    free(seg);
    free(seg_bases);
    return 0;
}
