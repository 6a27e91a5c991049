/* stale_runs.c: at start, says when /dev/shm still holds the records of
 * processes that ended without writing them and were left there for more
 * than an hour (killed runs nobody recovered): that memory stays taken
 * until `scope recover` writes their files or removes them. Younger ones
 * are not mentioned: a job's epilogue may be recovering them right now.
 * SCOPE_WARN_STALE=0 turns it off (a batch system that cleans /dev/shm
 * itself; the test suite, which must not depend on the machine's past). */
#include "stale_runs.h"
#include "log.h"
#include "process_alive.h"
#include "record_files.h"

#include <dirent.h>
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
    DIR *d = opendir(SCOPE_SHM_DIR);
    if (!d)
        return;
    int dead = 0, first = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        int pid;
        char stem[256];
        if (!scope_record_parse_meta(e->d_name, &pid, stem, sizeof(stem)) || pid == getpid())
            continue;
        if (scope_process_alive(pid))
            continue;
        char path[300];
        struct stat st;
        snprintf(path, sizeof(path), SCOPE_SHM_DIR "/%s", e->d_name);
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
