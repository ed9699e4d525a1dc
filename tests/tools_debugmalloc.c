/* tools_debugmalloc: the checked allocator behind gasnett_debug_*, chosen
 * here with GASNET_DEBUGMALLOC=1 so that every flavour (ASan and TSan
 * included) tests it. Built SEQ and PAR like tools_basic.
 *
 *   tools_debugmalloc                  every check; prints "tools_debugmalloc: OK"
 *   tools_debugmalloc overrun          dies: a byte written past a block's end
 *   tools_debugmalloc underrun         dies: a byte written before its start
 *   tools_debugmalloc header           dies: a write further before it, into the header
 *   tools_debugmalloc double-free      dies: a block freed twice
 *   tools_debugmalloc bad-free         dies: a pointer the allocator never gave
 *   tools_debugmalloc use-after-free   dies: a freed block written, then checked
 *   tools_debugmalloc realloc-freed    dies: a freed block passed to realloc
 */
#define GASNET_DEBUGMALLOC 1
#include <gasnet_tools.h>

#if defined(GASNETT_THREAD_SAFE)
#include <pthread.h>
#endif

#if GASNET_DEBUGMALLOC != 1
#error "a client's GASNET_DEBUGMALLOC=1 must select the checked allocator"
#endif

#define CHECK(cond)                                                                  \
    do {                                                                             \
        if (!(cond)) {                                                               \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
            exit(1);                                                                 \
        }                                                                            \
    } while (0)

static gasnett_heapstats_t stats(void)
{
    gasnett_heapstats_t s;
    CHECK(gasnett_getheapstats(&s) == 0);
    return s;
}

static int all_bytes(const unsigned char *p, size_t n, unsigned char v)
{
    size_t i;
    for (i = 0; i < n; i++) {
        if (p[i] != v) return 0;
    }
    return 1;
}

/* Statistics follow each call exactly (nothing else allocates here). */
static void check_stats(void)
{
    gasnett_heapstats_t s0 = stats(), s;
    char *a = (char *)gasnett_debug_malloc(100);
    char *b = (char *)gasnett_debug_calloc(5, 4);
    char *c = gasnett_debug_strndup("abcdef", 10);
    char *d = (char *)gasnett_debug_malloc(0);

    CHECK(a && b && c && d && d != a);
    CHECK(((uintptr_t)a | (uintptr_t)b | (uintptr_t)c | (uintptr_t)d) % _Alignof(max_align_t) == 0);
    CHECK(all_bytes((unsigned char *)b, 20, 0));
    CHECK(strcmp(c, "abcdef") == 0);
    memset(a, 'a', 100);
    s = stats();
    CHECK(s.allocated_objects - s0.allocated_objects == 4 && s.live_objects - s0.live_objects == 4);
    CHECK(s.allocated_bytes - s0.allocated_bytes == 100 + 20 + 7 + 0);
    CHECK(s.live_bytes - s0.live_bytes == 127 && s.live_bytes_max >= s.live_bytes);
    CHECK(s.live_objects_max >= s.live_objects && s.overhead_bytes > s0.overhead_bytes);

    a = (char *)gasnett_debug_realloc(a, 50); /* shrinks: keeps the first 50 */
    CHECK(a && all_bytes((unsigned char *)a, 50, 'a'));
    a = (char *)gasnett_debug_realloc(a, 200); /* grows: keeps them */
    CHECK(a && all_bytes((unsigned char *)a, 50, 'a'));
    s = stats();
    CHECK(s.allocated_objects - s0.allocated_objects == 6 && s.freed_objects - s0.freed_objects == 2);
    CHECK(s.live_bytes - s0.live_bytes == 200 + 20 + 7);
    CHECK(s.live_bytes_max - s0.live_bytes == 250 + 20 + 7); /* while the 200 copied the 50 */

    gasnett_debug_memcheck(a);
    gasnett_debug_memcheck(d);
    gasnett_debug_memcheck_one();
    gasnett_debug_memcheck_all();
    gasnett_debug_free(a);
    gasnett_debug_free(b);
    gasnett_debug_free(c);
    gasnett_debug_free(d);
    gasnett_debug_free(NULL);
    s = stats();
    CHECK(s.live_objects == s0.live_objects && s.live_bytes == s0.live_bytes);
    CHECK(s.freed_bytes - s0.freed_bytes == s.allocated_bytes - s0.allocated_bytes);

    /* Sizes that cannot be had give NULL, as from libc. */
    CHECK(gasnett_debug_malloc(SIZE_MAX) == NULL);
    CHECK(gasnett_debug_calloc(SIZE_MAX / 2, 3) == NULL);
    CHECK(gasnett_debug_realloc(NULL, SIZE_MAX - 8) == NULL);
    s = stats();
    CHECK(s.live_objects == s0.live_objects);
}

/* Many blocks at once (the live-block table grows), freed in an order
 * unlike their allocation (it deletes from the middle of probe runs), and
 * more frees than the quarantine holds (old freed blocks leave it). */
