/* Handler-safe locks and no-interrupt sections (spec 6), with the debug
 * build's checks of their rules.
 *
 * Handlers run only inside GASNet calls, on the thread that polls (or on
 * the progress thread), never by interrupting a thread; so a no-interrupt
 * section needs no mechanism and an HSL is a plain mutex. The debug build
 * keeps, per thread, whether it runs a handler, whether it is in a
 * no-interrupt section and the stack of HSLs it holds, and stops the job
 * with the node and the call named when a rule is broken: recursive or
 * out-of-order locking, a handler returning with an HSL held, and
 * communication or polling inside a handler, a section or under an HSL.
 */
#include "gasnet_internal.h"

#include <errno.h>

#ifdef GASNET_DEBUG
static __thread struct {
    int in_handler;          /* 1: request handler, 2: reply handler */
    int nis;                 /* inside an explicit no-interrupt section */
    int hsls;                /* HSLs held */
    int hsls_at_handler;     /* HSLs held when the running handler started */
    gasnet_hsl_t *top;       /* most recently locked HSL */
    /* the request handler a loopback reply's handler runs inside (the
     * only nesting: docs/loopback.md) */
    int outer_in_handler, outer_hsls_at_handler;
} ts;
#define SELF ((const void *)&gasneti_threadinfo_tag)
#endif

static void check_initialised(gasnet_hsl_t *hsl, const char *call)
{
    if (!hsl) gasneti_fatalerror("%s: NULL HSL", call);
#ifdef GASNET_DEBUG
    if (hsl->_magic != GASNETI_HSL_MAGIC)
        gasneti_fatalerror("%s(%p): the HSL was never initialised (or was destroyed)", call,
                           (void *)hsl);
#endif
}

/* gex_HSL_* and gasnet_hsl_* are one implementation; each names itself
 * in its messages. */
static void hsl_init(gasnet_hsl_t *hsl, const char *call)
{
    if (!hsl) gasneti_fatalerror("%s: NULL HSL", call);
#ifdef GASNET_DEBUG
    if (hsl->_magic == GASNETI_HSL_MAGIC)
        gasneti_fatalerror("%s(%p): the HSL is already initialised", call, (void *)hsl);
#endif
    if (pthread_mutex_init(&hsl->_lock, NULL) != 0)
        gasneti_fatalerror("%s(%p): pthread_mutex_init failed", call, (void *)hsl);
    hsl->_magic = GASNETI_HSL_MAGIC;
    hsl->_owner = NULL;
    hsl->_next = NULL;
}

static void hsl_destroy(gasnet_hsl_t *hsl, const char *call)
{
    check_initialised(hsl, call);
#ifdef GASNET_DEBUG
    if (hsl->_owner) gasneti_fatalerror("%s(%p): the HSL is locked", call, (void *)hsl);
#endif
    int rc = pthread_mutex_destroy(&hsl->_lock);
    if (rc != 0)
        gasneti_fatalerror("%s(%p): %s", call, (void *)hsl,
                           rc == EBUSY ? "the HSL is locked" : "pthread_mutex_destroy failed");
    hsl->_magic = 0;
}

#ifdef GASNET_DEBUG
static void note_locked(gasnet_hsl_t *hsl)
{
    hsl->_owner = SELF;
    hsl->_next = ts.top;
    ts.top = hsl;
    ts.hsls++;
}
#endif

static void hsl_lock(gasnet_hsl_t *hsl, const char *call)
{
    check_initialised(hsl, call);
#ifdef GASNET_DEBUG
    if (hsl->_owner == SELF)
        gasneti_fatalerror("%s(%p): recursive locking of an HSL this thread holds", call,
                           (void *)hsl);
#endif
    uint64_t t0 = GASNETI_TRACE_T0('L');
    pthread_mutex_lock(&hsl->_lock);
    GASNETI_TRACE_TIME('L', call, t0);
#ifdef GASNET_DEBUG
    note_locked(hsl);
#endif
}

static int hsl_trylock(gasnet_hsl_t *hsl, const char *call)
{
    check_initialised(hsl, call);
#ifdef GASNET_DEBUG
    if (hsl->_owner == SELF)
        gasneti_fatalerror("%s(%p): recursive locking of an HSL this thread holds", call,
                           (void *)hsl);
#endif
    int busy = pthread_mutex_trylock(&hsl->_lock) != 0;
    GASNETI_TRACE_EVENT('L', call, "%p %s", (void *)hsl, busy ? "busy" : "taken");
    if (busy) return GASNET_ERR_NOT_READY;
#ifdef GASNET_DEBUG
    note_locked(hsl);
#endif
    return GASNET_OK;
}

