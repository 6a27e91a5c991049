/* inspect.c: walks the symbols of a program and its libraries (elf_symbols),
 * selects them with the config (config.c), runs the patcher's checks
 * (patch_analyze.c) on each selected function's bytes in its file, counts
 * for the exported ones that cannot be patched inline the modules whose
 * GOTs lead to them (elf_got.c), and counts the outcomes. */
#include "inspect.h"
#include "elf_got.h"
#include "grow_array.h"
#include "never_hooked.h"
#include "patch_analyze.h"

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

struct walk {
    struct scope_config *cfg;
    inspect_fn fn;
    void *ctx;
    const char *last_module;   /* of the last function selected */
    uint64_t last_value;
    const struct imports *imports;
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

static int visit(const struct scope_symbol *sym, void *data)
{
    struct walk *w = data;
    struct inspected s = {.sym = sym, .pattern = -1, .refusal = NULL};
    if (w->cfg && (s.pattern = scope_config_match(w->cfg, sym->name, sym->module_path)) < 0)
        return 0;
    char why[256] = "", inline_why[200] = "";
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
    } else {
        struct scope_function_code f = scope_symbol_code(sym);
        enum scope_refusal r = scope_patch_check(&f, inline_why, sizeof inline_why);
        if (r != SCOPE_HOOKABLE && sym->exported) {
            s.plt = true;
            s.plt_modules = modules_importing(w->imports, sym->name);
            snprintf(why, sizeof why, "calls through the GOTs of %zu module%s here (not inline: %s)",
                     s.plt_modules, s.plt_modules == 1 ? "" : "s", inline_why);
        } else if (r != SCOPE_HOOKABLE) {
            s.refusal = scope_refusal_label(r);
            snprintf(why, sizeof why, "%s", inline_why);
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

int inspect_program(const struct program_libs *libs, struct scope_config *cfg, inspect_fn fn,
                    void *ctx, char *err, size_t errlen)
{
    struct imports im = {0};
    read_imports(libs, &im);
    struct walk w = {cfg, fn, ctx, NULL, 0, &im};
    int rc = scope_elf_foreach_symbol(libs->file, 0, 1, visit, &w, err, errlen);
    char lib_err[512];
    for (size_t i = 0; i < libs->n && rc == 0; i++)
        if (scope_elf_foreach_symbol(libs->paths[i], 0, 0, visit, &w, lib_err,
                                     sizeof lib_err) != 0)
            fprintf(stderr, "scope: warning: %s\n", lib_err);
    for (size_t i = 0; i < libs->n_missing && rc == 0; i++)
        fprintf(stderr, "scope: warning: %s: not found by the dynamic loader\n",
                libs->missing[i]);
    for (size_t i = 0; i < im.n; i++)
        free(im.v[i].name);
    free(im.v);
    return rc;
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
    fprintf(out, "%zu functions%s%s, %zu hookable inline (%.1f%%), %zu through the PLT "
            "(%.1f%% in all), %zu not", t->functions, *what ? " " : "", what, t->hookable,
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
