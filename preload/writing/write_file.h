/* write_file.h: writes the whole HDF5 file in the rank that owns it:
 * metadata, its own events, then whatever other ranks stream in. */
#ifndef SCOPE_WRITE_FILE_H
#define SCOPE_WRITE_FILE_H

#include "callsite_set.h"
#include "local_events.h"
#include "scope_writer.h"

/* Writes the other ranks' data (MPI); counts their calls into *events. */
typedef int (*scope_more_ranks_fn)(const struct scope_writer_api *api, scope_writer *w,
                                   void *ctx, size_t *events);

/* This process's call sites named into a new set `callsites` (free it);
 * *ids: each one's id there, NULL when it has none. When they cannot be
 * named, says so in one line and leaves them out. */
void scope_write_file_callsites(const struct scope_site_table *sites,
                                struct scope_callsite_set *callsites, int32_t **ids);

/* Returns 0 when the file is complete, -1 after saying why. `callsites`:
 * the run's call sites (every rank's), `own_ids` the id there of each of
 * this process's (NULL: none); `comms` the run's communicators (NULL:
 * none). */
int scope_write_file(int nranks, int64_t run_start_time, const struct scope_rank_info *own,
                     struct scope_event_groups *le, const struct scope_callsite_set *callsites,
                     const int32_t *own_ids, const struct scope_comm_table *comms,
                     scope_more_ranks_fn more, void *ctx);

/* Says in one line why the file was not written (`why`) and that the
 * records are kept for `scope recover --run PID` (the run's pid). */
void scope_write_failed(const char *why);

/* The run's file: the configured output, expanded (rank 0's). */
void scope_output_file_path(char *path, size_t len);

/* A node's part of a run written on several nodes, at `path` (its
 * directory created): this process's rank, then the others of the node
 * (more); *events counts the calls. 0, or -1 after saying why. */
int scope_write_part(const char *path, const struct scope_rank_info *own,
                     struct scope_event_groups *le, const int32_t *own_ids,
                     scope_more_ranks_fn more, void *ctx, size_t *events);

#endif
