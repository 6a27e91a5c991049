/* elf_needed.c: a file's DT_NEEDED names, read from its dynamic section
 * and string table (see elf_needed.h). */
#include "elf_needed.h"

#include <elf.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int read_at(int fd, void *buf, size_t len, off_t at)
{
    return pread(fd, buf, len, at) == (ssize_t)len ? 0 : -1;
}

/* The file offset of virtual address v, from the loadable segments. */
static off_t file_offset(const Elf64_Phdr *ph, size_t n, Elf64_Addr v)
{
    for (size_t i = 0; i < n; i++)
        if (ph[i].p_type == PT_LOAD && v >= ph[i].p_vaddr && v < ph[i].p_vaddr + ph[i].p_filesz)
            return (off_t)(v - ph[i].p_vaddr + ph[i].p_offset);
    return -1;
}

static int each_needed(int fd, int (*found)(const char *, void *), void *ctx)
{
    Elf64_Ehdr eh;
    if (read_at(fd, &eh, sizeof eh, 0) != 0 || memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 ||
        eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_phentsize != sizeof(Elf64_Phdr) ||
        eh.e_phnum == 0 || eh.e_phnum > 256)
        return -1;
    Elf64_Phdr ph[256];
    if (read_at(fd, ph, eh.e_phnum * sizeof *ph, (off_t)eh.e_phoff) != 0)
        return -1;
    const Elf64_Phdr *dyn = NULL;
    for (size_t i = 0; i < eh.e_phnum; i++)
        if (ph[i].p_type == PT_DYNAMIC)
            dyn = &ph[i];
    if (!dyn || dyn->p_filesz > (1 << 20))
        return -1;
    size_t n = dyn->p_filesz / sizeof(Elf64_Dyn);
    Elf64_Dyn *d = malloc(n * sizeof *d);
    if (!d || read_at(fd, d, n * sizeof *d, (off_t)dyn->p_offset) != 0) {
        free(d);
        return -1;
    }
    off_t strtab = -1;
    for (size_t i = 0; i < n && d[i].d_tag != DT_NULL; i++)
        if (d[i].d_tag == DT_STRTAB)
            strtab = file_offset(ph, eh.e_phnum, d[i].d_un.d_ptr);
    int rc = strtab < 0 ? -1 : 0;
    for (size_t i = 0; rc == 0 && i < n && d[i].d_tag != DT_NULL; i++) {
        char name[256] = {0};
        if (d[i].d_tag != DT_NEEDED)
            continue;
        if (pread(fd, name, sizeof name - 1, strtab + (off_t)d[i].d_un.d_val) <= 0)
            rc = -1;
        else
            rc = found(name, ctx);
    }
    free(d);
    return rc;
}

int elf_needed_each(const char *path, int (*found)(const char *name, void *ctx), void *ctx)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    int rc = each_needed(fd, found, ctx);
    close(fd);
    return rc;
}
