/* real_loader.h: the C library's dlopen and dlmopen. libscope defines
 * dlopen and dlmopen itself (dlopen.c), so a plain call from inside
 * libscope (to load libstdc++ for demangling, libunwind, its companions, a
 * libc per namespace) would bind to those; libscope calls these instead. */
#ifndef SCOPE_REAL_LOADER_H
#define SCOPE_REAL_LOADER_H

#include <dlfcn.h>

typedef void *(*scope_dlopen_fn)(const char *file, int mode);
typedef void *(*scope_dlmopen_fn)(Lmid_t lmid, const char *file, int mode);

/* The next definition after libscope's (the C library's), looked up once;
 * never NULL on a glibc system. */
scope_dlopen_fn scope_libc_dlopen(void);
scope_dlmopen_fn scope_libc_dlmopen(void);

#endif
