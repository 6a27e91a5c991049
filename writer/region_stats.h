/* region_stats.h: the summary of one region's calls on one rank, stored by
 * the writer as attributes of the region group so that `scope summary` need
 * not read every call (readers of the seed layout ignore them):
 *   calls, total_ns, min_ns, max_ns   int64: count and durations
 *   m2_ns2                            double: sum of squared deviations of
 *                                     the durations from their mean
 *   first_start_ns, last_end_ns       int64: earliest start, latest end
 *   self_ns                           int64, only when the caller knew it */
#ifndef SCOPE_REGION_STATS_H
#define SCOPE_REGION_STATS_H

#include "call_stats.h"
#include "h5_util.h"

/* Writes the attributes listed above on `group` (self_ns when has_self). */
int region_stats_write(const struct call_stats *s, hid_t group, int has_self, int64_t self_ns,
                       const struct h5_err *e);

#endif
