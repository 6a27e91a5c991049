/* mpi_fortran.c: the Fortran entry points of MPI_Init, MPI_Init_thread and
 * MPI_Finalize, under every mangling compilers use (mpi_init_, mpi_init__,
 * mpi_init, MPI_INIT) and the mpi_f08 module's (mpi_init_f08_). Fortran
 * bindings may call the C PMPI layer directly (Open MPI does), so the C
 * wrappers alone would never see a Fortran program start or finish. Each
 * (and MPI_Abort's) wrapper forwards its arguments untouched to the implementation's PMPI
 * twin (or, where there is none, to the next definition of its own name). */
#include <dlfcn.h>
#include <mpi.h>
#include <stdlib.h>

#include "fault_signals.h"
#include "log.h"
#include "mpi_merge.h"

#define EXPORT __attribute__((visibility("default")))

typedef void (*fortran_fn)(void *, void *, void *);

static fortran_fn real_function(const char *pmpi_name, const char *name)
{
    void *f = dlsym(RTLD_NEXT, pmpi_name);
    if (!f)
        f = dlsym(RTLD_NEXT, name);
    if (!f) {
        scope_log("cannot find %s or %s in the MPI library", pmpi_name, name);
        abort();   /* the program called an MPI function that does not exist */
    }
    return (fortran_fn)f;
}

/* Fortran passes every argument by reference: three pointers cover them
 * all (init: ierr; init_thread: required, provided, ierr; finalize: ierr).
 * Passing unused pointer registers is harmless in the x86-64 ABI. */
#define FORTRAN_INIT(name, pmpi)                                        \
    EXPORT void name(void *a, void *b, void *c)                         \
    {                                                                   \
        static fortran_fn real;                                         \
        if (!real)                                                      \
            real = real_function(#pmpi, #name);                         \
        real(a, b, c);                                                  \
        scope_mpi_after_init();                                         \
    }

#define FORTRAN_FINALIZE(name, pmpi)                                    \
    EXPORT void name(void *a, void *b, void *c)                         \
    {                                                                   \
        static fortran_fn real;                                         \
        if (!real)                                                      \
            real = real_function(#pmpi, #name);                         \
        scope_mpi_before_finalize();                                    \
        real(a, b, c);                                                  \
    }

#define FORTRAN_ABORT(name, pmpi)                                       \
    EXPORT void name(void *a, void *b, void *c)                         \
    {                                                                   \
        static fortran_fn real;                                         \
        if (!real)                                                      \
            real = real_function(#pmpi, #name);                         \
        scope_keep_records_for_recover("MPI_Abort");                    \
        real(a, b, c);                                                  \
    }

#define MANGLINGS(macro, lower, upper)          \
    macro(lower##_, p##lower##_)                \
    macro(lower##__, p##lower##__)              \
    macro(lower, p##lower)                      \
    macro(upper, P##upper)                      \
    macro(lower##_f08_, p##lower##_f08_)

MANGLINGS(FORTRAN_INIT, mpi_init, MPI_INIT)
MANGLINGS(FORTRAN_INIT, mpi_init_thread, MPI_INIT_THREAD)
MANGLINGS(FORTRAN_FINALIZE, mpi_finalize, MPI_FINALIZE)
MANGLINGS(FORTRAN_ABORT, mpi_abort, MPI_ABORT)
