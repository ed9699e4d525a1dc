/* ex_rma: GASNet-EX RMA (spec §9) on the primordial team and on split
 * teams, from the spec alone.
 *
 *   ex_rma [MAXSIZE]
 *
 * Three teams: the primordial one, one with the ranks reversed (one
 * colour, key = size-1-jobrank) and one per jobrank parity. On each, every
 * rank writes to every member (itself included) with every put form and
 * lc_opt the spec allows, reads back with another form, and finally every
 * target checks in its own memory what each writer left there, so a rank
 * translation error cannot hide behind a matching get. Sizes cross the
 * protocol boundaries (1, 7, 8, 512, 513, 4096, 4097, 65000, 65001,
 * 1 MiB + 1, up to MAXSIZE), remote and local addresses are unaligned
 * in turn. An LC event (or GROUP local completion) is followed by
 * overwriting the source at once: the target must still get the original
 * bytes. Also: nbytes 0 (Blocking and NBI return 0, NB GEX_EVENT_INVALID),
 * the Val forms (native byte order, zero extension), IMMEDIATE and the SEG
 * flags accepted, QueryBound through a split team naming the right
 * segment.
 */
#include "ex_test.h"

static ex_ctx_t X;
static size_t maxsize = (1 << 20) + 1;
static size_t wslot;        /* bytes per writer in each target's segment */
static char *my_seg;
static void **job_seg;      /* each jobrank's segment (owner address) */
static char *src, *dst;     /* local buffers */

static const size_t sizes[] = {1, 7, 8, 512, 513, 4096, 4097, 65000, 65001, (1 << 20) + 1};

/* Remote address of my slot at jobrank j, plus an offset. */
static char *slot_at(gex_Rank_t j, size_t off) { return (char *)job_seg[j] + (size_t)X.me * wslot + off; }

static unsigned seed_of(gex_Rank_t writer, gex_Rank_t target, int team, int form, size_t size)
{
    return writer * 100003u + target * 1009u + (unsigned)team * 101u + (unsigned)form * 11u + (unsigned)size;
}

static const char *const form_name[] = {
    "PutBlocking/GetBlocking", "PutNB(NOW)/GetNB", "PutNB(DEFER)/GetNBI", "PutNB(&lc)/GetNB",
    "PutNBI(NOW)/GetBlocking", "PutNBI(DEFER)/GetNB", "PutNBI(GROUP)/GetNBI", "4 chunks NBI/NB+WaitAll"};
#define NFORMS 8

/* One put of n bytes to (tm, r) with the given form, then a get back
 * with the paired form; the data must match. */
