/* libscope_locate.c: MPI flavour detection (the libraries the program
 * names itself, else the dynamic loader's list of its libraries, as ldd
 * gets it) and the search for libscope. */
#include "libscope_locate.h"
#include "elf_needed.h"
#include "program_libs.h"
#include "scope_build_config.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const flavours[] = {"openmpi", "mpich"};
/* A library name that tells each flavour apart. */
static const char *const markers[] = {"libmpi.so.40", "libmpich.so"};

static const char *flavour_of(const char *library)
{
    for (size_t i = 0; i < sizeof(markers) / sizeof(markers[0]); i++)
        if (strstr(library, markers[i]))
            return flavours[i];
    return NULL;
}

static int names_mpi(const char *library, void *found)
{
    *(const char **)found = flavour_of(library);
    return *(const char **)found != NULL;
}

/* The MPI of the first library the program names itself that names one
 * (read from its file: the usual case, and no loader to run before the
 * program starts), else of the first of the program's whole list (see
 * program_libs.h), found or not. */
const char *scope_detect_mpi(const char *program)
{
    struct program_libs libs;
    char err[512];
    const char *found = NULL;
    if (program_libs_resolve(program, libs.file, sizeof libs.file) == 0 &&
        elf_needed_each(libs.file, names_mpi, &found) > 0)
        return found;
    if (program_libs_load(program, &libs, err, sizeof(err)) != 0)
        return NULL;
    for (size_t j = 0; j < libs.n && !found; j++)
        found = flavour_of(libs.paths[j]);
    for (size_t j = 0; j < libs.n_missing && !found; j++)
        found = flavour_of(libs.missing[j]);
    program_libs_free(&libs);
    return found;
}

static int try_dir(const char *dir, const char *flavour, char *out, size_t outlen)
{
    char path[PATH_MAX + 64];
    snprintf(path, sizeof(path), "%s/libscope-%s.so", dir, flavour);
    if (access(path, R_OK) != 0)
        return -1;
    if (!realpath(path, out))
        snprintf(out, outlen, "%s", path);
    return 0;
}

static int search(const char *flavour, char *out, size_t outlen)
{
    const char *env = getenv("SCOPE_LIBDIR");
    if (env && *env && try_dir(env, flavour, out, outlen) == 0)
        return 0;
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
    if (n > 0) {
        exe[n] = '\0';
        char *slash = strrchr(exe, '/');
        if (slash) {
            char dir[PATH_MAX + 16];
            *slash = '\0';
            snprintf(dir, sizeof(dir), "%s/../preload", exe);   /* build tree */
            if (try_dir(dir, flavour, out, outlen) == 0)
                return 0;
        }
    }
    return try_dir(SCOPE_INSTALL_LIBDIR, flavour, out, outlen);
}

int scope_locate_libscope(const char *flavour, char *out, size_t outlen, char *err,
                          size_t errlen)
{
    for (size_t i = 0; i < sizeof(flavours) / sizeof(flavours[0]); i++) {
        if (flavour && strcmp(flavour, flavours[i]) != 0)
            continue;
        if (search(flavours[i], out, outlen) == 0)
            return 0;
    }
    if (flavour && strcmp(flavour, "openmpi") != 0 && strcmp(flavour, "mpich") != 0)
        snprintf(err, errlen, "unknown MPI flavour '%s' (openmpi or mpich)", flavour);
    else
        snprintf(err, errlen, "no libscope%s%s found (SCOPE_LIBDIR, the build tree, %s)",
                 flavour ? " for " : "", flavour ? flavour : "", SCOPE_INSTALL_LIBDIR);
    return -1;
}
