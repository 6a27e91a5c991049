/* merge_comms.h: the communicators scope's end of an MPI run uses, all of
 * them its own (no message of the application can match its tags): every
 * rank, the ranks of each node (they share one clock and one writer), and
 * the first rank of each node. node_comms.c makes them at MPI_Init. */
#ifndef SCOPE_MERGE_COMMS_H
#define SCOPE_MERGE_COMMS_H

#include <mpi.h>

/* Tags of the merge's messages (clock_sync.c, callsite_exchange.c,
 * rank_messages.c, node_writer.c). */
enum { TAG_SYNC = 1, TAG_OFFSET, TAG_SITES, TAG_SITE_MAP, TAG_GO, TAG_RANK, TAG_REGION,
       TAG_PEERS, TAG_WINDOW, TAG_COMMS, TAG_COMM_MAP };

struct scope_merge_comms {
    MPI_Comm world;     /* a duplicate of MPI_COMM_WORLD; MPI_COMM_NULL before MPI_Init */
    MPI_Comm node;      /* the ranks of this rank's node, in rank order */
    MPI_Comm leaders;   /* the first rank of each node (rank 0 first); */
                        /* MPI_COMM_NULL on the other ranks */
    int rank, size;     /* in world */
    int node_index;     /* this rank's node: its first rank's rank in leaders */
    int nodes;          /* how many there are */
};

/* Makes them (collective). Ranks of one shared-memory node form a node, or,
 * with SCOPE_TEST_RANKS_PER_NODE=N (test-only), pretend nodes of N ranks in
 * rank order, so that every multi-node path runs on one machine. */
void scope_merge_comms_open(struct scope_merge_comms *c);
void scope_merge_comms_close(struct scope_merge_comms *c);

#endif
