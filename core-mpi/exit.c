/* Ending the job: gasnet_exit, return from main, exit(), a client's own
 * MPI_Finalize, and the failsafe.
 *
 * Exit notices travel on a channel of their own, outside the AM layer, so
 * a node can announce its exit at any time after init: from a handler,
 * from any thread, while its credits are used up. Each node keeps one
 * receive posted on gasnetc_comm with TAG_EXIT, tests it every few polls,
 * and reposts it until it has heard every other node (each node sends
 * exactly one notice to each other node).
 *
 * A node that exits (gasnet_exit, return from main, exit()):
 *   1. arms the failsafe timer (GASNET_EXITTIMEOUT) and flushes its output;
 *   2. stops its AM endpoint (ammpi_stop): no thread sends or runs a
 *      handler through it any more, and it knows how many AM messages it
 *      sent to each node;
 *   3. sends EXIT(code, origin, count) to every other node: origin is the
 *      rank whose code it carries, count the AM messages it sent to that
 *      node, now final;
 *   4. until every other node's notice has arrived, every AM message each
 *      of them counted has been received (handlers do not run) and its
 *      own sends are complete, polls the channel and drains the endpoint
 *      (ammpi_drain), for at most GASNET_EXIT_ACKWAIT seconds;
 *   5. then nothing is in flight on any communicator it owns and no
 *      message to it is unreceived: it cancels the receives that can no
 *      longer match (ammpi's header receives; the exit receive is not
 *      reposted after the last notice), waits SETTLE (below), and calls
 *      MPI_Finalize, also when the client started MPI (the process ends).
 * A node that hears EXIT while running goes on for a grace period (a
 * quarter of GASNET_EXIT_ACKWAIT), so that a collective exit at the end of
 * main lets every node finish and print; then it exits the same way.
 * It hears in every poll (gasnetc_exit_poll), including the polls of a
 * request that waits for credits or ring space (ammpi's wait hook, the
 * rings' wait), which a node that has exited will never grant.
 * Every node adopts the code of the lowest origin it has heard of, and
 * every exiting node tells every other, so all nodes that hear each other
 * agree on one code. Output is never lost: a node flushes before it
 * announces and before it finalizes.
 *
 * A client that finalizes MPI itself (every node does, it is collective)
 * reaches at_mpi_finalize first: the RMA backends detach, ammpi_close
 * settles every AM, exchanges counts and drains the same way, the exit
 * receive (which nothing can match) is cancelled, and after SETTLE MPICH
 * goes on with its own shutdown.
 *
 * Why it cannot hang. Step 4 waits only for what the peers announced,
 * which they sent before announcing, and each peer drains whatever this
 * node sent it, so step 4 ends as soon as every node has called exit; a
 * node that never does (it computes without polling, or died) makes the
 * wait end at GASNET_EXIT_ACKWAIT, and MPI_Abort ends the job with the
 * code. MPI_Finalize then finds nothing pending. What remains is MPI's own
 * shutdown, which with MPICH 4.0 over UCX 1.13's TCP transport stalls even
 * in plain MPI programs (found with gdb on the stuck nodes): MPICH closes
 * every UCX endpoint in flush mode, progresses until its own closes
 * complete, then blocks in the launcher's barrier without progressing.
 * UCX's TCP flush of a connection that carried a message since its last
 * flush sends a request (an empty PUT) that the peer must acknowledge from
 * its progress loop, so a node whose request reaches a peer already in the
 * launcher's barrier waits forever. Two things rule this out:
 *   (a) the notices (and ammpi_close's counts) go from every node to every
 *       other, so in MPICH's loop each node has a request out to every
 *       peer and leaves only once every peer acknowledged it. A node sends
 *       all its requests before it acknowledges any (MPICH issues every
 *       close, then progresses), and both travel the same connection in
 *       order, so a peer's acknowledgement reaches this node only after the
 *       peer's own request, which this node therefore answers before it can
 *       leave;
 *   (b) that holds only if acknowledgements come from inside MPICH's loop.
 *       A node still polling outside MPI_Finalize when a peer's request
 *       arrives would acknowledge it early and could let that peer leave
 *       before its own request arrives. So each node waits SETTLE (100 ms)
 *       without polling between its last receive and MPI_Finalize: longer
 *       than the time between the nodes' last receives, which all follow
 *       the last node's notices. Nodes that all share one host skip it
 *       unless UCX_TLS is set (settle(), below): MPI's shared-memory
 *       transports there flush nothing (868 runs of
 *       3- and 4-node exits and finalizes on one host, on a machine
 *       loaded up to 56 runnable processes: none needed the failsafe).
 * Only a node stopped for longer than SETTLE at that moment could still
 * stall MPICH; the failsafe covers it. (Without SETTLE, 6 of 10 runs of the
 * off-node test needed the failsafe; with it, 0 of 200.)
 *
 * The failsafe is the last resort for a node that never answers, or an MPI
 * that never returns: when GASNET_EXITTIMEOUT (unset: min(_MAX, _MIN +
 * _FACTOR * nodes)) expires it prints "exit did not complete in
 * GASNET_EXITTIMEOUT; forcing it" and aborts the job.
 */
