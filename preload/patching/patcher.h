/* patcher.h: hooks a function by overwriting its first instructions (after
 * any endbr64) with a 5-byte jump to a trampoline that enters scope and then
 * runs the displaced instructions, relocated, before jumping back. Whether
 * a function can be patched, and the relocation: patch_analyze.h. */
#ifndef SCOPE_PATCHER_H
#define SCOPE_PATCHER_H

#include "patch_analyze.h"

#include <stddef.h>
#include <stdint.h>

/* A prepared patch: the trampoline is built, the jump not yet written. */
struct scope_patch {
    uintptr_t site;
    size_t window;
    uint8_t jump[24];
};

/* Builds the trampoline of the live function f (its bytes: the code in
 * memory), whose patch site scope_patch_analyze found, for hook id `hook`;
 * *resume receives where the hook continues (the relocated prologue).
 * Returns 0, or -1 with the reason in why. Seal the trampolines
 * (scope_trampoline_seal) before applying: then nothing runs unsealed. */
int scope_patch_prepare(const struct scope_function_code *f, const struct scope_patch_site *s,
                        uint32_t hook, struct scope_patch *p, uintptr_t *resume, char *why,
                        size_t whylen);

/* For a function reached through GOTs instead (got_redirect.h): a thunk
 * that enters hook `hook` and continues at the unchanged function (*resume).
 * Returns its address (to seal before use), 0 when no memory. */
uintptr_t scope_patch_entry_thunk(uintptr_t function, uint32_t hook, uintptr_t *resume);

/* Writes the jumps of p[0..n) (ascending sites), each run of neighbouring
 * pages made writable once for the while; ok[i] says whether p[i] was
 * written (why says why not, for the last failure). */
void scope_patch_apply_all(const struct scope_patch *p, size_t n, int *ok, char *why,
                           size_t whylen);

/* Writes len (at most 24) bytes of code at `at`, as a patch of its own. */
int scope_code_write(uintptr_t at, const void *bytes, size_t len);

#endif
