/* ext_sync: the synchronisation rules of the extended API (spec 7.5, 7.7,
 * 7.8, 7.9): explicit handles alone and in arrays (completed entries become
 * GASNET_INVALID_HANDLE, INVALID entries are ignored, empty and all-INVALID
 * arrays succeed at once, `some` needs one), the nopoll forms, implicit
 * syncs per category, access regions, register-value operations and source
 * reuse after a non-bulk put returns, and arrays of 2^18 handles (optional
 * argument: another length), whose syncs must take linear time.
 *
 * Every node writes only into its own area of each node's segment, so the
 * nodes need no barriers between the parts; a put is checked by a blocking
 * get of the same range.
 *
 * Some checks rest on two properties of this conduit, not of the spec:
 * handlers run only inside GASNet calls (there is no progress thread unless
 * GASNET_PROGRESS_THREAD is set, which the suite never does), so an
 * operation on another node cannot complete before the next poll; and small
 * messages from one node are handled in the order they were sent, so a
 * blocking operation to a node also completes every small operation sent
 * there before it. They let the tests see a handle that is complete but not
 * yet synced next to one that cannot be complete yet.
 */
#include "test.h"

#define AREA ((size_t)4 << 20) /* per writing node, in every segment */
#define MAX_NODES 8
#define CLEAR 0xA5

static gasnet_node_t me, nodes, peer;
static gasnet_seginfo_t *seg;
static unsigned char *buf, *expect; /* heap scratch */

/* My area in node's segment, at offset off. */
static void *at(gasnet_node_t node, size_t off) { return (char *)seg[node].addr + me * AREA + off; }

/* Reads node's range back and compares it with the pattern. */
static void check_remote(gasnet_node_t node, size_t off, size_t n, unsigned seed, const char *what)
{
    memset(buf, CLEAR, n);
    gasnet_get_bulk(buf, node, at(node, off), n);
    size_t bad = test_verify(buf, n, seed);
    CHECK(bad == n, "%s: node %u offset %zu: byte %zu of %zu differs", what, node, off, bad, n);
}

/* Writes the pattern to node's range with a blocking put. */
static void put_pattern(gasnet_node_t node, size_t off, size_t n, unsigned seed)
{
    test_fill(buf, n, seed);
    gasnet_put_bulk(node, at(node, off), buf, n);
}

/* A handle for an operation on node that is complete but not synced: a
 * small put followed by a blocking get from the same node (see above). */
static gasnet_handle_t completed_handle(gasnet_node_t node, size_t off, unsigned seed)
{
    uint64_t v, back;
    test_fill(&v, sizeof v, seed);
    gasnet_handle_t h = gasnet_put_nb(node, at(node, off), &v, sizeof v);
    gasnet_get(&back, node, at(node, off + 64), sizeof back);
    return h;
}

/* A handle for a small memset on node, which cannot be complete before the
 * next poll if node is another node. */
static gasnet_handle_t pending_handle(gasnet_node_t node, size_t off, int val)
{
    return gasnet_memset_nb(node, at(node, off), val, 8);
}

static void check_memset(gasnet_node_t node, size_t off, int val, const char *what)
{
    uint64_t v, want;
    gasnet_get(&v, node, at(node, off), sizeof v);
    memset(&want, val, sizeof want);
    CHECK(v == want, "%s: memset on node %u left 0x%016llx", what, node, (unsigned long long)v);
}

