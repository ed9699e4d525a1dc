/* ex_objects: the GASNet-EX objects and queries (spec §5-7, §18.6), from
 * the spec alone.
 *
 *   ex_objects [any|shm|am] [argv]
 *
 * In order: gex_Client_Init's argument errors (a NULL output pointer or
 * name is an error returned before anything starts, so a correct call
 * still works after it), then the real init with a lowercase name and
 * NULL argc/argv ("argv": with main's); every client, EP and team query,
 * CData, the primordial team's identities; job, neighbourhood and host
 * queries against gasnet_getNodeInfo; AM Short/Medium traffic and every
 * barrier form before any segment exists (§6.1), during which each rank
 * sends its view to all; gex_Segment_QueryBound before and after
 * gex_Segment_Attach, with the local mapping expected per the first
 * argument: "shm" (the default RMA path) requires a working mapping of
 * every peer in the caller's neighbourhood, "am" (GASNET_RMA=am) none for
 * any peer, "any" only checks a mapping that is given; then
 * gex_EP_RegisterHandlers' index rules until the client index space is
 * full.
 */
#include "ex_test.h"

/* What each rank tells every other before a segment exists. */
typedef struct {
    gex_Rank_t jobrank, size;
    gex_Rank_t nbrhd_size, nbrhd_rank, host_size, host_rank;
    gex_Rank_t nbrhd_count, host_count;
    uint64_t seg_addr, seg_size; /* 0 before attach */
} view_t;

static gex_Rank_t me, nranks;
static view_t *views;            /* [nranks], filled by view_h */
static volatile int views_in, acks_in;
static gex_EP_t ep0;

#define H_VIEW 200
#define H_ACK 201

static void view_h(gex_Token_t t, void *buf, size_t nbytes, gex_AM_Arg_t phase)
{
    gex_Token_Info_t info;
    gex_TI_t got = gex_Token_Info(t, &info, GEX_TI_SRCRANK | GEX_TI_EP);
    CHECK((got & (GEX_TI_SRCRANK | GEX_TI_EP)) == (GEX_TI_SRCRANK | GEX_TI_EP),
          "gex_Token_Info returned mask 0x%x, lacking a required bit", got);
    CHECK(info.gex_ep == ep0, "token's EP is not the primordial EP");
    CHECK(nbytes == sizeof(view_t), "view of %zu bytes", nbytes);
    CHECK((uintptr_t)buf % _Alignof(max_align_t) == 0, "Medium buffer %p not aligned for any type", buf);
    const view_t *v = buf;
    CHECK(v->jobrank == info.gex_srcrank, "view from %u names jobrank %u", info.gex_srcrank, v->jobrank);
    CHECK(info.gex_srcrank < nranks, "srcrank %u", info.gex_srcrank);
    views[info.gex_srcrank] = *v;
    views_in++;
    CHECK_OK(gex_AM_ReplyShort1(t, H_ACK, 0, phase));
}

static void ack_h(gex_Token_t t, gex_AM_Arg_t phase)
{
    (void)t;
    (void)phase;
    acks_in++;
}

/* Sends my view to every rank (self included) and waits for every view
 * and every ack: AM traffic with replies. */
static void exchange(gex_TM_t tm, const view_t *mine, int phase)
{
    views_in = acks_in = 0;
    gasnet_barrier(phase, 0); /* nobody resets the counters after a peer's AM arrived */
    for (gex_Rank_t r = 0; r < nranks; r++)
        CHECK_OK(gex_AM_RequestMedium1(tm, r, H_VIEW, mine, sizeof *mine, GEX_EVENT_NOW, 0, phase));
    GASNET_BLOCKUNTIL(views_in == (int)nranks && acks_in == (int)nranks);
    gasnet_barrier(phase + 1, 0);
}

static void check_info(const char *what, gex_RankInfo_t *info, gex_Rank_t count, gex_Rank_t my_index)
{
    CHECK(count >= 1, "%s: count %u", what, count);
    CHECK(info != NULL, "%s: NULL info", what);
    CHECK(my_index < count, "%s: my index %u of %u", what, my_index, count);
    CHECK(info[my_index].gex_jobrank == me, "%s: entry %u is jobrank %u, not me (%u)", what, my_index,
          info[my_index].gex_jobrank, me);
    for (gex_Rank_t i = 0; i < count; i++) {
        CHECK(info[i].gex_jobrank < nranks, "%s: entry %u is jobrank %u", what, i, info[i].gex_jobrank);
        if (i) CHECK(info[i - 1].gex_jobrank < info[i].gex_jobrank, "%s: not sorted at entry %u", what, i);
    }
}

static int in_info(gex_RankInfo_t *info, gex_Rank_t count, gex_Rank_t jobrank)
{
    for (gex_Rank_t i = 0; i < count; i++)
        if (info[i].gex_jobrank == jobrank) return 1;
    return 0;
}

