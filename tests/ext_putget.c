/* ext_putget: every put, get and memset form of the extended API (spec 7.2,
 * 7.4, 7.6) at sizes around each protocol limit, from every node to every
 * node including itself. Each destination is compared byte for byte with
 * the pattern its source held, and guard bytes on both sides of it must be
 * untouched.
 *
 *   ext_putget [MAXBYTES]   skip sizes above MAXBYTES (default: all, 16 MB)
 *
 * Gets read a pattern every node wrote into its own segment, into a heap
 * buffer and into the segment (a get may land anywhere; the implementation
 * replies straight into the segment when it can). Puts go round by round:
 * in round r node n writes to node n+r, so every destination has a single
 * writer. Puts are issued in batches (all forms at once for sizes that fit)
 * into one of two halves of a destination area; the halves alternate, so
 * one barrier per batch separates the puts from their check and the check
 * from the next use of that half. Bulk forms use odd addresses, which they
 * must accept.
 */
#include "test.h"

#define GUARD 64
#define CLEAR 0xA5 /* never a memset value below, nor the whole pattern */
#define BULK_SRC_OFF 1
#define BULK_DST_OFF 3

enum { PUT, PUT_BULK, PUT_NB, PUT_NB_BULK, PUT_NBI, PUT_NBI_BULK, MEMSET, MEMSET_NB, MEMSET_NBI,
       NPUT };
static const char *const put_name[NPUT] = {
    "gasnet_put", "gasnet_put_bulk", "gasnet_put_nb", "gasnet_put_nb_bulk", "gasnet_put_nbi",
    "gasnet_put_nbi_bulk", "gasnet_memset", "gasnet_memset_nb", "gasnet_memset_nbi"};
enum { GET, GET_BULK, GET_NB, GET_NB_BULK, GET_NBI, GET_NBI_BULK, NGET };
static const char *const get_name[NGET] = {"gasnet_get", "gasnet_get_bulk", "gasnet_get_nb",
                                           "gasnet_get_nb_bulk", "gasnet_get_nbi",
                                           "gasnet_get_nbi_bulk"};

static int is_bulk_put(int f) { return f == PUT_BULK || f == PUT_NB_BULK || f == PUT_NBI_BULK; }
static int is_bulk_get(int f) { return f == GET_BULK || f == GET_NB_BULK || f == GET_NBI_BULK; }

static gasnet_node_t me, nodes;
static gasnet_seginfo_t *seg;
/* Segment layout: source and get buffer (`region` bytes each), then the
 * two halves of the put destination area (`half` bytes each). */
static size_t region, half;

static char *seg_src(gasnet_node_t node) { return (char *)seg[node].addr; }
static char *seg_half(gasnet_node_t node, unsigned h) { return seg_src(node) + 2 * region + h * half; }

/* Bytes one transfer of n bytes occupies with its guards. */
static size_t stride_of(size_t n) { return (GUARD + BULK_DST_OFF + n + GUARD + 7) & ~(size_t)7; }
static size_t pages(size_t n) { return (n + GASNET_PAGESIZE - 1) / GASNET_PAGESIZE * GASNET_PAGESIZE; }

/* Checks an area laid out as [GUARD + off][n data][GUARD]: the guards hold
 * CLEAR, the data equals expect[0..n) or, for memset (memset_val >= 0),
 * that byte. Then clears the area again. */
static void check_area(unsigned char *area, size_t off, size_t n, const unsigned char *expect,
                       int memset_val, const char *what, gasnet_node_t peer)
{
    unsigned char *data = area + GUARD + off;
    for (unsigned char *p = area; p < data; p++)
        CHECK(*p == CLEAR, "%s n=%zu peer %u: guard byte %td before the data was overwritten",
              what, n, peer, data - p);
    for (size_t i = 0; i < GUARD; i++)
        CHECK(data[n + i] == CLEAR, "%s n=%zu peer %u: guard byte %zu after the data was "
              "overwritten", what, n, peer, i);
    if (memset_val >= 0) {
        for (size_t i = 0; i < n; i++)
            CHECK(data[i] == memset_val, "%s n=%zu peer %u: byte %zu is 0x%02x, expected 0x%02x",
                  what, n, peer, i, data[i], memset_val);
    } else if (memcmp(data, expect, n) != 0) {
        size_t i = 0;
        while (data[i] == expect[i]) i++;
        CHECK(0, "%s n=%zu peer %u: byte %zu is 0x%02x, expected 0x%02x", what, n, peer, i,
              data[i], expect[i]);
    }
    memset(area, CLEAR, GUARD + off + n + GUARD);
}

static unsigned seed_of(gasnet_node_t node, int size_index) { return (unsigned)(node + 1 + 16 * size_index); }

/* The byte a memset form writes at a size, or -1 for the other forms. */
static int memset_val(int f, int size_index) { return f >= MEMSET ? 0x30 + f + 3 * size_index : -1; }

static void do_put(int f, gasnet_node_t node, void *dst, void *src, size_t n, int val)
{
    switch (f) {
    case PUT: gasnet_put(node, dst, src, n); break;
    case PUT_BULK: gasnet_put_bulk(node, dst, src, n); break;
    case PUT_NB: gasnet_wait_syncnb(gasnet_put_nb(node, dst, src, n)); break;
    case PUT_NB_BULK: gasnet_wait_syncnb(gasnet_put_nb_bulk(node, dst, src, n)); break;
    case PUT_NBI: gasnet_put_nbi(node, dst, src, n); gasnet_wait_syncnbi_puts(); break;
    case PUT_NBI_BULK: gasnet_put_nbi_bulk(node, dst, src, n); gasnet_wait_syncnbi_puts(); break;
    case MEMSET: gasnet_memset(node, dst, val, n); break;
    case MEMSET_NB: gasnet_wait_syncnb(gasnet_memset_nb(node, dst, val, n)); break;
    case MEMSET_NBI: gasnet_memset_nbi(node, dst, val, n); gasnet_wait_syncnbi_puts(); break;
    }
}

