/* scope sizes: per MPI function, how many messages (point-to-point) or
 * calls (collectives, one-sided, I/O) moved how many bytes, in bins of
 * powers of two (scope_message_sizes). */
#include "cli.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

/* The bytes bin k holds: 0, 1, 2-3, 4-7, ... */
static void bin_bounds(size_t k, int64_t *from, int64_t *to)
{
    *from = k == 0 ? 0 : INT64_C(1) << (k - 1);
    *to = k == 0 ? 0 : k == 63 ? INT64_MAX : (INT64_C(1) << k) - 1;
}

static void functions_table(const scope_file *f, const scope_size_histogram *h, size_t n,
                            report *out)
{
    table *t = report_table(out, "functions", false);
    static const char *const names[] = {"function", "family", "counts", "count", "min_bytes",
                                        "mean_bytes", "max_bytes", "total_bytes"};
    static const col_kind kinds[] = {COL_TEXT, COL_TEXT, COL_TEXT, COL_INT, COL_INT,
                                     COL_NUMBER, COL_INT, COL_INT};
    for (size_t c = 0; c < 8; c++)
        table_column(t, names[c], kinds[c]);
    for (size_t i = 0; i < n; i++) {
        table_text(t, scope_region_name(f, h[i].region));
        table_text(t, scope_payload_family_name(h[i].family));
        table_text(t, h[i].messages ? "messages" : "calls");
        table_int(t, (int64_t)h[i].count);
        if (h[i].count == 0) {
            for (int c = 0; c < 3; c++)
                table_null(t);
        } else {
            table_int(t, h[i].min_bytes);
            table_num(t, (double)h[i].total_bytes / (double)h[i].count);
            table_int(t, h[i].max_bytes);
        }
        table_int(t, (int64_t)h[i].total_bytes);
    }
}

static int run(scope_file *f, const cli_options *opt, report *out, scope_error *err)
{
    scope_filter flt;
    size_t n = 0;
    if (cli_payload_filter(f, opt, &flt, err) < 0)
        return -1;
    scope_size_histogram *h = scope_message_sizes(f, &flt, &n, err);
    if (!h)
        return -1;
    table *t = report_table(out, "sizes", false);
    table_column(t, "function", COL_TEXT);
    table_column(t, "bin", COL_TEXT);
    table_column(t, "from", COL_INT);
    table_column(t, "to", COL_INT);
    table_column(t, "count", COL_INT);
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < SCOPE_SIZE_BINS; k++) {
            if (!h[i].bins[k])
                continue;
            int64_t from, to;
            char label[48];
            bin_bounds(k, &from, &to);
            if (from == to)
                snprintf(label, sizeof label, "%" PRId64, from);
            else
                snprintf(label, sizeof label, "%" PRId64 "-%" PRId64, from, to);
            table_text(t, scope_region_name(f, h[i].region));
            table_text(t, label);
            table_int(t, from);
            table_int(t, to);
            table_int(t, (int64_t)h[i].bins[k]);
        }
    if (opt->format != FORMAT_CSV) /* csv: the histogram alone, for scripts */
        functions_table(f, h, n, out);
    free(h);
    return 0;
}

const cli_command cmd_sizes = {
    .name = "sizes",
    .summary = "per MPI function: a histogram of message sizes in powers of two",
    .description =
        "How many bytes the MPI calls of a run that recorded payload (an MPI config)\n"
        "moved, per function, in bins of powers of two: 0, 1, 2-3, 4-7, ... bytes.\n"
        "Point-to-point functions count messages (each message a call sent or\n"
        "completed, with its own size: a Waitall completing three receives counts\n"
        "three), the others calls (the bytes each moved for its rank). One row per\n"
        "function and non-empty bin: function, bin, from, to, count (csv: only\n"
        "these); the table and json add per function its family, what it counts,\n"
        "the count and the min, mean, max and total bytes. A file without payload\n"
        "is an error with a hint.",
    .example = "scope sizes profiling_data.h5 --include Send --format csv",
    .options = OPT_REGIONS | OPT_RANKS | OPT_SORT | OPT_TOP,
    .run = run,
};
