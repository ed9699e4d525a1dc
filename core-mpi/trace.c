/* Tracing and statistics (docs/debugging.md): compiled into every build,
 * off until GASNET_TRACEFILE or GASNET_STATSFILE names an output.
 *
 * Masks. A category is a letter (CATS below). gasneti_trace_mask and
 * gasneti_stats_mask hold the categories this node traces and counts now
 * (0 where the node has no output or GASNET_TRACENODES / STATSNODES leave
 * it out); gasneti_ts_mask is their union, the one word every call site
 * tests (trace.h: one branch, predicted not taken). All three change only
 * at init and through GASNETT_{TRACE,STATS}_SETMASK.
 *
 * Where the hooks are. At the library's entry points, never in the
 * header's inline on-node put and get: while puts or gets are traced
 * (with GASNET_TRACELOCAL) or counted, gasneti_pshm_fast_update
 * (core-native/rma.c) turns the inline path off, so every put and get
 * reaches gasnete_put / gasnete_get, which trace it. A client's AMs are
 * traced in am.c's request() and reply(); handler runs through ammpi's
 * handler hooks, installed only where this node has a trace or stats
 * output. Blocking waits, barriers and collectives take a start time and
 * record the time waited.
 *
 * Threads. A trace line is formatted on the caller's stack and written
 * with one fwrite (stdio locks the stream for it), so lines never mix;
 * the statistics tables are under one mutex (taken only when counting).
 * Each thread gets a small number (T0, T1...) at its first line.
 *
 * Files. '%' in a file name becomes the node number; "stdout" and
 * "stderr" name those streams. A name without '%' shared by several nodes
 * is truncated by node 0 and appended to by each node a whole line at a
 * time. The statistics are written at exit (and at GASNETT_STATS_DUMP),
 * one line per table row; scripts/stats-summary.py merges the nodes' files.
 */
#include "gasnet_internal.h"
#include "memkind.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char CATS[] = "GPRSWBLAXIOCDNHU";

unsigned gasneti_trace_mask, gasneti_stats_mask, gasneti_ts_mask;
__thread const char *gasneti_srcfile;
__thread unsigned gasneti_srcline;
__thread int gasneti_srcfrozen;
int gasneti_trace_tracelocal = 1;

/* The masks the settings asked for, before the node selection. */
static unsigned trace_wanted, stats_wanted;
static int trace_here, stats_here; /* this node has the output and is selected */
static FILE *trace_out, *stats_out;
static int trace_flush;
static uint64_t t_start;
static int next_tid;
static __thread int my_tid = -1;
static char mask_text[2][sizeof CATS];

static unsigned all_mask(void)
{
    unsigned m = 0;
    for (const char *c = CATS; *c; c++) m |= GASNETI_TRACE_BIT(*c);
    return m;
}

uint64_t gasneti_trace_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void publish_masks(void)
{
    unsigned t = trace_here ? trace_wanted : 0, s = stats_here ? stats_wanted : 0;
    __atomic_store_n(&gasneti_trace_mask, t, __ATOMIC_RELAXED);
    __atomic_store_n(&gasneti_stats_mask, s, __ATOMIC_RELAXED);
    __atomic_store_n(&gasneti_ts_mask, t | s, __ATOMIC_RELAXED);
    if (gasneti_attach_done) gasneti_pshm_fast_update();
}

/* ---- settings */

/* Letters of CATS; a leading '^' takes the complement. NULL: the error. */
static const char *parse_mask(const char *v, unsigned *mask)
{
    int invert = *v == '^';
    unsigned m = 0;
    for (const char *p = v + invert; *p; p++) {
        if (*p == ' ' || *p == ',') continue;
        const char *c = strchr(CATS, *p);
        if (!c) return "has an unknown category letter";
        m |= GASNETI_TRACE_BIT(*c);
    }
    *mask = invert ? all_mask() & ~m : m;
    return NULL;
}

