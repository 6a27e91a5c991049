/* The one option parser of the scope CLI: every subcommand's options,
 * its --help text, and the translation of options into a scope_filter. */
#include "cli.h"
#include "grow_array.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The group of --format: offered unless the command says OPT_NO_FORMAT. */
#define GROUP_FORMAT 0x80000000u

static bool offered(const cli_command *cmd, unsigned group)
{
    if (group == GROUP_FORMAT)
        return !(cmd->options & OPT_NO_FORMAT);
    return group == 0 || (cmd->options & group);
}

typedef struct option_doc {
    unsigned group; /* 0: every subcommand */
    const char *flag, *text;
} option_doc;

static const option_doc docs[] = {
    {OPT_REGIONS, "--include RE", "only regions matching RE (POSIX extended, repeatable)"},
    {OPT_REGIONS, "--exclude RE", "drop regions matching RE (repeatable)"},
    {OPT_RANKS, "--ranks LIST", "only these ranks, e.g. 0,2-3"},
    {OPT_RANK, "--rank N", "the rank to show (default: the lowest)"},
    {OPT_TIME, "--absolute", "raw clock times instead of times from the origin"},
    {OPT_TIME, "--origin O", "zero point: run-start, first-entry or SECONDS (clock value)"},
    {OPT_SORT, "--sort COLUMN", "sort rows (numbers descending, text ascending)"},
    {OPT_TOP, "--top N", "print the first N rows only"},
    {OPT_ALL, "--all", "every row, also where a table shows the first ones by default"},
    {OPT_EXPORT, "--to T", "chrome (default), folded, csv or json"},
    {OPT_EXPORT, "--what W", "csv/json: events (default) or summary"},
    {OPT_EXPORT, "--per-rank", "folded: start every stack with 'rank N'"},
    {OPT_PLOT, "--kind K", "gantt (default), durations, flame or comm"},
    {OPT_COLLECTIVES, "--collectives", "add the bytes moved by collectives per rank"},
    {OPT_RECOMPUTE, "--recompute", "derive the statistics from the calls, not from the file's"},
    {OPT_SUGGEST, "--hook-cost NS", "what one hooked call costs (default: the file's figure)"},
    {OPT_SUGGEST, "--factor K", "short calls: a mean under K x the hook cost"},
    {OPT_SUGGEST, "--min-calls N", "many calls: N or more, over all ranks"},
    {OPT_SUGGEST, "--min-share P", "keep short functions with P % of the run or more"},
    {OPT_OUTPUT, "-o, --output F", "write to F (default: standard output)"},
    {GROUP_FORMAT, "--format F", "table (default), csv or json"},
    {0, "--help", "this help"},
};

void cli_command_help(const cli_command *cmd, FILE *out)
{
    fprintf(out, "usage: scope %s [options] FILE%s\n\n%s\n\noptions:\n", cmd->name,
            cmd->run_pair ? " FILE" : "", cmd->description);
    for (size_t i = 0; i < sizeof docs / sizeof docs[0]; i++)
        if (offered(cmd, docs[i].group))
            fprintf(out, "  %-15s %s\n", docs[i].flag,
                    docs[i].group == OPT_OUTPUT && cmd->output_doc ? cmd->output_doc
                                                                   : docs[i].text);
    fprintf(out, "\nexample:\n  %s\n", cmd->example);
}

static int usage(const cli_command *cmd, const char *fmt, const char *arg)
{
    fprintf(stderr, "scope %s: ", cmd->name);
    fprintf(stderr, fmt, arg);
    fprintf(stderr, " (see 'scope %s --help')\n", cmd->name);
    return 2;
}

static bool parse_long(const char *s, long min, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < min || v > INT32_MAX)
        return false;
    *out = v;
    return true;
}

/* A finite number >= min (and > min when !min_ok) into *out. */
static bool parse_number(const char *s, double min, bool min_ok, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || *end || !isfinite(v) || v < min || (v == min && !min_ok))
        return false;
    *out = v;
    return true;
}

