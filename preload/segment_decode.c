/* segment_decode.c: decoding of record arrays and spill files. */
#include "segment_decode.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int scope_decode_records(struct scope_event_array *a, const struct scope_record *r, size_t n,
                         uint64_t clock_base, int thread)
{
    for (size_t i = 0; i < n; i++) {
        if (scope_record_is_empty(&r[i]))
            continue;
        if (a->count == a->capacity) {
            size_t cap = a->capacity ? a->capacity * 2 : 4096;
            struct scope_event *d = realloc(a->data, cap * sizeof(*d));
            if (!d)
                return -1;
            a->data = d;
            a->capacity = cap;
        }
        struct scope_event *e = &a->data[a->count++];
        uint64_t s, en;
        scope_record_decode(&r[i], clock_base, &s, &en, &e->hook);
        e->start = (int64_t)s;
        e->end = (int64_t)en;
        e->thread = thread;
    }
    return 0;
}

int scope_decode_spill(struct scope_event_array *a, const char *path, uint64_t clock_base,
                       int thread, char *err, size_t errlen)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        if (errno == ENOENT)
            return 0;
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return -1;
    }
    struct scope_record chunk[4096];
    ssize_t got;
    int rc = 0;
    while ((got = read(fd, chunk, sizeof(chunk))) > 0)
        if (scope_decode_records(a, chunk, (size_t)got / sizeof(chunk[0]), clock_base, thread) != 0) {
            snprintf(err, errlen, "out of memory reading %s", path);
            rc = -1;
            break;
        }
    close(fd);
    return rc;
}