static unsigned getenv_mask(const char *key)
{
    const char *v = gasneti_getenv_str(key, CATS);
    unsigned m;
    if (!*v) return all_mask();
    if (parse_mask(v, &m))
        gasneti_fatalerror("environment variable %s='%s' has an unknown category letter: use "
                           "letters of %s, with a leading ^ for all but those", key, v, CATS);
    return m;
}

/* Opens the output a file setting names; NULL when unset or empty. */
static FILE *open_output(const char *key, int selected)
{
    const char *v = gasneti_getenv_str(key, "");
    if (!*v) return NULL;
    if (!strcmp(v, "stdout")) return selected ? stdout : NULL;
    if (!strcmp(v, "stderr") || !strcmp(v, "-")) return selected ? stderr : NULL;
    char path[4096];
    size_t n = 0;
    int shared = 1;
    for (const char *p = v; *p && n < sizeof path - 12; p++) {
        if (*p == '%') {
            n += (size_t)snprintf(path + n, sizeof path - n, "%u", gasneti_mynode);
            shared = 0;
        } else {
            path[n++] = *p;
        }
    }
    path[n] = '\0';
    /* one file for several nodes: node 0 empties it, then all append */
    if (shared && gasneti_nodes > 1) {
        if (gasneti_mynode == 0) {
            FILE *f = fopen(path, "w");
            if (f) fclose(f);
        }
        MPI_Barrier(gasnetc_comm);
    }
    if (!selected) return NULL;
    FILE *f = fopen(path, shared && gasneti_nodes > 1 ? "a" : "w");
    if (!f)
        gasneti_fatalerror("environment variable %s='%s': cannot open '%s' on node %u: %s", key, v,
                           path, gasneti_mynode, strerror(errno));
    if (shared && gasneti_nodes > 1) setvbuf(f, NULL, _IOLBF, 0);
    return f;
}

static void trace_line(char cat, const char *call, const char *fmt, va_list ap);
static void trace_linef(char cat, const char *call, const char *fmt, ...)
    __attribute__((__format__(__printf__, 3, 4)));

void gasneti_trace_init(void)
{
    t_start = gasneti_trace_now();
    trace_wanted = getenv_mask("GASNET_TRACEMASK");
    stats_wanted = getenv_mask("GASNET_STATSMASK");
    gasneti_trace_tracelocal = gasneti_getenv_yesno("GASNET_TRACELOCAL", 1);
    trace_flush = gasneti_getenv_yesno("GASNET_TRACEFLUSH", 0);
    trace_out = open_output("GASNET_TRACEFILE", gasneti_getenv_nodes("GASNET_TRACENODES"));
    stats_out = open_output("GASNET_STATSFILE", gasneti_getenv_nodes("GASNET_STATSNODES"));
    trace_here = trace_out != NULL;
    stats_here = stats_out != NULL;
    publish_masks();
    if (trace_here) {
        char host[64] = "?";
        gethostname(host, sizeof host - 1);
        trace_linef('U', "trace", "node %u of %u, pid %ld on %s, mask %s, tracelocal %d",
                    gasneti_mynode, gasneti_nodes, (long)getpid(), host,
                    gasneti_trace_getmask(0), gasneti_trace_tracelocal);
    }
}

int gasneti_trace_hooks_wanted(void) { return trace_here || stats_here; }

int gasneti_trace_wants_rma(void)
{
    const unsigned pg = GASNETI_TRACE_BIT('P') | GASNETI_TRACE_BIT('G');
    return ((__atomic_load_n(&gasneti_trace_mask, __ATOMIC_RELAXED) & pg) && gasneti_trace_tracelocal) ||
           (__atomic_load_n(&gasneti_stats_mask, __ATOMIC_RELAXED) & pg);
}

/* ---- client controls */

const char *gasneti_trace_getmask(int stats)
{
    unsigned m = stats ? stats_wanted : trace_wanted;
    char *t = mask_text[stats != 0];
    size_t n = 0;
    for (const char *c = CATS; *c; c++)
        if (m & GASNETI_TRACE_BIT(*c)) t[n++] = *c;
    t[n] = '\0';
    return t;
}

