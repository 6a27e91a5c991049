/* libunwind_local.h: libunwind's local unwinding, dlopen()ed once for the
 * crash backtrace and the call-site stacks. Loaded locally (never in the
 * global scope: its _Unwind_* would shadow libgcc_s's for the application's
 * C++ exceptions). */
#ifndef SCOPE_LIBUNWIND_LOCAL_H
#define SCOPE_LIBUNWIND_LOCAL_H

#define UNW_LOCAL_ONLY
#include <libunwind.h>

struct scope_libunwind {
    __typeof__(unw_init_local2) *init_local2;
    __typeof__(unw_step) *step;
    __typeof__(unw_get_reg) *get_reg;
    __typeof__(unw_get_proc_name) *get_proc_name;
    __typeof__(unw_backtrace) *backtrace;
};

/* Every entry, or all NULL when libunwind.so.8 could not be loaded. */
extern struct scope_libunwind scope_unw __attribute__((visibility("hidden")));

/* Loads it (once, outside any signal handler). Returns 0 on success. */
int scope_libunwind_load(void) __attribute__((visibility("hidden")));

#endif
