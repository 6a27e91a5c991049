/* dlopen.c: libscope's dlopen and dlmopen (LD_PRELOAD puts them
 * before libc's): they load the library with libc's, then hook the
 * configured functions of the modules it brought, and redirect their GOT
 * slots to functions hooked through GOTs. libc's dlopen looks for a bare
 * name along the RUNPATH of the module its return address lies in, and
 * puts the library in that module's namespace, so it is called to return
 * through a `ret` byte found in the caller's own module (call_via.S). The
 * modules of another namespace (dlmopen) are found from the handle. The
 * dynamic loader's own functions are never touched. */
#include "constructor.h"
#include "install.h"
#include "process_meta.h"
#include "real_loader.h"
#include "thread_state.h"

#include <dlfcn.h>
#include <link.h>
#include <string.h>

#define EXPORT __attribute__((visibility("default")))

void *scope_call_via(uintptr_t a0, uintptr_t a1, uintptr_t a2, void *fn,
                     const void *ret_instruction);

struct ret_search {
    uintptr_t caller;
    const void *ret;      /* a 0xc3 byte in the caller's module, or NULL */
    int is_libscope;      /* the caller is libscope itself */
};

/* A readable, executable segment of the module that contains the caller. */
static int find_ret(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    struct ret_search *s = data;
    int found = 0;
    for (int i = 0; i < info->dlpi_phnum && !found; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        uintptr_t start = info->dlpi_addr + ph->p_vaddr;
        found = ph->p_type == PT_LOAD && s->caller - start < ph->p_memsz;
    }
    if (!found)
        return 0;
    for (int i = 0; i < info->dlpi_phnum && !s->ret; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        uintptr_t start = info->dlpi_addr + ph->p_vaddr;
        if (ph->p_type == PT_LOAD && (ph->p_flags & (PF_R | PF_X)) == (PF_R | PF_X))
            s->ret = memchr((const void *)start, 0xc3, ph->p_filesz);
        s->is_libscope |= ph->p_type == PT_LOAD &&
                          (uintptr_t)&find_ret - start < ph->p_memsz;
    }
    return 1;
}

/* Calls fn(a0, a1, a2) as if from `caller`, then hooks what it loaded (in
 * the caller's namespace, or in the handle's with by_handle). */
static void *load(uintptr_t a0, uintptr_t a1, uintptr_t a2, void *fn, const void *caller,
                  int by_handle)
{
    struct ret_search s = {.caller = (uintptr_t)caller};
    dl_iterate_phdr(find_ret, &s);
    void *handle = s.ret ? scope_call_via(a0, a1, a2, fn, s.ret)
                         : ((void *(*)(uintptr_t, uintptr_t, uintptr_t))fn)(a0, a1, a2);
    if (!handle || s.is_libscope || scope_tls.busy)
        return handle;
    scope_tls.busy++;
    if (scope_install_hooks_in_new_modules(by_handle ? handle : NULL) > 0)
        scope_enable_recording();   /* publishes the hooks and the maps */
    else
        scope_meta_save_maps();     /* the new module may hold call sites */
    dlerror();   /* what the look-ups made on the way left no error behind */
    scope_tls.busy--;
    return handle;
}

EXPORT void *dlopen(const char *file, int mode)
{
    return load((uintptr_t)file, (uintptr_t)mode, 0, (void *)scope_libc_dlopen(),
                __builtin_return_address(0), 0);
}

EXPORT void *dlmopen(Lmid_t lmid, const char *file, int mode)
{
    return load((uintptr_t)lmid, (uintptr_t)file, (uintptr_t)mode, (void *)scope_libc_dlmopen(),
                __builtin_return_address(0), lmid != LM_ID_BASE);
}
