/* payload_functions.h: the MPI functions whose calls scope records with
 * what they carried (preload/mpi/payload_wrappers.c wraps them), by name,
 * each with its family (the region's mpi_payload attribute), and the hook
 * each got when the config selected it. MPI-free: the patcher claims these
 * hooks instead of patching the functions, and `scope recover` names the
 * families of a dead run's regions. */
#ifndef SCOPE_PAYLOAD_FUNCTIONS_H
#define SCOPE_PAYLOAD_FUNCTIONS_H

#include <stdint.h>

/* X(ENUM, name, family) for each wrapped function. */
#define SCOPE_WRAPPED_FUNCTIONS(X)                          \
    X(SEND, "MPI_Send", "p2p")                              \
    X(SSEND, "MPI_Ssend", "p2p")                            \
    X(BSEND, "MPI_Bsend", "p2p")                            \
    X(RSEND, "MPI_Rsend", "p2p")                            \
    X(ISEND, "MPI_Isend", "p2p")                            \
    X(ISSEND, "MPI_Issend", "p2p")                          \
    X(IBSEND, "MPI_Ibsend", "p2p")                          \
    X(IRSEND, "MPI_Irsend", "p2p")                          \
    X(RECV, "MPI_Recv", "p2p")                              \
    X(IRECV, "MPI_Irecv", "p2p")                            \
    X(SENDRECV, "MPI_Sendrecv", "p2p")                      \
    X(SENDRECV_REPLACE, "MPI_Sendrecv_replace", "p2p")      \
    X(WAIT, "MPI_Wait", "p2p")                              \
    X(WAITALL, "MPI_Waitall", "p2p")                        \
    X(WAITANY, "MPI_Waitany", "p2p")                        \
    X(WAITSOME, "MPI_Waitsome", "p2p")                      \
    X(TEST, "MPI_Test", "p2p")                              \
    X(TESTALL, "MPI_Testall", "p2p")                        \
    X(TESTANY, "MPI_Testany", "p2p")                        \
    X(TESTSOME, "MPI_Testsome", "p2p")                      \
    X(SEND_INIT, "MPI_Send_init", "p2p")                    \
    X(SSEND_INIT, "MPI_Ssend_init", "p2p")                  \
    X(BSEND_INIT, "MPI_Bsend_init", "p2p")                  \
    X(RSEND_INIT, "MPI_Rsend_init", "p2p")                  \
    X(RECV_INIT, "MPI_Recv_init", "p2p")                    \
    X(START, "MPI_Start", "p2p")                            \
    X(STARTALL, "MPI_Startall", "p2p")                      \
    X(PROBE, "MPI_Probe", "p2p")                            \
    X(IPROBE, "MPI_Iprobe", "p2p")                          \
    X(MPROBE, "MPI_Mprobe", "p2p")                          \
    X(IMPROBE, "MPI_Improbe", "p2p")                        \
    X(MRECV, "MPI_Mrecv", "p2p")                            \
    X(IMRECV, "MPI_Imrecv", "p2p")                          \
    /* MPI-4 large-count forms (MPI_Count counts) */       \
    X(SEND_C, "MPI_Send_c", "p2p")                        \
    X(SSEND_C, "MPI_Ssend_c", "p2p")                      \
    X(BSEND_C, "MPI_Bsend_c", "p2p")                      \
    X(RSEND_C, "MPI_Rsend_c", "p2p")                      \
    X(ISEND_C, "MPI_Isend_c", "p2p")                      \
    X(ISSEND_C, "MPI_Issend_c", "p2p")                    \
    X(IBSEND_C, "MPI_Ibsend_c", "p2p")                    \
    X(IRSEND_C, "MPI_Irsend_c", "p2p")                    \
    X(RECV_C, "MPI_Recv_c", "p2p")                        \
    X(IRECV_C, "MPI_Irecv_c", "p2p")                      \
    X(SENDRECV_C, "MPI_Sendrecv_c", "p2p")                \
    X(SENDRECV_REPLACE_C, "MPI_Sendrecv_replace_c", "p2p")\
    X(SEND_INIT_C, "MPI_Send_init_c", "p2p")              \
    X(SSEND_INIT_C, "MPI_Ssend_init_c", "p2p")            \
    X(BSEND_INIT_C, "MPI_Bsend_init_c", "p2p")            \
    X(RSEND_INIT_C, "MPI_Rsend_init_c", "p2p")            \
    X(RECV_INIT_C, "MPI_Recv_init_c", "p2p")              \
    X(MRECV_C, "MPI_Mrecv_c", "p2p")                      \
    X(IMRECV_C, "MPI_Imrecv_c", "p2p")                    \
    X(BARRIER, "MPI_Barrier", "collective")                 \
    X(IBARRIER, "MPI_Ibarrier", "collective")               \
    X(BCAST, "MPI_Bcast", "collective")                     \
    X(IBCAST, "MPI_Ibcast", "collective")                   \
    X(REDUCE, "MPI_Reduce", "collective")                   \
    X(IREDUCE, "MPI_Ireduce", "collective")                 \
    X(ALLREDUCE, "MPI_Allreduce", "collective")             \
    X(IALLREDUCE, "MPI_Iallreduce", "collective")           \
    X(REDUCE_SCATTER, "MPI_Reduce_scatter", "collective")   \
    X(IREDUCE_SCATTER, "MPI_Ireduce_scatter", "collective") \
    X(REDUCE_SCATTER_BLOCK, "MPI_Reduce_scatter_block", "collective")   \
    X(IREDUCE_SCATTER_BLOCK, "MPI_Ireduce_scatter_block", "collective") \
    X(SCAN, "MPI_Scan", "collective")                       \
    X(ISCAN, "MPI_Iscan", "collective")                     \
    X(EXSCAN, "MPI_Exscan", "collective")                   \
    X(IEXSCAN, "MPI_Iexscan", "collective")                 \
    X(GATHER, "MPI_Gather", "collective")                   \
    X(IGATHER, "MPI_Igather", "collective")                 \
    X(GATHERV, "MPI_Gatherv", "collective")                 \
    X(IGATHERV, "MPI_Igatherv", "collective")               \
    X(SCATTER, "MPI_Scatter", "collective")                 \
    X(ISCATTER, "MPI_Iscatter", "collective")               \
    X(SCATTERV, "MPI_Scatterv", "collective")               \
    X(ISCATTERV, "MPI_Iscatterv", "collective")             \
    X(ALLGATHER, "MPI_Allgather", "collective")             \
    X(IALLGATHER, "MPI_Iallgather", "collective")           \
    X(ALLGATHERV, "MPI_Allgatherv", "collective")           \
    X(IALLGATHERV, "MPI_Iallgatherv", "collective")         \
    X(ALLTOALL, "MPI_Alltoall", "collective")               \
    X(IALLTOALL, "MPI_Ialltoall", "collective")             \
    X(ALLTOALLV, "MPI_Alltoallv", "collective")             \
    X(IALLTOALLV, "MPI_Ialltoallv", "collective")           \
    X(ALLTOALLW, "MPI_Alltoallw", "collective")             \
    X(IALLTOALLW, "MPI_Ialltoallw", "collective")           \
    X(BCAST_C, "MPI_Bcast_c", "collective")               \
    X(IBCAST_C, "MPI_Ibcast_c", "collective")             \
    X(REDUCE_C, "MPI_Reduce_c", "collective")             \
    X(IREDUCE_C, "MPI_Ireduce_c", "collective")           \
    X(ALLREDUCE_C, "MPI_Allreduce_c", "collective")       \
    X(IALLREDUCE_C, "MPI_Iallreduce_c", "collective")     \
    X(GATHER_C, "MPI_Gather_c", "collective")             \
    X(IGATHER_C, "MPI_Igather_c", "collective")           \
    X(SCATTER_C, "MPI_Scatter_c", "collective")           \
    X(ISCATTER_C, "MPI_Iscatter_c", "collective")         \
    X(ALLGATHER_C, "MPI_Allgather_c", "collective")       \
    X(IALLGATHER_C, "MPI_Iallgather_c", "collective")     \
    X(ALLTOALL_C, "MPI_Alltoall_c", "collective")         \
    X(IALLTOALL_C, "MPI_Ialltoall_c", "collective")       \
    X(REDUCE_SCATTER_BLOCK_C, "MPI_Reduce_scatter_block_c", "collective")\
    X(IREDUCE_SCATTER_BLOCK_C, "MPI_Ireduce_scatter_block_c", "collective")\
    X(SCAN_C, "MPI_Scan_c", "collective")                 \
    X(ISCAN_C, "MPI_Iscan_c", "collective")               \
    X(EXSCAN_C, "MPI_Exscan_c", "collective")             \
    X(IEXSCAN_C, "MPI_Iexscan_c", "collective")           \
    X(REDUCE_SCATTER_C, "MPI_Reduce_scatter_c", "collective")\
    X(IREDUCE_SCATTER_C, "MPI_Ireduce_scatter_c", "collective")\
    X(GATHERV_C, "MPI_Gatherv_c", "collective")           \
    X(IGATHERV_C, "MPI_Igatherv_c", "collective")         \
    X(SCATTERV_C, "MPI_Scatterv_c", "collective")         \
    X(ISCATTERV_C, "MPI_Iscatterv_c", "collective")       \
    X(ALLGATHERV_C, "MPI_Allgatherv_c", "collective")     \
    X(IALLGATHERV_C, "MPI_Iallgatherv_c", "collective")   \
    X(ALLTOALLV_C, "MPI_Alltoallv_c", "collective")       \
    X(IALLTOALLV_C, "MPI_Ialltoallv_c", "collective")     \
    X(ALLTOALLW_C, "MPI_Alltoallw_c", "collective")       \
    X(IALLTOALLW_C, "MPI_Ialltoallw_c", "collective")     \
    /* MPI-4 persistent collectives (MPICH 4.0) */          \
    X(BARRIER_INIT, "MPI_Barrier_init", "collective")       \
    X(BCAST_INIT, "MPI_Bcast_init", "collective")           \
    X(REDUCE_INIT, "MPI_Reduce_init", "collective")         \
    X(ALLREDUCE_INIT, "MPI_Allreduce_init", "collective")   \
    X(REDUCE_SCATTER_INIT, "MPI_Reduce_scatter_init", "collective")\
    X(REDUCE_SCATTER_BLOCK_INIT, "MPI_Reduce_scatter_block_init", "collective")\
    X(SCAN_INIT, "MPI_Scan_init", "collective")             \
    X(EXSCAN_INIT, "MPI_Exscan_init", "collective")         \
    X(GATHER_INIT, "MPI_Gather_init", "collective")         \
    X(GATHERV_INIT, "MPI_Gatherv_init", "collective")       \
    X(SCATTER_INIT, "MPI_Scatter_init", "collective")       \
    X(SCATTERV_INIT, "MPI_Scatterv_init", "collective")     \
    X(ALLGATHER_INIT, "MPI_Allgather_init", "collective")   \
    X(ALLGATHERV_INIT, "MPI_Allgatherv_init", "collective") \
    X(ALLTOALL_INIT, "MPI_Alltoall_init", "collective")     \
    X(ALLTOALLV_INIT, "MPI_Alltoallv_init", "collective")   \
    X(ALLTOALLW_INIT, "MPI_Alltoallw_init", "collective")   \
    X(BCAST_INIT_C, "MPI_Bcast_init_c", "collective")       \
    X(REDUCE_INIT_C, "MPI_Reduce_init_c", "collective")     \
    X(ALLREDUCE_INIT_C, "MPI_Allreduce_init_c", "collective")\
    X(REDUCE_SCATTER_INIT_C, "MPI_Reduce_scatter_init_c", "collective")\
    X(REDUCE_SCATTER_BLOCK_INIT_C, "MPI_Reduce_scatter_block_init_c", "collective")\
    X(SCAN_INIT_C, "MPI_Scan_init_c", "collective")         \
    X(EXSCAN_INIT_C, "MPI_Exscan_init_c", "collective")     \
    X(GATHER_INIT_C, "MPI_Gather_init_c", "collective")     \
    X(GATHERV_INIT_C, "MPI_Gatherv_init_c", "collective")   \
    X(SCATTER_INIT_C, "MPI_Scatter_init_c", "collective")   \
    X(SCATTERV_INIT_C, "MPI_Scatterv_init_c", "collective") \
    X(ALLGATHER_INIT_C, "MPI_Allgather_init_c", "collective")\
    X(ALLGATHERV_INIT_C, "MPI_Allgatherv_init_c", "collective")\
    X(ALLTOALL_INIT_C, "MPI_Alltoall_init_c", "collective") \
    X(ALLTOALLV_INIT_C, "MPI_Alltoallv_init_c", "collective")\
    X(ALLTOALLW_INIT_C, "MPI_Alltoallw_init_c", "collective")\
    X(NEIGHBOR_ALLGATHER, "MPI_Neighbor_allgather", "p2p")  \
    X(INEIGHBOR_ALLGATHER, "MPI_Ineighbor_allgather", "p2p")    \
    X(NEIGHBOR_ALLGATHERV, "MPI_Neighbor_allgatherv", "p2p")    \
    X(INEIGHBOR_ALLGATHERV, "MPI_Ineighbor_allgatherv", "p2p")  \
    X(NEIGHBOR_ALLTOALL, "MPI_Neighbor_alltoall", "p2p")    \
    X(INEIGHBOR_ALLTOALL, "MPI_Ineighbor_alltoall", "p2p")  \
    X(NEIGHBOR_ALLTOALLV, "MPI_Neighbor_alltoallv", "p2p")  \
    X(INEIGHBOR_ALLTOALLV, "MPI_Ineighbor_alltoallv", "p2p")    \
    X(NEIGHBOR_ALLTOALLW, "MPI_Neighbor_alltoallw", "p2p")  \
    X(INEIGHBOR_ALLTOALLW, "MPI_Ineighbor_alltoallw", "p2p")    \
    X(NEIGHBOR_ALLGATHER_C, "MPI_Neighbor_allgather_c", "p2p")\
    X(INEIGHBOR_ALLGATHER_C, "MPI_Ineighbor_allgather_c", "p2p")\
    X(NEIGHBOR_ALLGATHERV_C, "MPI_Neighbor_allgatherv_c", "p2p")\
    X(INEIGHBOR_ALLGATHERV_C, "MPI_Ineighbor_allgatherv_c", "p2p")\
    X(NEIGHBOR_ALLTOALL_C, "MPI_Neighbor_alltoall_c", "p2p")\
    X(INEIGHBOR_ALLTOALL_C, "MPI_Ineighbor_alltoall_c", "p2p")\
    X(NEIGHBOR_ALLTOALLV_C, "MPI_Neighbor_alltoallv_c", "p2p")\
    X(INEIGHBOR_ALLTOALLV_C, "MPI_Ineighbor_alltoallv_c", "p2p")\
    X(NEIGHBOR_ALLTOALLW_C, "MPI_Neighbor_alltoallw_c", "p2p")\
    X(INEIGHBOR_ALLTOALLW_C, "MPI_Ineighbor_alltoallw_c", "p2p")\
    X(PUT, "MPI_Put", "rma")                                \
    X(GET, "MPI_Get", "rma")                                \
    X(ACCUMULATE, "MPI_Accumulate", "rma")                  \
    X(RPUT, "MPI_Rput", "rma")                              \
    X(RGET, "MPI_Rget", "rma")                              \
    X(RACCUMULATE, "MPI_Raccumulate", "rma")                \
    X(GET_ACCUMULATE, "MPI_Get_accumulate", "rma")          \
    X(RGET_ACCUMULATE, "MPI_Rget_accumulate", "rma")        \
    X(FETCH_AND_OP, "MPI_Fetch_and_op", "rma")              \
    X(COMPARE_AND_SWAP, "MPI_Compare_and_swap", "rma")      \
    X(PUT_C, "MPI_Put_c", "rma")                          \
    X(GET_C, "MPI_Get_c", "rma")                          \
    X(ACCUMULATE_C, "MPI_Accumulate_c", "rma")            \
    X(RPUT_C, "MPI_Rput_c", "rma")                        \
    X(RGET_C, "MPI_Rget_c", "rma")                        \
    X(RACCUMULATE_C, "MPI_Raccumulate_c", "rma")          \
    X(GET_ACCUMULATE_C, "MPI_Get_accumulate_c", "rma")    \
    X(RGET_ACCUMULATE_C, "MPI_Rget_accumulate_c", "rma")  \
    X(FILE_READ, "MPI_File_read", "io")                     \
    X(FILE_WRITE, "MPI_File_write", "io")                   \
    X(FILE_READ_ALL, "MPI_File_read_all", "io")             \
    X(FILE_WRITE_ALL, "MPI_File_write_all", "io")           \
    X(FILE_READ_AT, "MPI_File_read_at", "io")               \
    X(FILE_WRITE_AT, "MPI_File_write_at", "io")             \
    X(FILE_READ_AT_ALL, "MPI_File_read_at_all", "io")       \
    X(FILE_WRITE_AT_ALL, "MPI_File_write_at_all", "io")    \
    X(FILE_IREAD, "MPI_File_iread", "io")                   \
    X(FILE_IWRITE, "MPI_File_iwrite", "io")                 \
    X(FILE_IREAD_ALL, "MPI_File_iread_all", "io")           \
    X(FILE_IWRITE_ALL, "MPI_File_iwrite_all", "io")         \
    X(FILE_IREAD_AT, "MPI_File_iread_at", "io")             \
    X(FILE_IWRITE_AT, "MPI_File_iwrite_at", "io")           \
    X(FILE_IREAD_AT_ALL, "MPI_File_iread_at_all", "io")     \
    X(FILE_IWRITE_AT_ALL, "MPI_File_iwrite_at_all", "io")   \
    X(FILE_READ_SHARED, "MPI_File_read_shared", "io")       \
    X(FILE_WRITE_SHARED, "MPI_File_write_shared", "io")     \
    X(FILE_IREAD_SHARED, "MPI_File_iread_shared", "io")     \
    X(FILE_IWRITE_SHARED, "MPI_File_iwrite_shared", "io")   \
    X(FILE_READ_ORDERED, "MPI_File_read_ordered", "io")     \
    X(FILE_WRITE_ORDERED, "MPI_File_write_ordered", "io") \
    X(FILE_READ_ALL_BEGIN, "MPI_File_read_all_begin", "io")     \
    X(FILE_WRITE_ALL_BEGIN, "MPI_File_write_all_begin", "io")   \
    X(FILE_READ_AT_ALL_BEGIN, "MPI_File_read_at_all_begin", "io")   \
    X(FILE_WRITE_AT_ALL_BEGIN, "MPI_File_write_at_all_begin", "io") \
    X(FILE_READ_ORDERED_BEGIN, "MPI_File_read_ordered_begin", "io") \
    X(FILE_WRITE_ORDERED_BEGIN, "MPI_File_write_ordered_begin", "io")   \
    X(FILE_READ_C, "MPI_File_read_c", "io")               \
    X(FILE_WRITE_C, "MPI_File_write_c", "io")             \
    X(FILE_READ_ALL_C, "MPI_File_read_all_c", "io")       \
    X(FILE_WRITE_ALL_C, "MPI_File_write_all_c", "io")     \
    X(FILE_READ_AT_C, "MPI_File_read_at_c", "io")         \
    X(FILE_WRITE_AT_C, "MPI_File_write_at_c", "io")       \
    X(FILE_READ_AT_ALL_C, "MPI_File_read_at_all_c", "io") \
    X(FILE_WRITE_AT_ALL_C, "MPI_File_write_at_all_c", "io")\
    X(FILE_IREAD_C, "MPI_File_iread_c", "io")             \
    X(FILE_IWRITE_C, "MPI_File_iwrite_c", "io")           \
    X(FILE_IREAD_ALL_C, "MPI_File_iread_all_c", "io")     \
    X(FILE_IWRITE_ALL_C, "MPI_File_iwrite_all_c", "io")   \
    X(FILE_IREAD_AT_C, "MPI_File_iread_at_c", "io")       \
    X(FILE_IWRITE_AT_C, "MPI_File_iwrite_at_c", "io")     \
    X(FILE_IREAD_AT_ALL_C, "MPI_File_iread_at_all_c", "io")\
    X(FILE_IWRITE_AT_ALL_C, "MPI_File_iwrite_at_all_c", "io")\
    X(FILE_READ_SHARED_C, "MPI_File_read_shared_c", "io") \
    X(FILE_WRITE_SHARED_C, "MPI_File_write_shared_c", "io")\
    X(FILE_IREAD_SHARED_C, "MPI_File_iread_shared_c", "io")\
    X(FILE_IWRITE_SHARED_C, "MPI_File_iwrite_shared_c", "io")\
    X(FILE_READ_ORDERED_C, "MPI_File_read_ordered_c", "io")\
    X(FILE_WRITE_ORDERED_C, "MPI_File_write_ordered_c", "io")\
    X(FILE_READ_ALL_BEGIN_C, "MPI_File_read_all_begin_c", "io") \
    X(FILE_WRITE_ALL_BEGIN_C, "MPI_File_write_all_begin_c", "io")   \
    X(FILE_READ_AT_ALL_BEGIN_C, "MPI_File_read_at_all_begin_c", "io")   \
    X(FILE_WRITE_AT_ALL_BEGIN_C, "MPI_File_write_at_all_begin_c", "io") \
    X(FILE_READ_ORDERED_BEGIN_C, "MPI_File_read_ordered_begin_c", "io") \
    X(FILE_WRITE_ORDERED_BEGIN_C, "MPI_File_write_ordered_begin_c", "io")

enum scope_wrapped_function {
#define SCOPE_WRAPPED_ENUM(e, name, family) SCOPE_WRAPPED_##e,
    SCOPE_WRAPPED_FUNCTIONS(SCOPE_WRAPPED_ENUM)
#undef SCOPE_WRAPPED_ENUM
    SCOPE_WRAPPED_COUNT
};

/* 1 + the hook of each wrapped function the config selected, 0 when none:
 * set by the patcher, read by the wrappers on every call. */
extern uint32_t scope_wrapped_hook[SCOPE_WRAPPED_COUNT];

/* Whether the config selected any wrapped function. */
int scope_wrapped_any(void);
/* The MPI-4 large-count form of wrapped function f (MPI_Send: MPI_Send_c),
 * f itself when it has none. */
enum scope_wrapped_function scope_wrapped_large_form(enum scope_wrapped_function f);
/* Which wrapped function `symbol` is, -1 when none. */
int scope_wrapped_function_of(const char *symbol);
/* The family of `symbol` when scope records its payload, else NULL. */
const char *scope_payload_family(const char *symbol);

#endif
