/* The mpi-conduit assembled: the layers stacked on the core, and the two
 * calls that start the library with them. This is the one file that names
 * every layer; the core walks the list it is given (gasneti_layer_t in
 * core-mpi/gasnet_internal.h) and knows none of them.
 *
 * The order is start-up order: a layer's init and attach may use the
 * layers before it (the barrier's attach runs before the collectives').
 * Each layer's handlers are registered on every endpoint. Listing a layer
 * here is also what links it into a program: a client that calls none of
 * its functions still serves its peers' requests.
 */
#include "gasnet_internal.h"

extern const gasneti_layer_t gasneti_rma_layer, gasneti_shmam_layer, gasnete_putget_layer,
    gasnete_pack_layer, gasnete_vis_layer, gasnete_segquery_layer, gasnete_barrier_layer, gasnete_coll_layer, gasnete_ratomic_layer;

static const gasneti_layer_t *const layers[] = {
    &gasneti_rma_layer,      /* core-native/: RMA backends (shm, verbs, ofi), routes */
    &gasneti_shmam_layer,    /* shmam/: AMs between neighbours through shared-memory rings */
    &gasnete_putget_layer,   /* extended/: puts, gets, memsets (its init sets up packing) */
    &gasnete_pack_layer,     /* extended/: batches of small puts and gets */
    &gasnete_barrier_layer,  /* barrier/ */
    &gasnete_coll_layer,     /* coll/: collectives and team construction */
    &gasnete_vis_layer,      /* extended/: vector, indexed and strided RMA */
    &gasnete_segquery_layer, /* extended/: gex_EP_QueryBoundSegmentNB */
    &gasnete_ratomic_layer,  /* ratomic/: remote atomics */
    NULL,
};

int gasnet_init(int *argc, char ***argv)
{
    return gasneti_legacy_init(layers, argc, argv);
}

int gex_Client_Init(gex_Client_t *client_p, gex_EP_t *ep_p, gex_TM_t *tm_p, const char *clientName,
                    int *argc, char ***argv, gex_Flags_t flags)
{
    return gasneti_client_init(layers, client_p, ep_p, tm_p, clientName, argc, argv, flags);
}
