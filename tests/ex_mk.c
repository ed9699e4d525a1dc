/* Memory kinds (seed 003 §4, §6; spec §17.5, §17.7, §17.8).
 *
 *   ex_mk args    gex_MK_Create/Destroy argument rules on every rank; the
 *                 CUDA_UVA class (where built) either works or says why not
 *   ex_mk ipc     the emulated class's export/import between the processes
 *                 of this host: each rank reads and rewrites its right
 *                 neighbour's device memory through its own mapping
 *   ex_mk touch   host code dereferences emulated device memory: must fault
 *                 (what makes the emulated class catch wrong copies)
 *   ex_mk destroy_bad
 *                 gex_MK_Destroy of something that is not a kind (a
 *                 destroyed one): a fatal error naming the call
 *   ex_mk rma [quick]
 *                 puts and gets, Blocking, NB and NBI, between every pair
 *                 of ranks (itself included), with every combination of
 *                 host and device memory at both ends: the remote side is
 *                 the peer's primordial (host) segment or the device
 *                 segment bound to its created endpoint (named by a
 *                 TM-pair), the local side a host buffer or a range of this
 *                 rank's own device segment. Sizes around the AM path's
 *                 staging piece (64960 bytes). Even ranks let GASNet
 *                 allocate their device segment, odd ranks bring their own.
 *   ex_mk segs    gex_Segment_Create with a device kind: bad arguments, and
 *                 create/bind/publish/destroy on a fresh endpoint per round
 *   ex_mk long    Long requests and replies between every pair of ranks
 *                 (itself included) into device segments of created
 *                 endpoints, named by TM-pairs, from host or device memory,
 *                 every lc_opt form and Prepare/Commit, sizes 1 to
 *                 gex_AM_MaxRequestLong (gex_AM_MaxReplyLong): the handler
 *                 reads the payload in place with the class copy
 *   ex_mk long_bad
 *                 a Long request past the end of a device segment: the
 *                 call refuses it, naming the range and the segment
 *   ex_mk team_bad scratch|ad
 *                 a team of the device-bound endpoints with scratch in
 *                 device memory, or an atomic domain on one made with
 *                 NO_SCRATCH: both fatal
 *   ex_mk vis_nopoll | rma_nopoll
 *                 a VIS put (shm: direct copies through the import), or a
 *                 blocking get and then puts (a network backend whose card
 *                 reaches device memory), into rank 1's device segment
 *                 complete while rank 1 waits without polling
 *   ex_mk vis [rounds [seed]]
 *                 random vector, indexed and strided puts and gets
 *                 (Blocking, NB, NBI) with each side in host or device
 *                 memory, to every rank in turn, small (packed) and large
 *                 fragments, checked byte by byte against a reference
 *
 * Device memory is read and written only through the class's copies
 * (tests/mk_test.h). The device kind is the emulated class's, or the
 * CUDA_UVA class's (device 0) with EX_MK_CLASS=cuda (tests/gpu/run.sh).
 */
#include "ex_test.h"
#include "mk_test.h"

#include <gasnet_ratomic.h>
#include <gasnet_vis.h>

static ex_ctx_t c;

/* The device kind the tests use: the emulated class, or with
 * EX_MK_CLASS=cuda the CUDA_UVA class on device 0 (a machine with a GPU). */
static gex_MK_t device_kind(void)
{
    gex_MK_Create_args_t a;
    memset(&a, 0, sizeof a);
    a.gex_class = GASNETI_MK_CLASS_EMULATED;
    const char *cls = getenv("EX_MK_CLASS");
    if (cls && !strcmp(cls, "cuda")) {
        a.gex_class = GEX_MK_CLASS_CUDA_UVA;
        a.gex_args.gex_class_cuda_uva.gex_CUdevice = 0;
    } else CHECK(!cls || !strcmp(cls, "emulated"), "EX_MK_CLASS=%s: cuda or emulated", cls);
    gex_MK_t k = NULL;
    CHECK_OK(gex_MK_Create(&k, c.client, &a, 0));
    CHECK(k != NULL && k != GEX_MK_HOST && k != GEX_MK_INVALID, "a device kind is a new kind");
    /* the reference's queries */
    CHECK(gex_MK_QueryClient(k) == c.client && gex_MK_QueryClass(k) == a.gex_class && gex_MK_QueryFlags(k) == 0,
          "gex_MK_QueryClient/Class/Flags");
    CHECK(gex_MK_QueryCData(k) == NULL, "a new kind's client data is NULL");
    gex_MK_SetCData(k, &c);
    CHECK(gex_MK_QueryCData(k) == &c, "gex_MK_SetCData");
    gex_MK_SetCData(k, NULL);
    return k;
}

