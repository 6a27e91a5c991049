/* daemon.c: a child turns itself into a daemon with daemon(): inside it,
 * the child's parent half leaves by _exit() and the grandchild runs the
 * rest of the program. Each of the three processes calls a hooked function
 * 1000 times; the original process waits for the daemon through a pipe
 * that only the daemon's exit closes. Each must leave a file with its own
 * 1000 calls: profile.h5, and profile.PID.h5 for the child and for the
 * daemon. */
#define _DEFAULT_SOURCE
#define CORPUS_MAIN
#include "corpus.h"

#include <sys/wait.h>
#include <unistd.h>

#define CALLS 1000

HOOKED long dm_work(long x)
{
    return x * 13 + SEED;
}

static void calls(const char *who)
{
    for (long i = 0; i < CALLS; i++)
        CHECK(dm_work(i) == i * 13 + 1, "%s: dm_work(%ld)", who, i);
}

int main(void)
{
    int done[2];
    CHECK(pipe(done) == 0, "pipe");
    fflush(stdout);
    pid_t pid = fork();
    CHECK(pid >= 0, "fork");
    if (pid == 0) {
        close(done[0]);
        calls("child");
        CHECK(daemon(1, 1) == 0, "daemon");
        calls("daemon");
        exit(0);   /* closes done[1], once the daemon's file is written */
    }
    close(done[1]);
    calls("parent");
    int status;
    CHECK(waitpid(pid, &status, 0) == pid, "waitpid");
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child status %#x", status);
    char c;
    CHECK(read(done[0], &c, 1) == 0, "the daemon wrote to the pipe");
    puts("daemon: ok");
    return 0;
}
