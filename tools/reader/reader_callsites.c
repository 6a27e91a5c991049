/* The call-site table of a file (/metadata/callsite_frames and
 * /metadata/callsites), read and checked at open, and its accessors. */
#include "reader_h5.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SITES_MAX_DEPTH 1024   /* columns of a call-site table that can be scope's (it writes 16) */

/* A frame as HDF5 reads it: strings allocated by HDF5. */
typedef struct frame_row {
    char *module, *function, *file;
    uint64_t offset;
    int32_t line;
} frame_row;

/* The memory type of a row, its strings in the character set the file
 * uses (HDF5 converts no vlen string between sets). */
static hid_t row_type(hid_t ftype)
{
    int idx = H5Tget_member_index(ftype, "module");
    hid_t member = idx < 0 ? H5I_INVALID_HID : H5Tget_member_type(ftype, (unsigned)idx);
    hid_t str = H5Tcopy(H5T_C_S1);
    hid_t t = H5I_INVALID_HID;
    if (member >= 0 && str >= 0 && H5Tset_size(str, H5T_VARIABLE) >= 0 &&
        H5Tset_cset(str, H5Tget_cset(member)) >= 0 &&
        (t = H5Tcreate(H5T_COMPOUND, sizeof(frame_row))) >= 0 &&
        (H5Tinsert(t, "module", HOFFSET(frame_row, module), str) < 0 ||
         H5Tinsert(t, "function", HOFFSET(frame_row, function), str) < 0 ||
         H5Tinsert(t, "file", HOFFSET(frame_row, file), str) < 0 ||
         H5Tinsert(t, "offset", HOFFSET(frame_row, offset), H5T_NATIVE_UINT64) < 0 ||
         H5Tinsert(t, "line", HOFFSET(frame_row, line), H5T_NATIVE_INT32) < 0)) {
        H5Tclose(t);
        t = H5I_INVALID_HID;
    }
    if (member >= 0)
        H5Tclose(member);
    if (str >= 0)
        H5Tclose(str);
    return t;
}

static bool has_string_members(hid_t ftype)
{
    static const char *const names[] = {"module", "function", "file"};
    for (size_t i = 0; i < 3; i++) {
        int idx = H5Tget_member_index(ftype, names[i]);
        if (idx < 0 || H5Tget_member_class(ftype, (unsigned)idx) != H5T_STRING)
            return false;
        hid_t m = H5Tget_member_type(ftype, (unsigned)idx);
        bool variable = H5Tis_variable_str(m) > 0;
        H5Tclose(m);
        if (!variable)
            return false;
    }
    return true;
}

static char *dup_or_empty(const char *s)
{
    return strdup(s ? s : "");
}

static int read_frames(scope_file *f, hid_t meta, scope_error *err)
{
    const char *where = "metadata/callsite_frames";
    hid_t d = H5Dopen2(meta, "callsite_frames", H5P_DEFAULT);
    if (d < 0)
        return reader_fail(err, "%s: cannot open the dataset", where);
    hid_t ftype = H5Dget_type(d), space = H5Dget_space(d), mtype = H5I_INVALID_HID;
    hsize_t n = 0;
    int rc = 0;
    if (H5Tget_class(ftype) != H5T_COMPOUND || !has_string_members(ftype) ||
        H5Sget_simple_extent_ndims(space) != 1 || H5Sget_simple_extent_dims(space, &n, NULL) < 0)
        rc = reader_fail(err, "%s: expected a 1-D table of frames (module, function, file, "
                         "offset, line)", where);
    else if ((mtype = row_type(ftype)) < 0)
        rc = reader_fail(err, "%s: its columns cannot be read", where);
    frame_row *rows = rc == 0 ? calloc((size_t)n + 1, sizeof *rows) : NULL;
    f->frames = rc == 0 ? calloc((size_t)n + 1, sizeof *f->frames) : NULL;
    if (rc == 0 && (!rows || !f->frames))
        rc = reader_fail(err, "out of memory for %llu call-site frames", (unsigned long long)n);
    if (rc == 0 && n > 0 && H5Dread(d, mtype, H5S_ALL, H5S_ALL, H5P_DEFAULT, rows) < 0)
        rc = reader_fail(err, "%s: cannot read the data (truncated file?)", where);
    for (size_t i = 0; rc == 0 && i < n; i++) {
        scope_frame *fr = &f->frames[i];
        fr->module = dup_or_empty(rows[i].module);
        fr->function = dup_or_empty(rows[i].function);
        fr->file = dup_or_empty(rows[i].file);
        fr->offset = rows[i].offset;
        fr->line = rows[i].line;
        f->n_frames = i + 1;
        if (!fr->module || !fr->function || !fr->file)
            rc = reader_fail(err, "out of memory");
    }
    if (rows && n > 0 && mtype >= 0)
        H5Dvlen_reclaim(mtype, space, H5P_DEFAULT, rows);
    free(rows);
    if (mtype >= 0)
        H5Tclose(mtype);
    H5Tclose(ftype);
    H5Sclose(space);
    H5Dclose(d);
    return rc;
}

