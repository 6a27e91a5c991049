/* thread_buffer.h: per-thread recording buffers in POSIX shared memory,
 * their spill files, and the registry of all of them, read back at the end
 * of the run. */
#ifndef SCOPE_THREAD_BUFFER_H
#define SCOPE_THREAD_BUFFER_H

#include <stddef.h>
#include <stdint.h>

#include "segment_decode.h"


/* Set once before recording starts. */
void scope_buffers_configure(size_t buffer_bytes, uint64_t clock_base);

/* Where every thread of this process left its records (spill files are
 * flushed first), for a scope_record_reader. The caller frees *threads;
 * what it points to stays valid until scope_buffers_remove(). -1 when out
 * of memory. */
int scope_buffers_threads(struct scope_thread_records **threads, size_t *count);

/* Removes every segment and spill file of this process, the meta segment
 * included (after a write). */
void scope_buffers_remove(void);

/* In a forked child: stop recording and leave the parent's buffers alone. */
void scope_buffers_after_fork_child(void);

/* Calls of all threads not recorded because the shadow stack was full. */
uint64_t scope_buffers_dropped(void);

#endif
