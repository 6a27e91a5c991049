/* request_table.c: handles by key (request_table.h): open addressing with
 * linear probing, grown by doubling, entries removed by shifting the run
 * back (no tombstones). */
#include "request_table.h"

#include <stdlib.h>

struct scope_handle_slot {
    uint64_t key;
    struct scope_handle_info info;   /* comm NULL: a free slot */
};

__thread struct scope_handle_table scope_pending_recvs __attribute__((tls_model("initial-exec")));
__thread struct scope_handle_table scope_persistent_requests
    __attribute__((tls_model("initial-exec")));
__thread struct scope_handle_table scope_matched_messages
    __attribute__((tls_model("initial-exec")));

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
    t->n += !t->slot[s].info.comm;
    t->slot[s] = (struct scope_handle_slot){key, *info};
}

static int grow(struct scope_handle_table *t)
{
    size_t cap = t->cap ? 2 * t->cap : 64;
    struct scope_handle_table bigger = {calloc(cap, sizeof(struct scope_handle_slot)), cap, 0};
    if (!bigger.slot)
        return -1;
    for (size_t i = 0; i < t->cap; i++)
        if (t->slot[i].info.comm)
            put(&bigger, t->slot[i].key, &t->slot[i].info);
    free(t->slot);
    *t = bigger;
    return 0;
}

void scope_handle_put(struct scope_handle_table *t, uint64_t key,
                      const struct scope_handle_info *info)
{
    if (!info->comm || ((t->n + 1) * 2 > t->cap && grow(t) != 0))
        return;
    put(t, key, info);
}

int scope_handle_get(struct scope_handle_table *t, uint64_t key, struct scope_handle_info *info,
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
    t->n--;
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
