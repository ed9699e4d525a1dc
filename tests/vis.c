/* vis: the VIS calls (EX §15, the GASNet-1 names of §16.4) against a
 * reference computed locally, written from the spec.
 *
 *   vis random [OPS] [SEED] [THREADS] [team]
 *                                       random vector, indexed and strided
 *                                       puts and gets, every form (team: on
 *                                       a split team in reverse rank order)
 *   vis legacy [OPS] [SEED]             the same through gasnet_{put,get}{v,i,s}_*
 *   vis pc [ROUNDS]                     peer-completion handlers (§15.5)
 *   vis err CASE                        bad input: a fatal error naming the
 *                                       node, the call and the value
 *
 * Random mode: each thread of each node runs OPS operations in batches of
 * 1-4 (NB, NBI, NBI in an access region, Blocking; puts sometimes with
 * GEX_FLAG_ENABLE_LEAF_LC, the source then overwritten once local
 * completion is signalled), to random peers including itself. Descriptors
 * are random and include the degenerate cases the spec allows: empty
 * lists, zero-length entries, count 0 and elemsz 0 (strided no-ops, with
 * a rank and addresses that must be ignored), negative and zero source
 * strides, transposed and interleaved (but disjoint) destinations, and
 * pieces above and below the packing limit. A put writes the sender's own
 * slice of the peer's segment, a get reads a pattern area every node
 * fills at start; each batch slot has its own slice, source and
 * destination, so the operations of a batch never conflict. After a
 * batch, every destination area is compared byte by byte (untouched bytes
 * included) with a mirror updated by a naive reference copy; a put's
 * slice is fetched with gex_RMA_GetBlocking for that.
 */
#define EX_TEST_LEGACY /* gasnet.h: the GASNet-1 names are tested too */
#include "ex_test.h"

#include <gasnet_vis.h>
#include <pthread.h>

#define SLOTS 4
/* A slot's destination area and put source: larger than one packed AM
 * (65000 bytes), so transfers span several. */
#define AREA ((size_t)98304)
#define PATTERN ((size_t)131072) /* the area gets read, per node */
#define MAXL 5
#define MAXREG 4096

static gex_Client_t client;
static gex_EP_t ep;
static gex_TM_t tm, tm0; /* the team used; the primordial one */
static gex_Segment_t segment;
static gex_Rank_t me, nranks;
static int nthreads = 1;
static char **segs; /* every node's segment base */

/* Segment: [PATTERN][per thread: SLOTS local areas][per sender thread of
 * the job: SLOTS put slices]. */
static size_t local_off(int th) { return PATTERN + (size_t)th * SLOTS * AREA; }
static size_t slice_off(gex_Rank_t sender, int th, int slot)
{
    return PATTERN + (size_t)nthreads * SLOTS * AREA +
           (((size_t)sender * nthreads + th) * SLOTS + slot) * AREA;
}
static size_t seg_size(void) { return slice_off(nranks, 0, 0); }

static unsigned char pattern(gex_Rank_t owner, size_t i)
{
    return (unsigned char)(i * 7 + (i >> 9) * 3 + owner * 29 + 1);
}

/* ---- random numbers (xorshift64*) */
typedef struct { uint64_t s; } rng_t;
static uint64_t rnd(rng_t *r)
{
    r->s ^= r->s >> 12;
    r->s ^= r->s << 25;
    r->s ^= r->s >> 27;
    return r->s * 2685821657736338717ull;
}
static size_t below(rng_t *r, size_t n) { return n ? (size_t)(rnd(r) % n) : 0; }
static size_t between(rng_t *r, size_t lo, size_t hi) { return lo + below(r, hi - lo + 1); }

/* A region length: mostly small, sometimes 0, sometimes above the packing limit. */
static size_t rlen(rng_t *r, size_t max)
{
    size_t p = below(r, 100), n;
    if (p < 8) n = 0;
    else if (p < 65) n = between(r, 1, 32);
    else if (p < 90) n = between(r, 33, 600);
    else n = between(r, 601, 20000);
    return n > max ? max : n;
}

/* ---- descriptors, as offsets into their areas */
enum { K_VEC, K_IDX, K_STR };
typedef struct {
    long off;
    size_t len;
} reg_t;
typedef struct {
    int kind;
    size_t dn, sn;
    reg_t d[MAXREG], s[MAXREG]; /* vector: regions; indexed: offsets, lengths dlen/slen */
    size_t dlen, slen;
    size_t elemsz, levels, count[MAXL];
    long dbase, sbase, dstr[MAXL], sstr[MAXL];
    int noop; /* strided no-op: rank and addresses need not be valid */
} desc_t;

static void shuffle(rng_t *r, reg_t *a, size_t n)
{
    for (size_t i = n; i > 1; i--) {
        size_t j = below(r, i);
        reg_t t = a[i - 1];
        a[i - 1] = a[j];
        a[j] = t;
    }
}

/* Disjoint regions in [0, size), in random order; returns their total. */
static size_t disjoint_regions(rng_t *r, reg_t *a, size_t *n, size_t size, size_t fixed_len)
{
    size_t p = below(r, 10);
    size_t want = p == 0 ? 0 : p < 6 ? between(r, 1, 24) : p < 9 ? between(r, 25, 600) : MAXREG;
    size_t pos = 0, total = 0;
    *n = 0;
    while (*n < want && *n < MAXREG) {
        size_t len = fixed_len ? fixed_len : rlen(r, size);
        size_t gap = below(r, 3) ? below(r, 16) : 0;
        if (pos + gap + len > size) break;
        a[(*n)++] = (reg_t){(long)(pos + gap), len};
        pos += gap + len;
        total += len;
    }
    shuffle(r, a, *n);
    return total;
}

static void gen_vector(rng_t *r, desc_t *d, size_t dsize, size_t ssize)
{
    d->kind = K_VEC;
    size_t total = disjoint_regions(r, d->d, &d->dn, dsize, 0), left = total;
    /* the source: the total split in random pieces (some empty, some
     * large), anywhere in its area (sources may overlap) */
    d->sn = 0;
    while (d->sn < MAXREG - 1 && (left || below(r, 4) == 0)) {
        size_t most = below(r, 3) == 0 ? left : between(r, 1, 600);
        size_t len = below(r, 6) == 0 ? 0 : between(r, 1, most < left ? most : left);
        if (!left) len = 0;
        d->s[d->sn++] = (reg_t){(long)below(r, ssize - len + 1), len};
        left -= len;
        if (!left && below(r, 2)) break;
    }
    if (left) d->s[d->sn++] = (reg_t){(long)below(r, ssize - left + 1), left};
}

