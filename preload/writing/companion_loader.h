/* companion_loader.h: loads one of libscope's companion libraries (the
 * HDF5 writer, the call-site resolver) into a namespace of its own
 * (dlmopen), so that its dependencies never meet the application's. */
#ifndef SCOPE_COMPANION_LOADER_H
#define SCOPE_COMPANION_LOADER_H

#include <stddef.h>

/* Finds `file` next to libscope (installed layout) or in `build_dir`
 * relative to it (build tree), loads it and returns what its function
 * `entry` (taking nothing) returns; NULL with err filled. `standins`
 * (NULL, or a NULL-terminated list of files beside `file`) are loaded into
 * the namespace first, each where present, so that the libraries whose
 * sonames they carry are not loaded for `file`. */
const void *scope_load_companion(const char *file, const char *const *standins,
                                 const char *build_dir, const char *entry, char *err,
                                 size_t errlen);

/* libscope-resolve.so's table (a scope_resolver_get_fn). */
struct scope_resolve_api;
const struct scope_resolve_api *scope_load_resolver(char *err, size_t errlen);

#endif
