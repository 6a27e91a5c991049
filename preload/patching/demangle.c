/* demangle.c: finds __cxa_demangle in the process (or loads libstdc++ when
 * allowed) and strips parameter lists for matching "Class::method". */
#include "demangle.h"
#include "real_loader.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

typedef char *(*cxa_demangle_fn)(const char *, char *, size_t *, int *);

static cxa_demangle_fn demangler;
static int looked, may_load;

void scope_demangle_may_load(void)
{
    may_load = 1;
    looked = 0;
}

static cxa_demangle_fn find_demangler(void)
{
    if (looked)
        return demangler;
    looked = 1;
    demangler = (cxa_demangle_fn)dlsym(RTLD_DEFAULT, "__cxa_demangle");
    if (!demangler) {
        int mode = RTLD_LAZY | RTLD_LOCAL | (may_load ? 0 : RTLD_NOLOAD);
        void *h = scope_libc_dlopen()("libstdc++.so.6", mode);
        if (h)
            demangler = (cxa_demangle_fn)dlsym(h, "__cxa_demangle");
    }
    return demangler;
}

char *scope_demangle(const char *mangled)
{
    if (strncmp(mangled, "_Z", 2) != 0)
        return NULL;
    cxa_demangle_fn fn = find_demangler();
    int status = -1;
    char *out = fn ? fn(mangled, NULL, NULL, &status) : NULL;
    if (status != 0) {
        free(out);
        return NULL;
    }
    return out;
}

size_t scope_demangled_base_length(const char *d)
{
    int angle = 0;
    for (const char *p = d; *p; p++) {
        if (strncmp(p, "operator()", 10) == 0) {
            p += 9;   /* its "()" is part of the name */
            continue;
        }
        if (*p == '<')
            angle++;
        else if (*p == '>' && angle > 0)
            angle--;
        else if (*p == '(' && angle == 0)
            return (size_t)(p - d);
    }
    return strlen(d);
}
