/* scope_callsites(): per region, its calls grouped by call site over the
 * filter's ranks: count, total, mean, share of the region, the ranks
 * that spent the most time at each site, and the bytes of its calls when
 * the region carries MPI payload (min, mean, max, total); of a profile,
 * from the call sites of its stored paths. One region at a time: a slot per
 * site the region uses (found through a table indexed by site), per-rank
 * totals summed into the slots rank by rank. */
#include "grow_array.h"
#include "reader_internal.h"

#include <stdlib.h>
#include <string.h>

typedef struct site_acc {
    long callsite;
    size_t calls, ranks, rank_calls;
    int64_t total_ns, rank_ns;    /* rank_*: of the rank being read */
    int slowest[SCOPE_SLOWEST_RANKS];
    int64_t slowest_ns[SCOPE_SLOWEST_RANKS];
    size_t n_slowest;
    bool has_bytes;               /* the region carries payload */
    int64_t min_bytes, max_bytes;
    uint64_t total_bytes;
} site_acc;

typedef struct region_sites {
    long *slot_of;        /* [site + 1] -> slot, -1 when unused */
    site_acc *acc;
    size_t n, cap;
} region_sites;

static site_acc *slot(region_sites *rs, long site)
{
    long *k = &rs->slot_of[site + 1];
    if (*k >= 0)
        return &rs->acc[*k];
    if (scope_grow_array((void **)&rs->acc, &rs->cap, rs->n + 1, sizeof *rs->acc) != 0)
        return NULL;
    *k = (long)rs->n;
    rs->acc[rs->n] = (site_acc){.callsite = site};
    return &rs->acc[rs->n++];
}

/* The rank's calls at the site count; its time goes among the slowest,
 * kept in order. */
static void rank_done(site_acc *a, int rank)
{
    a->ranks++;
    size_t i = a->n_slowest < SCOPE_SLOWEST_RANKS ? a->n_slowest++ : SCOPE_SLOWEST_RANKS;
    while (i > 0 && a->slowest_ns[i - 1] < a->rank_ns) {
        if (i < SCOPE_SLOWEST_RANKS) {
            a->slowest[i] = a->slowest[i - 1];
            a->slowest_ns[i] = a->slowest_ns[i - 1];
        }
        i--;
    }
    if (i < SCOPE_SLOWEST_RANKS) {
        a->slowest[i] = rank;
        a->slowest_ns[i] = a->rank_ns;
    }
    a->total_ns += a->rank_ns;
    a->rank_ns = 0;
    a->rank_calls = 0;
}

/* One call's bytes into its site's message sizes. */
static void add_bytes(site_acc *a, int64_t bytes)
{
    a->min_bytes = !a->has_bytes || bytes < a->min_bytes ? bytes : a->min_bytes;
    a->max_bytes = !a->has_bytes || bytes > a->max_bytes ? bytes : a->max_bytes;
    a->total_bytes += (uint64_t)bytes;
    a->has_bytes = true;
}

/* `calls` calls at `site` taking ns in all, of the rank being read; NULL
 * when out of memory. */
static site_acc *add_calls(region_sites *rs, long site, size_t calls, int64_t ns)
{
    site_acc *a = slot(rs, site);
    if (a) {
        a->calls += calls;
        a->rank_calls += calls;
        a->rank_ns += ns;
    }
    return a;
}

static void ranks_done(region_sites *rs, int rank)
{
    for (size_t k = 0; k < rs->n; k++)
        if (rs->acc[k].rank_calls > 0)
            rank_done(&rs->acc[k], rank);
}

/* Adds one rank's calls of a region (with their payload, or NULL). */
static int add_rank(region_sites *rs, const scope_series *p, const scope_payload *payload,
                    int rank, scope_error *err)
{
    for (size_t i = 0; i < p->count; i++) {
        site_acc *a = add_calls(rs, p->callsite_ids[i], 1, p->end_ns[i] - p->start_ns[i]);
        if (!a)
            return reader_fail(err, "out of memory");
        if (payload)
            add_bytes(a, payload->bytes[i]);
    }
    ranks_done(rs, rank);
    return 0;
}

/* A profile's rank: the calls of region r's paths, at their sites, when
 * some path of r has one (calls on no path are not counted: their call
 * sites are unknown). */
static int add_profile_rank(region_sites *rs, const profile_path *paths, size_t n, size_t r,
                            int rank, scope_error *err)
{
    bool any = false;
    for (size_t i = 0; !any && i < n; i++)
        any = paths[i].region == r && paths[i].callsite >= 0;
    for (size_t i = 0; any && i < n; i++)
        if (paths[i].region == r &&
            !add_calls(rs, paths[i].callsite, (size_t)paths[i].calls, paths[i].total_ns))
            return reader_fail(err, "out of memory");
    ranks_done(rs, rank);
    return 0;
}

/* A profile's paths of every rank rank_keep selects (the others: none);
 * the caller frees them with free_rank_paths. */
