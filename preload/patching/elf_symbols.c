/* elf_symbols.c: lists the defined function symbols of ELF64 files by
 * reading .symtab and .dynsym from an mmap of the file (no libelf), and of
 * every module loaded in this process via dl_iterate_phdr. Every offset
 * read from a file is checked against its size: a corrupt file gives an
 * error, never a crash. Symbol names point into the mapping and are valid
 * only during the callback. */
#include "elf_symbols.h"
#include "lower_bound.h"
#include "elf_file.h"
#include "grow_array.h"

#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* One candidate symbol, gathered from both tables before deduplication. */
struct found {
    const char *name;
    uint64_t value;
    uint64_t size;
    uint64_t limit;        /* end of its section, when the section is in the file */
    const uint8_t *code;
    bool exported;
    int wanted;            /* the walk's `wants` said (>= 0: take it; 0 without one) */
    char *demangled;       /* the name `wants` demangled, or NULL */
};

/* The functions, and the start of every symbol (what padding ends at). */
struct found_list {
    struct found *items;
    size_t count, cap;
    uint64_t *starts;
    size_t nstarts, starts_cap;
};

/* Where the symbol's bytes lie in the file: in its section at sh_offset +
 * (st_value - sh_addr), if the whole symbol is inside the section and the
 * file. NULL for special section indexes and NOBITS sections. *limit: the
 * end of the section when all of it is in the file, else of the symbol. */
static const uint8_t *code_in_file(const struct elf_file *f, const Elf64_Sym *s,
                                   uint64_t *limit)
{
    *limit = s->st_value + s->st_size;
    if (s->st_shndx == SHN_UNDEF || s->st_shndx >= SHN_LORESERVE || s->st_shndx >= f->nsections)
        return NULL;
    const Elf64_Shdr *sec = &f->sections[s->st_shndx];
    if (sec->sh_type == SHT_NOBITS || s->st_value < sec->sh_addr)
        return NULL;
    uint64_t in_sec = s->st_value - sec->sh_addr;
    if (in_sec > sec->sh_size || s->st_size > sec->sh_size - in_sec ||
        sec->sh_offset > f->size || in_sec > f->size - sec->sh_offset ||
        s->st_size > f->size - sec->sh_offset - in_sec)
        return NULL;
    if (sec->sh_size <= f->size - sec->sh_offset)
        *limit = sec->sh_addr + sec->sh_size;
    return f->data + sec->sh_offset + in_sec;
}

static bool is_exported(const Elf64_Shdr *tab, const Elf64_Sym *s)
{
    int bind = ELF64_ST_BIND(s->st_info), vis = ELF64_ST_VISIBILITY(s->st_other);
    return tab->sh_type == SHT_DYNSYM && (bind == STB_GLOBAL || bind == STB_WEAK) &&
           (vis == STV_DEFAULT || vis == STV_PROTECTED);
}

/* Gathers the defined functions of one symbol table section. */
static int read_table(const struct elf_file *f, const Elf64_Shdr *tab,
                      struct found_list *list, char *err, size_t errlen)
{
    struct elf_symbol_table t;
    if (elf_file_symbol_table(f, tab, &t, err, errlen) != 0)
        return -1;
    for (uint64_t i = 0; i < t.count; i++) {
        const Elf64_Sym *s = &t.syms[i];
        int type = ELF64_ST_TYPE(s->st_info);
        if (s->st_shndx == SHN_UNDEF || s->st_shndx >= SHN_LORESERVE || s->st_value == 0 ||
            type == STT_SECTION || type == STT_FILE)
            continue;
        if (scope_grow_array((void **)&list->starts, &list->starts_cap, list->nstarts + 1,
                             sizeof(uint64_t)))
            return elf_file_fail(err, errlen, f->path, "out of memory");
        list->starts[list->nstarts++] = s->st_value;
        if (type != STT_FUNC)
            continue;
        const char *name = elf_symbol_name(&t, i);
        if (!name)
            return elf_file_fail(err, errlen, f->path, "corrupt symbol name in symbol table");
        struct found item = {name, s->st_value, s->st_size, 0, NULL, is_exported(tab, s), 0,
                             NULL};
        item.code = code_in_file(f, s, &item.limit);
        if (scope_grow_array((void **)&list->items, &list->cap, list->count + 1,
                             sizeof(struct found)))
            return elf_file_fail(err, errlen, f->path, "out of memory");
        list->items[list->count++] = item;
    }
    return 0;
}

