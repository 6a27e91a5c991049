/* trampoline.h: executable memory for trampolines, placed within reach of
 * a rel32 jump from the functions they serve. Memory is handed out writable
 * and made read+execute (never both writable and executable) by seal(). */
#ifndef SCOPE_TRAMPOLINE_H
#define SCOPE_TRAMPOLINE_H

#include <stddef.h>
#include <stdint.h>

/* Room for `size` bytes, 16-byte aligned, within +-2 GiB (less a margin) of
 * `near`. NULL when no such memory can be mapped. */
uint8_t *scope_trampoline_reserve(uintptr_t near, size_t size);
/* Gives back the unused tail of the last reservation (size actually used). */
void scope_trampoline_commit(uint8_t *p, size_t used);
/* Makes every page handed out so far read+execute. */
int scope_trampoline_seal(void);

#endif
