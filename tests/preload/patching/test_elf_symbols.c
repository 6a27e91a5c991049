/* test_elf_symbols.c: Check unit tests for preload/patching/elf_symbols.c: the test
 * binary and libc as loaded in this process (and their code as read from
 * the file), a small ELF image built here
 * (and every way of corrupting it), garbage, empty and truncated files. */
#include <check.h>

#include "check_main.h"
#include <dlfcn.h>
#include <elf.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "elf_symbols.h"

/* Exported (the test links with export_dynamic), so it is in .dynsym and .symtab. */
__attribute__((noinline, visibility("default"))) int scope_test_marker(int x);
__attribute__((noinline, visibility("default"))) int scope_test_marker(int x)
{
    return x * 3 + 1;
}

/* Only in .symtab. */
static __attribute__((noinline, used)) int scope_test_local(int x)
{
    return x * 5 + 2;
}

static char err[512];

/* What a search for one name saw. */
struct search {
    const char *name;
    const char *module_prefix;   /* basename prefix the module must have, or NULL */
    uintptr_t address;           /* expected address */
    int seen;                    /* times the name was reported (in a matching module) */
    int at_address;              /* ... of which at the expected address */
    int is_executable;
    int executable_symbols;      /* symbols reported for the main program */
    int system_modules;          /* symbols reported for ld.so or the vDSO */
    int total;
    int stop_after;              /* return non-zero after this many (0: never) */
    int code_matches;            /* the name's file_code equals the bytes at address */
    int code_null;               /* the name's file_code is NULL */
    int exported;                /* the name was reported exported */
    size_t room, size;           /* of the name */
};

static const char *basename_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

static int on_symbol(const struct scope_symbol *sym, void *ctx)
{
    struct search *s = ctx;
    s->total++;
    s->executable_symbols += sym->is_executable;
    const char *base = basename_of(sym->module_path);
    if (strstr(base, "ld-linux") || strncmp(base, "linux-vdso", 10) == 0)
        s->system_modules++;
    ck_assert_uint_eq(sym->address, sym->module_bias + (uintptr_t)sym->value);
    bool module_ok = !s->module_prefix || strncmp(base, s->module_prefix,
                                                  strlen(s->module_prefix)) == 0;
    if (s->name && module_ok && strcmp(sym->name, s->name) == 0) {
        s->seen++;
        s->at_address += sym->address == s->address;
        s->is_executable = sym->is_executable;
        s->code_null += sym->file_code == NULL;
        s->exported = sym->exported;
        s->room = sym->room;
        s->size = sym->size;
        s->code_matches += s->address && sym->file_code && sym->size &&
                           memcmp(sym->file_code, (const void *)s->address, sym->size) == 0;
    }
    return s->stop_after && s->total >= s->stop_after;
}

START_TEST(test_loaded_finds_own_function)
{
    struct search s = {.name = "scope_test_marker", .address = (uintptr_t)&scope_test_marker};
    ck_assert_int_eq(scope_elf_foreach_loaded_symbol(NULL, on_symbol, &s), 0);
    ck_assert_int_eq(s.seen, 1);
    ck_assert_int_eq(s.at_address, 1);
    ck_assert_int_eq(s.is_executable, 1);
    ck_assert_int_eq(s.system_modules, 0);

    struct search local = {.name = "scope_test_local", .address = (uintptr_t)&scope_test_local};
    ck_assert_int_eq(scope_elf_foreach_loaded_symbol(NULL, on_symbol, &local), 0);
    ck_assert_int_eq(local.seen, 1);
    ck_assert_int_eq(local.at_address, 1);
}
END_TEST

START_TEST(test_loaded_finds_libc_write)
{
    void *libc = dlopen("libc.so.6", RTLD_NOW | RTLD_NOLOAD);
    ck_assert_ptr_nonnull(libc);
    void *write_fn = dlsym(libc, "write");
    ck_assert_ptr_nonnull(write_fn);
    struct search s = {.name = "write", .module_prefix = "libc.so", .address = (uintptr_t)write_fn};
    ck_assert_int_eq(scope_elf_foreach_loaded_symbol(NULL, on_symbol, &s), 0);
    ck_assert_int_eq(s.seen, 1);
    ck_assert_int_eq(s.at_address, 1);
    ck_assert_int_eq(s.is_executable, 0);
    dlclose(libc);
}
END_TEST

