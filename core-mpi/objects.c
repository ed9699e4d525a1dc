/* The EX objects (see gasnet_internal.h): creation of a client's
 * primordial endpoint and team, handler registration, every query and
 * client-data call, rank translation, and the job's neighbourhood and host
 * information.
 *
 * Handler registration (gex_EP_RegisterHandlers) follows the EX rule:
 * entries with a fixed index first, then the don't-care ones in table
 * order, each getting the highest free index (255 downward). An entry's
 * flags and argument count are checked here and handed to ammpi, which
 * rejects a message that does not fit them before the handler runs.
 * (gasnet_attach assigns the same way, for handlers of unknown category
 * and argument count: core.c.)
 */
#include "gasnet_internal.h"
#include "memkind.h"

#include <stdlib.h>
#include <string.h>

gasneti_client_t gasneti_client;
gasneti_ep_t gasneti_ep0;
gasneti_segment_t gasneti_seg0;
gex_TM_t gasneti_tm0;

void gasneti_pair_refused(const char *call)
{
    gasneti_fatalerror("%s: the team is a TM-pair (gex_TM_Pair), which only point-to-point "
                       "calls accept; pass a team", call);
}

void gasneti_check_rank(gasneti_tm_t tm, gex_Rank_t rank, const char *call)
{
    if (rank >= tm->size)
        gasneti_fatalerror("%s: rank %u is not in the team (%u members)", call, rank, tm->size);
}

/* ---- creation */

static gasneti_ep_t ep_create(gasneti_client_t client, gex_EP_Index_t index, gex_Flags_t flags,
                              gex_EP_Capabilities_t caps)
{
    gasneti_ep_t ep = calloc(1, sizeof *ep);
    if (!ep) gasneti_fatalerror("out of memory creating an endpoint");
    ep->magic = GASNETI_EP_MAGIC;
    ep->index = index;
    ep->client = client;
    ep->flags = flags;
    ep->caps = caps;
    pthread_mutex_init(&ep->lock, NULL);
    ep->pairs = calloc(GASNET_MAXEPS, sizeof *ep->pairs);
    if (!ep->pairs) gasneti_fatalerror("out of memory creating an endpoint");
    for (int i = 0; i < GASNET_MAXEPS; i++)
        ep->pairs[i] = (struct gasneti_tm_s){.magic = GASNETI_TM_MAGIC, .client = client, .ep = ep,
                                             .rank = gasneti_mynode, .size = gasneti_nodes,
                                             .peer_index = (gex_EP_Index_t)i, .is_pair = 1};
    gasneti_register_internal(ep);
    /* visible to token lookups only once its handlers are in place */
    __atomic_store_n(&client->eps[index], ep, __ATOMIC_RELEASE);
    client->neps = index + 1;
    GASNETI_TRACE_EVENT('O', "ep_create", "%p index %u caps 0x%x flags 0x%x", (void *)ep,
                        (unsigned)index, (unsigned)caps, (unsigned)flags);
    return ep;
}

static pthread_mutex_t create_lock = PTHREAD_MUTEX_INITIALIZER;

int gex_EP_Create(gex_EP_t *ep_p, gex_Client_t client, gex_EP_Capabilities_t caps, gex_Flags_t flags)
{
    const char *call = "gex_EP_Create";
    GASNETI_CHECK_INIT(call);
    if (!client || client->magic != GASNETI_CLIENT_MAGIC) gasneti_bad_handle(call, "client", client);
    if (!ep_p) return gasneti_report(call, GASNET_ERR_BAD_ARG, "NULL ep_p");
    if (!caps || (caps & ~GEX_EP_CAPABILITY_ALL))
        return gasneti_report(call, GASNET_ERR_BAD_ARG, "capabilities 0x%x: give one or more "
                              "GEX_EP_CAPABILITY_* (all are supported)", (unsigned)caps);
    if (flags & ~GEX_FLAG_HINT_ACCEL_ALL)
        return gasneti_report(call, GASNET_ERR_BAD_ARG, "flags 0x%x: only GEX_FLAG_HINT_ACCEL_* "
                              "are accepted", (unsigned)flags);
    pthread_mutex_lock(&create_lock);
    int index = client->neps;
    if (index >= GASNET_MAXEPS) {
        pthread_mutex_unlock(&create_lock);
        return gasneti_report(call, GASNET_ERR_RESOURCE, "this process already has %d endpoints "
                              "(GASNET_MAXEPS)", GASNET_MAXEPS);
    }
    /* acceleration hints allocate nothing (no scarce units here); kept as flags */
    *ep_p = ep_create(client, (gex_EP_Index_t)index, flags, caps);
    pthread_mutex_unlock(&create_lock);
    return GASNET_OK;
}

