/* Tracing and statistics: the call sites' macros (the mechanism and its
 * design: trace.c). Each macro is one predictable branch on a global mask
 * word when tracing and statistics are off; -DGASNETI_NO_TRACE_HOOKS
 * compiles every hook out (the cost comparison of results/trace-cost.md).
 */
#ifndef GASNET_TRACE_H
#define GASNET_TRACE_H

#include <stddef.h>
#include <stdint.h>

#include "ammpi.h"

/* Trace or stats wanted for this category, by letter. */
#define GASNETI_TS_BIT(c) GASNETI_TRACE_BIT(c)
extern unsigned gasneti_ts_mask; /* gasneti_trace_mask | gasneti_stats_mask */

#ifdef GASNETI_NO_TRACE_HOOKS
#define GASNETI_TS_ON(c) 0
#define GASNETI_TS_ANY 0
#else
/* (a relaxed atomic load: a plain load, which SETMASK may race with) */
#define GASNETI_TS_MASK __atomic_load_n(&gasneti_ts_mask, __ATOMIC_RELAXED)
#define GASNETI_TS_ON(c) __builtin_expect((GASNETI_TS_MASK & GASNETI_TS_BIT(c)) != 0, 0)
#define GASNETI_TS_ANY __builtin_expect(GASNETI_TS_MASK != 0, 0)
#endif

/* The events (trace.c): each traces a line and/or counts, as the masks say. */
void gasneti_trace_xfer(char cat, const char *call, unsigned peer, void *dst, const void *src, size_t n);
void gasneti_trace_am(const char *call, const ammpi_msg_t *m, unsigned peer, unsigned flags);
void gasneti_trace_event(char cat, const char *call, const char *fmt, ...)
    __attribute__((__format__(__printf__, 3, 4)));
uint64_t gasneti_trace_now(void);
void gasneti_trace_time(char cat, const char *call, uint64_t t0);

/* A put (cat 'P') or get ('G') of n bytes with peer (a jobrank). */
#define GASNETI_TRACE_XFER(cat, call, peer, dst, src, n) \
    (GASNETI_TS_ON(cat) ? gasneti_trace_xfer(cat, call, peer, dst, src, n) : (void)0)
/* A client's AM request or reply, as the message m it sends to or back to
 * peer (the call's name says which; few arguments: little to keep live). */
#define GASNETI_TRACE_AM(call, m, peer, flags) \
    (GASNETI_TS_ON('A') ? gasneti_trace_am(call, m, peer, (unsigned)(flags)) : (void)0)
/* Any other event: a line of text in category cat. */
#define GASNETI_TRACE_EVENT(cat, call, ...) \
    (GASNETI_TS_ON(cat) ? gasneti_trace_event(cat, call, __VA_ARGS__) : (void)0)
/* A blocking wait: T0 before it (0 when off), TIME after it (a line
 * with the time waited, and the call's min/mean/max in the stats). */
#define GASNETI_TRACE_T0(cat) (GASNETI_TS_ON(cat) ? gasneti_trace_now() : 0)
#define GASNETI_TRACE_TIME(cat, call, t0) ((t0) ? gasneti_trace_time(cat, call, t0) : (void)0)

/* Library side (core.c, exit.c, rma.c): */
void gasneti_trace_init(void);   /* after the environment is known */
void gasneti_trace_attach(void); /* after attach: the segment, and whether the inline path is off (I) */
void gasneti_trace_finish(int code); /* at exit: stats written, files closed */
void gasneti_trace_fatal(const char *msg); /* a fatal error: said and flushed */
/* A fatal or termination signal: said and flushed, unless the file's lock
 * is held (a thread, or the one interrupted, is writing a line). A last
 * act, like the rest of the signal handlers: not async-signal-safe. */
void gasneti_trace_signal(int sig);
int gasneti_trace_hooks_wanted(void);  /* handler runs observed (ammpi hooks) */
int gasneti_trace_wants_rma(void); /* every put and get must reach the library */
void gasneti_trace_set_hooks(ammpi_ep_t *ep); /* handler runs (A), where wanted */

#endif
