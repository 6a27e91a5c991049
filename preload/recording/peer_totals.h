/* peer_totals.h: what an MPI function's calls moved to and from each peer
 * (world rank), added up per process instead of stored per call: the
 * messages of the calls not stored as rows (profile mode, folded calls of
 * a trace) and the bytes a v or w collective moves to each peer (its row
 * keeps the total only). Keyed by (hook, peer, direction), each key
 * holding messages and bytes; one table per thread, so that adding takes
 * no lock, all of them read at the end. Memory grows with the distinct
 * keys only. Each table lives in a shared-memory segment of its own
 * (/dev/shm/STEM-mN, N the table's number in the process, from 0 without
 * gaps), so that `scope recover` reads what a killed process had added up:
 * a header (struct scope_peer_table_header) then `capacity` slots (struct
 * scope_peer_total; messages == 0: free), open addressing on the key. A
 * table that fills to half is copied whole into a new segment of twice
 * the slots (STEM-mN-next), which then replaces the old one by rename:
 * whenever the process is stopped, STEM-mN is a whole table, the slot
 * being written at most one message short. Ordinary C: scope's MPI
 * wrappers call it, not the hot path. */
#ifndef SCOPE_PEER_TOTALS_H
#define SCOPE_PEER_TOTALS_H

#include <stddef.h>
#include <stdint.h>

#define SCOPE_PEER_TABLE_MAGIC "SCOPEPT1"

/* SCOPE_PEER_CALLS: the bytes of calls not stored as rows that no message
 * carries (a collective's, a one-sided or I/O call's), by the call's one
 * peer (-1: none or several); messages counts those calls. */
enum scope_peer_direction { SCOPE_PEER_SENT = 0, SCOPE_PEER_RECEIVED = 1, SCOPE_PEER_CALLS = 2 };

struct scope_peer_total {
    uint32_t hook;
    int32_t peer;                  /* world rank (SCOPE_PEER_CALLS: -1 too) */
    int32_t direction;             /* enum scope_peer_direction */
    uint64_t messages, bytes;
};

struct scope_peer_table_header {
    char magic[8];
    int32_t pid;
    int32_t reserved;
    uint64_t capacity;             /* slots that follow, a power of two */
    uint64_t used;                 /* slots in use */
};

/* The bytes of a table segment of `capacity` slots. */
static inline size_t scope_peer_table_bytes(uint64_t capacity)
{
    return sizeof(struct scope_peer_table_header) +
           (size_t)capacity * sizeof(struct scope_peer_total);
}

/* One message (or one collective's share) of `bytes` sent to or received
 * from world rank `peer` by a call of `hook`, or one call's own bytes
 * (SCOPE_PEER_CALLS); dropped when memory runs out, peer is no rank (but
 * -1 for SCOPE_PEER_CALLS) or the tables were removed. */
void scope_peer_totals_add(uint32_t hook, int32_t peer, enum scope_peer_direction direction,
                           int64_t bytes);

/* Every thread's totals, one entry per key (in no order), malloc'd into
 * *out (the caller frees it); -1 when out of memory. Called at the end,
 * when the threads no longer make MPI calls. */
int scope_peer_totals_collect(struct scope_peer_total **out, size_t *count);

/* Unmaps and removes the segments (after the file was written); later
 * adds are dropped. */
void scope_peer_totals_remove(void);

/* A forked child starts with none: its parent's are in the parent's file. */
void scope_peer_totals_after_fork_child(void);

#endif
