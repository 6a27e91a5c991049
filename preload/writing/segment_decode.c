/* segment_decode.c: reading threads' spill files and buffer rings back as
 * events (layout in segment.h). */
#include "segment_decode.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define SPILL_READ_RECORDS 1024   /* records read from a spill file at a time */

/* A communicator definition still open is dropped (cut short). */
static void end_comm_definition(struct scope_record_reader *r)
{
    if (r->comm_n && r->payload)
        scope_payload_store_drop_comm(r->payload);
    r->comm_n = r->comm_have = 0;
}

/* One record of members of the communicator being defined (four ranks,
 * stored + 1); at the last one, the definition counts. */
static void take_comm_members(struct scope_record_reader *r, const struct scope_record *rec)
{
    uint64_t words[2] = {rec->start_word, rec->end_word};
    for (int k = 0; k < 4 && r->comm_have < r->comm_n; k++, r->comm_have++)
        if (r->payload)
            scope_payload_store_add_member(r->payload,
                                           (int32_t)(uint32_t)(words[k / 2] >> (32 * (k % 2))) - 1);
    if (r->comm_have < r->comm_n)
        return;
    if (r->payload)
        scope_payload_store_end_comm(r->payload, (int32_t)r->comm_id, r->comm_n);
    r->comm_n = r->comm_have = 0;
}

/* One payload item of the held call. */
static void take_item(struct scope_record_reader *r, const struct scope_record *rec)
{
    r->items_left--;
    if (!r->payload || !r->holding)
        return;
    struct scope_payload_item it = scope_item_decode(rec);
    if (r->held.nitems == 0)
        r->held.item_first = r->payload->nitems;
    scope_payload_store_add_item(r->payload, &it);
    r->held.nitems++;
}

/* The values header of the held call: its values follow. A header that
 * does not count its mask's values is ignored (and what follows it). */
static void start_values(struct scope_record_reader *r, const struct scope_record *rec)
{
    uint32_t mask = (uint32_t)(rec->start_word & SCOPE_TIME_MASK);
    uint64_t n = rec->end_word & SCOPE_TIME_MASK;
    if (mask >= 1u << SCOPE_VALUE_SLOTS || n != scope_values_count(mask))
        return;
    r->values_left = (uint32_t)n;
    if (!r->payload || !r->holding)
        return;
    r->held.values = (uint8_t)mask;
    r->held.item_first = r->payload->nvalues;
}

/* One record of the held call's values (two of them, the last maybe one). */
static void take_values(struct scope_record_reader *r, const struct scope_record *rec)
{
    uint64_t words[2] = {rec->start_word, rec->end_word};
    for (int k = 0; k < 2 && r->values_left > 0; k++, r->values_left--)
        if (r->payload && r->holding && r->held.values)
            scope_payload_store_add_value(r->payload, (int64_t)words[k]);
}

/* Values cut short (the thread's records end first) come out as 0. */
static void end_values(struct scope_record_reader *r)
{
    for (; r->values_left > 0; r->values_left--)
        if (r->payload && r->holding && r->held.values)
            scope_payload_store_add_value(r->payload, 0);
}

/* Forgets the decoding state of the buffer read before; its spill file
 * comes first, then its ring, record numbers spilled .. recycled+capacity-1
 * (none when a damaged header makes that no range). */
static void start_thread(struct scope_record_reader *r)
{
    const struct scope_thread_records *t = r->thread < r->nthreads ? &r->threads[r->thread] : NULL;
    r->thread_number = t ? t->thread : -1;
    r->part = THREAD_SPILL;
    r->ring_next = r->ring_end = 0;
    if (t && t->capacity > 0 && t->recycled <= t->spilled &&
        t->spilled - t->recycled < t->capacity) {
        r->ring_next = t->spilled;
        r->ring_end = t->recycled + t->capacity;
    }
    r->holding = 0;
    r->unfinished_left = 0;
    r->def_have = r->def_n = 0;
    r->items_left = 0;
    r->values_left = 0;
    end_comm_definition(r);
    for (size_t i = 0; t && i < SCOPE_THREAD_STACKS; i++)   /* the last one's stay */
        r->stack_sites[i] = -1;
}

void scope_record_reader_init(struct scope_record_reader *r, const struct scope_thread_records *t,
                              size_t n, const struct scope_clock_map *map)
{
    *r = (struct scope_record_reader){.threads = t, .nthreads = n, .map = map, .spill_fd = -1};
    for (size_t i = 0; i < SCOPE_THREAD_STACKS; i++)
        r->stack_sites[i] = -1;
    start_thread(r);
}

