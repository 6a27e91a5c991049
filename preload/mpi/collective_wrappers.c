/* collective_wrappers.c: the collectives whose calls scope records with
 * what they carried (wrapped_call.h), blocking and nonblocking forms from
 * one description each: one item per call, its bytes being what leaves
 * this rank's send buffer (collective_bytes.h; w forms: the sum of its
 * typed send counts), its peer the root as a world rank (-1 without
 * one); the v and w forms also add their bytes per peer to the peer
 * totals (collective_peers.h). Each (Barrier aside) also in its MPI-4
 * large-count form (MPI_Bcast_c ...: MPI_Count counts, MPI_Aint
 * displacements) when the MPI library has them (large_count.h), and each
 * in its MPI-4 persistent form (MPI_Allreduce_init, MPI_Allreduce_init_c
 * ...) when it has those (SCOPE_MPI_PERSISTENT_COLLECTIVES): the init
 * remembers by request what one start moves, which every MPI_Start or
 * MPI_Startall of it records (persistent_calls.h). */
#include "large_count.h"
#include "persistent_calls.h"

static int64_t sum_typed(struct count_array counts, const MPI_Datatype *types, int n)
{
    int64_t total = 0;
    for (int i = 0; has_counts(counts) && types && i < n; i++)
        total += type_bytes(count_at(counts, i), types[i]);
    return total;
}

/* One form: its parameters, arguments, communicator, bytes and root
 * (expressions of the arguments and c, the communicator's entry), then
 * what it does per peer (statements, into the sink `sink`). */
#define COLLECTIVE(F, NAME, PARAMS, ARGS, COMM, BYTES, ROOT, PEERS)                          \
    CARRIER_THEN(F, NAME, PARAMS, ARGS, BYTES, ROOT, scope_comm_of(COMM),                    \
                 struct peer_sink sink __attribute__((unused)) = {.hook = w.hook}; PEERS)

#ifdef SCOPE_MPI_PERSISTENT_COLLECTIVES
/* The MPI-4 persistent form (the same, an info and a request): the init
 * call records its communicator and root, nothing moved; its request
 * remembers what each start of it moves (persistent_calls.h), followed
 * whenever the config selects any wrapped function, as MPI_Start's are;
 * its bytes per peer are kept only when the init is recorded (they are
 * added under its hook). */
#define PERSISTENT_FORM(F, NAME, PARAMS, ARGS, COMM, BYTES, ROOT, PEERS)                     \
    EXPORT int MPI_##NAME(UNPAREN PARAMS, MPI_Info info, MPI_Request *request)               \
    {                                                                                        \
        HANDLE_CALL(F, PMPI_##NAME(UNPAREN ARGS, info, request), scope_wrapped_any(), COMM,  \
                    add_item(&w, SCOPE_ITEM_CALL, 0, scope_comm_world_rank(c, (ROOT)), -1, c);, \
                    struct peer_sink sink = {.hook = recorded ? w.hook : 0, .keep = 1};      \
                    if (c && recorded) {                                                     \
                        PEERS                                                                \
                    }                                                                        \
                    if (c)                                                                   \
                        remember_collective(*request, (BYTES), (ROOT), c, &sink);            \
                    else                                                                     \
                        free(sink.kept);)                                                    \
    }
#else
#define PERSISTENT_FORM(F, NAME, PARAMS, ARGS, COMM, BYTES, ROOT, PEERS)
#endif

/* A collective, its nonblocking form (the same and a request) and its
 * persistent form (PF, PNAME); the v and w forms with their peers. */
#define BOTH_V_FORMS(F, NAME, IF, INAME, PF, PNAME, PARAMS, ARGS, COMM, BYTES, ROOT, PEERS)   \
    COLLECTIVE(F, NAME, PARAMS, ARGS, COMM, BYTES, ROOT, PEERS)                               \
    COLLECTIVE(IF, INAME, (UNPAREN PARAMS, MPI_Request *request), (UNPAREN ARGS, request),    \
               COMM, BYTES, ROOT, PEERS)                                                      \
    PERSISTENT_FORM(PF, PNAME, PARAMS, ARGS, COMM, BYTES, ROOT, PEERS)
#define BOTH_FORMS(F, NAME, IF, INAME, PF, PNAME, PARAMS, ARGS, COMM, BYTES, ROOT)             \
    BOTH_V_FORMS(F, NAME, IF, INAME, PF, PNAME, PARAMS, ARGS, COMM, BYTES, ROOT, )

/* count values of type, or per rank counts (of types). */
#define COUNTS(count, counts, type, types)                                                    \
    (&(struct peer_counts){(count), COUNT_ARRAY(counts), (type), (types), NULL})

