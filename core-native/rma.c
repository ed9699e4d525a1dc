/* Choosing the RMA backend for each peer (see rma.h).
 *
 * GASNET_RMA=auto (default) tries shm, then verbs, then ofi (not over a
 * provider that emulates RMA over sockets, unless FI_PROVIDER names it:
 * ofi.c, PROVIDERS); a single name
 * (shm, ofi, verbs) tries only that one; am uses the AM path for every
 * peer. A backend that cannot run says why (node 0, or every node under
 * GASNET_VERBOSEENV) and its peers fall back to the AM path; with
 * GASNET_RMA_STRICT=yes a named backend that cannot serve every peer is a
 * fatal error instead. Every node makes the same calls in the same order,
 * since backend start-up is collective. */
#include "rma.h"
#include "memkind.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

const gasneti_rma_t **gasneti_rma_for;
int gasneti_rma_auto;
/* While gasneti_rma_force_am is on: the backends chosen at attach, and the
 * fast path's table. */
static const gasneti_rma_t **chosen;
static gasneti_pshm_t *chosen_pshm;
static const gasneti_rma_t *active[4];
static int nactive;

/* The network backends by slot (gasneti_rma_keys_t), NULL where not built. */
static const gasneti_rma_t *const nets[GASNETI_RMA_NETS] = {
#ifdef GASNETI_HAVE_VERBS
    &gasneti_rma_verbs,
#else
    NULL,
#endif
#ifdef GASNETI_HAVE_OFI
    &gasneti_rma_ofi,
#else
    NULL,
#endif
};

/* This process's created segments registered with network backends, and
 * what peers published: peer_keys[index][jobrank]. net is set last (and
 * cleared first) so a reader never pairs it with another key. */
typedef struct registration {
    gasneti_segment_t seg;
    void *handle[GASNETI_RMA_NETS];
    gasneti_rma_keys_t keys;
    unsigned tried; /* bit i: registering with nets[i] was tried */
    struct registration *next;
} registration_t;
typedef struct {
    const gasneti_rma_t *net;
    gasneti_rma_key_t key;
} peer_key_t;
static registration_t *registrations;
static peer_key_t *peer_keys[GASNET_MAXEPS];
static pthread_mutex_t seg_lock = PTHREAD_MUTEX_INITIALIZER;

static const gasneti_rma_t *by_name(const char *name)
{
    if (!strcasecmp(name, "shm")) return &gasneti_rma_shm;
#ifdef GASNETI_HAVE_VERBS
    if (!strcasecmp(name, "verbs")) return &gasneti_rma_verbs;
#endif
#ifdef GASNETI_HAVE_OFI
    if (!strcasecmp(name, "ofi")) return &gasneti_rma_ofi;
#endif
    return NULL;
}

/* Whether some node still has peers without a backend. */
static int anyone_uncovered(void)
{
    int mine = 0, any;
    for (gasnet_node_t p = 0; p < gasneti_nodes; p++)
        mine |= p != gasneti_mynode && !gasneti_rma_for[p];
    MPI_Allreduce(&mine, &any, 1, MPI_INT, MPI_LOR, gasnetc_comm);
    return any;
}

/* One line per backend under GASNET_VERBOSEENV (every node); a backend
 * asked for by name that serves nobody is reported by node 0 anyway. */
static void report(const char *name, int served, const char *why, int named)
{
    int verbose = gasneti_getenv_yesno("GASNET_VERBOSEENV", 0);
    if (!verbose && !(named && !served && gasneti_mynode == 0)) return;
    if (served)
        fprintf(stderr, "GASNet node %u: RMA backend %s serves %d peer%s\n", gasneti_mynode, name,
                served, served == 1 ? "" : "s");
    else
        fprintf(stderr, "GASNet node %u: RMA backend %s not used: %s\n", gasneti_mynode, name, why);
}

/* The header's on-node fast path (gasnet_extended.h): this process's
 * segment and those the shm backend mapped. */
