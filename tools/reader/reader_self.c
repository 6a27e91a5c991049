/* Self time per region and rank: the writer's (self_ns), else computed from
 * the rank's call stack (reader_walk_rank) the first time it is asked for
 * and kept in the rank's series; the ranks that need it are read in one
 * batch and walked side by side on a few threads. */
#include "reader_internal.h"
#include "reader_tasks.h"

#include <stdlib.h>

static void add_self(void *ctx, const walk_call *c)
{
    int64_t *self = ctx;
    int64_t dur = c->end_ns - c->start_ns;
    self[c->region] += dur;
    if (c->parent >= 0)
        self[c->parent_region] -= dur;
}

/* A rank lacks self times when one of its series does; then all of them
 * come from its calls (the writer's, when some are stored, follow the same
 * nesting rule). */
static bool rank_lacks_self(const scope_file *f, size_t ri)
{
    for (size_t r = 0; r < f->n_regions; r++) {
        const series *s = reader_series(f, r, ri);
        if (s && !s->has_self)
            return true;
    }
    return false;
}

typedef struct walking {
    const scope_file *f;
    size_t *ranks;     /* rank indices to walk */
    int64_t *self;     /* [i * n_regions + region] */
    scope_error *errs;
    int *rc;
} walking;

static void walk_one(void *ctx, size_t task, size_t thread)
{
    walking *w = ctx;
    (void)thread;
    w->rc[task] = reader_walk_rank(w->f, w->ranks[task], add_self,
                                   w->self + task * w->f->n_regions, &w->errs[task]);
}

/* With the self lock held: computes and keeps the self times of the ranks
 * selected that lack them. */
static int compute_missing(const scope_file *f, const bool *rank_keep, scope_error *err)
{
    size_t nr = f->n_regions, n = 0;
    bool *need = calloc(f->n_ranks + 1, sizeof *need);
    walking w = {.f = f, .ranks = malloc((f->n_ranks + 1) * sizeof *w.ranks)};
    int rc = need && w.ranks ? 0 : reader_fail(err, "out of memory");
    for (size_t ri = 0; rc == 0 && ri < f->n_ranks; ri++)
        if ((need[ri] = rank_keep[ri] && rank_lacks_self(f, ri)))
            w.ranks[n++] = ri;
    if (rc == 0 && n > 0) {
        w.self = calloc(n * nr + 1, sizeof *w.self);
        w.errs = calloc(n, sizeof *w.errs);
        w.rc = calloc(n, sizeof *w.rc);
        rc = w.self && w.errs && w.rc ? reader_load_ranks(f, need, err)
                                      : reader_fail(err, "out of memory");
    }
    if (rc == 0 && n > 0)
        reader_run_tasks(n, reader_task_threads(n, 0), walk_one, &w);
    for (size_t i = 0; rc == 0 && i < n; i++)
        if (w.rc[i] < 0)
            rc = reader_fail(err, "%s", w.errs[i].message);
    for (size_t i = 0; rc == 0 && i < n; i++)
        for (size_t r = 0; r < nr; r++) {
            series *s = (series *)reader_series(f, r, w.ranks[i]); /* kept: logically const */
            if (s) {
                s->self_ns = w.self[i * nr + r];
                s->has_self = true;
            }
        }
    free(need);
    free(w.ranks);
    free(w.self);
    free(w.errs);
    free(w.rc);
    return rc;
}

int reader_keep_self_times(const scope_file *f, const bool *rank_keep, scope_error *err)
{
    pthread_mutex_t *lock = (pthread_mutex_t *)&f->self_lock; /* the file's, logically const */
    pthread_mutex_lock(lock);
    int rc = compute_missing(f, rank_keep, err);
    pthread_mutex_unlock(lock);
    return rc;
}

int scope_self_times_ns(const scope_file *f, int rank, int64_t *self_ns, scope_error *err)
{
    long ri = reader_rank_index(f, rank);
    if (ri < 0)
        return reader_fail(err, "unknown rank %d", rank);
    bool *keep = calloc(f->n_ranks, sizeof *keep);
    if (!keep)
        return reader_fail(err, "out of memory");
    keep[ri] = true;
    pthread_mutex_t *lock = (pthread_mutex_t *)&f->self_lock;
    pthread_mutex_lock(lock);
    int rc = compute_missing(f, keep, err);
    for (size_t r = 0; rc == 0 && r < f->n_regions; r++) {
        const series *s = reader_series(f, r, (size_t)ri);
        self_ns[r] = s ? s->self_ns : 0;
    }
    pthread_mutex_unlock(lock);
    free(keep);
    return rc;
}
