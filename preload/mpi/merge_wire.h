/* merge_wire.h: the layout of the messages a rank sends rank 0 at
 * MPI_Finalize (mpi_merge.c), each with its encoder and decoder side by
 * side: the rank's facts, each region's facts, and chunks of its calls.
 * Both sides run the same libscope on the same architecture, so fixed
 * fields travel in native byte order. */
#ifndef SCOPE_MERGE_WIRE_H
#define SCOPE_MERGE_WIRE_H

#include <stddef.h>
#include <stdint.h>

#include "event_groups.h"
#include "scope_writer.h"

/* One call: start, end (ns on rank 0's clock), thread, call site. */
#define SCOPE_WIRE_CALL_BYTES (8 + 8 + 4 + 4)
/* The largest message: a chunk of calls (the region message, whose
 * strings are names and paths, fits in it too). */
#define SCOPE_WIRE_MESSAGE_BYTES (SCOPE_CHUNK_EVENTS * SCOPE_WIRE_CALL_BYTES)

struct scope_wire_rank {
    int64_t pid, run_start_time, clock_offset_ns, dropped_events;
    int64_t nregions;              /* region messages that follow */
    char *hostname;                /* decoded: malloc'd, the caller frees it */
};

/* Writes the rank message into buf (SCOPE_WIRE_MESSAGE_BYTES); returns its
 * length. */
size_t scope_wire_rank_encode(char *buf, const struct scope_wire_rank *rank);
/* -1 when the message is short or memory runs out. */
int scope_wire_rank_decode(const char *buf, size_t len, struct scope_wire_rank *rank);

/* A region message: its facts and how many calls follow in chunks. */
size_t scope_wire_region_encode(char *buf, const struct scope_region_info *info, uint64_t calls);
/* Strings of info are malloc'd (scope_wire_region_free); -1 when the
 * message is short or memory runs out. */
int scope_wire_region_decode(const char *buf, size_t len, struct scope_region_info *info,
                             uint64_t *calls);
void scope_wire_region_free(struct scope_region_info *info);

/* A chunk of calls, call sites translated through site_map (NULL: none). */
size_t scope_wire_chunk_encode(char *buf, const struct scope_chunk *chunk, const int32_t *site_map);

struct scope_wire_chunk {
    size_t n;
    int64_t *start, *end;
    int32_t *thread, *callsite;   /* point into the message (call sites may be renumbered there) */
};
void scope_wire_chunk_decode(char *buf, size_t len, struct scope_wire_chunk *chunk);

#endif
