/* site_table.c: interning stacks of return addresses (see site_table.h). */
#include "site_table.h"

#include "grow_array.h"

#include <stdlib.h>
#include <string.h>

#define INDEX_FIRST_SLOTS 1024   /* the hash index's first size (a power of two) */

void scope_site_table_init(struct scope_site_table *t)
{
    memset(t, 0, sizeof(*t));
}

void scope_site_table_free(struct scope_site_table *t)
{
    free(t->addrs);
    free(t->begin);
    free(t->index);
    scope_site_table_init(t);
}

static uint64_t hash_stack(const uint64_t *a, size_t n)
{
    uint64_t h = 0x9e3779b97f4a7c15u ^ n;
    for (size_t i = 0; i < n; i++) {
        h ^= a[i];
        h *= 0xff51afd7ed558ccdu;
        h ^= h >> 32;
    }
    return h;
}

static int same(const struct scope_site_table *t, size_t site, const uint64_t *a, size_t n)
{
    return scope_site_depth(t, site) == n &&
           memcmp(scope_site_addrs(t, site), a, n * sizeof(*a)) == 0;
}

/* Slot of the stack a[0..n) in the index: its site or the empty slot where
 * it belongs. */
static size_t find(const struct scope_site_table *t, const uint64_t *a, size_t n)
{
    size_t mask = t->index_cap - 1, at = (size_t)hash_stack(a, n) & mask;
    while (t->index[at] && !same(t, t->index[at] - 1, a, n))
        at = (at + 1) & mask;
    return at;
}

static int grow_index(struct scope_site_table *t)
{
    size_t cap = t->index_cap ? 2 * t->index_cap : INDEX_FIRST_SLOTS;
    uint32_t *old = t->index;
    size_t old_cap = t->index_cap;
    t->index = calloc(cap, sizeof(*t->index));
    if (!t->index) {
        t->index = old;
        return -1;
    }
    t->index_cap = cap;
    for (size_t i = 0; i < old_cap; i++)
        if (old[i]) {
            size_t s = old[i] - 1;
            t->index[find(t, scope_site_addrs(t, s), scope_site_depth(t, s))] = old[i];
        }
    free(old);
    return 0;
}

int32_t scope_site_table_intern(struct scope_site_table *t, const uint64_t *addrs, size_t n)
{
    if ((2 * (t->nsites + 1) > t->index_cap && grow_index(t) != 0) ||
        scope_grow_array((void **)&t->begin, &t->sites_cap, t->nsites + 2, sizeof(*t->begin)) != 0 ||
        scope_grow_array((void **)&t->addrs, &t->addrs_cap, t->naddrs + n, sizeof(*t->addrs)) != 0 ||
        t->nsites >= INT32_MAX)
        return -1;
    size_t at = find(t, addrs, n);
    if (t->index[at])
        return (int32_t)(t->index[at] - 1);
    memcpy(t->addrs + t->naddrs, addrs, n * sizeof(*addrs));
    t->begin[t->nsites] = t->naddrs;
    t->naddrs += n;
    t->begin[t->nsites + 1] = t->naddrs;
    t->index[at] = (uint32_t)++t->nsites;
    t->max_depth = n > t->max_depth ? n : t->max_depth;
    return (int32_t)(t->nsites - 1);
}
