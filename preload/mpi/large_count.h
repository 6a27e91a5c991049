/* large_count.h: the MPI-4 large-count forms (MPI_Send_c ...: MPI_Count
 * counts) that scope wraps, declared here because an MPI library may
 * export them without its mpi.h declaring them: Debian 12's MPICH 4.0
 * has all of them in libmpich (its mpi_f08 Fortran bindings call them for
 * counts of kind MPI_COUNT_KIND) but no prototype in mpi.h. Declared only
 * when the build found PMPI_Send_c in the MPI library
 * (SCOPE_MPI_LARGE_COUNT, ../../meson.build); each function also with its
 * profiling name PMPI_*, which its wrapper calls. */
#ifndef SCOPE_LARGE_COUNT_H
#define SCOPE_LARGE_COUNT_H

#include <mpi.h>

#ifdef SCOPE_MPI_LARGE_COUNT

#define LARGE_COUNT(NAME, PARAMS)                                                            \
    int MPI_##NAME PARAMS;                                                                   \
    int PMPI_##NAME PARAMS;

#define LARGE_COUNT_SEND(NAME)                                                               \
    LARGE_COUNT(NAME, (const void *buf, MPI_Count count, MPI_Datatype type, int dest, int tag, \
                       MPI_Comm comm))
#define LARGE_COUNT_ISEND(NAME)                                                              \
    LARGE_COUNT(NAME, (const void *buf, MPI_Count count, MPI_Datatype type, int dest, int tag, \
                       MPI_Comm comm, MPI_Request *request))

LARGE_COUNT_SEND(Send_c)
LARGE_COUNT_SEND(Ssend_c)
LARGE_COUNT_SEND(Bsend_c)
LARGE_COUNT_SEND(Rsend_c)
LARGE_COUNT_ISEND(Isend_c)
LARGE_COUNT_ISEND(Issend_c)
LARGE_COUNT_ISEND(Ibsend_c)
LARGE_COUNT_ISEND(Irsend_c)
LARGE_COUNT_ISEND(Send_init_c)
LARGE_COUNT_ISEND(Ssend_init_c)
LARGE_COUNT_ISEND(Bsend_init_c)
LARGE_COUNT_ISEND(Rsend_init_c)
LARGE_COUNT(Recv_c, (void *buf, MPI_Count count, MPI_Datatype type, int source, int tag,
                     MPI_Comm comm, MPI_Status *status))
LARGE_COUNT(Irecv_c, (void *buf, MPI_Count count, MPI_Datatype type, int source, int tag,
                      MPI_Comm comm, MPI_Request *request))
LARGE_COUNT(Recv_init_c, (void *buf, MPI_Count count, MPI_Datatype type, int source, int tag,
                          MPI_Comm comm, MPI_Request *request))
LARGE_COUNT(Sendrecv_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                         int dest, int sendtag, void *recvbuf, MPI_Count recvcount,
                         MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm,
                         MPI_Status *status))
LARGE_COUNT(Sendrecv_replace_c, (void *buf, MPI_Count count, MPI_Datatype type, int dest,
                                 int sendtag, int source, int recvtag, MPI_Comm comm,
                                 MPI_Status *status))

/* A collective and its nonblocking form (the same and a request). */
#define LARGE_COUNT_BOTH(NAME, INAME, PARAMS)                                                \
    LARGE_COUNT(NAME, PARAMS)                                                                \
    LARGE_COUNT(INAME, (UNPAREN_LARGE PARAMS, MPI_Request *request))
#define UNPAREN_LARGE(...) __VA_ARGS__

LARGE_COUNT_BOTH(Bcast_c, Ibcast_c,
                 (void *buf, MPI_Count count, MPI_Datatype type, int root, MPI_Comm comm))
LARGE_COUNT_BOTH(Reduce_c, Ireduce_c,
                 (const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype type,
                  MPI_Op op, int root, MPI_Comm comm))
LARGE_COUNT_BOTH(Allreduce_c, Iallreduce_c,
                 (const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype type,
                  MPI_Op op, MPI_Comm comm))
LARGE_COUNT_BOTH(Gather_c, Igather_c,
                 (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                  MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm))
LARGE_COUNT_BOTH(Scatter_c, Iscatter_c,
                 (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                  MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm))
LARGE_COUNT_BOTH(Allgather_c, Iallgather_c,
                 (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                  MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm))
LARGE_COUNT_BOTH(Alltoall_c, Ialltoall_c,
                 (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                  MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm))

#undef LARGE_COUNT_BOTH
#undef UNPAREN_LARGE
#undef LARGE_COUNT_ISEND
#undef LARGE_COUNT_SEND
#undef LARGE_COUNT

#endif
#endif