static void gen_indexed(rng_t *r, desc_t *d, size_t dsize, size_t ssize)
{
    d->kind = K_IDX;
    d->dlen = below(r, 12) == 0 ? 0 : rlen(r, 3000) + 1;
    size_t total = disjoint_regions(r, d->d, &d->dn, dsize, d->dlen ? d->dlen : 1);
    if (!d->dlen) total = 0;
    if (total == 0) { /* a no-op: any lengths whose product is 0 */
        d->slen = below(r, 3) ? 0 : between(r, 1, 64);
        d->sn = d->slen ? 0 : below(r, 5);
    } else { /* srclen: a divisor of the total (dlen always is one) */
        size_t divisors[256], nd = 0;
        for (size_t k = 1; k * k <= total && nd < 254; k++) {
            if (total % k) continue;
            size_t pair[2] = {k, total / k};
            for (int j = 0; j < 2; j++)
                if (pair[j] <= ssize && total / pair[j] <= MAXREG) divisors[nd++] = pair[j];
        }
        d->slen = nd ? divisors[below(r, nd)] : d->dlen;
        d->sn = total / d->slen;
    }
    for (size_t i = 0; i < d->sn; i++) d->s[i] = (reg_t){(long)below(r, ssize - d->slen + 1), d->slen};
}

/* The chunk offsets of a strided side (i_0 fastest). */
static size_t chunks_of(const desc_t *d, long base, const long *str, long *out, size_t max)
{
    size_t n = 1;
    for (size_t k = 0; k < d->levels; k++) n *= d->count[k];
    if (n > max) return SIZE_MAX;
    for (size_t i = 0; i < n; i++) {
        size_t rest = i;
        long off = base;
        for (size_t k = 0; k < d->levels; k++) {
            off += (long)(rest % d->count[k]) * str[k];
            rest /= d->count[k];
        }
        out[i] = off;
    }
    return n;
}

static int cmp_long(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return x < y ? -1 : x > y;
}

/* Places a side's section at a random spot of an area of size bytes;
 * 0 when it does not fit (or, for a destination, its chunks overlap). */
static int place(rng_t *r, const desc_t *d, long *base, const long *str, size_t size, int disjoint)
{
    static __thread long off[MAXREG];
    size_t n = chunks_of(d, *base, str, off, MAXREG);
    if (n == SIZE_MAX) return 0;
    qsort(off, n, sizeof off[0], cmp_long);
    for (size_t i = 0; disjoint && i + 1 < n; i++)
        if ((size_t)(off[i + 1] - off[i]) < d->elemsz) return 0;
    size_t span = (size_t)(off[n - 1] - off[0]) + d->elemsz;
    if (span > size) return 0;
    *base += (long)below(r, size - span + 1) - off[0];
    return 1;
}

/* A nested layout: levels in a random order (legacy: in order, and
 * non-transposing), each clearing what the ones inside it span. */
static void nested(rng_t *r, const desc_t *d, long *str, long *base, int legacy, int may_reflect)
{
    size_t order[MAXL];
    for (size_t k = 0; k < d->levels; k++) order[k] = k;
    for (size_t k = d->levels; !legacy && k > 1; k--) {
        size_t j = below(r, k), t = order[k - 1];
        order[k - 1] = order[j];
        order[j] = t;
    }
    size_t extent = d->elemsz, prev = 0;
    *base = 0;
    for (size_t k = 0; k < d->levels; k++) {
        size_t l = order[k], s = extent + below(r, 9);
        if (legacy && k) s = d->count[order[k - 1]] * prev + below(r, 9);
        if (legacy && s < extent) s = extent;
        prev = s;
        extent = s * (d->count[l] - 1) + extent;
        str[l] = (long)s;
        if (may_reflect && below(r, 4) == 0) {
            str[l] = -(long)s;
            *base += (long)(s * (d->count[l] - 1));
        }
    }
}

static void gen_strided(rng_t *r, desc_t *d, size_t dsize, size_t ssize, int legacy)
{
    d->kind = K_STR;
    for (int attempt = 0;; attempt++) {
        d->levels = below(r, legacy ? 4 : 5);
        size_t p = below(r, 100);
        d->elemsz = p < 4 ? 0 : p < 80 ? between(r, 1, 24) : p < 95 ? between(r, 25, 300) : between(r, 301, 5000);
        for (size_t k = 0; k < d->levels; k++)
            d->count[k] = below(r, 40) == 0 ? 0 : between(r, 1, attempt > 20 ? 2 : below(r, 4) ? 6 : 40);
        int large = !legacy && below(r, 4) == 0; /* a section that takes several packed AMs */
        if (large) {
            d->levels = between(r, 1, 2);
            d->elemsz = between(r, 1, 400);
            size_t chunks = dsize * 7 / (8 * d->elemsz);
            if (chunks > MAXREG) chunks = MAXREG;
            d->count[0] = between(r, 2, chunks < 200 ? chunks : 200);
            d->count[1] = below(r, 2) ? chunks / d->count[0] : between(r, 1, chunks / d->count[0]);
        }
        d->noop = d->elemsz == 0;
        for (size_t k = 0; k < d->levels; k++) d->noop |= d->count[k] == 0;
        if (d->noop) { /* strides may be anything: they are ignored */
            for (size_t k = 0; k < d->levels; k++) d->dstr[k] = d->sstr[k] = (long)below(r, 9) - 4;
            d->dbase = d->sbase = 0;
            return;
        }
        if (legacy || large || below(r, 4)) {
            nested(r, d, d->dstr, &d->dbase, legacy, !legacy);
        } else { /* any strides, kept when the chunks happen to be disjoint */
            for (size_t k = 0; k < d->levels; k++) {
                d->dstr[k] = (long)between(r, 1, 3 * d->elemsz + 8);
                if (below(r, 3) == 0) d->dstr[k] = -d->dstr[k];
            }
            d->dbase = 0;
            for (size_t k = 0; k < d->levels; k++)
                if (d->dstr[k] < 0) d->dbase -= d->dstr[k] * (long)(d->count[k] - 1);
        }
        if (legacy || large) {
            nested(r, d, d->sstr, &d->sbase, legacy, !legacy);
        } else {
            d->sbase = 0;
            for (size_t k = 0; k < d->levels; k++) {
                d->sstr[k] = below(r, 5) == 0 ? 0 : (long)between(r, 1, 2 * d->elemsz + 40);
                if (below(r, 3) == 0) d->sstr[k] = -d->sstr[k];
                if (d->sstr[k] < 0) d->sbase -= d->sstr[k] * (long)(d->count[k] - 1);
            }
        }
        if (place(r, d, &d->dbase, d->dstr, dsize, 1) && place(r, d, &d->sbase, d->sstr, ssize, 0)) return;
    }
}

