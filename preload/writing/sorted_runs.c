/* sorted_runs.c: sorted runs of events in an unlinked file, merged per
 * region (see sorted_runs.h). An event is stored as its start minus the
 * previous start of its region in the run and its duration (zigzag
 * varints), a byte saying which of the rest follow, and those: its thread
 * (when not 0), its call site (when it has one), its number of payload
 * items (when it carries some), the mask of values it recorded (a byte)
 * and the index of its first item or value (when it has either); a
 * typical call takes 3 to 6 bytes instead of the 48 of struct
 * scope_event, so the file written and read back is about ten times
 * smaller. When a region's runs follow
 * each other (each one's first event at or after the last of the run
 * before, as one thread's calls usually are), the merge reads them one
 * after the other; else it keeps them in a binary heap by their next
 * event, so taking an event costs about two comparisons. */
#include "sorted_runs.h"

#include "grow_array.h"
#include "temp_dir.h"
#include "varint.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define HEAD_BYTES 16384          /* read from a run at a time */
#define EVENT_MAX_BYTES 64        /* five varints of at most 10 bytes, two bytes */

/* The fields after an event's start and duration that follow its flags. */
enum { HAS_THREAD = 1, HAS_CALLSITE = 2, CARRIES = 4, HAS_VALUES = 8 };

/* A run's events of the region being merged. */
struct scope_run_head {
    uint64_t next, end;           /* file bytes still to read */
    unsigned char buf[HEAD_BYTES];
    size_t at, have;
    int64_t prev_start;
    struct scope_event event;     /* the next one, when the run is in the heap */
};

void scope_sorted_runs_init(struct scope_sorted_runs *s, size_t nregions)
{
    *s = (struct scope_sorted_runs){.fd = -1, .nregions = nregions};
}

void scope_sorted_runs_free(struct scope_sorted_runs *s)
{
    if (s->fd >= 0)
        close(s->fd);
    free(s->run_begin);
    free(s->encoded);
    free(s->heads);
    free(s->heap);
    free(s->run_last);
    scope_sorted_runs_init(s, 0);
}

int scope_sorted_runs_add(struct scope_sorted_runs *s, const struct scope_event *sorted,
                          size_t n, const size_t *offsets, char *err, size_t errlen)
{
    size_t row = s->nregions + 1;
    void *begin = s->run_begin;
    size_t begin_cap = s->nruns * row;
    if (scope_grow_array(&begin, &begin_cap, (s->nruns + 1) * row, sizeof(uint64_t)) != 0 ||
        scope_grow_array((void **)&s->encoded, &s->encoded_cap, n * EVENT_MAX_BYTES + 1, 1) != 0) {
        s->run_begin = begin;
        snprintf(err, errlen, "out of memory sorting events");
        return -1;
    }
    s->run_begin = begin;
    struct scope_event *last = realloc(s->run_last, (s->nruns + 1) * (s->nregions ? s->nregions : 1) *
                                                        sizeof(*last));
    if (!last) {
        snprintf(err, errlen, "out of memory sorting events");
        return -1;
    }
    s->run_last = last;
    last += s->nruns * s->nregions;
    for (size_t r = 0; r < s->nregions; r++)
        if (offsets[r + 1] > offsets[r])
            last[r] = sorted[offsets[r + 1] - 1];
    if (s->fd < 0 && (s->fd = scope_scratch_file("sorting", err, errlen)) < 0)
        return -1;
    uint64_t *at = s->run_begin + s->nruns * row;
    unsigned char *p = s->encoded;
    for (size_t r = 0; r < s->nregions; r++) {
        at[r] = s->file_bytes + (uint64_t)(p - s->encoded);
        int64_t prev = 0;
        for (size_t i = offsets[r]; i < offsets[r + 1]; i++) {
            const struct scope_event *e = &sorted[i];
            unsigned flags = (e->thread != 0 ? HAS_THREAD : 0) |
                             (e->callsite != -1 ? HAS_CALLSITE : 0) |
                             (e->carries ? CARRIES : 0) | (e->values ? HAS_VALUES : 0);
            p = put_varint(p, difference(e->start, prev));
            p = put_varint(p, difference(e->end, e->start));
            *p++ = (unsigned char)flags;
            if (flags & HAS_THREAD)
                p = put_varint(p, e->thread);
            if (flags & HAS_CALLSITE)
                p = put_varint(p, e->callsite);
            if (flags & CARRIES)
                p = put_varint(p, e->nitems);
            if (flags & HAS_VALUES)
                *p++ = e->values;
            if (flags & (CARRIES | HAS_VALUES))
                p = put_varint(p, (int64_t)e->item_first);
            prev = e->start;
        }
    }
    size_t len = (size_t)(p - s->encoded);
    at[s->nregions] = s->file_bytes + len;
    if (scope_write_full(s->fd, s->encoded, len) != 0) {
        snprintf(err, errlen, "cannot write events to sort in %s: %s", scope_temp_dir(),
                 strerror(errno));
        return -1;
    }
    s->file_bytes += len;
    s->nruns++;
    return 0;
}

