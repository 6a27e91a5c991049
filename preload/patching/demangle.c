/* demangle.c: finds __cxa_demangle in the process (or loads libstdc++: into
 * the process when allowed, else into a namespace of its own) and strips
 * parameter lists for matching "Class::method". */
#include "demangle.h"
#include "real_loader.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

typedef char *(*cxa_demangle_fn)(const char *, char *, size_t *, int *);
typedef void (*free_fn)(void *);

static cxa_demangle_fn demangler;
static free_fn demangler_free = free;   /* the allocator its results come from */
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
    if (demangler)
        return demangler;
    void *h = scope_libc_dlopen()("libstdc++.so.6", RTLD_LAZY | RTLD_LOCAL |
                                                    (may_load ? 0 : RTLD_NOLOAD));
    if (!h && !may_load) {
        h = scope_libc_dlmopen()(LM_ID_NEWLM, "libstdc++.so.6", RTLD_LAZY | RTLD_LOCAL);
        demangler_free = h ? (free_fn)dlsym(h, "free") : NULL;   /* its namespace's libc */
    }
    if (h && demangler_free)
        demangler = (cxa_demangle_fn)dlsym(h, "__cxa_demangle");
    return demangler;
}

char *scope_demangle(const char *mangled)
{
    if (strncmp(mangled, "_Z", 2) != 0)
        return NULL;
    cxa_demangle_fn fn = find_demangler();
    int status = -1;
    char *theirs = fn ? fn(mangled, NULL, NULL, &status) : NULL;
    char *out = status == 0 && theirs ? strdup(theirs) : NULL;
    if (theirs)
        demangler_free(theirs);
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
