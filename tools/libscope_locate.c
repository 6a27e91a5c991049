/* libscope_locate.c: MPI flavour detection (the dynamic loader's list of
 * the program's libraries, as ldd gets it) and the search for libscope. */
#include "libscope_locate.h"
#include "scope_build_config.h"

#include <elf.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *const flavours[] = {"openmpi", "mpich"};
/* A library name that tells each flavour apart. */
static const char *const markers[] = {"libmpi.so.40", "libmpich.so"};

/* The program's file: as given when it has a '/', else from PATH. */
static int resolve(const char *program, char *out, size_t outlen)
{
    if (strchr(program, '/')) {
        snprintf(out, outlen, "%s", program);
        return access(out, X_OK);
    }
    const char *path = getenv("PATH");
    char dirs[8192];
    snprintf(dirs, sizeof(dirs), "%s", path && *path ? path : "/usr/bin:/bin");
    for (char *save, *d = strtok_r(dirs, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
        snprintf(out, outlen, "%s/%s", *d ? d : ".", program);
        if (access(out, X_OK) == 0)
            return 0;
    }
    return -1;
}

/* The dynamic loader a dynamically linked ELF asks for (PT_INTERP). */
static int interpreter(const char *file, char *out, size_t outlen)
{
    FILE *f = fopen(file, "rb");
    Elf64_Ehdr eh;
    int rc = -1;
    if (!f)
        return -1;
    if (fread(&eh, sizeof(eh), 1, f) == 1 && memcmp(eh.e_ident, ELFMAG, SELFMAG) == 0 &&
        eh.e_ident[EI_CLASS] == ELFCLASS64 && eh.e_phentsize == sizeof(Elf64_Phdr)) {
        for (int i = 0; i < eh.e_phnum && rc != 0; i++) {
            Elf64_Phdr ph;
            if (fseek(f, (long)(eh.e_phoff + (uint64_t)i * sizeof(ph)), SEEK_SET) != 0 ||
                fread(&ph, sizeof(ph), 1, f) != 1)
                break;
            if (ph.p_type != PT_INTERP || ph.p_filesz == 0 || ph.p_filesz >= outlen)
                continue;
            if (fseek(f, (long)ph.p_offset, SEEK_SET) == 0 && fread(out, ph.p_filesz, 1, f) == 1) {
                out[ph.p_filesz - 1] = '\0';
                rc = 0;
            }
        }
    }
    fclose(f);
    return rc;
}

/* Asks the program's dynamic loader for its library list (`ld.so --list`,
 * what ldd does: nothing of the program runs) and scans it. */
const char *scope_detect_mpi(const char *program)
{
    char file[PATH_MAX], interp[PATH_MAX];
    int fd[2];
    if (resolve(program, file, sizeof(file)) != 0 ||
        interpreter(file, interp, sizeof(interp)) != 0 || pipe(fd) != 0)
        return NULL;
    pid_t pid = fork();
    if (pid < 0) {
        close(fd[0]);
        close(fd[1]);
        return NULL;
    }
    if (pid == 0) {
        int devnull = open("/dev/null", O_WRONLY);
        dup2(fd[1], STDOUT_FILENO);
        if (devnull >= 0)
            dup2(devnull, STDERR_FILENO);
        close(fd[0]);
        close(fd[1]);
        unsetenv("LD_PRELOAD");
        execl(interp, interp, "--list", file, (char *)NULL);
        _exit(127);
    }
    close(fd[1]);
    FILE *in = fdopen(fd[0], "r");
    const char *found = NULL;
    char line[1024];
    while (in && fgets(line, sizeof(line), in))
        for (size_t i = 0; !found && i < sizeof(markers) / sizeof(markers[0]); i++)
            if (strstr(line, markers[i]))
                found = flavours[i];
    if (in)
        fclose(in);
    else
        close(fd[0]);
    waitpid(pid, NULL, 0);
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
