/* The progress thread (GASNET_PROGRESS_THREAD=yes). Usage: progress_thread CASE
 *   serve  node 1 computes without calling GASNet while node 0 completes an
 *          AM round trip, a put and a get against it: its progress thread
 *          serves them (without one, node 1 would never stop computing).
 *   idle   an idle node with a progress thread uses little CPU: the thread
 *          backs off instead of spinning (checked on CPU time, not speed).
 *   nis    node 1 sits in a no-interrupt section holding an HSL while node 0
 *          sends it requests (at least 100, and until one ran during the
 *          section: node 1 may serve the first ones before it enters): the
 *          handlers run, never on that thread. */
#include "test.h"

#include <pthread.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

enum { H_PING = 200, H_PONG, H_DONE };
static int pongs, pongs_in_nis, done;
static int in_nis;             /* node 1's main thread is inside its section */
static pthread_t nis_thread;
static int during_nis, on_nis_thread; /* handlers that ran meanwhile; on that thread */

static void ping_h(gasnet_token_t t)
{
    int nis = __atomic_load_n(&in_nis, __ATOMIC_ACQUIRE);
    if (nis) {
        __atomic_fetch_add(&during_nis, 1, __ATOMIC_RELAXED);
        if (pthread_equal(pthread_self(), nis_thread))
            __atomic_fetch_add(&on_nis_thread, 1, __ATOMIC_RELAXED);
    }
    gasnet_AMReplyShort1(t, H_PONG, nis);
}

static void pong_h(gasnet_token_t t, gasnet_handlerarg_t nis)
{
    (void)t;
    if (nis) __atomic_fetch_add(&pongs_in_nis, 1, __ATOMIC_RELAXED);
    __atomic_fetch_add(&pongs, 1, __ATOMIC_RELEASE);
}

static void done_h(gasnet_token_t t)
{
    (void)t;
    __atomic_store_n(&done, 1, __ATOMIC_RELEASE);
}

static int pongs_seen(void) { return __atomic_load_n(&pongs, __ATOMIC_ACQUIRE); }

static double cpu_seconds(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_utime.tv_sec + (double)ru.ru_stime.tv_sec +
           1e-6 * (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
}

static double wall_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static volatile unsigned long sink;

/* Computes, without calling GASNet, until *flag is set (by a handler on the
 * progress thread); fails after 30 s. */
static void compute_until(int *flag, const char *what)
{
    double start = wall_seconds();
    while (!__atomic_load_n(flag, __ATOMIC_ACQUIRE)) {
        for (int i = 0; i < 100000; i++) sink += (unsigned long)i;
        CHECK(wall_seconds() - start < 30, "%s never happened while this node computed", what);
    }
}

int main(int argc, char **argv)
{
    gasnet_handlerentry_t table[] = {{H_PING, (void (*)())ping_h},
                                     {H_PONG, (void (*)())pong_h},
                                     {H_DONE, (void (*)())done_h}};
    gasnet_seginfo_t *seg = test_start(&argc, &argv, table, 3, GASNET_PAGESIZE);
    const char *c = argc > 1 ? argv[1] : "";
    gasnet_node_t me = gasnet_mynode();
    CHECK(gasnet_nodes() == 2, "needs 2 nodes");
    int *value = seg[1].addr; /* node 1's: a value node 0 gets, then overwrites */
    if (me == 1) *value = 4242;
    BARRIER();
    if (!strcmp(c, "serve")) {
        if (me == 1) {
            compute_until(&done, "the AM, get and put from node 0");
            CHECK(*value == 4343, "node 0's put did not land");
        } else {
            CHECK_OK(gasnet_AMRequestShort0(1, H_PING));
            GASNET_BLOCKUNTIL(pongs_seen() == 1);
            CHECK(gasnet_get_val(1, value, sizeof(int)) == 4242, "get from a computing node");
            gasnet_put_val(1, value, 4343, sizeof(int));
            CHECK_OK(gasnet_AMRequestShort0(1, H_DONE));
        }
    } else if (!strcmp(c, "idle")) {
        double cpu = cpu_seconds();
        sleep(1);
        cpu = cpu_seconds() - cpu;
        CHECK(cpu < 0.5, "an idle node used %.2f s of CPU in 1 s of sleep", cpu);
        printf("node %u: %.3f s of CPU while idle for 1 s\n", me, cpu);
    } else if (!strcmp(c, "nis")) {
        static gasnet_hsl_t held = GASNET_HSL_INITIALIZER;
        if (me == 1) {
            nis_thread = pthread_self();
            gasnet_hold_interrupts();
            gasnet_hsl_lock(&held);
            __atomic_store_n(&in_nis, 1, __ATOMIC_RELEASE);
            compute_until(&done, "100 requests");
            __atomic_store_n(&in_nis, 0, __ATOMIC_RELEASE);
            gasnet_hsl_unlock(&held);
            gasnet_resume_interrupts();
            CHECK(on_nis_thread == 0, "%d handlers ran on the thread inside the no-interrupt "
                  "section", on_nis_thread);
            CHECK(during_nis > 0, "no handler ran during the section");
        } else {
            double start = wall_seconds();
            for (int i = 0; i < 100 || !__atomic_load_n(&pongs_in_nis, __ATOMIC_RELAXED); i++) {
                CHECK_OK(gasnet_AMRequestShort0(1, H_PING));
                GASNET_BLOCKUNTIL(pongs_seen() == i + 1);
                CHECK(wall_seconds() - start < 20, "no request ran during node 1's section");
            }
            CHECK_OK(gasnet_AMRequestShort0(1, H_DONE));
        }
    } else {
        CHECK(0, "unknown case %s", c);
    }
    BARRIER();
    MSG0("progress_thread %s: ok", c);
    gasnet_exit(0);
    return 0;
}
