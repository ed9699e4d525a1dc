/* VIS (EX §15): vector, indexed and strided puts and gets, peer
 * completion, and the GASNet-1 names of §16.4.
 *
 * SIDES. Each side of a transfer is a list of contiguous regions in stream
 * order (vis_side_t): a memvec list, a list of addresses of equal-length
 * regions, or a strided section. The concatenation of the source regions
 * goes to the concatenation of the destination regions, so one cursor per
 * side walks the common byte stream. A strided pair is normalised first:
 * levels of count 1 are dropped and levels contiguous on both sides fold
 * into the chunk (a dense block becomes one copy). After that a non-empty
 * section has at most 64 levels (each counts >= 2 chunks).
 *
 * CHECKS at initiation (fatal, naming the node, the call and the value):
 * list totals match; remote regions lie in the peer's bound segment (for a
 * strided section its bounding box, which chunks reach at its corners);
 * destination regions do not overlap (a destination stride of zero at a
 * level of count > 1 is named as such; sources may overlap); local regions
 * of nonzero length have addresses. GASNet-1 strided metadata must also
 * be non-transposing (§16.4).
 *
 * PATHS, per peer as for contiguous RMA (putget.c):
 *  - this process, and peers whose segment is mapped here (a neighbour's
 *    primordial segment through the shm backend, or its created endpoint's
 *    GASNet-allocated host segment once published): direct copies between
 *    the two cursors (the peer's addresses shifted to our mapping);
 *    complete on return.
 *  - every other peer: pieces (runs contiguous on both sides) larger than
 *    GASNET_VIS_PACK_MAX bytes (16K) take the contiguous protocols
 *    (gasnete_put/get: the ofi or verbs backend's RDMA where one serves the
 *    peer, else zero-copy Long AMs); smaller pieces are packed, with their
 *    descriptors, into Medium requests of up to 65000 bytes, written in
 *    place into a send buffer ammpi lends (a strided section whose chunks
 *    are all small: whole packets of its stream, one gather each). Small
 *    pieces are packed over ofi and verbs too: one AM per 65000 bytes
 *    costs far less than an RDMA operation and its completion per
 *    fragment, while large pieces keep the backend's zero-copy transfer.
 *
 * WIRE. A put packet carries descriptors and data, in one of two formats
 * (the handler's first argument):
 *   VEC  records {u64 addr, u64 len, then len bytes of data}, one per
 *        remote region piece (vector and indexed remote sides)
 *   STR  {u64 base, elemsz, levels, start, nbytes, i64 strides[levels],
 *        u64 counts[levels]} then nbytes of data: bytes [start,
 *        start+nbytes) of the remote section's stream
 * and is answered by a Short ack. A get packet carries the descriptors
 * alone (at most 65000 bytes of data named); the target answers with a
 * Medium reply holding the data, which the initiator scatters into its
 * local regions from the cursor position the request carried and the
 * reply echoes. The target checks every descriptor (sizes, overflow) and
 * every region (for STR, the bounding box of the whole section) against
 * the bound segment of the endpoint addressed before it copies; the
 * initiator checks that a reply names one of its live get
 * records, a position in its local list, and no more bytes than asked.
 *
 * COMPLETION. Each packet and each contiguous piece counts one in the
 * operation's PUT or GET counter (events.h). Packed data is copied when
 * packed, so its local completion is immediate; contiguous pieces follow
 * the operation's LC mode (GEX_FLAG_ENABLE_LEAF_LC: the NB LC leaf or the
 * NBI LC counter; otherwise deferred to completion).
 *
 * PEER COMPLETION (§15.5). An armed put moves its data to completion
 * before it returns; the initiator then sends NOTIFY to the peer, whose
 * progress hook (outside handlers) asks back with FETCH, and the FETCH
 * handler answers with a Medium reply to the client's handler carrying the
 * payload: the handler runs at the peer as a real 0-argument Medium reply.
 * The put completes once that reply is sent.
 *
 * DEVICE MEMORY (memkind/). Local fragments may lie in this process's
 * device segments, remote ones in a peer endpoint's bound device segment
 * (named by a TM-pair). While this process has device segments every copy
 * above (direct, packing, unpacking, the target's) looks both sides up
 * and copies device memory with its class (xcopy); large pieces take
 * gasnete_put/get, which stage device memory themselves. Host-only
 * processes pay one load per copy loop.
 *
 * MEMORY. A put holds nothing beyond ammpi's send buffers. A get on the AM
 * path holds a 1.2 KB record until its last reply; an armed put a 170-byte
 * record until the FETCH; the peer a 32-byte entry per pending NOTIFY.
 * Checking an unsorted destination list, or an irregular strided one,
 * sorts a copy of its regions (24 or 8 bytes each) during the call.
 */
#include "extended.h"
#include "route.h"

#include <gasnet_vis.h>

#include <stdlib.h>
#include <string.h>

#define VIS_MAX_LEVELS 64
#define PKT_MAX GASNETI_AM_MAX_PAYLOAD
#define REC_HDR ((size_t)16)
#define STR_HDR(levels) ((size_t)40 + 16 * (size_t)(levels))

enum { SIDE_VEC, SIDE_IDX, SIDE_STR };
enum { FMT_VEC = 1, FMT_STR = 2 };
enum { FORM_NB, FORM_NBI, FORM_BLOCKING };
enum {
    H_PUT = GASNETE_H_VIS, H_ACK, H_GET, H_GET_REPLY, H_PC_NOTIFY, H_PC_FETCH
};
_Static_assert((int)H_PC_FETCH == (int)GASNETE_H_VIS_FETCH, "extended.h names the FETCH handler");

static size_t pack_max; /* GASNET_VIS_PACK_MAX */

/* ---- sides and cursors */

typedef struct {
    int kind;
    size_t n;                /* regions: entries, or chunks of a section */
    const gex_Memvec_t *vec; /* SIDE_VEC */
    void *const *idx;        /* SIDE_IDX */
    size_t len;              /* SIDE_IDX: bytes per entry; SIDE_STR: chunk size */
    char *base;              /* SIDE_STR */
    size_t levels;
    ptrdiff_t stride[VIS_MAX_LEVELS];
    size_t count[VIS_MAX_LEVELS];
} vis_side_t;

typedef struct {
    const vis_side_t *s;
    uintptr_t shift;  /* added to every address (a peer's segment mapped here) */
    size_t i, off;    /* region i, off bytes of it consumed */
    uintptr_t addr;   /* SIDE_STR: start of chunk i, kept by the odometer */
    size_t ix[VIS_MAX_LEVELS];
} cursor_t;

static inline size_t region_len(const vis_side_t *s, size_t i)
{
    return s->kind == SIDE_VEC ? s->vec[i].gex_len : s->len;
}

static inline uintptr_t region_addr(const cursor_t *c)
{
    const vis_side_t *s = c->s;
    return s->kind == SIDE_VEC ? (uintptr_t)s->vec[c->i].gex_addr
         : s->kind == SIDE_IDX ? (uintptr_t)s->idx[c->i] : c->addr;
}

/* Positions c at byte off of region i (unsigned arithmetic: strides from
 * the wire may be anything; the regions reached are checked). */
static void cur_seek(cursor_t *c, size_t i, size_t off)
{
    const vis_side_t *s = c->s;
    c->i = i;
    c->off = off;
    if (s->kind != SIDE_STR) return;
    uintptr_t a = (uintptr_t)s->base;
    for (size_t k = 0; k < s->levels; k++) {
        c->ix[k] = i % s->count[k];
        i /= s->count[k];
        a += (uintptr_t)c->ix[k] * (uintptr_t)s->stride[k];
    }
    c->addr = a;
}

static void cur_init(cursor_t *c, const vis_side_t *s, uintptr_t shift)
{
    *c = (cursor_t){.s = s, .shift = shift}; /* addr too: only strided sides set it */
    cur_seek(c, 0, 0);
}

static void next_region(cursor_t *c)
{
    const vis_side_t *s = c->s;
    c->i++;
    c->off = 0;
    if (s->kind != SIDE_STR) return;
    for (size_t k = 0; k < s->levels; k++) {
        c->addr += (uintptr_t)s->stride[k];
        if (++c->ix[k] < s->count[k]) return;
        c->addr -= (uintptr_t)s->count[k] * (uintptr_t)s->stride[k];
        c->ix[k] = 0;
    }
}

/* The unconsumed rest of the current region (empty regions skipped):
 * its length, 0 at the end. */
static size_t cur_run(cursor_t *c, char **addr)
{
    for (;;) {
        if (c->i >= c->s->n) return 0;
        size_t len = region_len(c->s, c->i);
        if (c->off < len) {
            *addr = (char *)(region_addr(c) + c->off + c->shift);
            return len - c->off;
        }
        next_region(c);
    }
}

static inline void cur_advance(cursor_t *c, size_t n) { c->off += n; }

/* ---- copies */

static inline void copy_chunk(char *d, const char *s, size_t n)
{
    switch (n) { /* fixed sizes compile to plain moves */
    case 4: memcpy(d, s, 4); break;
    case 8: memcpy(d, s, 8); break;
    case 16: memcpy(d, s, 16); break;
    default: memcpy(d, s, n);
    }
}

/* Whether this process has device segments (one load): only then may a
 * fragment be device memory, and copies look both sides up. */
static inline int any_device(void) { return __atomic_load_n(&gasneti_mk_nranges, __ATOMIC_ACQUIRE) != 0; }

/* A copy where either side may be device memory (dev: any_device()):
 * the class's copy for device memory, memcpy otherwise. */
static inline void xcopy(char *d, const char *s, size_t n, int dev)
{
    if (__builtin_expect(dev, 0)) gasneti_mk_copy(gasneti_mk_lookup(d, n), d, gasneti_mk_lookup(s, n), s, n);
    else copy_chunk(d, s, n);
}

