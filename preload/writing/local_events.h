/* local_events.h: this process's recorded calls, converted to ns on rank
 * 0's clock and grouped by region. */
#ifndef SCOPE_LOCAL_EVENTS_H
#define SCOPE_LOCAL_EVENTS_H

#include "clock.h"
#include "event_groups.h"
#include "scope_writer.h"
#include "site_table.h"

/* Collects every thread's records and puts them on rank 0's clock; the
 * call sites they name go into `sites` (initialised here, freed by the
 * caller). Returns 0 or -1 with err. */
int scope_local_events_build(struct scope_event_groups *g, struct scope_site_table *sites,
                             const struct scope_clock_offsets *to_root, char *err, size_t errlen);

/* The writer's attributes of region r of this process, from its first
 * hook (a scope_region_info_fn; ctx unused). */
struct scope_region_info scope_local_region_info(const struct scope_event_groups *g, size_t r,
                                                 const void *ctx);

#endif
