/* Small HDF5 helpers of the reader: HDF5's error printing silenced,
 * attributes to scope_meta, and whether a link, dataset or group exists.
 * Every call reports failures via scope_error. (Calls are read by
 * reader_columns.c.) */
#ifndef SCOPE_READER_H5_H
#define SCOPE_READER_H5_H

#include "reader_internal.h"

#include <hdf5.h>

/* HDF5's error stack kept from printing between begin and end. */
typedef struct h5_quiet {
    H5E_auto2_t func;
    void *data;
} h5_quiet;
h5_quiet h5_quiet_begin(void);
void h5_quiet_end(h5_quiet q);

/* The file's HDF5 objects for this thread alone (its lock) with HDF5's
 * error printing off, from reader_hold to reader_release. */
h5_quiet reader_hold(const scope_file *f);
void reader_release(const scope_file *f, h5_quiet q);

/* Read the scalar attribute `name` of obj into *out (text allocated). */
int h5_read_attr(hid_t obj, const char *name, scope_meta *out, scope_error *err);
/* Read all attributes of obj (in creation/name order). */
int h5_read_all_attrs(hid_t obj, scope_meta **out, size_t *n, scope_error *err);
void h5_clear_meta(scope_meta *meta);
void h5_free_meta(scope_meta *meta, size_t n);

/* Read the one-value attribute `name` of obj converted to mem_type: 1 read,
 * 0 absent, -1 not readable as that. */
int h5_scalar_attr(hid_t obj, const char *name, hid_t mem_type, void *out);

/* Does loc have a link `name` (to anything: no object is opened)? */
bool h5_has_link(hid_t loc, const char *name);
/* Does loc have a link `name` that is a dataset / a group? */
bool h5_has_dataset(hid_t loc, const char *name);
bool h5_has_group(hid_t loc, const char *name);
/* Is loc's link `name` an external link (its target not looked at)? */
bool h5_is_external_link(hid_t loc, const char *name);

/* Names of the direct children of a group, in name order (malloc'd). */
int h5_child_names(hid_t group, char ***names, size_t *n, const char *where, scope_error *err);
void h5_free_names(char **names, size_t n);
/* A one-dimensional dataset of n values (n from the one read when *n is
 * SIZE_MAX) of mem_type (size bytes each), into a malloc'd *out; -1 (err
 * set, `where` naming the group) when it is missing or of another length. */
int h5_read_vector(hid_t loc, const char *name, hid_t mem_type, size_t size, void **out,
                   size_t *n, const char *where, scope_error *err);

#endif
