/* ex_teams: GASNet-EX teams (spec §6.6, §6.7, §12.2), from the spec
 * alone.
 *
 *   ex_teams
 *
 * - gex_TM_Split's scratch-size queries: MIN <= RECOMMENDED, 0 for a NULL
 *   new_tm_p, *new_tm_p untouched, the same on every member of a would-be
 *   team (exchanged through the segments);
 * - splits by colour with keys that tie (ties broken by parent rank) and
 *   run backwards,
 *   with jobrank 1 joining nothing (NULL new_tm_p), a team of one per
 *   rank, and splits of a split; on each team every query, CData, the
 *   three translations (GEX_RANK_INVALID for non-members), QueryBound,
 *   AMs by team rank (the handler sees the sender's jobrank, §8.5),
 *   puts by team rank, and gex_Coll_BarrierNB (each member puts a round
 *   number to every other before the barrier and sees all of them after
 *   it), with barriers on two teams in flight at once;
 * - gex_TM_Destroy: non-zero exactly when it hands the client's scratch
 *   back (address and length as given to the split), 0 with a NULL
 *   scratch_p, GEX_FLAG_GLOBALLY_QUIESCED, and the scratch reused by a
 *   new split.
 */
#include "ex_test.h"

static ex_ctx_t X;
static char *my_seg;
static void **seg_of;
/* segment layout (room for 1024 ranks) */
#define FLAGS_OFF 0          /* [jobrank] round numbers written by each rank: 4 bytes each */
#define TABLE_OFF 4096       /* [jobrank][4] query results: 32 bytes each */
#define SCRATCH_OFF 65536    /* scratch areas, SCRATCH_SLOT each */
static size_t scratch_slot;

#define H_REQ 200
#define H_REP 201
static volatile int replies;

/* a0: the jobrank the sender meant to reach, a1: sender's jobrank */
static void req_h(gex_Token_t t, gex_AM_Arg_t target, gex_AM_Arg_t sender)
{
    gex_Token_Info_t info;
    CHECK(gex_Token_Info(t, &info, GEX_TI_SRCRANK) & GEX_TI_SRCRANK, "no SRCRANK");
    CHECK((gex_Rank_t)target == X.me, "an AM for jobrank %d reached jobrank %u", target, X.me);
    CHECK(info.gex_srcrank == (gex_Rank_t)sender, "gex_srcrank %u, sent by jobrank %d", info.gex_srcrank, sender);
    CHECK_OK(gex_AM_ReplyShort1(t, H_REP, 0, (gex_AM_Arg_t)X.me));
}
static void rep_h(gex_Token_t t, gex_AM_Arg_t replier)
{
    gex_Token_Info_t info;
    CHECK(gex_Token_Info(t, &info, GEX_TI_SRCRANK) & GEX_TI_SRCRANK, "no SRCRANK");
    CHECK(info.gex_srcrank == (gex_Rank_t)replier, "reply srcrank %u from jobrank %d", info.gex_srcrank, replier);
    replies++;
}

typedef struct {
    gex_TM_t tm;
    int member;              /* did I pass a non-NULL new_tm_p */
    gex_Rank_t n;            /* expected size */
    gex_Rank_t *jobrank;     /* expected members by rank (room for X.n) */
    void *scratch;
    size_t scratch_size;
} team_t;

/* The expected membership of my colour: every jobrank j with
 * member(j) and colour(j) == mine, ordered by (key, parent rank). */
static void expect(team_t *t, gex_TM_t parent, const int *colour, const int *key, const int *member)
{
    gex_Rank_t pn = gex_TM_QuerySize(parent), pme = gex_TM_QueryRank(parent);
    t->n = 0;
    for (gex_Rank_t pr = 0; pr < pn; pr++)
        if (member[pr] && colour[pr] == colour[pme]) {
            gex_Rank_t k = t->n++;
            CHECK(k < X.n, "too many ranks");
            /* insertion by (key, parent rank): parent ranks arrive in order */
            while (k > 0 && key[t->jobrank[k - 1]] > key[pr]) {
                t->jobrank[k] = t->jobrank[k - 1];
                k--;
            }
            t->jobrank[k] = pr; /* parent rank for now */
        }
    for (gex_Rank_t k = 0; k < t->n; k++) t->jobrank[k] = gex_TM_TranslateRankToJobrank(parent, t->jobrank[k]);
}

/* Splits parent (GEX_TM_INVALID: I am not in it, but take part in the
 * exchanges over the whole job). colour/key/member are indexed by parent
 * rank. */