void gasneti_trace_setmask(int stats, const char *mask)
{
    const char *call = stats ? "GASNETT_STATS_SETMASK" : "GASNETT_TRACE_SETMASK";
    unsigned m;
    if (!mask || parse_mask(mask, &m))
        gasneti_fatalerror("%s('%s'): use letters of %s, with a leading ^ for all but those", call,
                           mask ? mask : "(null)", CATS);
    if (stats) stats_wanted = m;
    else trace_wanted = m;
    publish_masks();
}

void gasneti_trace_set_tracelocal(int v)
{
    gasneti_trace_tracelocal = v != 0;
    if (gasneti_attach_done) gasneti_pshm_fast_update();
}

/* ---- trace lines */

static int tid(void)
{
    if (my_tid < 0) my_tid = __atomic_fetch_add(&next_tid, 1, __ATOMIC_RELAXED);
    return my_tid;
}

/* This thread is in stdio with the trace file (its lock, which is
 * recursive, held): a signal handler must not write there. */
static __thread volatile int writing;

static void trace_line(char cat, const char *call, const char *fmt, va_list ap)
{
    if (!trace_out) return;
    char line[2048];
    size_t cap = sizeof line - 2; /* room for the newline and NUL */
    uint64_t t = gasneti_trace_now() - t_start;
    int n = snprintf(line, cap, "%llu.%06llu %u T%d %c %s ", (unsigned long long)(t / 1000000000u),
                     (unsigned long long)(t % 1000000000u / 1000u), gasneti_mynode, tid(), cat, call);
    if (n > 0 && (size_t)n < cap) n += vsnprintf(line + n, cap - (size_t)n, fmt, ap);
    if (n > 0 && (size_t)n < cap && gasneti_srcfile &&
        (__atomic_load_n(&gasneti_trace_mask, __ATOMIC_RELAXED) & GASNETI_TRACE_BIT('N')))
        n += snprintf(line + n, cap - (size_t)n, " [%s:%u]", gasneti_srcfile, gasneti_srcline);
    if (n < 0) return;
    if ((size_t)n >= cap) n = (int)cap - 1;
    line[n++] = '\n';
    writing = 1;
    fwrite(line, 1, (size_t)n, trace_out);
    if (trace_flush) fflush(trace_out);
    writing = 0;
}

static void trace_linef(char cat, const char *call, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    trace_line(cat, call, fmt, ap);
    va_end(ap);
}

static int tracing(char cat)
{
    return (__atomic_load_n(&gasneti_trace_mask, __ATOMIC_RELAXED) & GASNETI_TRACE_BIT(cat)) != 0;
}

static int counting(char cat)
{
    return (__atomic_load_n(&gasneti_stats_mask, __ATOMIC_RELAXED) & GASNETI_TRACE_BIT(cat)) != 0;
}

static void client_line(int force, const char *fmt, va_list ap)
{
    if (force || tracing('H')) trace_line('H', "client", fmt, ap);
}

void gasneti_trace_printf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    client_line(0, fmt, ap);
    va_end(ap);
}

void gasneti_trace_printf_force(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    client_line(1, fmt, ap);
    va_end(ap);
}

/* " data=<hex>" of the first bytes (category D), or "". */
static const char *data_text(char *buf, size_t cap, const void *p, size_t n)
{
    buf[0] = '\0';
    /* device memory is not the CPU's to read */
    if (!p || !n || !tracing('D') || gasneti_mk_lookup(p, n < 16 ? n : 16)) return buf;
    size_t k = n < 16 ? n : 16, off = (size_t)snprintf(buf, cap, " data=");
    for (size_t i = 0; i < k && off + 3 < cap; i++)
        off += (size_t)snprintf(buf + off, cap - off, "%02x", ((const unsigned char *)p)[i]);
    if (k < n && off + 4 < cap) strcpy(buf + off, "...");
    return buf;
}