/* §7.1, §7.2 against each other and against gasnet_getNodeInfo. */
static void system_queries(view_t *mine, gex_RankInfo_t **nb_p, gex_Rank_t *nb_count_p)
{
    CHECK(gex_System_QueryJobRank() == me && gex_System_QueryJobSize() == nranks,
          "job rank/size %u/%u vs primordial team %u/%u", gex_System_QueryJobRank(),
          gex_System_QueryJobSize(), me, nranks);
    gex_RankInfo_t *nb = NULL, *host = NULL;
    gex_Rank_t nb_count = 0, nb_me = 99, host_count = 0, host_me = 99;
    gex_System_QueryNbrhdInfo(&nb, &nb_count, &nb_me);
    check_info("gex_System_QueryNbrhdInfo", nb, nb_count, nb_me);
    gex_System_QueryHostInfo(&host, &host_count, &host_me);
    check_info("gex_System_QueryHostInfo", host, host_count, host_me);
    /* every output may be NULL, and the answers are stable */
    gex_System_QueryNbrhdInfo(NULL, NULL, NULL);
    gex_System_QueryHostInfo(NULL, NULL, NULL);
    gex_Rank_t c2 = 0;
    gex_System_QueryNbrhdInfo(NULL, &c2, NULL);
    CHECK(c2 == nb_count, "nbrhd count only: %u, before %u", c2, nb_count);
    gex_RankInfo_t *again = NULL;
    gex_System_QueryHostInfo(&again, NULL, NULL);
    CHECK(again != NULL && again[host_me].gex_jobrank == me, "host info alone");
    /* a host contains the neighbourhood */
    CHECK(host_count >= nb_count, "host of %u < neighbourhood of %u", host_count, nb_count);
    for (gex_Rank_t i = 0; i < nb_count; i++)
        CHECK(in_info(host, host_count, nb[i].gex_jobrank), "jobrank %u in my neighbourhood, not my host",
              nb[i].gex_jobrank);

    gex_Rank_t nbs = 0, nbr = 0, hs = 0, hr = 0;
    gex_System_QueryMyPosition(&nbs, &nbr, &hs, &hr);
    CHECK(nbs >= 1 && nbr < nbs && hs >= 1 && hr < hs, "MyPosition %u/%u %u/%u", nbr, nbs, hr, hs);
    CHECK(hs <= nbs, "%u hosts but %u neighbourhoods", hs, nbs);
    gex_System_QueryMyPosition(NULL, NULL, NULL, NULL);
    gex_Rank_t x = 99;
    gex_System_QueryMyPosition(NULL, &x, NULL, NULL);
    CHECK(x == nbr, "MyPosition nbrhd rank alone: %u, before %u", x, nbr);

    /* gasnet_getNodeInfo: the neighbourhood is the ranks with my supernode,
     * the host the ranks with my host, and MyPosition's indices are those
     * values (§7.2) */
    gasnet_nodeinfo_t *ni = calloc(nranks, sizeof *ni);
    CHECK(ni != NULL, "out of memory");
    CHECK_OK(gasnet_getNodeInfo(ni, (int)nranks));
    CHECK(ni[me].supernode == nbr, "gasnet_getNodeInfo supernode %u, MyPosition nbrhd %u", ni[me].supernode, nbr);
    CHECK(ni[me].host == hr, "gasnet_getNodeInfo host %u, MyPosition host %u", ni[me].host, hr);
    gex_Rank_t same_sn = 0, same_host = 0;
    for (gex_Rank_t j = 0; j < nranks; j++) {
        int in_nb = in_info(nb, nb_count, j), in_host = in_info(host, host_count, j);
        CHECK(in_nb == (ni[j].supernode == ni[me].supernode), "jobrank %u: in my nbrhd %d, supernode %u vs %u", j,
              in_nb, ni[j].supernode, ni[me].supernode);
        CHECK(in_host == (ni[j].host == ni[me].host), "jobrank %u: in my host %d, host %u vs %u", j, in_host,
              ni[j].host, ni[me].host);
        same_sn += ni[j].supernode == ni[me].supernode;
        same_host += ni[j].host == ni[me].host;
    }
    CHECK(same_sn == nb_count && same_host == host_count, "counts %u/%u vs %u/%u", same_sn, nb_count,
          same_host, host_count);
    /* the number of neighbourhoods (hosts) is the number of distinct values */
    gex_Rank_t distinct_sn = 0, distinct_host = 0;
    for (gex_Rank_t j = 0; j < nranks; j++) {
        int seen_sn = 0, seen_host = 0;
        for (gex_Rank_t k = 0; k < j; k++) {
            seen_sn |= ni[k].supernode == ni[j].supernode;
            seen_host |= ni[k].host == ni[j].host;
        }
        distinct_sn += !seen_sn;
        distinct_host += !seen_host;
    }
    CHECK(distinct_sn == nbs && distinct_host == hs, "%u supernodes / %u hosts in gasnet_getNodeInfo, "
          "MyPosition says %u / %u", distinct_sn, distinct_host, nbs, hs);
    free(ni);

    mine->nbrhd_size = nbs;
    mine->nbrhd_rank = nbr;
    mine->host_size = hs;
    mine->host_rank = hr;
    mine->nbrhd_count = nb_count;
    mine->host_count = host_count;
    *nb_p = nb;
    *nb_count_p = nb_count;
}

