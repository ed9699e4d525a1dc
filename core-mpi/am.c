/* GASNet Active Messages over ammpi: argument checking, the variadic
 * family entry points behind the numbered macros, polling and
 * GASNET_BLOCKUNTIL. Handlers are called by ammpi directly: a GASNet
 * handler and an ammpi handler have the same prototype, and a
 * gasnet_token_t is an ammpi_token_t. */
#include "gasnet_internal.h"

#include <stdarg.h>

enum { SHORT, MEDIUM, LONG, LONG_ASYNC };
static const char *const request_names[] = {"gasnet_AMRequestShort", "gasnet_AMRequestMedium",
                                            "gasnet_AMRequestLong", "gasnet_AMRequestLongAsync"};
static const char *const reply_names[] = {"gasnet_AMReplyShort", "gasnet_AMReplyMedium",
                                          "gasnet_AMReplyLong"};

static int from_ammpi(int rc)
{
    return rc == AMMPI_OK ? GASNET_OK
         : rc == AMMPI_ERR_BAD_ARG ? GASNET_ERR_BAD_ARG
         : rc == AMMPI_ERR_NOT_INIT ? GASNET_ERR_NOT_INIT : GASNET_ERR_RESOURCE;
}

static size_t max_payload(int kind, int is_reply)
{
    if (kind == SHORT) return 0;
    if (kind == MEDIUM) return gasnet_AMMaxMedium();
    return is_reply ? gasnet_AMMaxLongReply() : gasnet_AMMaxLongRequest();
}

/* Checks what both directions share; returns GASNET_OK or a reported code. */
static int check_message(const char *call, int kind, int is_reply, gasnet_node_t dest,
                         gasnet_handler_t handler, const void *src, size_t nbytes,
                         const void *dest_addr, int numargs)
{
    if (numargs < 0 || numargs > (int)gasnet_AMMaxArgs())
        return gasneti_report(call, GASNET_ERR_BAD_ARG, "%d arguments (at most %d)", numargs,
                              (int)gasnet_AMMaxArgs());
    if (handler == 0)
        return gasneti_report(call, GASNET_ERR_BAD_ARG, "handler index 0 is reserved");
    if (nbytes > max_payload(kind, is_reply))
        return gasneti_report(call, GASNET_ERR_BAD_ARG, "payload of %zu bytes exceeds the "
                              "limit of %zu", nbytes, max_payload(kind, is_reply));
    if (nbytes && !src)
        return gasneti_report(call, GASNET_ERR_BAD_ARG, "NULL source for %zu bytes", nbytes);
    if (kind >= LONG && nbytes && !gasneti_in_segment(dest, dest_addr, nbytes)) {
#ifdef GASNET_DEBUG
        gasneti_fatalerror("%s: destination [%p, +%zu) lies outside node %u's segment "
                           "[%p, +%lu)", call, dest_addr, nbytes, dest,
                           gasneti_seginfo[dest].addr, (unsigned long)gasneti_seginfo[dest].size);
#endif
        return gasneti_report(call, GASNET_ERR_BAD_ARG, "destination [%p, +%zu) lies outside "
                              "node %u's segment [%p, +%lu)", dest_addr, nbytes, dest,
                              gasneti_seginfo[dest].addr,
                              (unsigned long)gasneti_seginfo[dest].size);
    }
    return GASNET_OK;
}

static void collect_args(va_list ap, int numargs, int32_t *args)
{
    for (int i = 0; i < numargs && i < 16; i++) args[i] = (int32_t)va_arg(ap, int);
}

static int request(int kind, gasnet_node_t dest, gasnet_handler_t handler, void *src,
                   size_t nbytes, void *dest_addr, int numargs, va_list ap)
{
    const char *call = request_names[kind];
    if (!gasneti_attach_done)
        return gasneti_report(call, GASNET_ERR_NOT_INIT, "called before gasnet_attach");
    GASNETI_CHECK_MAY_COMMUNICATE(call);
    if (dest >= gasneti_nodes)
        return gasneti_report(call, GASNET_ERR_BAD_ARG, "node %u is not in the job (%u nodes)",
                              dest, gasneti_nodes);
    int rc = check_message(call, kind, 0, dest, handler, src, nbytes, dest_addr, numargs);
    if (rc != GASNET_OK) return rc;
    int32_t args[16];
    collect_args(ap, numargs, args);
    gasnetc_in_mpi++;
    switch (kind) {
    case SHORT: rc = ammpi_request_short(gasnetc_ep, (int)dest, handler, numargs, args); break;
    case MEDIUM:
        rc = ammpi_request_medium(gasnetc_ep, (int)dest, handler, src, nbytes, numargs, args);
        break;
    case LONG:
        rc = ammpi_request_long(gasnetc_ep, (int)dest, handler, src, nbytes, dest_addr, numargs,
                                args);
        break;
    default:
        rc = ammpi_request_long_async(gasnetc_ep, (int)dest, handler, src, nbytes, dest_addr,
                                      numargs, args);
    }
    gasnetc_in_mpi--;
    return rc == AMMPI_OK ? GASNET_OK : gasneti_report(call, from_ammpi(rc), "transport error");
}

