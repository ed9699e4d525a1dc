/* Active Messages (EX §8) over ammpi: argument checks, the variadic entry
 * points behind the numbered macros, local completion, IMMEDIATE, size
 * queries, token information, negotiated payloads, and polling.
 *
 * A request names (team, rank): the member's jobrank and endpoint index
 * address the message, the team's endpoint is the sender (replies come
 * back to it). Handlers are called by ammpi directly: an EX handler and
 * an ammpi handler have the same prototype, and a gex_Token_t is an
 * ammpi_token_t.
 *
 * Local completion (lc_opt): GEX_EVENT_NOW returns once the source may be
 * reused; a pointer gets a root event, GEX_EVENT_GROUP the thread's NBI
 * AM counter (or its access region's); both are counters ammpi decrements
 * when MPI is done with a payload it sent straight from the source (one
 * larger than the eager size). Replies always copy, so their local
 * completion is immediate.
 *
 * A client's request to its own process (any endpoint of it) runs its
 * handler before the call returns (AMMPI_LOOPBACK; why that is safe:
 * docs/loopback.md); the library's own requests to itself still go
 * through MPI and run at a poll, since their senders may hold the locks
 * their handlers take.
 *
 * Device memory (memkind/): a Medium or Long source inside a local device
 * segment is staged into host memory with its class copy before it is
 * sent (so its local completion is immediate); the transports only read
 * host memory, except the shared-memory rings' copy of a Long straight
 * into a neighbour's mapped or imported segment, a class copy (device to
 * device where both are). A Long destination may lie in a device segment
 * bound to the target endpoint: the shm channel copies into its import of
 * it, or the receiver copies it in with the class (core-mpi/segment.c
 * gives ammpi the segment's copy); the handler gets the device address.
 */
#include "gasnet_internal.h"
#include "events.h"
#include "memkind.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static int from_ammpi(int rc)
{
    return rc == AMMPI_OK ? GASNET_OK
         : rc == AMMPI_ERR_BAD_ARG ? GASNET_ERR_BAD_ARG
         : rc == AMMPI_ERR_NOT_INIT ? GASNET_ERR_NOT_INIT : GASNET_ERR_RESOURCE;
}

static const char *category_name(int category)
{
    return category == AMMPI_SHORT ? "Short" : category == AMMPI_MEDIUM ? "Medium" : "Long";
}

/* The call's name for messages: GASNet-1's macros mark their calls. */
static const char *am_call(int category, int is_reply, gex_Flags_t flags)
{
    static const char *const names[2][2][3] = {
        {{"gex_AM_RequestShort", "gex_AM_RequestMedium", "gex_AM_RequestLong"},
         {"gex_AM_ReplyShort", "gex_AM_ReplyMedium", "gex_AM_ReplyLong"}},
        {{"gasnet_AMRequestShort", "gasnet_AMRequestMedium", "gasnet_AMRequestLong"},
         {"gasnet_AMReplyShort", "gasnet_AMReplyMedium", "gasnet_AMReplyLong"}}};
    return names[(flags & GASNETI_FLAG_LEGACY_CALL) != 0][is_reply][category == AMMPI_LONG ? 2 : category - 1];
}

/* Flags a fixed-payload AM accepts. */
#define AM_FLAGS (GEX_FLAG_IMMEDIATE | GEX_FLAG_SELF_SEG_UNKNOWN | GEX_FLAG_SELF_SEG_SOME | \
                  GEX_FLAG_SELF_SEG_BOUND | GEX_FLAG_SELF_SEG_OFFSET |                      \
                  GEX_FLAG_PEER_SEG_UNKNOWN | GEX_FLAG_PEER_SEG_SOME |                      \
                  GEX_FLAG_PEER_SEG_BOUND | GEX_FLAG_PEER_SEG_OFFSET | GEX_FLAG_LC_COPY_YES | \
                  GEX_FLAG_LC_COPY_NO)

/* The checks requests and replies share; GASNET_OK or a reported code.
 * peer_seg: the bound segment a Long lands in. */
static size_t max_payload(int category, int is_reply)
{
    if (category == AMMPI_SHORT) return 0;
    return category == AMMPI_LONG && !is_reply ? GASNETI_AM_MAX_LONG_REQUEST : GASNETI_AM_MAX_PAYLOAD;
}

static int check_message(const char *call, int category, int is_reply, gex_Flags_t flags,
                         gex_AM_Index_t handler, const void *src, size_t nbytes,
                         const void *dest_addr, int numargs, const gasnet_seginfo_t *peer_seg,
                         gex_Rank_t jobrank)
{
    if (flags & ~AM_FLAGS)
        return gasneti_report(call, GASNET_ERR_BAD_ARG, "flags 0x%x are not AM initiation flags",
                              (unsigned)(flags & ~AM_FLAGS));
    if (numargs < 0 || numargs > (int)gex_AM_MaxArgs())
        return gasneti_report(call, GASNET_ERR_BAD_ARG, "%d arguments (at most %u)", numargs,
                              gex_AM_MaxArgs());
    if (handler == 0) return gasneti_report(call, GASNET_ERR_BAD_ARG, "handler index 0 is reserved");
    if (nbytes > max_payload(category, is_reply))
        return gasneti_report(call, GASNET_ERR_BAD_ARG, "payload of %zu bytes exceeds the limit "
                              "of %zu", nbytes, max_payload(category, is_reply));
    if (nbytes && !src)
        return gasneti_report(call, GASNET_ERR_BAD_ARG, "NULL source for %zu bytes", nbytes);
    if (category == AMMPI_LONG && nbytes && !gasneti_in_seginfo(peer_seg, dest_addr, nbytes)) {
        char seg[96] = "no bound segment";
        if (peer_seg)
            snprintf(seg, sizeof seg, "its segment [%p, +%lu)", peer_seg->addr,
                     (unsigned long)peer_seg->size);
#ifdef GASNET_DEBUG
        gasneti_fatalerror("%s: destination [%p, +%zu) lies outside node %u's segment (%s)", call,
                           dest_addr, nbytes, jobrank, seg);
#endif
        return gasneti_report(call, GASNET_ERR_BAD_ARG, "destination [%p, +%zu) lies outside "
                              "node %u's segment (%s)", dest_addr, nbytes, jobrank, seg);
    }
    return GASNET_OK;
}

