/* ex_eps: several endpoints per process, created segments and TM-pairs
 * (seed 003, spec §17), from the spec alone.
 *
 *   ex_eps [shm|am]   the main run; "shm": a neighbour's GASNet-allocated
 *                     segment must be reachable by load/store (localaddr),
 *                     "am": it must not be (RMA forced to the AM path)
 *   ex_eps err CASE   one erroneous call that must be fatal (suite.sh
 *                     checks the message)
 *
 * The main run, on any number of ranks:
 * - gex_EP_Create: bad capabilities and flags give GASNET_ERR_BAD_ARG,
 *   ACCEL hints are accepted and kept as the EP's flags; indices are
 *   non-zero, distinct, and gex_EP_QueryIndex returns them;
 * - per-endpoint handler tables: the same handler index on EP 1 and EP 2
 *   names different functions; Short, Medium and Long requests through
 *   gex_TM_Pair from EP 0 and from EP 2 run the handler of the EP they
 *   name, whose gex_Token_Info gives that EP, the sender's jobrank and the
 *   entry registered there; the reply reaches the sending EP's table;
 * - segments: EP 1 gets a GASNet-allocated one (length not a page
 *   multiple: QuerySize at least the length), EP 2 a client-allocated one
 *   at an odd address and odd length (both longer than their minimum
 *   where the Long AMs below, 4096 bytes from every rank, need it: from 127
 *   and 33 ranks); published over the primordial team,
 *   then gex_Segment_QueryBound and gex_EP_QueryBoundSegmentNB through
 *   TM-pairs give each peer's address and size; RMA (Blocking, NB, NBI,
 *   value forms, sizes up to 1.5 MiB) through TM-pairs into and out of
 *   both, checked byte by byte at the owner; Long AMs into EP 2's segment;
 *   gex_AM_Max* accept TM-pairs; a VIS vector put and get through one,
 *   and in "shm" mode a VIS put into a neighbour's mapped created segment
 *   that its target sees without polling (direct copies);
 * - an EP bound but never published is found by gex_EP_QueryBoundSegmentNB
 *   (an event to wait for), then reachable by RMA;
 * - gex_TM_Create of EP 1 and EP 2 of every process (two members per
 *   process, scratch at offsets in each member's segment): ranks, EPs,
 *   rank translation, barriers (both local members), AMs and a put
 *   through it; gex_TM_Dup of it (no scratch) and of the primordial team
 *   (symmetric scratch, handed back by gex_TM_Destroy); an atomic domain
 *   over a team of EP 1s (CPU atomics exactly where all are mapped);
 * - bad input: zero length, too long, flags, NULL kind, binding nothing,
 *   to nothing, twice, and after destroy (GASNET_ERR_BAD_ARG each);
 *   create/destroy in a loop; GASNET_MAXEPS >= 32 and GASNET_ERR_RESOURCE
 *   beyond it.
 */
#include "ex_test.h"

#include <gasnet_ratomic.h>
#include <gasnet_vis.h>

static ex_ctx_t X;
static gex_EP_t ep1, ep2, ep3;
static gex_Segment_t seg1, seg2, seg3;
static char *client_mem; /* seg2's memory: malloc + 3 */
#define SEG1_LEN ((size_t)(2u << 20) + 100) /* at least */
#define LONG1_AT ((size_t)(3u << 19) + 8192) /* Long AMs into seg1, 4096 bytes per rank */
#define SEG2_LEN ((size_t)65536 * 2 + 7) /* at least: RMA tests below 65536, then scratch */
/* The lengths used: the minimums above, or room for a 4096-byte Long from
 * every rank (seg1 from LONG1_AT, seg2 from offset 1) where that is more;
 * the same on every rank. */
static size_t seg1_len, seg2_len;

/* ---- handlers: what ran, where */
enum { H_PING = 200, H_PONG = 201 };
static volatile int pings_on[3], pongs_on[3];
static volatile int bad;
static gex_EP_t *const eps_by_slot[3] = {&X.ep, &ep1, &ep2};

/* Checks the token against the EP whose table this handler was registered in. */
static void check_token(gex_Token_t t, int slot, int is_req, gex_Rank_t *src)
{
    gex_Token_Info_t ti;
    gex_TI_t got = gex_Token_Info(t, &ti, GEX_TI_ALL);
    if (!(got & GEX_TI_EP) || !(got & GEX_TI_SRCRANK) || ti.gex_ep != *eps_by_slot[slot] ||
        ti.gex_is_req != is_req || !(got & GEX_TI_ENTRY) ||
        ti.gex_entry->gex_index != (is_req ? H_PING : H_PONG) || ti.gex_srcrank >= X.n)
        bad = 1;
    *src = ti.gex_srcrank;
}

#define PING_HANDLER(slot)                                                                \
    static void ping##slot(gex_Token_t t, void *buf, size_t n, gex_AM_Arg_t from_slot,    \
                           gex_AM_Arg_t arg)                                              \
    {                                                                                     \
        gex_Rank_t src;                                                                   \
        check_token(t, slot, 1, &src);                                                    \
        if (arg != (gex_AM_Arg_t)(src * 100 + slot)) bad = 1;                             \
        if (n && ex_verify(buf, n, src + 10 * slot) != n) bad = 1;                        \
        __atomic_add_fetch(&pings_on[slot], 1, __ATOMIC_RELAXED);                         \
        gex_AM_ReplyShort1(t, H_PONG, 0, from_slot);                                      \
    }                                                                                     \
    static void pong##slot(gex_Token_t t, gex_AM_Arg_t from_slot)                         \
    {                                                                                     \
        gex_Rank_t src;                                                                   \
        check_token(t, slot, 0, &src);                                                    \
        if (from_slot != slot) bad = 1;                                                   \
        __atomic_add_fetch(&pongs_on[slot], 1, __ATOMIC_RELAXED);                         \
    }
