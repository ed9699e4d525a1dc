/* gasnet_tools_malloc.c: the checked allocator behind gasnett_debug_*
 * (used when GASNET_DEBUGMALLOC is on: debug builds, or a client's choice).
 *
 * Each block is one libc allocation:
 *
 *     [struct block][head guard][user bytes: size][tail guard: TAIL_GUARD]
 *     ^ raw                      ^ user = raw + HEADER_SIZE
 *
 * HEADER_SIZE keeps the user bytes max_align_t-aligned; both guards hold
 * GUARD_BYTE; the header carries a sum of its fields and the block's state
 * (live or freed), so a damaged header is noticed before it is believed.
 * New blocks are filled with FRESH_FILL (calloc: zeros).
 *
 * Live blocks are found through an open-addressing table of their raw
 * addresses (linear probing, backward-shift deletion), kept apart from the
 * blocks: free, realloc and memcheck look a pointer up before reading its
 * header, so a wild pointer or an overwritten header cannot mislead them.
 * A freed block is checked, filled with FREED_FILL and held in a FIFO
 * quarantine; when it leaves the quarantine its fill and guards are checked
 * again (a write after free), then libc frees it. A pointer that is not
 * live is looked for in the quarantine, which tells a double free from a
 * pointer never allocated here (or freed long ago).
 *
 * Every misuse seen is a fatal error naming the call, its caller's
 * file:line, the block's size and where it was allocated (and freed).
 *
 * Thread safety: one mutex guards the table, the quarantine and the
 * statistics; fatal errors are raised after releasing it.
 * Memory bound: HEADER_SIZE + TAIL_GUARD bytes per live block, a table of
 * at most 4 pointers per live block (it grows at half full and never
 * shrinks), and the quarantine: at most QUARANTINE_BLOCKS blocks and
 * QUARANTINE_BYTES user bytes, or a single larger block.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#define GASNETI_BUILDING_TOOLS 1
#define GASNET_DEBUGMALLOC 1 /* declares gasnett_heapstats_t here in every build */
#include "gasnet_tools.h"

#include <pthread.h>
#include <stdalign.h>

#define GUARD_BYTE 0xFD
#define FRESH_FILL 0xCD
#define FREED_FILL 0xDD
#define HEAD_GUARD_MIN 16
#define TAIL_GUARD 16
#define QUARANTINE_BLOCKS 256
#define QUARANTINE_BYTES ((size_t)4 << 20)
#define TABLE_MIN 1024

/* Mixed into a block's header sum: which state the block is in. */
#define STATE_LIVE UINT64_C(0x4c4956454c495645)  /* "LIVELIVE" */
#define STATE_FREED UINT64_C(0x4652454546524545) /* "FREEFREE" */

struct block {
    size_t size;
    const char *file, *free_file; /* allocated at; freed at (in quarantine) */
    int line, free_line;
    uint64_t check; /* header_sum(this block, its state) */
};

#define ROUND_UP(n, a) (((n) + (a)-1) / (a) * (a))
#define HEADER_SIZE ROUND_UP(sizeof(struct block) + HEAD_GUARD_MIN, alignof(max_align_t))
#define OVERHEAD (HEADER_SIZE + TAIL_GUARD)

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct block **table; /* table_cap slots, a power of two; NULL = empty */
static size_t table_cap, table_used, check_cursor;
static struct block *quarantine[QUARANTINE_BLOCKS]; /* FIFO: q_head is the oldest */
static size_t q_head, q_count, q_bytes;
static gasnett_heapstats_t stats;

static unsigned char *user_of(struct block *b)
{
    return (unsigned char *)b + HEADER_SIZE;
}

/* Any change to one header field changes the sum (each term is a
 * one-to-one function of its field). */
static uint64_t header_sum(const struct block *b, uint64_t state)
{
    return state ^ (uint64_t)b->size ^ ((uint64_t)(uintptr_t)b->file * 3) ^
           ((uint64_t)(uintptr_t)b->free_file * 5) ^ ((uint64_t)(unsigned)b->line << 32) ^ (unsigned)b->free_line;
}

/* ---- the table of live blocks ----------------------------------------- */

static size_t home_slot(uintptr_t raw, size_t cap)
{
    return (size_t)(((uint64_t)(raw >> 4) * UINT64_C(0x9E3779B97F4A7C15)) >> 32) & (cap - 1);
}

