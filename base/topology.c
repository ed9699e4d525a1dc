/* Host topology with hwloc: optional binding of each node to a part of the
 * machine, and the distance of a network device from the cores a node runs
 * on, so that a backend with several NICs takes the nearest.
 *
 * GASNET_BIND=none (default) | core | l3 | numa | socket: the k-th node of
 * a host binds to the k-th object of that kind (round robin). The binding
 * is reported under GASNET_VERBOSEENV. Without hwloc at build time only
 * none is accepted (others print why and are ignored).
 */
#include "base.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#ifdef GASNETI_HAVE_HWLOC
#include <hwloc.h>

static hwloc_topology_t topo;
static hwloc_cpuset_t bound; /* where this process runs */

static int bind_type(const char *name, hwloc_obj_type_t *type)
{
    static const struct { const char *name; hwloc_obj_type_t type; } kinds[] = {
        {"core", HWLOC_OBJ_CORE}, {"l3", HWLOC_OBJ_L3CACHE},
        {"numa", HWLOC_OBJ_NUMANODE}, {"socket", HWLOC_OBJ_PACKAGE},
    };
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (!strcasecmp(name, kinds[i].name)) {
            *type = kinds[i].type;
            return 1;
        }
    return 0;
}

static int local_rank(MPI_Comm comm)
{
    MPI_Comm local;
    int rank;
    MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, (int)gasneti_mynode, MPI_INFO_NULL, &local);
    MPI_Comm_rank(local, &rank);
    MPI_Comm_free(&local);
    return rank;
}

void gasneti_topology_init(MPI_Comm comm)
{
    const char *want = gasneti_getenv_str("GASNET_BIND", "none");
    hwloc_obj_type_t type = HWLOC_OBJ_CORE;
    int binding = strcasecmp(want, "none") != 0;
    if (binding && !bind_type(want, &type))
        gasneti_fatalerror("GASNET_BIND=%s: use none, core, l3, numa or socket", want);
    int rank = local_rank(comm); /* collective: every node calls it */
    if (hwloc_topology_init(&topo) != 0 ||
        hwloc_topology_set_io_types_filter(topo, HWLOC_TYPE_FILTER_KEEP_IMPORTANT) != 0 ||
        hwloc_topology_load(topo) != 0) {
        fprintf(stderr, "GASNet node %u: hwloc could not load the topology; no binding\n",
                gasneti_mynode);
        topo = NULL;
        return;
    }
    bound = hwloc_bitmap_alloc();
    if (binding) {
        int n = hwloc_get_nbobjs_by_type(topo, type);
        hwloc_obj_t obj = n > 0 ? hwloc_get_obj_by_type(topo, type, (unsigned)(rank % n)) : NULL;
        if (!obj || hwloc_set_cpubind(topo, obj->cpuset, HWLOC_CPUBIND_PROCESS) != 0)
            fprintf(stderr, "GASNet node %u: GASNET_BIND=%s failed (%d such objects); not bound\n",
                    gasneti_mynode, want, n);
    }
    if (hwloc_get_cpubind(topo, bound, HWLOC_CPUBIND_PROCESS) != 0)
        hwloc_bitmap_copy(bound, hwloc_topology_get_topology_cpuset(topo));
    if (gasneti_getenv_yesno("GASNET_VERBOSEENV", 0)) {
        char cpus[128];
        hwloc_bitmap_list_snprintf(cpus, sizeof cpus, bound);
        fprintf(stderr, "GASNet node %u: GASNET_BIND=%s, runs on cpus %s\n", gasneti_mynode, want,
                cpus);
    }
}

static hwloc_obj_t find_device(const char *device)
{
    hwloc_obj_t obj = hwloc_get_pcidev_by_busidstring(topo, device);
    if (obj) return obj;
    for (obj = hwloc_get_next_osdev(topo, NULL); obj; obj = hwloc_get_next_osdev(topo, obj))
        if (obj->name && !strcmp(obj->name, device)) return obj;
    return NULL;
}

int gasneti_nic_distance(const char *device)
{
    hwloc_obj_t dev = topo && device ? find_device(device) : NULL;
    hwloc_obj_t near = dev ? hwloc_get_non_io_ancestor_obj(topo, dev) : NULL;
    if (!near || !near->cpuset) return -1;
    if (hwloc_bitmap_isincluded(bound, near->cpuset)) return 0;
    if (hwloc_bitmap_intersects(bound, near->cpuset)) return 1;
    /* farther: how many levels up until an ancestor holds our cpus */
    int d = 2;
    for (hwloc_obj_t a = near->parent; a && !hwloc_bitmap_isincluded(bound, a->cpuset); a = a->parent)
        d++;
    return d;
}

#else /* no hwloc */

void gasneti_topology_init(MPI_Comm comm)
{
    (void)comm;
    const char *want = gasneti_getenv_str("GASNET_BIND", "none");
    if (strcasecmp(want, "none") && gasneti_mynode == 0)
        fprintf(stderr, "GASNet: GASNET_BIND=%s ignored: built without hwloc\n", want);
}

int gasneti_nic_distance(const char *device)
{
    (void)device;
    return -1;
}

#endif
