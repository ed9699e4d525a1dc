/* Ending the job: gasnet_exit, return from main, exit(), and the failsafe.
 *
 * Exit notices travel on a channel of their own, outside the AM layer, so
 * a node can announce its exit at any time after init: from a handler,
 * from any thread, while its credits are used up. Each node keeps one
 * receive posted on gasnetc_comm with TAG_EXIT and tests it every few polls.
 *
 * gasnet_exit(code) on node X (the initiator):
 *   1. flushes stdio and arms the failsafe timer (GASNET_EXITTIMEOUT);
 *   2. sends EXIT(code) to every other node and waits, up to
 *      GASNET_EXIT_ACKWAIT, for their ACKs, answering any EXIT that arrives
 *      meanwhile;
 *   3. _exit()s with the agreed code; the MPI launcher then ends the rest.
 * A node that receives EXIT flushes its output, answers ACK and, at its next
 * poll, stops: it waits (still answering EXITs) to be ended by the launcher,
 * and _exit()s by itself after GASNET_EXITTIMEOUT if it is not.
 * Concurrent exits agree on the code of the lowest-ranked initiator: an
 * initiator's EXIT reaches every peer before that peer's ACK to it (one
 * tag, MPI keeps order), so once an initiator has every ACK it has seen
 * every concurrent initiator. Nodes that compute without polling never
 * answer; the initiator gives up waiting and the launcher kills them.
 */
#include "gasnet_internal.h"

#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#define TAG_EXIT 0x4558
enum { MSG_EXIT = 1, MSG_ACK = 2 };

volatile int gasnetc_exit_requested; /* an EXIT arrived: stop at the next poll */
static volatile int exit_code;
static int code_from = INT_MAX; /* rank of the initiator whose code we hold */
static pthread_mutex_t state_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t exit_lock = PTHREAD_MUTEX_INITIALIZER;
static double exit_timeout, ack_wait;

static int inmsg[3];
static MPI_Request inreq = MPI_REQUEST_NULL;
static int (*outmsg)[3];      /* per peer: EXIT we send */
static int (*ackmsg)[3];      /* per peer: ACK we send */
static MPI_Request *outreq, *ackreq;
static volatile long acks;

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

static void send_msg(int peer, int (*buf)[3], MPI_Request *req, int kind, int code)
{
    buf[peer][0] = kind;
    buf[peer][1] = code;
    buf[peer][2] = (int)gasneti_mynode;
    MPI_Isend(buf[peer], 3, MPI_INT, peer, TAG_EXIT, gasnetc_comm, &req[peer]);
}

/* Handles every exit message that has arrived. */
static void service_channel(void)
{
    ammpi_lock(gasnetc_ep);
    for (;;) {
        int done = 0;
        MPI_Status st;
        MPI_Test(&inreq, &done, &st);
        if (!done) break;
        int kind = inmsg[0], code = inmsg[1], from = inmsg[2], src = st.MPI_SOURCE;
        if ((kind != MSG_EXIT && kind != MSG_ACK) || from != src)
            gasneti_fatalerror("malformed exit message from node %d (kind %d, from %d)", src,
                               kind, from);
        if (kind == MSG_ACK) {
            acks++;
        } else {
            adopt(code, src);
            fflush(NULL); /* before the initiator may end this process */
            if (ackreq[src] == MPI_REQUEST_NULL) send_msg(src, ackmsg, ackreq, MSG_ACK, code);
            gasnetc_exit_requested = 1;
        }
        MPI_Irecv(inmsg, 3, MPI_INT, MPI_ANY_SOURCE, TAG_EXIT, gasnetc_comm, &inreq);
    }
    ammpi_unlock(gasnetc_ep);
}

void gasnetc_exit_poll(void)
{
    static __thread unsigned polls;
    if ((++polls & 15) == 0) service_channel();
    if (gasnetc_exit_requested) gasnetc_exit_now();
}

static void failsafe(int sig)
{
    (void)sig;
    static const char msg[] = "GASNet: exit did not complete in GASNET_EXITTIMEOUT; forcing it\n";
    ssize_t rc = write(2, msg, sizeof msg - 1);
    (void)rc;
    _exit(exit_code);
}

static void arm_failsafe(void)
{
    signal(SIGALRM, failsafe);
    struct itimerval t = {{0, 0}, {(time_t)exit_timeout, (suseconds_t)((exit_timeout - (double)(time_t)exit_timeout) * 1e6)}};
    setitimer(ITIMER_REAL, &t, NULL);
}

/* The first thread to get here ends the process; any other thread that
 * calls gasnet_exit meanwhile waits here forever. */
void gasnet_exit(int code)
{
    if (!gasneti_init_done) {
        fflush(NULL);
        _exit(code);
    }
    pthread_mutex_lock(&exit_lock);
    pthread_mutex_lock(&state_lock);
    int initiator = !gasnetc_exit_requested;
    gasnetc_exit_requested = 1;
    pthread_mutex_unlock(&state_lock);
    adopt(code, (int)gasneti_mynode);
    arm_failsafe();
    fflush(NULL);
    if (initiator) {
        ammpi_lock(gasnetc_ep);
        for (gasnet_node_t p = 0; p < gasneti_nodes; p++)
            if (p != gasneti_mynode) send_msg((int)p, outmsg, outreq, MSG_EXIT, exit_code);
        ammpi_unlock(gasnetc_ep);
    }
    /* An initiator waits for every ACK; a node told to exit waits to be
     * ended by the launcher, answering other initiators meanwhile. */
    double deadline = now() + (initiator ? ack_wait : exit_timeout);
    while (now() < deadline && !(initiator && acks >= (long)gasneti_nodes - 1)) {
        service_channel();
        usleep(1000);
    }
    fflush(NULL);
    _exit(exit_code);
}

void gasnetc_exit_now(void) { gasnet_exit(exit_code); }

/* Runs at exit() and at the return from main: the process status becomes
 * the job's exit code, unless the client already shut MPI down. */
static void at_process_exit(int status, void *arg)
{
    (void)arg;
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (!finalized && gasnetc_comm != MPI_COMM_NULL) gasnet_exit(status);
}

void gasnetc_exit_init(void)
{
    int n = (int)gasneti_nodes;
    exit_timeout = strtod(gasneti_getenv_str("GASNET_EXITTIMEOUT", "10"), NULL);
    ack_wait = strtod(gasneti_getenv_str("GASNET_EXIT_ACKWAIT", "2"), NULL);
    if (!(exit_timeout > 0) || !(ack_wait > 0))
        gasneti_fatalerror("GASNET_EXITTIMEOUT and GASNET_EXIT_ACKWAIT must be positive seconds");
    outmsg = calloc((size_t)n, sizeof *outmsg);
    ackmsg = calloc((size_t)n, sizeof *ackmsg);
    outreq = malloc((size_t)n * sizeof *outreq);
    ackreq = malloc((size_t)n * sizeof *ackreq);
    if (!outmsg || !ackmsg || !outreq || !ackreq) gasneti_fatalerror("gasnet_init: out of memory");
    for (int p = 0; p < n; p++) outreq[p] = ackreq[p] = MPI_REQUEST_NULL;
    MPI_Irecv(inmsg, 3, MPI_INT, MPI_ANY_SOURCE, TAG_EXIT, gasnetc_comm, &inreq);
    on_exit(at_process_exit, NULL);
}