/* By (address, name), through pointers: sorting moves 8 bytes per item. */
static int compare_found(const void *a, const void *b)
{
    const struct found *x = *(const struct found *const *)a, *y = *(const struct found *const *)b;
    if (x->value != y->value)
        return x->value < y->value ? -1 : 1;
    return strcmp(x->name, y->name);
}

static int compare_name(const void *a, const void *b)
{
    const struct found *const *x = a, *const *y = b;
    return strcmp((*x)->name, (*y)->name);
}

static int compare_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Bytes from the function's start to the next symbol that starts at or
 * after its end, or to the end of its section. */
static size_t room_after(const struct found_list *list, const struct found *item)
{
    uint64_t end = item->value + item->size, next = item->limit;
    size_t lo = scope_lower_bound(list->starts, list->nstarts, end);
    if (lo < list->nstarts && list->starts[lo] < next)
        next = list->starts[lo];
    return next > end ? (size_t)(next - item->value) : (size_t)item->size;
}

/* The functions named "<name>.cold..." or "<name>.part..." (by_name is
 * sorted by name), into the scratch array *out. Returns how many. */
static size_t find_fragments(struct found *const *by_name, size_t n, const char *name,
                             uintptr_t bias, struct scope_code **out, size_t *cap)
{
    size_t len = strlen(name), lo = 0, hi = n, count = 0;
    while (lo < hi) {   /* the first name after "<name>." in sort order */
        size_t mid = lo + (hi - lo) / 2;
        int c = strncmp(by_name[mid]->name, name, len);
        if (c < 0 || (c == 0 && (unsigned char)by_name[mid]->name[len] < '.'))
            lo = mid + 1;
        else
            hi = mid;
    }
    for (size_t i = lo; i < n && strncmp(by_name[i]->name, name, len) == 0 &&
                        by_name[i]->name[len] == '.'; i++) {
        const char *rest = by_name[i]->name + len + 1;
        if (strncmp(rest, "cold", 4) != 0 && strncmp(rest, "part.", 5) != 0)
            continue;
        if (count > 0 && (*out)[count - 1].address == bias + by_name[i]->value)
            continue;   /* the same fragment from the other table */
        if (scope_grow_array((void **)out, cap, count + 1, sizeof **out) != 0)
            break;
        (*out)[count++] = (struct scope_code){by_name[i]->code, bias + by_name[i]->value,
                                              by_name[i]->code ? by_name[i]->size : 0};
    }
    return count;
}

/* A "<name>.cold" piece (also ".cold.N"): the unlikely part GCC splits out
 * of a function, jumped into and never called. It goes with its function
 * (find_fragments), and is reported as a fragment, never as a function. */
static bool is_cold_fragment(const char *name)
{
    const char *dot = strchr(name, '.');   /* most names have none: strchr is quicker */
    for (const char *p = dot ? strstr(dot, ".cold") : NULL; p; p = strstr(p + 1, ".cold"))
        if (p > name && (p[5] == '\0' || p[5] == '.'))
            return true;
    return false;
}

/* A name find_fragments may look for: "<name>.cold..." or "<name>.part...". */
static bool may_be_fragment(const char *name)
{
    const char *dot = strchr(name, '.');
    return dot && dot > name && (strstr(dot, ".cold") || strstr(dot, ".part."));
}

/* Asks `wants` about each function (cold fragments are never taken: they
 * are only ever parts of a function); whether it took any. */
static bool mark_wanted(struct found_list *list, scope_symbol_wants wants, const char *path,
                        void *ctx)
{
    bool any = false;
    for (size_t i = 0; i < list->count; i++) {
        struct found *item = &list->items[i];
        item->wanted =
            is_cold_fragment(item->name) ? -1 : wants(item->name, path, &item->demangled, ctx);
        if (item->wanted < 0) {   /* only the names of the functions reported are kept */
            free(item->demangled);
            item->demangled = NULL;
        }
        any |= item->wanted >= 0;
    }
    return any;
}

/* Sorts the functions wanted (all when `wants` is NULL) by (address, name)
 * and reports each distinct pair once; nothing is sorted when none is
 * wanted. */
