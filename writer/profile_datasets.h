/* profile_datasets.h: what profile mode stores beside a region's
 * statistics (README.md, "File format"): in each region group,
 * duration_histogram (int64[64]), the region's call paths (path_ids,
 * path_calls, path_total_ns, path_self_ns, and path_sites when some path
 * has a call site) and the attribute
 * pathless_calls; in each rank group, callpath_parents. */
#ifndef SCOPE_PROFILE_DATASETS_H
#define SCOPE_PROFILE_DATASETS_H

#include "h5_util.h"
#include "scope_writer.h"

int profile_region_write(hid_t group, const struct scope_region_profile *p,
                         const struct h5_err *e);
int profile_callpaths_write(hid_t rank, const int32_t *parents, size_t n,
                            const struct h5_err *e);

#endif
