/* fortran_collectives.c: the Fortran entry points of the collectives scope
 * records with their payload (fortran_call.h), blocking and nonblocking,
 * one description each: where the function keeps its buffers, counts,
 * types, root and communicator, and its shape, whose bytes are the C
 * wrappers' (collective_bytes.h); the peer is the root as a world rank.
 * The v and w forms add their bytes per peer as the C ones do
 * (collective_peers.h). */
#include "collective_peers.h"
#include "fortran_call.h"

enum collective_shape { BARRIER, BCAST, REDUCE, REDUCE_SCATTER, REDUCE_SCATTER_BLOCK, GATHER,
                        GATHERV, SCATTER, SCATTERV, ALLTOALL, ALLTOALLV, ALLTOALLW };

/* Argument positions (1-based, 0: none); a v or w form's counts are
 * arrays, a w form's types too. */
struct collective_desc {
    enum scope_wrapped_function f;
    enum collective_shape shape;
    int sendbuf, sendcount, sendtype, recvcount, recvtype, root, comm, ierr;
};

/* MPI_Alltoallw: counts[i] of Fortran type types[i] to each rank i of c. */
static int64_t typed_sum(struct count_array counts, const MPI_Fint *types,
                         const struct scope_comm *c)
{
    int64_t total = 0;
    for (int i = 0; has_counts(counts) && types && i < comm_size(c); i++)
        total += type_bytes(count_at(counts, i), PMPI_Type_f2c(types[i]));
    return total;
}

static int64_t collective_bytes(const struct collective_desc *d, void *const *a,
                                const struct scope_comm *c)
{
    int typed = d->shape == ALLTOALLW;   /* its types are arrays */
    MPI_Datatype st = typed ? MPI_DATATYPE_NULL : fortran_type(a, d->sendtype);
    MPI_Datatype rt = typed ? MPI_DATATYPE_NULL : fortran_type(a, d->recvtype);
    int in_place = scope_fortran_in_place(fortran_buffer(a, d->sendbuf));
    int root = fint(a, d->root);
    if ((d->shape == GATHER || d->shape == GATHERV) && d->root && in_root_group(c, root))
        return 0;   /* the root's group on an intercommunicator sends nothing */
    switch (d->shape) {
    case BARRIER:
        return 0;
    case BCAST:
        return broadcast_bytes(fortran_count(a, d->sendcount), st, root, c);
    case REDUCE:
        return reduce_bytes(fortran_count(a, d->sendcount), st, root, c);
    case REDUCE_SCATTER:
        return type_bytes(per_rank(0, fortran_counts(a, d->sendcount), c), st);
    case REDUCE_SCATTER_BLOCK:
        return type_bytes(per_rank(fortran_count(a, d->sendcount), NO_COUNTS, c), st);
    case GATHER:
        return gather_bytes(in_place, fortran_count(a, d->sendcount), st,
                            fortran_count(a, d->recvcount), NO_COUNTS, rt, c);
    case GATHERV:
        return gather_bytes(in_place, fortran_count(a, d->sendcount), st, 0,
                            fortran_counts(a, d->recvcount), rt, c);
    case SCATTER:
        return scatter_bytes(fortran_count(a, d->sendcount), NO_COUNTS, st, root, c);
    case SCATTERV:
        return scatter_bytes(0, fortran_counts(a, d->sendcount), st, root, c);
    case ALLTOALL:
        return alltoall_bytes(in_place, fortran_count(a, d->sendcount), NO_COUNTS, st,
                              fortran_count(a, d->recvcount), NO_COUNTS, rt, c);
    case ALLTOALLV:
        return alltoall_bytes(in_place, 0, fortran_counts(a, d->sendcount), st, 0,
                              fortran_counts(a, d->recvcount), rt, c);
    case ALLTOALLW:
        return in_place
                   ? typed_sum(fortran_counts(a, d->recvcount), fortran_arg(a, d->recvtype), c)
                   : typed_sum(fortran_counts(a, d->sendcount), fortran_arg(a, d->sendtype), c);
    }
    return 0;
}

