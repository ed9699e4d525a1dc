/* coll_legacy: the GASNet-1 collectives of gasnet_coll.h (spec §16.5) in a
 * GASNet-1 client (gasnet.h), from the spec alone.
 *
 *   coll_legacy [quick|matrix]   results (matrix: every root, size and
 *                                placement with every flag combination)
 *   coll_legacy bad WHAT         one bad call, which must be fatal
 *
 * - gasnet_coll_init(0,0,0,0,0) then gasnet_coll_broadcast as a utility;
 * - broadcast, scatter, gather, gather_all and exchange with each of the
 *   nine IN x OUT sync flag pairs, GASNET_COLL_LOCAL, buffers private or
 *   in the segment (then with GASNET_COLL_DST/SRC_IN_SEGMENT), blocks
 *   from 1 byte to more than a Medium, synced by the blocking form,
 *   gasnet_coll_wait_sync, a gasnet_coll_try_sync loop, or
 *   gasnet_coll_wait_sync_all. Results are checked when the flags promise
 *   them: after this rank's sync for OUT_MYSYNC and OUT_ALLSYNC, and, for
 *   OUT_ALLSYNC, a neighbour's dst too (read with gasnet_get: every
 *   member's buffers are done); for OUT_NOSYNC only after a barrier that
 *   follows every member's sync. Sources are written before a barrier
 *   that precedes the call (IN_NOSYNC lets data move as soon as any
 *   member has entered);
 * - all five in flight at once, synced with gasnet_coll_wait_sync_all;
 * - IN_ALLSYNC holding data back until the last member enters, whose
 *   puts to every member's src just before are what arrives;
 * - the team barriers on GASNET_TEAM_ALL;
 * - the tuning hooks (nothing to tune here, gasnet_coll.h): the tree-class
 *   count, the setters (the collectives still work after them), and the
 *   state and profile files: written by rank 0, marked as this library's,
 *   and the state file loaded by every rank.
 */
#include "test.h"

#include <gasnet_coll.h>
#include <unistd.h>

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static gasnet_node_t me, n;
static char *seg;
static int matrix;
/* src and dst halves of the segment: room for n blocks of MAX_BLOCK bytes
 * (a scatter's src and an exchange's dst are n blocks) and for the largest
 * broadcast, at least 5 MiB each (64 ranks); set from n before the attach */
#define MAX_BLOCK 70000
#define MAX_BROADCAST 200000
#define SRC_OFF 0
static size_t dst_off, segsize;

enum { BROADCAST, SCATTER, GATHER, GATHER_ALL, EXCHANGE, NKINDS };
static const char *const kind_names[] = {"broadcast", "scatter", "gather", "gather_all", "exchange"};
static const int ins[] = {GASNET_COLL_IN_NOSYNC, GASNET_COLL_IN_MYSYNC, GASNET_COLL_IN_ALLSYNC};
static const int outs[] = {GASNET_COLL_OUT_NOSYNC, GASNET_COLL_OUT_MYSYNC, GASNET_COLL_OUT_ALLSYNC};

/* Bytes of src and dst on rank r for kind. */
static size_t src_size(int kind, size_t nb) { return kind == SCATTER || kind == EXCHANGE ? nb * n : nb; }
static size_t dst_size(int kind, size_t nb) { return kind == BROADCAST || kind == SCATTER ? nb : nb * n; }

/* The pattern seed of block `blk` of rank r's src. */
static unsigned seed_of(int kind, unsigned base, gasnet_node_t r, size_t blk)
{
    return base + (unsigned)(kind == EXCHANGE ? r * n + blk : kind == SCATTER ? blk : r);
}

/* Rank r's src. */
static void fill_src(int kind, char *src, size_t nb, unsigned base, gasnet_node_t r)
{
    size_t blocks = src_size(kind, nb) / nb;
    for (size_t b = 0; b < blocks; b++) test_fill(src + b * nb, nb, seed_of(kind, base, r, b));
}

