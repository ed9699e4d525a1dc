/* Ending the job: gasnet_exit, return from main, exit(), and the failsafe.
 *
 * Exit notices travel on a channel of their own, outside the AM layer, so
 * a node can announce its exit at any time after init: from a handler,
 * from any thread, while its credits are used up. Each node keeps one
 * receive posted on gasnetc_comm with TAG_EXIT and tests it every few polls.
 *
 * A node that exits (gasnet_exit, return from main, exit()):
 *   1. arms the failsafe timer (GASNET_EXITTIMEOUT) and flushes its output;
 *   2. sends EXIT(code, origin) to every other node, where origin is the
 *      rank whose code it carries;
 *   3. waits, up to GASNET_EXIT_ACKWAIT seconds, to hear EXIT from every
 *      other node, then _exit()s; the MPI launcher ends whatever remains.
 * A node that hears EXIT while running goes on for a grace period (a
 * quarter of GASNET_EXIT_ACKWAIT), so that a collective exit at the end of
 * main lets every node finish and print; then it exits the same way.
 * Every node adopts the code of the lowest origin it has heard of, and
 * every exiting node tells every other, so all nodes that hear each other
 * agree on one code. Output is never lost: a node flushes before it
 * announces, and a node _exit()s only after hearing every other node (or
 * after the wait, when a node computes without ever polling).
 */
#include "gasnet_internal.h"
#include "rma.h"

#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>
#ifdef __SANITIZE_ADDRESS__
#include <sanitizer/lsan_interface.h>
#endif

#define TAG_EXIT 0x4558
#define MSG_EXIT 1

int gasnetc_exit_requested; /* heard EXIT: join the exit after the grace (atomic) */
static int exit_code, code_from = INT_MAX; /* adopted code and its origin rank */
static pthread_mutex_t state_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t exit_lock = PTHREAD_MUTEX_INITIALIZER;
static double exit_timeout, ack_wait, grace_deadline;
static volatile sig_atomic_t in_finalize;

static int inmsg[3];
static MPI_Request inreq = MPI_REQUEST_NULL;
static int (*outmsg)[3]; /* per peer: the EXIT we send */
static MPI_Request *outreq;
static unsigned char *heard; /* per peer: its EXIT arrived */
static long nheard;

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void adopt(int code, int from)
{
    pthread_mutex_lock(&state_lock);
    if (from < code_from) {
        code_from = from;
        exit_code = code;
    }
    pthread_mutex_unlock(&state_lock);
}

/* Handles every exit notice that has arrived. */
static void service_channel(void)
{
    ammpi_lock(gasnetc_ep);
    for (;;) {
        int done = 0;
        MPI_Status st;
        MPI_Test(&inreq, &done, &st);
        if (!done) break;
        int kind = inmsg[0], code = inmsg[1], origin = inmsg[2], src = st.MPI_SOURCE;
        if (kind != MSG_EXIT || origin < 0 || origin >= (int)gasneti_nodes)
            gasneti_fatalerror("malformed exit notice from node %d (kind %d, origin %d)", src,
                               kind, origin);
        adopt(code, origin);
        pthread_mutex_lock(&state_lock);
        if (!heard[src]) {
            heard[src] = 1;
            __atomic_fetch_add(&nheard, 1, __ATOMIC_RELEASE);
        }
        if (!__atomic_load_n(&gasnetc_exit_requested, __ATOMIC_RELAXED)) {
            grace_deadline = now() + ack_wait / 4;
            __atomic_store_n(&gasnetc_exit_requested, 1, __ATOMIC_RELEASE);
        }
        pthread_mutex_unlock(&state_lock);
        MPI_Irecv(inmsg, 3, MPI_INT, MPI_ANY_SOURCE, TAG_EXIT, gasnetc_comm, &inreq);
    }
    ammpi_unlock(gasnetc_ep);
}

void gasnetc_exit_poll(void)
{
    static __thread unsigned polls;
    if ((++polls & 15) == 0) service_channel();
    if (__atomic_load_n(&gasnetc_exit_requested, __ATOMIC_ACQUIRE) && now() >= grace_deadline)
        gasnetc_exit_now();
}

