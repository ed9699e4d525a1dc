/* ext_errors: errors in extended-API calls are fatal (spec 7.1), with a
 * message naming the node, the call and the bad value; and what looks odd
 * but is legal is not an error.
 *
 *   ext_errors legal          NULL addresses with nbytes = 0, to every node
 *   ext_errors CASE           node 0 makes one bad call (the suite expects a
 *                             non-zero exit and the message); the others
 *                             wait in a barrier until the job is ended
 *
 * CASEs: put_outside get_outside memset_outside bad_node null_local
 * memset_null val_size double_sync nbi_sync_in_region. They target the
 * last node, so with two or more nodes the target is another node.
 */
#include "test.h"

static void legal(gasnet_seginfo_t *seg)
{
    gasnet_node_t nodes = gasnet_nodes();
    for (gasnet_node_t p = 0; p < nodes; p++) {
        void *r = seg[p].addr;
        gasnet_put(p, r, NULL, 0);
        gasnet_get(NULL, p, r, 0);
        gasnet_put_bulk(p, NULL, NULL, 0);
        gasnet_get_bulk(NULL, p, NULL, 0);
        gasnet_memset(p, NULL, 1, 0);
        gasnet_wait_syncnb(gasnet_put_nb(p, r, NULL, 0));
        gasnet_wait_syncnb(gasnet_get_nb(NULL, p, r, 0));
        gasnet_wait_syncnb(gasnet_put_nb_bulk(p, NULL, NULL, 0));
        gasnet_wait_syncnb(gasnet_get_nb_bulk(NULL, p, NULL, 0));
        gasnet_wait_syncnb(gasnet_memset_nb(p, NULL, 1, 0));
        gasnet_put_nbi(p, r, NULL, 0);
        gasnet_get_nbi(NULL, p, r, 0);
        gasnet_put_nbi_bulk(p, NULL, NULL, 0);
        gasnet_get_nbi_bulk(NULL, p, NULL, 0);
        gasnet_memset_nbi(p, NULL, 1, 0);
        gasnet_wait_syncnbi_all();
        /* the very last bytes of a segment are in it */
        char *end = (char *)seg[p].addr + seg[p].size;
        uint64_t v = 0x0102030405060708ull, back = 0;
        gasnet_put(p, end - 8, &v, 8);
        gasnet_get(&back, p, end - 8, 8);
        CHECK(back == v, "last word of node %u's segment", p);
    }
    BARRIER();
    MSG0("ext_errors legal: zero-byte transfers with NULL addresses, segment ends: OK");
}

int main(int argc, char **argv)
{
    gasnet_seginfo_t *seg = test_start(&argc, &argv, NULL, 0, GASNET_PAGESIZE);
    gasnet_node_t last = gasnet_nodes() - 1;
    const char *mode = argc > 1 ? argv[1] : "legal";
    if (!strcmp(mode, "legal")) {
        legal(seg);
        gasnet_exit(0);
    }
    char *base = seg[last].addr, *end = base + seg[last].size;
    uint64_t v = 0;
    if (gasnet_mynode() == 0) {
        if (!strcmp(mode, "put_outside")) {
            gasnet_put(last, end - 4, &v, 8); /* straddles the end */
        } else if (!strcmp(mode, "get_outside")) {
            gasnet_wait_syncnb(gasnet_get_nb(&v, last, base - 8, 8));
        } else if (!strcmp(mode, "memset_outside")) {
            gasnet_memset_nbi(last, end, 0, 1);
            gasnet_wait_syncnbi_puts();
        } else if (!strcmp(mode, "bad_node")) {
            gasnet_put_nbi(last + 1, base, &v, 8);
            gasnet_wait_syncnbi_puts();
        } else if (!strcmp(mode, "null_local")) {
            gasnet_get(NULL, last, base, 8);
        } else if (!strcmp(mode, "memset_null")) {
            gasnet_memset(last, NULL, 0, 8); /* the remote address is the NULL one */
        } else if (!strcmp(mode, "val_size")) {
            gasnet_put_val(last, base, 1, SIZEOF_GASNET_REGISTER_VALUE_T + 1);
        } else if (!strcmp(mode, "double_sync")) {
            gasnet_handle_t h = gasnet_get_nb(&v, last, base, 8);
            CHECK(h != GASNET_INVALID_HANDLE, "run with 2 nodes: a get from another node");
            gasnet_wait_syncnb(h);
            gasnet_wait_syncnb(h);
        } else if (!strcmp(mode, "nbi_sync_in_region")) {
            gasnet_begin_nbi_accessregion();
            gasnet_wait_syncnbi_all();
        } else {
            CHECK(0, "unknown case %s", mode);
        }
        CHECK(0, "%s was not fatal", mode);
    }
    BARRIER();
    CHECK(0, "%s: node 0 did not end the job", mode);
}
