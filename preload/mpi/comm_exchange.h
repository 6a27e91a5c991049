/* comm_exchange.h: every rank's communicators (its own ids and their
 * members) to rank 0, which gives the run's ids (comm_merge.h) in rank
 * order and sends each rank its map back, so that every rank encodes its
 * calls with the run's ids; rank 0 keeps the run's table for /metadata. */
#ifndef SCOPE_COMM_EXCHANGE_H
#define SCOPE_COMM_EXCHANGE_H

#include "comm_merge.h"
#include "event_groups.h"
#include "merge_comms.h"

/* Collective over the run. Sets le's comm_ids; on rank 0, *merged is the
 * run's table (free it; initialised here on every rank). */
void scope_exchange_comms(const struct scope_merge_comms *c, struct scope_event_groups *le,
                          struct scope_comm_merge *merged);

#endif
