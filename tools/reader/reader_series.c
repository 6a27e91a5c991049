/* A series (one region on one rank) and its calls: the region table's
 * lookup, and the calls read from the region group (at open when the file
 * has no statistics, else on first use, from the file kept open), checked
 * and indexed in call-stack order. Below the accessors, which load calls
 * lazily through it: it uses only the HDF5 helpers and reader_fail. */
#include "reader_h5.h"

#include <stdlib.h>

const series *reader_series(const scope_file *f, size_t region, size_t rank_index)
{
    return region < f->n_regions ? f->table[region * f->n_ranks + rank_index] : NULL;
}

void reader_free_series(series *s)
{
    if (!s)
        return;
    free((void *)s->pub.start_ns);
    free((void *)s->pub.end_ns);
    free((void *)s->pub.thread_ids);
    free((void *)s->pub.callsite_ids);
    free(s->order);
    free(s->where);
    free(s);
}

static int cmp_by_start(const void *a, const void *b, void *ctx)
{
    const scope_series *s = ctx;
    size_t i = *(const size_t *)a, j = *(const size_t *)b;
    if (s->start_ns[i] != s->start_ns[j])
        return s->start_ns[i] < s->start_ns[j] ? -1 : 1;
    int64_t di = s->end_ns[i] - s->start_ns[i], dj = s->end_ns[j] - s->start_ns[j];
    if (di != dj)
        return di > dj ? -1 : 1;
    return i < j ? -1 : i > j;
}

/* Check the calls and note whether they are in call-stack order already. */
static int index_series(series *s, scope_error *err)
{
    const scope_series *p = &s->pub;
    /* +-2^60 ns is 36 years: beyond it, differences of times could overflow */
    const int64_t limit = INT64_C(1) << 60;
    for (size_t i = 0; i < p->count; i++)
        if (p->start_ns[i] < -limit || p->start_ns[i] > limit || p->end_ns[i] < -limit ||
            p->end_ns[i] > limit)
            return reader_fail(err, "%s: call %zu: time out of range", s->where, i);
    s->sorted = true;
    for (size_t i = 0; i < p->count; i++) {
        if (p->end_ns[i] < p->start_ns[i])
            return reader_fail(err, "%s: call %zu ends before it starts", s->where, i);
        if (i + 1 < p->count && cmp_by_start(&i, &(size_t){i + 1}, s) > 0)
            s->sorted = false;
    }
    if (s->sorted)
        return 0;
    if (!(s->order = malloc(p->count * sizeof *s->order)))
        return reader_fail(err, "out of memory");
    for (size_t i = 0; i < p->count; i++)
        s->order[i] = i;
    qsort_r(s->order, p->count, sizeof *s->order, cmp_by_start, (void *)p);
    return 0;
}

/* Reads the region's call-site ids, each -1 or a site of the file's table. */
static int read_callsite_ids(hid_t group, series *s, size_t n_sites, void **ids, size_t *n,
                             scope_error *err)
{
    if (h5_read_vector(group, "callsite_ids", H5T_NATIVE_INT32, sizeof(int32_t), ids, n,
                       s->where, err) < 0)
        return -1;
    const int32_t *id = *ids;
    for (size_t i = 0; i < *n; i++)
        if (id[i] < -1 || id[i] >= (int64_t)n_sites)
            return reader_fail(err, "%s: call %zu: call site %d of %zu", s->where, i, id[i],
                               n_sites);
    return 0;
}

int reader_read_calls(hid_t group, series *s, bool have_stats, size_t n_sites, scope_error *err)
{
    size_t n_start = 0, n_end = 0, n_thr = 0, n_sites_read = 0;
    void *start = NULL, *end = NULL, *thr = NULL, *sites = NULL;
    int rc = h5_read_vector(group, "start_times", H5T_NATIVE_INT64, sizeof(int64_t), &start,
                            &n_start, s->where, err);
    if (rc == 0)
        rc = h5_read_vector(group, "end_times", H5T_NATIVE_INT64, sizeof(int64_t), &end,
                            &n_end, s->where, err);
    if (rc == 0 && s->has_threads)
        rc = h5_read_vector(group, "thread_ids", H5T_NATIVE_INT32, sizeof(int32_t), &thr,
                            &n_thr, s->where, err);
    if (rc == 0 && s->has_callsites)
        rc = read_callsite_ids(group, s, n_sites, &sites, &n_sites_read, err);
    s->pub.start_ns = start;
    s->pub.end_ns = end;
    s->pub.thread_ids = thr;
    s->pub.callsite_ids = sites;
    s->pub.count = n_start;
    s->loaded = true;
    if (rc == 0 && n_start != n_end)
        rc = reader_fail(err, "%s: %zu start_times but %zu end_times", s->where, n_start, n_end);
    if (rc == 0 && s->has_threads && n_thr != n_start)
        rc = reader_fail(err, "%s: %zu start_times but %zu thread_ids", s->where, n_start, n_thr);
    if (rc == 0 && s->has_callsites && n_sites_read != n_start)
        rc = reader_fail(err, "%s: %zu start_times but %zu callsite_ids", s->where, n_start,
                         n_sites_read);
    if (rc == 0 && have_stats && (int64_t)n_start != s->stats.calls)
        rc = reader_fail(err, "%s: %zu calls but the statistics say %lld", s->where, n_start,
                         (long long)s->stats.calls);
    if (rc == 0)
        rc = index_series(s, err);
    if (rc == 0 && !have_stats)
        call_stats_add(&s->stats, s->pub.start_ns, s->pub.end_ns, s->pub.count);
    if (rc < 0) { /* as before the attempt: counted, not loaded */
        free((void *)s->pub.start_ns);
        free((void *)s->pub.end_ns);
        free((void *)s->pub.thread_ids);
        free((void *)s->pub.callsite_ids);
        free(s->order);
        s->pub = (scope_series){.count = have_stats ? (size_t)s->stats.calls : 0};
        s->order = NULL;
        s->loaded = false;
    }
    return rc;
}

int reader_load_series(const scope_file *f, const series *cs, scope_error *err)
{
    series *s = (series *)cs; /* logically const: the file's calls, read late */
    if (!s || s->loaded)
        return 0;
    h5_quiet q = h5_quiet_begin();
    hid_t g = H5Gopen2(f->h5, s->where, H5P_DEFAULT);
    int rc = g < 0 ? reader_fail(err, "%s: cannot open the group", s->where)
                   : reader_read_calls(g, s, true, f->n_sites, err);
    if (g >= 0)
        H5Gclose(g);
    h5_quiet_end(q);
    return rc;
}

int reader_load_rank(const scope_file *f, size_t rank_index, scope_error *err)
{
    for (size_t r = 0; r < f->n_regions; r++)
        if (reader_load_series(f, reader_series(f, r, rank_index), err) < 0)
            return -1;
    return 0;
}