static void do_get(int f, void *dst, gasnet_node_t node, void *src, size_t n)
{
    switch (f) {
    case GET: gasnet_get(dst, node, src, n); break;
    case GET_BULK: gasnet_get_bulk(dst, node, src, n); break;
    case GET_NB: gasnet_wait_syncnb(gasnet_get_nb(dst, node, src, n)); break;
    case GET_NB_BULK: gasnet_wait_syncnb(gasnet_get_nb_bulk(dst, node, src, n)); break;
    case GET_NBI: gasnet_get_nbi(dst, node, src, n); gasnet_wait_syncnbi_gets(); break;
    case GET_NBI_BULK: gasnet_get_nbi_bulk(dst, node, src, n); gasnet_wait_syncnbi_gets(); break;
    }
}

int main(int argc, char **argv)
{
    const size_t med = gasnet_AMMaxMedium(), lng = gasnet_AMMaxLongRequest();
    const size_t sizes[] = {0,       1,   7,       8,       64,      512,     513,
                            4096,    med - 1, med, med + 1, lng - 1, lng,     lng + 1,
                            (size_t)16 << 20};
    const int nsizes = (int)(sizeof sizes / sizeof sizes[0]);
    size_t maxbytes = argc > 1 ? strtoull(argv[1], NULL, 0) : sizes[nsizes - 1];
    size_t largest = 0;
    for (int i = 0; i < nsizes; i++)
        if (sizes[i] <= maxbytes) largest = sizes[i];
    /* each half takes all put forms of up to 1 MB + 1 at once, or one of
     * the largest size */
    size_t batched = largest < lng + 1 ? largest : lng + 1;
    region = pages(stride_of(largest));
    half = pages(NPUT * stride_of(batched));
    if (half < region) half = region;
    seg = test_start(&argc, &argv, NULL, 0, 2 * region + 2 * half);
    me = gasnet_mynode();
    nodes = gasnet_nodes();
    CHECK(seg[me].size >= 2 * region + 2 * half, "segment of %lu bytes, asked for %zu",
          (unsigned long)seg[me].size, 2 * region + 2 * half);

    unsigned char *src = (unsigned char *)seg_src(me); /* get and put source */
    unsigned char *getseg = src + region;
    unsigned char *hsrc = malloc(region), *hget = malloc(region), *expect = malloc(region);
    CHECK(hsrc && hget && expect, "out of memory");
    memset(getseg, CLEAR, region + 2 * half);
    memset(hget, CLEAR, region);
    unsigned k = 0; /* put batches so far, the same count on every node */

    for (int si = 0; si < nsizes; si++) {
        size_t n = sizes[si];
        if (n > maxbytes) continue;
        test_fill(src, n + BULK_SRC_OFF, seed_of(me, si));
        test_fill(hsrc, n + BULK_SRC_OFF, seed_of(me, si));
        BARRIER(); /* every node's source is ready */

        for (gasnet_node_t r = 0; r < nodes; r++) {
            gasnet_node_t p = (me + r) % nodes;
            test_fill(expect, n + BULK_SRC_OFF, seed_of(p, si)); /* p's source */
            for (int f = 0; f < NGET; f++) {
                size_t off = is_bulk_get(f) ? BULK_DST_OFF : 0;
                size_t soff = is_bulk_get(f) ? BULK_SRC_OFF : 0;
                unsigned char *dests[2] = {hget, getseg};
                for (int d = 0; d < 2; d++) {
                    do_get(f, dests[d] + GUARD + off, p, seg_src(p) + soff, n);
                    check_area(dests[d], off, n, expect + soff, -1, get_name[f], p);
                }
            }
        }

        size_t stride = stride_of(n);
        int per = half / stride < NPUT ? (int)(half / stride) : NPUT;
        for (gasnet_node_t r = 0; r < nodes; r++) {
            gasnet_node_t p = (me + r) % nodes, q = (me + nodes - r) % nodes;
            test_fill(expect, n + BULK_SRC_OFF, seed_of(q, si)); /* q's source */
            for (int f0 = 0; f0 < NPUT; f0 += per, k++) {
                int end = f0 + per < NPUT ? f0 + per : NPUT;
                for (int f = f0; f < end; f++) {
                    int bulk = is_bulk_put(f);
                    /* bulk puts from the heap, the others from the segment */
                    void *from = bulk ? (void *)(hsrc + BULK_SRC_OFF) : (void *)src;
                    char *to = seg_half(p, k & 1) + (size_t)(f - f0) * stride + GUARD;
                    do_put(f, p, to + (bulk ? BULK_DST_OFF : 0), from, n, memset_val(f, si));
                }
                BARRIER();
                for (int f = f0; f < end; f++) {
                    int bulk = is_bulk_put(f);
                    unsigned char *area = (unsigned char *)seg_half(me, k & 1) + (size_t)(f - f0) * stride;
                    check_area(area, bulk ? BULK_DST_OFF : 0, n, expect + (bulk ? BULK_SRC_OFF : 0),
                               memset_val(f, si), put_name[f], q);
                }
            }
        }
        MSG0("size %zu: %d get and %d put forms x %u peers OK", n, NGET, NPUT, nodes);
    }
    BARRIER();
    MSG0("ext_putget: OK");
    gasnet_exit(0);
}
