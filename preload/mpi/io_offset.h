/* io_offset.h: where an MPI-IO read or write starts, as the absolute byte
 * offset in the file through its view, for the C wrappers
 * (rma_io_wrappers.c) and the Fortran ones (fortran_io.c); -1 when MPI
 * cannot say. Asked before the call (it moves the file pointer). */
#ifndef SCOPE_IO_OFFSET_H
#define SCOPE_IO_OFFSET_H

#include <mpi.h>
#include <stdint.h>

/* An explicit offset (etype units of the view). */
static inline int64_t byte_offset(MPI_File fh, MPI_Offset offset)
{
    MPI_Offset at;
    return PMPI_File_get_byte_offset(fh, offset, &at) == MPI_SUCCESS ? (int64_t)at : -1;
}

/* The individual file pointer's. */
static inline int64_t pointer_offset(MPI_File fh)
{
    MPI_Offset position;
    return PMPI_File_get_position(fh, &position) == MPI_SUCCESS ? byte_offset(fh, position) : -1;
}

#endif
