/* neighbor_wrappers.c: the neighborhood collectives, blocking and
 * nonblocking, recorded with what they carried (wrapped_call.h) as the
 * point-to-point exchanges they are (neighbor_exchange.h: one message to
 * each out-neighbor, one from each in-neighbor). Their family is "p2p",
 * so they enter the communication matrix with their messages. */
#include "neighbor_exchange.h"

/* A neighborhood collective and its nonblocking form: SENT and RECEIVED,
 * the initializers of struct sides, in parentheses, of the arguments. */
#define NEIGHBOR(F, NAME, IF, INAME, PARAMS, ARGS, SENT, RECEIVED)                            \
    NEIGHBOR_FORM(F, NAME, PARAMS, ARGS, SENT, RECEIVED)                                      \
    NEIGHBOR_FORM(IF, INAME, (UNPAREN PARAMS, MPI_Request *request), (UNPAREN ARGS, request), \
                  SENT, RECEIVED)

#define NEIGHBOR_FORM(F, NAME, PARAMS, ARGS, SENT, RECEIVED)                                  \
    WRAPPED(F, NAME, PARAMS, ARGS,                                                           \
            scope_neighbor_exchange(&w, comm, (struct side){UNPAREN SENT},                    \
                                    (struct side){UNPAREN RECEIVED});)

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
