/* scope events: one row per recorded call (the seed's events()), with
 * its call site, MPI payload and argument and return values when the file
 * has them. */
#include "callsite_text.h"
#include "cli.h"


typedef struct rows_ctx {
    table *t;
    const scope_file *f;
    bool threads;
    size_t callsite_depth; /* 0: the file has no call sites */
    bool payload;          /* the file has MPI payload */
    bool io;               /* and MPI-IO calls: their file offsets */
    unsigned values;       /* the values some region records (scope_region_values) */
    int64_t origin; /* subtracted from the clock values */
} rows_ctx;

static int add_row(void *ctx, const scope_event *ev)
{
    const rows_ctx *rc = ctx;
    table *t = rc->t;
    table_text(t, ev->name);
    table_int(t, ev->rank);
    table_int(t, (int64_t)ev->call_index);
    table_ns(t, ev->start_ns - rc->origin);
    table_ns(t, ev->end_ns - rc->origin);
    table_ns(t, ev->end_ns - ev->start_ns);
    table_int(t, ev->call_id);
    table_int(t, ev->parent_id);
    if (rc->threads)
        table_int(t, ev->thread_id);
    if (rc->callsite_depth) {
        char text[4096];
        table_int(t, ev->callsite);
        table_text(t, callsite_text(rc->f, ev->callsite, 0, rc->callsite_depth, " < ", text,
                                    sizeof text));
    }
    if (rc->payload && ev->has_payload) {
        table_int(t, ev->bytes);
        table_int(t, ev->peer);
        table_int(t, ev->tag);
        table_int(t, ev->comm);
    } else if (rc->payload) {
        for (int c = 0; c < 4; c++)
            table_null(t);
    }
    if (rc->io && ev->has_payload &&
        scope_region_payload_family(rc->f, ev->region) == SCOPE_PAYLOAD_IO)
        table_int(t, ev->offset);
    else if (rc->io)
        table_null(t);
    for (size_t v = 0; v < SCOPE_VALUE_SLOTS; v++) {
        if (!(rc->values & (1u << v)))
            continue;
        if (ev->values & (1u << v))
            table_int(t, ev->value[v]);
        else
            table_null(t);
    }
    return 0;
}

static int run(scope_file *f, const cli_options *opt, report *out, scope_error *err)
{
    scope_filter flt;
    if (cli_filter(f, opt, &flt, err) < 0)
        return -1;
    rows_ctx rc = {report_rows(out, "events"), f, scope_has_thread_ids(f),
                   scope_has_callsites(f) ? scope_callsite_depth(f) : 0,
                   scope_has_payload(f), false, 0, scope_filter_origin_ns(f, &flt)};
    for (size_t r = 0; r < scope_region_count(f); r++) {   /* of the selected regions */
        int selected = scope_filter_region(f, &flt, r, err);
        if (selected < 0)
            return -1;
        rc.values |= selected ? scope_region_values(f, r) : 0;
        rc.io |= selected && scope_region_payload_family(f, r) == SCOPE_PAYLOAD_IO;
    }
    table *t = rc.t;
    table_column(t, "name", COL_TEXT);
    table_column(t, "rank", COL_INT);
    table_column(t, "call_index", COL_INT);
    table_column(t, "start", COL_SECONDS);
    table_column(t, "end", COL_SECONDS);
    table_column(t, "duration", COL_SECONDS);
    table_column(t, "call_id", COL_INT);
    table_column(t, "parent_id", COL_INT);
    if (rc.threads)
        table_column(t, "thread_id", COL_INT);
    if (rc.callsite_depth) {
        table_column(t, "callsite_id", COL_INT);
        table_column(t, "callsite", COL_TEXT);
    }
    static const char *const payload_columns[] = {"bytes", "peer", "tag", "comm"};
    for (size_t c = 0; rc.payload && c < 4; c++)
        table_column(t, payload_columns[c], COL_INT);
    if (rc.io)
        table_column(t, "offset", COL_INT);
    for (size_t v = 0; v < SCOPE_VALUE_SLOTS; v++)
        if (rc.values & (1u << v))
            table_column(t, scope_value_name(v), COL_INT);
    return scope_events_each(f, &flt, add_row, &rc, err);
}

const cli_command cmd_events = {
    .name = "events",
    .summary = "one row per call: name, rank, call_index, start, end, duration, call_id, parent_id",
    .description = "List every recorded call in region -> rank -> call order. start and end are\n"
                   "seconds from the run start (or the first entry when the file has no run\n"
                   "start), or raw clock seconds with --absolute. call_id is the call's index in\n"
                   "its rank's call stack (see 'scope tree'), parent_id its parent's or -1.\n"
                   "When the run recorded call sites: callsite_id (see 'scope callsites', -1 for\n"
                   "none) and callsite, the recorded frames, the caller first, joined by ' < '.\n"
                   "When the run recorded MPI payload: bytes, peer (a world rank), tag and comm\n"
                   "(a communicator id) of each MPI call, -1 for none or several, blank for\n"
                   "regions without payload; for MPI-IO calls, offset: the byte offset in the\n"
                   "file (-1: at the shared file pointer). When functions were configured with\n"
                   "'args=' or 'retval': arg1 .. arg6 and retval, the integer values recorded\n"
                   "(only the columns some region has; blank for the others; retval 0 for a\n"
                   "call that did not return).",
    .example = "scope events profiling_data.h5 --include solve --sort duration --top 10",
    .options = OPT_REGIONS | OPT_RANKS | OPT_TIME | OPT_SORT | OPT_TOP,
    .run = run,
};
