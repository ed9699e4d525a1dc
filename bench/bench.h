/* Helpers shared by the benchmarks: options, message sizes, timing,
 * median and spread of repetitions, the run's description and the CSV
 * writer. Every benchmark runs an active rank (0) that times and a passive
 * rank that serves; only rank 0 prints and writes. */
#ifndef BENCH_H
#define BENCH_H

#include <gasnet.h>
#include <mpi.h>

#include <ctype.h>
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
    const char *layer; /* -l: mpi, ammpi or gasnet: what this job measures */
    const char *ops; /* -o: comma-separated operations, NULL = all */
    const char *csv; /* -c: CSV file (rank 0 writes it) */
    int wildcards;   /* -w: MPI_ANY_SOURCE receives left posted (mpi layer) */
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

static inline void bench_usage(const char *prog, const char *ops)
{
    fprintf(stderr,
            "usage: %s [-l layer] [-n iters] [-k knee] [-m min_iters] [-r reps]\n"
            "       [-s min_size] [-S max_size] [-o op,op,...] [-c file.csv] [-w n]\n"
            "  -l  the layer this job measures: mpi, ammpi or gasnet (default gasnet)\n"
            "  -n  timed iterations of each repetition, for sizes up to the knee (10000)\n"
            "  -k  above this size the iterations shrink as n*knee/size (16K)\n"
            "  -m  but never below this many (50)\n"
            "  -r  repetitions; the median and the spread are reported (5)\n"
            "  -s, -S  sizes are the powers of two in [min, max] (1, 4M); K and M suffixes\n"
            "  -o  operations of the layer to run (default all): %s\n"
            "  -c  also write the results as CSV to this file\n"
            "  -w  mpi layer: first post n MPI_ANY_SOURCE receives that never match, as an\n"
            "      ammpi endpoint does (48 at depth 16 on 2 ranks), to see what they cost MPI\n",
            prog, ops);
}

static inline void bench_parse(int argc, char **argv, bench_opts_t *o, const char *ops)
{
    *o = (bench_opts_t){10000, 16 * KB, 50, 5, 1, 4 * MB, "gasnet", NULL, NULL, 0};
    int c;
    while ((c = getopt(argc, argv, "l:n:k:m:r:s:S:o:c:w:h")) != -1) {
        switch (c) {
        case 'l': o->layer = optarg; break;
        case 'n': o->iters = bench_size_arg(optarg); break;
        case 'k': o->knee = bench_size_arg(optarg); break;
        case 'm': o->min_iters = bench_size_arg(optarg); break;
        case 'r': o->reps = (int)bench_size_arg(optarg); break;
        case 's': o->min_size = bench_size_arg(optarg); break;
        case 'S': o->max_size = bench_size_arg(optarg); break;
        case 'o': o->ops = optarg; break;
        case 'c': o->csv = optarg; break;
        case 'w': o->wildcards = (int)bench_size_arg(optarg); break;
        default: bench_usage(argv[0], ops); exit(2);
        }
    }
    if (o->iters < 1 || o->reps < 1 || o->min_iters < 1 || o->knee < 1 || o->min_size < 1 ||
        o->max_size < o->min_size)
        bench_die("counts and sizes must be positive, and -s no larger than -S");
}

/* Whether op was asked for with -o (exact names between commas). */
static inline int bench_wants(const bench_opts_t *o, const char *op)
{
    if (!o->ops) return 1;
    size_t n = strlen(op);
    for (const char *p = o->ops; *p;) {
        const char *e = strchr(p, ',');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (len == n && strncmp(p, op, n) == 0) return 1;
        p += len + (e != NULL);
    }
    return 0;
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

typedef struct {
    double med, min, max;
} bench_stat_t;

static int bench_cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static inline bench_stat_t bench_stats(const double *v, int n)
{
    double s[n];
    memcpy(s, v, sizeof s);
    qsort(s, (size_t)n, sizeof *s, bench_cmp);
    double med = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
    return (bench_stat_t){med, s[0], s[n - 1]};
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
    static const char *vars[] = {"GASNET_NETWORKDEPTH", "GASNET_BARRIER", "GASNET_SPIN_POLLS",
                                 "GASNET_PUT_MEDIUM_MAX", "AMMPI_CREDITS_PP", "AMMPI_EAGER_SIZE"};
    fprintf(f, "# environment:");
    for (size_t i = 0; i < sizeof vars / sizeof *vars; i++) {
        const char *v = gasnet_getenv(vars[i]);
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
    for (int i = 0; i < n; i++) fprintf(f, "%s%.4f", i ? ";" : "", v[i] * scale);
}

#endif