gex_TM_t gex_TM_Pair(gex_EP_t ep_, gex_EP_Index_t remote_ep_index)
{
    const char *call = "gex_TM_Pair";
    gasneti_ep_t ep = gasneti_import_ep(ep_, call);
    if (remote_ep_index >= GASNET_MAXEPS)
        gasneti_fatalerror("%s: remote endpoint index %u does not exist (GASNET_MAXEPS is %d)", call,
                           remote_ep_index, GASNET_MAXEPS);
    return &ep->pairs[remote_ep_index];
}

/* Destroyed team objects are kept for reuse rather than freed, so a
 * stale handle reads memory that is still ours (its magic is cleared):
 * the check that catches one never touches freed memory. */
static gasneti_tm_t dead_teams;
static pthread_mutex_t dead_lock = PTHREAD_MUTEX_INITIALIZER;

gasneti_tm_t gasneti_tm_create(gasneti_client_t client, gasneti_ep_t ep, gex_Rank_t rank,
                               gex_Rank_t size, const gex_EP_Location_t *members, uint64_t id)
{
    pthread_mutex_lock(&dead_lock);
    gasneti_tm_t tm = dead_teams;
    if (tm) dead_teams = tm->cdata;
    pthread_mutex_unlock(&dead_lock);
    if (!tm) tm = malloc(sizeof *tm);
    if (!tm) gasneti_fatalerror("out of memory creating a team");
    *tm = (struct gasneti_tm_s){GASNETI_TM_MAGIC, client, ep, rank, size, NULL, 0, NULL, id,
                                NULL, 0, NULL, 0, 0, 0};
    if (members) {
        tm->members = malloc(size * sizeof *tm->members);
        if (!tm->members) gasneti_fatalerror("out of memory creating a team of %u", size);
        memcpy(tm->members, members, size * sizeof *tm->members);
    }
    GASNETI_TRACE_EVENT('O', "team_create", "%p rank %u size %u id 0x%llx", (void *)tm, rank, size,
                        (unsigned long long)id);
    return tm;
}

void gasneti_tm_free(gasneti_tm_t tm)
{
    GASNETI_TRACE_EVENT('O', "team_destroy", "%p", (void *)tm);
    free(tm->members);
    pthread_mutex_lock(&dead_lock);
    memset(tm, 0, sizeof *tm);
    tm->cdata = dead_teams; /* the list's link */
    dead_teams = tm;
    pthread_mutex_unlock(&dead_lock);
}

gasneti_client_t gasneti_client_create(const char *name, gex_Flags_t flags)
{
    gasneti_client_t c = calloc(1, sizeof *c);
    char *copy = strdup(name);
    if (!c || !copy) gasneti_fatalerror("out of memory creating client %s", name);
    c->magic = GASNETI_CLIENT_MAGIC;
    c->flags = flags;
    c->name = copy;
    gasneti_ep_t ep = ep_create(c, 0, flags & GEX_FLAG_USES_GASNET1, GEX_EP_CAPABILITY_ALL);
    c->tm0 = gasneti_tm_create(c, ep, gasneti_mynode, gasneti_nodes, NULL, 0);
    c->tm0->flags = flags & GEX_FLAG_USES_GASNET1;
    return c;
}

/* Every layer's handlers: each endpoint serves them all, whether or not
 * this process uses the layer (peers may). */
void gasneti_register_internal(gasneti_ep_t ep)
{
    for (const gasneti_layer_t *const *l = gasneti_layers; *l; l++)
        for (const gasneti_handler_t *h = (*l)->handlers; h && h->index; h++)
            ammpi_register(gasnetc_ep, ep->index, h->index, h->fn, h->accepts, h->nargs);
}

/* ---- handler registration */

/* What ammpi accepts for an entry's flags, or 0 when they are invalid. */
static unsigned accepts_of(gex_Flags_t f)
{
    const gex_Flags_t cats = GEX_FLAG_AM_SHORT | GEX_FLAG_AM_MEDIUM | GEX_FLAG_AM_LONG;
    const gex_Flags_t dirs = GEX_FLAG_AM_REQUEST | GEX_FLAG_AM_REPLY;
    if ((f & ~(cats | dirs)) || !(f & cats) || !(f & dirs)) return 0;
    if ((f & GEX_FLAG_AM_SHORT) && (f & GEX_FLAG_AM_MEDLONG)) return 0;
    return ((f & GEX_FLAG_AM_SHORT) ? AMMPI_SHORT : 0) | ((f & GEX_FLAG_AM_MEDIUM) ? AMMPI_MEDIUM : 0) |
           ((f & GEX_FLAG_AM_LONG) ? AMMPI_LONG : 0) | ((f & GEX_FLAG_AM_REQUEST) ? AMMPI_REQUEST : 0) |
           ((f & GEX_FLAG_AM_REPLY) ? AMMPI_REPLY : 0);
}