static int read_sites(scope_file *f, hid_t meta, scope_error *err)
{
    const char *where = "metadata/callsites";
    hid_t d = H5Dopen2(meta, "callsites", H5P_DEFAULT);
    if (d < 0)
        return reader_fail(err, "%s: cannot open the dataset", where);
    hid_t ftype = H5Dget_type(d), space = H5Dget_space(d);
    hsize_t dims[2] = {0, 0};
    int rc = 0;
    if (H5Tget_class(ftype) != H5T_INTEGER || H5Sget_simple_extent_ndims(space) != 2 ||
        H5Sget_simple_extent_dims(space, dims, NULL) < 0 || dims[1] == 0 || dims[1] > SITES_MAX_DEPTH)
        rc = reader_fail(err, "%s: expected a 2-D integer table (sites x depth)", where);
    if (rc == 0 && !(f->sites = malloc((size_t)(dims[0] * dims[1]) * sizeof *f->sites + 1)))
        rc = reader_fail(err, "out of memory for %llu call sites", (unsigned long long)dims[0]);
    if (rc == 0 && dims[0] > 0 &&
        H5Dread(d, H5T_NATIVE_INT32, H5S_ALL, H5S_ALL, H5P_DEFAULT, f->sites) < 0)
        rc = reader_fail(err, "%s: cannot read the data (truncated file?)", where);
    for (size_t i = 0; rc == 0 && i < dims[0]; i++) {
        const int32_t *row = &f->sites[i * dims[1]];
        for (size_t k = 0; rc == 0 && k < dims[1]; k++)
            if (row[k] < -1 || row[k] >= (int64_t)f->n_frames || (k == 0 && row[k] < 0))
                rc = reader_fail(err, "%s: site %zu: frame %d of %zu frames", where, i, row[k],
                                 f->n_frames);
    }
    f->n_sites = rc == 0 ? (size_t)dims[0] : 0;
    f->site_depth = rc == 0 ? (size_t)dims[1] : 0;
    H5Tclose(ftype);
    H5Sclose(space);
    H5Dclose(d);
    return rc;
}

int reader_load_callsites(scope_file *f, hid_t meta, scope_error *err)
{
    bool frames = h5_has_dataset(meta, "callsite_frames"), sites = h5_has_dataset(meta, "callsites");
    if (!frames && !sites)
        return 0;
    if (!frames || !sites)
        return reader_fail(err, "metadata: callsite_frames and callsites come together, "
                           "one is missing");
    return read_frames(f, meta, err) < 0 ? -1 : read_sites(f, meta, err);
}

void reader_free_callsites(scope_file *f)
{
    for (size_t i = 0; f->frames && i < f->n_frames; i++) {
        free((void *)f->frames[i].module);
        free((void *)f->frames[i].function);
        free((void *)f->frames[i].file);
    }
    free(f->frames);
    free(f->sites);
}

bool scope_has_callsites(const scope_file *f) { return f->n_sites > 0; }
size_t scope_callsite_count(const scope_file *f) { return f->n_sites; }
size_t scope_callsite_depth(const scope_file *f) { return f->site_depth; }

const scope_frame *scope_callsite_frame(const scope_file *f, size_t site, size_t level)
{
    if (site >= f->n_sites || level >= f->site_depth)
        return NULL;
    int32_t frame = f->sites[site * f->site_depth + level];
    return frame >= 0 ? &f->frames[frame] : NULL;
}

const char *scope_frame_label(const scope_frame *fr, char *buf, size_t len)
{
    if (!fr)
        snprintf(buf, len, "?");
    else if (fr->function[0] && fr->file[0] && fr->line > 0)
        snprintf(buf, len, "%s (%s:%d)", fr->function, fr->file, fr->line);
    else if (fr->function[0])
        snprintf(buf, len, "%s+0x%" PRIx64 " (%s)", fr->function, fr->offset, fr->module);
    else
        snprintf(buf, len, "%s+0x%" PRIx64, fr->module, fr->offset);
    return buf;
}