/* Copies n bytes between the stream at c and buf (gather: into buf),
 * advancing c; returns how many did not fit before the end of c's side. */
static size_t cur_copy(cursor_t *c, char *buf, size_t n, int gather)
{
    int dev = any_device();
    while (n) {
        char *a;
        size_t run = cur_run(c, &a);
        if (!run) break;
        if (run > n) run = n;
        if (gather) xcopy(buf, a, run, dev);
        else xcopy(a, buf, run, dev);
        cur_advance(c, run);
        buf += run;
        n -= run;
    }
    return n;
}

/* Two normalised strided sides (same counts): chunk by chunk, level 0
 * innermost. */
static void copy_strided(uintptr_t d, const vis_side_t *ds, uintptr_t s, const vis_side_t *ss)
{
    size_t levels = ds->levels, elemsz = ds->len, ix[VIS_MAX_LEVELS] = {0};
    int dev = any_device();
    if (levels == 0) {
        xcopy((char *)d, (const char *)s, elemsz, dev);
        return;
    }
    const size_t n0 = ds->count[0];
    const uintptr_t d0 = (uintptr_t)ds->stride[0], s0 = (uintptr_t)ss->stride[0];
    for (;;) {
        uintptr_t dp = d, sp = s;
        for (size_t j = 0; j < n0; j++, dp += d0, sp += s0) xcopy((char *)dp, (const char *)sp, elemsz, dev);
        size_t k = 1;
        for (; k < levels; k++) {
            d += (uintptr_t)ds->stride[k];
            s += (uintptr_t)ss->stride[k];
            if (++ix[k] < ds->count[k]) break;
            d -= (uintptr_t)ds->count[k] * (uintptr_t)ds->stride[k];
            s -= (uintptr_t)ss->count[k] * (uintptr_t)ss->stride[k];
            ix[k] = 0;
        }
        if (k == levels) return;
    }
}

/* total bytes from src to dst, each shifted into this address space. */
static void copy_sides(const vis_side_t *dst, uintptr_t dshift, const vis_side_t *src,
                       uintptr_t sshift, size_t total)
{
    if (dst->kind == SIDE_STR) {
        copy_strided((uintptr_t)dst->base + dshift, dst, (uintptr_t)src->base + sshift, src);
        return;
    }
    cursor_t d, s;
    cur_init(&d, dst, dshift);
    cur_init(&s, src, sshift);
    int dev = any_device();
    while (total) {
        char *da, *sa;
        size_t n = cur_run(&d, &da), m = cur_run(&s, &sa);
        if (m < n) n = m;
        xcopy(da, sa, n, dev);
        cur_advance(&d, n);
        cur_advance(&s, n);
        total -= n;
    }
}

/* ---- building sides from the client's arguments */

static size_t vector_side(vis_side_t *s, size_t count, const gex_Memvec_t *list, const char *call,
                          const char *name)
{
    if (count && !list) gasneti_fatalerror("%s: %s is NULL with %zu entries", call, name, count);
    s->kind = SIDE_VEC;
    s->n = count;
    s->vec = list;
    size_t total = 0;
    for (size_t i = 0; i < count; i++)
        if (__builtin_add_overflow(total, list[i].gex_len, &total))
            gasneti_fatalerror("%s: the lengths in %s add up to more than SIZE_MAX", call, name);
    return total;
}

static size_t indexed_side(vis_side_t *s, size_t count, void *const *list, size_t len,
                           const char *call, const char *name)
{
    size_t total;
    if (__builtin_mul_overflow(count, len, &total))
        gasneti_fatalerror("%s: %zu entries of %zu bytes in %s exceed SIZE_MAX", call, count, len, name);
    if (total && !list) gasneti_fatalerror("%s: %s is NULL with %zu entries", call, name, count);
    s->kind = SIDE_IDX;
    s->n = count;
    s->idx = list;
    s->len = len;
    return total;
}

static void drop_level(vis_side_t *s, size_t k)
{
    memmove(&s->stride[k], &s->stride[k + 1], (s->levels - k - 1) * sizeof s->stride[0]);
    memmove(&s->count[k], &s->count[k + 1], (s->levels - k - 1) * sizeof s->count[0]);
    s->levels--;
}

/* Whether level k continues level k-1 contiguously on side s. */
static int continues(const vis_side_t *s, size_t k)
{
    ptrdiff_t span;
    return !__builtin_mul_overflow((ptrdiff_t)s->count[k - 1], s->stride[k - 1], &span) &&
           span == s->stride[k];
}

/* The two sides of a strided transfer, normalised (see the top comment);
 * returns its bytes, 0 for the no-ops of §15.4 (then nothing else is read). */
static size_t strided_sides(const char *call, vis_side_t *dst, vis_side_t *src, void *dstaddr,
                            const ptrdiff_t *dststrides, void *srcaddr, const ptrdiff_t *srcstrides,
                            size_t elemsz, const size_t *count, size_t levels)
{
    if (elemsz == 0) return 0;
    if (levels && !count) gasneti_fatalerror("%s: count is NULL with stridelevels = %zu", call, levels);
    for (size_t k = 0; k < levels; k++)
        if (count[k] == 0) return 0;
    if (levels && (!dststrides || !srcstrides))
        gasneti_fatalerror("%s: %s is NULL with stridelevels = %zu", call,
                           dststrides ? "srcstrides" : "dststrides", levels);
    size_t chunks = 1, total;
    for (size_t k = 0; k < levels; k++)
        if (__builtin_mul_overflow(chunks, count[k], &chunks))
            gasneti_fatalerror("%s: count[0..%zu] multiply to more than SIZE_MAX chunks", call, k);
    if (__builtin_mul_overflow(chunks, elemsz, &total))
        gasneti_fatalerror("%s: %zu chunks of elemsz %zu bytes exceed SIZE_MAX", call, chunks, elemsz);
    for (size_t k = 0; k < levels; k++)
        if (count[k] > 1 && dststrides[k] == 0)
            gasneti_fatalerror("%s: dststrides[%zu] = 0 with count[%zu] = %zu: the destination "
                               "chunks would overlap (only source strides may be 0)", call, k, k,
                               count[k]);
    memset(dst, 0, offsetof(vis_side_t, stride));
    memset(src, 0, offsetof(vis_side_t, stride));
    dst->kind = src->kind = SIDE_STR;
    dst->base = dstaddr;
    src->base = srcaddr;
    for (size_t k = 0; k < levels; k++) {
        if (count[k] == 1) continue;
        size_t l = dst->levels; /* < 64: each kept level doubles the chunks */
        dst->stride[l] = dststrides[k];
        src->stride[l] = srcstrides[k];
        dst->count[l] = src->count[l] = count[k];
        dst->levels = src->levels = l + 1;
    }
    while (dst->levels && dst->stride[0] == (ptrdiff_t)elemsz && src->stride[0] == (ptrdiff_t)elemsz) {
        elemsz *= dst->count[0];
        drop_level(dst, 0);
        drop_level(src, 0);
    }
    for (size_t k = 1; k < dst->levels;) {
        if (continues(dst, k) && continues(src, k)) {
            dst->count[k - 1] *= dst->count[k];
            src->count[k - 1] = dst->count[k - 1];
            drop_level(dst, k);
            drop_level(src, k);
        } else {
            k++;
        }
    }
    dst->len = src->len = elemsz;
    dst->n = src->n = total / elemsz;
    return total;
}

/* ---- checks at initiation */

static size_t uabs(ptrdiff_t v) { return v < 0 ? (size_t)-(v + 1) + 1 : (size_t)v; }

/* The lowest and one-past-highest address a strided side touches (its
 * corners); 0 when that overflows the address space. */
static int section_bounds(const vis_side_t *s, uintptr_t *lo, uintptr_t *hi)
{
    size_t neg = 0, pos = 0, span;
    for (size_t k = 0; k < s->levels; k++)
        if (__builtin_mul_overflow(s->count[k] - 1, uabs(s->stride[k]), &span) ||
            __builtin_add_overflow(s->stride[k] < 0 ? neg : pos, span, s->stride[k] < 0 ? &neg : &pos))
            return 0;
    uintptr_t base = (uintptr_t)s->base;
    if (base < neg || __builtin_add_overflow(base, pos, hi) || __builtin_add_overflow(*hi, s->len, hi))
        return 0;
    *lo = base - neg;
    return 1;
}

static void strided_bounds(const char *call, const vis_side_t *s, const char *what, uintptr_t *lo,
                           uintptr_t *hi)
{
    if (!section_bounds(s, lo, hi))
        gasneti_fatalerror("%s: the %s section at %p with these strides and counts does not fit "
                           "in the address space", call, what, (void *)s->base);
}

static int by_addr(const void *a, const void *b)
{
    uintptr_t x = *(const uintptr_t *)a, y = *(const uintptr_t *)b;
    return x < y ? -1 : x > y;
}

/* Fatal unless the chunks of a strided destination are disjoint. Levels
 * sorted by stride that each clear the extent of the ones below are
 * disjoint; other layouts are checked chunk by chunk. */
