/* region_stream.c: streams a region's start_times, end_times, thread_ids
 * and, once a call has one, callsite_ids (-1: none; created late, its
 * earlier chunks are never written and read as its fill value, -1).
 * Events collect in a window; a region that fits in one window gets datasets
 * of its exact size (compact when small, one compressed chunk otherwise), a
 * larger one gets chunked, extensible, compressed datasets that grow by one
 * window-sized chunk per flush. Chunks are encoded here (chunk_codec.c) and
 * stored with H5Dwrite_chunk; the datasets declare the standard shuffle and
 * deflate filters that decode them. */
#include "region_stream.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "chunks are written raw: the file's little-endian types must be native"
#endif

#define DEFLATE_LEVEL 1  /* what the filter would use; chunk_codec encodes */

static const char *const column_name[REGION_NCOLUMNS] = {
    "start_times", "end_times", "thread_ids", "callsite_ids"};
static const size_t column_size[REGION_NCOLUMNS] = {
    sizeof(int64_t), sizeof(int64_t), sizeof(int32_t), sizeof(int32_t)};

static hid_t column_file_type(int c)
{
    return c >= REGION_THREAD ? H5T_STD_I32LE : H5T_STD_I64LE;
}

static hid_t column_mem_type(int c)
{
    return c >= REGION_THREAD ? H5T_NATIVE_INT32 : H5T_NATIVE_INT64;
}

/* The columns the region writes: callsite_ids only once it has a site. */
static int columns(const struct region_stream *r)
{
    return r->has_callsites ? REGION_NCOLUMNS : REGION_CALLSITE;
}

static void reset(struct region_stream *r)
{
    r->group = H5I_INVALID_HID;
    for (int c = 0; c < REGION_NCOLUMNS; c++)
        r->dset[c] = H5I_INVALID_HID;
    r->chunk = 0;
    r->buffered = 0;
    r->has_callsites = 0;
    r->written = 0;
    r->stats = (struct call_stats){0};
    r->has_self = 0;
    r->self_ns = 0;
}

int region_stream_init(struct region_stream *r, struct h5_err err)
{
    r->err = err;
    reset(r);
    memset(r->buf, 0, sizeof r->buf);
    memset(&r->codec, 0, sizeof r->codec);
    int rc = chunk_codec_init(&r->codec, REGION_WINDOW * sizeof(int64_t));
    for (int c = 0; c < REGION_NCOLUMNS; c++) {
        r->buf[c] = malloc(REGION_WINDOW * column_size[c]);
        if (!r->buf[c] || rc < 0) {
            region_stream_free(r);
            snprintf(err.buf, err.len, "out of memory for the event window");
            return -1;
        }
    }
    return 0;
}

void region_stream_free(struct region_stream *r)
{
    region_close(r);
    for (int c = 0; c < REGION_NCOLUMNS; c++) {
        free(r->buf[c]);
        r->buf[c] = NULL;
    }
    chunk_codec_free(&r->codec);
}

void region_close(struct region_stream *r)
{
    for (int c = 0; c < REGION_NCOLUMNS; c++)
        h5_close(&r->dset[c]);
    h5_close(&r->group);
    reset(r);
}