/* A v or w form's bytes per peer (the others add none). */
static void collective_peer_bytes(const struct collective_desc *d, const struct wrapped_call *w,
                                  void *const *a, const struct scope_comm *c)
{
    int typed = d->shape == ALLTOALLW;
    MPI_Datatype st = typed ? MPI_DATATYPE_NULL : fortran_type(a, d->sendtype);
    MPI_Datatype rt = typed ? MPI_DATATYPE_NULL : fortran_type(a, d->recvtype);
    const MPI_Fint *sts = typed ? fortran_arg(a, d->sendtype) : NULL;
    const MPI_Fint *rts = typed ? fortran_arg(a, d->recvtype) : NULL;
    int in_place = scope_fortran_in_place(fortran_buffer(a, d->sendbuf));
    struct peer_counts scalar_send = {fortran_count(a, d->sendcount), NO_COUNTS, st, NULL,
                                      NULL};
    struct peer_counts send = {0, fortran_counts(a, d->sendcount), st, NULL, sts};
    struct peer_counts scalar_recv = {fortran_count(a, d->recvcount), NO_COUNTS, rt, NULL,
                                      NULL};
    struct peer_counts recv = {0, fortran_counts(a, d->recvcount), rt, NULL, rts};
    struct peer_counts reduced = {0, fortran_counts(a, d->sendcount), st, NULL, NULL};
    struct peer_sink now = {.hook = w->hook};
    switch (d->shape) {
    case REDUCE_SCATTER:   /* its counts are the receive counts */
        collective_peers(&now, V_REDUCE_SCATTER, 0, &scalar_send, &reduced, -1, c);
        return;
    case GATHERV:
        collective_peers(&now, d->root ? V_GATHER : V_ALLGATHER, in_place, &scalar_send, &recv,
                         fint(a, d->root), c);
        return;
    case SCATTERV:
        collective_peers(&now, V_SCATTER, 0, &send, &scalar_recv, fint(a, d->root), c);
        return;
    case ALLTOALLV:
    case ALLTOALLW:
        collective_peers(&now, V_ALLTOALL, in_place, &send, &recv, -1, c);
        return;
    default:
        return;
    }
}

static void collective_call(const struct collective_desc *d, fortran_fn real, void *caller,
                            void **a)
{
    struct wrapped_call w;
    if (!fortran_timed(&w, d->f, real, a))
        return;
    if (fortran_succeeded(a, d->ierr)) {
        const struct scope_comm *c = fortran_comm(a, d->comm);
        add_item(&w, SCOPE_ITEM_CALL, collective_bytes(d, a, c),
                 d->root ? scope_comm_world_rank(c, fint(a, d->root)) : -1, -1, c);
        collective_peer_bytes(d, &w, a, c);
    }
    call_ends(&w, caller);
}

/* A collective and its nonblocking form, whose request comes before
 * ierror, under the manglings MANGLINGS makes (fortran_call.h). */