static void set_alarm(double seconds)
{
    time_t sec = (time_t)seconds;
    struct itimerval t = {{0, 0}, {sec, (suseconds_t)((seconds - (double)sec) * 1e6)}};
    setitimer(ITIMER_REAL, &t, NULL);
}

/* The failsafe first asks MPI to abort with the code: a plain _exit races
 * with the launcher (MPICH's may then report the others' kill signal as
 * the job's status). MPI_Abort from a signal handler may itself hang, so
 * the alarm is re-armed and its second firing _exit()s (SA_NODEFER lets
 * it interrupt the first). */
static void failsafe(int sig)
{
    (void)sig;
    static volatile sig_atomic_t fired;
    if (fired) _exit(exit_code);
    fired = 1;
    static const char msg[] = "GASNet: exit did not complete in GASNET_EXITTIMEOUT; forcing it\n";
    ssize_t rc = write(2, msg, sizeof msg - 1);
    (void)rc;
    if (in_finalize) _exit(exit_code); /* stuck in MPI_Finalize: MPI_Abort is no longer allowed */
    /* MPI_Abort tears the job down at once: give the launcher a moment to
     * forward this line (and what the client wrote before) first */
    struct timespec pause = {0, 200 * 1000 * 1000};
    nanosleep(&pause, NULL);
    set_alarm(1);
    MPI_Abort(MPI_COMM_WORLD, exit_code);
    _exit(exit_code);
}

static void arm_failsafe(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = failsafe;
    sa.sa_flags = SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGALRM, &sa, NULL);
    set_alarm(exit_timeout);
}

/* The first thread to get here ends the process; any other thread that
 * calls gasnet_exit meanwhile waits here forever. */
static int exiting; /* MPI_Finalize below must not run the client-finalize hook */
__thread int gasnetc_in_mpi;

static __attribute__((__noreturn__)) void do_exit(int code, int origin)
{
    pthread_mutex_lock(&exit_lock);
    exiting = 1;
    adopt(code, origin);
    arm_failsafe();
    fflush(NULL);
    pthread_mutex_lock(&state_lock);
    int announce = exit_code, from = code_from;
    pthread_mutex_unlock(&state_lock);
    ammpi_lock(gasnetc_ep);
    for (gasnet_node_t p = 0; p < gasneti_nodes; p++) {
        if (p == gasneti_mynode) continue;
        outmsg[p][0] = MSG_EXIT;
        outmsg[p][1] = announce;
        outmsg[p][2] = from;
        MPI_Isend(outmsg[p], 3, MPI_INT, (int)p, TAG_EXIT, gasnetc_comm, &outreq[p]);
    }
    ammpi_unlock(gasnetc_ep);
    double deadline = now() + ack_wait;
    long others = (long)gasneti_nodes - 1;
    while (__atomic_load_n(&nheard, __ATOMIC_ACQUIRE) < others && now() < deadline) {
        service_channel();
        usleep(200);
    }
    fflush(NULL);
    /* Every node is exiting too: finalize MPI together (also when the
     * client started it: the process ends here), which launchers take as a
     * normal end. Some node did not answer (it computes without polling):
     * MPI_Abort, the one way to have the launcher end it and still report
     * this exit code. */
    ammpi_cancel_receives(gasnetc_ep);
    if (__atomic_load_n(&nheard, __ATOMIC_ACQUIRE) < others) MPI_Abort(MPI_COMM_WORLD, exit_code);
    MPI_Cancel(&inreq);
    MPI_Request_free(&inreq);
    in_finalize = 1; /* the failsafe can no longer abort through MPI */
    MPI_Finalize();
#ifdef __SANITIZE_ADDRESS__
    __lsan_do_leak_check(); /* _exit skips the check LeakSanitizer runs at exit */
#endif
    _exit(exit_code);
}

void gasnet_exit(int code)
{
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (!gasneti_init_done || finalized) {
        fflush(NULL);
        _exit(code);
    }
    do_exit(code, (int)gasneti_mynode);
}