static void check_many(void)
{
    enum { N = 5000 };
    static unsigned char *blocks[N];
    gasnett_heapstats_t s0 = stats(), s;
    int i;
    for (i = 0; i < N; i++) {
        size_t n = (size_t)(i % 37);
        blocks[i] = (unsigned char *)gasnett_debug_malloc(n);
        CHECK(blocks[i] != NULL);
        memset(blocks[i], i & 0xff, n);
    }
    for (i = 0; i < N; i += 2) gasnett_debug_free(blocks[i]);
    gasnett_debug_memcheck_all();
    for (i = 1; i < N; i += 2) {
        CHECK(all_bytes(blocks[i], (size_t)(i % 37), (unsigned char)(i & 0xff)));
        gasnett_debug_memcheck(blocks[i]);
        gasnett_debug_free(blocks[i]);
    }
    for (i = 0; i < 10; i++) gasnett_debug_memcheck_one();
    gasnett_debug_memcheck_all();
    s = stats();
    CHECK(s.live_objects == s0.live_objects && s.freed_objects - s0.freed_objects == N);

    /* A block larger than the quarantine's byte bound. */
    blocks[0] = (unsigned char *)gasnett_debug_malloc((size_t)8 << 20);
    CHECK(blocks[0] != NULL);
    gasnett_debug_free(blocks[0]);
    gasnett_debug_memcheck_all();
}

#if defined(GASNETT_THREAD_SAFE)
#define NTHREADS 4
#define NROUNDS 2000

static void *alloc_thread(void *arg)
{
    unsigned char tag = (unsigned char)(uintptr_t)arg;
    unsigned char *keep[8] = {NULL};
    int i;
    for (i = 0; i < NROUNDS; i++) {
        size_t n = (size_t)(i % 61);
        unsigned char **slot = &keep[i % 8];
        if (*slot) {
            CHECK(all_bytes(*slot, (size_t)((i - 8) % 61), tag));
            gasnett_debug_free(*slot);
        }
        *slot = (unsigned char *)gasnett_debug_malloc(n);
        CHECK(*slot != NULL);
        memset(*slot, tag, n);
        if (i % 100 == 0) gasnett_debug_memcheck_one();
    }
    for (i = 0; i < 8; i++) gasnett_debug_free(keep[i]);
    return NULL;
}

/* Threads allocating and freeing at once: every block keeps its contents
 * and the statistics add up. */
static void check_threads(void)
{
    pthread_t th[NTHREADS];
    gasnett_heapstats_t s0 = stats(), s;
    uintptr_t i;
    for (i = 0; i < NTHREADS; i++) CHECK(pthread_create(&th[i], NULL, alloc_thread, (void *)(i + 1)) == 0);
    for (i = 0; i < NTHREADS; i++) CHECK(pthread_join(th[i], NULL) == 0);
    gasnett_debug_memcheck_all();
    s = stats();
    CHECK(s.allocated_objects - s0.allocated_objects == NTHREADS * NROUNDS);
    CHECK(s.freed_objects - s0.freed_objects == NTHREADS * NROUNDS);
    CHECK(s.live_objects == s0.live_objects && s.live_bytes == s0.live_bytes);
}
#endif

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    char *p = (char *)gasnett_debug_malloc(10);
    CHECK(p != NULL);

    if (!strcmp(mode, "overrun")) {
        p[10] = 'x';
        gasnett_debug_free(p);
    } else if (!strcmp(mode, "underrun")) {
        p[-1] = 'x';
        gasnett_debug_memcheck(p);
    } else if (!strcmp(mode, "header")) {
        p[-40] = 'x'; /* inside the 64-byte header on LP64, before its guard bytes */
        gasnett_debug_free(p);
    } else if (!strcmp(mode, "double-free")) {
        gasnett_debug_free(p);
        gasnett_debug_free(p);
    } else if (!strcmp(mode, "bad-free")) {
        char on_stack[16];
        gasnett_debug_free(on_stack + 8);
    } else if (!strcmp(mode, "use-after-free")) {
        gasnett_debug_free(p);
        p[3] = 'x'; /* still held in quarantine, so no other block is hurt */
        gasnett_debug_memcheck_all();
    } else if (!strcmp(mode, "realloc-freed")) {
        gasnett_debug_free(p);
        p = (char *)gasnett_debug_realloc(p, 20);
    } else if (!*mode) {
        gasnett_debug_free(p);
        check_stats();
        check_many();
#if defined(GASNETT_THREAD_SAFE)
        check_threads();
#endif
        printf("tools_debugmalloc: OK\n");
        return 0;
    } else {
        fprintf(stderr, "usage: %s [overrun|underrun|header|double-free|bad-free|use-after-free|realloc-freed]\n",
                argv[0]);
        return 2;
    }
    fprintf(stderr, "tools_debugmalloc: %s was not caught\n", mode);
    return 1;
}
