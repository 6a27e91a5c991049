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
LARGE_COUNT(Mrecv_c, (void *buf, MPI_Count count, MPI_Datatype type, MPI_Message *message,
                      MPI_Status *status))
LARGE_COUNT(Imrecv_c, (void *buf, MPI_Count count, MPI_Datatype type, MPI_Message *message,
                       MPI_Request *request))
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
LARGE_COUNT_BOTH(Reduce_scatter_block_c, Ireduce_scatter_block_c,
                 (const void *sendbuf, void *recvbuf, MPI_Count recvcount, MPI_Datatype type,
                  MPI_Op op, MPI_Comm comm))
LARGE_COUNT_BOTH(Scan_c, Iscan_c,
                 (const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype type,
                  MPI_Op op, MPI_Comm comm))
LARGE_COUNT_BOTH(Exscan_c, Iexscan_c,
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

LARGE_COUNT_BOTH(Put_c, Rput_c,
                 (const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_type,
                  int target_rank, MPI_Aint target_disp, MPI_Count target_count,
                  MPI_Datatype target_type, MPI_Win win))
LARGE_COUNT_BOTH(Get_c, Rget_c,
                 (void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_type,
                  int target_rank, MPI_Aint target_disp, MPI_Count target_count,
                  MPI_Datatype target_type, MPI_Win win))
LARGE_COUNT_BOTH(Accumulate_c, Raccumulate_c,
                 (const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_type,
                  int target_rank, MPI_Aint target_disp, MPI_Count target_count,
                  MPI_Datatype target_type, MPI_Op op, MPI_Win win))
LARGE_COUNT_BOTH(Get_accumulate_c, Rget_accumulate_c,
                 (const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_type,
                  void *result_addr, MPI_Count result_count, MPI_Datatype result_type,
                  int target_rank, MPI_Aint target_disp, MPI_Count target_count,
                  MPI_Datatype target_type, MPI_Op op, MPI_Win win))
LARGE_COUNT(Win_create_c, (void *base, MPI_Aint size, MPI_Aint disp_unit, MPI_Info info,
                           MPI_Comm comm, MPI_Win *win))
LARGE_COUNT(Win_allocate_c, (MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm,
                             void *baseptr, MPI_Win *win))
LARGE_COUNT(Win_allocate_shared_c, (MPI_Aint size, MPI_Aint disp_unit, MPI_Info info,
                                    MPI_Comm comm, void *baseptr, MPI_Win *win))

/* A file read or write with a status and its nonblocking form (I..., a
 * request), BUF and what comes before it given. */
#define LARGE_COUNT_IO(NAME, INAME, ...)                                                     \
    LARGE_COUNT(NAME, (MPI_File fh, __VA_ARGS__, MPI_Count count, MPI_Datatype type,        \
                       MPI_Status *status))                                                  \
    LARGE_COUNT(INAME, (MPI_File fh, __VA_ARGS__, MPI_Count count, MPI_Datatype type,       \
                        MPI_Request *request))

LARGE_COUNT_IO(File_read_c, File_iread_c, void *buf)
LARGE_COUNT_IO(File_write_c, File_iwrite_c, const void *buf)
LARGE_COUNT_IO(File_read_all_c, File_iread_all_c, void *buf)
LARGE_COUNT_IO(File_write_all_c, File_iwrite_all_c, const void *buf)
LARGE_COUNT_IO(File_read_at_c, File_iread_at_c, MPI_Offset offset, void *buf)
LARGE_COUNT_IO(File_write_at_c, File_iwrite_at_c, MPI_Offset offset, const void *buf)
LARGE_COUNT_IO(File_read_at_all_c, File_iread_at_all_c, MPI_Offset offset, void *buf)
LARGE_COUNT_IO(File_write_at_all_c, File_iwrite_at_all_c, MPI_Offset offset, const void *buf)
LARGE_COUNT_IO(File_read_shared_c, File_iread_shared_c, void *buf)
LARGE_COUNT_IO(File_write_shared_c, File_iwrite_shared_c, const void *buf)
LARGE_COUNT(File_read_ordered_c, (MPI_File fh, void *buf, MPI_Count count, MPI_Datatype type,
                                  MPI_Status *status))
LARGE_COUNT(File_write_ordered_c, (MPI_File fh, const void *buf, MPI_Count count,
                                   MPI_Datatype type, MPI_Status *status))
/* the split collective ones' beginnings */
LARGE_COUNT(File_read_all_begin_c, (MPI_File fh, void *buf, MPI_Count count, MPI_Datatype type))
LARGE_COUNT(File_write_all_begin_c, (MPI_File fh, const void *buf, MPI_Count count,
                                     MPI_Datatype type))
LARGE_COUNT(File_read_at_all_begin_c, (MPI_File fh, MPI_Offset offset, void *buf,
                                       MPI_Count count, MPI_Datatype type))
LARGE_COUNT(File_write_at_all_begin_c, (MPI_File fh, MPI_Offset offset, const void *buf,
                                        MPI_Count count, MPI_Datatype type))
LARGE_COUNT(File_read_ordered_begin_c, (MPI_File fh, void *buf, MPI_Count count,
                                        MPI_Datatype type))
LARGE_COUNT(File_write_ordered_begin_c, (MPI_File fh, const void *buf, MPI_Count count,
                                         MPI_Datatype type))

#undef LARGE_COUNT_IO
LARGE_COUNT_BOTH(Reduce_scatter_c, Ireduce_scatter_c,
                 (const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[],
                  MPI_Datatype type, MPI_Op op, MPI_Comm comm))
LARGE_COUNT_BOTH(Gatherv_c, Igatherv_c,
                 (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                  const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype,
                  int root, MPI_Comm comm))
LARGE_COUNT_BOTH(Scatterv_c, Iscatterv_c,
                 (const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[],
                  MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                  MPI_Datatype recvtype, int root, MPI_Comm comm))
LARGE_COUNT_BOTH(Allgatherv_c, Iallgatherv_c,
                 (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                  const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype,
                  MPI_Comm comm))
LARGE_COUNT_BOTH(Alltoallv_c, Ialltoallv_c,
                 (const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                  MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[],
                  const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm))
LARGE_COUNT_BOTH(Alltoallw_c, Ialltoallw_c,
                 (const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                  const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[],
                  const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm))
LARGE_COUNT_BOTH(Neighbor_allgather_c, Ineighbor_allgather_c,
                 (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                  MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm))
LARGE_COUNT_BOTH(Neighbor_allgatherv_c, Ineighbor_allgatherv_c,
                 (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                  const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype,
                  MPI_Comm comm))
LARGE_COUNT_BOTH(Neighbor_alltoall_c, Ineighbor_alltoall_c,
                 (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                  MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm))
LARGE_COUNT_BOTH(Neighbor_alltoallv_c, Ineighbor_alltoallv_c,
                 (const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                  MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[],
                  const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm))
LARGE_COUNT_BOTH(Neighbor_alltoallw_c, Ineighbor_alltoallw_c,
                 (const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                  const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[],
                  const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm))
#undef LARGE_COUNT_BOTH
#undef UNPAREN_LARGE
#undef LARGE_COUNT_ISEND
#undef LARGE_COUNT_SEND
#undef LARGE_COUNT

#endif
#endif