static void collect_args(va_list ap, int numargs, int32_t *args)
{
    for (int i = 0; i < numargs && i < 16; i++) args[i] = (int32_t)va_arg(ap, int);
}

/* Where a request's local completion is counted (NULL: wait for it); sets
 * *op when a root event must be handed out. */
static int lc_counter(const char *call, gex_Event_t *lc_opt, uint32_t **lc, gasneti_op_t **op)
{
    *lc = NULL;
    *op = NULL;
    if (lc_opt == GEX_EVENT_NOW) return GASNET_OK;
    if (lc_opt == GEX_EVENT_GROUP) {
        gasneti_op_t *nbi = gasneti_nbi_op();
        if (gasneti_in_access_region()) nbi->has_leaf = 1;
        *lc = gasneti_counter(nbi, gasneti_in_access_region() ? GASNETI_LC : GASNETI_AM);
        return GASNET_OK;
    }
    if (lc_opt && lc_opt != GEX_EVENT_DEFER) {
        *op = gasneti_op_alloc(OP_EOP);
        *lc = gasneti_counter(*op, GASNETI_AM);
        return GASNET_OK;
    }
    return gasneti_report(call, GASNET_ERR_BAD_ARG, "lc_opt %s is not allowed for requests",
                          !lc_opt ? "NULL" : "GEX_EVENT_DEFER");
}

/* Replies copy their payload: the source is free on return, so an lc_opt
 * pointer gets GEX_EVENT_INVALID. */
static int check_reply_lc(const char *call, gex_Event_t *lc_opt)
{
    if (lc_opt == GEX_EVENT_NOW) return GASNET_OK;
    if (!lc_opt || lc_opt == GEX_EVENT_DEFER || lc_opt == GEX_EVENT_GROUP)
        return gasneti_report(call, GASNET_ERR_BAD_ARG, "lc_opt %s is not allowed for replies",
                              !lc_opt ? "NULL" : lc_opt == GEX_EVENT_DEFER ? "GEX_EVENT_DEFER"
                                                                          : "GEX_EVENT_GROUP");
    *lc_opt = GEX_EVENT_INVALID;
    return GASNET_OK;
}

/* Hands out the root event of an lc_opt pointer. */
static void deliver_lc(gex_Event_t *lc_opt, gasneti_op_t *op)
{
    if (op) *lc_opt = gasneti_event_of(op);
}

/* A payload source in a local device segment, copied into host memory
 * (free it once sent), or NULL: for host memory (one atomic load while
 * there are no device segments), and for a Long that the channel it takes
 * (the reply to tok, or a request: tok NULL) writes straight into its
 * destination with the classes (the shared-memory rings, where the
 * destination segment is mapped or imported here). */
static void *stage_source(const void *src, size_t nbytes, int category, ammpi_token_t tok,
                          gex_EP_Location_t dest, const void *dest_addr, const char *call)
{
    gasneti_mk_t mk = nbytes ? gasneti_mk_lookup(src, nbytes) : NULL;
    if (!mk || (category == AMMPI_LONG &&
                ammpi_in_place(gasnetc_ep, tok, (int)dest.gex_rank, dest.gex_ep_index, dest_addr, nbytes)))
        return NULL;
    void *host = malloc(nbytes);
    if (!host) gasneti_fatalerror("%s: out of memory staging %zu bytes of device memory", call, nbytes);
    gasneti_mk_copy(NULL, host, mk, src, nbytes);
    return host;
}

/* A client's request to this process runs its handler in the call (and a
 * remote atomic on its memory is done in the call), so a client that
 * loops on such operations, and on waits they already satisfied, would
 * never poll and never serve other ranks (a lock retried at its owner,
 * the owner being this rank). Every LOOPBACK_POLL-th of a thread's
 * operations on itself polls, as a request to another rank waits and
 * polls once its credits run out. */
#define LOOPBACK_POLL 16
void gasneti_poll_after_loopback(gex_Rank_t dest)
{
    static __thread unsigned sent;
    if (dest == gasneti_mynode && ++sent % LOOPBACK_POLL == 0) (void)gasneti_poll();
}

