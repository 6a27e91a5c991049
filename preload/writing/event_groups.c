/* event_groups.c: one process's events sorted by (region, start) in
 * windows of bounded size (kept in memory when one window holds them all,
 * else handed to sorted_runs.c and merged per region as chunks are read),
 * and the regions' self times (self_times.c; see event_groups.h). */
#include "event_groups.h"
#include "payload_functions.h"
#include "profile_rank.h"
#include "region_clones.h"
#include "self_times.h"

#include <stdint.h>
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

/* Counts a window's events per region into offsets (the window's region
 * offsets) and counts, its unfinished calls per region and which regions
 * carry payload or values; 1 when the
 * events already come grouped by region (one region's, say), so that
 * grouping them would copy them to where they are. */
static int count_window(const struct scope_event *in, size_t n, const uint32_t *hook_region,
                        size_t nregions, size_t *offsets, size_t *counts, uint64_t *unfinished,
                        unsigned char *carries, unsigned char *values)
{
    memset(offsets, 0, (nregions + 1) * sizeof(size_t));
    int grouped = 1;
    for (size_t i = 0, before = 0; i < n; i++) {
        uint32_t r = hook_region[in[i].hook];
        offsets[r + 1]++;
        unfinished[r] += in[i].unfinished;
        carries[r] |= in[i].carries;
        values[r] |= in[i].values;
        grouped &= r >= before;
        before = r;
    }
    for (size_t r = 0; r < nregions; r++) {
        counts[r] += offsets[r + 1];
        offsets[r + 1] += offsets[r];
    }
    return grouped;
}

/* Copies n events into out grouped by region, at the window's offsets;
 * fill is scratch of nregions entries. */
static void group_window(const struct scope_event *in, size_t n, struct scope_event *out,
                         const uint32_t *hook_region, size_t nregions, const size_t *offsets,
                         size_t *fill)
{
    memcpy(fill, offsets, nregions * sizeof(size_t));
    for (size_t i = 0; i < n; i++)
        out[fill[hook_region[in[i].hook]]++] = in[i];
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
    size_t sorted_cap = 0;
    size_t *offsets = calloc(nregions + 1, sizeof(size_t));
    size_t *counts = calloc(2 * nregions + 1, sizeof(size_t));   /* + sort scratch */
    g->region_begin = calloc(nregions + 1, sizeof(size_t));
    g->region_hook = calloc(nregions ? nregions : 1, sizeof(uint32_t));
    g->region_self = calloc(nregions ? nregions : 1, sizeof(int64_t));
    g->region_unfinished = calloc(nregions ? nregions : 1, sizeof(uint64_t));
    g->region_carries = calloc(nregions ? nregions : 1, 1);
    g->region_values = calloc(nregions ? nregions : 1, 1);
    struct scope_self_pass self;
    int rc = scope_self_pass_init(&self, self_calls);
    if (rc != 0 || !batch || !offsets || !counts || !g->region_begin || !g->region_hook ||
        !g->region_self || !g->region_unfinished || !g->region_carries || !g->region_values) {
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
        scope_self_pass_add(&self, batch, (size_t)n, hook_region, g->region_self);
        struct scope_event *grouped = batch;
        if (!count_window(batch, (size_t)n, hook_region, nregions, offsets, counts,
                          g->region_unfinished, g->region_carries, g->region_values)) {
            if ((size_t)n + 1 > sorted_cap) {   /* sized once: no fresh pages per window */
                free(sorted);
                sorted_cap = (size_t)n + 1;
                if (!(sorted = malloc(sorted_cap * sizeof(*sorted)))) {
                    snprintf(err, errlen, "out of memory sorting events");
                    rc = -1;
                    break;
                }
            }
            group_window(batch, (size_t)n, sorted, hook_region, nregions, offsets,
                         counts + nregions);
            grouped = sorted;
        }
        for (size_t r = 0; r < nregions; r++)
            sort_by_start(grouped + offsets[r], offsets[r + 1] - offsets[r]);
        g->count += (size_t)n;
        if (first && (size_t)n < window) {   /* all of them: keep in memory */
            g->events = grouped;
            if (grouped == batch)
                batch = NULL;
            else
                sorted = NULL;
            break;
        }
        rc = scope_sorted_runs_add(&g->runs, grouped, (size_t)n, offsets, err, errlen);
        if ((size_t)n < window)
            break;
    }
    g->self_known = self.known;
    for (size_t r = 0; r < nregions; r++)
        g->region_begin[r + 1] = g->region_begin[r] + counts[r];
    g->merge_region = SIZE_MAX;
    scope_self_pass_free(&self);
    free(batch);
    free(sorted);
    free(offsets);
    free(counts);
    if (rc != 0)
        scope_event_groups_free(g);
    return rc;
}

