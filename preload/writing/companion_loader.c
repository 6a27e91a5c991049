/* companion_loader.c: finds a companion library next to libscope or in the
 * build tree and dlmopen()s it into a namespace of its own (see
 * namespace_keys.c), after the stand-ins it comes with. */
#include "companion_loader.h"
#include "namespace_keys.h"
#include "real_loader.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* Loads the stand-ins present in `dir` into namespace lmid; one that
 * fails to load only means the library it stands for is loaded. */
static void load_standins(Lmid_t lmid, const char *dir, const char *const *standins)
{
    for (size_t i = 0; standins && standins[i]; i++) {
        char path[3 * PATH_MAX];
        snprintf(path, sizeof(path), "%s/%s", dir, standins[i]);
        if (access(path, R_OK) == 0)
            scope_libc_dlmopen()(lmid, path, RTLD_NOW | RTLD_LOCAL);
    }
}

/* `path` loaded into a new namespace (after the stand-ins in `home`, when
 * given): what its `entry` returns; NULL with *why set. */
static const void *load_into_namespace(const char *path, const char *home,
                                       const char *const *standins, const char *entry,
                                       const char **why, char *err, size_t errlen)
{
    Lmid_t lmid;
    if (scope_namespace_create(&lmid, err, errlen) != 0) {
        *why = err;
        return NULL;
    }
    load_standins(lmid, home, standins);
    void *h = scope_libc_dlmopen()(lmid, path, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        *why = dlerror();
        return NULL;
    }
    const void *(*get)(void) = (const void *(*)(void))dlsym(h, entry);
    if (get)
        return get();
    *why = "entry point missing";
    return NULL;
}

const void *scope_load_companion(const char *file, const char *const *standins,
                                 const char *build_dir, const char *entry, char *err,
                                 size_t errlen)
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
    char because[512] = "";
    const char *subdirs[] = {".", build_dir};
    for (size_t i = 0; i < sizeof(subdirs) / sizeof(subdirs[0]); i++) {
        char home[2 * PATH_MAX], path[3 * PATH_MAX];
        snprintf(home, sizeof(home), "%s/%s", dir, subdirs[i]);
        snprintf(path, sizeof(path), "%s/%s", home, file);
        if (access(path, R_OK) != 0)
            continue;
        const void *api = load_into_namespace(path, home, standins, entry, &why, because,
                                              sizeof because);
        if (!api && standins)   /* a stand-in did not fit: the real libraries then */
            api = load_into_namespace(path, home, NULL, entry, &why, because, sizeof because);
        if (api)
            return api;
    }
    snprintf(err, errlen, "cannot load %s from %s: %s", file, dir, why);
    return NULL;
}

const struct scope_resolve_api *scope_load_resolver(char *err, size_t errlen)
{
    return scope_load_companion("libscope-resolve.so", NULL, "callsites/resolve",
                                "scope_resolve_api", err, errlen);
}
