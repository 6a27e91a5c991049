/* neighbor_exchange.c: the messages of a neighborhood collective, for the
 * C wrappers (neighbor_wrappers.c) and the Fortran ones
 * (fortran_neighbors.c): one sent to each out-neighbor and one received
 * from each in-neighbor of the communicator's topology (Cartesian, graph
 * or distributed graph; world ranks through the communicator table), their
 * bytes from the counts and types given for that neighbor; a neighbor that
 * is MPI_PROC_NULL (the edge of a non-periodic grid) exchanges nothing. */
#include "neighbor_exchange.h"

/* A communicator's neighbors in the topology's order, as its ranks (and
 * room for a distributed graph's weights, which scope ignores). */
struct neighbors {
    int nin, nout;
    int *in, *out, *weights;
    int small[4 * SMALL];
};

static void neighbors_free(struct neighbors *nb)
{
    if (nb->in != nb->small)
        free(nb->in);
}

/* Room for nin + nout ranks and their weights; -1 when out of memory. */
static int neighbors_room(struct neighbors *nb, int nin, int nout)
{
    nb->nin = nin;
    nb->nout = nout;
    size_t n = (size_t)nin + (size_t)nout;
    nb->in = 2 * n <= 4 * SMALL ? nb->small : malloc(2 * n * sizeof *nb->in);
    nb->out = nb->in ? nb->in + nin : NULL;
    nb->weights = nb->in ? nb->in + n : NULL;
    return nb->in ? 0 : -1;
}

/* 0, or -1 when comm has no topology (or MPI or memory failed). */
static int neighbors_of(MPI_Comm comm, struct neighbors *nb)
{
    int topology, n, weighted, rank;
    if (PMPI_Topo_test(comm, &topology) != MPI_SUCCESS)
        return -1;
    switch (topology) {
    case MPI_CART:
        if (PMPI_Cartdim_get(comm, &n) != MPI_SUCCESS || neighbors_room(nb, 2 * n, 2 * n) != 0)
            return -1;
        for (int d = 0; d < n; d++)
            if (PMPI_Cart_shift(comm, d, 1, &nb->in[2 * d], &nb->in[2 * d + 1]) != MPI_SUCCESS)
                return neighbors_free(nb), -1;
        memcpy(nb->out, nb->in, (size_t)nb->nin * sizeof *nb->in);
        return 0;
    case MPI_GRAPH:
        if (PMPI_Comm_rank(comm, &rank) != MPI_SUCCESS ||
            PMPI_Graph_neighbors_count(comm, rank, &n) != MPI_SUCCESS ||
            neighbors_room(nb, n, n) != 0)
            return -1;
        if (PMPI_Graph_neighbors(comm, rank, n, nb->in) != MPI_SUCCESS)
            return neighbors_free(nb), -1;
        memcpy(nb->out, nb->in, (size_t)n * sizeof *nb->in);
        return 0;
    case MPI_DIST_GRAPH: {
        int nin, nout;
        if (PMPI_Dist_graph_neighbors_count(comm, &nin, &nout, &weighted) != MPI_SUCCESS ||
            neighbors_room(nb, nin, nout) != 0)
            return -1;
        if (PMPI_Dist_graph_neighbors(comm, nin, nb->in, nb->weights, nout, nb->out,
                                      nb->weights + nin) != MPI_SUCCESS)
            return neighbors_free(nb), -1;
        return 0;
    }
    }
    return -1;
}

static int64_t side_bytes(const struct side *s, int i)
{
    MPI_Datatype type = s->types          ? s->types[i]
                        : s->fortran_types ? PMPI_Type_f2c(s->fortran_types[i])
                                           : s->type;
    return type_bytes(has_counts(s->counts) ? count_at(s->counts, i) : s->count, type);
}

void scope_neighbor_exchange(struct wrapped_call *w, MPI_Comm comm, struct side sent,
                         struct side received)
{
    const struct scope_comm *c = scope_comm_of(comm);
    struct neighbors nb;
    if (!c || neighbors_of(comm, &nb) != 0) {
        add_item(w, SCOPE_ITEM_CALL, 0, -1, -1, c);
        return;
    }
    for (int i = 0; i < nb.nout; i++)
        if (nb.out[i] != MPI_PROC_NULL)
            add_item(w, SCOPE_ITEM_SENT, side_bytes(&sent, i),
                     scope_comm_world_rank(c, nb.out[i]), -1, c);
    for (int i = 0; i < nb.nin; i++)
        if (nb.in[i] != MPI_PROC_NULL)
            add_item(w, SCOPE_ITEM_RECEIVED, side_bytes(&received, i),
                     scope_comm_world_rank(c, nb.in[i]), -1, c);
    if (w->n == 0)   /* no neighbor at all */
        add_item(w, SCOPE_ITEM_CALL, 0, -1, -1, c);
    neighbors_free(&nb);
}

