/* Shared by the libFuzzer harnesses (docs/fuzzing.md).
 *
 * The harnesses run the library's real parsers on bytes from the fuzzer:
 * MPI is started as a singleton (one process, no launcher), and a message
 * is handed to the library the way a peer's would reach it. A malformed
 * message must be rejected: by ammpi's error handler (the harnesses set
 * one that counts), or by gasneti_fatalerror, which the fuzz build links
 * to __wrap_gasneti_fatalerror below (-Wl,--wrap): it checks that the
 * message names the sender (node, or rank in a team) and returns to the harness through FUZZ_TRY. Any
 * crash, sanitizer report or failed FUZZ_CHECK is a finding. */
#ifndef FUZZ_H
#define FUZZ_H

#include <mpi.h>
#include "ammpi.h"
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define FUZZ_CHECK(cond, ...)                                                                  \
    do {                                                                                       \
        if (!(cond)) {                                                                         \
            fprintf(stderr, "fuzz check failed at %s:%d: ", __FILE__, __LINE__);               \
            fprintf(stderr, __VA_ARGS__);                                                      \
            fputc('\n', stderr);                                                               \
            abort();                                                                           \
        }                                                                                      \
    } while (0)

/* ---- fatal errors: an input may end in one (a rejected message) */

static jmp_buf fuzz_jmp;
static int fuzz_armed;
static long fuzz_fatals;
static char fuzz_last_fatal[1024];

/* FUZZ_TRY(stmt): runs stmt; 1 if it completed, 0 if it ended in a fatal
 * error. */
#define FUZZ_TRY(stmt) (fuzz_armed = 1, setjmp(fuzz_jmp) == 0 ? ((stmt), fuzz_armed = 0, 1) \
                                                              : (fuzz_armed = 0, 0))

void __wrap_gasneti_fatalerror(const char *fmt, ...) __attribute__((__noreturn__));
void __wrap_gasneti_fatalerror(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(fuzz_last_fatal, sizeof fuzz_last_fatal, fmt, ap);
    va_end(ap);
    if (!fuzz_armed) {
        fprintf(stderr, "fatal error outside a harness call: %s\n", fuzz_last_fatal);
        abort();
    }
    /* the library's rule for bad input from a peer: name the sender */
    FUZZ_CHECK(strstr(fuzz_last_fatal, "node") || strstr(fuzz_last_fatal, "rank"),
               "a fatal error that names no sender: %s", fuzz_last_fatal);
    fuzz_fatals++;
    if (getenv("FUZZ_VERBOSE")) fprintf(stderr, "rejected (fatal): %s\n", fuzz_last_fatal);
    longjmp(fuzz_jmp, 1);
}

/* ---- reading the input */

typedef struct {
    const uint8_t *p;
    size_t left;
} fuzz_in_t;

static inline uint64_t fuzz_take(fuzz_in_t *in, int bytes)
{
    uint64_t v = 0;
    for (int i = 0; i < bytes && in->left; i++, in->left--) v |= (uint64_t)*in->p++ << (8 * i);
    return v;
}

/* ---- memory at a fixed address, so that inputs can name it */

/* FUZZ_ARENA: an address the corpus may use (segments live there),
 * with a PROT_NONE page before and after the usable bytes. */
#define FUZZ_ARENA ((uintptr_t)0x200000000000ULL)
#define FUZZ_GUARD 4096
static inline char *fuzz_map_fixed(uintptr_t at, size_t size)
{
    char *lo = mmap((void *)(at - FUZZ_GUARD), size + 2 * FUZZ_GUARD, PROT_NONE,
                    MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
    FUZZ_CHECK(lo == (char *)(at - FUZZ_GUARD), "cannot map %zu bytes at %#lx", size,
               (unsigned long)at);
    FUZZ_CHECK(mprotect(lo + FUZZ_GUARD, size, PROT_READ | PROT_WRITE) == 0, "mprotect");
    return lo + FUZZ_GUARD;
}

/* For harnesses over GASNet: ammpi's rejections (the core's handler would
 * end the job) are counted instead; ammpi then drops the message. */
static long fuzz_rejections;
static inline void fuzz_count_rejection(ammpi_ep_t *ep, int src, const char *what)
{
    (void)ep;
    FUZZ_CHECK(src == 0 && what && strstr(what, "node"), "rejection from %d: %s", src, what);
    if (getenv("FUZZ_VERBOSE")) fprintf(stderr, "rejected: %s\n", what);
    fuzz_rejections++;
}

static inline void fuzz_mpi_init(void)
{
    int ready = 0;
    MPI_Initialized(&ready);
    if (!ready) MPI_Init(NULL, NULL);
}

#endif