static void split(team_t *t, gex_TM_t parent, const int *colour, const int *key, const int *member, int area)
{
    memset(t, 0, sizeof *t);
    t->tm = GEX_TM_INVALID;
    t->jobrank = calloc(X.n, sizeof *t->jobrank);
    CHECK(t->jobrank != NULL, "out of memory");
    int in_parent = parent != GEX_TM_INVALID;
    gex_Rank_t pme = in_parent ? gex_TM_QueryRank(parent) : 0;
    t->member = in_parent && member[pme];
    if (t->member) expect(t, parent, colour, key, member);
    size_t min = 0, rec = 0;
    if (in_parent) {
        gex_TM_t sentinel = (gex_TM_t)(uintptr_t)0x5a5a0, q = sentinel;
        min = gex_TM_Split(t->member ? &q : NULL, parent, colour[pme], key[pme], NULL, 0, GEX_FLAG_TM_SCRATCH_SIZE_MIN);
        rec = gex_TM_Split(t->member ? &q : NULL, parent, colour[pme], key[pme], NULL, 0,
                           GEX_FLAG_TM_SCRATCH_SIZE_RECOMMENDED);
        CHECK(q == sentinel, "a scratch-size query wrote *new_tm_p");
        if (!t->member) CHECK(min == 0 && rec == 0, "scratch-size queries for a NULL new_tm_p gave %zu and %zu", min, rec);
        else CHECK(min > 0 && min <= rec, "scratch sizes MIN %zu, RECOMMENDED %zu", min, rec);
    }
    /* single-valued over the would-be team: publish (member, colour, min, rec) */
    uint64_t row[4] = {(uint64_t)t->member, (uint64_t)(t->member ? colour[pme] : -1), min, rec};
    for (gex_Rank_t j = 0; j < X.n; j++)
        CHECK_OK(gex_RMA_PutBlocking(X.tm, j, (char *)seg_of[j] + TABLE_OFF + X.me * sizeof row, row, sizeof row, 0));
    ex_barrier(X.tm);
    for (gex_Rank_t k = 0; t->member && k < t->n; k++) {
        const uint64_t *o = (const uint64_t *)(my_seg + TABLE_OFF) + 4 * t->jobrank[k];
        CHECK(o[0] == 1 && o[1] == row[1] && o[2] == min && o[3] == rec,
              "jobrank %u (same would-be team) got MIN %" PRIu64 " RECOMMENDED %" PRIu64 ", I got %zu %zu", t->jobrank[k],
              o[2], o[3], min, rec);
    }
    ex_barrier(X.tm);
    if (!in_parent) return;
    /* the split itself: RECOMMENDED scratch when it fits, else MIN */
    size_t size = rec <= scratch_slot ? rec : min;
    CHECK(size <= scratch_slot, "scratch of %zu bytes does not fit", size);
    t->scratch = t->member ? my_seg + SCRATCH_OFF + (size_t)area * scratch_slot : NULL;
    t->scratch_size = t->member ? size : 0;
    (void)gex_TM_Split(t->member ? &t->tm : NULL, parent, colour[pme], key[pme], t->scratch, t->scratch_size, 0);
    if (t->member) CHECK(t->tm != GEX_TM_INVALID, "gex_TM_Split gave no team");
}

static void check_team(team_t *t, const char *name)
{
    if (!t->member) return;
    gex_TM_t tm = t->tm;
    CHECK(gex_TM_QuerySize(tm) == t->n, "%s: size %u, expected %u", name, gex_TM_QuerySize(tm), t->n);
    gex_Rank_t me = gex_TM_QueryRank(tm);
    CHECK(me < t->n && t->jobrank[me] == X.me, "%s: my rank %u", name, me);
    CHECK(gex_TM_QueryClient(tm) == X.client && gex_TM_QueryEP(tm) == X.ep, "%s: client or EP", name);
    (void)gex_TM_QueryFlags(tm);
    CHECK(gex_TM_QueryCData(tm) == NULL, "%s: a new team's CData", name);
    gex_TM_SetCData(tm, t);
    CHECK(gex_TM_QueryCData(tm) == t && gex_TM_QueryCData(X.tm) != t, "%s: CData", name);
    for (gex_Rank_t r = 0; r < t->n; r++) {
        CHECK(gex_TM_TranslateRankToJobrank(tm, r) == t->jobrank[r], "%s: rank %u is jobrank %u, expected %u", name, r,
              gex_TM_TranslateRankToJobrank(tm, r), t->jobrank[r]);
        gex_EP_Location_t loc = gex_TM_TranslateRankToEP(tm, r, 0);
        CHECK(loc.gex_rank == t->jobrank[r] && loc.gex_ep_index == 0, "%s: RankToEP(%u) = {%u, %u}", name, r,
              loc.gex_rank, (unsigned)loc.gex_ep_index);
        void *owner = NULL;
        CHECK(gex_Segment_QueryBound(tm, r, &owner, NULL, NULL) == 0 && owner == seg_of[t->jobrank[r]],
              "%s: QueryBound(rank %u)", name, r);
    }
    for (gex_Rank_t j = 0; j < X.n; j++) {
        gex_Rank_t want = GEX_RANK_INVALID;
        for (gex_Rank_t r = 0; r < t->n; r++)
            if (t->jobrank[r] == j) want = r;
        CHECK(gex_TM_TranslateJobrankToRank(tm, j) == want, "%s: JobrankToRank(%u) = %u, expected %u", name, j,
              gex_TM_TranslateJobrankToRank(tm, j), want);
    }
}

