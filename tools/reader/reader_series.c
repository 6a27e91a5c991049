/* A series (one region on one rank) and its calls: the region table's
 * lookup, and the one place where calls are read from the file (at open
 * for regions without statistics, else on first use, under the file's
 * lock). The datasets of all the series asked for are read in one batch
 * (reader_columns.c: raw chunks, inflated on a few threads); then each
 * series is checked, indexed in call-stack order and, without stored
 * statistics, summed up, side by side on the same threads. */
#include "reader_columns.h"
#include "reader_h5.h"
#include "reader_tasks.h"

#include <stdlib.h>

const series *reader_series(const scope_file *f, size_t region, size_t rank_index)
{
    return region < f->n_regions ? f->table[region * f->n_ranks + rank_index] : NULL;
}

/* Back to counted and not loaded. */
static void drop_calls(series *s)
{
    free((void *)s->pub.start_ns);
    free((void *)s->pub.end_ns);
    free((void *)s->pub.thread_ids);
    free((void *)s->pub.callsite_ids);
    free(s->order);
    s->pub = (scope_series){.count = s->has_stats ? (size_t)(s->stats.calls - s->folded) : 0};
    s->order = NULL;
    s->loaded = false;
}

void reader_free_series(series *s)
{
    if (!s)
        return;
    drop_calls(s);
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

/* Call i + 1 comes before call i in call-stack order. */
static bool out_of_order(const scope_series *p, size_t i)
{
    int64_t a = p->start_ns[i], b = p->start_ns[i + 1];
    return a > b || (a == b && p->end_ns[i] - a < p->end_ns[i + 1] - b);
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
        if (i + 1 < p->count && out_of_order(p, i))
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

/* Calls summed up a block at a time: exact integer sums, each block's
 * squared deviations from its own mean, blocks merged as call_stats_merge
 * does (as exact as a running update, without a division per call). */
#define SUM_BLOCK 1024

static void sum_calls(struct call_stats *st, const int64_t *start, const int64_t *end, size_t n)
{
    for (size_t lo = 0; lo < n; lo += SUM_BLOCK) {
        size_t hi = n - lo < SUM_BLOCK ? n : lo + SUM_BLOCK;
        struct call_stats b = {.calls = (int64_t)(hi - lo), .min_ns = INT64_MAX,
                               .first_start_ns = INT64_MAX, .last_end_ns = INT64_MIN};
        for (size_t i = lo; i < hi; i++) {
            int64_t d = end[i] - start[i];
            b.total_ns += d;
            b.min_ns = d < b.min_ns ? d : b.min_ns;
            b.max_ns = d > b.max_ns ? d : b.max_ns;
            b.first_start_ns = start[i] < b.first_start_ns ? start[i] : b.first_start_ns;
            b.last_end_ns = end[i] > b.last_end_ns ? end[i] : b.last_end_ns;
        }
        b.mean_ns = (double)b.total_ns / (double)b.calls;
        for (size_t i = lo; i < hi; i++) {
            double dev = (double)(end[i] - start[i]) - b.mean_ns;
            b.m2_ns2 += dev * dev;
        }
        call_stats_merge(st, &b);
    }
}

/* A series whose calls are being read: the columns as read, then checked. */
typedef struct reading {
    series *s;
    void *start, *end, *threads, *sites;
    size_t n_start, n_end, n_threads, n_sites;
    scope_error err;
    int rc;
} reading;

/* Opens the series' group and adds its datasets to the batch. */
static int plan_series(const scope_file *f, column_batch *b, reading *r, scope_error *err)
{
    const char *where = r->s->where;
    hid_t g = H5Gopen2(f->h5, where, H5P_DEFAULT);
    if (g < 0)
        return reader_fail(err, "%s: cannot open the group", where);
    int rc = reader_columns_add(b, g, "start_times", H5T_NATIVE_INT64, &r->start, &r->n_start,
                                where, err);
    if (rc == 0)
        rc = reader_columns_add(b, g, "end_times", H5T_NATIVE_INT64, &r->end, &r->n_end,
                                where, err);
    if (rc == 0 && r->s->has_threads)
        rc = reader_columns_add(b, g, "thread_ids", H5T_NATIVE_INT32, &r->threads,
                                &r->n_threads, where, err);
    if (rc == 0 && r->s->has_callsites)
        rc = reader_columns_add(b, g, "callsite_ids", H5T_NATIVE_INT32, &r->sites, &r->n_sites,
                                where, err);
    H5Gclose(g);
    return rc;
}

/* The columns' lengths agree with each other and with the statistics;
 * call-site ids are -1 or rows of the file's table. */
static int check_columns(const reading *r, size_t n_sites, scope_error *err)
{
    const series *s = r->s;
    if (r->n_start != r->n_end)
        return reader_fail(err, "%s: %zu start_times but %zu end_times", s->where, r->n_start,
                           r->n_end);
    if (s->has_threads && r->n_threads != r->n_start)
        return reader_fail(err, "%s: %zu start_times but %zu thread_ids", s->where, r->n_start,
                           r->n_threads);
    if (s->has_callsites && r->n_sites != r->n_start)
        return reader_fail(err, "%s: %zu start_times but %zu callsite_ids", s->where,
                           r->n_start, r->n_sites);
    if (s->has_stats && (int64_t)r->n_start != s->stats.calls - s->folded)
        return s->folded ? reader_fail(err, "%s: %zu calls but the statistics say %lld, %lld "
                                       "of them folded", s->where, r->n_start,
                                       (long long)s->stats.calls, (long long)s->folded)
                         : reader_fail(err, "%s: %zu calls but the statistics say %lld",
                                       s->where, r->n_start, (long long)s->stats.calls);
    const int32_t *id = r->sites;
    for (size_t i = 0; i < r->n_sites; i++)
        if (id[i] < -1 || id[i] >= (int64_t)n_sites)
            return reader_fail(err, "%s: call %zu: call site %d of %zu", s->where, i, id[i],
                               n_sites);
    return 0;
}

typedef struct finishing {
    reading *list;
    size_t n_sites;
} finishing;

/* The columns become the series' calls, checked and indexed; the
 * statistics are computed when the file has none. */
static void finish_series(void *ctx, size_t task, size_t thread)
{
    finishing *fin = ctx;
    reading *r = &fin->list[task];
    series *s = r->s;
    (void)thread;
    r->rc = check_columns(r, fin->n_sites, &r->err);
    s->pub = (scope_series){.count = r->n_start, .start_ns = r->start, .end_ns = r->end,
                            .thread_ids = r->threads, .callsite_ids = r->sites};
    r->start = r->end = r->threads = r->sites = NULL; /* now the series' */
    if (r->rc == 0)
        r->rc = index_series(s, &r->err);
    if (r->rc == 0 && !s->has_stats)
        sum_calls(&s->stats, s->pub.start_ns, s->pub.end_ns, s->pub.count);
    if (r->rc < 0) {
        drop_calls(s);
        return;
    }
    s->has_stats = true;
    s->loaded = true;
}

static void free_readings(reading *list, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(list[i].start);
        free(list[i].end);
        free(list[i].threads);
        free(list[i].sites);
    }
    free(list);
}

/* reader_load_list with the file's lock held. */
static int load_locked(const scope_file *f, series *const *want, size_t n, scope_error *err)
{
    reading *list = calloc(n ? n : 1, sizeof *list);
    column_batch *b = reader_columns_new();
    size_t k = 0;
    int rc = list && b ? 0 : reader_fail(err, "out of memory");
    for (size_t i = 0; rc == 0 && i < n; i++)
        if (want[i] && !want[i]->loaded) {
            list[k].s = want[i];
            rc = plan_series(f, b, &list[k++], err);
        }
    if (rc == 0)
        rc = reader_columns_run(b, 0, err);
    else
        reader_columns_free(b);
    if (rc == 0) {
        finishing fin = {list, f->n_sites};
        reader_run_tasks(k, reader_task_threads(k, 0), finish_series, &fin);
        for (size_t i = 0; rc == 0 && i < k; i++)
            if (list[i].rc < 0)
                rc = reader_fail(err, "%s", list[i].err.message);
    }
    free_readings(list, k);
    return rc;
}

int reader_load_list(const scope_file *f, series *const *want, size_t n, scope_error *err)
{
    for (size_t i = 0; f->is_profile && i < n; i++)
        if (want[i] && want[i]->pub.count > 0)
            return reader_fail(err, "a profile (mode = profile): it holds each region's "
                               "statistics and call paths, not the calls this needs (record "
                               "with mode = trace)");
    h5_quiet q = reader_hold(f);
    int rc = load_locked(f, want, n, err);
    reader_release(f, q);
    return rc;
}

int reader_load_series(const scope_file *f, const series *s, scope_error *err)
{
    series *one = (series *)s; /* logically const: the file's calls, read late */
    return !s || s->loaded ? 0 : reader_load_list(f, &one, 1, err);
}

int reader_load_ranks(const scope_file *f, const bool *rank_keep, scope_error *err)
{
    series **want = malloc((f->n_regions * f->n_ranks + 1) * sizeof *want);
    if (!want)
        return reader_fail(err, "out of memory");
    size_t n = 0;
    for (size_t ri = 0; ri < f->n_ranks; ri++)
        for (size_t r = 0; (!rank_keep || rank_keep[ri]) && r < f->n_regions; r++) {
            series *s = (series *)reader_series(f, r, ri);
            if (s && !s->loaded)
                want[n++] = s;
        }
    int rc = n ? reader_load_list(f, want, n, err) : 0;
    free(want);
    return rc;
}

int reader_load_rank(const scope_file *f, size_t rank_index, scope_error *err)
{
    for (size_t r = 0; r < f->n_regions; r++) {
        const series *s = reader_series(f, r, rank_index);
        if (s && !s->loaded) { /* something to read: the whole rank at once */
            bool *keep = calloc(f->n_ranks, sizeof *keep);
            if (!keep)
                return reader_fail(err, "out of memory");
            keep[rank_index] = true;
            int rc = reader_load_ranks(f, keep, err);
            free(keep);
            return rc;
        }
    }
    return 0;
}
