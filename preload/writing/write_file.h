/* write_file.h: writes the whole HDF5 file in the rank that owns it:
 * metadata, its own events, then whatever other ranks stream in. */
#ifndef SCOPE_WRITE_FILE_H
#define SCOPE_WRITE_FILE_H

#include "callsite_set.h"
#include "local_events.h"
#include "scope_writer.h"

/* Writes the other ranks' data (MPI), adding their call sites to
 * `callsites`; counts their events into *events. */
typedef int (*scope_more_ranks_fn)(const struct scope_writer_api *api, scope_writer *w,
                                   struct scope_callsite_set *callsites, void *ctx, size_t *events);

/* Returns 0 when the file is complete, -1 after saying why. `sites`: the
 * call sites of this process's events. */
int scope_write_file(int nranks, int64_t run_start_time, const struct scope_rank_info *own,
                     struct scope_event_groups *le, const struct scope_site_table *sites,
                     scope_more_ranks_fn more, void *ctx);

#endif