static void test_args(void)
{
    gex_MK_Create_args_t a;
    gex_MK_t k = NULL, untouched = (gex_MK_t)&k;

    /* the old spellings name the same things */
    gex_MemKind_t old = GEX_MEMKIND_HOST;
    CHECK(old == GEX_MK_HOST, "GEX_MEMKIND_HOST is GEX_MK_HOST");

    memset(&a, 0, sizeof a);
    a.gex_class = GEX_MK_CLASS_HIP;
    k = untouched;
    CHECK(gex_MK_Create(&k, c.client, &a, 0) == GASNET_ERR_BAD_ARG, "HIP is not built here");
    CHECK(k == untouched, "a failed gex_MK_Create leaves *kind_p alone");
    a.gex_class = GEX_MK_CLASS_ZE;
    CHECK(gex_MK_Create(&k, c.client, &a, 0) == GASNET_ERR_BAD_ARG, "ZE is not built here");
    a.gex_class = (gex_MK_Class_t)77;
    CHECK(gex_MK_Create(&k, c.client, &a, 0) == GASNET_ERR_BAD_ARG, "an unknown class");
    a.gex_class = GASNETI_MK_CLASS_EMULATED;
    CHECK(gex_MK_Create(&k, c.client, &a, 1) == GASNET_ERR_BAD_ARG, "flags must be 0");
    a.gex_flags = 1;
    CHECK(gex_MK_Create(&k, c.client, &a, 0) == GASNET_ERR_BAD_ARG, "args->gex_flags must be 0");
    a.gex_flags = 0;
    CHECK(gex_MK_Create(NULL, c.client, &a, 0) == GASNET_ERR_BAD_ARG, "kind_p NULL");
    CHECK(gex_MK_Create(&k, c.client, NULL, 0) == GASNET_ERR_BAD_ARG, "args NULL");
    CHECK(k == untouched, "failed calls leave *kind_p alone");

#ifdef GASNET_HAVE_MK_CLASS_CUDA_UVA
    CHECK(GASNET_HAVE_MK_CLASS_CUDA_UVA == 1 && GASNET_HAVE_MK_CLASS_MULTIPLE == 1,
          "the feature macros are 1 when defined");
    memset(&a, 0, sizeof a);
    a.gex_class = GEX_MK_CLASS_CUDA_UVA;
    a.gex_args.gex_class_cuda_uva.gex_CUdevice = 0;
    int rc = gex_MK_Create(&k, c.client, &a, 0);
    if (rc == GASNET_OK) {
        MSG0("ex_mk: CUDA_UVA device 0 available");
        gex_MK_Destroy(k, 0);
    } else {
        CHECK(rc == GASNET_ERR_RESOURCE || rc == GASNET_ERR_BAD_ARG, "rc %d", rc);
        CHECK(k == untouched, "a failed gex_MK_Create leaves *kind_p alone");
        MSG0("ex_mk: CUDA_UVA unavailable here (rc %s)", gasnet_ErrorName(rc));
    }
#else
    MSG0("ex_mk: CUDA_UVA not built");
#endif
#if defined(GASNET_HAVE_MK_CLASS_HIP) || defined(GASNET_HAVE_MK_CLASS_ZE)
    CHECK(0, "HIP and ZE are not built, so their macros must be undefined");
#endif

    /* the host class is rejected: GEX_MK_HOST is the host's kind, and a
     * client pairing each Create with a Destroy must not get it to destroy */
    memset(&a, 0, sizeof a);
    a.gex_class = GEX_MK_CLASS_HOST;
    k = untouched;
    CHECK(gex_MK_Create(&k, c.client, &a, 0) == GASNET_ERR_BAD_ARG, "the host class is rejected");
    CHECK(k == untouched, "a rejected gex_MK_Create leaves *kind_p alone");

    /* two kinds of one class are distinct objects; each can be destroyed */
    gex_MK_t k1 = device_kind(), k2 = device_kind();
    CHECK(k1 != k2, "two kinds");
    unsigned char in[100], out[100];
    ex_fill(in, sizeof in, 5);
    void *d = gasneti_mk_test_alloc(k1, sizeof in);
    gasneti_mk_test_copy(k1, d, GEX_MK_HOST, in, sizeof in);
    gasneti_mk_test_copy(GEX_MK_HOST, out, k1, d, sizeof out);
    CHECK(ex_verify(out, sizeof out, 5) == sizeof out, "device round trip");
    gasneti_mk_test_free(k1, d, sizeof in);
    gex_MK_Destroy(k2, 0);
    gex_MK_Destroy(k1, 0);
    ex_barrier(c.tm);
    MSG0("ex_mk args: ok");
}

/* Each rank exports a device buffer; its left neighbour imports it. */
static void test_ipc(void)
{
    const size_t n = 3 * 4096 + 123, off = 4096 + 7; /* a range inside the allocation */
    gex_MK_t k = device_kind();
    size_t hs = gasneti_mk_test_handle_size();
    CHECK(hs <= 4096, "handle size %zu", hs);
    char *mine = gasneti_mk_test_alloc(k, n + off);
    unsigned char *buf = malloc(n);
    ex_fill(buf, n, 10 + c.me);
    gasneti_mk_test_copy(k, mine + off, GEX_MK_HOST, buf, n);
    gasneti_mk_test_export(k, mine + off, n, gex_Segment_QueryAddr(c.seg));
    ex_barrier(c.tm);

    gex_Rank_t right = (c.me + 1) % c.n;
    void *h = malloc(hs);
    CHECK_OK(gex_RMA_GetBlocking(c.tm, h, right, ex_peer_seg(c.tm, right, NULL), hs, 0));
    void *theirs = gasneti_mk_test_import(k, h, n);
    memset(buf, 0, n);
    gasneti_mk_test_copy(GEX_MK_HOST, buf, k, theirs, n);
    size_t bad = ex_verify(buf, n, 10 + right);
    CHECK(bad == n, "byte %zu of rank %u's device memory read through the import", bad, right);
    ex_fill(buf, n, 50 + c.me);
    gasneti_mk_test_copy(k, theirs, GEX_MK_HOST, buf, n);
    ex_barrier(c.tm);

    gex_Rank_t left = (c.me + c.n - 1) % c.n;
    gasneti_mk_test_copy(GEX_MK_HOST, buf, k, mine + off, n);
    bad = ex_verify(buf, n, 50 + left);
    CHECK(bad == n, "byte %zu written by rank %u through its import", bad, left);
    ex_barrier(c.tm);
    gasneti_mk_test_unimport(k, theirs, n);
    gasneti_mk_test_free(k, mine, n + off);
    gex_MK_Destroy(k, 0);
    free(h);
    free(buf);
    MSG0("ex_mk ipc: ok");
}

static void test_touch(void)
{
    gex_MK_t k = device_kind();
    volatile char *d = gasneti_mk_test_alloc(k, 64);
    printf("ex_mk touch: reading device memory from the host\n");
    fflush(stdout);
    char x = d[0]; /* must fault */
    printf("ex_mk touch: read %d, no fault\n", x);
}

/* ---- RMA with device memory */

#define PIECE 64960 /* the AM path's staging piece (extended/putget.c) */
#define SLOT (4 * PIECE)

typedef struct {
    size_t slot;     /* bytes per rank in the segments below */
    gex_MK_t kind;
    gex_EP_t ep;
    gex_Segment_t seg;
    char *dev;       /* its base: slots for each rank, then this rank's own scratch */
    void *client_mem; /* odd ranks: the client's allocation */
    char *host;      /* the primordial segment: the same layout */
    unsigned char *buf, *chk;
} rig_t;
static rig_t g;

static void rig_up(size_t slot, gex_EP_Capabilities_t caps)
{
    g.slot = slot;
    size_t len = (c.n + 1) * slot;
    g.kind = device_kind();
    CHECK_OK(gex_EP_Create(&g.ep, c.client, caps, 0));
    CHECK(gex_EP_QueryIndex(g.ep) != 0, "a created endpoint has a non-zero index");
    if (c.me % 2) {
        g.client_mem = gasneti_mk_test_alloc(g.kind, len);
        CHECK_OK(gex_Segment_Create(&g.seg, c.client, g.client_mem, len, g.kind, 0));
    } else {
        CHECK_OK(gex_Segment_Create(&g.seg, c.client, NULL, len, g.kind, 0));
    }
    g.dev = gex_Segment_QueryAddr(g.seg);
    CHECK(gex_Segment_QuerySize(g.seg) >= len, "device segment of %zu bytes", len);
    if (c.me % 2) CHECK(g.dev == g.client_mem, "a client-allocated segment is the client's memory");
    CHECK_OK(gex_EP_BindSegment(g.ep, g.seg, 0));
    CHECK_OK(gex_EP_PublishBoundSegment(c.tm, &g.ep, 1, 0));
    g.host = gex_Segment_QueryAddr(c.seg);
    g.buf = malloc(slot);
    g.chk = malloc(slot);
}

static void rig_down(void)
{
    ex_barrier(c.tm);
    gex_Segment_Destroy(g.seg, 0);
    if (g.client_mem) gasneti_mk_test_free(g.kind, g.client_mem, (c.n + 1) * g.slot);
    gex_MK_Destroy(g.kind, 0);
    free(g.buf);
    free(g.chk);
}

