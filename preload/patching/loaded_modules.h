/* loaded_modules.h: the ELF modules loaded in this process (the program
 * and its libraries, also those dlopen'ed later), with where each lies in
 * memory: what libscope patches and whose GOTs it redirects. */
#ifndef SCOPE_LOADED_MODULES_H
#define SCOPE_LOADED_MODULES_H

#include <elf.h>
#include <stddef.h>
#include <stdint.h>

struct scope_module {
    char *path;                /* the file (the main program: its real path) */
    const char *open_path;     /* what to open: /proc/self/exe for the main program */
    uintptr_t bias;            /* load bias (0 for a non-PIE executable) */
    int is_executable;
    uintptr_t start, end;      /* from the lowest PT_LOAD to the end of the highest */
    uintptr_t relro_start, relro_end;   /* PT_GNU_RELRO, page-aligned; empty without */
    const Elf64_Dyn *dynamic;  /* PT_DYNAMIC in memory, NULL without */
};

struct scope_module_list {
    struct scope_module *v;
    size_t n;
};

/* Every module loaded, except the dynamic loader, the vDSO and the module
 * that contains `skip_address` (libscope itself). Returns 0, or -1 when
 * out of memory. */
int scope_modules_loaded(const void *skip_address, struct scope_module_list *out);
/* The same for the namespace of `handle` (from dlopen or dlmopen), its
 * first module included unless it is the main program. */
int scope_modules_in_namespace_of(void *handle, const void *skip_address,
                                  struct scope_module_list *out);
void scope_modules_free(struct scope_module_list *list);

#endif