static int request(int category, gex_TM_t tm_, gex_Rank_t rank, gex_AM_Index_t handler,
                   const void *src, size_t nbytes, void *dest_addr, gex_Event_t *lc_opt,
                   gex_Flags_t flags, int numargs, va_list ap)
{
    const char *call = am_call(category, 0, flags);
    flags &= ~GASNETI_FLAG_LEGACY_CALL;
    if (!gasneti_init_done)
        return gasneti_report(call, GASNET_ERR_NOT_INIT, "called before gex_Client_Init");
    gasneti_tm_t tm = gasneti_import_tm(tm_, call);
    if ((tm->client->flags & GASNETI_FLAG_LEGACY_INIT) && !gasneti_attach_done)
        return gasneti_report(call, GASNET_ERR_NOT_INIT, "called before gasnet_attach");
    GASNETI_CHECK_MAY_COMMUNICATE(call);
    if (rank >= tm->size) {
        if (!tm->members)
            return gasneti_report(call, GASNET_ERR_BAD_ARG, "node %u is not in the job (%u nodes)",
                                  rank, tm->size);
        return gasneti_report(call, GASNET_ERR_BAD_ARG, "rank %u is not in the team (%u members)",
                              rank, tm->size);
    }
    gex_EP_Location_t loc = gasneti_tm_member(tm, rank);
    int rc = check_message(call, category, 0, flags, handler, src, nbytes, dest_addr, numargs,
                           category == AMMPI_LONG ? gasneti_peer_segment(loc) : NULL, loc.gex_rank);
    if (rc != GASNET_OK) return rc;
    uint32_t *lc = NULL;
    gasneti_op_t *op = NULL;
    if (category != AMMPI_SHORT && (rc = lc_counter(call, lc_opt, &lc, &op)) != GASNET_OK)
        return rc;
    int32_t args[16];
    collect_args(ap, numargs, args);
    gasneti_flush(); /* puts and gets this thread issued earlier go first */
    /* sent with local completion on return */
    void *staged = nbytes ? stage_source(src, nbytes, category, NULL, loc, dest_addr, call) : NULL;
    ammpi_msg_t m = {category, (int)loc.gex_rank, loc.gex_ep_index, tm->ep->index, handler,
                     staged ? staged : src, nbytes, dest_addr, numargs, args,
                     AMMPI_LOOPBACK | ((flags & GEX_FLAG_IMMEDIATE) ? AMMPI_IMMEDIATE : 0),
                     staged ? NULL : lc};
    GASNETI_TRACE_AM(call, &m, loc.gex_rank, flags);
    rc = gasnetc_request(&m);
    if (staged) free(staged);
    if (rc == AMMPI_ERR_AGAIN) {
        if (op) gasneti_op_free(op);
        return 1; /* an IMMEDIATE no-op: nothing was sent */
    }
    if (rc != AMMPI_OK) {
        if (op) gasneti_op_free(op);
        return gasneti_report(call, from_ammpi(rc), "transport error");
    }
    deliver_lc(lc_opt, op);
    gasneti_poll_after_loopback(loc.gex_rank);
    return GASNET_OK;
}

int gasnetc_request(const ammpi_msg_t *m)
{
    gasnetc_in_mpi++;
    int rc = ammpi_request_checked(gasnetc_ep, m);
    gasnetc_in_mpi--;
    return rc;
}

/* ---- the library's own AMs */

static void must(int rc, const char *what)
{
    if (rc == AMMPI_OK) return;
    if (ammpi_current_token())
        gasneti_fatalerror("a GASNet call that communicates was made inside an AM handler (the "
                           "library's %s was refused); handlers may only reply", what);
    gasneti_fatalerror("the library's AM %s failed: transport error %d", what, rc);
}

void gasnete_am_request(gasneti_tm_t tm, gex_EP_Location_t loc, int category, int handler,
                        const void *src, size_t n, void *dest_addr, uint32_t *lc, int nargs, ...)
{
    int32_t args[16];
    va_list ap;
    va_start(ap, nargs);
    collect_args(ap, nargs, args);
    va_end(ap);
    ammpi_msg_t m = {category, (int)loc.gex_rank, loc.gex_ep_index, tm->ep->index, handler, src, n,
                     dest_addr, nargs, args, 0, lc};
    gasneti_flush(); /* puts and gets this thread issued earlier go first */
    must(gasnete_am_send(&m), "request");
}

/* The trace line and count of the library's own message m: a reply (to
 * the sender of tok's request) where tok is given, else a request. */
static void trace_library_am(const ammpi_msg_t *m, ammpi_token_t tok)
{
    if (!GASNETI_TS_ON('A')) return;
    unsigned peer = (unsigned)m->dest;
    if (tok) {
        ammpi_token_info_t ti;
        ammpi_token_info(tok, &ti);
        peer = (unsigned)ti.src;
    }
    GASNETI_TRACE_AM(tok ? "library AM Reply" : "library AM Request", m, peer, 0);
}

int gasnete_am_send(const ammpi_msg_t *m)
{
    trace_library_am(m, NULL);
    return gasnetc_request(m);
}

void gasnete_am_commit(ammpi_prep_t *p, int handler, size_t n, const int32_t *args)
{
    if (GASNETI_TS_ON('A')) { /* the message as committed */
        ammpi_msg_t m = p->msg;
        m.handler = handler;
        m.src = p->offer;
        m.nbytes = n;
        m.args = args;
        trace_library_am(&m, p->tok);
    }
    ammpi_commit(p, handler, n, NULL, args);
}

void gasnete_am_reply(ammpi_token_t tok, int category, int handler, const void *src, size_t n,
                      void *dest_addr, int nargs, ...)
{
    int32_t args[16];
    va_list ap;
    va_start(ap, nargs);
    collect_args(ap, nargs, args);
    va_end(ap);
    ammpi_msg_t m = {category, 0, 0, 0, handler, src, n, dest_addr, nargs, args, 0, NULL};
    trace_library_am(&m, tok);
    must(ammpi_reply(tok, &m), "reply");
}

/* Why a token cannot reply now, or NULL. */
static const char *reply_refusal(ammpi_token_t tok)
{
    return !tok ? "NULL token"
         : tok != ammpi_current_token() ? "not called from the request handler that owns the token"
         : !ammpi_token_is_request(tok) ? "called from a reply handler"
         : ammpi_token_replied(tok) ? "a second reply from one request handler"
         : gasneti_hsls_held() ? "called while the handler holds an HSL"
         : NULL;
}