/* The regions of one side in stream order. */
static size_t expand(const desc_t *d, int dst, reg_t *out)
{
    if (d->kind == K_VEC) {
        size_t n = dst ? d->dn : d->sn;
        memcpy(out, dst ? d->d : d->s, n * sizeof *out);
        return n;
    }
    if (d->kind == K_IDX) {
        size_t n = dst ? d->dn : d->sn;
        for (size_t i = 0; i < n; i++) out[i] = (reg_t){(dst ? d->d : d->s)[i].off, dst ? d->dlen : d->slen};
        return n;
    }
    if (d->noop) return 0;
    static __thread long off[MAXREG];
    size_t n = chunks_of(d, dst ? d->dbase : d->sbase, dst ? d->dstr : d->sstr, off, MAXREG);
    for (size_t i = 0; i < n; i++) out[i] = (reg_t){off[i], d->elemsz};
    return n;
}

/* The reference: the source regions' bytes, concatenated, into the
 * destination regions of the mirror. */
static size_t reference(const desc_t *d, unsigned char *mirror, const unsigned char *src)
{
    static __thread reg_t regs[MAXREG];
    static __thread unsigned char stream[AREA];
    size_t n = expand(d, 0, regs), total = 0;
    for (size_t i = 0; i < n; i++) {
        memcpy(stream + total, src + regs[i].off, regs[i].len);
        total += regs[i].len;
    }
    n = expand(d, 1, regs);
    size_t pos = 0;
    for (size_t i = 0; i < n; i++) {
        memcpy(mirror + regs[i].off, stream + pos, regs[i].len);
        pos += regs[i].len;
    }
    CHECK(pos == total, "reference: %zu bytes in, %zu out", total, pos);
    return total;
}

/* ---- issuing */
enum { F_NB, F_NBI, F_REGION, F_BLOCKING };
static const char *const form_name[] = {"NB", "NBI", "NBI in an access region", "Blocking"};
static const char *const kind_name[] = {"Vector", "Indexed", "Strided"};

typedef struct {
    desc_t d;
    int is_put, form, leaf_lc;
    gex_Rank_t peer;
    int slot;
    unsigned char *src_area, *dst_area; /* in this process, or the peer's segment */
    gex_Event_t ev;
    /* the lists handed to the call: valid until it completes (§15.1) */
    gex_Memvec_t dv[MAXREG], sv[MAXREG];
    void *di[MAXREG], *si[MAXREG];
} op_t;

static void addr_list(const reg_t *regs, size_t n, unsigned char *area, gex_Memvec_t *mv, void **ix)
{
    for (size_t i = 0; i < n; i++) {
        if (mv) mv[i] = (gex_Memvec_t){area + regs[i].off, regs[i].len};
        if (ix) ix[i] = area + regs[i].off;
    }
}

/* Issues op; returns 0 when it was an IMMEDIATE no-op (nothing moved). */
static int issue(op_t *o, gex_Flags_t flags)
{
    gex_Memvec_t *dv = o->dv, *sv = o->sv;
    void **di = o->di, **si = o->si;
    desc_t *d = &o->d;
    int form = o->form == F_REGION ? F_NBI : o->form;
    gex_Event_t ev = GEX_EVENT_INVALID;
    int rc = 0;
    gex_Rank_t peer = o->peer;
    if (d->kind == K_VEC) {
        addr_list(d->d, d->dn, o->dst_area, dv, NULL);
        addr_list(d->s, d->sn, o->src_area, sv, NULL);
        const gex_Memvec_t *dl = d->dn ? dv : NULL, *sl = d->sn ? sv : NULL;
        if (o->is_put) {
            if (form == F_NB) ev = gex_VIS_VectorPutNB(tm, peer, d->dn, dl, d->sn, sl, flags);
            else if (form == F_NBI) rc = gex_VIS_VectorPutNBI(tm, peer, d->dn, dl, d->sn, sl, flags);
            else rc = gex_VIS_VectorPutBlocking(tm, peer, d->dn, dl, d->sn, sl, flags);
        } else {
            if (form == F_NB) ev = gex_VIS_VectorGetNB(tm, d->dn, dl, peer, d->sn, sl, flags);
            else if (form == F_NBI) rc = gex_VIS_VectorGetNBI(tm, d->dn, dl, peer, d->sn, sl, flags);
            else rc = gex_VIS_VectorGetBlocking(tm, d->dn, dl, peer, d->sn, sl, flags);
        }
    } else if (d->kind == K_IDX) {
        addr_list(d->d, d->dn, o->dst_area, NULL, di);
        addr_list(d->s, d->sn, o->src_area, NULL, si);
        void *const *dl = d->dn ? di : NULL, *const *sl = d->sn ? si : NULL;
        if (o->is_put) {
            if (form == F_NB) ev = gex_VIS_IndexedPutNB(tm, peer, d->dn, dl, d->dlen, d->sn, sl, d->slen, flags);
            else if (form == F_NBI) rc = gex_VIS_IndexedPutNBI(tm, peer, d->dn, dl, d->dlen, d->sn, sl, d->slen, flags);
            else rc = gex_VIS_IndexedPutBlocking(tm, peer, d->dn, dl, d->dlen, d->sn, sl, d->slen, flags);
        } else {
            if (form == F_NB) ev = gex_VIS_IndexedGetNB(tm, d->dn, dl, d->dlen, peer, d->sn, sl, d->slen, flags);
            else if (form == F_NBI) rc = gex_VIS_IndexedGetNBI(tm, d->dn, dl, d->dlen, peer, d->sn, sl, d->slen, flags);
            else rc = gex_VIS_IndexedGetBlocking(tm, d->dn, dl, d->dlen, peer, d->sn, sl, d->slen, flags);
        }
    } else {
        ptrdiff_t ds[MAXL], ss[MAXL];
        for (size_t k = 0; k < d->levels; k++) ds[k] = d->dstr[k], ss[k] = d->sstr[k];
        void *da = o->dst_area + d->dbase, *sa = o->src_area + d->sbase;
        const ptrdiff_t *dsp = ds, *ssp = ss;
        const size_t *cnt = d->count;
        if (d->noop) { /* §15.4: what a no-op ignores may be garbage */
            peer = 12345;
            da = sa = NULL;
            if (d->elemsz == 0) dsp = ssp = NULL, cnt = NULL;
        }
        if (o->is_put) {
            if (form == F_NB) ev = gex_VIS_StridedPutNB(tm, peer, da, dsp, sa, ssp, d->elemsz, cnt, d->levels, flags);
            else if (form == F_NBI) rc = gex_VIS_StridedPutNBI(tm, peer, da, dsp, sa, ssp, d->elemsz, cnt, d->levels, flags);
            else rc = gex_VIS_StridedPutBlocking(tm, peer, da, dsp, sa, ssp, d->elemsz, cnt, d->levels, flags);
        } else {
            if (form == F_NB) ev = gex_VIS_StridedGetNB(tm, da, dsp, peer, sa, ssp, d->elemsz, cnt, d->levels, flags);
            else if (form == F_NBI) rc = gex_VIS_StridedGetNBI(tm, da, dsp, peer, sa, ssp, d->elemsz, cnt, d->levels, flags);
            else rc = gex_VIS_StridedGetBlocking(tm, da, dsp, peer, sa, ssp, d->elemsz, cnt, d->levels, flags);
        }
    }
    o->ev = ev;
    if (ev == GEX_EVENT_NO_OP || rc != 0) {
        CHECK(flags & GEX_FLAG_IMMEDIATE, "%s%s%s returned a no-op without GEX_FLAG_IMMEDIATE",
              kind_name[d->kind], o->is_put ? "Put" : "Get", form_name[o->form]);
        o->ev = GEX_EVENT_INVALID;
        return 0;
    }
    return 1;
}