START_TEST(test_loaded_skips_module_of_address)
{
    struct search s = {.name = "write", .module_prefix = "libc.so"};
    ck_assert_int_eq(scope_elf_foreach_loaded_symbol(&scope_test_marker, on_symbol, &s), 0);
    ck_assert_int_eq(s.executable_symbols, 0);
    ck_assert_int_eq(s.seen, 1);
}
END_TEST

START_TEST(test_loaded_stops)
{
    struct search s = {.stop_after = 3};
    ck_assert_int_eq(scope_elf_foreach_loaded_symbol(NULL, on_symbol, &s), 0);
    ck_assert_int_eq(s.total, 3);
}
END_TEST

START_TEST(test_file_reports_each_symbol_once)
{
    /* The marker is in both tables of the test binary: reported once. */
    ck_assert_ptr_nonnull(dlsym(RTLD_DEFAULT, "scope_test_marker"));
    struct search s = {.name = "scope_test_marker"};
    ck_assert_int_eq(scope_elf_foreach_symbol("/proc/self/exe", 0, 1, on_symbol, &s, err,
                                              sizeof err), 0);
    ck_assert_int_eq(s.seen, 1);
    ck_assert_int_eq(s.is_executable, 1);
    ck_assert_int_eq(s.system_modules, 0);
}
END_TEST

START_TEST(test_file_code_is_the_functions_bytes)
{
    /* The bytes in the file are the code as loaded (nothing relocates it). */
    struct search s = {.name = "scope_test_local", .address = (uintptr_t)&scope_test_local};
    ck_assert_int_eq(scope_elf_foreach_loaded_symbol(NULL, on_symbol, &s), 0);
    ck_assert_int_eq(s.seen, 1);
    ck_assert_int_eq(s.code_matches, 1);
}
END_TEST

START_TEST(test_exported_and_room)
{
    /* In .dynsym (export_dynamic): exported; only in .symtab: not. */
    struct search s = {.name = "scope_test_marker"};
    ck_assert_int_eq(scope_elf_foreach_symbol("/proc/self/exe", 0, 1, on_symbol, &s, err,
                                              sizeof err), 0);
    ck_assert_int_eq(s.exported, 1);
    /* The room reaches at least the end of the function, and no further
     * than the 16-byte alignment of the next one. */
    ck_assert_uint_ge(s.room, s.size);
    ck_assert_uint_lt(s.room, s.size + 16);
    struct search l = {.name = "scope_test_local"};
    ck_assert_int_eq(scope_elf_foreach_symbol("/proc/self/exe", 0, 1, on_symbol, &l, err,
                                              sizeof err), 0);
    ck_assert_int_eq(l.seen, 1);
    ck_assert_int_eq(l.exported, 0);
}
END_TEST

/* ---- files made here ------------------------------------------------ */

/* A minimal shared object: one function "alpha" in both .symtab and
 * .dynsym, an undefined function and a data object that are not reported. */
struct image {
    Elf64_Ehdr eh;
    Elf64_Shdr sh[4];
    Elf64_Sym syms[4];
    char strtab[24];
};

static void build_image(struct image *im)
{
    memset(im, 0, sizeof *im);
    memcpy(im->eh.e_ident, ELFMAG, SELFMAG);
    im->eh.e_ident[EI_CLASS] = ELFCLASS64;
    im->eh.e_ident[EI_DATA] = ELFDATA2LSB;
    im->eh.e_ident[EI_VERSION] = EV_CURRENT;
    im->eh.e_type = ET_DYN;
    im->eh.e_machine = EM_X86_64;
    im->eh.e_version = EV_CURRENT;
    im->eh.e_ehsize = sizeof(Elf64_Ehdr);
    im->eh.e_shoff = offsetof(struct image, sh);
    im->eh.e_shentsize = sizeof(Elf64_Shdr);
    im->eh.e_shnum = 4;
    memcpy(im->strtab, "\0alpha\0gamma\0delta", 19);
    im->syms[1] = (Elf64_Sym){.st_name = 1, .st_info = ELF64_ST_INFO(STB_GLOBAL, STT_FUNC),
                              .st_shndx = 1, .st_value = 0x1000, .st_size = 16};
    im->syms[2] = (Elf64_Sym){.st_name = 7, .st_info = ELF64_ST_INFO(STB_GLOBAL, STT_FUNC)};
    im->syms[3] = (Elf64_Sym){.st_name = 13, .st_info = ELF64_ST_INFO(STB_GLOBAL, STT_OBJECT),
                              .st_shndx = 1, .st_value = 0x2000};
    Elf64_Shdr table = {.sh_type = SHT_SYMTAB, .sh_offset = offsetof(struct image, syms),
                        .sh_size = sizeof im->syms, .sh_link = 2,
                        .sh_entsize = sizeof(Elf64_Sym)};
    im->sh[1] = table;
    im->sh[2] = (Elf64_Shdr){.sh_type = SHT_STRTAB, .sh_offset = offsetof(struct image, strtab),
                             .sh_size = sizeof im->strtab};
    table.sh_type = SHT_DYNSYM;
    im->sh[3] = table;
}