/* Checks rank r's dst (a copy in buf): 1 if r has a result to check. */
static int check_dst(int kind, const char *buf, gasnet_node_t r, gasnet_node_t root, size_t nb,
                     unsigned base, const char *what)
{
    switch (kind) {
    case BROADCAST: {
        size_t i = test_verify(buf, nb, seed_of(kind, base, root, 0));
        CHECK(i == nb, "%s: rank %u's dst differs at byte %zu", what, r, i);
        return 1;
    }
    case SCATTER: {
        size_t i = test_verify(buf, nb, seed_of(kind, base, root, r));
        CHECK(i == nb, "%s: rank %u's dst differs at byte %zu", what, r, i);
        return 1;
    }
    case GATHER:
        if (r != root) return 0;
        /* fall through */
    default:
        for (gasnet_node_t j = 0; j < n; j++) {
            size_t i = test_verify(buf + j * nb, nb, seed_of(kind, base, j, kind == EXCHANGE ? r : 0));
            CHECK(i == nb, "%s: rank %u's dst block %u differs at byte %zu", what, r, j, i);
        }
        return 1;
    }
}

static gasnet_coll_handle_t start(int kind, void *dst, gasnet_node_t root, void *src, size_t nb, int flags)
{
    switch (kind) {
    case BROADCAST: return gasnet_coll_broadcast_nb(GASNET_TEAM_ALL, dst, root, src, nb, flags);
    case SCATTER: return gasnet_coll_scatter_nb(GASNET_TEAM_ALL, dst, root, src, nb, flags);
    case GATHER: return gasnet_coll_gather_nb(GASNET_TEAM_ALL, root, dst, src, nb, flags);
    case GATHER_ALL: return gasnet_coll_gather_all_nb(GASNET_TEAM_ALL, dst, src, nb, flags);
    default: return gasnet_coll_exchange_nb(GASNET_TEAM_ALL, dst, src, nb, flags);
    }
}
static void blocking(int kind, void *dst, gasnet_node_t root, void *src, size_t nb, int flags)
{
    switch (kind) {
    case BROADCAST: gasnet_coll_broadcast(GASNET_TEAM_ALL, dst, root, src, nb, flags); break;
    case SCATTER: gasnet_coll_scatter(GASNET_TEAM_ALL, dst, root, src, nb, flags); break;
    case GATHER: gasnet_coll_gather(GASNET_TEAM_ALL, root, dst, src, nb, flags); break;
    case GATHER_ALL: gasnet_coll_gather_all(GASNET_TEAM_ALL, dst, src, nb, flags); break;
    default: gasnet_coll_exchange(GASNET_TEAM_ALL, dst, src, nb, flags); break;
    }
}

static long ncases;

static void one_case(int kind, int in, int out, int in_seg, size_t nb, gasnet_node_t root, int style)
{
    unsigned base = (unsigned)(ncases++ * 17);
    size_t ssz = src_size(kind, nb), dsz = dst_size(kind, nb);
    char *src = in_seg ? seg + SRC_OFF : malloc(ssz), *dst = in_seg ? seg + dst_off : malloc(dsz);
    CHECK(src && dst, "out of memory");
    CHECK(!in_seg || (ssz <= dst_off - SRC_OFF && dsz <= segsize - dst_off),
          "the test's segment layout is too small for %zu-byte blocks on %u ranks", nb, n);
    fill_src(kind, src, nb, base, me);
    memset(dst, 0xEE, dsz);
    int flags = ins[in] | outs[out] | GASNET_COLL_LOCAL |
                (in_seg ? GASNET_COLL_DST_IN_SEGMENT | GASNET_COLL_SRC_IN_SEGMENT : 0);
    char what[160];
    snprintf(what, sizeof what, "%s of %zu-byte blocks, root %u, flags 0x%x, sync style %d",
             kind_names[kind], nb, root, (unsigned)flags, style);
    BARRIER(); /* sources are ready before anyone enters */
    if (style == 0) {
        blocking(kind, dst, root, src, nb, flags);
    } else {
        gasnet_coll_handle_t h = start(kind, dst, root, src, nb, flags);
        if (style == 1) {
            gasnet_coll_wait_sync(h);
        } else if (style == 2) {
            while (gasnet_coll_try_sync(h) != GASNET_OK) gasnet_AMPoll();
        } else {
            gasnet_coll_wait_sync_all(&h, 1);
            CHECK(h == GASNET_COLL_INVALID_HANDLE, "wait_sync_all left a handle");
        }
    }
    if (outs[out] != GASNET_COLL_OUT_NOSYNC) check_dst(kind, dst, me, root, nb, base, what);
    if (outs[out] == GASNET_COLL_OUT_ALLSYNC && in_seg && n > 1) {
        /* every member's buffers are done: the next rank's dst too */
        gasnet_node_t peer = (me + 1) % n;
        char *copy = malloc(dsz);
        CHECK(copy, "out of memory");
        gasnet_get(copy, peer, (char *)test_segments[peer].addr + dst_off, dsz);
        check_dst(kind, copy, peer, root, nb, base, what);
        free(copy);
    }
    BARRIER(); /* every member has synced: all data has moved */
    if (outs[out] == GASNET_COLL_OUT_NOSYNC) check_dst(kind, dst, me, root, nb, base, what);
    if (!in_seg) {
        free(src);
        free(dst);
    }
}