/* Every rank got the same set sizes; equal indices iff same set. */
static void compare_views(gex_RankInfo_t *nb, gex_Rank_t nb_count)
{
    for (gex_Rank_t j = 0; j < nranks; j++) {
        const view_t *v = &views[j], *m = &views[me];
        CHECK(v->size == nranks, "jobrank %u says job size %u", j, v->size);
        CHECK(v->nbrhd_size == m->nbrhd_size && v->host_size == m->host_size,
              "jobrank %u sees %u nbrhds / %u hosts, I see %u / %u", j, v->nbrhd_size, v->host_size,
              m->nbrhd_size, m->host_size);
        int in_nb = in_info(nb, nb_count, j);
        CHECK(in_nb == (v->nbrhd_rank == m->nbrhd_rank), "jobrank %u: in my nbrhd %d, index %u vs mine %u", j,
              in_nb, v->nbrhd_rank, m->nbrhd_rank);
        if (in_nb) CHECK(v->nbrhd_count == m->nbrhd_count, "jobrank %u: nbrhd of %u, mine %u", j,
                         v->nbrhd_count, m->nbrhd_count);
    }
}

static void client_ep_tm_queries(gex_Client_t client, gex_EP_t ep, gex_TM_t tm, const char *name)
{
    CHECK(client != NULL && ep != NULL && tm != GEX_TM_INVALID, "gex_Client_Init outputs");
    CHECK(gex_Client_QueryFlags(client) == 0, "client flags 0x%x, Init got 0", gex_Client_QueryFlags(client));
    CHECK(!strcmp(gex_Client_QueryName(client), name), "client name '%s', Init got '%s'",
          gex_Client_QueryName(client), name);
    int d1, d2, d3, d4;
    CHECK(gex_Client_QueryCData(client) == NULL, "new client's CData");
    gex_Client_SetCData(client, &d1);
    CHECK(gex_Client_QueryCData(client) == &d1, "client CData");
    CHECK(gex_EP_QueryClient(ep) == client, "EP's client");
    CHECK(gex_EP_QueryIndex(ep) == 0, "primordial EP index %u", (unsigned)gex_EP_QueryIndex(ep));
    CHECK(gex_EP_QuerySegment(ep) == GEX_SEGMENT_INVALID, "EP has a segment before any attach");
    CHECK(gex_EP_QueryCData(ep) == NULL, "new EP's CData");
    gex_EP_SetCData(ep, &d2);
    CHECK(gex_EP_QueryCData(ep) == &d2, "EP CData");
    CHECK(gex_TM_QueryClient(tm) == client, "team's client");
    CHECK(gex_TM_QueryEP(tm) == ep, "team's EP");
    CHECK(gex_TM_QueryRank(tm) == gex_System_QueryJobRank(), "primordial rank %u, jobrank %u",
          gex_TM_QueryRank(tm), gex_System_QueryJobRank());
    CHECK(gex_TM_QuerySize(tm) == gex_System_QueryJobSize(), "primordial size");
    CHECK(gex_TM_QueryCData(tm) == NULL, "new team's CData");
    gex_TM_SetCData(tm, &d3);
    CHECK(gex_TM_QueryCData(tm) == &d3, "team CData");
    gex_TM_SetCData(tm, NULL);
    CHECK(gex_TM_QueryCData(tm) == NULL, "team CData reset");
    gex_Client_SetCData(client, &d4);
    CHECK(gex_Client_QueryCData(client) == &d4 && gex_EP_QueryCData(ep) == &d2, "CData are per object");
    (void)gex_TM_QueryFlags(tm);
    (void)gex_EP_QueryFlags(ep);
    /* the primordial team's translations are identities (§6.6) */
    for (gex_Rank_t r = 0; r < nranks; r++) {
        CHECK(gex_TM_TranslateRankToJobrank(tm, r) == r, "RankToJobrank(%u) = %u", r,
              gex_TM_TranslateRankToJobrank(tm, r));
        CHECK(gex_TM_TranslateJobrankToRank(tm, r) == r, "JobrankToRank(%u) = %u", r,
              gex_TM_TranslateJobrankToRank(tm, r));
        gex_EP_Location_t loc = gex_TM_TranslateRankToEP(tm, r, 0);
        CHECK(loc.gex_rank == r && loc.gex_ep_index == 0, "RankToEP(%u) = {%u, %u}", r, loc.gex_rank,
              (unsigned)loc.gex_ep_index);
    }
    uintptr_t maxlocal = gasnet_getMaxLocalSegmentSize(), maxglobal = gasnet_getMaxGlobalSegmentSize();
    CHECK(maxlocal >= maxglobal && maxglobal >= GASNET_PAGESIZE, "max segment sizes local %" PRIuPTR
          " global %" PRIuPTR, maxlocal, maxglobal);
}

/* ---- constants and types (§1-3, §10.1, §11.1, §13, §18.1): each flag
 * of a group non-zero and distinct from the others, the handle values,
 * the type widths clients rely on */
#if !defined(GEX_SPEC_VERSION_MAJOR) || !defined(GEX_SPEC_VERSION_MINOR) || \
    GEX_SPEC_VERSION_MAJOR != 0 || GEX_SPEC_VERSION_MINOR < 10
#error "GEX_SPEC_VERSION_* missing or older than 0.10"
#endif
#if !defined(GASNET_RELEASE_VERSION_MAJOR) || GASNET_RELEASE_VERSION_MAJOR == 1
#error "GASNET_RELEASE_VERSION_MAJOR missing, or 1 (EX releases are YEAR.MONTH.PATCH)"
#endif
#if SIZEOF_GEX_RMA_VALUE_T != 8 || !defined(GASNET_MAXEPS) || !defined(GASNET_HIDDEN_AM_CONCURRENCY_LEVEL) || \
    GEX_AM_INDEX_BASE > 128 || !defined(GASNET_NULL_ARGV_OK)
