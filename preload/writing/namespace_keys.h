/* namespace_keys.h: a new link-map namespace (for dlmopen) whose libc
 * cannot hand out the application's pthread keys. */
#ifndef SCOPE_NAMESPACE_KEYS_H
#define SCOPE_NAMESPACE_KEYS_H

#define _GNU_SOURCE 1
#include <dlfcn.h>
#include <stddef.h>

/* Creates the namespace (its own libc loaded) and fills *lmid; -1 with
 * err filled on failure. */
int scope_namespace_create(Lmid_t *lmid, char *err, size_t errlen);

#endif
