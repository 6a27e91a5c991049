/* event_groups.h: one process's calls grouped by region in start order,
 * ready to be written or sent in bounded chunks. Knows nothing of where
 * the events came from (the live library or `scope recover`). */
#ifndef SCOPE_EVENT_GROUPS_H
#define SCOPE_EVENT_GROUPS_H

#include <stddef.h>
#include <stdint.h>

#include "segment_decode.h"

#define SCOPE_CHUNK_EVENTS 65536

struct scope_event_groups {
    struct scope_event *events;   /* sorted by (region, start) */
    size_t count;
    size_t *region_begin;         /* nregions + 1 offsets into events */
    uint32_t *region_hook;        /* a hook of each region, for its attributes */
    size_t nregions;
    int64_t *region_self;         /* exclusive time of each region's calls, */
    int self_known;               /* when each thread's calls came in end order */
};

/* Groups events whose ns times are final; hook_region[h] is hook h's
 * region. Events of unknown hooks (damaged records) are dropped. The events
 * come as the buffers hold them, each thread's together in the order the
 * calls ended: that order gives every region's self time in one pass
 * (nesting by containment, as the reader finds it); if it does not hold,
 * self_known is 0 and the reader derives self time itself. */
int scope_event_groups_build(struct scope_event_groups *g, const struct scope_event *events,
                             size_t n, const uint32_t *hook_region, size_t nhooks,
                             size_t nregions);
void scope_event_groups_free(struct scope_event_groups *g);

/* One chunk of a region's events as the columns the file stores. */
struct scope_chunk {
    int64_t start[SCOPE_CHUNK_EVENTS];
    int64_t end[SCOPE_CHUNK_EVENTS];
    int32_t thread[SCOPE_CHUNK_EVENTS];
    size_t n;
};

/* Fills `chunk` with events [from, from + SCOPE_CHUNK_EVENTS) of region r;
 * returns the index after the last one taken. */
size_t scope_event_groups_chunk(const struct scope_event_groups *g, size_t r, size_t from,
                                struct scope_chunk *chunk);

#endif
