/* install.c: turns the config's patterns into installed hooks: enumerate
 * the function symbols of every loaded module, keep those the config
 * selects (one hook per address), patch them, and say which patterns
 * matched nothing and which functions could not be hooked, and why. */
#include "demangle.h"
#include "elf_symbols.h"
#include "patcher.h"
#include "runtime.h"
#include "thread_state.h"
#include "trampoline.h"

#include <stdlib.h>
#include <string.h>

struct candidate {
    char *name;
    char *symbol;
    char *module;
    uintptr_t address;
    uint64_t value;
    size_t size;
};

struct candidates {
    struct candidate *v;
    size_t n, cap;
    int failed;
};

/* The region name of a symbol: the name the config gives it ("symbol as
 * name"), else its demangled C++ name, else the symbol itself, except that a
 * Fortran symbol found through its plain name ("solve" selecting solve_)
 * keeps the name the user wrote. */
static char *region_name(const char *symbol, int pattern)
{
    const struct scope_pattern *p = &scope_rt.config.patterns[pattern];
    if (p->display)
        return strdup(p->display);
    char *demangled = scope_demangle(symbol);
    if (demangled)
        return demangled;
    size_t n = strlen(p->text);
    if (p->kind == SCOPE_PATTERN_EXACT && strncmp(symbol, p->text, n) == 0 &&
        strcmp(symbol + n, "_") == 0)
        return strdup(p->text);
    return strdup(symbol);
}

static int collect(const struct scope_symbol *sym, void *ctx)
{
    struct candidates *c = ctx;
    int pattern = scope_config_match(&scope_rt.config, sym->name, sym->module_path);
    if (pattern < 0)
        return 0;
    if (c->n == c->cap) {
        size_t cap = c->cap ? c->cap * 2 : 64;
        struct candidate *v = realloc(c->v, cap * sizeof(*v));
        if (!v) {
            c->failed = 1;
            return 1;
        }
        c->v = v;
        c->cap = cap;
    }
    struct candidate *d = &c->v[c->n];
    d->name = region_name(sym->name, pattern);
    d->symbol = strdup(sym->name);
    d->module = strdup(sym->module_path);
    d->address = sym->address;
    d->value = sym->value;
    d->size = sym->size;
    if (!d->name || !d->symbol || !d->module) {
        free(d->name);
        free(d->symbol);
        free(d->module);
        c->failed = 1;
        return 1;
    }
    c->n++;
    return 0;
}

static int by_address(const void *a, const void *b)
{
    const struct candidate *x = a, *y = b;
    if (x->address != y->address)
        return x->address < y->address ? -1 : 1;
    return strcmp(x->symbol, y->symbol);
}

static uint32_t region_of(const char *name)
{
    for (size_t i = 0; i < scope_rt.nregions; i++)
        if (strcmp(scope_rt.regions[i], name) == 0)
            return (uint32_t)i;
    char **r = realloc(scope_rt.regions, (scope_rt.nregions + 1) * sizeof(*r));
    if (!r)
        return UINT32_MAX;
    scope_rt.regions = r;
    r[scope_rt.nregions] = strdup(name);
    return r[scope_rt.nregions] ? (uint32_t)scope_rt.nregions++ : UINT32_MAX;
}

static void free_candidate(struct candidate *c)
{
    free(c->name);
    free(c->symbol);
    free(c->module);
}

/* Prepares the patch of one candidate as hook number scope_rt.nhooks. */
static int prepare(struct candidate *c, struct scope_patch *patch)
{
    char why[256];
    uint32_t id = (uint32_t)scope_rt.nhooks;
    if (id >= SCOPE_MAX_HOOKS) {
        scope_warn("warning: more than %d functions selected: %s (%s) not hooked",
                  SCOPE_MAX_HOOKS, c->symbol, c->module);
        return -1;
    }
    if (scope_patch_prepare(c->address, c->size, id, patch, &scope_hook_targets[id], why,
                            sizeof(why)) != 0) {
        scope_warn("warning: cannot hook %s (%s): %s", c->symbol, c->module, why);
        return -1;
    }
    uint32_t region = region_of(c->name);
    if (region == UINT32_MAX)
        return -1;
    struct scope_hook *h = &scope_rt.hooks[id];
    h->name = scope_rt.regions[region];
    h->symbol = c->symbol;
    h->module = c->module;
    h->value = c->value;
    h->address = c->address;
    h->region = region;
    c->symbol = c->module = NULL;   /* now owned by the hook */
    scope_rt.nhooks++;
    return 0;
}

static void report_unmatched(void)
{
    for (size_t i = 0; i < scope_rt.config.npatterns; i++) {
        const struct scope_pattern *p = &scope_rt.config.patterns[i];
        if (p->exclude || p->matches)
            continue;
        if (p->line)
            scope_warn("warning: %s:%d: '%s' matches no function", p->source, p->line, p->text);
        else
            scope_warn("warning: %s: '%s' matches no function", p->source, p->text);
    }
}

size_t scope_install_hooks(void)
{
    struct candidates c = {0};
    scope_rt.config.demangle = scope_demangle;
    scope_elf_foreach_loaded_symbol((const void *)&scope_install_hooks, collect, &c);
    if (c.failed) {
        scope_log("out of memory while reading symbols: profiling disabled");
        goto out;
    }
    qsort(c.v, c.n, sizeof(*c.v), by_address);
    scope_rt.hooks = calloc(c.n ? c.n : 1, sizeof(*scope_rt.hooks));
    struct scope_patch *patches = calloc(c.n ? c.n : 1, sizeof(*patches));
    if (!scope_rt.hooks || !patches) {
        free(patches);
        goto out;
    }
    for (size_t i = 0; i < c.n; i++) {
        if (i > 0 && c.v[i].address == c.v[i - 1].address)
            continue;   /* an alias of the function just hooked */
        prepare(&c.v[i], &patches[scope_rt.nhooks]);
    }
    if (scope_trampoline_seal() != 0) {
        scope_log("cannot make trampolines executable: profiling disabled");
        scope_rt.nhooks = 0;
    }
    char why[256];
    for (size_t i = 0; i < scope_rt.nhooks; i++) {
        if (scope_patch_apply(&patches[i], why, sizeof(why)) != 0)
            scope_warn("warning: cannot hook %s (%s): %s", scope_rt.hooks[i].symbol,
                      scope_rt.hooks[i].module, why);
        else
            scope_debug("hooked %s in %s", scope_rt.hooks[i].symbol, scope_rt.hooks[i].module);
    }
    free(patches);
    if (scope_rt.nhooks > 0 || scope_rt.main_target || scope_rt.verbose)
        report_unmatched();
out:
    for (size_t i = 0; i < c.n; i++)
        free_candidate(&c.v[i]);
    free(c.v);
    return scope_rt.nhooks;
}
