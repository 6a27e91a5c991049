/* comm_merge.h: the run's communicator ids, made the same on every rank.
 * Each process numbers the communicators it takes part in itself, 0 being
 * MPI_COMM_WORLD (payload_store.h); the run's id of a communicator is
 * found by its members (as world ranks, in its rank order) and, among the
 * communicators of the same members, by the order a process created them
 * in (collective creation keeps that order the same on every member).
 * Ranks are added one by one, in rank order: at MPI_Finalize on rank 0,
 * and in `scope recover`. MPI-free. */
#ifndef SCOPE_COMM_MERGE_H
#define SCOPE_COMM_MERGE_H

#include <stddef.h>
#include <stdint.h>

#include "payload_store.h"
#include "scope_writer.h"

struct scope_comm_merge {
    int64_t *sizes;            /* of each run's communicator */
    size_t ncomms, sizes_cap;
    size_t *first;             /* its first member in members */
    size_t first_cap;
    uint64_t *hash;            /* of its members */
    size_t hash_cap;
    int32_t *members;
    size_t nmembers, members_cap;
    int defined;               /* a rank defined any communicator */
};

/* Starts with MPI_COMM_WORLD of nranks as id 0; -1 when out of memory. */
int scope_comm_merge_init(struct scope_comm_merge *m, int nranks);
void scope_comm_merge_free(struct scope_comm_merge *m);

/* The next rank's communicators (the definitions in s: ids, members):
 * returns the run's id of each of its ids (-1 where it defined none), *n
 * of them, malloc'd; NULL (and *n 0) when it defined none or memory ran
 * out. */
int32_t *scope_comm_merge_add(struct scope_comm_merge *m, const struct scope_comm_def *defs,
                              size_t ndefs, const int32_t *members, size_t *n);

/* The merged table, for the writer (valid while m is). */
struct scope_comm_table scope_comm_merge_table(const struct scope_comm_merge *m);

#endif
