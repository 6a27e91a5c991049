/* thread_buffer.h: recording buffers in POSIX shared memory, one per
 * thread alive at once (a thread that ends leaves its buffer, shadow stack
 * and signal stack to the next new thread), their spill files, and the
 * registry of all of them, read back at the end of the run. */
#ifndef SCOPE_THREAD_BUFFER_H
#define SCOPE_THREAD_BUFFER_H

#include <stddef.h>
#include <stdint.h>

#include "segment_decode.h"


/* Set once before recording starts. `at_thread_end` runs on a thread that
 * recorded when it ends (its thread-local state still there). */
void scope_buffers_configure(size_t buffer_bytes, uint64_t clock_base,
                             void (*at_thread_end)(void *));

/* The calling thread (struct scope_thread *) is ending: libc runs the
 * destructors of its thread-specific values in rounds, the application's
 * after scope's in each. Non-zero while a later round will come back (so
 * the application's destructors still record); 0 in the last. */
int scope_thread_end_later(void *thread);

/* The calling thread (struct scope_thread *) has ended and records no
 * more: what it recorded with serves the next new thread. */
void scope_thread_release(void *thread);

/* Where every buffer of this process holds its threads' records, for a
 * scope_record_reader. The caller frees *threads;
 * what it points to stays valid until scope_buffers_remove(). -1 when out
 * of memory. */
int scope_buffers_threads(struct scope_thread_records **threads, size_t *count);

/* Profile mode: every buffer's profile table (profile_table.h), and in
 * (*records)[i] the records of table i's buffer (the stacks its paths'
 * call sites name). The caller frees both arrays; -1 when out of memory. */
struct scope_profile_table;
int scope_buffers_profiles(struct scope_profile_table ***tables,
                           struct scope_thread_records **records, size_t *count);

/* Removes every segment and spill file of this process, the meta segment
 * included (after a write). */
void scope_buffers_remove(void);

/* In a forked child: the parent's buffers are not the child's. Its only
 * thread takes one of its own at its next hooked call, keeping the calls
 * it has open (they return in the child too; those that return before
 * then are not recorded in the child). */
void scope_buffers_after_fork_child(void);

/* Calls of all threads not recorded because the shadow stack was full. */
uint64_t scope_buffers_dropped(void);

#endif
