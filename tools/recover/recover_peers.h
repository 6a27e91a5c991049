/* recover_peers.h: the peer totals a killed process left in its
 * peer-totals tables (STEM-mN, preload/recording/peer_totals.h), added up
 * by region as at a normal end. */
#ifndef SCOPE_RECOVER_PEERS_H
#define SCOPE_RECOVER_PEERS_H

#include <stddef.h>
#include <stdint.h>

#include "event_groups.h"
#include "recover_processes.h"

/* g->peers from proc's tables (none: empty), hook h's totals in region
 * hook_region[h], its family from hook_symbol[h]; 0, or -1 with err. */
int recover_peers(const struct recover_process *proc, struct scope_event_groups *g,
                  const uint32_t *hook_region, const char *const *hook_symbol, size_t nhooks,
                  size_t nregions, char *err, size_t errlen);

#endif
