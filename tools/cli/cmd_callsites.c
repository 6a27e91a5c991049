/* scope callsites: per region, where its calls came from, by total time:
 * count, total, mean, share of the region and the slowest ranks of each
 * call site (scope_callsites). */
#include "callsite_text.h"
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>

/* "3 0 1": the ranks with the most time at the site, slowest first. */
static const char *slowest_text(const scope_callsite_stats *s, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < s->n_slowest && used < len; i++) {
        int n = snprintf(buf + used, len - used, "%s%d", i ? " " : "", s->slowest_ranks[i]);
        used += n > 0 ? (size_t)n : 0;
    }
    return buf;
}

static int run(scope_file *f, const cli_options *opt, report *out, scope_error *err)
{
    if (!scope_has_callsites(f)) {
        snprintf(err->message, sizeof err->message,
                 "no call sites recorded; give the functions a depth in the config "
                 "('[callsites] depth = 1', or 'PATTERN depth=1' on a line) and run again");
        return -1;
    }
    scope_filter flt;
    size_t n = 0;
    if (cli_filter(f, opt, &flt, err) < 0)
        return -1;
    scope_callsite_stats *st = scope_callsites(f, &flt, &n, err);
    if (!st)
        return -1;
    size_t depth = scope_callsite_depth(f);
    table *t = report_table(out, "callsites", false);
    table_column(t, "region", COL_TEXT);
    table_column(t, "id", COL_INT);
    table_column(t, "callsite", COL_TEXT);
    if (depth > 1)
        table_column(t, "called_from", COL_TEXT);
    table_column(t, "calls", COL_INT);
    table_column(t, "total", COL_DURATION);
    table_column(t, "mean", COL_DURATION);
    table_column(t, "share", COL_PERCENT);
    table_column(t, "ranks", COL_INT);
    table_column(t, "slowest_ranks", COL_TEXT);
    table_column(t, "slowest_total", COL_DURATION);
    char text[4096];
    for (size_t i = 0; i < n; i++) {
        table_text(t, scope_region_name(f, st[i].region));
        table_int(t, st[i].callsite);
        table_text(t, st[i].callsite < 0 ? "(none)"
                                         : callsite_text(f, st[i].callsite, 0, 1, "", text,
                                                         sizeof text));
        if (depth > 1)
            table_text(t, callsite_text(f, st[i].callsite, 1, depth, " < ", text, sizeof text));
        table_int(t, (int64_t)st[i].calls);
        table_num(t, st[i].total);
        table_num(t, st[i].mean);
        table_num(t, st[i].share);
        table_int(t, (int64_t)st[i].ranks);
        table_text(t, slowest_text(&st[i], text, sizeof text));
        table_num(t, st[i].slowest_totals[0]);
    }
    free(st);
    return 0;
}

const cli_command cmd_callsites = {
    .name = "callsites",
    .summary = "per region: its call sites by total time, with count, mean and slowest ranks",
    .description =
        "Where each region's calls came from, for runs that recorded call sites (a\n"
        "depth in the config). One row per region and call site, largest total\n"
        "first: the caller as 'function (file:line)' (with -g, else\n"
        "'function+0xOFFSET (module)'), with depth > 1 the frames it was called\n"
        "from (called_from, innermost first), the calls, their total and mean\n"
        "time, their share of the region's time, the number of ranks that made\n"
        "them, the (up to 3) ranks that spent the most time there, slowest\n"
        "first, and that rank's time. id is the call site's index in the file\n"
        "(two calls on one line are two sites); -1, '(none)', gathers the calls\n"
        "recorded without a call site.",
    .example = "scope callsites profiling_data.h5 --include MPI_Allreduce --ranks 0-3",
    .options = OPT_REGIONS | OPT_RANKS | OPT_SORT | OPT_TOP,
    .run = run,
};