#include "gasnet_internal.h"

#include <errno.h>
#include <limits.h>
#include <stdint.h>
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
#define SETTLE_NS 100000000L /* (b) above: 100 ms */

int gasnetc_exit_requested; /* heard EXIT: join the exit after the grace (atomic) */
static int exit_code, code_from = INT_MAX; /* adopted code and its origin rank */
static pthread_mutex_t state_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t exit_lock = PTHREAD_MUTEX_INITIALIZER;
static double exit_timeout, ack_wait, grace_deadline;
static volatile sig_atomic_t in_finalize;

/* A notice: MSG_EXIT, code, origin, AM messages the sender sent to us. */
static int64_t inmsg[4];
static MPI_Request inreq = MPI_REQUEST_NULL;
static int64_t (*outmsg)[4]; /* per peer: the EXIT we send */
static MPI_Request *outreq;
static unsigned char *heard; /* per peer: its EXIT arrived */
static uint64_t *expected;   /* per peer: AM messages it announced */
static uint64_t *sent;       /* per peer: AM messages we sent, at ammpi_stop */
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

const char *gasnetc_exit_notice_error(const int64_t *msg, int words, long nodes, int heard_before)
{
    if (words != 4) return "not 4 words";
    if (msg[0] != MSG_EXIT) return "unknown kind";
    if (msg[1] < INT_MIN || msg[1] > INT_MAX) return "a code beyond an int";
    if (msg[2] < 0 || msg[2] >= nodes) return "an origin that is no node";
    if (msg[3] < 0) return "a negative message count";
    if (heard_before) return "a second notice";
    return NULL;
}

/* Handles every exit notice that has arrived; the caller serialises MPI
 * (holds the endpoint's lock). */
static void take_notices(void)
{
    long others = (long)gasneti_nodes - 1;
    while (inreq != MPI_REQUEST_NULL) {
        int done = 0;
        MPI_Status st;
        int rc = MPI_Test(&inreq, &done, &st);
        if (!done) break;
        int64_t kind = inmsg[0], code = inmsg[1], origin = inmsg[2], count = inmsg[3];
        int src = st.MPI_SOURCE, words = 0;
        MPI_Get_count(&st, MPI_INT64_T, &words);
        if (rc != MPI_SUCCESS) words = -1; /* longer than a notice: truncated */
        const char *why = gasnetc_exit_notice_error(inmsg, words, (long)gasneti_nodes, heard[src]);
        if (why)
            gasneti_fatalerror("malformed exit notice from node %d: %s (kind %lld, code %lld, "
                               "origin %lld, count %lld)", src, why, (long long)kind,
                               (long long)code, (long long)origin, (long long)count);
        adopt((int)code, (int)origin);
        pthread_mutex_lock(&state_lock);
        heard[src] = 1;
        expected[src] = (uint64_t)count;
        __atomic_fetch_add(&nheard, 1, __ATOMIC_RELEASE);
        if (!__atomic_load_n(&gasnetc_exit_requested, __ATOMIC_RELAXED)) {
            grace_deadline = now() + ack_wait / 4;
            __atomic_store_n(&gasnetc_exit_requested, 1, __ATOMIC_RELEASE);
        }
        pthread_mutex_unlock(&state_lock);
        /* every other node sends one notice: after the last, none can come */
        if (__atomic_load_n(&nheard, __ATOMIC_ACQUIRE) < others)
            MPI_Irecv(inmsg, 4, MPI_INT64_T, MPI_ANY_SOURCE, TAG_EXIT, gasnetc_comm, &inreq);
    }
}

