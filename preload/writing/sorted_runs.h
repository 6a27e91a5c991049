/* sorted_runs.h: the events of a process too many to sort in memory at
 * once, kept as sorted runs (windows sorted by region, then start) in an
 * unlinked file under scope_temp_dir(), compactly encoded, and merged back
 * one region at a time in start order (read one run after the other when a
 * region's runs do not overlap, the usual case: no heap then). */
#ifndef SCOPE_SORTED_RUNS_H
#define SCOPE_SORTED_RUNS_H

#include <stddef.h>
#include <stdint.h>

#include "segment_decode.h"

struct scope_run_head;

/* The order of a region's events: by start, then by end. For qsort. */
static inline int scope_event_by_start(const void *a, const void *b)
{
    const struct scope_event *x = a, *y = b;
    if (x->start != y->start)
        return x->start < y->start ? -1 : 1;
    return (x->end > y->end) - (x->end < y->end);
}

struct scope_sorted_runs {
    int fd;                       /* -1 until the first run */
    size_t nregions, nruns;
    uint64_t *run_begin;          /* [run * (nregions + 1) + r]: byte offset of */
                                  /* region r's events of the run in the file */
    uint64_t file_bytes;
    unsigned char *encoded;       /* scratch for add, grown as needed */
    size_t encoded_cap;
    struct scope_run_head *heads; /* one per run while a region is merged */
    struct scope_event *run_last; /* [run * nregions + r]: region r's last event */
                                  /* in the run (start and end), if it has any */
    size_t *heap;                 /* runs with events left, smallest head first; */
    size_t nheap;                 /* chained: the runs in reverse order instead */
    int chained;                  /* the region's runs follow each other: */
                                  /* merged by reading one after the other */
    char error[256];              /* why a merge read failed ("" if none) */
};

void scope_sorted_runs_init(struct scope_sorted_runs *s, size_t nregions);
void scope_sorted_runs_free(struct scope_sorted_runs *s);

/* Appends n events sorted by (region, start) as the next run; offsets[r]
 * is where region r begins among them (nregions + 1 entries). Only start,
 * end, thread and callsite are kept. 0, or -1 with err. */
int scope_sorted_runs_add(struct scope_sorted_runs *s, const struct scope_event *sorted,
                          size_t n, const size_t *offsets, char *err, size_t errlen);

/* Starts merging region r from its first event. 0, or -1 out of memory. */
int scope_sorted_runs_start(struct scope_sorted_runs *s, size_t r);

/* The region's next event in start order (the caller knows how many there
 * are). If the file cannot be read back, the event is zeros and
 * s->error says why. */
struct scope_event scope_sorted_runs_next(struct scope_sorted_runs *s);

#endif