static int reply(int category, gex_Token_t token, gex_AM_Index_t handler, const void *src,
                 size_t nbytes, void *dest_addr, gex_Event_t *lc_opt, gex_Flags_t flags,
                 int numargs, va_list ap)
{
    const char *call = am_call(category, 1, flags);
    flags &= ~GASNETI_FLAG_LEGACY_CALL;
    ammpi_token_t tok = (ammpi_token_t)token;
    const char *why = reply_refusal(tok);
    if (why) {
#ifdef GASNET_DEBUG
        gasneti_fatalerror("%s: %s", call, why);
#endif
        return gasneti_report(call, GASNET_ERR_BAD_ARG, "%s", why);
    }
    ammpi_token_info_t ti;
    ammpi_token_info(tok, &ti);
    gex_EP_Location_t loc = {(gex_Rank_t)ti.src, (gex_EP_Index_t)ti.src_ep};
    int rc = check_message(call, category, 1, flags & ~GEX_FLAG_IMMEDIATE, handler, src, nbytes,
                           dest_addr, numargs,
                           category == AMMPI_LONG ? gasneti_peer_segment(loc) : NULL, loc.gex_rank);
    if (rc != GASNET_OK) return rc;
    if (category != AMMPI_SHORT && (rc = check_reply_lc(call, lc_opt)) != GASNET_OK) return rc;
    int32_t args[16];
    collect_args(ap, numargs, args);
    void *staged =
        nbytes ? stage_source(src, nbytes, category, tok, loc, dest_addr, call) : NULL;
    ammpi_msg_t m = {category, 0, 0, 0, handler, staged ? staged : src, nbytes, dest_addr,
                     numargs, args, 0, NULL};
    GASNETI_TRACE_AM(call, &m, loc.gex_rank, flags);
    rc = ammpi_reply(tok, &m);
    if (staged) free(staged);
    return rc == AMMPI_OK ? GASNET_OK : gasneti_report(call, from_ammpi(rc), "transport error");
}

#define VA_CALL(expr)          \
    do {                       \
        va_list ap;            \
        va_start(ap, numargs); \
        int rc_ = (expr);      \
        va_end(ap);            \
        return rc_;            \
    } while (0)

int gasnetc_AMRequestShort(gex_TM_t tm, gex_Rank_t rank, gex_AM_Index_t handler,
                           gex_Flags_t flags, int numargs, ...)
{
    VA_CALL(request(AMMPI_SHORT, tm, rank, handler, NULL, 0, NULL,
                    GEX_EVENT_NOW, flags, numargs, ap));
}

int gasnetc_AMRequestMedium(gex_TM_t tm, gex_Rank_t rank, gex_AM_Index_t handler,
                            const void *source_addr, size_t nbytes, gex_Event_t *lc_opt,
                            gex_Flags_t flags, int numargs, ...)
{
    VA_CALL(request(AMMPI_MEDIUM, tm, rank, handler, source_addr, nbytes,
                    NULL, lc_opt, flags, numargs, ap));
}

int gasnetc_AMRequestLong(gex_TM_t tm, gex_Rank_t rank, gex_AM_Index_t handler,
                          const void *source_addr, size_t nbytes, void *dest_addr,
                          gex_Event_t *lc_opt, gex_Flags_t flags, int numargs, ...)
{
    VA_CALL(request(AMMPI_LONG, tm, rank, handler, source_addr, nbytes,
                    dest_addr, lc_opt, flags, numargs, ap));
}

int gasnetc_AMReplyShort(gex_Token_t token, gex_AM_Index_t handler, gex_Flags_t flags,
                         int numargs, ...)
{
    VA_CALL(reply(AMMPI_SHORT, token, handler, NULL, 0, NULL, GEX_EVENT_NOW,
                  flags, numargs, ap));
}

int gasnetc_AMReplyMedium(gex_Token_t token, gex_AM_Index_t handler, const void *source_addr,
                          size_t nbytes, gex_Event_t *lc_opt, gex_Flags_t flags, int numargs, ...)
{
    VA_CALL(reply(AMMPI_MEDIUM, token, handler, source_addr, nbytes, NULL,
                  lc_opt, flags, numargs, ap));
}

int gasnetc_AMReplyLong(gex_Token_t token, gex_AM_Index_t handler, const void *source_addr,
                        size_t nbytes, void *dest_addr, gex_Event_t *lc_opt, gex_Flags_t flags,
                        int numargs, ...)
{
    VA_CALL(reply(AMMPI_LONG, token, handler, source_addr, nbytes, dest_addr,
                  lc_opt, flags, numargs, ap));
}

/* ---- size queries: the transport's limits, the same for every peer,
 * flag and argument count (so symmetric, stable and monotone) */

static size_t max_query(const char *call, gex_TM_t tm_, gex_Rank_t other, gex_Flags_t flags,
                        unsigned numargs, size_t max)
{
    gasneti_tm_t tm = gasneti_import_tm(tm_, call);
    if (other != GEX_RANK_INVALID) gasneti_tm_peer(tm, other, call);
    if (numargs > gex_AM_MaxArgs())
        gasneti_fatalerror("%s: numargs %u exceeds gex_AM_MaxArgs() = %u", call, numargs,
                           gex_AM_MaxArgs());
    if ((flags & GEX_FLAG_AM_PREPARE_LEAST_CLIENT) && (flags & GEX_FLAG_AM_PREPARE_LEAST_ALLOC))
        gasneti_fatalerror("%s: GEX_FLAG_AM_PREPARE_LEAST_CLIENT and _ALLOC are exclusive", call);
    /* a buffer GASNet provides holds at most a Medium payload */
    if ((flags & GEX_FLAG_AM_PREPARE_LEAST_ALLOC) && max > GASNETI_AM_MAX_PAYLOAD)
        return GASNETI_AM_MAX_PAYLOAD;
    return max;
}

size_t gex_AM_MaxRequestLong(gex_TM_t tm, gex_Rank_t other, const gex_Event_t *lc_opt,
                             gex_Flags_t flags, unsigned int numargs)
{
    (void)lc_opt;
    return max_query("gex_AM_MaxRequestLong", tm, other, flags, numargs, GASNETI_AM_MAX_LONG_REQUEST);
}

size_t gex_AM_MaxReplyLong(gex_TM_t tm, gex_Rank_t other, const gex_Event_t *lc_opt,
                           gex_Flags_t flags, unsigned int numargs)
{
    (void)lc_opt;
    return max_query("gex_AM_MaxReplyLong", tm, other, flags, numargs, GASNETI_AM_MAX_PAYLOAD);
}

