/* profile_wire.c: profile mode's parts of the merge's messages
 * (profile_wire.h). */
#include "profile_wire.h"

#include <stdlib.h>
#include <string.h>

struct profile_fixed {
    struct call_stats stats;
    int64_t self_ns, pathless_calls, folded, has_sites;
    int64_t histogram[SCOPE_HISTOGRAM_BINS];
    uint64_t npaths;
};

/* A profile's path columns: the id column, three int64 columns, then the
 * sites' column when it has one. */
static void *column(const struct scope_region_profile *p, int c)
{
    void *const columns[] = {p->path_ids, p->path_calls, p->path_total_ns, p->path_self_ns,
                             p->path_sites};
    return columns[c];
}

static size_t column_bytes(int c, size_t n)
{
    return n * (c == 0 || c == 4 ? sizeof(int32_t) : sizeof(int64_t));
}

static int columns_of(const struct scope_region_profile *p)
{
    return p->path_sites ? 5 : 4;
}

size_t scope_wire_profile_encode(char *buf, const struct scope_region_profile *p)
{
    struct profile_fixed f = {.stats = p->stats, .self_ns = p->self_ns,
                              .pathless_calls = p->pathless_calls, .folded = p->folded,
                              .has_sites = p->path_sites != NULL, .npaths = p->npaths};
    memcpy(f.histogram, p->histogram, sizeof f.histogram);
    memcpy(buf, &f, sizeof f);
    size_t at = sizeof f;
    for (int c = 0; c < columns_of(p); c++) {
        memcpy(buf + at, column(p, c), column_bytes(c, p->npaths));
        at += column_bytes(c, p->npaths);
    }
    return at;
}

struct scope_region_profile *scope_wire_profile_decode(const char *buf, size_t len)
{
    struct profile_fixed f;
    if (len < sizeof f)
        return NULL;
    memcpy(&f, buf, sizeof f);
    if (f.npaths > (len - sizeof f) / ((f.has_sites ? 2 : 1) * sizeof(int32_t) +
                                       3 * sizeof(int64_t)))
        return NULL;
    struct scope_region_profile *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    *p = (struct scope_region_profile){.stats = f.stats, .self_ns = f.self_ns,
                                       .folded = f.folded != 0,
                                       .pathless_calls = f.pathless_calls, .npaths = f.npaths};
    memcpy(p->histogram, f.histogram, sizeof f.histogram);
    size_t n = f.npaths ? f.npaths : 1;
    p->path_ids = malloc(n * sizeof(int32_t));
    p->path_calls = malloc(n * sizeof(int64_t));
    p->path_total_ns = malloc(n * sizeof(int64_t));
    p->path_self_ns = malloc(n * sizeof(int64_t));
    p->path_sites = f.has_sites ? malloc(n * sizeof(int32_t)) : NULL;
    if (!p->path_ids || !p->path_calls || !p->path_total_ns || !p->path_self_ns ||
        (f.has_sites && !p->path_sites)) {
        scope_wire_profile_free(p);
        return NULL;
    }
    size_t at = sizeof f;
    for (int c = 0; c < columns_of(p); c++) {
        memcpy(column(p, c), buf + at, column_bytes(c, f.npaths));
        at += column_bytes(c, f.npaths);
    }
    return p;
}

void scope_wire_profile_free(struct scope_region_profile *p)
{
    if (!p)
        return;
    free(p->path_ids);
    free(p->path_calls);
    free(p->path_total_ns);
    free(p->path_self_ns);
    free(p->path_sites);
    free(p);
}

size_t scope_wire_parents_encode(char *buf, const int32_t *parents, size_t n)
{
    memcpy(buf, parents, n * sizeof(int32_t));
    return n * sizeof(int32_t);
}

int32_t *scope_wire_parents_decode(const char *buf, size_t len, size_t n)
{
    if (n > len / sizeof(int32_t))
        return NULL;
    int32_t *parents = malloc((n ? n : 1) * sizeof(int32_t));
    if (parents)
        memcpy(parents, buf, n * sizeof(int32_t));
    return parents;
}