static void put_get(gex_TM_t tm, gex_Rank_t r, gex_Rank_t j, int form, size_t n, unsigned seed)
{
    size_t roff = (size_t)(form + n) % 4, loff = (size_t)form % 3;
    char *s = src + loff, *d = dst + loff, *rem = slot_at(j, roff);
    ex_fill(s, n, seed);
    gex_Event_t root, lc = (gex_Event_t)(uintptr_t)0x77;
    switch (form) {
    case 0:
        CHECK_OK(gex_RMA_PutBlocking(tm, r, rem, s, n, GEX_FLAG_PEER_SEG_BOUND));
        memset(s, 0xee, n);
        CHECK_OK(gex_RMA_GetBlocking(tm, d, r, rem, n, 0));
        break;
    case 1:
        root = gex_RMA_PutNB(tm, r, rem, s, n, GEX_EVENT_NOW, 0);
        memset(s, 0xee, n);
        gex_Event_Wait(root);
        gex_Event_Wait(gex_RMA_GetNB(tm, d, r, rem, n, 0));
        break;
    case 2:
        root = gex_RMA_PutNB(tm, r, rem, s, n, GEX_EVENT_DEFER, 0);
        gex_Event_Wait(root);
        memset(s, 0xee, n);
        CHECK_OK(gex_RMA_GetNBI(tm, d, r, rem, n, 0));
        gex_NBI_Wait(GEX_EC_GET, 0);
        break;
    case 3:
        root = gex_RMA_PutNB(tm, r, rem, s, n, &lc, 0);
        CHECK(lc != (gex_Event_t)(uintptr_t)0x77, "gex_RMA_PutNB did not write *lc_opt");
        gex_Event_Wait(lc);
        memset(s, 0xee, n);
        gex_Event_Wait(root);
        root = gex_RMA_GetNB(tm, d, r, rem, n, 0);
        gex_Event_Wait(root);
        break;
    case 4:
        CHECK_OK(gex_RMA_PutNBI(tm, r, rem, s, n, GEX_EVENT_NOW, GEX_FLAG_SELF_SEG_UNKNOWN | GEX_FLAG_PEER_SEG_BOUND));
        memset(s, 0xee, n);
        gex_NBI_Wait(GEX_EC_PUT, 0);
        CHECK_OK(gex_RMA_GetBlocking(tm, d, r, rem, n, GEX_FLAG_PEER_SEG_BOUND));
        break;
    case 5:
        CHECK_OK(gex_RMA_PutNBI(tm, r, rem, s, n, GEX_EVENT_DEFER, 0));
        gex_NBI_Wait(GEX_EC_PUT, 0);
        memset(s, 0xee, n);
        gex_Event_Wait(gex_RMA_GetNB(tm, d, r, rem, n, 0));
        break;
    case 6:
        CHECK_OK(gex_RMA_PutNBI(tm, r, rem, s, n, GEX_EVENT_GROUP, 0));
        gex_NBI_Wait(GEX_EC_LC, 0);
        memset(s, 0xee, n);
        gex_NBI_Wait(GEX_EC_PUT, 0);
        CHECK_OK(gex_RMA_GetNBI(tm, d, r, rem, n, 0));
        gex_NBI_Wait(GEX_EC_ALL, 0);
        break;
    default: {
        /* four pieces: IMMEDIATE puts (retried without it when refused),
         * then NB gets completed with WaitAll */
        size_t q = n / 4, at[5] = {0, q, 2 * q, 3 * q, n};
        for (int k = 0; k < 4; k++) {
            if (gex_RMA_PutNBI(tm, r, rem + at[k], s + at[k], at[k + 1] - at[k], GEX_EVENT_DEFER, GEX_FLAG_IMMEDIATE))
                CHECK_OK(gex_RMA_PutNBI(tm, r, rem + at[k], s + at[k], at[k + 1] - at[k], GEX_EVENT_DEFER, 0));
        }
        gex_NBI_Wait(GEX_EC_ALL, 0);
        memset(s, 0xee, n);
        gex_Event_t ev[4];
        for (int k = 0; k < 4; k++) ev[k] = gex_RMA_GetNB(tm, d + at[k], r, rem + at[k], at[k + 1] - at[k], 0);
        gex_Event_WaitAll(ev, 4, 0);
        for (int k = 0; k < 4; k++) CHECK(ev[k] == GEX_EVENT_INVALID, "gex_Event_WaitAll left entry %d", k);
    }
    }
    size_t bad = ex_verify(d, n, seed);
    CHECK(bad == n, "%s of %zu bytes to team rank %u (jobrank %u), remote +%zu local +%zu: byte %zu differs",
          form_name[form], n, r, j, roff, loff, bad);
}

/* Every member writes its slot at every member; then each checks its own
 * memory. */
static void team_round(gex_TM_t tm, int team)
{
    gex_Rank_t tn = gex_TM_QuerySize(tm), tme = gex_TM_QueryRank(tm);
    CHECK(gex_TM_TranslateRankToJobrank(tm, tme) == X.me, "my rank %u in team %d is jobrank %u", tme, team,
          gex_TM_TranslateRankToJobrank(tm, tme));
    for (size_t si = 0; si < EX_NELEM(sizes); si++) {
        size_t n = sizes[si];
        if (n > maxsize) continue;
        for (gex_Rank_t i = 0; i < tn; i++) {
            gex_Rank_t r = (tme + 1 + i) % tn, j = gex_TM_TranslateRankToJobrank(tm, r);
            CHECK(j < X.n && gex_TM_TranslateJobrankToRank(tm, j) == r, "team %d: rank %u <-> jobrank %u", team, r, j);
            for (int form = 0; form < NFORMS; form++) put_get(tm, r, j, form, n, seed_of(X.me, j, team, form, n));
            /* the last word: a plain put the target checks itself */
            ex_fill(src, n, seed_of(X.me, j, team, 99, n));
            CHECK_OK(gex_RMA_PutBlocking(tm, r, slot_at(j, 0), src, n, 0));
        }
        ex_barrier(tm);
        for (gex_Rank_t w = 0; w < tn; w++) {
            gex_Rank_t wj = gex_TM_TranslateRankToJobrank(tm, w);
            const char *mine = my_seg + (size_t)wj * wslot;
            size_t bad = ex_verify(mine, n, seed_of(wj, X.me, team, 99, n));
            CHECK(bad == n, "team %d, %zu bytes: what jobrank %u (team rank %u) put here differs at byte %zu", team, n,
                  wj, w, bad);
        }
        ex_barrier(tm);
    }
}

