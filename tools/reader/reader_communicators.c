/* The communicators of a run that recorded MPI payload
 * (/metadata/communicators: per id its size and the offset of its first
 * member; /metadata/communicator_members: world ranks), read and checked
 * at open, and their accessors. */
#include "reader_h5.h"

#include <stdlib.h>

/* The dataset's values as mem_type into *out (malloc'd), its dimensions
 * into dims; -1 unless it has `rank` dimensions, the last `last` wide
 * (0: any). */
static int read_dataset(hid_t loc, const char *name, hid_t mem_type, size_t elem, int rank,
                        hsize_t last, void **out, hsize_t *dims, scope_error *err)
{
    hid_t d = H5Dopen2(loc, name, H5P_DEFAULT);
    hid_t space = d >= 0 ? H5Dget_space(d) : H5I_INVALID_HID;
    bool ok = space >= 0 && H5Sget_simple_extent_ndims(space) == rank &&
              H5Sget_simple_extent_dims(space, dims, NULL) == rank &&
              (last == 0 || dims[rank - 1] == last);
    size_t n = 1;
    for (int i = 0; ok && i < rank; i++)
        n *= (size_t)dims[i];
    *out = ok ? malloc(n * elem + 1) : NULL;
    ok = *out && (n == 0 || H5Dread(d, mem_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, *out) >= 0);
    if (space >= 0)
        H5Sclose(space);
    if (d >= 0)
        H5Dclose(d);
    return ok ? 0 : reader_fail(err, "/metadata/%s: not readable as %d-D integers", name, rank);
}

int reader_load_communicators(scope_file *f, hid_t metadata, scope_error *err)
{
    if (!h5_has_link(metadata, "communicators"))
        return 0;
    hsize_t dims[2] = {0, 0}, members[1] = {0};
    void *rows = NULL, *ranks = NULL;
    int rc = read_dataset(metadata, "communicators", H5T_NATIVE_INT64, 8, 2, 2, &rows, dims,
                          err);
    if (rc == 0)
        rc = read_dataset(metadata, "communicator_members", H5T_NATIVE_INT32, 4, 1, 0, &ranks,
                          members, err);
    f->comms = rows;
    f->comm_members = ranks;
    f->n_comms = (size_t)dims[0];
    f->n_comm_members = (size_t)members[0];
    for (size_t i = 0; rc == 0 && i < f->n_comms; i++) {
        int64_t size = f->comms[2 * i], first = f->comms[2 * i + 1];
        if (size < 0 || first < 0 || first > (int64_t)f->n_comm_members ||
            size > (int64_t)f->n_comm_members - first)
            rc = reader_fail(err, "/metadata/communicators: communicator %zu: size %lld at "
                             "%lld, but %zu members", i, (long long)size, (long long)first,
                             f->n_comm_members);
    }
    for (size_t i = 0; rc == 0 && i < f->n_comm_members; i++)
        if (f->comm_members[i] < 0)
            rc = reader_fail(err, "/metadata/communicator_members: member %zu is rank %d", i,
                             f->comm_members[i]);
    return rc;
}

void reader_free_communicators(scope_file *f)
{
    free(f->comms);
    free(f->comm_members);
    f->comms = NULL;
    f->comm_members = NULL;
    f->n_comms = f->n_comm_members = 0;
}

size_t scope_communicator_count(const scope_file *f)
{
    return f->n_comms;
}

const int32_t *scope_communicator_members(const scope_file *f, size_t id, size_t *size)
{
    if (id >= f->n_comms)
        return NULL;
    *size = (size_t)f->comms[2 * id];
    return f->comm_members + f->comms[2 * id + 1];
}
