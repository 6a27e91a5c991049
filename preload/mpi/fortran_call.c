/* fortran_call.c: the binding definitions scope's Fortran wrappers
 * forward to, and Fortran's MPI_IN_PLACE, whose address each MPI keeps
 * in symbols of its own (Open MPI: the common block mpi_fortran_in_place_;
 * MPICH: the pointer MPIR_F_MPI_IN_PLACE, set when Fortran starts, and
 * MPIR_F08_MPI_IN_PLACE for mpi_f08). */
#include <dlfcn.h>

#include "fortran_call.h"
#include "log.h"

fortran_fn scope_fortran_real(const char *name)
{
    fortran_fn f = (fortran_fn)dlsym(RTLD_NEXT, name);
    if (!f) {
        scope_log("cannot find %s in the MPI library", name);
        abort();   /* the program called an MPI function that does not exist */
    }
    return f;
}

static const char *const in_place_objects[] = {
    "mpi_fortran_in_place_", "mpi_fortran_in_place", "mpi_fortran_in_place__",
    "MPI_FORTRAN_IN_PLACE", "MPIR_F08_MPI_IN_PLACE"};
#define IN_PLACE_OBJECTS (sizeof in_place_objects / sizeof in_place_objects[0])

/* Looked up once (racing threads find the same addresses). */
static const void *in_place_at[IN_PLACE_OBJECTS];
static void *const *in_place_pointer;
static int in_place_known;

int scope_fortran_in_place(const void *buf)
{
    if (!buf)
        return 0;
    if (!__atomic_load_n(&in_place_known, __ATOMIC_ACQUIRE)) {
        for (size_t i = 0; i < IN_PLACE_OBJECTS; i++)
            in_place_at[i] = dlsym(RTLD_DEFAULT, in_place_objects[i]);
        in_place_pointer = dlsym(RTLD_DEFAULT, "MPIR_F_MPI_IN_PLACE");
        __atomic_store_n(&in_place_known, 1, __ATOMIC_RELEASE);
    }
    for (size_t i = 0; i < IN_PLACE_OBJECTS; i++)
        if (buf == in_place_at[i])
            return 1;
    return in_place_pointer && *in_place_pointer == buf;
}
