/* test_elf_needed.c: the libraries a file names itself, read from the
 * file: inspect_target names libinspect_short (it calls into it) before
 * libc, a callback can stop the walk with its own value, and a file that
 * is no ELF, or missing, is -1. usage: test_elf_needed PROGRAM NOT_ELF */
#include <stdio.h>
#include <string.h>

#include "elf_needed.h"

static char names[16][256];
static int n;

static int collect(const char *name, void *ctx)
{
    (void)ctx;
    if (n < 16)
        snprintf(names[n++], sizeof names[0], "%s", name);
    return 0;
}

static int stop_at_libc(const char *name, void *ctx)
{
    (void)ctx;
    return strncmp(name, "libc.so", 7) == 0 ? 7 : 0;
}

#define CHECK(cond)                                      \
    do {                                                 \
        if (!(cond)) {                                   \
            fprintf(stderr, "FAIL: %s\n", #cond);        \
            return 1;                                    \
        }                                                \
    } while (0)

int main(int argc, char **argv)
{
    CHECK(argc == 3);
    CHECK(elf_needed_each(argv[1], collect, NULL) == 0);
    int short_at = -1, libc_at = -1;
    for (int i = 0; i < n; i++) {
        if (strcmp(names[i], "libinspect_short.so") == 0)
            short_at = i;
        if (strcmp(names[i], "libc.so.6") == 0)
            libc_at = i;
    }
    CHECK(short_at >= 0 && libc_at > short_at);
    CHECK(elf_needed_each(argv[1], stop_at_libc, NULL) == 7);
    CHECK(elf_needed_each(argv[2], collect, NULL) == -1);
    CHECK(elf_needed_each("/nonexistent/program", collect, NULL) == -1);
    printf("%d names, libinspect_short.so at %d, libc.so.6 at %d\n", n, short_at, libc_at);
    return 0;
}
