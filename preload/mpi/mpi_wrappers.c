/* mpi_wrappers.c: the MPI entry points scope intercepts through PMPI. They
 * call the real implementation and tell the merge layer (or, for
 * MPI_Abort, keep the records for `scope recover`); nothing else. */
#include <mpi.h>

#include "fault_signals.h"
#include "mpi_merge.h"

#define EXPORT __attribute__((visibility("default")))

EXPORT int MPI_Init(int *argc, char ***argv)
{
    int rc = PMPI_Init(argc, argv);
    if (rc == MPI_SUCCESS)
        scope_mpi_after_init();
    return rc;
}

EXPORT int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    int rc = PMPI_Init_thread(argc, argv, required, provided);
    if (rc == MPI_SUCCESS)
        scope_mpi_after_init();
    return rc;
}

EXPORT int MPI_Finalize(void)
{
    scope_mpi_before_finalize();
    return PMPI_Finalize();
}

EXPORT int MPI_Abort(MPI_Comm comm, int errorcode)
{
    scope_keep_records_for_recover("MPI_Abort");
    return PMPI_Abort(comm, errorcode);
}
