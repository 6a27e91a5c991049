/* Which regions and ranks a reader filter selects, as arrays for the
 * subcommands, plots and exports that walk them (see selection.h). */
#include "selection.h"

#include <stdio.h>
#include <stdlib.h>

bool *selected_regions(const scope_file *f, const scope_filter *flt, scope_error *err)
{
    bool *keep = malloc(scope_region_count(f) + 1);
    for (size_t r = 0; keep && r < scope_region_count(f); r++) {
        int k = scope_filter_region(f, flt, r, err);
        if (k < 0) {
            free(keep);
            return NULL;
        }
        keep[r] = k;
    }
    if (!keep)
        snprintf(err->message, sizeof err->message, "out of memory");
    return keep;
}

int *selected_ranks(const scope_file *f, const scope_filter *flt, size_t *n, scope_error *err)
{
    int *ranks = malloc((scope_rank_count(f) + 1) * sizeof *ranks);
    long k = ranks ? scope_filter_ranks(f, flt, ranks, err) : -1;
    if (!ranks)
        snprintf(err->message, sizeof err->message, "out of memory");
    if (k < 0) {
        free(ranks);
        return NULL;
    }
    *n = (size_t)k;
    return ranks;
}