static void service_channel(void)
{
    ammpi_lock(gasnetc_ep);
    take_notices();
    ammpi_unlock(gasnetc_ep);
}

static void on_sigquit(int sig);

/* Another node's exit ends this one: as the spec has it (GASNet-1 §4.5), a
 * client that catches SIGQUIT gets it first, to clean up; its handler may
 * call gasnet_exit or return. Without a handler of the client's, nothing
 * is raised (SIGQUIT's default action would dump core). */
static void raise_client_sigquit(void)
{
    static int raised;
    struct sigaction cur;
    if (__atomic_exchange_n(&raised, 1, __ATOMIC_ACQ_REL) || sigaction(SIGQUIT, NULL, &cur) != 0) return;
    if (cur.sa_handler != on_sigquit && cur.sa_handler != SIG_DFL && cur.sa_handler != SIG_IGN) raise(SIGQUIT);
}

void gasnetc_exit_poll(void)
{
    static __thread unsigned polls;
    if ((++polls & 63) == 0) service_channel(); /* exit notices need no haste */
    if (__atomic_load_n(&gasnetc_exit_requested, __ATOMIC_ACQUIRE) && now() >= grace_deadline) {
        /* a poll point, not inside MPI, also in a request's flow-control
         * wait: a client handler's exit() is a gasnet_exit (at_process_exit) */
        gasnetc_in_mpi = 0;
        raise_client_sigquit();
        gasnetc_exit_now();
    }
}

static int set_alarm(double seconds)
{
    time_t sec = (time_t)seconds;
    struct itimerval t = {{0, 0}, {sec, (suseconds_t)((seconds - (double)sec) * 1e6)}};
    return setitimer(ITIMER_REAL, &t, NULL);
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
    if (set_alarm(exit_timeout) != 0) /* the range check makes this unexpected: say so */
        fprintf(stderr, "GASNet node %u: the exit failsafe could not be armed (setitimer of %g s: "
                "%s); a stalled exit will not be forced\n", gasneti_mynode, exit_timeout,
                strerror(errno));
}

/* Only where MPI may talk TCP: between hosts, or on one host where the
 * client chose UCX's transports (UCX_TLS=tcp,self makes one host's nodes
 * talk TCP: tests/suite.sh ofi_offnode stalled without SETTLE). Within
 * one host MPI's shared-memory transports have no flush to stall on, and
 * a job ends 100 ms sooner. */
static void settle(void)
{
    struct timespec t = {0, SETTLE_NS};
    if (gasneti_hosts > 1 || (gasneti_nodes > 1 && getenv("UCX_TLS"))) nanosleep(&t, NULL);
}

/* The first thread to get here ends the process; any other thread that
 * calls gasnet_exit meanwhile waits here forever. */
static int exiting; /* MPI_Finalize below must not run the client-finalize hook */
__thread int gasnetc_in_mpi;

