/* scope_open()/scope_close(): validate the file layout, take every region's
 * statistics and MPI payload family (stored by the writer, else computed from its calls, read in
 * one batch by reader_series.c), build the region table in first-appearance
 * order; calls not needed for that are read on first use, from the file
 * kept open. */
#include "grow_array.h"
#include "reader_h5.h"
#include "reader_index.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* A region of one rank while loading, before region indices exist. */
typedef struct loaded {
    char *name;
    size_t rank_index;
    series *s;
} loaded;

typedef struct loader {
    scope_file *f;
    loaded *items;
    size_t n, cap;
    reader_indexes indexes;   /* of the run's file and the parts it links */
    scope_error *err;
} loader;

/* "%2F" -> '/', "%25" -> '%', "%2E" -> '.', hex digits in either case. */
static char *unescape_name(const char *raw)
{
    char *out = malloc(strlen(raw) + 1), *o = out;
    if (!out)
        return NULL;
    for (const char *p = raw; *p; p++) {
        if (p[0] == '%' && p[1] == '2' && p[2]) {
            char c = (char)(p[2] | 0x20);
            char decoded = c == 'f' ? '/' : p[2] == '5' ? '%' : c == 'e' ? '.' : 0;
            if (decoded) {
                *o++ = decoded;
                p += 2;
                continue;
            }
        }
        *o++ = *p;
    }
    *o = '\0';
    return out;
}

/* The calls of a region without statistics, counted from the size of its
 * start_times (read with them, the count is checked against end_times). */
static int count_rows(hid_t group, series *s, const char *where, scope_error *err)
{
    hid_t d = H5Dopen2(group, "start_times", H5P_DEFAULT);
    hid_t space = d >= 0 ? H5Dget_space(d) : H5I_INVALID_HID;
    hsize_t n = 0;
    int rc = space >= 0 && H5Sget_simple_extent_ndims(space) == 1 &&
                     H5Sget_simple_extent_dims(space, &n, NULL) >= 0
                 ? 0
                 : reader_fail(err, "%s/start_times: not a one-dimensional dataset", where);
    s->pub.count = (size_t)n;
    if (space >= 0)
        H5Sclose(space);
    if (d >= 0)
        H5Dclose(d);
    return rc;
}

/* A region of a rank: its statistics when the file has them (its calls
 * are read on first use, and checked against them then); without, it
 * waits for read_unsummed. Only the links to thread_ids and callsite_ids
 * are looked at: to open a dataset costs more than the rest of a small
 * region. */
static series *open_series(const scope_file *f, hid_t group, const char *where,
                           scope_error *err)
{
    series *s = calloc(1, sizeof *s);
    if (!s || !(s->where = strdup(where))) {
        free(s);
        reader_fail(err, "out of memory");
        return NULL;
    }
    s->has_threads = h5_has_link(group, "thread_ids");
    s->has_callsites = h5_has_link(group, "callsite_ids");
    reader_find_values(group, s);
    int have = f->use_stats ? reader_read_stats(group, s, where, err) : 0;
    if (have >= 0 && reader_read_family(group, s, where, err) < 0)
        have = -1;
    if (have < 0) {
        reader_free_series(s);
        return NULL;
    }
    if (have == 1 && (h5_scalar_attr(group, "folded_calls", H5T_NATIVE_INT64, &s->folded) < 0 ||
                      s->folded < 0 || s->folded > s->stats.calls)) {
        reader_fail(err, "%s: folded_calls is not a count of its calls", where);
        reader_free_series(s);
        return NULL;
    }
    s->has_stats = have == 1;
    s->pub.count = (size_t)(s->stats.calls - s->folded);
    if (!s->has_stats && f->metadata_only && count_rows(group, s, where, err) < 0) {
        reader_free_series(s);
        return NULL;
    }
    return s;
}

static int add_loaded(loader *ld, char *name, size_t rank_index, series *s)
{
    if (scope_grow_array((void **)&ld->items, &ld->cap, ld->n + 1, sizeof *ld->items) != 0)
        return reader_fail(ld->err, "out of memory");
    ld->items[ld->n++] = (loaded){name, rank_index, s};
    return 0;
}

