/* events(): one entry per call in region -> rank -> call order, with
 * call_id/parent_id from the rank's call stack. */
#include "reader_internal.h"

#include <stdlib.h>

typedef struct events_ctx {
    const scope_file *f;
    const bool *keep;
    const size_t *block;  /* [region] -> first output index for this rank */
    scope_event *out;
    int rank;
    int64_t origin;
} events_ctx;

static void add_event(void *ctx, const walk_call *c)
{
    events_ctx *ec = ctx;
    if (!ec->keep[c->region])
        return;
    ec->out[ec->block[c->region] + c->call_index] = (scope_event){
        .name = ec->f->names[c->region], .region = c->region, .rank = ec->rank,
        .thread_id = c->thread_id, .call_index = c->call_index,
        .start = reader_seconds(c->start_ns - ec->origin),
        .end = reader_seconds(c->end_ns - ec->origin),
        .duration = reader_seconds(c->end_ns - c->start_ns),
        .start_ns = c->start_ns, .end_ns = c->end_ns,
        .call_id = (long)c->id, .parent_id = c->parent,
    };
}

scope_event *scope_events(const scope_file *f, const scope_filter *flt, size_t *count,
                          scope_error *err)
{
    size_t nr = f->n_regions, np = f->n_ranks;
    bool *keep = calloc(nr + 1, sizeof *keep);
    bool *rank_keep = calloc(np, sizeof *rank_keep);
    size_t *offset = malloc((nr * np + 1) * sizeof *offset); /* [rank][region] */
    scope_event *out = NULL;
    int rc = keep && rank_keep && offset ? 0 : reader_fail(err, "out of memory");
    if (rc == 0)
        rc = reader_apply_filter(f, flt, keep, rank_keep, err);
    size_t n = 0;
    for (size_t r = 0; rc == 0 && r < nr; r++)
        for (size_t ri = 0; ri < np; ri++) {
            const series *s = reader_series(f, r, ri);
            offset[ri * nr + r] = n;
            if (keep[r] && rank_keep[ri] && s)
                n += s->pub.count;
        }
    if (rc == 0 && !(out = malloc((n ? n : 1) * sizeof *out)))
        rc = reader_fail(err, "out of memory");
    events_ctx ec = {f, keep, NULL, out, 0, scope_filter_origin_ns(f, flt)};
    for (size_t ri = 0; rc == 0 && ri < np && n > 0; ri++) {
        if (!rank_keep[ri])
            continue;
        ec.block = &offset[ri * nr];
        ec.rank = f->ranks[ri];
        rc = reader_walk_rank(f, ri, add_event, &ec, err);
    }
    free(keep);
    free(rank_keep);
    free(offset);
    if (rc < 0) {
        free(out);
        return NULL;
    }
    *count = n;
    return out;
}
