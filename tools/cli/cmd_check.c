/* cmd_check.c: `scope check`: what a config would hook in a program,
 * without running it: for each pattern, the functions it selects in the
 * program and its libraries and whether each can be hooked inline (or
 * why not), the patterns that match nothing, and a summary line. The exit
 * status says whether everything asked for can be hooked. */
#include "cli.h"
#include "inspect_check.h"

#include <string.h>

static const char check_help[] =
    "usage: scope check [-c CONFIG] [-f FUNCTIONS] [--format table|csv|json] PROGRAM\n"
    "\n"
    "Say what CONFIG (and FUNCTIONS, added to it as with scope run) would hook in\n"
    "PROGRAM and the libraries it loads, without running it: for each pattern,\n"
    "the functions it selects, each hookable inline, through the PLT (an\n"
    "exported function that cannot be patched: the calls of other modules,\n"
    "through their GOTs) or with the reason it is not (too short, ends in\n"
    "window, branch into window, no long form, undecodable, cannot\n"
    "relocate; never hooked: functions a hook would break, such as setjmp,\n"
    "vfork, dlopen, startup code and the unwinder, refused whatever the\n"
    "patterns say), then the patterns (with the call-site depth of their functions\n"
    "and the arguments and return value they record: args=, retval)\n"
    "and those that match nothing, and a summary line. The verdict comes from\n"
    "the bytes in the files: at run time a\n"
    "hook can still fail for reasons a static check cannot see (no trampoline\n"
    "can be mapped within 2 GiB of the function), and libraries the program\n"
    "dlopens are not seen (they are hooked when loaded). A function that\n"
    "cannot be hooked is not profiled.\n"
    "\n"
    "options:\n"
    "  -c, --config FILE     the config file\n"
    "  -f, --functions LIST  comma-separated patterns, added to the config\n"
    "      --format F        table (default), csv or json\n"
    "  -h, --help            this help\n"
    "\n"
    "exit status: 0 every selected function is hookable, 1 some are not or a\n"
    "pattern matches nothing, 2 error (bad config, missing program)\n"
    "\n"
    "example:\n"
    "  scope check -c scope.conf ./app\n";

