/* profile_rank.c: a process's profile tables added up for its rank
 * (profile_rank.h). Ticks are added first and converted to ns once. */
#include "profile_rank.h"
#include "grow_array.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A region's counters over every thread and hook, in ticks. */
struct region_sum {
    uint64_t calls, total, self, min, max, first_start, last_end;
    unsigned __int128 squares;
    uint64_t histogram[SCOPE_PROFILE_BINS];
};

/* A path of the rank, in ticks. */
struct rank_path {
    int32_t parent;
    uint32_t region;
    int32_t site;         /* in the process's site table, -1: none */
    uint64_t calls, total, self;
};

struct builder {
    struct rank_path *paths;
    size_t npaths, cap;
    uint32_t *index;      /* 1 + path, 0: free; nindex a power of two */
    size_t nindex;
    struct region_sum *sums;   /* nsums, one per region met, at its slot */
    size_t nsums, sums_cap;
    int32_t *slot;        /* per region: its slot, -1: none yet */
};

static int64_t ticks_ns(const struct scope_clock_map *m, uint64_t ticks)
{
    uint64_t hi = (uint64_t)(m->mult >> 64), lo = (uint64_t)m->mult;
    unsigned __int128 half = (unsigned __int128)1 << 63;
    return (int64_t)((unsigned __int128)ticks * hi + (((unsigned __int128)ticks * lo + half) >> 64));
}

static void add_region(struct region_sum *s, const struct scope_profile_region *r)
{
    s->self += r->kept_self;
    if (r->calls == 0)
        return;
    if (s->calls == 0) {
        s->min = r->min;
        s->max = r->max;
        s->first_start = r->first_start;
        s->last_end = r->last_end;
    }
    s->min = r->min < s->min ? r->min : s->min;
    s->max = r->max > s->max ? r->max : s->max;
    s->first_start = r->first_start < s->first_start ? r->first_start : s->first_start;
    s->last_end = r->last_end > s->last_end ? r->last_end : s->last_end;
    s->calls += r->calls;
    s->total += r->total;
    s->self += r->self;
    s->squares += r->squares;
    for (int i = 0; i < SCOPE_PROFILE_BINS; i++)
        s->histogram[i] += r->histogram[i];
}

/* Region r's slot, made when new; -1 when out of memory. */
static int32_t region_slot(struct builder *b, uint32_t r)
{
    if (b->slot[r] >= 0)
        return b->slot[r];
    if (scope_grow_array((void **)&b->sums, &b->sums_cap, b->nsums + 1, sizeof(*b->sums)))
        return -1;
    b->sums[b->nsums] = (struct region_sum){0};
    b->slot[r] = (int32_t)b->nsums++;
    return b->slot[r];
}

/* Adds the regions table t marks as written to their sums. */
static int add_regions(struct builder *b, const struct scope_profile_table *t,
                       const uint32_t *hook_region, size_t nhooks)
{
    for (size_t w = 0; w < (nhooks + 63) / 64; w++)
        for (uint64_t bits = t->used[w]; bits; bits &= bits - 1) {
            size_t h = w * 64 + (size_t)__builtin_ctzll(bits);
            if (h >= nhooks)
                break;
            int32_t slot = region_slot(b, hook_region[h]);
            if (slot < 0)
                return -1;
            add_region(&b->sums[slot], &t->regions[h]);
        }
    return 0;
}

/* The rank's path (parent, region, site), made when new; -1 when out of
 * memory. */
static int64_t rank_path(struct builder *b, int32_t parent, uint32_t region, int32_t site)
{
    uint64_t h = ((uint64_t)(uint32_t)parent * 0x9e3779b97f4a7c15u) ^ (region * 0xc2b2ae35u) ^
                 ((uint64_t)(uint32_t)(site + 1) * 0x27d4eb2f165667c5u);
    for (size_t i = 0;; i++) {
        uint32_t *slot = &b->index[(h + i) & (b->nindex - 1)];
        if (*slot == 0) {
            if (scope_grow_array((void **)&b->paths, &b->cap, b->npaths + 1, sizeof(*b->paths)))
                return -1;
            b->paths[b->npaths] =
                (struct rank_path){.parent = parent, .region = region, .site = site};
            *slot = (uint32_t)++b->npaths;
            return (int64_t)b->npaths - 1;
        }
        const struct rank_path *p = &b->paths[*slot - 1];
        if (p->parent == parent && p->region == region && p->site == site)
            return *slot - 1;
    }
}

