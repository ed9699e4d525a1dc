/* gasnet_tools_client: gasnet_tools.h included after gasnet.h by a GASNet
 * client (SEQ and PAR builds): the thread model and macros the client's
 * mode gives, and the tools' hooks into the core: the job-wide environment
 * and GASNET_VERBOSEENV reporting on node 0 only.
 * Run with GASNET_VERBOSEENV=1 and GASNET_TB_JOBWIDE=fromlaunch. */
#include "test.h"

#include <gasnet_tools.h>

#include <unistd.h>

#if defined(GASNET_SEQ)
#if GASNETT_MAX_THREADS != 1 || defined(GASNETT_THREAD_SAFE)
#error "GASNET_SEQ: GASNETT_MAX_THREADS 1, GASNETT_THREAD_SAFE undefined"
#endif
#else
#if GASNETT_MAX_THREADS != 256 || GASNETT_THREAD_SAFE != 1
#error "GASNET_PAR/PARSYNC: GASNETT_MAX_THREADS 256, GASNETT_THREAD_SAFE 1"
#endif
_Static_assert(sizeof(gasnett_mutex_t) == sizeof(pthread_mutex_t), "real locks");
#endif
#ifndef HAVE_MMAP
#error "HAVE_MMAP must come with gasnet.h"
#endif

/* Runs fn with stderr going to a file; returns what it wrote (malloc'ed). */
static char *capture_stderr(void (*fn)(void))
{
    FILE *tmp = tmpfile();
    int saved;
    long len;
    char *out;

    CHECK(tmp != NULL, "tmpfile");
    fflush(stderr);
    saved = dup(STDERR_FILENO);
    CHECK(saved >= 0 && dup2(fileno(tmp), STDERR_FILENO) >= 0, "dup2");
    fn();
    fflush(stderr);
    CHECK(dup2(saved, STDERR_FILENO) >= 0, "dup2 back");
    close(saved);
    len = (long)lseek(fileno(tmp), 0, SEEK_END);
    out = (char *)malloc((size_t)len + 1);
    CHECK(out != NULL && pread(fileno(tmp), out, (size_t)len, 0) == len, "read back");
    out[len] = '\0';
    fclose(tmp);
    return out;
}

static void query_size(void)
{
    CHECK(gasnett_getenv_int_withdefault("GASNET_TB_CLIENT_SIZE", 4096, 1) == 4096, "default");
}

int main(int argc, char **argv)
{
    char *out, *p;
    int verbose;

    test_start(&argc, &argv, NULL, 0, GASNET_PAGESIZE);

    /* After gasnet_init the core answers: verbose on node 0 only. */
    verbose = gasnett_verboseenv();
    CHECK((verbose > 0) == (gasnet_mynode() == 0), "gasnett_verboseenv() = %d", verbose);

    /* gasnett_getenv asks the job-wide snapshot first, then this process. */
    gasnett_unsetenv("GASNET_TB_JOBWIDE");
    p = gasnett_getenv("GASNET_TB_JOBWIDE");
    CHECK(p && !strcmp(p, "fromlaunch"), "GASNET_TB_JOBWIDE is %s", p ? p : "unset");
    gasnett_setenv("GASNET_TB_LOCAL", "here");
    p = gasnett_getenv("GASNET_TB_LOCAL");
    CHECK(p && !strcmp(p, "here"), "GASNET_TB_LOCAL is %s", p ? p : "unset");

    /* Settings are reported by node 0, once. */
    out = capture_stderr(query_size);
    if (gasnet_mynode() == 0)
        CHECK(!strcmp(out, "ENV parameter: GASNET_TB_CLIENT_SIZE = 4 KB   (default)\n"), "report: %s", out);
    else
        CHECK(!strcmp(out, ""), "node %u reported: %s", gasnet_mynode(), out);
    free(out);
    out = capture_stderr(query_size);
    CHECK(!strcmp(out, ""), "reported twice: %s", out);
    free(out);

    {
        char *m = (char *)gasnett_mmap(2 * GASNETT_PAGESIZE);
        CHECK((uintptr_t)m % GASNETT_PAGESIZE == 0 && m[GASNETT_PAGESIZE] == 0, "gasnett_mmap");
    }

    BARRIER();
    MSG0("gasnet_tools_client: OK");
    gasnet_exit(0);
    return 0;
}