/* The remote side at rank r: (team, address of my slot there). */
static gex_TM_t remote(int dev, gex_Rank_t r, char **slot, gex_Rank_t writer)
{
    if (!dev) {
        *slot = (char *)ex_peer_seg(c.tm, r, NULL) + writer * (size_t)SLOT;
        return c.tm;
    }
    gex_TM_t pair = gex_TM_Pair(g.ep, gex_EP_QueryIndex(g.ep));
    void *base = NULL;
    uintptr_t size = 0;
    CHECK(gex_Segment_QueryBound(pair, r, &base, NULL, &size) == 0, "rank %u's device segment is known", r);
    *slot = (char *)base + writer * g.slot;
    return pair;
}

/* Fills (or checks) n bytes at p of this rank, host or device memory. */
static void put_pattern(int dev, void *p, size_t n, unsigned seed)
{
    ex_fill(g.buf, n, seed);
    if (dev) gasneti_mk_test_copy(g.kind, p, GEX_MK_HOST, g.buf, n);
    else memcpy(p, g.buf, n);
}
static void check_pattern(int dev, const void *p, size_t n, unsigned seed, const char *what)
{
    memset(g.chk, 0, n);
    if (dev) gasneti_mk_test_copy(GEX_MK_HOST, g.chk, g.kind, p, n);
    else memcpy(g.chk, p, n);
    size_t bad = ex_verify(g.chk, n, seed);
    CHECK(bad == n, "%s: byte %zu of %zu is %u, expected %u", what, bad, n, g.chk[bad],
          ex_byte(bad, seed));
}

static unsigned seed_of(unsigned round, gex_Rank_t writer) { return round * 31u + writer * 7u; }

static void one_round(unsigned round, int op_get, int form, int ldev, int rdev, size_t n)
{
    static const char *forms[] = {"Blocking", "NB", "NBI"};
    char what[160];
    snprintf(what, sizeof what, "%s%s %zu bytes, local %s, remote %s", op_get ? "Get" : "Put",
             forms[form], n, ldev ? "device" : "host", rdev ? "device" : "host");
    /* the local buffer: my scratch slot of my device segment, or a host buffer */
    char *local = ldev ? g.dev + c.n * (size_t)SLOT : (char *)g.buf + 0;
    unsigned char *hostbuf = ldev ? NULL : malloc(n);
    if (!ldev) local = (char *)hostbuf;
    /* gets read my slot of each peer: its owner fills it, seeded by the owner */
    if (op_get) {
        char *mine = (rdev ? g.dev : g.host);
        for (gex_Rank_t w = 0; w < c.n; w++) put_pattern(rdev, mine + w * (size_t)SLOT, n, seed_of(round, c.me));
    }
    ex_barrier(c.tm);
    for (gex_Rank_t k = 0; k < c.n; k++) {
        gex_Rank_t r = (c.me + k) % c.n;
        char *slot;
        gex_TM_t tm = remote(rdev, r, &slot, c.me);
        if (!op_get) {
            put_pattern(ldev, local, n, seed_of(round, c.me));
            if (form == 0) CHECK_OK(gex_RMA_PutBlocking(tm, r, slot, local, n, 0));
            else if (form == 1) gex_Event_Wait(gex_RMA_PutNB(tm, r, slot, local, n, GEX_EVENT_DEFER, 0));
            else {
                CHECK_OK(gex_RMA_PutNBI(tm, r, slot, local, n, GEX_EVENT_GROUP, 0));
                gex_NBI_Wait(GEX_EC_ALL, 0);
            }
        } else {
            if (form == 0) CHECK_OK(gex_RMA_GetBlocking(tm, local, r, slot, n, 0));
            else if (form == 1) gex_Event_Wait(gex_RMA_GetNB(tm, local, r, slot, n, 0));
            else {
                CHECK_OK(gex_RMA_GetNBI(tm, local, r, slot, n, 0));
                gex_NBI_Wait(GEX_EC_ALL, 0);
            }
            char w2[200];
            snprintf(w2, sizeof w2, "%s from rank %u", what, r);
            check_pattern(ldev, local, n, seed_of(round, r), w2);
        }
    }
    ex_barrier(c.tm);
    if (!op_get) /* every writer's slot of my memory */
        for (gex_Rank_t w = 0; w < c.n; w++) {
            char w2[200];
            snprintf(w2, sizeof w2, "%s by rank %u", what, w);
            check_pattern(rdev, (rdev ? g.dev : g.host) + w * (size_t)SLOT, n, seed_of(round, w), w2);
        }
    free(hostbuf);
}

static void test_rma(int quick)
{
    static const size_t all[] = {1, 4097, PIECE - 1, PIECE, PIECE + 1, 3 * PIECE + 17};
    static const size_t few[] = {7, PIECE + 1, 3 * PIECE + 17};
    const size_t *sizes = quick ? few : all;
    size_t nsizes = quick ? EX_NELEM(few) : EX_NELEM(all);
    rig_up(SLOT, GEX_EP_CAPABILITY_RMA);
    unsigned round = 1;
    for (size_t i = 0; i < nsizes; i++)
        for (int form = 0; form < 3; form++)
            for (int comb = 0; comb < 4; comb++)
                for (int op = 0; op < 2; op++) {
                    if (quick && form != (int)(i % 3) && comb != 3) continue;
                    one_round(round++, op, form, comb & 1, comb >> 1, sizes[i]);
                }
    rig_down();
    MSG0("ex_mk rma: ok (%u rounds)", round - 1);
}

/* ---- Long AMs into device segments (seed 003 §4: a bound segment "makes
 * that memory remotely accessible, such as via RMA and AM Long operations")
 *
 * Every rank sends to every rank (itself included) through the TM-pair of
 * its device-bound endpoint: Long requests, and Long replies to a Short
 * request, into its slot of the peer's device segment, from a host buffer
 * or from its own device segment, with every local-completion form and
 * the negotiated-payload calls. The handler must find the payload in
 * place: it reads it there with the class copy, and records what it saw.
 * Bytes just past the payload must stay as they were. */

#define GUARD 64
typedef struct {
    int runs, addr_ok;
    size_t n, bad;
} got_t;
static got_t *got;  /* by sender: what the handler saw */
static int ngot;    /* handlers run (atomic) */
static gex_AM_Index_t h_req, h_ask, h_rep;
static unsigned char *lsrc; /* host source: pattern seed_of(round, me) */

static char *scratch(void) { return g.dev + c.n * g.slot; } /* device source, the same pattern */

static uintptr_t arg_addr(gex_AM_Arg_t hi, gex_AM_Arg_t lo)
{
    return ((uintptr_t)(uint32_t)hi << 32) | (uint32_t)lo;
}

