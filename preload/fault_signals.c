/* fault_signals.c: termination signals and aborts (see fault_signals.h).
 * The handler only does async-signal-safe work: flags, clock reads and
 * one write(2). */
#include "fault_signals.h"
#include "clock.h"
#include "process_meta.h"
#include "runtime.h"
#include "thread_state.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

static const int fatal_signals[] = {SIGTERM, SIGINT, SIGXCPU};

static size_t append(char *buf, size_t at, size_t cap, const char *s)
{
    while (*s && at + 1 < cap)
        buf[at++] = *s++;
    return at;
}

static size_t append_int(char *buf, size_t at, size_t cap, long v)
{
    char digits[24];
    int n = 0;
    unsigned long u = v < 0 ? 0UL - (unsigned long)v : (unsigned long)v;
    do
        digits[n++] = (char)('0' + u % 10);
    while ((u /= 10) && n < (int)sizeof(digits));
    if (v < 0)
        at = append(buf, at, cap, "-");
    while (n > 0 && at + 1 < cap)
        buf[at++] = digits[--n];
    return at;
}

void scope_keep_records_for_recover(const char *why)
{
    if (!scope_rt.enabled)
        return;
    scope_recording = 0;
    scope_meta_set_stopped(scope_clock_raw(), scope_monotonic_ns());
    char line[256];
    size_t n = append(line, 0, sizeof(line), "scope: pid ");
    n = append_int(line, n, sizeof(line), (long)getpid());
    n = append(line, n, sizeof(line), ": ");
    n = append(line, n, sizeof(line), why);
    n = append(line, n, sizeof(line), ": records kept for `scope recover`\n");
    ssize_t ignored = write(STDERR_FILENO, line, n);
    (void)ignored;
}

static void on_fatal_signal(int sig)
{
    int saved = errno;
    scope_keep_records_for_recover(sig == SIGTERM ? "SIGTERM" : sig == SIGINT ? "SIGINT" : "SIGXCPU");
    signal(sig, SIG_DFL);
    raise(sig);   /* delivered, with the default action, when we return */
    errno = saved;
}

void scope_install_signal_handlers(void)
{
    for (size_t i = 0; i < sizeof(fatal_signals) / sizeof(fatal_signals[0]); i++) {
        struct sigaction old, sa;
        if (sigaction(fatal_signals[i], NULL, &old) != 0 || old.sa_handler != SIG_DFL ||
            (old.sa_flags & SA_SIGINFO))
            continue;   /* the program (or its launcher) decided already */
        memset(&sa, 0, sizeof(sa));
        sa.sa_handler = on_fatal_signal;
        sigemptyset(&sa.sa_mask);
        sa.sa_flags = SA_RESTART;
        sigaction(fatal_signals[i], &sa, NULL);
    }
}