int32_t scope_record_reader_site(struct scope_record_reader *r, uint64_t caller, uint64_t stack)
{
    if (!r->sites)
        return -1;
    if (stack > 0 && stack <= SCOPE_THREAD_STACKS && r->stack_sites[stack - 1] >= 0)
        return r->stack_sites[stack - 1];
    return scope_site_table_intern(r->sites, &caller, 1);
}

/* The reader's site of a call-site record. */
static int32_t callsite_of(struct scope_record_reader *r, const struct scope_record *rec)
{
    return scope_record_reader_site(r, rec->start_word & SCOPE_TIME_MASK,
                                    rec->end_word & SCOPE_TIME_MASK);
}

/* One payload record of the stack definition being read; at its end the
 * stack becomes a site. */
static void take_stack_payload(struct scope_record_reader *r, const struct scope_record *rec)
{
    r->def_addrs[r->def_have++] = rec->start_word;
    r->def_addrs[r->def_have++] = rec->end_word;
    if (r->def_have < r->def_n)
        return;
    if (r->sites)
        r->stack_sites[r->def_number] = scope_site_table_intern(r->sites, r->def_addrs, r->def_n);
    r->def_have = r->def_n = 0;
}

static void start_stack_definition(struct scope_record_reader *r, const struct scope_record *rec)
{
    uint64_t number = rec->start_word & SCOPE_TIME_MASK, n = rec->end_word & SCOPE_TIME_MASK;
    int valid = number < SCOPE_THREAD_STACKS && n >= 1 && n <= SCOPE_CALLSITE_MAX_DEPTH;
    r->def_number = valid ? (uint32_t)number : 0;
    r->def_n = valid ? (uint32_t)n : 0;
    r->def_have = 0;
}

/* Decodes rec[0..n) into out; returns how many events. A call is held
 * back until a record that is not its call site or payload comes, so a batch
 * gives at most one event per record, and the thread's last call comes
 * out when its records end (flush_held). */
static size_t decode(struct scope_record_reader *r, const struct scope_thread_records *t,
                     const struct scope_record *rec, size_t n, struct scope_event *out)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        const struct scope_record *x = &rec[i];
        if (r->def_n > 0 && !scope_record_is_empty(x)) {
            take_stack_payload(r, x);
            continue;
        }
        r->def_n = 0;   /* a definition cut short (killed while writing it) */
        if (r->comm_n > 0 && !scope_record_is_empty(x)) {
            take_comm_members(r, x);
            continue;
        }
        end_comm_definition(r);
        if (r->items_left > 0 && !scope_record_is_empty(x)) {
            take_item(r, x);
            continue;
        }
        r->items_left = 0;
        if (r->values_left > 0) {   /* values may be all zero: no empty slot */
            take_values(r, x);
            continue;
        }
        if (scope_record_is_empty(x))
            continue;
        if (scope_record_is_callsite(x)) {   /* the held call's: payload may follow */
            if (r->holding)
                r->held.callsite = callsite_of(r, x);
            continue;
        }
        if (scope_record_is_values(x)) {
            start_values(r, x);
            continue;
        }
        if (scope_record_is_payload(x)) {
            r->items_left = (uint32_t)(x->start_word & SCOPE_TIME_MASK);
            r->held.carries = r->holding;
            continue;
        }
        if (r->holding)
            out[k++] = r->held;
        r->holding = 0;
        if (scope_record_is_commdef(x)) {
            r->comm_id = (uint32_t)(x->start_word & SCOPE_TIME_MASK);
            r->comm_n = (uint32_t)(x->end_word & SCOPE_TIME_MASK);
            r->comm_have = 0;
            if (r->comm_n == 0 && r->payload)
                scope_payload_store_end_comm(r->payload, (int32_t)r->comm_id, 0);
            continue;
        }
        if (scope_record_is_stackdef(x)) {
            start_stack_definition(r, x);
            continue;
        }
        if (scope_record_is_threadstart(x)) {
            r->thread_number = (int32_t)(x->start_word & SCOPE_TIME_MASK);
            r->unfinished_left = 0;
            continue;
        }
        if (scope_record_is_unfinished(x)) {
            r->unfinished_end = x->start_word & SCOPE_TIME_MASK;
            r->unfinished_left = (uint32_t)(x->end_word & SCOPE_TIME_MASK);
            continue;
        }
        struct scope_event *e = &r->held;
        uint64_t s, end;
        scope_record_decode(x, t->clock_base, &s, &end, &e->hook);
        e->start = scope_clock_map_apply(r->map, s);
        e->end = scope_clock_map_apply(r->map, end);
        e->thread = r->thread_number;
        e->callsite = -1;
        e->nitems = 0;
        e->item_first = 0;
        e->carries = 0;
        e->values = 0;
        e->unfinished = r->unfinished_left > 0 && (x->end_word & SCOPE_TIME_MASK) == r->unfinished_end;
        r->unfinished_left -= e->unfinished;
        r->holding = 1;
    }
    return k;
}