static int read_rank_paths(const scope_file *f, const bool *rank_keep, profile_path ***paths,
                           size_t **n, scope_error *err)
{
    *paths = calloc(f->n_ranks + 1, sizeof **paths);
    *n = calloc(f->n_ranks + 1, sizeof **n);
    if (!*paths || !*n)
        return reader_fail(err, "out of memory");
    for (size_t ri = 0; ri < f->n_ranks; ri++)
        if (rank_keep[ri] && reader_profile_paths(f, ri, &(*paths)[ri], &(*n)[ri], err) != 0)
            return -1;
    return 0;
}

static void free_rank_paths(const scope_file *f, profile_path **paths, size_t *n)
{
    for (size_t ri = 0; paths && ri < f->n_ranks; ri++)
        free(paths[ri]);
    free(paths);
    free(n);
}

static int by_total(const void *a, const void *b)
{
    const scope_callsite_stats *x = a, *y = b;
    if (x->total != y->total)
        return x->total > y->total ? -1 : 1;
    return x->callsite < y->callsite ? -1 : x->callsite > y->callsite;
}

/* Appends the region's sites to *out, largest total first. */
static int emit(region_sites *rs, size_t region, scope_callsite_stats **out, size_t *n,
                size_t *cap, scope_error *err)
{
    int64_t region_ns = 0;
    for (size_t k = 0; k < rs->n; k++)
        region_ns += rs->acc[k].total_ns;
    if (scope_grow_array((void **)out, cap, *n + rs->n, sizeof **out) != 0)
        return reader_fail(err, "out of memory");
    scope_callsite_stats *first = *out + *n;
    for (size_t k = 0; k < rs->n; k++) {
        const site_acc *a = &rs->acc[k];
        scope_callsite_stats *s = &first[k];
        *s = (scope_callsite_stats){
            .region = region, .callsite = a->callsite, .calls = a->calls,
            .total = reader_seconds(a->total_ns),
            .mean = a->calls ? reader_seconds(a->total_ns) / (double)a->calls : 0,
            .share = region_ns ? (double)a->total_ns / (double)region_ns : 0,
            .ranks = a->ranks, .n_slowest = a->n_slowest,
            .has_bytes = a->has_bytes, .min_bytes = a->min_bytes, .max_bytes = a->max_bytes,
            .total_bytes = a->total_bytes,
            .mean_bytes = a->calls ? (double)a->total_bytes / (double)a->calls : 0,
        };
        for (size_t i = 0; i < a->n_slowest; i++) {
            s->slowest_ranks[i] = a->slowest[i];
            s->slowest_totals[i] = reader_seconds(a->slowest_ns[i]);
        }
        rs->slot_of[a->callsite + 1] = -1;
    }
    qsort(first, rs->n, sizeof *first, by_total);
    *n += rs->n;
    rs->n = 0;
    return 0;
}

scope_callsite_stats *scope_callsites(const scope_file *f, const scope_filter *flt,
                                      size_t *count, scope_error *err)
{
    size_t nr = f->n_regions, np = f->n_ranks, n = 0, cap = 0;
    reader_selection sel;
    region_sites rs = {.slot_of = malloc((f->n_sites + 1) * sizeof(long))};
    scope_callsite_stats *out = malloc(sizeof *out);
    int rc = reader_select(f, flt, &sel, err);
    if (rc == 0 && (!rs.slot_of || !out))
        rc = reader_fail(err, "out of memory");
    const bool *keep = sel.keep, *rank_keep = sel.rank_keep;
    for (size_t i = 0; rc == 0 && i <= f->n_sites; i++)
        rs.slot_of[i] = -1;
    profile_path **paths = NULL;   /* a profile's, per rank */
    size_t *npaths = NULL;
    if (rc == 0 && f->is_profile)
        rc = read_rank_paths(f, rank_keep, &paths, &npaths, err);
    else if (rc == 0)
        rc = reader_load_payload(f, keep, rank_keep, PAYLOAD_CALLS, err);
    for (size_t r = 0; rc == 0 && r < nr; r++) {
        for (size_t ri = 0; keep[r] && rc == 0 && ri < np; ri++) {
            const series *s = rank_keep[ri] ? reader_series(f, r, ri) : NULL;
            if (s && paths)
                rc = add_profile_rank(&rs, paths[ri], npaths[ri], r, f->ranks[ri], err);
            if (!s || paths || !s->has_callsites)
                continue;
            rc = reader_load_series(f, s, err);
            if (rc == 0)
                rc = add_rank(&rs, &s->pub, s->family ? reader_payload_of(s) : NULL, f->ranks[ri], err);
        }
        if (rc == 0)
            rc = emit(&rs, r, &out, &n, &cap, err);
    }
    free_rank_paths(f, paths, npaths);
    free(rs.slot_of);
    free(rs.acc);
    reader_selection_free(&sel);
    return reader_rows(out, n, rc, count);
}