PING_HANDLER(1)
PING_HANDLER(2)
static void ping0(gex_Token_t t, gex_AM_Arg_t from_slot, gex_AM_Arg_t arg)
{
    gex_Rank_t src;
    check_token(t, 0, 1, &src);
    if (arg != (gex_AM_Arg_t)(src * 100)) bad = 1;
    __atomic_add_fetch(&pings_on[0], 1, __ATOMIC_RELAXED);
    gex_AM_ReplyShort1(t, H_PONG, 0, from_slot);
}
static void pong0(gex_Token_t t, gex_AM_Arg_t from_slot)
{
    gex_Rank_t src;
    check_token(t, 0, 0, &src);
    if (from_slot != 0) bad = 1;
    __atomic_add_fetch(&pongs_on[0], 1, __ATOMIC_RELAXED);
}

static void register_on(gex_EP_t ep, gex_AM_Fn_t ping, gex_AM_Fn_t pong, gex_Flags_t cat)
{
    gex_AM_Entry_t e[2] = {{H_PING, ping, cat | GEX_FLAG_AM_REQUEST, 2, NULL, "ping"},
                           {H_PONG, pong, GEX_FLAG_AM_SHORT | GEX_FLAG_AM_REPLY, 1, NULL, "pong"}};
    CHECK_OK(gex_EP_RegisterHandlers(ep, e, 2));
}

static void wait_count(volatile int *c, int want)
{
    GASNET_BLOCKUNTIL(__atomic_load_n(c, __ATOMIC_RELAXED) >= want);
}

/* ---- endpoints */

static void endpoints(void)
{
    CHECK(GASNET_MAXEPS >= 32, "GASNET_MAXEPS is %d", GASNET_MAXEPS);
    gex_EP_t e = GEX_EP_INVALID;
    CHECK(gex_EP_Create(&e, X.client, 0, 0) == GASNET_ERR_BAD_ARG && !e, "no capability accepted");
    CHECK(gex_EP_Create(&e, X.client, (gex_EP_Capabilities_t)1 << 30, 0) == GASNET_ERR_BAD_ARG && !e,
          "unknown capability accepted");
    CHECK_OK(gex_EP_Create(&ep1, X.client, GEX_EP_CAPABILITY_RMA | GEX_EP_CAPABILITY_AM, 0));
    CHECK_OK(gex_EP_Create(&ep2, X.client, GEX_EP_CAPABILITY_ALL, GEX_FLAG_HINT_ACCEL_ALL));
    CHECK_OK(gex_EP_Create(&ep3, X.client, GEX_EP_CAPABILITY_RMA, GEX_FLAG_HINT_ACCEL_AD));
    CHECK(gex_EP_QueryFlags(ep2) == GEX_FLAG_HINT_ACCEL_ALL, "hints not kept: 0x%x",
          (unsigned)gex_EP_QueryFlags(ep2));
    CHECK(gex_EP_QueryIndex(X.ep) == 0, "primordial index %u", gex_EP_QueryIndex(X.ep));
    gex_EP_Index_t i1 = gex_EP_QueryIndex(ep1), i2 = gex_EP_QueryIndex(ep2), i3 = gex_EP_QueryIndex(ep3);
    CHECK(i1 && i2 && i3 && i1 != i2 && i2 != i3 && i1 != i3, "indices %u %u %u", i1, i2, i3);
    /* indices are deterministic (monotonic), so every process has 1, 2, 3 */
    CHECK(i1 == 1 && i2 == 2 && i3 == 3, "indices %u %u %u (expected 1 2 3)", i1, i2, i3);
    CHECK(gex_EP_QueryClient(ep1) == X.client, "client of ep1");
    CHECK(gex_EP_QuerySegment(ep1) == GEX_SEGMENT_INVALID, "a new EP has a segment");
    gex_EP_Location_t loc = gex_TM_TranslateRankToEP(X.tm, X.n - 1, 0);
    CHECK(loc.gex_rank == X.n - 1 && loc.gex_ep_index == 0, "TranslateRankToEP gave (%u, %u)",
          loc.gex_rank, loc.gex_ep_index);
    /* TM-pairs: equal iff same arguments, never a team */
    CHECK(gex_TM_Pair(ep1, 2) == gex_TM_Pair(ep1, 2), "pairs of the same arguments differ");
    CHECK(gex_TM_Pair(ep1, 2) != gex_TM_Pair(ep1, 1) && gex_TM_Pair(ep1, 2) != gex_TM_Pair(ep2, 2),
          "pairs of different arguments are equal");
    CHECK(gex_TM_Pair(X.ep, 0) != X.tm, "a pair equals the primordial team");
}

/* ---- AMs to created endpoints */