static void strided_disjoint(const char *call, const vis_side_t *s, const char *what)
{
    size_t order[VIS_MAX_LEVELS], extent = s->len;
    for (size_t k = 0; k < s->levels; k++) {
        size_t j = k;
        for (; j > 0 && uabs(s->stride[order[j - 1]]) > uabs(s->stride[k]); j--) order[j] = order[j - 1];
        order[j] = k;
    }
    size_t k = 0;
    for (; k < s->levels; k++) {
        size_t a = uabs(s->stride[order[k]]);
        if (a < extent) break;
        extent += (s->count[order[k]] - 1) * a; /* fits: strided_bounds checked the span */
    }
    if (k == s->levels) return;
    uintptr_t *at = malloc(s->n * sizeof *at);
    if (!at) return; /* cannot check; the transfer itself needs no memory */
    cursor_t c;
    cur_init(&c, s, 0);
    for (size_t i = 0; i < s->n; i++, next_region(&c)) at[i] = c.addr;
    qsort(at, s->n, sizeof *at, by_addr);
    for (size_t i = 0; i + 1 < s->n; i++)
        if (at[i + 1] - at[i] < s->len) {
            uintptr_t x = at[i], y = at[i + 1];
            free(at);
            gasneti_fatalerror("%s: the %s chunks at %p and %p overlap (elemsz %zu): destination "
                               "locations must not overlap", call, what, (void *)x, (void *)y, s->len);
        }
    free(at);
}

typedef struct {
    uintptr_t addr;
    size_t len, index;
} span_t;

static int span_by_addr(const void *a, const void *b)
{
    uintptr_t x = ((const span_t *)a)->addr, y = ((const span_t *)b)->addr;
    return x < y ? -1 : x > y;
}

static uintptr_t end_of(uintptr_t a, size_t len) { return a + len < a ? UINTPTR_MAX : a + len; }

/* Fatal unless the non-empty regions of a destination list are disjoint:
 * one pass when they ascend, else a sorted copy. */
static void list_disjoint(const char *call, const vis_side_t *s, const char *name)
{
    cursor_t c;
    cur_init(&c, s, 0);
    uintptr_t end = 0;
    size_t i = 0;
    for (; i < s->n; i++, next_region(&c)) {
        size_t len = region_len(s, i);
        if (!len) continue;
        if (region_addr(&c) < end) break;
        end = end_of(region_addr(&c), len);
    }
    if (i == s->n) return;
    span_t *sp = malloc(s->n * sizeof *sp);
    if (!sp) return; /* cannot check; the transfer itself needs no memory */
    size_t m = 0;
    cur_init(&c, s, 0);
    for (i = 0; i < s->n; i++, next_region(&c))
        if (region_len(s, i)) sp[m++] = (span_t){region_addr(&c), region_len(s, i), i};
    qsort(sp, m, sizeof *sp, span_by_addr);
    for (i = 0; i + 1 < m; i++)
        if (end_of(sp[i].addr, sp[i].len) > sp[i + 1].addr) {
            span_t a = sp[i], b = sp[i + 1];
            free(sp);
            gasneti_fatalerror("%s: %s[%zu] = [%p, +%zu) overlaps %s[%zu] = [%p, +%zu): "
                               "destination locations must not overlap", call, name, a.index,
                               (void *)a.addr, a.len, name, b.index, (void *)b.addr, b.len);
        }
    free(sp);
}

/* ---- one call */

typedef struct {
    const char *call;
    int form, is_put;
    gex_Flags_t flags;
    gex_TM_t tm;
    gex_Rank_t rank;
    vis_side_t *remote, *local;
    const char *rname, *lname; /* the sides' names in messages */
    size_t total;
    int strided_noop; /* §15.4: tm and rank are ignored */
} vis_call_t;

/* "node 3", or "rank 1 (node 3)" on a team that is not the primordial one */
static void peer_name(char *buf, size_t len, gasneti_tm_t tm, gex_Rank_t rank, gex_EP_Location_t loc)
{
    if (tm->members) snprintf(buf, len, "rank %u (node %u)", rank, loc.gex_rank);
    else snprintf(buf, len, "node %u", loc.gex_rank);
}

static void check_sides(const vis_call_t *v, gasneti_tm_t tm, gex_EP_Location_t loc)
{
    const char *call = v->call;
    const vis_side_t *r = v->remote, *l = v->local;
    const gasnet_seginfo_t *seg = gasneti_peer_segment(loc);
    char who[64], where[96] = "(it has no bound segment)";
    peer_name(who, sizeof who, tm, v->rank, loc);
    if (seg) snprintf(where, sizeof where, "[%p, +%lu)", seg->addr, (unsigned long)seg->size);
    if (r->kind == SIDE_STR) {
        uintptr_t lo, hi;
        strided_bounds(call, r, v->rname, &lo, &hi);
        if (!gasneti_in_seginfo(seg, (void *)lo, hi - lo))
            gasneti_fatalerror("%s: the %s section spans [%p, %p), outside %s's segment %s", call,
                               v->rname, (void *)lo, (void *)hi, who, where);
    } else {
        cursor_t c;
        cur_init(&c, r, 0);
        for (size_t i = 0; i < r->n; i++, next_region(&c)) {
            size_t len = region_len(r, i);
            if (len && !gasneti_in_seginfo(seg, (void *)region_addr(&c), len))
                gasneti_fatalerror("%s: %s[%zu] = [%p, +%zu) lies outside %s's segment %s", call,
                                   v->rname, i, (void *)region_addr(&c), len, who, where);
        }
    }
    if (l->kind == SIDE_STR) {
        uintptr_t lo, hi;
        if (!l->base) gasneti_fatalerror("%s: the %s address is NULL", call, v->lname);
        strided_bounds(call, l, v->lname, &lo, &hi);
    } else {
        cursor_t c;
        cur_init(&c, l, 0);
        for (size_t i = 0; i < l->n; i++, next_region(&c))
            if (region_len(l, i) && !region_addr(&c))
                gasneti_fatalerror("%s: %s[%zu] is NULL for %zu bytes", call, v->lname, i,
                                   region_len(l, i));
    }
    const vis_side_t *dst = v->is_put ? r : l;
    const char *dname = v->is_put ? v->rname : v->lname;
    if (dst->kind == SIDE_STR) strided_disjoint(call, dst, dname);
    else list_disjoint(call, dst, dname);
}

/* ---- the library's AMs with explicit endpoints */

static void must(int rc, const char *what)
{
    if (rc != AMMPI_OK) gasneti_fatalerror("VIS %s: AM transport error %d", what, rc);
}

/* A Medium request to loc from endpoint src_ep whose payload (at most
 * most bytes) is written in place into the buffer ammpi lends. */
static const int32_t no_args_yet[AMMPI_MAX_ARGS]; /* ammpi_commit gets the real ones */

static char *request_prepare(ammpi_prep_t *p, gex_EP_Location_t loc, int src_ep, size_t most,
                             int nargs)
{
    ammpi_msg_t m = {AMMPI_MEDIUM, (int)loc.gex_rank, loc.gex_ep_index, src_ep, 0, NULL, 0, NULL,
                     nargs, no_args_yet, 0, NULL};
    gasnetc_in_mpi++;
    must(ammpi_prepare(gasnetc_ep, NULL, &m, most, p), "request");
    gasnetc_in_mpi--;
    return p->offer;
}

static void request_commit(ammpi_prep_t *p, int handler, size_t n, const int32_t *args)
{
    gasnetc_in_mpi++;
    gasnete_am_commit(p, handler, n, args);
    gasnetc_in_mpi--;
}

static void request_short(gex_EP_Location_t loc, int src_ep, int handler, int32_t a0, int32_t a1)
{
    int32_t args[2] = {a0, a1};
    ammpi_msg_t m = {AMMPI_SHORT, (int)loc.gex_rank, loc.gex_ep_index, src_ep, handler, NULL, 0,
                     NULL, 2, args, 0, NULL};
    must(gasnete_am_send(&m), "request");
}

