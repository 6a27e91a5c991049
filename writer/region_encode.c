/* region_encode.c: a region's calls, and their messages, buffered by
 * window and encoded (see region_encode.h). A full window waits until the
 * next value comes, so a group of exactly one window is still stored as
 * one exact chunk. */
#include "region_encode.h"

#include <stdlib.h>
#include <string.h>

const size_t region_column_size[REGION_NCOLUMNS] = {
    sizeof(int64_t), sizeof(int64_t), sizeof(int32_t), sizeof(int32_t),
    sizeof(int64_t), sizeof(int32_t), sizeof(int32_t), sizeof(int32_t), sizeof(int64_t),
    sizeof(int64_t), sizeof(int64_t), sizeof(int64_t), sizeof(int64_t), sizeof(int64_t),
    sizeof(int64_t), sizeof(int64_t),
    sizeof(int64_t), sizeof(int8_t), sizeof(int32_t), sizeof(int64_t), sizeof(int32_t),
    sizeof(int32_t)};

/* The first column of each group. */
static const int group_first[2] = {REGION_START, REGION_MSG_CALL};

/* Buffers of columns [from, to): values and, for the calls' columns, their
 * encoded chunk. */
static int alloc_columns(struct region_encoder *e, int from, int to)
{
    for (int c = from; c < to; c++) {
        if (!e->column[c] && !(e->column[c] = malloc(REGION_WINDOW * region_column_size[c])))
            return -1;
        if (c < REGION_CALL_COLUMNS && !e->out[c] &&
            !(e->out[c] = malloc(chunk_codec_bound(REGION_WINDOW * sizeof(int64_t)))))
            return -1;
    }
    return 0;
}

int region_encoder_init(struct region_encoder *e)
{
    memset(e, 0, sizeof *e);
    if (chunk_codec_init(&e->codec, REGION_WINDOW * sizeof(int64_t)) != 0)
        return -1;
    if (alloc_columns(e, REGION_START, REGION_BYTES) != 0) {
        region_encoder_free(e);
        return -1;
    }
    return 0;
}

void region_encoder_free(struct region_encoder *e)
{
    for (int c = 0; c < REGION_NCOLUMNS; c++)
        free(e->column[c]);
    for (int c = 0; c < REGION_CALL_COLUMNS; c++)
        free(e->out[c]);
    chunk_codec_free(&e->codec);
    memset(e, 0, sizeof *e);
}

int region_encoder_begin(struct region_encoder *e, int payload)
{
    memset(e->buffered, 0, sizeof e->buffered);
    memset(e->flushed, 0, sizeof e->flushed);
    e->has_threads = 0;
    e->has_callsites = 0;
    e->has_payload = payload;
    e->values = 0;
    e->calls = 0;
    e->stats = (struct call_stats){0};
    return payload != REGION_NO_PAYLOAD
               ? alloc_columns(e, REGION_BYTES, REGION_ARG1) != 0 ||
                         alloc_columns(e, REGION_MSG_CALL, REGION_NCOLUMNS) != 0 ? -1 : 0
               : 0;
}

int region_encoder_record_values(struct region_encoder *e, int values)
{
    e->values = values;
    for (int i = 0; i < REGION_VALUE_SLOTS; i++)
        if ((values >> i) & 1 && alloc_columns(e, REGION_ARG1 + i, REGION_ARG1 + i + 1) != 0)
            return -1;
    return 0;
}

/* Copies n ids into to, or fills it with `none` when ids is NULL. */
static void copy_ids(int32_t *to, const int32_t *ids, int32_t none, size_t n)
{
    if (ids) {
        memcpy(to, ids, n * sizeof *to);
        return;
    }
    for (size_t i = 0; i < n; i++)
        to[i] = none;
}

/* Appends n values of column c from `from`. */
static void put(struct region_encoder *e, int c, size_t at, const void *from, size_t n)
{
    memcpy((char *)e->column[c] + at * region_column_size[c], from, n * region_column_size[c]);
}

static void buffer_calls(struct region_encoder *e, const int64_t *start, const int64_t *end,
                         const int32_t *thread_ids, const int32_t *callsite_ids,
                         const struct region_payload *p, size_t from, size_t n)
{
    size_t at = e->buffered[REGION_CALLS];
    put(e, REGION_START, at, start + from, n);
    put(e, REGION_END, at, end + from, n);
    copy_ids((int32_t *)e->column[REGION_THREAD] + at, thread_ids ? thread_ids + from : NULL, 0, n);
    copy_ids((int32_t *)e->column[REGION_CALLSITE] + at, callsite_ids ? callsite_ids + from : NULL,
             -1, n);
    for (size_t i = 0; thread_ids && !e->has_threads && i < n; i++)
        e->has_threads = thread_ids[from + i] != 0;
    for (size_t i = 0; callsite_ids && !e->has_callsites && i < n; i++)
        e->has_callsites = callsite_ids[from + i] >= 0;
    if (e->has_payload) {
        put(e, REGION_BYTES, at, p->bytes + from, n);
        put(e, REGION_PEER, at, p->peer + from, n);
        put(e, REGION_TAG, at, p->tag + from, n);
        put(e, REGION_COMM, at, p->comm + from, n);
    }
    for (size_t i = 0; e->has_payload == REGION_IO_PAYLOAD && i < n; i++)
        ((int64_t *)e->column[REGION_OFFSET])[at + i] = p->offset ? p->offset[from + i] : -1;
    for (int i = 0; i < REGION_VALUE_SLOTS; i++)
        if ((e->values >> i) & 1)
            put(e, REGION_ARG1 + i, at, p->values[i] + from, n);
    call_stats_add(&e->stats, start + from, end + from, n);
    e->buffered[REGION_CALLS] += n;
}