static void publish_fast_path(void)
{
    gasneti_pshm_t *table = calloc(gasneti_nodes, sizeof *table);
    if (!table) gasneti_fatalerror("gasnet_attach: out of memory");
    for (gasnet_node_t p = 0; p < gasneti_nodes; p++)
        if (p == gasneti_mynode || gasneti_rma_for[p] == &gasneti_rma_shm)
            table[p] = (gasneti_pshm_t){(uintptr_t)gasneti_seginfo[p].addr, gasneti_seginfo[p].size,
                                        p == gasneti_mynode ? 0 : gasneti_nodeinfo[p].offset};
    gasneti_pshm = table;
    gasneti_pshm_fast_update();
}

void gasneti_rma_attach(void)
{
    const char *want = gasneti_getenv_str("GASNET_RMA", "auto");
    int strict = gasneti_getenv_yesno("GASNET_RMA_STRICT", 0);
    const char *order[3];
    int norder = 0;
    gasneti_rma_auto = !strcasecmp(want, "auto");
    if (gasneti_rma_auto) {
        order[norder++] = "shm";
        order[norder++] = "verbs";
        order[norder++] = "ofi";
    } else if (!strcasecmp(want, "shm") || !strcasecmp(want, "ofi") || !strcasecmp(want, "verbs")) {
        order[norder++] = want;
    } else if (strcasecmp(want, "am")) {
        gasneti_fatalerror("GASNET_RMA=%s: use auto, shm, ofi, verbs or am", want);
    }
    gasneti_rma_for = calloc(gasneti_nodes, sizeof *gasneti_rma_for);
    unsigned char *reach = malloc(gasneti_nodes);
    if (!gasneti_rma_for || !reach) gasneti_fatalerror("gasnet_attach: out of memory");
    for (int i = 0; i < norder; i++) {
        const gasneti_rma_t *b = by_name(order[i]);
        char why[256] = "";
        int served = 0;
        if (i > 0 && !anyone_uncovered()) break;
        memset(reach, 0, gasneti_nodes);
        if (!b) snprintf(why, sizeof why, "not built in (its library was missing at build time)");
        else if (b->attach(reach, why, sizeof why) == 0) {
            for (gasnet_node_t p = 0; p < gasneti_nodes; p++)
                if (reach[p] && p != gasneti_mynode && !gasneti_rma_for[p]) {
                    gasneti_rma_for[p] = b;
                    served++;
                }
            active[nactive++] = b;
            if (b->poll) gasneti_poll_add(b->poll); /* from now on every poll runs it */
        }
        report(order[i], served, served ? "" : why, norder == 1);
        if (strict && norder == 1 && served < (int)gasneti_nodes - 1)
            gasneti_fatalerror("GASNET_RMA=%s with GASNET_RMA_STRICT=yes, but the backend serves "
                               "%d of %u peers: %s", want, served, gasneti_nodes - 1, why);
    }
    free(reach);
    publish_fast_path();
    for (gasnet_node_t p = 0; p < gasneti_nodes; p++)
        GASNETI_TRACE_EVENT('C', "attach", "node %u: host %u neighbourhood %u, RMA by %s", p,
                            gasneti_nodeinfo[p].host, gasneti_nodeinfo[p].supernode,
                            p == gasneti_mynode ? "copies (this node)"
                            : gasneti_rma_for[p] ? gasneti_rma_for[p]->name : "AM");
}

static int is_active(const gasneti_rma_t *b)
{
    for (int i = 0; b && i < nactive; i++)
        if (active[i] == b) return 1;
    return 0;
}