static inline void put64(char *p, uint64_t v) { memcpy(p, &v, 8); }
static inline uint64_t get64(const char *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

/* ---- packets (initiator) */

typedef struct {
    ammpi_prep_t prep;
    char *buf;      /* NULL: none open */
    size_t cap, used;
    size_t last;    /* VEC: offset of the last record, or SIZE_MAX */
    size_t data;    /* bytes of data the packet moves */
    size_t li, loff; /* get: where its data goes in the local list */
    gex_Rank_t node; /* the jobrank it goes to, who answers its ticket */
} packet_t;

/* Opens a packet for the remote stream from rc on (pos bytes into it,
 * left to go); a put's packet has room for the data too. */
static void packet_open(packet_t *p, const cursor_t *rc, size_t pos, size_t left, int with_data,
                        gasneti_tm_t tm, gex_EP_Location_t loc, int nargs)
{
    const vis_side_t *r = rc->s;
    size_t need, regions = r->n - rc->i;
    if (r->kind == SIDE_STR) need = STR_HDR(r->levels);
    else need = regions > PKT_MAX / REC_HDR ? PKT_MAX : REC_HDR * regions;
    if (with_data) need = left > PKT_MAX - need ? PKT_MAX : need + left;
    p->buf = request_prepare(&p->prep, loc, tm->ep->index, need > PKT_MAX ? PKT_MAX : need, nargs);
    p->node = loc.gex_rank;
    p->cap = p->prep.offer_size;
    p->used = 0;
    p->last = SIZE_MAX;
    p->data = 0;
    if (r->kind != SIDE_STR) return;
    put64(p->buf, (uint64_t)(uintptr_t)r->base);
    put64(p->buf + 8, r->len);
    put64(p->buf + 16, r->levels);
    put64(p->buf + 24, pos);
    for (size_t k = 0; k < r->levels; k++) {
        put64(p->buf + 40 + 8 * k, (uint64_t)r->stride[k]);
        put64(p->buf + 40 + 8 * (r->levels + k), r->count[k]);
    }
    p->used = STR_HDR(r->levels);
}

/* Whether the next piece, at remote address ra, extends the last record. */
static int extends_last(const packet_t *p, const char *ra)
{
    return p->last != SIZE_MAX && get64(p->buf + p->last) + get64(p->buf + p->last + 8) == (uintptr_t)ra;
}

/* Bytes of the piece at ra the open packet can still take: room for the
 * data (puts), or for the reply's data (gets), once its record fits. */
static size_t packet_room(const packet_t *p, int fmt, const char *ra, int with_data)
{
    size_t record = fmt == FMT_VEC && !extends_last(p, ra) ? REC_HDR : 0;
    size_t free_bytes = p->cap - p->used;
    if (free_bytes < record) return 0;
    return with_data ? free_bytes - record : PKT_MAX - p->data;
}

/* Adds n bytes at remote address ra (and, for puts, their data from la). */
static void packet_add(packet_t *p, int fmt, char *ra, const char *la, size_t n)
{
    if (fmt == FMT_VEC) {
        if (extends_last(p, ra)) {
            put64(p->buf + p->last + 8, get64(p->buf + p->last + 8) + n);
        } else {
            p->last = p->used;
            put64(p->buf + p->used, (uint64_t)(uintptr_t)ra);
            put64(p->buf + p->used + 8, n);
            p->used += REC_HDR;
        }
    }
    if (la) {
        xcopy(p->buf + p->used, la, n, any_device());
        p->used += n;
    }
    p->data += n;
}

static void put_flush(packet_t *p, gasneti_op_t *op, int fmt)
{
    if (!p->buf) return;
    if (fmt == FMT_STR) put64(p->buf + 32, p->data);
    uint64_t k = gasnete_ticket_issue(GASNETE_TK_ACK, p->node, NULL, 0, gasneti_target(op, GASNETI_PUT));
    int32_t args[3] = {fmt, GASNETE_HI(k), GASNETE_LO(k)};
    gasneti_add(op, GASNETI_PUT, 1);
    request_commit(&p->prep, H_PUT, p->used, args);
    p->buf = NULL;
}

static void am_put(gasneti_op_t *op, gasneti_tm_t tm, gex_Rank_t rank, gex_EP_Location_t loc,
                   const vis_side_t *r, const vis_side_t *l, size_t total, int lc_mode,
                   uint32_t *lc, const char *call)
{
    cursor_t rc, lcur;
    cur_init(&rc, r, 0);
    cur_init(&lcur, l, 0);
    int fmt = r->kind == SIDE_STR ? FMT_STR : FMT_VEC;
    packet_t p = {.buf = NULL};
    if (fmt == FMT_STR && r->len <= pack_max) { /* no piece is large: whole packets of stream */
        for (size_t done = 0; done < total; done += p.data) {
            packet_open(&p, &rc, done, total - done, 1, tm, loc, 3);
            p.data = p.cap - p.used < total - done ? p.cap - p.used : total - done;
            cur_copy(&lcur, p.buf + p.used, p.data, 1);
            p.used += p.data;
            put_flush(&p, op, fmt);
        }
        return;
    }
    for (size_t done = 0; done < total;) {
        char *ra, *la;
        size_t run = cur_run(&rc, &ra), lrun = cur_run(&lcur, &la);
        if (lrun < run) run = lrun;
        if (run > pack_max) {
            put_flush(&p, op, fmt);
            gasnete_put(op, tm, rank, ra, la, run, lc_mode, lc, call);
        } else {
            if (!p.buf) packet_open(&p, &rc, done, total - done, 1, tm, loc, 3);
            size_t room = packet_room(&p, fmt, ra, 1);
            if (!room) {
                put_flush(&p, op, fmt);
                continue;
            }
            if (run > room) run = room;
            packet_add(&p, fmt, ra, la, run);
        }
        cur_advance(&rc, run);
        cur_advance(&lcur, run);
        done += run;
    }
    put_flush(&p, op, fmt);
}

/* A get on the AM path: where its replies' data goes. Freed by whoever
 * brings left to 0 (left holds 1 extra while packets are being sent).
 * Each packet's ticket names the record and the packet's bytes: a reply
 * brings exactly those, so left reaches 0 with the last packet's reply. */
typedef struct {
    uintptr_t target;
    size_t left;
    vis_side_t local;
} getrec_t;

static void getrec_free(getrec_t *rec) { free(rec); }

static void get_flush(packet_t *p, int fmt, getrec_t *rec, gasneti_op_t *op)
{
    if (!p->buf) return;
    if (fmt == FMT_STR) put64(p->buf + 32, p->data);
    uint64_t k = gasnete_ticket_issue(GASNETE_TK_VIS_GET, p->node, rec, p->data, 0);
    int32_t args[7] = {fmt, GASNETE_HI(k), GASNETE_LO(k), GASNETE_HI(p->li), GASNETE_LO(p->li),
                       GASNETE_HI(p->loff), GASNETE_LO(p->loff)};
    gasneti_add(op, GASNETI_GET, 1);
    request_commit(&p->prep, H_GET, p->used, args);
    p->buf = NULL;
}

static void am_get(gasneti_op_t *op, gasneti_tm_t tm, gex_Rank_t rank, gex_EP_Location_t loc,
                   const vis_side_t *r, const vis_side_t *l, size_t total, const char *call)
{
    getrec_t *rec = malloc(sizeof *rec);
    if (!rec) gasneti_fatalerror("%s: out of memory for a get record", call);
    rec->target = gasneti_target(op, GASNETI_GET);
    rec->left = total + 1;
    rec->local = *l;
    cursor_t rc, lcur;
    cur_init(&rc, r, 0);
    cur_init(&lcur, l, 0);
    int fmt = r->kind == SIDE_STR ? FMT_STR : FMT_VEC;
    packet_t p = {.buf = NULL};
    if (fmt == FMT_STR && r->len <= pack_max) { /* no piece is large: whole packets of stream */
        for (size_t done = 0; done < total; done += p.data) {
            packet_open(&p, &rc, done, total - done, 0, tm, loc, 7);
            p.li = done / l->len; /* both sides have the same chunks */
            p.loff = done % l->len;
            p.data = total - done < PKT_MAX ? total - done : PKT_MAX;
            get_flush(&p, fmt, rec, op);
        }
    } else {
        for (size_t done = 0; done < total;) {
            char *ra, *la;
            size_t run = cur_run(&rc, &ra), lrun = cur_run(&lcur, &la);
            if (lrun < run) run = lrun;
            if (run > pack_max) {
                get_flush(&p, fmt, rec, op);
                __atomic_fetch_sub(&rec->left, run, __ATOMIC_RELAXED);
                gasnete_get(op, tm, la, rank, ra, run, call);
            } else {
                if (!p.buf) {
                    packet_open(&p, &rc, done, total - done, 0, tm, loc, 7);
                    p.li = lcur.i;
                    p.loff = lcur.off;
                }
                size_t room = packet_room(&p, fmt, ra, 0);
                if (!room) {
                    get_flush(&p, fmt, rec, op);
                    continue;
                }
                if (run > room) run = room;
                packet_add(&p, fmt, ra, NULL, run);
            }
            cur_advance(&rc, run);
            cur_advance(&lcur, run);
            done += run;
        }
        get_flush(&p, fmt, rec, op);
    }
    if (__atomic_sub_fetch(&rec->left, 1, __ATOMIC_ACQ_REL) == 0) getrec_free(rec);
}

/* ---- packets (target): nothing from the wire is trusted */

typedef struct {
    int fmt, with_data;
    const char *p, *end; /* VEC: the next record */
    const char *data;    /* STR: the next data byte (puts) */
    size_t left;         /* STR: bytes still to walk */
    vis_side_t side;
    cursor_t cur;
    const char *what;    /* "put" or "get", for messages */
    int src, ep;
} wire_t;

static void __attribute__((__noreturn__)) wire_bad(const wire_t *w, const char *why)
{
    gasneti_fatalerror("a VIS %s from node %d to endpoint %d is malformed: %s", w->what, w->src,
                       w->ep, why);
}

/* Parses a packet's header; returns the bytes of data it names. */
static size_t wire_init(wire_t *w, int fmt, const char *buf, size_t n, int with_data)
{
    w->fmt = fmt;
    w->with_data = with_data;
    w->p = buf;
    w->end = buf + n;
    if (fmt == FMT_VEC) {
        if (with_data) return 0; /* each record says how much follows it */
        size_t total = 0;
        for (const char *q = buf; q < w->end; q += REC_HDR) {
            if ((size_t)(w->end - q) < REC_HDR) wire_bad(w, "a truncated record");
            uint64_t len = get64(q + 8);
            if (len > PKT_MAX || (total += len) > PKT_MAX) wire_bad(w, "it asks for more than a reply holds");
        }
        return total;
    }
    if (fmt != FMT_STR) wire_bad(w, "unknown format");
    if (n < STR_HDR(0)) wire_bad(w, "a truncated header");
    vis_side_t *s = &w->side;
    s->kind = SIDE_STR;
    s->base = (char *)(uintptr_t)get64(buf);
    s->len = get64(buf + 8);
    uint64_t levels = get64(buf + 16), start = get64(buf + 24), nbytes = get64(buf + 32);
    if (levels > VIS_MAX_LEVELS || n < STR_HDR(levels)) wire_bad(w, "a truncated header");
    s->levels = levels;
    size_t chunks = 1, total;
    for (size_t k = 0; k < levels; k++) {
        s->stride[k] = (ptrdiff_t)get64(buf + 40 + 8 * k);
        s->count[k] = get64(buf + 40 + 8 * (levels + k));
        if (s->count[k] == 0 || __builtin_mul_overflow(chunks, s->count[k], &chunks))
            wire_bad(w, "bad counts");
    }
    if (s->len == 0 || __builtin_mul_overflow(chunks, s->len, &total)) wire_bad(w, "bad chunk size");
    s->n = chunks;
    if (start > total || nbytes > total - start) wire_bad(w, "a range beyond its section");
    if (with_data ? nbytes != n - STR_HDR(levels) : nbytes > PKT_MAX)
        wire_bad(w, "a length that does not match");
    w->data = buf + STR_HDR(levels);
    w->left = nbytes;
    cur_init(&w->cur, s, 0);
    cur_seek(&w->cur, start / s->len, start % s->len);
    return nbytes;
}

/* The next record of a VEC packet: its address here and length (0:
 * done); *data: its bytes in a put packet. */
static size_t wire_next(wire_t *w, char **addr, const char **data)
{
    for (;;) {
        if (w->p == w->end) return 0;
        if ((size_t)(w->end - w->p) < REC_HDR) wire_bad(w, "a truncated record");
        *addr = (char *)(uintptr_t)get64(w->p);
        uint64_t len = get64(w->p + 8);
        w->p += REC_HDR;
        if (w->with_data) {
            if (len > (size_t)(w->end - w->p)) wire_bad(w, "a record longer than the packet");
            *data = w->p;
            w->p += len;
        }
        if (len) return len;
    }
}

static const gasnet_seginfo_t *target_segment(ammpi_token_t tok, wire_t *w, const char *what)
{
    ammpi_token_info_t ti;
    ammpi_token_info(tok, &ti);
    w->what = what;
    w->src = ti.src;
    w->ep = ti.ep;
    gex_EP_Location_t me = {gasneti_mynode, (gex_EP_Index_t)ti.ep};
    return gasneti_peer_segment(me);
}

static void check_piece(const wire_t *w, const gasnet_seginfo_t *seg, const char *addr, size_t n)
{
    if (!gasneti_in_seginfo(seg, addr, n))
        gasneti_fatalerror("a VIS %s from node %d names [%p, +%zu), outside the segment of "
                           "endpoint %d", w->what, w->src, (const void *)addr, n, w->ep);
}

/* A STR packet's whole section lies in the segment (the initiator checked
 * it so), which covers every chunk of the packet's range. */
static void check_section(const wire_t *w, const gasnet_seginfo_t *seg)
{
    uintptr_t lo, hi;
    if (!section_bounds(&w->side, &lo, &hi)) wire_bad(w, "a section beyond the address space");
    if (!gasneti_in_seginfo(seg, (void *)lo, hi - lo))
        gasneti_fatalerror("a VIS %s from node %d names a section spanning [%p, %p), outside the "
                           "segment of endpoint %d", w->what, w->src, (void *)lo, (void *)hi, w->ep);
}

static void put_h(ammpi_token_t tok, void *buf, size_t n, int32_t fmt, int32_t t_hi, int32_t t_lo)
{
    wire_t w;
    const gasnet_seginfo_t *seg = target_segment(tok, &w, "put");
    wire_init(&w, fmt, buf, n, 1);
    if (fmt == FMT_STR) {
        check_section(&w, seg);
        cur_copy(&w.cur, (char *)w.data, w.left, 0);
    } else {
        char *addr;
        const char *data = NULL; /* set by wire_next: this wire carries data */
        int dev = any_device();
        for (size_t len; (len = wire_next(&w, &addr, &data));) {
            check_piece(&w, seg, addr, len);
            xcopy(addr, data, len, dev);
        }
    }
    gasnete_am_reply(tok, AMMPI_SHORT, H_ACK, NULL, 0, NULL, 2, t_hi, t_lo);
}

static void ack_h(ammpi_token_t tok, int32_t k_hi, int32_t k_lo)
{
    int src;
    ammpi_token_source(tok, &src);
    gasneti_complete_kept(gasnete_ticket_redeem(k_hi, k_lo, GASNETE_TK_ACK, src, "a VIS put's ack").target);
}

static void get_h(ammpi_token_t tok, void *buf, size_t n, int32_t fmt, int32_t r_hi, int32_t r_lo,
                  int32_t i_hi, int32_t i_lo, int32_t o_hi, int32_t o_lo)
{
    wire_t w;
    const gasnet_seginfo_t *seg = target_segment(tok, &w, "get");
    size_t total = wire_init(&w, fmt, buf, n, 0);
    ammpi_msg_t m = {AMMPI_MEDIUM, 0, 0, 0, 0, NULL, 0, NULL, 6, no_args_yet, 0, NULL};
    ammpi_prep_t prep;
    must(ammpi_prepare(NULL, tok, &m, total, &prep), "reply");
    char *out = prep.offer, *addr;
    const char *unused;
    if (fmt == FMT_STR) {
        check_section(&w, seg);
        cur_copy(&w.cur, out, total, 1);
    }
    int dev = any_device();
    for (size_t len; fmt == FMT_VEC && (len = wire_next(&w, &addr, &unused));) {
        check_piece(&w, seg, addr, len);
        xcopy(out, addr, len, dev);
        out += len;
    }
    int32_t args[6] = {r_hi, r_lo, i_hi, i_lo, o_hi, o_lo};
    gasnete_am_commit(&prep, H_GET_REPLY, total, args);
}

static void get_reply_h(ammpi_token_t tok, void *buf, size_t n, int32_t r_hi, int32_t r_lo,
                        int32_t i_hi, int32_t i_lo, int32_t o_hi, int32_t o_lo)
{
    int src;
    ammpi_token_source(tok, &src);
    gasnete_ticket_t k = gasnete_ticket_redeem(r_hi, r_lo, GASNETE_TK_VIS_GET, src, "a VIS get's reply");
    getrec_t *rec = k.ptr;
    if (n != k.len)
        gasneti_fatalerror("a VIS get reply from node %d brings %zu bytes to a packet of %zu", src,
                           n, k.len);
    size_t i = GASNETE_U64(i_hi, i_lo), off = GASNETE_U64(o_hi, o_lo);
    if (i >= rec->local.n || off >= region_len(&rec->local, i) ||
        n > __atomic_load_n(&rec->left, __ATOMIC_RELAXED))
        gasneti_fatalerror("a VIS get reply from node %d names %zu bytes at position (%zu, %zu), "
                           "outside what its get asked for", src, n, i, off);
    cursor_t c;
    c.s = &rec->local;
    c.shift = 0;
    cur_seek(&c, i, off);
    if (cur_copy(&c, buf, n, 0))
        gasneti_fatalerror("a VIS get reply from node %d carries more bytes than its destination "
                           "holds", src);
    uintptr_t t = rec->target;
    size_t was = __atomic_fetch_sub(&rec->left, n, __ATOMIC_ACQ_REL);
    if (was < n) gasneti_fatalerror("VIS get replies from node %d bring more bytes than asked for", src);
    if (was == n) getrec_free(rec);
    gasneti_complete(t);
}

/* ---- peer completion (§15.5) */

typedef struct {
    gex_AM_Index_t handler;
    gex_EP_Location_t peer;
    uintptr_t target;
    size_t nbytes;
    unsigned char payload[GEX_VIS_MAX_PEERCOMPLETION];
} pcrec_t;

static __thread struct {
    int armed;
    gex_AM_Index_t handler;
    size_t nbytes;
    unsigned char payload[GEX_VIS_MAX_PEERCOMPLETION];
} arming;

/* At the peer: notifications waiting for the progress hook to fetch. */
typedef struct notice {
    struct notice *next;
    gex_EP_Location_t initiator;
    int ep;           /* the endpoint the put went to */
    int32_t r_hi, r_lo;
} notice_t;
static notice_t *notices;
static int notices_waiting; /* atomic: whether notices is non-empty */
static pthread_mutex_t notices_lock = PTHREAD_MUTEX_INITIALIZER;

void gex_VIS_SetPeerCompletionHandler(gex_AM_Index_t handler, const void *source_addr,
                                      size_t nbytes, gex_Flags_t flags)
{
    const char *call = "gex_VIS_SetPeerCompletionHandler";
    if (flags) gasneti_fatalerror("%s: flags must be 0 (got 0x%x)", call, (unsigned)flags);
    if (handler == 0) {
        arming.armed = 0;
        return;
    }
    if (handler < GEX_AM_INDEX_BASE)
        gasneti_fatalerror("%s: handler index %u is reserved for GASNet (clients use %d..255)", call,
                           handler, GEX_AM_INDEX_BASE);
    if (nbytes > GEX_VIS_MAX_PEERCOMPLETION)
        gasneti_fatalerror("%s: nbytes = %zu exceeds GEX_VIS_MAX_PEERCOMPLETION (%d)", call, nbytes,
                           GEX_VIS_MAX_PEERCOMPLETION);
    if (nbytes && !source_addr) gasneti_fatalerror("%s: NULL source_addr for %zu bytes", call, nbytes);
    arming.armed = 1;
    arming.handler = handler;
    arming.nbytes = nbytes;
    if (nbytes) memcpy(arming.payload, source_addr, nbytes);
}

/* After an armed put's data is in place: one more PUT piece for op, done
 * when the FETCH handler has sent the payload to the peer. */
static void pc_send(gasneti_op_t *op, gasneti_tm_t tm, gex_EP_Location_t loc, const char *call)
{
    pcrec_t *rec = malloc(sizeof *rec);
    if (!rec) gasneti_fatalerror("%s: out of memory for a peer-completion record", call);
    rec->handler = arming.handler;
    rec->peer = loc;
    rec->target = gasneti_target(op, GASNETI_PUT);
    rec->nbytes = arming.nbytes;
    memcpy(rec->payload, arming.payload, arming.nbytes);
    gasneti_add(op, GASNETI_PUT, 1);
    uint64_t k = gasnete_ticket_issue(GASNETE_TK_VIS_FETCH, loc.gex_rank, rec, 0, 0);
    request_short(loc, tm->ep->index, H_PC_NOTIFY, GASNETE_HI(k), GASNETE_LO(k));
}

static void pc_notify_h(ammpi_token_t tok, int32_t r_hi, int32_t r_lo)
{
    ammpi_token_info_t ti;
    ammpi_token_info(tok, &ti);
    notice_t *nt = malloc(sizeof *nt);
    if (!nt) gasneti_fatalerror("out of memory for a VIS peer-completion notice from node %d", ti.src);
    *nt = (notice_t){NULL, {(gex_Rank_t)ti.src, (gex_EP_Index_t)ti.src_ep}, ti.ep, r_hi, r_lo};
    pthread_mutex_lock(&notices_lock);
    nt->next = notices;
    notices = nt;
    __atomic_store_n(&notices_waiting, 1, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&notices_lock);
}

/* Progress hook: asks the initiators of the waiting notices for their
 * payloads (requests cannot be sent from the NOTIFY handler). */
static void pc_progress(void)
{
    if (!__atomic_load_n(&notices_waiting, __ATOMIC_ACQUIRE)) return;
    pthread_mutex_lock(&notices_lock);
    notice_t *list = notices;
    notices = NULL;
    __atomic_store_n(&notices_waiting, 0, __ATOMIC_RELAXED);
    pthread_mutex_unlock(&notices_lock);
    while (list) {
        notice_t *nt = list;
        list = nt->next;
        request_short(nt->initiator, nt->ep, H_PC_FETCH, nt->r_hi, nt->r_lo);
        free(nt);
    }
}

static void pc_fetch_h(ammpi_token_t tok, int32_t r_hi, int32_t r_lo)
{
    ammpi_token_info_t ti;
    ammpi_token_info(tok, &ti);
    pcrec_t *rec = gasnete_ticket_redeem(r_hi, r_lo, GASNETE_TK_VIS_FETCH, ti.src,
                                         "a VIS peer-completion fetch").ptr;
    if (ti.src_ep != rec->peer.gex_ep_index)
        gasneti_fatalerror("a VIS peer-completion fetch comes from node %d endpoint %d, not from "
                           "the put's target (node %u endpoint %u)", ti.src, ti.src_ep,
                           rec->peer.gex_rank, rec->peer.gex_ep_index);
    uintptr_t t = rec->target;
    gasnete_am_reply(tok, AMMPI_MEDIUM, rec->handler, rec->payload, rec->nbytes, NULL, 0);
    free(rec);
    gasneti_complete(t);
}

/* ---- the driver every entry point calls */

#define VIS_FLAGS (GEX_FLAG_IMMEDIATE | GEX_FLAG_SELF_SEG_UNKNOWN | GEX_FLAG_SELF_SEG_SOME | \
                   GEX_FLAG_SELF_SEG_BOUND | GEX_FLAG_PEER_SEG_UNKNOWN |                    \
                   GEX_FLAG_PEER_SEG_SOME | GEX_FLAG_PEER_SEG_BOUND)

