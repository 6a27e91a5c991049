/* install.c: turns the config's patterns into installed hooks: enumerate
 * the function symbols of the loaded modules not seen before (all of them
 * at start, the new ones after a dlopen), keep those the config selects
 * (one hook per address), patch them inline, or, for functions that cannot
 * be, enter through a thunk that the direct calls in their module (and,
 * for exported ones, the GOT slots of other modules) are redirected to;
 * and say which patterns matched nothing and which functions could not be
 * hooked, and why. */
#include "install.h"
#include "clone_names.h"
#include "call_redirect.h"
#include "clock.h"
#include "demangle.h"
#include "elf_symbols.h"
#include "got_redirect.h"
#include "grow_array.h"
#include "libunwind_local.h"
#include "log.h"
#include "mpi_bindings.h"
#include "name_index.h"
#include "never_hooked.h"
#include "patcher.h"
#include "payload_functions.h"
#include "runtime.h"
#include "thread_state.h"
#include "trampoline.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct candidate {
    char *name;
    char *symbol;
    const char *module;             /* the module's path in `seen` */
    uintptr_t address;
    uint64_t value;
    size_t size, room;
    int exported;
    int callsite_depth;
    unsigned values;                /* arguments and return value it records */
    struct scope_patch_site site;   /* where its inline patch goes, once analysed */
    struct scope_code *fragments;   /* bytes: the live code at address */
    size_t nfragments;
};

struct candidates {
    struct candidate *v;
    size_t n, cap;
    int failed;
    const char *module;   /* the path of the module being read, in `seen` */
};

/* Prepared inline patches (ascending addresses) and their hooks. */
struct pending {
    struct scope_patch *patch;
    uint32_t *hook;
    size_t n;
};

/* A hook entered through a thunk, and why its first bytes could not be
 * patched. */
struct thunked {
    uint32_t hook;
    uintptr_t thunk;
    size_t sites;          /* direct calls redirected */
    int exported;
    char why[200];
};

struct thunked_list {
    struct thunked *v;
    size_t n, cap;
};

/* A module hooked already: (path, load bias). */
struct seen_module {
    char *path;
    uintptr_t bias;
};

static pthread_mutex_t install_lock = PTHREAD_MUTEX_INITIALIZER;
static int started;   /* scope_install_hooks ran: the config is loaded */
static struct seen_module *seen;
static size_t nseen, seen_cap;
static size_t hooks_cap;
static int unwind_missing_said;
/* Every function hooked through GOTs, redirected again in new modules. */
static struct scope_got_target *got_targets;
static size_t ngot_targets, got_targets_cap;

/* The region name of a symbol: the name the config gives it ("symbol as
 * name"), else its demangled C++ name, else the symbol itself, both without
 * GCC's clone tags (a clone records into its function's region), except that a
 * Fortran symbol found through its plain name ("solve" selecting solve_)
 * keeps the name the user wrote. */
static char *region_name(const struct scope_symbol *sym, int pattern)
{
    const char *symbol = sym->name;
    const struct scope_pattern *p = &scope_rt.config.patterns[pattern];
    if (p->display)
        return strdup(p->display);
    if (sym->demangled)   /* as matching demangled it, clone tags dropped */
        return strdup(sym->demangled);
    char *demangled = scope_config_demangle(&scope_rt.config, symbol);
    if (demangled)
        return demangled;
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
    free(c->fragments);
}

/* The config's pattern that selects the function, or -1. */
static int configured(const char *name, const char *module_path, char **demangled, void *ctx)
{
    (void)ctx;
    return scope_config_match_demangled(&scope_rt.config, name, module_path, demangled);
}

