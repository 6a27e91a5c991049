/* fortran_call.h: what scope's Fortran entry points of the recorded MPI
 * functions share (fortran_p2p.c, fortran_persistent.c,
 * fortran_collectives.c, fortran_neighbors.c, fortran_io.c, fortran_rma.c,
 * fortran_handles.c).
 * Each wrapper forwards its arguments untouched to the binding's own definition (the
 * next one of its name) and records the call as the C wrappers do
 * (wrapped_call.h), so that its call site is the application's line, not
 * the binding's, and its payload is known: handles converted with
 * MPI_*_f2c. While it runs the thread is busy: the C wrapper or patch the
 * binding reaches passes through. Fortran passes every argument by
 * reference (a choice buffer, to MPICH's mpi_f08, by the address of its
 * descriptor); sixteen pointers cover these functions (extra ones are
 * harmless in the x86-64 ABI). Argument positions in the descriptions are
 * 1-based, 0 meaning none. MPICH's mpi_f08 entry points for counts of kind
 * MPI_COUNT_KIND (mpi_send_f08ts_large_) take the same arguments with
 * 64-bit counts (MPI_Count; displacements were MPI_ADDRESS_KIND already):
 * one description serves both, its counts read at the width the entry
 * point has, its calls recorded as the large-count function's
 * (MPI_Send_c), which the binding calls. */
#ifndef SCOPE_FORTRAN_CALL_H
#define SCOPE_FORTRAN_CALL_H

#include "collective_bytes.h"   /* struct count_array, and wrapped_call.h */

#define FORTRAN_ARGS 16
typedef void (*fortran_fn)(void *, void *, void *, void *, void *, void *, void *, void *,
                           void *, void *, void *, void *, void *, void *, void *, void *);

_Static_assert(sizeof(MPI_Fint) == sizeof(int), "Fortran integers are C ints");

/* A Fortran status's integers (MPI_Status_f2c reads as many). */
#define FORTRAN_STATUS_INTS (sizeof(MPI_Status) / sizeof(MPI_Fint))

/* The binding's definition of `name` (aborts, with a message, if none). */
fortran_fn scope_fortran_real(const char *name);
/* Whether buf (the data's address) is Fortran's MPI_IN_PLACE. */
int scope_fortran_in_place(const void *buf);
/* Whether a status argument is the caller's MPI_STATUS_IGNORE (`many`:
 * MPI_STATUSES_IGNORE), of mpif.h, `use mpi` or mpi_f08; NULL (an absent
 * optional one) too. */
int scope_fortran_status_ignored(const void *status, int many);

/* How the entry point running on this thread takes its arguments: choice
 * buffers as array descriptors (MPICH's mpi_f08: mpi_send_f08ts_), counts
 * as MPI_Count (MPICH's mpi_f08 with counts of kind MPI_COUNT_KIND:
 * mpi_send_f08ts_large_). */
enum fortran_form { FORTRAN_DESCRIPTORS = 1, FORTRAN_LARGE_COUNTS = 2 };
extern __thread int scope_fortran_form;

_Static_assert(sizeof(MPI_Count) == 8, "MPI_COUNT_KIND counts are 8 bytes");

static inline void fortran_forward(fortran_fn real, void *const *a)
{
    real(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11], a[12],
         a[13], a[14], a[15]);
}

/* Whether function f's call is recorded now (then it starts), f being
 * the function of the int-count form: its large-count form's when the
 * entry point running takes 64-bit counts. */
static inline int fortran_call_begins(struct wrapped_call *w, enum scope_wrapped_function f)
{
    return call_begins(w, scope_fortran_form & FORTRAN_LARGE_COUNTS ? scope_wrapped_large_form(f)
                                                                    : f);
}

/* The call forwarded to the binding `real`, timed when scope records it:
 * 1 when it does (w filled: describe the call, then call_ends), else 0. */
static inline int fortran_timed(struct wrapped_call *w, enum scope_wrapped_function f,
                                fortran_fn real, void *const *a)
{
    if (!fortran_call_begins(w, f)) {
        fortran_forward(real, a);
        return 0;
    }
    fortran_forward(real, a);
    call_returned(w);
    return 1;
}

/* Argument `pos` as given (NULL: none). */
static inline void *fortran_arg(void *const *a, int pos)
{
    return pos > 0 ? a[pos - 1] : NULL;
}

/* The address of the data of choice buffer argument `pos` (NULL: none):
 * through its descriptor where the entry point takes descriptors (gfortran's
 * and ISO_Fortran_binding.h's both begin with that address). */
static inline const void *fortran_buffer(void *const *a, int pos)
{
    const void *p = fortran_arg(a, pos);
    return p && (scope_fortran_form & FORTRAN_DESCRIPTORS) ? *(const void *const *)p : p;
}

/* Argument `pos` as a Fortran integer (0: none). */
static inline int fint(void *const *a, int pos)
{
    const MPI_Fint *p = fortran_arg(a, pos);
    return p ? *p : 0;
}

