/* patch_analyze.h: the pure part of hooking a function: whether its first
 * instructions (after any endbr64) can be displaced by a 5-byte jump, and
 * their relocation to another address. No trampolines, no mprotect: the
 * bytes may be a live function or a copy read from a file on disk. */
#ifndef SCOPE_PATCH_ANALYZE_H
#define SCOPE_PATCH_ANALYZE_H

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

/* Relocates the instructions in code[0..len) (executing at from) to run at
 * `to`, writing at most outlen bytes. Returns the bytes written or -1 with
 * why. */
long scope_relocate(const uint8_t *code, size_t len, uintptr_t from, uint8_t *out,
                    size_t outlen, uintptr_t to, char *why, size_t whylen);

#endif
