/* loaded_modules.c: lists the loaded modules with dl_iterate_phdr, copying
 * what later steps need, since the loader's lock is held in its callback;
 * or the modules of a namespace dlmopen made, which dl_iterate_phdr (it
 * reports its caller's namespace only) does not show. */
#include "loaded_modules.h"
#include "grow_array.h"

#include <dlfcn.h>
#include <limits.h>
#include <link.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct module_scan {
    const void *skip_address;
    size_t seen;         /* modules seen so far; the first is the main program */
    const char *interp;  /* PT_INTERP of the main program, in memory */
    struct scope_module_list *list;
    size_t cap;
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

static void set_extent(struct scope_module *m, const struct dl_phdr_info *info)
{
    long page = sysconf(_SC_PAGESIZE);
    m->start = UINTPTR_MAX;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        uintptr_t lo = info->dlpi_addr + ph->p_vaddr, hi = lo + ph->p_memsz;
        if (ph->p_type == PT_LOAD) {
            m->start = lo < m->start ? lo : m->start;
            m->end = hi > m->end ? hi : m->end;
        } else if (ph->p_type == PT_DYNAMIC) {
            m->dynamic = (const Elf64_Dyn *)lo;
        } else if (ph->p_type == PT_GNU_RELRO) {
            /* the loader makes the whole pages read-only, rounding the end down */
            m->relro_start = lo & ~(uintptr_t)(page - 1);
            m->relro_end = hi & ~(uintptr_t)(page - 1);
        }
    }
}

static char *executable_path(void)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0)
        return strdup("/proc/self/exe");
    exe[n] = '\0';
    return strdup(exe);
}

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
    struct scope_module_list *list = scan->list;
    if (scope_grow_array((void **)&list->v, &scan->cap, list->n + 1, sizeof *list->v) != 0) {
        scan->failed = true;
        return 1;
    }
    struct scope_module *m = &list->v[list->n];
    *m = (struct scope_module){.bias = info->dlpi_addr, .is_executable = is_main};
    m->path = is_main ? executable_path() : strdup(info->dlpi_name);
    if (!m->path) {
        scan->failed = true;
        return 1;
    }
    m->open_path = is_main ? "/proc/self/exe" : m->path;
    set_extent(m, info);
    list->n++;
    return 0;
}

int scope_modules_loaded(const void *skip_address, struct scope_module_list *out)
{
    *out = (struct scope_module_list){0};
    struct module_scan scan = {.skip_address = skip_address, .list = out};
    dl_iterate_phdr(collect_module, &scan);
    if (scan.failed) {
        scope_modules_free(out);
        return -1;
    }
    return 0;
}

int scope_modules_in_namespace_of(void *handle, const void *skip_address,
                                  struct scope_module_list *out)
{
    *out = (struct scope_module_list){0};
    struct link_map *lm;
    if (dlinfo(handle, RTLD_DI_LINKMAP, &lm) != 0)
        return -1;
    while (lm->l_prev)
        lm = lm->l_prev;
    /* seen = 1: the head of a namespace is the program only in the first one,
     * where every module was listed at start */
    struct module_scan scan = {.skip_address = skip_address, .seen = 1, .list = out};
    for (; lm && !scan.failed; lm = lm->l_next) {
        Dl_info mapped;   /* where the module's first page, its ELF header, lies */
        if (!lm->l_ld || !dladdr(lm->l_ld, &mapped) || !mapped.dli_fbase)
            continue;
        const ElfW(Ehdr) *header = mapped.dli_fbase;
        if (memcmp(header->e_ident, ELFMAG, SELFMAG) != 0)
            continue;
        struct dl_phdr_info info = {
            .dlpi_addr = lm->l_addr,
            .dlpi_name = lm->l_name,
            .dlpi_phdr = (const ElfW(Phdr) *)((const char *)header + header->e_phoff),
            .dlpi_phnum = header->e_phnum,
        };
        collect_module(&info, sizeof info, &scan);
    }
    if (scan.failed) {
        scope_modules_free(out);
        return -1;
    }
    return 0;
}

void scope_modules_free(struct scope_module_list *list)
{
    for (size_t i = 0; i < list->n; i++)
        free(list->v[i].path);
    free(list->v);
    *list = (struct scope_module_list){0};
}
