/* Signals for debugging a job: fatal signals, the backtrace and freeze
 * signals, and freezing at start-up. (Termination signals and the exit
 * failsafe's SIGALRM are core-mpi/exit.c's.)
 *
 * Fatal signals (SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT): the node that
 * gets one prints, as the reference does,
 *   *** Caught a fatal signal (proc R of N, pid P, host H): SIGSEGV(11)
 * then freezes if GASNET_FREEZE_ON_ERROR is set, backtraces if
 * GASNET_BACKTRACE is set on this node (GASNET_BACKTRACE_NODES), else
 * prints the reference's notice that a backtrace is one setting away
 * (unless GASNET_QUIET); then it puts the default action back and raises
 * the signal again, so the process ends killed by that signal (a core
 * file, where the limits allow one) and the launcher reports the job as
 * ended by it. An abort() that ends a fatal error
 * (gasnett_fatalerror) has frozen and backtraced already: it only prints
 * the line. The handlers run on an alternate stack (a stack overflow is a
 * SIGSEGV too) of the thread that called init. They replace what MPI
 * installed (UCX catches SIGSEGV to print its own backtrace), as the
 * reference's do, and are put back after attach where a library the RMA
 * backends loaded replaced them (gasnetc_signals_reclaim); under ASan or
 * TSan a handler already in place (the sanitizer's) is kept.
 * GASNET_NO_CATCH_SIGNAL=yes installs none of them.
 *
 * GASNET_BACKTRACE_SIGNAL=SIG (a name, USR1 or SIGUSR1, or a number): that
 * signal makes the node print a backtrace of the thread it interrupts and
 * go on. GASNET_FREEZE_SIGNAL=SIG: that signal freezes the node where it
 * is. GASNET_FREEZE=yes freezes every node in init, once MPI is up. A
 * frozen node prints the command to attach a debugger and loops until
 * the volatile int gasnet_frozen is 0 (the debugger sets it) or a SIGCONT
 * arrives (gasnett_freezeForDebuggerNow). Signals the library uses
 * otherwise, and those no process can catch, are refused.
 *
 * The handlers format with snprintf and may call the backtrace mechanisms,
 * which are not async-signal-safe: like the reference's, they are a last
 * act (fatal signals) or the user's explicit request.
 */
#include "gasnet_internal.h"
#include "gasnet_tools_internal.h"
#include <gasnet_tools.h>

#include <ctype.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

volatile int gasnet_frozen;

static char host[64];
static int backtrace_signal, freeze_signal;

static void say(const char *msg)
{
    size_t len = strlen(msg);
    ssize_t rc = write(STDERR_FILENO, msg, len);
    (void)rc;
}

static int freeze_on_error; /* GASNET_FREEZE_ON_ERROR, read at init */

static void on_fatal(int sig)
{
    char msg[256];
    const char *name = gasnett_signame_fromval(sig);
    snprintf(msg, sizeof msg, "*** Caught a fatal signal (proc %u of %u, pid %d, host %s): %s(%d)\n",
             gasneti_mynode, gasneti_nodes, (int)getpid(), host, name ? name : "signal", sig);
    say(msg);
    gasneti_trace_signal(sig);
    if (!gasneti_fatalerror_seen()) {
        if (freeze_on_error) gasnett_freezeForDebuggerNow(&gasneti_frozen, "gasneti_frozen");
        if (gasneti_backtrace_enabled())
            gasnett_print_backtrace(STDERR_FILENO);
        else if (!gasneti_quiet())
            say("NOTICE: Before reporting bugs, run with GASNET_BACKTRACE=1 in the environment "
                "to generate a backtrace.\n");
    }
    signal(sig, SIG_DFL);
    raise(sig); /* delivered when the handler returns: the process ends by it */
}

static void on_backtrace_signal(int sig)
{
    char msg[160];
    snprintf(msg, sizeof msg, "GASNet node %u (pid %d): GASNET_BACKTRACE_SIGNAL %s: backtrace\n",
             gasneti_mynode, (int)getpid(), gasnett_signame_fromval(sig));
    say(msg);
    if (gasnett_print_backtrace(STDERR_FILENO) != 0) say("GASNet: no backtrace mechanism worked\n");
}

static void on_freeze_signal(int sig)
{
    char msg[160];
    snprintf(msg, sizeof msg, "GASNet node %u: GASNET_FREEZE_SIGNAL %s: freezing\n", gasneti_mynode,
             gasnett_signame_fromval(sig));
    say(msg);
    gasnett_freezeForDebuggerNow(&gasnet_frozen, "gasnet_frozen");
}

/* Sanitizers report fatal signals better than a backtrace: under one,
 * a handler already in place is kept. */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define KEEP_SANITIZER_HANDLERS 1
#else
#define KEEP_SANITIZER_HANDLERS 0
#endif

