/* profile_rank.h: profile mode's tables of all of a process's threads
 * (recording/profile_table.h) added up into what the file stores for its
 * rank: per region the statistics in ns, the duration histogram and the
 * region's call paths; the rank's call paths, keyed by (parent, region)
 * so that the paths of every thread, and of hooks that share a region,
 * become one. */
#ifndef SCOPE_PROFILE_RANK_H
#define SCOPE_PROFILE_RANK_H

#include <stddef.h>
#include <stdint.h>

#include "clock.h"
#include "profile_table.h"
#include "scope_writer.h"

struct scope_rank_profile {
    struct scope_region_profile *regions;   /* nused: the regions with calls or */
    size_t nused;                           /* paths, in no order */
    int32_t *region_slot;                   /* nregions: its index in regions, -1: */
    size_t nregions;                        /* none (a region never called) */
    struct scope_region_profile none;       /* what such a region has */
    int32_t *parents;                       /* npaths: each path's parent, -1 none; */
                                            /* NULL for folded tables */
    size_t npaths;
    int64_t trace_limit_passed_ns;          /* set by the caller (fold.h); 0: not */
};

/* hook_region[h]: hook h's region (< nregions); path_sites[t][i]: the
 * site (in the process's site table) of table t's path i, -1 none
 * (profile_sites.h; path_sites or path_sites[t] NULL: none); map: raw
 * ticks to ns on rank 0's clock; folded: the tables of trace mode's folding
 * (fold.h), whose statistics are of the calls not recorded and whose self
 * times are of all calls; the rank then has no call paths (parents NULL).
 * A rank's path is (parent, region, site). Only the hooks a table marks
 * as written are read, so the cost follows the regions called, not those
 * hooked. 0, or -1 with err (out of memory). */
int scope_rank_profile_build(struct scope_rank_profile *p,
                             struct scope_profile_table *const *tables,
                             int32_t *const *path_sites, size_t ntables,
                             const uint32_t *hook_region, size_t nhooks, size_t nregions,
                             const struct scope_clock_map *map, int folded, char *err,
                             size_t errlen);
void scope_rank_profile_free(struct scope_rank_profile *p);

/* The paths' sites, sites of the process's site table until then, as the
 * file's ids: site_ids[s] for site s (site_ids NULL: the sites are left
 * out, none has one). Once, before the rank is written or sent; p may be
 * NULL (trace mode). */
void scope_rank_profile_name_sites(struct scope_rank_profile *p, const int32_t *site_ids);

/* Region r's profile, NULL when p is NULL (trace mode). */
static inline const struct scope_region_profile *
scope_rank_profile_region(const struct scope_rank_profile *p, size_t r)
{
    if (!p)
        return NULL;
    return p->region_slot[r] >= 0 ? &p->regions[p->region_slot[r]] : &p->none;
}

#endif
