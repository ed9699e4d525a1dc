/* Faults under load. Usage: fault_load WORK COUNT [FAULT VICTIM [SECONDS]]
 *   WORK storm: every node sends COUNT AM requests, Short and Medium in
 *               turn, to the other nodes in turn; each is answered by a
 *               reply. Every request and every reply is recorded: none may
 *               arrive twice, and at the end none may be missing.
 *        flood: every node issues COUNT 8-byte nbi puts to the other nodes
 *               in turn, synced at the end; every word is then checked.
 *   FAULT kill: once node 0 has done a quarter of its work, a helper
 *               thread of node 0 sends SIGKILL to node VICTIM; node 0 goes
 *               on only after that (so the kill lands mid-work).
 *         stop: the same with SIGSTOP, and SIGCONT SECONDS later; the job
 *               must then complete normally.
 * Every process first prints "fault_load: pid P", before gasnet_init (a
 * fault may strike during start-up), so that a driver
 * (tests/fault_test.sh) can look for this job's files afterwards. The
 * helper thread makes no GASNet call (SEQ builds allow it). */
#include "test.h"

#include <pthread.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>

enum { H_REQ = 201, H_MREQ, H_REP };
#define MEDIUM_BYTES 512

static gasnet_node_t me, nodes;
static long count;
static unsigned char **seen; /* seen[src][i]: src's i-th request arrived */
static unsigned char *answered; /* answered[i]: the reply to my i-th request arrived */
static volatile long replies;

static gasnet_node_t dest_of(gasnet_node_t src, long i)
{
    return (gasnet_node_t)((src + 1 + (gasnet_node_t)(i % (nodes - 1))) % nodes);
}

static void record_request(gasnet_token_t t, gasnet_handlerarg_t i)
{
    gasnet_node_t src;
    CHECK_OK(gasnet_AMGetMsgSource(t, &src));
    CHECK(i >= 0 && i < count && dest_of(src, i) == me, "request %d from node %u is not for me",
          (int)i, src);
    CHECK(!seen[src][i], "request %d from node %u arrived twice", (int)i, src);
    seen[src][i] = 1;
    CHECK_OK(gasnet_AMReplyShort1(t, H_REP, i));
}

static void req_h(gasnet_token_t t, gasnet_handlerarg_t i) { record_request(t, i); }

static void mreq_h(gasnet_token_t t, void *buf, size_t n, gasnet_handlerarg_t i)
{
    for (size_t k = 0; k < n; k++)
        CHECK(((unsigned char *)buf)[k] == (unsigned char)(i + (long)k), "Medium %d damaged", (int)i);
    CHECK(n == MEDIUM_BYTES, "Medium %d has %zu bytes", (int)i, n);
    record_request(t, i);
}

static void rep_h(gasnet_token_t t, gasnet_handlerarg_t i)
{
    (void)t;
    CHECK(i >= 0 && i < count && !answered[i], "reply %d unknown or twice", (int)i);
    answered[i] = 1;
    replies++;
}

/* ---- the fault, injected by a helper thread of node 0 */
static int fault_kind; /* 0 none, SIGKILL or SIGSTOP */
static pid_t victim_pid;
static double stop_seconds;
static volatile int fault_wanted, fault_done;

static void *injector(void *arg)
{
    (void)arg;
    struct timespec tick = {0, 1000000};
    while (!__atomic_load_n(&fault_wanted, __ATOMIC_ACQUIRE)) nanosleep(&tick, NULL);
    CHECK(kill(victim_pid, fault_kind) == 0, "kill(%d, %d) failed", (int)victim_pid, fault_kind);
    __atomic_store_n(&fault_done, 1, __ATOMIC_RELEASE);
    if (fault_kind == SIGSTOP) {
        struct timespec pause = {(time_t)stop_seconds,
                                 (long)((stop_seconds - (double)(time_t)stop_seconds) * 1e9)};
        nanosleep(&pause, NULL);
        CHECK(kill(victim_pid, SIGCONT) == 0, "kill(SIGCONT) failed");
        printf("fault_load: node 0 stopped the victim for %.1f s mid-work\n", stop_seconds);
        fflush(stdout);
    }
    return NULL;
}

/* Called by node 0 as item i of its work: at a quarter, the fault, and
 * wait (serving the network) until it has happened. */
static void maybe_fault(long i)
{
    if (me != 0 || !fault_kind || i != count / 4) return;
    __atomic_store_n(&fault_wanted, 1, __ATOMIC_RELEASE);
    while (!__atomic_load_n(&fault_done, __ATOMIC_ACQUIRE)) gasnet_AMPoll();
}