static void check_flags(const vis_call_t *v)
{
    gex_Flags_t ok = VIS_FLAGS;
    if (v->is_put && v->form != FORM_BLOCKING) ok |= GEX_FLAG_ENABLE_LEAF_LC;
    if (v->flags & ~ok)
        gasneti_fatalerror("%s: flags 0x%x are not allowed here (VIS takes GEX_FLAG_IMMEDIATE, "
                           "and GEX_FLAG_ENABLE_LEAF_LC on NB and NBI puts)", v->call,
                           (unsigned)(v->flags & ~ok));
}

/* Whether loc's bound segment is mapped here (its route is SELF or MAPPED:
 * a device segment imported here is registered, so the copies use its
 * class), and the shift that reaches its addresses here. */
static int mapped_here(gex_EP_Location_t loc, uintptr_t *shift)
{
    gasneti_route_t r;
    gasneti_route(loc, &r);
    *shift = r.offset;
    return r.how == GASNETI_ROUTE_SELF || r.how == GASNETI_ROUTE_MAPPED;
}

/* Moves the data into op's counters (or completes it before returning). */
static void transfer(const vis_call_t *v, gasneti_op_t *op, gasneti_tm_t tm, gex_EP_Location_t loc,
                     int lc_mode, uint32_t *lc)
{
    if (!v->total) return;
    uintptr_t shift;
    if (mapped_here(loc, &shift)) {
        if (v->is_put) {
            copy_sides(v->remote, shift, v->local, 0, v->total);
            __atomic_thread_fence(__ATOMIC_RELEASE);
        } else {
            __atomic_thread_fence(__ATOMIC_ACQUIRE);
            copy_sides(v->local, 0, v->remote, shift, v->total);
        }
    } else if (v->is_put) {
        am_put(op, tm, v->rank, loc, v->remote, v->local, v->total, lc_mode, lc, v->call);
    } else {
        am_get(op, tm, v->rank, loc, v->remote, v->local, v->total, v->call);
    }
}