/* ---- random mode */

typedef struct {
    int th;
    long ops;
    uint64_t seed;
    unsigned char *heap_src[SLOTS], *heap_dst[SLOTS], *dst_mirror[SLOTS];
    unsigned char *slice_mirror; /* [peer][slot][AREA] */
    unsigned char *pattern_copy; /* [peer][PATTERN] */
    unsigned char *fetched;
    long issued, empty, large; /* operations; those moving 0 bytes, > 65000 bytes */
    size_t bytes;
} worker_t;

static unsigned char *slice_mirror(worker_t *w, gex_Rank_t peer, int slot)
{
    return w->slice_mirror + ((size_t)peer * SLOTS + slot) * AREA;
}

static void describe(const op_t *o, char *buf, size_t len)
{
    const desc_t *d = &o->d;
    int n = snprintf(buf, len, "%s%s %s to rank %u%s: ", kind_name[d->kind], o->is_put ? "Put" : "Get",
                     form_name[o->form], o->peer, o->leaf_lc ? " with ENABLE_LEAF_LC" : "");
    if (d->kind == K_VEC) snprintf(buf + n, len - n, "dstcount %zu srccount %zu", d->dn, d->sn);
    else if (d->kind == K_IDX)
        snprintf(buf + n, len - n, "dstcount %zu dstlen %zu srccount %zu srclen %zu", d->dn, d->dlen, d->sn, d->slen);
    else {
        n += snprintf(buf + n, len - n, "elemsz %zu levels %zu:", d->elemsz, d->levels);
        for (size_t k = 0; k < d->levels && n < (int)len; k++)
            n += snprintf(buf + n, len - n, " [count %zu dst %ld src %ld]", d->count[k], d->dstr[k], d->sstr[k]);
    }
}

static void verify(worker_t *w, op_t *o)
{
    char what[512];
    const unsigned char *got, *want;
    if (o->is_put) {
        want = slice_mirror(w, o->peer, o->slot);
        CHECK(gex_RMA_GetBlocking(tm, w->fetched, o->peer, segs[o->peer] + slice_off(me, w->th, o->slot), AREA, 0) == 0,
              "gex_RMA_GetBlocking failed");
        got = w->fetched;
    } else {
        want = w->dst_mirror[o->slot];
        got = o->dst_area;
    }
    for (size_t i = 0; i < AREA; i++)
        if (got[i] != want[i]) {
            describe(o, what, sizeof what);
            CHECK(got[i] == want[i], "thread %d seed %llu: %s: byte %zu of the destination area is %u, "
                  "the reference says %u", w->th, (unsigned long long)w->seed, what, i, got[i], want[i]);
        }
}

static void *random_worker(void *arg)
{
    worker_t *w = arg;
    rng_t r = {w->seed * 0x9E3779B97F4A7C15ull + me * 1000003ull + (uint64_t)w->th * 7919 + 1};
    op_t *ops = malloc(SLOTS * sizeof *ops);
    CHECK(ops != NULL, "out of memory");
    unsigned char *local = (unsigned char *)segs[me] + local_off(w->th);
    for (long done = 0; done < w->ops;) {
        int batch = (int)between(&r, 1, SLOTS);
        int nbi_form = below(&r, 3) == 0 ? F_REGION : F_NBI; /* one NBI kind per batch */
        if (nbi_form == F_REGION) gex_NBI_BeginAccessRegion(0);
        for (int s = 0; s < batch; s++, done++) {
            op_t *o = &ops[s];
            memset(o, 0, offsetof(op_t, dv));
            o->slot = s;
            o->peer = (gex_Rank_t)below(&r, nranks);
            o->is_put = (int)below(&r, 2);
            int f = (int)below(&r, 3);
            o->form = f == 0 ? F_NB : f == 1 ? nbi_form : F_BLOCKING;
            o->leaf_lc = o->is_put && o->form != F_BLOCKING && below(&r, 2);
            /* local buffers: the heap or this thread's part of the segment */
            unsigned char *mine = below(&r, 2) ? local + (size_t)s * AREA : (o->is_put ? w->heap_src[s] : w->heap_dst[s]);
            if (o->is_put) {
                o->src_area = mine;
                o->dst_area = (unsigned char *)segs[o->peer] + slice_off(me, w->th, s);
                for (size_t i = 0; i < AREA; i++) mine[i] = (unsigned char)rnd(&r);
            } else {
                o->dst_area = mine;
                o->src_area = (unsigned char *)segs[o->peer];
                memset(mine, (int)(done & 0xff), AREA);
                memcpy(w->dst_mirror[s], mine, AREA);
            }
            int kind = (int)below(&r, 3);
            size_t ssize = o->is_put ? AREA : PATTERN;
            if (kind == K_VEC) gen_vector(&r, &o->d, AREA, ssize);
            else if (kind == K_IDX) gen_indexed(&r, &o->d, AREA, ssize);
            else gen_strided(&r, &o->d, AREA, ssize, 0);
            gex_Flags_t flags = (o->leaf_lc ? GEX_FLAG_ENABLE_LEAF_LC : 0) |
                                (below(&r, 8) == 0 ? GEX_FLAG_IMMEDIATE : 0);
            if (!issue(o, flags)) {
                o->leaf_lc = 0;
                continue;
            }
            size_t moved = o->is_put ? reference(&o->d, slice_mirror(w, o->peer, s), o->src_area)
                                     : reference(&o->d, w->dst_mirror[s], w->pattern_copy + (size_t)o->peer * PATTERN);
            w->issued++;
            w->empty += moved == 0;
            w->large += moved > 65000;
            w->bytes += moved;
            if (o->form == F_NB && o->leaf_lc) { /* LC, then the source may change */
                gex_Event_Wait(gex_Event_QueryLeaf(o->ev, GEX_EC_LC));
                memset(o->src_area, 0xEE, AREA);
            }
        }
        gex_Event_t region = GEX_EVENT_INVALID;
        int region_lc = 0;
        for (int s = 0; s < batch; s++) region_lc |= ops[s].form == F_REGION && ops[s].leaf_lc;
        if (nbi_form == F_REGION) {
            region = gex_NBI_EndAccessRegion(0);
            if (region_lc) { /* the region's LC leaf covers its NBI puts' sources */
                gex_Event_Wait(gex_Event_QueryLeaf(region, GEX_EC_LC));
                for (int s = 0; s < batch; s++)
                    if (ops[s].form == F_REGION && ops[s].leaf_lc) memset(ops[s].src_area, 0xEE, AREA);
            }
        } else {
            gex_NBI_Wait(GEX_EC_LC, 0);
            for (int s = 0; s < batch; s++)
                if (ops[s].form == F_NBI && ops[s].leaf_lc) memset(ops[s].src_area, 0xEE, AREA);
            gex_NBI_Wait(GEX_EC_PUT, 0);
            gex_NBI_Wait(GEX_EC_GET, 0);
        }
        gex_Event_Wait(region);
        for (int s = 0; s < batch; s++) gex_Event_Wait(ops[s].ev);
        for (int s = 0; s < batch; s++) verify(w, &ops[s]);
    }
    free(ops);
    return NULL;
}