/* AMs and puts by team rank, then the barrier's ordering. */
static void traffic(team_t *t, const char *name, unsigned round)
{
    if (!t->member) return;
    gex_TM_t tm = t->tm;
    replies = 0;
    for (gex_Rank_t r = 0; r < t->n; r++)
        CHECK_OK(gex_AM_RequestShort2(tm, r, H_REQ, 0, (gex_AM_Arg_t)t->jobrank[r], (gex_AM_Arg_t)X.me));
    GASNET_BLOCKUNTIL(replies == (int)t->n);
    /* each member writes the round number into my flag at every member */
    uint32_t v = round;
    for (gex_Rank_t r = 0; r < t->n; r++)
        CHECK_OK(gex_RMA_PutBlocking(tm, r, (char *)seg_of[t->jobrank[r]] + FLAGS_OFF + X.me * 4, &v, 4, 0));
    ex_barrier(tm);
    for (gex_Rank_t r = 0; r < t->n; r++) {
        uint32_t got;
        memcpy(&got, my_seg + FLAGS_OFF + t->jobrank[r] * 4, 4);
        CHECK(got == round, "%s: after the barrier, jobrank %u's round is %u, expected %u", name, t->jobrank[r], got,
              round);
    }
    ex_barrier(tm);
}

static void destroy(team_t *t, int hand_back, gex_Flags_t flags)
{
    free(t->jobrank);
    t->jobrank = NULL;
    if (!t->member) return;
    gex_Memvec_t sv = {(void *)1, 1};
    int rc = gex_TM_Destroy(t->tm, hand_back ? &sv : NULL, flags);
    if (hand_back) {
        CHECK(rc != 0, "gex_TM_Destroy returned 0 though the client gave scratch");
        CHECK(sv.gex_addr == t->scratch && sv.gex_len == t->scratch_size,
              "gex_TM_Destroy handed back [%p, +%zu), the split got [%p, +%zu)", sv.gex_addr, sv.gex_len, t->scratch,
              t->scratch_size);
    } else {
        CHECK(rc == 0, "gex_TM_Destroy with a NULL scratch_p returned %d", rc);
    }
}

