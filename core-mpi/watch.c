/* Lost nodes: a process of this host that ends without GASNet's exit
 * (killed, crashed) is reported by the nodes of its host, which then end
 * the job.
 *
 * Why. MPI is fail-stop, but the stop is the launcher's: MPICH's hydra
 * kills every other process at once, while other launchers (hydra with
 * -disable-auto-cleanup, srun without --kill-on-bad-exit) leave them
 * running, and a node waiting for a reply, a barrier or an exit notice
 * from the lost one would wait forever, saying nothing.
 *
 * How. At init every node learns every node's pid and start time
 * (/proc/self/stat); for each other node of its host it opens a pidfd
 * (pidfd_open: no polling, no pid reuse) and checks that the pid still
 * names that process (same start time: a node in another pid namespace is
 * not watched). A private thread sleeps in poll() on the pidfds; one turns
 * readable when its process has ended. Peers also end in a normal exit,
 * but never before this node has begun its own: an exiting node ends only
 * after every other node sent it an exit notice (core-mpi/exit.c), and a
 * node sends its notice after gasnetc_watch_quiet(); a termination signal
 * silences the watch too. One exit ends a peer first: a node whose exit
 * gave up waiting for this one's notice (GASNET_EXIT_ACKWAIT, this node
 * computing without polling) ends the job with MPI_Abort, and the launcher
 * then ends this node within milliseconds. So, unless quiet, the thread
 * waits GRACE (that kill, or a termination signal to the whole job, may be
 * on its way: this node then ends as the client wants, saying nothing
 * false), and if still here prints
 *   GASNet node A: node B (pid P) on this host was lost: it ended
 *   without gasnet_exit
 * and, GRACE later (for the launcher to forward the lines), ends the job
 * with MPI_Abort (status 1), from its own thread: the client's threads may
 * all be blocked waiting for the lost node.
 *
 * Nodes on other hosts are not watched (no pid reaches them): their loss
 * is MPI's to report, or the launcher's to act on. Without pidfd_open
 * (Linux < 5.3) nothing is watched. Cost: one sleeping thread and a file
 * descriptor per neighbour.
 */
#include "gasnet_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define GRACE_NS 200000000L /* 200 ms */

static int quiet;               /* atomic: a normal end of a peer is expected now */
static int nwatched;
static struct pollfd *fds;      /* [0] the wake pipe, then a pidfd per watched node */
static gasnet_node_t *watched;  /* the node of fds[i + 1] */
static long *pids;
static int wake[2] = {-1, -1};
static pthread_t thread;
static int running;

/* The start time of process pid, in clock ticks since boot (field 22 of
 * /proc/<pid>/stat, after the parenthesised name); 0 if unknown. */
static unsigned long long start_time(long pid)
{
    char path[64], buf[1024];
    snprintf(path, sizeof path, "/proc/%ld/stat", pid);
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    char *p = strrchr(buf, ')');
    unsigned long long t = 0;
    /* fields 3..21 skipped, then 22 */
    if (!p || sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d %*d %*d "
                            "%*d %*d %llu", &t) != 1)
        return 0;
    return t;
}

/* Whether peers may end now: this node ends, or heard an exit notice. */
static int expected(void)
{
    return __atomic_load_n(&quiet, __ATOMIC_ACQUIRE) ||
           __atomic_load_n(&gasnetc_exit_requested, __ATOMIC_ACQUIRE);
}

/* The thread ends only in gasnetc_watch_stop, which joins it: once peers
 * may end it waits on the wake pipe alone (a thread that ended unjoined
 * before the process did is a leak to ThreadSanitizer). */