size_t gex_AM_MaxRequestMedium(gex_TM_t tm, gex_Rank_t other, const gex_Event_t *lc_opt,
                               gex_Flags_t flags, unsigned int numargs)
{
    (void)lc_opt;
    return max_query("gex_AM_MaxRequestMedium", tm, other, flags, numargs, GASNETI_AM_MAX_PAYLOAD);
}

size_t gex_AM_MaxReplyMedium(gex_TM_t tm, gex_Rank_t other, const gex_Event_t *lc_opt,
                             gex_Flags_t flags, unsigned int numargs)
{
    (void)lc_opt;
    return max_query("gex_AM_MaxReplyMedium", tm, other, flags, numargs, GASNETI_AM_MAX_PAYLOAD);
}

static size_t token_max_query(const char *call, gex_Token_t token, unsigned numargs)
{
    ammpi_token_t tok = (ammpi_token_t)token;
    if (!tok || tok != ammpi_current_token() || !ammpi_token_is_request(tok))
        gasneti_fatalerror("%s: only legal in the request handler that owns the token", call);
    if (numargs > gex_AM_MaxArgs())
        gasneti_fatalerror("%s: numargs %u exceeds gex_AM_MaxArgs() = %u", call, numargs,
                           gex_AM_MaxArgs());
    return GASNETI_AM_MAX_PAYLOAD;
}

size_t gex_Token_MaxReplyLong(gex_Token_t token, const gex_Event_t *lc_opt, gex_Flags_t flags,
                              unsigned int numargs)
{
    (void)lc_opt;
    (void)flags;
    return token_max_query("gex_Token_MaxReplyLong", token, numargs);
}

size_t gex_Token_MaxReplyMedium(gex_Token_t token, const gex_Event_t *lc_opt, gex_Flags_t flags,
                                unsigned int numargs)
{
    (void)lc_opt;
    (void)flags;
    return token_max_query("gex_Token_MaxReplyMedium", token, numargs);
}

/* ---- token information: every field, in every handler */

gex_TI_t gex_Token_Info(gex_Token_t token, gex_Token_Info_t *info, gex_TI_t mask)
{
    (void)mask;
    ammpi_token_info_t ti;
    if (!info || ammpi_token_info((ammpi_token_t)token, &ti) != AMMPI_OK)
        gasneti_fatalerror("gex_Token_Info: NULL %s", info ? "token" : "info");
    gasneti_ep_t ep = gasneti_client->eps[ti.ep];
    info->gex_srcrank = (gex_Rank_t)ti.src;
    info->gex_ep = ep;
    info->gex_entry = &ep->handlers[ti.handler];
    info->gex_is_req = ti.is_request;
    info->gex_is_long = ti.category == AMMPI_LONG;
    return GEX_TI_ALL;
}

int gasnet_AMGetMsgSource(gasnet_token_t token, gasnet_node_t *srcindex)
{
    ammpi_token_info_t ti;
    if (!srcindex || ammpi_token_info((ammpi_token_t)token, &ti) != AMMPI_OK)
        return gasneti_report("gasnet_AMGetMsgSource", GASNET_ERR_BAD_ARG,
                              "NULL token or result pointer");
    *srcindex = (gasnet_node_t)ti.src;
    return GASNET_OK;
}

/* ---- negotiated payload (§8.6). Prepare and Commit pair up on a thread,
 * with nothing in between; a thread has one descriptor for requests and
 * one for replies (a request Prepare may poll while it waits for a credit,
 * and a handler run meanwhile may prepare a reply). */

struct gasneti_srcdesc_s {
    int category, is_reply, numargs, active;
    void *dest_addr;              /* Long: the value given to Prepare */
    gex_Event_t *lc_opt;
    gasneti_op_t *op;             /* root event for an lc_opt pointer */
    ammpi_prep_t prep;
};
static __thread struct gasneti_srcdesc_s srcdesc[2]; /* [is_reply] */

static gex_AM_SrcDesc_t prepare(const char *call, int category, gex_TM_t tm_, gex_Rank_t rank,
                                gex_Token_t token, const void *client_buf, size_t least,
                                size_t most, void *dest_addr, gex_Event_t *lc_opt,
                                gex_Flags_t flags, unsigned numargs)
{
    struct gasneti_srcdesc_s *sd = &srcdesc[token != NULL];
    if (sd->active) gasneti_fatalerror("%s: the previous Prepare on this thread was not committed", call);
    flags &= ~(GEX_FLAG_AM_PREPARE_LEAST_CLIENT | GEX_FLAG_AM_PREPARE_LEAST_ALLOC);
    if (flags & ~AM_FLAGS)
        gasneti_fatalerror("%s: flags 0x%x are not AM initiation flags", call,
                           (unsigned)(flags & ~AM_FLAGS));
    if (numargs > gex_AM_MaxArgs())
        gasneti_fatalerror("%s: numargs %u exceeds gex_AM_MaxArgs() = %u", call, numargs,
                           gex_AM_MaxArgs());
    size_t max = client_buf ? max_payload(category, token != NULL) : GASNETI_AM_MAX_PAYLOAD;
    if (least > max || most < least)
        gasneti_fatalerror("%s: least_payload %zu and most_payload %zu (least at most %zu, most "
                           "at least least)", call, least, most, max);
    if (most > max) most = max;
    if (!client_buf && lc_opt)
        gasneti_fatalerror("%s: lc_opt must be NULL when GASNet provides the buffer", call);
    ammpi_msg_t m = {category, 0, 0, 0, 0, client_buf, 0, NULL, (int)numargs, NULL,
                     AMMPI_LOOPBACK | ((flags & GEX_FLAG_IMMEDIATE) ? AMMPI_IMMEDIATE : 0), NULL};
    memset(sd, 0, sizeof *sd);
    sd->category = category;
    sd->is_reply = token != NULL;
    sd->numargs = (int)numargs;
    sd->dest_addr = dest_addr;
    sd->lc_opt = lc_opt;
    if (client_buf && token && check_reply_lc(call, lc_opt) != GASNET_OK)
        gasneti_fatalerror("%s: invalid lc_opt", call);
    if (client_buf && !token && lc_counter(call, lc_opt, &m.lc, &sd->op) != GASNET_OK)
        gasneti_fatalerror("%s: invalid lc_opt", call);
    int rc;
    if (token) {
        const char *why = reply_refusal((ammpi_token_t)token);
        if (why) gasneti_fatalerror("%s: %s", call, why);
        rc = ammpi_prepare(NULL, (ammpi_token_t)token, &m, most, &sd->prep);
    } else {
        gasneti_tm_t tm = gasneti_import_tm(tm_, call);
        GASNETI_CHECK_MAY_COMMUNICATE(call);
        gex_EP_Location_t loc = gasneti_tm_peer(tm, rank, call);
        m.dest = (int)loc.gex_rank;
        m.dest_ep = loc.gex_ep_index;
        m.src_ep = tm->ep->index;
        gasneti_flush();
        gasnetc_in_mpi++;
        rc = ammpi_prepare(gasnetc_ep, NULL, &m, most, &sd->prep);
        gasnetc_in_mpi--;
    }
    if (rc == AMMPI_ERR_AGAIN) {
        if (sd->op) gasneti_op_free(sd->op);
        return GEX_AM_SRCDESC_NO_OP;
    }
    if (rc != AMMPI_OK) gasneti_fatalerror("%s: transport error %d", call, rc);
    sd->active = 1;
    return sd;
}

