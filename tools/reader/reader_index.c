/* reader_index.c: the indexes of region groups in a run's file and its
 * node parts (reader_index.h), read once each and checked, and the series
 * built from their rows. */
#include "reader_index.h"
#include "grow_array.h"
#include "reader_h5.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int cmp_rank_row(const void *a, const void *b)
{
    int32_t x = ((const struct file_index_rank *)a)->rank;
    int32_t y = ((const struct file_index_rank *)b)->rank;
    return (x > y) - (x < y);
}

static int cmp_region_row(const void *a, const void *b)
{
    int32_t x = ((const struct file_index_region *)a)->rank;
    int32_t y = ((const struct file_index_region *)b)->rank;
    return (x > y) - (x < y);
}

/* Closes the valid ids of any kind (each goes with its last reference). */
static void close_ids(const hid_t *ids, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (ids[i] >= 0)
            H5Idec_ref(ids[i]);
}

/* The writer stores rows in rank order: only others need sorting. */
static void sort_unless_sorted(void *rows, size_t n, size_t size,
                               int (*cmp)(const void *, const void *))
{
    for (size_t i = 1; i < n; i++)
        if (cmp((char *)rows + (i - 1) * size, (char *)rows + i * size) > 0) {
            qsort(rows, n, size, cmp);
            return;
        }
}

/* The rows of a 1-D compound dataset as mem_type; *rows NULL for none. */
static int read_rows(hid_t meta, const char *name, hid_t mem_type, size_t row_size,
                     void **rows, size_t *n, const char *label, scope_error *err)
{
    hid_t d = H5Dopen2(meta, name, H5P_DEFAULT);
    hid_t space = d >= 0 ? H5Dget_space(d) : H5I_INVALID_HID;
    hid_t ftype = d >= 0 ? H5Dget_type(d) : H5I_INVALID_HID;
    hid_t mtype = ftype >= 0 && H5Tget_class(ftype) == H5T_COMPOUND ? mem_type
                                                                     : H5I_INVALID_HID;
    hsize_t dims = 0;
    int rc = mtype < 0 || H5Sget_simple_extent_ndims(space) != 1 ||
                     H5Sget_simple_extent_dims(space, &dims, NULL) < 0
                 ? reader_fail(err, "%smetadata/%s: not the table of an index", label, name)
                 : 0;
    *rows = rc == 0 ? calloc(dims ? dims : 1, row_size) : NULL;
    if (rc == 0 && !*rows)
        rc = reader_fail(err, "out of memory");
    if (rc == 0 && dims && H5Dread(d, mtype, H5S_ALL, H5S_ALL, H5P_DEFAULT, *rows) < 0)
        rc = reader_fail(err, "%smetadata/%s: cannot read the table (truncated file?)", label,
                         name);
    *n = rc == 0 ? (size_t)dims : 0;
    close_ids((hid_t[]){ftype, space, d}, 3);
    return rc;
}

/* index_names: the region groups' link names, as HDF5 allocates them. */
static int read_names(hid_t meta, reader_index *x, const char *label, scope_error *err)
{
    hid_t d = H5Dopen2(meta, "index_names", H5P_DEFAULT);
    hid_t ftype = d >= 0 ? H5Dget_type(d) : H5I_INVALID_HID;
    hid_t space = d >= 0 ? H5Dget_space(d) : H5I_INVALID_HID;
    hssize_t n = space >= 0 && H5Sget_simple_extent_ndims(space) == 1
                     ? H5Sget_simple_extent_npoints(space) : -1;
    hid_t mtype = ftype >= 0 && H5Tis_variable_str(ftype) > 0 ? H5Tcopy(H5T_C_S1)
                                                              : H5I_INVALID_HID;
    int rc = mtype >= 0 && n >= 0 && H5Tset_size(mtype, H5T_VARIABLE) >= 0 &&
                     H5Tset_cset(mtype, H5Tget_cset(ftype)) >= 0
                 ? 0
                 : reader_fail(err, "%smetadata/index_names: not a list of names", label);
    if (rc == 0 && !(x->names = calloc((size_t)n + 1, sizeof *x->names)))
        rc = reader_fail(err, "out of memory");
    if (rc == 0 && n && H5Dread(d, mtype, H5S_ALL, H5S_ALL, H5P_DEFAULT, x->names) < 0)
        rc = reader_fail(err, "%smetadata/index_names: cannot read the names (truncated "
                         "file?)", label);
    x->nnames = rc == 0 ? (size_t)n : 0;
    close_ids((hid_t[]){mtype, ftype, space, d}, 4);
    return rc;
}