static void start(int *argc, char ***argv)
{
    if (gex_Client_Init(&client, &ep, &tm, "vis", argc, argv, GEX_FLAG_USES_GASNET1) != GASNET_OK) {
        fprintf(stderr, "FAIL: gex_Client_Init\n");
        exit(1);
    }
    tm0 = tm;
    me = gex_TM_QueryRank(tm);
    nranks = gex_TM_QuerySize(tm);
}

/* Moves every operation to a team whose rank r is jobrank n-1-r, so a
 * rank used as a jobrank would reach the wrong node. */
static void reverse_team(void)
{
    gex_TM_t team;
    gex_TM_Split(&team, tm0, 0, (int)(nranks - 1 - me), NULL, 0, 0);
    CHECK(team != GEX_TM_INVALID && gex_TM_QueryRank(team) == nranks - 1 - me, "gex_TM_Split");
    tm = team;
    me = gex_TM_QueryRank(team);
}

static void attach(void)
{
    size_t size = (seg_size() + GASNET_PAGESIZE - 1) / GASNET_PAGESIZE * GASNET_PAGESIZE;
    CHECK(gex_Segment_Attach(&segment, tm0, size) == GASNET_OK, "gex_Segment_Attach of %zu bytes", size);
    segs = calloc(nranks, sizeof *segs);
    CHECK(segs != NULL, "out of memory");
    for (gex_Rank_t r = 0; r < nranks; r++) {
        void *base;
        CHECK(gex_Segment_QueryBound(tm, r, &base, NULL, NULL) == 0, "rank %u has no segment", r);
        segs[r] = base;
    }
    unsigned char *mine = (unsigned char *)segs[me];
    for (size_t i = 0; i < PATTERN; i++) mine[i] = pattern(me, i);
    memset(mine + PATTERN, 0, size - PATTERN);
    gex_Event_Wait(gex_Coll_BarrierNB(tm, 0));
}

static worker_t *new_worker(int th, long ops, uint64_t seed)
{
    worker_t *w = calloc(1, sizeof *w);
    CHECK(w != NULL, "out of memory");
    w->th = th;
    w->ops = ops;
    w->seed = seed;
    for (int s = 0; s < SLOTS; s++) {
        w->heap_src[s] = malloc(AREA);
        w->heap_dst[s] = malloc(AREA);
        w->dst_mirror[s] = malloc(AREA);
        CHECK(w->heap_src[s] && w->heap_dst[s] && w->dst_mirror[s], "out of memory");
    }
    w->slice_mirror = calloc((size_t)nranks * SLOTS, AREA);
    w->pattern_copy = malloc((size_t)nranks * PATTERN);
    w->fetched = malloc(AREA);
    CHECK(w->slice_mirror && w->pattern_copy && w->fetched, "out of memory");
    for (gex_Rank_t p = 0; p < nranks; p++)
        for (size_t i = 0; i < PATTERN; i++) w->pattern_copy[(size_t)p * PATTERN + i] = pattern(p, i);
    return w;
}

static void free_worker(worker_t *w)
{
    for (int s = 0; s < SLOTS; s++) free(w->heap_src[s]), free(w->heap_dst[s]), free(w->dst_mirror[s]);
    free(w->slice_mirror);
    free(w->pattern_copy);
    free(w->fetched);
    free(w);
}

static void run_random(long ops, uint64_t seed)
{
    attach();
    worker_t *w[16];
    pthread_t t[16];
    for (int th = 0; th < nthreads; th++) w[th] = new_worker(th, ops, seed);
    if (nthreads == 1) random_worker(w[0]);
    else {
        for (int th = 0; th < nthreads; th++) CHECK(pthread_create(&t[th], NULL, random_worker, w[th]) == 0, "pthread_create");
        for (int th = 0; th < nthreads; th++) pthread_join(t[th], NULL);
    }
    gex_Event_Wait(gex_Coll_BarrierNB(tm, 0));
    if (me == 0)
        printf("vis random: ok (%d thread(s), %u ranks%s, seed %llu; rank 0 thread 0: %ld operations, "
               "%ld moving nothing, %ld over 65000 bytes, %zu bytes)\n", nthreads, nranks,
               tm == tm0 ? "" : " of a reversed team", (unsigned long long)seed, w[0]->issued,
               w[0]->empty, w[0]->large, w[0]->bytes);
    for (int th = 0; th < nthreads; th++) free_worker(w[th]);
}

/* ---- legacy mode: the GASNet-1 names, on the legacy team (tm) */

