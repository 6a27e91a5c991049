/* inspect.c: walks the symbols of a program and its libraries (elf_symbols),
 * selects them with the config (config.c), runs the patcher's checks
 * (patch_analyze.c) on each selected function's bytes in its file, counts
 * for those that cannot be patched inline the direct calls to them in
 * their module and, for exported ones, the modules whose GOTs lead to them
 * (elf_got.c), and counts the outcomes. */
#include "inspect.h"
#include "demangle.h"
#include "elf_got.h"
#include "grow_array.h"
#include "never_hooked.h"
#include "patch_analyze.h"
#include "program_libs.h"

#include <stdlib.h>
#include <string.h>

/* A name some module's GOT slots are bound to, and by which module. */
struct import {
    char *name;
    size_t module;
};

struct imports {
    struct import *v;
    size_t n, cap;
    size_t module;    /* the module being read */
    int failed;
};

/* The functions of one module that cannot be patched inline (ascending
 * addresses), each with the direct calls and jumps to it in the module. */
struct direct_calls {
    uintptr_t *functions;
    size_t *calls;
    size_t n, cap;
    int failed;
};

struct walk {
    struct scope_config *cfg;
    inspect_fn fn;
    void *ctx;
    const char *last_module;   /* of the last function selected */
    uint64_t last_value;
    const struct imports *imports;
    const struct direct_calls *direct;   /* of the module being walked */
};

static int add_import(const char *name, uint64_t slot, void *data)
{
    (void)slot;
    struct imports *im = data;
    if (scope_grow_array((void **)&im->v, &im->cap, im->n + 1, sizeof *im->v) != 0)
        return im->failed = 1;
    if (!(im->v[im->n].name = strdup(name)))
        return im->failed = 1;
    im->v[im->n++].module = im->module;
    return 0;
}

static int by_name_module(const void *a, const void *b)
{
    const struct import *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    return c ? c : (x->module > y->module) - (x->module < y->module);
}

/* The GOT slots of the program and every library, sorted by name. */
static void read_imports(const struct program_libs *libs, struct imports *im)
{
    char err[512];
    for (im->module = 0; im->module <= libs->n && !im->failed; im->module++) {
        const char *path = im->module == 0 ? libs->file : libs->paths[im->module - 1];
        scope_elf_foreach_got_slot(path, path, add_import, im, err, sizeof err);
    }
    qsort(im->v, im->n, sizeof *im->v, by_name_module);
}

