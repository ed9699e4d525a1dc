/* The shm backend: nodes on the same host map each other's segments, so a
 * put, get or memset to such a peer is a plain copy that completes at once.
 *
 * At attach each node replaces its (anonymous, untouched) segment mapping
 * by a POSIX shared-memory object of the same size at the same address,
 * named /gasnet-<uid>-<pid of the host's first node>-<local rank>, created
 * exclusively with mode 0600; its host peers map it wherever their address
 * space has room and remember the offset (also reported by
 * gasnet_getNodeInfo). Once every host peer has mapped every object, the
 * names are unlinked: the memory lives on in the mappings, and nothing is
 * left behind in /dev/shm even if a node crashes later.
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

/* /gasnet-<uid>-<leader pid>-<what>: what is a local rank or "ctl" */
static void object_name(char *buf, size_t len, long leader_pid, const char *what)
{
    snprintf(buf, len, "/gasnet-%ld-%ld-%s", (long)getuid(), leader_pid, what);
}

/* Maps a shared-memory object of size bytes: at a fixed address (to turn
 * this node's segment into a shared object) or anywhere; created
 * exclusively, mode 0600, when create is set. NULL on failure, with why. */
static void *map_object(const char *name, size_t size, void *at, int create, char *why,
                        size_t whylen)
{
    int fd = shm_open(name, create ? O_CREAT | O_EXCL | O_RDWR : O_RDWR, 0600);
    void *p = MAP_FAILED;
    if (fd >= 0 && (!create || ftruncate(fd, (off_t)size) == 0))
        p = mmap(at, size, PROT_READ | PROT_WRITE,
                 MAP_SHARED | (at ? MAP_FIXED : MAP_NORESERVE), fd, 0);
    if (p == MAP_FAILED) {
        snprintf(why, whylen, "node %u could not %s shared memory %s (%zu bytes): %s",
                 gasneti_mynode, create ? "create" : "map", name, size, strerror(errno));
        if (fd >= 0 && create) shm_unlink(name);
    }
    if (fd >= 0) close(fd);
    return p == MAP_FAILED ? NULL : p;
}

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
    long leader_pid = (long)getpid();
    MPI_Bcast(&leader_pid, 1, MPI_LONG, 0, local_comm);
    char name[96], rank_str[16], ctl[96];
    snprintf(rank_str, sizeof rank_str, "%d", local_rank);
    object_name(name, sizeof name, leader_pid, rank_str);
    object_name(ctl, sizeof ctl, leader_pid, "ctl");
    void *base = gasneti_seginfo[gasneti_mynode].addr;
    uintptr_t size = gasneti_seginfo[gasneti_mynode].size;
    /* 1. each node shares its own segment in place; the first the control page */
    int shared = !size || map_object(name, size, base, 1, why, whylen);
    if (local_rank == 0 && shared && !(control = map_object(ctl, control_size(), NULL, 1, why, whylen))) {
        if (size) shm_unlink(name);
        shared = 0;
    }
    gasneti_debug_kill_point("shm");
    int ok = all_ok(shared);
    /* 2. each node maps the others' */
    if (ok) {
        for (int r = 0; r < nlocal; r++) {
            gasnet_node_t node = local_nodes[r];
            char peer[96];
            snprintf(rank_str, sizeof rank_str, "%d", r);
            object_name(peer, sizeof peer, leader_pid, rank_str);
            if (r == local_rank || !gasneti_seginfo[node].size) continue;
            mapped[node] = map_object(peer, gasneti_seginfo[node].size, NULL, 0, why, whylen);
            ok &= mapped[node] != NULL;
            offset[node] = (uintptr_t)mapped[node] - (uintptr_t)gasneti_seginfo[node].addr;
        }
        if (local_rank != 0) ok &= (control = map_object(ctl, control_size(), NULL, 0, why, whylen)) != NULL;
        ok = all_ok(ok); /* after this, every object is mapped where it will be */
    }
    /* 3. no name is needed any more: nothing stays in /dev/shm */
    if (shared && size) shm_unlink(name);
    if (shared && local_rank == 0) shm_unlink(ctl);
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

/* (seg is always NULL: created endpoints' segments on this host are
 * mapped by core-mpi/segment.c and copied into by the extended API) */
static int shm_put(gasnet_node_t node, const gasneti_rma_key_t *seg, void *dest, const void *src,
                   size_t n, int bulk, uint32_t *counter)
{
    (void)seg, (void)bulk;
    (void)counter;
    memcpy((char *)dest + offset[node], src, n);
    __atomic_thread_fence(__ATOMIC_RELEASE);
    return 0;
}

static int shm_get(void *dest, gasnet_node_t node, const gasneti_rma_key_t *seg, const void *src,
                   size_t n, uint32_t *counter)
{
    (void)seg, (void)counter;
    __atomic_thread_fence(__ATOMIC_ACQUIRE);
    memcpy(dest, (const char *)src + offset[node], n);
    return 0;
}

static int shm_memset(gasnet_node_t node, const gasneti_rma_key_t *seg, void *dest, int val,
                      size_t n, uint32_t *counter)
{
    (void)seg, (void)counter;
    memset((char *)dest + offset[node], val, n);
    __atomic_thread_fence(__ATOMIC_RELEASE);
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
    "shm", shm_attach, shm_put, shm_get, shm_memset, NULL, NULL, NULL, shm_detach,
};
