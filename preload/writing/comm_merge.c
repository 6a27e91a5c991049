/* comm_merge.c: the run's communicator ids from every rank's own
 * (comm_merge.h). */
#include "comm_merge.h"

#include "grow_array.h"

#include <stdlib.h>
#include <string.h>

static uint64_t members_hash(const int32_t *v, size_t n)
{
    uint64_t h = 1469598103934665603ull ^ n;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (uint32_t)v[i]) * 1099511628211ull;
    return h;
}

/* A new run's communicator of these members: its id, -1 when out of memory. */
static int32_t add_comm(struct scope_comm_merge *m, const int32_t *members, size_t n)
{
    size_t k = m->ncomms;
    if (scope_grow_array((void **)&m->sizes, &m->sizes_cap, k + 1, sizeof *m->sizes) != 0 ||
        scope_grow_array((void **)&m->first, &m->first_cap, k + 1, sizeof *m->first) != 0 ||
        scope_grow_array((void **)&m->hash, &m->hash_cap, k + 1, sizeof *m->hash) != 0 ||
        scope_grow_array((void **)&m->members, &m->members_cap, m->nmembers + n + 1,
                         sizeof *m->members) != 0)
        return -1;
    if (n)
        memcpy(m->members + m->nmembers, members, n * sizeof *members);
    m->sizes[k] = (int64_t)n;
    m->first[k] = m->nmembers;
    m->hash[k] = members_hash(members, n);
    m->nmembers += n;
    m->ncomms++;
    return (int32_t)k;
}

int scope_comm_merge_init(struct scope_comm_merge *m, int nranks)
{
    *m = (struct scope_comm_merge){0};
    int32_t *world = malloc(((size_t)nranks + 1) * sizeof *world);
    if (!world)
        return -1;
    for (int r = 0; r < nranks; r++)
        world[r] = r;
    int rc = add_comm(m, world, (size_t)(nranks > 0 ? nranks : 0)) == 0 ? 0 : -1;
    free(world);
    return rc;
}

void scope_comm_merge_free(struct scope_comm_merge *m)
{
    free(m->sizes);
    free(m->first);
    free(m->hash);
    free(m->members);
    *m = (struct scope_comm_merge){0};
}

static int same_members(const struct scope_comm_merge *m, size_t k, uint64_t hash,
                        const int32_t *members, size_t n)
{
    return m->hash[k] == hash && (size_t)m->sizes[k] == n &&
           memcmp(m->members + m->first[k], members, n * sizeof *members) == 0;
}

/* The run's id of the ordinal-th communicator (0 the first) of these
 * members, a new one when there are not that many yet. */
static int32_t find_or_add(struct scope_comm_merge *m, const int32_t *members, size_t n,
                           size_t ordinal)
{
    uint64_t hash = members_hash(members, n);
    size_t seen = 0;
    for (size_t k = 0; k < m->ncomms; k++)
        if (same_members(m, k, hash, members, n) && seen++ == ordinal)
            return (int32_t)k;
    return add_comm(m, members, n);
}

int32_t *scope_comm_merge_add(struct scope_comm_merge *m, const struct scope_comm_def *defs,
                              size_t ndefs, const int32_t *members, size_t *n)
{
    *n = 0;
    int32_t top = -1;
    for (size_t i = 0; i < ndefs; i++)
        top = defs[i].id > top ? defs[i].id : top;
    if (top < 0)
        return NULL;
    m->defined = 1;
    int32_t *map = malloc(((size_t)top + 1) * sizeof *map);
    if (!map)
        return NULL;
    for (int32_t i = 0; i <= top; i++)
        map[i] = -1;
    /* in the rank's order of creation: its ids */
    for (int32_t id = 0; id <= top; id++)
        for (size_t i = 0; i < ndefs; i++) {
            if (defs[i].id != id || map[id] >= 0)
                continue;
            const int32_t *mine = members + defs[i].first;
            size_t ordinal = 0;
            uint64_t hash = members_hash(mine, defs[i].size);
            for (size_t j = 0; j < ndefs; j++)
                ordinal += defs[j].id < id && defs[j].size == defs[i].size &&
                           members_hash(members + defs[j].first, defs[j].size) == hash &&
                           memcmp(members + defs[j].first, mine, defs[i].size * sizeof *mine) == 0;
            map[id] = find_or_add(m, mine, defs[i].size, ordinal);
        }
    *n = (size_t)top + 1;
    return map;
}

struct scope_comm_table scope_comm_merge_table(const struct scope_comm_merge *m)
{
    return (struct scope_comm_table){m->sizes, m->ncomms, m->members};
}
