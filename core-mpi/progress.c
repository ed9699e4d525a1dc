/* Progress modes (the LAPI seed's polling vs interrupt): by default the
 * network advances only inside GASNet calls. With GASNET_PROGRESS_THREAD=yes
 * a GASNet-private thread polls as well, so requests to this node (AMs,
 * and the puts and gets built on them) are served while the client
 * computes without calling GASNet. Handlers may then run on that thread,
 * which the spec allows in every mode; they never interrupt a client
 * thread, so no-interrupt sections and HSLs need nothing more.
 *
 * The thread backs off when idle: after GASNET_SPIN_POLLS empty polls it
 * sleeps, doubling the pause up to GASNET_PROGRESS_SLEEP_MAX microseconds
 * (default 1000), and returns to spinning as soon as a message arrives. An
 * idle node thus costs about one poll per millisecond.
 *
 * Under GEX_FLAG_DEFER_THREADS (spec v0.18) the library does not create
 * the thread: gex_System_QueryProgressThreads hands the client one entry
 * (role RCV, device "MPI") whose function the client runs in a joinable
 * thread of its own making. That function records its thread under
 * `lock`, so gasnet_exit can stop and join it like its own; a thread the
 * client starts after gasnet_exit began returns at once without polling.
 * Without GASNET_PROGRESS_THREAD=yes the list is empty.
 */
#include "gasnet_internal.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

static pthread_t thread;
static int running;          /* the thread should poll (atomic) */
static int have_thread;      /* `thread` names a started thread (under lock) */
static int stopping;         /* gasnet_exit stops it (under lock) */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int deferred;         /* GEX_FLAG_DEFER_THREADS: 1, then 2 once queried */
static pthread_mutex_t gate = PTHREAD_MUTEX_INITIALIZER; /* held by the thread while it polls */
static long sleep_max_us;

int gasnetc_progress_thread_wanted(void)
{
    /* read before the job's environment exists: it decides the MPI thread level */
    const char *v = getenv("GASNET_PROGRESS_THREAD");
    return v && (!strcasecmp(v, "yes") || !strcasecmp(v, "y") || !strcmp(v, "1"));
}

static void *progress_main(void *arg)
{
    (void)arg;
    long pause_us = 0;
    int idle = 0;
    const ammpi_config_t *cfg = ammpi_config(gasnetc_ep);
    while (__atomic_load_n(&running, __ATOMIC_ACQUIRE)) {
        pthread_mutex_lock(&gate);
        gasnetc_in_mpi++;
        int handled = ammpi_poll_count(gasnetc_ep);
        gasneti_poll_transports();
        gasnetc_in_mpi--;
        pthread_mutex_unlock(&gate);
        gasnetc_exit_poll();
        if (handled > 0) {
            idle = 0;
            pause_us = 0;
            continue;
        }
        if (++idle < cfg->spin_polls) continue;
        pause_us = pause_us ? pause_us * 2 : 1;
        if (pause_us > sleep_max_us) pause_us = sleep_max_us;
        struct timespec ts = {pause_us / 1000000, (pause_us % 1000000) * 1000};
        nanosleep(&ts, NULL);
    }
    return NULL;
}

/* The entry point the client runs under GEX_FLAG_DEFER_THREADS. */
static void *deferred_main(void *arg)
{
    pthread_mutex_lock(&lock);
    int go = !stopping && !have_thread;
    if (go) {
        thread = pthread_self();
        have_thread = 1;
    }
    pthread_mutex_unlock(&lock);
    if (!go) {
        if (!stopping) gasneti_fatalerror("the deferred progress thread was started twice");
        return NULL;
    }
    return progress_main(arg);
}

void gasnetc_progress_start(int defer)
{
    int wanted = gasneti_getenv_yesno("GASNET_PROGRESS_THREAD", 0);
    sleep_max_us = (long)gasneti_getenv_int("GASNET_PROGRESS_SLEEP_MAX", 1000, 1, 1000000);
    deferred = defer;
    if (!wanted) return;
    __atomic_store_n(&running, 1, __ATOMIC_RELEASE);
    if (defer) return; /* the client starts it */
    pthread_mutex_lock(&lock);
    if (pthread_create(&thread, NULL, progress_main, NULL) != 0)
        gasneti_fatalerror("could not start the progress thread");
    have_thread = 1;
    pthread_mutex_unlock(&lock);
}

void gasnetc_progress_stop(void)
{
    pthread_mutex_lock(&lock);
    stopping = 1;
    int join = have_thread;
    pthread_mutex_unlock(&lock);
    __atomic_store_n(&running, 0, __ATOMIC_RELEASE);
    if (join) pthread_join(thread, NULL);
}

int gex_System_QueryHiddenAMConcurrencyLevel(void)
{
    GASNETI_CHECK_INIT("gex_System_QueryHiddenAMConcurrencyLevel");
    /* the thread runs, or will once the client starts it */
    return __atomic_load_n(&running, __ATOMIC_ACQUIRE) ? 1 : 0;
}

int gex_System_QueryProgressThreads(gex_Client_t client, unsigned int *count_p,
                                    const gex_ProgressThreadInfo_t **info_p, gex_Flags_t flags)
{
    static const gex_ProgressThreadInfo_t info = {"MPI", GEX_THREAD_ROLE_RCV, deferred_main, NULL};
    const char *call = "gex_System_QueryProgressThreads";
    GASNETI_CHECK_INIT(call);
    if (client != gasneti_client)
        return gasneti_report(call, GASNET_ERR_BAD_ARG, "%p is not the client", (void *)client);
    if (!count_p || !info_p)
        return gasneti_report(call, GASNET_ERR_BAD_ARG, "NULL %s", !count_p ? "count_p" : "info_p");
    if (flags) return gasneti_report(call, GASNET_ERR_BAD_ARG, "flags 0x%x (must be 0)", (unsigned)flags);
    if (!deferred)
        return gasneti_report(call, GASNET_ERR_RESOURCE, "the client was not created with "
                              "GEX_FLAG_DEFER_THREADS (the library starts its own threads)");
    if (deferred == 2)
        return gasneti_report(call, GASNET_ERR_RESOURCE, "called a second time (call it once, and "
                              "start each thread it lists once)");
    deferred = 2;
    *count_p = __atomic_load_n(&running, __ATOMIC_ACQUIRE) ? 1 : 0;
    *info_p = &info;
    return GASNET_OK;
}

void gasnetc_progress_hold(void)
{
    pthread_mutex_lock(&gate);
}

void gasnetc_progress_release(void)
{
    pthread_mutex_unlock(&gate);
}