/* Adds table t's paths, of sites `sites` (NULL: none), to the rank's;
 * t's paths come after their parents. */
static int add_paths(struct builder *b, const struct scope_profile_table *t, const int32_t *sites,
                     const uint32_t *hook_region, size_t nhooks, int32_t *map)
{
    for (size_t i = 0; i < t->header.npaths && i < SCOPE_PROFILE_PATHS; i++) {
        const struct scope_profile_path *e = &t->paths[i];
        int32_t parent = e->parent < i ? map[e->parent] : -1;
        map[i] = -1;
        if (e->hook >= nhooks || (e->parent != SCOPE_PROFILE_ROOT && parent < 0))
            continue;   /* damaged: its calls count in their region only */
        int64_t id = rank_path(b, parent, hook_region[e->hook], sites ? sites[i] : -1);
        if (id < 0 || region_slot(b, hook_region[e->hook]) < 0)
            return -1;
        map[i] = (int32_t)id;
        b->paths[id].calls += e->calls;
        b->paths[id].total += e->total;
        b->paths[id].self += e->self;
    }
    return 0;
}

static struct call_stats region_stats(const struct region_sum *s, const struct scope_clock_map *m)
{
    if (s->calls == 0)
        return (struct call_stats){0};
    unsigned __int128 mean_part = (unsigned __int128)s->total * s->total / s->calls;
    double m2_ticks = s->squares > mean_part ? (double)(s->squares - mean_part) : 0;
    double ns_per_tick = (double)m->mult / 18446744073709551616.0;
    /* each rounded on its own: the total kept between calls x min and
     * calls x max, as it is for the durations it adds up */
    int64_t min = ticks_ns(m, s->min), max = ticks_ns(m, s->max), total = ticks_ns(m, s->total);
    int64_t calls = (int64_t)s->calls;
    total = total < min * calls ? min * calls : total > max * calls ? max * calls : total;
    return (struct call_stats){
        .calls = calls, .total_ns = total, .min_ns = min, .max_ns = max, .first_start_ns = scope_clock_map_apply(m, s->first_start),
        .last_end_ns = scope_clock_map_apply(m, s->last_end),
        .mean_ns = (double)total / (double)s->calls,
        .m2_ns2 = m2_ticks * ns_per_tick * ns_per_tick};
}

/* Each region's paths into its profile, in ns. */
static int region_paths(struct scope_rank_profile *p, const struct builder *b,
                        const struct scope_clock_map *m)
{
    for (size_t i = 0; i < b->npaths; i++)
        p->regions[p->region_slot[b->paths[i].region]].npaths++;
    for (size_t s = 0; s < p->nused; s++) {
        struct scope_region_profile *rp = &p->regions[s];
        size_t n = rp->npaths ? rp->npaths : 1;
        rp->path_ids = malloc(n * sizeof(int32_t));
        rp->path_calls = malloc(n * sizeof(int64_t));
        rp->path_total_ns = malloc(n * sizeof(int64_t));
        rp->path_self_ns = malloc(n * sizeof(int64_t));
        rp->path_sites = malloc(n * sizeof(int32_t));
        if (!rp->path_ids || !rp->path_calls || !rp->path_total_ns || !rp->path_self_ns ||
            !rp->path_sites)
            return -1;
        rp->pathless_calls = rp->stats.calls;
        rp->npaths = 0;
    }
    for (size_t i = 0; i < b->npaths; i++) {
        const struct rank_path *e = &b->paths[i];
        struct scope_region_profile *rp = &p->regions[p->region_slot[e->region]];
        rp->path_ids[rp->npaths] = (int32_t)i;
        rp->path_calls[rp->npaths] = (int64_t)e->calls;
        rp->path_total_ns[rp->npaths] = ticks_ns(m, e->total);
        rp->path_self_ns[rp->npaths] = ticks_ns(m, e->self);
        rp->path_sites[rp->npaths] = e->site;
        rp->pathless_calls -= (int64_t)e->calls;
        rp->npaths++;
        p->parents[i] = e->parent;
    }
    return 0;
}