/* In a handler: what arrived at buf, read with the class copy. */
static void record(gex_Token_t t, void *buf, size_t n, unsigned seed, uintptr_t want)
{
    gex_Token_Info_t info;
    gex_Token_Info(t, &info, GEX_TI_SRCRANK);
    got_t *r = &got[info.gex_srcrank];
    r->runs++;
    r->n = n;
    r->addr_ok = (uintptr_t)buf == want;
    unsigned char *tmp = malloc(n + 1);
    memset(tmp, 0, n + 1);
    if (r->addr_ok) gasneti_mk_test_copy(GEX_MK_HOST, tmp, g.kind, buf, n);
    r->bad = ex_verify(tmp, n, seed);
    free(tmp);
    __atomic_fetch_add(&ngot, 1, __ATOMIC_RELEASE);
}

static void long_req_h(gex_Token_t t, void *buf, size_t n, gex_AM_Arg_t seed, gex_AM_Arg_t hi,
                       gex_AM_Arg_t lo)
{
    record(t, buf, n, (unsigned)seed, arg_addr(hi, lo));
}

static void long_rep_h(gex_Token_t t, void *buf, size_t n, gex_AM_Arg_t seed, gex_AM_Arg_t hi,
                       gex_AM_Arg_t lo)
{
    record(t, buf, n, (unsigned)seed, arg_addr(hi, lo));
}

/* Replies with n bytes of this rank's pattern (seed) to the requester's
 * address (hi, lo): from host or device memory (dev), by ReplyLong, or
 * Prepare/Commit with the client's buffer or GASNet's (form 0, 1, 2). */
static void ask_h(gex_Token_t t, gex_AM_Arg_t seed, gex_AM_Arg_t n_, gex_AM_Arg_t dev,
                  gex_AM_Arg_t form, gex_AM_Arg_t hi, gex_AM_Arg_t lo)
{
    size_t n = (size_t)(uint32_t)n_;
    void *dest = (void *)arg_addr(hi, lo);
    const void *src = dev ? (const void *)scratch() : (const void *)lsrc;
    if (form == 0) {
        CHECK_OK(gex_AM_ReplyLong3(t, h_rep, src, n, dest, GEX_EVENT_NOW, 0, seed, hi, lo));
        return;
    }
    gex_AM_SrcDesc_t sd = gex_AM_PrepareReplyLong(t, form == 1 ? src : NULL, n, n, dest,
                                                  form == 1 ? GEX_EVENT_NOW : NULL, 0, 3);
    CHECK(sd != GEX_AM_SRCDESC_NO_OP && gex_AM_SrcDescSize(sd) >= n, "PrepareReplyLong of %zu", n);
    if (form == 2) ex_fill(gex_AM_SrcDescAddr(sd), n, (unsigned)seed);
    gex_AM_CommitReplyLong3(sd, h_rep, n, dest, seed, hi, lo);
}

/* Sends n bytes of this rank's pattern to rank r's address dest: forms 0-2
 * RequestLong with lc_opt NOW, an event, GROUP; 3 and 4 Prepare/Commit
 * with the client's buffer or GASNet's (host). */
static void send_long(gex_TM_t pair, gex_Rank_t r, int dev, int form, char *dest, size_t n,
                      unsigned seed)
{
    const void *src = dev ? (const void *)scratch() : (const void *)lsrc;
    gex_AM_Arg_t hi = (gex_AM_Arg_t)((uintptr_t)dest >> 32), lo = (gex_AM_Arg_t)(uintptr_t)dest;
    if (form == 0) {
        CHECK_OK(gex_AM_RequestLong3(pair, r, h_req, src, n, dest, GEX_EVENT_NOW, 0, seed, hi, lo));
    } else if (form == 1) {
        gex_Event_t lc;
        CHECK_OK(gex_AM_RequestLong3(pair, r, h_req, src, n, dest, &lc, 0, seed, hi, lo));
        gex_Event_Wait(lc);
    } else if (form == 2) {
        CHECK_OK(gex_AM_RequestLong3(pair, r, h_req, src, n, dest, GEX_EVENT_GROUP, 0, seed, hi, lo));
        gex_NBI_Wait(GEX_EC_AM, 0);
    } else {
        gex_AM_SrcDesc_t sd = gex_AM_PrepareRequestLong(pair, r, form == 3 ? src : NULL, n, n, dest,
                                                        form == 3 ? GEX_EVENT_NOW : NULL, 0, 3);
        CHECK(sd != GEX_AM_SRCDESC_NO_OP && gex_AM_SrcDescSize(sd) >= n, "PrepareRequestLong of %zu", n);
        if (form == 4) ex_fill(gex_AM_SrcDescAddr(sd), n, seed);
        gex_AM_CommitRequestLong3(sd, h_req, n, dest, seed, hi, lo);
    }
}

/* After a phase: every rank's handler ran once here, with what it sent. */
static void check_arrivals(const char *what, size_t n, unsigned round)
{
    int idle = 0;
    while (__atomic_load_n(&ngot, __ATOMIC_ACQUIRE) < (int)c.n) {
        gasnet_AMPoll();
        if (++idle > 1000) sched_yield();
    }
    for (gex_Rank_t w = 0; w < c.n; w++) {
        got_t *r = &got[w];
        char *slot = g.dev + w * g.slot;
        char w2[200];
        snprintf(w2, sizeof w2, "%s of %zu bytes from rank %u", what, n, w);
        CHECK(r->runs == 1 && r->n == n && r->addr_ok && r->bad == n,
              "%s: handler ran %d times, saw %zu bytes, %s address, first bad byte %zu", w2,
              r->runs, r->n, r->addr_ok ? "the right" : "a wrong", r->bad);
        check_pattern(1, slot, n, seed_of(round, w), w2);
        snprintf(w2, sizeof w2, "%s: the bytes after it", what);
        check_pattern(1, slot + n, GUARD, 999 + round, w2);
    }
}

/* Before a phase: the sources hold seed_of(round, me); every slot of my
 * device segment a guard pattern past n (its start is overwritten). */
static void prepare_phase(size_t n, unsigned round)
{
    ex_fill(lsrc, n, seed_of(round, c.me));
    gasneti_mk_test_copy(g.kind, scratch(), GEX_MK_HOST, lsrc, n);
    for (gex_Rank_t w = 0; w < c.n; w++) put_pattern(1, g.dev + w * g.slot + n, GUARD, 999 + round);
    memset(got, 0, c.n * sizeof *got);
    __atomic_store_n(&ngot, 0, __ATOMIC_RELEASE);
    ex_barrier(c.tm);
}