static void legacy_worker(long ops, uint64_t seed)
{
    worker_t *w = new_worker(0, ops, seed);
    rng_t r = {seed * 0x9E3779B97F4A7C15ull + me * 1000003ull + 5};
    op_t o;
    static gasnet_memvec_t dv[MAXREG], sv[MAXREG];
    static void *di[MAXREG], *si[MAXREG];
    unsigned char *local = (unsigned char *)segs[me] + local_off(0);
    for (long done = 0; done < ops; done++) {
        memset(&o, 0, offsetof(op_t, dv));
        o.peer = (gex_Rank_t)below(&r, nranks);
        o.is_put = (int)below(&r, 2);
        int form = (int)below(&r, 3); /* bulk, nb_bulk, nbi_bulk */
        o.form = form == 0 ? F_BLOCKING : form == 1 ? F_NB : F_NBI;
        unsigned char *mine = below(&r, 2) ? local : (o.is_put ? w->heap_src[0] : w->heap_dst[0]);
        if (o.is_put) {
            o.src_area = mine;
            o.dst_area = (unsigned char *)segs[o.peer] + slice_off(me, 0, 0);
            for (size_t i = 0; i < AREA; i++) mine[i] = (unsigned char)rnd(&r);
        } else {
            o.dst_area = mine;
            o.src_area = (unsigned char *)segs[o.peer];
            memset(mine, (int)(done & 0xff), AREA);
            memcpy(w->dst_mirror[0], mine, AREA);
        }
        int kind = (int)below(&r, 3);
        size_t ssize = o.is_put ? AREA : PATTERN;
        desc_t *d = &o.d;
        if (kind == K_VEC) gen_vector(&r, d, AREA, ssize);
        else if (kind == K_IDX) gen_indexed(&r, d, AREA, ssize);
        else gen_strided(&r, d, AREA, ssize, 1);
        gasnet_handle_t h = GASNET_INVALID_HANDLE;
        gasnet_node_t node = o.peer;
        if (kind == K_VEC) {
            for (size_t i = 0; i < d->dn; i++) dv[i] = (gasnet_memvec_t){o.dst_area + d->d[i].off, d->d[i].len};
            for (size_t i = 0; i < d->sn; i++) sv[i] = (gasnet_memvec_t){o.src_area + d->s[i].off, d->s[i].len};
            if (o.is_put) {
                if (form == 0) gasnet_putv_bulk(node, d->dn, dv, d->sn, sv);
                else if (form == 1) h = gasnet_putv_nb_bulk(node, d->dn, dv, d->sn, sv);
                else gasnet_putv_nbi_bulk(node, d->dn, dv, d->sn, sv);
            } else {
                if (form == 0) gasnet_getv_bulk(d->dn, dv, node, d->sn, sv);
                else if (form == 1) h = gasnet_getv_nb_bulk(d->dn, dv, node, d->sn, sv);
                else gasnet_getv_nbi_bulk(d->dn, dv, node, d->sn, sv);
            }
        } else if (kind == K_IDX) {
            for (size_t i = 0; i < d->dn; i++) di[i] = o.dst_area + d->d[i].off;
            for (size_t i = 0; i < d->sn; i++) si[i] = o.src_area + d->s[i].off;
            if (o.is_put) {
                if (form == 0) gasnet_puti_bulk(node, d->dn, di, d->dlen, d->sn, si, d->slen);
                else if (form == 1) h = gasnet_puti_nb_bulk(node, d->dn, di, d->dlen, d->sn, si, d->slen);
                else gasnet_puti_nbi_bulk(node, d->dn, di, d->dlen, d->sn, si, d->slen);
            } else {
                if (form == 0) gasnet_geti_bulk(d->dn, di, d->dlen, node, d->sn, si, d->slen);
                else if (form == 1) h = gasnet_geti_nb_bulk(d->dn, di, d->dlen, node, d->sn, si, d->slen);
                else gasnet_geti_nbi_bulk(d->dn, di, d->dlen, node, d->sn, si, d->slen);
            }
        } else {
            size_t ds[MAXL], ss[MAXL], cnt[MAXL + 1];
            cnt[0] = d->elemsz; /* §16.4: the GASNet-1 count[0] is the chunk size */
            for (size_t k = 0; k < d->levels; k++) ds[k] = (size_t)d->dstr[k], ss[k] = (size_t)d->sstr[k], cnt[k + 1] = d->count[k];
            if (d->noop) /* legacy strides must still be non-transposing */
                for (size_t k = 0; k < d->levels; k++)
                    ds[k] = ss[k] = k ? cnt[k] * ds[k - 1] : cnt[0];
            void *da = o.dst_area + d->dbase, *sa = o.src_area + d->sbase;
            if (o.is_put) {
                if (form == 0) gasnet_puts_bulk(node, da, ds, sa, ss, cnt, d->levels);
                else if (form == 1) h = gasnet_puts_nb_bulk(node, da, ds, sa, ss, cnt, d->levels);
                else gasnet_puts_nbi_bulk(node, da, ds, sa, ss, cnt, d->levels);
            } else {
                if (form == 0) gasnet_gets_bulk(da, ds, node, sa, ss, cnt, d->levels);
                else if (form == 1) h = gasnet_gets_nb_bulk(da, ds, node, sa, ss, cnt, d->levels);
                else gasnet_gets_nbi_bulk(da, ds, node, sa, ss, cnt, d->levels);
            }
        }
        if (o.is_put) reference(d, slice_mirror(w, o.peer, 0), o.src_area);
        else reference(d, w->dst_mirror[0], w->pattern_copy + (size_t)o.peer * PATTERN);
        gasnet_wait_syncnb(h);
        if (o.is_put) gasnet_wait_syncnbi_puts();
        else gasnet_wait_syncnbi_gets();
        verify(w, &o);
    }
    free_worker(w);
}

/* ---- peer completion (§15.5) */

#define PC_MAGIC 0x50434f4du
typedef struct {
    uint32_t magic;
    gex_Rank_t sender;
    uint32_t seq, off, len, sum;
} pc_note_t;
static gex_AM_Index_t pc_index;
static int *pc_seen; /* per sender */
static int pc_total;
static gex_HSL_t pc_lock = GEX_HSL_INITIALIZER;

static uint32_t checksum(const unsigned char *p, size_t n)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 16777619u;
    return h;
}

/* Runs at the put's target as a 0-argument Medium reply, after the data is in place. */
static void pc_handler(gex_Token_t token, void *buf, size_t nbytes)
{
    gex_Token_Info_t info;
    gex_Token_Info(token, &info, GEX_TI_SRCRANK | GEX_TI_IS_REQ);
    CHECK(nbytes == sizeof(pc_note_t), "peer-completion payload of %zu bytes", nbytes);
    pc_note_t n;
    memcpy(&n, buf, sizeof n);
    CHECK(n.magic == PC_MAGIC && n.sender < nranks, "peer-completion payload garbled");
    CHECK(!info.gex_is_req, "the peer-completion handler ran as a request");
    CHECK(info.gex_srcrank == n.sender, "the notification of rank %u's put came from rank %u", n.sender,
          info.gex_srcrank);
    const unsigned char *data = (unsigned char *)segs[me] + slice_off(n.sender, 0, 0) + n.off;
    CHECK(checksum(data, n.len) == n.sum, "rank %u's put %u was not in place when its handler ran",
          n.sender, n.seq);
    gex_HSL_Lock(&pc_lock);
    pc_seen[n.sender]++;
    pc_total++;
    gex_HSL_Unlock(&pc_lock);
}

