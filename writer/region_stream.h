/* region_stream.h: one region's group and its datasets (start, end and
 * thread of each call, and its call site when the region has any), written
 * in bounded windows so memory stays constant whatever the number of
 * events. */
#ifndef SCOPE_REGION_STREAM_H
#define SCOPE_REGION_STREAM_H

#include "chunk_codec.h"
#include "h5_util.h"
#include "region_stats.h"
#include "scope_writer.h"

/* Events buffered per dataset before they are written; also the chunk size
 * of regions that outgrow one window. */
#define REGION_WINDOW ((size_t)64 * 1024)

/* Regions with at least this many events are chunked and compressed; below,
 * they are compact (stored in the object header). Measured: at 100 events a
 * compressed region takes 44 % less space, at 30 events there is no gain. */
#define REGION_COMPRESS_MIN ((size_t)128)

enum { REGION_START, REGION_END, REGION_THREAD, REGION_CALLSITE, REGION_NCOLUMNS };

struct region_stream {
    hid_t group;
    hid_t dset[REGION_NCOLUMNS];      /* created when the first window is full;
                                       * callsite_ids once a call has a site */
    hsize_t chunk;                    /* elements per chunk, 0: not chunked */
    void *buf[REGION_NCOLUMNS];       /* REGION_WINDOW elements each */
    struct chunk_codec codec;
    size_t buffered;                  /* events in buf */
    int has_callsites;                /* a call so far had a call site */
    hsize_t written;                  /* events already in the datasets */
    struct call_stats stats;          /* of every event appended so far */
    int has_self;                     /* from the region's info */
    int64_t self_ns;
    struct h5_err err;
};

/* Allocates the window buffers; -1 (err filled) when out of memory. */
int region_stream_init(struct region_stream *r, struct h5_err err);
void region_stream_free(struct region_stream *r);

int region_begin(struct region_stream *r, hid_t regions,
                 const struct scope_region_info *info);
/* thread_ids may be NULL (all events on thread 0), callsite_ids too (no
 * call has a call site; else -1 for those without). */
int region_append(struct region_stream *r, const int64_t *start, const int64_t *end,
                  const int32_t *thread_ids, const int32_t *callsite_ids, size_t n);
/* Writes what is buffered and the statistics (region_stats.h), and closes
 * the region. */
int region_end(struct region_stream *r);
/* Closes whatever is open without writing (after a failure). */
void region_close(struct region_stream *r);

#endif