static gex_Event_t run(const vis_call_t *v)
{
    const char *call = v->call;
    GASNETI_CHECK_INIT(call);
    check_flags(v);
    int armed = arming.armed;
    if (armed) {
        arming.armed = 0;
        if (!v->is_put)
            gasneti_fatalerror("%s: a peer-completion handler is armed, but only VIS puts "
                               "support one", call);
        if (v->flags & GEX_FLAG_IMMEDIATE)
            gasneti_fatalerror("%s: GEX_FLAG_IMMEDIATE on a put armed with a peer-completion "
                               "handler", call);
    }
    /* an NBI put's LC joins an open access region's leaf, data or not */
    int leaf_lc = (v->flags & GEX_FLAG_ENABLE_LEAF_LC) != 0; /* check_flags: NB and NBI puts */
    if (leaf_lc && v->form == FORM_NBI && gasneti_in_access_region()) gasneti_nbi_op()->has_leaf = 1;
    if (v->strided_noop && !armed) return GEX_EVENT_INVALID;
    gasneti_tm_t tm = gasneti_import_tm(v->tm, call);
    GASNETI_CHECK_MAY_COMMUNICATE(call);
    gex_EP_Location_t loc = gasneti_tm_peer(tm, v->rank, call);
    if (!v->total && !armed) return GEX_EVENT_INVALID;
    if (v->total) check_sides(v, tm, loc);

    gasneti_op_t stack_op = GASNETI_OP_INIT;
    gasneti_op_t *op = v->form == FORM_BLOCKING ? &stack_op
                     : v->form == FORM_NB ? gasneti_op_alloc(OP_EOP) : gasneti_nbi_op();
    int lc_mode = LC_DEFER;
    uint32_t *lc = NULL;
    if (leaf_lc) {
        if (v->form == FORM_NB) op->has_leaf = 1;
        lc = gasneti_counter(op, GASNETI_LC);
        lc_mode = LC_COUNTER;
    }
    if (armed) {
        gasneti_op_t data = GASNETI_OP_INIT;
        transfer(v, &data, tm, loc, lc_mode, lc);
        gasneti_wait(&data, call);
        pc_send(op, tm, loc, call);
    } else {
        transfer(v, op, tm, loc, lc_mode, lc);
    }
    if (v->form == FORM_BLOCKING) gasneti_wait(op, call);
    return v->form == FORM_NB ? gasneti_event_of(op) : GEX_EVENT_INVALID;
}

static gex_Event_t vector(const char *call, int form, int is_put, gex_TM_t tm, gex_Rank_t rank,
                          size_t dstcount, const gex_Memvec_t *dstlist, size_t srccount,
                          const gex_Memvec_t *srclist, gex_Flags_t flags)
{
    vis_side_t dst, src;
    size_t dt = vector_side(&dst, dstcount, dstlist, call, "dstlist");
    size_t st = vector_side(&src, srccount, srclist, call, "srclist");
    if (dt != st)
        gasneti_fatalerror("%s: dstlist holds %zu bytes but srclist %zu (they must match)", call, dt, st);
    vis_call_t v = {call, form, is_put, flags, tm, rank, is_put ? &dst : &src, is_put ? &src : &dst,
                    is_put ? "dstlist" : "srclist", is_put ? "srclist" : "dstlist", dt, 0};
    return run(&v);
}

static gex_Event_t indexed(const char *call, int form, int is_put, gex_TM_t tm, gex_Rank_t rank,
                           size_t dstcount, void *const *dstlist, size_t dstlen, size_t srccount,
                           void *const *srclist, size_t srclen, gex_Flags_t flags)
{
    vis_side_t dst, src;
    size_t dt = indexed_side(&dst, dstcount, dstlist, dstlen, call, "dstlist");
    size_t st = indexed_side(&src, srccount, srclist, srclen, call, "srclist");
    if (dt != st)
        gasneti_fatalerror("%s: dstcount * dstlen = %zu * %zu but srccount * srclen = %zu * %zu "
                           "(the totals must match)", call, dstcount, dstlen, srccount, srclen);
    vis_call_t v = {call, form, is_put, flags, tm, rank, is_put ? &dst : &src, is_put ? &src : &dst,
                    is_put ? "dstlist" : "srclist", is_put ? "srclist" : "dstlist", dt, 0};
    return run(&v);
}

static gex_Event_t strided(const char *call, int form, int is_put, gex_TM_t tm, gex_Rank_t rank,
                           void *dstaddr, const ptrdiff_t *dststrides, void *srcaddr,
                           const ptrdiff_t *srcstrides, size_t elemsz, const size_t *count,
                           size_t levels, gex_Flags_t flags)
{
    vis_side_t dst, src;
    size_t total = strided_sides(call, &dst, &src, dstaddr, dststrides, srcaddr, srcstrides,
                                 elemsz, count, levels);
    vis_call_t v = {call, form, is_put, flags, tm, rank, is_put ? &dst : &src, is_put ? &src : &dst,
                    is_put ? "destination" : "source", is_put ? "source" : "destination", total,
                    total == 0};
    return run(&v);
}

