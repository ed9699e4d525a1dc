/* The shm backend: nodes on the same host map each other's segments, so a
 * put, get or memset to such a peer is a plain copy that completes at once
 * (the peer's route is MAPPED, route.h: the backend has no operations).
 *
 * At attach each node replaces its (anonymous, untouched) segment mapping
 * by a shared-memory object of the same size at the same address: a memfd
 * (gasneti_shm_create, base/shm.c), which its host peers open through
 * /proc/<pid>/fd/<fd> (as created segments are: core-mpi/segment.c) and
 * map wherever their address space has room, remembering the offset (also
 * reported by gasnet_getNodeInfo). Once every host peer has mapped every
 * object, the owner closes the descriptor: the memory lives on in the
 * mappings. Nothing is ever named in /dev/shm, so nothing is left there,
 * whenever a node dies, at start-up included (tests: fault_kill_startup_*).
 *
 * Ordering: a put's stores are made visible before anything the caller
 * does after it returns (release fence); a get sees every store another
 * node made before its last synchronisation with this one (acquire fence).
 *
 * Which nodes share memory is decided at start-up (core-mpi/core.c: the
 * neighbourhood, limited by GASNET_SUPERNODE_MAXSIZE; 1: none, to run the
 * remote paths on one machine).
 */
#include "rma.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static MPI_Comm local_comm = MPI_COMM_NULL;
static int nlocal, local_rank;
static gasnet_node_t *local_nodes; /* local rank -> node */
static uintptr_t *offset;          /* per node: add to its segment address */
static void **mapped;              /* per node: our mapping of its segment */

/* shared by the host's nodes: a page for the barrier, then a lane per
 * node for the collectives (GASNETI_SHM_COLL_LANE) */
static void *control;
#define CONTROL_PAGE 4096
static size_t control_size(void) { return CONTROL_PAGE + (size_t)nlocal * GASNETI_SHM_COLL_LANE; }

/* Agrees within the host on whether every node succeeded. */
static int all_ok(int ok)
{
    int all;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, local_comm);
    return all;
}

static int give_up(void);

static int shm_attach(unsigned char *reach, char *why, size_t whylen)
{
    int me = (int)gasneti_mynode;
    /* the neighbourhood core.c found at start-up */
    MPI_Comm_split(gasnetc_comm, (int)gasneti_nodeinfo[me].supernode, me, &local_comm);
    MPI_Comm_size(local_comm, &nlocal);
    MPI_Comm_rank(local_comm, &local_rank);
    offset = calloc(gasneti_nodes, sizeof *offset);
    mapped = calloc(gasneti_nodes, sizeof *mapped);
    local_nodes = calloc((size_t)nlocal, sizeof *local_nodes);
    if (!offset || !mapped || !local_nodes) gasneti_fatalerror("shm: out of memory");
    MPI_Allgather(&me, 1, MPI_INT, local_nodes, 1, MPI_INT, local_comm);
    if (nlocal == 1) {
        snprintf(why, whylen, "no other node shares memory with node %d", me);
        return give_up();
    }
    void *base = gasneti_seginfo[gasneti_mynode].addr;
    uintptr_t size = gasneti_seginfo[gasneti_mynode].size;
    /* 1. each node shares its own segment in place; the first the control page */
    struct { long pid, seg_fd, ctl_fd; } mine = {(long)getpid(), -1, -1}, *all;
    void *at = base;
    if (size) mine.seg_fd = gasneti_shm_create(size, base, &at, why, whylen);
    int shared = !size || mine.seg_fd >= 0;
    if (local_rank == 0 && shared &&
        (mine.ctl_fd = gasneti_shm_create(control_size(), NULL, &control, why, whylen)) < 0)
        shared = 0;
    gasneti_debug_kill_point("shm");
    int ok = all_ok(shared);
    /* 2. each node maps the others' */
    if (ok) {
        all = malloc((size_t)nlocal * sizeof *all);
        if (!all) gasneti_fatalerror("shm: out of memory");
        MPI_Allgather(&mine, 3, MPI_LONG, all, 3, MPI_LONG, local_comm);
        for (int r = 0; r < nlocal; r++) {
            gasnet_node_t node = local_nodes[r];
            if (r == local_rank || !gasneti_seginfo[node].size) continue;
            mapped[node] = gasneti_shm_map(all[r].pid, (int)all[r].seg_fd, gasneti_seginfo[node].size,
                                           why, whylen);
            ok &= mapped[node] != NULL;
            offset[node] = (uintptr_t)mapped[node] - (uintptr_t)gasneti_seginfo[node].addr;
        }
        if (local_rank != 0)
            ok &= (control = gasneti_shm_map(all[0].pid, (int)all[0].ctl_fd, control_size(), why,
                                             whylen)) != NULL;
        free(all);
        ok = all_ok(ok); /* after this, every object is mapped where it will be */
    }
    /* 3. no descriptor is needed any more: the mappings hold the memory */
    if (mine.seg_fd >= 0) close((int)mine.seg_fd);
    if (mine.ctl_fd >= 0) close((int)mine.ctl_fd);
    if (!ok) {
        if (!why[0]) snprintf(why, whylen, "another node on the host could not share its segment");
        return give_up();
    }
    for (int r = 0; r < nlocal; r++) {
        gasnet_node_t node = local_nodes[r];
        reach[node] = 1;
        gasneti_nodeinfo[node].offset = offset[node];
    }
    return 0;
}

static void shm_detach(void)
{
    for (gasnet_node_t p = 0; p < gasneti_nodes; p++)
        if (mapped[p]) munmap(mapped[p], gasneti_seginfo[p].size);
    if (control) munmap(control, control_size());
    control = NULL;
    free(mapped);
    free(offset);
    free(local_nodes);
    mapped = NULL;
    offset = NULL;
    local_nodes = NULL;
    MPI_Comm_free(&local_comm);
}

/* A failed attach gives back what it holds. The host's node count stays:
 * with no control page, the barrier knows not to use shared memory. */
static int give_up(void)
{
    shm_detach();
    return -1;
}

int gasneti_shm_local_nodes(int *my_index)
{
    *my_index = local_rank;
    return nlocal;
}

void *gasneti_shm_control(void) { return control; }
void *gasneti_shm_coll_lanes(void) { return control ? (char *)control + CONTROL_PAGE : NULL; }

const gasneti_rma_t gasneti_rma_shm = {
    "shm", shm_attach, NULL, NULL, NULL, NULL, NULL, NULL, shm_detach,
};
