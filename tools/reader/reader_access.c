/* Accessors of a loaded file: metadata, ranks, regions, per-rank arrays and
 * totals, and the run's time landmarks. */
#include "reader_internal.h"

#include <math.h>
#include <string.h>

double reader_seconds(int64_t ns)
{
    return (double)ns / 1e9;
}

long reader_rank_index(const scope_file *f, int rank)
{
    size_t lo = 0, hi = f->n_ranks;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (f->ranks[mid] == rank)
            return (long)mid;
        if (f->ranks[mid] < rank)
            lo = mid + 1;
        else
            hi = mid;
    }
    return -1;
}

const char *scope_file_path(const scope_file *f) { return f->path; }
size_t scope_metadata_count(const scope_file *f) { return f->n_meta; }
size_t scope_rank_count(const scope_file *f) { return f->n_ranks; }
size_t scope_region_count(const scope_file *f) { return f->n_regions; }
size_t scope_event_count(const scope_file *f) { return f->n_events; }
bool scope_has_thread_ids(const scope_file *f) { return f->has_threads; }
bool scope_is_profile(const scope_file *f) { return f->is_profile; }

const scope_meta *scope_metadata(const scope_file *f, size_t i)
{
    return i < f->n_meta ? &f->meta[i] : NULL;
}

const scope_meta *scope_metadata_find(const scope_file *f, const char *key)
{
    for (size_t i = 0; i < f->n_meta; i++)
        if (strcmp(f->meta[i].key, key) == 0)
            return &f->meta[i];
    return NULL;
}

int scope_rank_id(const scope_file *f, size_t i)
{
    return i < f->n_ranks ? f->ranks[i] : -1;
}

uint64_t scope_rank_dropped(const scope_file *f, size_t i)
{
    return i < f->n_ranks ? f->dropped[i] : 0;
}

uint64_t scope_rank_unfinished(const scope_file *f, size_t i)
{
    return i < f->n_ranks ? f->unfinished[i] : 0;
}

bool scope_has_rank(const scope_file *f, int rank)
{
    return reader_rank_index(f, rank) >= 0;
}

const char *scope_region_name(const scope_file *f, size_t region)
{
    return region < f->n_regions ? f->names[region] : NULL;
}

long scope_region_find(const scope_file *f, const char *name)
{
    for (size_t r = 0; r < f->n_regions; r++)
        if (strcmp(f->names[r], name) == 0)
            return (long)r;
    return -1;
}

/* The series of a region on a rank without loading its calls. */
static const series *series_of(const scope_file *f, size_t region, int rank)
{
    long ri = reader_rank_index(f, rank);
    return ri < 0 ? NULL : reader_series(f, region, (size_t)ri);
}

const scope_series *scope_region_on_rank(const scope_file *f, size_t region, int rank)
{
    const series *s = series_of(f, region, rank);
    /* unreadable calls (a damaged chunk) read as not recorded here; the
     * functions that report errors name them */
    return s && reader_load_series(f, s, NULL) == 0 ? &s->pub : NULL;
}

bool scope_region_recorded(const scope_file *f, size_t region, int rank)
{
    return series_of(f, region, rank) != NULL;
}

size_t scope_region_calls(const scope_file *f, size_t region, int rank)
{
    const series *s = series_of(f, region, rank);
    return s ? s->pub.count : 0;
}

size_t scope_region_counted_calls(const scope_file *f, size_t region, int rank)
{
    const series *s = series_of(f, region, rank);
    return s ? s->pub.count + (size_t)s->folded : 0;
}

void scope_region_durations_ns(const scope_file *f, size_t region, int rank, int64_t *out)
{
    const scope_series *s = scope_region_on_rank(f, region, rank);
    for (size_t i = 0; s && i < s->count; i++)
        out[i] = s->end_ns[i] - s->start_ns[i];
}

void scope_region_durations(const scope_file *f, size_t region, int rank, double *out)
{
    const scope_series *s = scope_region_on_rank(f, region, rank);
    for (size_t i = 0; s && i < s->count; i++)
        out[i] = reader_seconds(s->end_ns[i] - s->start_ns[i]);
}

int64_t scope_region_total_ns(const scope_file *f, size_t region, int rank)
{
    const series *s = series_of(f, region, rank);
    return s ? s->stats.total_ns : 0;
}

double scope_region_total(const scope_file *f, size_t region, int rank)
{
    return reader_seconds(scope_region_total_ns(f, region, rank));
}

size_t scope_region_total_durations(const scope_file *f, size_t region, int *ranks,
                                    double *totals)
{
    size_t n = 0;
    for (size_t ri = 0; ri < f->n_ranks; ri++) {
        if (!reader_series(f, region, ri))
            continue;
        ranks[n] = f->ranks[ri];
        totals[n++] = scope_region_total(f, region, f->ranks[ri]);
    }
    return n;
}

bool scope_has_run_start_time(const scope_file *f) { return f->has_run_start; }
int64_t scope_run_start_time_ns(const scope_file *f) { return f->has_run_start ? f->run_start_ns : 0; }
int64_t scope_minimum_start_time_ns(const scope_file *f) { return f->min_start_ns; }
int64_t scope_maximum_end_time_ns(const scope_file *f) { return f->max_end_ns; }
double scope_minimum_start_time(const scope_file *f) { return reader_seconds(f->min_start_ns); }
double scope_maximum_end_time(const scope_file *f) { return reader_seconds(f->max_end_ns); }

double scope_run_start_time(const scope_file *f)
{
    return f->has_run_start ? reader_seconds(f->run_start_ns) : NAN;
}

double scope_time_span(const scope_file *f)
{
    return reader_seconds(f->max_end_ns - f->min_start_ns);
}

bool scope_times_known(const scope_file *f) { return !f->times_partial; }
size_t scope_missing_rank_count(const scope_file *f) { return f->n_missing; }

int scope_missing_rank(const scope_file *f, size_t i, const char **file, const char **why)
{
    *file = f->missing[i].file;
    *why = f->missing[i].why;
    return f->missing[i].rank;
}

double scope_startup_time(const scope_file *f)
{
    return f->has_run_start ? reader_seconds(f->min_start_ns - f->run_start_ns) : NAN;
}

int64_t scope_time_origin_ns(const scope_file *f)
{
    return f->has_run_start ? f->run_start_ns : f->min_start_ns;
}

double scope_time_origin(const scope_file *f)
{
    return reader_seconds(scope_time_origin_ns(f));
}
