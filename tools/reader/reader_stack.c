/* Call-stack reconstruction: a k-way merge of one rank's regions by start
 * time (ties: longer first, then region order) with one nesting stack per
 * thread; plus call_stack(), roots, children and self time on top of it. */
#include "grow_array.h"
#include "reader_internal.h"

#include <stdlib.h>

typedef struct head {
    size_t region;
    size_t pos; /* position in the series' call-stack order */
    int64_t start, dur;
} head;

typedef struct open_call {
    size_t id, region;
    int64_t end;
} open_call;

typedef struct thread_stack {
    int tid;
    open_call *items;
    size_t n, cap;
} thread_stack;

typedef struct walker {
    head *heap;
    size_t n_heap;
    thread_stack *threads;
    size_t n_threads, cap_threads;
} walker;

static bool head_before(const head *a, const head *b)
{
    if (a->start != b->start)
        return a->start < b->start;
    if (a->dur != b->dur)
        return a->dur > b->dur;
    return a->region < b->region;
}

static void sift_down(walker *w, size_t i)
{
    for (;;) {
        size_t l = 2 * i + 1, r = l + 1, m = i;
        if (l < w->n_heap && head_before(&w->heap[l], &w->heap[m]))
            m = l;
        if (r < w->n_heap && head_before(&w->heap[r], &w->heap[m]))
            m = r;
        if (m == i)
            return;
        head t = w->heap[i];
        w->heap[i] = w->heap[m];
        w->heap[m] = t;
        i = m;
    }
}

static size_t call_at(const series *s, size_t pos)
{
    return s->sorted ? pos : s->order[pos];
}

static void load_head(const series *s, head *h)
{
    size_t i = call_at(s, h->pos);
    h->start = s->pub.start_ns[i];
    h->dur = s->pub.end_ns[i] - s->pub.start_ns[i];
}

static thread_stack *stack_for(walker *w, int tid)
{
    for (size_t i = 0; i < w->n_threads; i++)
        if (w->threads[i].tid == tid)
            return &w->threads[i];
    if (scope_grow_array((void **)&w->threads, &w->cap_threads, w->n_threads + 1,
                         sizeof *w->threads) != 0)
        return NULL;
    w->threads[w->n_threads] = (thread_stack){.tid = tid};
    return &w->threads[w->n_threads++];
}

static int push(thread_stack *ts, open_call c)
{
    if (scope_grow_array((void **)&ts->items, &ts->cap, ts->n + 1, sizeof *ts->items) != 0)
        return -1;
    ts->items[ts->n++] = c;
    return 0;
}

static void free_walker(walker *w)
{
    for (size_t i = 0; i < w->n_threads; i++)
        free(w->threads[i].items);
    free(w->threads);
    free(w->heap);
}

int reader_walk_rank(const scope_file *f, size_t rank_index, walk_fn fn, void *ctx,
                     scope_error *err)
{
    if (reader_load_rank(f, rank_index, err) < 0)
        return -1;
    walker w = {.heap = malloc((f->n_regions ? f->n_regions : 1) * sizeof(head))};
    if (!w.heap)
        return reader_fail(err, "out of memory");
    for (size_t r = 0; r < f->n_regions; r++) {
        const series *s = reader_series(f, r, rank_index);
        if (s && s->pub.count > 0) {
            w.heap[w.n_heap] = (head){.region = r};
            load_head(s, &w.heap[w.n_heap++]);
        }
    }
    for (size_t i = w.n_heap; i-- > 0;)
        sift_down(&w, i);

    int rc = 0;
    for (size_t id = 0; w.n_heap > 0; id++) {
        head *h = &w.heap[0];
        const series *s = reader_series(f, h->region, rank_index);
        size_t i = call_at(s, h->pos);
        walk_call c = {
            .id = id, .parent = -1, .region = h->region, .call_index = i,
            .thread_id = s->pub.thread_ids ? s->pub.thread_ids[i] : 0,
            .callsite = s->pub.callsite_ids ? s->pub.callsite_ids[i] : -1,
            .start_ns = s->pub.start_ns[i], .end_ns = s->pub.end_ns[i],
        };
        thread_stack *ts = stack_for(&w, c.thread_id);
        if (!ts) {
            rc = reader_fail(err, "out of memory");
            break;
        }
        /* pop what no longer contains this call */
        while (ts->n > 0 && !(c.start_ns < ts->items[ts->n - 1].end &&
                              c.end_ns <= ts->items[ts->n - 1].end))
            ts->n--;
        if (ts->n > 0) {
            c.parent = (long)ts->items[ts->n - 1].id;
            c.parent_region = ts->items[ts->n - 1].region;
        }
        c.depth = (int)ts->n;
        if (push(ts, (open_call){id, c.region, c.end_ns}) < 0) {
            rc = reader_fail(err, "out of memory");
            break;
        }
        fn(ctx, &c);
        if (++h->pos < s->pub.count)
            load_head(s, h);
        else
            w.heap[0] = w.heap[--w.n_heap];
        sift_down(&w, 0);
    }
    free_walker(&w);
    return rc;
}