static __attribute__((__noreturn__)) void do_exit(int code, int origin)
{
    gasnetc_watch_quiet(); /* before any notice goes out: peers end after it */
    pthread_mutex_lock(&exit_lock);
    exiting = 1;
    adopt(code, origin);
    arm_failsafe();
    gasneti_trace_finish(code);
    fflush(NULL);
    pthread_mutex_lock(&state_lock);
    int announce = exit_code, from = code_from;
    pthread_mutex_unlock(&state_lock);
    /* From here this thread holds the endpoint for good: it alone makes MPI
     * calls, and no AM is sent or handled any more. */
    ammpi_stop(gasnetc_ep, sent);
    gasnet_node_t me = gasneti_mynode;
    expected[me] = sent[me];
    for (gasnet_node_t p = 0; p < gasneti_nodes; p++) {
        if (p == me) continue;
        outmsg[p][0] = MSG_EXIT;
        outmsg[p][1] = announce;
        outmsg[p][2] = from;
        outmsg[p][3] = (int64_t)sent[p];
        MPI_Isend(outmsg[p], 4, MPI_INT64_T, (int)p, TAG_EXIT, gasnetc_comm, &outreq[p]);
    }
    double deadline = now() + ack_wait;
    long others = (long)gasneti_nodes - 1;
    int quiet = 0;
    while (!quiet && now() < deadline) {
        take_notices();
        int all_heard = __atomic_load_n(&nheard, __ATOMIC_ACQUIRE) == others, notices_sent = 1;
        for (gasnet_node_t p = 0; p < gasneti_nodes && notices_sent; p++)
            MPI_Test(&outreq[p], &notices_sent, MPI_STATUS_IGNORE);
        quiet = ammpi_drain(gasnetc_ep, all_heard ? expected : NULL) && notices_sent;
        if (!quiet) usleep(200);
    }
    fflush(NULL);
    /* Some node did not answer (it computes without polling, or died):
     * MPI_Abort, the one way to have the launcher end it and still report
     * this exit code. */
    if (!quiet) MPI_Abort(MPI_COMM_WORLD, exit_code);
    ammpi_cancel_receives(gasnetc_ep);
    settle();
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
    if (gasneti_batched) gasneti_flush_layers(1); /* what this thread batched still goes out, if it can */
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
 * async-signal-safe calls here, but for the trace's last line where a
 * trace is written (gasneti_trace_signal). */
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
    gasnetc_watch_quiet(); /* the other nodes are likely ending the same way */
    if (!first_signal) first_signal = sig;
    gasneti_trace_signal(sig);
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
/* The layers' exit members, last started first. */
static void exit_layers(void)
{
    int n = 0;
    while (gasneti_layers[n]) n++;
    while (n-- > 0)
        if (gasneti_layers[n]->exit) gasneti_layers[n]->exit();
}

static int at_mpi_finalize(MPI_Comm comm, int key, void *val, void *extra)
{
    (void)comm;
    (void)key;
    (void)val;
    (void)extra;
    if (exiting || gasnetc_comm == MPI_COMM_NULL) return MPI_SUCCESS;
    gasneti_trace_finish(0);
    gasnetc_watch_stop(); /* the peers finalize too, and may end before this node */
    gasnetc_progress_stop();
    if (gasneti_attach_done) exit_layers();
    ammpi_close(gasnetc_ep);
    gasnetc_ep = NULL;
    if (inreq != MPI_REQUEST_NULL) { /* no node exits: nothing can match it */
        MPI_Cancel(&inreq);
        MPI_Wait(&inreq, MPI_STATUS_IGNORE);
    }
    MPI_Comm_free(&gasnetc_comm);
    gasneti_attach_done = 0;
    settle();
    return MPI_SUCCESS;
}

void gasnetc_exit_init(void)
{
    int n = (int)gasneti_nodes;
    /* a day at most: setitimer takes it, and a longer failsafe is none.
     * Unset, the timeout grows with the job as the reference's does:
     * min(MAX, MIN + FACTOR * nodes). MIN's default is our old fixed 10 s,
     * well above GASNET_EXIT_ACKWAIT's 2 s. */
    double tmax = gasneti_getenv_seconds("GASNET_EXITTIMEOUT_MAX", 360, 0.001, 86400);
    double tmin = gasneti_getenv_seconds("GASNET_EXITTIMEOUT_MIN", 10, 0.001, 86400);
    double factor = gasneti_getenv_seconds("GASNET_EXITTIMEOUT_FACTOR", 0.25, 0, 86400);
    double dflt = tmin + factor * n;
    exit_timeout = gasneti_getenv_seconds("GASNET_EXITTIMEOUT", dflt < tmax ? dflt : tmax, 0.001, 86400);
    ack_wait = gasneti_getenv_seconds("GASNET_EXIT_ACKWAIT", 2, 0.001, 86400);
    outmsg = calloc((size_t)n, sizeof *outmsg);
    outreq = malloc((size_t)n * sizeof *outreq);
    heard = calloc((size_t)n, 1);
    expected = calloc((size_t)n, sizeof *expected);
    sent = calloc((size_t)n, sizeof *sent);
    if (!outmsg || !outreq || !heard || !expected || !sent)
        gasneti_fatalerror("gasnet_init: out of memory");
    for (int p = 0; p < n; p++) outreq[p] = MPI_REQUEST_NULL;
    if (n > 1) MPI_Irecv(inmsg, 4, MPI_INT64_T, MPI_ANY_SOURCE, TAG_EXIT, gasnetc_comm, &inreq);
    on_exit(at_process_exit, NULL);
    catch_signal(SIGQUIT, on_sigquit);
    catch_signal(SIGTERM, on_termination);
    catch_signal(SIGINT, on_termination);
    catch_signal(SIGHUP, on_termination);
    int key;
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, at_mpi_finalize, &key, NULL);
    MPI_Comm_set_attr(MPI_COMM_SELF, key, NULL);
}
