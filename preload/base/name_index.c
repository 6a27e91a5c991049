/* name_index.c: FNV-1a hashes, linear probing, kept at most half full. */
#include "name_index.h"

#include <stdlib.h>
#include <string.h>

#define FIRST_SLOTS 64   /* the index's first size (a power of two) */

static uint64_t hash(const char *s)
{
    uint64_t h = 1469598103934665603u;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211u;
    return h;
}

long scope_name_index_find(const struct scope_name_index *x, char *const *names,
                           const char *name)
{
    if (x->cap == 0)
        return -1;
    for (size_t i = hash(name) & (x->cap - 1);; i = (i + 1) & (x->cap - 1)) {
        if (x->slot[i] == 0)
            return -1;
        if (strcmp(names[x->slot[i] - 1], name) == 0)
            return (long)x->slot[i] - 1;
    }
}

static void place(uint32_t *slot, size_t cap, char *const *names, size_t at)
{
    size_t i = hash(names[at]) & (cap - 1);
    while (slot[i] != 0)
        i = (i + 1) & (cap - 1);
    slot[i] = (uint32_t)at + 1;
}

int scope_name_index_add(struct scope_name_index *x, char *const *names, size_t n)
{
    if (2 * n > x->cap) {
        size_t cap = x->cap ? 2 * x->cap : FIRST_SLOTS;
        while (2 * n > cap)
            cap *= 2;
        uint32_t *slot = calloc(cap, sizeof *slot);
        if (!slot)
            return -1;
        for (size_t at = 0; at + 1 < n; at++)
            place(slot, cap, names, at);
        free(x->slot);
        x->slot = slot;
        x->cap = cap;
    }
    place(x->slot, x->cap, names, n - 1);
    return 0;
}
