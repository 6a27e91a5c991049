/* local_events.c: decoding, conversion to ns and grouping of this process's
 * calls (see local_events.h). */
#include "local_events.h"
#include "runtime.h"

#include <stdio.h>
#include <stdlib.h>

static int by_start(const void *a, const void *b)
{
    const struct scope_event *x = a, *y = b;
    if (x->start != y->start)
        return x->start < y->start ? -1 : 1;
    return (x->end > y->end) - (x->end < y->end);
}

/* Counting sort by region, then each region by start time. */
static int group_by_region(struct scope_local_events *le, struct scope_event *raw)
{
    size_t nr = le->nregions;
    le->region_begin = calloc(nr + 1, sizeof(size_t));
    le->region_hook = calloc(nr ? nr : 1, sizeof(uint32_t));
    le->events = malloc((le->count ? le->count : 1) * sizeof(*le->events));
    size_t *fill = calloc(nr ? nr : 1, sizeof(size_t));
    if (!le->region_begin || !le->region_hook || !le->events || !fill) {
        free(fill);
        return -1;
    }
    for (size_t h = 0; h < scope_rt.nhooks; h++)
        le->region_hook[scope_rt.hooks[h].region] = (uint32_t)h;
    for (size_t i = 0; i < le->count; i++)
        le->region_begin[scope_rt.hooks[raw[i].hook].region + 1]++;
    for (size_t r = 0; r < nr; r++)
        le->region_begin[r + 1] += le->region_begin[r];
    for (size_t i = 0; i < le->count; i++) {
        size_t r = scope_rt.hooks[raw[i].hook].region;
        le->events[le->region_begin[r] + fill[r]++] = raw[i];
    }
    free(fill);
    for (size_t r = 0; r < nr; r++)
        qsort(le->events + le->region_begin[r], le->region_begin[r + 1] - le->region_begin[r],
              sizeof(*le->events), by_start);
    return 0;
}

int scope_local_events_build(struct scope_local_events *le, int64_t offset_ns, char *err,
                             size_t errlen)
{
    struct scope_event *raw = NULL;
    *le = (struct scope_local_events){.nregions = scope_rt.nregions};
    if (scope_buffers_collect(&raw, &le->count, err, errlen) != 0)
        return -1;
    size_t kept = 0;
    for (size_t i = 0; i < le->count; i++) {
        if (raw[i].hook >= scope_rt.nhooks)
            continue;   /* a damaged record */
        raw[i].start = scope_clock_to_ns(&scope_rt.clock, (uint64_t)raw[i].start) - offset_ns;
        raw[i].end = scope_clock_to_ns(&scope_rt.clock, (uint64_t)raw[i].end) - offset_ns;
        raw[kept++] = raw[i];
    }
    le->count = kept;
    int rc = group_by_region(le, raw);
    free(raw);
    if (rc != 0) {
        scope_local_events_free(le);
        snprintf(err, errlen, "out of memory grouping %zu events", kept);
    }
    return rc;
}

void scope_local_events_free(struct scope_local_events *le)
{
    free(le->events);
    free(le->region_begin);
    free(le->region_hook);
    *le = (struct scope_local_events){0};
}

size_t scope_local_events_chunk(const struct scope_local_events *le, size_t r, size_t from,
                                struct scope_chunk *chunk)
{
    size_t end = le->region_begin[r + 1];
    chunk->n = 0;
    for (size_t i = le->region_begin[r] + from; i < end && chunk->n < SCOPE_CHUNK_EVENTS; i++) {
        const struct scope_event *e = &le->events[i];
        chunk->start[chunk->n] = e->start;
        chunk->end[chunk->n] = e->end;
        chunk->thread[chunk->n] = e->thread;
        chunk->n++;
    }
    return from + chunk->n;
}
