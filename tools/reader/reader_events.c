/* events(): one entry per call in region -> rank -> call order, with
 * call_id/parent_id from the rank's call stack, what the call carried
 * (MPI payload) and the argument and return values it recorded. The call stacks of the
 * selected ranks are walked first, keeping only each call's two ids (16
 * bytes a call); the events are then made one at a time, so a caller that
 * streams them (scope_events_each) never holds them all. */
#include "grow_array.h"
#include "reader_internal.h"

#include <stdlib.h>

typedef struct call_ids {
    long call_id, parent_id;
} call_ids;

typedef struct ids_ctx {
    const bool *keep;
    call_ids **ids; /* [region] -> one entry per call of this rank, or NULL */
} ids_ctx;

static void note_ids(void *ctx, const walk_call *c)
{
    ids_ctx *ic = ctx;
    if (ic->keep[c->region])
        ic->ids[c->region][c->call_index] = (call_ids){(long)c->id, c->parent};
}

int scope_events_each(const scope_file *f, const scope_filter *flt, scope_event_fn fn,
                      void *ctx, scope_error *err)
{
    size_t nr = f->n_regions, np = f->n_ranks;
    reader_selection sel;
    call_ids **ids = calloc(nr * np + 1, sizeof *ids); /* [rank * nr + region] */
    int rc = reader_select(f, flt, &sel, err);
    if (rc == 0 && !ids)
        rc = reader_fail(err, "out of memory");
    const bool *keep = sel.keep, *rank_keep = sel.rank_keep;
    for (size_t ri = 0; rc == 0 && ri < np; ri++) {
        if (!rank_keep[ri])
            continue;
        for (size_t r = 0; rc == 0 && r < nr; r++) {
            const series *s = reader_series(f, r, ri);
            if (keep[r] && s && !(ids[ri * nr + r] = malloc((s->pub.count + 1) * sizeof(call_ids))))
                rc = reader_fail(err, "out of memory");
        }
        ids_ctx ic = {keep, &ids[ri * nr]};
        if (rc == 0)
            rc = reader_walk_rank(f, ri, note_ids, &ic, err);
    }
    if (rc == 0)
        rc = reader_load_payload(f, keep, rank_keep, PAYLOAD_CALLS, err);
    if (rc == 0)
        rc = reader_load_values(f, keep, rank_keep, err);
    int64_t origin = scope_filter_origin_ns(f, flt);
    for (size_t r = 0; rc == 0 && r < nr; r++)
        for (size_t ri = 0; rc == 0 && ri < np; ri++) {
            const series *s = reader_series(f, r, ri);
            const call_ids *id = ids[ri * nr + r];
            for (size_t i = 0; id && rc == 0 && i < s->pub.count; i++) {
                int64_t start = s->pub.start_ns[i], end = s->pub.end_ns[i];
                scope_event ev = {
                    .name = f->names[r], .region = r, .rank = f->ranks[ri],
                    .thread_id = s->pub.thread_ids ? s->pub.thread_ids[i] : 0,
                    .call_index = i,
                    .start = reader_seconds(start - origin), .end = reader_seconds(end - origin),
                    .duration = reader_seconds(end - start),
                    .start_ns = start, .end_ns = end,
                    .call_id = id[i].call_id, .parent_id = id[i].parent_id,
                    .callsite = s->pub.callsite_ids ? s->pub.callsite_ids[i] : -1,
                    .bytes = -1, .peer = -1, .tag = -1, .comm = -1, .offset = -1,
                };
                if (s->family != SCOPE_PAYLOAD_NONE) {
                    const scope_payload *p = reader_payload_of(s);
                    ev.has_payload = true;
                    ev.bytes = p->bytes[i];
                    ev.peer = p->peer[i];
                    ev.tag = p->tag[i];
                    ev.comm = p->comm[i];
                    ev.offset = p->offset ? p->offset[i] : -1;
                }
                ev.values = s->value_mask;
                for (size_t v = 0; v < SCOPE_VALUE_SLOTS; v++)
                    if ((s->value_mask & (1u << v)) && s->values)
                        ev.value[v] = s->values[v][i];
                rc = fn(ctx, &ev);
                if (rc < 0)
                    reader_fail(err, "stopped");
            }
        }
    for (size_t i = 0; ids && i < nr * np; i++)
        free(ids[i]);
    free(ids);
    reader_selection_free(&sel);
    return rc;
}

typedef struct array_ctx {
    scope_event *out;
    size_t n, cap;
    bool out_of_memory;
} array_ctx;

static int append_event(void *ctx, const scope_event *ev)
{
    array_ctx *a = ctx;
    if (scope_grow_array((void **)&a->out, &a->cap, a->n + 1, sizeof *a->out) != 0) {
        a->out_of_memory = 1;
        return -1;
    }
    a->out[a->n++] = *ev;
    return 0;
}

scope_event *scope_events(const scope_file *f, const scope_filter *flt, size_t *count,
                          scope_error *err)
{
    array_ctx a = {malloc(sizeof(scope_event)), 0, 1, false};
    if (!a.out) {
        reader_fail(err, "out of memory");
        return NULL;
    }
    if (scope_events_each(f, flt, append_event, &a, err) < 0) {
        if (a.out_of_memory)
            reader_fail(err, "out of memory");
        free(a.out);
        return NULL;
    }
    *count = a.n;
    return a.out;
}
