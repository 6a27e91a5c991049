/* install.c: turns the config's patterns into installed hooks: enumerate
 * the function symbols of the loaded modules not seen before (all of them
 * at start, the new ones after a dlopen), keep those the config selects
 * (one hook per address), patch them inline, or, for exported functions
 * that cannot be, redirect the GOT slots other modules call them through;
 * and say which patterns matched nothing and which functions could not be
 * hooked, and why. */
#include "install.h"
#include "clone_names.h"
#include "demangle.h"
#include "elf_symbols.h"
#include "got_redirect.h"
#include "grow_array.h"
#include "libunwind_local.h"
#include "log.h"
#include "never_hooked.h"
#include "patcher.h"
#include "runtime.h"
#include "thread_state.h"
#include "trampoline.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

struct candidate {
    char *name;
    char *symbol;
    char *module;
    uintptr_t address;
    uint64_t value;
    size_t size, room;
    int exported;
    int callsite_depth;
    struct scope_code *fragments;   /* bytes: the live code at address */
    size_t nfragments;
};

struct candidates {
    struct candidate *v;
    size_t n, cap;
    int failed;
};

/* A prepared inline patch and its hook. */
struct pending {
    struct scope_patch patch;
    size_t hook;
};

/* A module hooked already: (path, load bias). */
struct seen_module {
    char *path;
    uintptr_t bias;
};

static pthread_mutex_t install_lock = PTHREAD_MUTEX_INITIALIZER;
static int started;   /* scope_install_hooks ran: the config is loaded */
static struct seen_module *seen;
static size_t nseen;
static size_t hooks_cap;
static int unwind_missing_said;
/* Every function hooked through GOTs, redirected again in new modules. */
static struct scope_got_target *got_targets;
static size_t ngot_targets;

/* The region name of a symbol: the name the config gives it ("symbol as
 * name"), else its demangled C++ name, else the symbol itself, both without
 * GCC's clone tags (a clone records into its function's region), except that a
 * Fortran symbol found through its plain name ("solve" selecting solve_)
 * keeps the name the user wrote. */
static char *region_name(const char *symbol, int pattern)
{
    const struct scope_pattern *p = &scope_rt.config.patterns[pattern];
    if (p->display)
        return strdup(p->display);
    char *demangled = scope_demangle(symbol);
    if (demangled) {
        demangled[scope_clone_base_length(demangled)] = '\0';
        return demangled;
    }
    size_t base = scope_clone_base_length(symbol);
    if (base < strlen(symbol))
        return strndup(symbol, base);
    size_t n = strlen(p->text);
    if (p->kind == SCOPE_PATTERN_EXACT && strncmp(symbol, p->text, n) == 0 &&
        strcmp(symbol + n, "_") == 0)
        return strdup(p->text);
    return strdup(symbol);
}

static void free_candidate(struct candidate *c)
{
    free(c->name);
    free(c->symbol);
    free(c->module);
    free(c->fragments);
}

