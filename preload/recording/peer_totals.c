/* peer_totals.c: the per-thread tables of peer_totals.h, open addressing
 * on (hook, peer, direction), doubled at half full, each in a segment of
 * its own (or, when no segment can be made, in anonymous memory: then only
 * `scope recover` misses them, said once). Each thread's table is put on a
 * list the first time it adds, and stays there when the thread ends, to be
 * read at the end. */
#include "peer_totals.h"
#include "log.h"
#include "process_meta.h"
#include "record_files.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

struct peer_table {
    struct scope_peer_table_header *head;   /* slots follow; NULL: removed */
    int number;                             /* its segment STEM-mN */
    int shared;                             /* head is that segment */
    struct peer_table *next;
};

static __thread struct peer_table *mine __attribute__((tls_model("initial-exec")));
static struct peer_table *tables;
static int table_count;
static int said_unshared;
static pthread_mutex_t tables_lock = PTHREAD_MUTEX_INITIALIZER;

static struct scope_peer_total *slots(struct scope_peer_table_header *h)
{
    return (struct scope_peer_total *)(h + 1);
}

static void segment_name(char *out, size_t len, int number, const char *tail)
{
    char suffix[32];
    snprintf(suffix, sizeof suffix, "m%d%s", number, tail);
    scope_record_shm_name(out, len, suffix);
}

static size_t hash(uint32_t hook, int32_t peer, int32_t direction)
{
    uint64_t h = ((uint64_t)hook << 33 | (uint64_t)(uint32_t)peer << 1 | (uint64_t)direction) *
                 0x9e3779b97f4a7c15u;
    return (size_t)(h >> 32);
}

static struct scope_peer_total *find(struct scope_peer_table_header *h, uint32_t hook,
                                     int32_t peer, int32_t direction)
{
    struct scope_peer_total *slot = slots(h);
    for (size_t i = hash(hook, peer, direction);; i++) {
        struct scope_peer_total *e = &slot[i & (h->capacity - 1)];
        if (e->messages == 0 || (e->hook == hook && e->peer == peer && e->direction == direction))
            return e;
    }
}

/* A table of `capacity` slots: the segment `name`, else anonymous memory
 * (*shared 0, said once). */
static struct scope_peer_table_header *map_table(const char *name, uint64_t capacity, int *shared)
{
    size_t bytes = scope_peer_table_bytes(capacity);
    struct scope_peer_table_header *h = scope_record_shm_create(name, bytes);
    *shared = h != NULL;
    if (!h) {
        if (!__atomic_exchange_n(&said_unshared, 1, __ATOMIC_RELAXED))
            scope_log("cannot create %s%s: %s: a killed run would be recovered without its "
                      "messages per peer", SCOPE_SHM_DIR, name, strerror(errno));
        h = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (h == MAP_FAILED)
            return NULL;
    }
    memcpy(h->magic, SCOPE_PEER_TABLE_MAGIC, 8);
    h->pid = (int32_t)getpid();
    h->capacity = capacity;
    return h;
}

/* t's slots doubled: copied whole into STEM-mN-next, which then takes the
 * name STEM-mN (see peer_totals.h); a table that cannot be shared any more
 * leaves no stale segment behind. */
static int grow(struct peer_table *t)
{
    char name[96], next[96];
    segment_name(name, sizeof name, t->number, "");
    segment_name(next, sizeof next, t->number, "-next");
    int shared;
    struct scope_peer_table_header *old = t->head,
                                   *h = map_table(next, 2 * old->capacity, &shared);
    if (!h)
        return -1;
    for (size_t i = 0; i < old->capacity; i++)
        if (slots(old)[i].messages)
            *find(h, slots(old)[i].hook, slots(old)[i].peer, slots(old)[i].direction) =
                slots(old)[i];
    h->used = old->used;
    if (shared && scope_record_shm_rename(next, name) != 0) {
        shm_unlink(next);
        shared = 0;
    }
    if (!shared && t->shared)
        shm_unlink(name);
    munmap(old, scope_peer_table_bytes(old->capacity));
    t->head = h;
    t->shared = shared;
    return 0;
}

static struct peer_table *my_table(void)
{
    if (mine)
        return mine;
    struct peer_table *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    pthread_mutex_lock(&tables_lock);
    char name[96];
    t->number = table_count;
    segment_name(name, sizeof name, t->number, "");
    t->head = map_table(name, 64, &t->shared);
    if (t->head) {
        t->next = tables;
        tables = t;
        scope_meta_set_peer_tables(++table_count);
    }
    pthread_mutex_unlock(&tables_lock);
    if (!t->head) {
        free(t);
        return NULL;
    }
    return mine = t;
}

void scope_peer_totals_add(uint32_t hook, int32_t peer, enum scope_peer_direction direction,
                           int64_t bytes)
{
    struct peer_table *t = my_table();
    if (!t || !t->head || peer < (direction == SCOPE_PEER_CALLS ? -1 : 0) ||
        (2 * (t->head->used + 1) > t->head->capacity && grow(t) != 0))
        return;
    struct scope_peer_total *e = find(t->head, hook, peer, (int32_t)direction);
    if (e->messages == 0) {   /* the key before the count that makes the slot used */
        e->hook = hook;
        e->peer = peer;
        e->direction = (int32_t)direction;
        e->bytes = 0;
        t->head->used++;
    }
    e->bytes += bytes > 0 ? (uint64_t)bytes : 0;
    __atomic_store_n(&e->messages, e->messages + 1, __ATOMIC_RELEASE);
}

int scope_peer_totals_collect(struct scope_peer_total **out, size_t *count)
{
    pthread_mutex_lock(&tables_lock);
    size_t n = 0;
    for (struct peer_table *t = tables; t; t = t->next)
        n += t->head ? t->head->used : 0;
    *out = malloc((n ? n : 1) * sizeof **out);
    *count = 0;
    for (struct peer_table *t = *out ? tables : NULL; t; t = t->next)
        for (size_t i = 0; t->head && i < t->head->capacity; i++)
            if (slots(t->head)[i].messages)
                (*out)[(*count)++] = slots(t->head)[i];
    pthread_mutex_unlock(&tables_lock);
    return *out ? 0 : -1;
}

void scope_peer_totals_remove(void)
{
    pthread_mutex_lock(&tables_lock);
    for (struct peer_table *t = tables; t; t = t->next) {
        if (!t->head)
            continue;
        munmap(t->head, scope_peer_table_bytes(t->head->capacity));
        t->head = NULL;
        if (t->shared) {
            char name[96];
            segment_name(name, sizeof name, t->number, "");
            shm_unlink(name);
        }
    }
    pthread_mutex_unlock(&tables_lock);
}

void scope_peer_totals_after_fork_child(void)
{
    pthread_mutex_init(&tables_lock, NULL);
    while (tables) {   /* the parent's segments: left to it */
        struct peer_table *t = tables;
        tables = t->next;
        if (t->head)
            munmap(t->head, scope_peer_table_bytes(t->head->capacity));
        free(t);
    }
    mine = NULL;
    table_count = 0;
}
