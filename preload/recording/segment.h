/* segment.h: the layout of a recording buffer's shared-memory segment,
 * which outlives a crash so that `scope recover` can read what was
 * recorded: a one-page header, then a ring of `capacity` record slots (all-
 * zero slots are unused). A buffer's records are numbered in the order
 * they were written; record g lies in slot g % capacity while it is in the
 * ring. The ring is cut into SCOPE_RING_SLICES equal slices; full slices
 * are written out, oldest first, to the spill file the header names
 * (record g at byte 16 g), then cleared to be used again. At every moment:
 *   - the spill file's first `spilled` records are records 0 .. spilled-1;
 *   - the ring holds records spilled .. recycled+capacity-1 (slots of
 *     numbers not written yet are zeros), where the slots of the records
 *     before `recycled` have been written out and cleared, and
 *     recycled <= spilled <= recycled + one slice;
 *   - only the ring's first `ready` slots were ever touched (a slot past
 *     them was never used: reading it would only cost memory).
 * So a reader takes the spill file's first `spilled` records, then the
 * ring's from number `spilled` up to recycled + capacity, and meets every
 * record once, whenever the writer was stopped. A buffer serves one thread
 * at a time: when its thread ends, the next new thread records on into it
 * (record.h). */
#ifndef SCOPE_SEGMENT_H
#define SCOPE_SEGMENT_H

#include <stdint.h>

#define SCOPE_SEGMENT_MAGIC "SCOPEBF2"
#define SCOPE_SEGMENT_HEADER_BYTES 4096
#define SCOPE_RING_SLICES 8

struct scope_segment_header {
    char magic[8];
    int32_t pid;
    int32_t thread_number;     /* its first thread (0 = the process's first) */
    int32_t tid;               /* that thread's kernel id */
    int32_t reserved;
    uint64_t capacity;         /* record slots of the ring, a multiple of SCOPE_RING_SLICES */
    uint64_t clock_base;       /* first raw reading of the run (for unwrapping) */
    char spill_path[1024];
    uint64_t spilled;          /* the oldest records, in the spill file */
    uint64_t dropped;          /* calls not recorded: the shadow stack was full */
    uint64_t ready;            /* slots of the ring touched so far */
    uint64_t recycled;         /* records whose slots were cleared for reuse */
};

#endif
