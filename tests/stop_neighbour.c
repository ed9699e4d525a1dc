/* A stopped neighbour must not hold up replies to the others (issue 27.5;
 * shmam/shmam.c keeps the replies that find a ring full in a list
 * per destination). 3 or more nodes on one host:
 *   node 2 sends node 1 ASKS Short requests, each answered by a 60,000-byte
 *   Medium reply (the ring from node 1 to node 2 holds four), and stops
 *   itself (SIGSTOP) without reading them: node 1 keeps the rest;
 *   node 0, once node 2 is stopped, makes PINGS round trips with node 1,
 *   which must all complete within LIMIT seconds, then continues node 2
 *   (SIGCONT), which must get every reply intact.
 * Prints "stop_neighbour: node 0: PINGS round trips with node 1 while node
 * 2 was stopped" and "stop_neighbour: node 2: ASKS replies intact"; a
 * round trip that waits for node 2 fails the job. */
#include "test.h"

#include <signal.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

enum { H_ASK = 201, H_ANSWER, H_PING, H_PONG };
#define ASKS 64
#define PINGS 100
#define LIMIT 10.0
#define BYTES 60000

static volatile int answers, pongs, damaged;

static unsigned char pattern(long i, size_t k) { return (unsigned char)(i * 7 + (long)k); }

static void ask_h(gasnet_token_t t, gasnet_handlerarg_t i)
{
    static unsigned char data[BYTES];
    for (size_t k = 0; k < BYTES; k++) data[k] = pattern(i, k);
    CHECK_OK(gasnet_AMReplyMedium1(t, H_ANSWER, data, BYTES, i));
}
static void answer_h(gasnet_token_t t, void *buf, size_t n, gasnet_handlerarg_t i)
{
    (void)t;
    for (size_t k = 0; k < n; k++)
        if (((unsigned char *)buf)[k] != pattern(i, k)) damaged = 1;
    if (n != BYTES) damaged = 1;
    answers++;
}
static void ping_h(gasnet_token_t t) { CHECK_OK(gasnet_AMReplyShort0(t, H_PONG)); }
static void pong_h(gasnet_token_t t)
{
    (void)t;
    pongs++;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The state letter of process pid (/proc/PID/stat), or '?' */
static char state_of(int pid)
{
    char path[64], buf[512];
    snprintf(path, sizeof path, "/proc/%d/stat", pid);
    FILE *f = fopen(path, "r");
    if (!f) return '?';
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    char *p = strrchr(buf, ')');
    return p && p[1] == ' ' ? p[2] : '?';
}

int main(int argc, char **argv)
{
    gasnet_handlerentry_t table[] = {{H_ASK, (void (*)())ask_h},
                                     {H_ANSWER, (void (*)())answer_h},
                                     {H_PING, (void (*)())ping_h},
                                     {H_PONG, (void (*)())pong_h}};
    test_start(&argc, &argv, table, 4, 1 << 16);
    gasnet_node_t me = gasnet_mynode();
    CHECK(gasnet_nodes() >= 3, "needs 3 nodes or more");
    gasnet_seginfo_t *seg = malloc(gasnet_nodes() * sizeof *seg);
    CHECK(seg && gasnet_getSegmentInfo(seg, (int)gasnet_nodes()) == GASNET_OK, "segment info");
    if (me == 2) { /* node 0 learns node 2's pid */
        int pid = getpid();
        gasnet_put(0, seg[0].addr, &pid, sizeof pid);
    }
    BARRIER();
    if (me == 2) {
        for (int i = 0; i < ASKS; i++) CHECK_OK(gasnet_AMRequestShort1(1, H_ASK, i));
        raise(SIGSTOP); /* node 0 continues it */
        GASNET_BLOCKUNTIL(answers == ASKS);
        CHECK(!damaged, "a reply arrived damaged");
        printf("stop_neighbour: node 2: %d replies intact\n", ASKS);
    }
    if (me == 0) {
        int pid = *(int *)seg[0].addr;
        double t0 = now();
        while (state_of(pid) != 'T') {
            CHECK(now() - t0 < LIMIT, "node 2 (pid %d) did not stop", pid);
            gasnet_AMPoll();
            usleep(1000);
        }
        usleep(200000); /* node 1 has time to answer node 2's requests */
        t0 = now();
        for (int i = 1; i <= PINGS; i++) {
            CHECK_OK(gasnet_AMRequestShort0(1, H_PING));
            while (pongs < i && now() - t0 < LIMIT) {
                gasnet_AMPoll();
                if (pongs < i) sched_yield();
            }
            if (pongs < i) {
                kill(pid, SIGCONT);
                CHECK(0, "round trip %d with node 1 waited %.0f s while node 2 was stopped: node "
                         "1's replies to node 0 wait behind those to node 2", i, LIMIT);
            }
        }
        CHECK(state_of(pid) == 'T', "node 2 was continued before the round trips ended");
        printf("stop_neighbour: node 0: %d round trips with node 1 while node 2 was stopped "
               "(%.1f ms)\n", PINGS, (now() - t0) * 1e3);
        fflush(stdout);
        CHECK(kill(pid, SIGCONT) == 0, "SIGCONT to node 2 failed");
    }
    BARRIER();
    free(seg);
    gasnet_exit(0);
    return 0;
}
