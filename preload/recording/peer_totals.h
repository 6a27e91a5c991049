/* peer_totals.h: what an MPI function's calls moved to and from each peer
 * (world rank), added up per process instead of stored per call: the
 * messages of the calls not stored as rows (profile mode, folded calls of
 * a trace) and the bytes a v or w collective moves to each peer (its row
 * keeps the total only). Keyed by (hook, peer, direction), each key
 * holding messages and bytes; one table per thread, so that adding takes
 * no lock, all of them read at the end. Memory grows with the distinct
 * keys only. Ordinary C: scope's MPI wrappers call it, not the hot path. */
#ifndef SCOPE_PEER_TOTALS_H
#define SCOPE_PEER_TOTALS_H

#include <stddef.h>
#include <stdint.h>

enum scope_peer_direction { SCOPE_PEER_SENT = 0, SCOPE_PEER_RECEIVED = 1 };

struct scope_peer_total {
    uint32_t hook;
    int32_t peer;                  /* world rank */
    int32_t direction;             /* enum scope_peer_direction */
    uint64_t messages, bytes;
};

/* One message (or one collective's share) of `bytes` sent to or received
 * from world rank `peer` by a call of `hook`; dropped when memory runs
 * out or peer is no rank. */
void scope_peer_totals_add(uint32_t hook, int32_t peer, enum scope_peer_direction direction,
                           int64_t bytes);

/* Every thread's totals, one entry per key (in no order), malloc'd into
 * *out (the caller frees it); -1 when out of memory. Called at the end,
 * when the threads no longer make MPI calls. */
int scope_peer_totals_collect(struct scope_peer_total **out, size_t *count);

/* A forked child starts with none: its parent's are in the parent's file. */
void scope_peer_totals_after_fork_child(void);

#endif
