/* h5_util.c: error messages with HDF5's innermost cause, scalar attributes
 * (strings as variable-length UTF-8, as h5py writes them), closing ids,
 * small datasets. */
#include "h5_util.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

struct h5_quiet h5_quiet_begin(void)
{
    struct h5_quiet q = {NULL, NULL};
    if (H5Eget_auto2(H5E_DEFAULT, &q.func, &q.data) < 0)
        q.func = NULL;
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    return q;
}

void h5_quiet_end(struct h5_quiet q)
{
    H5Eset_auto2(H5E_DEFAULT, q.func, q.data);
}

/* An I/O error's description names the system's reason among a dozen
 * fields ("file write failed: time = ..., errno = 28, error message = 'No
 * space left on device', ..."): keeps "file write failed: No space left on
 * device". */
static void shorten_io_error(char *cause, size_t len)
{
    const char *tag = "error message = '";
    char *reason = strstr(cause, tag), *colon = strchr(cause, ':');
    if (!reason || !colon || colon > reason)
        return;
    reason += strlen(tag);
    char *quote = strchr(reason, '\'');
    int n = quote ? (int)(quote - reason) : (int)strlen(reason);
    char what[256];
    snprintf(what, sizeof(what), "%.*s: %.*s", (int)(colon - cause), cause, n, reason);
    snprintf(cause, len, "%s", what);
}

/* H5Ewalk2 callback: keeps the first (innermost, walking upward) entry, on
 * one line. */
static herr_t keep_innermost(unsigned n, const H5E_error2_t *err, void *data)
{
    char *cause = data;
    (void)n;
    if (cause[0] != '\0')
        return 0;
    if (err->desc && err->desc[0] != '\0')
        snprintf(cause, 256, "%s", err->desc);
    else if (H5Eget_msg(err->min_num, NULL, cause, 256) < 0)
        cause[0] = '\0';
    shorten_io_error(cause, 256);
    for (char *c = cause; *c; c++)
        if (*c == '\n' || *c == '\r')
            *c = ' ';
    return 0;
}

int h5_fail(const struct h5_err *e, const char *fmt, ...)
{
    char cause[256] = "";
    va_list ap;

    H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, keep_innermost, cause);
    H5Eclear2(H5E_DEFAULT);
    va_start(ap, fmt);
    int used = vsnprintf(e->buf, e->len, fmt, ap);
    va_end(ap);
    if (cause[0] != '\0' && used >= 0 && (size_t)used < e->len)
        snprintf(e->buf + used, e->len - (size_t)used, " (HDF5: %s)", cause);
    return -1;
}

/* ftype: type in the file; mtype: type of *value in memory. */
static int attr_write(hid_t obj, const char *name, hid_t ftype, hid_t mtype,
                      const void *value, const struct h5_err *e)
{
    hid_t space = H5Screate(H5S_SCALAR);
    hid_t attr = space < 0 ? H5I_INVALID_HID
                           : H5Acreate2(obj, name, ftype, space, H5P_DEFAULT, H5P_DEFAULT);
    int rc = attr < 0 || H5Awrite(attr, mtype, value) < 0
                 ? h5_fail(e, "cannot write attribute '%s'", name) : 0;
    if (attr >= 0)
        H5Aclose(attr);
    if (space >= 0)
        H5Sclose(space);
    return rc;
}

int h5_attr_string(hid_t obj, const char *name, const char *value,
                   const struct h5_err *e)
{
    const char *s = value ? value : "";
    hid_t type = H5Tcopy(H5T_C_S1);
    if (type < 0 || H5Tset_size(type, H5T_VARIABLE) < 0 ||
        H5Tset_cset(type, H5T_CSET_UTF8) < 0) {
        int rc = h5_fail(e, "cannot make the string type of attribute '%s'", name);
        if (type >= 0)
            H5Tclose(type);
        return rc;
    }
    int rc = attr_write(obj, name, type, type, &s, e);
    H5Tclose(type);
    return rc;
}

int h5_attr_int64(hid_t obj, const char *name, int64_t value,
                  const struct h5_err *e)
{
    return attr_write(obj, name, H5T_STD_I64LE, H5T_NATIVE_INT64, &value, e);
}

int h5_attr_uint64(hid_t obj, const char *name, uint64_t value,
                   const struct h5_err *e)
{
    return attr_write(obj, name, H5T_STD_U64LE, H5T_NATIVE_UINT64, &value, e);
}

int h5_attr_double(hid_t obj, const char *name, double value,
                   const struct h5_err *e)
{
    return attr_write(obj, name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &value, e);
}

int h5_close(hid_t *id)
{
    if (*id < 0)
        return 0;
    herr_t rc = H5Iget_type(*id) == H5I_FILE ? H5Fclose(*id) : H5Oclose(*id);
    *id = H5I_INVALID_HID;
    return rc < 0 ? -1 : 0;
}

hid_t h5_utf8_string(void)
{
    hid_t t = H5Tcopy(H5T_C_S1);
    if (t >= 0 && (H5Tset_size(t, H5T_VARIABLE) < 0 || H5Tset_cset(t, H5T_CSET_UTF8) < 0)) {
        H5Tclose(t);
        return H5I_INVALID_HID;
    }
    return t;
}

hid_t h5_group_create(hid_t parent, const char *name)
{
    enum { MAX_COMPACT_ATTRIBUTES = 64, MIN_DENSE_ATTRIBUTES = 48 };
    hid_t gcpl = H5Pcreate(H5P_GROUP_CREATE);
    hid_t group = -1;
    if (gcpl >= 0 && H5Pset_attr_phase_change(gcpl, MAX_COMPACT_ATTRIBUTES, MIN_DENSE_ATTRIBUTES) >= 0)
        group = H5Gcreate2(parent, name, H5P_DEFAULT, gcpl, H5P_DEFAULT);
    hid_t why = group < 0 ? H5Eget_current_stack() : H5I_INVALID_HID;
    if (gcpl >= 0)
        H5Pclose(gcpl);
    if (why >= 0)
        H5Eset_current_stack(why);   /* for h5_fail: H5Pclose cleared it */
    return group;
}

int h5_write_dataset(hid_t group, const char *name, hid_t file_type, hid_t mem_type, int rank,
                     const hsize_t *dims, const void *rows, const struct h5_err *e)
{
    hid_t space = H5Screate_simple(rank, dims, NULL);
    hid_t d = space < 0 ? H5I_INVALID_HID
                        : H5Dcreate2(group, name, file_type, space, H5P_DEFAULT, H5P_DEFAULT,
                                     H5P_DEFAULT);
    int rc = d < 0 || H5Dwrite(d, mem_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, rows) < 0
                 ? h5_fail(e, "cannot write /metadata/%s", name) : 0;
    if (d >= 0)
        H5Dclose(d);
    if (space >= 0)
        H5Sclose(space);
    return rc;
}

#define COMPACT_MOST 16384   /* bytes; HDF5 allows 64 KiB in an object header */

int h5_write_vector(hid_t loc, const char *name, hid_t file_type, hid_t mem_type,
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
