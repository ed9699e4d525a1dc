/* Helpers shared by the benchmarks: options and usage, message sizes,
 * timing, the median and quartiles of repetitions, the run's description
 * and the CSV writer. Every benchmark runs an active rank (0) that times
 * and a passive rank that serves; only rank 0 prints and writes. */
#ifndef BENCH_H
#define BENCH_H

#include <ammpi.h>
#include <gasnet.h>
#include <mpi.h>

#include <ctype.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define KB 1024L
#define MB (1024L * 1024L) /* bandwidth is reported in MB/s with MB = 2^20 bytes */

typedef struct {
    long iters;      /* -n: timed iterations per repetition for small sizes */
    long knee;       /* -k: above this size, iterations shrink as knee/size */
    long min_iters;  /* -m: but never below this */
    int reps;        /* -r: repetitions of each timed loop */
    long min_size;   /* -s */
    long max_size;   /* -S */
    const char *layers; /* -l: comma-separated layers this job measures, or "all" */
    const char *ops; /* -o: comma-separated operations, NULL = all */
    const char *paths; /* -P: comma-separated RMA paths, NULL = every path this job has */
    const char *csv; /* -c: CSV file (rank 0 writes it) */
} bench_opts_t;

static inline void bench_die(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "bench: ");
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n");
    int up = 0;
    MPI_Initialized(&up);
    if (up) MPI_Abort(MPI_COMM_WORLD, 2);
    exit(2);
}

/* Accepts 4096, 4K, 4M. */
static inline long bench_size_arg(const char *s)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (*end == 'K' || *end == 'k') v *= KB, end++;
    else if (*end == 'M' || *end == 'm') v *= MB, end++;
    if (*end || v < 0) bench_die("bad size or count '%s'", s);
    return v;
}

/* What a program tells bench_parse about itself for its usage: a line on
 * what it measures, its layers and its operations. */
typedef struct {
    const char *what, *layers, *ops;
} bench_about_t;

static inline void bench_usage(FILE *f, const char *prog, const bench_about_t *a)
{
    fprintf(f,
            "usage: %s [-l layers] [-o op,op,...] [-P paths] [-n iters] [-k knee]\n"
            "       [-m min_iters] [-r reps] [-s min_size] [-S max_size] [-c file.csv]\n"
            "%s\n"
            "Run it on 2 ranks through launch/gasnetrun_mpi (bench/run.sh runs them all).\n"
            "  -l  the layers this job measures, interleaved: all (default) or a list of\n"
            "      %s; one layer runs alone, nothing else opened\n"
            "  -o  only these operations (default all of the layers):\n"
            "      %s\n"
            "  -P  RMA paths for the put and get operations (default every one this job\n"
            "      has): am (every put and get an active message) and the native backend\n"
            "      that GASNET_RMA chose for the peer (shm, ofi or verbs)\n"
            "  -n  timed iterations of each repetition, for sizes up to the knee (10000)\n"
            "  -k  above this size the iterations shrink as n*knee/size (16K)\n"
            "  -m  but never below this many (50)\n"
            "  -r  repetitions, each running every operation once in turn (7)\n"
            "  -s, -S  sizes are the powers of two in [min, max] (1, 4M); K and M suffixes\n"
            "  -c  also write the results as CSV to this file\n"
            "  -h, --help  this text\n",
            prog, a->what, a->layers, a->ops);
}

