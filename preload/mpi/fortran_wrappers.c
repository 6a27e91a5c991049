/* fortran_wrappers.c: the Fortran entry points of the MPI functions scope
 * records with their payload, for the sends and the commonest collectives
 * (MPI_Send and its modes, MPI_Isend and its modes, MPI_Bcast,
 * MPI_Reduce, MPI_Allreduce, MPI_Barrier), under every mangling (mpif.h
 * and `use mpi`: mpi_send_, mpi_send__, mpi_send, MPI_SEND; mpi_f08:
 * mpi_send_f08_). The wrapper forwards its arguments untouched to the
 * binding's own definition (the next one of its name) and records the call
 * as the C wrappers do (wrapped_call.h), so that its call site is the
 * application's line, not the binding's, and its payload is known: handles
 * converted with MPI_Type_f2c and MPI_Comm_f2c. While it runs the thread is
 * busy: the C wrapper or patch the binding reaches passes through. Fortran
 * passes every argument by reference; eight pointers cover these
 * functions (extra ones are harmless in the x86-64 ABI). */
#include <dlfcn.h>

#include "log.h"
#include "wrapped_call.h"

typedef void (*fortran_fn)(void *, void *, void *, void *, void *, void *, void *, void *);

/* How a function's arguments are laid out (index of each, -1: none) and
 * what it moves. */
enum fortran_kind { SEND, BCAST, REDUCE, BARRIER };
struct fortran_desc {
    enum scope_wrapped_function f;
    enum fortran_kind kind;
    int count, type, peer, tag, comm, ierr;
};


static fortran_fn real_function(const char *name)
{
    fortran_fn f = (fortran_fn)dlsym(RTLD_NEXT, name);
    if (!f) {
        scope_log("cannot find %s in the MPI library", name);
        abort();   /* the program called an MPI function that does not exist */
    }
    return f;
}

static int fint(void *const *a, int i)
{
    return i >= 0 && a[i] ? *(const MPI_Fint *)a[i] : 0;
}

/* What the call moved, once it returned. */
static void fortran_payload(struct wrapped_call *w, const struct fortran_desc *d, void *const *a)
{
    const struct scope_comm *c = scope_comm_of(PMPI_Comm_f2c(fint(a, d->comm)));
    int64_t bytes = d->kind == BARRIER ? 0 : type_bytes(fint(a, d->count),
                                                        PMPI_Type_f2c(fint(a, d->type)));
    int peer = fint(a, d->peer);
    switch (d->kind) {
    case SEND:
        if (peer == MPI_PROC_NULL)
            add_item(w, SCOPE_ITEM_CALL, 0, -1, fint(a, d->tag), c);
        else
            add_item(w, SCOPE_ITEM_SENT, bytes, scope_comm_world_rank(c, peer), fint(a, d->tag), c);
        break;
    case BCAST:
        add_item(w, SCOPE_ITEM_CALL, c && c->rank == peer ? bytes : 0,
                 scope_comm_world_rank(c, peer), -1, c);
        break;
    case REDUCE:
        add_item(w, SCOPE_ITEM_CALL, bytes, d->peer >= 0 ? scope_comm_world_rank(c, peer) : -1,
                 -1, c);
        break;
    case BARRIER:
        add_item(w, SCOPE_ITEM_CALL, 0, -1, -1, c);
        break;
    }
}

static void fortran_call(const struct fortran_desc *d, fortran_fn real, void *caller, void **a)
{
    struct wrapped_call w;
    if (!call_begins(&w, d->f)) {
        real(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7]);
        return;
    }
    real(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7]);
    call_returned(&w);
    if (fint(a, d->ierr) == MPI_SUCCESS)
        fortran_payload(&w, d, a);
    call_ends(&w, caller);
}

#define FORTRAN_ONE(name, desc)                                                              \
    EXPORT void name(void *a0, void *a1, void *a2, void *a3, void *a4, void *a5, void *a6,  \
                     void *a7)                                                               \
    {                                                                                        \
        static fortran_fn real;                                                              \
        if (!real)                                                                           \
            real = real_function(#name);                                                     \
        void *a[8] = {a0, a1, a2, a3, a4, a5, a6, a7};                                       \
        fortran_call(&(desc), real, __builtin_return_address(0), a);                        \
    }

/* Every mangling of one function, described once. */
#define FORTRAN(lower, upper, ...)                                                           \
    static const struct fortran_desc lower##_desc = {__VA_ARGS__};                          \
    FORTRAN_ONE(lower##_, lower##_desc)                                                      \
    FORTRAN_ONE(lower##__, lower##_desc)                                                     \
    FORTRAN_ONE(lower, lower##_desc)                                                         \
    FORTRAN_ONE(upper, lower##_desc)                                                         \
    FORTRAN_ONE(lower##_f08_, lower##_desc)

/* (buf, count, datatype, dest, tag, comm, [request,] ierror) */
FORTRAN(mpi_send, MPI_SEND, SCOPE_WRAPPED_SEND, SEND, 1, 2, 3, 4, 5, 6)
FORTRAN(mpi_ssend, MPI_SSEND, SCOPE_WRAPPED_SSEND, SEND, 1, 2, 3, 4, 5, 6)
FORTRAN(mpi_bsend, MPI_BSEND, SCOPE_WRAPPED_BSEND, SEND, 1, 2, 3, 4, 5, 6)
FORTRAN(mpi_rsend, MPI_RSEND, SCOPE_WRAPPED_RSEND, SEND, 1, 2, 3, 4, 5, 6)
FORTRAN(mpi_isend, MPI_ISEND, SCOPE_WRAPPED_ISEND, SEND, 1, 2, 3, 4, 5, 7)
FORTRAN(mpi_issend, MPI_ISSEND, SCOPE_WRAPPED_ISSEND, SEND, 1, 2, 3, 4, 5, 7)
FORTRAN(mpi_ibsend, MPI_IBSEND, SCOPE_WRAPPED_IBSEND, SEND, 1, 2, 3, 4, 5, 7)
FORTRAN(mpi_irsend, MPI_IRSEND, SCOPE_WRAPPED_IRSEND, SEND, 1, 2, 3, 4, 5, 7)
/* (buffer, count, datatype, root, comm, ierror) */
FORTRAN(mpi_bcast, MPI_BCAST, SCOPE_WRAPPED_BCAST, BCAST, 1, 2, 3, -1, 4, 5)
/* (sendbuf, recvbuf, count, datatype, op, root, comm, ierror) */
FORTRAN(mpi_reduce, MPI_REDUCE, SCOPE_WRAPPED_REDUCE, REDUCE, 2, 3, 5, -1, 6, 7)
/* (sendbuf, recvbuf, count, datatype, op, comm, ierror) */
FORTRAN(mpi_allreduce, MPI_ALLREDUCE, SCOPE_WRAPPED_ALLREDUCE, REDUCE, 2, 3, -1, -1, 5, 6)
/* (comm, ierror) */
FORTRAN(mpi_barrier, MPI_BARRIER, SCOPE_WRAPPED_BARRIER, BARRIER, -1, -1, -1, -1, 0, 1)