/* ---- statistics: tables of rows keyed by (category, call) */

#define NBUCKETS 65 /* 0, then [2^(b-1), 2^b) */
#define MAXROWS 256
typedef struct {
    char cat, kind; /* kind: 's' sizes, 't' times (ns), 'c' count only */
    const char *call;
    uint64_t count, total, min, max;
    uint64_t hist[NBUCKETS];
} row_t;
enum { PEER_PUTS, PEER_PUT_BYTES, PEER_GETS, PEER_GET_BYTES, PEER_AMS, PEER_AM_BYTES, PEER_FIELDS };
static const char *const peer_names[PEER_FIELDS] = {"puts", "put_bytes", "gets", "get_bytes",
                                                    "ams", "am_bytes"};
static pthread_mutex_t stats_lock = PTHREAD_MUTEX_INITIALIZER;
static row_t rows[MAXROWS];
static int nrows;
static uint64_t (*peers)[PEER_FIELDS];

static int bucket(uint64_t v) { return v ? 64 - __builtin_clzll(v) : 0; }

/* The row of (cat, call), under stats_lock; the last row takes overflow. */
static row_t *row(char cat, char kind, const char *call)
{
    for (int i = 0; i < nrows; i++)
        if (rows[i].cat == cat && rows[i].kind == kind &&
            (rows[i].call == call || !strcmp(rows[i].call, call)))
            return &rows[i];
    if (nrows == MAXROWS) return &rows[MAXROWS - 1];
    row_t *r = &rows[nrows++];
    *r = (row_t){.cat = cat, .kind = kind, .call = call, .min = UINT64_MAX};
    return r;
}

static void count(char cat, char kind, const char *call, uint64_t v, int peer, int field)
{
    pthread_mutex_lock(&stats_lock);
    row_t *r = row(cat, kind, call);
    r->count++;
    r->total += v;
    if (v < r->min) r->min = v;
    if (v > r->max) r->max = v;
    if (kind == 's') r->hist[bucket(v)]++;
    if (peer >= 0) {
        if (!peers) peers = calloc(gasneti_nodes, sizeof *peers);
        if (peers) {
            peers[peer][field]++;
            peers[peer][field + 1] += v;
        }
    }
    pthread_mutex_unlock(&stats_lock);
}

/* Under stats_lock, which gasneti_trace_finish holds to close the file.
 * The block is formatted in memory and written with one write(): in a
 * file shared by the nodes (opened to append) blocks never mix, and
 * stats-summary.py can tell whose each is. */
static void write_stats(const char *why)
{
    uint64_t t = gasneti_trace_now() - t_start;
    pthread_mutex_lock(&stats_lock);
    FILE *out = stats_out, *f;
    char *block = NULL;
    size_t len = 0;
    if (!out || !(f = open_memstream(&block, &len))) {
        pthread_mutex_unlock(&stats_lock);
        return;
    }
    fprintf(f, "# GASNet statistics (%s): node %u of %u, pid %ld, %.6f s, mask %s\n", why,
            gasneti_mynode, gasneti_nodes, (long)getpid(), (double)t / 1e9, gasneti_trace_getmask(1));
    for (int i = 0; i < nrows; i++) {
        const row_t *r = &rows[i];
        if (!r->count) continue;
        if (r->kind == 'c') {
            fprintf(f, "count %c %s count %llu\n", r->cat, r->call, (unsigned long long)r->count);
        } else if (r->kind == 't') {
            fprintf(f, "time %c %s count %llu total_ns %llu min_ns %llu mean_ns %llu max_ns %llu\n",
                    r->cat, r->call, (unsigned long long)r->count, (unsigned long long)r->total,
                    (unsigned long long)r->min, (unsigned long long)(r->total / r->count),
                    (unsigned long long)r->max);
        } else {
            fprintf(f, "size %c %s count %llu bytes %llu min %llu max %llu hist", r->cat, r->call,
                    (unsigned long long)r->count, (unsigned long long)r->total,
                    (unsigned long long)r->min, (unsigned long long)r->max);
            for (int b = 0; b < NBUCKETS; b++)
                if (r->hist[b])
                    fprintf(f, " %llu:%llu", b ? 1ULL << (b - 1) : 0ULL, (unsigned long long)r->hist[b]);
            fputc('\n', f);
        }
    }
    for (gasnet_node_t p = 0; peers && p < gasneti_nodes; p++) {
        int any = 0;
        for (int k = 0; k < PEER_FIELDS; k++) any |= peers[p][k] != 0;
        if (!any) continue;
        fprintf(f, "peer %u", p);
        for (int k = 0; k < PEER_FIELDS; k++)
            fprintf(f, " %s %llu", peer_names[k], (unsigned long long)peers[p][k]);
        fputc('\n', f);
    }
    fclose(f);
    fflush(out);
    for (size_t off = 0; off < len;) {
        ssize_t n = write(fileno(out), block + off, len - off);
        if (n <= 0 && errno != EINTR) break;
        if (n > 0) off += (size_t)n;
    }
    free(block);
    pthread_mutex_unlock(&stats_lock);
}