static void run_pc(long rounds)
{
    gex_AM_Entry_t entry = {0, (gex_AM_Fn_t)pc_handler, GEX_FLAG_AM_MEDIUM | GEX_FLAG_AM_REPLY, 0, NULL, "vis_pc"};
    CHECK(gex_EP_RegisterHandlers(ep, &entry, 1) == GASNET_OK, "gex_EP_RegisterHandlers");
    pc_index = entry.gex_index;
    pc_seen = calloc(nranks, sizeof *pc_seen);
    attach(); /* its barrier: every node has registered */
    unsigned char *src = malloc(AREA);
    CHECK(src != NULL && rounds * 64 <= (long)(AREA * SLOTS), "rounds");
    rng_t r = {me + 77};
    uint32_t seq = 0;
    for (long round = 0; round < rounds; round++)
        for (gex_Rank_t peer = 0; peer < nranks; peer++, seq++) {
            uint32_t off = (uint32_t)(round * 64), len = (uint32_t)between(&r, 1, 64);
            for (uint32_t i = 0; i < len; i++) src[i] = (unsigned char)rnd(&r);
            pc_note_t n = {PC_MAGIC, me, seq, off, len, checksum(src, len)};
            unsigned char *dst = (unsigned char *)segs[peer] + slice_off(me, 0, 0) + off;
            int cancel = round % 5 == 4; /* armed, then cancelled: no notification */
            gex_VIS_SetPeerCompletionHandler(pc_index, &n, sizeof n, 0);
            if (cancel) gex_VIS_SetPeerCompletionHandler(0, NULL, 0, 0);
            int form = (int)(seq % 3);
            if (round % 2) { /* strided: len chunks of 1 byte */
                size_t count[1] = {len};
                ptrdiff_t stride[1] = {1};
                if (form == 0) gex_Event_Wait(gex_VIS_StridedPutNB(tm, peer, dst, stride, src, stride, 1, count, 1, 0));
                else if (form == 1) {
                    gex_VIS_StridedPutNBI(tm, peer, dst, stride, src, stride, 1, count, 1, 0);
                    gex_NBI_Wait(GEX_EC_PUT, 0);
                } else gex_VIS_StridedPutBlocking(tm, peer, dst, stride, src, stride, 1, count, 1, 0);
            } else {
                gex_Memvec_t d[2] = {{dst, len / 2}, {dst + len / 2, len - len / 2}}, s[1] = {{src, len}};
                if (form == 0) gex_Event_Wait(gex_VIS_VectorPutNB(tm, peer, 2, d, 1, s, 0));
                else if (form == 1) {
                    gex_VIS_VectorPutNBI(tm, peer, 2, d, 1, s, 0);
                    gex_NBI_Wait(GEX_EC_PUT, 0);
                } else gex_VIS_VectorPutBlocking(tm, peer, 2, d, 1, s, 0);
            }
        }
    /* every sender arms rounds - rounds/5 of its rounds per peer */
    int expect = (int)(rounds - rounds / 5) * (int)nranks;
    GASNET_BLOCKUNTIL(pc_total >= expect);
    gex_Event_Wait(gex_Coll_BarrierNB(tm, 0));
    gasnet_AMPoll();
    CHECK(pc_total == expect, "%d notifications, expected %d", pc_total, expect);
    for (gex_Rank_t s = 0; s < nranks; s++)
        CHECK(pc_seen[s] == (int)(rounds - rounds / 5), "%d notifications from rank %u", pc_seen[s], s);
    gex_Event_Wait(gex_Coll_BarrierNB(tm, 0));
    if (me == 0) printf("vis pc: ok (%d notifications per rank)\n", expect);
    free(src);
}

/* ---- bad input: each case must end the job with a fatal error */

/* Answers with a VIS get reply (GASNETE_H_VIS + 3 = 115) naming the
 * requester's address hi:lo, which holds no get record. */
static void bogus_reply_h(gex_Token_t token, gex_AM_Arg_t hi, gex_AM_Arg_t lo)
{
    gex_AM_ReplyMedium6(token, 115, &hi, 4, GEX_EVENT_NOW, 0, hi, lo, 0, 0, 0, 0);
}
static int not_a_record;