/* Decodes the run's next event into h->event: 0, or -1 when the run has no
 * more events of the region. */
static int advance(struct scope_sorted_runs *s, struct scope_run_head *h)
{
    if (h->have - h->at < EVENT_MAX_BYTES && h->next < h->end) {
        memmove(h->buf, h->buf + h->at, h->have - h->at);
        h->have -= h->at;
        h->at = 0;
        size_t n = HEAD_BYTES - h->have;
        if (h->end - h->next < n)
            n = (size_t)(h->end - h->next);
        if (scope_pread_full(s->fd, h->buf + h->have, n, h->next) != 0) {
            snprintf(s->error, sizeof s->error, "cannot read back sorted events: %s",
                     errno ? strerror(errno) : "short read");
            memset(h->buf + h->have, 0, n);
        }
        h->next += n;
        h->have += n;
    }
    if (h->at == h->have)
        return -1;
    int64_t delta, duration, thread = 0, callsite = -1, nitems = 0, item_first = 0;
    const unsigned char *p = h->buf + h->at;
    p = get_varint(p, &delta);
    p = get_varint(p, &duration);
    unsigned flags = *p++, values = 0;
    if (flags & HAS_THREAD)
        p = get_varint(p, &thread);
    if (flags & HAS_CALLSITE)
        p = get_varint(p, &callsite);
    if (flags & CARRIES)
        p = get_varint(p, &nitems);
    if (flags & HAS_VALUES)
        values = *p++;
    if (flags & (CARRIES | HAS_VALUES))
        p = get_varint(p, &item_first);
    h->at = (size_t)(p - h->buf);
    if (h->at > h->have)   /* only after a failed read */
        h->at = h->have;
    h->prev_start = sum(h->prev_start, delta);
    h->event = (struct scope_event){.start = h->prev_start, .end = sum(h->prev_start, duration),
                                    .thread = (int32_t)thread, .callsite = (int32_t)callsite,
                                    .carries = (flags & CARRIES) != 0, .values = (uint8_t)values,
                                    .nitems = (uint32_t)nitems,
                                    .item_first = (uint64_t)item_first};
    return 0;
}

static int head_before(const struct scope_sorted_runs *s, size_t a, size_t b)
{
    return scope_event_by_start(&s->heads[a].event, &s->heads[b].event) < 0;
}

static void sift_down(struct scope_sorted_runs *s, size_t i)
{
    for (;;) {
        size_t least = i, l = 2 * i + 1, r = l + 1;
        if (l < s->nheap && head_before(s, s->heap[l], s->heap[least]))
            least = l;
        if (r < s->nheap && head_before(s, s->heap[r], s->heap[least]))
            least = r;
        if (least == i)
            return;
        size_t t = s->heap[i];
        s->heap[i] = s->heap[least];
        s->heap[least] = t;
        i = least;
    }
}

int scope_sorted_runs_start(struct scope_sorted_runs *s, size_t r)
{
    if (!s->heads && s->nruns > 0) {
        s->heads = malloc(s->nruns * sizeof(*s->heads));
        s->heap = malloc(s->nruns * sizeof(*s->heap));
        if (!s->heads || !s->heap)
            return -1;
    }
    size_t row = s->nregions + 1;
    s->nheap = 0;
    for (size_t k = 0; k < s->nruns; k++) {
        struct scope_run_head *h = &s->heads[k];
        h->next = s->run_begin[k * row + r];
        h->end = s->run_begin[k * row + r + 1];
        h->at = h->have = 0;
        h->prev_start = 0;
        if (advance(s, h) == 0)
            s->heap[s->nheap++] = k;
    }
    s->chained = 1;   /* each run's first event at or after the last of the one before */
    for (size_t i = 1; i < s->nheap; i++)
        s->chained &= scope_event_by_start(&s->run_last[s->heap[i - 1] * s->nregions + r],
                                           &s->heads[s->heap[i]].event) <= 0;
    for (size_t i = 0; s->chained && i < s->nheap / 2; i++) {   /* the first run last */
        size_t t = s->heap[i];
        s->heap[i] = s->heap[s->nheap - 1 - i];
        s->heap[s->nheap - 1 - i] = t;
    }
    for (size_t i = s->nheap / 2; !s->chained && i-- > 0;)
        sift_down(s, i);
    return 0;
}

struct scope_event scope_sorted_runs_next(struct scope_sorted_runs *s)
{
    if (s->nheap == 0)   /* not reached: the caller knows the region's count */
        return (struct scope_event){0};
    if (s->chained) {
        struct scope_run_head *h = &s->heads[s->heap[s->nheap - 1]];
        struct scope_event e = h->event;
        if (advance(s, h) != 0)
            s->nheap--;
        return e;
    }
    struct scope_run_head *h = &s->heads[s->heap[0]];
    struct scope_event e = h->event;
    if (advance(s, h) != 0)
        s->heap[0] = s->heap[--s->nheap];
    sift_down(s, 0);
    return e;
}
