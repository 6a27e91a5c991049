/* fortran_io.c: the Fortran entry points of the MPI-IO reads and writes
 * scope records with their payload (fortran_call.h): blocking and
 * nonblocking, at the individual file pointer, at an explicit offset
 * (INTEGER(KIND=MPI_OFFSET_KIND), 64 bits) or at the shared pointer, each
 * with its bytes and the offset where it starts as the C wrappers record
 * them (rma_io_wrappers.c, io_offset.h); the split collective ones at
 * their beginning (MPI_File_read_all_begin ...). */
#include "fortran_call.h"
#include "io_offset.h"

enum io_position { AT_POINTER, AT_OFFSET, AT_SHARED };

/* Argument positions (1-based, 0: none). */
struct io_desc {
    enum scope_wrapped_function f;
    enum io_position position;
    int offset, count, type, ierr;
};

static void io_call(const struct io_desc *d, fortran_fn real, void *caller, void **a)
{
    struct wrapped_call w;
    if (!call_begins(&w, d->f)) {
        fortran_forward(real, a);
        return;
    }
    MPI_File fh = PMPI_File_f2c(fint(a, 1));
    const MPI_Offset *offset = fortran_arg(a, d->offset);
    int64_t starts_at = d->position == AT_POINTER ? pointer_offset(fh)
                        : d->position == AT_OFFSET && offset ? byte_offset(fh, *offset)
                                                             : -1;
    w.start = scope_wrapped_clock();
    fortran_forward(real, a);
    call_returned(&w);
    if (fortran_succeeded(a, d->ierr)) {
        struct scope_payload_item it = scope_io_item(fortran_bytes(a, d->count, d->type),
                                                     starts_at);
        add_item(&w, SCOPE_ITEM_CALL, it.bytes, it.peer, it.tag, NULL);
    }
    call_ends(&w, caller);
}

#define IO(lower, upper, F, ...)                                                              \
    FORTRAN_BUFFERS(lower, upper, io_call, struct io_desc, .f = SCOPE_WRAPPED_##F, __VA_ARGS__)

/* (fh, buf, count, datatype, status or request, ierror) */
#define POINTER .position = AT_POINTER, .count = 3, .type = 4, .ierr = 6
#define SHARED .position = AT_SHARED, .count = 3, .type = 4, .ierr = 6
/* (fh, offset, buf, count, datatype, status or request, ierror) */
#define OFFSET .position = AT_OFFSET, .offset = 2, .count = 4, .type = 5, .ierr = 7
/* The beginning of a split collective one: the same without a status
 * (ierr, the last position, one earlier). */
#define BEGIN(...) __VA_ARGS__ - 1

IO(mpi_file_read, MPI_FILE_READ, FILE_READ, POINTER)
IO(mpi_file_write, MPI_FILE_WRITE, FILE_WRITE, POINTER)
IO(mpi_file_read_all, MPI_FILE_READ_ALL, FILE_READ_ALL, POINTER)
IO(mpi_file_write_all, MPI_FILE_WRITE_ALL, FILE_WRITE_ALL, POINTER)
IO(mpi_file_iread, MPI_FILE_IREAD, FILE_IREAD, POINTER)
IO(mpi_file_iwrite, MPI_FILE_IWRITE, FILE_IWRITE, POINTER)
IO(mpi_file_iread_all, MPI_FILE_IREAD_ALL, FILE_IREAD_ALL, POINTER)
IO(mpi_file_iwrite_all, MPI_FILE_IWRITE_ALL, FILE_IWRITE_ALL, POINTER)
IO(mpi_file_read_at, MPI_FILE_READ_AT, FILE_READ_AT, OFFSET)
IO(mpi_file_write_at, MPI_FILE_WRITE_AT, FILE_WRITE_AT, OFFSET)
IO(mpi_file_read_at_all, MPI_FILE_READ_AT_ALL, FILE_READ_AT_ALL, OFFSET)
IO(mpi_file_write_at_all, MPI_FILE_WRITE_AT_ALL, FILE_WRITE_AT_ALL, OFFSET)
IO(mpi_file_iread_at, MPI_FILE_IREAD_AT, FILE_IREAD_AT, OFFSET)
IO(mpi_file_iwrite_at, MPI_FILE_IWRITE_AT, FILE_IWRITE_AT, OFFSET)
IO(mpi_file_iread_at_all, MPI_FILE_IREAD_AT_ALL, FILE_IREAD_AT_ALL, OFFSET)
IO(mpi_file_iwrite_at_all, MPI_FILE_IWRITE_AT_ALL, FILE_IWRITE_AT_ALL, OFFSET)
IO(mpi_file_read_shared, MPI_FILE_READ_SHARED, FILE_READ_SHARED, SHARED)
IO(mpi_file_write_shared, MPI_FILE_WRITE_SHARED, FILE_WRITE_SHARED, SHARED)
IO(mpi_file_iread_shared, MPI_FILE_IREAD_SHARED, FILE_IREAD_SHARED, SHARED)
IO(mpi_file_iwrite_shared, MPI_FILE_IWRITE_SHARED, FILE_IWRITE_SHARED, SHARED)
IO(mpi_file_read_ordered, MPI_FILE_READ_ORDERED, FILE_READ_ORDERED, SHARED)
IO(mpi_file_write_ordered, MPI_FILE_WRITE_ORDERED, FILE_WRITE_ORDERED, SHARED)
IO(mpi_file_read_all_begin, MPI_FILE_READ_ALL_BEGIN, FILE_READ_ALL_BEGIN, BEGIN(POINTER))
IO(mpi_file_write_all_begin, MPI_FILE_WRITE_ALL_BEGIN, FILE_WRITE_ALL_BEGIN, BEGIN(POINTER))
IO(mpi_file_read_at_all_begin, MPI_FILE_READ_AT_ALL_BEGIN, FILE_READ_AT_ALL_BEGIN,
   BEGIN(OFFSET))
IO(mpi_file_write_at_all_begin, MPI_FILE_WRITE_AT_ALL_BEGIN, FILE_WRITE_AT_ALL_BEGIN,
   BEGIN(OFFSET))
IO(mpi_file_read_ordered_begin, MPI_FILE_READ_ORDERED_BEGIN, FILE_READ_ORDERED_BEGIN,
   BEGIN(SHARED))
IO(mpi_file_write_ordered_begin, MPI_FILE_WRITE_ORDERED_BEGIN, FILE_WRITE_ORDERED_BEGIN,
   BEGIN(SHARED))
