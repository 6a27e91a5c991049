/* A few threads for the reader's work that needs no HDF5 (inflating
 * chunks, checking and indexing calls, walking ranks): tasks 0..n-1 taken
 * in turn by the caller's thread and at most as many more as make the
 * online cores. */
#ifndef SCOPE_READER_TASKS_H
#define SCOPE_READER_TASKS_H

#include <stddef.h>

/* Most threads the reader runs at once, whatever the cores. */
#define READER_MAX_THREADS 8

/* How many threads (the caller's included) n tasks get: at most the
 * online cores, at most max (0: READER_MAX_THREADS), at most n, at least 1. */
size_t reader_task_threads(size_t n, size_t max);

/* fn(ctx, task, thread) for every task, thread being 0..threads-1 (for
 * per-thread scratch); returns when all are done. When a thread cannot be
 * started, the others do its share. */
typedef void (*reader_task_fn)(void *ctx, size_t task, size_t thread);
void reader_run_tasks(size_t n, size_t threads, reader_task_fn fn, void *ctx);

#endif
