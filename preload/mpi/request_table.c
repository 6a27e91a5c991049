/* request_table.c: handles by key (request_table.h): open addressing with
 * linear probing, grown by doubling, entries removed by shifting the run
 * back (no tombstones); this thread's tables, or the process's under a
 * lock once MPI lets several threads call it. */
#include "request_table.h"

#include <mpi.h>
#include <stdlib.h>

struct scope_handle_slot {
    uint64_t key;
    struct scope_handle_info info;   /* comm NULL: a free slot */
};

__thread struct scope_handle_table scope_thread_handles[SCOPE_HANDLE_TABLES]
    __attribute__((tls_model("initial-exec")));
static pthread_mutex_t process_lock = PTHREAD_MUTEX_INITIALIZER;
struct scope_handle_table scope_process_handles[SCOPE_HANDLE_TABLES] = {
    {.lock = &process_lock}, {.lock = &process_lock}, {.lock = &process_lock}};
int scope_handles_shared;

void scope_handles_after_init(void)
{
    int provided = MPI_THREAD_SINGLE;
    if (PMPI_Query_thread(&provided) == MPI_SUCCESS && provided >= MPI_THREAD_SERIALIZED)
        scope_handles_shared = 1;
}

static size_t home(uint64_t key, size_t cap)
{
    key ^= key >> 31;
    key *= 0x9e3779b97f4a7c15ull;
    return (size_t)(key >> 32) & (cap - 1);
}

/* The slot of key, or the free one where it would go. */
static size_t find(const struct scope_handle_table *t, uint64_t key)
{
    size_t s = home(key, t->cap);
    while (t->slot[s].info.comm && t->slot[s].key != key)
        s = (s + 1) & (t->cap - 1);
    return s;
}

static void put(struct scope_handle_table *t, uint64_t key, const struct scope_handle_info *info)
{
    size_t s = find(t, key);
    if (!t->slot[s].info.comm)
        __atomic_store_n(&t->n, t->n + 1, __ATOMIC_RELAXED);
    t->slot[s] = (struct scope_handle_slot){key, *info};
}

static int grow(struct scope_handle_table *t)
{
    size_t cap = t->cap ? 2 * t->cap : 64;
    struct scope_handle_table bigger = {calloc(cap, sizeof(struct scope_handle_slot)), cap, 0,
                                        t->lock};
    if (!bigger.slot)
        return -1;
    for (size_t i = 0; i < t->cap; i++)
        if (t->slot[i].info.comm)
            put(&bigger, t->slot[i].key, &t->slot[i].info);
    free(t->slot);
    t->slot = bigger.slot;
    t->cap = cap;
    __atomic_store_n(&t->n, bigger.n, __ATOMIC_RELAXED);
    return 0;
}

static void lock(struct scope_handle_table *t)
{
    if (t->lock)
        pthread_mutex_lock(t->lock);
}

static void unlock(struct scope_handle_table *t)
{
    if (t->lock)
        pthread_mutex_unlock(t->lock);
}

void scope_handle_put(struct scope_handle_table *t, uint64_t key,
                      const struct scope_handle_info *info)
{
    if (!info->comm)
        return;
    lock(t);
    if ((t->n + 1) * 2 <= t->cap || grow(t) == 0)
        put(t, key, info);
    unlock(t);
}

/* scope_handle_get with the table's lock held. */
static int get_locked(struct scope_handle_table *t, uint64_t key, struct scope_handle_info *info,
                      int forget)
{
    if (t->n == 0)
        return 0;
    size_t s = find(t, key);
    if (!t->slot[s].info.comm)
        return 0;
    *info = t->slot[s].info;
    if (!forget)
        return 1;
    t->slot[s].info.comm = NULL;
    __atomic_store_n(&t->n, t->n - 1, __ATOMIC_RELAXED);
    size_t mask = t->cap - 1;
    for (size_t hole = s, i = (s + 1) & mask; t->slot[i].info.comm; i = (i + 1) & mask) {
        size_t h = home(t->slot[i].key, t->cap);
        if (((i - h) & mask) >= ((i - hole) & mask)) {
            t->slot[hole] = t->slot[i];
            t->slot[i].info.comm = NULL;
            hole = i;
        }
    }
    return 1;
}

int scope_handle_get(struct scope_handle_table *t, uint64_t key, struct scope_handle_info *info,
                     int forget)
{
    if (scope_handle_count(t) == 0)
        return 0;
    lock(t);
    int found = get_locked(t, key, info, forget);
    unlock(t);
    return found;
}