static int load_rank(loader *ld, hid_t file, size_t rank_index)
{
    char where[600];
    int rank = ld->f->ranks[rank_index];
    snprintf(where, sizeof where, "rank%d", rank);
    hid_t rgroup = H5Gopen2(file, where, H5P_DEFAULT);
    if (rgroup < 0)
        return reader_fail(ld->err, "%s: cannot open the group", where);
    int rc = 0;
    int64_t dropped = 0;
    if (h5_scalar_attr(rgroup, "dropped_events", H5T_NATIVE_INT64, &dropped) < 0 || dropped < 0)
        rc = reader_fail(ld->err, "%s: dropped_events is not a count", where);
    ld->f->dropped[rank_index] = (uint64_t)dropped;
    hid_t regions = rc == 0 ? H5Gopen2(rgroup, "regions", H5P_DEFAULT) : -1;
    if (rc == 0 && regions < 0)
        rc = reader_fail(ld->err, "%s: no 'regions' group", where);
    char **names = NULL;
    size_t n = 0;
    if (rc == 0)
        rc = h5_child_names(regions, &names, &n, where, ld->err);
    for (size_t i = 0; rc == 0 && i < n; i++) {
        snprintf(where, sizeof where, "rank%d/regions/%s", rank, names[i]);
        hid_t g = H5Gopen2(regions, names[i], H5P_DEFAULT);
        if (g < 0) {
            rc = reader_fail(ld->err, "%s: not a group", where);
            break;
        }
        int64_t unfinished = 0;
        if (h5_scalar_attr(g, "unfinished_calls", H5T_NATIVE_INT64, &unfinished) < 0 ||
            unfinished < 0) {
            rc = reader_fail(ld->err, "%s: unfinished_calls is not a count", where);
        } else if (!h5_has_link(g, "start_times") || !h5_has_link(g, "end_times")) {
            rc = reader_fail(ld->err, "%s: missing start_times or end_times", where);
        } else {
            series *s = open_series(ld->f, g, where, ld->err);
            ld->f->has_payload |= s && s->family != SCOPE_PAYLOAD_NONE;
            ld->f->has_peer_totals |= s && s->peer_family != SCOPE_PAYLOAD_NONE;
            ld->f->has_values |= s && s->value_mask;
            char *name = s ? unescape_name(names[i]) : NULL;
            if (!s)
                rc = -1;
            else if (!name || add_loaded(ld, name, rank_index, s) < 0) {
                free(name);
                reader_free_series(s);
                rc = reader_fail(ld->err, "out of memory");
            }
            ld->f->unfinished[rank_index] += (uint64_t)unfinished;
        }
        H5Gclose(g);
    }
    h5_free_names(names, n);
    if (regions >= 0)
        H5Gclose(regions);
    H5Gclose(rgroup);
    return rc;
}

/* A rank's regions from the rows of an index, no group opened. */
static int load_indexed_rank(loader *ld, const reader_index *x, size_t rank_index)
{
    size_t first = 0, n = 0;
    const struct file_index_rank *row = reader_index_rank(x, ld->f->ranks[rank_index], &first, &n);
    ld->f->dropped[rank_index] = (uint64_t)row->dropped_events;
    for (size_t i = first; i < first + n; i++) {
        const struct file_index_region *r = &x->regions[i];
        series *s = reader_index_series(ld->f, x, r, ld->err);
        if (!s)
            return -1;
        ld->f->has_payload |= s->family != SCOPE_PAYLOAD_NONE;
        ld->f->has_peer_totals |= s->peer_family != SCOPE_PAYLOAD_NONE;
        ld->f->has_values |= s->value_mask != 0;
        ld->f->unfinished[rank_index] += (uint64_t)r->unfinished_calls;
        char *name = unescape_name(x->names[r->name]);
        if (!name || add_loaded(ld, name, rank_index, s) < 0) {
            free(name);
            reader_free_series(s);
            return reader_fail(ld->err, "out of memory");
        }
    }
    return 0;
}