static int report(struct found_list *list, struct scope_symbol *sym, scope_symbol_wants wants,
                  scope_symbol_fn fn, void *ctx, const char *path, char *err, size_t errlen)
{
    if (wants && !mark_wanted(list, wants, sym->module_path, ctx))
        return 0;
    size_t n = list->count ? list->count : 1;
    struct found **by_name = malloc(n * sizeof *by_name), **order = malloc(n * sizeof *order);
    if (!by_name || !order) {
        free(by_name);
        free(order);
        return elf_file_fail(err, errlen, path, "out of memory");
    }
    /* the functions to report, in order (a name's copies in both tables
     * had the same answer), and the fragments, by name */
    size_t nreported = 0, nnamed = 0;
    for (size_t i = 0; i < list->count; i++) {
        if (list->items[i].wanted >= 0)
            order[nreported++] = &list->items[i];
        if (may_be_fragment(list->items[i].name))
            by_name[nnamed++] = &list->items[i];
    }
    qsort(order, nreported, sizeof *order, compare_found);
    qsort(list->starts, list->nstarts, sizeof *list->starts, compare_u64);
    qsort(by_name, nnamed, sizeof *by_name, compare_name);
    struct scope_code *fragments = NULL;
    size_t fragments_cap = 0;
    for (size_t i = 0; i < nreported;) {
        struct found *item = order[i];
        bool exported = false;
        for (; i < nreported && compare_found(&item, &order[i]) == 0; i++)
            exported |= order[i]->exported;
        sym->wanted = item->wanted;
        sym->demangled = item->demangled;
        sym->is_fragment = is_cold_fragment(item->name);
        sym->name = item->name;
        sym->value = item->value;
        sym->address = sym->module_bias + (uintptr_t)item->value;
        sym->size = (size_t)item->size;
        sym->room = item->code ? room_after(list, item) : sym->size;
        sym->exported = exported;
        sym->file_code = item->code;
        sym->nfragments = sym->is_fragment ? 0
                                           : find_fragments(by_name, nnamed, item->name,
                                                            sym->module_bias, &fragments,
                                                            &fragments_cap);
        sym->fragments = fragments;
        if (fn(sym, ctx) != 0)
            break;
    }
    free(fragments);
    free(by_name);
    free(order);
    return 0;
}

/* Reports the functions of a mapped file. */
static int walk_file(const struct elf_file *f, struct scope_symbol *sym, scope_symbol_wants wants,
                     scope_symbol_fn fn, void *ctx, char *err, size_t errlen)
{
    struct found_list list = {0};
    int rc = 0;
    for (size_t i = 0; i < f->nsections && rc == 0; i++) {
        uint32_t type = f->sections[i].sh_type;
        if (type == SHT_SYMTAB || type == SHT_DYNSYM)
            rc = read_table(f, &f->sections[i], &list, err, errlen);
    }
    if (rc == 0)
        rc = report(&list, sym, wants, fn, ctx, f->path, err, errlen);
    for (size_t i = 0; i < list.count; i++)
        free(list.items[i].demangled);
    free(list.items);
    free(list.starts);
    return rc;
}

/* Maps the file at open_path and reports its symbols as belonging to
 * module_path (they differ for the main program, opened by /proc/self/exe). */
static int foreach_symbol_in(const char *open_path, const char *module_path, uintptr_t bias,
                             int is_executable, scope_symbol_wants wants, scope_symbol_fn fn,
                             void *ctx, char *err, size_t errlen)
{
    struct elf_file f;
    if (elf_file_open(&f, open_path, module_path, err, errlen) != 0)
        return -1;
    struct scope_symbol sym = {
        .module_path = module_path, .module_bias = bias, .is_executable = is_executable,
    };
    int rc = walk_file(&f, &sym, wants, fn, ctx, err, errlen);
    elf_file_close(&f);
    return rc;
}

int scope_elf_foreach_symbol(const char *path, uintptr_t bias, int is_executable,
                             scope_symbol_fn fn, void *ctx, char *err, size_t errlen)
{
    return foreach_symbol_in(path, path, bias, is_executable, NULL, fn, ctx, err, errlen);
}

struct scope_function_code scope_symbol_code(const struct scope_symbol *sym)
{
    return (struct scope_function_code){
        .code = {sym->file_code, sym->address, sym->size},
        .room = sym->room,
        .fragments = sym->fragments,
        .nfragments = sym->nfragments,
    };
}

/* ---- loaded modules ------------------------------------------------- */

/* The section headers of the file at path (up to 4096, read, not mapped),
 * malloc'ed, or NULL. */
