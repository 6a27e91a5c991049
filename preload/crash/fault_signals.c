/* fault_signals.c: termination signals, faults and aborts (see
 * fault_signals.h). The handlers only do async-signal-safe work: flags,
 * clock reads, write(2), and for faults libunwind's local unwinding. */
#include "fault_signals.h"
#include "clock.h"
#include "crash_backtrace.h"
#include "fault_stack.h"
#include "libunwind_local.h"
#include "log.h"
#include "partial_file.h"
#include "process_meta.h"
#include "runtime.h"
#include "signal_text.h"
#include "thread_state.h"

#include <dlfcn.h>
#include <errno.h>
#include <link.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

static const int fatal_signals[] = {SIGTERM, SIGINT, SIGXCPU};
static const int fault_signals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
enum { NFAULTS = sizeof(fault_signals) / sizeof(fault_signals[0]) };

/* Per fault signal: the handler a library had installed (UCX's crash
 * reporter, loaded with MPI, does so before scope starts or in MPI_Init),
 * run after scope's; SIG_DFL if none. */
static struct sigaction fault_next[NFAULTS];

void scope_keep_records_for_recover(const char *why)
{
    if (!scope_rt.enabled)
        return;
    scope_recording = 0;
    scope_meta_set_stopped(scope_clock_raw(), scope_monotonic_ns());
    char line[256];
    size_t n = scope_text_append(line, 0, sizeof(line), "scope: pid ");
    n = scope_text_append_int(line, n, sizeof(line), (long)getpid());
    n = scope_text_append(line, n, sizeof(line), ": ");
    n = scope_text_append(line, n, sizeof(line), why);
    n = scope_text_append(line, n, sizeof(line), ": records kept for `scope recover`\n");
    scope_text_write(line, n);
}

static const char *signal_name(int sig)
{
    switch (sig) {
    case SIGTERM: return "SIGTERM";
    case SIGINT: return "SIGINT";
    case SIGXCPU: return "SIGXCPU";
    case SIGSEGV: return "SIGSEGV";
    case SIGBUS: return "SIGBUS";
    case SIGFPE: return "SIGFPE";
    case SIGILL: return "SIGILL";
    default: return "SIGABRT";
    }
}

/* The default action, once this handler returns: the exit status is the
 * one the signal gives without scope. */
static void take_default_action(int sig)
{
    signal(sig, SIG_DFL);
    raise(sig);
}

static void on_fatal_signal(int sig, siginfo_t *info, void *context)
{
    (void)info;
    (void)context;
    int saved = errno;
    scope_log_write_held();
    scope_keep_records_for_recover(signal_name(sig));
    scope_partial_file_remove();
    take_default_action(sig);
    errno = saved;
}

/* A fault: the records are kept first (the unwinder may fault too), then
 * the backtrace. */
static void on_fault(int sig, siginfo_t *info, void *context)
{
    int saved = errno;
    scope_log_write_held();
    scope_keep_records_for_recover(signal_name(sig));
    char line[128];
    size_t n = scope_text_append(line, 0, sizeof(line), "scope: pid ");
    n = scope_text_append_int(line, n, sizeof(line), (long)getpid());
    n = scope_text_append(line, n, sizeof(line), ": ");
    n = scope_text_append(line, n, sizeof(line), signal_name(sig));
    if (sig != SIGABRT) {
        n = scope_text_append(line, n, sizeof(line), " at address ");
        n = scope_text_append_hex(line, n, sizeof(line), (uint64_t)(uintptr_t)info->si_addr);
    }
    n = scope_text_append(line, n, sizeof(line), ", backtrace of the faulting thread:\n");
    scope_text_write(line, n);
    scope_crash_backtrace_print(context);
    for (int i = 0; i < NFAULTS; i++)
        if (fault_signals[i] == sig && fault_next[i].sa_handler != SIG_DFL) {
            /* A hardware fault happens again on return, now for the next
             * handler; a sent or raised signal is sent again. */
            sigaction(sig, &fault_next[i], NULL);
            if (info->si_code <= 0)
                raise(sig);
            errno = saved;
            return;
        }
    take_default_action(sig);
    errno = saved;
}

/* Fault handlers run on an alternate stack where scope set one (see
 * fault_stack.h), so that a stack overflow still gets
 * its backtrace; the other handlers run where the program runs. */
static void install(int sig, void (*handler)(int, siginfo_t *, void *), int flags)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sigemptyset(&sa.sa_mask);
    sa.sa_sigaction = handler;
    sa.sa_flags = SA_SIGINFO | SA_RESTART | flags;
    sigaction(sig, &sa, NULL);
}

/* Installs handler for sig unless the program (or its launcher) has
 * decided already. Returns 1 if installed. */
static int install_unless_taken(int sig, void (*handler)(int, siginfo_t *, void *))
{
    struct sigaction old;
    if (sigaction(sig, NULL, &old) != 0 || old.sa_handler != SIG_DFL ||
        (old.sa_flags & SA_SIGINFO))
        return 0;
    install(sig, handler, 0);
    return 1;
}

/* Whether a handler is a shared library's (a crash reporter such as UCX's
 * or Open MPI's), not the program's own nor SIG_IGN. */
static int library_handler(const struct sigaction *sa)
{
    void *code = (sa->sa_flags & SA_SIGINFO) ? (void *)sa->sa_sigaction : (void *)sa->sa_handler;
    Dl_info info;
    struct link_map *module = NULL;
    if (sa->sa_handler == SIG_DFL || sa->sa_handler == SIG_IGN ||
        !dladdr1(code, &info, (void **)&module, RTLD_DL_LINKMAP) || !module)
        return 0;
    return module->l_name && module->l_name[0] != '\0';   /* "" is the program */
}

void scope_install_signal_handlers(void)
{
    for (size_t i = 0; i < sizeof(fatal_signals) / sizeof(fatal_signals[0]); i++)
        install_unless_taken(fatal_signals[i], on_fatal_signal);
    if (scope_libunwind_load() != 0)
        scope_debug("libunwind.so.8 not loaded: crashes get no backtrace");
    void *main_thread_stack = NULL;   /* the main thread's for the whole run */
    scope_fault_stack_install(&main_thread_stack);
    scope_take_fault_signals();
}

void scope_take_fault_signals(void)
{
    for (int i = 0; i < NFAULTS; i++) {
        struct sigaction now;
        if (sigaction(fault_signals[i], NULL, &now) != 0 ||
            ((now.sa_flags & SA_SIGINFO) && now.sa_sigaction == on_fault))
            continue;
        if (now.sa_handler != SIG_DFL && !library_handler(&now))
            continue;   /* the program's own: it decided */
        fault_next[i] = now;
        install(fault_signals[i], on_fault, SA_ONSTACK);
    }
}