int main(int argc, char **argv)
{
    ex_init(&X, "ex_teams", &argc, &argv, 0);
    CHECK((size_t)X.n * 4 <= TABLE_OFF - FLAGS_OFF && (size_t)X.n * 32 <= SCRATCH_OFF - TABLE_OFF,
          "%u ranks: the segment layout has room for %d", X.n, (TABLE_OFF - FLAGS_OFF) / 4);
    /* the scratch each split needs, before the segment exists (the query
     * needs none): the largest RECOMMENDED size of a whole-job split */
    size_t rec = gex_TM_Split(&(gex_TM_t){0}, X.tm, 0, 0, NULL, 0, GEX_FLAG_TM_SCRATCH_SIZE_RECOMMENDED);
    size_t min = gex_TM_Split(&(gex_TM_t){0}, X.tm, 0, 0, NULL, 0, GEX_FLAG_TM_SCRATCH_SIZE_MIN);
    /* a split that creates nothing anywhere */
    (void)gex_TM_Split(NULL, X.tm, 0, 0, NULL, 0, 0);
    scratch_slot = (rec <= 4 << 20 ? rec : min);
    scratch_slot = (scratch_slot + 4095) / 4096 * 4096;
    ex_attach(&X, SCRATCH_OFF + 8 * scratch_slot);
    my_seg = gex_Segment_QueryAddr(X.seg);
    seg_of = calloc(X.n, sizeof *seg_of);
    CHECK(seg_of != NULL, "out of memory");
    for (gex_Rank_t j = 0; j < X.n; j++) seg_of[j] = ex_peer_seg(X.tm, j, NULL);
    gex_AM_Entry_t ht[] = {{H_REQ, (gex_AM_Fn_t)req_h, GEX_FLAG_AM_SHORT | GEX_FLAG_AM_REQUEST, 2, NULL, "req"},
                           {H_REP, (gex_AM_Fn_t)rep_h, GEX_FLAG_AM_SHORT | GEX_FLAG_AM_REPLY, 1, NULL, "rep"}};
    CHECK_OK(gex_EP_RegisterHandlers(X.ep, ht, 2));
    ex_barrier(X.tm);

    /* indexed by parent rank: up to X.n entries */
    int *colour = calloc(X.n, sizeof *colour), *key = calloc(X.n, sizeof *key),
        *member = calloc(X.n, sizeof *member);
    CHECK(colour && key && member, "out of memory");
    unsigned round = 1;
    /* A: jobranks 0..3 in colour 0 with keys 5, -, 3, 3 (order 2, 3, 0:
     * a tie kept in parent order, jobrank 0 last), the rest in colour 1
     * backwards; jobrank 1 joins nothing */
    for (gex_Rank_t j = 0; j < X.n; j++) {
        colour[j] = j < 4 ? 0 : 1;
        key[j] = j == 0 ? 5 : j < 4 ? 3 : -(int)j;
        member[j] = j != 1;
    }
    team_t a, one, aa;
    split(&a, X.tm, colour, key, member, 0);
    check_team(&a, "A");
    traffic(&a, "A", round++);
    /* a team of one per rank */
    for (gex_Rank_t j = 0; j < X.n; j++) {
        colour[j] = (int)j;
        key[j] = 0;
        member[j] = 1;
    }
    split(&one, X.tm, colour, key, member, 1);
    check_team(&one, "one");
    traffic(&one, "one", round++);
    /* a split of A: by the parity of the rank in A, all keys equal (parent order) */
    int *acolour = calloc(X.n, sizeof *acolour), *akey = calloc(X.n, sizeof *akey),
        *amember = calloc(X.n, sizeof *amember);
    CHECK(acolour && akey && amember, "out of memory");
    if (a.member) {
        for (gex_Rank_t r = 0; r < a.n; r++) {
            acolour[r] = (int)(r % 2);
            akey[r] = 7;
            amember[r] = 1;
        }
        split(&aa, a.tm, acolour, akey, amember, 2);
    } else {
        split(&aa, GEX_TM_INVALID, acolour, akey, amember, 2);
    }
    check_team(&aa, "A/A");
    traffic(&aa, "A/A", round++);
    /* barriers on two teams in flight at once (same order everywhere) */
    if (a.member) {
        gex_Event_t ev[2] = {gex_Coll_BarrierNB(a.tm, 0), gex_Coll_BarrierNB(X.tm, 0)};
        gex_Event_WaitAll(ev, 2, 0);
    } else {
        ex_barrier(X.tm);
    }
    traffic(&one, "one", round++);
    MSG0("ex_teams: splits (ties, non-members, teams of one, split of a split), queries, translations, AMs, "
         "puts and barriers on every team: ok");

    /* destroy: hand the scratch back, or not; GLOBALLY_QUIESCED */
    ex_barrier(X.tm);
    destroy(&aa, 1, 0);
    destroy(&one, 0, 0);
    ex_barrier(X.tm); /* every member is done with A before any destroys it */
    destroy(&a, 1, GEX_FLAG_GLOBALLY_QUIESCED);
    /* the scratch is the client's again: reuse it for a new split */
    for (gex_Rank_t j = 0; j < X.n; j++) {
        colour[j] = 0;
        key[j] = (int)(X.n - j);
        member[j] = 1;
    }
    team_t b;
    split(&b, X.tm, colour, key, member, 0);
    check_team(&b, "B");
    traffic(&b, "B", round++);
    destroy(&b, 1, 0);
    ex_barrier(X.tm);
    MSG0("ex_teams: gex_TM_Destroy and scratch reuse: ok");
    free(colour);
    free(key);
    free(member);
    free(acolour);
    free(akey);
    free(amember);
    MSG0("ex_teams: ok");
    gasnet_exit(0);
}
