/* recover_profile.h: the profile tables a process killed in profile mode
 * left beside its buffers (STEM-pN, preload/recording/profile_table.h),
 * added up for its rank as at a normal end. */
#ifndef SCOPE_RECOVER_PROFILE_H
#define SCOPE_RECOVER_PROFILE_H

#include <stddef.h>
#include <stdint.h>

#include "clock.h"
#include "event_groups.h"
#include "recover_processes.h"
#include "segment_decode.h"
#include "site_table.h"

/* Whether proc recorded in profile mode (it left a first table, of a
 * profile rather than of a trace's folded calls). */
int recover_is_profile(const struct recover_process *proc);

/* g->profile from proc's tables (none: left NULL), the call sites of its
 * paths into `sites`, their stacks read from buffers[b], the records of
 * buffer b (nbuffers of them); 0, or -1 with err. */
int recover_profile(const struct recover_process *proc, struct scope_event_groups *g,
                    const struct scope_thread_records *buffers, size_t nbuffers,
                    struct scope_site_table *sites, const uint32_t *hook_region, size_t nhooks,
                    size_t nregions, const struct scope_clock_map *map, char *err,
                    size_t errlen);

#endif
