/* fortran_rma.c: the Fortran entry points of one-sided communication
 * (fortran_call.h), recorded as the C wrappers record them
 * (rma_io_wrappers.c): MPI_Put, MPI_Get, MPI_Accumulate and their R forms
 * carry the origin's count x type size to the target as a world rank,
 * through the communicator the window was made over (known from the
 * window's constructor: fortran_handles.c). */
#include "fortran_call.h"

/* ---- puts, gets, accumulates ---- */

/* Argument positions (1-based). */
struct rma_desc {
    enum scope_wrapped_function f;
    int count, type, target, win, ierr;
};

static void rma_call(const struct rma_desc *d, fortran_fn real, void *caller, void **a)
{
    struct wrapped_call w;
    if (!fortran_timed(&w, d->f, real, a))
        return;
    if (fortran_succeeded(a, d->ierr)) {
        const struct scope_comm *c = scope_window_comm(PMPI_Win_f2c(fint(a, d->win)));
        add_item(&w, SCOPE_ITEM_CALL, fortran_bytes(a, d->count, d->type),
                 scope_comm_world_rank(c, fint(a, d->target)), -1, c);
    }
    call_ends(&w, caller);
}

/* An RMA call and its request-based form, whose request comes before
 * ierror. */
#define RMA(lower, upper, F, rlower, rupper, RF, WIN)                                          \
    FORTRAN(lower, upper, rma_call, struct rma_desc, .f = SCOPE_WRAPPED_##F, .count = 2,       \
            .type = 3, .target = 4, .win = WIN, .ierr = WIN + 1)                               \
    FORTRAN(rlower, rupper, rma_call, struct rma_desc, .f = SCOPE_WRAPPED_##RF, .count = 2,    \
            .type = 3, .target = 4, .win = WIN, .ierr = WIN + 2)

/* (origin, origin_count, origin_type, target_rank, target_disp, target_count, target_type,
 *  [op,] win, [request,] ierror) */
RMA(mpi_put, MPI_PUT, PUT, mpi_rput, MPI_RPUT, RPUT, 8)
RMA(mpi_get, MPI_GET, GET, mpi_rget, MPI_RGET, RGET, 8)
RMA(mpi_accumulate, MPI_ACCUMULATE, ACCUMULATE, mpi_raccumulate, MPI_RACCUMULATE, RACCUMULATE,
    9)
