/* writer_loader.c: finds libscope-writer.so next to libscope (installed
 * layout) or in the build tree's writer/ directory, and dlmopen()s it into
 * a namespace of its own (see namespace_keys.c). */
#include "writer_loader.h"
#include "namespace_keys.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static const char *const candidates[] = {"libscope-writer.so", "../writer/libscope-writer.so"};

const struct scope_writer_api *scope_load_writer(char *err, size_t errlen)
{
    Dl_info info;
    char dir[PATH_MAX];
    if (!dladdr((void *)&scope_load_writer, &info) || !info.dli_fname) {
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
    for (size_t i = 0; i < sizeof(candidates) / sizeof(candidates[0]); i++) {
        char path[PATH_MAX + 64];
        snprintf(path, sizeof(path), "%s/%s", dir, candidates[i]);
        if (access(path, R_OK) != 0)
            continue;
        Lmid_t lmid;
        if (scope_namespace_create(&lmid, err, errlen) != 0)
            return NULL;
        void *h = dlmopen(lmid, path, RTLD_NOW | RTLD_LOCAL);
        if (!h) {
            why = dlerror();
            continue;
        }
        const struct scope_writer_api *(*get)(void) =
            (const struct scope_writer_api *(*)(void))dlsym(h, "scope_writer_api");
        if (get)
            return get();
        why = "scope_writer_api missing";
    }
    snprintf(err, errlen, "cannot load libscope-writer.so from %s: %s", dir, why);
    return NULL;
}
