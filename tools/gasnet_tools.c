/* gasnet_tools.c: the out-of-line half of gasnet_tools.h.
 *
 * One source, five builds: libgasnet_tools-seq.a, libgasnet_tools-par.a
 * (GASNETT_THREAD_SAFE), and inside libgasnet-mpi-{seq,par,parsync}.a with
 * GASNET_SEQ/PAR/PARSYNC on the command line but no gasnet.h. Nothing here
 * depends on the thread model: the library's own shared state is guarded
 * with pthread objects or atomics in every build, so a client of any model
 * may use any of the libraries.
 *
 * Hooks for libgasnet's core (declared in gasnet_tools_internal.h). The core
 * sets the two pointers at gasnet_init, before the client starts threads:
 *
 *   char *(*gasneti_tools_getenv_hook)(const char *name);
 *       If set, gasnett_getenv asks it first (the job-wide environment
 *       snapshot); a NULL answer falls back to the process getenv, which
 *       sees gasnett_setenv.
 *   int (*gasneti_tools_verboseenv_hook)(void);
 *       If set, gasnett_verboseenv() returns its answer (-1 before init,
 *       non-zero on node 0 when GASNET_VERBOSEENV is set). Unset (tools-only
 *       programs): verbose iff GASNET_VERBOSEENV is set to something other
 *       than empty, 0, N or NO.
 *   void gasneti_envdisplay(const char *key, const char *value, int is_default);
 *       Prints "ENV parameter: KEY = value" (plus "   (default)") on stderr
 *       when gasnett_verboseenv() > 0, once per key. Every
 *       gasnett_getenv_*_withdefault reports through it, and the core calls
 *       it for its own settings, so each setting read is shown once with
 *       its value and whether it was the default. Keys seen while
 *       gasnett_verboseenv() is -1 (libgasnet before gasnet_init: the
 *       library returns -1 itself there until the hook is set) are kept
 *       and printed, in order, with the first report after init.
 *
 * gasnett_fatalerror prints "*** FATAL ERROR: <msg>", then honours
 * GASNET_FREEZE_ON_ERROR and GASNET_BACKTRACE, then calls abort().
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1 /* CPU_SET, sched_setaffinity */
#endif
#define GASNETI_BUILDING_TOOLS 1 /* GASNET_SEQ etc. without gasnet.h is fine here */
#include "gasnet_tools.h"
#include "gasnet_tools_internal.h"

#include <execinfo.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <strings.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>

char *(*gasneti_tools_getenv_hook)(const char *name) = NULL;
int (*gasneti_tools_verboseenv_hook)(void) = NULL;

/* ---- timers ---------------------------------------------------------- */

/* The tools library's ident strings, as a real install's (core-mpi/ident.c
 * has the GASNet library's): ident(1) and strings(1) find them in a client. */
__attribute__((used)) const char *const gasnett_idents[] = {
    "$GASNetToolsConfig: " GASNETT_CONFIG_STRING " $",
    "$GASNetToolsThreadModel: " GASNETI_THREAD_MODEL_STR " $", NULL};

static pthread_once_t tick_once = PTHREAD_ONCE_INIT;
static double tick_granularity_ns, tick_overhead_ns;

static void tick_calibrate(void)
{
    gasneti_ticks_calibrate(&tick_granularity_ns, &tick_overhead_ns);
}

double gasnett_tick_granularityus(void)
{
    pthread_once(&tick_once, tick_calibrate);
    return tick_granularity_ns / 1000.0;
}

double gasnett_tick_overheadus(void)
{
    pthread_once(&tick_once, tick_calibrate);
    return tick_overhead_ns / 1000.0;
}

/* gasnett_ticks_now() for clients compiled where CLOCK_MONOTONIC is hidden. */
gasnett_tick_t gasneti_ticks_now_lib(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (gasnett_tick_t)ts.tv_sec * 1000000000u + (gasnett_tick_t)ts.tv_nsec;
}

uint64_t gasnett_gettimeofday_us(void)
{
    struct timeval tv;
    gettimeofday(&tv, NULL);
    return (uint64_t)tv.tv_sec * 1000000u + (uint64_t)tv.tv_usec;
}

/* An absolute deadline on the clock gasnett_ticks_now() reads, so a sleep
 * cut short by a signal resumes for what is left and never ends early. */
int gasnett_nsleep(uint64_t ns)
{
    struct timespec until;
    uint64_t sec = ns / 1000000000u;
    int rc;

    if (clock_gettime(CLOCK_MONOTONIC, &until) != 0) return -1;
    /* Clamped to 2^31 s (68 years), which no time_t sum can overflow. */
    if (sec > (uint64_t)INT32_MAX) sec = (uint64_t)INT32_MAX;
    until.tv_sec += (time_t)sec;
    until.tv_nsec += (long)(ns % 1000000000u);
    if (until.tv_nsec >= 1000000000L) {
        until.tv_sec++;
        until.tv_nsec -= 1000000000L;
    }
    while ((rc = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &until, NULL)) == EINTR) {
    }
    if (rc) {
        errno = rc;
        return -1;
    }
    return 0;
}

/* ---- fatal errors, freezing ------------------------------------------ */

volatile int gasneti_frozen = 0;
static int fatal_depth;

static void vfatalerror(const char *fmt, va_list ap) GASNETT_NORETURN;
static void vfatalerror(const char *fmt, va_list ap)
{
    char msg[2048];
    size_t len;

    vsnprintf(msg, sizeof msg, fmt, ap);
    len = strlen(msg);
    fflush(stdout);
    fprintf(stderr, "*** FATAL ERROR: %s%s", msg, len && msg[len - 1] == '\n' ? "" : "\n");
    fflush(stderr);
    /* Freezing and backtracing read settings, and a bad setting is itself
     * fatal: only the first fatal error does them. */
    if (__atomic_fetch_add(&fatal_depth, 1, __ATOMIC_SEQ_CST) == 0) {
        gasnett_freezeForDebuggerErr();
        gasnett_print_backtrace_ifenabled(STDERR_FILENO);
    }
    abort();
}

void gasnett_fatalerror(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfatalerror(fmt, ap);
}

/* Our messages carry no source position, so both names print the same. */
void gasnett_fatalerror_nopos(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfatalerror(fmt, ap);
}

