/* patch_analyze.h: the pure part of hooking a function: whether its first
 * instructions (after any endbr64) can be displaced by a 5-byte jump, and
 * their relocation to another address. No trampolines, no mprotect: the
 * bytes may be a live function or a copy read from a file on disk. */
#ifndef SCOPE_PATCH_ANALYZE_H
#define SCOPE_PATCH_ANALYZE_H

#include <stddef.h>
#include <stdint.h>

#define SCOPE_JUMP_BYTES 5

/* Bytes of code executing at `address` (a live function or a copy). */
struct scope_code {
    const uint8_t *bytes;
    uintptr_t address;
    size_t size;
};

/* A function to patch: its code, the bytes after it that no other symbol
 * claims (room: from its start up to the next symbol or the end of its
 * section, >= code.size, readable at code.bytes), and the fragments the
 * compiler split off it (foo.cold, foo.part.0), which may branch back. */
struct scope_function_code {
    struct scope_code code;
    size_t room;
    const struct scope_code *fragments;
    size_t nfragments;
};

struct scope_patch_site {
    size_t site_offset;   /* where the jump goes: 4 after an endbr64, else 0 */
    size_t moved;         /* bytes of whole instructions displaced to the trampoline */
    size_t window;        /* bytes the jump overwrites: moved, or 5 when a
                             function shorter than the jump borrows the
                             padding after it (moved then ends in a ret/jmp) */
};

/* Decides whether the function can be patched, without changing anything.
 * Returns 0, or -1 with the reason in why. */
int scope_patch_analyze(const struct scope_function_code *f, struct scope_patch_site *site,
                        char *why, size_t whylen);

/* Relocates the instructions in code[0..len) (executing at from) to run at
 * `to`, writing at most outlen bytes. Returns the bytes written or -1 with
 * why. */
long scope_relocate(const uint8_t *code, size_t len, uintptr_t from, uint8_t *out,
                    size_t outlen, uintptr_t to, char *why, size_t whylen);

/* Why a function cannot be hooked inline, by kind (the text says more). */
enum scope_refusal {
    SCOPE_HOOKABLE,
    SCOPE_REFUSED_TOO_SHORT,           /* fewer bytes than the jump, no padding after */
    SCOPE_REFUSED_ENDS_IN_WINDOW,      /* ret/jmp/int3... before 5 bytes */
    SCOPE_REFUSED_BRANCH_INTO_WINDOW,  /* a branch lands inside the patched bytes */
    SCOPE_REFUSED_SHORT_ONLY,          /* loop, jrcxz, xbegin: no long form */
    SCOPE_REFUSED_UNDECODABLE,
    SCOPE_REFUSED_RELOCATION,          /* the displaced instructions cannot be moved */
};

/* The most the displaced instructions grow to once relocated. */
#define SCOPE_RELOCATED_MAX 159

/* Where scope_patch_check pretends the trampoline is: near the function,
 * as the live patcher places it. Whether a trampoline can really be mapped
 * within reach is known only at run time. */
#define SCOPE_CHECK_TRAMPOLINE_DISTANCE 0x10000

/* Everything the live patcher checks before writing anything: the analysis
 * and the relocation of the window, into a scratch buffer. For `scope
 * check` on a file's bytes. Returns SCOPE_HOOKABLE or the refusal's kind,
 * with the reason in why. */
enum scope_refusal scope_patch_check(const struct scope_function_code *f, char *why,
                                     size_t whylen);

/* A direct call or jump with a 32-bit displacement (call, jmp, jcc rel32)
 * to one of the targets sought. */
struct scope_rel32_branch {
    uintptr_t displacement;   /* where its 4 displacement bytes execute */
    uintptr_t end;            /* the end of the instruction, which they count from */
    const uint8_t *bytes;     /* those 4 bytes as read */
    size_t target;            /* index of its target */
};
typedef void (*scope_rel32_fn)(const struct scope_rel32_branch *b, void *ctx);

/* Decodes piece from its start and calls fn for each rel32 call or jump to
 * one of targets[0..ntargets) (ascending). An undecodable instruction ends
 * the walk: what follows it could be misread. Returns how many it found. */
size_t scope_find_rel32_branches(const struct scope_code *piece, const uintptr_t *targets,
                                 size_t ntargets, scope_rel32_fn fn, void *ctx);

/* Whether some byte of piece, whatever the instruction boundaries, could
 * begin a call, jmp or jcc rel32 to one of targets[0..ntargets) (ascending,
 * ntargets > 0): when not, no decoding finds one. scope_find_rel32_branches
 * asks it first of each function, call_redirect.c of a module's code. */
int scope_may_branch_to(const struct scope_code *piece, const uintptr_t *targets,
                        size_t ntargets);

/* A few words for a kind: "too short", "branch into window"... */
const char *scope_refusal_label(enum scope_refusal r);

#endif
