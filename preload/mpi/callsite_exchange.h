/* callsite_exchange.h: every rank names its call sites (addresses mean
 * nothing in another process) and sends them to rank 0, which adds them to
 * the run's set in rank order and gives back their ids in the file, so
 * that each rank encodes its calls with the file's ids. */
#ifndef SCOPE_CALLSITE_EXCHANGE_H
#define SCOPE_CALLSITE_EXCHANGE_H

#include <stdint.h>

#include "callsite_set.h"
#include "merge_comms.h"
#include "site_table.h"

/* Rank 0: every other rank's sites into set (an empty map back to a rank
 * whose sites cannot be merged: they are left out). */
void scope_merge_callsites(const struct scope_merge_comms *c, struct scope_callsite_set *set);

/* Another rank: each of its sites' id in the file, or NULL when it has none
 * (or they were left out); malloc'd. */
int32_t *scope_send_callsites(const struct scope_merge_comms *c, const struct scope_site_table *sites);

#endif