/* Encodes the group's buffered values as a window and hands it on. */
static int emit_window(struct region_encoder *e, int group, int last, region_window_fn emit,
                       void *ctx, const char **why)
{
    size_t n = e->buffered[group];
    struct region_window w = {.n = n, .group = group, .last = last,
                              .has_threads = e->has_threads, .has_callsites = e->has_callsites,
                              .has_payload = e->has_payload,
                              .values = e->values};
    if (group == REGION_CALLS)
        w.stats = e->stats;
    w.extensible = e->flushed[group] || !last;
    w.chunk = w.extensible ? REGION_WINDOW : n < REGION_COMPRESS_MIN ? 0 : n;
    struct encode_job jobs[REGION_NCOLUMNS];
    int job_column[REGION_NCOLUMNS];
    size_t njobs = 0;
    for (int c = 0; c < REGION_NCOLUMNS; c++) {
        if (!region_window_has_column(&w, c))
            continue;
        size_t size = region_column_size[c];
        if (w.chunk == 0) {
            w.data[c] = e->column[c];
            w.bytes[c] = n * size;
            continue;
        }
        /* a short last chunk is padded with zeros, which the extent hides */
        memset((char *)e->column[c] + n * size, 0, (w.chunk - n) * size);
        unsigned char *out = e->out[c - group_first[group]];
        w.data[c] = out;
        job_column[njobs] = c;
        jobs[njobs++] = (struct encode_job){e->column[c], w.chunk, size, out, 0};
    }
    encode_helpers_run(e->helpers, &e->codec, jobs, njobs);
    for (size_t j = 0; j < njobs; j++) {
        w.bytes[job_column[j]] = jobs[j].bytes;
        if (jobs[j].bytes == 0) {
            *why = "cannot compress a chunk";
            return -1;
        }
    }
    e->flushed[group] = 1;
    e->buffered[group] = 0;
    if (group == REGION_CALLS)
        e->stats = (struct call_stats){0};
    return emit(ctx, &w);
}

/* The messages of the calls just added, rows counted from `first_row`. */
static int add_messages(struct region_encoder *e, const struct region_payload *p,
                        uint64_t first_row, region_window_fn emit, void *ctx, const char **why)
{
    for (size_t i = 0; i < p->nmessages; i++) {
        if (e->buffered[REGION_MESSAGES] == REGION_WINDOW &&
            emit_window(e, REGION_MESSAGES, 0, emit, ctx, why) != 0)
            return -1;
        size_t at = e->buffered[REGION_MESSAGES]++;
        int64_t row = (int64_t)first_row + p->msg_call[i];
        put(e, REGION_MSG_CALL, at, &row, 1);
        put(e, REGION_MSG_KIND, at, &p->msg_kind[i], 1);
        put(e, REGION_MSG_PEER, at, &p->msg_peer[i], 1);
        put(e, REGION_MSG_BYTES, at, &p->msg_bytes[i], 1);
        put(e, REGION_MSG_TAG, at, &p->msg_tag[i], 1);
        put(e, REGION_MSG_COMM, at, &p->msg_comm[i], 1);
    }
    return 0;
}

int region_encoder_add(struct region_encoder *e, const int64_t *start, const int64_t *end,
                       const int32_t *thread_ids, const int32_t *callsite_ids,
                       const struct region_payload *payload, size_t n, region_window_fn emit,
                       void *ctx, const char **why)
{
    if (n > 0 && (!start || !end)) {
        *why = "append: start and end must not be NULL";
        return -1;
    }
    if (n > 0 && (e->has_payload || e->values) && !payload) {
        *why = "append: the region's calls need their payload";
        return -1;
    }
    uint64_t first_row = e->calls;
    for (size_t done = 0; done < n;) {
        if (e->buffered[REGION_CALLS] == REGION_WINDOW &&
            emit_window(e, REGION_CALLS, 0, emit, ctx, why) != 0)
            return -1;
        size_t room = REGION_WINDOW - e->buffered[REGION_CALLS];
        size_t take = room < n - done ? room : n - done;
        buffer_calls(e, start, end, thread_ids, callsite_ids, payload, done, take);
        done += take;
    }
    e->calls += n;
    return e->has_payload == REGION_MESSAGE_PAYLOAD && payload
               ? add_messages(e, payload, first_row, emit, ctx, why)
               : 0;
}

int region_encoder_end(struct region_encoder *e, region_window_fn emit, void *ctx,
                       const char **why)
{
    if (e->has_payload == REGION_MESSAGE_PAYLOAD &&
        emit_window(e, REGION_MESSAGES, 1, emit, ctx, why) != 0)
        return -1;
    return emit_window(e, REGION_CALLS, 1, emit, ctx, why);
}