static struct gasneti_srcdesc_s *check_sd(gex_AM_SrcDesc_t sd, const char *call)
{
    if ((sd != &srcdesc[0] && sd != &srcdesc[1]) || !sd->active)
        gasneti_fatalerror("%s: %p is not the descriptor of this thread's pending Prepare", call,
                           (void *)sd);
    return sd;
}

void *gex_AM_SrcDescAddr(gex_AM_SrcDesc_t sd) { return check_sd(sd, "gex_AM_SrcDescAddr")->prep.offer; }
size_t gex_AM_SrcDescSize(gex_AM_SrcDesc_t sd) { return check_sd(sd, "gex_AM_SrcDescSize")->prep.offer_size; }

/* Commit (commit_flags 0) and Commit_v2: 0 once sent; under
 * GEX_FLAG_IMMEDIATE, non-zero when it would wait for room (only the
 * shared-memory rings can: prepare took the credit and buffer a message
 * through MPI needs), the descriptor still pending. */
static int commit(const char *call, int category, int is_reply, gex_AM_SrcDesc_t sd_,
                  gex_AM_Index_t handler, size_t nbytes, void *dest_addr, gex_Flags_t commit_flags,
                  int numargs, va_list ap)
{
    struct gasneti_srcdesc_s *sd = check_sd(sd_, call);
    if (commit_flags & ~GEX_FLAG_IMMEDIATE)
        gasneti_fatalerror("%s: commit_flags 0x%x (only GEX_FLAG_IMMEDIATE is allowed)", call,
                           (unsigned)(commit_flags & ~GEX_FLAG_IMMEDIATE));
    if (sd->category != category || sd->is_reply != is_reply)
        gasneti_fatalerror("%s: the descriptor was prepared for a %s %s", call,
                           category_name(sd->category), sd->is_reply ? "reply" : "request");
    if (numargs != sd->numargs)
        gasneti_fatalerror("%s: %d arguments, but Prepare said %d", call, numargs, sd->numargs);
    if (nbytes > sd->prep.offer_size)
        gasneti_fatalerror("%s: nbytes %zu exceeds gex_AM_SrcDescSize() = %zu", call, nbytes,
                           sd->prep.offer_size);
    if (handler == 0) gasneti_fatalerror("%s: handler index 0 is reserved", call);
    if (category == AMMPI_LONG && sd->dest_addr && sd->dest_addr != dest_addr)
        gasneti_fatalerror("%s: dest_addr %p differs from the %p given to Prepare", call, dest_addr,
                           sd->dest_addr);
    gex_EP_Location_t loc = {(gex_Rank_t)sd->prep.msg.dest, (gex_EP_Index_t)sd->prep.msg.dest_ep};
    if (is_reply) {
        ammpi_token_info_t ti;
        ammpi_token_info(sd->prep.tok, &ti);
        loc = (gex_EP_Location_t){(gex_Rank_t)ti.src, (gex_EP_Index_t)ti.src_ep};
    }
    if (category == AMMPI_LONG && nbytes) {
        const gasnet_seginfo_t *seg = gasneti_peer_segment(loc);
        if (!gasneti_in_seginfo(seg, dest_addr, nbytes))
            gasneti_fatalerror("%s: destination [%p, +%zu) lies outside node %u's segment", call,
                               dest_addr, nbytes, loc.gex_rank);
    }
    int32_t args[16];
    collect_args(ap, numargs, args);
    /* the client's buffer in device memory: its bytes now, from host memory */
    void *staged = sd->prep.msg.src ? stage_source(sd->prep.offer, nbytes, category, sd->prep.tok,
                                                   loc, dest_addr, call) : NULL;
    void *offer = sd->prep.offer;
    uint32_t *lc = sd->prep.msg.lc;
    if (staged) {
        sd->prep.offer = staged;
        sd->prep.msg.lc = NULL; /* sent with local completion on return */
    }
    if (GASNETI_TS_ON('A')) {
        ammpi_msg_t m = sd->prep.msg;
        m.handler = handler;
        m.src = sd->prep.offer;
        m.nbytes = nbytes;
        m.dest_addr = dest_addr;
        GASNETI_TRACE_AM(call, &m, loc.gex_rank, commit_flags);
    }
    gasnetc_in_mpi++;
    int rc = ammpi_commit_flags(&sd->prep, handler, nbytes, dest_addr, args,
                                (commit_flags & GEX_FLAG_IMMEDIATE) ? AMMPI_IMMEDIATE : 0);
    gasnetc_in_mpi--;
    free(staged);
    if (rc == AMMPI_ERR_AGAIN) { /* nothing sent: the Prepare stands */
        sd->prep.offer = offer;
        sd->prep.msg.lc = lc;
        return 1;
    }
    sd->active = 0;
    deliver_lc(sd->lc_opt, sd->op);
    if (!sd->is_reply) gasneti_poll_after_loopback(loc.gex_rank);
    return GASNET_OK;
}

