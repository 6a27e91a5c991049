/* scope tree: one rank's call stack, indented by depth (the seed's
 * call_stack()), with each call's self time. */
#include "cli.h"
#include "selection.h"

#include <stdlib.h>

static void fill(table *t, const scope_call *calls, size_t n, const scope_children *ch,
                 const bool *keep, int64_t origin, bool threads)
{
    table_column(t, "name", COL_TEXT);
    table_column(t, "duration", COL_DURATION);
    table_column(t, "self", COL_DURATION);
    table_column(t, "start", COL_SECONDS);
    table_column(t, "end", COL_SECONDS);
    table_column(t, "depth", COL_INT);
    table_column(t, "call_id", COL_INT);
    table_column(t, "parent_id", COL_INT);
    if (threads)
        table_column(t, "thread_id", COL_INT);
    for (size_t i = 0; i < n; i++) {
        if (!keep[calls[i].region])
            continue;
        double self = calls[i].duration;
        for (size_t k = ch->offsets[i]; k < ch->offsets[i + 1]; k++)
            self -= calls[ch->items[k]].duration;
        table_text_indent(t, calls[i].name, calls[i].depth);
        table_num(t, calls[i].duration);
        table_num(t, self);
        table_num(t, (double)(calls[i].start_ns - origin) / 1e9);
        table_num(t, (double)(calls[i].end_ns - origin) / 1e9);
        table_int(t, calls[i].depth);
        table_int(t, (int64_t)i);
        table_int(t, calls[i].parent);
        if (threads)
            table_int(t, calls[i].thread_id);
    }
}

static int run(scope_file *f, const cli_options *opt, report *out, scope_error *err)
{
    scope_filter flt;
    if (cli_filter(f, opt, &flt, err) < 0)
        return -1;
    int rank = opt->has_rank ? opt->rank : scope_rank_id(f, 0);
    size_t n = 0;
    bool *keep = selected_regions(f, &flt, err);
    scope_call *calls = keep ? scope_call_stack(f, rank, &n, err) : NULL;
    scope_children ch = {0};
    int rc = calls ? scope_call_stack_children(calls, n, &ch, err) : -1;
    if (rc == 0)
        fill(report_table(out, "calls", false), calls, n, &ch, keep,
             scope_filter_origin_ns(f, &flt), scope_has_thread_ids(f));
    scope_children_free(&ch);
    free(calls);
    free(keep);
    return rc;
}

const cli_command cmd_tree = {
    .name = "tree",
    .summary = "one rank's call stack, indented by depth, with self times",
    .description =
        "Print the call stack of one rank: its calls ordered by start, each indented\n"
        "under the call that contains it (nesting is reconstructed from containment,\n"
        "per thread when the file has thread ids). --include/--exclude hide regions\n"
        "without changing the nesting of the others.",
    .example = "scope tree profiling_data.h5 --rank 0 --top 8",
    .options = OPT_REGIONS | OPT_TIME | OPT_TOP | OPT_RANK,
    .run = run,
};