void gasneti_rma_seg_register(gasneti_segment_t seg, gex_EP_Index_t index, gasneti_rma_keys_t *keys)
{
    pthread_mutex_lock(&seg_lock);
    registration_t *r = registrations;
    while (r && r->seg != seg) r = r->next;
    if (!r) {
        if (!(r = calloc(1, sizeof *r))) gasneti_fatalerror("out of memory registering a segment");
        r->seg = seg;
        r->next = registrations;
        registrations = r;
    }
    gasneti_mk_t mk = seg->kind == GEX_MK_HOST ? NULL : gasneti_mk_import(seg->kind, "publish");
    const char *what = mk ? mk->cls->name : "host";
    for (int i = 0; i < GASNETI_RMA_NETS; i++) { /* backends running now, each tried once */
        const gasneti_rma_t *b = nets[i];
        if (!is_active(b) || (r->tried >> i & 1)) continue;
        r->tried |= 1u << i;
        char why[256] = "";
        gasneti_mk_nic_t view = {seg->addr, -1};
        if (mk && !mk->cls->nic_view)
            snprintf(why, sizeof why, "the %s class gives network cards no access", what);
        else if (!mk || mk->cls->nic_view(mk, seg->addr, seg->size, &view, why, sizeof why) == 0)
            r->handle[i] = b->seg_register(view.addr, seg->size, view.cuda_device, &r->keys.key[i],
                                           why, sizeof why);
        if (r->handle[i]) {
            r->keys.have |= 1u << i;
            /* peers add delta to owner addresses: fold in where the card sees the segment */
            r->keys.key[i].delta += (uint64_t)(uintptr_t)view.addr - (uint64_t)(uintptr_t)seg->addr;
        }
        if (!gasneti_getenv_yesno("GASNET_VERBOSEENV", 0)) continue;
        if (r->handle[i])
            fprintf(stderr, "GASNet node %u: the segment of endpoint %u (%s memory) is registered "
                    "with %s\n", gasneti_mynode, index, what, b->name);
        else
            fprintf(stderr, "GASNet node %u: the segment of endpoint %u (%s memory) is not "
                    "registered with %s, so the peers %s serves use the AM path for it: %s\n",
                    gasneti_mynode, index, what, b->name, b->name, why);
    }
    *keys = r->keys;
    pthread_mutex_unlock(&seg_lock);
}

void gasneti_rma_seg_unregister(gasneti_segment_t seg)
{
    pthread_mutex_lock(&seg_lock);
    registration_t **link = &registrations, *r;
    while ((r = *link) && r->seg != seg) link = &r->next;
    if (r) *link = r->next;
    pthread_mutex_unlock(&seg_lock);
    for (int i = 0; r && i < GASNETI_RMA_NETS; i++)
        if (r->handle[i]) nets[i]->seg_unregister(r->handle[i]);
    free(r);
}

void gasneti_rma_peer_keys(gex_EP_Location_t loc, const gasneti_rma_keys_t *keys)
{
    pthread_mutex_lock(&seg_lock);
    peer_key_t *row = peer_keys[loc.gex_ep_index];
    if (!row) {
        if (!(row = calloc(gasneti_nodes, sizeof *row)))
            gasneti_fatalerror("out of memory for the segment keys of endpoint index %u",
                               loc.gex_ep_index);
        __atomic_store_n(&peer_keys[loc.gex_ep_index], row, __ATOMIC_RELEASE);
    }
    peer_key_t *p = &row[loc.gex_rank];
    __atomic_store_n(&p->net, NULL, __ATOMIC_RELEASE);
    const gasneti_rma_t **serving = chosen ? chosen : gasneti_rma_for; /* also while forced */
    const gasneti_rma_t *b = serving ? serving[loc.gex_rank] : NULL;
    for (int i = 0; b && i < GASNETI_RMA_NETS; i++)
        if (nets[i] == b && (keys->have >> i & 1)) {
            __atomic_store_n(&p->key.delta, keys->key[i].delta, __ATOMIC_RELAXED);
            __atomic_store_n(&p->key.key, keys->key[i].key, __ATOMIC_RELAXED);
            __atomic_store_n(&p->net, b, __ATOMIC_RELEASE);
        }
    pthread_mutex_unlock(&seg_lock);
}

