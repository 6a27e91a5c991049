/* encode_threads.h: the threads a process may use at finalize to encode
 * its calls: as many as its node has idle cores (online CPUs minus the
 * node's ranks), at most one per column of a window, fewer when
 * SCOPE_FINALIZE_THREADS says so (0: none). They are scope's own: never
 * recorded, every signal blocked, bound to the CPUs the node's ranks do
 * not use when those are known. */
#ifndef SCOPE_ENCODE_THREADS_H
#define SCOPE_ENCODE_THREADS_H

#include <sched.h>

#include "encode_helpers.h"

/* The rule: helper threads for a process whose node has online_cpus CPUs
 * and ranks_on_node ranks, with limit the user's cap (-1: none). */
int scope_encode_helper_count(long online_cpus, long ranks_on_node, long limit);

/* Starts the helpers for a process of a node of ranks_on_node ranks whose
 * affinity masks together are `used` (NULL: unknown); returns how many. */
int scope_encode_threads_begin(long ranks_on_node, const cpu_set_t *used);
/* The helpers, NULL when there are none; for region_encoder_use_helpers. */
struct encode_helpers *scope_encode_threads(void);
void scope_encode_threads_end(void);

#endif