/* The slot holding the block whose user pointer is p, or SIZE_MAX. Only
 * integers are compared: p need not point into any block. */
static size_t table_find(const void *p)
{
    uintptr_t raw = (uintptr_t)p - HEADER_SIZE;
    size_t i;
    if (!table_cap) return SIZE_MAX;
    for (i = home_slot(raw, table_cap); table[i]; i = (i + 1) & (table_cap - 1)) {
        if ((uintptr_t)table[i] == raw) return i;
    }
    return SIZE_MAX;
}

static void table_place(struct block **t, size_t cap, struct block *b)
{
    size_t i = home_slot((uintptr_t)b, cap);
    while (t[i]) i = (i + 1) & (cap - 1);
    t[i] = b;
}

/* 0 when the table cannot grow (out of memory). */
static int table_insert(struct block *b)
{
    if (2 * (table_used + 1) > table_cap) {
        size_t cap = table_cap ? 2 * table_cap : TABLE_MIN, i;
        struct block **t = (struct block **)calloc(cap, sizeof *t);
        if (!t) return 0;
        for (i = 0; i < table_cap; i++) {
            if (table[i]) table_place(t, cap, table[i]);
        }
        free(table);
        table = t;
        table_cap = cap;
    }
    table_place(table, table_cap, b);
    table_used++;
    return 1;
}

/* Backward-shift deletion: later entries of the probe run move up so that
 * every entry stays reachable from its home slot. */
static void table_remove(size_t hole)
{
    size_t mask = table_cap - 1, j = hole;
    table[hole] = NULL;
    table_used--;
    for (;;) {
        size_t home;
        j = (j + 1) & mask;
        if (!table[j]) return;
        home = home_slot((uintptr_t)table[j], table_cap);
        /* table[j] may fill the hole unless its home lies in (hole, j]. */
        if (((j - home) & mask) >= ((j - hole) & mask)) {
            table[hole] = table[j];
            table[j] = NULL;
            hole = j;
        }
    }
}

/* ---- checks ----------------------------------------------------------- */

/* Whether a byte of [from, from+len) (offsets from the user pointer)
 * differs from `want`; *at is the first such offset. */
static int find_bad(struct block *b, long from, size_t len, unsigned char want, long *at)
{
    const unsigned char *p = user_of(b) + from;
    size_t i;
    for (i = 0; i < len; i++) {
        if (p[i] != want) {
            *at = from + (long)i;
            return 1;
        }
    }
    return 0;
}

/* Describes the damage to block b in `why`, or returns 0 if b is intact.
 * A freed block must also still hold its fill. */
static int block_damaged(struct block *b, uint64_t state, char *why, size_t whysz)
{
    const long head = (long)(HEADER_SIZE - sizeof(struct block));
    char what[128], freed[256] = "";
    long at;
    if (b->check != header_sum(b, state)) {
        /* Nothing in the header can be trusted, its names included. */
        snprintf(why, whysz, "the header of the block was overwritten (a wild write or a long underrun)");
        return 1;
    }
    if (find_bad(b, -head, (size_t)head, GUARD_BYTE, &at))
        snprintf(what, sizeof what, "was underrun: a write before its start changed the byte at offset %ld", at);
    else if (find_bad(b, (long)b->size, TAIL_GUARD, GUARD_BYTE, &at))
        snprintf(what, sizeof what, "was overrun: a write past its end changed the byte at offset %ld", at);
    else if (state == STATE_FREED && find_bad(b, 0, b->size, FREED_FILL, &at))
        snprintf(what, sizeof what, "was written after it was freed (at offset %ld)", at);
    else
        return 0;
    if (state == STATE_FREED) snprintf(freed, sizeof freed, " and freed at %s:%d", b->free_file, b->free_line);
    snprintf(why, whysz, "the block of %zu bytes allocated at %s:%d%s %s", b->size, b->file, b->line, freed, what);
    return 1;
}

/* A pointer that is not live: a quarantined block (freed recently) or
 * none of ours. `freeing`: the call is a free (so a double free). */
