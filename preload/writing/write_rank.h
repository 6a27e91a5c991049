/* write_rank.h: hands one process's grouped events to the writer as one
 * /rank{N} group, encoded here window by window (on the finalize threads
 * of encode_threads.c when there are any) and placed by put_window, and the run's call sites at the end. MPI-free and process-free: the live
 * library and `scope recover` both write ranks through it. */
#ifndef SCOPE_WRITE_RANK_H
#define SCOPE_WRITE_RANK_H

#include "callsite_set.h"
#include "event_groups.h"
#include "region_encode.h"
#include "scope_writer.h"

/* The writer's attributes of region r (name, symbol, library, address). */
typedef struct scope_region_info (*scope_region_info_fn)(const struct scope_event_groups *g,
                                                         size_t r, const void *ctx);

/* callsite_map: the id in the file of each of the process's call sites
 * (its events' callsite and its profile's path sites, named here), NULL
 * when it has none. began_ns: when the caller's step began (monotonic), for
 * a progress line on a terminal once it has taken a second (log.h). */
int scope_write_rank(const struct scope_writer_api *api, scope_writer *w,
                     const struct scope_rank_info *rank, struct scope_event_groups *g,
                     const int32_t *callsite_map, scope_region_info_fn region_info,
                     const void *ctx, int64_t began_ns);

/* Region r's calls encoded window by window as the file stores them,
 * each window handed to emit (call sites mapped through callsite_map, as
 * scope_chunk_callsites does; what the calls carried too as
 * payload_kind, REGION_*_PAYLOAD, says, and the values they recorded, if
 * any). 0, or -1 with *why when encoding or emit failed; a failed merge
 * shows in scope_event_groups_error. */
int scope_encode_region(struct scope_event_groups *g, size_t r, const int32_t *callsite_map,
                        int payload_kind, struct region_encoder *enc, struct scope_chunk *chunk,
                        region_window_fn emit, void *ctx, const char **why);

/* The run's call-site table, after every rank (nothing when it is empty). */
int scope_write_callsites(const struct scope_writer_api *api, scope_writer *w,
                          const struct scope_callsite_set *callsites);

/* The call-site ids to append with a chunk of n events (mapped in place
 * through map), or NULL when none of them has one. */
int32_t *scope_chunk_callsites(int32_t *ids, size_t n, const int32_t *map);

#endif
