/* elf_got.c: reports the JUMP_SLOT and GLOB_DAT relocations of a module by
 * symbol name: from the SHT_RELA sections of a file that refer to .dynsym,
 * or, for a module loaded in this process, from the relocation and symbol
 * tables its dynamic section points at (already in memory: nothing is
 * opened or mapped). */
#include "elf_got.h"
#include "elf_file.h"

/* The GOT relocations among rela[0 .. n), names from t. 0, 1 when fn
 * stopped, or -1 with err. */
static int report_slots(const Elf64_Rela *rela, uint64_t n, const struct elf_symbol_table *t,
                        const char *path, scope_got_slot_fn fn, void *ctx, char *err,
                        size_t errlen)
{
    for (uint64_t i = 0; i < n; i++) {
        uint64_t type = ELF64_R_TYPE(rela[i].r_info), sym = ELF64_R_SYM(rela[i].r_info);
        if ((type != R_X86_64_JUMP_SLOT && type != R_X86_64_GLOB_DAT) || sym == 0)
            continue;
        const char *name = elf_symbol_name(t, sym);
        if (!name)
            return elf_file_fail(err, errlen, path, "corrupt relocation symbol");
        if (fn(name, rela[i].r_offset, ctx) != 0)
            return 1;
    }
    return 0;
}

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
    return report_slots((const Elf64_Rela *)(f->data + sec->sh_offset), n, &t, f->path, fn,
                        ctx, err, errlen);
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

/* A dynamic entry's address in memory: the loader has added the bias to
 * it in place already on most systems, but not where the dynamic section
 * is read-only; an address below the bias has not had it added. */
static uintptr_t dynamic_address(const Elf64_Dyn *d, uintptr_t bias)
{
    return d->d_un.d_ptr < bias ? bias + d->d_un.d_ptr : d->d_un.d_ptr;
}

int scope_loaded_foreach_got_slot(const Elf64_Dyn *dynamic, uintptr_t bias, const char *path,
                                  scope_got_slot_fn fn, void *ctx, char *err, size_t errlen)
{
    const Elf64_Dyn *symtab = NULL, *strtab = NULL, *rela = NULL, *jmprel = NULL;
    uint64_t strsz = 0, relasz = 0, pltrelsz = 0, pltrel = DT_RELA;
    for (const Elf64_Dyn *d = dynamic; d && d->d_tag != DT_NULL; d++) {
        switch (d->d_tag) {
        case DT_SYMTAB: symtab = d; break;
        case DT_STRTAB: strtab = d; break;
        case DT_STRSZ: strsz = d->d_un.d_val; break;
        case DT_RELA: rela = d; break;
        case DT_RELASZ: relasz = d->d_un.d_val; break;
        case DT_JMPREL: jmprel = d; break;
        case DT_PLTRELSZ: pltrelsz = d->d_un.d_val; break;
        case DT_PLTREL: pltrel = d->d_un.d_val; break;
        default: break;
        }
    }
    if (!symtab || !strtab)
        return 0;   /* nothing imported by name */
    /* the loader resolved every symbol index these relocations use */
    struct elf_symbol_table t = {(const Elf64_Sym *)dynamic_address(symtab, bias), UINT64_MAX,
                                 (const char *)dynamic_address(strtab, bias), strsz};
    int rc = 0;
    if (rela)
        rc = report_slots((const Elf64_Rela *)dynamic_address(rela, bias),
                          relasz / sizeof(Elf64_Rela), &t, path, fn, ctx, err, errlen);
    if (rc == 0 && jmprel && pltrel == DT_RELA)
        rc = report_slots((const Elf64_Rela *)dynamic_address(jmprel, bias),
                          pltrelsz / sizeof(Elf64_Rela), &t, path, fn, ctx, err, errlen);
    return rc < 0 ? -1 : 0;
}