static void ams(void)
{
    register_on(X.ep, (gex_AM_Fn_t)ping0, (gex_AM_Fn_t)pong0, GEX_FLAG_AM_SHORT);
    register_on(ep1, (gex_AM_Fn_t)ping1, (gex_AM_Fn_t)pong1, GEX_FLAG_AM_MEDLONG);
    register_on(ep2, (gex_AM_Fn_t)ping2, (gex_AM_Fn_t)pong2, GEX_FLAG_AM_LONG);
    ex_barrier(X.tm);
    static char buf[4096];
    int sent_from[3] = {0, 0, 0};
    for (gex_Rank_t r = 0; r < X.n; r++) {
        /* EP 0 -> r's EP 0 (Short), EP 0 -> r's EP 1 (Medium), EP 2 -> r's EP 2 (Long) */
        CHECK_OK(gex_AM_RequestShort2(gex_TM_Pair(X.ep, 0), r, H_PING, 0, 0, X.me * 100 + 0));
        ex_fill(buf, sizeof buf, X.me + 10);
        CHECK_OK(gex_AM_RequestMedium2(gex_TM_Pair(X.ep, 1), r, H_PING, buf, sizeof buf,
                                       GEX_EVENT_NOW, 0, 0, X.me * 100 + 1));
        sent_from[0] += 2;
        void *dest;
        uintptr_t size;
        /* a Long into r's EP 1 (GASNet-allocated: in place through shm where mapped) */
        CHECK(gex_Segment_QueryBound(gex_TM_Pair(X.ep, 1), r, &dest, NULL, &size) == 0, "EP 1 of %u", r);
        CHECK(size >= LONG1_AT + X.n * 4096, "EP 1's segment too small");
        ex_fill(buf, sizeof buf, X.me + 10);
        CHECK_OK(gex_AM_RequestLong2(gex_TM_Pair(X.ep, 1), r, H_PING, buf, sizeof buf,
                                     (char *)dest + LONG1_AT + X.me * 4096, GEX_EVENT_NOW, 0, 0,
                                     X.me * 100 + 1));
        sent_from[0]++;
        CHECK(gex_Segment_QueryBound(gex_TM_Pair(ep2, 2), r, &dest, NULL, &size) == 0,
              "rank %u EP 2 has no bound segment", r);
        char *d = (char *)dest + 1 + X.me * 4096;
        CHECK(size >= 1 + X.n * 4096, "segment too small");
        ex_fill(buf, sizeof buf, X.me + 20);
        CHECK_OK(gex_AM_RequestLong2(gex_TM_Pair(ep2, 2), r, H_PING, buf, sizeof buf, d,
                                     GEX_EVENT_NOW, 0, 2, X.me * 100 + 2));
        sent_from[2]++;
    }
    wait_count(&pongs_on[0], sent_from[0]);
    wait_count(&pongs_on[2], sent_from[2]);
    wait_count(&pings_on[0], (int)X.n);
    wait_count(&pings_on[1], 2 * (int)X.n);
    wait_count(&pings_on[2], (int)X.n);
    CHECK(!bad, "a handler ran with the wrong token, EP, entry or data");
    CHECK(pongs_on[1] == 0, "a reply reached EP 1, which sent nothing");
    /* the Long payloads, in place in EP 2's segment */
    for (gex_Rank_t s = 0; s < X.n; s++) {
        size_t at = ex_verify(client_mem + 1 + s * 4096, 4096, s + 20);
        CHECK(at == 4096, "Long from rank %u: byte %zu differs", s, at);
    }
    for (gex_Rank_t s = 0; s < X.n; s++) {
        size_t at = ex_verify((char *)gex_Segment_QueryAddr(seg1) + LONG1_AT + s * 4096, 4096, s + 10);
        CHECK(at == 4096, "Long into EP 1 from rank %u: byte %zu differs", s, at);
    }
    /* the payload limits take TM-pairs */
    gex_Rank_t peer = (X.me + 1) % X.n;
    CHECK(gex_AM_MaxRequestLong(gex_TM_Pair(ep2, 2), peer, GEX_EVENT_NOW, 0, 2) >= 512 &&
          gex_AM_MaxReplyMedium(gex_TM_Pair(ep1, 1), peer, GEX_EVENT_NOW, 0, 2) >= 512 &&
          gex_AM_MaxRequestMedium(gex_TM_Pair(X.ep, 1), GEX_RANK_INVALID, NULL, 0, 0) >= 512 &&
          gex_AM_MaxReplyLong(gex_TM_Pair(ep2, 0), peer, NULL, 0, 16) >= 512,
          "gex_AM_Max* through a TM-pair below 512");
    ex_barrier(X.tm);
}

/* ---- teams of created endpoints: gex_TM_Create with two local members
 * (EP 1 and EP 2 of every process: rank 2j and 2j+1), gex_TM_Dup */
static volatile int team_pings;
static void team_ping(gex_Token_t t, gex_AM_Arg_t rank)
{
    gex_Token_Info_t ti;
    gex_Token_Info(t, &ti, GEX_TI_EP);
    /* rank 2j+1 is this process's EP 2 */
    if (ti.gex_ep != ((rank & 1) ? ep2 : ep1)) bad = 1;
    __atomic_add_fetch(&team_pings, 1, __ATOMIC_RELAXED);
}