/* "0,2-3" -> 0 2 3 */
static bool parse_ranks(const char *list, cli_options *opt)
{
    char *copy = strdup(list), *save = NULL;
    bool ok = copy && *copy;
    for (char *item = copy ? strtok_r(copy, ",", &save) : NULL; ok && item;
         item = strtok_r(NULL, ",", &save)) {
        char *dash = strchr(item, '-');
        long lo, hi;
        if (dash)
            *dash = '\0';
        ok = parse_long(item, 0, &lo) && (!dash || parse_long(dash + 1, lo, &hi));
        if (!dash)
            hi = lo;
        if (ok && hi - lo > 1000000)
            ok = false;
        for (long r = lo; ok && r <= hi; r++) {
            ok = scope_grow_array((void **)&opt->ranks, &opt->cap_ranks, opt->n_ranks + 1,
                                  sizeof *opt->ranks) == 0;
            if (ok)
                opt->ranks[opt->n_ranks++] = (int)r;
        }
    }
    free(copy);
    return ok;
}

static bool push_string(const char ***list, size_t *n, size_t *cap, const char *s)
{
    if (scope_grow_array((void **)list, cap, *n + 1, sizeof **list) != 0)
        return false;
    (*list)[(*n)++] = s;
    return true;
}

static bool parse_origin(const char *s, cli_options *opt)
{
    char *end;
    if (strcmp(s, "run-start") == 0)
        opt->origin = ORIGIN_RUN_START;
    else if (strcmp(s, "first-entry") == 0)
        opt->origin = ORIGIN_FIRST_ENTRY;
    else {
        errno = 0;
        opt->origin_seconds = strtod(s, &end);
        if (errno || end == s || *end || !isfinite(opt->origin_seconds))
            return false;
        opt->origin = ORIGIN_SECONDS;
    }
    return true;
}

bool cli_parse_format(const char *s, table_format *out)
{
    static const char *const names[] = {"table", "csv", "json"};
    for (int i = 0; i < 3; i++)
        if (strcmp(s, names[i]) == 0) {
            *out = (table_format)i;
            return true;
        }
    return false;
}

/* Index of s in names[0 .. n-1], -1 when absent. */
static int keyword(const char *s, const char *const *names, int n)
{
    for (int i = 0; i < n; i++)
        if (strcmp(s, names[i]) == 0)
            return i;
    return -1;
}

static const char *const export_names[] = {"chrome", "folded", "csv", "json"};
static const char *const plot_names[] = {"gantt", "durations", "flame", "comm"};
static const char *const what_names[] = {"events", "summary"};

enum { K_INCLUDE = 256, K_EXCLUDE, K_RANKS, K_RANK, K_ABSOLUTE, K_ORIGIN, K_SORT, K_TOP,
       K_FORMAT, K_HELP, K_TO, K_WHAT, K_PER_RANK, K_KIND, K_RECOMPUTE, K_ALL, K_HOOK_COST,
       K_FACTOR, K_MIN_CALLS, K_MIN_SHARE, K_COLLECTIVES, K_OUTPUT = 'o' };