static void describe_not_live(const void *p, int freeing, char *why, size_t whysz)
{
    uintptr_t raw = (uintptr_t)p - HEADER_SIZE;
    size_t i;
    for (i = 0; i < q_count; i++) {
        struct block *b = quarantine[(q_head + i) % QUARANTINE_BLOCKS];
        if ((uintptr_t)b == raw && b->check != header_sum(b, STATE_FREED)) {
            snprintf(why, whysz, "%sa block freed earlier (its header since overwritten)",
                     freeing ? "double free: " : "");
            return;
        }
        if ((uintptr_t)b == raw) {
            snprintf(why, whysz, "%sthe block of %zu bytes allocated at %s:%d was already freed at %s:%d",
                     freeing ? "double free: " : "", b->size, b->file, b->line, b->free_file, b->free_line);
            return;
        }
    }
    snprintf(why, whysz, "not a live block of the checked allocator (not from gasnett_debug_*, "
                         "or freed long ago)");
}

static const char free_call[] = "gasnett_debug_free";

#define FAIL(call, p, file, line, why) \
    gasnett_fatalerror("%s(%p) at %s:%d: %s", call, p, file, line, why)

/* Checks live block b (user pointer p); on damage the lock is released and
 * the error is fatal. Called with the lock held. */
static void check_live(const char *call, const void *p, struct block *b, const char *file, int line)
{
    char why[512];
    if (!block_damaged(b, STATE_LIVE, why, sizeof why)) return;
    pthread_mutex_unlock(&lock);
    FAIL(call, p, file, line, why);
}

/* The slot of live block p, after checking it; a pointer that is not live
 * is fatal as above. Called with the lock held. */
static size_t checked_lookup(const char *call, const void *p, const char *file, int line)
{
    char why[512];
    size_t slot = table_find(p);
    if (slot == SIZE_MAX) {
        describe_not_live(p, call == free_call, why, sizeof why);
        pthread_mutex_unlock(&lock);
        FAIL(call, p, file, line, why);
    }
    check_live(call, p, table[slot], file, line);
    return slot;
}

/* ---- allocation ------------------------------------------------------- */

static void stats_add(size_t size)
{
    stats.allocated_bytes += size;
    stats.allocated_objects++;
    stats.live_bytes += size;
    stats.live_objects++;
    if (stats.live_bytes > stats.live_bytes_max) stats.live_bytes_max = stats.live_bytes;
    if (stats.live_objects > stats.live_objects_max) stats.live_objects_max = stats.live_objects;
}

static void *block_alloc(size_t size, int zero, const char *file, int line)
{
    struct block *b;
    if (size > SIZE_MAX - OVERHEAD) {
        errno = ENOMEM;
        return NULL;
    }
    b = (struct block *)malloc(OVERHEAD + size);
    if (!b) return NULL;
    b->size = size;
    b->file = file;
    b->line = line;
    b->free_file = NULL;
    b->free_line = 0;
    b->check = header_sum(b, STATE_LIVE);
    memset((unsigned char *)(b + 1), GUARD_BYTE, HEADER_SIZE - sizeof *b);
    memset(user_of(b), zero ? 0 : FRESH_FILL, size);
    memset(user_of(b) + size, GUARD_BYTE, TAIL_GUARD);
    pthread_mutex_lock(&lock);
    if (!table_insert(b)) {
        pthread_mutex_unlock(&lock);
        free(b);
        errno = ENOMEM;
        return NULL;
    }
    stats_add(size);
    pthread_mutex_unlock(&lock);
    return user_of(b);
}

void *gasneti_debug_malloc(size_t size, const char *file, int line)
{
    return block_alloc(size, 0, file, line);
}

void *gasneti_debug_calloc(size_t n, size_t size, const char *file, int line)
{
    if (size && n > SIZE_MAX / size) {
        errno = ENOMEM;
        return NULL;
    }
    return block_alloc(n * size, 1, file, line);
}

char *gasneti_debug_strdup(const char *s, const char *file, int line)
{
    size_t len = strlen(s);
    char *copy = (char *)block_alloc(len + 1, 0, file, line);
    if (copy) memcpy(copy, s, len + 1);
    return copy;
}

char *gasneti_debug_strndup(const char *s, size_t n, const char *file, int line)
{
    size_t len = strnlen(s, n);
    char *copy = (char *)block_alloc(len + 1, 0, file, line);
    if (copy) {
        memcpy(copy, s, len);
        copy[len] = '\0';
    }
    return copy;
}

