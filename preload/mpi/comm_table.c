/* comm_table.c: communicators by handle (comm_table.h). An open-addressed
 * table of entry pointers: readers load a slot and compare the entry's
 * handle, writers (new communicators, frees: rare) hold a lock and publish
 * a complete entry with one store. Entries are never freed (a freed
 * communicator's slot points at a tombstone), so a reader never sees freed
 * memory. */
#include "comm_table.h"

#include "log.h"
#include "thread_state.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#define SLOTS 4096                 /* communicators alive at once, at most */

static struct scope_comm *_Atomic slots[SLOTS];
/* windows: (handle, its communicator's entry), published by the entry */
static struct { MPI_Win win; const struct scope_comm *_Atomic comm; } windows[SLOTS];
static struct scope_comm tombstone;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int32_t next_id = 1;        /* 0 is MPI_COMM_WORLD's */
__thread int scope_comm_fortran_constructing __attribute__((tls_model("initial-exec")));

static size_t slot_of(MPI_Comm comm)
{
    uint64_t key = 0;
    memcpy(&key, &comm, sizeof comm < sizeof key ? sizeof comm : sizeof key);
    key ^= key >> 29;
    key *= 0xbf58476d1ce4e5b9ull;
    return (size_t)(key >> 40) % SLOTS;
}

static int same(MPI_Comm a, MPI_Comm b)
{
    return memcmp(&a, &b, sizeof a) == 0;
}

/* The world ranks of group g's n ranks, malloc'd. */
static int32_t *world_ranks(MPI_Group g, int n)
{
    MPI_Group world;
    int *in = malloc(((size_t)n + 1) * sizeof *in), *out = malloc(((size_t)n + 1) * sizeof *out);
    int32_t *v = malloc(((size_t)n + 1) * sizeof *v);
    if (in && out && v && PMPI_Comm_group(MPI_COMM_WORLD, &world) == MPI_SUCCESS) {
        for (int i = 0; i < n; i++)
            in[i] = i;
        PMPI_Group_translate_ranks(g, n, in, world, out);
        PMPI_Group_free(&world);
        for (int i = 0; i < n; i++)
            v[i] = out[i] == MPI_UNDEFINED ? -1 : out[i];
    } else {
        free(v);
        v = NULL;
    }
    free(in);
    free(out);
    return v;
}

static struct scope_comm *make_entry(MPI_Comm comm)
{
    struct scope_comm *e = calloc(1, sizeof *e);
    int inter = 0;
    MPI_Group local, remote;
    if (!e || PMPI_Comm_test_inter(comm, &inter) != MPI_SUCCESS ||
        PMPI_Comm_group(comm, &local) != MPI_SUCCESS) {
        free(e);
        return NULL;
    }
    PMPI_Group_size(local, &e->nmembers);
    PMPI_Comm_rank(comm, &e->rank);
    e->members = world_ranks(local, e->nmembers);
    PMPI_Group_free(&local);
    e->size = e->nmembers;
    e->world = e->members;
    e->inter = inter;
    if (inter && PMPI_Comm_remote_group(comm, &remote) == MPI_SUCCESS) {
        PMPI_Group_size(remote, &e->size);
        e->world = world_ranks(remote, e->size);
        PMPI_Group_free(&remote);
    }
    if (!e->members || !e->world) {
        free(e->members);
        free(e);
        return NULL;
    }
    e->handle = comm;
    e->id = same(comm, MPI_COMM_WORLD) ? 0 : next_id++;
    return e;
}

/* Puts e's definition in the records once (under the lock); a thread that
 * does not record yet leaves it for a later call, a buffer that cannot
 * take it (a communicator larger than its slices) gives up: the file then
 * lacks that communicator, its calls' peers are world ranks all the same. */
static void record_definition(struct scope_comm *e)
{
    if (e->recorded)
        return;
    int rc = scope_record_communicator((uint32_t)e->id, e->members, (uint32_t)e->nmembers);
    e->recorded = rc != -1;
    if (rc == -2)
        scope_debug("communicator %d of %d ranks: too large for the buffer, left out of the file",
                    e->id, e->nmembers);
}

/* Under the lock: the slot of comm (its entry or the first free one), or
 * SLOTS when full. */
