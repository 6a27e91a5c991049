/* scope imbalance: per region, how unevenly the selected ranks shared it:
 * max/min and max/mean of the per-rank totals, the slowest and the fastest
 * rank (scope_region_imbalance). The table is also summary's third. */
#include "cli.h"
#include "selection.h"

#include <stdlib.h>

void cli_imbalance_table(const scope_file *f, const scope_filter *flt, report *out)
{
    table *t = report_table(out, "imbalance", false);
    table_column(t, "region", COL_TEXT);
    table_column(t, "ranks", COL_INT);
    table_column(t, "slowest_rank", COL_INT);
    table_column(t, "max", COL_DURATION);
    table_column(t, "fastest_rank", COL_INT);
    table_column(t, "min", COL_DURATION);
    table_column(t, "mean", COL_DURATION);
    table_column(t, "max_over_min", COL_RATIO);
    table_column(t, "max_over_mean", COL_RATIO);
    for (size_t r = 0; r < scope_region_count(f); r++) {
        scope_imbalance im;
        if (scope_filter_region(f, flt, r, NULL) != 1 ||
            scope_region_imbalance(f, r, flt, &im, NULL) < 0)
            continue; /* filtered out, or not recorded on the selected ranks */
        table_text(t, scope_region_name(f, r));
        table_int(t, (int64_t)im.ranks);
        table_int(t, im.max_rank);
        table_num(t, im.max);
        table_int(t, im.min_rank);
        table_num(t, im.min);
        table_num(t, im.mean);
        table_num(t, im.max_over_min);
        table_num(t, im.max_over_mean);
    }
}

static int run(scope_file *f, const cli_options *opt, report *out, scope_error *err)
{
    scope_filter flt;
    size_t n_ranks;
    if (cli_filter(f, opt, &flt, err) < 0)
        return -1;
    /* report a bad regex or an unknown rank instead of an empty table */
    bool *keep = selected_regions(f, &flt, err);
    int *ranks = keep ? selected_ranks(f, &flt, &n_ranks, err) : NULL;
    if (ranks)
        cli_imbalance_table(f, &flt, out);
    free(keep);
    free(ranks);
    return ranks ? 0 : -1;
}

const cli_command cmd_imbalance = {
    .name = "imbalance",
    .summary = "per region: max/min and max/mean of the per-rank totals, slowest/fastest rank",
    .description =
        "Load imbalance of every region over the selected ranks that recorded it:\n"
        "each rank's total time in the region, then the largest (slowest_rank, max),\n"
        "the smallest (fastest_rank, min), their mean, max/min ('-' when min is 0)\n"
        "and max/mean. 1.00x is perfect balance; max/mean is what waiting for the\n"
        "slowest rank at a barrier costs.",
    .example = "scope imbalance profiling_data.h5 --sort max_over_mean --top 10",
    .options = OPT_REGIONS | OPT_RANKS | OPT_SORT | OPT_TOP | OPT_RECOMPUTE,
    .run = run,
};
