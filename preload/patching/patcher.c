/* patcher.c: the live half of hooking: build the trampoline of a function
 * in this process (entry, relocated prologue from patch_analyze.c, jump
 * back) and write the jump over its entry. */
#include "patcher.h"
#include "thread_state.h"
#include "trampoline.h"

#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define ABS_JUMP_BYTES 14   /* jmp *0(%rip); .quad target */
#define ENTRY_BYTES (5 + ABS_JUMP_BYTES)   /* push $hook; jmp *scope_entry_common */
#define TRAMPOLINE_MAX (ENTRY_BYTES + SCOPE_RELOCATED_MAX + ABS_JUMP_BYTES)

static size_t emit_abs_jump(uint8_t *p, uintptr_t target)
{
    static const uint8_t jmp_rip[6] = {0xff, 0x25, 0, 0, 0, 0};
    memcpy(p, jmp_rip, 6);
    memcpy(p + 6, &target, 8);
    return ABS_JUMP_BYTES;
}

/* push $hook; jmp *scope_entry_common */
static size_t emit_entry(uint8_t *t, uint32_t hook)
{
    t[0] = 0x68;
    memcpy(t + 1, &hook, 4);
    return 5 + emit_abs_jump(t + 5, (uintptr_t)scope_entry_common);
}

/* The entry, then the relocated prologue and the jump back. */
static long build_trampoline(uint8_t *t, uint32_t hook, const uint8_t *window, size_t wlen,
                             uintptr_t site, uintptr_t *resume, char *why, size_t whylen)
{
    size_t n = emit_entry(t, hook);
    *resume = (uintptr_t)(t + n);
    long r = scope_relocate(window, wlen, site, t + n, SCOPE_RELOCATED_MAX, (uintptr_t)(t + n),
                            why, whylen);
    if (r < 0)
        return -1;
    n += (size_t)r;
    n += emit_abs_jump(t + n, site + wlen);
    return (long)n;
}

int scope_code_write(uintptr_t at, const void *bytes, size_t len)
{
    long page = sysconf(_SC_PAGESIZE);
    uintptr_t lo = at & ~(uintptr_t)(page - 1);
    size_t span = (at + len) - lo;
    if (mprotect((void *)lo, span, PROT_READ | PROT_WRITE | PROT_EXEC) != 0)
        return -1;
    memcpy((void *)at, bytes, len);
    __builtin___clear_cache((char *)at, (char *)at + len);
    return mprotect((void *)lo, span, PROT_READ | PROT_EXEC);
}

int scope_patch_prepare(const struct scope_function_code *f, uint32_t hook,
                        struct scope_patch *p, uintptr_t *resume, char *why, size_t whylen)
{
    struct scope_patch_site s;
    if (scope_patch_analyze(f, &s, why, whylen) != 0)
        return -1;
    uintptr_t site = f->code.address + s.site_offset;
    uint8_t *t = scope_trampoline_reserve(site, TRAMPOLINE_MAX);
    if (!t) {
        snprintf(why, whylen, "no memory for a trampoline within 2 GiB of the function");
        return -1;
    }
    long n = build_trampoline(t, hook, (const uint8_t *)site, s.moved, site, resume, why, whylen);
    if (n < 0) {
        scope_trampoline_commit(t, 0);
        return -1;
    }
    scope_trampoline_commit(t, (size_t)n);

    int32_t rel = (int32_t)((intptr_t)t - (intptr_t)(site + SCOPE_JUMP_BYTES));
    p->site = site;
    p->window = s.window;
    p->jump[0] = 0xe9;
    memcpy(p->jump + 1, &rel, 4);
    memset(p->jump + SCOPE_JUMP_BYTES, 0xcc, s.window - SCOPE_JUMP_BYTES);
    return 0;
}

uintptr_t scope_patch_entry_thunk(uintptr_t function, uint32_t hook, uintptr_t *resume)
{
    uint8_t *t = scope_trampoline_reserve(function, ENTRY_BYTES);
    if (!t)
        return 0;
    scope_trampoline_commit(t, emit_entry(t, hook));
    *resume = function;
    return (uintptr_t)t;
}

int scope_patch_apply(const struct scope_patch *p, char *why, size_t whylen)
{
    if (scope_code_write(p->site, p->jump, p->window) != 0) {
        snprintf(why, whylen, "cannot make the code writable: %m");
        return -1;
    }
    return 0;
}