static void zero_bytes(gex_TM_t tm)
{
    for (gex_Rank_t r = 0; r < gex_TM_QuerySize(tm); r++) {
        char *rem = slot_at(gex_TM_TranslateRankToJobrank(tm, r), 0);
        CHECK(gex_RMA_PutBlocking(tm, r, rem, src, 0, 0) == 0, "PutBlocking of 0 bytes");
        CHECK(gex_RMA_GetBlocking(tm, dst, r, rem, 0, 0) == 0, "GetBlocking of 0 bytes");
        CHECK(gex_RMA_PutNBI(tm, r, rem, src, 0, GEX_EVENT_DEFER, 0) == 0, "PutNBI of 0 bytes");
        CHECK(gex_RMA_GetNBI(tm, dst, r, rem, 0, 0) == 0, "GetNBI of 0 bytes");
        gex_Event_t lc = (gex_Event_t)(uintptr_t)0x77;
        gex_Event_t e = gex_RMA_PutNB(tm, r, rem, src, 0, &lc, 0);
        CHECK(e == GEX_EVENT_INVALID, "PutNB of 0 bytes returned %p, not GEX_EVENT_INVALID", (void *)e);
        e = gex_RMA_GetNB(tm, dst, r, rem, 0, 0);
        CHECK(e == GEX_EVENT_INVALID, "GetNB of 0 bytes returned %p, not GEX_EVENT_INVALID", (void *)e);
        gex_NBI_Wait(GEX_EC_ALL, 0);
    }
}

static void values(gex_TM_t tm)
{
    for (gex_Rank_t r = 0; r < gex_TM_QuerySize(tm); r++) {
        char *rem = slot_at(gex_TM_TranslateRankToJobrank(tm, r), 64); /* 8-byte aligned */
        for (size_t nb = 1; nb <= 8; nb *= 2) {
            gex_RMA_Value_t mask = nb == 8 ? ~(gex_RMA_Value_t)0 : (((gex_RMA_Value_t)1 << (8 * nb)) - 1);
            gex_RMA_Value_t v = (0xF1E2D3C4B5A69788ull ^ (r * 0x0101010101010101ull) ^ nb) & mask;
            /* the whole word first, so zero extension shows */
            CHECK_OK(gex_RMA_PutBlockingVal(tm, r, rem, ~(gex_RMA_Value_t)0, 8, 0));
            CHECK_OK(gex_RMA_PutBlockingVal(tm, r, rem, v | ~mask, nb, 0)); /* only the low bytes count */
            gex_RMA_Value_t got = gex_RMA_GetBlockingVal(tm, r, rem, nb, 0);
            CHECK(got == v, "GetBlockingVal(%zu) = 0x%" PRIx64 ", PutBlockingVal wrote 0x%" PRIx64, nb, got, v);
            /* native byte order: the same bytes as a C integer of that size */
            unsigned char raw[8];
            CHECK_OK(gex_RMA_GetBlocking(tm, raw, r, rem, 8, 0));
            uint64_t as = 0;
            if (nb == 1) as = raw[0];
            if (nb == 2) { uint16_t x; memcpy(&x, raw, 2); as = x; }
            if (nb == 4) { uint32_t x; memcpy(&x, raw, 4); as = x; }
            if (nb == 8) memcpy(&as, raw, 8);
            CHECK(as == v, "PutBlockingVal(%zu) stored 0x%" PRIx64 " in native order, expected 0x%" PRIx64, nb, as, v);
            for (size_t k = nb; k < 8; k++) CHECK(raw[k] == 0xff, "PutBlockingVal(%zu) wrote byte %zu", nb, k);
            gex_RMA_Value_t w = v ^ (mask & 0x5a5a5a5a5a5a5a5aull);
            gex_Event_Wait(gex_RMA_PutNBVal(tm, r, rem, w, nb, 0));
            CHECK(gex_RMA_GetBlockingVal(tm, r, rem, nb, 0) == w, "PutNBVal(%zu)", nb);
            CHECK_OK(gex_RMA_PutNBIVal(tm, r, rem, v, nb, 0));
            gex_NBI_Wait(GEX_EC_PUT, 0);
            CHECK(gex_RMA_GetBlockingVal(tm, r, rem, nb, 0) == v, "PutNBIVal(%zu)", nb);
        }
    }
}

