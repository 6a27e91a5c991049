/* program_libs.h: a program's file and the libraries it loads, as its own
 * dynamic loader resolves them (`<PT_INTERP> --list PROGRAM`, in the form
 * that also reports missing libraries, as ldd does: nothing of the program
 * runs). For `scope run`'s MPI detection and
 * for `scope check` / `scope symbols`. */
#ifndef SCOPE_PROGRAM_LIBS_H
#define SCOPE_PROGRAM_LIBS_H

#include <limits.h>
#include <stddef.h>

struct program_libs {
    char file[PATH_MAX];   /* the program: as given when it has a '/', else found in PATH */
    char **paths;          /* the libraries' files in load order, without the loader and vDSO */
    size_t n, cap;
    char **missing;        /* names the loader could not find */
    size_t n_missing, cap_missing;
};

/* The program's file into out: as given when it has a '/', else found in
 * PATH. 0, or -1 when there is none. */
int program_libs_resolve(const char *program, char *out, size_t outlen);

/* Fills libs. A file without PT_INTERP (a shared library, a static
 * program, not an ELF file) has no libraries: that is not an error here.
 * Returns 0, or -1 with a message in err when PROGRAM cannot be found or
 * the loader cannot be run. */
int program_libs_load(const char *program, struct program_libs *libs, char *err, size_t errlen);

void program_libs_free(struct program_libs *libs);

#endif