/* The bit of each dataset a region row's `datasets` can name, from the
 * names in index_regions' dataset_bits (bit i: the i-th). */
static void assign_bits(reader_index *x, char *const *names, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const char *name = names[i] ? names[i] : "";
        uint32_t *slot = strcmp(name, "thread_ids") == 0     ? &x->threads
                         : strcmp(name, "callsite_ids") == 0 ? &x->callsites
                         : strcmp(name, "start_times") == 0  ? &x->starts
                         : strcmp(name, "end_times") == 0    ? &x->ends
                         : strcmp(name, "bytes") == 0        ? &x->bytes
                         : strcmp(name, "msg_call") == 0     ? &x->messages
                         : strcmp(name, "peer_ranks") == 0   ? &x->peers
                                                             : NULL;
        for (size_t v = 0; !slot && v < SCOPE_VALUE_SLOTS; v++)
            if (strcmp(name, scope_value_name(v)) == 0)
                slot = &x->values[v];
        if (slot)
            *slot = UINT32_C(1) << i;
    }
}

static int read_bits(hid_t meta, reader_index *x, const char *label, scope_error *err)
{
    enum { MOST = 32 };   /* bits of `datasets` */
    hid_t d = H5Dopen2(meta, "index_regions", H5P_DEFAULT);
    hid_t a = d >= 0 && H5Aexists(d, "dataset_bits") > 0
                  ? H5Aopen(d, "dataset_bits", H5P_DEFAULT) : H5I_INVALID_HID;
    hid_t ftype = a >= 0 ? H5Aget_type(a) : H5I_INVALID_HID;
    hid_t space = a >= 0 ? H5Aget_space(a) : H5I_INVALID_HID;
    hssize_t n = space >= 0 ? H5Sget_simple_extent_npoints(space) : -1;
    hid_t mtype = ftype >= 0 && H5Tis_variable_str(ftype) > 0 ? H5Tcopy(H5T_C_S1)
                                                              : H5I_INVALID_HID;
    char *names[MOST] = {0};
    int rc = mtype >= 0 && n >= 0 && n <= MOST && H5Tset_size(mtype, H5T_VARIABLE) >= 0 &&
                     H5Tset_cset(mtype, H5Tget_cset(ftype)) >= 0 &&
                     H5Aread(a, mtype, names) >= 0
                 ? 0
                 : reader_fail(err, "%smetadata/index_regions: no dataset_bits naming the "
                               "bits of its datasets", label);
    if (rc == 0)
        assign_bits(x, names, (size_t)n);
    for (size_t i = 0; i < MOST; i++)
        H5free_memory(names[i]);
    close_ids((hid_t[]){mtype, ftype, space, a, d}, 5);
    return rc;
}

static int check_rows(const reader_index *x, const char *label, scope_error *err)
{
    for (size_t i = 0; i < x->nranks; i++)
        if (x->ranks[i].rank < 0 || x->ranks[i].dropped_events < 0 ||
            (i && x->ranks[i].rank == x->ranks[i - 1].rank))
            return reader_fail(err, "%smetadata/index_ranks: row %zu is not a rank of its own "
                               "with a count of dropped events", label, i);
    for (size_t i = 0; i < x->nregions; i++) {
        const struct file_index_region *r = &x->regions[i];
        if (r->name < 0 || (size_t)r->name >= x->nnames || !x->names[r->name] ||
            !x->names[r->name][0] || !reader_index_rank(x, r->rank, &(size_t){0}, &(size_t){0}) ||
            r->payload < 0 || (size_t)r->payload >= FILE_INDEX_PAYLOADS ||
            r->folded_calls < 0 || r->folded_calls > r->calls || r->unfinished_calls < 0 ||
            (x->starts & r->datasets) == 0 || (x->ends & r->datasets) == 0)
            return reader_fail(err, "%smetadata/index_regions: row %zu does not describe a "
                               "region of a rank of index_ranks", label, i);
    }
    return 0;
}