static void teams(void)
{
    gex_EP_Location_t *args = malloc(2 * X.n * sizeof *args);
    for (gex_Rank_t j = 0; j < X.n; j++) {
        args[2 * j] = (gex_EP_Location_t){j, 1};
        args[2 * j + 1] = (gex_EP_Location_t){j, 2};
    }
    size_t min = gex_TM_Create(NULL, 0, X.tm, args, 2 * X.n, NULL, 0, GEX_FLAG_TM_SCRATCH_SIZE_MIN);
    CHECK(min > 0 && min <= 65536, "scratch size MIN %zu", min);
    /* scratch in each member's own bound segment, given as offsets */
    gex_Addr_t offs[2] = {(gex_Addr_t)(uintptr_t)((3u << 19) + 256), (gex_Addr_t)(uintptr_t)65536};
    CHECK(gex_Segment_QuerySize(seg1) >= (3u << 19) + 256 + min, "seg1 too small for scratch");
    gex_TM_t tms[2];
    gex_AM_Entry_t e = {0, (gex_AM_Fn_t)team_ping, GEX_FLAG_AM_SHORT | GEX_FLAG_AM_REQUEST, 1, NULL, "team_ping"};
    CHECK_OK(gex_EP_RegisterHandlers(ep1, &e, 1));
    gex_AM_Index_t hi = e.gex_index;
    e.gex_index = hi; /* the same index on EP 2 */
    CHECK_OK(gex_EP_RegisterHandlers(ep2, &e, 1));
    CHECK(gex_TM_Create(tms, 2, X.tm, args, 2 * X.n, offs, min,
                        GEX_FLAG_TM_LOCAL_SCRATCH | GEX_FLAG_SCRATCH_SEG_OFFSET | GEX_FLAG_RANK_IS_JOBRANK) != 0,
          "gex_TM_Create made no team");
    for (int k = 0; k < 2; k++) {
        CHECK(gex_TM_QuerySize(tms[k]) == 2 * X.n && gex_TM_QueryRank(tms[k]) == 2 * X.me + k,
              "member %d: rank %u of %u", k, gex_TM_QueryRank(tms[k]), gex_TM_QuerySize(tms[k]));
        CHECK(gex_TM_QueryEP(tms[k]) == (k ? ep2 : ep1), "member %d: wrong EP", k);
        for (gex_Rank_t r = 0; r < 2 * X.n; r++) {
            gex_EP_Location_t loc = gex_TM_TranslateRankToEP(tms[k], r, 0);
            CHECK(loc.gex_rank == r / 2 && loc.gex_ep_index == 1 + r % 2, "rank %u is (%u, %u)", r,
                  loc.gex_rank, loc.gex_ep_index);
            CHECK(gex_TM_TranslateRankToJobrank(tms[k], r) == r / 2, "jobrank of %u", r);
        }
    }
    /* a barrier needs both local members: start both, then wait */
    for (int round = 0; round < 3; round++) {
        gex_Event_t b[2] = {gex_Coll_BarrierNB(tms[0], 0), gex_Coll_BarrierNB(tms[1], 0)};
        gex_Event_WaitAll(b, 2, 0);
    }
    /* AMs and RMA through the team: from EP 1 to every rank */
    for (gex_Rank_t r = 0; r < 2 * X.n; r++) CHECK_OK(gex_AM_RequestShort1(tms[0], r, hi, 0, r));
    wait_count(&team_pings, 2 * (int)X.n);
    gex_Rank_t next = (X.me + 1) % X.n;
    void *d;
    CHECK(gex_Segment_QueryBound(tms[0], 2 * next + 1, &d, NULL, NULL) == 0, "team rank bound");
    char msg[32] = {0};
    snprintf(msg, sizeof msg, "team put from %u", X.me);
    CHECK_OK(gex_RMA_PutBlocking(tms[0], 2 * next + 1, (char *)d + 70000, msg, sizeof msg, 0));
    gex_Event_t b[2] = {gex_Coll_BarrierNB(tms[0], 0), gex_Coll_BarrierNB(tms[1], 0)};
    gex_Event_WaitAll(b, 2, 0);
    memset(msg, 0, sizeof msg);
    snprintf(msg, sizeof msg, "team put from %u", (X.me + X.n - 1) % X.n);
    CHECK(!memcmp(client_mem + 70000, msg, sizeof msg), "team put gave '%.32s'", client_mem + 70000);
    CHECK(!bad && team_pings == 2 * (int)X.n, "team AMs");

    /* Dup of the created team (each local member calls) without scratch:
     * same membership, no collectives; and of the primordial team */
    gex_TM_t dups[2];
    for (int k = 0; k < 2; k++) {
        CHECK(gex_TM_Dup(&dups[k], tms[k], NULL, 0, GEX_FLAG_TM_NO_SCRATCH) != 0, "no dup");
        CHECK(gex_TM_QuerySize(dups[k]) == 2 * X.n && gex_TM_QueryRank(dups[k]) == 2 * X.me + k &&
              gex_TM_QueryEP(dups[k]) == gex_TM_QueryEP(tms[k]), "dup %d differs", k);
        CHECK(dups[k] != tms[k], "dup is the same handle");
    }
    CHECK(gex_Segment_QueryBound(dups[1], 2 * next + 1, &d, NULL, NULL) == 0, "dup rank bound");
    CHECK_OK(gex_RMA_PutBlocking(dups[1], 2 * next + 1, (char *)d + 70100, "dup", 4, 0));
    gex_TM_t d0;
    size_t dmin = gex_TM_Dup(NULL, X.tm, NULL, 0, GEX_FLAG_TM_SCRATCH_SIZE_MIN);
    CHECK(dmin > 0, "Dup MIN query");
    CHECK(gex_TM_Dup(&d0, X.tm, (void *)(uintptr_t)(65536 - dmin), dmin,
                     GEX_FLAG_TM_SYMMETRIC_SCRATCH | GEX_FLAG_SCRATCH_SEG_OFFSET) != 0, "no dup of tm0");
    CHECK(gex_TM_QuerySize(d0) == X.n && gex_TM_QueryRank(d0) == X.me, "dup of the primordial team");
    ex_barrier(d0);
    gex_Memvec_t sc = {0, 0};
    CHECK(gex_TM_Destroy(d0, &sc, GEX_FLAG_SCRATCH_SEG_OFFSET) && sc.gex_addr == (void *)(uintptr_t)(65536 - dmin) &&
          sc.gex_len == dmin, "dup's scratch handed back as %p +%zu", sc.gex_addr, sc.gex_len);
    for (int k = 0; k < 2; k++) gex_TM_Destroy(dups[k], NULL, GEX_FLAG_GLOBALLY_QUIESCED);
    gex_Event_t b2[2] = {gex_Coll_BarrierNB(tms[0], 0), gex_Coll_BarrierNB(tms[1], 0)};
    gex_Event_WaitAll(b2, 2, 0);
    CHECK(!memcmp(client_mem + 70100, "dup", 4), "put through a dup");
    for (int k = 0; k < 2; k++) {
        gex_Memvec_t m;
        CHECK(gex_TM_Destroy(tms[k], &m, GEX_FLAG_GLOBALLY_QUIESCED | GEX_FLAG_SCRATCH_SEG_OFFSET) &&
              m.gex_addr == offs[k] && m.gex_len == min, "member %d's scratch back", k);
    }
    /* one call, two disjoint teams: the even jobranks' EP 1s and the odd
     * ones' (rank = jobrank / 2); a caller naming no member of its own
     * passes numargs 0 and gets none */
    gex_Rank_t mine = 0;
    for (gex_Rank_t j = X.me % 2; j < X.n; j += 2) args[mine++] = (gex_EP_Location_t){j, 1};
    gex_TM_t half;
    CHECK(gex_TM_Create(&half, 1, X.tm, args, mine, offs, min,
                        GEX_FLAG_TM_SYMMETRIC_SCRATCH | GEX_FLAG_SCRATCH_SEG_OFFSET | GEX_FLAG_RANK_IS_JOBRANK) == 1,
          "no half team");
    CHECK(gex_TM_QuerySize(half) == mine && gex_TM_QueryRank(half) == X.me / 2, "half team: rank %u of %u",
          gex_TM_QueryRank(half), gex_TM_QuerySize(half));
    ex_barrier(half);
    /* an atomic domain over a team of created endpoints: every member adds
     * to a word in the segment of the half's rank 0, by team rank */
    {
        void *base = NULL;
        CHECK(gex_Segment_QueryBound(half, 0, &base, NULL, NULL) == 0, "half: rank 0's segment");
        int64_t *w = (int64_t *)((char *)base + (3u << 19) + 256 + 3 * 65536);
        gex_AD_t ad;
        gex_AD_Create(&ad, half, GEX_DT_I64, GEX_OP_SET | GEX_OP_ADD | GEX_OP_GET, 0);
        if (gex_TM_QueryRank(half) == 0) gex_Event_Wait(gex_AD_OpNB_I64(ad, NULL, 0, w, GEX_OP_SET, 0, 0, 0));
        ex_barrier(half);
        for (int i = 0; i < 20; i++)
            CHECK(gex_AD_OpNBI_I64(ad, NULL, 0, w, GEX_OP_ADD, gex_TM_QueryRank(half) + 1, 0, 0) == 0, "NBI");
        gex_NBI_Wait(GEX_EC_ALL, 0);
        ex_barrier(half);
        int64_t v = -1, expect = 20 * (int64_t)mine * (mine + 1) / 2;
        gex_Event_t ev = gex_AD_OpNB_I64(ad, &v, 0, w, GEX_OP_GET, 0, 0, 0);
        /* where every member's segment is mapped here, a CPU atomic (done at once) */
        int all_mapped = 1, cpu = ev == GEX_EVENT_INVALID;
        for (gex_Rank_t r = 0; r < mine; r++) {
            void *local = NULL;
            CHECK(gex_Segment_QueryBound(half, r, NULL, &local, NULL) == 0, "half: rank %u's segment", r);
            all_mapped &= local != NULL;
        }
        gex_Event_Wait(ev);
        CHECK(gex_TM_QueryRank(half) == 0 || cpu == all_mapped, "half team's domain: %s, but the "
              "segments are %s", cpu ? "CPU atomics" : "messages", all_mapped ? "all mapped" : "not all mapped");
        CHECK(v == expect, "half team's atomic word holds %lld, expected %lld", (long long)v, (long long)expect);
        if (gex_TM_QueryRank(half) == 1) {
            printf("ex_eps: half team's atomics: %s\n", cpu ? "cpu" : "handler");
            fflush(stdout);
        }
        ex_barrier(half);
        gex_AD_Destroy(ad);
    }
    CHECK(gex_TM_Create(NULL, 0, X.tm, NULL, 0, NULL, 0, GEX_FLAG_TM_NO_SCRATCH) == 0, "numargs 0 made a team");
    CHECK(gex_TM_Destroy(half, NULL, 0) == 0, "nothing to hand back without scratch_p");
    /* node 0 names nobody (numargs 0) while the others make a team of their
     * EP 1s; the next Create on the same parent must still give every
     * member one team: a barrier over it completes */
    if (X.n >= 2) {
        size_t nrest = 0;
        if (X.me != 0)
            for (gex_Rank_t j = 1; j < X.n; j++) args[nrest++] = (gex_EP_Location_t){j, 1};
        gex_TM_t rest = GEX_TM_INVALID, all1;
        const gex_Flags_t sf = GEX_FLAG_TM_SYMMETRIC_SCRATCH | GEX_FLAG_SCRATCH_SEG_OFFSET | GEX_FLAG_RANK_IS_JOBRANK;
        CHECK(gex_TM_Create(nrest ? &rest : NULL, nrest ? 1 : 0, X.tm, nrest ? args : NULL, nrest, offs, min, sf) ==
                  (nrest ? 1 : 0), "the team without node 0");
        if (nrest) ex_barrier(rest);
        for (gex_Rank_t j = 0; j < X.n; j++) args[j] = (gex_EP_Location_t){j, 1};
        gex_Addr_t offs2[1] = {(gex_Addr_t)(uintptr_t)((3u << 19) + 256 + 65536)}; /* after rest's */
        CHECK(gex_TM_Create(&all1, 1, X.tm, args, X.n, offs2, min, sf) == 1, "the team after it");
        ex_barrier(all1);
        gex_TM_Destroy(all1, NULL, GEX_FLAG_GLOBALLY_QUIESCED);
        if (nrest) gex_TM_Destroy(rest, NULL, GEX_FLAG_GLOBALLY_QUIESCED);
    }
    free(args);
    ex_barrier(X.tm);
}

