/* merge_wire.h: the layout of the messages a rank sends rank 0 at
 * MPI_Finalize (mpi_merge.c), each with its encoder and decoder side by
 * side: the rank's facts, each region's facts and its peer totals (rows
 * in as many messages as they take), and windows of its calls encoded as
 * the file stores them (region_encode.h).
 * Both sides run the same libscope on the same architecture, so fixed
 * fields travel in native byte order. */
#ifndef SCOPE_MERGE_WIRE_H
#define SCOPE_MERGE_WIRE_H

#include <stddef.h>
#include <stdint.h>

#include "scope_writer.h"

/* The largest message: a window (the rank and region messages, whose
 * strings are names and paths, fit in it too). */
#define SCOPE_WIRE_MESSAGE_BYTES (256 + region_window_max_bytes())

struct scope_wire_rank {
    int64_t pid, run_start_time, clock_offset_ns, dropped_events;
    int64_t nregions;              /* region messages that follow */
    char *hostname;                /* decoded: malloc'd, the caller frees it */
    int32_t *callpath_parents;     /* profile mode (else NULL); decoded: malloc'd */
    int64_t ncallpaths;
    int64_t trace_limit_passed_ns; /* 0: it did not (scope_rank_info) */
};

/* Writes the rank message into buf (SCOPE_WIRE_MESSAGE_BYTES); returns its
 * length. */
size_t scope_wire_rank_encode(char *buf, const struct scope_wire_rank *rank);
/* -1 when the message is short or memory runs out. */
int scope_wire_rank_decode(const char *buf, size_t len, struct scope_wire_rank *rank);

/* A region message: its facts and how many calls follow in chunks. Its
 * peer totals (info->peers) travel in messages of their own that follow
 * it, before its windows (scope_wire_peers_encode): the region message
 * says how many rows and their family. */
size_t scope_wire_region_encode(char *buf, const struct scope_region_info *info, uint64_t calls);
/* Strings of info, and its profile, are malloc'd (scope_wire_region_free);
 * info->peers, when rows follow, has room for all of them (its n), none
 * filled yet (scope_wire_peers_decode); -1 when the message is short or
 * memory runs out. */
int scope_wire_region_decode(const char *buf, size_t len, struct scope_region_info *info,
                             uint64_t *calls);
/* The peer-total rows that follow a region message (0 when it is short). */
uint64_t scope_wire_region_peer_rows(const char *buf, size_t len);
void scope_wire_region_free(struct scope_region_info *info);

/* The most peer-total rows one message holds (about 350 000). */
size_t scope_wire_peers_max_rows(void);
/* Rows from .. from + count - 1 of p (count at most
 * scope_wire_peers_max_rows()) as one message: its length. */
size_t scope_wire_peers_encode(char *buf, const struct scope_peer_totals *p, size_t from,
                               size_t count);
/* A message of rows into p, which holds *filled rows so far; *filled moves
 * past the message's rows, even when they cannot be placed (p NULL, rows
 * beyond p->n or out of order: -1), or to SIZE_MAX when it is malformed
 * (-1: expect no more). */
int scope_wire_peers_decode(const char *buf, size_t len, struct scope_peer_totals *p,
                            size_t *filled);

/* A window of a region's calls: its length. */
size_t scope_wire_window_encode(char *buf, const struct region_window *win);
/* win's data point into buf; -1 when the message is malformed. */
int scope_wire_window_decode(const char *buf, size_t len, struct region_window *win);

#endif