/* Writes len bytes to a new temporary file; the path is in a static buffer. */
static const char *write_temp(const void *data, size_t len)
{
    static char path[64];
    snprintf(path, sizeof path, "/tmp/scope-test-elf-XXXXXX");
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, data, len), (ssize_t)len);
    close(fd);
    return path;
}

/* Runs the file enumeration on data and removes the file again. */
static int enumerate_bytes(const void *data, size_t len, struct search *s)
{
    const char *path = write_temp(data, len);
    err[0] = '\0';
    int rc = scope_elf_foreach_symbol(path, 0x400000, 0, on_symbol, s, err, sizeof err);
    unlink(path);
    return rc;
}

START_TEST(test_built_image)
{
    struct image im;
    build_image(&im);
    struct search s = {.name = "alpha", .address = 0x401000};
    ck_assert_int_eq(enumerate_bytes(&im, sizeof im, &s), 0);
    ck_assert_int_eq(s.total, 1);
    ck_assert_int_eq(s.seen, 1);
    ck_assert_int_eq(s.at_address, 1);
    /* alpha's section (the symbol table, 96 bytes at address 0) does not
     * reach 0x1000: its bytes are not in the file. */
    ck_assert_int_eq(s.code_null, 1);
}
END_TEST

/* Each corruption of the built image and the message it must give. */
static const struct {
    const char *what;
    const char *message;
} corruptions[] = {
    {"class32", "not a 64-bit little-endian ELF file"},
    {"big-endian", "not a 64-bit little-endian ELF file"},
    {"relocatable", "not an executable or shared library"},
    {"no-sections", "no section headers"},
    {"shentsize", "truncated or corrupt section headers"},
    {"shoff-past-end", "truncated or corrupt section headers"},
    {"shnum-huge", "truncated or corrupt section headers"},
    {"symtab-past-end", "truncated or corrupt symbol table"},
    {"symtab-size-huge", "truncated or corrupt symbol table"},
    {"symtab-misaligned", "truncated or corrupt symbol table"},
    {"entsize", "corrupt symbol table header"},
    {"link-out-of-range", "corrupt symbol table header"},
    {"link-not-strtab", "truncated or corrupt symbol table"},
    {"strtab-past-end", "truncated or corrupt symbol table"},
    {"name-past-strtab", "corrupt symbol name in symbol table"},
    {"name-unterminated", "corrupt symbol name in symbol table"},
};

static void corrupt(struct image *im, const char *what)
{
    if (strcmp(what, "class32") == 0)
        im->eh.e_ident[EI_CLASS] = ELFCLASS32;
    else if (strcmp(what, "big-endian") == 0)
        im->eh.e_ident[EI_DATA] = ELFDATA2MSB;
    else if (strcmp(what, "relocatable") == 0)
        im->eh.e_type = ET_REL;
    else if (strcmp(what, "no-sections") == 0)
        im->eh.e_shoff = 0;
    else if (strcmp(what, "shentsize") == 0)
        im->eh.e_shentsize = 40;
    else if (strcmp(what, "shoff-past-end") == 0)
        im->eh.e_shoff = 1ULL << 40;
    else if (strcmp(what, "shnum-huge") == 0)
        im->eh.e_shnum = 60000;
    else if (strcmp(what, "symtab-past-end") == 0)
        im->sh[1].sh_offset = sizeof *im;
    else if (strcmp(what, "symtab-size-huge") == 0)
        im->sh[1].sh_size = ~0ULL - 7;
    else if (strcmp(what, "symtab-misaligned") == 0)
        im->sh[1].sh_offset += 1;
    else if (strcmp(what, "entsize") == 0)
        im->sh[1].sh_entsize = 16;
    else if (strcmp(what, "link-out-of-range") == 0)
        im->sh[1].sh_link = 99;
    else if (strcmp(what, "link-not-strtab") == 0)
        im->sh[1].sh_link = 0;
    else if (strcmp(what, "strtab-past-end") == 0)
        im->sh[2].sh_size = 1 << 20;
    else if (strcmp(what, "name-past-strtab") == 0)
        im->syms[1].st_name = 500;
    else if (strcmp(what, "name-unterminated") == 0)
        memset(im->strtab, 'x', sizeof im->strtab);
    else
        ck_abort_msg("unknown corruption %s", what);
}