/* The flag a frozen process waits on; SIGCONT clears it (the reference's
 * way to unfreeze without a debugger: kill -CONT PID). */
static volatile int *volatile freeze_flag;

static void unfreeze_on_sigcont(int sig)
{
    (void)sig;
    if (freeze_flag) *freeze_flag = 0;
}

/* Waits until a debugger (or SIGCONT) clears *flag. The SIGCONT handler
 * is installed only for the wait, and the previous one put back after;
 * sleep() returns early when the signal arrives. */
void gasnett_freezeForDebuggerNow(volatile int *flag, const char *flagname)
{
    struct sigaction sa, old;
    int pid = (int)getpid();
    fprintf(stderr,
            "Process frozen for debugger: host=%s pid=%d\n"
            "To unfreeze, attach a debugger and set '%s' to 0 (gdb -p %d, then: "
            "set var *(int *)&%s = 0, detach), or send a SIGCONT (kill -CONT %d)\n",
            gasnett_gethostname(), pid, flagname, pid, flagname, pid);
    fflush(stderr);
    *flag = 1;
    freeze_flag = flag;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = unfreeze_on_sigcont;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGCONT, &sa, &old);
    while (*flag) sleep(1);
    sigaction(SIGCONT, &old, NULL);
    freeze_flag = NULL;
}

void gasnett_freezeForDebuggerErr(void)
{
    if (gasnett_getenv_yesno_withdefault("GASNET_FREEZE_ON_ERROR", 0))
        gasnett_freezeForDebuggerNow(&gasneti_frozen, "gasneti_frozen");
}

int gasneti_fatalerror_seen(void)
{
    return __atomic_load_n(&fatal_depth, __ATOMIC_SEQ_CST) != 0;
}

/* GASNET_QUIET: warnings and notices that change nothing are not printed.
 * Read once (libgasnet reads it again after init, from the job's
 * environment: gasneti_quiet_reset). */
static int quiet_cached = -1;

int gasneti_quiet(void)
{
    int q = __atomic_load_n(&quiet_cached, __ATOMIC_RELAXED);
    if (q < 0) {
        q = gasnett_getenv_yesno_withdefault("GASNET_QUIET", 0);
        __atomic_store_n(&quiet_cached, q, __ATOMIC_RELAXED);
    }
    return q;
}

void gasneti_quiet_reset(void)
{
    __atomic_store_n(&quiet_cached, -1, __ATOMIC_RELAXED);
    (void)gasneti_quiet();
}

void gasnett_killmyprocess(int exitcode)
{
    _exit(exitcode);
}

/* ---- miscellaneous ----------------------------------------------------- */

const char *gasnett_performance_warning_str(void)
{
    return ""
#if defined(GASNET_DEBUG)
           "        debugging\n"
#endif
#if defined(GASNET_TRACE)
           "        tracing\n"
#endif
#if defined(GASNET_STATS)
           "        statistical collection\n"
#endif
#if defined(GASNET_DEBUGMALLOC)
           "        debugging malloc\n"
#endif
        ;
}

int gasnett_cpu_count(void)
{
    static int cached = -1; /* a race only computes the same value twice */
    int n = __atomic_load_n(&cached, __ATOMIC_RELAXED);
    if (n < 0) {
        long c = sysconf(_SC_NPROCESSORS_ONLN);
        n = (c > 0 && c <= INT_MAX) ? (int)c : 0;
        __atomic_store_n(&cached, n, __ATOMIC_RELAXED);
    }
    return n;
}

static char hostname_buf[256];
static pthread_once_t hostname_once = PTHREAD_ONCE_INIT;

static void hostname_fill(void)
{
    if (gethostname(hostname_buf, sizeof hostname_buf - 1) != 0)
        gasnett_fatalerror("gasnett_gethostname: gethostname() failed: %s", strerror(errno));
    hostname_buf[sizeof hostname_buf - 1] = '\0';
}

const char *gasnett_gethostname(void)
{
    pthread_once(&hostname_once, hostname_fill);
    return hostname_buf;
}

gasneti_sighandlerfn_t gasnett_reghandler(int sigtocatch, gasneti_sighandlerfn_t fn)
{
    gasnett_sighandlerfn_t old = signal(sigtocatch, fn);
    if (old == SIG_ERR)
        gasnett_fatalerror("gasnett_reghandler: cannot install a handler for signal %d (%s): %s",
                           sigtocatch, strsignal(sigtocatch), strerror(errno));
    return old;
}

