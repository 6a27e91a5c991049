/* region_stream.h: one region's group and its datasets (start, end and
 * thread of each call, and its call site when the region has any), written
 * window by window (region_encode.h) so memory stays constant whatever the
 * number of calls. */
#ifndef SCOPE_REGION_STREAM_H
#define SCOPE_REGION_STREAM_H

#include "file_index.h"
#include "h5_util.h"
#include "region_encode.h"
#include "region_stats.h"
#include "scope_writer.h"

struct region_stream {
    hid_t group;
    hid_t dset[REGION_NCOLUMNS];      /* created by the first window; */
                                      /* callsite_ids once a call has a site */
    hsize_t chunk[2];                 /* of each group's datasets: elements */
                                      /* per chunk, 0: not chunked */
    struct region_encoder encoder;    /* for calls appended here */
    int complete;                     /* the region's last window is written */
    hsize_t written[2];               /* calls, messages already in the datasets */
    int has_payload;                  /* from the region's info */
    struct call_stats stats;          /* of every call written so far */
    int has_self;                     /* from the region's info */
    int64_t self_ns;
    char *name;                       /* its group's (escaped) name */
    struct file_index_region row;     /* its row of the file's index, so far */
    struct h5_err err;
};

/* Allocates the encoder; -1 (err filled) when out of memory. */
int region_stream_init(struct region_stream *r, struct h5_err err);
void region_stream_free(struct region_stream *r);

int region_begin(struct region_stream *r, hid_t regions,
                 const struct scope_region_info *info);
/* thread_ids may be NULL (all events on thread 0), callsite_ids too (no
 * call has a call site; else -1 for those without); payload only for a
 * region with payload (required then). */
int region_append(struct region_stream *r, const int64_t *start, const int64_t *end,
                  const int32_t *thread_ids, const int32_t *callsite_ids,
                  const struct region_payload *payload, size_t n);
/* A window encoded elsewhere (a region takes windows or appends, not both). */
int region_put_window(struct region_stream *r, const struct region_window *win);
/* Writes what is buffered and the statistics (region_stats.h), closes the
 * region and fills its row of the file's index (but its rank and name) and
 * *name, its group's name (the caller's to free). */
int region_end(struct region_stream *r, struct file_index_region *row, char **name);
/* Closes whatever is open without writing (after a failure). */
void region_close(struct region_stream *r);

#endif