static void vis_init(void)
{
    pack_max = (size_t)gasneti_getenv_size("GASNET_VIS_PACK_MAX", 16384, 0, (int64_t)1 << 30);
}

/* ---- EX entry points */

gex_Event_t gex_VIS_VectorGetNB(gex_TM_t tm, size_t dstcount, gex_Memvec_t const dstlist[],
                                gex_Rank_t srcrank, size_t srccount,
                                gex_Memvec_t const srclist[], gex_Flags_t flags)
{
    return vector("gex_VIS_VectorGetNB", FORM_NB, 0, tm, srcrank, dstcount, dstlist, srccount,
                  srclist, flags);
}

int gex_VIS_VectorGetNBI(gex_TM_t tm, size_t dstcount, gex_Memvec_t const dstlist[],
                         gex_Rank_t srcrank, size_t srccount, gex_Memvec_t const srclist[],
                         gex_Flags_t flags)
{
    vector("gex_VIS_VectorGetNBI", FORM_NBI, 0, tm, srcrank, dstcount, dstlist, srccount, srclist,
           flags);
    return 0;
}

int gex_VIS_VectorGetBlocking(gex_TM_t tm, size_t dstcount, gex_Memvec_t const dstlist[],
                              gex_Rank_t srcrank, size_t srccount,
                              gex_Memvec_t const srclist[], gex_Flags_t flags)
{
    vector("gex_VIS_VectorGetBlocking", FORM_BLOCKING, 0, tm, srcrank, dstcount, dstlist, srccount,
           srclist, flags);
    return 0;
}

gex_Event_t gex_VIS_VectorPutNB(gex_TM_t tm, gex_Rank_t dstrank, size_t dstcount,
                                gex_Memvec_t const dstlist[], size_t srccount,
                                gex_Memvec_t const srclist[], gex_Flags_t flags)
{
    return vector("gex_VIS_VectorPutNB", FORM_NB, 1, tm, dstrank, dstcount, dstlist, srccount,
                  srclist, flags);
}

int gex_VIS_VectorPutNBI(gex_TM_t tm, gex_Rank_t dstrank, size_t dstcount,
                         gex_Memvec_t const dstlist[], size_t srccount,
                         gex_Memvec_t const srclist[], gex_Flags_t flags)
{
    vector("gex_VIS_VectorPutNBI", FORM_NBI, 1, tm, dstrank, dstcount, dstlist, srccount, srclist,
           flags);
    return 0;
}

int gex_VIS_VectorPutBlocking(gex_TM_t tm, gex_Rank_t dstrank, size_t dstcount,
                              gex_Memvec_t const dstlist[], size_t srccount,
                              gex_Memvec_t const srclist[], gex_Flags_t flags)
{
    vector("gex_VIS_VectorPutBlocking", FORM_BLOCKING, 1, tm, dstrank, dstcount, dstlist, srccount,
           srclist, flags);
    return 0;
}

gex_Event_t gex_VIS_IndexedGetNB(gex_TM_t tm, size_t dstcount, void *const dstlist[],
                                 size_t dstlen, gex_Rank_t srcrank, size_t srccount,
                                 void *const srclist[], size_t srclen, gex_Flags_t flags)
{
    return indexed("gex_VIS_IndexedGetNB", FORM_NB, 0, tm, srcrank, dstcount, dstlist, dstlen,
                   srccount, srclist, srclen, flags);
}

int gex_VIS_IndexedGetNBI(gex_TM_t tm, size_t dstcount, void *const dstlist[], size_t dstlen,
                          gex_Rank_t srcrank, size_t srccount, void *const srclist[],
                          size_t srclen, gex_Flags_t flags)
{
    indexed("gex_VIS_IndexedGetNBI", FORM_NBI, 0, tm, srcrank, dstcount, dstlist, dstlen, srccount,
            srclist, srclen, flags);
    return 0;
}

int gex_VIS_IndexedGetBlocking(gex_TM_t tm, size_t dstcount, void *const dstlist[],
                               size_t dstlen, gex_Rank_t srcrank, size_t srccount,
                               void *const srclist[], size_t srclen, gex_Flags_t flags)
{
    indexed("gex_VIS_IndexedGetBlocking", FORM_BLOCKING, 0, tm, srcrank, dstcount, dstlist, dstlen,
            srccount, srclist, srclen, flags);
    return 0;
}

gex_Event_t gex_VIS_IndexedPutNB(gex_TM_t tm, gex_Rank_t dstrank, size_t dstcount,
                                 void *const dstlist[], size_t dstlen, size_t srccount,
                                 void *const srclist[], size_t srclen, gex_Flags_t flags)
{
    return indexed("gex_VIS_IndexedPutNB", FORM_NB, 1, tm, dstrank, dstcount, dstlist, dstlen,
                   srccount, srclist, srclen, flags);
}

int gex_VIS_IndexedPutNBI(gex_TM_t tm, gex_Rank_t dstrank, size_t dstcount,
                          void *const dstlist[], size_t dstlen, size_t srccount,
                          void *const srclist[], size_t srclen, gex_Flags_t flags)
{
    indexed("gex_VIS_IndexedPutNBI", FORM_NBI, 1, tm, dstrank, dstcount, dstlist, dstlen, srccount,
            srclist, srclen, flags);
    return 0;
}

int gex_VIS_IndexedPutBlocking(gex_TM_t tm, gex_Rank_t dstrank, size_t dstcount,
                               void *const dstlist[], size_t dstlen, size_t srccount,
                               void *const srclist[], size_t srclen, gex_Flags_t flags)
{
    indexed("gex_VIS_IndexedPutBlocking", FORM_BLOCKING, 1, tm, dstrank, dstcount, dstlist, dstlen,
            srccount, srclist, srclen, flags);
    return 0;
}

gex_Event_t gex_VIS_StridedGetNB(gex_TM_t tm, void *dstaddr, const ptrdiff_t dststrides[],
                                 gex_Rank_t srcrank, void *srcaddr,
                                 const ptrdiff_t srcstrides[], size_t elemsz,
                                 const size_t count[], size_t stridelevels, gex_Flags_t flags)
{
    return strided("gex_VIS_StridedGetNB", FORM_NB, 0, tm, srcrank, dstaddr, dststrides, srcaddr,
                   srcstrides, elemsz, count, stridelevels, flags);
}

int gex_VIS_StridedGetNBI(gex_TM_t tm, void *dstaddr, const ptrdiff_t dststrides[],
                          gex_Rank_t srcrank, void *srcaddr, const ptrdiff_t srcstrides[],
                          size_t elemsz, const size_t count[], size_t stridelevels,
                          gex_Flags_t flags)
{
    strided("gex_VIS_StridedGetNBI", FORM_NBI, 0, tm, srcrank, dstaddr, dststrides, srcaddr,
            srcstrides, elemsz, count, stridelevels, flags);
    return 0;
}

int gex_VIS_StridedGetBlocking(gex_TM_t tm, void *dstaddr, const ptrdiff_t dststrides[],
                               gex_Rank_t srcrank, void *srcaddr, const ptrdiff_t srcstrides[],
                               size_t elemsz, const size_t count[], size_t stridelevels,
                               gex_Flags_t flags)
{
    strided("gex_VIS_StridedGetBlocking", FORM_BLOCKING, 0, tm, srcrank, dstaddr, dststrides,
            srcaddr, srcstrides, elemsz, count, stridelevels, flags);
    return 0;
}

gex_Event_t gex_VIS_StridedPutNB(gex_TM_t tm, gex_Rank_t dstrank, void *dstaddr,
                                 const ptrdiff_t dststrides[], void *srcaddr,
                                 const ptrdiff_t srcstrides[], size_t elemsz,
                                 const size_t count[], size_t stridelevels, gex_Flags_t flags)
{
    return strided("gex_VIS_StridedPutNB", FORM_NB, 1, tm, dstrank, dstaddr, dststrides, srcaddr,
                   srcstrides, elemsz, count, stridelevels, flags);
}

int gex_VIS_StridedPutNBI(gex_TM_t tm, gex_Rank_t dstrank, void *dstaddr,
                          const ptrdiff_t dststrides[], void *srcaddr,
                          const ptrdiff_t srcstrides[], size_t elemsz, const size_t count[],
                          size_t stridelevels, gex_Flags_t flags)
{
    strided("gex_VIS_StridedPutNBI", FORM_NBI, 1, tm, dstrank, dstaddr, dststrides, srcaddr,
            srcstrides, elemsz, count, stridelevels, flags);
    return 0;
}

int gex_VIS_StridedPutBlocking(gex_TM_t tm, gex_Rank_t dstrank, void *dstaddr,
                               const ptrdiff_t dststrides[], void *srcaddr,
                               const ptrdiff_t srcstrides[], size_t elemsz,
                               const size_t count[], size_t stridelevels, gex_Flags_t flags)
{
    strided("gex_VIS_StridedPutBlocking", FORM_BLOCKING, 1, tm, dstrank, dstaddr, dststrides,
            srcaddr, srcstrides, elemsz, count, stridelevels, flags);
    return 0;
}

/* ---- GASNet-1 names (§16.4): the legacy team, flags 0; bulk puts defer
 * local completion to completion, as EX's default does */

static gex_TM_t legacy_tm(const char *call)
{
    GASNETI_CHECK_ATTACHED(call);
    return gasneti_tm0;
}

/* §16.4: elemsz = count[0], counts = count[1..levels], and strides that
 * neither transpose nor overlap. */
