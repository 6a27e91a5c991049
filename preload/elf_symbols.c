/* elf_symbols.c: lists the defined function symbols of ELF64 files by
 * reading .symtab and .dynsym from an mmap of the file (no libelf), and of
 * every module loaded in this process via dl_iterate_phdr. Every offset
 * read from a file is checked against its size: a corrupt file gives an
 * error, never a crash. Symbol names point into the mapping and are valid
 * only during the callback. */
#include "elf_symbols.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* A mapped file and the bounds everything in it is checked against. */
struct elf_file {
    const char *path;
    const unsigned char *data;
    size_t size;
    const Elf64_Shdr *sections;
    size_t nsections;
};

/* One candidate symbol, gathered from both tables before deduplication. */
struct found {
    const char *name;
    uint64_t value;
    uint64_t size;
    const uint8_t *code;
};

struct found_list {
    struct found *items;
    size_t count, cap;
};

static int fail(char *err, size_t errlen, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static int fail(char *err, size_t errlen, const char *path, const char *fmt, ...)
{
    if (!err || errlen == 0)
        return -1;
    int n = snprintf(err, errlen, "%s: ", path);
    if (n >= 0 && (size_t)n < errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
        va_end(ap);
    }
    return -1;
}

/* Does [offset, offset + count * entsize) lie inside the file, with the
 * offset aligned for entries of that size (8 bytes at most)? */
static bool in_file(const struct elf_file *f, uint64_t offset, uint64_t count, uint64_t entsize)
{
    uint64_t align = entsize >= 8 ? 8 : 1;
    if (offset > f->size || offset % align != 0)
        return false;
    if (entsize != 0 && count > (f->size - offset) / entsize)
        return false;
    return true;
}

static int check_header(struct elf_file *f, char *err, size_t errlen)
{
    const Elf64_Ehdr *eh = (const Elf64_Ehdr *)f->data;
    if (f->size < EI_NIDENT || memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0)
        return fail(err, errlen, f->path, "not an ELF file");
    if (f->size < sizeof *eh || eh->e_ident[EI_CLASS] != ELFCLASS64 ||
        eh->e_ident[EI_DATA] != ELFDATA2LSB)
        return fail(err, errlen, f->path, "not a 64-bit little-endian ELF file");
    if (eh->e_type != ET_EXEC && eh->e_type != ET_DYN)
        return fail(err, errlen, f->path, "not an executable or shared library");
    if (eh->e_shoff == 0)
        return fail(err, errlen, f->path, "no section headers");
    if (eh->e_shentsize != sizeof(Elf64_Shdr) || !in_file(f, eh->e_shoff, 1, sizeof(Elf64_Shdr)))
        return fail(err, errlen, f->path, "truncated or corrupt section headers");
    f->sections = (const Elf64_Shdr *)(f->data + eh->e_shoff);
    /* With 0xff00 sections or more, e_shnum is 0 and the count is in section 0. */
    f->nsections = eh->e_shnum != 0 ? eh->e_shnum : f->sections[0].sh_size;
    if (!in_file(f, eh->e_shoff, f->nsections, sizeof(Elf64_Shdr)))
        return fail(err, errlen, f->path, "truncated or corrupt section headers");
    return 0;
}

static int list_push(struct found_list *list, const struct found *item)
{
    if (list->count == list->cap) {
        size_t cap = list->cap ? list->cap * 2 : 256;
        struct found *grown = realloc(list->items, cap * sizeof *grown);
        if (!grown)
            return -1;
        list->items = grown;
        list->cap = cap;
    }
    list->items[list->count++] = *item;
    return 0;
}

/* Where the symbol's bytes lie in the file: in its section at sh_offset +
 * (st_value - sh_addr), if the whole symbol is inside the section and the
 * file. NULL for special section indexes and NOBITS sections. */
static const uint8_t *code_in_file(const struct elf_file *f, const Elf64_Sym *s)
{
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
    return f->data + sec->sh_offset + in_sec;
}

/* Gathers the defined functions of one symbol table section. */
static int read_table(const struct elf_file *f, const Elf64_Shdr *tab,
                      struct found_list *list, char *err, size_t errlen)
{
    if (tab->sh_entsize != sizeof(Elf64_Sym) || tab->sh_link >= f->nsections)
        return fail(err, errlen, f->path, "corrupt symbol table header");
    const Elf64_Shdr *strtab = &f->sections[tab->sh_link];
    uint64_t nsyms = tab->sh_size / sizeof(Elf64_Sym);
    if (tab->sh_type == SHT_NOBITS || strtab->sh_type != SHT_STRTAB ||
        !in_file(f, tab->sh_offset, nsyms, sizeof(Elf64_Sym)) ||
        !in_file(f, strtab->sh_offset, strtab->sh_size, 1))
        return fail(err, errlen, f->path, "truncated or corrupt symbol table");
    const Elf64_Sym *syms = (const Elf64_Sym *)(f->data + tab->sh_offset);
    const char *strings = (const char *)(f->data + strtab->sh_offset);
    for (uint64_t i = 0; i < nsyms; i++) {
        const Elf64_Sym *s = &syms[i];
        if (ELF64_ST_TYPE(s->st_info) != STT_FUNC || s->st_shndx == SHN_UNDEF ||
            s->st_value == 0)
            continue;
        if (s->st_name >= strtab->sh_size ||
            !memchr(strings + s->st_name, '\0', strtab->sh_size - s->st_name))
            return fail(err, errlen, f->path, "corrupt symbol name in symbol table");
        struct found item = {strings + s->st_name, s->st_value, s->st_size, code_in_file(f, s)};
        if (list_push(list, &item) != 0)
            return fail(err, errlen, f->path, "out of memory");
    }
    return 0;
}

static int compare_found(const void *a, const void *b)
{
    const struct found *x = a, *y = b;
    if (x->value != y->value)
        return x->value < y->value ? -1 : 1;
    return strcmp(x->name, y->name);
}

/* Sorts by (address, name) and reports each distinct pair once. */
static void report(const struct found_list *list, struct scope_symbol *sym,
                   scope_symbol_fn fn, void *ctx)
{
    qsort(list->items, list->count, sizeof *list->items, compare_found);
    for (size_t i = 0; i < list->count; i++) {
        const struct found *item = &list->items[i];
        if (i > 0 && compare_found(item, &list->items[i - 1]) == 0)
            continue;
        sym->name = item->name;
        sym->value = item->value;
        sym->address = sym->module_bias + (uintptr_t)item->value;
        sym->size = (size_t)item->size;
        sym->file_code = item->code;
        if (fn(sym, ctx) != 0)
            return;
    }
}

/* Walks the sections of a mapped file and reports its functions. */
static int walk_file(struct elf_file *f, struct scope_symbol *sym,
                     scope_symbol_fn fn, void *ctx, char *err, size_t errlen)
{
    if (check_header(f, err, errlen) != 0)
        return -1;
    struct found_list list = {NULL, 0, 0};
    int rc = 0;
    for (size_t i = 0; i < f->nsections && rc == 0; i++) {
        uint32_t type = f->sections[i].sh_type;
        if (type == SHT_SYMTAB || type == SHT_DYNSYM)
            rc = read_table(f, &f->sections[i], &list, err, errlen);
    }
    if (rc == 0)
        report(&list, sym, fn, ctx);
    free(list.items);
    return rc;
}

/* Maps the file at open_path and reports its symbols as belonging to
 * module_path (they differ for the main program, opened by /proc/self/exe). */
static int foreach_symbol_in(const char *open_path, const char *module_path, uintptr_t bias,
                             int is_executable, scope_symbol_fn fn, void *ctx,
                             char *err, size_t errlen)
{
    int fd = open(open_path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return fail(err, errlen, module_path, "cannot open: %s", strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return fail(err, errlen, module_path, "not a regular file");
    }
    if (st.st_size == 0) {
        close(fd);
        return fail(err, errlen, module_path, "not an ELF file");
    }
    void *data = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    int saved = errno;
    close(fd);
    if (data == MAP_FAILED)
        return fail(err, errlen, module_path, "cannot map: %s", strerror(saved));
    struct elf_file f = {module_path, data, (size_t)st.st_size, NULL, 0};
    struct scope_symbol sym = {
        .module_path = module_path, .module_bias = bias, .is_executable = is_executable,
    };
    int rc = walk_file(&f, &sym, fn, ctx, err, errlen);
    munmap(data, (size_t)st.st_size);
    return rc;
}

int scope_elf_foreach_symbol(const char *path, uintptr_t bias, int is_executable,
                             scope_symbol_fn fn, void *ctx, char *err, size_t errlen)
{
    return foreach_symbol_in(path, path, bias, is_executable, fn, ctx, err, errlen);
}

/* ---- loaded modules ------------------------------------------------- */

struct module {
    char *path;          /* NULL for the main program */
    uintptr_t bias;
};

struct module_scan {
    const void *skip_address;
    size_t seen;         /* modules seen so far; the first is the main program */
    const char *interp;  /* PT_INTERP of the main program, in memory */
    struct module *modules;
    size_t count, cap;
    bool failed;
};

static bool contains_address(const struct dl_phdr_info *info, const void *address)
{
    uintptr_t a = (uintptr_t)address;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        uintptr_t start = info->dlpi_addr + ph->p_vaddr;
        if (ph->p_type == PT_LOAD && a >= start && a - start < ph->p_memsz)
            return true;
    }
    return false;
}

static const char *find_interp(const struct dl_phdr_info *info)
{
    for (int i = 0; i < info->dlpi_phnum; i++)
        if (info->dlpi_phdr[i].p_type == PT_INTERP)
            return (const char *)(info->dlpi_addr + info->dlpi_phdr[i].p_vaddr);
    return NULL;
}

/* The vDSO (no file) and the dynamic loader are never reported. */
static bool is_system_module(const struct module_scan *scan, const char *name)
{
    const char *slash = strrchr(name, '/');
    const char *base = slash ? slash + 1 : name;
    return name[0] == '\0' || strncmp(base, "linux-vdso", 10) == 0 ||
           strstr(base, "ld-linux") != NULL || (scan->interp && strcmp(name, scan->interp) == 0);
}

/* dl_iterate_phdr callback: only records modules, since the loader lock is
 * held here and the user's callback may do anything. */
static int collect_module(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    struct module_scan *scan = data;
    bool is_main = scan->seen++ == 0;
    if (is_main)
        scan->interp = find_interp(info);
    if (scan->skip_address && contains_address(info, scan->skip_address))
        return 0;
    if (!is_main && is_system_module(scan, info->dlpi_name))
        return 0;
    if (scan->count == scan->cap) {
        size_t cap = scan->cap ? scan->cap * 2 : 16;
        struct module *grown = realloc(scan->modules, cap * sizeof *grown);
        if (!grown) {
            scan->failed = true;
            return 1;
        }
        scan->modules = grown;
        scan->cap = cap;
    }
    struct module *m = &scan->modules[scan->count];
    m->bias = info->dlpi_addr;
    m->path = is_main ? NULL : strdup(info->dlpi_name);
    if (!is_main && !m->path) {
        scan->failed = true;
        return 1;
    }
    scan->count++;
    return 0;
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

static void report_module(const struct module *m, struct forward *fw)
{
    char err[256];
    if (m->path) {
        foreach_symbol_in(m->path, m->path, m->bias, 0, forward_symbol, fw, err, sizeof err);
        return;
    }
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0)
        snprintf(exe, sizeof exe, "/proc/self/exe");
    else
        exe[n] = '\0';
    foreach_symbol_in("/proc/self/exe", exe, m->bias, 1, forward_symbol, fw, err, sizeof err);
}

int scope_elf_foreach_loaded_symbol(const void *skip_address, scope_symbol_fn fn, void *ctx)
{
    struct module_scan scan = {.skip_address = skip_address};
    dl_iterate_phdr(collect_module, &scan);
    struct forward fw = {fn, ctx, false};
    for (size_t i = 0; i < scan.count && !scan.failed && !fw.stopped; i++)
        report_module(&scan.modules[i], &fw);
    for (size_t i = 0; i < scan.count; i++)
        free(scan.modules[i].path);
    free(scan.modules);
    return scan.failed ? -1 : 0;
}
