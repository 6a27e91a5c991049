/* mpi_bindings.c: the MPI libraries' Fortran bindings by name, and their
 * address ranges in this process (mpi_bindings.h). */
#include "mpi_bindings.h"

#include <string.h>

uint64_t scope_binding_ranges[SCOPE_MAX_BINDING_RANGES][2];
int scope_binding_nranges;

int scope_is_binding_module(const char *path)
{
    static const char *const names[] = {
        "libmpi_mpifh.so",   "libmpi_usempif08.so", "libmpi_usempi_ignore_tkr.so",
        "libmpi_usempi.so",  "libmpichfort.so",     "libmpifort.so",
        "libfmpich.so",      "libmpichf90.so",
    };
    if (!path)
        return 0;
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strncmp(base, names[i], strlen(names[i])) == 0)
            return 1;
    return 0;
}

int scope_is_mpi_function(const char *symbol)
{
    return symbol && (strncmp(symbol, "MPI_", 4) == 0 || strncmp(symbol, "PMPI_", 5) == 0);
}

void scope_binding_range_add(uint64_t start, uint64_t end)
{
    int n = scope_binding_nranges;
    if (n == SCOPE_MAX_BINDING_RANGES)
        return;
    scope_binding_ranges[n][0] = start;
    scope_binding_ranges[n][1] = end;
    __atomic_store_n(&scope_binding_nranges, n + 1, __ATOMIC_RELEASE);
}
