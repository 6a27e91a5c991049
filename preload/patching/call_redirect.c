/* call_redirect.c: rewrites the displacements of direct calls and jumps
 * (call_redirect.h), each checked against the file's bytes first: code
 * already patched (an inline hook's jump) is left alone. */
#include "call_redirect.h"
#include "elf_symbols.h"
#include "log.h"
#include "patcher.h"

#include <stdlib.h>
#include <string.h>

struct redirect {
    struct scope_call_target *targets;
    const uintptr_t *functions;   /* targets[i].function, for the search */
    size_t ntargets;
    const char *module;
};

static int by_function(const void *a, const void *b)
{
    uintptr_t x = ((const struct scope_call_target *)a)->function;
    uintptr_t y = ((const struct scope_call_target *)b)->function;
    return (x > y) - (x < y);
}

static void on_branch(const struct scope_rel32_branch *b, void *ctx)
{
    struct redirect *r = ctx;
    struct scope_call_target *t = &r->targets[b->target];
    int64_t rel = (int64_t)t->thunk - (int64_t)b->end;
    if (rel != (int32_t)rel || memcmp((const void *)b->displacement, b->bytes, 4) != 0)
        return;
    int32_t rel32 = (int32_t)rel;
    if (scope_code_write(b->displacement, &rel32, 4) != 0) {
        scope_warn("warning: cannot redirect a call in %s: %m", r->module);
        return;
    }
    t->sites++;
}

static int scan_symbol(const struct scope_symbol *sym, void *ctx)
{
    if (sym->file_code && sym->size) {
        struct scope_code piece = {sym->file_code, sym->address, sym->size};
        scope_find_rel32_branches(&piece, ((struct redirect *)ctx)->functions,
                                  ((struct redirect *)ctx)->ntargets, on_branch, ctx);
    }
    return 0;
}

void scope_call_redirect(const struct scope_module *m, struct scope_call_target *targets,
                         size_t ntargets)
{
    if (ntargets == 0)
        return;
    qsort(targets, ntargets, sizeof *targets, by_function);
    uintptr_t *functions = malloc(ntargets * sizeof *functions);
    if (!functions)
        return;
    for (size_t i = 0; i < ntargets; i++)
        functions[i] = targets[i].function;
    struct redirect r = {targets, functions, ntargets, m->path};
    char err[512];
    if (scope_elf_foreach_module_symbol(m, scan_symbol, &r, err, sizeof err) != 0)
        scope_debug("%s", err);
    free(functions);
}