/* The thread's last call, held back by decode(), into out: 1, or 0. */
static long flush_held(struct scope_record_reader *r, struct scope_event *out)
{
    if (!r->holding)
        return 0;
    end_values(r);
    r->holding = 0;
    *out = r->held;
    return 1;
}

/* The next records of the current thread's spill file; 0 when it is done. */
static long next_from_spill(struct scope_record_reader *r, const struct scope_thread_records *t,
                            struct scope_event *out, size_t cap, char *err, size_t errlen)
{
    if (r->spill_fd < 0) {
        r->spill_fd = t->spill_path && t->spilled ? open(t->spill_path, O_RDONLY | O_CLOEXEC) : -1;
        r->spill_read = 0;
        if (r->spill_fd < 0) {
            if (!t->spill_path || !t->spilled)
                return 0;
            snprintf(err, errlen, "%s: %s", t->spill_path, strerror(errno));
            return -1;
        }
    }
    struct scope_record chunk[SPILL_READ_RECORDS];
    for (;;) {
        uint64_t left = t->spilled - r->spill_read;
        size_t want = cap < SPILL_READ_RECORDS ? cap : SPILL_READ_RECORDS;
        want = left < want ? (size_t)left : want;
        ssize_t got = want ? read(r->spill_fd, chunk, want * sizeof(chunk[0])) : 0;
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0)
            snprintf(err, errlen, "%s: %s", t->spill_path, strerror(errno));
        if (got <= 0) {
            close(r->spill_fd);
            r->spill_fd = -1;
            return got < 0 ? -1 : 0;
        }
        r->spill_read += (size_t)got / sizeof(chunk[0]);
        size_t k = decode(r, t, chunk, (size_t)got / sizeof(chunk[0]), out);
        if (k > 0)
            return (long)k;
    }
}

/* The next stretch of the ring's records to read, contiguous in memory:
 * its first slot in *slot and its length, 0 when the ring is done. Slots
 * from `ready` on were never used: skipped. */
static size_t ring_stretch(struct scope_record_reader *r, const struct scope_thread_records *t,
                           size_t *slot)
{
    while (r->ring_next < r->ring_end) {
        size_t s = (size_t)(r->ring_next % t->capacity);
        uint64_t left = r->ring_end - r->ring_next;
        size_t n = t->capacity - s < left ? t->capacity - s : (size_t)left;
        if (s < t->ready) {
            *slot = s;
            return n < t->ready - s ? n : t->ready - s;
        }
        r->ring_next += n;
    }
    return 0;
}

long scope_record_reader_next(struct scope_record_reader *r, struct scope_event *out, size_t cap,
                              char *err, size_t errlen)
{
    while (r->thread < r->nthreads && cap > 0) {
        const struct scope_thread_records *t = &r->threads[r->thread];
        if (r->part == THREAD_SPILL) {
            long k = next_from_spill(r, t, out, cap, err, errlen);
            if (k < 0)
                r->part = THREAD_DONE;
            if (k != 0)
                return k;
            r->part = THREAD_RING;
        }
        size_t slot, n;
        while (r->part == THREAD_RING && (n = ring_stretch(r, t, &slot)) > 0) {
            n = n < cap ? n : cap;
            size_t k = decode(r, t, t->records + slot, n, out);
            r->ring_next += n;
            if (k > 0)
                return (long)k;
        }
        r->part = THREAD_DONE;
        if (flush_held(r, out))
            return 1;
        r->thread++;
        start_thread(r);
    }
    return 0;
}

void scope_record_reader_close(struct scope_record_reader *r)
{
    if (r->spill_fd >= 0)
        close(r->spill_fd);
    r->spill_fd = -1;
}
