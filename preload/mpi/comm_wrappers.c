/* comm_wrappers.c: the communicator constructors and MPI_Comm_free, as
 * PMPI wrappers, while scope records any MPI call's payload: a new
 * communicator gets its id now (comm_table.h), so that ids follow the
 * order of creation, which every member shares; a freed one's handle is
 * forgotten. A constructor reached from scope's own Fortran entry point
 * (fortran_handles.c) leaves the new one to it.
 * Communicators made otherwise (MPI_Comm_idup, MPI_Comm_accept, ...) get
 * theirs at first use. */
#include <mpi.h>

#include "comm_table.h"
#include "payload_functions.h"

#define EXPORT __attribute__((visibility("default")))

/* One description per constructor: parameters, arguments, the new handle. */
#define CONSTRUCTOR(NAME, PARAMS, ARGS, NEWCOMM)                          \
    EXPORT int MPI_##NAME PARAMS                                          \
    {                                                                     \
        int rc = PMPI_##NAME ARGS;                                        \
        if (rc == MPI_SUCCESS && scope_wrapped_any() &&                  \
            !scope_comm_fortran_constructing)                             \
            scope_comm_created(*(NEWCOMM));                               \
        return rc;                                                        \
    }

CONSTRUCTOR(Comm_dup, (MPI_Comm comm, MPI_Comm *newcomm), (comm, newcomm), newcomm)
CONSTRUCTOR(Comm_split, (MPI_Comm comm, int color, int key, MPI_Comm *newcomm),
            (comm, color, key, newcomm), newcomm)
CONSTRUCTOR(Comm_split_type, (MPI_Comm comm, int type, int key, MPI_Info info, MPI_Comm *newcomm),
            (comm, type, key, info, newcomm), newcomm)
CONSTRUCTOR(Comm_create, (MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm),
            (comm, group, newcomm), newcomm)
CONSTRUCTOR(Cart_create,
            (MPI_Comm comm, int ndims, const int dims[], const int periods[], int reorder,
             MPI_Comm *newcomm),
            (comm, ndims, dims, periods, reorder, newcomm), newcomm)
CONSTRUCTOR(Cart_sub, (MPI_Comm comm, const int remain_dims[], MPI_Comm *newcomm),
            (comm, remain_dims, newcomm), newcomm)
CONSTRUCTOR(Comm_create_group, (MPI_Comm comm, MPI_Group group, int tag, MPI_Comm *newcomm),
            (comm, group, tag, newcomm), newcomm)
CONSTRUCTOR(Graph_create,
            (MPI_Comm comm, int nnodes, const int index[], const int edges[], int reorder,
             MPI_Comm *newcomm),
            (comm, nnodes, index, edges, reorder, newcomm), newcomm)
CONSTRUCTOR(Dist_graph_create,
            (MPI_Comm comm, int n, const int sources[], const int degrees[],
             const int destinations[], const int weights[], MPI_Info info, int reorder,
             MPI_Comm *newcomm),
            (comm, n, sources, degrees, destinations, weights, info, reorder, newcomm), newcomm)
CONSTRUCTOR(Dist_graph_create_adjacent,
            (MPI_Comm comm, int indegree, const int sources[], const int sourceweights[],
             int outdegree, const int destinations[], const int destweights[], MPI_Info info,
             int reorder, MPI_Comm *newcomm),
            (comm, indegree, sources, sourceweights, outdegree, destinations, destweights, info,
             reorder, newcomm),
            newcomm)
CONSTRUCTOR(Intercomm_create,
            (MPI_Comm local_comm, int local_leader, MPI_Comm peer_comm, int remote_leader,
             int tag, MPI_Comm *newcomm),
            (local_comm, local_leader, peer_comm, remote_leader, tag, newcomm), newcomm)
CONSTRUCTOR(Intercomm_merge, (MPI_Comm intercomm, int high, MPI_Comm *newcomm),
            (intercomm, high, newcomm), newcomm)

EXPORT int MPI_Comm_free(MPI_Comm *comm)
{
    if (scope_wrapped_any())
        scope_comm_forget(*comm);
    return PMPI_Comm_free(comm);
}