static inline void bench_parse(int argc, char **argv, bench_opts_t *o, const bench_about_t *about)
{
    *o = (bench_opts_t){10000, 16 * KB, 50, 7, 1, 4 * MB, "all", NULL, NULL, NULL};
    static const struct option longopts[] = {{"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
    int c;
    while ((c = getopt_long(argc, argv, "l:n:k:m:r:s:S:o:P:c:h", longopts, NULL)) != -1) {
        switch (c) {
        case 'l': o->layers = optarg; break;
        case 'n': o->iters = bench_size_arg(optarg); break;
        case 'k': o->knee = bench_size_arg(optarg); break;
        case 'm': o->min_iters = bench_size_arg(optarg); break;
        case 'r': o->reps = (int)bench_size_arg(optarg); break;
        case 's': o->min_size = bench_size_arg(optarg); break;
        case 'S': o->max_size = bench_size_arg(optarg); break;
        case 'o': o->ops = optarg; break;
        case 'P': o->paths = optarg; break;
        case 'c': o->csv = optarg; break;
        case 'h': bench_usage(stdout, argv[0], about); exit(0);
        default: bench_usage(stderr, argv[0], about); exit(2);
        }
    }
    if (optind < argc) {
        fprintf(stderr, "%s: unexpected argument '%s'\n", argv[0], argv[optind]);
        bench_usage(stderr, argv[0], about);
        exit(2);
    }
    if (o->iters < 1 || o->reps < 1 || o->min_iters < 1 || o->knee < 1 || o->min_size < 1 ||
        o->max_size < o->min_size)
        bench_die("counts and sizes must be positive, and -s no larger than -S");
}

/* Whether name is in a comma-separated list (exact names); a NULL list
 * holds everything. */
static inline int bench_in_list(const char *list, const char *name)
{
    if (!list) return 1;
    size_t n = strlen(name);
    for (const char *p = list; *p;) {
        const char *e = strchr(p, ',');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (len == n && strncmp(p, name, n) == 0) return 1;
        p += len + (e != NULL);
    }
    return 0;
}

/* For the jobs whose layers are GASNet and raw MPI only (barrier, coll):
 * sets which ones -l asks for (anything else is refused) and starts them,
 * GASNet (which starts MPI) with a segment of segsize bytes (at least a
 * page), or MPI alone. */
static inline void bench_start_gasnet_mpi(const char *layers, int *use_gasnet, int *use_mpi,
                                          int *argc, char ***argv, uintptr_t segsize)
{
    int all = !strcmp(layers, "all");
    for (const char *p = layers; !all && *p;) {
        size_t len = strcspn(p, ",");
        if (!(len == 3 && !strncmp(p, "mpi", 3)) && !(len == 6 && !strncmp(p, "gasnet", 6)))
            bench_die("-l %s: use all, gasnet, mpi or gasnet,mpi", layers);
        p += len + (p[len] == ',');
    }
    *use_gasnet = all || bench_in_list(layers, "gasnet");
    *use_mpi = all || bench_in_list(layers, "mpi");
    if (*use_gasnet) {
        if (gasnet_init(argc, argv) != GASNET_OK) bench_die("gasnet_init failed");
        segsize = (segsize + GASNET_PAGESIZE - 1) / GASNET_PAGESIZE * GASNET_PAGESIZE;
        if (gasnet_attach(NULL, 0, segsize ? segsize : GASNET_PAGESIZE, 0) != GASNET_OK)
            bench_die("gasnet_attach failed");
    } else {
        MPI_Init(argc, argv);
    }
}

/* Pauses (live = 0) or resumes GASNet's endpoint (gasnetc_ep) around a
 * loop of raw MPI: its posted MPI_ANY_SOURCE receives slow MPI down
 * (bench/layers.h). */
static inline void bench_gasnet_live(ammpi_ep_t *ep, int live)
{
    if ((live ? ammpi_resume_receives(ep) : ammpi_pause_receives(ep)) != AMMPI_OK)
        bench_die("%s GASNet's endpoint failed", live ? "resuming" : "pausing");
}

/* Large messages get fewer iterations so that a sweep stays short; the
 * loop still lasts long enough to amortise the timer. */
static inline long bench_iters(const bench_opts_t *o, long size)
{
    if (size <= o->knee) return o->iters;
    long it = (long)((double)o->iters * (double)o->knee / (double)size);
    if (it < o->min_iters) it = o->min_iters;
    return it < o->iters ? it : o->iters;
}

static inline double bench_now(void) { return MPI_Wtime(); }

/* The median, quartiles (linear interpolation between order statistics)
 * and extremes of n values. */
typedef struct {
    double med, q1, q3, min, max;
} bench_stat_t;

static int bench_cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The p-quantile of n sorted values; bench/run.sh computes it alike. */
static inline double bench_quantile(const double *s, int n, double p)
{
    double pos = p * (n - 1);
    int lo = (int)pos;
    return lo + 1 < n ? s[lo] + (pos - lo) * (s[lo + 1] - s[lo]) : s[lo];
}

static inline bench_stat_t bench_stats(const double *v, int n)
{
    double s[n];
    memcpy(s, v, sizeof s);
    qsort(s, (size_t)n, sizeof *s, bench_cmp);
    return (bench_stat_t){bench_quantile(s, n, 0.5), bench_quantile(s, n, 0.25),
                          bench_quantile(s, n, 0.75), s[0], s[n - 1]};
}

/* ---- the description of a run: machine, MPI, command, settings */

static inline void bench_cpu_model(char *out, size_t len)
{
    snprintf(out, len, "unknown");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f) return;
    char line[256];
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "model name", 10) != 0) continue;
        char *v = strchr(line, ':');
        if (!v) break;
        for (v++; *v == ' '; v++) {}
        v[strcspn(v, "\n")] = 0;
        snprintf(out, len, "%s", v);
        break;
    }
    fclose(f);
}

