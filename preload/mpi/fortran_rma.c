/* fortran_rma.c: the Fortran entry points of one-sided communication
 * (fortran_call.h), recorded as the C wrappers record them
 * (rma_io_wrappers.c): MPI_Put, MPI_Get, MPI_Accumulate and their R forms
 * carry the origin's count x type size; the atomics that also fetch
 * (MPI_Get_accumulate and its R form, MPI_Fetch_and_op) the operand sent,
 * nothing for MPI_NO_OP, plus the result fetched; MPI_Compare_and_swap
 * its origin, compare and result values. Each goes to the target as a
 * world rank, through the communicator the window was made over (known
 * from the window's constructor: fortran_handles.c). */
#include "fortran_call.h"

/* Argument positions (1-based; 0: none). count 0: one value of type;
 * op 0: none, the operand always sent; result_type 0: nothing fetched,
 * result_count 0: one value; compare: a compare value of the operand's
 * size goes too. */
struct rma_desc {
    enum scope_wrapped_function f;
    int count, type, op, result_count, result_type, compare, target, win, ierr;
};

static int64_t values_bytes(void *const *a, int count, int type)
{
    return type_bytes(count ? fortran_count(a, count) : 1, fortran_type(a, type));
}

static int64_t rma_bytes(const struct rma_desc *d, void *const *a)
{
    int64_t operand = 0, result = 0;
    if (!d->op || PMPI_Op_f2c(fint(a, d->op)) != MPI_NO_OP)
        operand = values_bytes(a, d->count, d->type);
    if (d->result_type)
        result = values_bytes(a, d->result_count, d->result_type);
    return operand * (1 + d->compare) + result;
}

static void rma_call(const struct rma_desc *d, fortran_fn real, void *caller, void **a)
{
    struct wrapped_call w;
    if (!fortran_timed(&w, d->f, real, a))
        return;
    if (fortran_succeeded(a, d->ierr)) {
        const struct scope_comm *c = scope_window_comm(PMPI_Win_f2c(fint(a, d->win)));
        add_item(&w, SCOPE_ITEM_CALL, rma_bytes(d, a),
                 scope_comm_world_rank(c, fint(a, d->target)), -1, c);
    }
    call_ends(&w, caller);
}

/* One function, under the manglings MANGLINGS makes (fortran_call.h). */
#define ONE_SIDED(MANGLINGS, lower, upper, F, ...)                                             \
    MANGLINGS(lower, upper, rma_call, struct rma_desc, .f = SCOPE_WRAPPED_##F, __VA_ARGS__)

/* An RMA call and its request-based form, whose request comes before
 * ierror. */
#define RMA(lower, upper, F, rlower, rupper, RF, WIN, ...)                                     \
    ONE_SIDED(FORTRAN_COUNTS, lower, upper, F, .win = WIN, .ierr = WIN + 1, __VA_ARGS__)       \
    ONE_SIDED(FORTRAN_COUNTS, rlower, rupper, RF, .win = WIN, .ierr = WIN + 2, __VA_ARGS__)

/* (origin, origin_count, origin_type, target_rank, target_disp, target_count, target_type,
 *  [op,] win, [request,] ierror) */
RMA(mpi_put, MPI_PUT, PUT, mpi_rput, MPI_RPUT, RPUT, 8, .count = 2, .type = 3, .target = 4)
RMA(mpi_get, MPI_GET, GET, mpi_rget, MPI_RGET, RGET, 8, .count = 2, .type = 3, .target = 4)
RMA(mpi_accumulate, MPI_ACCUMULATE, ACCUMULATE, mpi_raccumulate, MPI_RACCUMULATE, RACCUMULATE,
    9, .count = 2, .type = 3, .target = 4)
/* (origin, origin_count, origin_type, result, result_count, result_type, target_rank,
 *  target_disp, target_count, target_type, op, win, [request,] ierror) */
RMA(mpi_get_accumulate, MPI_GET_ACCUMULATE, GET_ACCUMULATE, mpi_rget_accumulate,
    MPI_RGET_ACCUMULATE, RGET_ACCUMULATE, 12, .count = 2, .type = 3, .result_count = 5,
    .result_type = 6, .target = 7, .op = 11)
/* (origin, result, type, target_rank, target_disp, op, win, ierror) */
/* (no count: no large-count form) */
ONE_SIDED(FORTRAN_BUFFERS, mpi_fetch_and_op, MPI_FETCH_AND_OP, FETCH_AND_OP, .type = 3,
          .result_type = 3, .target = 4, .op = 6, .win = 7, .ierr = 8)
/* (origin, compare, result, type, target_rank, target_disp, win, ierror) */
ONE_SIDED(FORTRAN_BUFFERS, mpi_compare_and_swap, MPI_COMPARE_AND_SWAP, COMPARE_AND_SWAP,
          .type = 4, .result_type = 4, .compare = 1, .target = 5, .win = 7, .ierr = 8)
