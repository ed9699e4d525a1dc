/* Helpers for the GASNet-EX conformance tests (tests/ex_*.c). They include
 * gasnetex.h only (an EX client needs nothing else, spec §7.3), except
 * where a test defines EX_TEST_LEGACY first to mix in gasnet.h.
 *
 * The tests are written from the spec (../shared/spec/gasnet-ex-api.md,
 * "§n" below), not from the implementation: a check states what the spec
 * promises. A failed check prints "FAIL node N file:line: condition:
 * detail" and ends the job with status 1.
 */
#ifndef EX_TEST_H
#define EX_TEST_H

#ifdef EX_TEST_LEGACY
#include <gasnet.h>
#else
#include <gasnetex.h>
#endif

#include <sched.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define EX_NELEM(a) (sizeof(a) / sizeof((a)[0]))

static inline void ex_fail(const char *file, int line, const char *cond, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "FAIL node %u %s:%d: %s: ", (unsigned)gex_System_QueryJobRank(), file, line, cond);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n");
    fflush(stderr);
    gasnet_exit(1);
}

#define CHECK(cond, ...)                                                      \
    do {                                                                      \
        if (!(cond)) ex_fail(__FILE__, __LINE__, #cond, __VA_ARGS__);          \
    } while (0)
#define CHECK_OK(call)                                                        \
    do {                                                                      \
        int rc_ = (call);                                                     \
        CHECK(rc_ == GASNET_OK, "%s returned %d (%s)", #call, rc_, gasnet_ErrorName(rc_)); \
    } while (0)

/* Printed by jobrank 0 only. */
#define MSG0(...)                                                     \
    do {                                                              \
        if (gex_System_QueryJobRank() == 0) {                         \
            printf(__VA_ARGS__);                                      \
            printf("\n");                                             \
            fflush(stdout);                                           \
        }                                                             \
    } while (0)

/* A barrier over tm with the EX collective (§12.2). */
static inline void ex_barrier(gex_TM_t tm)
{
    gex_Event_Wait(gex_Coll_BarrierNB(tm, 0));
}

/* Sleeps for about ms milliseconds without calling GASNet. */
static inline void ex_sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* The objects every test works on. */
typedef struct {
    gex_Client_t client;
    gex_EP_t ep;
    gex_TM_t tm;
    gex_Segment_t seg;
    gex_Rank_t me, n;
} ex_ctx_t;

/* gex_Client_Init (NULL argc/argv when argc is NULL) with the given name
 * and flags; no segment yet. */
static inline void ex_init(ex_ctx_t *c, const char *name, int *argc, char ***argv, gex_Flags_t flags)
{
    memset(c, 0, sizeof *c);
    int rc = gex_Client_Init(&c->client, &c->ep, &c->tm, name, argc, argv, flags);
    if (rc != GASNET_OK) {
        fprintf(stderr, "FAIL: gex_Client_Init returned %d\n", rc);
        exit(1);
    }
    c->me = gex_TM_QueryRank(c->tm);
    c->n = gex_TM_QuerySize(c->tm);
}

/* Attaches a segment of at least size bytes (rounded up to pages). */
static inline void ex_attach(ex_ctx_t *c, uintptr_t size)
{
    size = (size + GASNET_PAGESIZE - 1) / GASNET_PAGESIZE * GASNET_PAGESIZE;
    CHECK_OK(gex_Segment_Attach(&c->seg, c->tm, size));
    CHECK(c->seg != GEX_SEGMENT_INVALID, "gex_Segment_Attach gave no segment");
}

static inline void ex_start(ex_ctx_t *c, const char *name, int *argc, char ***argv, uintptr_t segsize)
{
    ex_init(c, name, argc, argv, 0);
    ex_attach(c, segsize);
}

/* Address of rank r's segment in tm (in r's address space), and its size. */
static inline void *ex_peer_seg(gex_TM_t tm, gex_Rank_t r, uintptr_t *size)
{
    void *owner = NULL;
    uintptr_t sz = 0;
    CHECK(gex_Segment_QueryBound(tm, r, &owner, NULL, &sz) == 0, "rank %u has no bound segment", r);
    if (size) *size = sz;
    return owner;
}

/* Data patterns: byte i of pattern `seed`. */
static inline unsigned char ex_byte(size_t i, unsigned seed)
{
    return (unsigned char)((i * 131u + seed * 7u + (i >> 8) * 13u + 1) & 0xff);
}
static inline void ex_fill(void *p, size_t n, unsigned seed)
{
    for (size_t i = 0; i < n; i++) ((unsigned char *)p)[i] = ex_byte(i, seed);
}
/* Index of the first byte that differs from the pattern, or n. */
static inline size_t ex_verify(const void *p, size_t n, unsigned seed)
{
    for (size_t i = 0; i < n; i++)
        if (((const unsigned char *)p)[i] != ex_byte(i, seed)) return i;
    return n;
}

#endif