/* The index in `meta` into x: 1, 0 when there is none, -1 (err set). */
static int read_index(hid_t meta, reader_index *x, const char *label, scope_error *err)
{
    if (!h5_has_link(meta, "index_ranks") || !h5_has_link(meta, "index_regions") ||
        !h5_has_link(meta, "index_names"))
        return 0;
    hid_t rank_type = file_index_rank_type(0), region_type = file_index_region_type(0);
    int rc = rank_type < 0 || region_type < 0 ? reader_fail(err, "out of memory") : 0;
    if (rc == 0)
        rc = read_names(meta, x, label, err);
    if (rc == 0)
        rc = read_rows(meta, "index_ranks", rank_type, sizeof *x->ranks, (void **)&x->ranks,
                       &x->nranks, label, err);
    if (rc == 0)
        rc = read_rows(meta, "index_regions", region_type, sizeof *x->regions,
                       (void **)&x->regions, &x->nregions, label, err);
    if (rc == 0)
        rc = read_bits(meta, x, label, err);
    if (rank_type >= 0)
        H5Tclose(rank_type);
    if (region_type >= 0)
        H5Tclose(region_type);
    if (rc < 0)
        return -1;
    sort_unless_sorted(x->ranks, x->nranks, sizeof *x->ranks, cmp_rank_row);
    sort_unless_sorted(x->regions, x->nregions, sizeof *x->regions, cmp_region_row);
    return check_rows(x, label, err) < 0 ? -1 : 1;
}

static reader_index *add_index(reader_indexes *all)
{
    if (scope_grow_array((void **)&all->list, &all->cap, all->n + 1, sizeof *all->list))
        return NULL;
    all->list[all->n] = (reader_index){0};
    return &all->list[all->n++];
}

int reader_index_read_main(reader_indexes *all, hid_t metadata, scope_error *err)
{
    reader_index *x = all->n ? &all->list[0] : add_index(all);
    if (!x)
        return reader_fail(err, "out of memory");
    return read_index(metadata, x, "", err) < 0 ? -1 : 0;
}

/* The file an external link /rank{N} points to, as the link names it
 * (malloc'd); NULL when /rank{N} is no such link. */
static char *linked_file(hid_t file, const char *name)
{
    H5L_info_t info;
    if (H5Lget_info(file, name, &info, H5P_DEFAULT) < 0 || info.type != H5L_TYPE_EXTERNAL)
        return NULL;
    char *buf = malloc(info.u.val_size + 1);
    const char *part = NULL, *object = NULL;
    unsigned flags = 0;
    char *out = NULL;
    if (buf && H5Lget_val(file, name, buf, info.u.val_size, H5P_DEFAULT) >= 0 &&
        H5Lunpack_elink_val(buf, info.u.val_size, &flags, &part, &object) >= 0)
        out = strdup(part);
    free(buf);
    return out;
}

/* A part's index, read from the file the link names, found beside the
 * run's file (where the writer puts its parts, and where HDF5 looks for
 * it); an empty one when the part has none, x->missing set when it cannot
 * be opened. */
static int read_part(reader_index *x, const char *run_path, const char *label,
                     scope_error *err)
{
    const char *slash = strrchr(run_path, '/');
    char *path = NULL;
    if (x->file[0] == '/' || !slash)
        path = strdup(x->file);
    else if (asprintf(&path, "%.*s/%s", (int)(slash - run_path), run_path, x->file) < 0)
        path = NULL;
    if (!path)
        return reader_fail(err, "out of memory");
    hid_t part = H5I_INVALID_HID;
    const char *why = access(path, R_OK) != 0 ? strerror(errno)
                      : H5Fis_hdf5(path) <= 0 ||
                              (part = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT)) < 0
                          ? "not an HDF5 file"
                          : NULL;
    free(path);
    if (why && !(x->missing = strdup(why)))
        return reader_fail(err, "out of memory");
    hid_t meta = part >= 0 && h5_has_group(part, "metadata")
                     ? H5Gopen2(part, "metadata", H5P_DEFAULT) : H5I_INVALID_HID;
    int rc = meta >= 0 ? read_index(meta, x, label, err) : 0;
    if (meta >= 0)
        H5Gclose(meta);
    if (part >= 0)
        H5Fclose(part);
    return rc;
}

/* x when it holds the rank, else NULL. */
static const reader_index *holding(const reader_index *x, int rank)
{
    size_t first, n;
    return reader_index_rank(x, rank, &first, &n) ? x : NULL;
}