static void test_invalid(void)
{
    gasnet_handle_t hs[3] = {GASNET_INVALID_HANDLE, GASNET_INVALID_HANDLE, GASNET_INVALID_HANDLE};
    gasnet_wait_syncnb(GASNET_INVALID_HANDLE);
    CHECK_OK(gasnet_try_syncnb(GASNET_INVALID_HANDLE));
    CHECK_OK(gasnet_try_syncnb_nopoll(GASNET_INVALID_HANDLE));
    for (size_t n = 0; n <= 3; n += 3) { /* empty, then all INVALID */
        gasnet_wait_syncnb_all(hs, n);
        gasnet_wait_syncnb_some(hs, n);
        CHECK_OK(gasnet_try_syncnb_all(hs, n));
        CHECK_OK(gasnet_try_syncnb_some(hs, n));
        CHECK_OK(gasnet_try_syncnb_all_nopoll(hs, n));
        CHECK_OK(gasnet_try_syncnb_some_nopoll(hs, n));
        for (int i = 0; i < 3; i++) CHECK(hs[i] == GASNET_INVALID_HANDLE, "entry %d changed", i);
    }
    /* nothing outstanding */
    CHECK_OK(gasnet_try_syncnbi_gets());
    CHECK_OK(gasnet_try_syncnbi_puts());
    CHECK_OK(gasnet_try_syncnbi_all());
    gasnet_wait_syncnbi_gets();
    gasnet_wait_syncnbi_puts();
    gasnet_wait_syncnbi_all();
    /* empty access regions: the handle (INVALID allowed) syncs at once */
    gasnet_begin_nbi_accessregion();
    gasnet_wait_syncnb(gasnet_end_nbi_accessregion());
    gasnet_begin_nbi_accessregion();
    CHECK_OK(gasnet_try_syncnb(gasnet_end_nbi_accessregion()));
    gasnet_begin_nbi_accessregion();
    CHECK_OK(gasnet_try_syncnb_nopoll(gasnet_end_nbi_accessregion()));
    MSG0("INVALID handles, empty arrays, nothing outstanding, empty regions: OK");
}

/* Single handles of every nb form, synced by wait, try and nopoll try. */
static void test_single(void)
{
    static const size_t sizes[] = {8, 4096, 65001, 1048577};
    for (int i = 0; i < 4; i++) {
        size_t n = sizes[i];
        unsigned seed = 100 + (unsigned)i;
        for (gasnet_node_t p = 0; p < nodes; p++) {
            test_fill(expect, n, seed);
            gasnet_handle_t h = gasnet_put_nb_bulk(p, at(p, 0), expect, n);
            while (gasnet_try_syncnb(h) != GASNET_OK) continue;
            check_remote(p, 0, n, seed, "put_nb_bulk + try_syncnb");

            memset(buf, CLEAR, n);
            h = gasnet_get_nb(buf, p, at(p, 0), n);
            gasnet_wait_syncnb(h);
            CHECK(test_verify(buf, n, seed) == n, "get_nb + wait_syncnb from node %u, n=%zu", p, n);

            memset(buf, CLEAR, n);
            h = gasnet_get_nb_bulk(buf, p, at(p, 0), n);
            while (gasnet_try_syncnb(h) == GASNET_ERR_NOT_READY) continue;
            CHECK(test_verify(buf, n, seed) == n, "get_nb_bulk + try_syncnb from node %u, n=%zu",
                  p, n);
        }
    }
    if (peer != me) {
        /* NOT_READY leaves the handle live: wait for it afterwards */
        gasnet_handle_t h = pending_handle(peer, 0, 0x11);
        CHECK(gasnet_try_syncnb_nopoll(h) == GASNET_ERR_NOT_READY, "nopoll try completed a "
              "memset on node %u without polling", peer);
        gasnet_wait_syncnb(h);
        check_memset(peer, 0, 0x11, "memset_nb after NOT_READY");
        h = pending_handle(peer, 0, 0x12);
        CHECK(gasnet_try_syncnb_nopoll(h) == GASNET_ERR_NOT_READY, "nopoll try completed early");
        while (gasnet_try_syncnb(h) != GASNET_OK) continue;
        check_memset(peer, 0, 0x12, "memset_nb after NOT_READY and try");
        /* a complete handle is reported by the nopoll form too */
        h = completed_handle(peer, 0, 7);
        CHECK_OK(gasnet_try_syncnb_nopoll(h));
    }
    MSG0("single handles: wait, try and nopoll try of put/get/memset nb: OK");
}

static void expect_invalid(gasnet_handle_t *hs, size_t n, const char *what)
{
    for (size_t i = 0; i < n; i++)
        CHECK(hs[i] == GASNET_INVALID_HANDLE, "%s: entry %zu is still a handle", what, i);
}

