/* fork.c: a process that forks, once from main and once from inside a
 * hooked function. The children call hooked functions, check their
 * results and exit (one with exit(), running atexit handlers, one with
 * _exit(), as daemon()'s parent does); the parent keeps calling and
 * recording. The parent's file must hold exactly the parent's calls, and
 * each child's file (profile.PID.h5) its own 1000: a forked worker or
 * daemon records on its own. The call the second child inherits open
 * (fk_spawn) returns before its first hooked call: in the parent's file
 * only. */
#define CORPUS_MAIN
#include "corpus.h"

#include <sys/wait.h>
#include <unistd.h>

#define CALLS 1000

HOOKED long fk_work(long x)
{
    return x * 17 + SEED;
}

static void calls(const char *who)
{
    for (long i = 0; i < CALLS; i++) {
        long r = fk_work(i);
        CHECK(r == i * 17 + 1, "%s: fk_work(%ld) = %ld", who, i, r);
    }
}

static void wait_child(pid_t pid)
{
    int status;
    CHECK(waitpid(pid, &status, 0) == pid, "waitpid");
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child status %#x", status);
}

/* Forks while its own call is open: the child returns through it too. */
HOOKED pid_t fk_spawn(void)
{
    pid_t pid = fork();
    CHECK(pid >= 0, "fork");
    return pid;
}

int main(void)
{
    calls("parent before fork");
    pid_t pid = fork();
    CHECK(pid >= 0, "fork");
    if (pid == 0) {
        calls("child 1");
        exit(0);
    }
    calls("parent");
    wait_child(pid);

    pid = fk_spawn();
    if (pid == 0) {
        calls("child 2");
        _exit(0);
    }
    calls("parent after fk_spawn");
    wait_child(pid);
    puts("fork: ok");
    return 0;
}