static const struct {
    struct option opt;
    unsigned group;
} option_table[] = {
    {{"include", required_argument, NULL, K_INCLUDE}, OPT_REGIONS},
    {{"exclude", required_argument, NULL, K_EXCLUDE}, OPT_REGIONS},
    {{"ranks", required_argument, NULL, K_RANKS}, OPT_RANKS},
    {{"rank", required_argument, NULL, K_RANK}, OPT_RANK},
    {{"absolute", no_argument, NULL, K_ABSOLUTE}, OPT_TIME},
    {{"origin", required_argument, NULL, K_ORIGIN}, OPT_TIME},
    {{"sort", required_argument, NULL, K_SORT}, OPT_SORT},
    {{"top", required_argument, NULL, K_TOP}, OPT_TOP},
    {{"to", required_argument, NULL, K_TO}, OPT_EXPORT},
    {{"what", required_argument, NULL, K_WHAT}, OPT_EXPORT},
    {{"per-rank", no_argument, NULL, K_PER_RANK}, OPT_EXPORT},
    {{"kind", required_argument, NULL, K_KIND}, OPT_PLOT},
    {{"recompute", no_argument, NULL, K_RECOMPUTE}, OPT_RECOMPUTE},
    {{"all", no_argument, NULL, K_ALL}, OPT_ALL},
    {{"collectives", no_argument, NULL, K_COLLECTIVES}, OPT_COLLECTIVES},
    {{"hook-cost", required_argument, NULL, K_HOOK_COST}, OPT_SUGGEST},
    {{"factor", required_argument, NULL, K_FACTOR}, OPT_SUGGEST},
    {{"min-calls", required_argument, NULL, K_MIN_CALLS}, OPT_SUGGEST},
    {{"min-share", required_argument, NULL, K_MIN_SHARE}, OPT_SUGGEST},
    {{"output", required_argument, NULL, K_OUTPUT}, OPT_OUTPUT},
    {{"format", required_argument, NULL, K_FORMAT}, GROUP_FORMAT},
    {{"help", no_argument, NULL, K_HELP}, 0},
};
#define N_OPTIONS (sizeof option_table / sizeof option_table[0])

static int apply(const cli_command *cmd, int key, const char *arg, cli_options *opt)
{
    long v;
    switch (key) {
    case K_INCLUDE:
        return push_string(&opt->include, &opt->n_include, &opt->cap_include, arg) ? 0 : 2;
    case K_EXCLUDE:
        return push_string(&opt->exclude, &opt->n_exclude, &opt->cap_exclude, arg) ? 0 : 2;
    case K_RANKS:
        return parse_ranks(arg, opt) ? 0 : usage(cmd, "--ranks: bad rank list '%s'", arg);
    case K_RANK:
        if (!parse_long(arg, 0, &v))
            return usage(cmd, "--rank: bad rank '%s'", arg);
        opt->has_rank = true;
        opt->rank = (int)v;
        return 0;
    case K_ABSOLUTE:
        opt->absolute = true;
        return 0;
    case K_RECOMPUTE:
        opt->recompute = true;
        return 0;
    case K_ALL:
        opt->all = true;
        return 0;
    case K_COLLECTIVES:
        opt->collectives = true;
        return 0;
    case K_ORIGIN:
        return parse_origin(arg, opt) ? 0 : usage(cmd, "--origin: expected run-start, "
                                                  "first-entry or seconds, not '%s'", arg);
    case K_SORT:
        opt->sort = arg;
        return 0;
    case K_TOP:
        if (!parse_long(arg, 0, &v))
            return usage(cmd, "--top: bad count '%s'", arg);
        opt->top = v;
        return 0;
    case K_FORMAT:
        return cli_parse_format(arg, &opt->format) ? 0 : usage(cmd, "--format: expected table, "
                                                         "csv or json, not '%s'", arg);
    case K_TO:
        if ((v = keyword(arg, export_names, 4)) < 0)
            return usage(cmd, "--to: expected chrome, folded, csv or json, not '%s'", arg);
        opt->to = (export_format)v;
        return 0;
    case K_WHAT:
        if ((v = keyword(arg, what_names, 2)) < 0)
            return usage(cmd, "--what: expected events or summary, not '%s'", arg);
        opt->what_summary = v == 1;
        return 0;
    case K_PER_RANK:
        opt->per_rank = true;
        return 0;
    case K_KIND:
        if ((v = keyword(arg, plot_names, 4)) < 0)
            return usage(cmd, "--kind: expected gantt, durations, flame or comm, not '%s'", arg);
        opt->kind = (plot_kind)v;
        return 0;
    case K_HOOK_COST:
        return parse_number(arg, 0, false, &opt->hook_cost_ns)
                   ? 0 : usage(cmd, "--hook-cost: expected nanoseconds > 0, not '%s'", arg);
    case K_FACTOR:
        return parse_number(arg, 0, false, &opt->factor)
                   ? 0 : usage(cmd, "--factor: expected a number > 0, not '%s'", arg);
    case K_MIN_CALLS:
        if (!parse_long(arg, 0, &v))
            return usage(cmd, "--min-calls: bad count '%s'", arg);
        opt->min_calls = v;
        return 0;
    case K_MIN_SHARE:
        if (!parse_number(arg, 0, true, &opt->min_share) || opt->min_share > 100)
            return usage(cmd, "--min-share: expected a percentage from 0 to 100, not '%s'", arg);
        opt->min_share /= 100;
        return 0;
    case K_OUTPUT:
        opt->output = strcmp(arg, "-") == 0 ? NULL : arg;
        return 0;
    case K_HELP:
        cli_command_help(cmd, stdout);
        return 1;
    default:
        return usage(cmd, "%s", "bad option");
    }
}