static size_t find(MPI_Comm comm, int *found)
{
    size_t s = slot_of(comm), free_slot = SLOTS;
    for (size_t k = 0; k < SLOTS; k++, s = (s + 1) % SLOTS) {
        struct scope_comm *e = atomic_load_explicit(&slots[s], memory_order_acquire);
        if (!e) {
            *found = 0;
            return free_slot < SLOTS ? free_slot : s;
        }
        if (e == &tombstone) {
            free_slot = free_slot < SLOTS ? free_slot : s;
            continue;
        }
        if (same(e->handle, comm)) {
            *found = 1;
            return s;
        }
    }
    *found = 0;
    return free_slot;
}

/* comm's entry (a fresh one when `fresh`), defined in the records. */
static const struct scope_comm *enter(MPI_Comm comm, int fresh)
{
    if (same(comm, MPI_COMM_NULL))
        return NULL;
    scope_tls.busy++;   /* its MPI calls are scope's, not the program's */
    pthread_mutex_lock(&lock);
    int found;
    size_t s = find(comm, &found);
    struct scope_comm *e = s < SLOTS && found ? atomic_load(&slots[s]) : NULL;
    if (s < SLOTS && (!e || fresh)) {
        struct scope_comm *made = make_entry(comm);
        if (made) {
            e = made;
            atomic_store_explicit(&slots[s], e, memory_order_release);
        }
    }
    if (e)
        record_definition(e);
    pthread_mutex_unlock(&lock);
    scope_tls.busy--;
    return e;
}

const struct scope_comm *scope_comm_of(MPI_Comm comm)
{
    size_t s = slot_of(comm);
    for (size_t k = 0; k < SLOTS; k++, s = (s + 1) % SLOTS) {
        struct scope_comm *e = atomic_load_explicit(&slots[s], memory_order_acquire);
        if (!e)
            break;
        if (e != &tombstone && same(e->handle, comm))
            return e->recorded ? e : enter(comm, 0);
    }
    return enter(comm, 0);
}

void scope_comm_created(MPI_Comm comm)
{
    enter(comm, 1);
}

void scope_comm_forget(MPI_Comm comm)
{
    pthread_mutex_lock(&lock);
    int found;
    size_t s = find(comm, &found);
    if (found)
        atomic_store_explicit(&slots[s], &tombstone, memory_order_release);
    pthread_mutex_unlock(&lock);
}

static size_t window_slot(MPI_Win win)
{
    uint64_t key = 0;
    memcpy(&key, &win, sizeof win < sizeof key ? sizeof win : sizeof key);
    key *= 0x9e3779b97f4a7c15ull;
    return (size_t)(key >> 40) % SLOTS;
}

void scope_window_created(MPI_Win win, MPI_Comm comm)
{
    const struct scope_comm *c = scope_comm_of(comm);
    pthread_mutex_lock(&lock);
    size_t s = window_slot(win);
    for (size_t k = 0; c && k < SLOTS; k++, s = (s + 1) % SLOTS) {
        const struct scope_comm *e = atomic_load(&windows[s].comm);
        if (!e || e == &tombstone || memcmp(&windows[s].win, &win, sizeof win) == 0) {
            atomic_store(&windows[s].comm, NULL);   /* the handle first, then the entry */
            windows[s].win = win;
            atomic_store_explicit(&windows[s].comm, c, memory_order_release);
            break;
        }
    }
    pthread_mutex_unlock(&lock);
}

const struct scope_comm *scope_window_comm(MPI_Win win)
{
    size_t s = window_slot(win);
    for (size_t k = 0; k < SLOTS; k++, s = (s + 1) % SLOTS) {
        const struct scope_comm *e = atomic_load_explicit(&windows[s].comm, memory_order_acquire);
        if (!e)
            return NULL;
        if (e != &tombstone && memcmp(&windows[s].win, &win, sizeof win) == 0)
            return e;
    }
    return NULL;
}

void scope_window_forget(MPI_Win win)
{
    pthread_mutex_lock(&lock);
    size_t s = window_slot(win);
    for (size_t k = 0; k < SLOTS; k++, s = (s + 1) % SLOTS) {
        const struct scope_comm *e = atomic_load(&windows[s].comm);
        if (!e)
            break;
        if (e != &tombstone && memcmp(&windows[s].win, &win, sizeof win) == 0) {
            atomic_store_explicit(&windows[s].comm, &tombstone, memory_order_release);
            break;
        }
    }
    pthread_mutex_unlock(&lock);
}
