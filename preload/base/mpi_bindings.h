/* mpi_bindings.h: the MPI libraries' Fortran bindings (Open MPI's
 * libmpi_mpifh, libmpi_usempif08, libmpi_usempi_ignore_tkr; MPICH's
 * libmpichfort, libmpifort): which modules they are, by file name, and
 * where they are loaded in this process. The call site of an MPI function
 * a binding called (one scope has no Fortran wrapper of: MPI_Win_fence,
 * MPI_File_open, ...) is taken past the binding's frames, in the program:
 * the hot path unwinds SCOPE_BINDING_FRAMES further for a call whose
 * caller is in a binding, and the call sites' naming drops the binding's
 * frames (callsite_resolve.c). */
#ifndef SCOPE_MPI_BINDINGS_H
#define SCOPE_MPI_BINDINGS_H

#include <stdint.h>

/* Frames of a binding an MPI call may come through, at most. */
#define SCOPE_BINDING_FRAMES 3
#define SCOPE_MAX_BINDING_RANGES 8

/* [start, end) of each binding loaded; entries are filled before the count
 * that publishes them (read by any thread, added under the patcher's lock). */
extern uint64_t scope_binding_ranges[SCOPE_MAX_BINDING_RANGES][2];
extern int scope_binding_nranges;

/* Whether the file at `path` is one of the bindings (by its name). */
int scope_is_binding_module(const char *path);
/* Whether `symbol` is an MPI function (MPI_..., PMPI_...). */
int scope_is_mpi_function(const char *symbol);
/* Adds a binding's addresses; a ninth is ignored (its calls keep the
 * binding as call site). */
void scope_binding_range_add(uint64_t start, uint64_t end);

static inline int scope_in_binding(uint64_t address)
{
    int n = __atomic_load_n(&scope_binding_nranges, __ATOMIC_ACQUIRE);
    for (int i = 0; i < n; i++)
        if (address >= scope_binding_ranges[i][0] && address < scope_binding_ranges[i][1])
            return 1;
    return 0;
}

#endif
