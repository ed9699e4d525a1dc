// tools_cxx: gasnet_tools.h from C++ (built SEQ and PAR like tools_basic):
// the header compiles as C++, its names have C linkage (a C++ definition of
// gasnett_backtrace_user replaces the library's), and the inline parts work.
#include <gasnet_tools.h>

#include <stdarg.h>
#if defined(GASNETT_THREAD_SAFE)
#include <pthread.h>
#endif

#define CHECK(cond)                                                                  \
    do {                                                                             \
        if (!(cond)) {                                                               \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
            exit(1);                                                            \
        }                                                                            \
    } while (0)

GASNETT_IDENT(tools_cxx_ident, "$ToolsCxx: " PLATFORM_COMPILER_VERSION_STR " $");

GASNETT_FORMAT_PRINTF(cxx_format, 2, 3, static int cxx_format(char *buf, const char *fmt, ...));
static int cxx_format(char *buf, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int r = vsprintf(buf, fmt, ap);
    va_end(ap);
    return r;
}

GASNETT_NORETURN static void cxx_die(const char *why) { gasnett_fatalerror("%s", why); }
GASNETT_NORETURN static void cxx_die_nopos(int code) { gasnett_fatalerror_nopos("code %d", code); }

#if !defined(GASNETT_SET_AFFINITY_SUPPORT) || defined(GASNETT_USING_GENERIC_ATOMICOPS) || \
    defined(GASNETT_USING_GETTIMEOFDAY)
#error "GASNETT_SET_AFFINITY_SUPPORT defined, GASNETT_USING_* undefined on Linux"
#endif

// gex_Memvec_t's layout: the formatter takes it without a cast.
struct cxx_memvec {
    void *gex_addr;
    size_t gex_len;
};

// The GASNet-EX-era names from C++.
static void check_ex_names()
{
    char buf[256];
    CHECK(gasnett_format_dt(buf, GEX_DT_DBL) == 11 && strcmp(buf, "GEX_DT_DBL") == 0);
    CHECK(gasnett_format_op(NULL, GEX_OP_ADD | GEX_OP_FADD) == sizeof "GEX_OP_ADD|GEX_OP_FADD");
    CHECK(gasnett_format_op(buf, GEX_OP_ADD | GEX_OP_FADD) == sizeof "GEX_OP_ADD|GEX_OP_FADD" &&
          strcmp(buf, "GEX_OP_ADD|GEX_OP_FADD") == 0);
    unsigned int ti = (1u << 0) | (1u << 4) | (1u << 9); // SRCRANK, EP and an unknown bit
    CHECK(gasnett_format_ti(buf, ti) == sizeof "GEX_TI_SRCRANK|GEX_TI_EP|0x200" &&
          strcmp(buf, "GEX_TI_SRCRANK|GEX_TI_EP|0x200") == 0);

    const cxx_memvec mv[1] = {{reinterpret_cast<void *>(0x40), 3}};
    CHECK(gasnett_format_memveclist_bufsz(1) <= sizeof buf);
    gasneti_memveclist_stats_t ms = gasnett_format_memveclist(buf, 1, mv);
    CHECK(strcmp(buf, "1 entry: [{0x40,3}]") == 0 && ms._totalsz == 3);
    void *addrs[] = {reinterpret_cast<void *>(0x80), NULL};
    gasneti_addrlist_stats_t as = gasnett_format_addrlist(buf, 2, addrs, 16);
    CHECK(strcmp(buf, "2 entries, len=16: [0x80, 0x0]") == 0 && as._minaddr == 0 && as._maxaddr == 0x8f);
    const ptrdiff_t strides[] = {-4};
    const size_t count[] = {3, 2};
    CHECK(gasnett_format_putsgets(buf, NULL, NULL, 3, addrs[0], strides, addrs[1], strides, 4, count, 1) ==
          sizeof "tm=0x0 rank=3 dst=0x80 dststrides=[-4] src=0x0 srcstrides=[-4] elemsz=4 count=[3,2]");
    CHECK(strcmp(buf, "tm=0x0 rank=3 dst=0x80 dststrides=[-4] src=0x0 srcstrides=[-4] elemsz=4 count=[3,2]") == 0);
    gasnett_format_strides(buf, 1, strides);
    CHECK(strcmp(buf, "[-4]") == 0);
    CHECK(strcmp(PLATFORM_STRINGIFY(PLATFORM_COMPILER_CXX_LANGLVL), PLATFORM_STRINGIFY(__cplusplus)) == 0);
    CHECK(strstr(PLATFORM_COMPILER_IDSTR, "|STD:__STDC__,__cplusplus=") != NULL);

    gasnett_tick_t t0 = gasnett_ticks_now();
    CHECK(gasnett_nsleep(1000000) == 0);
    CHECK(gasnett_ticks_to_ns(gasnett_ticks_now() - t0) >= 1000000);
    snprintf(buf, sizeof buf, "%d.%d.%d", GASNETT_RELEASE_VERSION_MAJOR, GASNETT_RELEASE_VERSION_MINOR,
             GASNETT_RELEASE_VERSION_PATCH);
    CHECK(strcmp(gasnett_release_version_str(), buf) == 0);
    CHECK(gasnett_release_version() % 10000 == GASNETT_RELEASE_VERSION_PATCH);
    CHECK(gasnett_maximize_rlimits() != 0);

    char *p = static_cast<char *>(gasnett_debug_malloc(4));
    char *q = gasnett_debug_strdup("cxx");
    CHECK(p && q && strcmp(q, "cxx") == 0);
    p = static_cast<char *>(gasnett_debug_realloc(p, 8));
    CHECK(p != NULL);
    gasnett_debug_memcheck(p);
    gasnett_debug_memcheck_all();
#if GASNET_DEBUGMALLOC
    gasnett_heapstats_t hs;
    CHECK(gasnett_getheapstats(&hs) == 0 && hs.live_objects == 2 && hs.live_bytes == 8 + 4);
#endif
    gasnett_debug_free(p);
    gasnett_debug_free(q);
}
GASNETT_INLINE(cxx_triple) int cxx_triple(int x) { return 3 * x; }