START_TEST(test_corrupt_image)
{
    struct image im;
    build_image(&im);
    corrupt(&im, corruptions[_i].what);
    struct search s = {0};
    ck_assert_int_eq(enumerate_bytes(&im, sizeof im, &s), -1);
    ck_assert_int_eq(s.total, 0);
    ck_assert_msg(strstr(err, corruptions[_i].message) != NULL, "%s: got '%s'",
                  corruptions[_i].what, err);
}
END_TEST

START_TEST(test_truncated_image)
{
    struct image im;
    build_image(&im);
    for (size_t len = 1; len < sizeof im; len++) {
        struct search s = {0};
        ck_assert_int_eq(enumerate_bytes(&im, len, &s), -1);
        ck_assert_int_eq(s.total, 0);
    }
}
END_TEST

START_TEST(test_truncated_real_elf)
{
    /* The test binary cut after 4 KiB: its section headers are at the end. */
    FILE *f = fopen("/proc/self/exe", "rb");
    ck_assert_ptr_nonnull(f);
    static char head[4096];
    ck_assert_uint_eq(fread(head, 1, sizeof head, f), sizeof head);
    fclose(f);
    struct search s = {0};
    ck_assert_int_eq(enumerate_bytes(head, sizeof head, &s), -1);
    ck_assert_msg(strstr(err, ": truncated or corrupt section headers") != NULL, "got '%s'", err);
}
END_TEST

START_TEST(test_garbage_and_empty_files)
{
    char garbage[1000];
    for (size_t i = 0; i < sizeof garbage; i++)
        garbage[i] = (char)(i * 37 + 11);
    struct search s = {0};
    ck_assert_int_eq(enumerate_bytes(garbage, sizeof garbage, &s), -1);
    ck_assert_msg(strstr(err, ": not an ELF file") != NULL, "got '%s'", err);
    ck_assert_int_eq(enumerate_bytes("", 0, &s), -1);
    ck_assert_msg(strstr(err, ": not an ELF file") != NULL, "got '%s'", err);
}
END_TEST

START_TEST(test_missing_and_directory)
{
    struct search s = {0};
    ck_assert_int_eq(scope_elf_foreach_symbol("/nonexistent/libx.so", 0, 0, on_symbol, &s, err,
                                              sizeof err), -1);
    ck_assert_str_eq(err, "/nonexistent/libx.so: cannot open: No such file or directory");
    ck_assert_int_eq(scope_elf_foreach_symbol("/tmp", 0, 0, on_symbol, &s, err, sizeof err), -1);
    ck_assert_str_eq(err, "/tmp: not a regular file");
}
END_TEST

static Suite *elf_suite(void)
{
    Suite *s = suite_create("elf_symbols");
    TCase *loaded = tcase_create("loaded");
    tcase_add_test(loaded, test_loaded_finds_own_function);
    tcase_add_test(loaded, test_exported_and_room);
    tcase_add_test(loaded, test_loaded_finds_libc_write);
    tcase_add_test(loaded, test_loaded_skips_module_of_address);
    tcase_add_test(loaded, test_loaded_stops);
    tcase_add_test(loaded, test_file_reports_each_symbol_once);
    tcase_add_test(loaded, test_file_code_is_the_functions_bytes);
    suite_add_tcase(s, loaded);
    TCase *files = tcase_create("files");
    tcase_add_test(files, test_built_image);
    tcase_add_loop_test(files, test_corrupt_image, 0,
                        sizeof corruptions / sizeof corruptions[0]);
    tcase_add_test(files, test_truncated_image);
    tcase_add_test(files, test_truncated_real_elf);
    tcase_add_test(files, test_garbage_and_empty_files);
    tcase_add_test(files, test_missing_and_directory);
    suite_add_tcase(s, files);
    return s;
}

int main(void)
{
    return scope_check_run(elf_suite());
}