/* Writes "# key: value" lines to f: the run's context, so that a CSV file
 * or a log explains itself. */
static inline void bench_describe(FILE *f, int argc, char **argv, const char *settings)
{
    char host[256] = "?", cpu[256], lib[MPI_MAX_LIBRARY_VERSION_STRING];
    gethostname(host, sizeof host);
    bench_cpu_model(cpu, sizeof cpu);
    int len = 0, nranks = 0;
    MPI_Get_library_version(lib, &len);
    lib[strcspn(lib, "\n")] = 0; /* MPICH puts details on further lines */
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    fprintf(f, "# machine: %s, %s, %ld online cores\n", host, cpu, sysconf(_SC_NPROCESSORS_ONLN));
    fprintf(f, "# mpi: %s\n", lib);
    fprintf(f, "# gasnet: %s\n", GASNET_CONFIG_STRING);
    fprintf(f, "# command:");
    for (int i = 0; i < argc; i++) fprintf(f, " %s", argv[i]);
    fprintf(f, "  (%d ranks)\n", nranks);
    fprintf(f, "# settings: %s\n", settings);
    static const char *vars[] = {"GASNET_NETWORKDEPTH", "GASNET_BARRIER", "GASNET_RMA",
                                 "GASNET_SPIN_POLLS", "GASNET_PUT_MEDIUM_MAX", "AMMPI_CREDITS_PP",
                                 "AMMPI_EAGER_SIZE", "FI_PROVIDER"};
    fprintf(f, "# environment:");
    for (size_t i = 0; i < sizeof vars / sizeof *vars; i++) {
        const char *v = getenv(vars[i]); /* the launcher forwards them to every rank */
        fprintf(f, " %s=%s", vars[i], v ? v : "(default)");
    }
    fprintf(f, "\n");
}

/* Opens the CSV file (rank 0), with the description and the header. */
static inline FILE *bench_csv_open(const bench_opts_t *o, int argc, char **argv,
                                   const char *settings, const char *header)
{
    if (!o->csv) return NULL;
    FILE *f = fopen(o->csv, "w");
    if (!f) bench_die("cannot write %s", o->csv);
    bench_describe(f, argc, argv, settings);
    fprintf(f, "%s\n", header);
    return f;
}

/* The repetitions' raw values, separated by ';' so they stay one field. */
static inline void bench_csv_samples(FILE *f, const double *v, int n, double scale)
{
    for (int i = 0; i < n; i++) fprintf(f, "%s%.6g", i ? ";" : "", v[i] * scale);
}

#endif