static void test_arrays(void)
{
    if (peer != me) {
        /* _all: the complete entry becomes INVALID, the pending one stays */
        gasnet_handle_t hs[3];
        hs[0] = completed_handle(peer, 0, 1);
        hs[1] = GASNET_INVALID_HANDLE;
        hs[2] = pending_handle(peer, 128, 0x21);
        gasnet_handle_t pending = hs[2];
        CHECK(gasnet_try_syncnb_all_nopoll(hs, 3) == GASNET_ERR_NOT_READY,
              "try_syncnb_all_nopoll: a pending handle was reported complete");
        CHECK(hs[0] == GASNET_INVALID_HANDLE, "try_syncnb_all_nopoll: complete entry not cleared");
        CHECK(hs[1] == GASNET_INVALID_HANDLE, "try_syncnb_all_nopoll: INVALID entry changed");
        CHECK(hs[2] == pending, "try_syncnb_all_nopoll: pending entry changed");
        gasnet_wait_syncnb_all(hs, 3);
        expect_invalid(hs, 3, "wait_syncnb_all");
        check_memset(peer, 128, 0x21, "wait_syncnb_all");

        /* _some: OK once one is complete, and only that one is cleared */
        hs[1] = completed_handle(peer, 0, 2); /* first: its get completes what came before */
        hs[0] = pending_handle(peer, 128, 0x22);
        hs[2] = pending_handle(peer, 256, 0x23);
        gasnet_handle_t p0 = hs[0], p2 = hs[2];
        CHECK_OK(gasnet_try_syncnb_some_nopoll(hs, 3));
        CHECK(hs[0] == p0 && hs[1] == GASNET_INVALID_HANDLE && hs[2] == p2,
              "try_syncnb_some_nopoll cleared the wrong entries");
        CHECK(gasnet_try_syncnb_some_nopoll(hs, 3) == GASNET_ERR_NOT_READY,
              "try_syncnb_some_nopoll: pending handles reported complete");
        CHECK(hs[0] == p0 && hs[1] == GASNET_INVALID_HANDLE && hs[2] == p2,
              "try_syncnb_some_nopoll changed entries on NOT_READY");
        /* wait_some returns once at least one is done; the rest stay valid */
        int rounds = 0;
        while (hs[0] != GASNET_INVALID_HANDLE || hs[2] != GASNET_INVALID_HANDLE) {
            gasnet_handle_t before0 = hs[0], before2 = hs[2];
            gasnet_wait_syncnb_some(hs, 3);
            CHECK(hs[0] != before0 || hs[2] != before2, "wait_syncnb_some cleared nothing");
            CHECK(hs[1] == GASNET_INVALID_HANDLE, "wait_syncnb_some changed an INVALID entry");
            CHECK(++rounds <= 2, "wait_syncnb_some: more rounds than handles");
        }
        check_memset(peer, 128, 0x22, "wait_syncnb_some");
        check_memset(peer, 256, 0x23, "wait_syncnb_some");
    }

    /* Many handles to every node (with loopback), synced by the polling
     * forms: try_all until OK, try_some and wait_some until all cleared. */
    enum { MANY = 96 };
    gasnet_handle_t hs[MANY];
    for (int mode = 0; mode < 3; mode++) {
        test_fill(expect, 64 * MANY, 500 + (unsigned)mode);
        for (int i = 0; i < MANY; i++) {
            gasnet_node_t p = (gasnet_node_t)(i % (int)nodes);
            if (i % 3 == 2) hs[i] = gasnet_memset_nb(p, at(p, 512 + 64 * (size_t)i), 0x40 + mode, 64);
            else hs[i] = gasnet_put_nb(p, at(p, 512 + 64 * (size_t)i), expect + 64 * (size_t)i, 64);
        }
        int rounds = 0;
        if (mode == 0) {
            while (gasnet_try_syncnb_all(hs, MANY) != GASNET_OK) rounds++;
        } else {
            for (;;) {
                int left = 0;
                for (int i = 0; i < MANY; i++) left += hs[i] != GASNET_INVALID_HANDLE;
                if (!left) break;
                CHECK(rounds++ < MANY + 1000000, "some-sync makes no progress");
                if (mode == 1) (void)gasnet_try_syncnb_some(hs, MANY);
                else gasnet_wait_syncnb_some(hs, MANY);
            }
        }
        expect_invalid(hs, MANY, mode == 0 ? "try_syncnb_all" : "syncnb_some");
        for (int i = 0; i < MANY; i++) {
            gasnet_node_t p = (gasnet_node_t)(i % (int)nodes);
            unsigned char got[64], want[64];
            gasnet_get(got, p, at(p, 512 + 64 * (size_t)i), 64);
            if (i % 3 == 2) memset(want, 0x40 + mode, 64);
            else memcpy(want, expect + 64 * (size_t)i, 64);
            CHECK(memcmp(got, want, 64) == 0, "handle %d (mode %d) to node %u: wrong data", i,
                  mode, p);
        }
    }
    MSG0("handle arrays: all/some, wait/try/nopoll, INVALID entries: OK");
}