#define IN_PLACE(buf) ((buf) == MPI_IN_PLACE)

BOTH_FORMS(BARRIER, Barrier, IBARRIER, Ibarrier, BARRIER_INIT, Barrier_init,
           (MPI_Comm comm), (comm), comm, 0, -1)
/* The v and w forms, of count type COUNT and displacement type DISP (int,
 * or MPI_Count and MPI_Aint for their large-count forms: large_count.h),
 * their enums and names ending in SUFFIX_F and SUFFIX. */
#define V_COLLECTIVES(SUFFIX_F, SUFFIX, COUNT, DISP)                                         \
    BOTH_V_FORMS(REDUCE_SCATTER##SUFFIX_F, Reduce_scatter##SUFFIX,                           \
                 IREDUCE_SCATTER##SUFFIX_F, Ireduce_scatter##SUFFIX,                         \
                 REDUCE_SCATTER_INIT##SUFFIX_F, Reduce_scatter_init##SUFFIX,                 \
                 (const void *sendbuf, void *recvbuf, const COUNT recvcounts[],              \
                  MPI_Datatype type, MPI_Op op, MPI_Comm comm),                              \
                 (sendbuf, recvbuf, recvcounts, type, op, comm), comm,                       \
                 type_bytes(per_rank(0, COUNT_ARRAY(recvcounts), c), type), -1,              \
                 collective_peers(&sink, V_REDUCE_SCATTER, 0, COUNTS(0, NULL, type, NULL),   \
                                  COUNTS(0, recvcounts, type, NULL), -1, c);)                \
    BOTH_V_FORMS(GATHERV##SUFFIX_F, Gatherv##SUFFIX, IGATHERV##SUFFIX_F, Igatherv##SUFFIX,   \
                 GATHERV_INIT##SUFFIX_F, Gatherv_init##SUFFIX,                               \
                 (const void *sendbuf, COUNT sendcount, MPI_Datatype sendtype,               \
                  void *recvbuf, const COUNT recvcounts[], const DISP displs[],              \
                  MPI_Datatype recvtype, int root, MPI_Comm comm),                           \
                 (sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype,       \
                  root, comm),                                                               \
                 comm,                                                                       \
                 in_root_group(c, root) ? 0                                                  \
                     : gather_bytes(IN_PLACE(sendbuf), sendcount, sendtype, 0,               \
                                    COUNT_ARRAY(recvcounts), recvtype, c),                   \
                 root,                                                                       \
                 collective_peers(&sink, V_GATHER, IN_PLACE(sendbuf),                        \
                                  COUNTS(sendcount, NULL, sendtype, NULL),                   \
                                  COUNTS(0, recvcounts, recvtype, NULL), root, c);)          \
    BOTH_V_FORMS(SCATTERV##SUFFIX_F, Scatterv##SUFFIX, ISCATTERV##SUFFIX_F, Iscatterv##SUFFIX,\
                 SCATTERV_INIT##SUFFIX_F, Scatterv_init##SUFFIX,                             \
                 (const void *sendbuf, const COUNT sendcounts[], const DISP displs[],        \
                  MPI_Datatype sendtype, void *recvbuf, COUNT recvcount,                     \
                  MPI_Datatype recvtype, int root, MPI_Comm comm),                           \
                 (sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype,       \
                  root, comm),                                                               \
                 comm, scatter_bytes(0, COUNT_ARRAY(sendcounts), sendtype, root, c), root,   \
                 collective_peers(&sink, V_SCATTER, 0, COUNTS(0, sendcounts, sendtype, NULL),   \
                                  COUNTS(recvcount, NULL, recvtype, NULL), root, c);)        \
    BOTH_V_FORMS(ALLGATHERV##SUFFIX_F, Allgatherv##SUFFIX, IALLGATHERV##SUFFIX_F,            \
                 Iallgatherv##SUFFIX,                                                        \
                 ALLGATHERV_INIT##SUFFIX_F, Allgatherv_init##SUFFIX,                         \
                 (const void *sendbuf, COUNT sendcount, MPI_Datatype sendtype,               \
                  void *recvbuf, const COUNT recvcounts[], const DISP displs[],              \
                  MPI_Datatype recvtype, MPI_Comm comm),                                     \
                 (sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype,       \
                  comm),                                                                     \
                 comm,                                                                       \
                 gather_bytes(IN_PLACE(sendbuf), sendcount, sendtype, 0,                     \
                              COUNT_ARRAY(recvcounts), recvtype, c),                         \
                 -1,                                                                         \
                 collective_peers(&sink, V_ALLGATHER, IN_PLACE(sendbuf),                     \
                                  COUNTS(sendcount, NULL, sendtype, NULL),                   \
                                  COUNTS(0, recvcounts, recvtype, NULL), -1, c);)            \
    BOTH_V_FORMS(ALLTOALLV##SUFFIX_F, Alltoallv##SUFFIX, IALLTOALLV##SUFFIX_F,               \
                 Ialltoallv##SUFFIX,                                                         \
                 ALLTOALLV_INIT##SUFFIX_F, Alltoallv_init##SUFFIX,                           \
                 (const void *sendbuf, const COUNT sendcounts[], const DISP sdispls[],       \
                  MPI_Datatype sendtype, void *recvbuf, const COUNT recvcounts[],            \
                  const DISP rdispls[], MPI_Datatype recvtype, MPI_Comm comm),               \
                 (sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,      \
                  recvtype, comm),                                                           \
                 comm,                                                                       \
                 alltoall_bytes(IN_PLACE(sendbuf), 0, COUNT_ARRAY(sendcounts), sendtype, 0,  \
                                COUNT_ARRAY(recvcounts), recvtype, c),                       \
                 -1,                                                                         \
                 collective_peers(&sink, V_ALLTOALL, IN_PLACE(sendbuf),                      \
                                  COUNTS(0, sendcounts, sendtype, NULL),                     \
                                  COUNTS(0, recvcounts, recvtype, NULL), -1, c);)            \
    BOTH_V_FORMS(ALLTOALLW##SUFFIX_F, Alltoallw##SUFFIX, IALLTOALLW##SUFFIX_F,               \
                 Ialltoallw##SUFFIX,                                                         \
                 ALLTOALLW_INIT##SUFFIX_F, Alltoallw_init##SUFFIX,                           \
                 (const void *sendbuf, const COUNT sendcounts[], const DISP sdispls[],       \
                  const MPI_Datatype sendtypes[], void *recvbuf, const COUNT recvcounts[],   \
                  const DISP rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm),      \
                 (sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls,     \
                  recvtypes, comm),                                                          \
                 comm,                                                                       \
                 IN_PLACE(sendbuf) ? sum_typed(COUNT_ARRAY(recvcounts), recvtypes, comm_size(c))\
                                   : sum_typed(COUNT_ARRAY(sendcounts), sendtypes, comm_size(c)),\
                 -1,                                                                         \
                 collective_peers(&sink, V_ALLTOALL, IN_PLACE(sendbuf),                      \
                                  COUNTS(0, sendcounts, MPI_DATATYPE_NULL, sendtypes),       \
                                  COUNTS(0, recvcounts, MPI_DATATYPE_NULL, recvtypes), -1, c);)

