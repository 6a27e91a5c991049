/* region_encode.h: one region's calls as the file stores them, window by
 * window: the columns (start, end, thread and, once a call has one, call
 * site of each call; what MPI calls carried, and their messages), encoded chunk by chunk as HDF5's shuffle + deflate
 * pipeline would (chunk_codec.h), with the window's call statistics. It
 * knows nothing of HDF5 or MPI: libscope runs it on every rank at
 * MPI_Finalize, in parallel, and the writer only places the windows it is
 * given (scope_writer_api()->put_window), or encodes the calls appended to
 * it the same way. */
#ifndef SCOPE_REGION_ENCODE_H
#define SCOPE_REGION_ENCODE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "call_stats.h"
#include "chunk_codec.h"
#include "encode_helpers.h"

/* Values a call may record: arguments 1 to 6, the return value. */
#define REGION_VALUE_SLOTS 7

/* Calls per window; also the chunk size of regions that outgrow one. */
#define REGION_WINDOW ((size_t)64 * 1024)

/* Regions with at least this many calls are chunked and compressed; below,
 * they are compact (stored in the object header). Measured: at 100 calls a
 * compressed region takes 44 % less space, at 30 calls there is no gain. */
#define REGION_COMPRESS_MIN ((size_t)128)

/* The columns of a region. The calls' (one value per call): start, end,
 * thread, call site, for MPI calls with payload bytes, peer, tag,
 * communicator, for I/O calls the file offset, and for calls that record
 * them their integer arguments 1 to 6 and return value; the messages' (one
 * value per message of those calls,
 * point-to-point: payload_format in README.md): the call's row, kind,
 * peer, bytes, tag, communicator. */
enum {
    REGION_START, REGION_END, REGION_THREAD, REGION_CALLSITE,
    REGION_BYTES, REGION_PEER, REGION_TAG, REGION_COMM, REGION_OFFSET,
    REGION_ARG1, REGION_RETVAL = REGION_ARG1 + REGION_VALUE_SLOTS - 1,
    REGION_MSG_CALL, REGION_MSG_KIND, REGION_MSG_PEER, REGION_MSG_BYTES, REGION_MSG_TAG,
    REGION_MSG_COMM,
    REGION_NCOLUMNS
};
#define REGION_CALL_COLUMNS REGION_MSG_CALL    /* columns of the calls */
enum { REGION_CALLS, REGION_MESSAGES };          /* a window's group of columns */

/* What a region's calls carry (region_encoder_begin): nothing, values per
 * call only (collectives, one-sided: no message windows), those and the
 * offset (I/O), or values per call and per message (point-to-point). */
enum { REGION_NO_PAYLOAD, REGION_CALL_PAYLOAD, REGION_IO_PAYLOAD, REGION_MESSAGE_PAYLOAD };

/* The payload of a region of MPI payload family `family` (NULL: none). */
static inline int region_payload_of(const char *family)
{
    if (!family)
        return REGION_NO_PAYLOAD;
    if (strcmp(family, "p2p") == 0)
        return REGION_MESSAGE_PAYLOAD;
    return strcmp(family, "io") == 0 ? REGION_IO_PAYLOAD : REGION_CALL_PAYLOAD;
}

/* Bytes of one value of each column. */
extern const size_t region_column_size[REGION_NCOLUMNS];

/* What the calls of a region carried, beside their times (MPI calls):
 * per call, and per message with the index of its call among the calls
 * given with it (in call order). */
struct region_payload {
    const int64_t *bytes;
    const int32_t *peer, *tag, *comm;
    size_t nmessages;
    const int64_t *msg_call;
    const int8_t *msg_kind;
    const int32_t *msg_peer;
    const int64_t *msg_bytes;
    const int32_t *msg_tag, *msg_comm;
    const int64_t *offset;      /* per call, REGION_IO_PAYLOAD (NULL: -1, none) */
    const int64_t *values[REGION_VALUE_SLOTS];   /* per call: argument i + 1 or, */
                                                 /* last, the return value */
};

/* One window of a region's calls or of their messages (`group`), ready for
 * the file. A group is either one window (`extensible` 0: datasets of
 * exactly n values, one chunk of n, or raw values when `chunk` is 0, for
 * compact datasets) or a series of windows of REGION_WINDOW values
 * (`extensible` 1: chunks of REGION_WINDOW, the last one padded, datasets
 * grown by each). A region's message windows all come before its last
 * window of calls, which ends the region. */
