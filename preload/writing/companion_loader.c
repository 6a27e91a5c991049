/* companion_loader.c: finds a companion library next to libscope or in the
 * build tree and dlmopen()s it into a namespace of its own (see
 * namespace_keys.c). */
#include "companion_loader.h"
#include "namespace_keys.h"
#include "real_loader.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

const void *scope_load_companion(const char *file, const char *build_dir, const char *entry,
                                 char *err, size_t errlen)
{
    Dl_info info;
    char dir[PATH_MAX];
    if (!dladdr((void *)&scope_load_companion, &info) || !info.dli_fname) {
        snprintf(err, errlen, "cannot locate libscope itself");
        return NULL;
    }
    snprintf(dir, sizeof(dir), "%s", info.dli_fname);
    char *slash = strrchr(dir, '/');
    if (slash)
        *slash = '\0';
    else
        snprintf(dir, sizeof(dir), ".");
    const char *why = "not found";
    const char *subdirs[] = {".", build_dir};
    for (size_t i = 0; i < sizeof(subdirs) / sizeof(subdirs[0]); i++) {
        char path[2 * PATH_MAX];
        snprintf(path, sizeof(path), "%s/%s/%s", dir, subdirs[i], file);
        if (access(path, R_OK) != 0)
            continue;
        Lmid_t lmid;
        if (scope_namespace_create(&lmid, err, errlen) != 0)
            return NULL;
        void *h = scope_libc_dlmopen()(lmid, path, RTLD_NOW | RTLD_LOCAL);
        if (!h) {
            why = dlerror();
            continue;
        }
        const void *(*get)(void) = (const void *(*)(void))dlsym(h, entry);
        if (get)
            return get();
        why = "entry point missing";
    }
    snprintf(err, errlen, "cannot load %s from %s: %s", file, dir, why);
    return NULL;
}

const struct scope_resolve_api *scope_load_resolver(char *err, size_t errlen)
{
    return scope_load_companion("libscope-resolve.so", "callsites/resolve", "scope_resolve_api", err, errlen);
}
