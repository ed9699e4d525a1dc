/* The exit matrix: how a job ends. Usage: exit_matrix CASE (2+ nodes)
 *   collective    every node prints, then gasnet_exit(0) after a barrier -> 0
 *   barrier       node 1 gasnet_exit(7) while the others wait in a barrier -> 7
 *   compute       node 1 gasnet_exit(5) while the others compute without
 *                 calling GASNet -> 5
 *   handler       a request handler on node 1 calls gasnet_exit(9) -> 9
 *   thread        a second thread of node 1 calls gasnet_exit(11) -> 11 (PAR)
 *   concurrent    nodes 0 and 1 call gasnet_exit(3) and (4) at once -> 3 or 4
 *   return        every node returns from main -> 0
 *   exit-call     every node calls exit(6) -> 6
 *   crash         node 1 dies of SIGSEGV while the others wait -> non-zero
 *   killed        node 1 dies of SIGKILL while the others wait -> non-zero
 *   failsafe      like compute, but the exit would wait 100 s for answers;
 *                 GASNET_EXITTIMEOUT=1 forces it -> 3
 *   before-attach node 1 gasnet_exit(13) between init and attach -> 13
 *   sigquit       every node catches SIGQUIT; node 1 gasnet_exit(7) while the
 *                 others wait in a barrier: they get SIGQUIT first (GASNet-1
 *                 §4.5), node 0's handler calls gasnet_exit(7), the others'
 *                 return -> 7, "node N caught SIGQUIT" from each but node 1
 *   flood         node 1 gasnet_exit(4) while the others send it AM Mediums
 *                 without end: node 1 no longer answers, so their requests
 *                 wait for credits (ring space) and must hear of the exit
 *                 there -> 4
 *   flood-put     the same with 1 MiB nbi puts -> 4
 *   flood-exit    flood, and the others' SIGQUIT handler calls exit(4),
 *                 which must be a gasnet_exit also from that wait -> 4
 *   forever       every node computes forever (the launcher gets a signal) */
#include "test.h"

#include <pthread.h>
#include <signal.h>
#include <unistd.h>

enum { H_EXIT = 200, H_SINK };
static void exit_h(gasnet_token_t t, gasnet_handlerarg_t code)
{
    (void)t;
    gasnet_exit(code);
}

static void sink_h(gasnet_token_t t, void *buf, size_t nbytes)
{
    (void)t;
    (void)buf;
    (void)nbytes;
}

static void *exit_thread(void *arg)
{
    (void)arg;
    usleep(100000);
    gasnet_exit(11);
    return NULL;
}

static void on_sigquit(int sig)
{
    (void)sig;
    char msg[] = "node ? caught SIGQUIT\n";
    msg[5] = (char)('0' + gasnet_mynode() % 10);
    ssize_t rc = write(1, msg, sizeof msg - 1);
    (void)rc;
    if (gasnet_mynode() == 0) gasnet_exit(7);
}

static void exit_on_sigquit(int sig)
{
    (void)sig;
    exit(4);
}

static volatile unsigned long sink;
static void compute_forever(void)
{
    for (;;) sink++;
}

static void poll_forever(void)
{
    for (;;) gasnet_AMPoll();
}

static void wait_in_barrier(void)
{
    gasnet_barrier_notify(1, 0);
    gasnet_barrier_wait(1, 0);
    printf("node %u: the barrier completed, which it must not\n", gasnet_mynode());
    gasnet_exit(99);
}

int main(int argc, char **argv)
{
    const char *c = argc > 1 ? argv[1] : "";
    gasnet_handlerentry_t table[] = {{H_EXIT, (void (*)())exit_h}, {H_SINK, (void (*)())sink_h}};
    if (!strcmp(c, "before-attach")) {
        CHECK_OK(gasnet_init(&argc, &argv));
        if (gasnet_mynode() == 1) gasnet_exit(13);
        CHECK_OK(gasnet_attach(table, 2, 0, 0)); /* waits for node 1 forever */
        gasnet_exit(98);
    }
    gasnet_seginfo_t *seg = test_start(&argc, &argv, table, 2, 1 << 20);
    gasnet_node_t me = gasnet_mynode();
    CHECK(gasnet_nodes() >= 2, "needs 2 nodes");
    BARRIER();
    if (!strcmp(c, "collective")) {
        for (int i = 0; i < 200; i++) printf("node %u line %d\n", me, i);
        printf("bye from node %u\n", me);
        BARRIER();
        gasnet_exit(0);
    } else if (!strcmp(c, "barrier")) {
        if (me == 1) gasnet_exit(7);
        wait_in_barrier();
    } else if (!strcmp(c, "sigquit")) {
        signal(SIGQUIT, on_sigquit);
        BARRIER();
        if (me == 1) gasnet_exit(7);
        wait_in_barrier();
    } else if (!strcmp(c, "compute") || !strcmp(c, "failsafe")) {
        if (me == 1) {
            sleep(1); /* the others are computing by now */
            gasnet_exit(c[0] == 'c' ? 5 : 3);
        }
        compute_forever();
    } else if (!strcmp(c, "handler")) {
        if (me == 0) gasnet_AMRequestShort1(1, H_EXIT, 9);
        if (me == 1) poll_forever(); /* the handler runs here */
        wait_in_barrier();
    } else if (!strcmp(c, "thread")) {
        pthread_t th;
        if (me == 1) {
            pthread_create(&th, NULL, exit_thread, NULL);
            poll_forever();
        }
        wait_in_barrier();
    } else if (!strcmp(c, "concurrent")) {
        if (me == 0) gasnet_exit(3);
        if (me == 1) gasnet_exit(4);
        wait_in_barrier();
    } else if (!strcmp(c, "return")) {
        printf("node %u returns\n", me);
        BARRIER();
        return 0;
    } else if (!strcmp(c, "exit-call")) {
        BARRIER();
        exit(6);
    } else if (!strcmp(c, "crash") || !strcmp(c, "killed")) {
        if (me == 1) {
            fflush(NULL);
            raise(c[0] == 'c' ? SIGSEGV : SIGKILL);
        }
        wait_in_barrier();
    } else if (!strncmp(c, "flood", 5)) {
        if (!strcmp(c, "flood-exit")) signal(SIGQUIT, exit_on_sigquit);
        if (me == 1) {
            sleep(1); /* the others are waiting for credits by now */
            gasnet_exit(4);
        }
        static char buf[1 << 20];
        for (;;) {
            if (!strcmp(c, "flood-put")) gasnet_put_nbi_bulk(1, seg[1].addr, buf, sizeof buf);
            else gasnet_AMRequestMedium0(1, H_SINK, buf, 512);
        }
    } else if (!strcmp(c, "forever")) {
        printf("node %u computes\n", me);
        fflush(stdout);
        compute_forever();
    }
    CHECK(0, "unknown case '%s'", c);
    return 1;
}
