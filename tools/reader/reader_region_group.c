/* What a region's group holds besides its calls and statistics, read from
 * the file only when asked: its attributes (symbol, library, clones, ...)
 * and the bytes its datasets take. */
#include "reader_h5.h"

#include <stdlib.h>

/* The region's group on rank index ri, opened (quietly); -1 when the rank
 * did not record the region or the group cannot be opened. */
static hid_t open_group(const scope_file *f, size_t region, size_t ri)
{
    const series *s = reader_series(f, region, ri);
    return s ? H5Gopen2(f->h5, s->where, H5P_DEFAULT) : H5I_INVALID_HID;
}

char *scope_region_attribute(const scope_file *f, size_t region, const char *key)
{
    char *text = NULL;
    h5_quiet q = reader_hold(f);
    for (size_t ri = 0; !text && ri < f->n_ranks; ri++) {
        hid_t g = open_group(f, region, ri);
        scope_meta m = {0};
        if (g >= 0 && H5Aexists(g, key) > 0 && h5_read_attr(g, key, &m, NULL) == 0) {
            text = (char *)m.text;
            m.text = NULL;
        }
        h5_clear_meta(&m);
        if (g >= 0)
            H5Gclose(g);
    }
    reader_release(f, q);
    return text;
}

int64_t scope_region_storage_bytes(const scope_file *f, size_t region, scope_error *err)
{
    int64_t bytes = 0;
    h5_quiet q = reader_hold(f);
    for (size_t ri = 0; bytes >= 0 && ri < f->n_ranks; ri++) {
        const series *s = reader_series(f, region, ri);
        hid_t g = open_group(f, region, ri);
        char **names = NULL;
        size_t n = 0;
        if (s && (g < 0 || h5_child_names(g, &names, &n, s->where, err) < 0))
            bytes = reader_fail(err, "%s: cannot list the datasets", s->where);
        for (size_t i = 0; bytes >= 0 && i < n; i++) {
            if (!h5_has_dataset(g, names[i]))
                continue;
            hid_t d = H5Dopen2(g, names[i], H5P_DEFAULT);
            bytes += d >= 0 ? (int64_t)H5Dget_storage_size(d) : 0;
            if (d >= 0)
                H5Dclose(d);
        }
        h5_free_names(names, n);
        if (g >= 0)
            H5Gclose(g);
    }
    reader_release(f, q);
    return bytes;
}