V_COLLECTIVES(, , int, int)
#ifdef SCOPE_MPI_LARGE_COUNT
V_COLLECTIVES(_C, _c, MPI_Count, MPI_Aint)
#endif

/* The collectives of one count each, of count type COUNT (int, or
 * MPI_Count for their large-count forms: large_count.h), their enums and
 * names ending in SUFFIX_F and SUFFIX. */
#define ONE_COUNT_COLLECTIVES(SUFFIX_F, SUFFIX, COUNT)                                       \
    BOTH_FORMS(BCAST##SUFFIX_F, Bcast##SUFFIX, IBCAST##SUFFIX_F, Ibcast##SUFFIX,             \
               BCAST_INIT##SUFFIX_F, Bcast_init##SUFFIX,                                     \
               (void *buf, COUNT count, MPI_Datatype type, int root, MPI_Comm comm),         \
               (buf, count, type, root, comm), comm,                                         \
               broadcast_bytes(count, type, root, c), root)                                  \
    BOTH_FORMS(REDUCE##SUFFIX_F, Reduce##SUFFIX, IREDUCE##SUFFIX_F, Ireduce##SUFFIX,         \
               REDUCE_INIT##SUFFIX_F, Reduce_init##SUFFIX,                                   \
               (const void *sendbuf, void *recvbuf, COUNT count, MPI_Datatype type,          \
                MPI_Op op, int root, MPI_Comm comm),                                         \
               (sendbuf, recvbuf, count, type, op, root, comm), comm,                        \
               reduce_bytes(count, type, root, c), root)                                     \
    BOTH_FORMS(ALLREDUCE##SUFFIX_F, Allreduce##SUFFIX, IALLREDUCE##SUFFIX_F,                 \
               Iallreduce##SUFFIX,                                                           \
               ALLREDUCE_INIT##SUFFIX_F, Allreduce_init##SUFFIX,                             \
               (const void *sendbuf, void *recvbuf, COUNT count, MPI_Datatype type,          \
                MPI_Op op, MPI_Comm comm),                                                   \
               (sendbuf, recvbuf, count, type, op, comm), comm, type_bytes(count, type), -1) \
    BOTH_FORMS(REDUCE_SCATTER_BLOCK##SUFFIX_F, Reduce_scatter_block##SUFFIX,                 \
               IREDUCE_SCATTER_BLOCK##SUFFIX_F, Ireduce_scatter_block##SUFFIX,               \
               REDUCE_SCATTER_BLOCK_INIT##SUFFIX_F, Reduce_scatter_block_init##SUFFIX,       \
               (const void *sendbuf, void *recvbuf, COUNT recvcount, MPI_Datatype type,      \
                MPI_Op op, MPI_Comm comm),                                                   \
               (sendbuf, recvbuf, recvcount, type, op, comm), comm,                          \
               type_bytes(per_rank(recvcount, NO_COUNTS, c), type), -1)                           \
    BOTH_FORMS(SCAN##SUFFIX_F, Scan##SUFFIX, ISCAN##SUFFIX_F, Iscan##SUFFIX,                 \
               SCAN_INIT##SUFFIX_F, Scan_init##SUFFIX,                                       \
               (const void *sendbuf, void *recvbuf, COUNT count, MPI_Datatype type,          \
                MPI_Op op, MPI_Comm comm),                                                   \
               (sendbuf, recvbuf, count, type, op, comm), comm, type_bytes(count, type), -1) \
    BOTH_FORMS(EXSCAN##SUFFIX_F, Exscan##SUFFIX, IEXSCAN##SUFFIX_F, Iexscan##SUFFIX,         \
               EXSCAN_INIT##SUFFIX_F, Exscan_init##SUFFIX,                                   \
               (const void *sendbuf, void *recvbuf, COUNT count, MPI_Datatype type,          \
                MPI_Op op, MPI_Comm comm),                                                   \
               (sendbuf, recvbuf, count, type, op, comm), comm, type_bytes(count, type), -1) \
    BOTH_FORMS(GATHER##SUFFIX_F, Gather##SUFFIX, IGATHER##SUFFIX_F, Igather##SUFFIX,         \
               GATHER_INIT##SUFFIX_F, Gather_init##SUFFIX,                                   \
               (const void *sendbuf, COUNT sendcount, MPI_Datatype sendtype, void *recvbuf,  \
                COUNT recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm),            \
               (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm),     \
               comm,                                                                         \
               in_root_group(c, root) ? 0                                                    \
                   : gather_bytes(IN_PLACE(sendbuf), sendcount, sendtype, recvcount,         \
                                  NO_COUNTS, recvtype, c),                                   \
               root)                                                                         \
    BOTH_FORMS(SCATTER##SUFFIX_F, Scatter##SUFFIX, ISCATTER##SUFFIX_F, Iscatter##SUFFIX,     \
               SCATTER_INIT##SUFFIX_F, Scatter_init##SUFFIX,                                 \
               (const void *sendbuf, COUNT sendcount, MPI_Datatype sendtype, void *recvbuf,  \
                COUNT recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm),            \
               (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm),     \
               comm, scatter_bytes(sendcount, NO_COUNTS, sendtype, root, c), root)                \
    BOTH_FORMS(ALLGATHER##SUFFIX_F, Allgather##SUFFIX, IALLGATHER##SUFFIX_F,                 \
               Iallgather##SUFFIX,                                                           \
               ALLGATHER_INIT##SUFFIX_F, Allgather_init##SUFFIX,                             \
               (const void *sendbuf, COUNT sendcount, MPI_Datatype sendtype, void *recvbuf,  \
                COUNT recvcount, MPI_Datatype recvtype, MPI_Comm comm),                      \
               (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm), comm,     \
               gather_bytes(IN_PLACE(sendbuf), sendcount, sendtype, recvcount, NO_COUNTS,    \
                            recvtype, c),                                                    \
               -1)                                                                           \
    BOTH_FORMS(ALLTOALL##SUFFIX_F, Alltoall##SUFFIX, IALLTOALL##SUFFIX_F, Ialltoall##SUFFIX, \
               ALLTOALL_INIT##SUFFIX_F, Alltoall_init##SUFFIX,                               \
               (const void *sendbuf, COUNT sendcount, MPI_Datatype sendtype, void *recvbuf,  \
                COUNT recvcount, MPI_Datatype recvtype, MPI_Comm comm),                      \
               (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm), comm,     \
               alltoall_bytes(IN_PLACE(sendbuf), sendcount, NO_COUNTS, sendtype, recvcount,  \
                              NO_COUNTS, recvtype, c),                                       \
               -1)

ONE_COUNT_COLLECTIVES(, , int)
#ifdef SCOPE_MPI_LARGE_COUNT
ONE_COUNT_COLLECTIVES(_C, _c, MPI_Count)
#endif
