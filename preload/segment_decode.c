/* segment_decode.c: reading threads' spill files and buffers back as events. */
#include "segment_decode.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

void scope_record_reader_init(struct scope_record_reader *r, const struct scope_thread_records *t,
                              size_t n, const struct scope_clock_map *map)
{
    *r = (struct scope_record_reader){.threads = t, .nthreads = n, .map = map, .spill_fd = -1};
}

/* Decodes the non-empty records among rec[0..n) into out; returns how many. */
static size_t decode(const struct scope_record_reader *r, const struct scope_thread_records *t,
                     const struct scope_record *rec, size_t n, struct scope_event *out)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (scope_record_is_empty(&rec[i]))
            continue;
        uint64_t s, e;
        scope_record_decode(&rec[i], t->clock_base, &s, &e, &out[k].hook);
        out[k].start = scope_clock_map_apply(r->map, s);
        out[k].end = scope_clock_map_apply(r->map, e);
        out[k].thread = t->thread;
        out[k].callsite = -1;   /* TODO(cs-capture): call-site records */
        k++;
    }
    return k;
}

/* The next records of the current thread's spill file; 0 when it is done. */
static long next_from_spill(struct scope_record_reader *r, const struct scope_thread_records *t,
                            struct scope_event *out, size_t cap, char *err, size_t errlen)
{
    if (r->spill_fd < 0) {
        r->spill_fd = t->spill_path && t->spilled ? open(t->spill_path, O_RDONLY | O_CLOEXEC) : -1;
        r->spill_read = 0;
        if (r->spill_fd < 0) {
            r->part = THREAD_DONE;
            if (!t->spill_path || !t->spilled)
                return 0;
            snprintf(err, errlen, "%s: %s", t->spill_path, strerror(errno));
            return -1;
        }
    }
    struct scope_record chunk[1024];
    for (;;) {
        uint64_t left = t->spilled - r->spill_read;
        size_t want = cap < 1024 ? cap : 1024;
        want = left < want ? (size_t)left : want;
        ssize_t got = want ? read(r->spill_fd, chunk, want * sizeof(chunk[0])) : 0;
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0)
            snprintf(err, errlen, "%s: %s", t->spill_path, strerror(errno));
        if (got <= 0) {   /* a partial last record (killed mid-write) is dropped */
            close(r->spill_fd);
            r->spill_fd = -1;
            r->part = THREAD_DONE;
            return got < 0 ? -1 : 0;
        }
        r->spill_read += (size_t)got / sizeof(chunk[0]);
        size_t k = decode(r, t, chunk, (size_t)got / sizeof(chunk[0]), out);
        if (k > 0)
            return (long)k;
    }
}

long scope_record_reader_next(struct scope_record_reader *r, struct scope_event *out, size_t cap,
                              char *err, size_t errlen)
{
    while (r->thread < r->nthreads && cap > 0) {
        const struct scope_thread_records *t = &r->threads[r->thread];
        while (r->part == THREAD_BUFFER && r->pos < t->capacity) {
            size_t n = t->capacity - r->pos < cap ? t->capacity - r->pos : cap;
            size_t k = decode(r, t, t->records + r->pos, n, out);
            r->pos += n;
            if (k > 0)
                return (long)k;
        }
        if (r->part == THREAD_BUFFER)
            r->part = THREAD_SPILL;
        if (r->part == THREAD_SPILL) {
            long k = next_from_spill(r, t, out, cap, err, errlen);
            if (k != 0)
                return k;
            continue;
        }
        r->thread++;
        r->part = THREAD_BUFFER;
        r->pos = 0;
    }
    return 0;
}

void scope_record_reader_close(struct scope_record_reader *r)
{
    if (r->spill_fd >= 0)
        close(r->spill_fd);
    r->spill_fd = -1;
}
