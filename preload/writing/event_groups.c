/* event_groups.c: one process's events sorted by (region, start) in
 * windows of bounded size (kept in memory when one window holds them all,
 * else written as sorted runs to an unlinked file and merged per region as
 * chunks are read), and the regions' self times (see event_groups.h). */
#include "event_groups.h"
#include "region_clones.h"
#include "temp_dir.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define HEAD_EVENTS 4096   /* read from a run at a time (128 KiB of events) */

/* A run's next events of the region being merged. */
struct scope_run_head {
    uint64_t next, end;          /* file event indices still to read */
    struct scope_event buf[HEAD_EVENTS];
    size_t at, have;
};

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

static int write_all(int fd, const void *p, size_t len)
{
    for (const char *c = p; len > 0;) {
        ssize_t w = write(fd, c, len);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        c += w;
        len -= (size_t)w;
    }
    return 0;
}

static int open_runs_file(char *err, size_t errlen)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/scope-sort-XXXXXX", scope_temp_dir());
    int fd = mkstemp(path);
    if (fd < 0)
        snprintf(err, errlen, "cannot create %s for sorting: %s", path, strerror(errno));
    else
        unlink(path);
    return fd;
}

/* Appends a sorted window as the next run. */
static int add_run(struct scope_event_groups *g, const struct scope_event *sorted, size_t n,
                   const size_t *offsets, uint64_t at, char *err, size_t errlen)
{
    size_t row = g->nregions + 1;
    uint64_t *more = realloc(g->run_begin, (g->nruns + 1) * row * sizeof(uint64_t));
    if (!more) {
        snprintf(err, errlen, "out of memory sorting events");
        return -1;
    }
    g->run_begin = more;
    for (size_t r = 0; r < row; r++)
        more[g->nruns * row + r] = at + offsets[r];
    g->nruns++;
    if (write_all(g->runs_fd, sorted, n * sizeof(*sorted)) != 0) {
        snprintf(err, errlen, "cannot write events to sort in $TMPDIR: %s", strerror(errno));
        return -1;
    }
    return 0;
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
    *g = (struct scope_event_groups){.nregions = nregions, .runs_fd = -1};
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
    uint64_t in_file = 0;
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
        if (g->runs_fd < 0 && (g->runs_fd = open_runs_file(err, errlen)) < 0)
            rc = -1;
        if (rc == 0)
            rc = add_run(g, sorted, (size_t)n, offsets, in_file, err, errlen);
        in_file += (uint64_t)n;
        if ((size_t)n < window)
            break;
    }
    g->self_known = self.known;
    for (size_t r = 0; r < nregions; r++)
        g->region_begin[r + 1] = g->region_begin[r] + counts[r];
    if (rc == 0 && g->nruns > 0 && !(g->heads = calloc(g->nruns, sizeof(*g->heads)))) {
        snprintf(err, errlen, "out of memory merging events");
        rc = -1;
    }
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
    free(g->run_begin);
    free(g->heads);
    if (g->runs_fd >= 0)
        close(g->runs_fd);
    *g = (struct scope_event_groups){.runs_fd = -1};
}

/* The head event of run k, reading more of it when its buffer is empty;
 * NULL when the run has no more events of the region. */
static const struct scope_event *head(struct scope_event_groups *g, size_t k)
{
    struct scope_run_head *h = &g->heads[k];
    if (h->at == h->have && h->next < h->end) {
        size_t n = h->end - h->next < HEAD_EVENTS ? (size_t)(h->end - h->next) : HEAD_EVENTS;
        ssize_t got = pread(g->runs_fd, h->buf, n * sizeof(h->buf[0]),
                            (off_t)(h->next * sizeof(h->buf[0])));
        if (got != (ssize_t)(n * sizeof(h->buf[0]))) {
            /* the file we just wrote cannot be read back: say so; the
             * region's remaining calls come out empty rather than hang a
             * reader that expects their number */
            fprintf(stderr, "scope: cannot read back sorted events: %s\n",
                    got < 0 ? strerror(errno) : "short read");
            memset(h->buf, 0, n * sizeof(h->buf[0]));
        }
        h->next += n;
        h->at = 0;
        h->have = n;
    }
    return h->at < h->have ? &h->buf[h->at] : NULL;
}

/* The region's next event over all runs, in start order. */
static struct scope_event next_merged(struct scope_event_groups *g)
{
    size_t best = SIZE_MAX;
    for (size_t k = 0; k < g->nruns; k++) {
        const struct scope_event *e = head(g, k);
        if (e && (best == SIZE_MAX || by_start(e, &g->heads[best].buf[g->heads[best].at]) < 0))
            best = k;
    }
    if (best == SIZE_MAX)   /* not reached: the runs hold the region's count */
        return (struct scope_event){0};
    return g->heads[best].buf[g->heads[best].at++];
}

static void start_merge(struct scope_event_groups *g, size_t r)
{
    size_t row = g->nregions + 1;
    for (size_t k = 0; k < g->nruns; k++)
        g->heads[k] = (struct scope_run_head){.next = g->run_begin[k * row + r],
                                              .end = g->run_begin[k * row + r + 1]};
    g->merge_region = r;
    g->merge_next = 0;
}

size_t scope_event_groups_chunk(struct scope_event_groups *g, size_t r, size_t from,
                                struct scope_chunk *chunk)
{
    size_t total = scope_event_groups_calls(g, r);
    chunk->n = 0;
    if (g->nruns > 0 && (r != g->merge_region || from < g->merge_next))
        start_merge(g, r);
    for (; g->nruns > 0 && g->merge_next < from && g->merge_next < total; g->merge_next++)
        next_merged(g);   /* skip to `from` */
    for (size_t i = from; i < total && chunk->n < SCOPE_CHUNK_EVENTS; i++) {
        struct scope_event e = g->nruns > 0 ? next_merged(g) : g->events[g->region_begin[r] + i];
        chunk->start[chunk->n] = e.start;
        chunk->end[chunk->n] = e.end;
        chunk->thread[chunk->n] = e.thread;
        chunk->callsite[chunk->n] = e.callsite;
        chunk->n++;
    }
    if (g->nruns > 0)
        g->merge_next = from + chunk->n;
    return from + chunk->n;
}