size_t reader_rank_calls(const scope_file *f, size_t rank_index)
{
    size_t n = 0;
    for (size_t r = 0; r < f->n_regions; r++) {
        const series *s = reader_series(f, r, rank_index);
        n += s ? s->pub.count : 0;
    }
    return n;
}

typedef struct stack_ctx {
    const scope_file *f;
    scope_call *calls;
    int64_t origin;
} stack_ctx;

static void add_call(void *ctx, const walk_call *c)
{
    stack_ctx *sc = ctx;
    sc->calls[c->id] = (scope_call){
        .name = sc->f->names[c->region], .region = c->region, .call_index = c->call_index,
        .thread_id = c->thread_id, .depth = c->depth, .parent = c->parent,
        .start = reader_seconds(c->start_ns - sc->origin),
        .end = reader_seconds(c->end_ns - sc->origin),
        .duration = reader_seconds(c->end_ns - c->start_ns),
        .start_ns = c->start_ns, .end_ns = c->end_ns, .callsite = c->callsite,
    };
}

scope_call *scope_call_stack(const scope_file *f, int rank, size_t *count, scope_error *err)
{
    long ri = reader_rank_index(f, rank);
    if (ri < 0) {
        reader_fail(err, "unknown rank %d", rank);
        return NULL;
    }
    size_t n = reader_rank_calls(f, (size_t)ri);
    stack_ctx sc = {f, malloc((n ? n : 1) * sizeof(scope_call)), scope_time_origin_ns(f)};
    if (!sc.calls) {
        reader_fail(err, "out of memory");
        return NULL;
    }
    if (reader_walk_rank(f, (size_t)ri, add_call, &sc, err) < 0) {
        free(sc.calls);
        return NULL;
    }
    *count = n;
    return sc.calls;
}

size_t *scope_call_stack_roots(const scope_call *calls, size_t count, size_t *n_roots)
{
    size_t *roots = malloc((count ? count : 1) * sizeof *roots);
    *n_roots = 0;
    for (size_t i = 0; roots && i < count; i++)
        if (calls[i].parent < 0)
            roots[(*n_roots)++] = i;
    return roots;
}

int scope_call_stack_children(const scope_call *calls, size_t count, scope_children *out,
                              scope_error *err)
{
    out->offsets = calloc(count + 2, sizeof *out->offsets);
    out->items = malloc((count ? count : 1) * sizeof *out->items);
    if (!out->offsets || !out->items) {
        scope_children_free(out);
        return reader_fail(err, "out of memory");
    }
    /* count into offsets[p + 2], prefix-sum, then fill using offsets[p + 1] */
    for (size_t i = 0; i < count; i++)
        if (calls[i].parent >= 0)
            out->offsets[calls[i].parent + 2]++;
    for (size_t i = 2; i < count + 2; i++)
        out->offsets[i] += out->offsets[i - 1];
    for (size_t i = 0; i < count; i++)
        if (calls[i].parent >= 0)
            out->items[out->offsets[calls[i].parent + 1]++] = i;
    return 0;
}

void scope_children_free(scope_children *children)
{
    free(children->offsets);
    free(children->items);
    children->offsets = children->items = NULL;
}