static void functions_table(const struct inspect_check *c, const struct scope_config *cfg,
                            report *r)
{
    table *t = report_table(r, "functions", false);
    const char *names[] = {"pattern", "module", "function", "hookable", "reason"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        table_column(t, names[i], COL_TEXT);
    char text[512];
    for (size_t i = 0; i < c->nfunctions; i++) {
        const struct check_function *f = &c->functions[i];
        inspect_pattern_text(&cfg->patterns[f->pattern], text, sizeof text);
        table_text(t, text);
        table_text(t, f->module);
        table_text(t, f->name);
        table_text(t, f->verdict);
        table_text(t, f->why);
    }
}

/* One row per pattern. */
static void patterns_table(const struct inspect_check *c, const struct scope_config *cfg,
                           report *r)
{
    table *t = report_table(r, "patterns", false);
    table_column(t, "pattern", COL_TEXT);
    table_column(t, "where", COL_TEXT);
    table_column(t, "selected", COL_INT);
    table_column(t, "hookable", COL_INT);
    table_column(t, "status", COL_TEXT);
    table_column(t, "callsite_depth", COL_INT);
    table_column(t, "records", COL_TEXT);
    char text[512];
    for (size_t p = 0; p < cfg->npatterns; p++) {
        const struct check_pattern *o = &c->patterns[p];
        inspect_pattern_text(&cfg->patterns[p], text, sizeof text);
        table_text(t, text);
        inspect_pattern_where(&cfg->patterns[p], text, sizeof text);
        table_text(t, text);
        if (cfg->patterns[p].exclude) {
            table_null(t);
            table_null(t);
            table_text(t, o->status);
            table_null(t);
            table_null(t);
            continue;
        }
        table_int(t, (int64_t)o->selected);
        table_int(t, (int64_t)o->hookable);
        table_text(t, o->status);
        table_int(t, scope_config_callsite_depth(cfg, (int)p));
        scope_config_values_text(scope_config_values(cfg, (int)p), text, sizeof text);
        table_text(t, text);
    }
}

static int check_error(const char *what, const char *arg)
{
    fprintf(stderr, "scope check: %s%s\n(see 'scope check --help')\n", what, arg);
    return 2;
}

/* Options into cfg; the program in *program. 0, 1 (--help), or 2. */
static int parse(int argc, char **argv, struct scope_config *cfg, table_format *format,
                 const char **program)
{
    char err[1024];
    bool have_patterns = false;   /* a config or a list was given */
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *value = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            fputs(check_help, stdout);
            return 1;
        } else if (a[0] != '-' || strcmp(a, "--") == 0) {
            i += strcmp(a, "--") == 0;
            if (i != argc - 1)
                return check_error(i < argc ? "one program expected" : "no program given", "");
            *program = argv[i];
            break;
        } else if (!value) {
            return check_error("an option lacks its value: ", a);
        } else if (strcmp(a, "-c") == 0 || strcmp(a, "--config") == 0) {
            if (scope_config_load_file(cfg, value, err, sizeof err) != 0) {
                fprintf(stderr, "scope: %s\n", err);
                return 2;
            }
            have_patterns = true;
        } else if (strcmp(a, "-f") == 0 || strcmp(a, "--functions") == 0) {
            if (scope_config_add_functions(cfg, value, err, sizeof err) != 0) {
                fprintf(stderr, "scope: %s\n", err);
                return 2;
            }
            have_patterns = true;
        } else if (strcmp(a, "--format") == 0) {
            if (!cli_parse_format(value, format))
                return check_error("--format: expected table, csv or json, not ", value);
        } else {
            return check_error("unknown option ", a);
        }
        i++;
    }
    if (!have_patterns)
        return check_error("no config: give -c CONFIG or -f FUNCTIONS", "");
    if (!*program)
        return check_error("no program given", "");
    return 0;
}

/* The tables, then (out of csv and json: on stderr) the summary lines.
 * The exit status: 0 all hookable, 1 not, 2 the output failed. */
static int print_check(const struct inspect_check *c, const struct scope_config *cfg,
                       table_format format)
{
    report *r = report_new(stdout, format, NULL, -1);
    functions_table(c, cfg, r);
    patterns_table(c, cfg, r);
    scope_error perr = {{0}};
    int rc = c->complete ? 0 : 1;
    if (report_print(r, &perr) != 0 || fflush(stdout) != 0) {
        fprintf(stderr, "scope: cannot write the output\n");
        rc = 2;
    } else {
        FILE *out = format == FORMAT_TABLE ? stdout : stderr;
        fputc('\n', out);
        inspect_tally_print(&c->tally, "selected", out);
        if (c->unmatched)
            fprintf(out, "%zu pattern%s match%s nothing\n", c->unmatched,
                    c->unmatched == 1 ? "" : "s", c->unmatched == 1 ? "es" : "");
    }
    report_free(r);
    return rc;
}

static int check_main(int argc, char **argv)
{
    struct scope_config cfg;
    table_format format = FORMAT_TABLE;
    const char *program = NULL;
    inspect_config_init(&cfg);
    int rc = parse(argc, argv, &cfg, &format, &program);
    if (rc == 0) {
        struct inspect_check c;
        char err[1024];
        if (inspect_check(program, &cfg, &c, stderr, err, sizeof err) != 0) {
            fprintf(stderr, "scope: %s\n", err);
            rc = 2;
        } else {
            rc = print_check(&c, &cfg, format);
        }
        inspect_check_free(&c);
    } else if (rc == 1) {
        rc = 0;   /* --help */
    }
    scope_config_free(&cfg);
    return rc;
}

const cli_command cmd_check = {
    .name = "check",
    .summary = "say what a config would hook in a program, and why not",
    .main = check_main,
};
