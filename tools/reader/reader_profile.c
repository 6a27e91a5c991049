/* reader_profile.c: what a profile stores beside its statistics
 * (README.md, "File format"): the call paths of one rank (callpath_parents
 * and each region's path_* datasets), checked as they are read: every path
 * listed by one region, its parent an earlier path, its call site (when
 * the region has path_sites) a row of the call-site table; and a region's
 * duration_histogram, whose bins add up to its calls. */
#include "reader_h5.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Region r's paths on rank index ri into paths[]. */
static int read_region_paths(const scope_file *f, size_t r, const series *s, profile_path *paths,
                             size_t npaths, scope_error *err)
{
    hid_t g = H5Gopen2(f->h5, s->where, H5P_DEFAULT);
    if (g < 0)
        return reader_fail(err, "%s: cannot open the group", s->where);
    int32_t *ids = NULL, *sites = NULL;
    int64_t *columns[3] = {NULL, NULL, NULL};
    static const char *const names[3] = {"path_calls", "path_total_ns", "path_self_ns"};
    size_t n = SIZE_MAX;
    int rc = h5_read_vector(g, "path_ids", H5T_NATIVE_INT32, sizeof *ids, (void **)&ids, &n,
                         s->where, err);
    for (int c = 0; rc == 0 && c < 3; c++)
        rc = h5_read_vector(g, names[c], H5T_NATIVE_INT64, sizeof(int64_t), (void **)&columns[c], &n,
                         s->where, err);
    if (rc == 0 && h5_has_link(g, "path_sites"))
        rc = h5_read_vector(g, "path_sites", H5T_NATIVE_INT32, sizeof *sites, (void **)&sites, &n,
                            s->where, err);
    for (size_t i = 0; rc == 0 && i < n; i++) {
        long site = sites ? sites[i] : -1;
        if (ids[i] < 0 || (size_t)ids[i] >= npaths || paths[ids[i]].region != SIZE_MAX)
            rc = reader_fail(err, "%s: path id %d unknown or listed twice", s->where, ids[i]);
        else if (site < -1 || site >= (long)f->n_sites)
            rc = reader_fail(err, "%s: path_sites[%zu] = %ld is no call site", s->where, i, site);
        else
            paths[ids[i]] = (profile_path){paths[ids[i]].parent, r, columns[0][i], columns[1][i],
                                           columns[2][i], site};
    }
    free(ids);
    free(sites);
    for (int c = 0; c < 3; c++)
        free(columns[c]);
    H5Gclose(g);
    return rc;
}

static int read_paths(const scope_file *f, size_t ri, profile_path **out, size_t *count,
                      scope_error *err)
{
    char where[32];
    snprintf(where, sizeof where, "rank%d", f->ranks[ri]);
    hid_t rank = H5Gopen2(f->h5, where, H5P_DEFAULT);
    if (rank < 0)
        return reader_fail(err, "%s: cannot open the group", where);
    int32_t *parents = NULL;
    size_t n = SIZE_MAX;
    int rc = h5_read_vector(rank, "callpath_parents", H5T_NATIVE_INT32, sizeof *parents,
                         (void **)&parents, &n, where, err);
    H5Gclose(rank);
    profile_path *paths = rc == 0 ? malloc((n ? n : 1) * sizeof *paths) : NULL;
    if (rc == 0 && !paths)
        rc = reader_fail(err, "out of memory");
    for (size_t i = 0; rc == 0 && i < n; i++) {
        if (parents[i] < -1 || parents[i] >= (int64_t)i)
            rc = reader_fail(err, "%s: callpath_parents[%zu] is not an earlier path", where, i);
        paths[i] = (profile_path){.parent = parents[i], .region = SIZE_MAX};
    }
    for (size_t r = 0; rc == 0 && r < f->n_regions; r++) {
        const series *s = f->table[r * f->n_ranks + ri];
        if (s)
            rc = read_region_paths(f, r, s, paths, n, err);
    }
    for (size_t i = 0; rc == 0 && i < n; i++)
        if (paths[i].region == SIZE_MAX)
            rc = reader_fail(err, "%s: call path %zu is listed by no region", where, i);
    free(parents);
    if (rc != 0) {
        free(paths);
        return -1;
    }
    *out = paths;
    *count = n;
    return 0;
}

static int read_histogram(const scope_file *f, const series *s, int64_t *out, scope_error *err)
{
    hid_t g = H5Gopen2(f->h5, s->where, H5P_DEFAULT);
    if (g < 0)
        return reader_fail(err, "%s: cannot open the group", s->where);
    int64_t *bins = NULL;
    size_t n = SCOPE_DURATION_BINS;
    int rc = h5_read_vector(g, "duration_histogram", H5T_NATIVE_INT64, sizeof *bins, (void **)&bins,
                         &n, s->where, err);
    H5Gclose(g);
    int64_t calls = 0;
    for (size_t i = 0; rc == 0 && i < n; i++) {
        if (bins[i] < 0 || bins[i] > s->stats.calls - calls)
            rc = reader_fail(err, "%s: duration_histogram holds more calls than the region",
                             s->where);
        else
            calls += out[i] = bins[i];
    }
    if (rc == 0 && calls != s->stats.calls)
        rc = reader_fail(err, "%s: duration_histogram holds %lld calls, the region %lld",
                         s->where, (long long)calls, (long long)s->stats.calls);
    free(bins);
    return rc;
}

int scope_region_duration_histogram(const scope_file *f, size_t region, int rank,
                                    int64_t out[SCOPE_DURATION_BINS], scope_error *err)
{
    memset(out, 0, SCOPE_DURATION_BINS * sizeof *out);
    if (!f->is_profile)
        return reader_fail(err, "%s is not a profile: it stores no duration histograms",
                           f->path);
    long ri = reader_rank_index(f, rank);
    const series *s = ri >= 0 ? reader_series(f, region, (size_t)ri) : NULL;
    if (!s)
        return 0;
    h5_quiet q = reader_hold(f);
    int rc = read_histogram(f, s, out, err);
    reader_release(f, q);
    return rc;
}

int reader_profile_paths(const scope_file *f, size_t ri, profile_path **paths, size_t *n,
                         scope_error *err)
{
    h5_quiet q = reader_hold(f);
    int rc = read_paths(f, ri, paths, n, err);
    reader_release(f, q);
    return rc;
}