int gex_EP_RegisterHandlers(gex_EP_t ep_, gex_AM_Entry_t *table, size_t numentries)
{
    const char *call = "gex_EP_RegisterHandlers";
    gasneti_ep_t ep = gasneti_import_ep(ep_, call);
    if (numentries == 0) return GASNET_OK;
    if (!table) return gasneti_report(call, GASNET_ERR_BAD_ARG, "NULL table of %zu entries", numentries);
    if (numentries > 256 - GEX_AM_INDEX_BASE)
        return gasneti_report(call, GASNET_ERR_BAD_ARG, "%zu entries (at most %d per endpoint)",
                              numentries, 256 - GEX_AM_INDEX_BASE);
    for (size_t i = 0; i < numentries; i++) {
        const gex_AM_Entry_t *e = &table[i];
        if (!e->gex_fnptr)
            gasneti_fatalerror("%s: entry %zu (%s) has a NULL handler", call, i,
                               e->gex_name ? e->gex_name : "unnamed");
        if (!accepts_of(e->gex_flags))
            gasneti_fatalerror("%s: entry %zu (%s) has flags 0x%x: give exactly one of "
                               "GEX_FLAG_AM_SHORT, _MEDIUM, _LONG, _MEDLONG and one of "
                               "GEX_FLAG_AM_REQUEST, _REPLY, _REQREP", call, i,
                               e->gex_name ? e->gex_name : "unnamed", (unsigned)e->gex_flags);
        if (e->gex_nargs > gex_AM_MaxArgs())
            gasneti_fatalerror("%s: entry %zu (%s) takes %u arguments (at most %u)", call, i,
                               e->gex_name ? e->gex_name : "unnamed", e->gex_nargs, gex_AM_MaxArgs());
    }
    pthread_mutex_lock(&ep->lock);
    unsigned char used[256] = {0}, *index = calloc(numentries, 1);
    int rc = index ? GASNET_OK : GASNET_ERR_RESOURCE;
    for (int h = GEX_AM_INDEX_BASE; h < 256; h++) used[h] = ep->handlers[h].gex_fnptr != NULL;
    for (size_t i = 0; rc == GASNET_OK && i < numentries; i++) {
        int h = table[i].gex_index;
        if (h == 0) continue;
        if (h < GEX_AM_INDEX_BASE)
            rc = gasneti_report(call, GASNET_ERR_RESOURCE, "entry %zu asks for index %d, reserved "
                                "for GASNet (clients use %d..255)", i, h, GEX_AM_INDEX_BASE);
        else if (used[h])
            rc = gasneti_report(call, GASNET_ERR_RESOURCE, "index %d is already registered on "
                                "this endpoint", h);
        else
            used[h] = 1, index[i] = (unsigned char)h;
    }
    int next = 255;
    for (size_t i = 0; rc == GASNET_OK && i < numentries; i++) {
        if (table[i].gex_index) continue;
        while (next >= GEX_AM_INDEX_BASE && used[next]) next--;
        if (next < GEX_AM_INDEX_BASE)
            rc = gasneti_report(call, GASNET_ERR_RESOURCE, "no free handler index left for "
                                "entry %zu", i);
        else
            used[next] = 1, index[i] = (unsigned char)next;
    }
    for (size_t i = 0; rc == GASNET_OK && i < numentries; i++) {
        gex_AM_Entry_t e = table[i];
        e.gex_index = index[i];
        ep->handlers[e.gex_index] = e;
        ammpi_register(gasnetc_ep, ep->index, e.gex_index, (ammpi_handler_fn)e.gex_fnptr,
                       accepts_of(e.gex_flags), (int)e.gex_nargs);
        table[i].gex_index = e.gex_index;
    }
    pthread_mutex_unlock(&ep->lock);
    free(index);
    return rc;
}

/* ---- queries and client data: plain field accesses, legal anywhere */

static gasneti_client_t import_client(gex_Client_t c, const char *call)
{
    if (!c || c->magic != GASNETI_CLIENT_MAGIC) gasneti_bad_handle(call, "client", c);
    return c;
}