void gasneti_debug_free(void *p, const char *file, int line)
{
    struct block *b, *oldest = NULL;
    char why[512];
    size_t slot;

    if (!p) return;
    pthread_mutex_lock(&lock);
    slot = checked_lookup(free_call, p, file, line);
    b = table[slot];
    table_remove(slot);
    stats.freed_bytes += b->size;
    stats.freed_objects++;
    stats.live_bytes -= b->size;
    stats.live_objects--;

    b->free_file = file;
    b->free_line = line;
    b->check = header_sum(b, STATE_FREED);
    memset(user_of(b), FREED_FILL, b->size);
    /* The oldest blocks leave to make room, checked for writes after free
     * (a block larger than the quarantine's byte bound is held alone). */
    while (q_count == QUARANTINE_BLOCKS || (q_count > 0 && q_bytes + b->size > QUARANTINE_BYTES)) {
        oldest = quarantine[q_head];
        q_head = (q_head + 1) % QUARANTINE_BLOCKS;
        q_count--;
        q_bytes -= oldest->size;
        if (block_damaged(oldest, STATE_FREED, why, sizeof why)) {
            pthread_mutex_unlock(&lock);
            FAIL(free_call, p, file, line, why);
        }
        free(oldest);
    }
    quarantine[(q_head + q_count) % QUARANTINE_BLOCKS] = b;
    q_count++;
    q_bytes += b->size;
    pthread_mutex_unlock(&lock);
}

void *gasneti_debug_realloc(void *p, size_t size, const char *file, int line)
{
    size_t old;
    void *q;

    if (!p) return block_alloc(size, 0, file, line);
    pthread_mutex_lock(&lock);
    old = table[checked_lookup("gasnett_debug_realloc", p, file, line)]->size;
    pthread_mutex_unlock(&lock);
    q = block_alloc(size, 0, file, line);
    if (!q) return NULL; /* p stays valid, as with realloc */
    memcpy(q, p, old < size ? old : size);
    gasneti_debug_free(p, file, line);
    return q;
}

/* ---- checks the client asks for --------------------------------------- */

void gasneti_debug_memcheck(const void *p, const char *file, int line)
{
    pthread_mutex_lock(&lock);
    (void)checked_lookup("gasnett_debug_memcheck", p, file, line);
    pthread_mutex_unlock(&lock);
}

/* Checks the next live block in table order, round robin. */
void gasneti_debug_memcheck_one(const char *file, int line)
{
    size_t n;
    pthread_mutex_lock(&lock);
    for (n = 0; n < table_cap; n++) {
        check_cursor = (check_cursor + 1) % table_cap;
        if (table[check_cursor]) {
            struct block *b = table[check_cursor];
            check_live("gasnett_debug_memcheck_one", user_of(b), b, file, line);
            break;
        }
    }
    pthread_mutex_unlock(&lock);
}

/* Every live block, and every freed block still in quarantine. */
void gasneti_debug_memcheck_all(const char *file, int line)
{
    char why[512];
    size_t i;
    pthread_mutex_lock(&lock);
    for (i = 0; i < table_cap; i++) {
        if (table[i]) check_live("gasnett_debug_memcheck_all", user_of(table[i]), table[i], file, line);
    }
    for (i = 0; i < q_count; i++) {
        struct block *b = quarantine[(q_head + i) % QUARANTINE_BLOCKS];
        if (block_damaged(b, STATE_FREED, why, sizeof why)) {
            pthread_mutex_unlock(&lock);
            FAIL("gasnett_debug_memcheck_all", (void *)user_of(b), file, line, why);
        }
    }
    pthread_mutex_unlock(&lock);
}

int gasnett_getheapstats(gasnett_heapstats_t *pstat)
{
    if (!pstat) gasnett_fatalerror("gasnett_getheapstats(NULL): needs a gasnett_heapstats_t to fill in");
    pthread_mutex_lock(&lock);
    *pstat = stats;
    pstat->overhead_bytes = stats.live_objects * OVERHEAD + q_count * OVERHEAD + q_bytes +
                            table_cap * sizeof *table;
    pthread_mutex_unlock(&lock);
    return 0;
}

/* ---- the plain (libc) side ---------------------------------------------- */

char *gasneti_libc_strdup(const char *s)
{
    return strdup(s);
}

char *gasneti_libc_strndup(const char *s, size_t n)
{
    return strndup(s, n);
}
