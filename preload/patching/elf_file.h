/* elf_file.h: an ELF64 file mapped read-only, with its section headers
 * checked, and the bounds check every reader of it uses: a corrupt file
 * gives an error, never a crash. Shared by elf_symbols.c, elf_got.c and
 * call_redirect.c. */
#ifndef SCOPE_ELF_FILE_H
#define SCOPE_ELF_FILE_H

#include <elf.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct elf_file {
    const char *path;              /* for messages */
    const unsigned char *data;
    size_t size;
    const Elf64_Shdr *sections;
    size_t nsections;
};

/* Maps the file at open_path and checks its header; messages name
 * `path`. Returns 0, or -1 with a message in err. */
int elf_file_open(struct elf_file *f, const char *open_path, const char *path, char *err,
                  size_t errlen);
void elf_file_close(struct elf_file *f);

/* Does [offset, offset + count * entsize) lie inside the file, with the
 * offset aligned for entries of that size (8 bytes at most)? */
bool elf_file_holds(const struct elf_file *f, uint64_t offset, uint64_t count, uint64_t entsize);

/* Writes "path: <message>" into err and returns -1. */
int elf_file_fail(char *err, size_t errlen, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* The symbols and names of a SHT_SYMTAB or SHT_DYNSYM section, checked. */
struct elf_symbol_table {
    const Elf64_Sym *syms;
    uint64_t count;
    const char *strings;
    uint64_t strings_size;
};
int elf_file_symbol_table(const struct elf_file *f, const Elf64_Shdr *tab,
                          struct elf_symbol_table *t, char *err, size_t errlen);
/* The name of symbol i, or NULL when it lies outside the string table. */
const char *elf_symbol_name(const struct elf_symbol_table *t, uint64_t i);

#endif
