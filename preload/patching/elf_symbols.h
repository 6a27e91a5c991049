/* elf_symbols.h: enumerates the function symbols of ELF modules: of one
 * file on disk (for `scope check`/`scope symbols`), or of every module
 * loaded in this process (for the preload library), reading .symtab and
 * .dynsym from the files so that stripped-of-nothing PIE and non-PIE
 * executables and shared libraries all work. */
#ifndef SCOPE_ELF_SYMBOLS_H
#define SCOPE_ELF_SYMBOLS_H

#include <stddef.h>
#include <stdint.h>

#include "loaded_modules.h"
#include "patch_analyze.h"

struct scope_symbol {
    const char *name;          /* as in the symbol table (mangled) */
    uintptr_t address;         /* run-time address: module bias + st_value */
    uint64_t value;            /* st_value, the link-time address */
    size_t size;               /* st_size (0 when unknown) */
    size_t room;               /* size and the bytes after it up to the next
                                  symbol or the end of its section (padding) */
    int exported;              /* in .dynsym, global or weak, default or
                                  protected visibility: other modules may
                                  call it through their GOT */
    const char *module_path;   /* file the module was loaded from */
    uintptr_t module_bias;     /* load bias of the module (0 for non-PIE) */
    int is_executable;         /* the main program rather than a library */
    const uint8_t *file_code;  /* the symbol's room bytes in the mapped file,
                                  NULL when they are not in it (NOBITS, out of
                                  bounds): code to analyse without loading it */
    /* The parts the compiler split off it (name.cold, name.part.N), their
     * bytes in the file and their run-time addresses; bytes NULL when not
     * in the file. */
    const struct scope_code *fragments;
    size_t nfragments;
    /* This symbol is itself such a part (name.cold): jumped into, never
     * called, so never hooked; reported for `scope check` to list. Its
     * function's name is the symbol's up to ".cold". */
    int is_fragment;
    /* What the walk's scope_symbol_wants said of it (0 without one), and
     * the demangled name it handed over (NULL when none). */
    int wanted;
    const char *demangled;
};

/* The function as patch_analyze.h sees it, from its bytes in the file. */
struct scope_function_code scope_symbol_code(const struct scope_symbol *sym);

/* Called once per distinct function (STT_FUNC or STT_GNU_IFUNC resolved by
 * the loader is not included: only defined STT_FUNC with st_shndx != UNDEF).
 * A symbol present in both .symtab and .dynsym is reported once; aliases
 * (several names at one address) are each reported; cold fragments are
 * reported with is_fragment set. Return non-zero to stop.
 * Everything the symbol points to lies in the file's mapping or a scratch
 * buffer: valid during the call only. */
typedef int (*scope_symbol_fn)(const struct scope_symbol *sym, void *ctx);

/* All function symbols of the ELF file at path, with the given load bias.
 * Returns 0, or -1 with a message in err ("path: not an ELF file" ...). */
int scope_elf_foreach_symbol(const char *path, uintptr_t bias, int is_executable,
                             scope_symbol_fn fn, void *ctx, char *err, size_t errlen);

/* Whether a walk reports the function of this name in module_path (one
 * that is no cold fragment): >= 0 (handed on as the symbol's `wanted`) to
 * report it, < 0 not to. It spares the walk the work of reporting the
 * others: a module none of whose functions it wants is not even sorted.
 * When `demangled` is not NULL, it may set it to the name demangled
 * (malloc'ed: the walk hands it on as the symbol's `demangled`, then frees
 * it). */
typedef int (*scope_symbol_wants)(const char *name, const char *module_path, char **demangled,
                                  void *ctx);

/* The function symbols of one loaded module: those `wants` takes, all when
 * it is NULL. */
int scope_elf_foreach_module_symbol(const struct scope_module *m, scope_symbol_wants wants,
                                    scope_symbol_fn fn, void *ctx, char *err, size_t errlen);

/* All function symbols of every module loaded in this process, except the
 * dynamic loader, the vDSO and the module that contains `skip_address`
 * (libscope itself). Modules whose file cannot be read are skipped. */
int scope_elf_foreach_loaded_symbol(const void *skip_address, scope_symbol_fn fn,
                                    void *ctx);

#endif