const char *gasnett_signame_fromval(int sigval)
{
#define SIG_NAME(s) {s, #s}
    static const struct {
        int val;
        const char *name;
    } sigs[] = {SIG_NAME(SIGHUP),  SIG_NAME(SIGINT),  SIG_NAME(SIGQUIT), SIG_NAME(SIGILL),  SIG_NAME(SIGTRAP),
                SIG_NAME(SIGABRT), SIG_NAME(SIGBUS),  SIG_NAME(SIGFPE),  SIG_NAME(SIGKILL), SIG_NAME(SIGUSR1),
                SIG_NAME(SIGSEGV), SIG_NAME(SIGUSR2), SIG_NAME(SIGPIPE), SIG_NAME(SIGALRM), SIG_NAME(SIGTERM),
                SIG_NAME(SIGCHLD), SIG_NAME(SIGCONT), SIG_NAME(SIGSTOP), SIG_NAME(SIGTSTP), SIG_NAME(SIGTTIN),
                SIG_NAME(SIGTTOU), SIG_NAME(SIGURG),  SIG_NAME(SIGXCPU), SIG_NAME(SIGXFSZ), SIG_NAME(SIGVTALRM),
                SIG_NAME(SIGPROF), SIG_NAME(SIGWINCH), SIG_NAME(SIGIO), SIG_NAME(SIGSYS)};
#undef SIG_NAME
    size_t i;
    for (i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
        if (sigs[i].val == sigval) return sigs[i].name;
    return NULL;
}

/* A CPU this process may not use leaves the mask as it was (-1). */
int gasnett_set_affinity(int rank)
{
    int ncpus = gasnett_cpu_count();
    cpu_set_t one;
    if (ncpus <= 0 || rank < 0) return -1;
    CPU_ZERO(&one);
    CPU_SET(rank % ncpus, &one);
    return sched_setaffinity(0, sizeof one, &one) == 0 ? 0 : -1; /* 0: the calling thread */
}

uint64_t gasnett_checksum(const void *p, int numbytes)
{
    const unsigned char *b = (const unsigned char *)p;
    uint64_t sum = 0;
    int i;
    for (i = 0; i < numbytes; i++) sum = ((sum << 8) | (sum >> 56)) ^ b[i];
    return sum;
}

size_t gasnett_count0s(const void *src, size_t bytes)
{
    const unsigned char *b = (const unsigned char *)src;
    size_t zeros = 0, i;
    for (i = 0; i < bytes; i++) zeros += (b[i] == 0);
    return zeros;
}

size_t gasnett_count0s_copy(void *GASNETT_RESTRICT dst, const void *GASNETT_RESTRICT src, size_t bytes)
{
    memcpy(dst, src, bytes);
    return gasnett_count0s(dst, bytes);
}

int gasnett_count0s_uint32_t(uint32_t v)
{
    int zeros = 0, i;
    for (i = 0; i < 4; i++) zeros += ((v >> (8 * i)) & 0xff) == 0;
    return zeros;
}

int gasnett_count0s_uint64_t(uint64_t v)
{
    return gasnett_count0s_uint32_t((uint32_t)v) + gasnett_count0s_uint32_t((uint32_t)(v >> 32));
}

#if defined(HAVE_MMAP)
void *gasnett_mmap(uintptr_t size)
{
    void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        gasnett_fatalerror("gasnett_mmap(%" PRIuPTR " bytes) failed: %s", size, strerror(errno));
    return p;
}
#endif

uint64_t gasnett_getPhysMemSz(int failureIsFatal)
{
    long pages = sysconf(_SC_PHYS_PAGES), pagesz = sysconf(_SC_PAGESIZE);
    if (pages <= 0 || pagesz <= 0) {
        if (failureIsFatal) gasnett_fatalerror("gasnett_getPhysMemSz: cannot determine the physical memory size");
        return 0;
    }
    return (uint64_t)pages * (uint64_t)pagesz;
}

int gasnett_isLittleEndian(void)
{
    const uint32_t one = 1;
    return *(const unsigned char *)&one == 1;
}

void gasnett_flush_streams(void)
{
    fflush(NULL);
}

void gasnett_close_streams(void)
{
    gasnett_flush_streams();
}

static char exe_name[4096];
static void exe_name_fill(void)
{
    ssize_t n = readlink("/proc/self/exe", exe_name, sizeof exe_name - 1);
    if (n > 0) exe_name[n] = '\0';
    else snprintf(exe_name, sizeof exe_name, "%s", program_invocation_name);
}
const char *gasnett_exe_name(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, exe_name_fill);
    return exe_name;
}

const char *gasneti_build_loc_str(const char *func, const char *file, int line)
{
    static __thread char loc[512];
    snprintf(loc, sizeof loc, "%s at %s:%d", func && *func ? func : "(unknown function)", file, line);
    return loc;
}

/* What every client's gasnett_linkconfig_idiotcheck refers to. */
int GASNETI_LINKCONFIG_SYMBOL = 1;

uint64_t gasnett_release_version(void)
{
    return (uint64_t)GASNET_RELEASE_VERSION_MAJOR * 1000000u + (uint64_t)GASNET_RELEASE_VERSION_MINOR * 10000u +
           (uint64_t)GASNET_RELEASE_VERSION_PATCH;
}

const char *gasnett_release_version_str(void)
{
    return _STRINGIFY(GASNET_RELEASE_VERSION_MAJOR) "." _STRINGIFY(GASNET_RELEASE_VERSION_MINOR) "." _STRINGIFY(
        GASNET_RELEASE_VERSION_PATCH);
}

int gasnett_maximize_rlimit(int resource, const char *lim_desc)
{
    struct rlimit lim;
    if (getrlimit(resource, &lim) != 0) {
        if (!gasneti_quiet())
            fprintf(stderr, "WARNING: gasnett_maximize_rlimit: getrlimit(%s) failed: %s\n",
                    lim_desc ? lim_desc : "?", strerror(errno));
        return 0;
    }
    if (lim.rlim_cur == lim.rlim_max) return 1;
    lim.rlim_cur = lim.rlim_max;
    if (setrlimit(resource, &lim) != 0) {
        if (!gasneti_quiet())
            fprintf(stderr, "WARNING: gasnett_maximize_rlimit: setrlimit(%s) to its hard limit failed: %s\n",
                    lim_desc ? lim_desc : "?", strerror(errno));
        return 0;
    }
    return 1;
}

/* Core files are left alone: raising their limit would only fill disks. */
int gasnett_maximize_rlimits(void)
{
    static const struct {
        int resource;
        const char *name;
    } limits[] = {{RLIMIT_CPU, "RLIMIT_CPU"},     {RLIMIT_DATA, "RLIMIT_DATA"},
                  {RLIMIT_RSS, "RLIMIT_RSS"},     {RLIMIT_STACK, "RLIMIT_STACK"},
                  {RLIMIT_AS, "RLIMIT_AS"},       {RLIMIT_NPROC, "RLIMIT_NPROC"},
                  {RLIMIT_NOFILE, "RLIMIT_NOFILE"}, {RLIMIT_MEMLOCK, "RLIMIT_MEMLOCK"}};
    int ok = 1;
    size_t i;
    for (i = 0; i < sizeof limits / sizeof limits[0]; i++)
        ok &= gasnett_maximize_rlimit(limits[i].resource, limits[i].name);
    return ok;
}

/* ---- numbers ---------------------------------------------------------- */

/* The one number parser: gasnett_parse_int (lenient, as the tools spec
 * has it: the rest after the number and its unit is ignored) and the
 * library's settings (strict: gasneti_parse_setting). Returns NULL and
 * sets *out, or says what is wrong. Strict: a count takes no fraction and
 * no unit; a size takes an optional unit letter, optionally followed by B
 * (16K, 16KB); nothing but spaces may follow. */