/* ---- segments */

static void segments(void)
{
    /* bad input first: each a non-fatal GASNET_ERR_BAD_ARG, *segment_p untouched */
    gex_Segment_t s = GEX_SEGMENT_INVALID;
    char probe[64];
    CHECK(gex_Segment_Create(&s, X.client, NULL, 0, GEX_MK_HOST, 0) == GASNET_ERR_BAD_ARG && !s, "length 0");
    CHECK(gex_Segment_Create(&s, X.client, probe, 0, GEX_MK_HOST, 0) == GASNET_ERR_BAD_ARG && !s, "client length 0");
    CHECK(gex_Segment_Create(&s, X.client, NULL, gasnet_getMaxLocalSegmentSize() + 1, GEX_MK_HOST, 0) ==
              GASNET_ERR_BAD_ARG && !s, "longer than gasnet_getMaxLocalSegmentSize()");
    CHECK(gex_Segment_Create(&s, X.client, NULL, 4096, GEX_MK_HOST, 1) == GASNET_ERR_BAD_ARG && !s, "flags");
    CHECK(gex_Segment_Create(&s, X.client, NULL, 4096, (gex_MK_t)0, 0) == GASNET_ERR_BAD_ARG && !s, "NULL kind");
    gex_MemKind_t old_spelling = GEX_MEMKIND_HOST;
    CHECK(old_spelling == GEX_MK_HOST, "GEX_MEMKIND_HOST is not GEX_MK_HOST");

    seg1_len = LONG1_AT + (size_t)X.n * 4096 + 100; /* not a page multiple either */
    if (seg1_len < SEG1_LEN) seg1_len = SEG1_LEN;
    seg2_len = (size_t)X.n * 4096 + 7; /* odd: 1 + X.n * 4096 and more */
    if (seg2_len < SEG2_LEN) seg2_len = SEG2_LEN;
    CHECK_OK(gex_Segment_Create(&seg1, X.client, NULL, seg1_len, GEX_MK_HOST, 0));
    CHECK(gex_Segment_QuerySize(seg1) >= seg1_len && gex_Segment_QueryAddr(seg1),
          "GASNet-allocated: %zu bytes at %p", (size_t)gex_Segment_QuerySize(seg1), gex_Segment_QueryAddr(seg1));
    CHECK(gex_Segment_QueryClient(seg1) == X.client, "segment client");
    client_mem = (char *)malloc(seg2_len + 3) + 3;
    memset(client_mem, 0xee, seg2_len);
    CHECK_OK(gex_Segment_Create(&seg2, X.client, client_mem, seg2_len, GEX_MK_HOST, 0));
    CHECK(gex_Segment_QueryAddr(seg2) == client_mem && gex_Segment_QuerySize(seg2) == seg2_len,
          "client-allocated: %p +%zu", gex_Segment_QueryAddr(seg2), (size_t)gex_Segment_QuerySize(seg2));
    CHECK((unsigned char)client_mem[seg2_len - 1] == 0xee, "creation changed the client's memory");

    CHECK(gex_EP_BindSegment(GEX_EP_INVALID, seg1, 0) == GASNET_ERR_BAD_ARG, "bind to GEX_EP_INVALID");
    CHECK(gex_EP_BindSegment(ep1, GEX_SEGMENT_INVALID, 0) == GASNET_ERR_BAD_ARG, "bind GEX_SEGMENT_INVALID");
    CHECK_OK(gex_EP_BindSegment(ep1, seg1, 0));
    CHECK(gex_EP_BindSegment(ep1, seg2, 0) == GASNET_ERR_BAD_ARG, "a second bind");
    CHECK_OK(gex_EP_BindSegment(ep2, seg2, 0));
    CHECK(gex_EP_QuerySegment(ep1) == seg1 && gex_EP_QuerySegment(ep2) == seg2, "bound segments");
    gex_EP_t pub[2] = {ep1, ep2};
    CHECK_OK(gex_EP_PublishBoundSegment(X.tm, pub, 2, 0));
    /* a member may publish nothing; here every member publishes again, harmlessly */
    CHECK_OK(gex_EP_PublishBoundSegment(X.tm, NULL, 0, 0));
}