int region_begin(struct region_stream *r, hid_t regions,
                 const struct scope_region_info *info)
{
    if (!info || !info->name || info->name[0] == '\0') {
        snprintf(r->err.buf, r->err.len, "begin_region: a region needs a name");
        return -1;
    }
    size_t len = scope_escape_region_name(info->name, NULL, 0);
    char *escaped = malloc(len + 1);
    if (!escaped) {
        snprintf(r->err.buf, r->err.len, "out of memory for region '%s'", info->name);
        return -1;
    }
    scope_escape_region_name(info->name, escaped, len + 1);
    r->group = H5Gcreate2(regions, escaped, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    free(escaped);
    if (r->group < 0)
        return h5_fail(&r->err, "cannot create region '%s'", info->name);
    if (h5_attr_string(r->group, "symbol", info->symbol, &r->err) < 0 ||
        h5_attr_string(r->group, "library", info->library, &r->err) < 0 ||
        h5_attr_uint64(r->group, "address", info->address, &r->err) < 0 ||
        (info->clones && info->clones[0] &&
         h5_attr_string(r->group, "clones", info->clones, &r->err) < 0) ||
        (info->unfinished &&
         h5_attr_int64(r->group, "unfinished_calls", (int64_t)info->unfinished, &r->err) < 0))
        return -1;
    r->has_self = info->has_self;
    r->self_ns = info->self_ns;
    return 0;
}

/* Dataset creation properties of column c: chunk == 0 means not chunked
 * (compact). */
static hid_t make_dcpl(int c, hsize_t chunk, const struct h5_err *e)
{
    static const int32_t no_callsite = -1;
    hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
    if (dcpl < 0)
        goto fail;
    if (c != REGION_CALLSITE ? H5Pset_fill_time(dcpl, H5D_FILL_TIME_NEVER) < 0
                             : H5Pset_fill_value(dcpl, H5T_NATIVE_INT32, &no_callsite) < 0 ||
                                   H5Pset_fill_time(dcpl, H5D_FILL_TIME_IFSET) < 0)
        goto fail;
    if (chunk == 0) {
        if (H5Pset_layout(dcpl, H5D_COMPACT) < 0)
            goto fail;
    } else if (H5Pset_chunk(dcpl, 1, &chunk) < 0 || H5Pset_shuffle(dcpl) < 0 ||
               H5Pset_deflate(dcpl, DEFLATE_LEVEL) < 0) {
        goto fail;
    }
    return dcpl;
fail:
    h5_fail(e, "cannot set up dataset properties");
    if (dcpl >= 0)
        H5Pclose(dcpl);
    return H5I_INVALID_HID;
}

/* Creates column c's dataset with dims {size} and max dims {max}. */
static int create_column(struct region_stream *r, int c, hsize_t size, hsize_t max)
{
    hid_t dcpl = make_dcpl(c, r->chunk, &r->err);
    if (dcpl < 0)
        return -1;
    hid_t space = H5Screate_simple(1, &size, &max);
    if (space >= 0)
        r->dset[c] = H5Dcreate2(r->group, column_name[c], column_file_type(c), space,
                                H5P_DEFAULT, dcpl, H5P_DEFAULT);
    int rc = r->dset[c] < 0 ? h5_fail(&r->err, "cannot create dataset %s", column_name[c]) : 0;
    if (space >= 0)
        H5Sclose(space);
    H5Pclose(dcpl);
    return rc;
}

/* Datasets for a region whose final size is known (it fits one window). */
static int create_final(struct region_stream *r, hsize_t n)
{
    r->chunk = n < REGION_COMPRESS_MIN ? 0 : n;
    for (int c = 0; c < columns(r); c++)
        if (create_column(r, c, n, n) < 0)
            return -1;
    return 0;
}

/* The columns missing from an extensible region, at its current extent. */
static int create_extensible(struct region_stream *r)
{
    r->chunk = REGION_WINDOW;
    for (int c = 0; c < columns(r); c++)
        if (r->dset[c] < 0 && create_column(r, c, r->written, H5S_UNLIMITED) < 0)
            return -1;
    return 0;
}

/* Writes the buffered events of one column at offset r->written through
 * HDF5's own write path (not chunked datasets). */
static int write_plain(struct region_stream *r, int c)
{
    hsize_t offset = r->written, count = r->buffered;
    hid_t fspace = H5Dget_space(r->dset[c]);
    hid_t mspace = H5Screate_simple(1, &count, NULL);
    int rc = 0;
    if (fspace < 0 || mspace < 0 ||
        H5Sselect_hyperslab(fspace, H5S_SELECT_SET, &offset, NULL, &count, NULL) < 0 ||
        H5Dwrite(r->dset[c], column_mem_type(c), mspace, fspace, H5P_DEFAULT,
                 r->buf[c]) < 0)
        rc = h5_fail(&r->err, "cannot write %s", column_name[c]);
    if (mspace >= 0)
        H5Sclose(mspace);
    if (fspace >= 0)
        H5Sclose(fspace);
    return rc;
}

/* Writes the buffered events of one column as the chunk at r->written; a
 * short last chunk is padded with zeros, which the dataset's extent hides. */
static int write_chunk(struct region_stream *r, int c)
{
    size_t size = column_size[c], chunk = (size_t)r->chunk;
    memset((char *)r->buf[c] + r->buffered * size, 0, (chunk - r->buffered) * size);
    size_t bytes = chunk_encode(&r->codec, r->buf[c], chunk, size);
    if (bytes == 0) {
        snprintf(r->err.buf, r->err.len, "cannot compress %s", column_name[c]);
        return -1;
    }
    hsize_t offset = r->written;
    if (H5Dwrite_chunk(r->dset[c], H5P_DEFAULT, 0, &offset, bytes, r->codec.out) < 0)
        return h5_fail(&r->err, "cannot write %s", column_name[c]);
    return 0;
}

static int write_column(struct region_stream *r, int c, int extend)
{
    hsize_t total = r->written + r->buffered;
    if (extend && H5Dset_extent(r->dset[c], &total) < 0)
        return h5_fail(&r->err, "cannot extend %s", column_name[c]);
    return r->chunk ? write_chunk(r, c) : write_plain(r, c);
}

static int write_window(struct region_stream *r, int extend)
{
    for (int c = 0; c < columns(r) && r->buffered > 0; c++)
        if (write_column(r, c, extend) < 0)
            return -1;
    r->written += r->buffered;
    r->buffered = 0;
    return 0;
}

/* The window is full: the region needs extensible datasets (and the
 * callsite_ids one, when its first site came in this window). */
static int flush_window(struct region_stream *r)
{
    if (create_extensible(r) < 0)
        return -1;
    return write_window(r, 1);
}

/* Copies n ids into to, or fills it with `none` when ids is NULL. */
static void copy_ids(int32_t *to, const int32_t *ids, int32_t none, size_t n)
{
    if (ids) {
        memcpy(to, ids, n * sizeof *to);
        return;
    }
    for (size_t i = 0; i < n; i++)
        to[i] = none;
}

static void buffer_events(struct region_stream *r, const int64_t *start, const int64_t *end,
                          const int32_t *thread_ids, const int32_t *callsite_ids, size_t n)
{
    int64_t *s = r->buf[REGION_START], *e = r->buf[REGION_END];
    memcpy(s + r->buffered, start, n * sizeof *s);
    memcpy(e + r->buffered, end, n * sizeof *e);
    copy_ids((int32_t *)r->buf[REGION_THREAD] + r->buffered, thread_ids, 0, n);
    copy_ids((int32_t *)r->buf[REGION_CALLSITE] + r->buffered, callsite_ids, -1, n);
    for (size_t i = 0; callsite_ids && !r->has_callsites && i < n; i++)
        r->has_callsites = callsite_ids[i] >= 0;
    r->buffered += n;
}

int region_append(struct region_stream *r, const int64_t *start, const int64_t *end,
                  const int32_t *thread_ids, const int32_t *callsite_ids, size_t n)
{
    if (n > 0 && (!start || !end)) {
        snprintf(r->err.buf, r->err.len, "append: start and end must not be NULL");
        return -1;
    }
    while (n > 0) {
        if (r->buffered == REGION_WINDOW && flush_window(r) < 0)
            return -1;
        size_t take = REGION_WINDOW - r->buffered;
        if (take > n)
            take = n;
        buffer_events(r, start, end, thread_ids, callsite_ids, take);
        call_stats_add(&r->stats, start, end, take);
        start += take;
        end += take;
        if (thread_ids)
            thread_ids += take;
        if (callsite_ids)
            callsite_ids += take;
        n -= take;
    }
    return 0;
}

int region_end(struct region_stream *r)
{
    int extend = r->dset[0] >= 0;
    if ((extend ? create_extensible(r) : create_final(r, r->buffered)) < 0)
        return -1;
    if (write_window(r, extend) < 0 ||
        region_stats_write(&r->stats, r->group, r->has_self, r->self_ns, &r->err) < 0)
        return -1;
    for (int c = 0; c < columns(r); c++)
        if (h5_close(&r->dset[c]) < 0)
            return h5_fail(&r->err, "cannot close %s", column_name[c]);
    if (h5_close(&r->group) < 0)
        return h5_fail(&r->err, "cannot close the region group");
    reset(r);
    return 0;
}
