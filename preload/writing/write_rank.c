/* write_rank.c: writes one process's events as one rank of the file, and
 * the run's call-site table. */
#include "write_rank.h"

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

int scope_write_rank(const struct scope_writer_api *api, scope_writer *w,
                     const struct scope_rank_info *rank, struct scope_event_groups *g,
                     const int32_t *callsite_map, scope_region_info_fn region_info,
                     const void *ctx)
{
    struct scope_chunk *chunk = malloc(sizeof(*chunk));
    if (!chunk || api->begin_rank(w, rank) != 0)
        goto fail;
    for (size_t r = 0; r < g->nregions; r++) {
        if (!scope_event_groups_has_calls(g, r))
            continue;   /* hooked but never called: no region */
        struct scope_region_info info = region_info(g, r, ctx);
        if (api->begin_region(w, &info) != 0)
            goto fail;
        size_t next = 0;
        do {
            next = scope_event_groups_chunk(g, r, next, chunk);
            if (chunk->n &&
                api->append(w, chunk->start, chunk->end, chunk->thread,
                            scope_chunk_callsites(chunk->callsite, chunk->n, callsite_map),
                            chunk->n) != 0)
                goto fail;
        } while (chunk->n == SCOPE_CHUNK_EVENTS);
        if (scope_event_groups_error(g) || api->end_region(w) != 0)
            goto fail;
    }
    free(chunk);
    return api->end_rank(w);
fail:
    free(chunk);
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