static void test_nbi(void)
{
    static const size_t sizes[] = {8, 513, 65001, 1048577};
    for (gasnet_node_t p = 0; p < nodes; p++) {
        /* puts of every nbi form, then gets, each category synced apart */
        size_t off = 0;
        for (int i = 0; i < 4; i++) {
            test_fill(expect + off, sizes[i], 200 + (unsigned)i);
            if (i & 1) gasnet_put_nbi_bulk(p, at(p, off), expect + off, sizes[i]);
            else gasnet_put_nbi(p, at(p, off), expect + off, sizes[i]);
            off += sizes[i] + 8 - sizes[i] % 8;
        }
        gasnet_memset_nbi(p, at(p, off), 0x31, 8);
        gasnet_put_nbi_val(p, at(p, off + 8), 0x0123456789abcdefull, 8);
        /* only puts are outstanding: the gets category is empty */
        CHECK_OK(gasnet_try_syncnbi_gets());
        while (gasnet_try_syncnbi_puts() != GASNET_OK) continue;
        off = 0;
        for (int i = 0; i < 4; i++) {
            check_remote(p, off, sizes[i], 200 + (unsigned)i, "put_nbi + try_syncnbi_puts");
            off += sizes[i] + 8 - sizes[i] % 8;
        }
        check_memset(p, off, 0x31, "memset_nbi + try_syncnbi_puts");
        CHECK(gasnet_get_val(p, at(p, off + 8), 8) == 0x0123456789abcdefull,
              "put_nbi_val + try_syncnbi_puts");

        off = 0;
        memset(buf, CLEAR, 3 * AREA / 4);
        for (int i = 0; i < 4; i++) {
            if (i & 1) gasnet_get_nbi_bulk(buf + off, p, at(p, off), sizes[i]);
            else gasnet_get_nbi(buf + off, p, at(p, off), sizes[i]);
            off += sizes[i] + 8 - sizes[i] % 8;
        }
        CHECK_OK(gasnet_try_syncnbi_puts()); /* the puts category is empty */
        if (p % 2) gasnet_wait_syncnbi_gets();
        else while (gasnet_try_syncnbi_gets() != GASNET_OK) continue;
        off = 0;
        for (int i = 0; i < 4; i++) {
            CHECK(test_verify(buf + off, sizes[i], 200 + (unsigned)i) == sizes[i],
                  "get_nbi from node %u, n=%zu", p, sizes[i]);
            off += sizes[i] + 8 - sizes[i] % 8;
        }

        /* both categories at once, synced by _all; the get reads the
         * start of the 1 MB + 1 put above */
        test_fill(expect, 4096, 210);
        gasnet_put_nbi(p, at(p, 2 << 20), expect, 4096);
        memset(buf, CLEAR, 4096);
        gasnet_get_nbi(buf, p, at(p, off - sizes[3] - 8 + sizes[3] % 8), 4096);
        if (p % 2) gasnet_wait_syncnbi_all();
        else while (gasnet_try_syncnbi_all() != GASNET_OK) continue;
        CHECK(test_verify(buf, 4096, 203) == 4096, "get_nbi + syncnbi_all from node %u", p);
        check_remote(p, 2 << 20, 4096, 210, "put_nbi + syncnbi_all");
    }
    MSG0("implicit handles: put/get/memset/val nbi, syncnbi gets/puts/all, wait and try: OK");
}

