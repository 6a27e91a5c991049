/* stale_runs.c: at start, says when /dev/shm still holds the records of
 * processes that ended without writing them (killed runs nobody
 * recovered): that memory stays taken until `scope recover` writes their
 * files or removes them. */
#include "runtime.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

void scope_warn_stale_runs(void)
{
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
        if (!dead++)
            first = pid;
    }
    closedir(d);
    if (dead)
        scope_warn("/dev/shm holds the unwritten records of %d ended process%s (pid %d%s): "
                   "`scope recover` writes their files",
                   dead, dead > 1 ? "es" : "", first, dead > 1 ? ", ..." : "");
}