/* All five at once, with private buffers. */
static void in_flight(size_t nb)
{
    gasnet_coll_handle_t h[NKINDS];
    char *src[NKINDS], *dst[NKINDS];
    unsigned base = 5000;
    gasnet_node_t root = n - 1;
    for (int k = 0; k < NKINDS; k++) {
        src[k] = malloc(src_size(k, nb));
        dst[k] = malloc(dst_size(k, nb));
        CHECK(src[k] && dst[k], "out of memory");
        fill_src(k, src[k], nb, base + (unsigned)k * 1000, me);
    }
    BARRIER();
    for (int k = 0; k < NKINDS; k++)
        h[k] = start(k, dst[k], root, src[k], nb,
                     GASNET_COLL_IN_MYSYNC | GASNET_COLL_OUT_MYSYNC | GASNET_COLL_LOCAL);
    gasnet_coll_wait_sync_all(h, NKINDS);
    for (int k = 0; k < NKINDS; k++) {
        check_dst(k, dst[k], me, root, nb, base + (unsigned)k * 1000, "five in flight");
        free(src[k]);
        free(dst[k]);
    }
    BARRIER();
}

/* IN_ALLSYNC: no data moves before every member has entered. The last
 * rank, before it enters, rewrites every member's src (in the segment)
 * with blocking puts; the others are inside the call by then (it sleeps
 * first), so every dst must hold what it wrote. */
static void in_allsync(size_t nb)
{
    for (int kind = 0; kind < NKINDS; kind++) {
        unsigned before = (unsigned)(ncases++ * 17), after = before + 9;
        size_t ssz = src_size(kind, nb);
        char *src = seg + SRC_OFF, *dst = malloc(dst_size(kind, nb)), *fresh = malloc(ssz);
        CHECK(dst && fresh, "out of memory");
        fill_src(kind, src, nb, before, me);
        char what[96];
        snprintf(what, sizeof what, "%s of %zu-byte blocks, IN_ALLSYNC, src rewritten by the last to enter",
                 kind_names[kind], nb);
        BARRIER();
        if (me == n - 1) {
            usleep(50000);
            for (gasnet_node_t r = 0; r < n; r++) {
                fill_src(kind, fresh, nb, after, r);
                gasnet_put(r, (char *)test_segments[r].addr + SRC_OFF, fresh, ssz);
            }
        }
        blocking(kind, dst, 0, src, nb,
                 GASNET_COLL_IN_ALLSYNC | GASNET_COLL_OUT_MYSYNC | GASNET_COLL_LOCAL | GASNET_COLL_SRC_IN_SEGMENT);
        check_dst(kind, dst, me, 0, nb, after, what);
        BARRIER();
        free(dst);
        free(fresh);
    }
}