static void *watch_main(void *arg)
{
    (void)arg;
    nfds_t n = (nfds_t)nwatched + 1;
    for (;;) {
        if (poll(fds, n, -1) < 0) {
            if (errno == EINTR) continue;
            struct timespec pause = {0, 10000000L}; /* ENOMEM: stop watching, retry later */
            nanosleep(&pause, NULL);
            n = 1;
            continue;
        }
        if (fds[0].revents) return NULL; /* gasnetc_watch_stop */
        for (int i = 0; i < nwatched && n > 1; i++) {
            if (!fds[i + 1].revents) continue;
            if (expected()) {
                n = 1;
                break;
            }
            struct timespec grace = {0, GRACE_NS};
            nanosleep(&grace, NULL);
            if (expected()) {
                n = 1;
                break;
            }
            gasnet_node_t lost = watched[i];
            fprintf(stderr, "GASNet node %u: node %u (pid %ld) on this host was lost: it ended "
                            "without gasnet_exit\n", gasneti_mynode, lost, pids[lost]);
            fprintf(stderr, "GASNet node %u: ending the job, as node %u was lost\n", gasneti_mynode,
                    lost);
            fflush(stderr);
            /* MPI_Abort has the launcher kill every process at once, and
             * what they wrote but it has not yet forwarded is lost (as in
             * exit.c's failsafe): give it a moment to forward these lines */
            struct timespec forward = {0, GRACE_NS};
            nanosleep(&forward, NULL);
            MPI_Abort(MPI_COMM_WORLD, 1);
            _exit(1);
        }
    }
}

void gasnetc_watch_start(void)
{
    gasnet_node_t n = gasneti_nodes, me = gasneti_mynode;
    long mine[2] = {(long)getpid(), (long)start_time(getpid())};
    long *all = malloc(2 * (size_t)n * sizeof *all);
    pids = malloc((size_t)n * sizeof *pids);
    fds = calloc((size_t)n + 1, sizeof *fds);
    watched = calloc((size_t)n, sizeof *watched);
    if (!all || !pids || !fds || !watched) gasneti_fatalerror("gasnet_init: out of memory");
    MPI_Allgather(mine, 2, MPI_LONG, all, 2, MPI_LONG, gasnetc_comm);
    for (gasnet_node_t p = 0; p < n; p++) {
        pids[p] = all[2 * p];
        if (p == me || gasneti_nodeinfo[p].host != gasneti_nodeinfo[me].host) continue;
#ifdef SYS_pidfd_open
        int fd = (int)syscall(SYS_pidfd_open, (pid_t)all[2 * p], 0);
#else
        int fd = -1;
#endif
        if (fd < 0) continue; /* no pidfd_open here, or the node is already gone */
        /* still the same process, in our pid namespace */
        if (!all[2 * p + 1] || start_time(all[2 * p]) != (unsigned long long)all[2 * p + 1]) {
            close(fd);
            continue;
        }
        watched[nwatched] = p;
        fds[++nwatched] = (struct pollfd){fd, POLLIN, 0};
    }
    free(all);
    if (!nwatched) return;
    if (pipe2(wake, O_CLOEXEC) != 0) gasneti_fatalerror("gasnet_init: pipe: %s", strerror(errno));
    fds[0] = (struct pollfd){wake[0], POLLIN, 0};
    if (pthread_create(&thread, NULL, watch_main, NULL) != 0)
        gasneti_fatalerror("gasnet_init: could not start the thread that watches this host's nodes");
    running = 1;
}

void gasnetc_watch_quiet(void) { __atomic_store_n(&quiet, 1, __ATOMIC_RELEASE); }

void gasnetc_watch_stop(void)
{
    gasnetc_watch_quiet();
    if (running) {
        char c = 0;
        ssize_t rc = write(wake[1], &c, 1);
        (void)rc;
        pthread_join(thread, NULL);
        running = 0;
    }
    for (int i = 1; i <= nwatched; i++) close(fds[i].fd);
    if (wake[0] >= 0) close(wake[0]);
    if (wake[1] >= 0) close(wake[1]);
    wake[0] = wake[1] = -1;
    nwatched = 0;
    free(fds);
    free(watched);
    free(pids);
    fds = NULL;
    watched = NULL;
    pids = NULL;
}
