/* patcher.h: hooks a function by overwriting its first instructions (after
 * any endbr64) with a 5-byte jump to a trampoline that enters scope and then
 * runs the displaced instructions, relocated, before jumping back. */
#ifndef SCOPE_PATCHER_H
#define SCOPE_PATCHER_H

#include <stddef.h>
#include <stdint.h>

#define SCOPE_JUMP_BYTES 5

struct scope_patch_site {
    size_t site_offset;   /* where the jump goes: 4 after an endbr64, else 0 */
    size_t window;        /* bytes of whole instructions displaced (>= 5) */
};

/* Decides whether the function at `code` (size bytes, executing at
 * `address`) can be patched, without changing anything. Returns 0, or -1
 * with the reason in why. `code` may be a copy (for `scope check`). */
int scope_patch_analyze(const uint8_t *code, uintptr_t address, size_t size,
                        struct scope_patch_site *site, char *why, size_t whylen);

/* A prepared patch: the trampoline is built, the jump not yet written. */
struct scope_patch {
    uintptr_t site;
    size_t window;
    uint8_t jump[24];
};

/* Builds the trampoline of the live function at `address` for hook id
 * `hook`; *resume receives where the hook continues (the relocated
 * prologue). Returns 0, or -1 with the reason in why. Seal the trampolines
 * (scope_trampoline_seal) before applying: then nothing runs unsealed. */
int scope_patch_prepare(uintptr_t address, size_t size, uint32_t hook, struct scope_patch *p,
                        uintptr_t *resume, char *why, size_t whylen);

/* Writes the jump. */
int scope_patch_apply(const struct scope_patch *p, char *why, size_t whylen);

/* Relocates the instructions in code[0..len) (executing at from) to run at
 * `to`, writing at most outlen bytes. Returns the bytes written or -1 with
 * why. Exposed for the unit tests. */
long scope_relocate(const uint8_t *code, size_t len, uintptr_t from, uint8_t *out,
                    size_t outlen, uintptr_t to, char *why, size_t whylen);

#endif