int cli_parse(const cli_command *cmd, int argc, char **argv, cli_options *opt)
{
    struct option longopts[N_OPTIONS + 1];
    size_t n = 0;
    for (size_t i = 0; i < N_OPTIONS; i++)
        if (offered(cmd, option_table[i].group))
            longopts[n++] = option_table[i].opt;
    longopts[n] = (struct option){0};

    memset(opt, 0, sizeof *opt);
    opt->top = -1;
    opt->hook_cost_ns = opt->factor = opt->min_share = -1;
    opt->min_calls = -1;
    opterr = 0;
    optind = 1;
    int key, rc = 0;
    const char *shorts = cmd->options & OPT_OUTPUT ? ":o:" : ":";
    while (rc == 0 && (key = getopt_long(argc, argv, shorts, longopts, NULL)) != -1) {
        if (key == '?' || key == ':')
            rc = usage(cmd, key == ':' ? "option '%s' needs an argument" : "unknown option '%s'",
                       argv[optind - 1]);
        else
            rc = apply(cmd, key, optarg, opt);
    }
    int n_files = cmd->run_pair ? 2 : 1;
    if (rc == 0 && optind + n_files != argc)
        rc = usage(cmd, "%s", optind + n_files > argc ? "missing FILE"
                              : n_files == 1 ? "expected exactly one FILE"
                                             : "expected exactly two FILEs");
    if (rc == 0 && opt->absolute && opt->origin != ORIGIN_DEFAULT)
        rc = usage(cmd, "%s", "--absolute and --origin exclude each other");
    if (rc == 0) {
        opt->file = argv[optind];
        opt->file2 = n_files == 2 ? argv[optind + 1] : NULL;
    }
    return rc;
}

void cli_options_free(cli_options *opt)
{
    free(opt->include);
    free(opt->exclude);
    free(opt->ranks);
}

int cli_filter(const scope_file *f, const cli_options *opt, scope_filter *out, scope_error *err)
{
    *out = (scope_filter){
        .include = opt->include, .n_include = opt->n_include,
        .exclude = opt->exclude, .n_exclude = opt->n_exclude,
        .ranks = opt->ranks, .n_ranks = opt->n_ranks,
        .absolute = opt->absolute,
        .has_origin = opt->origin != ORIGIN_DEFAULT,
    };
    switch (opt->origin) {
    case ORIGIN_DEFAULT:
        break;
    case ORIGIN_RUN_START:
        if (!scope_has_run_start_time(f)) {
            snprintf(err->message, sizeof err->message, "--origin run-start: the file has no "
                     "run_start_time");
            return -1;
        }
        out->origin_ns = scope_run_start_time_ns(f);
        break;
    case ORIGIN_FIRST_ENTRY:
        out->origin_ns = scope_minimum_start_time_ns(f);
        break;
    case ORIGIN_SECONDS:
        out->origin_ns = llround(opt->origin_seconds * 1e9);
        break;
    }
    return 0;
}