static void test_regions(void)
{
    for (gasnet_node_t p = 0; p < nodes; p++) {
        /* an nbi put outside, synced before the region starts */
        put_pattern(p, 0, 65001, 300);
        gasnet_put_nbi(p, at(p, 65536), expect, 64);
        gasnet_wait_syncnbi_all();

        test_fill(expect, 4096, 301);
        memset(buf, CLEAR, 65001);
        uint64_t v = 0;
        gasnet_begin_nbi_accessregion();
        gasnet_get_nbi_bulk(buf, p, at(p, 0), 65001); /* several pieces */
        gasnet_put_nbi(p, at(p, 131072), expect, 4096);
        /* nb operations inside a region are not part of it */
        gasnet_handle_t nb = gasnet_get_nb(&v, p, at(p, 0), sizeof v);
        gasnet_valget_handle_t vh = gasnet_get_nb_val(p, at(p, 8), 8);
        gasnet_put_nbi_bulk(p, at(p, 131072 + 4096), expect, 4096);
        gasnet_memset_nbi(p, at(p, 131072 + 8192), 0x51, 8);
        gasnet_put_nbi_val(p, at(p, 131072 + 8200), 0xfeedfacecafebeefull, 8);
        gasnet_handle_t h = gasnet_end_nbi_accessregion();
        if (p != me)
            CHECK(gasnet_try_syncnb_nopoll(h) == GASNET_ERR_NOT_READY,
                  "region to node %u complete before any poll", p);
        /* the region's operations are not implicit-handle operations */
        CHECK_OK(gasnet_try_syncnbi_all());
        gasnet_wait_syncnbi_all();
        if (p % 2) gasnet_wait_syncnb(h);
        else while (gasnet_try_syncnb(h) != GASNET_OK) continue;
        CHECK(test_verify(buf, 65001, 300) == 65001, "get_nbi_bulk in a region from node %u", p);
        check_remote(p, 131072, 4096, 301, "put_nbi in a region");
        check_remote(p, 131072 + 4096, 4096, 301, "put_nbi_bulk in a region");
        check_memset(p, 131072 + 8192, 0x51, "memset_nbi in a region");
        CHECK(gasnet_get_val(p, at(p, 131072 + 8200), 8) == 0xfeedfacecafebeefull,
              "put_nbi_val in a region");
        gasnet_wait_syncnb(nb);
        uint64_t want[2];
        test_fill(want, sizeof want, 300);
        CHECK(v == want[0], "get_nb issued in a region from node %u", p);
        CHECK(gasnet_wait_syncnb_valget(vh) == want[1], "get_nb_val issued in a region");

        /* two regions at once, synced together in an array */
        gasnet_handle_t hs[2];
        for (int r = 0; r < 2; r++) {
            test_fill(expect + 4096 * r, 4096, 310 + (unsigned)r);
            gasnet_begin_nbi_accessregion();
            gasnet_put_nbi(p, at(p, 4096 * (size_t)r), expect + 4096 * r, 4096);
            hs[r] = gasnet_end_nbi_accessregion();
        }
        gasnet_wait_syncnb_all(hs, 2);
        expect_invalid(hs, 2, "wait_syncnb_all of regions");
        check_remote(p, 0, 4096, 310, "region 1 of 2");
        check_remote(p, 4096, 4096, 311, "region 2 of 2");
    }

    /* nbi operations started before a region stay implicit; those inside
     * join it; the sync of either leaves the other alone */
    if (peer != me) {
        gasnet_memset_nbi(peer, at(peer, 0), 0x61, 8);
        gasnet_begin_nbi_accessregion();
        gasnet_memset_nbi(peer, at(peer, 64), 0x62, 8);
        gasnet_handle_t h = gasnet_end_nbi_accessregion();
        CHECK(gasnet_try_syncnb_nopoll(h) == GASNET_ERR_NOT_READY, "region complete before a poll");
        gasnet_wait_syncnbi_puts();
        check_memset(peer, 0, 0x61, "memset_nbi before a region");
        gasnet_wait_syncnb(h);
        check_memset(peer, 64, 0x62, "memset_nbi in a region");
    }
    MSG0("access regions: members, nb operations inside, handles, arrays: OK");
}

