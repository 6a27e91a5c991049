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
    struct scope_patch p = {.site = at, .window = len};
    int ok = 0;
    char why[128];
    if (len > sizeof(p.jump))
        return -1;
    memcpy(p.jump, bytes, len);
    scope_patch_apply_all(&p, 1, &ok, why, sizeof(why));
    return ok ? 0 : -1;
}

int scope_patch_prepare(const struct scope_function_code *f, const struct scope_patch_site *s,
                        uint32_t hook, struct scope_patch *p, uintptr_t *resume, char *why,
                        size_t whylen)
{
    uintptr_t site = f->code.address + s->site_offset;
    uint8_t *t = scope_trampoline_reserve(site, TRAMPOLINE_MAX);
    if (!t) {
        snprintf(why, whylen, "no memory for a trampoline within 2 GiB of the function");
        return -1;
    }
    long n = build_trampoline(t, hook, (const uint8_t *)site, s->moved, site, resume, why, whylen);
    if (n < 0) {
        scope_trampoline_commit(t, 0);
        return -1;
    }
    scope_trampoline_commit(t, (size_t)n);

    int32_t rel = (int32_t)((intptr_t)t - (intptr_t)(site + SCOPE_JUMP_BYTES));
    p->site = site;
    p->window = s->window;
    p->jump[0] = 0xe9;
    memcpy(p->jump + 1, &rel, 4);
    memset(p->jump + SCOPE_JUMP_BYTES, 0xcc, s->window - SCOPE_JUMP_BYTES);
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

/* Makes pages [lo, hi) writable (prot PROT_READ|PROT_WRITE|PROT_EXEC) or
 * executable again. */
static int protect(uintptr_t lo, uintptr_t hi, int writable)
{
    return mprotect((void *)lo, hi - lo,
                    PROT_READ | PROT_EXEC | (writable ? PROT_WRITE : 0));
}

void scope_patch_apply_all(const struct scope_patch *p, size_t n, int *ok, char *why,
                           size_t whylen)
{
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    for (size_t i = 0; i < n;) {
        /* a run of patches whose pages follow each other */
        uintptr_t lo = p[i].site & ~(page - 1);
        uintptr_t hi = (p[i].site + p[i].window + page - 1) & ~(page - 1);
        size_t end = i + 1;
        while (end < n && (p[end].site & ~(page - 1)) <= hi) {
            uintptr_t next = (p[end].site + p[end].window + page - 1) & ~(page - 1);
            hi = next > hi ? next : hi;
            end++;
        }
        int writable = protect(lo, hi, 1) == 0;
        if (!writable)
            snprintf(why, whylen, "cannot make the code writable: %m");
#ifdef MADV_POPULATE_WRITE
        /* the private copies of the run's pages in one call, not one page
         * fault per page (Linux >= 5.14; else the faults do it) */
        if (writable)
            madvise((void *)lo, hi - lo, MADV_POPULATE_WRITE);
#endif
        for (size_t k = i; k < end; k++) {
            ok[k] = writable;
            if (writable) {
                memcpy((void *)p[k].site, p[k].jump, p[k].window);
                __builtin___clear_cache((char *)p[k].site, (char *)p[k].site + p[k].window);
            }
        }
        if (writable && protect(lo, hi, 0) != 0)
            snprintf(why, whylen, "cannot make the code executable again: %m");
        i = end;
    }
}