struct region_window {
    uint64_t n;                 /* values in the window */
    uint64_t chunk;             /* chunk length in values, 0: raw values */
    int32_t group;              /* REGION_CALLS or REGION_MESSAGES */
    int32_t extensible;
    int32_t last;               /* the group's last window */
    int32_t has_threads;        /* the thread column is included: a call of */
                                /* the region ran off thread 0, here or earlier */
    int32_t has_callsites;      /* the call-site column is included: a call */
                                /* of the region had one, here or earlier */
    int32_t has_payload;        /* what the region's calls carry: REGION_*_PAYLOAD */
    int32_t values;             /* the values its calls record: bit i, column */
                                /* REGION_ARG1 + i */
    uint64_t bytes[REGION_NCOLUMNS];
    const unsigned char *data[REGION_NCOLUMNS];
    struct call_stats stats;    /* of the window's calls */
};

/* Whether window w carries column c. */
static inline int region_window_has_column(const struct region_window *w, int c)
{
    if (w->group == REGION_MESSAGES)
        return c >= REGION_CALL_COLUMNS;
    if (c >= REGION_CALL_COLUMNS)
        return 0;
    if (c == REGION_THREAD)
        return w->has_threads;
    if (c == REGION_CALLSITE)
        return w->has_callsites;
    if (c >= REGION_ARG1)
        return (w->values >> (c - REGION_ARG1)) & 1;
    if (c == REGION_OFFSET)
        return w->has_payload == REGION_IO_PAYLOAD;
    return c < REGION_BYTES || w->has_payload;
}

struct region_encoder {
    void *column[REGION_NCOLUMNS];        /* REGION_WINDOW values each; payload */
                                          /* and value ones once a region has them */
    unsigned char *out[REGION_CALL_COLUMNS];   /* encoded, chunk_codec_bound of a */
                                          /* column; a message window uses them too */
    struct chunk_codec codec;
    struct encode_helpers *helpers;       /* NULL: columns encoded here, in turn */
    size_t buffered[2];                   /* of each group */
    int flushed[2];                       /* a window of the group went out */
    int has_threads;
    int has_callsites;
    int has_payload;                      /* REGION_*_PAYLOAD */
    int values;                           /* columns REGION_ARG1 + i it records */
    uint64_t calls;                       /* calls of the region added so far */
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
/* Forgets the calls of the region before; the next carry `payload`
 * (REGION_*_PAYLOAD). -1 when out of memory for the payload's columns. */
int region_encoder_begin(struct region_encoder *e, int payload);
/* The region's calls record values too: bit i of `values`, column
 * REGION_ARG1 + i (given to region_encoder_add in payload->values). -1
 * when out of memory for their columns. */
int region_encoder_record_values(struct region_encoder *e, int values);

/* The most bytes a window's columns take together. */
static inline size_t region_window_max_bytes(void)
{
    return REGION_CALL_COLUMNS * chunk_codec_bound(REGION_WINDOW * sizeof(int64_t));
}

/* Takes a window the encoder produced; 0, or -1 to stop. */
typedef int (*region_window_fn)(void *ctx, const struct region_window *win);

/* Adds n calls of the region in start order (thread_ids NULL: all on
 * thread 0; callsite_ids NULL: none has a call site, else -1 for those
 * without; payload: required when the region has payload or values, else
 * ignored),
 * handing each full window to emit. 0, -1 when encoding failed (*why says
 * what) or emit returned -1. */
int region_encoder_add(struct region_encoder *e, const int64_t *start, const int64_t *end,
                       const int32_t *thread_ids, const int32_t *callsite_ids,
                       const struct region_payload *payload, size_t n, region_window_fn emit,
                       void *ctx, const char **why);

/* Hands the region's last windows to emit (messages first, for a region
 * of REGION_MESSAGE_PAYLOAD, then the calls; every region has one of
 * calls, maybe of no calls). Same result as region_encoder_add. */
int region_encoder_end(struct region_encoder *e, region_window_fn emit, void *ctx,
                       const char **why);

#endif
