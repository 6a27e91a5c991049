/* clock_sync.h: each node's clock against rank 0's: the first rank of each
 * node measures it by a min-RTT ping-pong with rank 0 and gives it to the
 * ranks of its node (they share one clock); at MPI_Init and again at
 * MPI_Finalize, whose two offsets give the drift. */
#ifndef SCOPE_CLOCK_SYNC_H
#define SCOPE_CLOCK_SYNC_H

#include <stdint.h>

#include "clock.h"
#include "merge_comms.h"

/* A clock offset and the bound of its error. */
struct scope_measured_offset {
    int64_t offset, error;
};

/* This rank's clock minus rank 0's (0 on rank 0's node). Collective. */
struct scope_measured_offset scope_sync_clocks(const struct scope_merge_comms *c);

/* The offsets at MPI_Init and at MPI_Finalize give the clock's drift only
 * when they differ by more than their errors: a drift read from noise
 * would stretch every duration of the node (by 0.05 % seen on a loaded
 * node). Else their mean holds for the whole run. */
void scope_settle_drift(struct scope_clock_offsets *o, int64_t error0, int64_t error1);

#endif