void scope_event_groups_take_payload(struct scope_event_groups *g,
                                     struct scope_payload_store *store,
                                     const char *const *hook_symbol, const uint32_t *hook_region,
                                     size_t nhooks)
{
    g->payload = *store;
    *store = (struct scope_payload_store){0};
    g->region_payload = calloc(g->nregions ? g->nregions : 1, sizeof *g->region_payload);
    for (size_t h = 0; g->region_payload && h < nhooks; h++)
        if (hook_region[h] < g->nregions && g->region_carries[hook_region[h]] &&
            scope_payload_family(hook_symbol[h]))
            g->region_payload[hook_region[h]] = scope_payload_family(hook_symbol[h]);
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
    free(g->region_payload);
    free(g->region_carries);
    free(g->region_values);
    free(g->comm_ids);
    scope_payload_store_free(&g->payload);
    free(g->region_self);
    free(g->region_unfinished);
    scope_sorted_runs_free(&g->runs);
    if (g->profile)
        scope_rank_profile_free(g->profile);
    free(g->profile);
    scope_region_peers_free(&g->peers);
    *g = (struct scope_event_groups){0};
    scope_sorted_runs_init(&g->runs, 0);
}

struct scope_chunk *scope_chunk_new(void)
{
    return calloc(1, sizeof(struct scope_chunk));
}

void scope_chunk_free(struct scope_chunk *c)
{
    if (!c)
        return;
    struct scope_chunk_messages *m = &c->messages;
    free(m->call);
    free(m->kind);
    free(m->peer);
    free(m->tag);
    free(m->comm);
    free(m->bytes);
    free(c);
}

struct region_payload scope_chunk_payload(const struct scope_chunk *c)
{
    const struct scope_chunk_messages *m = &c->messages;
    struct region_payload p = {c->bytes, c->peer, c->tag, c->comm, m->n, m->call, m->kind,
                               m->peer, m->bytes, m->tag, m->comm, c->offset, {NULL}};
    for (int slot = 0; slot < SCOPE_VALUE_SLOTS; slot++)
        p.values[slot] = c->value[slot];
    return p;
}

/* Room for one more message; -1 when out of memory (the columns grown
 * so far keep their new room, unused). */
static int grow_messages(struct scope_chunk_messages *m)
{
    if (m->n < m->cap)
        return 0;
    size_t cap = m->cap ? 2 * m->cap : 1024;
    struct { void **column; size_t size; } columns[] = {
        {(void **)&m->call, sizeof *m->call}, {(void **)&m->kind, sizeof *m->kind},
        {(void **)&m->peer, sizeof *m->peer}, {(void **)&m->tag, sizeof *m->tag},
        {(void **)&m->comm, sizeof *m->comm}, {(void **)&m->bytes, sizeof *m->bytes}};
    for (size_t i = 0; i < sizeof columns / sizeof columns[0]; i++) {
        void *more = realloc(*columns[i].column, cap * columns[i].size);
        if (!more)
            return -1;
        *columns[i].column = more;
    }
    m->cap = cap;
    return 0;
}