static void test_val(void)
{
    const gasnet_register_value_t v = (gasnet_register_value_t)0xf1e2d3c4b5a69788ull;
    static const size_t widths[] = {1, 2, 4, SIZEOF_GASNET_REGISTER_VALUE_T};
    for (gasnet_node_t p = 0; p < nodes; p++) {
        for (int w = 0; w < 4; w++) {
            size_t nb = widths[w];
            gasnet_register_value_t mask =
                nb == sizeof v ? ~(gasnet_register_value_t)0 : ((gasnet_register_value_t)1 << (8 * nb)) - 1;
            for (int form = 0; form < 3; form++) {
                gasnet_register_value_t val = v ^ (gasnet_register_value_t)(form * 0x01010101u);
                unsigned char area[16];
                memset(area, CLEAR, sizeof area);
                gasnet_put(p, at(p, 0), area, sizeof area);
                void *dst = at(p, 8);
                if (form == 0) gasnet_put_val(p, dst, val, nb);
                else if (form == 1) gasnet_wait_syncnb(gasnet_put_nb_val(p, dst, val, nb));
                else {
                    gasnet_put_nbi_val(p, dst, val, nb);
                    gasnet_wait_syncnbi_puts();
                }
                gasnet_get(area, p, at(p, 0), sizeof area);
                /* the low 8*nb bits as a native nb-byte integer; nothing else */
                uint64_t got = 0;
                switch (nb) {
                case 1: { uint8_t x; memcpy(&x, area + 8, 1); got = x; break; }
                case 2: { uint16_t x; memcpy(&x, area + 8, 2); got = x; break; }
                case 4: { uint32_t x; memcpy(&x, area + 8, 4); got = x; break; }
                default: { uint64_t x; memcpy(&x, area + 8, 8); got = x; break; }
                }
                CHECK(got == (val & mask), "put_val form %d width %zu to node %u: 0x%llx", form,
                      nb, p, (unsigned long long)got);
                for (size_t i = 0; i < sizeof area; i++)
                    CHECK((i >= 8 && i < 8 + nb) || area[i] == CLEAR,
                          "put_val width %zu wrote byte %zu", nb, i);
                /* gets zero-extend */
                CHECK(gasnet_get_val(p, dst, nb) == (val & mask), "get_val width %zu from node %u",
                      nb, p);
                gasnet_valget_handle_t vh = gasnet_get_nb_val(p, dst, nb);
                CHECK(gasnet_wait_syncnb_valget(vh) == (val & mask),
                      "get_nb_val width %zu from node %u", nb, p);
            }
        }
    }
    /* several value gets in flight to every node, synced in reverse */
    enum { PER = 8 };
    gasnet_valget_handle_t vh[4 * PER];
    gasnet_register_value_t want[4 * PER];
    int n = 0;
    for (gasnet_node_t p = 0; p < nodes && p < 4; p++) {
        for (int i = 0; i < PER; i++) {
            want[n] = v + (gasnet_register_value_t)(p * 100 + (unsigned)i);
            gasnet_put_val(p, at(p, 64 + 8 * (size_t)i), want[n], sizeof want[n]);
            n++;
        }
    }
    n = 0;
    for (gasnet_node_t p = 0; p < nodes && p < 4; p++)
        for (int i = 0; i < PER; i++) vh[n++] = gasnet_get_nb_val(p, at(p, 64 + 8 * (size_t)i), 8);
    /* neither nbi syncs nor regions are needed for them */
    gasnet_wait_syncnbi_all();
    while (n-- > 0)
        CHECK(gasnet_wait_syncnb_valget(vh[n]) == want[n], "get_nb_val %d in flight", n);
    MSG0("register values: put_val/nb/nbi, get_val/nb widths 1..%d, zero extension: OK",
         SIZEOF_GASNET_REGISTER_VALUE_T);
}

