/* ex_grid: the ranks as a grid of teams (spec §6.6, §6.7, §8.5, §12.2),
 * from the spec alone: what a client with row and column communicators
 * does.
 *
 *   ex_grid [ROWS]
 *
 * N ranks as R x C: R = ROWS (a divisor of N), by default the most square
 * factoring with R <= C (2x2 at 4, 3x3 at 9, 3x4 at 12, 4x4 at 16; 1xN
 * for a prime N). Jobrank j is in row
 * j / C, column j % C.
 * - gex_TM_Split of the world into row teams and into column teams, each
 *   with scratch from the segment (the RECOMMENDED query's size), ranked
 *   by column (rows) and backwards by row (columns);
 * - gex_TM_Split of each row team keeping its odd members (the others pass
 *   NULL for the new team);
 * - gex_TM_Create of every even jobrank over the world with
 *   GEX_FLAG_TM_LOCAL_SCRATCH (the odd ones pass numargs = 0);
 * - on every team: sizes, ranks, both translations for every jobrank
 *   (GEX_RANK_INVALID for non-members); Short and Medium requests from
 *   every member to every other by team rank, each handler checking with
 *   gex_Token_Info the source jobrank and the endpoint, and replying;
 *   barriers on each team, then on all of them in flight at once;
 * - gex_TM_Destroy of each, handing back the scratch given.
 */
#include "ex_test.h"

static ex_ctx_t X;
static gex_Rank_t R, C; /* grid shape */

#define H_REQ 200
#define H_MED 201
#define H_REP 202
#define MED_LEN 1000

enum { ROW, COL, ODD, EVEN, NTEAMS };
static const char *const tname[NTEAMS] = {"row", "column", "odd members of the row", "even jobranks"};

typedef struct {
    gex_TM_t tm;            /* GEX_TM_INVALID: not a member */
    gex_Rank_t n, me;       /* expected size and rank */
    gex_Rank_t member[256]; /* expected jobrank by team rank */
    void *scratch;
    size_t scratch_size;
} team_t;
static team_t T[NTEAMS];

static volatile int replies;

static void check_token(gex_Token_t t, gex_AM_Arg_t sender, const char *what)
{
    gex_Token_Info_t info;
    gex_TI_t got = gex_Token_Info(t, &info, GEX_TI_SRCRANK | GEX_TI_EP | GEX_TI_IS_REQ);
    CHECK((got & (GEX_TI_SRCRANK | GEX_TI_EP)) == (GEX_TI_SRCRANK | GEX_TI_EP), "%s: Token_Info gave %x",
          what, (unsigned)got);
    CHECK(info.gex_srcrank == (gex_Rank_t)sender, "%s: gex_srcrank %u, sent by jobrank %d", what,
          info.gex_srcrank, sender);
    CHECK(info.gex_ep == X.ep, "%s: delivered on another endpoint", what);
}

/* a0: team kind, a1: the sender's jobrank, a2: the jobrank it meant to reach */
static void req_h(gex_Token_t t, gex_AM_Arg_t kind, gex_AM_Arg_t sender, gex_AM_Arg_t target)
{
    check_token(t, sender, "short request");
    CHECK((gex_Rank_t)target == X.me, "a %s request for jobrank %d reached jobrank %u",
          tname[kind], target, X.me);
    CHECK_OK(gex_AM_ReplyShort1(t, H_REP, 0, (gex_AM_Arg_t)X.me));
}
static void med_h(gex_Token_t t, void *buf, size_t len, gex_AM_Arg_t kind, gex_AM_Arg_t sender,
                  gex_AM_Arg_t target)
{
    check_token(t, sender, "medium request");
    CHECK((gex_Rank_t)target == X.me, "a %s medium for jobrank %d reached jobrank %u",
          tname[kind], target, X.me);
    CHECK(len == MED_LEN, "medium of %zu bytes", len);
    size_t bad = ex_verify(buf, len, (unsigned)sender);
    CHECK(bad == len, "medium from jobrank %d: byte %zu differs", sender, bad);
    CHECK_OK(gex_AM_ReplyShort1(t, H_REP, 0, (gex_AM_Arg_t)X.me));
}
static void rep_h(gex_Token_t t, gex_AM_Arg_t replier)
{
    check_token(t, replier, "reply");
    replies++;
}

