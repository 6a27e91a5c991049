/* spill_ring.c: writing a ring's oldest slice out and clearing it (see
 * spill_ring.h). The order of the steps is what keeps a crash harmless:
 * the file first, then `spilled` (the reader now takes the slice from the
 * file and no more from the ring), then the zeros, then `recycled` (the
 * slots may take new records). */
#include "spill_ring.h"
#include "temp_dir.h"

#include <errno.h>
#include <string.h>

void scope_spill_ring_init(struct scope_spill_ring *r, struct scope_segment_header *h,
                           struct scope_record *records)
{
    *r = (struct scope_spill_ring){.header = h, .records = records,
                                   .slice = (size_t)h->capacity / SCOPE_RING_SLICES, .fd = -1};
}

int scope_spill_ring_write_oldest(struct scope_spill_ring *r)
{
    struct scope_segment_header *h = r->header;
    uint64_t first = h->spilled;
    struct scope_record *slots = r->records + first % h->capacity;
    size_t bytes = r->slice * sizeof(struct scope_record);
    if (scope_pwrite_full(r->fd, slots, bytes, first * sizeof(struct scope_record)) != 0)
        return errno ? errno : EIO;
    __atomic_store_n(&h->spilled, first + r->slice, __ATOMIC_RELEASE);
    memset(slots, 0, bytes);
    __atomic_store_n(&h->recycled, first + r->slice, __ATOMIC_RELEASE);
    return 0;
}
