/* callsite_resolve.h: turns this process's recorded call sites (stacks of
 * return addresses, site_table.h) into named ones in a callsite set,
 * through libscope-resolve.so; run on every rank before the merge, since
 * addresses mean nothing in another process. */
#ifndef SCOPE_CALLSITE_RESOLVE_H
#define SCOPE_CALLSITE_RESOLVE_H

#include "callsite_set.h"
#include "site_table.h"

/* Adds every site of `sites` to `set`; *map (sites->nsites entries,
 * malloc'd, caller frees) gives each one's index in the set. With no sites
 * *map is NULL and nothing is loaded. -1 with err filled on failure. */
int scope_callsites_resolve(const struct scope_site_table *sites, struct scope_callsite_set *set,
                            int32_t **map, char *err, size_t errlen);

#endif
