/* segment_decode.h: turns raw call records (from a buffer in shared memory
 * or from a spill file) back into events. MPI-free and process-free: the
 * running library and `scope recover` both use it. */
#ifndef SCOPE_SEGMENT_DECODE_H
#define SCOPE_SEGMENT_DECODE_H

#include <stddef.h>
#include <stdint.h>

#include "record.h"

struct scope_event {
    int64_t start, end;        /* ns once converted, raw before */
    uint32_t hook;
    int32_t thread;            /* per-process thread number */
};

struct scope_event_array {
    struct scope_event *data;
    size_t count, capacity;
};

/* Appends the non-empty records among r[0..n); -1 when out of memory. */
int scope_decode_records(struct scope_event_array *a, const struct scope_record *r, size_t n,
                         uint64_t clock_base, int thread);

/* Appends the records of a spill file (a missing file has none). */
int scope_decode_spill(struct scope_event_array *a, const char *path, uint64_t clock_base,
                       int thread, char *err, size_t errlen);

#endif