static void test_long(void)
{
    gex_TM_t pair0 = GEX_TM_INVALID;
    size_t maxreq = gex_AM_MaxRequestLong(c.tm, GEX_RANK_INVALID, NULL, 0, 3);
    rig_up((maxreq + GUARD + 4095) / 4096 * 4096, GEX_EP_CAPABILITY_ALL);
    pair0 = gex_TM_Pair(g.ep, gex_EP_QueryIndex(g.ep));
    size_t maxrep = gex_AM_MaxReplyLong(pair0, GEX_RANK_INVALID, NULL, 0, 3);
    CHECK(gex_AM_MaxRequestLong(pair0, GEX_RANK_INVALID, NULL, 0, 3) == maxreq, "TM-pair limits");
    gex_AM_Entry_t table[] = {
        {0, (gex_AM_Fn_t)long_req_h, GEX_FLAG_AM_LONG | GEX_FLAG_AM_REQUEST, 3, NULL, "long_req"},
        {0, (gex_AM_Fn_t)ask_h, GEX_FLAG_AM_SHORT | GEX_FLAG_AM_REQUEST, 6, NULL, "ask"},
        {0, (gex_AM_Fn_t)long_rep_h, GEX_FLAG_AM_LONG | GEX_FLAG_AM_REPLY, 3, NULL, "long_rep"}};
    CHECK_OK(gex_EP_RegisterHandlers(g.ep, table, EX_NELEM(table)));
    h_req = table[0].gex_index;
    h_ask = table[1].gex_index;
    h_rep = table[2].gex_index;
    got = calloc(c.n, sizeof *got);
    lsrc = malloc(maxreq);
    ex_barrier(c.tm);

    const size_t sizes[] = {1, 4096, 4097, 65000, 65001, 300000, maxreq};
    unsigned round = 1, nreq = 0, nrep = 0;
    for (size_t i = 0; i < EX_NELEM(sizes); i++)
        for (int dev = 0; dev < 2; dev++, round++) {
            /* requests: each rank into its slot of every rank's device segment */
            size_t n = sizes[i];
            int form = (int)((round + c.me) % 5);
            size_t gasnet_max = gex_AM_MaxRequestLong(pair0, 0, NULL, GEX_FLAG_AM_PREPARE_LEAST_ALLOC, 3);
            if (form == 4 && (dev || n > gasnet_max)) form = 3; /* GASNet's buffer is host memory */
            prepare_phase(n, round);
            for (gex_Rank_t k = 0; k < c.n; k++) {
                gex_Rank_t r = (c.me + k) % c.n;
                char *slot;
                gex_TM_t pair = remote(1, r, &slot, c.me);
                send_long(pair, r, dev, form, slot, n, seed_of(round, c.me));
                nreq++;
            }
            char what[120];
            snprintf(what, sizeof what, "Long request (form %d, %s source)", form, dev ? "device" : "host");
            check_arrivals(what, n, round);
            ex_barrier(c.tm);

            /* replies: each rank asks every rank for a reply into its own slot */
            n = sizes[i] < maxrep ? sizes[i] : maxrep;
            round++;
            form = (int)((round + c.me) % 3);
            prepare_phase(n, round);
            for (gex_Rank_t k = 0; k < c.n; k++) {
                gex_Rank_t r = (c.me + k) % c.n;
                char *mine = g.dev + r * g.slot;
                int f = form == 2 && dev ? 1 : form;
                gex_TM_t pair = gex_TM_Pair(g.ep, gex_EP_QueryIndex(g.ep));
                CHECK_OK(gex_AM_RequestShort6(pair, r, h_ask, 0, seed_of(round, r), (gex_AM_Arg_t)n, dev,
                                              f, (gex_AM_Arg_t)((uintptr_t)mine >> 32),
                                              (gex_AM_Arg_t)(uintptr_t)mine));
                nrep++;
            }
            snprintf(what, sizeof what, "Long reply (form %d, %s source)", form, dev ? "device" : "host");
            check_arrivals(what, n, round);
            ex_barrier(c.tm);
        }
    free(got);
    free(lsrc);
    rig_down();
    MSG0("ex_mk long: ok (%u requests, %u replies per rank, up to %zu and %zu bytes)", nreq, nrep,
         maxreq, maxrep);
}

/* A team of the created endpoints (bound to device segments): its
 * scratch must be host memory (seed §5), so it needs NO_SCRATCH, which
 * allows no collectives, gex_AD_Create included: no atomic domain can
 * target device memory. what: "scratch" (scratch in the device segment)
 * or "ad" (a domain on the NO_SCRATCH team); both must be fatal. */
static void test_team_bad(const char *what)
{
    rig_up(SLOT, GEX_EP_CAPABILITY_ALL);
    gex_EP_Location_t *args = malloc(c.n * sizeof *args);
    for (gex_Rank_t j = 0; j < c.n; j++) args[j] = (gex_EP_Location_t){j, gex_EP_QueryIndex(g.ep)};
    gex_TM_t tm = GEX_TM_INVALID;
    if (!strcmp(what, "scratch")) {
        gex_Addr_t scratch = g.dev + c.n * SLOT; /* this rank's own part of its device segment */
        gex_TM_Create(&tm, 1, c.tm, args, c.n, &scratch, SLOT,
                      GEX_FLAG_TM_LOCAL_SCRATCH | GEX_FLAG_RANK_IS_JOBRANK);
    } else {
        CHECK(gex_TM_Create(&tm, 1, c.tm, args, c.n, NULL, 0,
                            GEX_FLAG_TM_NO_SCRATCH | GEX_FLAG_RANK_IS_JOBRANK) == 1, "no team");
        gex_AD_t ad;
        gex_AD_Create(&ad, tm, GEX_DT_I64, GEX_OP_FADD, 0);
    }
    printf("ex_mk team_bad %s: returned\n", what);
    fflush(stdout);
    free(args);
    rig_down();
}

/* A Long into a device segment past its end: the usual refusal. */
static void test_long_bad(void)
{
    rig_up(SLOT, GEX_EP_CAPABILITY_ALL);
    gex_AM_Entry_t e = {0, (gex_AM_Fn_t)long_req_h, GEX_FLAG_AM_LONG | GEX_FLAG_AM_REQUEST, 3, NULL, "long_req"};
    CHECK_OK(gex_EP_RegisterHandlers(g.ep, &e, 1));
    ex_barrier(c.tm);
    if (c.me == 0) {
        gex_TM_t pair = gex_TM_Pair(g.ep, gex_EP_QueryIndex(g.ep));
        void *base = NULL;
        uintptr_t size = 0;
        CHECK(gex_Segment_QueryBound(pair, 1, &base, NULL, &size) == 0, "published");
        char buf[100] = {0};
        int rc = gex_AM_RequestLong3(pair, 1, e.gex_index, buf, sizeof buf, (char *)base + size - 10,
                                     GEX_EVENT_NOW, 0, 0, 0, 0);
        printf("ex_mk long_bad: returned %s\n", gasnet_ErrorName(rc));
        fflush(stdout);
    }
    ex_barrier(c.tm);
    rig_down();
}

/* ---- VIS with device memory: random vector, indexed and strided puts
 * and gets, each side in host or device memory (the remote side in the
 * peer's primordial segment or in the device segment of its created
 * endpoint, through the TM-pair), to every rank in turn, itself included.
 * Each rank works in its own slot of each peer, so ranks need not wait
 * for each other. The result is checked byte by byte against a reference
 * made by applying the same fragments to host copies; the remote side is
 * set and read back with contiguous RMA (tested by "rma"). */

