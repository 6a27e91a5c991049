/* neighbor_wrappers.c: the neighborhood collectives, blocking and
 * nonblocking, recorded with what they carried (wrapped_call.h) as the
 * point-to-point exchanges they are: one message sent to each
 * out-neighbor and one received from each in-neighbor of the
 * communicator's topology (Cartesian, graph or distributed graph; world
 * ranks through the communicator table), their bytes from the counts and
 * types given for that neighbor; a neighbor that is MPI_PROC_NULL (the
 * edge of a non-periodic grid) exchanges nothing. Their family is "p2p",
 * so they enter the communication matrix with their messages. */
#include "wrapped_call.h"

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

/* One side of the exchange: count x type to every neighbor, or counts[i]
 * of type (or of types[i]) to neighbor i. */
struct side {
    int count;
    const int *counts;
    MPI_Datatype type;
    const MPI_Datatype *types;
};

static int64_t side_bytes(const struct side *s, int i)
{
    return type_bytes(s->counts ? s->counts[i] : s->count, s->types ? s->types[i] : s->type);
}

/* The messages of a neighborhood collective on comm. */
static void add_exchange(struct wrapped_call *w, MPI_Comm comm, struct side sent,
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

/* A neighborhood collective and its nonblocking form: SENT and RECEIVED,
 * the initializers of struct sides, in parentheses, of the arguments. */
#define NEIGHBOR(F, NAME, IF, INAME, PARAMS, ARGS, SENT, RECEIVED)                            \
    NEIGHBOR_FORM(F, NAME, PARAMS, ARGS, SENT, RECEIVED)                                      \
    NEIGHBOR_FORM(IF, INAME, (UNPAREN PARAMS, MPI_Request *request), (UNPAREN ARGS, request), \
                  SENT, RECEIVED)

#define NEIGHBOR_FORM(F, NAME, PARAMS, ARGS, SENT, RECEIVED)                                  \
    EXPORT int MPI_##NAME PARAMS                                                             \
    {                                                                                        \
        struct wrapped_call w;                                                               \
        if (!call_begins(&w, SCOPE_WRAPPED_##F))                                             \
            return PMPI_##NAME ARGS;                                                         \
        int rc = PMPI_##NAME ARGS;                                                           \
        call_returned(&w);                                                                   \
        if (rc == MPI_SUCCESS)                                                               \
            add_exchange(&w, comm, (struct side){UNPAREN SENT},                             \
                         (struct side){UNPAREN RECEIVED});                             \
        call_ends(&w, __builtin_return_address(0));                                          \
        return rc;                                                                           \
    }

NEIGHBOR(NEIGHBOR_ALLGATHER, Neighbor_allgather, INEIGHBOR_ALLGATHER, Ineighbor_allgather,
         (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
          int recvcount, MPI_Datatype recvtype, MPI_Comm comm),
         (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm),
         (.count = sendcount, .type = sendtype), (.count = recvcount, .type = recvtype))
NEIGHBOR(NEIGHBOR_ALLGATHERV, Neighbor_allgatherv, INEIGHBOR_ALLGATHERV, Ineighbor_allgatherv,
         (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
          const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm),
         (sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm),
         (.count = sendcount, .type = sendtype), (.counts = recvcounts, .type = recvtype))
NEIGHBOR(NEIGHBOR_ALLTOALL, Neighbor_alltoall, INEIGHBOR_ALLTOALL, Ineighbor_alltoall,
         (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
          int recvcount, MPI_Datatype recvtype, MPI_Comm comm),
         (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm),
         (.count = sendcount, .type = sendtype), (.count = recvcount, .type = recvtype))
NEIGHBOR(NEIGHBOR_ALLTOALLV, Neighbor_alltoallv, INEIGHBOR_ALLTOALLV, Ineighbor_alltoallv,
         (const void *sendbuf, const int sendcounts[], const int sdispls[],
          MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[],
          MPI_Datatype recvtype, MPI_Comm comm),
         (sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm),
         (.counts = sendcounts, .type = sendtype), (.counts = recvcounts, .type = recvtype))
NEIGHBOR(NEIGHBOR_ALLTOALLW, Neighbor_alltoallw, INEIGHBOR_ALLTOALLW, Ineighbor_alltoallw,
         (const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
          const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
          const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm),
         (sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes,
          comm),
         (.counts = sendcounts, .types = sendtypes), (.counts = recvcounts, .types = recvtypes))
