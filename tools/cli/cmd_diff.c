/* scope diff A B: compare two profiles region by region: the mean per-rank
 * total in each, the difference and the speedup A/B. */
#include "cli.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The summary of one file under the options (their filter resolved for it). */
static scope_region_stats *stats(const scope_file *f, const cli_options *opt, size_t *n,
                                 scope_error *err)
{
    scope_filter flt;
    if (cli_filter(f, opt, &flt, err) < 0)
        return NULL;
    scope_region_stats *st = scope_summary(f, &flt, n, err);
    if (!st) {
        char msg[sizeof err->message];
        memcpy(msg, err->message, sizeof msg);
        snprintf(err->message, sizeof err->message, "%s: %.400s", scope_file_path(f), msg);
    }
    return st;
}

static const scope_region_stats *find(const scope_file *f, const scope_region_stats *st,
                                      size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(scope_region_name(f, st[i].region), name) == 0)
            return &st[i];
    return NULL;
}

static void row(table *t, const char *name, const scope_region_stats *a,
                const scope_region_stats *b)
{
    double ta = a ? a->rank_mean : NAN, tb = b ? b->rank_mean : NAN;
    table_text(t, name);
    table_num(t, ta);
    table_num(t, tb);
    table_num(t, tb - ta);
    table_num(t, a && b && tb > 0 ? ta / tb : NAN);
    table_text(t, a && b ? "both" : a ? "A only" : "B only");
}

static int run(scope_file *fa, scope_file *fb, const cli_options *opt, report *out,
               scope_error *err)
{
    size_t na = 0, nb = 0;
    scope_region_stats *a = stats(fa, opt, &na, err);
    scope_region_stats *b = a ? stats(fb, opt, &nb, err) : NULL;
    if (b) {
        table *t = report_table(out, "diff", false);
        table_column(t, "region", COL_TEXT);
        table_column(t, "a", COL_DURATION);
        table_column(t, "b", COL_DURATION);
        table_column(t, "diff", COL_DURATION);
        table_column(t, "speedup", COL_RATIO);
        table_column(t, "in", COL_TEXT);
        for (size_t i = 0; i < na; i++) {
            const char *name = scope_region_name(fa, a[i].region);
            row(t, name, &a[i], find(fb, b, nb, name));
        }
        for (size_t i = 0; i < nb; i++) {
            const char *name = scope_region_name(fb, b[i].region);
            if (!find(fa, a, na, name))
                row(t, name, NULL, &b[i]);
        }
    }
    free(a);
    free(b);
    return b ? 0 : -1;
}

const cli_command cmd_diff = {
    .name = "diff",
    .summary = "compare two profiles: per region total in A and B, difference, speedup A/B",
    .description =
        "Compare two profiles (say before and after a change) region by region. a and\n"
        "b are the region's total time per rank, averaged over the selected ranks of\n"
        "each file (ranks that never called it count as 0); diff is b - a (negative:\n"
        "B is faster) and speedup a / b (above 1: B is faster). Regions recorded in\n"
        "only one file say so in the column 'in' and have no speedup. Regions are\n"
        "listed in A's order, then those only B has.",
    .example = "scope diff before.h5 after.h5 --sort speedup",
    .options = OPT_REGIONS | OPT_RANKS | OPT_SORT | OPT_TOP,
    .run_pair = run,
};
