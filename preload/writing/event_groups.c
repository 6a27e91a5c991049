/* event_groups.c: one process's events sorted by (region, start) in
 * windows of bounded size (kept in memory when one window holds them all,
 * else handed to sorted_runs.c and merged per region as chunks are read),
 * and the regions' self times (see event_groups.h). */
#include "event_groups.h"
#include "profile_rank.h"
#include "region_clones.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A thread's records come in end order, which for most regions is already
 * start order: check before paying for a sort. */
static void sort_by_start(struct scope_event *e, size_t n)
{
    for (size_t i = 1; i < n; i++)
        if (scope_event_by_start(&e[i - 1], &e[i]) > 0) {
            qsort(e, n, sizeof(*e), scope_event_by_start);
            return;
        }
}

/* Self time, one batch after another: calls in end order, one thread after
 * another. A call's children are the calls it contains among those that
 * ended before it and were not yet claimed by another call: the top of a
 * stack. `known` drops to 0 when the order does not hold (a thread seen
 * twice, a call ending before the one before it without containing it) or
 * the stack would outgrow its bound. */
struct self_pass {
    struct interval { int64_t start, end; } *stack;
    size_t depth, cap;
    unsigned char *seen;
    size_t seen_cap;
    int32_t thread;
    int known;
};

static int self_pass_init(struct self_pass *p, size_t cap)
{
    *p = (struct self_pass){.stack = malloc(cap * sizeof(*p->stack)), .cap = cap,
                            .seen = calloc(64, 1), .seen_cap = 64, .thread = -1, .known = 1};
    return p->stack && p->seen ? 0 : -1;
}

static void self_pass_free(struct self_pass *p)
{
    free(p->stack);
    free(p->seen);
}

static int new_thread(struct self_pass *p, int32_t thread)
{
    if (thread < 0)
        return 0;
    size_t t = (size_t)thread;
    if (t >= p->seen_cap) {
        unsigned char *more = realloc(p->seen, 2 * t + 1);
        if (!more)
            return 0;
        memset(more + p->seen_cap, 0, 2 * t + 1 - p->seen_cap);
        p->seen = more;
        p->seen_cap = 2 * t + 1;
    }
    if (p->seen[t])
        return 0;
    p->seen[t] = 1;
    p->thread = thread;
    p->depth = 0;
    return 1;
}

static void self_pass_add(struct self_pass *p, const struct scope_event *events, size_t n,
                          const uint32_t *hook_region, int64_t *region_self)
{
    for (size_t i = 0; p->known && i < n; i++) {
        const struct scope_event *e = &events[i];
        if (e->thread != p->thread && !(p->known = new_thread(p, e->thread)))
            break;
        int64_t self = e->end - e->start;
        while (p->depth > 0) {
            const struct interval *c = &p->stack[p->depth - 1];
            if (c->start < e->start || (c->start >= e->end && c->start != e->start))
                break;   /* not inside e: an earlier call, e's sibling */
            p->known &= c->end <= e->end;
            self -= c->end - c->start;
            p->depth--;
        }
        if (p->depth == p->cap || (p->depth > 0 && p->stack[p->depth - 1].end > e->end))
            p->known = 0;
        if (!p->known)
            break;
        p->stack[p->depth++] = (struct interval){e->start, e->end};
        region_self[hook_region[e->hook]] += self;
    }
}

/* Sorts n events of known hooks by (region, start) into out; adds each
 * region's count to counts and returns the window's region offsets. */
static void sort_window(const struct scope_event *in, size_t n, struct scope_event *out,
                        const uint32_t *hook_region, size_t nregions, size_t *offsets,
                        size_t *counts)
{
    memset(offsets, 0, (nregions + 1) * sizeof(size_t));
    for (size_t i = 0; i < n; i++)
        offsets[hook_region[in[i].hook] + 1]++;
    for (size_t r = 0; r < nregions; r++) {
        counts[r] += offsets[r + 1];
        offsets[r + 1] += offsets[r];
    }
    size_t *fill = counts + nregions;   /* scratch: nregions entries */
    memcpy(fill, offsets, nregions * sizeof(size_t));
    for (size_t i = 0; i < n; i++)
        out[fill[hook_region[in[i].hook]]++] = in[i];
    for (size_t r = 0; r < nregions; r++)
        sort_by_start(out + offsets[r], offsets[r + 1] - offsets[r]);
}

/* Fills buf with up to window events of known hooks: how many, -1 on
 * error. A call that ends before it starts ends where it starts. */
static long read_window(struct scope_record_reader *in, struct scope_event **buf, size_t *cap,
                        size_t window, size_t nhooks, struct scope_event_anomaly *anomaly,
                        char *err, size_t errlen)
{
    size_t n = 0;
    for (;;) {
        if (n == *cap && *cap < window) {
            size_t c = *cap * 2 < window ? *cap * 2 : window;
            struct scope_event *b = realloc(*buf, c * sizeof(**buf));
            if (!b) {
                snprintf(err, errlen, "out of memory reading events");
                return -1;
            }
            *buf = b;
            *cap = c;
        }
        if (n == *cap)
            return (long)n;
        long k = scope_record_reader_next(in, *buf + n, *cap - n, err, errlen);
        if (k < 0)
            return -1;
        if (k == 0)
            return (long)n;
        size_t kept = n;   /* drop events of unknown hooks */
        for (size_t i = n; i < n + (size_t)k; i++) {
            struct scope_event *e = &(*buf)[i];
            if (e->hook >= nhooks)
                continue;
            if (e->end < e->start) {
                if (!anomaly->found)
                    *anomaly = (struct scope_event_anomaly){1, e->thread, e->hook, e->start,
                                                            e->end};
                e->end = e->start;
            }
            (*buf)[kept++] = *e;
        }
        n = kept;
    }
}