static const char *parse_number(const char *str, uint64_t mem_size_multiplier, int strict,
                                int64_t *out)
{
    const char *p = str;
    int neg = 0, hex = 0, digits = 0, fraction = 0;
    uint64_t whole = 0, fnum = 0, fden = 1, unit = 1, frac, total;

    *out = 0;
    if (!str || !*str) return NULL;
    while (isspace((unsigned char)*p)) p++;
    if (*p == '-' || *p == '+') neg = (*p++ == '-');
    while (isspace((unsigned char)*p)) p++;
    if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
        hex = 1;
        p += 2;
    }
    for (;; p++) {
        unsigned base = hex ? 16 : 10, d;
        if (isdigit((unsigned char)*p)) d = (unsigned)(*p - '0');
        else if (hex && isxdigit((unsigned char)*p)) d = (unsigned)(tolower((unsigned char)*p) - 'a' + 10);
        else break;
        if (whole > (UINT64_MAX - d) / base) return "is out of range for a 64-bit integer";
        whole = whole * base + d;
        digits++;
    }
    if (*p == '.') {
        if (hex) return "is not an integer: a hexadecimal number cannot have a fraction";
        fraction = 1;
        /* Nine digits keep the scaling below exact in 64 bits. */
        for (p++; isdigit((unsigned char)*p); p++, digits++) {
            if (fden < 1000000000u) {
                fnum = fnum * 10 + (uint64_t)(*p - '0');
                fden *= 10;
            }
        }
    }
    if (!digits) return "is not an integer";
    if (strict && fraction && !mem_size_multiplier) return "is not an integer: a count has no fraction";
    while (isspace((unsigned char)*p)) p++;
    if (mem_size_multiplier) {
        switch (toupper((unsigned char)*p)) {
        case 'T': unit = (uint64_t)1 << 40; break;
        case 'G': unit = (uint64_t)1 << 30; break;
        case 'M': unit = (uint64_t)1 << 20; break;
        case 'K': unit = (uint64_t)1 << 10; break;
        case 'B': unit = 1; break;
        default: unit = mem_size_multiplier; break;
        }
        if (strict && toupper((unsigned char)*p) != 'B' && unit != mem_size_multiplier) p++;
        if (strict && toupper((unsigned char)*p) == 'B') p++;
    }
    if (strict) {
        while (isspace((unsigned char)*p)) p++;
        if (*p)
            return mem_size_multiplier ? "is not a size: use a number with an optional unit "
                                         "(K, M, G or T, optionally followed by B)"
                                       : "is not an integer";
    }
    /* value * unit, the fraction's share truncated:
     * fnum * unit / fden = fnum * (unit / fden) + fnum * (unit % fden) / fden */
    if (unit / fden && fnum > (uint64_t)INT64_MAX / (unit / fden))
        return "is out of range for a 64-bit integer";
    frac = fnum * (unit / fden) + fnum * (unit % fden) / fden;
    if (whole > (uint64_t)INT64_MAX / unit) return "is out of range for a 64-bit integer";
    total = whole * unit;
    if (frac > (uint64_t)INT64_MAX - total) return "is out of range for a 64-bit integer";
    total += frac;
    *out = neg ? -(int64_t)total : (int64_t)total;
    return NULL;
}

/* `what` names the source in error messages (an environment variable) or
 * is NULL. */
static int64_t parse_int(const char *what, const char *str, uint64_t mem_size_multiplier)
{
    int64_t r;
    const char *why = parse_number(str, mem_size_multiplier, 0, &r);
    if (why)
        gasnett_fatalerror("%s%s'%s' %s", what ? what : "gasnett_parse_int: ", what ? "=" : "",
                           str, why);
    return r;
}

int64_t gasnett_parse_int(const char *str, uint64_t mem_size_multiplier)
{
    return parse_int(NULL, str, mem_size_multiplier);
}

const char *gasneti_parse_setting(const char *value, int is_size, int64_t *out)
{
    return parse_number(value, is_size ? 1 : 0, 1, out);
}

char *gasnett_format_number(int64_t val, char *buf, size_t bufsz, int is_mem_size)
{
    static const struct {
        const char *suffix;
        int shift;
    } units[] = {{" TB", 40}, {" GB", 30}, {" MB", 20}, {" KB", 10}, {" B", 0}};
    uint64_t mag = val < 0 ? 0 - (uint64_t)val : (uint64_t)val;
    const char *sign = val < 0 ? "-" : "";
    size_t i;

    if (mag >= (uint64_t)1 << 50) {
        snprintf(buf, bufsz, "%s0x%" PRIx64, sign, mag);
    } else if (is_mem_size && mag) {
        /* The largest unit that shows at least 10 of itself or is exact. */
        for (i = 0; i < sizeof units / sizeof units[0]; i++) {
            uint64_t u = (uint64_t)1 << units[i].shift;
            if (mag >= 10 * u || mag % u == 0) {
                snprintf(buf, bufsz, "%s%" PRIu64 "%s", sign, mag / u, units[i].suffix);
                break;
            }
        }
    } else {
        snprintf(buf, bufsz, "%" PRId64, val);
    }
    return buf;
}

/* ---- GASNet-EX values and VIS descriptors as text ------------------- */

struct bit_name {
    uint32_t bit;
    const char *name;
};

/* The names of v's set bits joined with '|', then the unnamed bits as one
 * hex number; "0" for 0. Returns the size with the NUL (longest case:
 * every name of the OP table plus a hex word, well under 512). */
static size_t format_bits(char *buf, uint32_t v, const struct bit_name *names, size_t count)
{
    char text[512];
    size_t len = 0, i;
    uint32_t unknown = v;

    if (!v) len = (size_t)snprintf(text, sizeof text, "0");
    for (i = 0; i < count; i++) {
        if (!(v & names[i].bit)) continue;
        len += (size_t)snprintf(text + len, sizeof text - len, "%s%s", len ? "|" : "", names[i].name);
        unknown &= ~names[i].bit;
    }
    if (unknown) len += (size_t)snprintf(text + len, sizeof text - len, "%s0x%" PRIx32, len ? "|" : "", unknown);
    if (buf) memcpy(buf, text, len + 1);
    return len + 1;
}

#define BIT_NAME(c) {c, #c}