typedef struct {
    size_t off, len;
} frag_t;
typedef struct {
    frag_t *f;
    size_t n, cap;
} frags_t;

static uint64_t rnd_state;
static size_t rnd(size_t bound) /* uniform enough in [0, bound) */
{
    rnd_state = rnd_state * 6364136223846793005ull + 1442695040888963407ull;
    return bound ? (size_t)((rnd_state >> 17) % bound) : 0;
}

static void frag_add(frags_t *fs, size_t off, size_t len)
{
    if (fs->n == fs->cap) {
        fs->cap = fs->cap ? 2 * fs->cap : 64;
        fs->f = realloc(fs->f, fs->cap * sizeof *fs->f);
        CHECK(fs->f != NULL, "out of memory");
    }
    fs->f[fs->n++] = (frag_t){off, len};
}

static void frag_shuffle(frags_t *fs)
{
    for (size_t i = fs->n; i > 1; i--) {
        size_t j = rnd(i);
        frag_t t = fs->f[i - 1];
        fs->f[i - 1] = fs->f[j];
        fs->f[j] = t;
    }
}

/* Up to k disjoint fragments of [0, R), lengths 1..maxlen (each len when
 * fixed), in random order; returns their total. */
static size_t gen_disjoint(frags_t *fs, size_t k, size_t R, size_t maxlen, size_t fixed)
{
    size_t pos = 0, total = 0;
    for (size_t i = 0; i < k; i++) {
        size_t gap = rnd(3) ? rnd(64) : 0, len = fixed ? fixed : 1 + rnd(maxlen);
        if (pos + gap + len > R) break;
        frag_add(fs, pos + gap, len);
        pos += gap + len;
        total += len;
    }
    frag_shuffle(fs);
    return total;
}

/* Fragments of [0, R) anywhere (they may overlap) adding up to total:
 * lengths 1..maxlen, or each len when fixed. */
static void gen_any(frags_t *fs, size_t total, size_t R, size_t maxlen, size_t fixed)
{
    while (total) {
        size_t len = fixed ? fixed : 1 + rnd(maxlen < total ? maxlen : total);
        frag_add(fs, rnd(R - len + 1), len);
        total -= len;
    }
}

/* The chunks of a strided section at offset base, in stream order. */
static void expand_strided(frags_t *fs, size_t base, const ptrdiff_t *stride, size_t elemsz,
                           const size_t *count, size_t levels)
{
    size_t ix[4] = {0}, chunks = 1;
    for (size_t k = 0; k < levels; k++) chunks *= count[k];
    for (size_t i = 0; i < chunks; i++) {
        ptrdiff_t off = (ptrdiff_t)base;
        for (size_t k = 0; k < levels; k++) off += (ptrdiff_t)ix[k] * stride[k];
        frag_add(fs, (size_t)off, elemsz);
        for (size_t k = 0; k < levels && ++ix[k] == count[k]; k++) ix[k] = 0;
    }
}

/* Strides for a section of count chunks of elemsz bytes within [0, R)
 * from offset 0: disjoint chunks (dst) or any, zero strides included
 * (src). Returns the extent, or 0 when it does not fit. */
static size_t gen_strides(ptrdiff_t *stride, size_t elemsz, const size_t *count, size_t levels,
                          int disjoint, size_t R)
{
    size_t extent = elemsz, span = elemsz; /* span: what level k must clear to stay disjoint */
    for (size_t k = 0; k < levels; k++) {
        size_t st = !disjoint && !rnd(6) ? 0 : span + (rnd(2) ? rnd(40) : 0);
        stride[k] = (ptrdiff_t)st;
        extent += st * (count[k] - 1);
        span = st * count[k] > span ? st * count[k] : span;
        if (extent > R) return 0;
    }
    return extent;
}

static void write_mem(int dev, void *p, const void *host, size_t n)
{
    if (dev) gasneti_mk_test_copy(g.kind, p, GEX_MK_HOST, host, n);
    else memcpy(p, host, n);
}
static void read_mem(int dev, void *host, const void *p, size_t n)
{
    if (dev) gasneti_mk_test_copy(GEX_MK_HOST, host, g.kind, p, n);
    else memcpy(host, p, n);
}

