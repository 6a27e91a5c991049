/* write_rank.h: hands one process's grouped events to the writer as one
 * /rank{N} group, chunk by chunk, and the run's call sites at the end. MPI-free and process-free: the live
 * library and `scope recover` both write ranks through it. */
#ifndef SCOPE_WRITE_RANK_H
#define SCOPE_WRITE_RANK_H

#include "callsite_set.h"
#include "event_groups.h"
#include "scope_writer.h"

/* The writer's attributes of region r (name, symbol, library, address). */
typedef struct scope_region_info (*scope_region_info_fn)(const struct scope_event_groups *g,
                                                         size_t r, const void *ctx);

/* callsite_map: the id in the file of each of the process's call sites
 * (its events' callsite), NULL when it has none. */
int scope_write_rank(const struct scope_writer_api *api, scope_writer *w,
                     const struct scope_rank_info *rank, struct scope_event_groups *g,
                     const int32_t *callsite_map, scope_region_info_fn region_info,
                     const void *ctx);

/* The run's call-site table, after every rank (nothing when it is empty). */
int scope_write_callsites(const struct scope_writer_api *api, scope_writer *w,
                          const struct scope_callsite_set *callsites);

/* The call-site ids to append with a chunk of n events (mapped in place
 * through map), or NULL when none of them has one. */
int32_t *scope_chunk_callsites(int32_t *ids, size_t n, const int32_t *map);

#endif
