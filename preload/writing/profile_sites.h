/* profile_sites.h: the call sites of profile mode's paths (recording/
 * profile_table.h keeps each as a caller's return address and a stack
 * number of its buffer) as sites of the process's site table, the stacks
 * read from the stack definitions in the buffer's records, as trace mode
 * reads a call's (segment_decode.h). The live library and `scope recover`
 * both use it. */
#ifndef SCOPE_PROFILE_SITES_H
#define SCOPE_PROFILE_SITES_H

#include <stddef.h>
#include <stdint.h>

#include "clock.h"
#include "profile_table.h"
#include "segment_decode.h"
#include "site_table.h"

/* For each table i of n, (*out)[i][p] is the site in `sites` of its path
 * p (-1: none), read from records[i], the records of table i's buffer;
 * (*out)[i] is NULL when no path of table i has a call site. 0, or -1
 * with err (a spill file could not be read, out of memory). */
int scope_profile_sites_read(struct scope_profile_table *const *tables,
                             const struct scope_thread_records *records, size_t n,
                             const struct scope_clock_map *map, struct scope_site_table *sites,
                             int32_t ***out, char *err, size_t errlen);
void scope_profile_sites_free(int32_t **path_sites, size_t n);

#endif
