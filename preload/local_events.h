/* local_events.h: this process's recorded calls, converted to ns on rank
 * 0's clock and grouped by region in start order, ready to be written or
 * sent, in bounded chunks. */
#ifndef SCOPE_LOCAL_EVENTS_H
#define SCOPE_LOCAL_EVENTS_H

#include <stddef.h>
#include <stdint.h>

#include "thread_buffer.h"

#define SCOPE_CHUNK_EVENTS 65536

struct scope_local_events {
    struct scope_event *events;   /* sorted by (region, start) */
    size_t count;
    size_t *region_begin;         /* nregions + 1 offsets into events */
    uint32_t *region_hook;        /* a hook of each region, for its attributes */
    size_t nregions;
};

/* Collects every thread's records; subtracts offset_ns (this clock minus
 * rank 0's). Returns 0 or -1 with err. */
int scope_local_events_build(struct scope_local_events *le, int64_t offset_ns,
                             char *err, size_t errlen);
void scope_local_events_free(struct scope_local_events *le);

/* One chunk of a region's events as the columns the file stores. */
struct scope_chunk {
    int64_t start[SCOPE_CHUNK_EVENTS];
    int64_t end[SCOPE_CHUNK_EVENTS];
    int32_t thread[SCOPE_CHUNK_EVENTS];
    size_t n;
};

/* Fills `chunk` with events [from, from + SCOPE_CHUNK_EVENTS) of region r;
 * returns the index after the last one taken. */
size_t scope_local_events_chunk(const struct scope_local_events *le, size_t r, size_t from,
                                struct scope_chunk *chunk);

#endif
