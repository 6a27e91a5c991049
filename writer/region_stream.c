/* region_stream.c: places a region's windows (region_encode.h) in its
 * datasets: start_times, end_times, once a call ran off the rank's first
 * thread thread_ids (0: that thread), and once a call has one callsite_ids
 * (-1: none); both are created late, their earlier chunks never written
 * and read as their fill value, 0 or -1; for MPI calls with payload the
 * per-call bytes, peer, tag, comm and the per-message msg_* datasets, which
 * grow window by window of their own; for calls that record them, the
 * per-call arg1 .. arg6 and retval (those recorded). A region of one window gets
 * datasets of its exact size (compact when small, one compressed chunk
 * otherwise); a larger one gets chunked, extensible, compressed datasets
 * that grow by one window-sized chunk per window. Encoded chunks are
 * stored with H5Dwrite_chunk; the datasets declare the standard shuffle
 * and deflate filters that decode them. */
#include "region_stream.h"
#include "peer_datasets.h"
#include "profile_datasets.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "chunks are written raw: the file's little-endian types must be native"
#endif

#define DEFLATE_LEVEL 1  /* what the filter would use; chunk_codec encodes */

#define column_name file_index_dataset_bits   /* a column's dataset, by column */

static hid_t column_file_type(int c)
{
    switch (region_column_size[c]) {
    case 1: return H5T_STD_I8LE;
    case 4: return H5T_STD_I32LE;
    default: return H5T_STD_I64LE;
    }
}

static hid_t column_mem_type(int c)
{
    switch (region_column_size[c]) {
    case 1: return H5T_NATIVE_INT8;
    case 4: return H5T_NATIVE_INT32;
    default: return H5T_NATIVE_INT64;
    }
}

static void reset(struct region_stream *r)
{
    r->group = H5I_INVALID_HID;
    for (int c = 0; c < REGION_NCOLUMNS; c++)
        r->dset[c] = H5I_INVALID_HID;
    for (int g = 0; g < 2; g++) {
        r->chunk[g] = 0;
        r->written[g] = 0;
    }
    r->complete = 0;
    r->has_payload = 0;
    r->stats = (struct call_stats){0};
    r->has_self = 0;
    r->self_ns = 0;
    free(r->name);
    r->name = NULL;
    r->row = (struct file_index_region){0};
}

int region_stream_init(struct region_stream *r, struct h5_err err)
{
    r->err = err;
    reset(r);
    if (region_encoder_init(&r->encoder) != 0) {
        snprintf(err.buf, err.len, "out of memory for the event window");
        return -1;
    }
    return 0;
}

void region_stream_free(struct region_stream *r)
{
    region_close(r);
    region_encoder_free(&r->encoder);
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
    r->group = h5_group_create(regions, escaped);
    r->name = escaped;
    if (r->group < 0)
        return h5_fail(&r->err, "cannot create region '%s'", info->name);
    if (h5_attr_string(r->group, "symbol", info->symbol, &r->err) < 0 ||
        h5_attr_string(r->group, "library", info->library, &r->err) < 0 ||
        h5_attr_uint64(r->group, "address", info->address, &r->err) < 0 ||
        (info->clones && info->clones[0] &&
         h5_attr_string(r->group, "clones", info->clones, &r->err) < 0) ||
        (info->unfinished &&
         h5_attr_int64(r->group, "unfinished_calls", (int64_t)info->unfinished, &r->err) < 0) ||
        (info->payload && h5_attr_string(r->group, "mpi_payload", info->payload, &r->err) < 0) ||
        (info->peers && info->peers->n && peer_totals_write(r->group, info->peers, &r->err) < 0) ||
        (info->peers && !info->payload && info->peers->family &&
         h5_attr_string(r->group, "mpi_payload", info->peers->family, &r->err) < 0))
        return -1;
    r->has_self = info->has_self;
    r->self_ns = info->self_ns;
    r->has_payload = info->payload != NULL;
    r->row.unfinished_calls = (int64_t)info->unfinished;
    r->row.payload = file_index_payload_code(
        info->payload ? info->payload : info->peers ? info->peers->family : NULL);
    if (info->peers && info->peers->n)
        r->row.datasets |= file_index_dataset_bit("peer_ranks");
    if (region_encoder_begin(&r->encoder, region_payload_of(info->payload)) != 0) {
        snprintf(r->err.buf, r->err.len, "out of memory for region '%s'", info->name);
        return -1;
    }
    if (info->profile && info->profile->folded) {   /* its windows add the rows */
        r->stats = info->profile->stats;
        r->row.folded_calls = info->profile->stats.calls;
        return h5_attr_int64(r->group, "folded_calls", info->profile->stats.calls, &r->err);
    }
    if (info->profile) {   /* no calls: its windows are empty */
        r->stats = info->profile->stats;
        return profile_region_write(r->group, info->profile, &r->err);
    }
    return 0;
}

/* Dataset creation properties of column c: chunk == 0 means not chunked
 * (compact). The columns created late read their unwritten chunks as the
 * value they stand for. */