size_t gasnett_format_dt(char *buf, gex_DT_t dt)
{
    static const struct bit_name names[] = {BIT_NAME(GEX_DT_I32), BIT_NAME(GEX_DT_U32), BIT_NAME(GEX_DT_I64),
                                            BIT_NAME(GEX_DT_U64), BIT_NAME(GEX_DT_FLT), BIT_NAME(GEX_DT_DBL),
                                            BIT_NAME(GEX_DT_USER)};
    return format_bits(buf, dt, names, sizeof names / sizeof names[0]);
}

size_t gasnett_format_op(char *buf, gex_OP_t op)
{
    /* GEX_OP_CSWAP is another name of GEX_OP_FCAS: shown as FCAS. */
    static const struct bit_name names[] = {
        BIT_NAME(GEX_OP_AND),   BIT_NAME(GEX_OP_OR),     BIT_NAME(GEX_OP_XOR),     BIT_NAME(GEX_OP_ADD),
        BIT_NAME(GEX_OP_SUB),   BIT_NAME(GEX_OP_MULT),   BIT_NAME(GEX_OP_MIN),     BIT_NAME(GEX_OP_MAX),
        BIT_NAME(GEX_OP_INC),   BIT_NAME(GEX_OP_DEC),    BIT_NAME(GEX_OP_SET),     BIT_NAME(GEX_OP_CAS),
        BIT_NAME(GEX_OP_FAND),  BIT_NAME(GEX_OP_FOR),    BIT_NAME(GEX_OP_FXOR),    BIT_NAME(GEX_OP_FADD),
        BIT_NAME(GEX_OP_FSUB),  BIT_NAME(GEX_OP_FMULT),  BIT_NAME(GEX_OP_FMIN),    BIT_NAME(GEX_OP_FMAX),
        BIT_NAME(GEX_OP_FINC),  BIT_NAME(GEX_OP_FDEC),   BIT_NAME(GEX_OP_SWAP),    BIT_NAME(GEX_OP_FCAS),
        BIT_NAME(GEX_OP_GET),   BIT_NAME(GEX_OP_USER),   BIT_NAME(GEX_OP_USER_NC)};
    return format_bits(buf, op, names, sizeof names / sizeof names[0]);
}

/* gex_TI_t comes from gasnetex.h, which a tools-only client does not have:
 * the bits of its GEX_TI_* constants, by value. */
size_t gasnett_format_ti(char *buf, unsigned int ti)
{
    static const struct bit_name names[] = {{1u << 0, "GEX_TI_SRCRANK"}, {1u << 1, "GEX_TI_ENTRY"},
                                            {1u << 2, "GEX_TI_IS_REQ"},  {1u << 3, "GEX_TI_IS_LONG"},
                                            {1u << 4, "GEX_TI_EP"}};
    _Static_assert(sizeof ti == sizeof(uint32_t), "gex_TI_t is 32 bits");
    return format_bits(buf, (uint32_t)ti, names, sizeof names / sizeof names[0]);
}

/* Widest text of one number: a pointer "0x" + 16 digits, a size_t 20
 * digits, a ptrdiff_t 20 with its sign; each list entry adds ", ". */
enum { PTR_CHARS = 18, SIZE_CHARS = 20, DIFF_CHARS = 20, SEP_CHARS = 2, HEAD_CHARS = 64 };

/* gex_Memvec_t and gasnet_memvec_t have this layout. */
struct memvec {
    void *addr;
    size_t len;
};

size_t gasnett_format_strides_bufsz(size_t count)
{
    return 2 + count * (DIFF_CHARS + 1) + 1;
}

static char *put_strides(char *p, size_t count, const ptrdiff_t *list)
{
    size_t i;
    *p++ = '[';
    for (i = 0; i < count; i++) p += sprintf(p, "%s%td", i ? "," : "", list[i]);
    return p + sprintf(p, "]");
}

void gasnett_format_strides(char *buf, size_t count, const ptrdiff_t *list)
{
    put_strides(buf, count, list);
}

size_t gasnett_format_addrlist_bufsz(size_t count)
{
    return HEAD_CHARS + count * (PTR_CHARS + SEP_CHARS) + 1;
}

static char *put_addrlist(char *p, size_t count, void *const *list, size_t len, gasneti_addrlist_stats_t *st)
{
    size_t i;
    st->_minaddr = UINTPTR_MAX;
    st->_maxaddr = 0;
    p += sprintf(p, "%zu entr%s, len=%zu: [", count, count == 1 ? "y" : "ies", len);
    for (i = 0; i < count; i++) {
        uintptr_t a = (uintptr_t)list[i];
        p += sprintf(p, "%s0x%" PRIxPTR, i ? ", " : "", a);
        if (len && a < st->_minaddr) st->_minaddr = a;
        if (len && a + (len - 1) > st->_maxaddr) st->_maxaddr = a + (len - 1);
    }
    return p + sprintf(p, "]");
}

gasneti_addrlist_stats_t gasnett_format_addrlist(char *buf, size_t count, void *const *list, size_t len)
{
    gasneti_addrlist_stats_t st;
    put_addrlist(buf, count, list, len, &st);
    return st;
}

size_t gasnett_format_memveclist_bufsz(size_t count)
{
    return HEAD_CHARS + count * (PTR_CHARS + SIZE_CHARS + 3 + SEP_CHARS) + 1;
}

static char *put_memveclist(char *p, size_t count, const void *list, gasneti_memveclist_stats_t *st)
{
    const struct memvec *mv = (const struct memvec *)list;
    size_t i;
    st->_minsz = SIZE_MAX;
    st->_maxsz = st->_totalsz = 0;
    st->_minaddr = UINTPTR_MAX;
    st->_maxaddr = 0;
    p += sprintf(p, "%zu entr%s: [", count, count == 1 ? "y" : "ies");
    for (i = 0; i < count; i++) {
        uintptr_t a = (uintptr_t)mv[i].addr;
        size_t n = mv[i].len;
        p += sprintf(p, "%s{0x%" PRIxPTR ",%zu}", i ? ", " : "", a, n);
        if (!n) continue;
        st->_totalsz += n;
        if (n < st->_minsz) st->_minsz = n;
        if (n > st->_maxsz) st->_maxsz = n;
        if (a < st->_minaddr) st->_minaddr = a;
        if (a + (n - 1) > st->_maxaddr) st->_maxaddr = a + (n - 1);
    }
    return p + sprintf(p, "]");
}