const gasneti_rma_t *gasneti_rma_for_ep(gex_EP_Location_t loc, gasneti_rma_key_t *key)
{
    peer_key_t *row = __atomic_load_n(&peer_keys[loc.gex_ep_index], __ATOMIC_ACQUIRE);
    if (!row) return NULL;
    peer_key_t *p = &row[loc.gex_rank];
    const gasneti_rma_t *b = __atomic_load_n(&p->net, __ATOMIC_ACQUIRE);
    /* not while forced to the AM path (and not after detach) */
    if (!b || !gasneti_rma_for || gasneti_rma_for[loc.gex_rank] != b) return NULL;
    /* (a copy: a publish racing with RMA to the same endpoint is erroneous,
     * but must not make a data race here) */
    key->delta = __atomic_load_n(&p->key.delta, __ATOMIC_RELAXED);
    key->key = __atomic_load_n(&p->key.key, __ATOMIC_RELAXED);
    return b;
}

void gasneti_rma_detach(void)
{
    gasneti_rma_force_am(0);
    gasneti_pshm_t *table = gasneti_pshm;
    gasneti_pshm = NULL;
    gasneti_pshm_fast_update();
    free(table);
    /* routes say AM from now on: ammpi_close still delivers AMs, and the
     * backends unmap their peers below */
    const gasneti_rma_t **chose = gasneti_rma_for;
    __atomic_store_n(&gasneti_rma_for, NULL, __ATOMIC_RELEASE);
    for (int e = 0; e < GASNET_MAXEPS; e++) {
        peer_key_t *row = peer_keys[e];
        for (gasnet_node_t p = 0; row && p < gasneti_nodes; p++)
            __atomic_store_n(&row[p].net, NULL, __ATOMIC_RELEASE);
    }
    /* registrations still alive are the backends': each closes them in
     * its detach, after the barrier that ends the peers' transfers */
    pthread_mutex_lock(&seg_lock);
    registration_t *r = registrations;
    registrations = NULL;
    pthread_mutex_unlock(&seg_lock);
    while (r) {
        registration_t *next = r->next;
        free(r);
        r = next;
    }
    for (int i = nactive - 1; i >= 0; i--) {
        if (active[i]->poll) gasneti_poll_remove(active[i]->poll);
        active[i]->detach();
    }
    nactive = 0;
    free(chose);
}

/* Forced, the library's dispatch and the header's fast path see what
 * GASNET_RMA=am gives them: no backend, and a table mapping this process
 * alone. */
void gasneti_rma_force_am(int on)
{
    size_t bytes = gasneti_nodes * sizeof *gasneti_rma_for;
    if (on && !chosen) {
        gasneti_pshm_t *self = calloc(gasneti_nodes, sizeof *self);
        if (!(chosen = malloc(bytes)) || !self)
            gasneti_fatalerror("gasneti_rma_force_am: out of memory");
        memcpy(chosen, gasneti_rma_for, bytes);
        memset(gasneti_rma_for, 0, bytes);
        if (gasneti_pshm) self[gasneti_mynode] = gasneti_pshm[gasneti_mynode];
        chosen_pshm = gasneti_pshm;
        gasneti_pshm = self;
        gasneti_pshm_fast_update();
    } else if (!on && chosen) {
        memcpy(gasneti_rma_for, chosen, bytes);
        free(chosen);
        chosen = NULL;
        gasneti_pshm_t *self = gasneti_pshm;
        gasneti_pshm = chosen_pshm;
        chosen_pshm = NULL;
        gasneti_pshm_fast_update();
        free(self);
    }
}

/* The backends as a layer (conduit/conduit.c lists it first): the choice
 * per peer at attach, before the layers that use the shm backend's pages
 * (each backend that needs polling then joins every poll); registrations
 * of created segments dropped as they go; shutdown. */
const gasneti_layer_t gasneti_rma_layer = {
    .name = "rma",
    .attach = gasneti_rma_attach,
    .exit = gasneti_rma_detach,
    .segment_destroy = gasneti_rma_seg_unregister,
};
