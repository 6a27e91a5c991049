/* HDF5 helpers of the reader: attributes (variable- or fixed-length strings,
 * integers, floats), links, datasets and groups looked up, child listing,
 * one-dimensional datasets read whole. */
#include "grow_array.h"
#include "reader_h5.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

h5_quiet h5_quiet_begin(void)
{
    h5_quiet q;
    H5Eget_auto2(H5E_DEFAULT, &q.func, &q.data);
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    return q;
}

void h5_quiet_end(h5_quiet q)
{
    H5Eset_auto2(H5E_DEFAULT, q.func, q.data);
}

h5_quiet reader_hold(const scope_file *f)
{
    pthread_mutex_lock((pthread_mutex_t *)&f->lock); /* the file's, logically const */
    return h5_quiet_begin();
}

void reader_release(const scope_file *f, h5_quiet q)
{
    h5_quiet_end(q);
    pthread_mutex_unlock((pthread_mutex_t *)&f->lock);
}

static int read_string_attr(hid_t attr, hid_t ftype, char **text)
{
    hid_t mtype = H5Tcopy(H5T_C_S1);
    int rc = -1;
    /* HDF5 converts no character set into another: read UTF-8 (what h5py
     * and scope's writer store) as UTF-8. */
    H5Tset_cset(mtype, H5Tget_cset(ftype));
    if (H5Tis_variable_str(ftype) > 0) {
        char *value = NULL;
        H5Tset_size(mtype, H5T_VARIABLE);
        if (H5Aread(attr, mtype, &value) >= 0) {
            *text = strdup(value ? value : "");
            H5free_memory(value);
            rc = 0;
        }
    } else {
        size_t size = H5Tget_size(ftype);
        char *buf = calloc(size + 1, 1);
        H5Tset_size(mtype, size + 1);
        H5Tset_strpad(mtype, H5T_STR_NULLTERM);
        if (buf && H5Aread(attr, mtype, buf) >= 0) {
            *text = buf;
            buf = NULL;
            rc = 0;
        }
        free(buf);
    }
    H5Tclose(mtype);
    return rc == 0 && *text ? 0 : -1;
}

static int read_attr(hid_t attr, const char *name, scope_meta *out, scope_error *err)
{
    hid_t ftype = H5Aget_type(attr);
    hid_t space = H5Aget_space(attr);
    H5T_class_t cls = H5Tget_class(ftype);
    hssize_t npoints = H5Sget_simple_extent_npoints(space);
    char buf[64];
    int rc = -1;

    memset(out, 0, sizeof *out);
    out->key = strdup(name);
    if (npoints != 1 && cls != H5T_STRING) {
        snprintf(buf, sizeof buf, "(array of %lld)", (long long)npoints);
        out->text = strdup(buf);
        rc = 0;
    } else if (cls == H5T_STRING && npoints == 1) {
        out->kind = SCOPE_META_STRING;
        rc = read_string_attr(attr, ftype, (char **)&out->text);
    } else if (cls == H5T_INTEGER) {
        out->kind = SCOPE_META_INT;
        if (H5Aread(attr, H5T_NATIVE_INT64, &out->int_value) >= 0) {
            snprintf(buf, sizeof buf, "%" PRId64, out->int_value);
            out->text = strdup(buf);
            rc = 0;
        }
    } else if (cls == H5T_FLOAT) {
        out->kind = SCOPE_META_FLOAT;
        if (H5Aread(attr, H5T_NATIVE_DOUBLE, &out->float_value) >= 0) {
            snprintf(buf, sizeof buf, "%.17g", out->float_value);
            out->text = strdup(buf);
            rc = 0;
        }
    } else {
        out->text = strdup("(unsupported type)");
        rc = 0;
    }
    H5Sclose(space);
    H5Tclose(ftype);
    if (rc < 0 || !out->key || !out->text)
        return reader_fail(err, "cannot read attribute '%s'", name);
    return 0;
}

int h5_read_attr(hid_t obj, const char *name, scope_meta *out, scope_error *err)
{
    hid_t attr = H5Aopen(obj, name, H5P_DEFAULT);
    if (attr < 0)
        return reader_fail(err, "cannot open attribute '%s'", name);
    int rc = read_attr(attr, name, out, err);
    H5Aclose(attr);
    return rc;
}

typedef struct attr_list {
    scope_meta *items;
    size_t n, cap;
    scope_error *err;
} attr_list;

static herr_t collect_attr(hid_t obj, const char *name, const H5A_info_t *info, void *data)
{
    attr_list *list = data;
    (void)info;
    if (scope_grow_array((void **)&list->items, &list->cap, list->n + 1, sizeof *list->items) != 0)
        return reader_fail(list->err, "out of memory");
    if (h5_read_attr(obj, name, &list->items[list->n], list->err) < 0) {
        h5_clear_meta(&list->items[list->n]);
        return -1;
    }
    list->n++;
    return 0;
}

