/* libunwind_local.c: loads libunwind's local unwinder (libunwind_local.h). */
#include "libunwind_local.h"
#include "real_loader.h"

#include <dlfcn.h>
#include <pthread.h>

#define SYMBOL_OF(fn) SYMBOL_STRING(fn)
#define SYMBOL_STRING(fn) #fn

struct scope_libunwind scope_unw;

static void load(void)
{
    void *lib = scope_libc_dlopen()("libunwind.so.8", RTLD_NOW | RTLD_LOCAL);
    if (!lib)
        return;
    struct scope_libunwind u = {
        .init_local2 = (__typeof__(u.init_local2))dlsym(lib, SYMBOL_OF(unw_init_local2)),
        .step = (__typeof__(u.step))dlsym(lib, SYMBOL_OF(unw_step)),
        .get_reg = (__typeof__(u.get_reg))dlsym(lib, SYMBOL_OF(unw_get_reg)),
        .get_proc_name = (__typeof__(u.get_proc_name))dlsym(lib, SYMBOL_OF(unw_get_proc_name)),
        .backtrace = (__typeof__(u.backtrace))dlsym(lib, SYMBOL_OF(unw_backtrace)),
    };
    if (u.init_local2 && u.step && u.get_reg && u.get_proc_name && u.backtrace)
        scope_unw = u;
}

int scope_libunwind_load(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, load);
    return scope_unw.init_local2 ? 0 : -1;
}
