/* segment_decode.h: turns raw call records (from a buffer in shared memory
 * or from a spill file) back into events, a bounded batch at a time.
 * MPI-free and process-free: the running library and `scope recover` both
 * use it. */
#ifndef SCOPE_SEGMENT_DECODE_H
#define SCOPE_SEGMENT_DECODE_H

#include <stddef.h>
#include <stdint.h>

#include "call_values.h"
#include "clock.h"
#include "payload_store.h"
#include "record.h"
#include "segment.h"
#include "site_table.h"

struct scope_event {
    int64_t start, end;        /* ns once converted, raw before */
    uint32_t hook;
    int32_t thread;            /* per-process thread number */
    int32_t callsite;          /* -1 none, else its index in the reader's sites */
    uint8_t unfinished;        /* open when recording stopped: ended by scope */
    uint8_t carries;           /* recorded with a payload header (a wrapper's call) */
    uint8_t values;            /* the values it recorded (call_values.h), from */
                               /* item_first on in the payload store's values */
    uint32_t nitems;           /* payload items (payload.h) it carried, */
    uint64_t item_first;       /* from this one in the reader's payload store */
};

/* Where one buffer's records are (segment.h): first the oldest, the
 * `spilled` record slots at the start of its spill file, then those of its
 * ring from number `spilled` up to recycled + capacity, record g in slot
 * g % capacity (slots from `ready` on never used). `thread` is the thread
 * that recorded into it first; thread-start records name the later ones
 * (record.h). */
struct scope_thread_records {
    const char *spill_path;
    uint64_t spilled;
    const struct scope_record *records;
    size_t capacity, ready;
    uint64_t recycled;
    uint64_t clock_base;       /* to widen the 56-bit times */
    int32_t thread;
};

/* The records of the buffer whose segment header is h, with `slots` record
 * slots mapped after it (a damaged header that claims more has no ring),
 * its spill file found at spill_path. */
static inline struct scope_thread_records
scope_thread_records_of(const struct scope_segment_header *h, size_t slots, const char *spill_path)
{
    size_t capacity = h->capacity <= slots ? (size_t)h->capacity : 0;
    return (struct scope_thread_records){
        .spill_path = spill_path, .spilled = h->spilled, .records =
            (const struct scope_record *)((const char *)h + SCOPE_SEGMENT_HEADER_BYTES),
        .capacity = capacity, .ready = h->ready < capacity ? (size_t)h->ready : capacity,
        .recycled = h->recycled, .clock_base = h->clock_base, .thread = h->thread_number};
}

/* Reads the records of buffers threads[0..n) in that order, each one's in
 * the order they were written (a thread's calls in the order they ended,
 * one thread after another), converted to ns by `map`; with `sites` set,
 * call sites too. */
struct scope_record_reader {
    const struct scope_thread_records *threads;
    size_t nthreads;
    const struct scope_clock_map *map;
    struct scope_site_table *sites;   /* call sites go here; NULL: ignored */
    struct scope_payload_store *payload;   /* payload and communicators; NULL: ignored */
    size_t thread;             /* the buffer being read */
    /* Decoding the buffer's record stream (record.h), across batches: */
    int32_t thread_number;     /* of the thread whose records these are */
    struct scope_event held;   /* its last call, until its call site may follow */
    int holding;
    uint64_t unfinished_end;   /* raw end of the unfinished calls to come */
    uint32_t unfinished_left;  /* how many of them are still to come */
    uint32_t def_number, def_n, def_have;     /* a stack definition being read */
    uint64_t def_addrs[SCOPE_CALLSITE_MAX_DEPTH + 1];
    uint32_t items_left;       /* payload items of the held call still to come */
    uint32_t values_left;      /* values of the held call still to come */
    uint32_t comm_id, comm_n, comm_have;      /* a communicator definition being read */
    int32_t stack_sites[SCOPE_THREAD_STACKS]; /* the buffer's numbers: site, or -1 */
    int spill_fd;              /* -1: its spill file is done (or not opened yet) */
    enum { THREAD_SPILL, THREAD_RING, THREAD_DONE } part;   /* of it being read */
    uint64_t spill_read;       /* records read of it */
    uint64_t ring_next, ring_end;   /* record numbers of its ring still to read */
};

void scope_record_reader_init(struct scope_record_reader *r, const struct scope_thread_records *t,
                              size_t n, const struct scope_clock_map *map);
/* Up to cap events into out: how many (0 at the end), -1 on a read error
 * (err says which file). Empty slots are skipped. */
long scope_record_reader_next(struct scope_record_reader *r, struct scope_event *out, size_t cap,
                              char *err, size_t errlen);
void scope_record_reader_close(struct scope_record_reader *r);

/* The site in r->sites of a call site as a call-site record holds it
 * (record.h: the caller's return address, 0 or 1 + a stack number of the
 * buffer being read; once the reader is done, of the last buffer it read):
 * the stack it names, else the caller alone; -1 without sites or memory. */
int32_t scope_record_reader_site(struct scope_record_reader *r, uint64_t caller, uint64_t stack);

#endif