gasneti_memveclist_stats_t gasnett_format_memveclist(char *buf, size_t count, const void *list)
{
    gasneti_memveclist_stats_t st;
    put_memveclist(buf, count, list, &st);
    return st;
}

static char *put_peer(char *p, struct gasneti_tm_s *tm, gex_Rank_t rank)
{
    return p + sprintf(p, "tm=0x%" PRIxPTR " rank=%" PRIu32, (uintptr_t)tm, rank);
}

size_t gasnett_format_putvgetv_bufsz(size_t dstcount, size_t srccount)
{
    return HEAD_CHARS + gasnett_format_memveclist_bufsz(dstcount) + gasnett_format_memveclist_bufsz(srccount);
}

size_t gasnett_format_putvgetv(char *buf, struct gasneti_tm_s *tm, gex_Rank_t rank, size_t dstcount,
                               const void *dstlist, size_t srccount, const void *srclist)
{
    gasneti_memveclist_stats_t st;
    char *p = put_peer(buf, tm, rank);
    p = put_memveclist(p + sprintf(p, " dst="), dstcount, dstlist, &st);
    p = put_memveclist(p + sprintf(p, " src="), srccount, srclist, &st);
    return (size_t)(p - buf) + 1;
}

size_t gasnett_format_putigeti_bufsz(size_t dstcount, size_t srccount)
{
    return HEAD_CHARS + gasnett_format_addrlist_bufsz(dstcount) + gasnett_format_addrlist_bufsz(srccount);
}

size_t gasnett_format_putigeti(char *buf, struct gasneti_tm_s *tm, gex_Rank_t rank, size_t dstcount,
                               void *const dstlist[], size_t dstlen, size_t srccount, void *const srclist[],
                               size_t srclen)
{
    gasneti_addrlist_stats_t st;
    char *p = put_peer(buf, tm, rank);
    p = put_addrlist(p + sprintf(p, " dst="), dstcount, dstlist, dstlen, &st);
    p = put_addrlist(p + sprintf(p, " src="), srccount, srclist, srclen, &st);
    return (size_t)(p - buf) + 1;
}

size_t gasnett_format_putsgets_bufsz(size_t stridelevels)
{
    return HEAD_CHARS + 2 * PTR_CHARS + 2 * SIZE_CHARS + 3 * 3 + 2 * gasnett_format_strides_bufsz(stridelevels) +
           (stridelevels + 1) * (SIZE_CHARS + 1) + 1;
}

size_t gasnett_format_putsgets(char *buf, void *pstats, struct gasneti_tm_s *tm, gex_Rank_t rank, void *dstaddr,
                               const ptrdiff_t dststrides[], void *srcaddr, const ptrdiff_t srcstrides[],
                               size_t elemsz, const size_t count[], size_t stridelevels)
{
    char *p = put_peer(buf, tm, rank);
    size_t i, bytes = elemsz;
    p += sprintf(p, " dst=0x%" PRIxPTR " dststrides=", (uintptr_t)dstaddr);
    p = put_strides(p, stridelevels, dststrides);
    p += sprintf(p, " src=0x%" PRIxPTR " srcstrides=", (uintptr_t)srcaddr);
    p = put_strides(p, stridelevels, srcstrides);
    p += sprintf(p, " elemsz=%zu count=[", elemsz);
    for (i = 0; i <= stridelevels; i++) {
        p += sprintf(p, "%s%zu", i ? "," : "", count[i]);
        bytes *= count[i];
    }
    p += sprintf(p, "]");
    if (pstats) *(size_t *)pstats = bytes;
    return (size_t)(p - buf) + 1;
}

/* ---- environment ------------------------------------------------------ */

char *gasnett_getenv(const char *key)
{
    if (gasneti_tools_getenv_hook) {
        char *v = gasneti_tools_getenv_hook(key);
        if (v) return v;
    }
    return getenv(key);
}

void gasnett_setenv(const char *key, const char *value)
{
    if (setenv(key, value, 1) != 0)
        gasnett_fatalerror("gasnett_setenv(%s, %s) failed: %s", key, value, strerror(errno));
}

void gasnett_unsetenv(const char *key)
{
    if (unsetenv(key) != 0) gasnett_fatalerror("gasnett_unsetenv(%s) failed: %s", key, strerror(errno));
}

/* 1 for Y/YES/1, 0 for N/NO/0 (any case), -1 for anything else. */
static int parse_yesno(const char *s)
{
    if (!strcasecmp(s, "y") || !strcasecmp(s, "yes") || !strcmp(s, "1")) return 1;
    if (!strcasecmp(s, "n") || !strcasecmp(s, "no") || !strcmp(s, "0")) return 0;
    return -1;
}

int gasnett_verboseenv(void)
{
    if (gasneti_tools_verboseenv_hook) return gasneti_tools_verboseenv_hook();
#if defined(GASNET_SEQ) || defined(GASNET_PAR) || defined(GASNET_PARSYNC)
    return -1; /* in libgasnet, before gasnet_init has set the hook */
#else
    {
        const char *v = gasnett_getenv("GASNET_VERBOSEENV");
        return v && *v && parse_yesno(v) != 0;
    }
#endif
}

/* Every key queried while the answer may still come (gasnett_verboseenv()
 * is -1, before gasnet_init), in query order, kept for the life of the
 * process: a setting read before init is reported with the first report
 * after it. */
struct env_key {
    struct env_key *next;
    int shown, is_default;
    char *value;
    char name[];
};
static struct env_key *env_keys, **env_keys_tail = &env_keys;
static pthread_mutex_t env_keys_lock = PTHREAD_MUTEX_INITIALIZER;

static void env_key_print(struct env_key *k)
{
    fprintf(stderr, "ENV parameter: %s = %s%s\n", k->name, k->value, k->is_default ? "   (default)" : "");
    k->shown = 1;
}

