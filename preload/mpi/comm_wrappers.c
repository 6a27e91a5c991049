/* comm_wrappers.c: the communicator constructors and MPI_Comm_free, as
 * PMPI wrappers, while scope records any MPI call's payload: a new
 * communicator gets its id now (comm_table.h), so that ids follow the
 * order of creation, which every member shares; a freed one's handle is
 * forgotten. Communicators made otherwise get theirs at first use. */
#include <mpi.h>

#include "comm_table.h"
#include "payload_functions.h"

#define EXPORT __attribute__((visibility("default")))

/* One description per constructor: parameters, arguments, the new handle. */
#define CONSTRUCTOR(NAME, PARAMS, ARGS, NEWCOMM)                \
    EXPORT int MPI_##NAME PARAMS                                \
    {                                                           \
        int rc = PMPI_##NAME ARGS;                              \
        if (rc == MPI_SUCCESS && scope_wrapped_any())           \
            scope_comm_created(*(NEWCOMM));                     \
        return rc;                                              \
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

EXPORT int MPI_Comm_free(MPI_Comm *comm)
{
    if (scope_wrapped_any())
        scope_comm_forget(*comm);
    return PMPI_Comm_free(comm);
}
