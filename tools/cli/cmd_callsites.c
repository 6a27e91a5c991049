/* scope callsites: per region, where its calls came from, by total time:
 * count, total, mean, share of the region, the slowest ranks of each call
 * site and, with MPI payload, its message sizes (scope_callsites). */
#include "callsite_text.h"
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* Per row: the callsite text (two sites of one region that read alike
 * told apart by their offsets), then the called_from text, malloc'd; NULL
 * when out of memory. */
static char **row_labels(const scope_file *f, const scope_callsite_stats *st, size_t n,
                         size_t depth)
{
    char **label = calloc(2 * n + 1, sizeof *label);   /* + 1: n may be 0 */
    char **from = calloc(n + 1, sizeof *from);
    long *sites = calloc(n + 1, sizeof *sites);
    uint64_t *region = calloc(n + 1, sizeof *region);
    char text[4096];
    bool ok = label && from && sites && region;
    for (size_t i = 0; ok && i < n; i++) {
        sites[i] = st[i].callsite;
        region[i] = st[i].region;
        ok = (from[i] = strdup(callsite_text(f, sites[i], 1, depth, " < ", text,
                                             sizeof text))) != NULL;
    }
    char **first = ok ? callsite_texts_apart(f, sites, region, (const char *const *)from, n)
                      : NULL;
    for (size_t i = 0; first && i < n; i++) {
        label[2 * i] = first[i];
        label[2 * i + 1] = from[i];
    }
    free(sites);
    free(region);
    if (first) {
        free(first);
        free(from);
        return label;
    }
    callsite_texts_free(from, n);
    free(label);
    return NULL;
}

/* mpiP's message sizes of a site: min, mean, max and total bytes of its
 * calls (blank for a region without payload). */
static void size_cells(table *t, const scope_callsite_stats *s)
{
    if (!s->has_bytes) {
        for (int c = 0; c < 4; c++)
            table_null(t);
        return;
    }
    table_int(t, s->min_bytes);
    table_num(t, s->mean_bytes);
    table_int(t, s->max_bytes);
    table_int(t, (int64_t)s->total_bytes);
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
    bool payload = scope_has_payload(f); /* else the columns of old */
    static const char *const size_columns[] = {"min_bytes", "mean_bytes", "max_bytes",
                                               "total_bytes"};
    for (size_t c = 0; payload && c < 4; c++)
        table_column(t, size_columns[c], c == 1 ? COL_NUMBER : COL_INT);
    char **label = row_labels(f, st, n, depth);
    if (!label) {
        free(st);
        snprintf(err->message, sizeof err->message, "out of memory");
        return -1;
    }
    char text[4096];
    for (size_t i = 0; i < n; i++) {
        table_text(t, scope_region_name(f, st[i].region));
        table_int(t, st[i].callsite);
        table_text(t, label[2 * i]);
        if (depth > 1)
            table_text(t, label[2 * i + 1]);
        table_int(t, (int64_t)st[i].calls);
        table_num(t, st[i].total);
        table_num(t, st[i].mean);
        table_num(t, st[i].share);
        table_int(t, (int64_t)st[i].ranks);
        table_text(t, slowest_text(&st[i], text, sizeof text));
        table_num(t, st[i].slowest_totals[0]);
        if (payload)
            size_cells(t, &st[i]);
    }
    callsite_texts_free(label, 2 * n);
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
        "first, and that rank's time. id is the call site's index in the file;\n"
        "two sites of a region that read alike (two calls on one line) are told\n"
        "apart by their return address's offset in the function, '[+0x38]'.\n"
        "-1, '(none)', gathers the calls recorded without a call site. A run that\n"
        "recorded MPI payload adds mpiP's message sizes: min_bytes, mean_bytes,\n"
        "max_bytes and total_bytes of the calls at each site ('-' for a region\n"
        "without payload). Of a profile (mode = profile), the calls and times of\n"
        "its call paths, each path of a function with call sites having its own;\n"
        "calls on no path (deeper than 32 hooked callers) are not counted.",
    .example = "scope callsites profiling_data.h5 --include MPI_Allreduce --ranks 0-3",
    .options = OPT_REGIONS | OPT_RANKS | OPT_SORT | OPT_TOP,
    .run = run,
};
