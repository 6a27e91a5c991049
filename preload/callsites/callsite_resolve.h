/* callsite_resolve.h: turns this process's recorded call sites (stacks of
 * return addresses, site_table.h) into named ones in a callsite set,
 * through libscope-resolve.so; run on every rank before the merge, since
 * addresses mean nothing in another process. */
#ifndef SCOPE_CALLSITE_RESOLVE_H
#define SCOPE_CALLSITE_RESOLVE_H

#include "callsite_set.h"
#include "resolve/scope_resolve.h"
#include "site_table.h"

/* How the caller reaches libscope-resolve.so: libscope loads it into a
 * namespace of its own, the CLI links it. NULL with err filled. */
typedef const struct scope_resolve_api *(*scope_resolver_get_fn)(char *err, size_t errlen);

/* Adds every site of `sites` to `set`, naming addresses of this process
 * (maps NULL) or of the gone one whose /proc/PID/maps text maps is; *map
 * (sites->nsites entries, malloc'd, caller frees) gives each one's index
 * in the set. With no sites *map is NULL and nothing is loaded. -1 with
 * err filled on failure. */
int scope_callsites_resolve(scope_resolver_get_fn get, const char *maps,
                            const struct scope_site_table *sites, struct scope_callsite_set *set,
                            int32_t **map, char *err, size_t errlen);

#endif
