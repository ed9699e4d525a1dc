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
 */
#include "gasnet_internal.h"
#include "rma.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

static pthread_t thread;
static int running;
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
        gasneti_rma_poll();
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

void gasnetc_progress_start(void)
{
    int wanted = gasneti_getenv_yesno("GASNET_PROGRESS_THREAD", 0);
    sleep_max_us = (long)gasneti_getenv_int("GASNET_PROGRESS_SLEEP_MAX", 1000, 1, 1000000);
    if (!wanted) return;
    __atomic_store_n(&running, 1, __ATOMIC_RELEASE);
    if (pthread_create(&thread, NULL, progress_main, NULL) != 0)
        gasneti_fatalerror("could not start the progress thread");
}

void gasnetc_progress_stop(void)
{
    if (!__atomic_load_n(&running, __ATOMIC_ACQUIRE)) return;
    __atomic_store_n(&running, 0, __ATOMIC_RELEASE);
    pthread_join(thread, NULL);
}

void gasnetc_progress_hold(void)
{
    pthread_mutex_lock(&gate);
}

void gasnetc_progress_release(void)
{
    pthread_mutex_unlock(&gate);
}
