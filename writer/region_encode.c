/* region_encode.c: a region's calls buffered by window and encoded (see
 * region_encode.h). A full window waits until the next call comes, so a
 * region of exactly one window is still stored as one exact chunk. */
#include "region_encode.h"

#include <stdlib.h>
#include <string.h>

const size_t region_column_size[REGION_NCOLUMNS] = {sizeof(int64_t), sizeof(int64_t),
                                                    sizeof(int32_t), sizeof(int32_t)};

int region_encoder_init(struct region_encoder *e)
{
    memset(e, 0, sizeof *e);
    if (chunk_codec_init(&e->codec, REGION_WINDOW * sizeof(int64_t)) != 0)
        return -1;
    for (int c = 0; c < REGION_NCOLUMNS; c++) {
        e->column[c] = malloc(REGION_WINDOW * region_column_size[c]);
        e->out[c] = malloc(chunk_codec_bound(REGION_WINDOW * sizeof(int64_t)));
        if (!e->column[c] || !e->out[c]) {
            region_encoder_free(e);
            return -1;
        }
    }
    return 0;
}

void region_encoder_free(struct region_encoder *e)
{
    for (int c = 0; c < REGION_NCOLUMNS; c++) {
        free(e->column[c]);
        free(e->out[c]);
    }
    chunk_codec_free(&e->codec);
    memset(e, 0, sizeof *e);
}

void region_encoder_begin(struct region_encoder *e)
{
    e->buffered = 0;
    e->flushed = 0;
    e->has_callsites = 0;
    e->stats = (struct call_stats){0};
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

static void buffer_calls(struct region_encoder *e, const int64_t *start, const int64_t *end,
                         const int32_t *thread_ids, const int32_t *callsite_ids, size_t n)
{
    memcpy((int64_t *)e->column[REGION_START] + e->buffered, start, n * sizeof *start);
    memcpy((int64_t *)e->column[REGION_END] + e->buffered, end, n * sizeof *end);
    copy_ids((int32_t *)e->column[REGION_THREAD] + e->buffered, thread_ids, 0, n);
    copy_ids((int32_t *)e->column[REGION_CALLSITE] + e->buffered, callsite_ids, -1, n);
    for (size_t i = 0; callsite_ids && !e->has_callsites && i < n; i++)
        e->has_callsites = callsite_ids[i] >= 0;
    call_stats_add(&e->stats, start, end, n);
    e->buffered += n;
}

/* Encodes the buffered calls as a window and hands it on. */
static int emit_window(struct region_encoder *e, int last, region_window_fn emit, void *ctx,
                       const char **why)
{
    struct region_window w = {.n = e->buffered, .last = last, .has_callsites = e->has_callsites,
                              .stats = e->stats};
    w.extensible = e->flushed || !last;
    w.chunk = w.extensible ? REGION_WINDOW : e->buffered < REGION_COMPRESS_MIN ? 0 : e->buffered;
    int ncolumns = e->has_callsites ? REGION_NCOLUMNS : REGION_CALLSITE;
    struct encode_job jobs[REGION_NCOLUMNS];
    for (int c = 0; c < ncolumns; c++) {
        size_t size = region_column_size[c];
        if (w.chunk == 0) {
            w.data[c] = e->column[c];
            w.bytes[c] = e->buffered * size;
            continue;
        }
        /* a short last chunk is padded with zeros, which the extent hides */
        memset((char *)e->column[c] + e->buffered * size, 0, (w.chunk - e->buffered) * size);
        jobs[c] = (struct encode_job){e->column[c], w.chunk, size, e->out[c], 0};
    }
    if (w.chunk != 0) {
        encode_helpers_run(e->helpers, &e->codec, jobs, (size_t)ncolumns);
        for (int c = 0; c < ncolumns; c++) {
            w.bytes[c] = jobs[c].bytes;
            w.data[c] = e->out[c];
            if (w.bytes[c] == 0) {
                *why = "cannot compress a chunk";
                return -1;
            }
        }
    }
    e->flushed = 1;
    e->buffered = 0;
    e->stats = (struct call_stats){0};
    return emit(ctx, &w);
}

int region_encoder_add(struct region_encoder *e, const int64_t *start, const int64_t *end,
                       const int32_t *thread_ids, const int32_t *callsite_ids, size_t n,
                       region_window_fn emit, void *ctx, const char **why)
{
    if (n > 0 && (!start || !end)) {
        *why = "append: start and end must not be NULL";
        return -1;
    }
    while (n > 0) {
        if (e->buffered == REGION_WINDOW && emit_window(e, 0, emit, ctx, why) != 0)
            return -1;
        size_t take = REGION_WINDOW - e->buffered < n ? REGION_WINDOW - e->buffered : n;
        buffer_calls(e, start, end, thread_ids, callsite_ids, take);
        start += take;
        end += take;
        thread_ids = thread_ids ? thread_ids + take : NULL;
        callsite_ids = callsite_ids ? callsite_ids + take : NULL;
        n -= take;
    }
    return 0;
}

int region_encoder_end(struct region_encoder *e, region_window_fn emit, void *ctx,
                       const char **why)
{
    return emit_window(e, 1, emit, ctx, why);
}
