/* h5_util.h: small HDF5 helpers shared by the writer's modules: error
 * messages that name the HDF5 cause, groups, and scalar attributes. */
#ifndef SCOPE_H5_UTIL_H
#define SCOPE_H5_UTIL_H

#include <hdf5.h>
#include <stddef.h>
#include <stdint.h>

/* Where a module reports its failure: a buffer owned by the writer. */
struct h5_err {
    char *buf;
    size_t len;
};

/* HDF5's automatic error printing, switched off while the writer runs. */
struct h5_quiet {
    H5E_auto2_t func;
    void *data;
};

struct h5_quiet h5_quiet_begin(void);
void h5_quiet_end(struct h5_quiet q);

/* Formats the message, appends the innermost cause from HDF5's error stack
 * (if any), clears that stack, and returns -1. */
int h5_fail(const struct h5_err *e, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Scalar attributes on an open object; NULL strings are written as "". */
int h5_attr_string(hid_t obj, const char *name, const char *value,
                   const struct h5_err *e);
int h5_attr_int64(hid_t obj, const char *name, int64_t value,
                  const struct h5_err *e);
int h5_attr_uint64(hid_t obj, const char *name, uint64_t value,
                   const struct h5_err *e);
int h5_attr_double(hid_t obj, const char *name, double value,
                   const struct h5_err *e);

/* Closes id if it is valid and sets it to H5I_INVALID_HID; returns what the
 * close returned (0 when there was nothing to close). */
int h5_close(hid_t *id);

/* A variable-length UTF-8 string type (the caller closes it); <0 on error. */
hid_t h5_utf8_string(void);

/* A new group whose attributes stay in its object header (HDF5 moves
 * more than 8 into a heap and a B-tree of their own: measured, a region
 * with its 11 attributes then costs 25 % more to write). <0 on error. */
hid_t h5_group_create(hid_t parent, const char *name);

/* Writes rows of `mem_type` as dataset `name` of `file_type` (contiguous),
 * with the given rank and dims, in group (/metadata: its name in errors). */
int h5_write_dataset(hid_t group, const char *name, hid_t file_type, hid_t mem_type, int rank,
                     const hsize_t *dims, const void *rows, const struct h5_err *e);

/* n values as the one-dimensional dataset `name` in loc, stored in its
 * object header while small (no separate block of data to allocate and
 * point to). */
int h5_write_vector(hid_t loc, const char *name, hid_t file_type, hid_t mem_type,
                    const void *data, size_t n, const struct h5_err *e);

#endif
