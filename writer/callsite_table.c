/* callsite_table.c: /metadata/callsite_frames and /metadata/callsites
 * (callsite_table.h). Strings are variable-length UTF-8, as h5py writes
 * them; an unknown function or file is an empty string, an unknown line 0. */
#include "callsite_table.h"

#include <stdio.h>
#include <stdlib.h>

/* A frame as it is stored: strings never NULL. */
struct frame_row {
    const char *module, *function, *file;
    uint64_t offset;
    int32_t line;
};

/* The compound type of a row, with `string` for its three strings. */
static hid_t frame_type(hid_t string, hid_t offset_type, hid_t line_type)
{
    hid_t t = H5Tcreate(H5T_COMPOUND, sizeof(struct frame_row));
    if (t < 0)
        return t;
    if (H5Tinsert(t, "module", HOFFSET(struct frame_row, module), string) < 0 ||
        H5Tinsert(t, "function", HOFFSET(struct frame_row, function), string) < 0 ||
        H5Tinsert(t, "file", HOFFSET(struct frame_row, file), string) < 0 ||
        H5Tinsert(t, "offset", HOFFSET(struct frame_row, offset), offset_type) < 0 ||
        H5Tinsert(t, "line", HOFFSET(struct frame_row, line), line_type) < 0) {
        H5Tclose(t);
        return H5I_INVALID_HID;
    }
    return t;
}

static int write_frames(hid_t group, const struct scope_callsite_table *t,
                        const struct h5_err *e)
{
    struct frame_row *rows = malloc(t->nframes * sizeof *rows);
    if (!rows) {
        snprintf(e->buf, e->len, "out of memory for %zu call-site frames", t->nframes);
        return -1;
    }
    for (size_t i = 0; i < t->nframes; i++) {
        const struct scope_callsite_frame *f = &t->frames[i];
        rows[i] = (struct frame_row){f->module ? f->module : "", f->function ? f->function : "",
                                     f->file ? f->file : "", f->offset, f->line};
    }
    hid_t string = h5_utf8_string();
    hid_t mem = string < 0 ? H5I_INVALID_HID
                           : frame_type(string, H5T_NATIVE_UINT64, H5T_NATIVE_INT32);
    hid_t file = string < 0 ? H5I_INVALID_HID
                            : frame_type(string, H5T_STD_U64LE, H5T_STD_I32LE);
    hid_t packed = file < 0 ? H5I_INVALID_HID : H5Tcopy(file);
    int rc;
    if (packed < 0 || H5Tpack(packed) < 0) {
        rc = h5_fail(e, "cannot make the call-site frame type");
    } else {
        hsize_t n = t->nframes;
        rc = h5_write_dataset(group, "callsite_frames", packed, mem, 1, &n, rows, e);
    }
    hid_t types[] = {packed, file, mem, string};
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
        if (types[i] >= 0)
            H5Tclose(types[i]);
    free(rows);
    return rc;
}

int callsite_table_write(hid_t file, const struct scope_callsite_table *table,
                         const struct h5_err *e)
{
    if (!table || table->nsites == 0)
        return 0;
    if (!table->frames || !table->sites || table->depth == 0) {
        snprintf(e->buf, e->len, "callsites: a table with sites needs frames and a depth");
        return -1;
    }
    hid_t group = H5Gopen2(file, "metadata", H5P_DEFAULT);
    if (group < 0)
        return h5_fail(e, "cannot open /metadata");
    hsize_t dims[2] = {table->nsites, table->depth};
    int rc = write_frames(group, table, e);
    if (rc == 0)
        rc = h5_write_dataset(group, "callsites", H5T_STD_I32LE, H5T_NATIVE_INT32, 2, dims,
                           table->sites, e);
    H5Gclose(group);
    return rc;
}