/* A function `configured` selected (its pattern: sym->wanted). */
static int collect(const struct scope_symbol *sym, void *ctx)
{
    struct candidates *c = ctx;
    int pattern = sym->wanted;
    if (scope_grow_array((void **)&c->v, &c->cap, c->n + 1, sizeof(*c->v)) != 0) {
        c->failed = 1;
        return 1;
    }
    struct candidate *d = &c->v[c->n];
    *d = (struct candidate){
        .name = region_name(sym, pattern), .symbol = strdup(sym->name),
        .module = c->module, .address = sym->address, .value = sym->value,
        .size = sym->size, .room = sym->room, .exported = sym->exported,
        .callsite_depth = scope_config_callsite_depth(&scope_rt.config, pattern),
        .values = scope_config_values(&scope_rt.config, pattern),
        .fragments = sym->nfragments ? calloc(sym->nfragments, sizeof(struct scope_code)) : NULL,
    };
    if (!d->name || !d->symbol || (sym->nfragments && !d->fragments)) {
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

/* The region named *name, a new one if none is, which then keeps the
 * string (*name becomes NULL). */
static uint32_t region_of(char **name)
{
    static struct scope_name_index index;
    static size_t regions_cap;
    long found = scope_name_index_find(&index, scope_rt.regions, *name);
    if (found >= 0)
        return (uint32_t)found;
    if (scope_grow_array((void **)&scope_rt.regions, &regions_cap, scope_rt.nregions + 1,
                         sizeof(*scope_rt.regions)) != 0)
        return UINT32_MAX;
    scope_rt.regions[scope_rt.nregions] = *name;
    if (scope_name_index_add(&index, scope_rt.regions, scope_rt.nregions + 1) != 0)
        return UINT32_MAX;
    *name = NULL;
    return (uint32_t)scope_rt.nregions++;
}

/* An MPI function libscope wraps (payload_functions.h) gets the hook as
 * well: its wrapper records the calls that reach it (the program's C calls)
 * with their payload, the patch those that do not (Open MPI's Fortran
 * bindings call PMPI_* directly), the patch passing through while the
 * wrapper's own call runs. SCOPE_MPI_PAYLOAD=0: the patch alone. */
static void note_wrapped(const char *symbol, uint32_t id)
{
    int f = scope_wrapped_function_of(symbol);
    if (f < 0 || scope_rt.mpi_payload_off || scope_wrapped_hook[f])
        return;
    scope_wrapped_hook[f] = id + 1;
    scope_debug("%s: also recorded by scope's wrapper, with its payload", symbol);
}

/* Makes c hook number scope_rt.nhooks. */
static int add_hook(struct candidate *c)
{
    if (scope_grow_array((void **)&scope_rt.hooks, &hooks_cap, scope_rt.nhooks + 1,
                         sizeof(*scope_rt.hooks)) != 0)
        return -1;
    uint32_t region = region_of(&c->name);
    if (region == UINT32_MAX)
        return -1;
    note_wrapped(c->symbol, (uint32_t)scope_rt.nhooks);
    scope_rt.hooks[scope_rt.nhooks++] = (struct scope_hook){
        .name = scope_rt.regions[region], .symbol = c->symbol, .module = c->module,
        .value = c->value, .address = c->address, .region = region,
    };
    c->symbol = NULL;   /* now owned by the hook */
    return 0;
}

/* Remembers hook `id`, whose entry thunk is `thunk`, for GOT redirection. */
static void add_got_target(uint32_t id, uintptr_t thunk)
{
    if (scope_grow_array((void **)&got_targets, &got_targets_cap, ngot_targets + 1,
                         sizeof *got_targets) != 0)
        return;
    const struct scope_hook *h = &scope_rt.hooks[id];
    got_targets[ngot_targets++] = (struct scope_got_target){h->symbol, h->address, thunk, 0};
}

/* Whether some hook is an MPI function's with call sites (SCOPE_HOOK_MPI). */
static int mpi_call_sites;

/* libunwind, for the call sites of MPI functions a Fortran binding calls:
 * wanted once there are both such hooks and a binding. */
static void unwind_past_bindings(void)
{
    if (mpi_call_sites && scope_binding_nranges > 0 && scope_libunwind_load() != 0)
        scope_debug("libunwind not loaded: MPI calls from Fortran keep the binding as call site");
}

/* Call sites (depth) and values (call_values.h) hook id records, and
 * libunwind when call sites go deeper than 1. */
static void set_recording(uint32_t id, int depth, unsigned values)
{
    int mpi = depth > 0 && scope_is_mpi_function(scope_rt.hooks[id].symbol);
    if (mpi && !mpi_call_sites) {
        mpi_call_sites = 1;
        unwind_past_bindings();
    }
    scope_hook_callsite_depth[id] =
        (uint8_t)(depth | (values ? SCOPE_HOOK_VALUES : 0) | (mpi ? SCOPE_HOOK_MPI : 0));
    scope_hook_values[id] = (uint8_t)values;
    if (depth > 1 && scope_libunwind_load() != 0 && !unwind_missing_said) {
        unwind_missing_said = 1;
        scope_warn("warning: libunwind.so.8 not loaded: call sites deeper than the caller are "
                   "left out");
    }
}

/* Whether c may be hooked at all (not past the hook ids, not a function a
 * hook breaks); says why not. */
static int may_hook(const struct candidate *c)
{
    if (scope_rt.nhooks >= SCOPE_MAX_HOOKS) {
        scope_warn("warning: more than %d functions selected: %s (%s) not hooked",
                  SCOPE_MAX_HOOKS, c->symbol, c->module);
        return 0;
    }
    const char *unsafe = scope_never_hooked(c->symbol);
    if (unsafe) {
        scope_warn("warning: %s (%s) is never hooked: %s", c->symbol, c->module, unsafe);
        return 0;
    }
    return 1;
}

static struct scope_function_code live_code(const struct candidate *c)
{
    return (struct scope_function_code){
        .code = {(const uint8_t *)c->address, c->address, c->size},
        .room = c->room, .fragments = c->fragments, .nfragments = c->nfragments,
    };
}

/* Hooks c through an entry thunk (why: its first bytes cannot be patched),
 * appended to t. */
static int hook_by_thunk(struct candidate *c, const char *why, struct thunked_list *t)
{
    uint32_t id = (uint32_t)scope_rt.nhooks;
    uintptr_t thunk = scope_patch_entry_thunk(c->address, id, &scope_hook_targets[id]);
    if (!thunk) {
        scope_warn("warning: cannot hook %s (%s): %s, and no memory for an entry thunk",
                   c->symbol, c->module, why);
        return -1;
    }
    if (scope_grow_array((void **)&t->v, &t->cap, t->n + 1, sizeof(*t->v)) != 0)
        return -1;
    int exported = c->exported, depth = c->callsite_depth;
    unsigned values = c->values;
    if (add_hook(c) != 0)
        return -1;
    struct thunked *k = &t->v[t->n++];
    *k = (struct thunked){.hook = id, .thunk = thunk, .exported = exported};
    snprintf(k->why, sizeof(k->why), "%s", why);
    set_recording(id, depth, values);
    if (exported)
        add_got_target(id, thunk);
    return 0;
}

/* Prepares the inline patch of c, appended to pending; a function whose
 * trampoline cannot be built after all goes through a thunk. */
static void prepare_inline(struct candidate *c, struct pending *pending, struct thunked_list *t)
{
    char why[256];
    uint32_t id = (uint32_t)scope_rt.nhooks;
    if (!may_hook(c))
        return;
    struct scope_function_code f = live_code(c);
    if (scope_patch_prepare(&f, &c->site, id, &pending->patch[pending->n],
                            &scope_hook_targets[id], why, sizeof(why)) != 0) {
        hook_by_thunk(c, why, t);
        return;
    }
    int depth = c->callsite_depth;
    unsigned values = c->values;
    if (add_hook(c) != 0)
        return;
    pending->hook[pending->n++] = id;
    set_recording(id, depth, values);
}

/* Points the direct calls to the thunked hooks from `from` on at their
 * thunks, module by module. */
static void redirect_calls(const struct scope_module_list *modules, struct thunked_list *t,
                           size_t from)
{
    if (from >= t->n)
        return;
    struct scope_call_target *targets = malloc((t->n - from) * sizeof(*targets));
    size_t *which = malloc((t->n - from) * sizeof(*which));
    for (size_t i = 0; targets && which && i < modules->n; i++) {
        size_t n = 0;
        for (size_t k = from; k < t->n; k++)
            if (strcmp(scope_rt.hooks[t->v[k].hook].module, modules->v[i].path) == 0) {
                targets[n] = (struct scope_call_target){scope_rt.hooks[t->v[k].hook].address,
                                                        t->v[k].thunk, 0};
                which[n++] = k;
            }
        scope_call_redirect(&modules->v[i], targets, n);
        for (size_t j = 0; j < n; j++)
            t->v[which[j]].sites += targets[j].sites;
    }
    free(targets);
    free(which);
}

/* Says how each thunked hook fared: reached by calls, or not at all. */
static void report_thunked(const struct thunked_list *list)
{
    const struct thunked *t = list->v;
    for (size_t k = 0; k < list->n; k++) {
        const struct scope_hook *h = &scope_rt.hooks[t[k].hook];
        size_t got = 0;
        for (size_t g = 0; g < ngot_targets; g++)
            if (got_targets[g].thunk == t[k].thunk)
                got = got_targets[g].modules;
        if (t[k].sites == 0 && got == 0)
            scope_warn("warning: cannot hook %s (%s): %s; no direct call%s leads to it: its "
                       "calls are not recorded", h->symbol, h->module, t[k].why,
                       t[k].exported ? " or GOT slot" : "");
        else
            scope_debug("hooked %s in %s at %zu call site%s and through the GOTs of %zu "
                        "module%s (not inline: %s)", h->symbol, h->module, t[k].sites,
                        t[k].sites == 1 ? "" : "s", got, got == 1 ? "" : "s", t[k].why);
    }
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

/* The candidates of the modules not seen before, which are then seen;
 * those modules into fresh (modules->n of room). */
static void collect_new_modules(const struct scope_module_list *modules, struct candidates *c,
                                struct scope_module *fresh, size_t *nfresh)
{
    char err[512];
    for (size_t i = 0; i < modules->n && !c->failed; i++) {
        const struct scope_module *m = &modules->v[i];
        if (was_seen(m))
            continue;
        fresh[(*nfresh)++] = *m;
        if (scope_grow_array((void **)&seen, &seen_cap, nseen + 1, sizeof *seen) != 0 ||
            !(seen[nseen].path = strdup(m->path))) {
            c->failed = 1;
            return;
        }
        seen[nseen++].bias = m->bias;
        c->module = seen[nseen - 1].path;
        if (scope_is_binding_module(m->path)) {   /* MPI calls from it: call sites past it */
            scope_binding_range_add(m->start, m->end);
            unwind_past_bindings();
        }
        if (scope_elf_foreach_module_symbol(m, configured, collect, c, err, sizeof err) != 0)
            scope_debug("%s", err);
    }
}

/* Hooks what the config selects in the modules not seen before: first the
 * functions that cannot be patched inline, through thunks and their
 * redirected calls (so that an inline patch displacing such a call moves
 * the redirected one), then the others inline. Returns the number of hooks
 * added. */
static size_t install_new(const struct scope_module_list *modules)
{
    size_t before = scope_rt.nhooks, got_before = ngot_targets;
    struct candidates c = {0};
    struct thunked_list thunked = {0};
    size_t nfresh = 0;
    struct scope_module *fresh = malloc((modules->n ? modules->n : 1) * sizeof(*fresh));
    if (fresh)
        collect_new_modules(modules, &c, fresh, &nfresh);
    if (!fresh || c.failed) {
        scope_log("out of memory while reading symbols: nothing more hooked");
        goto out;
    }
    qsort(c.v, c.n, sizeof(*c.v), by_address);
    size_t cap = c.n ? c.n : 1;
    struct pending pending = {calloc(cap, sizeof(*pending.patch)),
                              calloc(cap, sizeof(*pending.hook)), 0};
    unsigned char *inline_ok = calloc(cap, 1);
    int *applied = calloc(cap, sizeof(*applied));
    if (!pending.patch || !pending.hook || !inline_ok || !applied) {
        free(pending.patch);
        free(pending.hook);
        free(inline_ok);
        free(applied);
        goto out;
    }
    char why[256];
    for (size_t i = 0; i < c.n; i++) {
        if ((i > 0 && c.v[i].address == c.v[i - 1].address) || !may_hook(&c.v[i]))
            continue;   /* an alias of the function just hooked, or never hooked */
        struct scope_function_code f = live_code(&c.v[i]);
        inline_ok[i] = scope_patch_analyze(&f, &c.v[i].site, why, sizeof(why)) == 0;
        if (!inline_ok[i])
            hook_by_thunk(&c.v[i], why, &thunked);
    }
    /* Phase 1 done: its thunks, once sealed, take the redirected calls. */
    size_t thunk_hooks = scope_rt.nhooks, thunk_gots = ngot_targets, late = thunked.n;
    int sealed = scope_trampoline_seal() == 0;
    if (sealed)
        redirect_calls(modules, &thunked, 0);
    for (size_t i = 0; sealed && i < c.n; i++)
        if (inline_ok[i])
            prepare_inline(&c.v[i], &pending, &thunked);
    if (!sealed || scope_trampoline_seal() != 0) {
        scope_log("cannot make trampolines executable: nothing more hooked");
        /* what phase 1 redirected stays (its thunks were sealed) */
        scope_rt.nhooks = sealed ? thunk_hooks : before;
        ngot_targets = sealed ? thunk_gots : got_before;
        thunked.n = sealed ? late : 0;
        pending.n = 0;
    }
    redirect_calls(modules, &thunked, late);
    scope_patch_apply_all(pending.patch, pending.n, applied, why, sizeof(why));
    for (size_t i = 0; i < pending.n; i++) {
        const struct scope_hook *h = &scope_rt.hooks[pending.hook[i]];
        if (!applied[i])
            scope_warn("warning: cannot hook %s (%s): %s", h->symbol, h->module, why);
        else
            scope_debug("hooked %s in %s", h->symbol, h->module);
    }
    free(pending.patch);
    free(pending.hook);
    free(inline_ok);
    free(applied);
    /* The new functions in every module, the earlier ones in the new
     * modules (a dlopen of a plugin must not read every module again). */
    scope_got_redirect(modules->v, modules->n, got_targets + got_before,
                       ngot_targets - got_before);
    scope_got_redirect(fresh, nfresh, got_targets, got_before);
    report_thunked(&thunked);
out:
    free(fresh);
    free(thunked.v);
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
    scope_log_hold();   /* with -v, a line per hooked function: written together */
    size_t added = install_new(&modules);
    scope_log_release();
    pthread_mutex_unlock(&install_lock);
    scope_modules_free(&modules);
    return added;
}

size_t scope_install_hooks(void)
{
    scope_rt.config.demangle = scope_demangle;
    started = 1;
    int64_t t0 = scope_monotonic_ns();
    install_in_loaded_modules(NULL);
    scope_debug("%zu functions hooked in %.1f ms", scope_rt.nhooks,
                (double)(scope_monotonic_ns() - t0) / 1e6);
    if (scope_rt.nhooks > 0 || scope_rt.main_target || scope_rt.verbose)
        report_unmatched();
    return scope_rt.nhooks;
}

size_t scope_install_hooks_in_new_modules(void *namespace_handle)
{
    return started ? install_in_loaded_modules(namespace_handle) : 0;
}
