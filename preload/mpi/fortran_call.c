/* fortran_call.c: the binding definitions scope's Fortran wrappers
 * forward to, and the Fortran constants each MPI keeps in symbols of its
 * own: MPI_IN_PLACE (Open MPI: the common block mpi_fortran_in_place_;
 * MPICH: the pointer MPIR_F_MPI_IN_PLACE, set when Fortran starts, and
 * MPIR_F08_MPI_IN_PLACE for mpi_f08) and the statuses to ignore (C's
 * MPI_F_STATUS(ES)_IGNORE; MPICH's mpi_f08 has objects of its own, named
 * by the pointers MPI_F08_STATUS(ES)_IGNORE, which Open MPI lacks: looked
 * up, not linked). */
#include <dlfcn.h>

#include "fortran_call.h"
#include "log.h"

__thread int scope_fortran_form __attribute__((tls_model("initial-exec")));
__thread void *scope_binding_caller __attribute__((tls_model("initial-exec")));

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
static struct {
    const void *in_place_at[IN_PLACE_OBJECTS];
    void *const *in_place_pointer;
    void *const *f08_ignore[2];   /* MPI_F08_STATUS_IGNORE, MPI_F08_STATUSES_IGNORE */
} constants;
static int constants_known;

static void know_constants(void)
{
    if (__atomic_load_n(&constants_known, __ATOMIC_ACQUIRE))
        return;
    for (size_t i = 0; i < IN_PLACE_OBJECTS; i++)
        constants.in_place_at[i] = dlsym(RTLD_DEFAULT, in_place_objects[i]);
    constants.in_place_pointer = dlsym(RTLD_DEFAULT, "MPIR_F_MPI_IN_PLACE");
    constants.f08_ignore[0] = dlsym(RTLD_DEFAULT, "MPI_F08_STATUS_IGNORE");
    constants.f08_ignore[1] = dlsym(RTLD_DEFAULT, "MPI_F08_STATUSES_IGNORE");
    __atomic_store_n(&constants_known, 1, __ATOMIC_RELEASE);
}

int scope_fortran_in_place(const void *buf)
{
    if (!buf)
        return 0;
    know_constants();
    for (size_t i = 0; i < IN_PLACE_OBJECTS; i++)
        if (buf == constants.in_place_at[i])
            return 1;
    return constants.in_place_pointer && *constants.in_place_pointer == buf;
}

int scope_fortran_status_ignored(const void *status, int many)
{
    if (!status || status == (many ? (const void *)MPI_F_STATUSES_IGNORE
                                   : (const void *)MPI_F_STATUS_IGNORE))
        return 1;
    know_constants();
    void *const *f08 = constants.f08_ignore[many != 0];
    return f08 && *f08 == status;
}
