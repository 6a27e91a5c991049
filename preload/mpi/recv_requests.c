/* recv_requests.c: pending receives by request handle, per thread
 * (recv_requests.h): an open-addressed table with linear probing, grown
 * by doubling, entries removed by shifting the run back (no tombstones). */
#include "recv_requests.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct pending {
    MPI_Request request;
    const struct scope_comm *comm;   /* NULL: a free slot */
};

struct recv_table {
    struct pending *slot;
    size_t cap, n;                   /* cap: a power of two */
};

static __thread struct recv_table table __attribute__((tls_model("initial-exec")));

static size_t hash(MPI_Request r, size_t cap)
{
    uint64_t key = 0;
    memcpy(&key, &r, sizeof r < sizeof key ? sizeof r : sizeof key);
    key ^= key >> 31;
    key *= 0x9e3779b97f4a7c15ull;
    return (size_t)(key >> 32) & (cap - 1);
}

static int same(MPI_Request a, MPI_Request b)
{
    return memcmp(&a, &b, sizeof a) == 0;
}

static void put(struct recv_table *t, MPI_Request r, const struct scope_comm *c)
{
    size_t s = hash(r, t->cap);
    while (t->slot[s].comm && !same(t->slot[s].request, r))
        s = (s + 1) & (t->cap - 1);
    t->n += !t->slot[s].comm;
    t->slot[s] = (struct pending){r, c};
}

static int grow(struct recv_table *t)
{
    struct recv_table bigger = {calloc(t->cap ? 2 * t->cap : 64, sizeof(struct pending)),
                                t->cap ? 2 * t->cap : 64, 0};
    if (!bigger.slot)
        return -1;
    for (size_t i = 0; i < t->cap; i++)
        if (t->slot[i].comm)
            put(&bigger, t->slot[i].request, t->slot[i].comm);
    free(t->slot);
    *t = bigger;
    return 0;
}

void scope_recv_started(MPI_Request r, const struct scope_comm *c)
{
    struct recv_table *t = &table;
    if (!c || ((t->n + 1) * 2 > t->cap && grow(t) != 0))
        return;
    put(t, r, c);
}

const struct scope_comm *scope_recv_completed(MPI_Request r)
{
    struct recv_table *t = &table;
    if (t->n == 0)
        return NULL;
    size_t s = hash(r, t->cap);
    while (t->slot[s].comm && !same(t->slot[s].request, r))
        s = (s + 1) & (t->cap - 1);
    const struct scope_comm *c = t->slot[s].comm;
    if (!c)
        return NULL;
    /* remove, shifting back the entries of the run that hash before it */
    t->slot[s].comm = NULL;
    t->n--;
    for (size_t hole = s, i = (s + 1) & (t->cap - 1); t->slot[i].comm; i = (i + 1) & (t->cap - 1)) {
        size_t home = hash(t->slot[i].request, t->cap);
        if (((i - home) & (t->cap - 1)) >= ((i - hole) & (t->cap - 1))) {
            t->slot[hole] = t->slot[i];
            t->slot[i].comm = NULL;
            hole = i;
        }
    }
    return c;
}

int scope_recvs_pending(void)
{
    return table.n > 0;
}
