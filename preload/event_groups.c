/* event_groups.c: counting sort of events by region, then by start time
 * within each region, and the regions' self times (see event_groups.h). */
#include "event_groups.h"

#include <stdlib.h>
#include <string.h>

static int by_start(const void *a, const void *b)
{
    const struct scope_event *x = a, *y = b;
    if (x->start != y->start)
        return x->start < y->start ? -1 : 1;
    return (x->end > y->end) - (x->end < y->end);
}

/* A thread's records come in end order, which for most regions is already
 * start order: check before paying for a sort. */
static void sort_by_start(struct scope_event *e, size_t n)
{
    for (size_t i = 1; i < n; i++)
        if (by_start(&e[i - 1], &e[i]) > 0) {
            qsort(e, n, sizeof(*e), by_start);
            return;
        }
}

/* Calls in end order, one thread after another: a call's children are the
 * calls it contains among those that ended before it and were not yet
 * claimed by another call, which are the top of a stack. Returns 0 when the
 * order does not hold (a thread seen twice, or a call ending before the one
 * before it without containing it). */
static int self_times(const struct scope_event *events, size_t n, const uint32_t *hook_region,
                      size_t nhooks, int64_t *region_self)
{
    size_t *stack = malloc((n ? n : 1) * sizeof(size_t)), depth = 0;
    size_t seen_cap = 64;
    unsigned char *seen = calloc(seen_cap, 1);
    int ok = stack && seen;
    int32_t thread = -1;
    for (size_t i = 0; ok && i < n; i++) {
        const struct scope_event *e = &events[i];
        if (e->hook >= nhooks)
            continue;
        if (e->thread != thread) {
            ok = e->thread >= 0;
            if (!ok)
                break;
            size_t t = (size_t)(uint32_t)e->thread;
            if (t >= seen_cap) {
                unsigned char *more = realloc(seen, 2 * t + 1);
                ok = more != NULL;
                if (!ok)
                    break;
                memset(more + seen_cap, 0, 2 * t + 1 - seen_cap);
                seen = more, seen_cap = 2 * t + 1;
            }
            ok = !seen[t];
            seen[t] = 1;
            thread = e->thread;
            depth = 0;
        }
        int64_t self = e->end - e->start;
        while (ok && depth > 0) {
            const struct scope_event *c = &events[stack[depth - 1]];
            if (c->start < e->start || (c->start >= e->end && c->start != e->start))
                break;   /* not inside e: an earlier call, e's sibling */
            ok = c->end <= e->end;
            self -= c->end - c->start;
            depth--;
        }
        if (ok && depth > 0 && events[stack[depth - 1]].end > e->end)
            ok = 0;
        stack[depth++] = i;
        region_self[hook_region[e->hook]] += self;
    }
    free(stack);
    free(seen);
    return ok;
}

int scope_event_groups_build(struct scope_event_groups *g, const struct scope_event *events,
                             size_t n, const uint32_t *hook_region, size_t nhooks,
                             size_t nregions)
{
    *g = (struct scope_event_groups){.nregions = nregions};
    g->region_begin = calloc(nregions + 1, sizeof(size_t));
    g->region_hook = calloc(nregions ? nregions : 1, sizeof(uint32_t));
    g->events = malloc((n ? n : 1) * sizeof(*g->events));
    g->region_self = calloc(nregions ? nregions : 1, sizeof(int64_t));
    size_t *fill = calloc(nregions ? nregions : 1, sizeof(size_t));
    if (!g->region_begin || !g->region_hook || !g->events || !g->region_self || !fill) {
        free(fill);
        scope_event_groups_free(g);
        return -1;
    }
    g->self_known = self_times(events, n, hook_region, nhooks, g->region_self);
    for (size_t h = nhooks; h-- > 0;)
        g->region_hook[hook_region[h]] = (uint32_t)h;
    for (size_t i = 0; i < n; i++)
        if (events[i].hook < nhooks)
            g->region_begin[hook_region[events[i].hook] + 1]++;
    for (size_t r = 0; r < nregions; r++)
        g->region_begin[r + 1] += g->region_begin[r];
    for (size_t i = 0; i < n; i++) {
        if (events[i].hook >= nhooks)
            continue;
        size_t r = hook_region[events[i].hook];
        g->events[g->region_begin[r] + fill[r]++] = events[i];
    }
    free(fill);
    g->count = g->region_begin[nregions];
    for (size_t r = 0; r < nregions; r++)
        sort_by_start(g->events + g->region_begin[r], g->region_begin[r + 1] - g->region_begin[r]);
    return 0;
}

void scope_event_groups_free(struct scope_event_groups *g)
{
    free(g->events);
    free(g->region_begin);
    free(g->region_hook);
    free(g->region_self);
    *g = (struct scope_event_groups){0};
}

size_t scope_event_groups_chunk(const struct scope_event_groups *g, size_t r, size_t from,
                                struct scope_chunk *chunk)
{
    size_t end = g->region_begin[r + 1];
    chunk->n = 0;
    for (size_t i = g->region_begin[r] + from; i < end && chunk->n < SCOPE_CHUNK_EVENTS; i++) {
        const struct scope_event *e = &g->events[i];
        chunk->start[chunk->n] = e->start;
        chunk->end[chunk->n] = e->end;
        chunk->thread[chunk->n] = e->thread;
        chunk->n++;
    }
    return from + chunk->n;
}