#define COLLECTIVE_OF(MANGLINGS, lower, upper, F, ilower, iupper, IF, POSITIONS, IERR)        \
    MANGLINGS(lower, upper, collective_call, struct collective_desc, .f = SCOPE_WRAPPED_##F,  \
              UNPAREN POSITIONS, .ierr = IERR)                                                \
    MANGLINGS(ilower, iupper, collective_call, struct collective_desc,                        \
              .f = SCOPE_WRAPPED_##IF, UNPAREN POSITIONS, .ierr = IERR + 1)
/* The collectives with buffers. */
#define COLLECTIVE(...) COLLECTIVE_OF(FORTRAN_COUNTS, __VA_ARGS__)

/* (comm, ierror) */
COLLECTIVE_OF(FORTRAN, mpi_barrier, MPI_BARRIER, BARRIER, mpi_ibarrier, MPI_IBARRIER, IBARRIER,
              (.shape = BARRIER, .comm = 1), 2)
/* (buffer, count, datatype, root, comm, ierror) */
COLLECTIVE(mpi_bcast, MPI_BCAST, BCAST, mpi_ibcast, MPI_IBCAST, IBCAST,
           (.shape = BCAST, .sendcount = 2, .sendtype = 3, .root = 4, .comm = 5), 6)
/* (sendbuf, recvbuf, count, datatype, op, root, comm, ierror) */
COLLECTIVE(mpi_reduce, MPI_REDUCE, REDUCE, mpi_ireduce, MPI_IREDUCE, IREDUCE,
           (.shape = REDUCE, .sendcount = 3, .sendtype = 4, .root = 6, .comm = 7), 8)
/* (sendbuf, recvbuf, count, datatype, op, comm, ierror) */
COLLECTIVE(mpi_allreduce, MPI_ALLREDUCE, ALLREDUCE, mpi_iallreduce, MPI_IALLREDUCE, IALLREDUCE,
           (.shape = REDUCE, .sendcount = 3, .sendtype = 4, .comm = 6), 7)
COLLECTIVE(mpi_scan, MPI_SCAN, SCAN, mpi_iscan, MPI_ISCAN, ISCAN,
           (.shape = REDUCE, .sendcount = 3, .sendtype = 4, .comm = 6), 7)
COLLECTIVE(mpi_exscan, MPI_EXSCAN, EXSCAN, mpi_iexscan, MPI_IEXSCAN, IEXSCAN,
           (.shape = REDUCE, .sendcount = 3, .sendtype = 4, .comm = 6), 7)
/* (sendbuf, recvbuf, recvcounts or recvcount, datatype, op, comm, ierror) */
COLLECTIVE(mpi_reduce_scatter, MPI_REDUCE_SCATTER, REDUCE_SCATTER, mpi_ireduce_scatter,
           MPI_IREDUCE_SCATTER, IREDUCE_SCATTER,
           (.shape = REDUCE_SCATTER, .sendcount = 3, .sendtype = 4, .comm = 6), 7)
COLLECTIVE(mpi_reduce_scatter_block, MPI_REDUCE_SCATTER_BLOCK, REDUCE_SCATTER_BLOCK,
           mpi_ireduce_scatter_block, MPI_IREDUCE_SCATTER_BLOCK, IREDUCE_SCATTER_BLOCK,
           (.shape = REDUCE_SCATTER_BLOCK, .sendcount = 3, .sendtype = 4, .comm = 6), 7)
/* (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, ierror) */
COLLECTIVE(mpi_gather, MPI_GATHER, GATHER, mpi_igather, MPI_IGATHER, IGATHER,
           (.shape = GATHER, .sendbuf = 1, .sendcount = 2, .sendtype = 3, .recvcount = 5,
            .recvtype = 6, .root = 7, .comm = 8), 9)
COLLECTIVE(mpi_scatter, MPI_SCATTER, SCATTER, mpi_iscatter, MPI_ISCATTER, ISCATTER,
           (.shape = SCATTER, .sendcount = 2, .sendtype = 3, .root = 7, .comm = 8), 9)
/* (sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm, ierror) */
COLLECTIVE(mpi_gatherv, MPI_GATHERV, GATHERV, mpi_igatherv, MPI_IGATHERV, IGATHERV,
           (.shape = GATHERV, .sendbuf = 1, .sendcount = 2, .sendtype = 3, .recvcount = 5,
            .recvtype = 7, .root = 8, .comm = 9), 10)
/* (sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm, ierror) */
COLLECTIVE(mpi_scatterv, MPI_SCATTERV, SCATTERV, mpi_iscatterv, MPI_ISCATTERV, ISCATTERV,
           (.shape = SCATTERV, .sendcount = 2, .sendtype = 4, .recvcount = 6, .recvtype = 7,
            .root = 8, .comm = 9), 10)
/* (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, ierror) */
COLLECTIVE(mpi_allgather, MPI_ALLGATHER, ALLGATHER, mpi_iallgather, MPI_IALLGATHER, IALLGATHER,
           (.shape = GATHER, .sendbuf = 1, .sendcount = 2, .sendtype = 3, .recvcount = 5,
            .recvtype = 6, .comm = 7), 8)
COLLECTIVE(mpi_alltoall, MPI_ALLTOALL, ALLTOALL, mpi_ialltoall, MPI_IALLTOALL, IALLTOALL,
           (.shape = ALLTOALL, .sendbuf = 1, .sendcount = 2, .sendtype = 3, .recvcount = 5,
            .recvtype = 6, .comm = 7), 8)
/* (sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm, ierror) */
COLLECTIVE(mpi_allgatherv, MPI_ALLGATHERV, ALLGATHERV, mpi_iallgatherv, MPI_IALLGATHERV,
           IALLGATHERV,
           (.shape = GATHERV, .sendbuf = 1, .sendcount = 2, .sendtype = 3, .recvcount = 5,
            .recvtype = 7, .comm = 8), 9)
/* (sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm,
 *  ierror) */
COLLECTIVE(mpi_alltoallv, MPI_ALLTOALLV, ALLTOALLV, mpi_ialltoallv, MPI_IALLTOALLV, IALLTOALLV,
           (.shape = ALLTOALLV, .sendbuf = 1, .sendcount = 2, .sendtype = 4, .recvcount = 6,
            .recvtype = 8, .comm = 9), 10)
/* (sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm,
 *  ierror) */
COLLECTIVE(mpi_alltoallw, MPI_ALLTOALLW, ALLTOALLW, mpi_ialltoallw, MPI_IALLTOALLW, IALLTOALLW,
           (.shape = ALLTOALLW, .sendbuf = 1, .sendcount = 2, .sendtype = 4, .recvcount = 6,
            .recvtype = 8, .comm = 9), 10)

#ifdef SCOPE_MPI_PERSISTENT_COLLECTIVES
/* The MPI-4 persistent collectives' inits: their bindings call the C
 * function, whose wrapper records the init and remembers its request
 * (collective_wrappers.c); the entry point only hands it the program's
 * line as the call's site. */
struct init_desc {
    int none;
};

static void init_call(const struct init_desc *d, fortran_fn real, void *caller, void **a)
{
    (void)d;
    scope_binding_caller = caller;
    fortran_forward(real, a);
    scope_binding_caller = NULL;
}

#define INIT_OF(MANGLINGS, lower, upper) MANGLINGS(lower, upper, init_call, struct init_desc, 0)
INIT_OF(FORTRAN, mpi_barrier_init, MPI_BARRIER_INIT)
INIT_OF(FORTRAN_COUNTS, mpi_bcast_init, MPI_BCAST_INIT)
INIT_OF(FORTRAN_COUNTS, mpi_reduce_init, MPI_REDUCE_INIT)
INIT_OF(FORTRAN_COUNTS, mpi_allreduce_init, MPI_ALLREDUCE_INIT)
INIT_OF(FORTRAN_COUNTS, mpi_reduce_scatter_init, MPI_REDUCE_SCATTER_INIT)
INIT_OF(FORTRAN_COUNTS, mpi_reduce_scatter_block_init, MPI_REDUCE_SCATTER_BLOCK_INIT)
INIT_OF(FORTRAN_COUNTS, mpi_scan_init, MPI_SCAN_INIT)
INIT_OF(FORTRAN_COUNTS, mpi_exscan_init, MPI_EXSCAN_INIT)
INIT_OF(FORTRAN_COUNTS, mpi_gather_init, MPI_GATHER_INIT)
INIT_OF(FORTRAN_COUNTS, mpi_gatherv_init, MPI_GATHERV_INIT)
INIT_OF(FORTRAN_COUNTS, mpi_scatter_init, MPI_SCATTER_INIT)
INIT_OF(FORTRAN_COUNTS, mpi_scatterv_init, MPI_SCATTERV_INIT)
INIT_OF(FORTRAN_COUNTS, mpi_allgather_init, MPI_ALLGATHER_INIT)
INIT_OF(FORTRAN_COUNTS, mpi_allgatherv_init, MPI_ALLGATHERV_INIT)
INIT_OF(FORTRAN_COUNTS, mpi_alltoall_init, MPI_ALLTOALL_INIT)
INIT_OF(FORTRAN_COUNTS, mpi_alltoallv_init, MPI_ALLTOALLV_INIT)
INIT_OF(FORTRAN_COUNTS, mpi_alltoallw_init, MPI_ALLTOALLW_INIT)
#endif
