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
 * GASNET_SUPERNODE_MAXSIZE limits how many nodes of a host share memory
 * (1: none, to run the remote paths on one machine).
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

static void object_name(char *buf, size_t len, long leader_pid, int rank)
{
    snprintf(buf, len, "/gasnet-%ld-%ld-%d", (long)getuid(), leader_pid, rank);
}

/* Makes this node's segment a shared object at the same address. */
static int share_own_segment(const char *name, char *why, size_t whylen)
{
    void *base = gasneti_seginfo[gasneti_mynode].addr;
    uintptr_t size = gasneti_seginfo[gasneti_mynode].size;
    if (size == 0) return 0;
    int fd = shm_open(name, O_CREAT | O_EXCL | O_RDWR, 0600);
    if (fd < 0) {
        snprintf(why, whylen, "shm_open(%s) failed on node %u: %s", name, gasneti_mynode,
                 strerror(errno));
        return -1;
    }
    int ok = ftruncate(fd, (off_t)size) == 0 &&
             mmap(base, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, 0) == base;
    if (!ok) {
        snprintf(why, whylen, "sharing the %lu-byte segment of node %u failed: %s",
                 (unsigned long)size, gasneti_mynode, strerror(errno));
        shm_unlink(name);
    }
    close(fd);
    return ok ? 0 : -1;
}

static int map_peer(gasnet_node_t node, const char *name, char *why, size_t whylen)
{
    uintptr_t size = gasneti_seginfo[node].size;
    if (size == 0) return 0;
    int fd = shm_open(name, O_RDWR, 0);
    void *p = fd < 0 ? MAP_FAILED
                     : mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_NORESERVE, fd, 0);
    if (fd >= 0) close(fd);
    if (p == MAP_FAILED) {
        snprintf(why, whylen, "node %u could not map node %u's segment %s: %s", gasneti_mynode,
                 node, name, strerror(errno));
        return -1;
    }
    mapped[node] = p;
    offset[node] = (uintptr_t)p - (uintptr_t)gasneti_seginfo[node].addr;
    return 0;
}

/* Agrees within the host on whether every node succeeded. */
static int all_ok(int ok)
{
    int all;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, local_comm);
    return all;
}

static int shm_attach(unsigned char *reach, char *why, size_t whylen)
{
    int me = (int)gasneti_mynode, host_rank, maxsize;
    MPI_Comm host;
    MPI_Comm_split_type(gasnetc_comm, MPI_COMM_TYPE_SHARED, me, MPI_INFO_NULL, &host);
    MPI_Comm_rank(host, &host_rank);
    maxsize = (int)gasneti_getenv_int("GASNET_SUPERNODE_MAXSIZE", 0);
    if (maxsize < 0) gasneti_fatalerror("GASNET_SUPERNODE_MAXSIZE=%d: use 0 (no limit) or more", maxsize);
    MPI_Comm_split(host, maxsize ? host_rank / maxsize : 0, host_rank, &local_comm);
    MPI_Comm_free(&host);
    MPI_Comm_size(local_comm, &nlocal);
    MPI_Comm_rank(local_comm, &local_rank);
    offset = calloc(gasneti_nodes, sizeof *offset);
    mapped = calloc(gasneti_nodes, sizeof *mapped);
    local_nodes = calloc((size_t)nlocal, sizeof *local_nodes);
    if (!offset || !mapped || !local_nodes) gasneti_fatalerror("shm: out of memory");
    MPI_Allgather(&me, 1, MPI_INT, local_nodes, 1, MPI_INT, local_comm);
    /* every node learns every node's shared-memory group: its first node */
    int group = (int)local_nodes[0], *groups = malloc(gasneti_nodes * sizeof *groups);
    if (!groups) gasneti_fatalerror("shm: out of memory");
    MPI_Allgather(&group, 1, MPI_INT, groups, 1, MPI_INT, gasnetc_comm);
    for (gasnet_node_t p = 0; p < gasneti_nodes; p++) gasneti_nodeinfo[p].supernode = (gasnet_node_t)groups[p];
    free(groups);
    if (nlocal == 1) {
        snprintf(why, whylen, "no other node shares memory with node %d", me);
        return -1;
    }
    long leader_pid = (long)getpid();
    MPI_Bcast(&leader_pid, 1, MPI_LONG, 0, local_comm);
    char name[96];
    object_name(name, sizeof name, leader_pid, local_rank);
    int shared = share_own_segment(name, why, whylen) == 0;
    int ok = all_ok(shared);
    if (ok) {
        for (int r = 0; r < nlocal; r++) {
            char peer[96];
            object_name(peer, sizeof peer, leader_pid, r);
            if (r != local_rank) ok &= map_peer(local_nodes[r], peer, why, whylen) == 0;
        }
        ok = all_ok(ok); /* after this, every object is mapped where it will be */
    }
    if (shared && gasneti_seginfo[gasneti_mynode].size) shm_unlink(name);
    if (!ok) {
        if (!why[0]) snprintf(why, whylen, "another node on the host could not share its segment");
        return -1;
    }
    for (int r = 0; r < nlocal; r++) {
        gasnet_node_t node = local_nodes[r];
        reach[node] = 1;
        gasneti_nodeinfo[node].offset = offset[node];
    }
    return 0;
}

static int shm_put(gasnet_node_t node, void *dest, const void *src, size_t n, int bulk,
                   uint32_t *counter)
{
    (void)bulk;
    (void)counter;
    memcpy((char *)dest + offset[node], src, n);
    __atomic_thread_fence(__ATOMIC_RELEASE);
    return 0;
}

static int shm_get(void *dest, gasnet_node_t node, const void *src, size_t n, uint32_t *counter)
{
    (void)counter;
    __atomic_thread_fence(__ATOMIC_ACQUIRE);
    memcpy(dest, (const char *)src + offset[node], n);
    return 0;
}

static int shm_memset(gasnet_node_t node, void *dest, int val, size_t n, uint32_t *counter)
{
    (void)counter;
    memset((char *)dest + offset[node], val, n);
    __atomic_thread_fence(__ATOMIC_RELEASE);
    return 0;
}

static void shm_detach(void)
{
    for (gasnet_node_t p = 0; p < gasneti_nodes; p++)
        if (mapped[p]) munmap(mapped[p], gasneti_seginfo[p].size);
    free(mapped);
    free(offset);
    free(local_nodes);
    MPI_Comm_free(&local_comm);
}

/* The nodes that share memory with this one (itself included), for the
 * shared-memory barrier. */
int gasneti_shm_local_nodes(const gasnet_node_t **nodes, int *my_index)
{
    *nodes = local_nodes;
    *my_index = local_rank;
    return nlocal;
}

const gasneti_rma_t gasneti_rma_shm = {
    "shm", shm_attach, shm_put, shm_get, shm_memset, NULL, shm_detach,
};
