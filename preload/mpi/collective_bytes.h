/* collective_bytes.h: what a collective call carried out of this rank, one
 * function per shape of collective, for the C wrappers
 * (collective_wrappers.c) and the Fortran ones (fortran_collectives.c)
 * alike: the bytes that leave this rank's send buffer (count x type size;
 * v forms: the sum of the send counts; a rooted collective's receive-only
 * ranks: 0; MPI_IN_PLACE: the data the rank contributes in place). Count
 * arrays are read only where MPI defines them (at the root of a rooted
 * collective). */
#ifndef SCOPE_COLLECTIVE_BYTES_H
#define SCOPE_COLLECTIVE_BYTES_H

#include "wrapped_call.h"

static inline int comm_size(const struct scope_comm *c)
{
    return c ? c->size : 0;
}

/* Whether this rank is the root of a rooted collective on c: rank `root`
 * of an intracommunicator; on an intercommunicator the one that passes
 * MPI_ROOT (its group's others pass MPI_PROC_NULL, the other group's ranks
 * the root's rank in their remote group). */
static inline int is_root(const struct scope_comm *c, int root)
{
    return c && (c->inter ? root == MPI_ROOT : c->rank == root);
}

/* Whether this rank is in the root's group of a rooted collective on an
 * intercommunicator (MPI_ROOT or MPI_PROC_NULL): it sends no data to a
 * gather. */
static inline int in_root_group(const struct scope_comm *c, int root)
{
    return c && c->inter && (root == MPI_ROOT || root == MPI_PROC_NULL);
}

/* A count per rank: ints, or MPI_Count of the large-count forms (wide);
 * neither: no array. */
struct count_array {
    const int *ints;
    const MPI_Count *wide;
};

/* The count_array of a C count array p (NULL: none), int or MPI_Count. */
#define COUNT_ARRAY(p)                                                                       \
    _Generic((p), const MPI_Count *: (struct count_array){NULL, (const MPI_Count *)(p)},     \
             MPI_Count *: (struct count_array){NULL, (const MPI_Count *)(p)},               \
             default: (struct count_array){(const int *)(p), NULL})
#define NO_COUNTS ((struct count_array){NULL, NULL})

static inline int has_counts(struct count_array a)
{
    return a.ints || a.wide;
}

static inline int64_t count_at(struct count_array a, int i)
{
    return a.wide ? a.wide[i] : a.ints[i];
}

static inline int64_t sum(struct count_array counts, int n)
{
    int64_t total = 0;
    for (int i = 0; has_counts(counts) && i < n; i++)
        total += count_at(counts, i);
    return total;
}

/* count values, or with `counts` one count per rank of c. */
static inline int64_t per_rank(int64_t count, struct count_array counts,
                               const struct scope_comm *c)
{
    return has_counts(counts) ? sum(counts, comm_size(c)) : count * comm_size(c);
}

/* MPI_Bcast: the root's buffer. */
static inline int64_t broadcast_bytes(int64_t count, MPI_Datatype type, int root,
                                      const struct scope_comm *c)
{
    return is_root(c, root) ? type_bytes(count, type) : 0;
}

/* MPI_Reduce: this rank's contribution; none from the root's group on an
 * intercommunicator, which only receives. */
static inline int64_t reduce_bytes(int64_t count, MPI_Datatype type, int root,
                                   const struct scope_comm *c)
{
    return in_root_group(c, root) ? 0 : type_bytes(count, type);
}

/* MPI_Scatter (no counts) and MPI_Scatterv: the root's send buffer. */
static inline int64_t scatter_bytes(int64_t count, struct count_array counts, MPI_Datatype type,
                                    int root, const struct scope_comm *c)
{
    return is_root(c, root) ? type_bytes(per_rank(count, counts, c), type) : 0;
}

/* MPI_Gather, MPI_Allgather (no recvcounts) and their v forms: this
 * rank's contribution, in place its share of the receive buffer (a
 * gather's root group on an intercommunicator: in_root_group). */
static inline int64_t gather_bytes(int in_place, int64_t sendcount, MPI_Datatype sendtype,
                                   int64_t recvcount, struct count_array recvcounts,
                                   MPI_Datatype recvtype, const struct scope_comm *c)
{
    if (!in_place)
        return type_bytes(sendcount, sendtype);
    if (has_counts(recvcounts))
        return c ? type_bytes(count_at(recvcounts, c->rank), recvtype) : 0;
    return type_bytes(recvcount, recvtype);
}

/* MPI_Alltoall (no counts) and MPI_Alltoallv: a count to every rank. */
static inline int64_t alltoall_bytes(int in_place, int64_t sendcount,
                                     struct count_array sendcounts, MPI_Datatype sendtype,
                                     int64_t recvcount, struct count_array recvcounts,
                                     MPI_Datatype recvtype,
                                     const struct scope_comm *c)
{
    if (in_place)
        return type_bytes(per_rank(recvcount, recvcounts, c), recvtype);
    return type_bytes(per_rank(sendcount, sendcounts, c), sendtype);
}

#endif
