/* elf_got.h: the GOT slots of an ELF file that the dynamic loader fills
 * with a function's address by name (R_X86_64_JUMP_SLOT for PLT calls,
 * R_X86_64_GLOB_DAT for -fno-plt calls and function pointers): where a
 * module's calls into other modules go. */
#ifndef SCOPE_ELF_GOT_H
#define SCOPE_ELF_GOT_H

#include <elf.h>
#include <stddef.h>
#include <stdint.h>

/* slot: the link-time address of the GOT entry (add the load bias). Return
 * non-zero to stop. name points into the file's mapping. */
typedef int (*scope_got_slot_fn)(const char *name, uint64_t slot, void *ctx);

/* Every such slot of the file at open_path (messages name `path`).
 * Returns 0, or -1 with a message in err. */
int scope_elf_foreach_got_slot(const char *open_path, const char *path, scope_got_slot_fn fn,
                               void *ctx, char *err, size_t errlen);

/* The same for a module loaded in this process, from its dynamic section
 * (loaded at `bias`), in memory. */
int scope_loaded_foreach_got_slot(const Elf64_Dyn *dynamic, uintptr_t bias, const char *path,
                                  scope_got_slot_fn fn, void *ctx, char *err, size_t errlen);

#endif