static Elf64_Shdr *read_section_headers(const char *path, size_t *count)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    Elf64_Ehdr eh;
    Elf64_Shdr *sh = NULL;
    if (pread(fd, &eh, sizeof eh, 0) == (ssize_t)sizeof eh &&
        memcmp(eh.e_ident, ELFMAG, SELFMAG) == 0 && eh.e_ident[EI_CLASS] == ELFCLASS64 &&
        eh.e_shentsize == sizeof(Elf64_Shdr) && eh.e_shnum > 0 && eh.e_shnum <= 4096 &&
        (sh = malloc(eh.e_shnum * sizeof *sh)) != NULL &&
        pread(fd, sh, eh.e_shnum * sizeof *sh, (off_t)eh.e_shoff) ==
            (ssize_t)(eh.e_shnum * sizeof *sh)) {
        *count = eh.e_shnum;
    } else {
        free(sh);
        sh = NULL;
    }
    close(fd);
    return sh;
}

/* Whether the loaded section sec lies inside the module. */
static bool section_loaded(const struct scope_module *m, const Elf64_Shdr *sec)
{
    uintptr_t at = m->bias + sec->sh_addr;
    return (sec->sh_flags & SHF_ALLOC) && sec->sh_type != SHT_NOBITS && at >= m->start &&
           at <= m->end && sec->sh_size <= m->end - at;
}

/* Whether `wants` takes none of the module's functions, known without
 * mapping its file: it has no .symtab (stripped, as installed libraries
 * are), and no function of its .dynsym, read where it is loaded, is
 * wanted. Most modules a program loads have nothing a config selects. */
static bool wants_none_loaded(const struct scope_module *m, scope_symbol_wants wants, void *ctx)
{
    size_t n = 0;
    Elf64_Shdr *sh = read_section_headers(m->open_path, &n);
    const Elf64_Shdr *dynsym = NULL;
    bool none = sh != NULL;
    for (size_t i = 0; none && i < n; i++) {
        if (sh[i].sh_type == SHT_SYMTAB)
            none = false;
        else if (sh[i].sh_type == SHT_DYNSYM)
            dynsym = &sh[i];
    }
    const Elf64_Shdr *strtab = dynsym && dynsym->sh_link < n ? &sh[dynsym->sh_link] : NULL;
    if (none && dynsym &&
        (dynsym->sh_entsize != sizeof(Elf64_Sym) || !strtab || strtab->sh_size == 0 ||
         !section_loaded(m, dynsym) || !section_loaded(m, strtab) ||
         ((const char *)(m->bias + strtab->sh_addr))[strtab->sh_size - 1] != '\0'))
        none = false;
    if (none && dynsym) {
        const Elf64_Sym *syms = (const Elf64_Sym *)(m->bias + dynsym->sh_addr);
        const char *names = (const char *)(m->bias + strtab->sh_addr);
        for (uint64_t i = 0; none && i < dynsym->sh_size / sizeof *syms; i++) {
            const Elf64_Sym *sym = &syms[i];
            if (ELF64_ST_TYPE(sym->st_info) != STT_FUNC || sym->st_shndx == SHN_UNDEF ||
                sym->st_shndx >= SHN_LORESERVE || sym->st_value == 0)
                continue;
            if (sym->st_name >= strtab->sh_size)
                none = false;
            else if (!is_cold_fragment(names + sym->st_name) &&
                     wants(names + sym->st_name, m->path, NULL, ctx) >= 0)
                none = false;
        }
    }
    free(sh);
    return none;
}

int scope_elf_foreach_module_symbol(const struct scope_module *m, scope_symbol_wants wants,
                                    scope_symbol_fn fn, void *ctx, char *err, size_t errlen)
{
    if (wants && wants_none_loaded(m, wants, ctx))
        return 0;
    return foreach_symbol_in(m->open_path, m->path, m->bias, m->is_executable, wants, fn, ctx,
                             err, errlen);
}

/* Passes symbols on to the user's callback and remembers a request to stop. */
struct forward {
    scope_symbol_fn fn;
    void *ctx;
    bool stopped;
};

static int forward_symbol(const struct scope_symbol *sym, void *data)
{
    struct forward *fw = data;
    fw->stopped = fw->fn(sym, fw->ctx) != 0;
    return fw->stopped;
}

int scope_elf_foreach_loaded_symbol(const void *skip_address, scope_symbol_fn fn, void *ctx)
{
    struct scope_module_list modules;
    if (scope_modules_loaded(skip_address, &modules) != 0)
        return -1;
    struct forward fw = {fn, ctx, false};
    char err[256];
    for (size_t i = 0; i < modules.n && !fw.stopped; i++)
        scope_elf_foreach_module_symbol(&modules.v[i], NULL, forward_symbol, &fw, err,
                                        sizeof err);
    scope_modules_free(&modules);
    return 0;
}
