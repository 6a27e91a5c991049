/* scope suggest: from a first run's file, a table of what each region's
 * hooks cost (its calls x what a hooked call cost there), as scorep-score
 * has it, and a config for the next run that leaves out the functions
 * whose calls are many and short (tools/suggest/). */
#include "cli.h"
#include "demangle.h"
#include "suggest.h"

#include <math.h>
#include <stdio.h>
#include <sys/stat.h>

#define DEFAULT_HOOK_COST_NS 30  /* for files without hook_cost_ns: the benchmark's figure */
#define DEFAULT_FACTOR 4
#define DEFAULT_MIN_CALLS 10000
#define DEFAULT_MIN_SHARE 1      /* percent */
#define STR(x) #x
#define XSTR(x) STR(x)

/* The rules the options ask for, the hook cost from the file unless given. */
static suggest_rules rules_of(const scope_file *f, const cli_options *opt)
{
    suggest_rules r = {
        .hook_cost_ns = opt->hook_cost_ns > 0 ? opt->hook_cost_ns : suggest_file_hook_cost(f),
        .cost_source = opt->hook_cost_ns > 0 ? "given by --hook-cost"
                                             : "measured at the run's start",
        .factor = opt->factor > 0 ? opt->factor : DEFAULT_FACTOR,
        .min_calls = opt->min_calls >= 0 ? (size_t)opt->min_calls : DEFAULT_MIN_CALLS,
        .min_share = opt->min_share >= 0 ? opt->min_share : DEFAULT_MIN_SHARE / 100.0,
    };
    if (r.hook_cost_ns <= 0) {
        r.hook_cost_ns = DEFAULT_HOOK_COST_NS;
        r.cost_source = "assumed: the file does not say";
        fprintf(stderr, "scope suggest: %s does not say what a hooked call cost (written before"
                " scope measured it): assuming %d ns; --hook-cost NS to give it\n",
                scope_file_path(f), DEFAULT_HOOK_COST_NS);
    }
    return r;
}

static void rows_table(const scope_file *f, const suggestion *s, report *out)
{
    struct stat st;
    double file_bytes = stat(scope_file_path(f), &st) == 0 && st.st_size > 0 ? (double)st.st_size
                                                                            : 0;
    table *t = report_table(out, "regions", false);
    static const struct {
        const char *name;
        col_kind kind;
    } cols[] = {
        {"region", COL_TEXT}, {"calls", COL_INT}, {"total", COL_DURATION},
        {"mean", COL_DURATION}, {"share", COL_PERCENT}, {"overhead", COL_DURATION},
        {"overhead_share", COL_PERCENT}, {"bytes", COL_INT}, {"bytes_share", COL_PERCENT},
        {"action", COL_TEXT}, {"reason", COL_TEXT},
    };
    for (size_t c = 0; c < sizeof cols / sizeof cols[0]; c++)
        table_column(t, cols[c].name, cols[c].kind);
    for (size_t i = 0; i < s->n; i++) {
        const suggest_row *row = &s->rows[i];
        table_text(t, scope_region_name(f, row->region));
        table_int(t, (int64_t)row->calls);
        table_num(t, row->total);
        table_num(t, row->mean);
        table_num(t, row->share);
        table_num(t, row->overhead);
        table_num(t, row->overhead_share);
        if (row->bytes >= 0)
            table_int(t, row->bytes);
        else
            table_null(t);
        table_num(t, row->bytes >= 0 && file_bytes > 0 ? (double)row->bytes / file_bytes : NAN);
        table_text(t, row->exclude ? "exclude" : "keep");
        table_text(t, row->reason);
    }
}

/* The record table of what the suggestion rests on. */
static void rules_table(const suggestion *s, const suggest_rules *r, report *out)
{
    table *t = report_table(out, "rules", true);
    table_column(t, "hook_cost_ns", COL_NUMBER);
    table_column(t, "hook_cost_from", COL_TEXT);
    table_column(t, "factor", COL_NUMBER);
    table_column(t, "min_calls", COL_INT);
    table_column(t, "min_share", COL_PERCENT);
    table_column(t, "config", COL_TEXT);
    table_num(t, r->hook_cost_ns);
    table_text(t, r->cost_source);
    table_num(t, r->factor);
    table_int(t, (int64_t)r->min_calls);
    table_num(t, r->min_share);
    table_text(t, s->have_config ? s->config_path : s->config_note);
}

