/* fortran_handles.c: the Fortran entry points that tell the communicator
 * table (comm_table.h) about communicators and windows, as the C wrappers
 * do (comm_wrappers.c, rma_io_wrappers.c), while scope records any MPI
 * call's payload: a communicator made (its id now, in the order of
 * creation: Open MPI's bindings, and MPICH's mpi_f08 ones, call
 * PMPI_Comm_split and the others directly, past the C wrappers), a window
 * made over a communicator (its targets are that one's ranks), a window
 * or communicator freed (its handle, which MPI may give again, forgotten
 * first). A C constructor wrapper the binding reaches (MPICH's `use mpi`
 * bindings call MPI_Comm_split) leaves the new communicator to this one
 * (scope_comm_fortran_constructing). Handles through MPI_*_f2c. */
#include "fortran_call.h"

enum handle_kind { COMM_MADE, WINDOW_MADE, WINDOW_FREED, COMM_FREED };

/* Argument positions (1-based): the communicator, the new or freed
 * handle, ierror. */
struct handle_desc {
    enum handle_kind kind;
    int comm, handle, ierr;
};

static void handle_call(const struct handle_desc *d, fortran_fn real, void *caller, void **a)
{
    (void)caller;
    if (!scope_wrapped_any()) {
        fortran_forward(real, a);
        return;
    }
    if (d->kind == WINDOW_FREED)
        scope_window_forget(PMPI_Win_f2c(fint(a, d->handle)));
    if (d->kind == COMM_FREED)
        scope_comm_forget(PMPI_Comm_f2c(fint(a, d->handle)));
    scope_comm_fortran_constructing += d->kind == COMM_MADE;
    fortran_forward(real, a);
    scope_comm_fortran_constructing -= d->kind == COMM_MADE;
    if (!fortran_succeeded(a, d->ierr))
        return;
    if (d->kind == WINDOW_MADE)
        scope_window_created(PMPI_Win_f2c(fint(a, d->handle)), PMPI_Comm_f2c(fint(a, d->comm)));
    if (d->kind == COMM_MADE)
        scope_comm_created(PMPI_Comm_f2c(fint(a, d->handle)));
}

#define HANDLE(lower, upper, ...)                                                             \
    FORTRAN(lower, upper, handle_call, struct handle_desc, __VA_ARGS__)
#define MADE(lower, upper, NEWCOMM)                                                           \
    HANDLE(lower, upper, .kind = COMM_MADE, .handle = NEWCOMM, .ierr = NEWCOMM + 1)

/* (comm, [arguments,] newcomm, ierror): the new communicator's position */
MADE(mpi_comm_dup, MPI_COMM_DUP, 2)                  /* comm */
MADE(mpi_comm_split, MPI_COMM_SPLIT, 4)              /* comm, color, key */
MADE(mpi_comm_split_type, MPI_COMM_SPLIT_TYPE, 5)    /* comm, type, key, info */
MADE(mpi_comm_create, MPI_COMM_CREATE, 3)            /* comm, group */
MADE(mpi_comm_create_group, MPI_COMM_CREATE_GROUP, 4) /* comm, group, tag */
MADE(mpi_cart_create, MPI_CART_CREATE, 6)            /* comm, ndims, dims, periods, reorder */
MADE(mpi_cart_sub, MPI_CART_SUB, 3)                  /* comm, remain_dims */
MADE(mpi_graph_create, MPI_GRAPH_CREATE, 6)          /* comm, nnodes, index, edges, reorder */
/* comm, n, sources, degrees, destinations, weights, info, reorder */
MADE(mpi_dist_graph_create, MPI_DIST_GRAPH_CREATE, 9)
/* comm, indegree, sources, sourceweights, outdegree, destinations, destweights, info,
 * reorder */
MADE(mpi_dist_graph_create_adjacent, MPI_DIST_GRAPH_CREATE_ADJACENT, 10)
/* local_comm, local_leader, peer_comm, remote_leader, tag */
MADE(mpi_intercomm_create, MPI_INTERCOMM_CREATE, 6)
MADE(mpi_intercomm_merge, MPI_INTERCOMM_MERGE, 3)    /* intercomm, high */
/* (base, size, disp_unit, info, comm, win, ierror): base a choice buffer */
FORTRAN_BUFFERS(mpi_win_create, MPI_WIN_CREATE, handle_call, struct handle_desc,
                .kind = WINDOW_MADE, .comm = 5, .handle = 6, .ierr = 7)
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
