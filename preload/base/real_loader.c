/* real_loader.c: the C library's dlopen and dlmopen, the next definitions
 * after libscope's (real_loader.h). */
#include "real_loader.h"

scope_dlopen_fn scope_libc_dlopen(void)
{
    static scope_dlopen_fn real;
    if (!real)
        real = (scope_dlopen_fn)dlsym(RTLD_NEXT, "dlopen");
    return real;
}

scope_dlmopen_fn scope_libc_dlmopen(void)
{
    static scope_dlmopen_fn real;
    if (!real)
        real = (scope_dlmopen_fn)dlsym(RTLD_NEXT, "dlmopen");
    return real;
}
