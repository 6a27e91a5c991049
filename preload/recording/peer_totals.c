/* peer_totals.c: the per-thread tables of peer_totals.h, open addressing
 * on (hook, peer, direction), doubled at half full; each thread's table is
 * put on a list the first time it adds, and stays there when the thread
 * ends, to be read at the end. */
#include "peer_totals.h"

#include <pthread.h>
#include <stdlib.h>

struct peer_table {
    struct scope_peer_total *slot;   /* messages == 0: free */
    size_t used, cap;                /* cap a power of two */
    struct peer_table *next;
};

static __thread struct peer_table *mine __attribute__((tls_model("initial-exec")));
static struct peer_table *tables;
static pthread_mutex_t tables_lock = PTHREAD_MUTEX_INITIALIZER;

static size_t hash(uint32_t hook, int32_t peer, int32_t direction)
{
    uint64_t h = ((uint64_t)hook << 33 | (uint64_t)(uint32_t)peer << 1 | (uint64_t)direction) *
                 0x9e3779b97f4a7c15u;
    return (size_t)(h >> 32);
}

static struct scope_peer_total *find(struct scope_peer_total *slot, size_t cap, uint32_t hook,
                                     int32_t peer, int32_t direction)
{
    for (size_t i = hash(hook, peer, direction);; i++) {
        struct scope_peer_total *e = &slot[i & (cap - 1)];
        if (e->messages == 0 || (e->hook == hook && e->peer == peer && e->direction == direction))
            return e;
    }
}

static int grow(struct peer_table *t)
{
    size_t cap = t->cap ? 2 * t->cap : 64;
    struct scope_peer_total *slot = calloc(cap, sizeof *slot);
    if (!slot)
        return -1;
    for (size_t i = 0; i < t->cap; i++)
        if (t->slot[i].messages)
            *find(slot, cap, t->slot[i].hook, t->slot[i].peer, t->slot[i].direction) =
                t->slot[i];
    free(t->slot);
    t->slot = slot;
    t->cap = cap;
    return 0;
}

static struct peer_table *my_table(void)
{
    if (mine)
        return mine;
    struct peer_table *t = calloc(1, sizeof *t);
    if (!t || grow(t) != 0) {
        free(t);
        return NULL;
    }
    pthread_mutex_lock(&tables_lock);
    t->next = tables;
    tables = t;
    pthread_mutex_unlock(&tables_lock);
    return mine = t;
}

void scope_peer_totals_add(uint32_t hook, int32_t peer, enum scope_peer_direction direction,
                           int64_t bytes)
{
    struct peer_table *t = my_table();
    if (!t || peer < 0 || (2 * (t->used + 1) > t->cap && grow(t) != 0))
        return;
    struct scope_peer_total *e = find(t->slot, t->cap, hook, peer, (int32_t)direction);
    if (e->messages == 0) {
        *e = (struct scope_peer_total){hook, peer, (int32_t)direction, 0, 0};
        t->used++;
    }
    e->messages++;
    e->bytes += bytes > 0 ? (uint64_t)bytes : 0;
}

int scope_peer_totals_collect(struct scope_peer_total **out, size_t *count)
{
    pthread_mutex_lock(&tables_lock);
    size_t n = 0;
    for (struct peer_table *t = tables; t; t = t->next)
        n += t->used;
    *out = malloc((n ? n : 1) * sizeof **out);
    *count = 0;
    for (struct peer_table *t = *out ? tables : NULL; t; t = t->next)
        for (size_t i = 0; i < t->cap; i++)
            if (t->slot[i].messages)
                (*out)[(*count)++] = t->slot[i];
    pthread_mutex_unlock(&tables_lock);
    return *out ? 0 : -1;
}

void scope_peer_totals_after_fork_child(void)
{
    pthread_mutex_init(&tables_lock, NULL);
    for (struct peer_table *t = tables; t; t = t->next) {
        free(t->slot);
        t->slot = NULL;
        t->used = t->cap = 0;
        grow(t);
    }
}