int scope_event_groups_build(struct scope_event_groups *g, struct scope_record_reader *in,
                             const uint32_t *hook_region, size_t nhooks, size_t nregions,
                             size_t window, size_t self_calls, char *err, size_t errlen)
{
    *g = (struct scope_event_groups){.nregions = nregions};
    scope_sorted_runs_init(&g->runs, nregions);
    size_t cap = window < 65536 ? window : 65536;
    struct scope_event *batch = malloc(cap * sizeof(*batch)), *sorted = NULL;
    size_t *offsets = calloc(nregions + 1, sizeof(size_t));
    size_t *counts = calloc(2 * nregions + 1, sizeof(size_t));   /* + sort scratch */
    g->region_begin = calloc(nregions + 1, sizeof(size_t));
    g->region_hook = calloc(nregions ? nregions : 1, sizeof(uint32_t));
    g->region_self = calloc(nregions ? nregions : 1, sizeof(int64_t));
    g->region_unfinished = calloc(nregions ? nregions : 1, sizeof(uint64_t));
    struct self_pass self;
    int rc = self_pass_init(&self, self_calls);
    if (rc != 0 || !batch || !offsets || !counts || !g->region_begin || !g->region_hook ||
        !g->region_self || !g->region_unfinished) {
        snprintf(err, errlen, "out of memory grouping events");
        rc = -1;
    }
    for (size_t h = nhooks; rc == 0 && h-- > 0;)
        g->region_hook[hook_region[h]] = (uint32_t)h;
    for (int first = 1; rc == 0; first = 0) {
        long n = read_window(in, &batch, &cap, window, nhooks, &g->anomaly, err, errlen);
        if (n < 0 || (n == 0 && !first)) {
            rc = n < 0 ? -1 : 0;
            break;
        }
        self_pass_add(&self, batch, (size_t)n, hook_region, g->region_self);
        for (long i = 0; i < n; i++)
            g->region_unfinished[hook_region[batch[i].hook]] += batch[i].unfinished;
        free(sorted);
        sorted = malloc(((size_t)n + 1) * sizeof(*sorted));
        if (!sorted) {
            snprintf(err, errlen, "out of memory sorting events");
            rc = -1;
            break;
        }
        sort_window(batch, (size_t)n, sorted, hook_region, nregions, offsets, counts);
        g->count += (size_t)n;
        if (first && (size_t)n < window) {   /* all of them: keep in memory */
            g->events = sorted;
            sorted = NULL;
            break;
        }
        rc = scope_sorted_runs_add(&g->runs, sorted, (size_t)n, offsets, err, errlen);
        if ((size_t)n < window)
            break;
    }
    g->self_known = self.known;
    for (size_t r = 0; r < nregions; r++)
        g->region_begin[r + 1] = g->region_begin[r] + counts[r];
    g->merge_region = SIZE_MAX;
    self_pass_free(&self);
    free(batch);
    free(sorted);
    free(offsets);
    free(counts);
    if (rc != 0)
        scope_event_groups_free(g);
    return rc;
}

void scope_event_anomaly_text(const struct scope_event_anomaly *a, const char *region, char *buf,
                              size_t len)
{
    snprintf(buf, len, "bug: thread %d: a call of %s ends before it starts ([%lld, %lld] ns), "
             "kept as ending there; please report it", (int)a->thread, region,
             (long long)a->start, (long long)a->end);
}

void scope_event_groups_free(struct scope_event_groups *g)
{
    free(g->events);
    free(g->region_begin);
    free(g->region_hook);
    scope_region_clones_free(g->region_clones, g->nregions);
    free(g->region_self);
    free(g->region_unfinished);
    scope_sorted_runs_free(&g->runs);
    if (g->profile)
        scope_rank_profile_free(g->profile);
    free(g->profile);
    *g = (struct scope_event_groups){0};
    scope_sorted_runs_init(&g->runs, 0);
}

int scope_event_groups_has_calls(const struct scope_event_groups *g, size_t r)
{
    return scope_event_groups_calls(g, r) > 0 ||
           (g->profile && g->profile->regions[r].stats.calls > 0);
}

size_t scope_event_groups_chunk(struct scope_event_groups *g, size_t r, size_t from,
                                struct scope_chunk *chunk)
{
    size_t total = scope_event_groups_calls(g, r);
    int merged = g->runs.nruns > 0;
    chunk->n = 0;
    if (merged && (r != g->merge_region || from < g->merge_next)) {
        if (scope_sorted_runs_start(&g->runs, r) != 0) {
            snprintf(g->runs.error, sizeof g->runs.error, "out of memory merging events");
            return from;
        }
        g->merge_region = r;
        g->merge_next = 0;
    }
    for (; merged && g->merge_next < from && g->merge_next < total; g->merge_next++)
        scope_sorted_runs_next(&g->runs);   /* skip to `from` */
    for (size_t i = from; i < total && chunk->n < SCOPE_CHUNK_EVENTS; i++) {
        struct scope_event e = merged ? scope_sorted_runs_next(&g->runs)
                                      : g->events[g->region_begin[r] + i];
        chunk->start[chunk->n] = e.start;
        chunk->end[chunk->n] = e.end;
        chunk->thread[chunk->n] = e.thread;
        chunk->callsite[chunk->n] = e.callsite;
        chunk->n++;
    }
    if (merged)
        g->merge_next = from + chunk->n;
    return from + chunk->n;
}
