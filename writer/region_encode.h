/* region_encode.h: one region's calls as the file stores them, window by
 * window: the columns (start, end, thread and, once a call has one, call
 * site of each call), encoded chunk by chunk as HDF5's shuffle + deflate
 * pipeline would (chunk_codec.h), with the window's call statistics. It
 * knows nothing of HDF5 or MPI: libscope runs it on every rank at
 * MPI_Finalize, in parallel, and the writer only places the windows it is
 * given (scope_writer_api()->put_window), or encodes the calls appended to
 * it the same way. */
#ifndef SCOPE_REGION_ENCODE_H
#define SCOPE_REGION_ENCODE_H

#include <stddef.h>
#include <stdint.h>

#include "call_stats.h"
#include "chunk_codec.h"
#include "encode_helpers.h"

/* Calls per window; also the chunk size of regions that outgrow one. */
#define REGION_WINDOW ((size_t)64 * 1024)

/* Regions with at least this many calls are chunked and compressed; below,
 * they are compact (stored in the object header). Measured: at 100 calls a
 * compressed region takes 44 % less space, at 30 calls there is no gain. */
#define REGION_COMPRESS_MIN ((size_t)128)

enum { REGION_START, REGION_END, REGION_THREAD, REGION_CALLSITE, REGION_NCOLUMNS };

/* Bytes of one value of each column. */
extern const size_t region_column_size[REGION_NCOLUMNS];

/* One window of a region's calls, ready for the file. A region is either
 * one window (`extensible` 0: datasets of exactly n calls, one chunk of n,
 * or raw values when `chunk` is 0, for compact datasets) or a series of
 * windows of REGION_WINDOW calls (`extensible` 1: chunks of REGION_WINDOW,
 * the last one padded, datasets grown by each). */
struct region_window {
    uint64_t n;                 /* calls in the window */
    uint64_t chunk;             /* chunk length in calls, 0: raw values */
    int32_t extensible;
    int32_t last;               /* the region's last window */
    int32_t has_callsites;      /* the call-site column is included: a call */
                                /* of the region had one, here or earlier */
    uint64_t bytes[REGION_NCOLUMNS];
    const unsigned char *data[REGION_NCOLUMNS];
    struct call_stats stats;    /* of the window's calls */
};

struct region_encoder {
    void *column[REGION_NCOLUMNS];        /* REGION_WINDOW values each */
    unsigned char *out[REGION_NCOLUMNS];  /* encoded, chunk_codec_bound of a column */
    struct chunk_codec codec;
    struct encode_helpers *helpers;       /* NULL: columns encoded here, in turn */
    size_t buffered;
    int flushed;                          /* a window of the region went out */
    int has_callsites;
    struct call_stats stats;              /* of the buffered calls */
};

/* -1 when out of memory. */
int region_encoder_init(struct region_encoder *e);
void region_encoder_free(struct region_encoder *e);
/* Columns of a window encoded on these threads too (NULL: none); the
 * bytes are the same either way. */
static inline void region_encoder_use_helpers(struct region_encoder *e, struct encode_helpers *h)
{
    e->helpers = h;
}
/* Forgets the calls of the region before. */
void region_encoder_begin(struct region_encoder *e);

/* The most bytes a window's columns take together. */
static inline size_t region_window_max_bytes(void)
{
    return REGION_NCOLUMNS * chunk_codec_bound(REGION_WINDOW * sizeof(int64_t));
}

/* Takes a window the encoder produced; 0, or -1 to stop. */
typedef int (*region_window_fn)(void *ctx, const struct region_window *win);

/* Adds n calls of the region in start order (thread_ids NULL: all on
 * thread 0; callsite_ids NULL: none has a call site, else -1 for those
 * without), handing each full window to emit. 0, -1 when encoding failed
 * (*why says what) or emit returned -1. */
int region_encoder_add(struct region_encoder *e, const int64_t *start, const int64_t *end,
                       const int32_t *thread_ids, const int32_t *callsite_ids, size_t n,
                       region_window_fn emit, void *ctx, const char **why);

/* Hands the region's last window to emit (every region has one, maybe of
 * no calls). Same result as region_encoder_add. */
int region_encoder_end(struct region_encoder *e, region_window_fn emit, void *ctx,
                       const char **why);

#endif