static void bad(const char *what)
{
    char a[64] = {0}, b[64];
    const int ok = GASNET_COLL_IN_MYSYNC | GASNET_COLL_OUT_MYSYNC | GASNET_COLL_LOCAL;
    if (!strcmp(what, "nolocal"))
        gasnet_coll_broadcast(GASNET_TEAM_ALL, b, 0, a, 8, GASNET_COLL_IN_MYSYNC | GASNET_COLL_OUT_MYSYNC);
    else if (!strcmp(what, "twoin"))
        gasnet_coll_broadcast(GASNET_TEAM_ALL, b, 0, a, 8, ok | GASNET_COLL_IN_NOSYNC);
    else if (!strcmp(what, "noout"))
        gasnet_coll_gather_all(GASNET_TEAM_ALL, b, a, 8, GASNET_COLL_IN_MYSYNC | GASNET_COLL_LOCAL);
    else if (!strcmp(what, "team"))
        gasnet_coll_broadcast(NULL, b, 0, a, 8, ok);
    else if (!strcmp(what, "seg"))
        gasnet_coll_broadcast(GASNET_TEAM_ALL, b, 0, a, 8, ok | GASNET_COLL_DST_IN_SEGMENT);
    else if (!strcmp(what, "zero"))
        gasnet_coll_broadcast(GASNET_TEAM_ALL, b, 0, a, 0, ok);
    else if (!strcmp(what, "root"))
        gasnet_coll_scatter(GASNET_TEAM_ALL, b, n, a, 8, ok);
    else if (!strcmp(what, "initflags"))
        gasnet_coll_init(NULL, 0, NULL, 0, 1);
    else {
        MSG0("coll_legacy: unknown bad case %s", what);
        gasnet_exit(2);
    }
    BARRIER();
    MSG0("coll_legacy bad %s: no error", what);
    gasnet_exit(0);
}

/* The first line of path starts with prefix. */
static int first_line_is(const char *path, const char *prefix)
{
    FILE *f = fopen(path, "r");
    char line[160] = "";
    int ok = f && fgets(line, sizeof line, f) && !strncmp(line, prefix, strlen(prefix));
    if (f) fclose(f);
    return ok;
}

static void tuning(void)
{
    CHECK(gasnet_coll_get_num_tree_classes(GASNET_TEAM_ALL, GASNET_COLL_BROADCAST_OP) == 1,
          "broadcast has one tree class");
    CHECK(gasnet_coll_get_num_tree_classes(GASNET_TEAM_ALL, GASNET_COLL_EXCHANGE_OP) == 0,
          "exchange uses no tree");
    gasnet_coll_set_tree_kind(GASNET_TEAM_ALL, 0, 2, GASNET_COLL_BROADCAST_OP);
    gasnet_coll_set_dissem_limit(GASNET_TEAM_ALL, 1024, GASNET_COLL_GATHER_ALL_OP);
    /* file names unique to this job: node 0's pid, broadcast */
    uint64_t pid = me == 0 ? (uint64_t)getpid() : 0;
    gasnet_coll_broadcast(GASNET_TEAM_ALL, &pid, 0, &pid, sizeof pid,
                          GASNET_COLL_IN_MYSYNC | GASNET_COLL_OUT_MYSYNC | GASNET_COLL_LOCAL);
    char state[96], profile[96];
    snprintf(state, sizeof state, "/tmp/coll_legacy_tuning.%llu", (unsigned long long)pid);
    snprintf(profile, sizeof profile, "/tmp/coll_legacy_profile.%llu", (unsigned long long)pid);
    gasnet_coll_dumpTuningState(state, GASNET_TEAM_ALL);
    gasnet_coll_dumpProfile(profile, GASNET_TEAM_ALL);
    BARRIER();
    if (me == 0) {
        CHECK(first_line_is(state, "# GASNet-EX over MPI: collective tuning state"),
              "%s is not a tuning state file", state);
        CHECK(first_line_is(profile, "# GASNet-EX over MPI: collective profile"),
              "%s is not a profile file", profile);
    }
    gasnet_coll_loadTuningState(state, GASNET_TEAM_ALL); /* every rank; the file is shared */
    BARRIER();
    if (me == 0) {
        unlink(state);
        unlink(profile);
    }
}

