/* region_clones.h: which of GCC's copies of a function (".isra.0",
 * ".constprop.1") recorded into each region, for the region's "clones"
 * attribute: one row holds the calls of the function and of its clones. */
#ifndef SCOPE_REGION_CLONES_H
#define SCOPE_REGION_CLONES_H

#include <stddef.h>
#include <stdint.h>

/* One string per region: the distinct clone tags of its hooks' symbols
 * (hook_symbol[h] records into region hook_region[h]), space-separated
 * ("isra.0 constprop.1"), NULL for a region without clones. NULL when out
 * of memory (no region then says it has clones). */
char **scope_region_clones(const char *const *hook_symbol, const uint32_t *hook_region,
                           size_t nhooks, size_t nregions);
void scope_region_clones_free(char **clones, size_t nregions);

#endif