int scope_rank_profile_build(struct scope_rank_profile *p,
                             struct scope_profile_table *const *tables,
                             int32_t *const *path_sites, size_t ntables,
                             const uint32_t *hook_region, size_t nhooks, size_t nregions,
                             const struct scope_clock_map *map, int folded, char *err,
                             size_t errlen)
{
    *p = (struct scope_rank_profile){.nregions = nregions, .none = {.folded = folded}};
    struct builder b = {0};
    size_t most = 0;
    for (size_t t = 0; t < ntables; t++)
        most += tables[t]->header.npaths;
    for (b.nindex = 16; b.nindex < 2 * most; b.nindex *= 2)
        ;
    int32_t *map_paths = malloc(SCOPE_PROFILE_PATHS * sizeof(int32_t));
    b.index = calloc(b.nindex, sizeof(uint32_t));
    b.slot = malloc((nregions ? nregions : 1) * sizeof(int32_t));
    int rc = map_paths && b.index && b.slot ? 0 : -1;
    for (size_t r = 0; rc == 0 && r < nregions; r++)
        b.slot[r] = -1;
    for (size_t t = 0; rc == 0 && t < ntables; t++) {
        rc = add_regions(&b, tables[t], hook_region, nhooks);
        if (rc == 0)
            rc = add_paths(&b, tables[t], path_sites ? path_sites[t] : NULL, hook_region, nhooks,
                           map_paths);
    }
    p->region_slot = b.slot;
    p->nused = b.nsums;
    if (rc == 0 && !(p->regions = calloc(b.nsums ? b.nsums : 1, sizeof(*p->regions))))
        rc = -1;
    for (size_t s = 0; rc == 0 && s < b.nsums; s++) {
        struct scope_region_profile *rp = &p->regions[s];
        rp->stats = region_stats(&b.sums[s], map);
        rp->folded = folded;
        int64_t self = ticks_ns(map, b.sums[s].self);
        /* folded: the recorded calls' times add to the total (the writer bounds it) */
        rp->self_ns = folded || self < rp->stats.total_ns ? self : rp->stats.total_ns;
        for (int i = 0; i < SCOPE_PROFILE_BINS; i++)
            rp->histogram[i] = (int64_t)b.sums[s].histogram[i];
    }
    p->npaths = b.npaths;
    if (rc == 0 && !(p->parents = malloc((b.npaths ? b.npaths : 1) * sizeof(int32_t))))
        rc = -1;
    if (rc == 0)
        rc = region_paths(p, &b, map);
    if (rc == 0 && folded) {   /* no paths: the rank has none */
        free(p->parents);
        p->parents = NULL;
    }
    free(b.sums);
    free(map_paths);
    free(b.index);
    free(b.paths);
    if (rc != 0) {
        scope_rank_profile_free(p);
        snprintf(err, errlen, "out of memory adding up the profile");
    }
    return rc;
}

void scope_rank_profile_free(struct scope_rank_profile *p)
{
    for (size_t s = 0; p->regions && s < p->nused; s++) {
        free(p->regions[s].path_ids);
        free(p->regions[s].path_calls);
        free(p->regions[s].path_total_ns);
        free(p->regions[s].path_self_ns);
        free(p->regions[s].path_sites);
    }
    free(p->regions);
    free(p->region_slot);
    free(p->parents);
    *p = (struct scope_rank_profile){0};
}

void scope_rank_profile_name_sites(struct scope_rank_profile *p, const int32_t *site_ids)
{
    for (size_t s = 0; p && s < p->nused; s++) {
        struct scope_region_profile *rp = &p->regions[s];
        int any = 0;
        for (size_t i = 0; rp->path_sites && i < rp->npaths; i++) {
            int32_t s = rp->path_sites[i];
            rp->path_sites[i] = s >= 0 && site_ids ? site_ids[s] : -1;
            any |= rp->path_sites[i] >= 0;
        }
        if (!any) {   /* the writer stores no path_sites for the region */
            free(rp->path_sites);
            rp->path_sites = NULL;
        }
    }
}