int main(int argc, char **argv)
{
    test_init(&argc, &argv); /* the segment's size depends on the number of ranks */
    me = gasnet_mynode();
    n = gasnet_nodes();
    size_t half = (size_t)MAX_BLOCK * n > MAX_BROADCAST ? (size_t)MAX_BLOCK * n : MAX_BROADCAST;
    half = (half + (1 << 20) - 1) / (1 << 20) * (1 << 20);
    if (half < (5 << 20)) half = 5 << 20;
    dst_off = SRC_OFF + half;
    segsize = dst_off + half;
    test_attach(NULL, 0, segsize);
    seg = test_segments[me].addr;
    gasnet_coll_init(0, 0, 0, 0, 0);
    if (argc > 2 && !strcmp(argv[1], "bad")) bad(argv[2]);
    matrix = argc > 1 && !strcmp(argv[1], "matrix");

    /* the utility use of GASNet-1 test programs */
    uint64_t value = me == 0 ? 0x0123456789abcdefull : 0;
    gasnet_coll_broadcast(GASNET_TEAM_ALL, &value, 0, &value, sizeof value,
                          GASNET_COLL_IN_MYSYNC | GASNET_COLL_OUT_MYSYNC | GASNET_COLL_LOCAL);
    CHECK(value == 0x0123456789abcdefull, "broadcast of node 0's value gave 0x%llx",
          (unsigned long long)value);

    const size_t quick_sizes[] = {1000}, matrix_sizes[] = {1, 200, MAX_BLOCK};
    const size_t *sizes = matrix ? matrix_sizes : quick_sizes;
    size_t nsizes = matrix ? COUNT(matrix_sizes) : COUNT(quick_sizes);
    int style = 0;
    for (int kind = 0; kind < NKINDS; kind++)
        for (int in = 0; in < 3; in++)
            for (int out = 0; out < 3; out++)
                for (int in_seg = 0; in_seg < 2; in_seg++) {
                    if (!matrix && in_seg != (in + out) % 2) continue;
                    for (size_t s = 0; s < nsizes; s++)
                        for (gasnet_node_t root = matrix ? 0 : n - 1; root < n; root++)
                            one_case(kind, in, out, in_seg, sizes[s], root, style++ % 4);
                }
    if (!matrix) /* more than a Medium per block, once per kind */
        for (int kind = 0; kind < NKINDS; kind++) one_case(kind, 1, 2, 1, MAX_BLOCK, 0, kind % 4);
    /* broadcasts above 128 KiB from the segment (on one host read there in
     * place), each sync flag once */
    for (int sync = 0; sync < 3; sync++) one_case(BROADCAST, sync, sync, 1, MAX_BROADCAST, n - 1, sync + 1);
    in_flight(3000);
    in_allsync(8);
    in_allsync(3000);

    gasnet_coll_barrier_notify(GASNET_TEAM_ALL, 42, 0);
    CHECK_OK(gasnet_coll_barrier_wait(GASNET_TEAM_ALL, 42, 0));
    gasnet_coll_barrier_notify(GASNET_TEAM_ALL, 0, GASNET_BARRIERFLAG_ANONYMOUS);
    int rc;
    while ((rc = gasnet_coll_barrier_try(GASNET_TEAM_ALL, 0, GASNET_BARRIERFLAG_ANONYMOUS)) ==
           GASNET_ERR_NOT_READY)
        gasnet_AMPoll();
    CHECK_OK(rc);
    CHECK_OK(gasnet_coll_barrier(GASNET_TEAM_ALL, 7, 0));
    int id = -1;
    CHECK(gasnet_coll_barrier_result(GASNET_TEAM_ALL, &id) == 0 && id == 7,
          "barrier_result: id %d", id);
    tuning();
    /* the collectives are unchanged by the setters */
    value = me == 0 ? 0xfeedull : 0;
    gasnet_coll_broadcast(GASNET_TEAM_ALL, &value, 0, &value, sizeof value,
                          GASNET_COLL_IN_MYSYNC | GASNET_COLL_OUT_MYSYNC | GASNET_COLL_LOCAL);
    CHECK(value == 0xfeedull, "broadcast after the setters gave 0x%llx", (unsigned long long)value);

    MSG0("coll_legacy: ok (%s, %ld cases, %u ranks)", matrix ? "matrix" : "quick", ncases, n);
    BARRIER();
    gasnet_exit(0);
    return 0;
}