/* Installs fn for sig; returns 0 where it kept the handler in place. */
static int install(int sig, void (*fn)(int), int flags, int keep_existing)
{
    struct sigaction sa, old;
    if (keep_existing && sigaction(sig, NULL, &old) == 0 &&
        ((old.sa_flags & SA_SIGINFO) || old.sa_handler != SIG_DFL))
        return 0;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = fn;
    sa.sa_flags = flags;
    sigemptyset(&sa.sa_mask);
    if (sigaction(sig, &sa, NULL) != 0)
        gasneti_fatalerror("gasnet_init: cannot install a handler for %s: %s", gasnett_signame_fromval(sig),
                           strerror(errno));
    return 1;
}

static const int fatal[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT};
#define NFATAL (sizeof fatal / sizeof fatal[0])
static int ours[NFATAL]; /* the fatal signals whose handler is on_fatal */

/* Libraries the RMA backends load at attach may install fatal-signal
 * handlers of their own (libfabric's psm2 provider does, and then ends a
 * crashed node with status 1 and no report): ours are put back. */
void gasnetc_signals_reclaim(void)
{
    for (size_t i = 0; i < NFATAL; i++) {
        struct sigaction cur;
        if (ours[i] && sigaction(fatal[i], NULL, &cur) == 0 &&
            ((cur.sa_flags & SA_SIGINFO) || cur.sa_handler != on_fatal))
            install(fatal[i], on_fatal, SA_ONSTACK, 0);
    }
}

/* A signal setting: SIGNAME, NAME (any case) or a number; 0 when unset. */
static int signal_setting(const char *key)
{
    static const int reserved[] = {SIGKILL, SIGSTOP, SIGCONT, SIGALRM, SIGQUIT, SIGTERM, SIGINT,
                                   SIGHUP,  SIGSEGV, SIGBUS,  SIGILL,  SIGFPE,  SIGABRT};
    const char *v = gasneti_getenv_str(key, "none");
    if (!strcmp(v, "none") || !*v) return 0;
    int sig = 0;
    if (isdigit((unsigned char)v[0])) {
        char *end;
        long n = strtol(v, &end, 10);
        if (!*end && n > 0 && n < NSIG && gasnett_signame_fromval((int)n)) sig = (int)n;
    } else {
        const char *name = strncasecmp(v, "SIG", 3) ? v : v + 3;
        for (int s = 1; s < NSIG && !sig; s++) {
            const char *known = gasnett_signame_fromval(s);
            if (known && !strcasecmp(known + 3, name)) sig = s;
        }
    }
    if (!sig)
        gasneti_fatalerror("environment variable %s='%s' is not a signal (use a name such as SIGUSR1 "
                           "or USR1, or its number)", key, v);
    for (size_t i = 0; i < sizeof reserved / sizeof reserved[0]; i++)
        if (sig == reserved[i])
            gasneti_fatalerror("environment variable %s='%s': %s cannot be caught or is the library's "
                               "own; use another, such as SIGUSR1", key, v, gasnett_signame_fromval(sig));
    return sig;
}

void gasnetc_signals_init(void)
{
    snprintf(host, sizeof host, "%s", gasnett_gethostname());
    gasneti_quiet_reset();
    gasnett_backtrace_init(NULL); /* again, now from the job's environment */
    gasneti_backtrace_node(gasneti_getenv_nodes("GASNET_BACKTRACE_NODES"));
    if (!gasneti_getenv_yesno("GASNET_NO_CATCH_SIGNAL", 0)) {
        static char *altstack; /* kept for the life of the process */
        size_t altsize = 64 * 1024;
        stack_t old;
        /* one that is there already (a sanitizer's) is kept */
        if (sigaltstack(NULL, &old) == 0 && (old.ss_flags & SS_DISABLE) && !altstack &&
            (altstack = malloc(altsize))) {
            stack_t ss = {.ss_sp = altstack, .ss_size = altsize, .ss_flags = 0};
            sigaltstack(&ss, NULL);
        }
        for (size_t i = 0; i < NFATAL; i++)
            ours[i] = install(fatal[i], on_fatal, SA_ONSTACK, KEEP_SANITIZER_HANDLERS);
    }
    backtrace_signal = signal_setting("GASNET_BACKTRACE_SIGNAL");
    freeze_signal = signal_setting("GASNET_FREEZE_SIGNAL");
    if (backtrace_signal && backtrace_signal == freeze_signal)
        gasneti_fatalerror("environment variables GASNET_BACKTRACE_SIGNAL and GASNET_FREEZE_SIGNAL name "
                           "the same signal (%s): use two", gasnett_signame_fromval(freeze_signal));
    if (backtrace_signal) install(backtrace_signal, on_backtrace_signal, SA_RESTART, 0);
    if (freeze_signal) install(freeze_signal, on_freeze_signal, SA_RESTART, 0);
    /* read now: the handler must not parse the environment (locks, stdio) */
    freeze_on_error = gasneti_getenv_yesno("GASNET_FREEZE_ON_ERROR", 0);
    if (gasneti_getenv_yesno("GASNET_FREEZE", 0)) {
        fprintf(stderr, "GASNet node %u: GASNET_FREEZE: frozen in init\n", gasneti_mynode);
        gasnett_freezeForDebuggerNow(&gasnet_frozen, "gasnet_frozen");
    }
}
