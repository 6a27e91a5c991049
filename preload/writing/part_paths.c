/* part_paths.c: the names of a multi-node run's parts (part_paths.h). */
#include "part_paths.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

void scope_part_paths(const char *file, int node, char *part, char *link, size_t len)
{
    const char *slash = strrchr(file, '/');
    snprintf(part, len, "%s.d/node%d.h5", file, node);
    snprintf(link, len, "%s.d/node%d.h5", slash ? slash + 1 : file, node);
}

int scope_part_dir_make(const char *part, char *err, size_t errlen)
{
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", part);
    char *slash = strrchr(dir, '/');
    if (!slash)
        return 0;
    *slash = '\0';
    if (mkdir(dir, 0777) == 0 || errno == EEXIST)
        return 0;
    snprintf(err, errlen, "cannot create %s: %s", dir, strerror(errno));
    return -1;
}