/* Every check of a team's shape: queries and both translations. */
static void check_team(int k)
{
    team_t *t = &T[k];
    if (t->tm == GEX_TM_INVALID) return;
    CHECK(gex_TM_QuerySize(t->tm) == t->n, "%s team: size %u, expected %u", tname[k],
          gex_TM_QuerySize(t->tm), t->n);
    CHECK(gex_TM_QueryRank(t->tm) == t->me, "%s team: rank %u, expected %u", tname[k],
          gex_TM_QueryRank(t->tm), t->me);
    CHECK(gex_TM_QueryEP(t->tm) == X.ep, "%s team: another endpoint", tname[k]);
    for (gex_Rank_t r = 0; r < t->n; r++)
        CHECK(gex_TM_TranslateRankToJobrank(t->tm, r) == t->member[r],
              "%s team: rank %u is jobrank %u, expected %u", tname[k], r,
              gex_TM_TranslateRankToJobrank(t->tm, r), t->member[r]);
    for (gex_Rank_t j = 0; j < X.n; j++) {
        gex_Rank_t want = GEX_RANK_INVALID;
        for (gex_Rank_t r = 0; r < t->n; r++)
            if (t->member[r] == j) want = r;
        gex_Rank_t got = gex_TM_TranslateJobrankToRank(t->tm, j);
        CHECK(got == want, "%s team: jobrank %u is rank %u, expected %u", tname[k], j, got, want);
    }
}

/* Short and Medium requests to every other member by team rank, each
 * replied to. */
static void traffic(int k)
{
    team_t *t = &T[k];
    if (t->tm == GEX_TM_INVALID) return;
    char payload[MED_LEN];
    ex_fill(payload, sizeof payload, X.me);
    int want = replies;
    for (gex_Rank_t r = 0; r < t->n; r++) {
        if (r == t->me) continue;
        CHECK_OK(gex_AM_RequestShort3(t->tm, r, H_REQ, 0, k, (gex_AM_Arg_t)X.me, (gex_AM_Arg_t)t->member[r]));
        CHECK_OK(gex_AM_RequestMedium3(t->tm, r, H_MED, payload, sizeof payload, GEX_EVENT_NOW, 0, k,
                                       (gex_AM_Arg_t)X.me, (gex_AM_Arg_t)t->member[r]));
        want += 2;
    }
    GASNET_BLOCKUNTIL(replies == want);
}

/* gex_TM_Split of parent into t: colour < 0 joins nothing. */
static void split(team_t *t, gex_TM_t parent, int colour, int key, void *scratch, size_t size)
{
    t->tm = GEX_TM_INVALID;
    t->scratch = colour >= 0 ? scratch : NULL;
    t->scratch_size = colour >= 0 ? size : 0;
    size_t made = gex_TM_Split(colour >= 0 ? &t->tm : NULL, parent, colour < 0 ? 0 : colour, key,
                               t->scratch, t->scratch_size, 0);
    CHECK((made != 0) == (colour >= 0) && (colour < 0) == (t->tm == GEX_TM_INVALID),
          "gex_TM_Split returned %zu for colour %d", made, colour);
}