static hid_t make_dcpl(int c, hsize_t chunk, const struct h5_err *e)
{
    static const int32_t no_callsite = -1, first_thread = 0;
    const int32_t *fill = c == REGION_CALLSITE ? &no_callsite
                          : c == REGION_THREAD ? &first_thread
                                               : NULL;
    hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
    if (dcpl < 0)
        goto fail;
    if (!fill ? H5Pset_fill_time(dcpl, H5D_FILL_TIME_NEVER) < 0
              : H5Pset_fill_value(dcpl, H5T_NATIVE_INT32, fill) < 0 ||
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

/* Creates column c's dataset with dims {size} and max dims {max}, chunked
 * as its group. */
static int create_column(struct region_stream *r, int c, hsize_t chunk, hsize_t size, hsize_t max)
{
    hid_t dcpl = make_dcpl(c, chunk, &r->err);
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

/* Datasets for a group of one window. */
static int create_final(struct region_stream *r, const struct region_window *win)
{
    r->chunk[win->group] = win->chunk;
    for (int c = 0; c < REGION_NCOLUMNS; c++)
        if (region_window_has_column(win, c) && create_column(r, c, win->chunk, win->n, win->n) < 0)
            return -1;
    return 0;
}

/* The columns missing from an extensible group, at its current extent. */
static int create_extensible(struct region_stream *r, const struct region_window *win)
{
    r->chunk[win->group] = REGION_WINDOW;
    for (int c = 0; c < REGION_NCOLUMNS; c++)
        if (region_window_has_column(win, c) && r->dset[c] < 0 &&
            create_column(r, c, REGION_WINDOW, r->written[win->group], H5S_UNLIMITED) < 0)
            return -1;
    return 0;
}

/* Raw values of column c at the group's end, through HDF5's own write path
 * (compact datasets). */
static int write_plain(struct region_stream *r, int c, const struct region_window *win)
{
    hsize_t offset = r->written[win->group], count = win->n;
    if (count == 0)
        return 0;
    hid_t fspace = H5Dget_space(r->dset[c]);
    hid_t mspace = H5Screate_simple(1, &count, NULL);
    int rc = 0;
    if (fspace < 0 || mspace < 0 ||
        H5Sselect_hyperslab(fspace, H5S_SELECT_SET, &offset, NULL, &count, NULL) < 0 ||
        H5Dwrite(r->dset[c], column_mem_type(c), mspace, fspace, H5P_DEFAULT, win->data[c]) < 0)
        rc = h5_fail(&r->err, "cannot write %s", column_name[c]);
    if (mspace >= 0)
        H5Sclose(mspace);
    if (fspace >= 0)
        H5Sclose(fspace);
    return rc;
}

static int write_column(struct region_stream *r, int c, const struct region_window *win)
{
    hsize_t total = r->written[win->group] + win->n, offset = r->written[win->group];
    if (win->extensible && H5Dset_extent(r->dset[c], &total) < 0)
        return h5_fail(&r->err, "cannot extend %s", column_name[c]);
    if (r->chunk[win->group] == 0)
        return write_plain(r, c, win);
    if (H5Dwrite_chunk(r->dset[c], H5P_DEFAULT, 0, &offset, win->bytes[c], win->data[c]) < 0)
        return h5_fail(&r->err, "cannot write %s", column_name[c]);
    return 0;
}

int region_put_window(struct region_stream *r, const struct region_window *win)
{
    if (r->complete || (win->group != REGION_CALLS && win->group != REGION_MESSAGES) ||
        (win->group == REGION_MESSAGES && win->has_payload != REGION_MESSAGE_PAYLOAD) ||
        (win->extensible && win->chunk != REGION_WINDOW) ||
        (!win->extensible && !win->last) || win->n > (win->chunk ? win->chunk : REGION_WINDOW)) {
        snprintf(r->err.buf, r->err.len, "put_window: a window out of place (%llu calls)",
                 (unsigned long long)win->n);
        return -1;
    }
    if ((win->extensible ? create_extensible(r, win) : create_final(r, win)) < 0)
        return -1;
    for (int c = 0; c < REGION_NCOLUMNS; c++)
        if (region_window_has_column(win, c) && write_column(r, c, win) < 0)
            return -1;
    r->written[win->group] += win->n;
    if (win->group == REGION_CALLS) {
        r->complete = win->last;
        call_stats_merge(&r->stats, &win->stats);
    }
    return 0;
}

static int put_window(void *ctx, const struct region_window *win)
{
    return region_put_window(ctx, win);
}

int region_append(struct region_stream *r, const int64_t *start, const int64_t *end,
                  const int32_t *thread_ids, const int32_t *callsite_ids,
                  const struct region_payload *payload, size_t n)
{
    const char *why = NULL;
    int rc = region_encoder_add(&r->encoder, start, end, thread_ids, callsite_ids, payload, n,
                                put_window, r, &why);
    if (rc != 0 && why)
        snprintf(r->err.buf, r->err.len, "%s", why);
    return rc;
}

int region_end(struct region_stream *r, struct file_index_region *row, char **name)
{
    const char *why = NULL;
    if (!r->complete && region_encoder_end(&r->encoder, put_window, r, &why) != 0) {
        if (why)
            snprintf(r->err.buf, r->err.len, "%s", why);
        return -1;
    }
    /* a self time added up in ticks (folding) may round past the total */
    int64_t self = r->self_ns < r->stats.total_ns ? r->self_ns : r->stats.total_ns;
    if (region_stats_write(&r->stats, r->group, r->has_self, self, &r->err) < 0)
        return -1;
    for (int c = 0; c < REGION_NCOLUMNS; c++) {
        if (r->dset[c] >= 0)
            r->row.datasets |= UINT32_C(1) << c;
        if (h5_close(&r->dset[c]) < 0)
            return h5_fail(&r->err, "cannot close %s", column_name[c]);
    }
    if (h5_close(&r->group) < 0)
        return h5_fail(&r->err, "cannot close the region group");
    const struct call_stats *st = &r->stats;
    *row = r->row;
    row->calls = st->calls;
    row->total_ns = st->total_ns;
    row->min_ns = st->min_ns;
    row->max_ns = st->max_ns;
    row->first_start_ns = st->first_start_ns;
    row->last_end_ns = st->last_end_ns;
    row->m2_ns2 = st->m2_ns2;
    row->self_ns = r->has_self ? self : -1;
    *name = r->name;
    r->name = NULL;   /* the caller's now */
    reset(r);
    return 0;
}
