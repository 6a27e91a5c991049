/* fortran_handles.c: the Fortran entry points that tell the communicator
 * table (comm_table.h) about windows and freed communicators, as the C
 * wrappers do (rma_io_wrappers.c, comm_wrappers.c), while scope records
 * any MPI call's payload: a window made over a communicator (its targets
 * are that one's ranks), a window or communicator freed (its handle,
 * which MPI may give again, forgotten first). Handles through
 * MPI_*_f2c. */
#include "fortran_call.h"

enum handle_kind { WINDOW_MADE, WINDOW_FREED, COMM_FREED };

/* Argument positions (1-based): the communicator, the new or freed
 * handle, ierror. */
struct handle_desc {
    enum handle_kind kind;
    int comm, handle, ierr;
};

static void handle_call(const struct handle_desc *d, fortran_fn real, void *caller, void **a)
{
    (void)caller;
    if (d->kind == WINDOW_FREED && scope_wrapped_any())
        scope_window_forget(PMPI_Win_f2c(fint(a, d->handle)));
    if (d->kind == COMM_FREED && scope_wrapped_any())
        scope_comm_forget(PMPI_Comm_f2c(fint(a, d->handle)));
    fortran_forward(real, a);
    if (d->kind == WINDOW_MADE && fortran_succeeded(a, d->ierr) && scope_wrapped_any())
        scope_window_created(PMPI_Win_f2c(fint(a, d->handle)), PMPI_Comm_f2c(fint(a, d->comm)));
}

#define HANDLE(lower, upper, ...)                                                             \
    FORTRAN(lower, upper, handle_call, struct handle_desc, __VA_ARGS__)

/* (base, size, disp_unit, info, comm, win, ierror) */
HANDLE(mpi_win_create, MPI_WIN_CREATE, .kind = WINDOW_MADE, .comm = 5, .handle = 6, .ierr = 7)
/* (size, disp_unit, info, comm, baseptr, win, ierror) */
HANDLE(mpi_win_allocate, MPI_WIN_ALLOCATE, .kind = WINDOW_MADE, .comm = 4, .handle = 6,
       .ierr = 7)
HANDLE(mpi_win_allocate_shared, MPI_WIN_ALLOCATE_SHARED, .kind = WINDOW_MADE, .comm = 4,
       .handle = 6, .ierr = 7)
/* (info, comm, win, ierror) */
HANDLE(mpi_win_create_dynamic, MPI_WIN_CREATE_DYNAMIC, .kind = WINDOW_MADE, .comm = 2,
       .handle = 3, .ierr = 4)
/* (win or comm, ierror) */
HANDLE(mpi_win_free, MPI_WIN_FREE, .kind = WINDOW_FREED, .handle = 1, .ierr = 2)
HANDLE(mpi_comm_free, MPI_COMM_FREE, .kind = COMM_FREED, .handle = 1, .ierr = 2)
