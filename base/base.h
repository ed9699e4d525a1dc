/* The base of the library: what every layer needs and that needs no layer
 * of ours. Who this process is in the job, fatal errors and error reports,
 * and the job's environment with its strict setting parsers. It uses only
 * the API headers, MPI and the tools library (gasnett_*). Not installed.
 */
#ifndef GASNETI_BASE_H
#define GASNETI_BASE_H

#include <gasnetex.h>
#include <mpi.h>

/* ---- the job (job.c), set by the core at start-up */
extern int gasneti_init_done;               /* the job is up (a client exists) */
extern gasnet_nodeinfo_t *gasneti_nodeinfo; /* every node's host and neighbourhood */
extern gex_Rank_t gasneti_nbrhds, gasneti_hosts; /* how many of each */
/* (gasneti_mynode and gasneti_nodes are the API's: gasnet_core.h) */

/* ---- errors (errors.c) */
/* Prints "*** FATAL ERROR: node N of M: ..." and aborts the whole job. */
void gasneti_fatalerror(const char *fmt, ...)
    __attribute__((__noreturn__, __format__(__printf__, 1, 2)));
/* Called by gasneti_fatalerror with the message before it aborts (the
 * core's: the watch goes quiet, the trace records it); may be NULL. */
extern void (*gasneti_fatal_hook)(const char *msg);
/* A handle from the client that is not an object of the kind expected. */
void gasneti_bad_handle(const char *call, const char *what, const void *handle)
    __attribute__((__noreturn__));
/* Prints "GASNet <call> on node N: <why> (<code name>)" and returns code. */
int gasneti_report(const char *call, int code, const char *fmt, ...)
    __attribute__((__format__(__printf__, 3, 4)));

/* ---- shared memory between the processes of a host (shm.c): create
 * maps a new object at `at` (fixed) or anywhere (*addr) and returns its
 * fd, which stays open until every neighbour has mapped it, or -1 with
 * why; map maps a neighbour's object (its pid and fd, size bytes at least)
 * anywhere, or returns NULL with why. */
int gasneti_shm_create(size_t size, void *at, void **addr, char *why, size_t whylen);
void *gasneti_shm_map(long pid, int fd, size_t size, char *why, size_t whylen);

/* ---- the host's topology (topology.c, hwloc when built with it):
 * init binds this process as GASNET_BIND asks (collective over comm,
 * after the environment, before the buffers are allocated), and
 * gasneti_nic_distance ranks a network device by how far it is from the
 * cores this process runs on (0 = attached to a NUMA node holding them,
 * larger = farther, -1 = unknown); a backend choosing among several
 * devices takes the smallest. The argument is a PCI bus id "0000:3b:00.0"
 * or a device name the OS knows (e.g. "mlx5_0"). */
void gasneti_topology_init(MPI_Comm comm);
int gasneti_nic_distance(const char *device);

/* ---- the environment (env.c): node 0's, which every node takes at
 * start-up (collective over comm, after gasneti_mynode is set); values
 * are reported under GASNET_VERBOSEENV with whether each was the default. */
void gasneti_env_init(MPI_Comm comm);
/* Tests only (debug builds): GASNET_DEBUG_KILL_AT=WHERE:NODE makes node
 * NODE kill itself with SIGKILL when it reaches the point named WHERE, so
 * that a test can lose a node at a chosen moment. Points: shm (the shm
 * backend's attach, its objects made, its neighbours not yet mapped them)
 * and shmam (the same for the AM rings at init). */
#ifdef GASNET_DEBUG
void gasneti_debug_kill_point(const char *where);
#else
#define gasneti_debug_kill_point(where) ((void)0)
#endif
/* Numeric settings: strict, in [lo, hi], else fatal naming the variable
 * and the value; unset or empty gives dflt. */
int64_t gasneti_getenv_int(const char *key, int64_t dflt, int64_t lo, int64_t hi);
int64_t gasneti_getenv_size(const char *key, int64_t dflt, int64_t lo, int64_t hi); /* 16K, 2M... */
/* Whether this node is in a list setting ("*", or "0,2-4,6"; unset or
 * empty: every node); anything else is fatal, naming the variable. */
int gasneti_getenv_nodes(const char *key);
double gasneti_getenv_seconds(const char *key, double dflt, double lo, double hi);
int gasneti_getenv_yesno(const char *key, int dflt);
const char *gasneti_getenv_str(const char *key, const char *dflt);

#endif
