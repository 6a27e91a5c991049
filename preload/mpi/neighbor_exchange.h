/* neighbor_exchange.h: the messages a neighborhood collective exchanged
 * along its communicator's topology (neighbor_exchange.c), for the C and
 * Fortran wrappers. */
#ifndef SCOPE_NEIGHBOR_EXCHANGE_H
#define SCOPE_NEIGHBOR_EXCHANGE_H

#include "collective_bytes.h"

/* One side of the exchange: count x type to every neighbor, or counts[i]
 * (int, or MPI_Count of the large-count forms) of type (or of types[i], or
 * of the Fortran types[i]) to neighbor i. */
struct side {
    int64_t count;
    struct count_array counts;
    MPI_Datatype type;
    const MPI_Datatype *types;
    const MPI_Fint *fortran_types;
};

/* The messages of a neighborhood collective on comm, into w. */
void scope_neighbor_exchange(struct wrapped_call *w, MPI_Comm comm, struct side sent,
                  struct side received);

#endif