/* The file's id of the process's communicator `comm`. */
static int32_t file_comm(const struct scope_event_groups *g, int32_t comm)
{
    if (comm < 0 || !g->comm_ids)
        return comm;
    return (size_t)comm < g->ncomm_ids ? g->comm_ids[comm] : -1;
}

/* What event e (the chunk's call chunk->n) carried, from its items; an
 * I/O call's item has its offset where peer and tag would be (payload.h). */
static void take_payload(const struct scope_event_groups *g, const struct scope_event *e,
                         int io, struct scope_chunk *chunk)
{
    size_t i = chunk->n;
    chunk->bytes[i] = 0;
    chunk->peer[i] = chunk->tag[i] = chunk->comm[i] = -1;
    chunk->offset[i] = -1;
    const struct scope_payload_store *s = &g->payload;
    if (e->item_first + e->nitems > s->nitems)
        return;
    if (io && e->nitems == 1) {
        const struct scope_payload_item *it = &s->items[e->item_first];
        chunk->bytes[i] = it->bytes;
        chunk->offset[i] = scope_item_offset(it);
        return;
    }
    for (uint32_t k = 0; k < e->nitems; k++) {
        const struct scope_payload_item *it = &s->items[e->item_first + k];
        int32_t comm = file_comm(g, it->comm);
        chunk->bytes[i] += it->bytes;
        chunk->peer[i] = k == 0 || chunk->peer[i] == it->peer ? it->peer : -1;
        chunk->tag[i] = k == 0 || chunk->tag[i] == it->tag ? it->tag : -1;
        chunk->comm[i] = k == 0 || chunk->comm[i] == comm ? comm : -1;
        if (it->kind == SCOPE_ITEM_CALL)
            continue;
        struct scope_chunk_messages *m = &chunk->messages;
        if (grow_messages(m) != 0) {
            chunk->failed = 1;
            continue;
        }
        m->call[m->n] = (int64_t)i;
        m->kind[m->n] = (int8_t)it->kind;
        m->peer[m->n] = it->peer;
        m->bytes[m->n] = it->bytes;
        m->tag[m->n] = it->tag;
        m->comm[m->n] = comm;
        m->n++;
    }
}

/* The values event e (the chunk's call chunk->n) recorded, of those its
 * region records (`region`): 0 for one it lacks. */
static void take_values(const struct scope_event_groups *g, const struct scope_event *e,
                        uint32_t region, struct scope_chunk *chunk)
{
    const struct scope_payload_store *s = &g->payload;
    int valid = e->item_first + scope_values_count(e->values) <= s->nvalues;
    for (int slot = 0, k = 0; slot < SCOPE_VALUE_SLOTS; slot++) {
        uint32_t bit = 1u << slot;
        int has = valid && (e->values & bit);
        if (region & bit)
            chunk->value[slot][chunk->n] = has ? s->values[e->item_first + k] : 0;
        k += (e->values & bit) != 0;
    }
}

int scope_event_groups_has_calls(const struct scope_event_groups *g, size_t r)
{
    return scope_event_groups_calls(g, r) > 0 ||
           (g->profile && scope_rank_profile_region(g->profile, r)->stats.calls > 0);
}

size_t scope_event_groups_chunk(struct scope_event_groups *g, size_t r, size_t from,
                                struct scope_chunk *chunk)
{
    size_t total = scope_event_groups_calls(g, r);
    int merged = g->runs.nruns > 0;
    int io = g->region_payload && g->region_payload[r] && strcmp(g->region_payload[r], "io") == 0;
    chunk->n = 0;
    chunk->messages.n = 0;
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
        if (g->region_payload && g->region_payload[r])
            take_payload(g, &e, io, chunk);
        if (g->region_values && g->region_values[r])
            take_values(g, &e, g->region_values[r], chunk);
        chunk->n++;
    }
    if (merged)
        g->merge_next = from + chunk->n;
    return from + chunk->n;
}
