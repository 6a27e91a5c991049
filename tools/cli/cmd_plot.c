/* scope plot: draw the profile as a standalone SVG: a Gantt chart, duration
 * bars, a flame graph or the communication matrix (plot_<kind>.c). */
#include "cli.h"
#include "plot.h"

#include <stdlib.h>

static int run(scope_file *f, const cli_options *opt, report *out, scope_error *err)
{
    (void)out; /* writes its own output */
    static int (*const plots[])(const scope_file *, const scope_filter *, FILE *,
                                scope_error *) = {plot_gantt, plot_durations, plot_flame,
                                                  plot_comm};
    if (opt->kind == PLOT_COMM && !cli_has_matrix(f))
        return cli_no_payload(f, err);
    scope_filter flt;
    FILE *file = cli_open_selection_output(f, opt, &flt, err);
    if (!file)
        return -1;
    int rc = plots[opt->kind](f, &flt, file, err);
    return cli_output_close(file, opt->output, rc < 0, err);
}

const cli_command cmd_plot = {
    .name = "plot",
    .summary = "draw an SVG: Gantt chart per rank, duration bars, flame graph, comm matrix",
    .description =
        "Draw the profile as a standalone SVG (open it in a browser; hover a bar for\n"
        "its numbers).\n"
        "  --kind gantt      one lane per rank (and thread), a bar per call coloured\n"
        "                    by region, nested calls below their callers; the time\n"
        "                    axis starts at the first region entry; with MPI\n"
        "                    payload, a line from each send to its receive\n"
        "  --kind durations  total time of every region on every rank\n"
        "  --kind flame      the call stack merged by path over the selected ranks,\n"
        "                    widths = total time\n"
        "  --kind comm       the point-to-point matrix of a run that recorded MPI\n"
        "                    payload: a row per sender, a column per receiver, cells\n"
        "                    shaded by the bytes sent (log scale), numbers on hover\n"
        "--include/--exclude hide regions (their nested calls move up).",
    .example = "scope plot profiling_data.h5 --kind gantt -o gantt.svg",
    .options = OPT_REGIONS | OPT_RANKS | OPT_OUTPUT | OPT_PLOT | OPT_NO_FORMAT,
    .run = run,
};