/* One line on stderr: what is left out, what that saves, where it went. */
static void say_outcome(const scope_file *f, const suggestion *s, const cli_options *opt)
{
    size_t left_out = 0;
    double saved = 0;
    for (size_t i = 0; i < s->n; i++)
        if (s->rows[i].exclude) {
            left_out++;
            saved += s->rows[i].overhead_share;
        }
    if (s->n == 1) {
        fprintf(stderr, "scope suggest: %s has one region only (%s): nothing to choose between,"
                " it is kept\n", scope_file_path(f), scope_region_name(f, s->rows[0].region));
        return;
    }
    if (!s->have_config)
        fprintf(stderr, "scope suggest: %s: the suggested config lists the regions of the run\n",
                s->config_note);
    fprintf(stderr, "scope suggest: %zu of %zu regions left out, about %.2g %% of the run's time"
            " in hooks saved; %s%s\n", left_out, s->n, saved * 100,
            opt->output ? "written to " : "-o CONFIG writes the config",
            opt->output ? opt->output : "");
}

static int run(scope_file *f, const cli_options *opt, report *out, scope_error *err)
{
    suggest_rules rules = rules_of(f, opt);
    suggestion s;
    scope_demangle_may_load();
    if (suggest_make(f, &rules, &s, err) < 0) {
        suggest_free(&s);
        return -1;
    }
    const char *name = opt->output ? opt->output
                       : s.have_config ? s.config_path : "the suggested config";
    FILE *file = opt->output ? cli_output_open(opt->output, err) : NULL;
    int rc = opt->output && !file ? -1
                                  : suggest_write_config(f, &s, &rules, name, file, err);
    if (file && cli_output_close(file, opt->output, rc < 0, err) < 0)
        rc = -1;
    if (rc == 0) {
        rows_table(f, &s, out);
        rules_table(&s, &rules, out);
        say_outcome(f, &s, opt);
    }
    suggest_free(&s);
    return rc;
}

const cli_command cmd_suggest = {
    .name = "suggest",
    .summary = "what each region's hooks cost, and a config that leaves out the costly ones",
    .description =
        "From a first run's file, per region (as scorep-score has it): calls, total,\n"
        "mean, share of the run, the estimated overhead (calls x what one hooked call\n"
        "cost: the file's hook_cost_ns, measured at the run's start; --hook-cost NS\n"
        "for files without it, else " XSTR(DEFAULT_HOOK_COST_NS) " ns is assumed) and that per rank as a share of\n"
        "the run, the bytes of the region's datasets and their share of the file, and\n"
        "what a config for the next run does with the function. It keeps the\n"
        "functions the run's config names without a glob, MPI functions and a file's\n"
        "only region; it leaves out those with --min-calls (default " XSTR(DEFAULT_MIN_CALLS) ") calls or\n"
        "more and a mean under --factor (default " XSTR(DEFAULT_FACTOR) ") x the hook cost, unless they\n"
        "take --min-share (default " XSTR(DEFAULT_MIN_SHARE) ") % of the run with a mean of at least the hook\n"
        "cost; it keeps the rest. Regions come by overhead, most first; a table shows\n"
        "the first 30 (--all, --top N). -o CONFIG writes the config: the run's own\n"
        "(/metadata config) as it was, then a '!' line with its reason for each\n"
        "function left out; when that file is gone, the functions the run recorded, by\n"
        "name. Before it is written, scope's own config parser reads it back: what it\n"
        "leaves out is what the table says.",
    .example = "scope suggest profiling_data.h5 -o scope-next.conf",
    .options = OPT_SORT | OPT_TOP | OPT_ALL | OPT_OUTPUT | OPT_SUGGEST,
    .output_doc = "write the suggested config to F",
    .default_sort = "overhead",
    .default_top = 30,
    .run = run,
};