/* How many modules have a GOT slot for name. */
static size_t modules_importing(const struct imports *im, const char *name)
{
    size_t lo = 0, hi = im->n, count = 0;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (strcmp(im->v[mid].name, name) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (size_t i = lo; i < im->n && strcmp(im->v[i].name, name) == 0; i++)
        count += i == lo || im->v[i].module != im->v[i - 1].module;
    return count;
}

/* Why libscope would enter sym through a thunk (a function, in its file,
 * that a hook does not break, whose first bytes cannot be patched: the
 * reason in why); SCOPE_HOOKABLE when it would not. */
static enum scope_refusal thunk_reason(const struct scope_symbol *sym, char *why, size_t whylen)
{
    if (sym->is_fragment || !sym->file_code || scope_never_hooked(sym->name))
        return SCOPE_HOOKABLE;
    struct scope_function_code f = scope_symbol_code(sym);
    return scope_patch_check(&f, why, whylen);
}

static int add_thunked(const struct scope_symbol *sym, void *data)
{
    struct direct_calls *d = data;
    char why[200];
    if (thunk_reason(sym, why, sizeof why) == SCOPE_HOOKABLE)
        return 0;
    size_t cap = d->cap;
    if (scope_grow_array((void **)&d->functions, &d->cap, d->n + 1, sizeof *d->functions) != 0 ||
        scope_grow_array((void **)&d->calls, &cap, d->n + 1, sizeof *d->calls) != 0)
        return d->failed = 1;
    d->functions[d->n] = sym->address;
    d->calls[d->n++] = 0;
    return 0;
}

static void count_call(const struct scope_rel32_branch *b, void *data)
{
    (void)b;
    ((struct direct_calls *)data)->calls[b->target]++;
}

static int scan_calls(const struct scope_symbol *sym, void *data)
{
    struct direct_calls *d = data;
    if (sym->file_code && sym->size) {
        struct scope_code piece = {sym->file_code, sym->address, sym->size};
        scope_find_rel32_branches(&piece, d->functions, d->n, count_call, d);
    }
    return 0;
}

static int by_address(const void *a, const void *b)
{
    uintptr_t x = *(const uintptr_t *)a, y = *(const uintptr_t *)b;
    return (x > y) - (x < y);
}

/* The direct calls in module `path` to its functions that need a thunk. */
static void count_direct_calls(const char *path, int is_executable, struct direct_calls *d)
{
    char err[512];
    *d = (struct direct_calls){0};
    if (scope_elf_foreach_symbol(path, 0, is_executable, add_thunked, d, err, sizeof err) != 0 ||
        d->failed || d->n == 0)
        return;
    qsort(d->functions, d->n, sizeof *d->functions, by_address);
    scope_elf_foreach_symbol(path, 0, is_executable, scan_calls, d, err, sizeof err);
}

static size_t direct_calls_to(const struct direct_calls *d, uintptr_t function)
{
    uintptr_t *at = d->n ? bsearch(&function, d->functions, d->n, sizeof function, by_address)
                         : NULL;
    return at ? d->calls[at - d->functions] : 0;
}

static int visit(const struct scope_symbol *sym, void *data)
{
    struct walk *w = data;
    struct inspected s = {.sym = sym, .pattern = -1, .refusal = NULL};
    if (w->cfg && (s.pattern = scope_config_match(w->cfg, sym->name, sym->module_path)) < 0)
        return 0;
    char why[256] = "", inline_why[200] = "";
    enum scope_refusal r;
    const char *unsafe = scope_never_hooked(sym->name);
    if (sym->is_fragment) {
        s.refusal = "fragment";
        s.fragment = true;
        const char *cold = strstr(sym->name, ".cold");
        snprintf(why, sizeof why, "a piece of %.*s the compiler split off: jumped into, never "
                 "called, not a function (its time is in %.*s's calls)",
                 (int)(cold - sym->name), sym->name, (int)(cold - sym->name), sym->name);
    } else if (unsafe) {
        s.refusal = "never hooked";
        snprintf(why, sizeof why, "%s", unsafe);
    } else if (!sym->file_code) {
        s.refusal = "not in the file";
        snprintf(why, sizeof why, "the symbol's bytes are not in its file");
    } else if ((r = thunk_reason(sym, inline_why, sizeof inline_why)) != SCOPE_HOOKABLE) {
        size_t calls = direct_calls_to(w->direct, sym->address);
        s.plt_modules = sym->exported ? modules_importing(w->imports, sym->name) : 0;
        char got[96] = "", direct[96] = "";
        if (sym->exported)
            snprintf(got, sizeof got, "the GOTs of %zu module%s here", s.plt_modules,
                     s.plt_modules == 1 ? "" : "s");
        if (calls)
            snprintf(direct, sizeof direct, "its %zu direct call%s in its module", calls,
                     calls == 1 ? "" : "s");
        s.plt = sym->exported || calls;
        if (s.plt)
            snprintf(why, sizeof why, "calls through %s%s%s, not through pointers (not inline: "
                     "%s)", got, *got && *direct ? " and " : "", direct, inline_why);
        else {
            s.refusal = scope_refusal_label(r);
            snprintf(why, sizeof why, "%s, and no direct call leads to it", inline_why);
        }
    }
    s.why = why;
    /* Each module's symbols come sorted by address: aliases are adjacent. */
    s.alias = w->last_module == sym->module_path && w->last_value == sym->value;
    w->last_module = sym->module_path;
    w->last_value = sym->value;
    w->fn(&s, w->ctx);
    return 0;
}

/* The functions of the program and of each library it loads, in load
 * order; a library that cannot be read or found is a warning on report. */
static int walk_modules(const struct program_libs *libs, struct walk *w, FILE *report,
                        char *err, size_t errlen)
{
    struct direct_calls direct;
    w->direct = &direct;
    count_direct_calls(libs->file, 1, &direct);
    int rc = scope_elf_foreach_symbol(libs->file, 0, 1, visit, w, err, errlen);
    char lib_err[512];
    for (size_t i = 0; i < libs->n && rc == 0; i++) {
        free(direct.functions);
        free(direct.calls);
        count_direct_calls(libs->paths[i], 0, &direct);
        if (scope_elf_foreach_symbol(libs->paths[i], 0, 0, visit, w, lib_err,
                                     sizeof lib_err) != 0)
            fprintf(report, "scope: warning: %s\n", lib_err);
    }
    free(direct.functions);
    free(direct.calls);
    for (size_t i = 0; i < libs->n_missing && rc == 0; i++)
        fprintf(report, "scope: warning: %s: not found by the dynamic loader\n",
                libs->missing[i]);
    return rc;
}

void inspect_config_init(struct scope_config *cfg)
{
    scope_config_init(cfg);
    scope_demangle_may_load();
    cfg->demangle = scope_demangle;
}

int inspect_program(const char *program, struct scope_config *cfg, inspect_fn fn, void *ctx,
                    FILE *report, char *err, size_t errlen)
{
    struct program_libs libs;
    if (program_libs_load(program, &libs, err, errlen) != 0)
        return -1;
    struct imports im = {0};
    read_imports(&libs, &im);
    struct walk w = {cfg, fn, ctx, NULL, 0, &im, NULL};
    int rc = walk_modules(&libs, &w, report, err, errlen);
    for (size_t i = 0; i < im.n; i++)
        free(im.v[i].name);
    free(im.v);
    program_libs_free(&libs);
    return rc;
}

const char *inspect_verdict(const struct inspected *s)
{
    if (s->refusal)
        return "no";
    return !s->plt ? "yes" : s->sym->exported ? "plt" : "calls";
}

void inspect_tally_add(struct inspect_tally *t, const struct inspected *s)
{
    if (s->alias)
        return;
    if (s->fragment) {
        t->fragments++;
        return;
    }
    t->functions++;
    if (!s->refusal) {
        t->hookable += !s->plt;
        t->plt += s->plt;
        return;
    }
    size_t i = 0;
    while (i < t->nreasons && strcmp(t->reasons[i].label, s->refusal) != 0)
        i++;
    if (i == t->nreasons) {
        if (i == INSPECT_MAX_REASONS)
            return;
        t->reasons[t->nreasons++].label = s->refusal;
    }
    t->reasons[i].count++;
}

static double percent(size_t part, size_t whole)
{
    return whole ? 100.0 * (double)part / (double)whole : 0;
}

void inspect_tally_print(const struct inspect_tally *t, const char *what, FILE *out)
{
    size_t hooked = t->hookable + t->plt;
    fprintf(out, "%zu functions%s%s, %zu hookable inline (%.1f%%), %zu through the PLT or "
            "their calls (%.1f%% in all), %zu not", t->functions, *what ? " " : "", what, t->hookable,
            percent(t->hookable, t->functions), t->plt, percent(hooked, t->functions),
            t->functions - hooked);
    for (size_t i = 0; i < t->nreasons; i++)
        fprintf(out, "%s%zu %s", i ? ", " : " (", t->reasons[i].count, t->reasons[i].label);
    fputs(t->nreasons ? ")" : "", out);
    if (t->fragments)
        fprintf(out, "; %zu compiler fragment%s (name.cold), not functions", t->fragments,
                t->fragments == 1 ? "" : "s");
    fputc('\n', out);
}