/* Cancel (spec v0.19): gives back the buffer and credit of the Prepare;
 * nothing is sent, and an lc_opt event is never handed out. */
static int cancel(const char *call, int category, int is_reply, gex_AM_SrcDesc_t sd_, gex_Flags_t flags)
{
    struct gasneti_srcdesc_s *sd = check_sd(sd_, call);
    if (sd->category != category || sd->is_reply != is_reply)
        gasneti_fatalerror("%s: the descriptor was prepared for a %s %s", call,
                           category_name(sd->category), sd->is_reply ? "reply" : "request");
    if (flags) gasneti_fatalerror("%s: flags 0x%x (must be 0)", call, (unsigned)flags);
    gasnetc_in_mpi++;
    ammpi_cancel(&sd->prep);
    gasnetc_in_mpi--;
    if (sd->op) gasneti_op_free(sd->op);
    sd->active = 0;
    return GASNET_OK;
}

int gex_AM_CancelRequestMedium(gex_AM_SrcDesc_t sd, gex_Flags_t flags)
{
    return cancel("gex_AM_CancelRequestMedium", AMMPI_MEDIUM, 0, sd, flags);
}

int gex_AM_CancelReplyMedium(gex_AM_SrcDesc_t sd, gex_Flags_t flags)
{
    return cancel("gex_AM_CancelReplyMedium", AMMPI_MEDIUM, 1, sd, flags);
}

int gex_AM_CancelRequestLong(gex_AM_SrcDesc_t sd, gex_Flags_t flags)
{
    return cancel("gex_AM_CancelRequestLong", AMMPI_LONG, 0, sd, flags);
}

int gex_AM_CancelReplyLong(gex_AM_SrcDesc_t sd, gex_Flags_t flags)
{
    return cancel("gex_AM_CancelReplyLong", AMMPI_LONG, 1, sd, flags);
}


gex_AM_SrcDesc_t gex_AM_PrepareRequestMedium(gex_TM_t tm, gex_Rank_t rank, const void *client_buf,
                                             size_t least, size_t most, gex_Event_t *lc_opt,
                                             gex_Flags_t flags, unsigned int numargs)
{
    return prepare("gex_AM_PrepareRequestMedium", AMMPI_MEDIUM, tm, rank, NULL, client_buf, least,
                   most, NULL, lc_opt, flags, numargs);
}

gex_AM_SrcDesc_t gex_AM_PrepareReplyMedium(gex_Token_t token, const void *client_buf, size_t least,
                                           size_t most, gex_Event_t *lc_opt, gex_Flags_t flags,
                                           unsigned int numargs)
{
    return prepare("gex_AM_PrepareReplyMedium", AMMPI_MEDIUM, NULL, 0, token, client_buf, least,
                   most, NULL, lc_opt, flags, numargs);
}

gex_AM_SrcDesc_t gex_AM_PrepareRequestLong(gex_TM_t tm, gex_Rank_t rank, const void *client_buf,
                                           size_t least, size_t most, void *dest_addr,
                                           gex_Event_t *lc_opt, gex_Flags_t flags,
                                           unsigned int numargs)
{
    return prepare("gex_AM_PrepareRequestLong", AMMPI_LONG, tm, rank, NULL, client_buf, least, most,
                   dest_addr, lc_opt, flags, numargs);
}

gex_AM_SrcDesc_t gex_AM_PrepareReplyLong(gex_Token_t token, const void *client_buf, size_t least,
                                         size_t most, void *dest_addr, gex_Event_t *lc_opt,
                                         gex_Flags_t flags, unsigned int numargs)
{
    return prepare("gex_AM_PrepareReplyLong", AMMPI_LONG, NULL, 0, token, client_buf, least, most,
                   dest_addr, lc_opt, flags, numargs);
}

#define VA_COMMIT(expr)        \
    do {                       \
        va_list ap;            \
        va_start(ap, numargs); \
        expr;                  \
        va_end(ap);            \
    } while (0)

void gasnetc_AMCommitRequestMedium(gex_AM_SrcDesc_t sd, gex_AM_Index_t handler, size_t nbytes,
                                   int numargs, ...)
{
    VA_COMMIT(commit("gex_AM_CommitRequestMedium", AMMPI_MEDIUM, 0, sd, handler, nbytes, NULL, 0,
                     numargs, ap));
}

void gasnetc_AMCommitReplyMedium(gex_AM_SrcDesc_t sd, gex_AM_Index_t handler, size_t nbytes,
                                 int numargs, ...)
{
    VA_COMMIT(commit("gex_AM_CommitReplyMedium", AMMPI_MEDIUM, 1, sd, handler, nbytes, NULL, 0,
                     numargs, ap));
}

void gasnetc_AMCommitRequestLong(gex_AM_SrcDesc_t sd, gex_AM_Index_t handler, size_t nbytes,
                                 void *dest_addr, int numargs, ...)
{
    VA_COMMIT(commit("gex_AM_CommitRequestLong", AMMPI_LONG, 0, sd, handler, nbytes, dest_addr, 0,
                     numargs, ap));
}

void gasnetc_AMCommitReplyLong(gex_AM_SrcDesc_t sd, gex_AM_Index_t handler, size_t nbytes,
                               void *dest_addr, int numargs, ...)
{
    VA_COMMIT(commit("gex_AM_CommitReplyLong", AMMPI_LONG, 1, sd, handler, nbytes, dest_addr, 0,
                     numargs, ap));
}