static void storm(void)
{
    seen = calloc(nodes, sizeof *seen);
    answered = calloc((size_t)count, 1);
    CHECK(seen && answered, "out of memory");
    for (gasnet_node_t s = 0; s < nodes; s++) {
        seen[s] = calloc((size_t)count, 1);
        CHECK(seen[s], "out of memory");
    }
    unsigned char payload[MEDIUM_BYTES];
    BARRIER();
    for (long i = 0; i < count; i++) {
        maybe_fault(i);
        if (i & 1) {
            for (int k = 0; k < MEDIUM_BYTES; k++) payload[k] = (unsigned char)(i + k);
            CHECK_OK(gasnet_AMRequestMedium1(dest_of(me, i), H_MREQ, payload, MEDIUM_BYTES, (int32_t)i));
        } else {
            CHECK_OK(gasnet_AMRequestShort1(dest_of(me, i), H_REQ, (int32_t)i));
        }
    }
    GASNET_BLOCKUNTIL(replies == count);
    BARRIER();
    /* every request meant for this node arrived (twice was caught at once) */
    for (gasnet_node_t s = 0; s < nodes; s++)
        for (long i = 0; i < count; i++)
            CHECK(seen[s][i] == (s != me && dest_of(s, i) == me), "request %ld from node %u %s", i,
                  s, seen[s][i] ? "arrived but was not sent here" : "never arrived");
    BARRIER();
    MSG0("fault_load storm: %ld requests from each of %u nodes, every request and reply "
         "delivered exactly once", count, nodes);
}

static uint64_t word(gasnet_node_t s, long i) { return ((uint64_t)s << 40) ^ ((uint64_t)i * 2654435761u); }

static void flood(gasnet_seginfo_t *seg)
{
    long per_peer = count / (nodes - 1) + 1; /* slots per source in each segment */
    uint64_t *mine = seg[me].addr;
    BARRIER();
    for (long i = 0; i < count; i++) {
        maybe_fault(i);
        gasnet_node_t d = dest_of(me, i);
        uint64_t *slot = (uint64_t *)seg[d].addr + (long)me * per_peer + i / (nodes - 1);
        gasnet_put_nbi_val(d, slot, word(me, i), sizeof(uint64_t));
    }
    gasnet_wait_syncnbi_puts();
    BARRIER();
    for (gasnet_node_t s = 0; s < nodes; s++)
        for (long i = 0; i < count; i++)
            if (dest_of(s, i) == me)
                CHECK(mine[(long)s * per_peer + i / (nodes - 1)] == word(s, i), "put %ld from node %u lost", i, s);
    BARRIER();
    MSG0("fault_load flood: %ld nbi puts from each of %u nodes arrived", count, nodes);
}

int main(int argc, char **argv)
{
    gasnet_handlerentry_t table[] = {{H_REQ, (void (*)())req_h},
                                     {H_MREQ, (void (*)())mreq_h},
                                     {H_REP, (void (*)())rep_h}};
    const char *work = argc > 2 ? argv[1] : "", *fault = argc > 4 ? argv[3] : "";
    count = argc > 2 ? atol(argv[2]) : 0;
    long victim = argc > 4 ? atol(argv[4]) : 0;
    stop_seconds = argc > 5 ? atof(argv[5]) : 5;
    /* a flood target holds count / (nodes - 1) + 1 words from each other
     * node: at most 2 * count + 64 words up to 64 nodes; then the pids */
    uintptr_t pid_table = 8 * (2 * (uintptr_t)count + 64);
    printf("fault_load: pid %ld\n", (long)getpid());
    fflush(stdout);
    gasnet_seginfo_t *seg = test_start(&argc, &argv, table, 3, pid_table + 4096);
    me = gasnet_mynode();
    nodes = gasnet_nodes();
    CHECK(nodes >= 2 && nodes <= 64 && count > 0 && (!strcmp(work, "storm") || !strcmp(work, "flood")),
          "usage: fault_load storm|flood COUNT [kill|stop VICTIM [SECONDS]] on 2..64 nodes");
    /* every node's pid, for node 0's injector */
    pid_t *pids = (pid_t *)((char *)seg[0].addr + pid_table);
    gasnet_put_val(0, &pids[me], (gasnet_register_value_t)getpid(), sizeof(pid_t));
    BARRIER();
    if (*fault) {
        fault_kind = !strcmp(fault, "kill") ? SIGKILL : !strcmp(fault, "stop") ? SIGSTOP : 0;
        CHECK(fault_kind, "unknown fault %s", fault);
        CHECK(victim > 0 && victim < (long)nodes, "the victim must be a node other than 0");
        if (me == 0) {
            victim_pid = pids[victim];
            pthread_t t;
            CHECK(pthread_create(&t, NULL, injector, NULL) == 0, "pthread_create failed");
            pthread_detach(t);
        }
    }
    if (!strcmp(work, "storm")) storm();
    else flood(seg);
    gasnet_exit(0);
    return 0;
}
