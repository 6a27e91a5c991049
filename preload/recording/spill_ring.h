/* spill_ring.h: a recording buffer seen as a ring of slices (segment.h),
 * and the one step that writes its oldest full slice out to the spill file
 * and clears the slice for reuse, keeping the header's numbers true at
 * every point in between: a crash anywhere leaves each record once, in the
 * spill file or in the ring. */
#ifndef SCOPE_SPILL_RING_H
#define SCOPE_SPILL_RING_H

#include <stddef.h>
#include <stdint.h>

#include "record.h"
#include "segment.h"

struct scope_spill_ring {
    struct scope_segment_header *header;
    struct scope_record *records;    /* the ring's slots */
    size_t slice;                    /* records of a slice */
    uint64_t current;                /* the slice its thread records into, by number:
                                        slice s holds records s*slice .. (s+1)*slice-1 */
    uint64_t submitted;              /* records handed to the writer (whole slices) */
    int fd;                          /* the spill file, -1 until it is made */
    int error;                       /* errno of a write that failed: written no more */
    /* The writer's queue (spill_writer.c): */
    int queued;
    struct scope_spill_ring *next_queued;
};

/* The ring of the segment whose header is h (its capacity set, a multiple
 * of SCOPE_RING_SLICES) and whose slots are `records`; slice 0 current. */
void scope_spill_ring_init(struct scope_spill_ring *r, struct scope_segment_header *h,
                           struct scope_record *records);

/* The first slot of slice number s. */
static inline size_t scope_spill_ring_slot(const struct scope_spill_ring *r, uint64_t s)
{
    return (size_t)(s % SCOPE_RING_SLICES) * r->slice;
}

/* Writes the oldest slice not yet written (records spilled .. spilled +
 * slice - 1) at its place in the spill file, then clears its slots: 0, or
 * the errno of the failed write (the header unchanged). */
int scope_spill_ring_write_oldest(struct scope_spill_ring *r);

#endif
