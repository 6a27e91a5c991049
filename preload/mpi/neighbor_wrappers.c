/* neighbor_wrappers.c: the neighborhood collectives, blocking and
 * nonblocking, recorded with what they carried (wrapped_call.h) as the
 * point-to-point exchanges they are (neighbor_exchange.h: one message to
 * each out-neighbor, one from each in-neighbor). Their family is "p2p",
 * so they enter the communication matrix with their messages. Each also
 * in its MPI-4 large-count form (MPI_Neighbor_alltoallv_c ...) when the
 * MPI library has them. */
#include "large_count.h"
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

/* Every neighborhood collective, of count type COUNT and displacement
 * type DISP (int, or MPI_Count and MPI_Aint for their large-count forms:
 * large_count.h), enums and names ending in SUFFIX_F and SUFFIX. */
#define NEIGHBORS(SUFFIX_F, SUFFIX, COUNT, DISP)                                             \
    NEIGHBOR(NEIGHBOR_ALLGATHER##SUFFIX_F, Neighbor_allgather##SUFFIX,                       \
             INEIGHBOR_ALLGATHER##SUFFIX_F, Ineighbor_allgather##SUFFIX,                     \
             (const void *sendbuf, COUNT sendcount, MPI_Datatype sendtype, void *recvbuf,    \
              COUNT recvcount, MPI_Datatype recvtype, MPI_Comm comm),                        \
             (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm),             \
             (.count = sendcount, .type = sendtype), (.count = recvcount, .type = recvtype)) \
    NEIGHBOR(NEIGHBOR_ALLGATHERV##SUFFIX_F, Neighbor_allgatherv##SUFFIX,                     \
             INEIGHBOR_ALLGATHERV##SUFFIX_F, Ineighbor_allgatherv##SUFFIX,                   \
             (const void *sendbuf, COUNT sendcount, MPI_Datatype sendtype, void *recvbuf,    \
              const COUNT recvcounts[], const DISP displs[], MPI_Datatype recvtype,          \
              MPI_Comm comm),                                                                \
             (sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm),    \
             (.count = sendcount, .type = sendtype),                                         \
             (.counts = COUNT_ARRAY(recvcounts), .type = recvtype))                          \
    NEIGHBOR(NEIGHBOR_ALLTOALL##SUFFIX_F, Neighbor_alltoall##SUFFIX,                         \
             INEIGHBOR_ALLTOALL##SUFFIX_F, Ineighbor_alltoall##SUFFIX,                       \
             (const void *sendbuf, COUNT sendcount, MPI_Datatype sendtype, void *recvbuf,    \
              COUNT recvcount, MPI_Datatype recvtype, MPI_Comm comm),                        \
             (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm),             \
             (.count = sendcount, .type = sendtype), (.count = recvcount, .type = recvtype)) \
    NEIGHBOR(NEIGHBOR_ALLTOALLV##SUFFIX_F, Neighbor_alltoallv##SUFFIX,                       \
             INEIGHBOR_ALLTOALLV##SUFFIX_F, Ineighbor_alltoallv##SUFFIX,                     \
             (const void *sendbuf, const COUNT sendcounts[], const DISP sdispls[],           \
              MPI_Datatype sendtype, void *recvbuf, const COUNT recvcounts[],                \
              const DISP rdispls[], MPI_Datatype recvtype, MPI_Comm comm),                   \
             (sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype,\
              comm),                                                                         \
             (.counts = COUNT_ARRAY(sendcounts), .type = sendtype),                          \
             (.counts = COUNT_ARRAY(recvcounts), .type = recvtype))                          \
    NEIGHBOR(NEIGHBOR_ALLTOALLW##SUFFIX_F, Neighbor_alltoallw##SUFFIX,                       \
             INEIGHBOR_ALLTOALLW##SUFFIX_F, Ineighbor_alltoallw##SUFFIX,                     \
             (const void *sendbuf, const COUNT sendcounts[], const MPI_Aint sdispls[],       \
              const MPI_Datatype sendtypes[], void *recvbuf, const COUNT recvcounts[],       \
              const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm),      \
             (sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes,\
              comm),                                                                         \
             (.counts = COUNT_ARRAY(sendcounts), .types = sendtypes),                        \
             (.counts = COUNT_ARRAY(recvcounts), .types = recvtypes))

NEIGHBORS(, , int, int)
#ifdef SCOPE_MPI_LARGE_COUNT
NEIGHBORS(_C, _c, MPI_Count, MPI_Aint)
#endif
