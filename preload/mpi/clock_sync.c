/* clock_sync.c: node clocks against rank 0's (clock_sync.h). */
#include "clock_sync.h"

#define SYNC_ROUNDS 16
#define SYNC_MAX_ROUNDS 200
#define SYNC_GOOD_RTT_NS 50000

/* Rank 0's side of the ping-pong with node leader l: l's clock minus ours,
 * from the round trip with the smallest time (it bounds the error by half
 * of it). Goes on past SYNC_ROUNDS, up to SYNC_MAX_ROUNDS, while no round
 * trip was short: an oversubscribed node needs more tries. */
static struct scope_measured_offset measure_offset(const struct scope_merge_comms *c, int l)
{
    int64_t best_rtt = INT64_MAX, offset = 0, theirs;
    for (int k = 0;; k++) {
        int more = k + 1 < SYNC_ROUNDS || (best_rtt > SYNC_GOOD_RTT_NS && k + 1 < SYNC_MAX_ROUNDS);
        int64_t t0 = scope_monotonic_ns();
        PMPI_Send(&more, 1, MPI_INT, l, TAG_SYNC, c->leaders);
        PMPI_Recv(&theirs, 1, MPI_INT64_T, l, TAG_SYNC, c->leaders, MPI_STATUS_IGNORE);
        int64_t t1 = scope_monotonic_ns();
        if (t1 - t0 < best_rtt) {
            best_rtt = t1 - t0;
            offset = theirs - (t0 + (t1 - t0) / 2);
        }
        if (!more)
            return (struct scope_measured_offset){offset, best_rtt / 2};
    }
}

/* This rank's offset to rank 0's clock (0 on rank 0's node), with its
 * error. Ranks of one node share one clock: only the first rank of each
 * node measures it against rank 0, and tells the others of its node. */
struct scope_measured_offset scope_sync_clocks(const struct scope_merge_comms *c)
{
    int64_t pair[2] = {0, 0};
    int leaders, me;
    if (c->leaders != MPI_COMM_NULL) {
        PMPI_Comm_size(c->leaders, &leaders);
        PMPI_Comm_rank(c->leaders, &me);
        for (int l = 1; me == 0 && l < leaders; l++) {
            struct scope_measured_offset off = measure_offset(c, l);
            int64_t theirs[2] = {off.offset, off.error};
            PMPI_Send(theirs, 2, MPI_INT64_T, l, TAG_OFFSET, c->leaders);
        }
        for (int more = me != 0; more;) {
            PMPI_Recv(&more, 1, MPI_INT, 0, TAG_SYNC, c->leaders, MPI_STATUS_IGNORE);
            int64_t now = scope_monotonic_ns();
            PMPI_Send(&now, 1, MPI_INT64_T, 0, TAG_SYNC, c->leaders);
        }
        if (me != 0)
            PMPI_Recv(pair, 2, MPI_INT64_T, 0, TAG_OFFSET, c->leaders, MPI_STATUS_IGNORE);
    }
    PMPI_Bcast(pair, 2, MPI_INT64_T, 0, c->node);
    return (struct scope_measured_offset){pair[0], pair[1]};
}

void scope_settle_drift(struct scope_clock_offsets *o, int64_t error0, int64_t error1)
{
    int64_t change = o->offset1 - o->offset0;
    if (change <= error0 + error1 && -change <= error0 + error1)
        o->offset0 = o->offset1 = o->offset0 + change / 2;
}

