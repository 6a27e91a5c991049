/* spawn.c: a process that starts other programs while a hooked call is
 * open, in every way libc offers: fork + exec, vfork + exec, posix_spawn,
 * system() and popen(). Each child is this program again (argument
 * "child"), inheriting LD_PRELOAD and the environment, and makes hooked
 * calls of its own. The parent checks every child's exit status (and the
 * output read through popen), then keeps calling. Its file must hold
 * exactly the parent's calls: a child records on its own or not at all,
 * and never writes over the parent's file (the checker sees one file). */
#define CORPUS_MAIN
#include "corpus.h"

#include <spawn.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define CHILD_CALLS 500
#define PARENT_CALLS 1000

extern char **environ;
static const char *self;

HOOKED long sp_work(long x)
{
    return x * 13 + SEED;
}

static void calls(const char *who, long n)
{
    for (long i = 0; i < n; i++) {
        long r = sp_work(i);
        CHECK(r == i * 13 + 1, "%s: sp_work(%ld) = %ld", who, i, r);
    }
}

static void check_status(const char *how, int status)
{
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "%s: child status %#x", how, status);
}

static void wait_child(const char *how, pid_t pid)
{
    int status;
    CHECK(waitpid(pid, &status, 0) == pid, "%s: waitpid", how);
    check_status(how, status);
}

/* Each starter below runs inside its own hooked call. */
HOOKED void sp_fork_exec(void)
{
    pid_t pid = fork();
    CHECK(pid >= 0, "fork");
    if (pid == 0) {
        execl(self, self, "child", (char *)NULL);
        _exit(127);
    }
    wait_child("fork+exec", pid);
}

HOOKED void sp_vfork_exec(void)
{
    pid_t pid = vfork();
    CHECK(pid >= 0, "vfork");
    if (pid == 0) {
        execl(self, self, "child", (char *)NULL);
        _exit(127);
    }
    wait_child("vfork+exec", pid);
}

HOOKED void sp_posix_spawn(void)
{
    pid_t pid;
    char *argv[] = {(char *)self, "child", NULL};
    CHECK(posix_spawn(&pid, self, NULL, NULL, argv, environ) == 0, "posix_spawn");
    wait_child("posix_spawn", pid);
}

HOOKED void sp_system(void)
{
    char cmd[4096];
    snprintf(cmd, sizeof(cmd), "'%s' child", self);
    check_status("system", system(cmd));
}

HOOKED void sp_popen(void)
{
    char cmd[4096], line[128] = "";
    snprintf(cmd, sizeof(cmd), "'%s' child", self);
    FILE *p = popen(cmd, "r");
    CHECK(p != NULL, "popen");
    CHECK(fgets(line, sizeof(line), p) != NULL, "popen: no output");
    check_status("popen", pclose(p));
    CHECK(strcmp(line, "child: ok\n") == 0, "popen read %s", line);
}

int main(int argc, char **argv)
{
    self = argv[0];
    if (argc > 1 && strcmp(argv[1], "child") == 0) {
        calls("child", CHILD_CALLS);
        puts("child: ok");
        return 0;
    }
    void (*starters[])(void) = {sp_fork_exec, sp_vfork_exec, sp_posix_spawn, sp_system, sp_popen};
    for (size_t i = 0; i < sizeof(starters) / sizeof(starters[0]); i++) {
        calls("parent", PARENT_CALLS / 5);
        starters[i]();
    }
    puts("spawn: ok");
    return 0;
}
