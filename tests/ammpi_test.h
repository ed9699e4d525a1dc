/* Helpers for the ammpi transport tests: checks that name the rank and
 * end the whole job with a non-zero status. */
#ifndef AMMPI_TEST_H
#define AMMPI_TEST_H

#include "ammpi.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int test_rank = -1;

#define CHECK(cond, ...)                                                           \
    do {                                                                           \
        if (!(cond)) {                                                             \
            fprintf(stderr, "FAIL rank %d %s:%d: %s: ", test_rank, __FILE__, __LINE__, \
                    #cond);                                                        \
            fprintf(stderr, __VA_ARGS__);                                          \
            fprintf(stderr, "\n");                                                 \
            fflush(stderr);                                                        \
            MPI_Abort(MPI_COMM_WORLD, 1);                                          \
        }                                                                          \
    } while (0)

#define CHECK_OK(call) CHECK((call) == AMMPI_OK, "%s", #call)

/* Polls until *flag reaches target. */
static inline void wait_until(ammpi_ep_t *ep, volatile long *flag, long target)
{
    int idle = 0;
    while (*flag < target) ammpi_poll_wait(ep, &idle);
}

/* A byte pattern that depends on the offset and a seed. */
static inline unsigned char pattern(size_t i, unsigned seed)
{
    return (unsigned char)((i * 131u + seed * 7u + (i >> 8)) & 0xff);
}

static inline uint64_t checksum(const void *p, size_t n)
{
    const unsigned char *b = p;
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 1099511628211ull;
    return h;
}

static inline ammpi_ep_t *test_open(int *argc, char ***argv)
{
    MPI_Init(argc, argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &test_rank);
    ammpi_ep_t *ep;
    CHECK_OK(ammpi_open(&ep, MPI_COMM_WORLD, NULL));
    return ep;
}

static inline void test_close(ammpi_ep_t *ep, const char *name)
{
    CHECK_OK(ammpi_close(ep));
    if (test_rank == 0) printf("%s: ok\n", name);
    MPI_Finalize();
}

#endif
