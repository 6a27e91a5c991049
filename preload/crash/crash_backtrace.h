/* crash_backtrace.h: the backtrace scope prints when the application dies
 * of a fault (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT): the faulting
 * thread's frames, found by libunwind from the signal's context, with the
 * hooked functions that were open marked (libunwind_local.h). */
#ifndef SCOPE_CRASH_BACKTRACE_H
#define SCOPE_CRASH_BACKTRACE_H

/* Prints the backtrace of the thread that received the fault; context is
 * the handler's ucontext_t. Async-signal-safe as far as libunwind's local
 * unwinding is. Puts the callers' return addresses back on the stack
 * (the run ends). */
void scope_crash_backtrace_print(void *context);

#endif
