/* stale_runs.c: at start, says when /dev/shm still holds the records of
 * processes that ended without writing them and were left there for more
 * than an hour (killed runs nobody recovered): that memory stays taken
 * until `scope recover` writes their files or removes them. Younger ones
 * are not mentioned: a job's epilogue may be recovering them right now.
 * SCOPE_WARN_STALE=0 turns it off (a batch system that cleans /dev/shm
 * itself; the test suite, which must not depend on the machine's past). */
#include "runtime.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define STALE_SECONDS 3600

void scope_warn_stale_runs(void)
{
    const char *on = getenv("SCOPE_WARN_STALE");
    if (on && strcmp(on, "0") == 0)
        return;
    DIR *d = opendir("/dev/shm");
    if (!d)
        return;
    char prefix[32];
    int plen = snprintf(prefix, sizeof(prefix), "scope-%d-", (int)getuid());
    int dead = 0, first = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        int pid;
        char tail[8];
        if (strncmp(e->d_name, prefix, (size_t)plen) != 0 ||
            sscanf(e->d_name + plen, "%d-%7s", &pid, tail) != 2 || strcmp(tail, "meta") != 0 ||
            pid == getpid())
            continue;
        if (kill(pid, 0) == 0 || errno == EPERM)
            continue;   /* still running */
        char path[300];
        struct stat st;
        snprintf(path, sizeof(path), "/dev/shm/%s", e->d_name);
        if (stat(path, &st) != 0 || time(NULL) - st.st_mtime < STALE_SECONDS)
            continue;
        if (!dead++)
            first = pid;
    }
    closedir(d);
    if (dead)
        scope_warn("/dev/shm has held the unwritten records of %d ended process%s (pid %d%s) "
                   "for over an hour: `scope recover` writes their files",
                   dead, dead > 1 ? "es" : "", first, dead > 1 ? ", ..." : "");
}
