/* inspect.c: walks the symbols of a program and its libraries (elf_symbols),
 * selects them with the config (config.c), runs the patcher's checks
 * (patch_analyze.c) on each selected function's bytes in its file, and
 * counts the outcomes. */
#include "inspect.h"
#include "patch_analyze.h"

#include <string.h>

struct walk {
    struct scope_config *cfg;
    inspect_fn fn;
    void *ctx;
    const char *last_module;   /* of the last function selected */
    uint64_t last_value;
};

static int visit(const struct scope_symbol *sym, void *data)
{
    struct walk *w = data;
    struct inspected s = {.sym = sym, .pattern = -1, .refusal = NULL};
    if (w->cfg && (s.pattern = scope_config_match(w->cfg, sym->name, sym->module_path)) < 0)
        return 0;
    char why[256] = "";
    if (!sym->file_code) {
        s.refusal = "not in the file";
        snprintf(why, sizeof why, "the symbol's bytes are not in its file");
    } else {
        enum scope_refusal r = scope_patch_check(sym->file_code, sym->address, sym->size, why,
                                                 sizeof why);
        if (r != SCOPE_HOOKABLE)
            s.refusal = scope_refusal_label(r);
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
    struct walk w = {cfg, fn, ctx, NULL, 0};
    if (scope_elf_foreach_symbol(libs->file, 0, 1, visit, &w, err, errlen) != 0)
        return -1;
    char lib_err[512];
    for (size_t i = 0; i < libs->n; i++)
        if (scope_elf_foreach_symbol(libs->paths[i], 0, 0, visit, &w, lib_err,
                                     sizeof lib_err) != 0)
            fprintf(stderr, "scope: warning: %s\n", lib_err);
    for (size_t i = 0; i < libs->n_missing; i++)
        fprintf(stderr, "scope: warning: %s: not found by the dynamic loader\n",
                libs->missing[i]);
    return 0;
}

void inspect_tally_add(struct inspect_tally *t, const struct inspected *s)
{
    if (s->alias)
        return;
    t->functions++;
    if (!s->refusal) {
        t->hookable++;
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

void inspect_tally_print(const struct inspect_tally *t, const char *what, FILE *out)
{
    double share = t->functions ? 100.0 * (double)t->hookable / (double)t->functions : 0;
    fprintf(out, "%zu functions%s%s, %zu hookable inline (%.1f%%), %zu not", t->functions,
            *what ? " " : "", what, t->hookable, share, t->functions - t->hookable);
    for (size_t i = 0; i < t->nreasons; i++)
        fprintf(out, "%s%zu %s", i ? ", " : " (", t->reasons[i].count, t->reasons[i].label);
    fputs(t->nreasons ? ")\n" : "\n", out);
}
