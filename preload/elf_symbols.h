/* elf_symbols.h: enumerates the function symbols of ELF modules: of one
 * file on disk (for `scope check`/`scope symbols`), or of every module
 * loaded in this process (for the preload library), reading .symtab and
 * .dynsym from the files so that stripped-of-nothing PIE and non-PIE
 * executables and shared libraries all work. */
#ifndef SCOPE_ELF_SYMBOLS_H
#define SCOPE_ELF_SYMBOLS_H

#include <stddef.h>
#include <stdint.h>

struct scope_symbol {
    const char *name;          /* as in the symbol table (mangled) */
    uintptr_t address;         /* run-time address: module bias + st_value */
    uint64_t value;            /* st_value, the link-time address */
    size_t size;               /* st_size (0 when unknown) */
    const char *module_path;   /* file the module was loaded from */
    uintptr_t module_bias;     /* load bias of the module (0 for non-PIE) */
    int is_executable;         /* the main program rather than a library */
    const uint8_t *file_code;  /* the symbol's size bytes in the mapped file,
                                  NULL when they are not in it (NOBITS, out of
                                  bounds): code to analyse without loading it */
};

/* Called once per distinct function (STT_FUNC or STT_GNU_IFUNC resolved by
 * the loader is not included: only defined STT_FUNC with st_shndx != UNDEF).
 * A symbol present in both .symtab and .dynsym is reported once; aliases
 * (several names at one address) are each reported. Return non-zero to stop.
 * name and file_code point into the file's mapping: valid during the call. */
typedef int (*scope_symbol_fn)(const struct scope_symbol *sym, void *ctx);

/* All function symbols of the ELF file at path, with the given load bias.
 * Returns 0, or -1 with a message in err ("path: not an ELF file" ...). */
int scope_elf_foreach_symbol(const char *path, uintptr_t bias, int is_executable,
                             scope_symbol_fn fn, void *ctx, char *err, size_t errlen);

/* All function symbols of every module loaded in this process, except the
 * dynamic loader, the vDSO and the module that contains `skip_address`
 * (libscope itself). Modules whose file cannot be read are skipped. */
int scope_elf_foreach_loaded_symbol(const void *skip_address, scope_symbol_fn fn,
                                    void *ctx);

#endif
