/* The job's environment: node 0's, taken by every node at start-up, so
 * that a launcher that passes each process a different environment still
 * gives every node the same settings. Every setting the library reads
 * comes through the parsers here: strict, range-checked, fatal with the
 * variable and the value named, and reported under GASNET_VERBOSEENV.
 */
#include "base.h"
#include "gasnet_tools_internal.h"

#include <ctype.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static char **env_vars;
static char *env_block;

/* Env decoding (the reference's, which its spawners use to pass values
 * that a shell or launcher would mangle): in every value of the job's
 * environment, %HH (two hexadecimal digits) stands for the byte 0xHH, so
 * "a%20b" is "a b" and "%25" a percent sign; a % not followed by two
 * hexadecimal digits is kept as it is. GASNET_DISABLE_ENVDECODE=yes
 * leaves every value as it came. Decoding never lengthens a value, so it
 * is done in place. */
static void decode_environment(void)
{
    int disabled = gasnett_getenv_yesno_withdefault("GASNET_DISABLE_ENVDECODE", 0);
    if (disabled) return;
    for (char **e = env_vars; *e; e++) {
        char *r = strchr(*e, '='), *w;
        if (!r || !strchr(r, '%')) continue;
        for (w = ++r; *r; r++, w++) {
            if (r[0] == '%' && isxdigit((unsigned char)r[1]) && isxdigit((unsigned char)r[2])) {
                char hex[3] = {r[1], r[2], 0};
                *w = (char)strtol(hex, NULL, 16);
                r += 2;
            } else {
                *w = *r;
            }
        }
        *w = '\0';
    }
}

static void snapshot_environment(MPI_Comm comm)
{
    extern char **environ;
    long len = 0;
    if (gasneti_mynode == 0)
        for (char **e = environ; *e; e++) len += (long)strlen(*e) + 1;
    MPI_Bcast(&len, 1, MPI_LONG, 0, comm);
    env_block = malloc((size_t)len + 1);
    if (!env_block) gasneti_fatalerror("gasnet_init: no memory for the environment");
    if (gasneti_mynode == 0) {
        char *p = env_block;
        for (char **e = environ; *e; e++) p = stpcpy(p, *e) + 1;
    }
    MPI_Bcast(env_block, (int)len, MPI_CHAR, 0, comm);
    long count = 0;
    for (long i = 0; i < len; i++) count += env_block[i] == '\0';
    env_vars = calloc((size_t)count + 1, sizeof *env_vars);
    if (!env_vars) gasneti_fatalerror("gasnet_init: no memory for the environment");
    for (long i = 0, k = 0; i < len; i += (long)strlen(env_block + i) + 1) env_vars[k++] = env_block + i;
}

char *gasnet_getenv(const char *name)
{
    if (!name || !*name) return NULL;
    if (!env_vars) return getenv(name);
    size_t n = strlen(name);
    for (char **v = env_vars; *v; v++)
        if (strncmp(*v, name, n) == 0 && (*v)[n] == '=') return *v + n + 1;
    return NULL;
}

/* Settings are reported by node 0 only, when GASNET_VERBOSEENV is yes. */
static int verboseenv(void)
{
    static int verbose = -1;
    if (!gasneti_init_done) return -1;
    if (verbose < 0) {
        const char *v = gasnet_getenv("GASNET_VERBOSEENV");
        verbose = gasneti_mynode == 0 && v &&
                  (!strcasecmp(v, "y") || !strcasecmp(v, "yes") || !strcmp(v, "1"));
    }
    return verbose;
}

void gasneti_env_init(MPI_Comm comm)
{
    snapshot_environment(comm);
    gasneti_tools_getenv_hook = gasnet_getenv;
    gasneti_tools_verboseenv_hook = verboseenv;
    decode_environment();
}

/* Every numeric setting the library reads comes through here: parsed
 * strictly (gasneti_parse_setting: no trailing junk), checked against the
 * setting's range, and fatal, naming the variable and the value, when it is
 * neither; unset or empty gives the default. */
