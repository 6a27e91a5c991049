/* comm_table.h: the communicators this process uses in recorded MPI
 * calls, looked up by handle without a lock: each one's id (0 is
 * MPI_COMM_WORLD, the others numbered in the order they were created or
 * first seen) and the world rank of each of its ranks (of the remote group
 * for an intercommunicator), translated once per communicator. Each is
 * defined in the record stream (record.h) before a payload item names it.
 * One-sided windows map to the communicator they were created over. */
#ifndef SCOPE_COMM_TABLE_H
#define SCOPE_COMM_TABLE_H

#include <mpi.h>
#include <stdint.h>

struct scope_comm {
    MPI_Comm handle;
    int32_t id;
    int size;                  /* of the group peers are ranks of */
    int rank;                  /* this process's rank in it */
    int32_t *world;            /* world rank of each of those ranks */
    int32_t *members;          /* its own group as world ranks (= world unless */
    int nmembers;              /* an intercommunicator) */
    int recorded;              /* its definition is in the records (or */
                               /* could never be) */
    int inter;                 /* an intercommunicator */
};

/* comm's entry, made on first sight; NULL when it cannot be had (out of
 * memory, a full table, MPI_COMM_NULL). */
const struct scope_comm *scope_comm_of(MPI_Comm comm);
/* A communicator just created by this process: a fresh entry now, so that
 * ids follow the order of creation. */
void scope_comm_created(MPI_Comm comm);
/* >0 while scope's Fortran entry point of a constructor runs its binding
 * (fortran_handles.c): a C constructor wrapper the binding reaches
 * (comm_wrappers.c) leaves the new communicator to it. */
extern __thread int scope_comm_fortran_constructing;
/* comm is about to be freed: its handle may come back for another one. */
void scope_comm_forget(MPI_Comm comm);

/* A window created over comm: its targets are comm's ranks. */
void scope_window_created(MPI_Win win, MPI_Comm comm);
/* win is about to be freed. */
void scope_window_forget(MPI_Win win);
/* The communicator of win's group, NULL when not known. */
const struct scope_comm *scope_window_comm(MPI_Win win);

/* The world rank of rank r of c, -1 when none (MPI_PROC_NULL, out of range). */
static inline int32_t scope_comm_world_rank(const struct scope_comm *c, int r)
{
    return c && r >= 0 && r < c->size ? c->world[r] : -1;
}

#endif
