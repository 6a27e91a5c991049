/* region_peers.h: the process's peer totals (peer_totals.h), kept per
 * hook, added up per region as the file stores them (scope_writer.h's
 * scope_peer_totals: sorted by peer, then direction). */
#ifndef SCOPE_REGION_PEERS_H
#define SCOPE_REGION_PEERS_H

#include <stddef.h>
#include <stdint.h>

#include "peer_totals.h"
#include "scope_writer.h"

struct scope_region_peers {
    struct scope_peer_totals *region;   /* nregions, pointing into the arrays */
    int32_t *peer;
    int8_t *direction;
    int64_t *messages, *bytes;
};

/* The n totals of `totals` (sorted here), hook h's in region
 * hook_region[h] (nhooks of them; others dropped), into rp, each region's
 * family that of its hooks' symbols (hook_symbol); -1 when out of memory
 * (rp then empty). */
int scope_region_peers_build(struct scope_region_peers *rp, struct scope_peer_total *totals,
                             size_t n, const uint32_t *hook_region,
                             const char *const *hook_symbol, size_t nhooks, size_t nregions);
/* Region r's: its totals (n 0 when none) and family when it is an MPI
 * function's with payload, NULL when it has neither. */
const struct scope_peer_totals *scope_region_peers_of(const struct scope_region_peers *rp,
                                                      size_t r);
void scope_region_peers_free(struct scope_region_peers *rp);

#endif