static int64_t getenv_number(const char *key, int64_t dflt, int64_t lo, int64_t hi, int is_size)
{
    const char *v = gasnett_getenv(key);
    if (!v || !*v) {
        gasnett_envint_display(key, dflt, 1, is_size);
        return dflt;
    }
    int64_t r;
    const char *why = gasneti_parse_setting(v, is_size, &r);
    if (why) gasneti_fatalerror("environment variable %s='%s' %s", key, v, why);
    if (r < lo || r > hi) {
        char l[64], h[64];
        gasneti_fatalerror("environment variable %s='%s' is out of range: use a %s from %s to %s",
                           key, v, is_size ? "size" : "value",
                           gasnett_format_number(lo, l, sizeof l, is_size),
                           gasnett_format_number(hi, h, sizeof h, is_size));
    }
    gasneti_envdisplay(key, v, 0);
    return r;
}

int64_t gasneti_getenv_int(const char *key, int64_t dflt, int64_t lo, int64_t hi)
{
    return getenv_number(key, dflt, lo, hi, 0);
}

int64_t gasneti_getenv_size(const char *key, int64_t dflt, int64_t lo, int64_t hi)
{
    return getenv_number(key, dflt, lo, hi, 1);
}

/* Whether this node is in the list ("*", or "0,2-4,6"); unset or empty: all. */
int gasneti_getenv_nodes(const char *key)
{
    const char *v = gasneti_getenv_str(key, "*");
    if (!*v || !strcmp(v, "*")) return 1;
    int mine = 0;
    for (const char *p = v;;) {
        char *end;
        errno = 0;
        if (*p < '0' || *p > '9') goto bad;
        unsigned long lo = strtoul(p, &end, 10), hi = lo;
        if (*end == '-') {
            p = end + 1;
            if (*p < '0' || *p > '9') goto bad;
            hi = strtoul(p, &end, 10);
        }
        if (errno == ERANGE || hi < lo) goto bad;
        mine |= gasneti_mynode >= lo && gasneti_mynode <= hi;
        if (!*end) return mine;
        if (*end != ',') goto bad;
        p = end + 1;
    }
bad:
    gasneti_fatalerror("environment variable %s='%s' is not a list of nodes: use * or numbers "
                       "and ranges such as 0,2-4,6", key, v);
}

#ifdef GASNET_DEBUG
void gasneti_debug_kill_point(const char *where)
{
    const char *v = gasnet_getenv("GASNET_DEBUG_KILL_AT");
    size_t n = strlen(where);
    if (!v || strncmp(v, where, n) != 0 || v[n] != ':') return;
    char *end;
    long node = strtol(v + n + 1, &end, 10);
    if (*end || end == v + n + 1) gasneti_fatalerror("GASNET_DEBUG_KILL_AT='%s': use WHERE:NODE", v);
    if (node != (long)gasneti_mynode) return;
    fprintf(stderr, "GASNet node %u: GASNET_DEBUG_KILL_AT=%s: killing itself\n", gasneti_mynode, v);
    fflush(stderr);
    raise(SIGKILL);
}
#endif

double gasneti_getenv_seconds(const char *key, double dflt, double lo, double hi)
{
    const char *v = gasnett_getenv(key);
    if (!v || !*v) {
        gasnett_envdbl_display(key, dflt, 1);
        return dflt;
    }
    char *end;
    errno = 0;
    double r = strtod(v, &end);
    while (isspace((unsigned char)*end)) end++;
    /* !(r >= lo) also refuses NaN */
    if (end == v || *end || errno == ERANGE || !(r >= lo) || !(r <= hi))
        gasneti_fatalerror("environment variable %s='%s' is not a number of seconds from %g to %g",
                           key, v, lo, hi);
    gasneti_envdisplay(key, v, 0);
    return r;
}

int gasneti_getenv_yesno(const char *key, int dflt)
{
    return gasnett_getenv_yesno_withdefault(key, dflt);
}

/* Unset or empty: dflt. */
const char *gasneti_getenv_str(const char *key, const char *dflt)
{
    const char *v = gasnet_getenv(key);
    if (v && !*v) v = NULL;
    gasneti_envdisplay(key, v ? v : dflt, v == NULL);
    return v ? v : dflt;
}