static gasneti_segment_t import_segment(gex_Segment_t s, const char *call)
{
    if (!s || s->magic != GASNETI_SEG_MAGIC) gasneti_bad_handle(call, "segment", s);
    return s;
}

gex_Flags_t gex_Client_QueryFlags(gex_Client_t c)
{
    return import_client(c, "gex_Client_QueryFlags")->flags & ~GASNETI_FLAG_LEGACY_INIT;
}
const char *gex_Client_QueryName(gex_Client_t c) { return import_client(c, "gex_Client_QueryName")->name; }
void gex_Client_SetCData(gex_Client_t c, const void *v) { import_client(c, "gex_Client_SetCData")->cdata = (void *)v; }
void *gex_Client_QueryCData(gex_Client_t c) { return import_client(c, "gex_Client_QueryCData")->cdata; }

/* Memory kinds are memkind/'s; the client is checked here. */
int gex_MK_Create(gex_MK_t *kind_p, gex_Client_t client, const gex_MK_Create_args_t *args,
                  gex_Flags_t flags)
{
    GASNETI_CHECK_INIT("gex_MK_Create");
    return gasneti_mk_create(kind_p, import_client(client, "gex_MK_Create"), args, flags);
}

gex_Client_t gex_Segment_QueryClient(gex_Segment_t s) { return import_segment(s, "gex_Segment_QueryClient")->client; }
gex_Flags_t gex_Segment_QueryFlags(gex_Segment_t s) { return import_segment(s, "gex_Segment_QueryFlags")->flags; }
void *gex_Segment_QueryAddr(gex_Segment_t s) { return import_segment(s, "gex_Segment_QueryAddr")->addr; }
uintptr_t gex_Segment_QuerySize(gex_Segment_t s) { return import_segment(s, "gex_Segment_QuerySize")->size; }
void gex_Segment_SetCData(gex_Segment_t s, const void *v) { import_segment(s, "gex_Segment_SetCData")->cdata = (void *)v; }
void *gex_Segment_QueryCData(gex_Segment_t s) { return import_segment(s, "gex_Segment_QueryCData")->cdata; }

gex_Client_t gex_EP_QueryClient(gex_EP_t ep) { return gasneti_import_ep(ep, "gex_EP_QueryClient")->client; }
gex_Flags_t gex_EP_QueryFlags(gex_EP_t ep) { return gasneti_import_ep(ep, "gex_EP_QueryFlags")->flags; }
gex_Segment_t gex_EP_QuerySegment(gex_EP_t ep) { return gasneti_import_ep(ep, "gex_EP_QuerySegment")->segment; }
gex_EP_Index_t gex_EP_QueryIndex(gex_EP_t ep) { return gasneti_import_ep(ep, "gex_EP_QueryIndex")->index; }
void gex_EP_SetCData(gex_EP_t ep, const void *v) { gasneti_import_ep(ep, "gex_EP_SetCData")->cdata = (void *)v; }
void *gex_EP_QueryCData(gex_EP_t ep) { return gasneti_import_ep(ep, "gex_EP_QueryCData")->cdata; }

gex_Client_t gex_TM_QueryClient(gex_TM_t tm) { return gasneti_import_team(tm, "gex_TM_QueryClient")->client; }
gex_EP_t gex_TM_QueryEP(gex_TM_t tm) { return gasneti_import_team(tm, "gex_TM_QueryEP")->ep; }
gex_Flags_t gex_TM_QueryFlags(gex_TM_t tm) { return gasneti_import_team(tm, "gex_TM_QueryFlags")->flags; }
gex_Rank_t gex_TM_QueryRank(gex_TM_t tm) { return gasneti_import_team(tm, "gex_TM_QueryRank")->rank; }
gex_Rank_t gex_TM_QuerySize(gex_TM_t tm) { return gasneti_import_team(tm, "gex_TM_QuerySize")->size; }
void gex_TM_SetCData(gex_TM_t tm, const void *v) { gasneti_import_team(tm, "gex_TM_SetCData")->cdata = (void *)v; }
void *gex_TM_QueryCData(gex_TM_t tm) { return gasneti_import_team(tm, "gex_TM_QueryCData")->cdata; }

/* ---- rank translation: answered from the team's member table, so it
 * never communicates */

gex_Rank_t gex_TM_TranslateRankToJobrank(gex_TM_t tm, gex_Rank_t rank)
{
    const char *call = "gex_TM_TranslateRankToJobrank";
    GASNETI_CHECK_MAY_COMMUNICATE(call); /* the spec lets it communicate */
    return gasneti_tm_peer(gasneti_import_team(tm, call), rank, call).gex_rank;
}

