/* elf_got.c: reads the SHT_RELA sections of a file that refer to .dynsym
 * and reports its JUMP_SLOT and GLOB_DAT relocations by symbol name. */
#include "elf_got.h"
#include "elf_file.h"

static int read_relocations(const struct elf_file *f, const Elf64_Shdr *sec,
                            scope_got_slot_fn fn, void *ctx, char *err, size_t errlen)
{
    if (sec->sh_link >= f->nsections || f->sections[sec->sh_link].sh_type != SHT_DYNSYM)
        return 0;   /* not dynamic relocations */
    struct elf_symbol_table t;
    if (elf_file_symbol_table(f, &f->sections[sec->sh_link], &t, err, errlen) != 0)
        return -1;
    uint64_t n = sec->sh_size / sizeof(Elf64_Rela);
    if (sec->sh_entsize != sizeof(Elf64_Rela) ||
        !elf_file_holds(f, sec->sh_offset, n, sizeof(Elf64_Rela)))
        return elf_file_fail(err, errlen, f->path, "truncated or corrupt relocations");
    const Elf64_Rela *rela = (const Elf64_Rela *)(f->data + sec->sh_offset);
    for (uint64_t i = 0; i < n; i++) {
        uint64_t type = ELF64_R_TYPE(rela[i].r_info), sym = ELF64_R_SYM(rela[i].r_info);
        if ((type != R_X86_64_JUMP_SLOT && type != R_X86_64_GLOB_DAT) || sym == 0)
            continue;
        const char *name = elf_symbol_name(&t, sym);
        if (!name)
            return elf_file_fail(err, errlen, f->path, "corrupt relocation symbol");
        if (fn(name, rela[i].r_offset, ctx) != 0)
            return 1;
    }
    return 0;
}

int scope_elf_foreach_got_slot(const char *open_path, const char *path, scope_got_slot_fn fn,
                               void *ctx, char *err, size_t errlen)
{
    struct elf_file f;
    if (elf_file_open(&f, open_path, path, err, errlen) != 0)
        return -1;
    int rc = 0;
    for (size_t i = 0; i < f.nsections && rc == 0; i++)
        if (f.sections[i].sh_type == SHT_RELA)
            rc = read_relocations(&f, &f.sections[i], fn, ctx, err, errlen);
    elf_file_close(&f);
    return rc < 0 ? -1 : 0;
}
