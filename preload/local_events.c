/* local_events.c: decodes this process's buffers, converts the raw
 * timestamps to ns and groups the calls by the regions of its hooks. */
#include "local_events.h"
#include "runtime.h"
#include "thread_buffer.h"

#include <stdio.h>
#include <stdlib.h>

int scope_local_events_build(struct scope_event_groups *g, const struct scope_clock_offsets *to_root,
                             char *err, size_t errlen)
{
    struct scope_event *raw = NULL;
    size_t n = 0;
    *g = (struct scope_event_groups){0};
    if (scope_buffers_collect(&raw, &n, err, errlen) != 0)
        return -1;
    struct scope_clock_map map;
    scope_clock_map_init(&map, &scope_rt.clock, to_root);
    for (size_t i = 0; i < n; i++) {
        raw[i].start = scope_clock_map_apply(&map, (uint64_t)raw[i].start);
        raw[i].end = scope_clock_map_apply(&map, (uint64_t)raw[i].end);
    }
    uint32_t *hook_region = malloc((scope_rt.nhooks ? scope_rt.nhooks : 1) * sizeof(uint32_t));
    int rc = -1;
    if (hook_region) {
        for (size_t h = 0; h < scope_rt.nhooks; h++)
            hook_region[h] = scope_rt.hooks[h].region;
        rc = scope_event_groups_build(g, raw, n, hook_region, scope_rt.nhooks, scope_rt.nregions);
    }
    free(hook_region);
    free(raw);
    if (rc != 0)
        snprintf(err, errlen, "out of memory grouping %zu events", n);
    return rc;
}

struct scope_region_info scope_local_region_info(const struct scope_event_groups *g, size_t r,
                                                 const void *ctx)
{
    (void)ctx;
    const struct scope_hook *h = &scope_rt.hooks[g->region_hook[r]];
    return (struct scope_region_info){
        .name = scope_rt.regions[r], .symbol = h->symbol, .library = h->module,
        .address = h->value, .has_self = g->self_known, .self_ns = g->region_self[r]};
}
