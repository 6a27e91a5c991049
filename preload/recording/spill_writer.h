/* spill_writer.h: one thread per process writes the full slices of every
 * buffer's ring (spill_ring.h) out to their spill files while the
 * recording threads go on in the other slices; a recording thread whose
 * next slice still holds records not written out waits for it (memory
 * stays bounded, nothing is dropped). When no thread can be started, the
 * recording thread writes its slices itself. */
#ifndef SCOPE_SPILL_WRITER_H
#define SCOPE_SPILL_WRITER_H

#include <stddef.h>

#include "spill_ring.h"

/* A slice is handed to the writer when its thread has gone this many
 * slices past it: a buffer never more than half full never spills, and the
 * writer has half a ring of calls' time for each slice. */
#define SCOPE_SPILL_LAG (SCOPE_RING_SLICES / 2)

/* Starts the writer thread now, when recording starts: started at a
 * thread's first spill instead, it could be created from inside the
 * program's own pthread_create (a hooked libc function filling a buffer
 * there), whose stack-cache lock a second pthread_create waits for
 * forever. */
void scope_spill_writer_start(void);

/* Moves r's thread on to its next slice (r->current + 1): hands the slice
 * SCOPE_SPILL_LAG behind that one to the writer (making the spill file
 * first), and waits until the next slice's slots are free. 0 once
 * r->current is the next slice; -1 with the reason in `why` when the ring
 * cannot be written out (its records so far stay, in the file and the
 * ring). */
int scope_spill_next_slice(struct scope_spill_ring *r, char *why, size_t len);

/* Waits until every slice handed over is written out (or failed): the
 * headers' numbers then stand still, for reading the records back. */
void scope_spill_writer_drain(void);

/* In a forked child: no writer thread, nothing queued (the parent's rings
 * are not the child's). */
void scope_spill_writer_after_fork_child(void);

#endif
