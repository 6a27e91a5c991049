/* elf_file.c: maps an ELF64 file and checks what every reader of it relies
 * on (header, section headers, symbol tables), without libelf. */
#include "elf_file.h"
#include "fail_message.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

int elf_file_fail(char *err, size_t errlen, const char *path, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    scope_vfail(err, errlen, path, fmt, ap);
    va_end(ap);
    return -1;
}

bool elf_file_holds(const struct elf_file *f, uint64_t offset, uint64_t count, uint64_t entsize)
{
    uint64_t align = entsize >= 8 ? 8 : 1;
    if (offset > f->size || offset % align != 0)
        return false;
    if (entsize != 0 && count > (f->size - offset) / entsize)
        return false;
    return true;
}

static int check_header(struct elf_file *f, char *err, size_t errlen)
{
    const Elf64_Ehdr *eh = (const Elf64_Ehdr *)f->data;
    if (f->size < EI_NIDENT || memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0)
        return elf_file_fail(err, errlen, f->path, "not an ELF file");
    if (f->size < sizeof *eh || eh->e_ident[EI_CLASS] != ELFCLASS64 ||
        eh->e_ident[EI_DATA] != ELFDATA2LSB)
        return elf_file_fail(err, errlen, f->path, "not a 64-bit little-endian ELF file");
    if (eh->e_type != ET_EXEC && eh->e_type != ET_DYN)
        return elf_file_fail(err, errlen, f->path, "not an executable or shared library");
    if (eh->e_shoff == 0)
        return elf_file_fail(err, errlen, f->path, "no section headers");
    if (eh->e_shentsize != sizeof(Elf64_Shdr) ||
        !elf_file_holds(f, eh->e_shoff, 1, sizeof(Elf64_Shdr)))
        return elf_file_fail(err, errlen, f->path, "truncated or corrupt section headers");
    f->sections = (const Elf64_Shdr *)(f->data + eh->e_shoff);
    /* With 0xff00 sections or more, e_shnum is 0 and the count is in section 0. */
    f->nsections = eh->e_shnum != 0 ? eh->e_shnum : f->sections[0].sh_size;
    if (!elf_file_holds(f, eh->e_shoff, f->nsections, sizeof(Elf64_Shdr)))
        return elf_file_fail(err, errlen, f->path, "truncated or corrupt section headers");
    return 0;
}

int elf_file_open(struct elf_file *f, const char *open_path, const char *path, char *err,
                  size_t errlen)
{
    *f = (struct elf_file){.path = path};
    int fd = open(open_path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return elf_file_fail(err, errlen, path, "cannot open: %s", strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return elf_file_fail(err, errlen, path, "not a regular file");
    }
    if (st.st_size == 0) {
        close(fd);
        return elf_file_fail(err, errlen, path, "not an ELF file");
    }
    void *data = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    int saved = errno;
    close(fd);
    if (data == MAP_FAILED)
        return elf_file_fail(err, errlen, path, "cannot map: %s", strerror(saved));
    f->data = data;
    f->size = (size_t)st.st_size;
    if (check_header(f, err, errlen) != 0) {
        elf_file_close(f);
        return -1;
    }
    return 0;
}

void elf_file_close(struct elf_file *f)
{
    if (f->data)
        munmap((void *)f->data, f->size);
    f->data = NULL;
}

int elf_file_symbol_table(const struct elf_file *f, const Elf64_Shdr *tab,
                          struct elf_symbol_table *t, char *err, size_t errlen)
{
    if (tab->sh_entsize != sizeof(Elf64_Sym) || tab->sh_link >= f->nsections)
        return elf_file_fail(err, errlen, f->path, "corrupt symbol table header");
    const Elf64_Shdr *strtab = &f->sections[tab->sh_link];
    t->count = tab->sh_size / sizeof(Elf64_Sym);
    if (tab->sh_type == SHT_NOBITS || strtab->sh_type != SHT_STRTAB ||
        !elf_file_holds(f, tab->sh_offset, t->count, sizeof(Elf64_Sym)) ||
        !elf_file_holds(f, strtab->sh_offset, strtab->sh_size, 1))
        return elf_file_fail(err, errlen, f->path, "truncated or corrupt symbol table");
    t->syms = (const Elf64_Sym *)(f->data + tab->sh_offset);
    t->strings = (const char *)(f->data + strtab->sh_offset);
    t->strings_size = strtab->sh_size;
    return 0;
}

const char *elf_symbol_name(const struct elf_symbol_table *t, uint64_t i)
{
    if (i >= t->count)
        return NULL;
    uint64_t at = t->syms[i].st_name;
    if (at >= t->strings_size)
        return NULL;
    /* a table ending in a NUL (as they all should) ends every name in it */
    if (t->strings[t->strings_size - 1] != '\0' &&
        !memchr(t->strings + at, '\0', t->strings_size - at))
        return NULL;
    return t->strings + at;
}