static void *bound_of(gex_TM_t pair, gex_Rank_t r, uintptr_t *size, void **local)
{
    void *owner = NULL;
    CHECK(gex_Segment_QueryBound(pair, r, &owner, local, size) == 0, "rank %u: no bound segment", r);
    return owner;
}

static void rma(const char *mode)
{
    gex_Rank_t next = (X.me + 1) % X.n, prev = (X.me + X.n - 1) % X.n;
    gex_TM_t to1 = gex_TM_Pair(X.ep, 1), to2 = gex_TM_Pair(ep1, 2);
    uintptr_t size1, size2;
    void *local1, *local2;
    char *d1 = bound_of(to1, next, &size1, &local1);
    char *d2 = bound_of(to2, next, &size2, &local2);
    CHECK(size1 >= seg1_len && size2 == seg2_len, "peer sizes %zu %zu", (size_t)size1, (size_t)size2);
    /* the NB form agrees, answered at once */
    void *o = NULL, *l = (void *)1;
    uintptr_t sz = 0;
    gex_Event_t ev = gex_EP_QueryBoundSegmentNB(to1, next, &o, &l, &sz, 0);
    gex_Event_Wait(ev);
    CHECK(o == d1 && sz == size1 && l == local1, "QueryBoundSegmentNB disagrees");
    int neighbour = next != X.me;
    if (!strcmp(mode, "shm") && neighbour)
        CHECK(local1 != NULL, "a neighbour's GASNet-allocated segment is not mapped here");
    if (!strcmp(mode, "am") && neighbour)
        CHECK(local1 == NULL, "mapped although RMA is forced to the AM path");
    if (neighbour) CHECK(local2 == NULL, "a neighbour's client-allocated segment claims a local address");

    /* puts of several sizes and forms into next's two segments */
    size_t big = (size_t)3 << 19; /* 1.5 MiB: Long chunks over AM */
    char *src = malloc(big), *back = malloc(big);
    ex_fill(src, big, X.me + 1);
    CHECK_OK(gex_RMA_PutBlocking(to1, next, d1, src, big, 0));
    gex_Event_t e1 = gex_RMA_PutNB(to1, next, d1 + big + 5, src, 100, GEX_EVENT_DEFER, 0);
    CHECK_OK(gex_RMA_PutNBI(to2, next, d2 + 1, src, 60000, GEX_EVENT_NOW, 0));
    CHECK_OK(gex_RMA_PutNBI(to2, next, d2 + 60001, src + 7, 5000, GEX_EVENT_NOW, 0));
    gex_RMA_PutBlockingVal(to2, next, d2 + 65003, 0x0102030405060708ull, 4, 0);
    gex_Event_Wait(e1);
    gex_NBI_Wait(GEX_EC_PUT, 0);
    ex_barrier(X.tm);
    /* the owner checks what prev wrote, byte by byte */
    char *m1 = gex_Segment_QueryAddr(seg1);
    size_t at = ex_verify(m1, big, prev + 1);
    CHECK(at == big, "big put from %u into EP 1: byte %zu differs", prev, at);
    CHECK(ex_verify(m1 + big + 5, 100, prev + 1) == 100, "NB put into EP 1");
    CHECK(ex_verify(client_mem + 1, 60000, prev + 1) == 60000, "NBI put into EP 2");
    for (size_t i = 0; i < 5000; i++)
        CHECK((unsigned char)client_mem[60001 + i] == ex_byte(i + 7, prev + 1), "put into EP 2 at %zu", i);
    uint32_t v;
    memcpy(&v, client_mem + 65003, 4);
    CHECK(v == 0x05060708u, "PutBlockingVal gave 0x%x", v);
    CHECK((unsigned char)client_mem[0] == 0xee, "a put wrote before its destination");
    ex_barrier(X.tm);

    /* gets back from next, each form */
    memset(back, 0, big);
    CHECK_OK(gex_RMA_GetBlocking(to1, back, next, d1, big, 0));
    CHECK(ex_verify(back, big, X.me + 1) == big, "blocking get from EP 1");
    memset(back, 0, big);
    gex_Event_t e2 = gex_RMA_GetNB(to2, back, next, d2 + 1, 60000, 0);
    CHECK_OK(gex_RMA_GetNBI(gex_TM_Pair(ep2, 2), back + 60000, next, d2 + 60001, 5000, 0));
    gex_Event_Wait(e2);
    gex_NBI_Wait(GEX_EC_GET, 0);
    CHECK(ex_verify(back, 60000, X.me + 1) == 60000, "NB get from EP 2");
    for (size_t i = 0; i < 5000; i++)
        CHECK((unsigned char)back[60000 + i] == ex_byte(i + 7, X.me + 1), "NBI get from EP 2 at %zu", i);
    CHECK(gex_RMA_GetBlockingVal(to2, next, d2 + 65003, 4, 0) == 0x05060708u, "GetBlockingVal");
    /* VIS through a TM-pair: two pieces into next's EP 2, then back */
    gex_Memvec_t dl[2] = {{d2 + 80000, 100}, {d2 + 80200, 28}}, sl[1] = {{src, 128}};
    CHECK_OK(gex_VIS_VectorPutBlocking(to2, next, 2, dl, 1, sl, 0));
    ex_barrier(X.tm);
    CHECK(ex_verify(client_mem + 80000, 100, prev + 1) == 100, "VIS put, first piece");
    for (size_t i = 0; i < 28; i++)
        CHECK((unsigned char)client_mem[80200 + i] == ex_byte(100 + i, prev + 1), "VIS put at %zu", i);
    memset(back, 0, 128);
    gex_Memvec_t bl[1] = {{back, 128}};
    CHECK_OK(gex_VIS_VectorGetBlocking(to2, 1, bl, next, 2, dl, 0));
    CHECK(ex_verify(back, 128, X.me + 1) == 128, "VIS get through a TM-pair");
    /* VIS into next's EP 1, mapped here in "shm" mode: direct copies, so
     * node 1 sees the data while it waits without polling (over AMs, node
     * 0's blocking put would wait for node 1 to poll) */
    if (!strcmp(mode, "shm") && X.n >= 2) {
        char *flag = gex_Segment_QueryAddr(seg1) + seg1_len - 1;
        gex_Memvec_t vl[2] = {{d1 + 7, 64}, {d1 + 1000, 64}}, vs[1] = {{src, 128}};
        *flag = 0;
        ex_barrier(X.tm);
        if (X.me == 0) {
            CHECK_OK(gex_VIS_VectorPutBlocking(to1, 1, 2, vl, 1, vs, 0));
            gex_RMA_PutBlockingVal(to1, 1, d1 + seg1_len - 1, 1, 1, 0);
        } else if (X.me == 1) {
            for (long spins = 0; !__atomic_load_n(flag, __ATOMIC_ACQUIRE); spins++) {
                CHECK(spins < 1000000, "a VIS put into a mapped created segment waits for its "
                      "target to poll");
                usleep(10);
            }
            char *m1 = gex_Segment_QueryAddr(seg1);
            CHECK(ex_verify(m1 + 7, 64, 1) == 64, "VIS put into a mapped created segment");
            for (size_t i = 0; i < 64; i++)
                CHECK((unsigned char)m1[1000 + i] == ex_byte(64 + i, 1), "VIS put, second piece at %zu", i);
        }
    }
    ex_barrier(X.tm);
    free(src);
    free(back);
    ex_barrier(X.tm);
}

