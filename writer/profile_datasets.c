/* profile_datasets.c: writes profile mode's datasets (profile_datasets.h),
 * each a one-dimensional array (h5_write_vector). */
#include "profile_datasets.h"

int profile_region_write(hid_t group, const struct scope_region_profile *p,
                         const struct h5_err *e)
{
    const struct {
        const char *name;
        const int64_t *data;
    } paths[] = {{"path_calls", p->path_calls},
                 {"path_total_ns", p->path_total_ns},
                 {"path_self_ns", p->path_self_ns}};
    if (h5_write_vector(group, "duration_histogram", H5T_STD_I64LE, H5T_NATIVE_INT64,
                        p->histogram, SCOPE_HISTOGRAM_BINS, e) < 0 ||
        h5_write_vector(group, "path_ids", H5T_STD_I32LE, H5T_NATIVE_INT32, p->path_ids,
                        p->npaths, e) < 0 ||
        (p->path_sites && h5_write_vector(group, "path_sites", H5T_STD_I32LE, H5T_NATIVE_INT32,
                                          p->path_sites, p->npaths, e) < 0) ||
        h5_attr_int64(group, "pathless_calls", p->pathless_calls, e) < 0)
        return -1;
    for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++)
        if (h5_write_vector(group, paths[i].name, H5T_STD_I64LE, H5T_NATIVE_INT64,
                            paths[i].data, p->npaths, e) < 0)
            return -1;
    return 0;
}

int profile_callpaths_write(hid_t rank, const int32_t *parents, size_t n, const struct h5_err *e)
{
    return h5_write_vector(rank, "callpath_parents", H5T_STD_I32LE, H5T_NATIVE_INT32, parents, n, e);
}
