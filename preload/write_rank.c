/* write_rank.c: writes this process's events as one rank of the file. */
#include "write_rank.h"
#include "runtime.h"

#include <stdlib.h>

struct scope_region_info scope_region_info_of(const struct scope_event_groups *le, size_t r)
{
    const struct scope_hook *h = &scope_rt.hooks[le->region_hook[r]];
    return (struct scope_region_info){
        .name = scope_rt.regions[r], .symbol = h->symbol, .library = h->module,
        .address = h->value};
}

int scope_write_rank(const struct scope_writer_api *api, scope_writer *w,
                     const struct scope_rank_info *rank, const struct scope_event_groups *le)
{
    struct scope_chunk *chunk = malloc(sizeof(*chunk));
    if (!chunk || api->begin_rank(w, rank) != 0)
        goto fail;
    for (size_t r = 0; r < le->nregions; r++) {
        if (le->region_begin[r + 1] == le->region_begin[r])
            continue;   /* hooked but never called: no region */
        struct scope_region_info info = scope_region_info_of(le, r);
        if (api->begin_region(w, &info) != 0)
            goto fail;
        size_t next = 0;
        do {
            next = scope_event_groups_chunk(le, r, next, chunk);
            if (chunk->n && api->append(w, chunk->start, chunk->end, chunk->thread, chunk->n) != 0)
                goto fail;
        } while (chunk->n == SCOPE_CHUNK_EVENTS);
        if (api->end_region(w) != 0)
            goto fail;
    }
    free(chunk);
    return api->end_rank(w);
fail:
    free(chunk);
    return -1;
}