/* A part's answer for the rank (reader_index_find's). */
static int found_in(const reader_index *x, int rank, const reader_index **out)
{
    *out = x->missing ? x : holding(x, rank);
    return x->missing ? 2 : *out != NULL;
}

int reader_index_find(reader_indexes *all, hid_t file, const char *file_path, int rank,
                      const reader_index **out, scope_error *err)
{
    if (all->n && (*out = holding(&all->list[0], rank)))
        return 1;
    char name[32];
    snprintf(name, sizeof name, "rank%d", rank);
    char *part = linked_file(file, name);
    if (!part)
        return 0;
    for (size_t i = 1; i < all->n; i++)
        if (strcmp(all->list[i].file, part) == 0) {
            free(part);
            return found_in(&all->list[i], rank, out);
        }
    reader_index *x = all->n || add_index(all) ? add_index(all) : NULL;   /* [0]: the run's */
    if (!x) {
        free(part);
        return reader_fail(err, "out of memory");
    }
    x->file = part;
    char label[600];
    snprintf(label, sizeof label, "%s: /", part);
    if (read_part(x, file_path, label, err) < 0)
        return -1;
    return found_in(x, rank, out);
}

const struct file_index_rank *reader_index_rank(const reader_index *x, int rank, size_t *first,
                                                size_t *n)
{
    struct file_index_rank key = {.rank = rank};
    if (!x->nranks)
        return NULL;
    const struct file_index_rank *hit =
        bsearch(&key, x->ranks, x->nranks, sizeof *x->ranks, cmp_rank_row);
    if (!hit)
        return NULL;
    size_t lo = 0, hi = x->nregions;   /* the first row of the rank */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (x->regions[mid].rank < rank)
            lo = mid + 1;
        else
            hi = mid;
    }
    *first = lo;
    for (hi = lo; hi < x->nregions && x->regions[hi].rank == rank; hi++) {
    }
    *n = hi - lo;
    return hit;
}

series *reader_index_series(const scope_file *f, const reader_index *x,
                            const struct file_index_region *row, scope_error *err)
{
    const char *name = x->names[row->name];
    char prefix[40];
    int len = snprintf(prefix, sizeof prefix, "rank%d/regions/", row->rank);
    size_t tail = strlen(name) + 1;
    series *s = calloc(1, sizeof *s);
    if (!s || !(s->where = malloc((size_t)len + tail))) {
        free(s);
        reader_fail(err, "out of memory");
        return NULL;
    }
    memcpy(s->where, prefix, (size_t)len);
    memcpy(s->where + len, name, tail);
    uint32_t has = row->datasets;
    s->has_threads = has & x->threads;
    s->has_callsites = has & x->callsites;
    for (size_t v = 0; v < SCOPE_VALUE_SLOTS; v++)
        if (has & x->values[v])
            s->value_mask |= 1u << v;
    scope_payload_family family = (scope_payload_family)row->payload;
    s->declared = family;
    s->family = has & x->bytes ? family : SCOPE_PAYLOAD_NONE;
    s->peer_family = has & x->peers ? family : SCOPE_PAYLOAD_NONE;
    s->has_messages = family != SCOPE_PAYLOAD_NONE && (has & x->messages);
    if (f->use_stats) {
        s->stats = (struct call_stats){
            .calls = row->calls, .total_ns = row->total_ns, .min_ns = row->min_ns,
            .max_ns = row->max_ns, .first_start_ns = row->first_start_ns,
            .last_end_ns = row->last_end_ns, .m2_ns2 = row->m2_ns2};
        s->has_self = row->self_ns >= 0;
        s->self_ns = s->has_self ? row->self_ns : 0;
        if (reader_accept_stats(s, s->where, err) < 0) {
            reader_free_series(s);
            return NULL;
        }
        s->folded = row->folded_calls;
        s->has_stats = true;
        s->pub.count = (size_t)(row->calls - row->folded_calls);
    }
    return s;
}

void reader_indexes_free(reader_indexes *all)
{
    for (size_t i = 0; i < all->n; i++) {
        reader_index *x = &all->list[i];
        for (size_t i = 0; i < x->nnames; i++)
            H5free_memory(x->names[i]);
        free(x->names);
        free(x->regions);
        free(x->ranks);
        free(x->file);
        free(x->missing);
    }
    free(all->list);
    *all = (reader_indexes){0};
}