void gasneti_stats_dump(int reset)
{
    write_stats("dump");
    if (!reset) return;
    pthread_mutex_lock(&stats_lock);
    nrows = 0;
    if (peers) memset(peers, 0, gasneti_nodes * sizeof *peers);
    pthread_mutex_unlock(&stats_lock);
}

static void stats_note(int force, const char *fmt, va_list ap)
{
    if (!__atomic_load_n(&stats_out, __ATOMIC_RELAXED) || (!force && !counting('H'))) return;
    char line[1024];
    if (vsnprintf(line, sizeof line, fmt, ap) < 0) return;
    pthread_mutex_lock(&stats_lock);
    if (stats_out) fprintf(stats_out, "note %s\n", line); /* (finish closes it under the lock) */
    pthread_mutex_unlock(&stats_lock);
}

void gasneti_stats_printf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    stats_note(0, fmt, ap);
    va_end(ap);
}

void gasneti_stats_printf_force(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    stats_note(1, fmt, ap);
    va_end(ap);
}

/* ---- the events */

/* Local: this process or one whose segment it maps (GASNET_TRACELOCAL). */
static int is_local(unsigned peer)
{
    return peer == gasneti_mynode ||
           (peer < gasneti_nodes && gasneti_nodeinfo[peer].supernode == gasneti_nodeinfo[gasneti_mynode].supernode);
}

void gasneti_trace_xfer(char cat, const char *call, unsigned peer, void *dst, const void *src, size_t n)
{
    if (tracing(cat) && (gasneti_trace_tracelocal || !is_local(peer))) {
        char data[64];
        trace_linef(cat, call, "peer %u bytes %zu dst %p src %p%s", peer, n, dst, src,
                    data_text(data, sizeof data, cat == 'P' ? src : NULL, n));
    }
    if (counting(cat)) count(cat, 's', call, n, (int)peer, cat == 'P' ? PEER_PUTS : PEER_GETS);
}

static const char *category_text(int category)
{
    return category == AMMPI_SHORT ? "Short" : category == AMMPI_MEDIUM ? "Medium" : "Long";
}

void gasneti_trace_am(const char *call, const ammpi_msg_t *m, unsigned peer, unsigned flags)
{
    if (tracing('A')) {
        char data[64];
        trace_linef('A', call, "%s %s peer %u handler %d bytes %zu dst %p args %d flags 0x%x%s",
                    strstr(call, "Reply") ? "reply" : "request", category_text(m->category), peer,
                    m->handler, m->nbytes, m->dest_addr, m->nargs, flags,
                    data_text(data, sizeof data, m->src, m->nbytes));
    }
    /* the library's own AMs (extended/putget.c) count under their own
     * name, not in the per-peer table of the client's traffic */
    int client = strncmp(call, "library ", 8) != 0;
    if (counting('A')) count('A', 's', call, m->nbytes, client ? (int)peer : -1, PEER_AMS);
}

