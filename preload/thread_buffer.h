/* thread_buffer.h: per-thread recording buffers in POSIX shared memory,
 * their spill files, the registry of all of them, and decoding them back
 * into events at the end of the run. */
#ifndef SCOPE_THREAD_BUFFER_H
#define SCOPE_THREAD_BUFFER_H

#include <stddef.h>
#include <stdint.h>

#include "segment_decode.h"


/* Set once before recording starts. */
void scope_buffers_configure(size_t buffer_bytes, uint64_t clock_base);

/* Every event recorded by every thread of this process, raw timestamps.
 * The caller frees *events. Returns 0 or -1 (message in err). */
int scope_buffers_collect(struct scope_event **events, size_t *count,
                          char *err, size_t errlen);

/* Removes every segment and spill file of this process, the meta segment
 * included (after a write). */
void scope_buffers_remove(void);

/* In a forked child: stop recording and leave the parent's buffers alone. */
void scope_buffers_after_fork_child(void);

/* Number of threads that recorded. */
int scope_buffers_thread_count(void);

#endif