/* ep3: bound, never published: found by the NB query, then reachable */
static void unpublished(void)
{
    CHECK_OK(gex_Segment_Create(&seg3, X.client, NULL, 8192, GEX_MK_HOST, 0));
    CHECK_OK(gex_EP_BindSegment(ep3, seg3, 0));
    memset(gex_Segment_QueryAddr(seg3), 0, 8192);
    ex_barrier(X.tm);
    gex_Rank_t next = (X.me + 1) % X.n, prev = (X.me + X.n - 1) % X.n;
    gex_TM_t to3 = gex_TM_Pair(ep1, 3);
    void *owner = NULL;
    uintptr_t size = 0;
    gex_Event_t ev = gex_EP_QueryBoundSegmentNB(to3, next, &owner, NULL, &size, 0);
    gex_Event_Wait(ev);
    CHECK(owner && size >= 8192, "query of an unpublished segment gave %p +%zu", owner, (size_t)size);
    CHECK_OK(gex_RMA_PutBlocking(to3, next, (char *)owner + 8000, "unpublished", 12, 0));
    ex_barrier(X.tm);
    CHECK(!memcmp((char *)gex_Segment_QueryAddr(seg3) + 8000, "unpublished", 12),
          "put into rank %u's unpublished segment", prev);
    ex_barrier(X.tm);
}

