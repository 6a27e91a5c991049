/* scope summary: per-region aggregates and, with several ranks, per-rank
 * totals and load imbalance. */
#include "cli.h"
#include "selection.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

/* One line on stderr per selected rank whose calls were not all recorded
 * (the figures leave those calls out), and one per rank with calls that
 * had not returned when recording stopped (they end there). */
static void say_incomplete(const scope_file *f, const int *ranks, size_t n_ranks)
{
    for (size_t i = 0; i < scope_rank_count(f); i++) {
        uint64_t dropped = scope_rank_dropped(f, i), unfinished = scope_rank_unfinished(f, i);
        bool selected = false;
        for (size_t k = 0; k < n_ranks && !selected; k++)
            selected = ranks[k] == scope_rank_id(f, i);
        if (dropped && selected)
            fprintf(stderr, "scope summary: rank %d: %" PRIu64 " calls were not recorded (too many"
                    " calls open at once on a thread) and are not in these figures\n",
                    scope_rank_id(f, i), dropped);
        if (unfinished && selected)
            fprintf(stderr, "scope summary: rank %d: %" PRIu64 " call%s had not returned when"
                    " recording stopped or %s thread ended (exit, _exit, exec, MPI_Finalize,"
                    " pthread_exit or cancellation inside %s) and end there\n",
                    scope_rank_id(f, i), unfinished, unfinished == 1 ? "" : "s",
                    unfinished == 1 ? "its" : "their", unfinished == 1 ? "it" : "them");
    }
}

static void regions_table(const scope_file *f, const scope_region_stats *st, size_t n,
                          report *out)
{
    static const char *const timing[] = {"total", "mean", "std", "min", "max", "self"};
    table *t = report_table(out, "regions", false);
    table_column(t, "region", COL_TEXT);
    table_column(t, "calls", COL_INT);
    for (size_t c = 0; c < 6; c++)
        table_column(t, timing[c], COL_DURATION);
    table_column(t, "share", COL_PERCENT);
    /* else the columns of old; a profile's bytes are in its peer totals */
    bool payload = cli_has_matrix(f);
    if (payload) {
        table_column(t, "bytes", COL_INT);
        table_column(t, "mean_bytes", COL_NUMBER);
    }
    for (size_t i = 0; i < n; i++) {
        table_text(t, scope_region_name(f, st[i].region));
        table_int(t, (int64_t)st[i].calls);
        table_num(t, st[i].total);
        table_num(t, st[i].mean);
        table_num(t, st[i].std);
        table_num(t, st[i].min);
        table_num(t, st[i].max);
        table_num(t, st[i].self);
        table_num(t, st[i].share);
        if (payload && st[i].has_bytes) {
            table_int(t, (int64_t)st[i].bytes);
            table_num(t, st[i].mean_bytes);
        } else if (payload) {
            table_null(t);
            table_null(t);
        }
    }
}

/* Rows region x rank for the selected ranks that recorded the region. */
static int per_rank_table(const scope_file *f, const scope_region_stats *st, size_t n,
                          const int *ranks, size_t n_ranks, report *out, scope_error *err)
{
    int64_t *self = malloc((scope_region_count(f) + 1) * n_ranks * sizeof *self);
    if (!self) {
        snprintf(err->message, sizeof err->message, "out of memory");
        return -1;
    }
    size_t nr = scope_region_count(f);
    for (size_t k = 0; k < n_ranks; k++)
        if (scope_self_times_ns(f, ranks[k], self + k * nr, err) < 0) {
            free(self);
            return -1;
        }
    table *t = report_table(out, "per_rank", false);
    table_column(t, "region", COL_TEXT);
    table_column(t, "rank", COL_INT);
    table_column(t, "calls", COL_INT);
    table_column(t, "total", COL_DURATION);
    table_column(t, "self", COL_DURATION);
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < n_ranks; k++) {
            if (!scope_region_recorded(f, st[i].region, ranks[k]))
                continue;
            table_text(t, scope_region_name(f, st[i].region));
            table_int(t, ranks[k]);
            table_int(t, (int64_t)scope_region_counted_calls(f, st[i].region, ranks[k]));
            table_num(t, scope_region_total(f, st[i].region, ranks[k]));
            table_num(t, (double)self[k * nr + st[i].region] / 1e9);
        }
    free(self);
    return 0;
}

static int run(scope_file *f, const cli_options *opt, report *out, scope_error *err)
{
    scope_filter flt;
    size_t n = 0, n_ranks = 0;
    if (cli_filter(f, opt, &flt, err) < 0)
        return -1;
    scope_region_stats *st = scope_summary(f, &flt, &n, err);
    if (!st)
        return -1;
    regions_table(f, st, n, out);
    int *ranks = selected_ranks(f, &flt, &n_ranks, err);
    int rc = ranks ? 0 : -1;
    if (rc == 0)
        say_incomplete(f, ranks, n_ranks);
    if (rc == 0 && n_ranks > 1) {
        rc = per_rank_table(f, st, n, ranks, n_ranks, out, err);
        if (rc == 0)
            cli_imbalance_table(f, &flt, out);
    }
    free(ranks);
    free(st);
    return rc;
}

const cli_command cmd_summary = {
    .name = "summary",
    .summary = "per region: calls, total, mean, std, min, max, self time, share; imbalance",
    .description =
        "Aggregate every region over the selected ranks: calls, total, mean, sample\n"
        "standard deviation (ddof=1, '-' for a single call), min, max, self time (the\n"
        "duration minus that of the direct children in the call stack) and share of\n"
        "the run: total / time span, where with several ranks total is the mean\n"
        "per-rank total (ranks without calls count as 0). With more than one rank,\n"
        "two more tables follow: per_rank (calls, total and self per region and rank)\n"
        "and imbalance (max/min and max/mean of the per-rank totals, as 'scope\n"
        "imbalance' prints them). The numbers come from the statistics scope's writer\n"
        "stores with each region, without reading the calls; --recompute derives them\n"
        "from the calls instead (files of other writers always are). A rank that\n"
        "could not record every call (its dropped_events), or whose calls were still\n"
        "open when recording stopped (regions' unfinished_calls), is named on stderr.\n"
        "A run that recorded MPI payload (an MPI config) adds bytes and mean_bytes:\n"
        "the bytes the calls of an MPI function moved over the selected ranks, and\n"
        "per call ('-' for regions without payload).\n"
        "Regions come by total time, most first (--sort for another column); a table\n"
        "shows the first 30 and says how many it left out (--all, --top N; csv and\n"
        "json always have every row).",
    .example = "scope summary profiling_data.h5 --sort total --top 5",
    .options = OPT_REGIONS | OPT_RANKS | OPT_SORT | OPT_TOP | OPT_ALL | OPT_RECOMPUTE,
    .default_sort = "total",
    .default_top = 30,
    .run = run,
};