/* Notes that the rank is left out: its /rank{N} links to part x, which
 * cannot be opened. */
static int leave_out(scope_file *f, int rank, const reader_index *x, scope_error *err)
{
    struct missing_rank *m = realloc(f->missing, (f->n_missing + 1) * sizeof *m);
    if (!m)
        return reader_fail(err, "out of memory");
    f->missing = m;
    m[f->n_missing] = (struct missing_rank){rank, strdup(x->file), strdup(x->missing)};
    if (!m[f->n_missing].file || !m[f->n_missing].why) {
        free(m[f->n_missing].file);
        free(m[f->n_missing].why);
        return reader_fail(err, "out of memory");
    }
    f->n_missing++;
    return 0;
}

/* "rank{N}" with N a non-negative decimal number; -1 otherwise. */
static long parse_rank_name(const char *name)
{
    if (strncmp(name, "rank", 4) != 0 || !name[4] || strlen(name) > 13)
        return -1;
    long v = 0;
    for (const char *p = name + 4; *p; p++) {
        if (*p < '0' || *p > '9')
            return -1;
        v = v * 10 + (*p - '0');
    }
    return v <= INT32_MAX ? v : -1;
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

static int load_top_level(loader *ld, hid_t file)
{
    scope_file *f = ld->f;
    char **names = NULL;
    size_t n = 0;
    if (h5_child_names(file, &names, &n, "/", ld->err) < 0)
        return -1;
    int rc = 0;
    if (!(f->ranks = malloc((n ? n : 1) * sizeof *f->ranks)) ||
        !(f->dropped = calloc(n ? n : 1, sizeof *f->dropped)) ||
        !(f->unfinished = calloc(n ? n : 1, sizeof *f->unfinished)))
        rc = reader_fail(ld->err, "out of memory");
    bool has_metadata = rc == 0 && h5_has_group(file, "metadata");
    if (has_metadata) {
        hid_t g = H5Gopen2(file, "metadata", H5P_DEFAULT);
        rc = h5_read_all_attrs(g, &f->meta, &f->n_meta, ld->err);
        if (rc == 0)
            rc = reader_index_read_main(&ld->indexes, g, ld->err);
        if (rc == 0)
            rc = reader_load_callsites(f, g, ld->err);
        if (rc == 0)
            rc = reader_load_communicators(f, g, ld->err);
        H5Gclose(g);
    }
    for (size_t i = 0; rc == 0 && i < n; i++) {
        long rank = parse_rank_name(names[i]);
        size_t first, count;   /* a rank the run's index holds is a group */
        if (has_metadata && strcmp(names[i], "metadata") == 0)
            continue;
        if (rank >= 0 && ((ld->indexes.n && reader_index_rank(&ld->indexes.list[0], (int)rank,
                                                              &first, &count)) ||
                          h5_is_external_link(file, names[i]) ||
                          h5_has_group(file, names[i]))) {
            f->ranks[f->n_ranks++] = (int)rank;
        } else {
            rc = reader_fail(ld->err, "unexpected top-level object '%s' (expected rank{N} groups"
                             " and metadata)", names[i]);
        }
    }
    h5_free_names(names, n);
    if (rc == 0 && f->n_ranks == 0)
        rc = reader_fail(ld->err, "no rank{N} groups: not a scope profile");
    if (rc < 0)
        return rc;
    qsort(f->ranks, f->n_ranks, sizeof *f->ranks, cmp_int);
    for (size_t i = 1; i < f->n_ranks; i++)
        if (f->ranks[i] == f->ranks[i - 1])
            return reader_fail(ld->err, "rank %d appears twice", f->ranks[i]);
    size_t kept = 0;   /* ranks of parts that cannot be opened are left out */
    for (size_t r = 0; r < f->n_ranks; r++) {
        const reader_index *x = NULL;
        int rank = f->ranks[r];
        int found = reader_index_find(&ld->indexes, file, f->path, rank, &x, ld->err);
        if (found == 2 && leave_out(f, rank, x, ld->err) == 0)
            continue;
        f->ranks[kept] = rank;
        if (found < 0 || found == 2 ||
            (found ? load_indexed_rank(ld, x, kept) : load_rank(ld, file, kept)) < 0)
            return -1;
        kept++;
    }
    f->n_ranks = kept;
    if (kept == 0)
        return reader_fail(ld->err, "no rank can be read: every node's file is missing (%s: %s)",
                           f->missing[0].file, f->missing[0].why);
    const scope_meta *mode = scope_metadata_find(f, "mode");
    f->is_profile = mode && strcmp(mode->text, "profile") == 0;
    const scope_meta *rs = scope_metadata_find(f, "run_start_time");
    if (rs && rs->kind == SCOPE_META_INT) {
        f->has_run_start = true;
        f->run_start_ns = rs->int_value;
    }
    return 0;
}

/* Region order: earliest start over all ranks; regions without calls last;
 * ties by name. */
typedef struct region_key {
    const char *name;
    bool has_calls;
    int64_t min_start;
} region_key;

static int cmp_region_key(const void *a, const void *b)
{
    const region_key *x = a, *y = b;
    if (x->has_calls != y->has_calls)
        return x->has_calls ? -1 : 1;
    if (x->has_calls && x->min_start != y->min_start)
        return x->min_start < y->min_start ? -1 : 1;
    return strcmp(x->name, y->name);
}

static int cmp_loaded_name(const void *a, const void *b)
{
    return strcmp(((const loaded *)a)->name, ((const loaded *)b)->name);
}

static int build_regions(loader *ld)
{
    scope_file *f = ld->f;
    qsort(ld->items, ld->n, sizeof *ld->items, cmp_loaded_name);
    region_key *keys = malloc((ld->n ? ld->n : 1) * sizeof *keys);
    if (!keys)
        return reader_fail(ld->err, "out of memory");
    size_t nk = 0;
    bool any = false;
    for (size_t i = 0; i < ld->n; i++) {
        const series *s = ld->items[i].s;
        const struct call_stats *st = &s->stats;
        if (nk == 0 || strcmp(keys[nk - 1].name, ld->items[i].name) != 0)
            keys[nk++] = (region_key){ld->items[i].name, false, 0};
        region_key *k = &keys[nk - 1];
        if (st->calls > 0) {
            if (!k->has_calls || st->first_start_ns < k->min_start)
                k->min_start = st->first_start_ns;
            k->has_calls = true;
            if (!any || st->first_start_ns < f->min_start_ns)
                f->min_start_ns = st->first_start_ns;
            if (!any || st->last_end_ns > f->max_end_ns)
                f->max_end_ns = st->last_end_ns;
            any = true;
        }
        f->n_events += s->pub.count;
        f->times_partial |= !s->has_stats && s->pub.count > 0;
        f->has_threads |= s->has_threads && !f->is_profile;   /* a profile's are empty */
    }
    qsort(keys, nk, sizeof *keys, cmp_region_key);
    f->n_regions = nk;
    f->names = calloc(nk ? nk : 1, sizeof *f->names);
    f->table = calloc((nk ? nk : 1) * f->n_ranks, sizeof *f->table);
    int rc = f->names && f->table ? 0 : reader_fail(ld->err, "out of memory");
    for (size_t r = 0; rc == 0 && r < nk; r++) {
        /* keys[r].name points into items, sorted by name: find its run */
        loaded probe = {.name = (char *)keys[r].name};
        loaded *hit = bsearch(&probe, ld->items, ld->n, sizeof *ld->items, cmp_loaded_name);
        while (hit > ld->items && strcmp(hit[-1].name, probe.name) == 0)
            hit--;
        f->names[r] = strdup(probe.name);
        rc = f->names[r] ? 0 : reader_fail(ld->err, "out of memory");
        for (; rc == 0 && hit < ld->items + ld->n && strcmp(hit->name, probe.name) == 0; hit++) {
            f->table[r * f->n_ranks + hit->rank_index] = hit->s;
            hit->s = NULL; /* now owned by the table */
        }
    }
    free(keys);
    return rc;
}

/* The calls of the regions without statistics, all in one batch: the
 * region order and the run's time span come from them. */
static int read_unsummed(loader *ld)
{
    series **list = malloc((ld->n ? ld->n : 1) * sizeof *list);
    if (!list)
        return reader_fail(ld->err, "out of memory");
    size_t n = 0;
    for (size_t i = 0; i < ld->n; i++)
        if (!ld->items[i].s->has_stats)
            list[n++] = ld->items[i].s;
    int rc = n ? reader_load_list(ld->f, list, n, ld->err) : 0;
    free(list);
    return rc;
}

static void free_loader(loader *ld)
{
    reader_indexes_free(&ld->indexes);
    for (size_t i = 0; i < ld->n; i++) {
        free(ld->items[i].name);
        reader_free_series(ld->items[i].s);
    }
    free(ld->items);
}

static int check_path(const char *path, scope_error *err)
{
    struct stat st;
    if (stat(path, &st) < 0)
        return reader_fail(err, "%s", strerror(errno));
    if (S_ISDIR(st.st_mode))
        return reader_fail(err, "is a directory");
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return reader_fail(err, "%s", strerror(errno));
    fclose(fp);
    return 0;
}

scope_file *scope_open(const char *path, scope_error *err)
{
    return scope_open_ex(path, 0, err);
}

scope_file *scope_open_ex(const char *path, unsigned flags, scope_error *err)
{
    if (check_path(path, err) < 0)
        return NULL;
    h5_quiet q = h5_quiet_begin();

    scope_file *f = calloc(1, sizeof *f);
    loader ld = {.f = f, .err = err};
    int rc = f && (f->path = strdup(path)) ? 0 : reader_fail(err, "out of memory");
    if (f) {
        pthread_mutex_init(&f->lock, NULL);
        pthread_mutex_init(&f->self_lock, NULL);
        f->h5 = H5I_INVALID_HID;
        f->use_stats = !(flags & SCOPE_OPEN_RECOMPUTE);
        f->metadata_only = (flags & SCOPE_OPEN_METADATA_ONLY) && f->use_stats;
    }
    if (rc == 0 && H5Fis_hdf5(path) <= 0)
        rc = reader_fail(err, "not an HDF5 file");
    if (rc == 0 && (f->h5 = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT)) < 0)
        rc = reader_fail(err, "cannot open the HDF5 file (truncated or corrupt?)");
    if (rc == 0)
        rc = load_top_level(&ld, f->h5);
    if (rc == 0 && !f->metadata_only)
        rc = read_unsummed(&ld);
    if (rc == 0)
        rc = build_regions(&ld);
    free_loader(&ld);
    h5_quiet_end(q);
    if (rc < 0) {
        scope_close(f);
        return NULL;
    }
    return f;
}

void scope_close(scope_file *f)
{
    if (!f)
        return;
    for (size_t i = 0; f->table && i < f->n_regions * f->n_ranks; i++) {
        if (f->table[i]) { /* read after open: only the table's series have payload */
            reader_free_payload(f->table[i]);
            reader_free_values(f->table[i]);
        }
        reader_free_series(f->table[i]);
    }
    for (size_t i = 0; f->names && i < f->n_regions; i++)
        free(f->names[i]);
    h5_free_meta(f->meta, f->n_meta);
    reader_free_callsites(f);
    reader_free_communicators(f);
    if (f->h5 >= 0)
        H5Fclose(f->h5);
    free(f->table);
    free(f->names);
    free(f->ranks);
    for (size_t i = 0; i < f->n_missing; i++) {
        free(f->missing[i].file);
        free(f->missing[i].why);
    }
    free(f->missing);
    free(f->dropped);
    free(f->unfinished);
    free(f->path);
    pthread_mutex_destroy(&f->lock);
    pthread_mutex_destroy(&f->self_lock);
    free(f);
}
