/* temp_dir.c: $TMPDIR or /tmp, and scratch files there (temp_dir.h). */
#include "temp_dir.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *scope_temp_dir(void)
{
    const char *dir = getenv("TMPDIR");
    return dir && *dir ? dir : "/tmp";
}

int scope_scratch_file(const char *purpose, char *err, size_t errlen)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/scope-scratch-XXXXXX", scope_temp_dir());
    int fd = mkstemp(path);
    if (fd < 0)
        snprintf(err, errlen, "cannot create %s for %s: %s", path, purpose, strerror(errno));
    else
        unlink(path);
    return fd;
}

int scope_write_full(int fd, const void *p, size_t len)
{
    for (const char *c = p; len > 0;) {
        ssize_t w = write(fd, c, len);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        c += w;
        len -= (size_t)w;
    }
    return 0;
}

int scope_pwrite_full(int fd, const void *p, size_t len, uint64_t at)
{
    for (const char *c = p; len > 0;) {
        ssize_t w = pwrite(fd, c, len, (off_t)at);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            if (w == 0)
                errno = ENOSPC;
            return -1;
        }
        c += w;
        at += (uint64_t)w;
        len -= (size_t)w;
    }
    return 0;
}

int scope_pread_full(int fd, void *p, size_t len, uint64_t at)
{
    for (char *c = p; len > 0;) {
        ssize_t r = pread(fd, c, len, (off_t)at);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0) {
            if (r == 0)
                errno = 0;
            return -1;
        }
        c += r;
        at += (uint64_t)r;
        len -= (size_t)r;
    }
    return 0;
}
