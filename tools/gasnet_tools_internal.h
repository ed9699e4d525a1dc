/* gasnet_tools_internal.h: what libgasnet's core sees of the tools library
 * beyond the public gasnet_tools.h. See the comment block at the top of
 * gasnet_tools.c for the full contract. */
#ifndef GASNET_TOOLS_INTERNAL_H
#define GASNET_TOOLS_INTERNAL_H

#ifdef __cplusplus
extern "C" {
#endif

/* Set by the core at gasnet_init, before the client starts other threads;
 * NULL (the default) in tools-only programs. */

/* The job-wide environment: returns the value of `name` or NULL. A NULL
 * result makes gasnett_getenv fall back to the process getenv. */
extern char *(*gasneti_tools_getenv_hook)(const char *name);

/* What gasnett_verboseenv() returns: -1 before init, else non-zero only on
 * the node that reports settings (node 0) when GASNET_VERBOSEENV is set.
 * Unset, libgasnet's tools answer -1; tools-only programs read
 * GASNET_VERBOSEENV themselves. */
extern int (*gasneti_tools_verboseenv_hook)(void);

/* Reports one setting when gasnett_verboseenv() > 0, once per key, as
 *   ENV parameter: KEY = value   (default)
 * on stderr ("   (default)" only when is_default). Thread-safe. Settings
 * seen while gasnett_verboseenv() is -1 (in libgasnet before the hook is
 * set, or when the hook says -1) are printed with the first report after. */
extern void gasneti_envdisplay(const char *key, const char *value, int is_default);

/* The library's settings: value parsed strictly, as a count or (is_size)
 * a byte size with an optional unit (K, M, G, T, optionally followed by
 * B); nothing else may follow. Returns NULL and sets *out, or what is
 * wrong ("is not an integer"...). */
extern const char *gasneti_parse_setting(const char *value, int is_size, int64_t *out);

/* Set to 1 while a process is frozen for a debugger (GASNET_FREEZE_ON_ERROR);
 * the debugger sets it to 0 to let the process go on. */
extern volatile int gasneti_frozen;

/* Whether a fatal error (gasnett_fatalerror) has begun in this process:
 * its abort() then needs no second freeze or backtrace. */
extern int gasneti_fatalerror_seen(void);

/* GASNET_QUIET (yes/no, read once): non-zero when warnings and notices
 * that change nothing are not to be printed. gasneti_quiet_reset reads it
 * again (libgasnet, once the job's environment is known). */
extern int gasneti_quiet(void);
extern void gasneti_quiet_reset(void);

/* GASNET_BACKTRACE_NODES: the core says whether this node is one of those
 * that backtrace (1 until told otherwise). gasneti_backtrace_enabled() is
 * GASNET_BACKTRACE on this node. */
extern void gasneti_backtrace_node(int on);
extern int gasneti_backtrace_enabled(void);

/* Self-tests of the tools (gasnet_tools_diag.c; the part of
 * gasnett_run_diagnostics that needs no network). `sections` names what to
 * run by letter, NULL or "" for all: A timers, B memory barriers, C
 * atomics, D mutexes, E condition variables, F rwlocks, G thread keys, H
 * the checked allocator; other letters are ignored (left to the caller).
 * `iters` sets the repetitions (0: 1000) and `threadcnt` the threads of
 * the contended checks (0: 4; a SEQ build runs in the calling thread only).
 * Returns the number of failed checks, each reported on stderr (iters < 0
 * or threadcnt outside 0..256 is one). */
extern int gasneti_tools_diagnostics(int iters, int threadcnt, const char *sections);

#ifdef __cplusplus
}
#endif

#endif
