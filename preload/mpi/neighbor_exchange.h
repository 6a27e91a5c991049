/* neighbor_exchange.h: the messages a neighborhood collective exchanged
 * along its communicator's topology (neighbor_exchange.c), for the C and
 * Fortran wrappers. */
#ifndef SCOPE_NEIGHBOR_EXCHANGE_H
#define SCOPE_NEIGHBOR_EXCHANGE_H

#include "wrapped_call.h"

/* One side of the exchange: count x type to every neighbor, or counts[i]
 * of type (or of types[i], or of the Fortran types[i]) to neighbor i. */
struct side {
    int count;
    const int *counts;
    MPI_Datatype type;
    const MPI_Datatype *types;
    const MPI_Fint *fortran_types;
};

/* The messages of a neighborhood collective on comm, into w. */
void scope_neighbor_exchange(struct wrapped_call *w, MPI_Comm comm, struct side sent,
                  struct side received);

#endif
