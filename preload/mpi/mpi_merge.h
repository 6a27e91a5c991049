/* mpi_merge.h: what the PMPI wrappers call: set-up after MPI_Init and the
 * collective end of the run in MPI_Finalize (clock sync, streaming every
 * rank's events to rank 0, which writes the file). */
#ifndef SCOPE_MPI_MERGE_H
#define SCOPE_MPI_MERGE_H

void scope_mpi_after_init(void);
void scope_mpi_before_finalize(void);

#endif