static void legacy_strides(const char *call, const size_t *dststrides, const size_t *srcstrides,
                           const size_t *count, size_t levels)
{
    if (!count) gasneti_fatalerror("%s: count is NULL", call);
    if (levels && (!dststrides || !srcstrides))
        gasneti_fatalerror("%s: %s is NULL with stridelevels = %zu", call,
                           dststrides ? "srcstrides" : "dststrides", levels);
    const size_t *strides[2] = {dststrides, srcstrides};
    const char *names[2] = {"dststrides", "srcstrides"};
    for (int s = 0; s < 2; s++)
        for (size_t k = 0; k < levels; k++) {
            char rule[96];
            size_t need = count[0];
            if (k && __builtin_mul_overflow(count[k], strides[s][k - 1], &need)) need = SIZE_MAX;
            if (k) snprintf(rule, sizeof rule, "count[%zu] * %s[%zu]", k, names[s], k - 1);
            else snprintf(rule, sizeof rule, "count[0]");
            if (strides[s][k] < need)
                gasneti_fatalerror("%s: %s[%zu] = %zu is less than %s = %zu: GASNet-1 strides must "
                                   "not transpose or overlap (strides[0] >= count[0], strides[i] >= "
                                   "count[i] * strides[i-1])", call, names[s], k, strides[s][k],
                                   rule, need);
        }
}

static gex_Event_t legacy_strided(const char *call, int form, int is_put, gasnet_node_t node,
                                  void *dstaddr, const size_t *dststrides, void *srcaddr,
                                  const size_t *srcstrides, const size_t *count, size_t levels)
{
    gex_TM_t tm = legacy_tm(call);
    legacy_strides(call, dststrides, srcstrides, count, levels);
    return strided(call, form, is_put, tm, node, dstaddr, (const ptrdiff_t *)dststrides, srcaddr,
                   (const ptrdiff_t *)srcstrides, count[0], count + 1, levels, 0);
}

#define LEGACY_V(call, form, is_put, node)                                                  \
    vector(call, form, is_put, legacy_tm(call), node, dstcount, (const gex_Memvec_t *)dstlist, \
           srccount, (const gex_Memvec_t *)srclist, 0)
#define LEGACY_I(call, form, is_put, node) \
    indexed(call, form, is_put, legacy_tm(call), node, dstcount, dstlist, dstlen, srccount, srclist, srclen, 0)

void gasnet_putv_bulk(gasnet_node_t dstnode, size_t dstcount, gasnet_memvec_t dstlist[],
                      size_t srccount, gasnet_memvec_t srclist[])
{
    LEGACY_V("gasnet_putv_bulk", FORM_BLOCKING, 1, dstnode);
}

void gasnet_getv_bulk(size_t dstcount, gasnet_memvec_t dstlist[], gasnet_node_t srcnode,
                      size_t srccount, gasnet_memvec_t srclist[])
{
    LEGACY_V("gasnet_getv_bulk", FORM_BLOCKING, 0, srcnode);
}

void gasnet_puti_bulk(gasnet_node_t dstnode, size_t dstcount, void *dstlist[], size_t dstlen,
                      size_t srccount, void *srclist[], size_t srclen)
{
    LEGACY_I("gasnet_puti_bulk", FORM_BLOCKING, 1, dstnode);
}

void gasnet_geti_bulk(size_t dstcount, void *dstlist[], size_t dstlen, gasnet_node_t srcnode,
                      size_t srccount, void *srclist[], size_t srclen)
{
    LEGACY_I("gasnet_geti_bulk", FORM_BLOCKING, 0, srcnode);
}

void gasnet_puts_bulk(gasnet_node_t dstnode, void *dstaddr, const size_t dststrides[],
                      void *srcaddr, const size_t srcstrides[], const size_t count[],
                      size_t stridelevels)
{
    legacy_strided("gasnet_puts_bulk", FORM_BLOCKING, 1, dstnode, dstaddr, dststrides, srcaddr,
                   srcstrides, count, stridelevels);
}

void gasnet_gets_bulk(void *dstaddr, const size_t dststrides[], gasnet_node_t srcnode,
                      void *srcaddr, const size_t srcstrides[], const size_t count[],
                      size_t stridelevels)
{
    legacy_strided("gasnet_gets_bulk", FORM_BLOCKING, 0, srcnode, dstaddr, dststrides, srcaddr,
                   srcstrides, count, stridelevels);
}

gasnet_handle_t gasnet_putv_nb_bulk(gasnet_node_t dstnode, size_t dstcount,
                                    gasnet_memvec_t dstlist[], size_t srccount,
                                    gasnet_memvec_t srclist[])
{
    return LEGACY_V("gasnet_putv_nb_bulk", FORM_NB, 1, dstnode);
}

gasnet_handle_t gasnet_getv_nb_bulk(size_t dstcount, gasnet_memvec_t dstlist[],
                                    gasnet_node_t srcnode, size_t srccount,
                                    gasnet_memvec_t srclist[])
{
    return LEGACY_V("gasnet_getv_nb_bulk", FORM_NB, 0, srcnode);
}

gasnet_handle_t gasnet_puti_nb_bulk(gasnet_node_t dstnode, size_t dstcount, void *dstlist[],
                                    size_t dstlen, size_t srccount, void *srclist[],
                                    size_t srclen)
{
    return LEGACY_I("gasnet_puti_nb_bulk", FORM_NB, 1, dstnode);
}

gasnet_handle_t gasnet_geti_nb_bulk(size_t dstcount, void *dstlist[], size_t dstlen,
                                    gasnet_node_t srcnode, size_t srccount, void *srclist[],
                                    size_t srclen)
{
    return LEGACY_I("gasnet_geti_nb_bulk", FORM_NB, 0, srcnode);
}

gasnet_handle_t gasnet_puts_nb_bulk(gasnet_node_t dstnode, void *dstaddr,
                                    const size_t dststrides[], void *srcaddr,
                                    const size_t srcstrides[], const size_t count[],
                                    size_t stridelevels)
{
    return legacy_strided("gasnet_puts_nb_bulk", FORM_NB, 1, dstnode, dstaddr, dststrides, srcaddr,
                          srcstrides, count, stridelevels);
}

gasnet_handle_t gasnet_gets_nb_bulk(void *dstaddr, const size_t dststrides[],
                                    gasnet_node_t srcnode, void *srcaddr,
                                    const size_t srcstrides[], const size_t count[],
                                    size_t stridelevels)
{
    return legacy_strided("gasnet_gets_nb_bulk", FORM_NB, 0, srcnode, dstaddr, dststrides, srcaddr,
                          srcstrides, count, stridelevels);
}

void gasnet_putv_nbi_bulk(gasnet_node_t dstnode, size_t dstcount, gasnet_memvec_t dstlist[],
                          size_t srccount, gasnet_memvec_t srclist[])
{
    LEGACY_V("gasnet_putv_nbi_bulk", FORM_NBI, 1, dstnode);
}

void gasnet_getv_nbi_bulk(size_t dstcount, gasnet_memvec_t dstlist[], gasnet_node_t srcnode,
                          size_t srccount, gasnet_memvec_t srclist[])
{
    LEGACY_V("gasnet_getv_nbi_bulk", FORM_NBI, 0, srcnode);
}

void gasnet_puti_nbi_bulk(gasnet_node_t dstnode, size_t dstcount, void *dstlist[],
                          size_t dstlen, size_t srccount, void *srclist[], size_t srclen)
{
    LEGACY_I("gasnet_puti_nbi_bulk", FORM_NBI, 1, dstnode);
}

void gasnet_geti_nbi_bulk(size_t dstcount, void *dstlist[], size_t dstlen,
                          gasnet_node_t srcnode, size_t srccount, void *srclist[],
                          size_t srclen)
{
    LEGACY_I("gasnet_geti_nbi_bulk", FORM_NBI, 0, srcnode);
}

void gasnet_puts_nbi_bulk(gasnet_node_t dstnode, void *dstaddr, const size_t dststrides[],
                          void *srcaddr, const size_t srcstrides[], const size_t count[],
                          size_t stridelevels)
{
    legacy_strided("gasnet_puts_nbi_bulk", FORM_NBI, 1, dstnode, dstaddr, dststrides, srcaddr,
                   srcstrides, count, stridelevels);
}

void gasnet_gets_nbi_bulk(void *dstaddr, const size_t dststrides[], gasnet_node_t srcnode,
                          void *srcaddr, const size_t srcstrides[], const size_t count[],
                          size_t stridelevels)
{
    legacy_strided("gasnet_gets_nbi_bulk", FORM_NBI, 0, srcnode, dstaddr, dststrides, srcaddr,
                   srcstrides, count, stridelevels);
}

#define REQ(index, fn, cat, n) {index, (ammpi_handler_fn)(fn), (cat) | AMMPI_REQUEST, n}
#define REP(index, fn, cat, n) {index, (ammpi_handler_fn)(fn), (cat) | AMMPI_REPLY, n}
static const gasneti_handler_t handlers[] = {
    REQ(H_PUT, put_h, AMMPI_MEDIUM | AMMPI_PRIVATE, 3), /* parse their descriptors */
    REP(H_ACK, ack_h, AMMPI_SHORT, 2),
    REQ(H_GET, get_h, AMMPI_MEDIUM | AMMPI_PRIVATE, 7),
    REP(H_GET_REPLY, get_reply_h, AMMPI_MEDIUM, 6),
    REQ(H_PC_NOTIFY, pc_notify_h, AMMPI_SHORT, 2),
    REQ(H_PC_FETCH, pc_fetch_h, AMMPI_SHORT, 2),
    {0, NULL, 0, 0},
};

const gasneti_layer_t gasnete_vis_layer = {
    .name = "vis",
    .init = vis_init,
    .handlers = handlers,
    .progress = pc_progress,
};
