/* Private types and helpers shared by the libscope-reader source files. */
#ifndef SCOPE_READER_INTERNAL_H
#define SCOPE_READER_INTERNAL_H

#include "scope_reader.h"

#include <stdarg.h>

/* One region on one rank, as loaded. */
typedef struct series {
    scope_series pub;
    /* Stored order is by (start asc, duration desc) unless sorted == false;
     * then order[] is that permutation of 0..count-1. */
    bool sorted;
    size_t *order;
} series;

struct scope_file {
    char *path;
    scope_meta *meta;
    size_t n_meta;

    int *ranks;       /* ascending rank ids */
    size_t n_ranks;

    char **names;     /* region names, in region order */
    size_t n_regions;
    series **table;   /* [region * n_ranks + rank_index], NULL = not recorded */

    size_t n_events;
    bool has_threads;
    bool has_run_start;
    int64_t run_start_ns, min_start_ns, max_end_ns;
};

/* Write a message into err (when not NULL); always returns -1. */
int reader_fail(scope_error *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Index of a rank id in f->ranks, -1 when absent. */
long reader_rank_index(const scope_file *f, int rank);
const series *reader_series(const scope_file *f, size_t region, size_t rank_index);

/* Evaluate a filter (NULL = everything): keep[r] for every region and
 * rank_keep[ri] for every rank index; either may be NULL when not wanted.
 * -1 on a bad regex or an unknown rank. */
int reader_apply_filter(const scope_file *f, const scope_filter *flt, bool *keep,
                        bool *rank_keep, scope_error *err);

/* Walk one rank's calls in call-stack order. */
typedef struct walk_call {
    size_t id;          /* index in the call stack */
    long parent;        /* parent's id or -1 */
    size_t parent_region;
    int depth;
    size_t region;
    size_t call_index;
    int thread_id;
    int64_t start_ns, end_ns;
} walk_call;

typedef void (*walk_fn)(void *ctx, const walk_call *call);
int reader_walk_rank(const scope_file *f, size_t rank_index, walk_fn fn, void *ctx,
                     scope_error *err);

/* Number of calls one rank recorded over all regions. */
size_t reader_rank_calls(const scope_file *f, size_t rank_index);

double reader_seconds(int64_t ns);

#endif