#define VA_COMMIT_V2(expr)     \
    do {                       \
        va_list ap;            \
        va_start(ap, numargs); \
        rc = expr;             \
        va_end(ap);            \
    } while (0)

int gasnetc_AMCommitRequestMedium_v2(gex_AM_SrcDesc_t sd, gex_AM_Index_t handler, size_t nbytes,
                                     gex_Flags_t commit_flags, int numargs, ...)
{
    int rc;
    VA_COMMIT_V2(commit("gex_AM_CommitRequestMedium_v2", AMMPI_MEDIUM, 0, sd, handler, nbytes, NULL,
                        commit_flags, numargs, ap));
    return rc;
}

int gasnetc_AMCommitReplyMedium_v2(gex_AM_SrcDesc_t sd, gex_AM_Index_t handler, size_t nbytes,
                                   gex_Flags_t commit_flags, int numargs, ...)
{
    int rc;
    VA_COMMIT_V2(commit("gex_AM_CommitReplyMedium_v2", AMMPI_MEDIUM, 1, sd, handler, nbytes, NULL,
                        commit_flags, numargs, ap));
    return rc;
}

int gasnetc_AMCommitRequestLong_v2(gex_AM_SrcDesc_t sd, gex_AM_Index_t handler, size_t nbytes,
                                   void *dest_addr, gex_Flags_t commit_flags, int numargs, ...)
{
    int rc;
    VA_COMMIT_V2(commit("gex_AM_CommitRequestLong_v2", AMMPI_LONG, 0, sd, handler, nbytes, dest_addr,
                        commit_flags, numargs, ap));
    return rc;
}

int gasnetc_AMCommitReplyLong_v2(gex_AM_SrcDesc_t sd, gex_AM_Index_t handler, size_t nbytes,
                                 void *dest_addr, gex_Flags_t commit_flags, int numargs, ...)
{
    int rc;
    VA_COMMIT_V2(commit("gex_AM_CommitReplyLong_v2", AMMPI_LONG, 1, sd, handler, nbytes, dest_addr,
                        commit_flags, numargs, ap));
    return rc;
}

/* ---- polling: the network, then every registered progress hook */

__thread int gasneti_batched;

void gasneti_flush_layers(int at_exit)
{
    gasneti_batched = 0; /* a layer that cannot send yet sets it again */
    for (const gasneti_layer_t *const *l = gasneti_layers; *l; l++)
        if ((*l)->flush) (*l)->flush(at_exit);
}

/* The progress members of the layers started so far, so that a poll
 * walks only those, and the transports polling now (ntransports is
 * atomic: the progress thread reads it while a backend starts). */
static void (*hooks[8])(void), (*transports[4])(void);
static int nhooks, ntransports;

void gasneti_layer_started(const gasneti_layer_t *layer)
{
    if (!layer->progress) return;
    if (nhooks == (int)(sizeof hooks / sizeof hooks[0])) gasneti_fatalerror("too many progress hooks");
    hooks[nhooks++] = layer->progress;
}

void gasneti_poll_add(void (*fn)(void))
{
    int n = ntransports;
    if (n == (int)(sizeof transports / sizeof transports[0])) gasneti_fatalerror("too many transports poll");
    __atomic_store_n(&transports[n], fn, __ATOMIC_RELAXED);
    __atomic_store_n(&ntransports, n + 1, __ATOMIC_RELEASE);
}

/* Another thread's poll may still call fn after this returns (it read the
 * list before): a backend's poll must do nothing once it is detached. */
void gasneti_poll_remove(void (*fn)(void))
{
    for (int i = 0; i < ntransports; i++)
        if (transports[i] == fn) {
            __atomic_store_n(&transports[i], transports[ntransports - 1], __ATOMIC_RELAXED);
            __atomic_store_n(&ntransports, ntransports - 1, __ATOMIC_RELEASE);
            return;
        }
}

static inline void poll_transports(void)
{
    int n = __atomic_load_n(&ntransports, __ATOMIC_ACQUIRE);
    for (int i = 0; i < n; i++) __atomic_load_n(&transports[i], __ATOMIC_RELAXED)();
}
void gasneti_poll_transports(void) { poll_transports(); }

static void run_hooks(void)
{
    gasnetc_exit_poll();
    for (int i = 0; i < nhooks; i++) hooks[i]();
}

int gasneti_poll(void)
{
    gasneti_flush();
    gasnetc_in_mpi++;
    int rc = ammpi_poll(gasnetc_ep);
    poll_transports();
    gasnetc_in_mpi--;
    gasneti_mk_poll(); /* device copies in flight */
    run_hooks();
    return rc == AMMPI_OK ? GASNET_OK : GASNET_ERR_BAD_ARG;
}

void gasneti_poll_wait(int *idle)
{
    gasneti_flush();
    gasnetc_in_mpi++;
    ammpi_poll_wait(gasnetc_ep, idle);
    poll_transports();
    gasnetc_in_mpi--;
    gasneti_mk_poll();
    run_hooks();
}

int gasnet_AMPoll(void)
{
    if (!gasneti_init_done)
        return gasneti_report("gasnet_AMPoll", GASNET_ERR_NOT_INIT, "called before gex_Client_Init");
    if ((gasneti_client->flags & GASNETI_FLAG_LEGACY_INIT) && !gasneti_attach_done)
        return gasneti_report("gasnet_AMPoll", GASNET_ERR_NOT_INIT, "called before gasnet_attach");
    GASNETI_CHECK_MAY_POLL("gasnet_AMPoll");
    GASNETI_TRACE_EVENT('X', "gasnet_AMPoll", "%s", "");
    return gasneti_poll();
}

void gasnetc_block_poll(int *idle)
{
    GASNETI_CHECK_INIT("GASNET_BLOCKUNTIL");
    GASNETI_CHECK_MAY_POLL("GASNET_BLOCKUNTIL");
    gasneti_poll_wait(idle);
}
