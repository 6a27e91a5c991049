/* region_peers.c: peer totals by region (region_peers.h): sorted by
 * (region, peer, direction), the entries of one key (hooks of one region)
 * added into one. */
#include "region_peers.h"
#include "payload_functions.h"

#include <stdlib.h>

static const uint32_t *sort_regions;   /* hook -> region, for by_key */

static int by_key(const void *a, const void *b)
{
    const struct scope_peer_total *x = a, *y = b;
    uint32_t rx = sort_regions[x->hook], ry = sort_regions[y->hook];
    if (rx != ry)
        return rx < ry ? -1 : 1;
    if (x->peer != y->peer)
        return x->peer < y->peer ? -1 : 1;
    return (x->direction > y->direction) - (x->direction < y->direction);
}

int scope_region_peers_build(struct scope_region_peers *rp, struct scope_peer_total *totals,
                             size_t n, const uint32_t *hook_region,
                             const char *const *hook_symbol, size_t nhooks, size_t nregions)
{
    *rp = (struct scope_region_peers){0};
    size_t kept = 0;
    for (size_t i = 0; i < n; i++)   /* only known hooks of known regions */
        if (totals[i].hook < nhooks && hook_region[totals[i].hook] < nregions)
            totals[kept++] = totals[i];
    sort_regions = hook_region;
    qsort(totals, kept, sizeof *totals, by_key);
    size_t m = kept ? kept : 1;
    rp->region = calloc(nregions ? nregions : 1, sizeof *rp->region);
    rp->peer = malloc(m * sizeof *rp->peer);
    rp->direction = malloc(m * sizeof *rp->direction);
    rp->messages = malloc(m * sizeof *rp->messages);
    rp->bytes = malloc(m * sizeof *rp->bytes);
    if (!rp->region || !rp->peer || !rp->direction || !rp->messages || !rp->bytes) {
        scope_region_peers_free(rp);
        return -1;
    }
    size_t out = 0;
    for (size_t i = 0; i < kept; i++) {
        uint32_t r = hook_region[totals[i].hook];
        struct scope_peer_totals *pt = &rp->region[r];
        if (out > 0 && i > 0 && by_key(&totals[i - 1], &totals[i]) == 0) {
            rp->messages[out - 1] += (int64_t)totals[i].messages;
            rp->bytes[out - 1] += (int64_t)totals[i].bytes;
            continue;
        }
        if (pt->n == 0) {
            pt->peer = rp->peer + out;
            pt->direction = rp->direction + out;
            pt->messages = rp->messages + out;
            pt->bytes = rp->bytes + out;
        }
        rp->peer[out] = totals[i].peer;
        rp->direction[out] = (int8_t)totals[i].direction;
        rp->messages[out] = (int64_t)totals[i].messages;
        rp->bytes[out] = (int64_t)totals[i].bytes;
        out++;
        pt->n++;
    }
    for (size_t h = 0; h < nhooks; h++)
        if (hook_region[h] < nregions && scope_payload_family(hook_symbol[h]))
            rp->region[hook_region[h]].family = scope_payload_family(hook_symbol[h]);
    return 0;
}

const struct scope_peer_totals *scope_region_peers_of(const struct scope_region_peers *rp,
                                                      size_t r)
{
    return rp && rp->region && (rp->region[r].n || rp->region[r].family) ? &rp->region[r] : NULL;
}

void scope_region_peers_free(struct scope_region_peers *rp)
{
    free(rp->region);
    free(rp->peer);
    free(rp->direction);
    free(rp->messages);
    free(rp->bytes);
    *rp = (struct scope_region_peers){0};
}
