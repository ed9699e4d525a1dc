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

/* Set to 1 while a process is frozen for a debugger (GASNET_FREEZE_ON_ERROR);
 * the debugger sets it to 0 to let the process go on. */
extern volatile int gasneti_frozen;

#ifdef __cplusplus
}
#endif

#endif
