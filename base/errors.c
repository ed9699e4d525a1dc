/* Errors: the names and descriptions of the error codes, fatal errors
 * (which abort the whole job, naming the node) and the reports a failing
 * call prints before it returns its code (gex_System_SetVerboseErrors).
 */
#include "base.h"
#include "gasnet_tools_internal.h"

#include <stdarg.h>
#include <stdio.h>

void (*gasneti_fatal_hook)(const char *msg);

const char *gasnet_ErrorName(int errval)
{
    switch (errval) {
    case GASNET_OK: return "GASNET_OK";
    case GASNET_ERR_NOT_INIT: return "GASNET_ERR_NOT_INIT";
    case GASNET_ERR_BAD_ARG: return "GASNET_ERR_BAD_ARG";
    case GASNET_ERR_RESOURCE: return "GASNET_ERR_RESOURCE";
    case GASNET_ERR_NOT_READY: return "GASNET_ERR_NOT_READY";
    case GASNET_ERR_BARRIER_MISMATCH: return "GASNET_ERR_BARRIER_MISMATCH";
    default: return "*unknown*";
    }
}

const char *gasnet_ErrorDesc(int errval)
{
    switch (errval) {
    case GASNET_OK: return "no error";
    case GASNET_ERR_NOT_INIT: return "GASNet not initialized or not attached";
    case GASNET_ERR_BAD_ARG: return "illegal argument to a GASNet call";
    case GASNET_ERR_RESOURCE: return "failure of the network or a system resource";
    case GASNET_ERR_NOT_READY: return "non-blocking operation not yet complete";
    case GASNET_ERR_BARRIER_MISMATCH: return "barrier id or flags mismatch";
    default: return "no description available";
    }
}

void gasneti_fatalerror(const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (gasneti_fatal_hook) gasneti_fatal_hook(msg);
    fflush(stdout);
    if (gasneti_init_done) gasnett_fatalerror("node %u of %u: %s", gasneti_mynode, gasneti_nodes, msg);
    gasnett_fatalerror("%s", msg);
}

/* Whether gasneti_report prints (gex_System_SetVerboseErrors); atomic, as
 * any thread may set it. */
static int verbose_errors = 1;

int gex_System_GetVerboseErrors(void) { return __atomic_load_n(&verbose_errors, __ATOMIC_RELAXED); }

void gex_System_SetVerboseErrors(int enable)
{
    if (enable != 0 && enable != 1)
        gasneti_fatalerror("gex_System_SetVerboseErrors: %d (pass 1 or 0)", enable);
    __atomic_store_n(&verbose_errors, enable, __ATOMIC_RELAXED);
}

/* Prints why a core call failed (unless the client turned verbose errors
 * off) and returns its error code. */
int gasneti_report(const char *call, int code, const char *fmt, ...)
{
    if (!gex_System_GetVerboseErrors()) return code;
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fprintf(stderr, "GASNet %s on node %d: %s (%s)\n", call,
            gasneti_init_done ? (int)gasneti_mynode : -1, msg, gasnet_ErrorName(code));
    fflush(stderr);
    return code;
}

void gasneti_bad_handle(const char *call, const char *what, const void *handle)
{
    gasneti_fatalerror("%s: %p is not a valid %s (never created, destroyed, or not a handle)",
                       call, handle, what);
}