/* gex_Segment_QueryBound through a team names the member's segment. */
static void bound_on(gex_TM_t tm)
{
    for (gex_Rank_t r = 0; r < gex_TM_QuerySize(tm); r++) {
        gex_Rank_t j = gex_TM_TranslateRankToJobrank(tm, r);
        void *owner = NULL;
        CHECK(gex_Segment_QueryBound(tm, r, &owner, NULL, NULL) == 0 && owner == job_seg[j],
              "QueryBound(team rank %u) = %p, jobrank %u's segment is %p", r, owner, j, job_seg[j]);
    }
}

int main(int argc, char **argv)
{
    if (argc > 1) maxsize = strtoul(argv[1], NULL, 0);
    ex_init(&X, "ex_rma", &argc, &argv, 0);
    wslot = (maxsize + 64 + 63) / 64 * 64;
    /* the split teams' scratch: the MIN size, queried first (the query is
     * collective over the parent) */
    gex_TM_t rev, half;
    size_t sc_rev = gex_TM_Split(&rev, X.tm, 0, (int)(X.n - 1 - X.me), NULL, 0, GEX_FLAG_TM_SCRATCH_SIZE_MIN);
    size_t sc_half = gex_TM_Split(&half, X.tm, (int)(X.me % 2), (int)X.me, NULL, 0, GEX_FLAG_TM_SCRATCH_SIZE_MIN);
    CHECK(sc_rev > 0 && sc_half > 0, "scratch size queries gave %zu and %zu", sc_rev, sc_half);
    size_t sc_rev_al = (sc_rev + 63) / 64 * 64, sc_half_al = (sc_half + 63) / 64 * 64;
    ex_attach(&X, X.n * wslot + sc_rev_al + sc_half_al);
    my_seg = gex_Segment_QueryAddr(X.seg);
    char *scratch = my_seg + X.n * wslot;
    gex_TM_Split(&rev, X.tm, 0, (int)(X.n - 1 - X.me), scratch, sc_rev, 0);
    gex_TM_Split(&half, X.tm, (int)(X.me % 2), (int)X.me, scratch + sc_rev_al, sc_half, 0);
    CHECK(gex_TM_QueryRank(rev) == X.n - 1 - X.me && gex_TM_QuerySize(rev) == X.n, "reversed team: rank %u of %u",
          gex_TM_QueryRank(rev), gex_TM_QuerySize(rev));
    job_seg = calloc(X.n, sizeof *job_seg);
    src = malloc(maxsize + 8);
    dst = malloc(maxsize + 8);
    CHECK(job_seg && src && dst, "out of memory");
    for (gex_Rank_t j = 0; j < X.n; j++) job_seg[j] = ex_peer_seg(X.tm, j, NULL);

    gex_TM_t teams[3] = {X.tm, rev, half};
    const char *const names[3] = {"primordial", "reversed", "parity"};
    for (int t = 0; t < 3; t++) {
        bound_on(teams[t]);
        zero_bytes(teams[t]);
        values(teams[t]);
        team_round(teams[t], t);
        ex_barrier(X.tm);
        MSG0("ex_rma: %s team: every put and get form, sizes 1..%zu, Val forms, 0 bytes: ok", names[t], maxsize);
    }
    MSG0("ex_rma: ok");
    gasnet_exit(0);
}
