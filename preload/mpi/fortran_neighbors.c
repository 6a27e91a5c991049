/* fortran_neighbors.c: the Fortran entry points of the neighborhood
 * collectives, blocking and nonblocking (fortran_call.h), recorded as the
 * C wrappers record them (neighbor_exchange.h): one message to each
 * out-neighbor and one from each in-neighbor of the communicator's
 * topology, with the counts and types given for that neighbor. */
#include "fortran_call.h"
#include "neighbor_exchange.h"

/* Argument positions (1-based) of one side's count (an array where
 * `counts`) and type (an array where `types`). */
struct side_desc {
    int count, type, counts, types;
};

struct neighbor_desc {
    enum scope_wrapped_function f;
    struct side_desc sent, received;
    int comm, ierr;
};

static struct side side_of(const struct side_desc *d, void *const *a)
{
    if (d->counts)
        return (struct side){.counts = fortran_counts(a, d->count),
                             .type = d->types ? MPI_DATATYPE_NULL : fortran_type(a, d->type),
                             .fortran_types = d->types ? fortran_arg(a, d->type) : NULL};
    return (struct side){.count = fortran_count(a, d->count), .type = fortran_type(a, d->type)};
}

static void neighbor_call(const struct neighbor_desc *d, fortran_fn real, void *caller, void **a)
{
    struct wrapped_call w;
    if (!fortran_timed(&w, d->f, real, a))
        return;
    if (fortran_succeeded(a, d->ierr))
        scope_neighbor_exchange(&w, PMPI_Comm_f2c(fint(a, d->comm)), side_of(&d->sent, a),
                                side_of(&d->received, a));
    call_ends(&w, caller);
}

/* A neighborhood collective and its nonblocking form, whose request comes
 * before ierror. */
#define NEIGHBOR(lower, upper, F, ilower, iupper, IF, SENT, RECEIVED, COMM)                   \
    FORTRAN_COUNTS(lower, upper, neighbor_call, struct neighbor_desc,                         \
                    .f = SCOPE_WRAPPED_##F, .sent = {UNPAREN SENT},                           \
                    .received = {UNPAREN RECEIVED}, .comm = COMM, .ierr = COMM + 1)           \
    FORTRAN_COUNTS(ilower, iupper, neighbor_call, struct neighbor_desc,                       \
                    .f = SCOPE_WRAPPED_##IF, .sent = {UNPAREN SENT},                          \
                    .received = {UNPAREN RECEIVED}, .comm = COMM, .ierr = COMM + 2)

/* (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, ierror) */
NEIGHBOR(mpi_neighbor_allgather, MPI_NEIGHBOR_ALLGATHER, NEIGHBOR_ALLGATHER,
         mpi_ineighbor_allgather, MPI_INEIGHBOR_ALLGATHER, INEIGHBOR_ALLGATHER,
         (.count = 2, .type = 3), (.count = 5, .type = 6), 7)
NEIGHBOR(mpi_neighbor_alltoall, MPI_NEIGHBOR_ALLTOALL, NEIGHBOR_ALLTOALL,
         mpi_ineighbor_alltoall, MPI_INEIGHBOR_ALLTOALL, INEIGHBOR_ALLTOALL,
         (.count = 2, .type = 3), (.count = 5, .type = 6), 7)
/* (sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm, ierror) */
NEIGHBOR(mpi_neighbor_allgatherv, MPI_NEIGHBOR_ALLGATHERV, NEIGHBOR_ALLGATHERV,
         mpi_ineighbor_allgatherv, MPI_INEIGHBOR_ALLGATHERV, INEIGHBOR_ALLGATHERV,
         (.count = 2, .type = 3), (.count = 5, .counts = 1, .type = 7), 8)
/* (sendbuf, sendcounts, sdispls, sendtype(s), recvbuf, recvcounts, rdispls, recvtype(s),
 *  comm, ierror) */
NEIGHBOR(mpi_neighbor_alltoallv, MPI_NEIGHBOR_ALLTOALLV, NEIGHBOR_ALLTOALLV,
         mpi_ineighbor_alltoallv, MPI_INEIGHBOR_ALLTOALLV, INEIGHBOR_ALLTOALLV,
         (.count = 2, .counts = 1, .type = 4), (.count = 6, .counts = 1, .type = 8), 9)
NEIGHBOR(mpi_neighbor_alltoallw, MPI_NEIGHBOR_ALLTOALLW, NEIGHBOR_ALLTOALLW,
         mpi_ineighbor_alltoallw, MPI_INEIGHBOR_ALLTOALLW, INEIGHBOR_ALLTOALLW,
         (.count = 2, .counts = 1, .type = 4, .types = 1),
         (.count = 6, .counts = 1, .type = 8, .types = 1), 9)