static void destroy(void)
{
    /* create and destroy, bound or not, in a loop */
    for (int i = 0; i < 200; i++) {
        gex_Segment_t s;
        CHECK_OK(gex_Segment_Create(&s, X.client, NULL, 4096 * (1 + i % 5), GEX_MK_HOST, 0));
        memset(gex_Segment_QueryAddr(s), i, gex_Segment_QuerySize(s));
        gex_Segment_Destroy(s, 0);
        CHECK_OK(gex_Segment_Create(&s, X.client, client_mem, 100 + i, GEX_MK_HOST, 0));
        gex_Segment_Destroy(s, 0);
    }
    ex_barrier(X.tm); /* every peer is done with seg2 */
    gex_Segment_Destroy(seg2, 0);
    CHECK(gex_EP_BindSegment(ep2, seg1, 0) == GASNET_ERR_BAD_ARG, "rebinding after destroy (no unbind exists)");
    /* the same segment may be bound to several EPs */
    gex_EP_t ep4;
    CHECK_OK(gex_EP_Create(&ep4, X.client, GEX_EP_CAPABILITY_RMA, 0));
    CHECK_OK(gex_EP_BindSegment(ep4, seg1, 0));
    /* up to GASNET_MAXEPS, then GASNET_ERR_RESOURCE */
    int made = 5;
    gex_EP_t e;
    while (made < GASNET_MAXEPS) {
        CHECK_OK(gex_EP_Create(&e, X.client, GEX_EP_CAPABILITY_AM, 0));
        made++;
    }
    e = GEX_EP_INVALID;
    CHECK(gex_EP_Create(&e, X.client, GEX_EP_CAPABILITY_AM, 0) == GASNET_ERR_RESOURCE && !e,
          "endpoint %d of at most %d", GASNET_MAXEPS + 1, GASNET_MAXEPS);
    ex_barrier(X.tm);
}

static void err_case(const char *c)
{
    gex_Rank_t next = (X.me + 1) % X.n;
    CHECK_OK(gex_EP_Create(&ep1, X.client, GEX_EP_CAPABILITY_ALL, 0));
    CHECK_OK(gex_Segment_Create(&seg1, X.client, NULL, 4096, GEX_MK_HOST, 0));
    CHECK_OK(gex_EP_BindSegment(ep1, seg1, 0));
    CHECK_OK(gex_EP_PublishBoundSegment(X.tm, &ep1, 1, 0));
    if (X.me != 0) {
        ex_barrier(X.tm);
        gasnet_exit(0);
    }
    char buf[64] = {0};
    char *d = gex_Segment_QueryAddr(seg1); /* same layout is not promised: ask */
    CHECK(gex_Segment_QueryBound(gex_TM_Pair(X.ep, 1), next, (void **)&d, NULL, NULL) == 0, "bound");
    if (!strcmp(c, "pair_query")) gex_TM_QuerySize(gex_TM_Pair(ep1, 0));
    else if (!strcmp(c, "pair_barrier")) gex_Coll_BarrierBlocking(gex_TM_Pair(ep1, 0), 0);
    else if (!strcmp(c, "pair_index")) gex_TM_Pair(ep1, GASNET_MAXEPS);
    else if (!strcmp(c, "outside")) gex_RMA_PutBlocking(gex_TM_Pair(X.ep, 1), next, d + 4090, buf, 64, 0);
    else if (!strcmp(c, "no_segment")) gex_RMA_PutBlocking(gex_TM_Pair(X.ep, 5), next, d, buf, 8, 0);
    else if (!strcmp(c, "destroy_attached")) gex_Segment_Destroy(X.seg, 0);
    else if (!strcmp(c, "publish_unbound")) {
        gex_EP_t e;
        CHECK_OK(gex_EP_Create(&e, X.client, GEX_EP_CAPABILITY_RMA, 0));
        gex_EP_PublishBoundSegment(X.tm, &e, 1, 0);
    } else if (!strcmp(c, "destroyed_handle")) {
        gex_Segment_t s;
        CHECK_OK(gex_Segment_Create(&s, X.client, NULL, 4096, GEX_MK_HOST, 0));
        gex_Segment_Destroy(s, 0);
        gex_Segment_QuerySize(s);
    }
    CHECK(0, "case %s was not fatal", c);
}

int main(int argc, char **argv)
{
    ex_start(&X, "ex_eps", &argc, &argv, 1 << 16);
    if (argc > 2 && !strcmp(argv[1], "err")) {
        err_case(argv[2]);
        return 1;
    }
    const char *mode = argc > 1 ? argv[1] : "any";
    endpoints();
    segments();
    ams();
    rma(mode);
    unpublished();
    teams();
    destroy();
    MSG0("ex_eps: ok (%u ranks, %s)", X.n, mode);
    gasnet_exit(0);
}