/* The call returned MPI_SUCCESS in ierror (absent in mpi_f08: success). */
static inline int fortran_succeeded(void *const *a, int ierr)
{
    return fint(a, ierr) == MPI_SUCCESS;
}

static inline const struct scope_comm *fortran_comm(void *const *a, int pos)
{
    return scope_comm_of(PMPI_Comm_f2c(fint(a, pos)));
}

static inline MPI_Datatype fortran_type(void *const *a, int pos)
{
    return pos > 0 ? PMPI_Type_f2c(fint(a, pos)) : MPI_DATATYPE_NULL;
}

/* Count argument `pos` (0: none), at the entry point's count width. */
static inline int64_t fortran_count(void *const *a, int pos)
{
    const void *p = fortran_arg(a, pos);
    if (!p)
        return 0;
    return scope_fortran_form & FORTRAN_LARGE_COUNTS ? *(const MPI_Count *)p
                                                     : *(const MPI_Fint *)p;
}

/* Count array argument `pos` (a count per rank; 0: none). */
static inline struct count_array fortran_counts(void *const *a, int pos)
{
    const void *p = fortran_arg(a, pos);
    return scope_fortran_form & FORTRAN_LARGE_COUNTS ? COUNT_ARRAY((const MPI_Count *)p)
                                                     : COUNT_ARRAY((const int *)p);
}

static inline int64_t fortran_bytes(void *const *a, int count, int type)
{
    return type_bytes(fortran_count(a, count), fortran_type(a, type));
}

/* One mangling: HANDLER(&DESC, real, caller, arguments), with
 * scope_fortran_form FORM (a call of a user function made by the binding
 * may run another entry point: the value is given back). */
#define FORTRAN_ONE(name, HANDLER, DESC, FORM)                                               \
    EXPORT void name(void *a0, void *a1, void *a2, void *a3, void *a4, void *a5, void *a6,  \
                     void *a7, void *a8, void *a9, void *a10, void *a11, void *a12,          \
                     void *a13, void *a14, void *a15)                                        \
    {                                                                                        \
        static fortran_fn real;                                                              \
        if (!real)                                                                           \
            real = scope_fortran_real(#name);                                                \
        void *a[FORTRAN_ARGS] = {a0, a1, a2,  a3,  a4,  a5,  a6,  a7,                        \
                                 a8, a9, a10, a11, a12, a13, a14, a15};                      \
        int outer = scope_fortran_form;                                                      \
        scope_fortran_form = (FORM);                                                         \
        HANDLER(&(DESC), real, __builtin_return_address(0), a);                              \
        scope_fortran_form = outer;                                                          \
    }

/* Every mangling of one function (mpif.h and `use mpi`: mpi_send_,
 * mpi_send__, mpi_send, MPI_SEND; mpi_f08: mpi_send_f08_), its
 * description, of type DESC_TYPE, written once. */
#define FORTRAN(lower, upper, HANDLER, DESC_TYPE, ...)                                       \
    static const DESC_TYPE lower##_desc = {__VA_ARGS__};                                     \
    FORTRAN_ONE(lower##_, HANDLER, lower##_desc, 0)                                          \
    FORTRAN_ONE(lower##__, HANDLER, lower##_desc, 0)                                         \
    FORTRAN_ONE(lower, HANDLER, lower##_desc, 0)                                             \
    FORTRAN_ONE(upper, HANDLER, lower##_desc, 0)                                             \
    FORTRAN_ONE(lower##_f08_, HANDLER, lower##_desc, 0)

/* The same for a function with choice buffers, and MPICH's mpi_f08 entry
 * point of it, which takes them as descriptors (mpi_send_f08ts_; its
 * mpi_f08 functions without buffers are mpi_wait_f08_ and the like). */
#define FORTRAN_BUFFERS(lower, upper, HANDLER, DESC_TYPE, ...)                               \
    FORTRAN(lower, upper, HANDLER, DESC_TYPE, __VA_ARGS__)                                   \
    FORTRAN_ONE(lower##_f08ts_, HANDLER, lower##_desc, FORTRAN_DESCRIPTORS)

/* The same for a function with counts, and, where the MPI library has the
 * large-count forms, MPICH's mpi_f08 entry point of it for counts of kind
 * MPI_COUNT_KIND (mpi_send_f08ts_large_), recorded as the large-count
 * function (MPI_Send_c). */
#ifdef SCOPE_MPI_LARGE_COUNT
#define FORTRAN_COUNTS(lower, upper, HANDLER, DESC_TYPE, ...)                                \
    FORTRAN_BUFFERS(lower, upper, HANDLER, DESC_TYPE, __VA_ARGS__)                           \
    FORTRAN_ONE(lower##_f08ts_large_, HANDLER, lower##_desc,                                 \
                FORTRAN_DESCRIPTORS | FORTRAN_LARGE_COUNTS)
#else
#define FORTRAN_COUNTS FORTRAN_BUFFERS
#endif

#endif
