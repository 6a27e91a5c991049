/* write_rank.h: hands one process's grouped events to the writer as one
 * /rank{N} group, chunk by chunk. MPI-free and process-free: the live
 * library and `scope recover` both write ranks through it. */
#ifndef SCOPE_WRITE_RANK_H
#define SCOPE_WRITE_RANK_H

#include "event_groups.h"
#include "scope_writer.h"

/* The writer's attributes of region r (name, symbol, library, address). */
typedef struct scope_region_info (*scope_region_info_fn)(const struct scope_event_groups *g,
                                                         size_t r, const void *ctx);

int scope_write_rank(const struct scope_writer_api *api, scope_writer *w,
                     const struct scope_rank_info *rank, struct scope_event_groups *g,
                     scope_region_info_fn region_info, const void *ctx);

#endif
