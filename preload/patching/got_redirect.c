/* got_redirect.c: rewrites GOT slots of loaded modules (found from the
 * relocations their dynamic sections point at, elf_got.c) to point at
 * entry thunks. */
#include "got_redirect.h"
#include "elf_got.h"
#include "log.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

struct redirect {
    const struct scope_module *module;
    struct scope_got_target *targets;
    size_t ntargets;
    size_t module_index;
    size_t *counted;   /* per target: 1 + the last module index counted */
};

static int by_symbol(const void *a, const void *b)
{
    return strcmp(((const struct scope_got_target *)a)->symbol,
                  ((const struct scope_got_target *)b)->symbol);
}

/* Writes one slot, through a writable mapping of its page when RELRO. */
static int write_slot(const struct scope_module *m, uintptr_t *slot, uintptr_t value)
{
    uintptr_t at = (uintptr_t)slot;
    if (at < m->relro_start || at >= m->relro_end) {
        __atomic_store_n(slot, value, __ATOMIC_RELEASE);
        return 0;
    }
    long page = sysconf(_SC_PAGESIZE);
    void *lo = (void *)(at & ~(uintptr_t)(page - 1));
    if (mprotect(lo, (size_t)page, PROT_READ | PROT_WRITE) != 0)
        return -1;
    __atomic_store_n(slot, value, __ATOMIC_RELEASE);
    return mprotect(lo, (size_t)page, PROT_READ);
}

static int on_slot(const char *name, uint64_t offset, void *data)
{
    struct redirect *r = data;
    struct scope_got_target key = {.symbol = name};
    struct scope_got_target *t = bsearch(&key, r->targets, r->ntargets, sizeof key, by_symbol);
    if (!t)
        return 0;
    const struct scope_module *m = r->module;
    uintptr_t *slot = (uintptr_t *)(m->bias + offset);
    uintptr_t now = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
    /* Not bound yet: it points into the module's own PLT. */
    int lazy = now >= m->start && now < m->end && now != t->function;
    if (now == t->thunk || (now != t->function && !(lazy && dlsym(RTLD_DEFAULT, name) ==
                                                             (void *)t->function)))
        return 0;
    if (write_slot(m, slot, t->thunk) != 0) {
        scope_warn("warning: cannot redirect %s in the GOT of %s: %m", name, m->path);
        return 0;
    }
    size_t *counted = &r->counted[t - r->targets];
    if (*counted != r->module_index + 1) {
        *counted = r->module_index + 1;
        t->modules++;
    }
    return 0;
}

void scope_got_redirect(const struct scope_module *modules, size_t nmodules,
                        struct scope_got_target *targets, size_t ntargets)
{
    if (ntargets == 0)
        return;
    qsort(targets, ntargets, sizeof *targets, by_symbol);
    size_t *counted = calloc(ntargets, sizeof *counted);
    if (!counted)
        return;
    char err[512];
    for (size_t i = 0; i < nmodules; i++) {
        struct redirect r = {&modules[i], targets, ntargets, i, counted};
        if (scope_loaded_foreach_got_slot(modules[i].dynamic, modules[i].bias, modules[i].path,
                                          on_slot, &r, err, sizeof err) != 0)
            scope_debug("%s", err);
    }
    free(counted);
}