int main(int argc, char **argv)
{
    ex_init(&X, "ex_grid", &argc, &argv, 0);
    CHECK(X.n <= 256, "at most 256 ranks (%u)", X.n);
    for (R = 1; (R + 1) * (R + 1) <= X.n; R++) continue;
    while (X.n % R) R--;
    if (argc > 1) R = (gex_Rank_t)atoi(argv[1]);
    CHECK(R >= 1 && X.n % R == 0, "ROWS = %s does not divide %u", argv[1], X.n);
    C = X.n / R;
    gex_Rank_t row = X.me / C, col = X.me % C;

    /* scratch sizes: the world's RECOMMENDED (a row or column team is
     * smaller, so it needs no more), and the MIN of the even team */
    size_t rec = gex_TM_Split(&(gex_TM_t){0}, X.tm, 0, 0, NULL, 0, GEX_FLAG_TM_SCRATCH_SIZE_RECOMMENDED);
    gex_EP_Location_t *even = calloc(X.n, sizeof *even);
    CHECK(even != NULL, "out of memory");
    size_t neven = 0;
    for (gex_Rank_t j = 0; j < X.n; j += 2) even[neven++] = (gex_EP_Location_t){j, 0};
    size_t emin = gex_TM_Create(NULL, 0, X.tm, X.me % 2 ? NULL : even, X.me % 2 ? 0 : neven, NULL, 0,
                                GEX_FLAG_TM_SCRATCH_SIZE_MIN);
    CHECK(X.me % 2 ? emin == 0 : emin > 0, "gex_TM_Create's MIN query gave %zu", emin);
    size_t slot = (rec + 4095) / 4096 * 4096, eslot = (emin + 4095) / 4096 * 4096;
    ex_attach(&X, 3 * slot + eslot);
    char *seg = gex_Segment_QueryAddr(X.seg);
    gex_AM_Entry_t ht[] = {
        {H_REQ, (gex_AM_Fn_t)req_h, GEX_FLAG_AM_SHORT | GEX_FLAG_AM_REQUEST, 3, NULL, "req"},
        {H_MED, (gex_AM_Fn_t)med_h, GEX_FLAG_AM_MEDIUM | GEX_FLAG_AM_REQUEST, 3, NULL, "med"},
        {H_REP, (gex_AM_Fn_t)rep_h, GEX_FLAG_AM_SHORT | GEX_FLAG_AM_REPLY, 1, NULL, "rep"}};
    CHECK_OK(gex_EP_RegisterHandlers(X.ep, ht, 3));
    ex_barrier(X.tm);
    MSG0("ex_grid: %u ranks as a %ux%u grid", X.n, R, C);

    /* rows, ranked by column; columns, ranked backwards by row */
    split(&T[ROW], X.tm, (int)row, (int)col, seg, rec);
    T[ROW].n = C;
    T[ROW].me = col;
    for (gex_Rank_t c = 0; c < C; c++) T[ROW].member[c] = row * C + c;
    split(&T[COL], X.tm, (int)col, -(int)row, seg + slot, rec);
    T[COL].n = R;
    T[COL].me = R - 1 - row;
    for (gex_Rank_t r = 0; r < R; r++) T[COL].member[r] = (R - 1 - r) * C + col;
    /* the odd members of my row, split from the row team */
    split(&T[ODD], T[ROW].tm, col % 2 ? 0 : -1, (int)col, seg + 2 * slot, rec);
    T[ODD].n = C / 2;
    T[ODD].me = col / 2;
    for (gex_Rank_t i = 0; i < C / 2; i++) T[ODD].member[i] = row * C + 2 * i + 1;
    /* every even jobrank, created over the world */
    T[EVEN].tm = GEX_TM_INVALID;
    gex_Addr_t escratch = seg + 3 * slot;
    size_t made = gex_TM_Create(&T[EVEN].tm, X.me % 2 ? 0 : 1, X.tm, X.me % 2 ? NULL : even,
                                X.me % 2 ? 0 : neven, &escratch, emin, GEX_FLAG_TM_LOCAL_SCRATCH);
    CHECK((made != 0) == (X.me % 2 == 0), "gex_TM_Create returned %zu", made);
    if (X.me % 2 == 0) {
        T[EVEN].scratch = escratch;
        T[EVEN].scratch_size = emin;
    }
    T[EVEN].n = (gex_Rank_t)neven;
    T[EVEN].me = X.me / 2;
    for (size_t i = 0; i < neven; i++) T[EVEN].member[i] = even[i].gex_rank;
    for (int k = 0; k < NTEAMS; k++) check_team(k);
    MSG0("ex_grid: splits and create, sizes, ranks and translations: ok");

    for (int k = 0; k < NTEAMS; k++) {
        traffic(k);
        if (T[k].tm != GEX_TM_INVALID) ex_barrier(T[k].tm);
    }
    ex_barrier(X.tm);
    MSG0("ex_grid: AMs and barriers on every team: ok");

    /* barriers on every team of mine in flight at once (the same order at
     * every member), then the world's */
    gex_Event_t ev[NTEAMS + 1];
    size_t nev = 0;
    for (int k = 0; k < NTEAMS; k++)
        if (T[k].tm != GEX_TM_INVALID) ev[nev++] = gex_Coll_BarrierNB(T[k].tm, 0);
    ev[nev++] = gex_Coll_BarrierNB(X.tm, 0);
    gex_Event_WaitAll(ev, nev, 0);
    MSG0("ex_grid: barriers in flight together: ok");

    /* destruction, innermost first; each hands its scratch back */
    for (int k = NTEAMS - 1; k >= 0; k--) {
        if (T[k].tm == GEX_TM_INVALID) continue;
        gex_Memvec_t back = {0};
        int wrote = gex_TM_Destroy(T[k].tm, &back, 0);
        CHECK(wrote && back.gex_addr == T[k].scratch && back.gex_len == T[k].scratch_size,
              "%s team: gex_TM_Destroy returned %d with [%p, +%zu), given [%p, +%zu)", tname[k], wrote,
              back.gex_addr, back.gex_len, T[k].scratch, T[k].scratch_size);
    }
    ex_barrier(X.tm);
    free(even);
    MSG0("ex_grid: gex_TM_Destroy: ok");
    MSG0("ex_grid: ok");
    gasnet_exit(0);
}
