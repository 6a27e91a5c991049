/* profile_datasets.c: writes profile mode's datasets (profile_datasets.h),
 * each a one-dimensional array, stored in its object header while small
 * (no separate block of data to allocate and point to). */
#include "profile_datasets.h"

#define COMPACT_MOST 16384   /* bytes; HDF5 allows 64 KiB in an object header */

static int write_vector(hid_t loc, const char *name, hid_t file_type, hid_t mem_type,
                        const void *data, size_t n, const struct h5_err *e)
{
    hsize_t dims = n;
    hid_t space = H5Screate_simple(1, &dims, NULL);
    hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
    if (dcpl >= 0 && n * H5Tget_size(file_type) <= COMPACT_MOST)
        H5Pset_layout(dcpl, H5D_COMPACT);
    hid_t d = space < 0 || dcpl < 0 ? H5I_INVALID_HID
                                    : H5Dcreate2(loc, name, file_type, space, H5P_DEFAULT, dcpl,
                                                 H5P_DEFAULT);
    int rc = d < 0 || (n && H5Dwrite(d, mem_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) < 0)
                 ? h5_fail(e, "cannot write %s", name)
                 : 0;
    if (d >= 0)
        H5Dclose(d);
    if (dcpl >= 0)
        H5Pclose(dcpl);
    if (space >= 0)
        H5Sclose(space);
    return rc;
}

int profile_region_write(hid_t group, const struct scope_region_profile *p,
                         const struct h5_err *e)
{
    const struct {
        const char *name;
        const int64_t *data;
    } paths[] = {{"path_calls", p->path_calls},
                 {"path_total_ns", p->path_total_ns},
                 {"path_self_ns", p->path_self_ns}};
    if (write_vector(group, "duration_histogram", H5T_STD_I64LE, H5T_NATIVE_INT64, p->histogram,
                     SCOPE_HISTOGRAM_BINS, e) < 0 ||
        write_vector(group, "path_ids", H5T_STD_I32LE, H5T_NATIVE_INT32, p->path_ids, p->npaths,
                     e) < 0 ||
        (p->path_sites && write_vector(group, "path_sites", H5T_STD_I32LE, H5T_NATIVE_INT32,
                                       p->path_sites, p->npaths, e) < 0) ||
        h5_attr_int64(group, "pathless_calls", p->pathless_calls, e) < 0)
        return -1;
    for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++)
        if (write_vector(group, paths[i].name, H5T_STD_I64LE, H5T_NATIVE_INT64, paths[i].data,
                         p->npaths, e) < 0)
            return -1;
    return 0;
}

int profile_callpaths_write(hid_t rank, const int32_t *parents, size_t n, const struct h5_err *e)
{
    return write_vector(rank, "callpath_parents", H5T_STD_I32LE, H5T_NATIVE_INT32, parents, n, e);
}
