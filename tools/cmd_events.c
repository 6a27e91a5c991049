/* scope events: one row per recorded call (the seed's events()). */
#include "cli.h"

#include <stdlib.h>

static int run(scope_file *f, const cli_options *opt, report *out, scope_error *err)
{
    scope_filter flt;
    size_t n = 0;
    if (cli_filter(f, opt, &flt, err) < 0)
        return -1;
    scope_event *ev = scope_events(f, &flt, &n, err);
    if (!ev)
        return -1;
    bool threads = scope_has_thread_ids(f);
    table *t = report_table(out, "events", false);
    table_column(t, "name", COL_TEXT);
    table_column(t, "rank", COL_INT);
    table_column(t, "call_index", COL_INT);
    table_column(t, "start", COL_SECONDS);
    table_column(t, "end", COL_SECONDS);
    table_column(t, "duration", COL_SECONDS);
    table_column(t, "call_id", COL_INT);
    table_column(t, "parent_id", COL_INT);
    if (threads)
        table_column(t, "thread_id", COL_INT);
    for (size_t i = 0; i < n; i++) {
        table_text(t, ev[i].name);
        table_int(t, ev[i].rank);
        table_int(t, (int64_t)ev[i].call_index);
        table_num(t, ev[i].start);
        table_num(t, ev[i].end);
        table_num(t, ev[i].duration);
        table_int(t, ev[i].call_id);
        table_int(t, ev[i].parent_id);
        if (threads)
            table_int(t, ev[i].thread_id);
    }
    free(ev);
    return 0;
}

const cli_command cmd_events = {
    .name = "events",
    .summary = "one row per call: name, rank, call_index, start, end, duration, call_id, parent_id",
    .description = "List every recorded call in region -> rank -> call order. start and end are\n"
                   "seconds from the run start (or the first entry when the file has no run\n"
                   "start), or raw clock seconds with --absolute. call_id is the call's index in\n"
                   "its rank's call stack (see 'scope tree'), parent_id its parent's or -1.",
    .example = "scope events profiling_data.h5 --include solve --sort duration --top 10",
    .options = OPT_REGIONS | OPT_RANKS | OPT_TIME | OPT_SORT | OPT_TOP,
    .run = run,
};