void gasneti_envdisplay(const char *key, const char *value, int is_default)
{
    struct env_key *k;
    int verbose = gasnett_verboseenv();
    size_t len = strlen(key);

    if (verbose == 0) return;
    /* Printed under the lock, so that two threads cannot both report a key. */
    pthread_mutex_lock(&env_keys_lock);
    for (k = env_keys; k; k = k->next) {
        if (!strcmp(k->name, key)) break;
    }
    if (!k) {
        k = (struct env_key *)malloc(sizeof *k + len + 1);
        if (k) k->value = strdup(value);
        if (!k || !k->value) {
            pthread_mutex_unlock(&env_keys_lock);
            gasnett_fatalerror("out of memory recording environment setting %s", key);
        }
        memcpy(k->name, key, len + 1);
        k->shown = 0;
        k->is_default = is_default;
        k->next = NULL;
        *env_keys_tail = k;
        env_keys_tail = &k->next;
    }
    if (verbose > 0) {
        for (k = env_keys; k; k = k->next) {
            if (!k->shown) env_key_print(k);
        }
        fflush(stderr);
    }
    pthread_mutex_unlock(&env_keys_lock);
}

void gasnett_envstr_display(const char *key, const char *val, int is_dflt)
{
    gasneti_envdisplay(key, val, is_dflt);
}

void gasnett_envint_display(const char *key, int64_t val, int is_dflt, int is_mem_size)
{
    char buf[64];
    gasneti_envdisplay(key, gasnett_format_number(val, buf, sizeof buf, is_mem_size), is_dflt);
}

void gasnett_envdbl_display(const char *key, double val, int is_dflt)
{
    char buf[64];
    snprintf(buf, sizeof buf, "%g", val);
    gasneti_envdisplay(key, buf, is_dflt);
}

int gasnett_getenv_yesno_withdefault(const char *key, int dflt)
{
    const char *v = gasnett_getenv(key);
    if (v && !*v) v = NULL; /* empty: the default, as for every setting of ours */
    int r = v ? parse_yesno(v) : !!dflt;
    if (r < 0)
        gasnett_fatalerror("environment variable %s='%s' is not a yes/no value: "
                           "use Y, YES or 1, or N, NO or 0 (any case)", key, v);
    gasneti_envdisplay(key, r ? "YES" : "NO", !v);
    return r;
}

int64_t gasnett_getenv_int_withdefault(const char *key, int64_t dflt, uint64_t mem_size_multiplier)
{
    const char *v = gasnett_getenv(key);
    int64_t r;
    if (!v) {
        gasnett_envint_display(key, dflt, 1, mem_size_multiplier != 0);
        return dflt;
    }
    r = parse_int(key, v, mem_size_multiplier);
    gasneti_envdisplay(key, v, 0);
    return r;
}

char *gasnett_getenv_withdefault(const char *key, const char *dflt)
{
    char *v = gasnett_getenv(key);
    gasneti_envdisplay(key, v ? v : (dflt ? dflt : "(null)"), !v);
    return v ? v : (char *)dflt;
}

double gasnett_getenv_dbl_withdefault(const char *key, double dflt)
{
    const char *v = gasnett_getenv(key);
    char *end;
    double r;
    if (!v) {
        gasnett_envdbl_display(key, dflt, 1);
        return dflt;
    }
    errno = 0;
    r = strtod(v, &end);
    while (isspace((unsigned char)*end)) end++;
    if (end == v || *end || errno == ERANGE)
        gasnett_fatalerror("environment variable %s='%s' is not a number", key, v);
    gasneti_envdisplay(key, v, 0);
    return r;
}

/* ---- backtrace --------------------------------------------------------
 * Mechanisms: EXECINFO (glibc backtrace(): the calling thread, function
 * names only), GDB (gdb attached to this process: source lines, and with
 * GASNET_BACKTRACE_MT every thread) and the client's
 * gasnett_backtrace_user hook, under the name the client gives it.
 * gasnett_backtrace_init turns GASNET_BACKTRACE_TYPE into a list of
 * mechanism numbers; gasnett_print_backtrace tries them in order. The list
 * is read without a lock (a fatal signal may arrive at any time), so its
 * entries are atomics and every value in it is always a valid mechanism.
 *
 * GDB: a child process runs `gdb -batch -x SCRIPT -p PID` with its output
 * on the backtrace's fd; SCRIPT is a file made in GASNET_TMPDIR (else
 * TMPDIR, else /tmp) at the time of the backtrace and removed after. It
 * selects the calling thread (by its LWP, through gdb's Python) or, with
 * GASNET_BACKTRACE_MT, prints every thread. The process waits for gdb. */

gasnett_backtrace_type_t gasnett_backtrace_user __attribute__((__weak__)) = {NULL, NULL, 0};

enum { BT_EXECINFO, BT_GDB, BT_USER, BT_MAX_LIST = 16 };
static int bt_list[BT_MAX_LIST];
static int bt_count = -1; /* -1 until gasnett_backtrace_init */
static int bt_enabled;    /* GASNET_BACKTRACE: backtrace on fatal errors */
static int bt_node_off;   /* GASNET_BACKTRACE_NODES leaves this node out */
static int bt_mt;         /* GASNET_BACKTRACE_MT */
static char bt_tmpdir[1024];
static pthread_mutex_t bt_lock = PTHREAD_MUTEX_INITIALIZER;
static __thread int bt_reading; /* this thread is reading the settings */

static int bt_execinfo(int fd)
{
    void *frames[128];
    int n = backtrace(frames, 128);
    if (n <= 0) return 1;
    backtrace_symbols_fd(frames, n, fd);
    return 0;
}

