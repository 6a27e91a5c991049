/* elf_needed.h: the libraries a 64-bit ELF file names itself (its
 * DT_NEEDED entries), read from the file without running its loader. */
#ifndef SCOPE_ELF_NEEDED_H
#define SCOPE_ELF_NEEDED_H

#include <stddef.h>

/* Calls found(name, ctx) for each library the file names, in order, until
 * found returns nonzero (that value is returned). 0 when none did, -1 when
 * the file is no 64-bit dynamic ELF or cannot be read. */
int elf_needed_each(const char *path, int (*found)(const char *name, void *ctx), void *ctx);

#endif