static void hsl_unlock(gasnet_hsl_t *hsl, const char *call)
{
    check_initialised(hsl, call);
#ifdef GASNET_DEBUG
    if (hsl->_owner != SELF)
        gasneti_fatalerror("%s(%p): this thread does not hold the HSL", call, (void *)hsl);
    if (ts.top != hsl)
        gasneti_fatalerror("%s(%p): out-of-order unlock; HSL %p was locked after it and must be "
                           "unlocked first", call, (void *)hsl, (void *)ts.top);
    ts.top = hsl->_next;
    ts.hsls--;
    hsl->_owner = NULL;
    hsl->_next = NULL;
#endif
    pthread_mutex_unlock(&hsl->_lock);
    GASNETI_TRACE_EVENT('L', call, "%p", (void *)hsl);
}

void gex_HSL_Init(gex_HSL_t *hsl) { hsl_init(hsl, "gex_HSL_Init"); }
void gex_HSL_Destroy(gex_HSL_t *hsl) { hsl_destroy(hsl, "gex_HSL_Destroy"); }
void gex_HSL_Lock(gex_HSL_t *hsl) { hsl_lock(hsl, "gex_HSL_Lock"); }
int gex_HSL_Trylock(gex_HSL_t *hsl) { return hsl_trylock(hsl, "gex_HSL_Trylock"); }
void gex_HSL_Unlock(gex_HSL_t *hsl) { hsl_unlock(hsl, "gex_HSL_Unlock"); }
void gasnet_hsl_init(gasnet_hsl_t *hsl) { hsl_init(hsl, "gasnet_hsl_init"); }
void gasnet_hsl_destroy(gasnet_hsl_t *hsl) { hsl_destroy(hsl, "gasnet_hsl_destroy"); }
void gasnet_hsl_lock(gasnet_hsl_t *hsl) { hsl_lock(hsl, "gasnet_hsl_lock"); }
int gasnet_hsl_trylock(gasnet_hsl_t *hsl) { return hsl_trylock(hsl, "gasnet_hsl_trylock"); }
void gasnet_hsl_unlock(gasnet_hsl_t *hsl) { hsl_unlock(hsl, "gasnet_hsl_unlock"); }

/* Inside handlers and under an HSL, hold and resume are ignored (the spec
 * puts those in an implicit section). */
void gasnet_hold_interrupts(void)
{
#ifdef GASNET_DEBUG
    if (ts.in_handler || ts.hsls) return;
    if (ts.nis) gasneti_fatalerror("gasnet_hold_interrupts: no-interrupt sections do not nest");
    ts.nis = 1;
#endif
}

void gasnet_resume_interrupts(void)
{
#ifdef GASNET_DEBUG
    if (ts.in_handler || ts.hsls) return;
    if (!ts.nis) gasneti_fatalerror("gasnet_resume_interrupts without gasnet_hold_interrupts");
    ts.nis = 0;
#endif
}

int gasneti_hsls_held(void)
{
#ifdef GASNET_DEBUG
    return ts.hsls;
#else
    return 0;
#endif
}

#ifdef GASNET_DEBUG
static void check_context(const char *call, const char *what)
{
    if (ts.in_handler)
        gasneti_fatalerror("%s %s inside a %s handler, which may not", call, what,
                           ts.in_handler == 1 ? "request" : "reply");
    if (ts.hsls) gasneti_fatalerror("%s %s while holding an HSL", call, what);
    if (ts.nis) gasneti_fatalerror("%s %s inside a no-interrupt section", call, what);
}

void gasneti_check_may_communicate(const char *call) { check_context(call, "communicates"); }
void gasneti_check_may_poll(const char *call) { check_context(call, "polls"); }

void gasneti_handler_enter(ammpi_token_t tok, int is_request)
{
    (void)tok;
    if (ts.nis || ts.hsls)
        gasneti_fatalerror("a handler was about to run on a thread %s",
                           ts.nis ? "inside a no-interrupt section" : "holding an HSL");
    ts.outer_in_handler = ts.in_handler;
    ts.outer_hsls_at_handler = ts.hsls_at_handler;
    ts.in_handler = is_request ? 1 : 2;
    ts.hsls_at_handler = ts.hsls;
}

void gasneti_handler_leave(ammpi_token_t tok, int is_request)
{
    (void)tok;
    if (ts.hsls > ts.hsls_at_handler)
        gasneti_fatalerror("a %s handler returned while holding HSL %p",
                           is_request ? "request" : "reply", (void *)ts.top);
    ts.in_handler = ts.outer_in_handler;
    ts.hsls_at_handler = ts.outer_hsls_at_handler;
    ts.outer_in_handler = 0;
}
#endif
