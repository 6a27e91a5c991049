/* call_redirect.c: rewrites the displacements of direct calls and jumps
 * (call_redirect.h), each checked against the file's bytes first: code
 * already patched (an inline hook's jump) is left alone. */
#include "call_redirect.h"
#include "elf_file.h"
#include "elf_symbols.h"
#include "log.h"
#include "patcher.h"

#include <stdlib.h>
#include <string.h>

struct redirect {
    struct scope_call_target *targets;
    const uintptr_t *functions;   /* the targets' functions, ascending */
    const size_t *order;          /* functions[i] is targets[order[i]].function */
    size_t ntargets;
    const char *module;
};

/* Orders indexes into the targets (ctx) by their functions. */
static int by_function(const void *a, const void *b, void *ctx)
{
    const struct scope_call_target *targets = ctx;
    uintptr_t x = targets[*(const size_t *)a].function;
    uintptr_t y = targets[*(const size_t *)b].function;
    return (x > y) - (x < y);
}

static void on_branch(const struct scope_rel32_branch *b, void *ctx)
{
    struct redirect *r = ctx;
    struct scope_call_target *t = &r->targets[r->order[b->target]];
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

/* Whether some byte of the module's code, as its file holds it, could
 * begin a rel32 branch to one of the functions (ascending): most hooks go
 * through thunks because a branch of their own body lands in their first
 * bytes, and nothing else calls them directly; then the symbols need not
 * be read and each function decoded. Yes when the file cannot be read. */
static int module_may_branch_to(const struct scope_module *m, const uintptr_t *functions,
                                size_t n)
{
    struct elf_file f;
    char err[256];
    if (elf_file_open(&f, m->open_path, m->path, err, sizeof err) != 0)
        return 1;
    int may = 0;
    for (size_t i = 0; i < f.nsections && !may; i++) {
        const Elf64_Shdr *sec = &f.sections[i];
        if (!(sec->sh_flags & SHF_EXECINSTR) || sec->sh_type == SHT_NOBITS)
            continue;
        if (sec->sh_offset > f.size || sec->sh_size > f.size - sec->sh_offset) {
            may = 1;   /* not all in the file: decode what is, function by function */
            continue;
        }
        struct scope_code code = {f.data + sec->sh_offset, m->bias + sec->sh_addr, sec->sh_size};
        may = scope_may_branch_to(&code, functions, n);
    }
    elf_file_close(&f);
    return may;
}

static int scan_symbol(const struct scope_symbol *sym, void *ctx)
{
    const struct redirect *r = ctx;
    if (sym->file_code && sym->size) {
        struct scope_code piece = {sym->file_code, sym->address, sym->size};
        scope_find_rel32_branches(&piece, r->functions, r->ntargets, on_branch, ctx);
    }
    return 0;
}

void scope_call_redirect(const struct scope_module *m, struct scope_call_target *targets,
                         size_t ntargets)
{
    if (ntargets == 0)
        return;
    size_t *order = malloc(ntargets * sizeof *order);
    uintptr_t *functions = malloc(ntargets * sizeof *functions);
    if (order && functions) {
        for (size_t i = 0; i < ntargets; i++)
            order[i] = i;
        qsort_r(order, ntargets, sizeof *order, by_function, targets);
        for (size_t i = 0; i < ntargets; i++)
            functions[i] = targets[order[i]].function;
        struct redirect r = {targets, functions, order, ntargets, m->path};
        char err[512];
        if (module_may_branch_to(m, functions, ntargets) &&
            scope_elf_foreach_module_symbol(m, NULL, scan_symbol, &r, err, sizeof err) != 0)
            scope_debug("%s", err);
    }
    free(order);
    free(functions);
}
