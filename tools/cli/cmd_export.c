/* scope export: write the profile for other tools: a Chrome/Perfetto trace,
 * folded stacks, or the events (or summary) as CSV/JSON. */
#include "cli.h"
#include "export.h"

#include <stdlib.h>

/* --to csv|json: what `scope events` (or `scope summary`) prints. */
static int write_table(scope_file *f, const cli_options *opt, FILE *out, scope_error *err)
{
    report *r = report_new(out, opt->to == EXPORT_CSV ? FORMAT_CSV : FORMAT_JSON, NULL, -1);
    const cli_command *what = opt->what_summary ? &cmd_summary : &cmd_events;
    int rc = what->run(f, opt, r, err);
    if (rc == 0)
        rc = report_print(r, err);
    report_free(r);
    return rc;
}

static int run(scope_file *f, const cli_options *opt, report *out, scope_error *err)
{
    (void)out; /* writes its own output */
    scope_filter flt;
    if (opt->what_summary && opt->to != EXPORT_CSV && opt->to != EXPORT_JSON) {
        snprintf(err->message, sizeof err->message, "--what summary needs --to csv or json");
        return -1;
    }
    if (opt->per_rank && opt->to != EXPORT_FOLDED) {
        snprintf(err->message, sizeof err->message, "--per-rank needs --to folded");
        return -1;
    }
    FILE *file = cli_open_selection_output(f, opt, &flt, err);
    if (!file)
        return -1;
    int rc;
    switch (opt->to) {
    case EXPORT_CHROME:
        rc = export_chrome(f, &flt, file, err);
        break;
    case EXPORT_FOLDED:
        rc = export_folded(f, &flt, opt->per_rank, file, err);
        break;
    default:
        rc = write_table(f, opt, file, err);
        break;
    }
    return cli_output_close(file, opt->output, rc < 0, err);
}

const cli_command cmd_export = {
    .name = "export",
    .summary = "write a Chrome/Perfetto trace, folded stacks, or CSV/JSON of events or summary",
    .description =
        "Convert the profile for other tools.\n"
        "  --to chrome  trace-event JSON for ui.perfetto.dev or chrome://tracing: one\n"
        "               process per rank (pid = rank), one track per thread (tid =\n"
        "               thread id), an \"X\" event per call with ts and dur in\n"
        "               microseconds from the origin (raw clock with --absolute)\n"
        "  --to folded  'a;b;c 1234' lines: each call path of the call stack with its\n"
        "               self time in microseconds, merged over the selected ranks (or\n"
        "               under a 'rank N' frame with --per-rank); for flamegraph.pl and\n"
        "               speedscope\n"
        "  --to csv|json  the rows of 'scope events' (or of 'scope summary' with --what\n"
        "               summary)\n"
        "--include/--exclude leave calls out; in folded stacks their kept children\n"
        "move up to the nearest kept caller.",
    .example = "scope export profiling_data.h5 --to chrome -o trace.json",
    .options = OPT_REGIONS | OPT_RANKS | OPT_TIME | OPT_OUTPUT | OPT_EXPORT | OPT_NO_FORMAT,
    .run = run,
};