static void test_vis(unsigned rounds, unsigned seed)
{
    const size_t R = SLOT;
    rig_up(SLOT, GEX_EP_CAPABILITY_ALL);
    rnd_state = seed * 1000003ull + c.me;
    unsigned char *lhost = malloc(R), *src = malloc(R), *ref = malloc(R), *out = malloc(R),
                  *stream = malloc(R);
    frags_t dfr = {0}, sfr = {0};
    gex_Memvec_t *dvec = NULL, *svec = NULL;
    void **didx = NULL, **sidx = NULL;
    size_t vcap = 0;
    unsigned counts[3] = {0};
    for (unsigned round = 0; round < rounds; round++) {
        unsigned comb = round % 24;
        int is_get = comb & 1, ldev = (comb >> 1) & 1, rdev = (comb >> 2) & 1, api = (int)(comb / 8);
        int form = (int)rnd(3);
        size_t maxlen = rnd(3) ? 1 + rnd(300) : 1 + rnd(40000); /* packed, or large pieces too */
        gex_Rank_t r = (c.me + round / 24) % c.n;
        char *rbase;
        gex_TM_t tm = remote(rdev, r, &rbase, c.me);
        char *lbase = ldev ? scratch() : (char *)lhost;
        dfr.n = sfr.n = 0;
        /* the fragments, as offsets into the destination and source regions */
        size_t total = 0, dlen = 0, slen = 0, elemsz = 0, count[4] = {0}, levels = 0;
        ptrdiff_t dstride[4], sstride[4];
        if (api == 0) {
            total = gen_disjoint(&dfr, 1 + rnd(200), R, maxlen, 0);
            gen_any(&sfr, total, R, maxlen, 0);
        } else if (api == 1) {
            dlen = 1 + rnd(maxlen < 4096 ? maxlen : 4096);
            total = gen_disjoint(&dfr, 1 + rnd(100), R, 0, dlen);
            size_t k = dfr.n;
            slen = dlen % 2 == 0 && rnd(2) ? dlen / 2 : k % 2 == 0 && rnd(2) ? 2 * dlen : dlen;
            gen_any(&sfr, total, R, 0, slen);
        } else {
            for (;;) {
                levels = rnd(4);
                elemsz = 1 + rnd(rnd(2) ? 16 : maxlen);
                for (size_t k = 0; k < levels; k++) count[k] = 1 + rnd(k == 0 ? 12 : 5);
                size_t de = gen_strides(dstride, elemsz, count, levels, 1, R);
                size_t se = gen_strides(sstride, elemsz, count, levels, 0, R);
                if (de && se) break;
            }
            expand_strided(&dfr, 0, dstride, elemsz, count, levels);
            expand_strided(&sfr, 0, sstride, elemsz, count, levels);
            total = dfr.n * elemsz;
        }
        /* the source region holds a pattern, the destination a background */
        unsigned sseed = round * 3 + 1, bseed = round * 3 + 2;
        ex_fill(src, R, sseed);
        ex_fill(ref, R, bseed);
        if (is_get) {
            CHECK_OK(gex_RMA_PutBlocking(tm, r, rbase, src, R, 0));
            write_mem(ldev, lbase, ref, R);
        } else {
            write_mem(ldev, lbase, src, R);
            CHECK_OK(gex_RMA_PutBlocking(tm, r, rbase, ref, R, 0));
        }
        /* the reference: the source stream scattered over the background */
        size_t at = 0;
        for (size_t i = 0; i < sfr.n; at += sfr.f[i].len, i++) memcpy(stream + at, src + sfr.f[i].off, sfr.f[i].len);
        at = 0;
        for (size_t i = 0; i < dfr.n; at += dfr.f[i].len, i++) memcpy(ref + dfr.f[i].off, stream + at, dfr.f[i].len);
        CHECK(at == total, "fragments add up");
        char *dbase = is_get ? lbase : rbase, *sbase = is_get ? rbase : lbase;
        if (dfr.n > vcap || sfr.n > vcap) {
            vcap = dfr.n > sfr.n ? dfr.n : sfr.n;
            dvec = realloc(dvec, vcap * sizeof *dvec);
            svec = realloc(svec, vcap * sizeof *svec);
            didx = realloc(didx, vcap * sizeof *didx);
            sidx = realloc(sidx, vcap * sizeof *sidx);
            CHECK(dvec && svec && didx && sidx, "out of memory");
        }
        for (size_t i = 0; i < dfr.n; i++) {
            dvec[i] = (gex_Memvec_t){dbase + dfr.f[i].off, dfr.f[i].len};
            didx[i] = dbase + dfr.f[i].off;
        }
        for (size_t i = 0; i < sfr.n; i++) {
            svec[i] = (gex_Memvec_t){sbase + sfr.f[i].off, sfr.f[i].len};
            sidx[i] = sbase + sfr.f[i].off;
        }
        gex_Event_t ev = GEX_EVENT_INVALID;
        if (api == 0 && !is_get) {
            if (form == 0) CHECK_OK(gex_VIS_VectorPutBlocking(tm, r, dfr.n, dvec, sfr.n, svec, 0));
            else if (form == 1) ev = gex_VIS_VectorPutNB(tm, r, dfr.n, dvec, sfr.n, svec, 0);
            else CHECK_OK(gex_VIS_VectorPutNBI(tm, r, dfr.n, dvec, sfr.n, svec, 0));
        } else if (api == 0) {
            if (form == 0) CHECK_OK(gex_VIS_VectorGetBlocking(tm, dfr.n, dvec, r, sfr.n, svec, 0));
            else if (form == 1) ev = gex_VIS_VectorGetNB(tm, dfr.n, dvec, r, sfr.n, svec, 0);
            else CHECK_OK(gex_VIS_VectorGetNBI(tm, dfr.n, dvec, r, sfr.n, svec, 0));
        } else if (api == 1 && !is_get) {
            if (form == 0) CHECK_OK(gex_VIS_IndexedPutBlocking(tm, r, dfr.n, didx, dlen, sfr.n, sidx, slen, 0));
            else if (form == 1) ev = gex_VIS_IndexedPutNB(tm, r, dfr.n, didx, dlen, sfr.n, sidx, slen, 0);
            else CHECK_OK(gex_VIS_IndexedPutNBI(tm, r, dfr.n, didx, dlen, sfr.n, sidx, slen, 0));
        } else if (api == 1) {
            if (form == 0) CHECK_OK(gex_VIS_IndexedGetBlocking(tm, dfr.n, didx, dlen, r, sfr.n, sidx, slen, 0));
            else if (form == 1) ev = gex_VIS_IndexedGetNB(tm, dfr.n, didx, dlen, r, sfr.n, sidx, slen, 0);
            else CHECK_OK(gex_VIS_IndexedGetNBI(tm, dfr.n, didx, dlen, r, sfr.n, sidx, slen, 0));
        } else if (!is_get) {
            if (form == 0) CHECK_OK(gex_VIS_StridedPutBlocking(tm, r, dbase, dstride, sbase, sstride, elemsz, count, levels, 0));
            else if (form == 1) ev = gex_VIS_StridedPutNB(tm, r, dbase, dstride, sbase, sstride, elemsz, count, levels, 0);
            else CHECK_OK(gex_VIS_StridedPutNBI(tm, r, dbase, dstride, sbase, sstride, elemsz, count, levels, 0));
        } else {
            if (form == 0) CHECK_OK(gex_VIS_StridedGetBlocking(tm, dbase, dstride, r, sbase, sstride, elemsz, count, levels, 0));
            else if (form == 1) ev = gex_VIS_StridedGetNB(tm, dbase, dstride, r, sbase, sstride, elemsz, count, levels, 0);
            else CHECK_OK(gex_VIS_StridedGetNBI(tm, dbase, dstride, r, sbase, sstride, elemsz, count, levels, 0));
        }
        if (form == 1) gex_Event_Wait(ev);
        if (form == 2) gex_NBI_Wait(GEX_EC_ALL, 0);
        /* the whole destination region, against the reference */
        if (is_get) read_mem(ldev, out, lbase, R);
        else CHECK_OK(gex_RMA_GetBlocking(tm, out, r, rbase, R, 0));
        size_t bad = 0;
        while (bad < R && out[bad] == ref[bad]) bad++;
        static const char *apis[] = {"Vector", "Indexed", "Strided"};
        CHECK(bad == R, "round %u: %s%s to rank %u (local %s, remote %s, %zu + %zu fragments, %zu "
              "bytes, form %d): byte %zu of the destination is %u, expected %u", round, apis[api],
              is_get ? "Get" : "Put", r, ldev ? "device" : "host", rdev ? "device" : "host", dfr.n,
              sfr.n, total, form, bad, out[bad], ref[bad]);
        counts[api]++;
    }
    ex_barrier(c.tm);
    free(dfr.f);
    free(sfr.f);
    free(dvec);
    free(svec);
    free(didx);
    free(sidx);
    free(lhost);
    free(src);
    free(ref);
    free(out);
    free(stream);
    rig_down();
    MSG0("ex_mk vis: ok (%u rounds per rank: %u vector, %u indexed, %u strided)", rounds, counts[0],
         counts[1], counts[2]);
}

/* Transfers that need no work from node 1's CPU: a VIS put into a
 * neighbour's device segment that this process imported (direct copies),
 * or with rma, a get and puts that the card of an RMA backend makes
 * (registered device memory). Node 1 sees the data while it waits without
 * polling; over AMs, node 0's blocking calls would wait for node 1 to
 * poll. Node 1 reads and writes its device memory with the class copy
 * alone. */