static int bt_gdb(int fd)
{
    char script[sizeof bt_tmpdir + 32], cmds[512], pid[32];
    int sfd, status = -1;
    size_t len;
    pid_t child;

    snprintf(script, sizeof script, "%s/gasnet_bt.XXXXXX", bt_tmpdir);
    sfd = mkstemp(script);
    if (sfd < 0) return 1;
    if (__atomic_load_n(&bt_mt, __ATOMIC_RELAXED))
        snprintf(cmds, sizeof cmds, "thread apply all backtrace\ndetach\nquit\n");
    else
        snprintf(cmds, sizeof cmds,
                 "python\nfor t in gdb.selected_inferior().threads():\n"
                 "    if t.ptid[1] == %ld: t.switch()\nend\nbacktrace\ndetach\nquit\n",
                 (long)syscall(SYS_gettid));
    len = strlen(cmds);
    if (write(sfd, cmds, len) != (ssize_t)len) {
        close(sfd);
        unlink(script);
        return 1;
    }
    close(sfd);
    snprintf(pid, sizeof pid, "%d", (int)getpid());
#ifdef PR_SET_PTRACER
    prctl(PR_SET_PTRACER, PR_SET_PTRACER_ANY, 0, 0, 0); /* Yama: let the child attach */
#endif
    child = fork();
    if (child == 0) {
        dup2(fd, STDOUT_FILENO);
        dup2(fd, STDERR_FILENO);
        execlp("gdb", "gdb", "-nx", "-batch", "-q", "-x", script, "-p", pid, (char *)NULL);
        _exit(127);
    }
    if (child > 0)
        while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
        }
    unlink(script);
    return child > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
}

static int bt_user_registered(void)
{
    return gasnett_backtrace_user.name && gasnett_backtrace_user.fnp;
}

/* GASNET_TMPDIR, else TMPDIR, else /tmp. A GASNET_TMPDIR that is not a
 * writable directory is fatal (the user named it); a bad TMPDIR is passed
 * over, as other programs do. */
static void bt_find_tmpdir(void)
{
    const char *g = gasnett_getenv("GASNET_TMPDIR"), *t = gasnett_getenv("TMPDIR"), *dir;
    struct stat st;
    if (g && *g) {
        if (stat(g, &st) != 0 || !S_ISDIR(st.st_mode) || access(g, W_OK | X_OK) != 0)
            gasnett_fatalerror("environment variable GASNET_TMPDIR='%s' is not a writable directory", g);
        dir = g;
    } else if (t && *t && stat(t, &st) == 0 && S_ISDIR(st.st_mode) && access(t, W_OK | X_OK) == 0) {
        dir = t;
    } else {
        dir = "/tmp";
    }
    if (strlen(dir) >= sizeof bt_tmpdir)
        gasnett_fatalerror("environment variable GASNET_TMPDIR='%s' is too long (%zu characters at most)",
                           dir, sizeof bt_tmpdir - 1);
    gasneti_envdisplay("GASNET_TMPDIR", dir, !(g && *g));
    pthread_mutex_lock(&bt_lock);
    strcpy(bt_tmpdir, dir);
    pthread_mutex_unlock(&bt_lock);
}

void gasnett_backtrace_init(const char *exename)
{
    char dflt[128], types[256], *tok, *save = NULL;
    int count = 0, enabled, mt;

    (void)exename; /* gdb finds the executable through the pid */
    snprintf(dflt, sizeof dflt, "EXECINFO,GDB%s%s", bt_user_registered() ? "," : "",
             bt_user_registered() ? gasnett_backtrace_user.name : "");
    /* Read before locking: a bad value is fatal, and the fatal error comes
     * back here to backtrace (bt_reading stops it from asking again). */
    bt_reading = 1;
    enabled = gasnett_getenv_yesno_withdefault("GASNET_BACKTRACE", 0);
    mt = gasnett_getenv_yesno_withdefault("GASNET_BACKTRACE_MT", 0);
    snprintf(types, sizeof types, "%s", gasnett_getenv_withdefault("GASNET_BACKTRACE_TYPE", dflt));
    bt_find_tmpdir();
    bt_reading = 0;
    pthread_mutex_lock(&bt_lock);
    __atomic_store_n(&bt_enabled, enabled, __ATOMIC_RELAXED);
    __atomic_store_n(&bt_mt, mt, __ATOMIC_RELAXED);
    for (tok = strtok_r(types, " ,|;", &save); tok && count < BT_MAX_LIST;
         tok = strtok_r(NULL, " ,|;", &save)) {
        int mech = -1;
        if (!strcasecmp(tok, "EXECINFO")) mech = BT_EXECINFO;
        else if (!strcasecmp(tok, "GDB")) mech = BT_GDB;
        else if (bt_user_registered() && !strcasecmp(tok, gasnett_backtrace_user.name)) mech = BT_USER;
        if (mech < 0) {
            if (!gasneti_quiet())
                fprintf(stderr, "WARNING: GASNET_BACKTRACE_TYPE names '%s', which is not a backtrace "
                                "mechanism here (known: EXECINFO, GDB%s%s); ignored\n",
                        tok, bt_user_registered() ? ", " : "",
                        bt_user_registered() ? gasnett_backtrace_user.name : "");
            continue;
        }
        /* backtrace() loads its unwinder on first use: do that now, not in
         * a signal handler. */
        if (mech == BT_EXECINFO) {
            void *frame;
            (void)backtrace(&frame, 1);
        }
        __atomic_store_n(&bt_list[count++], mech, __ATOMIC_RELAXED);
    }
    __atomic_store_n(&bt_count, count, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&bt_lock);
}

void gasneti_backtrace_node(int on)
{
    __atomic_store_n(&bt_node_off, !on, __ATOMIC_RELAXED);
}

int gasneti_backtrace_enabled(void)
{
    return __atomic_load_n(&bt_enabled, __ATOMIC_RELAXED) && !__atomic_load_n(&bt_node_off, __ATOMIC_RELAXED);
}

int gasnett_print_backtrace(int fd)
{
    int count = __atomic_load_n(&bt_count, __ATOMIC_ACQUIRE), i;
    if (count < 0) return -1;
    for (i = 0; i < count; i++) {
        int mech = __atomic_load_n(&bt_list[i], __ATOMIC_RELAXED);
        int rc = mech == BT_EXECINFO ? bt_execinfo(fd) : mech == BT_GDB ? bt_gdb(fd) : gasnett_backtrace_user.fnp(fd);
        if (rc == 0) return 0;
    }
    return 1;
}

static int bt_print_ifenabled(int fd)
{
    if (__atomic_load_n(&bt_count, __ATOMIC_ACQUIRE) < 0) {
        if (bt_reading) return 1;
        gasnett_backtrace_init(NULL);
    }
    if (!gasneti_backtrace_enabled()) return 1;
    return gasnett_print_backtrace(fd);
}

int (*gasnett_print_backtrace_ifenabled)(int fd) = bt_print_ifenabled;
