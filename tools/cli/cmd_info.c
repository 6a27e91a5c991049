/* scope info: what a profile holds (ranks, regions, events, run times)
 * and its /metadata attributes. */
#include "cli.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "0-3,5" from the sorted rank ids. */
static char *rank_list(const scope_file *f)
{
    size_t n = scope_rank_count(f), len = 0;
    char *s = malloc(n * 24 + 1);
    if (!s)
        return NULL;
    s[0] = '\0';
    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j + 1 < n && scope_rank_id(f, j + 1) == scope_rank_id(f, j) + 1)
            j++;
        len += (size_t)sprintf(s + len, j > i ? "%s%d-%d" : "%s%d", i ? "," : "",
                               scope_rank_id(f, i), scope_rank_id(f, j));
        i = j + 1;
    }
    return s;
}

#define INFO_NAMES 10   /* names a table shows of a file with many regions */

static int by_total(const void *a, const void *b)
{
    double x = ((const scope_region_stats *)a)->total, y = ((const scope_region_stats *)b)->total;
    return (x < y) - (x > y);
}

/* The region names, ", "-separated: every one, or, past INFO_NAMES, the
 * INFO_NAMES with the most time and how to see them all. */
static char *region_list(scope_file *f, const cli_options *opt, scope_error *err)
{
    size_t n = scope_region_count(f);
    size_t shown = n > INFO_NAMES && !opt->all && opt->format == FORMAT_TABLE ? INFO_NAMES : n;
    scope_region_stats *st = NULL;
    if (n > INFO_NAMES && !opt->all && opt->format == FORMAT_TABLE && scope_times_known(f)) {
        scope_filter flt;
        size_t count = 0;
        if (cli_filter(f, opt, &flt, err) < 0 || !(st = scope_summary(f, &flt, &count, err)))
            return NULL;
        qsort(st, count, sizeof *st, by_total);
        shown = INFO_NAMES < count ? INFO_NAMES : count;
    }
    size_t len = 64;
    for (size_t r = 0; r < n; r++)
        len += strlen(scope_region_name(f, r)) + 2;
    char *s = malloc(len);
    if (!s) {
        free(st);
        snprintf(err->message, sizeof err->message, "out of memory");
        return NULL;
    }
    s[0] = '\0';
    for (size_t i = 0; i < shown; i++) {
        if (i)
            strcat(s, ", ");
        strcat(s, scope_region_name(f, st ? st[i].region : i));
    }
    if (st)
        sprintf(s + strlen(s), " (the %zu with the most time; --all for all %zu)", shown, n);
    else if (shown < n)
        sprintf(s + strlen(s), " (the first %zu; --all for all %zu)", shown, n);
    free(st);
    return s;
}

static int run(scope_file *f, const cli_options *opt, report *out, scope_error *err)
{
    char *ranks = rank_list(f), *regions = ranks ? region_list(f, opt, err) : NULL;
    if (!ranks || !regions) {
        free(ranks);
        free(regions);
        if (!ranks)
            snprintf(err->message, sizeof err->message, "out of memory");
        return -1;
    }
    static const struct {
        const char *name;
        col_kind kind;
    } cols[] = {
        {"file", COL_TEXT}, {"ranks", COL_INT}, {"rank_ids", COL_TEXT},
        {"regions", COL_INT}, {"region_names", COL_TEXT}, {"events", COL_INT},
        {"thread_ids", COL_TEXT}, {"run_start_time", COL_NUMBER},
        {"minimum_start_time", COL_NUMBER}, {"maximum_end_time", COL_NUMBER},
        {"time_span", COL_DURATION}, {"startup_time", COL_DURATION},
        {"time_origin", COL_NUMBER},
    };
    table *t = report_table(out, "info", true);
    for (size_t i = 0; i < sizeof cols / sizeof cols[0]; i++)
        table_column(t, cols[i].name, cols[i].kind);
    table_text(t, scope_file_path(f));
    table_int(t, (int64_t)scope_rank_count(f));
    table_text(t, ranks);
    table_int(t, (int64_t)scope_region_count(f));
    table_text(t, regions);
    table_int(t, (int64_t)scope_event_count(f));
    table_text(t, scope_has_thread_ids(f) ? "yes" : "no");
    /* without statistics, the calls alone give these: not read here */
    bool known = scope_times_known(f);
    table_num(t, scope_run_start_time(f));
    table_num(t, known ? scope_minimum_start_time(f) : NAN);
    table_num(t, known ? scope_maximum_end_time(f) : NAN);
    table_num(t, known ? scope_time_span(f) : NAN);
    table_num(t, known ? scope_startup_time(f) : NAN);
    table_num(t, known || scope_has_run_start_time(f) ? scope_time_origin(f) : NAN);
    if (!known)
        fprintf(stderr, "scope info: %s stores no statistics for some regions: their first "
                "entry, last exit and time span need their calls (--recompute reads them)\n",
                scope_file_path(f));
    free(ranks);
    free(regions);

    table *m = report_table(out, "metadata", true);
    for (size_t i = 0; i < scope_metadata_count(f); i++) {
        const scope_meta *a = scope_metadata(f, i);
        table_column(m, a->key, a->kind == SCOPE_META_INT     ? COL_INT
                                : a->kind == SCOPE_META_FLOAT ? COL_NUMBER
                                                              : COL_TEXT);
    }
    for (size_t i = 0; i < scope_metadata_count(f); i++) {
        const scope_meta *a = scope_metadata(f, i);
        if (a->kind == SCOPE_META_INT)
            table_int(m, a->int_value);
        else if (a->kind == SCOPE_META_FLOAT)
            table_num(m, a->float_value);
        else
            table_text(m, a->text);
    }
    return 0;
}

const cli_command cmd_info = {
    .name = "info",
    .summary = "ranks, regions, event count, run start, time span, metadata",
    .description = "Describe a profile: its ranks and regions, how many calls it holds, the run's\n"
                   "start (null when the file records none), first entry, last exit, time span\n"
                   "and startup time (first entry - run start), then the /metadata attributes.\n"
                   "A table names the 10 regions with the most time when there are more (--all:\n"
                   "every name; csv and json always list them all). It reads no calls: a file\n"
                   "without stored statistics (an h5py file) shows its first entry, last exit\n"
                   "and time span only with --recompute, which reads them.",
    .example = "scope info profiling_data.h5 --format json",
    .options = OPT_ALL | OPT_RECOMPUTE,
    .open_flags = SCOPE_OPEN_METADATA_ONLY,
    .run = run,
};