static int reply(int kind, gasnet_token_t token, gasnet_handler_t handler, void *src,
                 size_t nbytes, void *dest_addr, int numargs, va_list ap)
{
    const char *call = reply_names[kind];
    ammpi_token_t tok = (ammpi_token_t)token;
    const char *why = !tok ? "NULL token"
                    : tok != ammpi_current_token() ? "not called from the request handler that owns the token"
                    : !ammpi_token_is_request(tok) ? "called from a reply handler"
                    : ammpi_token_replied(tok) ? "a second reply from one request handler"
                    : gasneti_hsls_held() ? "called while the handler holds an HSL"
                    : NULL;
    if (why) {
#ifdef GASNET_DEBUG
        gasneti_fatalerror("%s: %s", call, why);
#endif
        return gasneti_report(call, GASNET_ERR_BAD_ARG, "%s", why);
    }
    int src_node;
    ammpi_token_source(tok, &src_node);
    int rc = check_message(call, kind, 1, (gasnet_node_t)src_node, handler, src, nbytes,
                           dest_addr, numargs);
    if (rc != GASNET_OK) return rc;
    int32_t args[16];
    collect_args(ap, numargs, args);
    switch (kind) {
    case SHORT: rc = ammpi_reply_short(tok, handler, numargs, args); break;
    case MEDIUM: rc = ammpi_reply_medium(tok, handler, src, nbytes, numargs, args); break;
    default: rc = ammpi_reply_long(tok, handler, src, nbytes, dest_addr, numargs, args);
    }
    return rc == AMMPI_OK ? GASNET_OK : gasneti_report(call, from_ammpi(rc), "transport error");
}

#define VA_CALL(expr)        \
    do {                     \
        va_list ap;          \
        va_start(ap, numargs); \
        int rc_ = (expr);    \
        va_end(ap);          \
        return rc_;          \
    } while (0)

int gasnetc_AMRequestShortM(gasnet_node_t dest, gasnet_handler_t handler, int numargs, ...)
{
    VA_CALL(request(SHORT, dest, handler, NULL, 0, NULL, numargs, ap));
}

int gasnetc_AMRequestMediumM(gasnet_node_t dest, gasnet_handler_t handler, void *source_addr,
                             size_t nbytes, int numargs, ...)
{
    VA_CALL(request(MEDIUM, dest, handler, source_addr, nbytes, NULL, numargs, ap));
}

int gasnetc_AMRequestLongM(gasnet_node_t dest, gasnet_handler_t handler, void *source_addr,
                           size_t nbytes, void *dest_addr, int numargs, ...)
{
    VA_CALL(request(LONG, dest, handler, source_addr, nbytes, dest_addr, numargs, ap));
}

int gasnetc_AMRequestLongAsyncM(gasnet_node_t dest, gasnet_handler_t handler,
                                void *source_addr, size_t nbytes, void *dest_addr,
                                int numargs, ...)
{
    VA_CALL(request(LONG_ASYNC, dest, handler, source_addr, nbytes, dest_addr, numargs, ap));
}

int gasnetc_AMReplyShortM(gasnet_token_t token, gasnet_handler_t handler, int numargs, ...)
{
    VA_CALL(reply(SHORT, token, handler, NULL, 0, NULL, numargs, ap));
}

int gasnetc_AMReplyMediumM(gasnet_token_t token, gasnet_handler_t handler, void *source_addr,
                           size_t nbytes, int numargs, ...)
{
    VA_CALL(reply(MEDIUM, token, handler, source_addr, nbytes, NULL, numargs, ap));
}

int gasnetc_AMReplyLongM(gasnet_token_t token, gasnet_handler_t handler, void *source_addr,
                         size_t nbytes, void *dest_addr, int numargs, ...)
{
    VA_CALL(reply(LONG, token, handler, source_addr, nbytes, dest_addr, numargs, ap));
}

/* ---- polling */

/* Every poll also serves exit notices and advances a pending barrier. */
int gasneti_poll(void)
{
    gasnetc_in_mpi++;
    int rc = ammpi_poll(gasnetc_ep);
    gasnetc_in_mpi--;
    gasnetc_exit_poll();
    gasnete_barrier_progress();
    return rc == AMMPI_OK ? GASNET_OK : GASNET_ERR_BAD_ARG;
}

void gasneti_poll_wait(int *idle)
{
    gasnetc_in_mpi++;
    ammpi_poll_wait(gasnetc_ep, idle);
    gasnetc_in_mpi--;
    gasnetc_exit_poll();
    gasnete_barrier_progress();
}

int gasnet_AMPoll(void)
{
    if (!gasneti_attach_done)
        return gasneti_report("gasnet_AMPoll", GASNET_ERR_NOT_INIT, "called before gasnet_attach");
    GASNETI_CHECK_MAY_POLL("gasnet_AMPoll");
    return gasneti_poll();
}

void gasnetc_block_poll(int *idle)
{
    GASNETI_CHECK_ATTACHED("GASNET_BLOCKUNTIL");
    GASNETI_CHECK_MAY_POLL("GASNET_BLOCKUNTIL");
    gasneti_poll_wait(idle);
}

int gasnet_AMGetMsgSource(gasnet_token_t token, gasnet_node_t *srcindex)
{
    int src;
    if (!token || !srcindex || ammpi_token_source((ammpi_token_t)token, &src) != AMMPI_OK)
        return gasneti_report("gasnet_AMGetMsgSource", GASNET_ERR_BAD_ARG,
                              "NULL token or result pointer");
    *srcindex = (gasnet_node_t)src;
    return GASNET_OK;
}