void gasneti_trace_event(char cat, const char *call, const char *fmt, ...)
{
    if (tracing(cat)) {
        va_list ap;
        va_start(ap, fmt);
        trace_line(cat, call, fmt, ap);
        va_end(ap);
    }
    if (counting(cat)) count(cat, 'c', call, 0, -1, 0);
}

void gasneti_trace_time(char cat, const char *call, uint64_t t0)
{
    uint64_t ns = gasneti_trace_now() - t0;
    if (tracing(cat)) trace_linef(cat, call, "waited %.3f us", (double)ns / 1e3);
    if (counting(cat)) count(cat, 't', call, ns, -1, 0);
}

/* Handler runs (ammpi's hooks; in debug builds the context checks too). */
static void handler_enter(ammpi_token_t tok, int is_request)
{
#ifdef GASNET_DEBUG
    gasneti_handler_enter(tok, is_request);
#endif
    if (!GASNETI_TS_ON('A')) return;
    ammpi_token_info_t ti;
    ammpi_token_info(tok, &ti);
    const char *call = is_request ? "handler(request)" : "handler(reply)";
    if (tracing('A'))
        trace_linef('A', call, "%s from %d ep %d handler %d", category_text(ti.category), ti.src,
                    ti.ep, ti.handler);
    if (counting('A')) count('A', 'c', call, 0, -1, 0);
}

static void handler_leave(ammpi_token_t tok, int is_request)
{
#ifdef GASNET_DEBUG
    gasneti_handler_leave(tok, is_request);
#else
    (void)tok;
    (void)is_request;
#endif
}

void gasneti_trace_set_hooks(ammpi_ep_t *ep)
{
    if (gasneti_trace_hooks_wanted()) ammpi_set_handler_hooks(ep, handler_enter, handler_leave);
}

/* At attach, once: the segment, and whether the inline path is off (I);
 * the RMA backends trace their choice per node (C, core-native/rma.c). */
void gasneti_trace_attach(void)
{
    if (tracing('I')) {
        trace_linef('I', "attach", "segment %p size %lu", gasneti_seginfo[gasneti_mynode].addr,
                    (unsigned long)gasneti_seginfo[gasneti_mynode].size);
        if (gasneti_trace_wants_rma())
            trace_linef('I', "attach", "performance: puts and gets are traced or counted, so "
                        "each goes through the library (the inline on-node path is off)");
    }
}

/* A fatal error: its message ends the trace, and what is buffered is
 * written (the process aborts next, flushing nothing of its own). */
void gasneti_trace_fatal(const char *msg)
{
    if (!trace_out) return;
    trace_linef('U', "fatal", "%s", msg);
    fflush(trace_out);
}

void gasneti_trace_signal(int sig)
{
    if (!trace_out || writing || ftrylockfile(trace_out) != 0) return; /* a line half written */
    const char *name = gasnett_signame_fromval(sig);
    trace_linef('U', "signal", "%s(%d)", name ? name : "signal", sig);
    fflush(trace_out); /* (the lock is recursive) */
    funlockfile(trace_out);
}

void gasneti_trace_finish(int code)
{
    static int done;
    if (__atomic_exchange_n(&done, 1, __ATOMIC_ACQ_REL)) return;
    write_stats("exit");
    pthread_mutex_lock(&stats_lock);
    if (stats_out && stats_out != stdout && stats_out != stderr) fclose(stats_out);
    __atomic_store_n(&stats_out, NULL, __ATOMIC_RELAXED);
    pthread_mutex_unlock(&stats_lock);
    if (trace_out) {
        trace_linef('U', "exit", "code %d", code);
        fflush(trace_out); /* left open: another thread may still write a line */
    }
    trace_here = stats_here = 0;
    __atomic_store_n(&gasneti_trace_mask, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&gasneti_stats_mask, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&gasneti_ts_mask, 0, __ATOMIC_RELAXED);
}
