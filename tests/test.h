/* Helpers for the GASNet client tests: checks that name the node and end
 * the job with status 1, start-up, and data patterns. Tests use only the
 * public API. */
#ifndef TEST_H
#define TEST_H

#include <gasnet.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static inline void test_fail(const char *file, int line, const char *cond, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "FAIL node %u %s:%d: %s: ", gasnet_mynode(), file, line, cond);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n");
    fflush(stderr);
    gasnet_exit(1);
}

#define CHECK(cond, ...)                                                        \
    do {                                                                        \
        if (!(cond)) test_fail(__FILE__, __LINE__, #cond, __VA_ARGS__);          \
    } while (0)
#define CHECK_OK(call)                                                          \
    do {                                                                        \
        int rc_ = (call);                                                       \
        CHECK(rc_ == GASNET_OK, "%s returned %s", #call, gasnet_ErrorName(rc_)); \
    } while (0)

/* Printed by node 0 only. */
#define MSG0(...)                                            \
    do {                                                     \
        if (gasnet_mynode() == 0) {                          \
            printf(__VA_ARGS__);                             \
            printf("\n");                                    \
            fflush(stdout);                                  \
        }                                                    \
    } while (0)

#define BARRIER()                                                        \
    do {                                                                 \
        gasnet_barrier_notify(0, GASNET_BARRIERFLAG_ANONYMOUS);          \
        CHECK_OK(gasnet_barrier_wait(0, GASNET_BARRIERFLAG_ANONYMOUS));  \
    } while (0)

/* Every node's segment, filled by test_start (kept here, reachable, for
 * the whole run). */
static gasnet_seginfo_t *test_segments;

/* gasnet_init, or the run fails. */
static inline void test_init(int *argc, char ***argv)
{
    if (gasnet_init(argc, argv) != GASNET_OK) {
        fprintf(stderr, "FAIL: gasnet_init\n");
        exit(1);
    }
}

/* attach with a segment of segsize bytes (rounded to pages); returns every
 * node's segment. */
static inline gasnet_seginfo_t *test_attach(gasnet_handlerentry_t *table, int n, uintptr_t segsize)
{
    segsize = (segsize + GASNET_PAGESIZE - 1) / GASNET_PAGESIZE * GASNET_PAGESIZE;
    CHECK_OK(gasnet_attach(table, n, segsize, 0));
    test_segments = calloc(gasnet_nodes(), sizeof *test_segments);
    CHECK(test_segments != NULL, "out of memory");
    CHECK_OK(gasnet_getSegmentInfo(test_segments, (int)gasnet_nodes()));
    return test_segments;
}

/* init + attach */
static inline gasnet_seginfo_t *test_start(int *argc, char ***argv, gasnet_handlerentry_t *table,
                                           int n, uintptr_t segsize)
{
    test_init(argc, argv);
    return test_attach(table, n, segsize);
}

static inline unsigned char test_byte(size_t i, unsigned seed)
{
    return (unsigned char)((i * 131u + seed * 7u + (i >> 8) * 13u) & 0xff);
}

static inline void test_fill(void *p, size_t n, unsigned seed)
{
    for (size_t i = 0; i < n; i++) ((unsigned char *)p)[i] = test_byte(i, seed);
}

/* Index of the first byte that differs from the pattern, or n. */
static inline size_t test_verify(const void *p, size_t n, unsigned seed)
{
    for (size_t i = 0; i < n; i++)
        if (((const unsigned char *)p)[i] != test_byte(i, seed)) return i;
    return n;
}

static inline uint64_t test_checksum(const void *p, size_t n)
{
    const unsigned char *b = p;
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 1099511628211ull;
    return h;
}

#endif