GASNETT_THREADKEY_DECLARE(cxx_key);
GASNETT_THREADKEY_DEFINE(cxx_key);

static int bt_calls;
static int bt_fn(int fd)
{
    bt_calls++;
    return dprintf(fd, "tools_cxx: user backtrace hook ran\n") > 0 ? 0 : 1;
}
gasnett_backtrace_type_t gasnett_backtrace_user = {"USER", &bt_fn, 1};

static gasnett_atomic64_t counter = gasnett_atomic64_init(0);
static gasnett_mutex_t lock = GASNETT_MUTEX_INITIALIZER;
static long plain; // under lock

#if defined(GASNETT_THREAD_SAFE)
static void *worker(void *)
{
    int mine = 0;
    CHECK(gasnett_threadkey_get(cxx_key) == NULL);
    gasnett_threadkey_set(cxx_key, &mine);
    for (int i = 0; i < 10000; i++) {
        gasnett_atomic64_increment(&counter, GASNETT_ATOMIC_NONE);
        gasnett_mutex_lock(&lock);
        plain++;
        gasnett_mutex_unlock(&lock);
    }
    CHECK(gasnett_threadkey_get(cxx_key) == &mine);
    return NULL;
}
#endif

int main(int argc, char **argv)
{
    char buf[64];
    (void)argc;
    if (argc > 2) cxx_die_nopos(argc);
    if (argc > 1) cxx_die("tools_cxx takes no arguments");

    CHECK(strcmp(const_cast<const char *>(tools_cxx_ident), "$ToolsCxx: " PLATFORM_COMPILER_VERSION_STR " $") == 0);
    CHECK(cxx_format(buf, "%d%s", 7, "x") == 2 && strcmp(buf, "7x") == 0);
    CHECK(cxx_triple(5) == 15);
    if_pf(buf[0] != '7') CHECK(0);

    gasnett_tick_t t0 = gasnett_ticks_now();
    CHECK(gasnett_ticks_now() >= t0 && gasnett_tick_granularityus() > 0);

    gasnett_atomic_t a = gasnett_atomic_init(1);
    CHECK(gasnett_atomic_add(&a, 2, GASNETT_ATOMIC_REL) == 3);
    CHECK(gasnett_atomic_compare_and_swap(&a, 3, 0, GASNETT_ATOMIC_ACQ_IF_TRUE));
    gasnett_atomic_decrement(&a, 0);
    CHECK(gasnett_atomic_signed(gasnett_atomic_read(&a, 0)) == -1);
    gasnett_strongatomic64_t s = gasnett_strongatomic64_init(10);
    CHECK(gasnett_strongatomic64_swap(&s, 4, 0) == 10 && gasnett_strongatomic64_decrement_and_test(&s, 0) == 0);

    gasnett_setenv("GASNET_TB_CXX", "3K");
    CHECK(gasnett_getenv_int_withdefault("GASNET_TB_CXX", 0, 1) == 3072);
    CHECK(strcmp(gasnett_format_number(3072, buf, sizeof buf, 1), "3 KB") == 0);

    gasnett_setenv("GASNET_BACKTRACE_TYPE", "USER");
    gasnett_backtrace_init(argv[0]);
    CHECK(gasnett_print_backtrace(STDOUT_FILENO) == 0 && bt_calls == 1);

    (void)(bt_calls ? GASNETT_TRACE_PRINTF("%d", bt_calls) : (void)0);
    GASNETT_TRACE_SETSOURCELINE(__FILE__, __LINE__);

#if defined(GASNETT_THREAD_SAFE)
    pthread_t th[3];
    for (int i = 0; i < 3; i++) CHECK(pthread_create(&th[i], NULL, worker, NULL) == 0);
    for (int i = 0; i < 3; i++) CHECK(pthread_join(th[i], NULL) == 0);
    CHECK(gasnett_atomic64_read(&counter, 0) == 30000 && plain == 30000);
#else
    gasnett_atomic64_increment(&counter, 0);
    gasnett_mutex_lock(&lock);
    plain++;
    gasnett_mutex_unlock(&lock);
    CHECK(gasnett_atomic64_read(&counter, 0) == 1 && plain == 1);
#endif
    check_ex_names();
    printf("tools_cxx: OK\n");
    return 0;
}