static int collect(const struct scope_symbol *sym, void *ctx)
{
    struct candidates *c = ctx;
    if (sym->is_fragment)
        return 0;
    int pattern = scope_config_match(&scope_rt.config, sym->name, sym->module_path);
    if (pattern < 0)
        return 0;
    if (scope_grow_array((void **)&c->v, &c->cap, c->n + 1, sizeof(*c->v)) != 0) {
        c->failed = 1;
        return 1;
    }
    struct candidate *d = &c->v[c->n];
    *d = (struct candidate){
        .name = region_name(sym->name, pattern), .symbol = strdup(sym->name),
        .module = strdup(sym->module_path), .address = sym->address, .value = sym->value,
        .size = sym->size, .room = sym->room, .exported = sym->exported,
        .callsite_depth = scope_config_callsite_depth(&scope_rt.config, pattern),
        .fragments = calloc(sym->nfragments ? sym->nfragments : 1, sizeof(struct scope_code)),
    };
    if (!d->name || !d->symbol || !d->module || !d->fragments) {
        free_candidate(d);
        c->failed = 1;
        return 1;
    }
    for (size_t i = 0; i < sym->nfragments; i++)
        if (sym->fragments[i].bytes)
            d->fragments[d->nfragments++] = (struct scope_code){
                (const uint8_t *)sym->fragments[i].address, sym->fragments[i].address,
                sym->fragments[i].size};
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

/* Makes c hook number scope_rt.nhooks. */
static int add_hook(struct candidate *c)
{
    if (scope_grow_array((void **)&scope_rt.hooks, &hooks_cap, scope_rt.nhooks + 1,
                         sizeof(*scope_rt.hooks)) != 0)
        return -1;
    uint32_t region = region_of(c->name);
    if (region == UINT32_MAX)
        return -1;
    scope_rt.hooks[scope_rt.nhooks++] = (struct scope_hook){
        .name = scope_rt.regions[region], .symbol = c->symbol, .module = c->module,
        .value = c->value, .address = c->address, .region = region,
    };
    c->symbol = c->module = NULL;   /* now owned by the hook */
    return 0;
}

/* Remembers hook `id`, whose entry thunk is `thunk`, for GOT redirection. */
static void add_got_target(uint32_t id, uintptr_t thunk)
{
    struct scope_got_target *t = realloc(got_targets, (ngot_targets + 1) * sizeof(*t));
    if (!t)
        return;
    got_targets = t;
    const struct scope_hook *h = &scope_rt.hooks[id];
    t[ngot_targets++] = (struct scope_got_target){h->symbol, h->address, thunk, 0};
}

/* Prepares the hook of one candidate: an inline patch appended to pending,
 * or, for an exported function that cannot be patched inline, an entry
 * thunk for the GOT slots that lead to it. */
static int prepare(struct candidate *c, struct pending *pending, size_t *npending)
{
    char why[256];
    uint32_t id = (uint32_t)scope_rt.nhooks;
    if (id >= SCOPE_MAX_HOOKS) {
        scope_warn("warning: more than %d functions selected: %s (%s) not hooked",
                  SCOPE_MAX_HOOKS, c->symbol, c->module);
        return -1;
    }
    const char *unsafe = scope_never_hooked(c->symbol);
    if (unsafe) {
        scope_warn("warning: %s (%s) is never hooked: %s", c->symbol, c->module, unsafe);
        return -1;
    }
    struct scope_function_code f = {
        .code = {(const uint8_t *)c->address, c->address, c->size},
        .room = c->room, .fragments = c->fragments, .nfragments = c->nfragments,
    };
    uintptr_t thunk = 0;
    if (scope_patch_prepare(&f, id, &pending[*npending].patch, &scope_hook_targets[id], why,
                            sizeof(why)) == 0) {
        pending[(*npending)++].hook = id;
    } else if (!c->exported) {
        scope_warn("warning: cannot hook %s (%s): %s", c->symbol, c->module, why);
        return -1;
    } else if (!(thunk = scope_patch_entry_thunk(c->address, id, &scope_hook_targets[id]))) {
        scope_warn("warning: cannot hook %s (%s): %s, and no memory for an entry thunk",
                   c->symbol, c->module, why);
        return -1;
    }
    if (add_hook(c) != 0) {
        *npending -= !thunk;
        return -1;
    }
    scope_hook_callsite_depth[id] = (uint8_t)c->callsite_depth;
    if (c->callsite_depth > 1 && scope_libunwind_load() != 0 && !unwind_missing_said) {
        unwind_missing_said = 1;
        scope_warn("warning: libunwind.so.8 not loaded: call sites deeper than the caller are "
                   "left out");
    }
    if (thunk)
        add_got_target(id, thunk);
    return 0;
}

static void report_unmatched(void)
{
    for (size_t i = 0; i < scope_rt.config.npatterns; i++) {
        const struct scope_pattern *p = &scope_rt.config.patterns[i];
        if (p->exclude || p->matches)
            continue;
        if (p->line)
            scope_warn("warning: %s:%d: '%s' matches no function loaded so far", p->source,
                       p->line, p->text);
        else
            scope_warn("warning: %s: '%s' matches no function loaded so far", p->source, p->text);
    }
}

static int was_seen(const struct scope_module *m)
{
    for (size_t i = 0; i < nseen; i++)
        if (seen[i].bias == m->bias && strcmp(seen[i].path, m->path) == 0)
            return 1;
    return 0;
}

/* The candidates of the modules not seen before, which are then seen. */
static void collect_new_modules(const struct scope_module_list *modules, struct candidates *c)
{
    char err[512];
    for (size_t i = 0; i < modules->n && !c->failed; i++) {
        const struct scope_module *m = &modules->v[i];
        if (was_seen(m))
            continue;
        struct seen_module *s = realloc(seen, (nseen + 1) * sizeof(*s));
        if (!s || !(s[nseen].path = strdup(m->path))) {
            seen = s ? s : seen;
            c->failed = 1;
            return;
        }
        seen = s;
        seen[nseen++].bias = m->bias;
        if (scope_elf_foreach_module_symbol(m, collect, c, err, sizeof err) != 0)
            scope_debug("%s", err);
    }
}

/* Says how each function hooked through GOTs since `from` fared. */
static void report_got_hooks(size_t from)
{
    for (size_t i = from; i < ngot_targets; i++) {
        const struct scope_got_target *t = &got_targets[i];
        if (t->modules == 0)
            scope_warn("warning: %s cannot be patched inline and no module calls it through a "
                       "GOT yet: its calls are not recorded", t->symbol);
        else
            scope_debug("hooked %s through the GOTs of %zu modules (plt): calls from inside "
                        "its own module are not recorded", t->symbol, t->modules);
    }
}

/* Hooks what the config selects in the modules not seen before. Returns
 * the number of hooks added. */
static size_t install_new(const struct scope_module_list *modules)
{
    size_t before = scope_rt.nhooks, got_before = ngot_targets;
    struct candidates c = {0};
    collect_new_modules(modules, &c);
    if (c.failed) {
        scope_log("out of memory while reading symbols: nothing more hooked");
        goto out;
    }
    qsort(c.v, c.n, sizeof(*c.v), by_address);
    struct pending *pending = calloc(c.n ? c.n : 1, sizeof(*pending));
    size_t npending = 0;
    if (!pending)
        goto out;
    for (size_t i = 0; i < c.n; i++) {
        if (i > 0 && c.v[i].address == c.v[i - 1].address)
            continue;   /* an alias of the function just hooked */
        prepare(&c.v[i], pending, &npending);
    }
    if (scope_trampoline_seal() != 0) {
        scope_log("cannot make trampolines executable: nothing more hooked");
        scope_rt.nhooks = before;
        ngot_targets = got_before;
        npending = 0;
    }
    char why[256];
    for (size_t i = 0; i < npending; i++) {
        const struct scope_hook *h = &scope_rt.hooks[pending[i].hook];
        if (scope_patch_apply(&pending[i].patch, why, sizeof(why)) != 0)
            scope_warn("warning: cannot hook %s (%s): %s", h->symbol, h->module, why);
        else
            scope_debug("hooked %s in %s", h->symbol, h->module);
    }
    free(pending);
    /* New functions in every module, every function in the new modules. */
    scope_got_redirect(modules->v, modules->n, got_targets, ngot_targets);
    report_got_hooks(got_before);
out:
    for (size_t i = 0; i < c.n; i++)
        free_candidate(&c.v[i]);
    free(c.v);
    return scope_rt.nhooks - before;
}

/* The modules of the caller's namespace, or of the namespace of
 * `namespace_handle` when not NULL. */
static size_t install_in_loaded_modules(void *namespace_handle)
{
    struct scope_module_list modules;
    const void *libscope = (const void *)&scope_install_hooks;
    if ((namespace_handle
             ? scope_modules_in_namespace_of(namespace_handle, libscope, &modules)
             : scope_modules_loaded(libscope, &modules)) != 0) {
        scope_log("out of memory while listing modules: nothing hooked");
        return 0;
    }
    pthread_mutex_lock(&install_lock);
    size_t added = install_new(&modules);
    pthread_mutex_unlock(&install_lock);
    scope_modules_free(&modules);
    return added;
}

size_t scope_install_hooks(void)
{
    scope_rt.config.demangle = scope_demangle;
    started = 1;
    install_in_loaded_modules(NULL);
    if (scope_rt.nhooks > 0 || scope_rt.main_target || scope_rt.verbose)
        report_unmatched();
    return scope_rt.nhooks;
}

size_t scope_install_hooks_in_new_modules(void *namespace_handle)
{
    return started ? install_in_loaded_modules(namespace_handle) : 0;
}
