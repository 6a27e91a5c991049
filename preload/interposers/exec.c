/* exec.c: libscope's exec family (LD_PRELOAD puts it before libc's). A
 * process that replaces its image would lose what it recorded: before the
 * new program starts, the file is written as at exit (an MPI rank keeps its
 * records for `scope recover`), and the new image, with the same pid, is
 * told by SCOPE_OUTPUT_OWNER that the name is taken: it records into
 * profile.PID.h5 like any program a profiled process starts. Only an exec
 * that can succeed does this (the file exists and may be executed, found
 * along PATH for the p variants); one that fails anyway leaves the process
 * running with its records written and recording stopped, which scope
 * says. The l variants gather their arguments and call the v ones. */
#include "constructor.h"
#include "log.h"

#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define EXPORT __attribute__((visibility("default")))
#define OWNER "SCOPE_OUTPUT_OWNER"

extern char **environ;

/* execve's type, and execvpe's */
typedef int (*execve_fn)(const char *, char *const[], char *const[]);

/* Whether file can be run: as a path, or (search) along PATH. */
static int runnable(const char *file, int search)
{
    if (!search || strchr(file, '/'))
        return access(file, X_OK) == 0;
    const char *path = getenv("PATH");
    for (const char *p = path ? path : "/bin:/usr/bin"; *p;) {
        const char *end = strchrnul(p, ':');
        char candidate[PATH_MAX];
        int n = snprintf(candidate, sizeof candidate, "%.*s%s%s", (int)(end - p), p,
                         end > p ? "/" : "", file);
        if (n > 0 && (size_t)n < sizeof candidate && access(candidate, X_OK) == 0)
            return 1;
        p = *end ? end + 1 : end;
    }
    return 0;
}

/* envp with SCOPE_OUTPUT_OWNER naming no process, so that the new image
 * takes a file of its own; NULL when out of memory. */
static char **env_for_new_image(char *const envp[], char *owner, size_t owner_len)
{
    size_t n = 0;
    while (envp && envp[n])
        n++;
    char **out = malloc((n + 2) * sizeof(*out));
    if (!out)
        return NULL;
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (strncmp(envp[i], OWNER "=", sizeof(OWNER)) != 0)
            out[k++] = envp[i];
    snprintf(owner, owner_len, OWNER "=%ld.exec", (long)getpid());
    out[k++] = owner;
    out[k] = NULL;
    return out;
}

/* Runs the real call with the environment for the new image, after the
 * file is written; says so when it fails all the same. */
static int exec_with(execve_fn real, const char *file, char *const argv[], char *const envp[],
                     int search)
{
    if (!real) {
        errno = ENOSYS;
        return -1;
    }
    if (!scope_process_recording() || !runnable(file, search))
        return real(file, argv, envp);   /* a vfork child comes here: it must not allocate */
    char owner[64];
    char **env = env_for_new_image(envp, owner, sizeof owner);
    if (!env)
        return real(file, argv, envp);
    scope_process_leaving();
    int rc = real(file, argv, env);
    int saved = errno;
    free(env);
    scope_log("exec of %s failed (%s) after recording stopped for it: later calls are not "
              "recorded", file, strerror(saved));
    errno = saved;
    return rc;
}

EXPORT int execve(const char *path, char *const argv[], char *const envp[])
{
    return exec_with((execve_fn)dlsym(RTLD_NEXT, "execve"), path, argv, envp, 0);
}

EXPORT int execvpe(const char *file, char *const argv[], char *const envp[])
{
    return exec_with((execve_fn)dlsym(RTLD_NEXT, "execvpe"), file, argv, envp, 1);
}

EXPORT int execv(const char *path, char *const argv[])
{
    return execve(path, argv, environ);
}

EXPORT int execvp(const char *file, char *const argv[])
{
    return execvpe(file, argv, environ);
}

/* The arguments of an l variant after `first`, up to the NULL, as an argv
 * (on the stack: exec must not allocate); *envp gets the one after the
 * NULL when want_env. */
#define GATHER_ARGS(argv, first, want_env, envp)                             \
    size_t argc_ = 1;                                                        \
    va_list ap_;                                                             \
    va_start(ap_, first);                                                    \
    while (va_arg(ap_, char *))                                              \
        argc_++;                                                             \
    va_end(ap_);                                                             \
    char *argv[argc_ + 1];                                                   \
    argv[0] = (char *)(first);                                               \
    va_start(ap_, first);                                                    \
    for (size_t i_ = 1; i_ <= argc_; i_++)                                   \
        argv[i_] = va_arg(ap_, char *);                                      \
    if (want_env)                                                            \
        *(envp) = va_arg(ap_, char **);                                      \
    va_end(ap_)

EXPORT int execl(const char *path, const char *arg, ...)
{
    char **unused;
    GATHER_ARGS(argv, arg, 0, &unused);
    return execve(path, argv, environ);
}

EXPORT int execlp(const char *file, const char *arg, ...)
{
    char **unused;
    GATHER_ARGS(argv, arg, 0, &unused);
    return execvpe(file, argv, environ);
}

EXPORT int execle(const char *path, const char *arg, ...)
{
    char **envp;
    GATHER_ARGS(argv, arg, 1, &envp);
    return execve(path, argv, envp);
}