static void test_nopoll(int rma)
{
    rig_up(4096, GEX_EP_CAPABILITY_ALL);
    gex_TM_t pair = gex_TM_Pair(g.ep, gex_EP_QueryIndex(g.ep));
    unsigned char src[128], got[128], flag = 0;
    gasneti_mk_test_copy(g.kind, g.dev + 4095, GEX_MK_HOST, &flag, 1);
    ex_fill(src, sizeof src, 5);
    gasneti_mk_test_copy(g.kind, g.dev + 2048, GEX_MK_HOST, src, sizeof src);
    ex_barrier(c.tm);
    if (c.me == 0) {
        void *base = NULL;
        CHECK(gex_Segment_QueryBound(pair, 1, &base, NULL, NULL) == 0, "rank 1's device segment");
        char *d = base;
        ex_fill(src, sizeof src, 9);
        src[127] = 1; /* the second piece ends with the flag byte */
        if (rma) {
            CHECK_OK(gex_RMA_GetBlocking(pair, got, 1, d + 2048, sizeof got, 0));
            CHECK(ex_verify(got, sizeof got, 5) == sizeof got, "the get from the device segment");
            CHECK_OK(gex_RMA_PutBlocking(pair, 1, d + 7, src, 64, 0));
            CHECK_OK(gex_RMA_PutBlocking(pair, 1, d + 4095 - 63, src + 64, 64, 0));
        } else {
            gex_Memvec_t dv[2] = {{d + 7, 64}, {d + 4095 - 63, 64}}, sv[1] = {{src, 128}};
            CHECK_OK(gex_VIS_VectorPutBlocking(pair, 1, 2, dv, 1, sv, 0));
        }
    } else if (c.me == 1) {
        for (long spins = 0; !flag; spins++) {
            CHECK(spins < 200000, "%s into the device segment waits for its target to poll",
                  rma ? "a get or put" : "a VIS put");
            usleep(10);
            gasneti_mk_test_copy(GEX_MK_HOST, &flag, g.kind, g.dev + 4095, 1);
        }
        gasneti_mk_test_copy(GEX_MK_HOST, got, g.kind, g.dev + 7, 64);
        gasneti_mk_test_copy(GEX_MK_HOST, got + 64, g.kind, g.dev + 4095 - 63, 63);
        CHECK(ex_verify(got, 127, 9) == 127, "the VIS put's data in the device segment");
    }
    rig_down();
    MSG0("ex_mk %s: ok", rma ? "rma_nopoll" : "vis_nopoll");
}

/* gex_Segment_Create with a device kind: bad input, then create, bind,
 * publish and destroy in a loop (a fresh endpoint each time: there is no
 * unbind). */
static void test_segs(void)
{
    gex_MK_t k = device_kind();
    gex_Segment_t s = GEX_SEGMENT_INVALID, untouched = (gex_Segment_t)&k;
    s = untouched;
    CHECK(gex_Segment_Create(&s, c.client, NULL, 0, k, 0) == GASNET_ERR_BAD_ARG, "length 0");
    char host[64];
    CHECK(gex_Segment_Create(&s, c.client, host, sizeof host, k, 0) == GASNET_ERR_BAD_ARG,
          "host memory is not memory of the device kind");
    CHECK(s == untouched, "a failed gex_Segment_Create leaves *segment_p alone");
    CHECK_OK(gex_Segment_Create(&s, c.client, NULL, 3 * 4096, k, 0));
    CHECK(gex_EP_BindSegment(c.ep, s, 0) == GASNET_ERR_BAD_ARG,
          "a device segment cannot be bound to the primordial endpoint");
    gex_Segment_Destroy(s, 0);
    unsigned char out[100];
    for (int i = 0; i < 20; i++) {
        gex_EP_t ep;
        CHECK_OK(gex_EP_Create(&ep, c.client, GEX_EP_CAPABILITY_RMA, 0));
        CHECK_OK(gex_Segment_Create(&s, c.client, NULL, 1 << 16, k, 0));
        CHECK_OK(gex_EP_BindSegment(ep, s, 0));
        CHECK_OK(gex_EP_PublishBoundSegment(c.tm, &ep, 1, 0));
        gex_TM_t pair = gex_TM_Pair(ep, gex_EP_QueryIndex(ep));
        gex_Rank_t r = (c.me + 1) % c.n;
        void *base = NULL;
        CHECK(gex_Segment_QueryBound(pair, r, &base, NULL, NULL) == 0, "published");
        ex_fill(out, sizeof out, (unsigned)i);
        CHECK_OK(gex_RMA_PutBlocking(pair, r, (char *)base + 8 * c.me, out, sizeof out, 0));
        ex_barrier(c.tm);
        gex_Rank_t l = (c.me + c.n - 1) % c.n;
        memset(out, 0, sizeof out);
        gasneti_mk_test_copy(GEX_MK_HOST, out, k, (char *)gex_Segment_QueryAddr(s) + 8 * l, sizeof out);
        CHECK(ex_verify(out, sizeof out, (unsigned)i) == sizeof out, "round %d", i);
        ex_barrier(c.tm);
        gex_Segment_Destroy(s, 0);
        if (gex_EP_QueryIndex(ep) + 1 >= GASNET_MAXEPS) break;
    }
    gex_MK_Destroy(k, 0);
    ex_barrier(c.tm);
    MSG0("ex_mk segs: ok");
}

int main(int argc, char **argv)
{
    ex_init(&c, "ex_mk", &argc, &argv, 0);
    ex_attach(&c, (c.n + 1) * (uintptr_t)SLOT);
    const char *mode = argc > 1 ? argv[1] : "args";
    if (!strcmp(mode, "args")) test_args();
    else if (!strcmp(mode, "ipc")) test_ipc();
    else if (!strcmp(mode, "touch")) test_touch();
    else if (!strcmp(mode, "destroy_bad")) {
        gex_MK_t k = device_kind();
        gex_MK_Destroy(k, 0);
        gex_MK_Destroy(k, 0); /* erroneous: must not return */
        printf("ex_mk destroy_bad: returned\n");
    } else if (!strcmp(mode, "rma")) test_rma(argc > 2 && !strcmp(argv[2], "quick"));
    else if (!strcmp(mode, "segs")) test_segs();
    else if (!strcmp(mode, "long")) test_long();
    else if (!strcmp(mode, "long_bad")) test_long_bad();
    else if (!strcmp(mode, "team_bad")) test_team_bad(argc > 2 ? argv[2] : "scratch");
    else if (!strcmp(mode, "vis_nopoll") || !strcmp(mode, "rma_nopoll"))
        test_nopoll(!strcmp(mode, "rma_nopoll"));
    else if (!strcmp(mode, "vis"))
        test_vis(argc > 2 ? (unsigned)atoi(argv[2]) : 96, argc > 3 ? (unsigned)atoi(argv[3]) : 1);
    else CHECK(0, "unknown mode %s", mode);
    gasnet_exit(0);
    return 0;
}
