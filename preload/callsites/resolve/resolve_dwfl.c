/* resolve_dwfl.c: libscope-resolve.so's one job (scope_resolve.h) through
 * libdwfl: this process's modules from /proc/self/maps, symbols from each
 * module's symbol tables, lines from its DWARF (or separate debug file). */
#include "scope_resolve.h"

#include <elfutils/libdwfl.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct scope_resolver {
    Dwfl *dwfl;
};

static char *debuginfo_path;
static const Dwfl_Callbacks live_callbacks = {
    .find_elf = dwfl_linux_proc_find_elf,
    .find_debuginfo = dwfl_standard_find_debuginfo,
    .debuginfo_path = &debuginfo_path,
};

/* A process that is gone: its modules are read from their files; the
 * vdso and other pseudo-files are left unnamed. */
static int find_file_elf(Dwfl_Module *m, void **userdata, const char *name, Dwarf_Addr base,
                         char **file_name, Elf **elf)
{
    if (name[0] != '/')
        return -1;
    return dwfl_linux_proc_find_elf(m, userdata, name, base, file_name, elf);
}

static const Dwfl_Callbacks gone_callbacks = {
    .find_elf = find_file_elf,
    .find_debuginfo = dwfl_standard_find_debuginfo,
    .debuginfo_path = &debuginfo_path,
};

/* The modules of maps (or of this process): 0, or an errno value. */
static int report_modules(Dwfl *dwfl, const char *maps)
{
    if (!maps)
        return dwfl_linux_proc_report(dwfl, getpid());
    FILE *f = fmemopen((void *)maps, strlen(maps), "r");
    if (!f)
        return ENOMEM;
    int rc = dwfl_linux_proc_maps_report(dwfl, f);
    fclose(f);
    return rc;
}

static struct scope_resolver *resolver_open(const char *maps, char *err, size_t errlen)
{
    struct scope_resolver *r = calloc(1, sizeof(*r));
    if (!r || !(r->dwfl = dwfl_begin(maps ? &gone_callbacks : &live_callbacks))) {
        snprintf(err, errlen, "cannot start libdw: %s", r ? dwfl_errmsg(-1) : "out of memory");
        free(r);
        return NULL;
    }
    int rc = report_modules(r->dwfl, maps);
    if (rc != 0 || dwfl_report_end(r->dwfl, NULL, NULL) != 0) {
        snprintf(err, errlen, "cannot read the process's modules: %s",
                 rc > 0 ? strerror(rc) : dwfl_errmsg(-1));
        dwfl_end(r->dwfl);
        free(r);
        return NULL;
    }
    return r;
}

static int resolver_lookup(struct scope_resolver *r, uint64_t return_address,
                           struct scope_resolved_address *out)
{
    Dwarf_Addr call = return_address - 1;   /* inside the call instruction */
    Dwfl_Module *m = dwfl_addrmodule(r->dwfl, call);
    if (!m)
        return -1;
    Dwarf_Addr base = 0;
    const char *main_file = NULL;
    const char *name = dwfl_module_info(m, NULL, &base, NULL, NULL, NULL, &main_file, NULL);
    *out = (struct scope_resolved_address){.module = main_file ? main_file : name,
                                           .offset = return_address - base};
    GElf_Off symbol_offset;
    GElf_Sym sym;
    out->symbol = dwfl_module_addrinfo(m, call, &symbol_offset, &sym, NULL, NULL, NULL);
    if (out->symbol)
        out->offset = symbol_offset + 1;
    Dwfl_Line *line = dwfl_module_getsrc(m, call);
    if (line)
        out->file = dwfl_lineinfo(line, NULL, &out->line, NULL, NULL, NULL);
    return 0;
}

static void resolver_close(struct scope_resolver *r)
{
    if (r) {
        dwfl_end(r->dwfl);
        free(r);
    }
}

__attribute__((visibility("default"))) const struct scope_resolve_api *scope_resolve_api(void)
{
    static const struct scope_resolve_api api = {resolver_open, resolver_lookup, resolver_close};
    return &api;
}