/* Non-bulk puts may reuse their source as soon as they return. */
static void test_source_reuse(void)
{
    static const size_t sizes[] = {8, 513, 4096, 65001, 1048577};
    for (gasnet_node_t p = 0; p < nodes; p++) {
        for (int i = 0; i < 5; i++) {
            size_t n = sizes[i];
            unsigned seed = 400 + (unsigned)i;
            test_fill(expect, n, seed);
            gasnet_handle_t h = gasnet_put_nb(p, at(p, 0), expect, n);
            memset(expect, 0, n);
            gasnet_wait_syncnb(h);
            check_remote(p, 0, n, seed, "put_nb, source overwritten after return");

            test_fill(expect, n, seed + 10);
            gasnet_put_nbi(p, at(p, 0), expect, n);
            memset(expect, 0, n);
            gasnet_wait_syncnbi_puts();
            check_remote(p, 0, n, seed + 10, "put_nbi, source overwritten after return");
        }
    }
    MSG0("source reuse after put_nb/put_nbi return: OK");
}

/* Arrays far longer than the network depth (nlong handles, 2^18 unless the
 * command line gives another length), synced by each form: an array's sync
 * must cost time linear in its length. (When every sync swept the whole
 * array again after each poll, and each handle found complete swept it
 * once more for its leaves, 2^18 did not finish within the harness's time
 * limit.) */
static size_t nlong = (size_t)1 << 18;
static void test_long_arrays(void)
{
    gasnet_handle_t *hs = malloc(nlong * sizeof *hs);
    uint64_t *vals = malloc(nlong * sizeof *vals);
    CHECK(hs && vals, "out of memory");
    for (int mode = 0; mode < 3; mode++) {
        for (size_t i = 0; i < nlong; i++) {
            vals[i] = (uint64_t)i * 0x9e3779b97f4a7c15ull + (uint64_t)mode;
            hs[i] = gasnet_put_nb(peer, at(peer, 8 * i), &vals[i], sizeof vals[i]);
        }
        if (mode == 0) gasnet_wait_syncnb_all(hs, nlong);
        else if (mode == 1) while (gasnet_try_syncnb_all(hs, nlong) != GASNET_OK) continue;
        else
            for (size_t first = 0; first < nlong; (void)gasnet_try_syncnb_some(hs, nlong))
                while (first < nlong && hs[first] == GASNET_INVALID_HANDLE) first++;
        expect_invalid(hs, nlong, mode == 0 ? "wait_syncnb_all" : "try_syncnb_all/some");
        memset(vals, 0, nlong * sizeof *vals);
        for (size_t i = 0; i < nlong; i++) hs[i] = gasnet_get_nb(&vals[i], peer, at(peer, 8 * i), 8);
        gasnet_wait_syncnb_all(hs, nlong);
        for (size_t i = 0; i < nlong; i++)
            CHECK(vals[i] == (uint64_t)i * 0x9e3779b97f4a7c15ull + (uint64_t)mode,
                  "long array (mode %d): put or get %zu of %zu to node %u: wrong value", mode, i,
                  nlong, peer);
    }
    free(hs);
    free(vals);
    MSG0("arrays of %zu handles: wait_all, try_all, try_some: OK", nlong);
}

int main(int argc, char **argv)
{
    seg = test_start(&argc, &argv, NULL, 0, AREA * MAX_NODES);
    if (argc > 1) nlong = strtoul(argv[1], NULL, 0);
    CHECK(nlong >= 1 && nlong <= AREA / 8, "the long arrays' length %zu is not in [1, %zu]", nlong, AREA / 8);
    me = gasnet_mynode();
    nodes = gasnet_nodes();
    CHECK(nodes <= MAX_NODES, "at most %d nodes", MAX_NODES);
    peer = (me + 1) % nodes;
    buf = malloc(AREA);
    expect = malloc(AREA);
    CHECK(buf && expect, "out of memory");
    test_invalid();
    test_single();
    test_arrays();
    test_nbi();
    test_regions();
    test_val();
    test_source_reuse();
    test_long_arrays();
    BARRIER();
    MSG0("ext_sync: OK");
    gasnet_exit(0);
}