gex_Rank_t gex_TM_TranslateJobrankToRank(gex_TM_t tm_, gex_Rank_t jobrank)
{
    const char *call = "gex_TM_TranslateJobrankToRank";
    gasneti_tm_t tm = gasneti_import_team(tm_, call);
    GASNETI_CHECK_MAY_COMMUNICATE(call);
    if (jobrank >= gasneti_nodes)
        gasneti_fatalerror("%s: jobrank %u is not in the job (%u processes)", call, jobrank,
                           gasneti_nodes);
    if (!tm->members) return jobrank;
    for (gex_Rank_t r = 0; r < tm->size; r++)
        if (tm->members[r].gex_rank == jobrank) return r;
    return GEX_RANK_INVALID;
}

gex_EP_Location_t gex_TM_TranslateRankToEP(gex_TM_t tm, gex_Rank_t rank, gex_Flags_t flags)
{
    const char *call = "gex_TM_TranslateRankToEP";
    GASNETI_CHECK_MAY_COMMUNICATE(call);
    if (flags) gasneti_fatalerror("%s: flags must be 0 (got 0x%x)", call, (unsigned)flags);
    return gasneti_tm_peer(gasneti_import_team(tm, call), rank, call);
}

void gasnet_QueryGexObjects(gex_Client_t *client_p, gex_EP_t *endpoint_p, gex_TM_t *tm_p,
                            gex_Segment_t *segment_p)
{
    if (client_p) *client_p = gasneti_client;
    if (endpoint_p) *endpoint_p = gasneti_ep0;
    if (tm_p) *tm_p = gasneti_tm0;
    if (segment_p) *segment_p = gasneti_seg0;
}

/* ---- neighbourhood and host (core.c numbered them at start-up) */

/* Per kind (0: neighbourhood, 1: host): the jobranks that share this
 * node's number, in jobrank order, and this node's place among them;
 * built once and shared by every caller. */
static gex_Rank_t *members_of[2], count_of[2], my_index_of[2];
static pthread_once_t sets_once = PTHREAD_ONCE_INIT;

static void build_sets(void)
{
    for (int k = 0; k < 2; k++) {
        members_of[k] = malloc(gasneti_nodes * sizeof *members_of[k]);
        if (!members_of[k]) gasneti_fatalerror("out of memory for the neighbourhood table");
        const gasnet_nodeinfo_t *me = &gasneti_nodeinfo[gasneti_mynode];
        for (gex_Rank_t j = 0; j < gasneti_nodes; j++) {
            const gasnet_nodeinfo_t *n = &gasneti_nodeinfo[j];
            if (k ? n->host != me->host : n->supernode != me->supernode) continue;
            if (j == gasneti_mynode) my_index_of[k] = count_of[k];
            members_of[k][count_of[k]++] = j;
        }
    }
}

static void query_set(int k, gex_RankInfo_t **info_p, gex_Rank_t *count_p, gex_Rank_t *index_p)
{
    GASNETI_CHECK_INIT(k ? "gex_System_QueryHostInfo" : "gex_System_QueryNbrhdInfo");
    pthread_once(&sets_once, build_sets);
    if (info_p) *info_p = (gex_RankInfo_t *)members_of[k];
    if (count_p) *count_p = count_of[k];
    if (index_p) *index_p = my_index_of[k];
}

void gex_System_QueryNbrhdInfo(gex_RankInfo_t **info_p, gex_Rank_t *count_p, gex_Rank_t *index_p)
{
    query_set(0, info_p, count_p, index_p);
}

void gex_System_QueryHostInfo(gex_RankInfo_t **info_p, gex_Rank_t *count_p, gex_Rank_t *index_p)
{
    query_set(1, info_p, count_p, index_p);
}

void gex_System_QueryMyPosition(gex_Rank_t *nbrhd_set_size_p, gex_Rank_t *nbrhd_set_rank_p,
                                gex_Rank_t *host_set_size_p, gex_Rank_t *host_set_rank_p)
{
    GASNETI_CHECK_INIT("gex_System_QueryMyPosition");
    if (nbrhd_set_size_p) *nbrhd_set_size_p = gasneti_nbrhds;
    if (nbrhd_set_rank_p) *nbrhd_set_rank_p = gasneti_nodeinfo[gasneti_mynode].supernode;
    if (host_set_size_p) *host_set_size_p = gasneti_hosts;
    if (host_set_rank_p) *host_set_rank_p = gasneti_nodeinfo[gasneti_mynode].host;
}
