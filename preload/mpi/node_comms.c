/* node_comms.c: the merge's communicators (merge_comms.h). Rank 0 is the
 * first rank of its node, since ranks keep their order. */
#include "merge_comms.h"

#include <stdlib.h>

void scope_merge_comms_open(struct scope_merge_comms *c)
{
    PMPI_Comm_dup(MPI_COMM_WORLD, &c->world);
    PMPI_Comm_rank(c->world, &c->rank);
    PMPI_Comm_size(c->world, &c->size);
    const char *v = getenv("SCOPE_TEST_RANKS_PER_NODE");
    int per_node = v ? atoi(v) : 0;
    if (per_node > 0)
        PMPI_Comm_split(c->world, c->rank / per_node, c->rank, &c->node);
    else
        PMPI_Comm_split_type(c->world, MPI_COMM_TYPE_SHARED, c->rank, MPI_INFO_NULL, &c->node);
    int node_rank;
    PMPI_Comm_rank(c->node, &node_rank);
    PMPI_Comm_split(c->world, node_rank == 0 ? 0 : MPI_UNDEFINED, c->rank, &c->leaders);
    c->node_index = 0;
    c->nodes = 1;
    if (c->leaders != MPI_COMM_NULL) {
        PMPI_Comm_rank(c->leaders, &c->node_index);
        PMPI_Comm_size(c->leaders, &c->nodes);
    }
    PMPI_Bcast(&c->node_index, 1, MPI_INT, 0, c->node);
    PMPI_Bcast(&c->nodes, 1, MPI_INT, 0, c->world);
}

void scope_merge_comms_close(struct scope_merge_comms *c)
{
    if (c->leaders != MPI_COMM_NULL)
        PMPI_Comm_free(&c->leaders);
    PMPI_Comm_free(&c->node);
    PMPI_Comm_free(&c->world);
}
