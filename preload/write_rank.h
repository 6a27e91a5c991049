/* write_rank.h: hands one process's grouped events to the writer as one
 * /rank{N} group, chunk by chunk. */
#ifndef SCOPE_WRITE_RANK_H
#define SCOPE_WRITE_RANK_H

#include "local_events.h"
#include "scope_writer.h"

/* The writer's attributes of region r, from its first hook. */
struct scope_region_info scope_region_info_of(const struct scope_event_groups *le, size_t r);

int scope_write_rank(const struct scope_writer_api *api, scope_writer *w,
                     const struct scope_rank_info *rank, const struct scope_event_groups *le);

#endif
