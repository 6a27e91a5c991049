/* write_rank.c: writes one process's events as one rank of the file, and
 * the run's call-site table. */
#include "write_rank.h"

#include "clock.h"
#include "encode_threads.h"
#include "log.h"
#include "profile_rank.h"

#include <stdlib.h>

int32_t *scope_chunk_callsites(int32_t *ids, size_t n, const int32_t *map)
{
    int any = 0;
    for (size_t i = 0; map && i < n; i++)
        if (ids[i] >= 0) {
            ids[i] = map[ids[i]];
            any = 1;
        }
    return any ? ids : NULL;
}

int scope_encode_region(struct scope_event_groups *g, size_t r, const int32_t *callsite_map,
                        int payload_kind, struct region_encoder *enc, struct scope_chunk *chunk,
                        region_window_fn emit, void *ctx, const char **why)
{
    size_t count = scope_event_groups_calls(g, r);
    int values = g->region_values ? g->region_values[r] : 0;
    if (region_encoder_begin(enc, payload_kind) != 0 ||
        region_encoder_record_values(enc, values) != 0) {
        *why = "out of memory encoding the calls";
        return -1;
    }
    for (size_t next = 0; next < count;) {
        next = scope_event_groups_chunk(g, r, next, chunk);
        struct region_payload payload = scope_chunk_payload(chunk);
        if (chunk->failed) {
            *why = "out of memory for the calls' messages";
            return -1;
        }
        if (region_encoder_add(enc, chunk->start, chunk->end, chunk->thread,
                               scope_chunk_callsites(chunk->callsite, chunk->n, callsite_map),
                               payload_kind || values ? &payload : NULL, chunk->n, emit, ctx,
                               why) != 0)
            return -1;
        if (chunk->n == 0)
            break;   /* the merge failed: scope_event_groups_error says why */
    }
    return region_encoder_end(enc, emit, ctx, why);
}

struct placing {
    const struct scope_writer_api *api;
    scope_writer *w;
    int rank;
    size_t placed, calls;   /* calls placed so far, of */
    int64_t began;
};

static int place_window(void *ctx, const struct region_window *win)
{
    struct placing *p = ctx;
    if (win->group == REGION_CALLS) {
        p->placed += win->n;
        scope_progress(scope_monotonic_ns() - p->began, "rank %d: %zu of %zu calls written",
                       p->rank, p->placed, p->calls);
    }
    return p->api->put_window(p->w, win);
}

int scope_write_rank(const struct scope_writer_api *api, scope_writer *w,
                     const struct scope_rank_info *rank, struct scope_event_groups *g,
                     const int32_t *callsite_map, scope_region_info_fn region_info,
                     const void *ctx, int64_t began_ns)
{
    struct scope_chunk *chunk = scope_chunk_new();
    struct region_encoder enc;
    struct placing placing = {api, w, rank->rank, 0, g->count, began_ns};
    int ready = region_encoder_init(&enc) == 0;
    region_encoder_use_helpers(&enc, scope_encode_threads());
    scope_rank_profile_name_sites(g->profile, callsite_map);
    if (!chunk || !ready || api->begin_rank(w, rank) != 0)
        goto fail;
    for (size_t r = 0; r < g->nregions; r++) {
        if (!scope_event_groups_has_calls(g, r))
            continue;   /* hooked but never called: no region */
        struct scope_region_info info = region_info(g, r, ctx);
        const char *why = NULL;
        if (api->begin_region(w, &info) != 0 ||
            scope_encode_region(g, r, callsite_map, region_payload_of(info.payload), &enc, chunk,
                                place_window, &placing, &why) != 0 ||
            scope_event_groups_error(g) || api->end_region(w) != 0)
            goto fail;
    }
    scope_progress_end();
    scope_chunk_free(chunk);
    region_encoder_free(&enc);
    return api->end_rank(w);
fail:
    scope_progress_end();
    scope_chunk_free(chunk);
    if (ready)
        region_encoder_free(&enc);
    return -1;
}

int scope_write_callsites(const struct scope_writer_api *api, scope_writer *w,
                          const struct scope_callsite_set *callsites)
{
    struct scope_callsite_table table;
    int32_t *storage;
    if (callsites->nsites == 0)
        return 0;
    if (scope_callsite_set_table(callsites, &table, &storage) != 0)
        return -1;
    int rc = api->callsites(w, &table);
    free(storage);
    return rc;
}
