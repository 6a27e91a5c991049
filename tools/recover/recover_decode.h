/* recover_decode.h: one dead process's records as the writer takes them:
 * its buffer segments and spill files decoded into events grouped by
 * region on rank 0's clock, its regions' attributes from its hook table,
 * and its call sites named from the copy of its maps. */
#ifndef SCOPE_RECOVER_DECODE_H
#define SCOPE_RECOVER_DECODE_H

#include <stdint.h>
#include <stdio.h>

#include "callsite_set.h"
#include "event_groups.h"
#include "recover_processes.h"
#include "scope_writer.h"

/* Groups one process's events by its regions, on rank 0's clock; the
 * strings stay valid as long as its meta segment is mapped. *dropped: the
 * calls its threads could not record. 0, or -1 with err. */
int recover_group_process(const struct recover_process *proc, struct scope_event_groups *g,
                          struct scope_site_table *sites, size_t *events, uint64_t *dropped,
                          char *err, size_t errlen);

/* A region's attributes (scope_region_info_fn; ctx: the meta segment). */
struct scope_region_info recover_region_info(const struct scope_event_groups *g, size_t r,
                                             const void *ctx);

/* Names the process's call sites into the run's; *map as
 * scope_callsites_resolve gives it, NULL when they cannot be named (said
 * on report: the calls are kept without them). */
void recover_name_callsites(const struct recover_process *proc,
                            const struct scope_site_table *sites,
                            struct scope_callsite_set *run_sites, int32_t **map, FILE *report);

#endif