static void run_err(const char *c)
{
    gex_AM_Entry_t entry = {0, (gex_AM_Fn_t)bogus_reply_h, GEX_FLAG_AM_SHORT | GEX_FLAG_AM_REQUEST, 2, NULL, "bogus"};
    CHECK(gex_EP_RegisterHandlers(ep, &entry, 1) == GASNET_OK, "gex_EP_RegisterHandlers");
    attach();
    gex_Rank_t peer = (me + 1) % nranks;
    char *rseg = segs[peer] + slice_off(me, 0, 0), *loc = malloc(AREA);
    CHECK(loc != NULL, "out of memory");
    if (me == 0) {
        uintptr_t segsize;
        gex_Segment_QueryBound(tm, peer, NULL, NULL, &segsize);
        if (!strcmp(c, "zero_stride")) {
            ptrdiff_t ds[2] = {8, 0}, ss[2] = {8, 64};
            size_t cnt[2] = {4, 3};
            gex_VIS_StridedPutBlocking(tm, peer, rseg, ds, loc, ss, 8, cnt, 2, 0);
        } else if (!strcmp(c, "overlap_vector")) {
            gex_Memvec_t d[3] = {{rseg, 16}, {rseg + 100, 16}, {rseg + 8, 16}}, s[1] = {{loc, 48}};
            gex_Event_Wait(gex_VIS_VectorPutNB(tm, peer, 3, d, 1, s, 0));
        } else if (!strcmp(c, "overlap_strided")) {
            ptrdiff_t ds[1] = {4}, ss[1] = {8};
            size_t cnt[1] = {3};
            gex_VIS_StridedGetNBI(tm, loc, ds, peer, segs[peer], ss, 8, cnt, 1, 0);
        } else if (!strcmp(c, "outside_vector")) {
            gex_Memvec_t d[2] = {{rseg, 16}, {segs[peer] + segsize - 8, 16}}, s[1] = {{loc, 32}};
            gex_VIS_VectorPutBlocking(tm, peer, 2, d, 1, s, 0);
        } else if (!strcmp(c, "outside_strided")) {
            ptrdiff_t ds[1] = {16}, ss[1] = {1024};
            size_t cnt[1] = {64};
            gex_Event_Wait(gex_VIS_StridedGetNB(tm, loc, ds, peer, segs[peer] + segsize - 4096, ss, 16, cnt, 1, 0));
        } else if (!strcmp(c, "mismatch_vector")) {
            gex_Memvec_t d[2] = {{rseg, 16}, {rseg + 32, 8}}, s[2] = {{loc, 12}, {loc + 12, 8}};
            gex_VIS_VectorPutNBI(tm, peer, 2, d, 2, s, 0);
        } else if (!strcmp(c, "mismatch_indexed")) {
            void *d[3] = {loc, loc + 8, loc + 16}, *s[5] = {rseg, rseg, rseg, rseg, rseg};
            gex_VIS_IndexedGetBlocking(tm, 3, d, 8, peer, 5, s, 4, 0);
        } else if (!strcmp(c, "leaf_lc_get")) {
            void *d[1] = {loc}, *s[1] = {rseg};
            gex_Event_Wait(gex_VIS_IndexedGetNB(tm, 1, d, 8, peer, 1, s, 8, GEX_FLAG_ENABLE_LEAF_LC));
        } else if (!strcmp(c, "leaf_lc_blocking")) {
            void *d[1] = {rseg}, *s[1] = {loc};
            gex_VIS_IndexedPutBlocking(tm, peer, 1, d, 8, 1, s, 8, GEX_FLAG_ENABLE_LEAF_LC);
        } else if (!strcmp(c, "null_local")) {
            gex_Memvec_t d[1] = {{rseg, 16}}, s[2] = {{loc, 8}, {NULL, 8}};
            gex_VIS_VectorPutNBI(tm, peer, 1, d, 2, s, 0);
        } else if (!strcmp(c, "null_count")) {
            ptrdiff_t ds[2] = {8, 64};
            gex_VIS_StridedPutBlocking(tm, peer, rseg, ds, loc, ds, 8, NULL, 2, 0);
        } else if (!strcmp(c, "bad_rank")) {
            gex_Memvec_t d[1] = {{loc, 8}}, s[1] = {{rseg, 8}};
            gex_VIS_VectorGetBlocking(tm, 1, d, nranks, 1, s, 0);
        } else if (!strcmp(c, "pc_get")) {
            gex_VIS_SetPeerCompletionHandler(200, NULL, 0, 0);
            ptrdiff_t st[1] = {8};
            size_t cnt[1] = {2};
            gex_Event_Wait(gex_VIS_StridedGetNB(tm, loc, st, peer, rseg, st, 8, cnt, 1, 0));
        } else if (!strcmp(c, "pc_immediate")) {
            gex_VIS_SetPeerCompletionHandler(200, "x", 1, 0);
            gex_Memvec_t d[1] = {{rseg, 8}}, s[1] = {{loc, 8}};
            gex_VIS_VectorPutBlocking(tm, peer, 1, d, 1, s, GEX_FLAG_IMMEDIATE);
        } else if (!strcmp(c, "pc_too_big")) {
            gex_VIS_SetPeerCompletionHandler(200, loc, GEX_VIS_MAX_PEERCOMPLETION + 1, 0);
        } else if (!strcmp(c, "legacy_transpose")) {
            size_t ds[2] = {8, 64}, ss[2] = {64, 8}, cnt[3] = {8, 8, 4};
            gasnet_puts_bulk(peer, rseg, ds, loc, ss, cnt, 2);
        } else if (!strcmp(c, "legacy_mismatch")) {
            gasnet_memvec_t d[1] = {{loc, 16}}, s[1] = {{rseg, 20}};
            gasnet_wait_syncnb(gasnet_getv_nb_bulk(1, d, peer, 1, s));
        } else if (!strcmp(c, "wire_outside") || !strcmp(c, "wire_truncated")) {
            /* a put packet (format 1: records {addr, len, data}) sent by hand
             * to the VIS put handler, GASNETE_H_VIS = 112 */
            uint64_t rec[3] = {(uint64_t)(uintptr_t)(segs[peer] + segsize - 4), 8, 0};
            size_t n = !strcmp(c, "wire_outside") ? sizeof rec : 10;
            gex_AM_RequestMedium3(tm, peer, 112, rec, n, GEX_EVENT_NOW, 0, 1, 0, 0);
        } else if (!strcmp(c, "wire_section")) {
            /* format 2: {base, elemsz, levels, start, nbytes, strides, counts} then the data */
            uint64_t pkt[6] = {(uint64_t)(uintptr_t)(segs[peer] + segsize - 4), 8, 0, 0, 8, 0};
            gex_AM_RequestMedium3(tm, peer, 112, pkt, sizeof pkt, GEX_EVENT_NOW, 0, 2, 0, 0);
        } else if (!strcmp(c, "wire_reply")) {
            uintptr_t p = (uintptr_t)&not_a_record;
            gex_AM_RequestShort2(tm, peer, entry.gex_index, 0, (gex_AM_Arg_t)(p >> 32), (gex_AM_Arg_t)p);
        } else {
            CHECK(0, "unknown case %s", c);
        }
        for (;;) gasnet_AMPoll(); /* the fatal error ends the job */
    }
    for (;;) gasnet_AMPoll();
}

int main(int argc, char **argv)
{
    start(&argc, &argv);
    const char *mode = argc > 1 ? argv[1] : "random";
    long n = argc > 2 ? atol(argv[2]) : 300;
    uint64_t seed = argc > 3 ? strtoull(argv[3], NULL, 10) : 1;
    if (!strcmp(mode, "random")) {
        nthreads = argc > 4 ? atoi(argv[4]) : 1;
#ifndef GASNET_PAR
        CHECK(nthreads == 1, "threads need the PAR build");
#endif
        CHECK(nthreads >= 1 && nthreads <= 16, "1..16 threads");
        if (argc > 5 && !strcmp(argv[5], "team")) reverse_team();
        run_random(n, seed);
    } else if (!strcmp(mode, "legacy")) {
        attach();
        legacy_worker(n, seed);
        gex_Event_Wait(gex_Coll_BarrierNB(tm, 0));
        if (me == 0) printf("vis legacy: ok (%ld operations per rank, %u ranks)\n", n, nranks);
    } else if (!strcmp(mode, "pc")) {
        run_pc(argc > 2 ? n : 20);
    } else if (!strcmp(mode, "err") && argc > 2) {
        run_err(argv[2]);
    } else {
        fprintf(stderr, "usage: vis random [OPS] [SEED] [THREADS] [team] | legacy [OPS] [SEED] | pc [ROUNDS] | err CASE\n");
        gasnet_exit(2);
    }
    gasnet_exit(0);
    return 0;
}
