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

/* The bytes of a piece, in ascending order, that begin a branch of the
 * forms scanned for, whose target lies in [lo, hi]. */
struct scope_branch_scan {
    const struct scope_code *piece;
    uintptr_t lo, hi;
    uint32_t width;       /* hi - lo, or UINT32_MAX when wider */
    unsigned forms;       /* the forms scanned for */
    size_t block;         /* the sixteen bytes `hits` covers start here */
    unsigned hits;        /* the bytes among them not handed out yet */
};

/* A call, jmp or jcc rel32 (e8, e9, 0f 8x), and with `xbegin` an xbegin
 * (c7 f8 rel32), whose target lies in [lo, hi] (lo <= hi). */
void scope_branch_scan_rel32(struct scope_branch_scan *s, const struct scope_code *piece,
                             uintptr_t lo, uintptr_t hi, int xbegin);

/* Any direct branch form (the rel32 ones, jmp, jcc, loop and jrcxz rel8,
 * xbegin), wherever it leads. */
void scope_branch_scan_all(struct scope_branch_scan *s, const struct scope_code *piece);

/* The next such byte's offset and its branch's *target, or piece->size
 * when there is none. */
size_t scope_branch_scan_next(struct scope_branch_scan *s, uintptr_t *target);

#endif
