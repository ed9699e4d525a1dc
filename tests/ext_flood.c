/* ext_flood: a flood of small implicit-handle puts with no sync until the
 * end, mixed with explicit-handle puts synced through a window of handles
 * and a few nbi gets; every word that arrives is then checked.
 *
 *   ext_flood [TOTAL]   TOTAL nbi puts across the job (default 1000000)
 *
 * Node s sends its i-th put to node (s + i) mod N, into a word of its own
 * there; words of every 8th op go by gasnet_put_nbi_val, the others by
 * gasnet_put_nbi from a stack variable (reusable on return). Every 16th op
 * also sends an nb put into a second array; its handle joins a window of
 * WINDOW handles, drained alternately by wait_syncnb_all and, one at a
 * time, by wait_syncnb_some. Every 64th op gets a word of the target's
 * constant table with get_nbi. The test passes if nothing deadlocks and
 * every word is right.
 */
#include "test.h"

#define WINDOW 256
#define TABLE 64

static uint64_t word(gasnet_node_t s, uint64_t i, int kind)
{
    return ((uint64_t)s << 48) ^ (i * 0x9e3779b97f4a7c15ull) ^ (uint64_t)kind;
}

int main(int argc, char **argv)
{
    long total = argc > 1 ? atol(argv[1]) : 1000000;
    if (gasnet_init(&argc, &argv) != GASNET_OK) return 1;
    gasnet_node_t me = gasnet_mynode(), nodes = gasnet_nodes();
    uint64_t per = (uint64_t)(total + (long)nodes - 1) / nodes; /* ops per node, at most */
    uint64_t nbper = per / 16 + 1;
    /* in every segment: nbi words [node][per], nb words [node][nbper], table */
    size_t bytes = 8 * ((size_t)nodes * (per + nbper) + TABLE);
    CHECK_OK(gasnet_attach(NULL, 0, (bytes + GASNET_PAGESIZE - 1) / GASNET_PAGESIZE * GASNET_PAGESIZE, 0));
    gasnet_seginfo_t *seg = calloc(nodes, sizeof *seg);
    CHECK(seg != NULL, "out of memory");
    CHECK_OK(gasnet_getSegmentInfo(seg, (int)nodes));
    CHECK(total > 0, "usage: ext_flood [TOTAL]");

    uint64_t *mine = seg[me].addr;
    memset(mine, 0, bytes);
    for (int k = 0; k < TABLE; k++) mine[(size_t)nodes * (per + nbper) + (size_t)k] = word(me, (uint64_t)k, 3);
    BARRIER();

    uint64_t count = (uint64_t)(total / (long)nodes) + (me < (uint64_t)(total % (long)nodes));
    gasnet_handle_t window[WINDOW];
    int used = 0, drains = 0;
    uint64_t *got = calloc(count / TABLE + 1, sizeof *got);
    CHECK(got != NULL, "out of memory");
    for (uint64_t i = 0; i < count; i++) {
        gasnet_node_t t = (gasnet_node_t)((me + i) % nodes);
        uint64_t *there = seg[t].addr;
        uint64_t v = word(me, i, 0);
        if (i % 8 == 7) gasnet_put_nbi_val(t, &there[me * per + i], v, sizeof v);
        else gasnet_put_nbi(t, &there[me * per + i], &v, sizeof v);
        if (i % 16 == 0) {
            if (used == WINDOW) {
                if (drains++ % 2 == 0) {
                    gasnet_wait_syncnb_all(window, WINDOW);
                    used = 0;
                } else {
                    /* free one entry: compact the window after wait_some */
                    gasnet_wait_syncnb_some(window, WINDOW);
                    int k = 0;
                    for (int j = 0; j < WINDOW; j++)
                        if (window[j] != GASNET_INVALID_HANDLE) window[k++] = window[j];
                    used = k;
                }
            }
            uint64_t w = word(me, i / 16, 1);
            window[used++] = gasnet_put_nb(t, &there[(size_t)nodes * per + me * nbper + i / 16], &w, sizeof w);
        }
        if (i % TABLE == 5)
            gasnet_get_nbi(&got[i / TABLE], t, &there[(size_t)nodes * (per + nbper) + i / TABLE % TABLE], 8);
    }
    gasnet_wait_syncnbi_all();
    gasnet_wait_syncnb_all(window, (size_t)used);
    for (uint64_t i = 5; i < count; i += TABLE) {
        gasnet_node_t t = (gasnet_node_t)((me + i) % nodes);
        CHECK(got[i / TABLE] == word(t, i / TABLE % TABLE, 3), "get_nbi %llu from node %u",
              (unsigned long long)i, t);
    }
    BARRIER(); /* every node's puts are complete */

    uint64_t seen = 0;
    for (gasnet_node_t s = 0; s < nodes; s++) {
        uint64_t scount = (uint64_t)(total / (long)nodes) + (s < (uint64_t)(total % (long)nodes));
        for (uint64_t i = 0; i < per; i++) {
            int ours = i < scount && (s + i) % nodes == me;
            uint64_t want = ours ? word(s, i, 0) : 0;
            CHECK(mine[s * per + i] == want, "nbi word %llu from node %u: 0x%llx, expected 0x%llx",
                  (unsigned long long)i, s, (unsigned long long)mine[s * per + i],
                  (unsigned long long)want);
            seen += (uint64_t)ours;
            if (i % 16 == 0) {
                uint64_t nbw = mine[(size_t)nodes * per + s * nbper + i / 16];
                want = ours ? word(s, i / 16, 1) : 0;
                CHECK(nbw == want, "nb word %llu from node %u: 0x%llx", (unsigned long long)i, s,
                      (unsigned long long)nbw);
            }
        }
    }
    BARRIER();
    MSG0("ext_flood: %ld nbi puts on %u nodes (node 0 received %llu), window of %d nb handles: OK",
         total, nodes, (unsigned long long)seen, WINDOW);
    gasnet_exit(0);
}