void gasnetc_exit_now(void)
{
    pthread_mutex_lock(&state_lock);
    int code = exit_code, from = code_from;
    pthread_mutex_unlock(&state_lock);
    do_exit(code, from);
}

/* Runs at exit() and at the return from main: the process status becomes
 * the job's exit code, unless the client already shut MPI down. */
static void at_process_exit(int status, void *arg)
{
    (void)arg;
    int finalized = 0;
    if (exiting || gasnetc_in_mpi) return; /* MPI itself is ending the process */
    MPI_Finalized(&finalized);
    if (!finalized && gasnetc_comm != MPI_COMM_NULL) gasnet_exit(status);
}

/* Termination signals: as the spec has it, SIGTERM, SIGINT and SIGHUP
 * become SIGQUIT, which the client may catch; if it does not, the node
 * ends with status 128 + the signal and the launcher ends the rest. Only
 * async-signal-safe calls here. */
static volatile sig_atomic_t first_signal;

static void on_sigquit(int sig)
{
    int s = first_signal ? first_signal : sig;
    char msg[] = "GASNet: node terminated by signal   \n";
    msg[sizeof msg - 4] = (char)('0' + s / 10);
    msg[sizeof msg - 3] = (char)('0' + s % 10);
    ssize_t rc = write(2, msg, sizeof msg - 1);
    (void)rc;
    _exit(128 + s);
}

static void on_termination(int sig)
{
    if (!first_signal) first_signal = sig;
    raise(SIGQUIT);
}

static void catch_signal(int sig, void (*fn)(int))
{
    struct sigaction old, sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = fn;
    sigemptyset(&sa.sa_mask);
    if (sigaction(sig, NULL, &old) == 0 && old.sa_handler == SIG_IGN) return; /* keep nohup */
    sigaction(sig, &sa, NULL);
}

/* MPI_Finalize deletes MPI_COMM_SELF's attributes first, so this runs when
 * a client that shares MPI with GASNet finalizes it (every node does, it is
 * collective): GASNet shuts down with it, cleanly. */
static int at_mpi_finalize(MPI_Comm comm, int key, void *val, void *extra)
{
    (void)comm;
    (void)key;
    (void)val;
    (void)extra;
    if (exiting || gasnetc_comm == MPI_COMM_NULL) return MPI_SUCCESS;
    gasnetc_progress_stop();
    if (gasneti_attach_done) gasneti_rma_detach();
    ammpi_close(gasnetc_ep);
    gasnetc_ep = NULL;
    MPI_Cancel(&inreq);
    MPI_Request_free(&inreq);
    MPI_Comm_free(&gasnetc_comm);
    gasneti_attach_done = 0;
    return MPI_SUCCESS;
}

void gasnetc_exit_init(void)
{
    int n = (int)gasneti_nodes;
    exit_timeout = strtod(gasneti_getenv_str("GASNET_EXITTIMEOUT", "10"), NULL);
    ack_wait = strtod(gasneti_getenv_str("GASNET_EXIT_ACKWAIT", "2"), NULL);
    if (!(exit_timeout > 0) || !(ack_wait > 0))
        gasneti_fatalerror("GASNET_EXITTIMEOUT and GASNET_EXIT_ACKWAIT must be positive seconds");
    outmsg = calloc((size_t)n, sizeof *outmsg);
    outreq = malloc((size_t)n * sizeof *outreq);
    heard = calloc((size_t)n, 1);
    if (!outmsg || !outreq || !heard) gasneti_fatalerror("gasnet_init: out of memory");
    MPI_Irecv(inmsg, 3, MPI_INT, MPI_ANY_SOURCE, TAG_EXIT, gasnetc_comm, &inreq);
    on_exit(at_process_exit, NULL);
    catch_signal(SIGQUIT, on_sigquit);
    catch_signal(SIGTERM, on_termination);
    catch_signal(SIGINT, on_termination);
    catch_signal(SIGHUP, on_termination);
    int key;
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, at_mpi_finalize, &key, NULL);
    MPI_Comm_set_attr(MPI_COMM_SELF, key, NULL);
}