int h5_read_all_attrs(hid_t obj, scope_meta **out, size_t *n, scope_error *err)
{
    attr_list list = {.err = err};
    hsize_t idx = 0;
    if (err)
        err->message[0] = '\0';
    if (H5Aiterate2(obj, H5_INDEX_NAME, H5_ITER_INC, &idx, collect_attr, &list) < 0) {
        h5_free_meta(list.items, list.n);
        /* the callback says why; HDF5 failing by itself does not */
        return err && err->message[0] ? -1 : reader_fail(err, "cannot list the attributes");
    }
    *out = list.items;
    *n = list.n;
    return 0;
}

void h5_clear_meta(scope_meta *meta)
{
    free((char *)meta->key);
    free((char *)meta->text);
    meta->key = meta->text = NULL;
}

void h5_free_meta(scope_meta *meta, size_t n)
{
    for (size_t i = 0; meta && i < n; i++)
        h5_clear_meta(&meta[i]);
    free(meta);
}

int h5_scalar_attr(hid_t obj, const char *name, hid_t mem_type, void *out)
{
    if (H5Aexists(obj, name) <= 0)
        return 0;
    hid_t attr = H5Aopen(obj, name, H5P_DEFAULT);
    hid_t space = attr >= 0 ? H5Aget_space(attr) : H5I_INVALID_HID;
    int rc = space >= 0 && H5Sget_simple_extent_npoints(space) == 1 &&
                     H5Aread(attr, mem_type, out) >= 0 ? 1 : -1;
    if (space >= 0)
        H5Sclose(space);
    if (attr >= 0)
        H5Aclose(attr);
    return rc;
}

static H5I_type_t object_type(hid_t loc, const char *name)
{
    if (H5Lexists(loc, name, H5P_DEFAULT) <= 0)
        return H5I_BADID;
    hid_t obj = H5Oopen(loc, name, H5P_DEFAULT);
    if (obj < 0)
        return H5I_BADID;
    H5I_type_t type = H5Iget_type(obj);
    H5Oclose(obj);
    return type;
}

bool h5_has_link(hid_t loc, const char *name)
{
    return H5Lexists(loc, name, H5P_DEFAULT) > 0;
}

bool h5_has_dataset(hid_t loc, const char *name)
{
    return object_type(loc, name) == H5I_DATASET;
}

bool h5_is_external_link(hid_t loc, const char *name)
{
    H5L_info_t info;
    return H5Lget_info(loc, name, &info, H5P_DEFAULT) >= 0 && info.type == H5L_TYPE_EXTERNAL;
}

bool h5_has_group(hid_t loc, const char *name)
{
    return object_type(loc, name) == H5I_GROUP;
}

typedef struct name_list {
    char **items;
    size_t n, cap;
} name_list;

static herr_t collect_name(hid_t group, const char *name, const H5L_info_t *info, void *data)
{
    name_list *list = data;
    (void)group;
    (void)info;
    if (scope_grow_array((void **)&list->items, &list->cap, list->n + 1, sizeof *list->items) != 0)
        return -1;
    if (!(list->items[list->n] = strdup(name)))
        return -1;
    list->n++;
    return 0;
}

int h5_child_names(hid_t group, char ***names, size_t *n, const char *where, scope_error *err)
{
    name_list list = {0};
    hsize_t idx = 0;
    if (H5Literate(group, H5_INDEX_NAME, H5_ITER_INC, &idx, collect_name, &list) < 0) {
        h5_free_names(list.items, list.n);
        return reader_fail(err, "%s: cannot list the group", where);
    }
    *names = list.items;
    *n = list.n;
    return 0;
}

void h5_free_names(char **names, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
}

int h5_read_vector(hid_t loc, const char *name, hid_t mem_type, size_t size, void **out,
                   size_t *n, const char *where, scope_error *err)
{
    *out = NULL;
    hid_t d = H5Dopen2(loc, name, H5P_DEFAULT);
    hid_t space = d >= 0 ? H5Dget_space(d) : H5I_INVALID_HID;
    hssize_t len = space >= 0 && H5Sget_simple_extent_ndims(space) == 1
                       ? H5Sget_simple_extent_npoints(space) : -1;
    int rc = len < 0 || (*n != SIZE_MAX && (size_t)len != *n)
                 ? reader_fail(err, "%s: %s missing or of the wrong length", where, name) : 0;
    size_t count = rc == 0 ? (size_t)len : 0;
    if (rc == 0 && count > PTRDIFF_MAX / size)
        rc = reader_fail(err, "%s: %s too long", where, name);
    if (rc == 0) {
        *n = count;
        *out = malloc((count ? count : 1) * size);
        if (!*out)
            rc = reader_fail(err, "out of memory");
        else if (count && H5Dread(d, mem_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, *out) < 0)
            rc = reader_fail(err, "%s: cannot read %s", where, name);
    }
    if (space >= 0)
        H5Sclose(space);
    if (d >= 0)
        H5Dclose(d);
    return rc;
}
