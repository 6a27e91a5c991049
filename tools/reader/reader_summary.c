/* Aggregates over ranks: per-region statistics (count, total, mean, sample
 * std, min, max, self time, share of the run, bytes of MPI payload) and
 * load imbalance. */
#include "reader_internal.h"

#include <math.h>
#include <stdlib.h>

int scope_region_imbalance(const scope_file *f, size_t region, const scope_filter *flt,
                           scope_imbalance *out, scope_error *err)
{
    if (region >= f->n_regions)
        return reader_fail(err, "no region %zu", region);
    bool *rank_keep = calloc(f->n_ranks, sizeof *rank_keep);
    if (!rank_keep)
        return reader_fail(err, "out of memory");
    int rc = reader_apply_filter(f, flt, NULL, rank_keep, err);
    scope_imbalance im = {0};
    double sum = 0;
    for (size_t ri = 0; rc == 0 && ri < f->n_ranks; ri++) {
        if (!rank_keep[ri] || !reader_series(f, region, ri))
            continue;
        double t = scope_region_total(f, region, f->ranks[ri]);
        if (im.ranks == 0 || t < im.min) {
            im.min = t;
            im.min_rank = f->ranks[ri];
        }
        if (im.ranks == 0 || t > im.max) {
            im.max = t;
            im.max_rank = f->ranks[ri];
        }
        sum += t;
        im.ranks++;
    }
    free(rank_keep);
    if (rc == 0 && im.ranks == 0)
        rc = reader_fail(err, "region '%s' was not recorded on the selected ranks",
                         f->names[region]);
    if (rc < 0)
        return rc;
    im.mean = sum / (double)im.ranks;
    im.max_over_min = im.min > 0 ? im.max / im.min : (im.max > 0 ? INFINITY : NAN);
    im.max_over_mean = im.mean > 0 ? im.max / im.mean : NAN;
    *out = im;
    return 0;
}

/* The bytes a region with payload moved over the selected ranks (its
 * payload read already): its rows', and those of its calls not stored as
 * rows (a profile's, folded calls), from its peer totals: a
 * point-to-point call's are its messages', any other's its own. */
static int region_bytes(const scope_file *f, size_t region, const bool *rank_keep,
                        scope_region_stats *st, scope_error *err)
{
    for (size_t ri = 0; ri < f->n_ranks; ri++) {
        const series *s = rank_keep[ri] ? reader_series(f, region, ri) : NULL;
        reader_call_totals beyond;
        if (!s || s->declared == SCOPE_PAYLOAD_NONE)
            continue;
        if (reader_region_call_totals(f, region, ri, &beyond, err) < 0)
            return -1;
        st->has_bytes = true;
        const scope_payload *p = reader_payload_of(s);
        for (size_t i = 0; i < p->count; i++)
            st->bytes += (uint64_t)p->bytes[i];
        st->bytes += beyond.bytes + (s->declared == SCOPE_PAYLOAD_P2P ? beyond.peer_bytes : 0);
    }
    st->mean_bytes = st->calls ? (double)st->bytes / (double)st->calls : NAN;
    return 0;
}

/* The region's statistics over the selected ranks. */
static void region_stats(const scope_file *f, size_t region, const bool *rank_keep,
                         scope_region_stats *st)
{
    struct call_stats all = {0};
    for (size_t ri = 0; ri < f->n_ranks; ri++) {
        const series *s = rank_keep[ri] ? reader_series(f, region, ri) : NULL;
        if (s)
            call_stats_merge(&all, &s->stats);
    }
    int64_t n = all.calls;
    st->calls = (size_t)n;
    st->total = reader_seconds(all.total_ns);
    st->mean = n ? (double)all.total_ns / (double)n / 1e9 : NAN;
    st->std = n > 1 ? sqrt(all.m2_ns2 / (double)(n - 1)) / 1e9 : NAN;
    st->min = n ? reader_seconds(all.min_ns) : NAN;
    st->max = n ? reader_seconds(all.max_ns) : NAN;
}

scope_region_stats *scope_summary(const scope_file *f, const scope_filter *flt, size_t *count,
                                  scope_error *err)
{
    size_t nr = f->n_regions;
    reader_selection sel;
    int64_t *self = calloc(nr + 1, sizeof *self), *rank_self = calloc(nr + 1, sizeof *self);
    scope_region_stats *out = calloc(nr + 1, sizeof *out);
    int rc = reader_select(f, flt, &sel, err);
    if (rc == 0 && (!self || !rank_self || !out))
        rc = reader_fail(err, "out of memory");
    const bool *keep = sel.keep, *rank_keep = sel.rank_keep;
    if (rc == 0)
        rc = reader_keep_self_times(f, rank_keep, err);
    if (rc == 0)
        rc = reader_load_payload(f, keep, rank_keep, PAYLOAD_CALLS, err);
    size_t selected_ranks = 0;
    for (size_t ri = 0; rc == 0 && ri < f->n_ranks; ri++) {
        if (!rank_keep[ri])
            continue;
        selected_ranks++;
        rc = scope_self_times_ns(f, f->ranks[ri], rank_self, err);
        for (size_t r = 0; rc == 0 && r < nr; r++)
            self[r] += rank_self[r];
    }
    size_t n = 0;
    double span = scope_time_span(f);
    for (size_t r = 0; rc == 0 && r < nr; r++) {
        if (!keep[r])
            continue;
        scope_region_stats *st = &out[n++];
        st->region = r;
        region_stats(f, r, rank_keep, st);
        st->self = reader_seconds(self[r]);
        st->rank_mean = selected_ranks ? st->total / (double)selected_ranks : NAN;
        st->share = span > 0 ? st->rank_mean / span : NAN;
        rc = region_bytes(f, r, rank_keep, st, err);
    }
    reader_selection_free(&sel);
    free(self);
    free(rank_self);
    return reader_rows(out, n, rc, count);
}