#error "a limit or feature macro of §1.4 is missing or out of range"
#endif

/* Flags of one group: each non-zero, no two sharing a bit. */
static void distinct(const char *group, const gex_Flags_t *f, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        CHECK(f[i] != 0, "%s group, entry %zu is 0: %s", group, i, group);
        for (size_t j = 0; j < i; j++)
            CHECK((f[i] & f[j]) == 0, "%s group: entries %zu (0x%x) and %zu (0x%x) share bits", group, j, f[j], i, f[i]);
    }
}
#define GROUP(name, ...)                                    \
    do {                                                    \
        const gex_Flags_t f_[] = {__VA_ARGS__};             \
        distinct(name " (" #__VA_ARGS__ ")", f_, EX_NELEM(f_)); \
    } while (0)

static void constants(void)
{
    GROUP("initiation", GEX_FLAG_IMMEDIATE, GEX_FLAG_SELF_SEG_UNKNOWN, GEX_FLAG_SELF_SEG_SOME, GEX_FLAG_SELF_SEG_BOUND,
          GEX_FLAG_SELF_SEG_OFFSET, GEX_FLAG_PEER_SEG_UNKNOWN, GEX_FLAG_PEER_SEG_SOME, GEX_FLAG_PEER_SEG_BOUND,
          GEX_FLAG_PEER_SEG_OFFSET);
    GROUP("prepare", GEX_FLAG_AM_PREPARE_LEAST_CLIENT, GEX_FLAG_AM_PREPARE_LEAST_ALLOC);
    GROUP("AD favor", GEX_FLAG_AD_FAVOR_MY_RANK, GEX_FLAG_AD_FAVOR_MY_NBRHD, GEX_FLAG_AD_FAVOR_REMOTE);
    GROUP("AD op", GEX_FLAG_IMMEDIATE, GEX_FLAG_SELF_SEG_UNKNOWN, GEX_FLAG_SELF_SEG_SOME, GEX_FLAG_SELF_SEG_BOUND,
          GEX_FLAG_SELF_SEG_OFFSET, GEX_FLAG_PEER_SEG_UNKNOWN, GEX_FLAG_PEER_SEG_SOME, GEX_FLAG_PEER_SEG_BOUND,
          GEX_FLAG_PEER_SEG_OFFSET, GEX_FLAG_AD_MY_RANK, GEX_FLAG_AD_MY_NBRHD, GEX_FLAG_AD_ACQ, GEX_FLAG_AD_REL,
          GEX_FLAG_RANK_IS_JOBRANK);
    GROUP("registration", GEX_FLAG_AM_SHORT, GEX_FLAG_AM_MEDIUM, GEX_FLAG_AM_LONG, GEX_FLAG_AM_REQUEST, GEX_FLAG_AM_REPLY);
    GROUP("VIS", GEX_FLAG_IMMEDIATE, GEX_FLAG_SELF_SEG_UNKNOWN, GEX_FLAG_SELF_SEG_SOME, GEX_FLAG_SELF_SEG_BOUND,
          GEX_FLAG_SELF_SEG_OFFSET, GEX_FLAG_PEER_SEG_UNKNOWN, GEX_FLAG_PEER_SEG_SOME, GEX_FLAG_PEER_SEG_BOUND,
          GEX_FLAG_PEER_SEG_OFFSET, GEX_FLAG_ENABLE_LEAF_LC);
    GROUP("team", GEX_FLAG_TM_SCRATCH_SIZE_MIN, GEX_FLAG_TM_SCRATCH_SIZE_RECOMMENDED, GEX_FLAG_TM_GLOBAL_SCRATCH,
          GEX_FLAG_TM_LOCAL_SCRATCH, GEX_FLAG_TM_SYMMETRIC_SCRATCH, GEX_FLAG_TM_NO_SCRATCH, GEX_FLAG_SCRATCH_SEG_OFFSET);
    GROUP("token info", GEX_TI_SRCRANK, GEX_TI_ENTRY, GEX_TI_IS_REQ, GEX_TI_IS_LONG, GEX_TI_EP);
    CHECK(GEX_FLAG_AM_MEDLONG == (GEX_FLAG_AM_MEDIUM | GEX_FLAG_AM_LONG) &&
          GEX_FLAG_AM_REQREP == (GEX_FLAG_AM_REQUEST | GEX_FLAG_AM_REPLY), "MEDLONG / REQREP aliases");
    CHECK(GEX_FLAG_USES_GASNET1 != 0 && GEX_FLAG_GLOBALLY_QUIESCED != 0, "USES_GASNET1 / GLOBALLY_QUIESCED");
    const gex_TI_t ti[] = {GEX_TI_SRCRANK, GEX_TI_ENTRY, GEX_TI_IS_REQ, GEX_TI_IS_LONG, GEX_TI_EP};
    for (size_t i = 0; i < EX_NELEM(ti); i++) CHECK((GEX_TI_ALL & ti[i]) == ti[i], "GEX_TI_ALL lacks 0x%x", ti[i]);
    const gex_EC_t ec[] = {GEX_EC_GET, GEX_EC_PUT, GEX_EC_AM, GEX_EC_LC, GEX_EC_RMW};
    for (size_t i = 0; i < EX_NELEM(ec); i++)
        CHECK(ec[i] != 0 && (GEX_EC_ALL & ec[i]) == ec[i], "GEX_EC_* 0x%x zero or outside GEX_EC_ALL", ec[i]);
    /* handle values */
    CHECK(GEX_EVENT_INVALID == 0 && GEX_EVENT_NO_OP != 0, "GEX_EVENT_INVALID must be 0, GEX_EVENT_NO_OP not");
    CHECK(GEX_EVENT_NOW != GEX_EVENT_DEFER && GEX_EVENT_NOW != GEX_EVENT_GROUP && GEX_EVENT_DEFER != GEX_EVENT_GROUP &&
              GEX_EVENT_NOW != NULL && GEX_EVENT_DEFER != NULL && GEX_EVENT_GROUP != NULL,
          "GEX_EVENT_NOW/DEFER/GROUP not distinct non-NULL values");
    CHECK(GEX_TM_INVALID == 0 && GEX_SEGMENT_INVALID == 0 && GEX_AD_INVALID == 0 && GEX_AM_SRCDESC_NO_OP == 0,
          "an invalid handle is not zero");
    CHECK(GEX_RANK_INVALID == (gex_Rank_t)~(gex_Rank_t)0 || GEX_RANK_INVALID > GASNET_MAXNODES,
          "GEX_RANK_INVALID is not larger than any rank");
    /* types */
    CHECK(sizeof(gex_Event_t) == sizeof(void *) && sizeof(gex_AM_Index_t) == 1 && sizeof(gex_AM_Arg_t) == 4 &&
              (gex_AM_Arg_t)-1 < 0 && (gex_AM_Index_t)-1 == 255 && sizeof(gex_RMA_Value_t) == SIZEOF_GEX_RMA_VALUE_T &&
              (gex_Rank_t)-1 > 0 && sizeof(gex_Flags_t) >= 4 && sizeof(gex_OP_t) >= 4 && (gex_OP_t)-1 > 0,
          "a type width or signedness of §2/§18.1");
    gex_Memvec_t mv = {(void *)&mv, 3};
    CHECK(mv.gex_addr == (void *)&mv && mv.gex_len == 3, "gex_Memvec_t field order");
    gex_EP_Location_t loc = {7, 1};
    CHECK(loc.gex_rank == 7 && loc.gex_ep_index == 1, "gex_EP_Location_t field order");
    /* data types and operation codes: distinct bits; the fetching pairs */
    const gex_DT_t dt[] = {GEX_DT_I32, GEX_DT_U32, GEX_DT_I64, GEX_DT_U64, GEX_DT_FLT, GEX_DT_DBL, GEX_DT_USER};
    for (size_t i = 0; i < EX_NELEM(dt); i++)
        for (size_t j = 0; j < i; j++) CHECK(dt[i] && (dt[i] & dt[j]) == 0, "GEX_DT_* %zu and %zu share bits", i, j);
    const gex_OP_t nf[] = {GEX_OP_AND, GEX_OP_OR, GEX_OP_XOR, GEX_OP_ADD, GEX_OP_SUB, GEX_OP_MULT,
                           GEX_OP_MIN, GEX_OP_MAX, GEX_OP_INC, GEX_OP_DEC, GEX_OP_SET, GEX_OP_CAS};
    const gex_OP_t fe[] = {GEX_OP_FAND, GEX_OP_FOR, GEX_OP_FXOR, GEX_OP_FADD, GEX_OP_FSUB, GEX_OP_FMULT,
                           GEX_OP_FMIN, GEX_OP_FMAX, GEX_OP_FINC, GEX_OP_FDEC, GEX_OP_SWAP, GEX_OP_FCAS};
    gex_OP_t all = GEX_OP_GET | GEX_OP_USER | GEX_OP_USER_NC;
    CHECK((GEX_OP_GET & GEX_OP_USER) == 0 && (GEX_OP_GET & GEX_OP_USER_NC) == 0 && (GEX_OP_USER & GEX_OP_USER_NC) == 0,
          "GEX_OP_GET/USER/USER_NC share bits");
    for (size_t i = 0; i < EX_NELEM(nf); i++) {
        CHECK(GEX_OP_TO_FETCHING(nf[i]) == fe[i] && GEX_OP_TO_NONFETCHING(fe[i]) == nf[i],
              "GEX_OP_TO_FETCHING/TO_NONFETCHING pair %zu", i);
        CHECK(nf[i] && fe[i] && (all & (nf[i] | fe[i])) == 0 && (nf[i] & fe[i]) == 0, "GEX_OP_* pair %zu shares bits", i);
        all |= nf[i] | fe[i];
    }
    CHECK(GEX_OP_CSWAP == GEX_OP_FCAS, "GEX_OP_CSWAP is GEX_OP_FCAS");
}

/* Before any segment: no EP has one (§6.3: non-zero, nothing written). */
static void bound_before_attach(gex_TM_t tm)
{
    for (gex_Rank_t r = 0; r < nranks; r++) {
        void *owner = (void *)0x5a5a, *local = (void *)0xa5a5;
        uintptr_t size = 77;
        CHECK(gex_Segment_QueryBound(tm, r, &owner, &local, &size) != 0,
              "gex_Segment_QueryBound(rank %u) before any attach returned 0", r);
        CHECK(owner == (void *)0x5a5a && local == (void *)0xa5a5 && size == 77,
              "gex_Segment_QueryBound(rank %u) wrote its outputs with no segment bound", r);
    }
}

static void bound_after_attach(gex_TM_t tm, gex_Segment_t seg, const char *expect_local,
                               gex_RankInfo_t *nb, gex_Rank_t nb_count)
{
    void *base = gex_Segment_QueryAddr(seg);
    uintptr_t size = gex_Segment_QuerySize(seg);
    for (gex_Rank_t r = 0; r < nranks; r++) {
        void *owner = NULL, *local = (void *)1;
        uintptr_t sz = 0;
        CHECK(gex_Segment_QueryBound(tm, r, &owner, &local, &sz) == 0, "gex_Segment_QueryBound(rank %u)", r);
        CHECK((uint64_t)(uintptr_t)owner == views[r].seg_addr && sz == views[r].seg_size,
              "QueryBound(rank %u) = [%p, +%" PRIuPTR "), the owner says [0x%" PRIx64 ", +%" PRIu64 ")", r, owner, sz,
              views[r].seg_addr, views[r].seg_size);
        if (r == me) {
            CHECK(owner == base && local == base && sz == size, "QueryBound(self) = %p/%p/%" PRIuPTR
                  ", segment %p/%" PRIuPTR, owner, local, sz, base, size);
        } else if (!strcmp(expect_local, "am")) {
            CHECK(local == NULL, "GASNET_RMA=am, yet rank %u's segment is mapped here at %p", r, local);
        } else if (!strcmp(expect_local, "shm") && in_info(nb, nb_count, r)) {
            CHECK(local != NULL, "rank %u shares my neighbourhood but its segment is not mapped here", r);
        }
        if (local) {
            /* the mapping shows what the owner wrote into its segment */
            size_t bad = ex_verify(local, 4096, (unsigned)r);
            CHECK(bad == 4096, "rank %u's segment mapped at %p: byte %zu differs", r, local, bad);
        }
        /* the outputs are optional */
        CHECK(gex_Segment_QueryBound(tm, r, NULL, NULL, NULL) == 0, "QueryBound(rank %u) with NULL outputs", r);
        void *o2 = NULL;
        CHECK(gex_Segment_QueryBound(tm, r, &o2, NULL, NULL) == 0 && o2 == owner, "QueryBound(rank %u) owner only", r);
    }
}

/* ---- gex_EP_RegisterHandlers (§6.5, §18.3) */
static int hits[8];
#define HIT(k) static void hit##k(gex_Token_t t) { (void)t; hits[k]++; }
HIT(0) HIT(1) HIT(2) HIT(3) HIT(4) HIT(5) HIT(6) HIT(7)
static void (*const hit_fns[8])(gex_Token_t) = {hit0, hit1, hit2, hit3, hit4, hit5, hit6, hit7};
static void filler(gex_Token_t t) { (void)t; }

#define SHORT_REQ (GEX_FLAG_AM_SHORT | GEX_FLAG_AM_REQUEST)

static gex_AM_Entry_t entry(gex_AM_Index_t index, int k, const char *name)
{
    gex_AM_Entry_t e = {index, (gex_AM_Fn_t)hit_fns[k], SHORT_REQ, 0, &hits[k], name};
    return e;
}

/* Sends a Short request to my own handler at index and returns which hit
 * counter moved. */
static int which_runs(gex_TM_t tm, gex_AM_Index_t index)
{
    int before[8];
    memcpy(before, hits, sizeof before);
    CHECK_OK(gex_AM_RequestShort0(tm, me, index, 0));
    for (;;) {
        for (int k = 0; k < 8; k++)
            if (hits[k] != before[k]) return k;
        gasnet_AMPoll();
    }
}

static void register_handlers(gex_EP_t ep, gex_TM_t tm)
{
    gex_AM_Entry_t t1[5];
    /* fixed indices first, then the don't-care entries in table order, each
     * the highest free index: 255 is taken by the fixed entry after the
     * first don't-care one */
    t1[0] = entry(0, 0, "dc-a");
    t1[1] = entry(255, 1, "fixed-255");
    t1[2] = entry(0, 2, "dc-b");
    t1[3] = entry(253, 3, "fixed-253");
    t1[4] = entry(0, 4, "dc-c");
    gex_AM_Entry_t copy[5];
    memcpy(copy, t1, sizeof copy);
    CHECK_OK(gex_EP_RegisterHandlers(ep, t1, 5));
    gex_AM_Index_t want[5] = {254, 255, 252, 253, 251};
    for (int i = 0; i < 5; i++) {
        CHECK(t1[i].gex_index == want[i], "entry %d got index %u, expected %u", i, t1[i].gex_index, want[i]);
        CHECK(t1[i].gex_fnptr == copy[i].gex_fnptr && t1[i].gex_flags == copy[i].gex_flags &&
              t1[i].gex_nargs == copy[i].gex_nargs && t1[i].gex_cdata == copy[i].gex_cdata &&
              t1[i].gex_name == copy[i].gex_name, "entry %d: a field other than the index changed", i);
    }
    /* the table is copied: scribbling on it changes nothing */
    memset(t1, 0, sizeof t1);
    for (int i = 0; i < 5; i++) {
        int k = which_runs(tm, want[i]);
        CHECK(&hits[k] == copy[i].gex_cdata, "index %u ran handler %d", want[i], k);
    }

    /* incremental: a later call continues below the highest free index */
    gex_AM_Entry_t t2[1] = {entry(0, 5, "dc-d")};
    CHECK_OK(gex_EP_RegisterHandlers(ep, t2, 1));
    CHECK(t2[0].gex_index == 250, "incremental don't-care got %u, expected 250", t2[0].gex_index);
    CHECK(which_runs(tm, 250) == 5, "index 250");
    /* numentries 0 is a successful no-op */
    gex_AM_Entry_t t0[1] = {entry(0, 6, "unused")};
    CHECK_OK(gex_EP_RegisterHandlers(ep, t0, 0));
    CHECK(t0[0].gex_index == 0, "numentries 0 wrote the table");
    /* a duplicate index, or one below GEX_AM_INDEX_BASE: GASNET_ERR_RESOURCE */
    gex_AM_Entry_t dup[1] = {entry(253, 6, "dup")};
    int rc = gex_EP_RegisterHandlers(ep, dup, 1);
    CHECK(rc == GASNET_ERR_RESOURCE, "duplicate index 253: returned %d (%s)", rc, gasnet_ErrorName(rc));
    CHECK(which_runs(tm, 253) == 3, "the duplicate replaced index 253's handler");
    gex_AM_Entry_t low[1] = {entry(GEX_AM_INDEX_BASE - 1, 6, "reserved")};
    rc = gex_EP_RegisterHandlers(ep, low, 1);
    CHECK(rc == GASNET_ERR_RESOURCE, "reserved index %d: returned %d (%s)", GEX_AM_INDEX_BASE - 1, rc,
          gasnet_ErrorName(rc));
    /* a NULL table: GASNET_ERR_BAD_ARG */
    rc = gex_EP_RegisterHandlers(ep, NULL, 1);
    CHECK(rc == GASNET_ERR_BAD_ARG, "NULL table: returned %d (%s)", rc, gasnet_ErrorName(rc));

    /* fill the client index space: 256 - GEX_AM_INDEX_BASE in all (7 so
     * far, plus H_VIEW and H_ACK), then no index is left */
    size_t space = 256 - GEX_AM_INDEX_BASE, used = 8, left = space - used;
    gex_AM_Entry_t *fill = calloc(left, sizeof *fill);
    CHECK(fill != NULL, "out of memory");
    for (size_t i = 0; i < left; i++) {
        gex_AM_Entry_t e = {0, (gex_AM_Fn_t)filler, SHORT_REQ, 0, NULL, NULL};
        fill[i] = e;
    }
    /* more than the whole space in one call: GASNET_ERR_BAD_ARG */
    gex_AM_Entry_t *big = calloc(space + 1, sizeof *big);
    CHECK(big != NULL, "out of memory");
    for (size_t i = 0; i <= space; i++) big[i] = fill[0];
    rc = gex_EP_RegisterHandlers(ep, big, space + 1);
    CHECK(rc == GASNET_ERR_BAD_ARG, "%zu entries in one call: returned %d (%s)", space + 1, rc,
          gasnet_ErrorName(rc));
    free(big);
    CHECK_OK(gex_EP_RegisterHandlers(ep, fill, left - 1));
    CHECK_OK(gex_EP_RegisterHandlers(ep, fill + left - 1, 1));
    for (size_t i = 0; i < left; i++) {
        gex_AM_Index_t x = fill[i].gex_index;
        CHECK(x >= GEX_AM_INDEX_BASE && x != 255 && x != 254 && x != 253 && x != 252 && x != 251 && x != 250 &&
                  x != H_VIEW && x != H_ACK, "filler %zu got index %u", i, x);
        if (i) CHECK(x < fill[i - 1].gex_index, "filler %zu got %u after %u", i, x, fill[i - 1].gex_index);
    }
    gex_AM_Entry_t more[1] = {{0, (gex_AM_Fn_t)filler, SHORT_REQ, 0, NULL, NULL}};
    rc = gex_EP_RegisterHandlers(ep, more, 1);
    CHECK(rc == GASNET_ERR_RESOURCE, "a full index space: returned %d (%s)", rc, gasnet_ErrorName(rc));
    free(fill);
    /* everything registered earlier still works */
    for (int i = 0; i < 5; i++) CHECK(&hits[which_runs(tm, want[i])] == copy[i].gex_cdata, "index %u", want[i]);
}

int main(int argc, char **argv)
{
    const char *expect_local = argc > 1 ? argv[1] : "any";
    int pass_argv = argc > 2 && !strcmp(argv[2], "argv");
    gex_Client_t client = NULL;
    gex_EP_t ep = NULL;
    gex_TM_t tm = GEX_TM_INVALID;
    static const char name[] = "ex_objects"; /* lowercase is accepted (§6.2) */

    /* NULL outputs or name: an error, before anything starts */
    int rc;
    if ((rc = gex_Client_Init(NULL, &ep, &tm, name, NULL, NULL, 0)) == GASNET_OK ||
        (rc = gex_Client_Init(&client, NULL, &tm, name, NULL, NULL, 0)) == GASNET_OK ||
        (rc = gex_Client_Init(&client, &ep, NULL, name, NULL, NULL, 0)) == GASNET_OK ||
        (rc = gex_Client_Init(&client, &ep, &tm, NULL, NULL, NULL, 0)) == GASNET_OK) {
        fprintf(stderr, "FAIL: gex_Client_Init with a NULL pointer argument returned GASNET_OK\n");
        return 1;
    }
    rc = pass_argv ? gex_Client_Init(&client, &ep, &tm, name, &argc, &argv, 0)
                   : gex_Client_Init(&client, &ep, &tm, name, NULL, NULL, 0);
    if (rc != GASNET_OK) {
        fprintf(stderr, "FAIL: gex_Client_Init returned %d after the argument errors\n", rc);
        return 1;
    }
    me = gex_System_QueryJobRank();
    nranks = gex_System_QueryJobSize();
    ep0 = ep;
    views = calloc(nranks, sizeof *views);
    CHECK(views != NULL, "out of memory");
    CHECK(me < nranks, "jobrank %u of %u", me, nranks);
    constants();
    client_ep_tm_queries(client, ep, tm, name);

    gex_AM_Entry_t table[] = {
        {H_VIEW, (gex_AM_Fn_t)view_h, GEX_FLAG_AM_MEDIUM | GEX_FLAG_AM_REQUEST, 1, NULL, "view"},
        {H_ACK, (gex_AM_Fn_t)ack_h, GEX_FLAG_AM_SHORT | GEX_FLAG_AM_REPLY, 1, NULL, "ack"},
    };
    CHECK_OK(gex_EP_RegisterHandlers(ep, table, EX_NELEM(table)));

    /* before any segment: every barrier form and AM traffic (§6.1) */
    gasnet_barrier(0, GASNET_BARRIERFLAG_UNNAMED);
    gasnet_barrier_notify(7, 0);
    CHECK_OK(gasnet_barrier_wait(7, 0));
    ex_barrier(tm);
    view_t mine = {me, nranks, 0, 0, 0, 0, 0, 0, 0, 0};
    gex_RankInfo_t *nb;
    gex_Rank_t nb_count;
    system_queries(&mine, &nb, &nb_count);
    bound_before_attach(tm);
    exchange(tm, &mine, 10);
    compare_views(nb, nb_count);
    MSG0("ex_objects: queries, %u ranks in %u neighbourhoods on %u hosts, AMs and barriers before attach: ok",
         nranks, mine.nbrhd_size, mine.host_size);

    /* the segment */
    gex_Segment_t seg = GEX_SEGMENT_INVALID;
    uintptr_t segsize = 4 * GASNET_PAGESIZE;
    CHECK_OK(gex_Segment_Attach(&seg, tm, segsize));
    CHECK(seg != GEX_SEGMENT_INVALID, "no segment");
    CHECK(gex_Segment_QueryClient(seg) == client, "segment's client");
    CHECK(gex_EP_QuerySegment(ep) == seg, "EP's bound segment after attach");
    /* attach ends with a barrier: every segment is bound now, with no
     * further synchronisation (§6.4) */
    for (gex_Rank_t r = 0; r < nranks; r++) {
        void *owner = NULL;
        uintptr_t sz = 0;
        CHECK(gex_Segment_QueryBound(tm, r, &owner, NULL, &sz) == 0 && owner && sz >= segsize,
              "right after gex_Segment_Attach, rank %u's segment is not bound", r);
        uint64_t v = 0xabc0000ull + me;
        CHECK_OK(gex_RMA_PutBlocking(tm, r, (char *)owner + 8192 + 8 * me, &v, 8, 0));
    }
    void *base = gex_Segment_QueryAddr(seg);
    uintptr_t size = gex_Segment_QuerySize(seg);
    CHECK(base != NULL && size >= segsize, "segment [%p, +%" PRIuPTR ") for %" PRIuPTR " bytes", base, size, segsize);
    (void)gex_Segment_QueryFlags(seg);
    CHECK(gex_Segment_QueryCData(seg) == NULL, "new segment's CData");
    gex_Segment_SetCData(seg, &mine);
    CHECK(gex_Segment_QueryCData(seg) == &mine, "segment CData");
    ex_fill(base, 4096, (unsigned)me);
    mine.seg_addr = (uintptr_t)base;
    mine.seg_size = size;
    exchange(tm, &mine, 20);
    bound_after_attach(tm, seg, expect_local, nb, nb_count);
    for (gex_Rank_t r = 0; r < nranks; r++) {
        uint64_t v;
        memcpy(&v, (char *)base + 8192 + 8 * r, 8);
        CHECK(v == 0xabc0000ull + r, "rank %u's put right after attach: 0x%" PRIx64, r, v);
    }
    ex_barrier(tm);
    MSG0("ex_objects: gex_Segment_Attach and gex_Segment_QueryBound (local mappings: %s): ok", expect_local);

    register_handlers(ep, tm);
    ex_barrier(tm);
    MSG0("ex_objects: gex_EP_RegisterHandlers: ok");
    MSG0("ex_objects: ok");
    gasnet_exit(0);
}
