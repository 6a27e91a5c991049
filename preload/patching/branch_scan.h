/* branch_scan.h: which bytes of a piece of code, read as the first byte of
 * a direct branch whatever the instruction boundaries, name a place in a
 * given range. Every real branch there is among them, so a piece where no
 * byte does needs no decoding to know that nothing branches there; the
 * scans read sixteen bytes at a time (SSE2). */
#ifndef SCOPE_BRANCH_SCAN_H
#define SCOPE_BRANCH_SCAN_H

#include <stddef.h>
#include <stdint.h>

#include "patch_analyze.h"

/* The bytes that begin a call, jmp or jcc rel32 (e8, e9, 0f 8x), and
 * with `xbegin` an xbegin (c7 f8 rel32), whose target lies in [lo, hi]
 * (lo <= hi), in ascending order. */
struct scope_rel32_scan {
    const struct scope_code *piece;
    uintptr_t lo, hi;
    uint32_t width;       /* hi - lo, or UINT32_MAX when wider */
    int xbegin;
    size_t block;         /* the sixteen bytes `hits` covers start here */
    unsigned hits;        /* the bytes among them not handed out yet */
};

void scope_rel32_scan_init(struct scope_rel32_scan *s, const struct scope_code *piece,
                           uintptr_t lo, uintptr_t hi, int xbegin);

/* The next such byte's offset and its branch's *target, or piece->size
 * when there is none. */
size_t scope_rel32_scan_next(struct scope_rel32_scan *s, uintptr_t *target);

/* The bytes that begin any direct branch form (the rel32 ones, jmp, jcc,
 * loop and jrcxz rel8, xbegin c7 f8 rel32), in ascending order. */
struct scope_branch_bytes {
    const struct scope_code *piece;
    size_t block;
    unsigned mask;
};

void scope_branch_bytes_init(struct scope_branch_bytes *it, const struct scope_code *piece);

/* The next candidate's offset and the place it names (*target), or
 * piece->size when there is none. */
size_t scope_branch_bytes_next(struct scope_branch_bytes *it, uintptr_t *target);

#endif
