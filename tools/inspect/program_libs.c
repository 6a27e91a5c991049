/* program_libs.c: finds a program's file (PATH search), its dynamic loader
 * (PT_INTERP), and asks that loader for the libraries it would load (as
 * `ld.so --list` does), parsing its "name => path (address)" lines. */
#include "grow_array.h"
#include "program_libs.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int program_libs_resolve(const char *program, char *out, size_t outlen)
{
    if (strchr(program, '/')) {
        snprintf(out, outlen, "%s", program);
        return access(out, R_OK);
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

static int push(char ***v, size_t *n, size_t *cap, const char *s, size_t len)
{
    if (scope_grow_array((void **)v, cap, *n + 1, sizeof(**v)) != 0)
        return -1;
    if (!((*v)[*n] = strndup(s, len)))
        return -1;
    (*n)++;
    return 0;
}

static int same_file(const char *a, const char *b)
{
    char ra[PATH_MAX], rb[PATH_MAX];
    return realpath(a, ra) && realpath(b, rb) && strcmp(ra, rb) == 0;
}

/* One line of the loader's list:
 *   "\tlibz.so.1 => /lib/x86_64-linux-gnu/libz.so.1 (0x...)"   a library
 *   "\tlibfoo.so => not found"                                   missing
 *   "\t/lib64/ld-linux-x86-64.so.2 (0x...)"                      the loader
 *   "\tlinux-vdso.so.1 (0x...)"                                  no file */
static int parse_line(const char *line, const char *interp, struct program_libs *libs)
{
    line += strspn(line, " \t");
    const char *arrow = strstr(line, " => ");
    const char *path = arrow ? arrow + 4 : line;
    if (arrow && strncmp(path, "not found", 9) == 0)
        return push(&libs->missing, &libs->n_missing, &libs->cap_missing, line,
                    (size_t)(arrow - line));
    size_t len = strcspn(path, " \n");
    if (!arrow && path[0] != '/')
        return 0;   /* the vDSO; a library's path may be relative (LD_LIBRARY_PATH=.) */
    char file[PATH_MAX];
    snprintf(file, sizeof file, "%.*s", (int)len, path);
    if (same_file(file, interp))
        return 0;
    return push(&libs->paths, &libs->n, &libs->cap, path, len);
}

/* Runs `LD_TRACE_LOADED_OBJECTS=1 interp file`, as ldd does (`--list`
 * gives up at the first missing library), with its output on a pipe; the
 * pid in *pid. */
static FILE *run_loader(const char *interp, const char *file, pid_t *pid)
{
    int fd[2];
    if (pipe(fd) != 0)
        return NULL;
    *pid = fork();
    if (*pid < 0) {
        close(fd[0]);
        close(fd[1]);
        return NULL;
    }
    if (*pid == 0) {
        int devnull = open("/dev/null", O_WRONLY);
        dup2(fd[1], STDOUT_FILENO);
        if (devnull >= 0)
            dup2(devnull, STDERR_FILENO);
        close(fd[0]);
        close(fd[1]);
        unsetenv("LD_PRELOAD");
        setenv("LD_TRACE_LOADED_OBJECTS", "1", 1);
        execl(interp, interp, file, (char *)NULL);
        _exit(127);
    }
    close(fd[1]);
    FILE *in = fdopen(fd[0], "r");
    if (!in) {
        close(fd[0]);
        waitpid(*pid, NULL, 0);
    }
    return in;
}

int program_libs_load(const char *program, struct program_libs *libs, char *err, size_t errlen)
{
    memset(libs, 0, sizeof *libs);
    if (program_libs_resolve(program, libs->file, sizeof libs->file) != 0) {
        snprintf(err, errlen, "%s: %s", program, errno == ENOENT || !strchr(program, '/')
                                                     ? "not found" : strerror(errno));
        return -1;
    }
    char interp[PATH_MAX];
    if (interpreter(libs->file, interp, sizeof interp) != 0)
        return 0;
    pid_t pid;
    FILE *in = run_loader(interp, libs->file, &pid);
    if (!in) {
        snprintf(err, errlen, "%s: cannot run its loader %s", program, interp);
        return -1;
    }
    char line[PATH_MAX + 256];
    int rc = 0;
    while (rc == 0 && fgets(line, sizeof line, in))
        rc = parse_line(line, interp, libs);
    fclose(in);
    int status;
    waitpid(pid, &status, 0);
    if (rc != 0)
        snprintf(err, errlen, "out of memory");
    else if (WIFEXITED(status) && WEXITSTATUS(status) == 127 && libs->n == 0) {
        snprintf(err, errlen, "%s: cannot run its loader %s", program, interp);
        rc = -1;
    }
    if (rc != 0)
        program_libs_free(libs);
    return rc;
}

void program_libs_free(struct program_libs *libs)
{
    for (size_t i = 0; i < libs->n; i++)
        free(libs->paths[i]);
    for (size_t i = 0; i < libs->n_missing; i++)
        free(libs->missing[i]);
    free(libs->paths);
    free(libs->missing);
    libs->paths = libs->missing = NULL;
    libs->n = libs->n_missing = libs->cap = libs->cap_missing = 0;
}
