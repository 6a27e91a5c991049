/* cmd_symbols.c: `scope symbols`: the function symbols of a program and of
 * every library it loads, optionally filtered by config patterns, each with
 * its module, address, size and whether libscope can hook it inline (or
 * why not); --summary counts them per module instead. */
#include "cli.h"
#include "inspect_modules.h"

#include <string.h>

static const char symbols_help[] =
    "usage: scope symbols [--format table|csv|json] [--summary] PROGRAM [PATTERN...]\n"
    "\n"
    "List the function symbols of PROGRAM and of every library it loads (as its\n"
    "dynamic loader resolves them; a shared library given as PROGRAM: its own\n"
    "symbols), with module, address, size and whether libscope can hook the\n"
    "function by patching its entry, through the GOTs of the modules that call\n"
    "it (plt: exported functions that cannot be patched), or why not. PATTERNs select functions as\n"
    "the [functions] section of a config does (solve, KSP*, re:^Vec, libm.so:sin,\n"
    "!*_private). Nothing of PROGRAM runs. The verdict comes from the bytes in\n"
    "the files; at run time a hook can still fail if no trampoline can be\n"
    "mapped within 2 GiB of the function.\n"
    "\n"
    "options:\n"
    "  --format F   table (default), csv or json\n"
    "  --summary    per module: functions and how many are hookable inline and\n"
    "               through the PLT, and the reasons for the others\n"
    "  -h, --help   this help\n"
    "\n"
    "examples:\n"
    "  scope symbols ./app 'solve*'\n"
    "  scope symbols --summary /usr/lib/x86_64-linux-gnu/libz.so.1\n";

/* One row of the table per function, as inspect_program finds them. */
static void list_symbol(const struct inspected *s, void *ctx)
{
    table *rows = ctx;
    char address[32];
    snprintf(address, sizeof address, "%#llx", (unsigned long long)s->sym->value);
    table_text(rows, s->sym->module_path);
    table_text(rows, s->sym->name);
    table_text(rows, address);
    table_int(rows, (int64_t)s->sym->size);
    table_text(rows, inspect_verdict(s));
    table_text(rows, s->why);
}

static void summary_tables(const struct inspect_modules *m, report *r)
{
    table *t = report_table(r, "modules", false);
    table_column(t, "module", COL_TEXT);
    table_column(t, "functions", COL_INT);
    table_column(t, "inline", COL_INT);
    table_column(t, "plt", COL_INT);
    table_column(t, "share", COL_PERCENT);
    for (size_t i = 0; i < m->n; i++) {
        const struct inspect_tally *c = &m->v[i].tally;
        table_text(t, m->v[i].module);
        table_int(t, (int64_t)c->functions);
        table_int(t, (int64_t)c->hookable);
        table_int(t, (int64_t)c->plt);
        table_num(t, c->functions ? (double)(c->hookable + c->plt) / (double)c->functions : 0);
    }
    t = report_table(r, "reasons", false);
    table_column(t, "reason", COL_TEXT);
    table_column(t, "functions", COL_INT);
    for (size_t i = 0; i < m->total.nreasons; i++) {
        table_text(t, m->total.reasons[i].label);
        table_int(t, (int64_t)m->total.reasons[i].count);
    }
}

static int symbols_error(const char *what, const char *arg)
{
    fprintf(stderr, "scope symbols: %s%s\n(see 'scope symbols --help')\n", what, arg);
    return 2;
}

struct symbols_args {
    bool summary;
    table_format format;
    const char *program;
};

/* Options into a, patterns into cfg. 0, 1 (--help), or 2. */
static int parse(int argc, char **argv, struct scope_config *cfg, struct symbols_args *a)
{
    char err[1024];
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
            fputs(symbols_help, stdout);
            return 1;
        } else if (strcmp(arg, "--summary") == 0) {
            a->summary = true;
        } else if (strcmp(arg, "--format") == 0) {
            if (i + 1 == argc || !cli_parse_format(argv[++i], &a->format))
                return symbols_error("--format: expected table, csv or json", "");
        } else if (arg[0] == '-' && arg[1] != '\0') {
            return symbols_error("unknown option ", arg);
        } else if (!a->program) {
            a->program = arg;
        } else if (scope_config_add_functions(cfg, arg, err, sizeof err) != 0) {
            return symbols_error(err, "");
        }
    }
    return a->program ? 0 : symbols_error("no program given", "");
}

/* The report: every function, or (--summary) the counts per module and
 * the summary line (out of csv and json: on stderr). 0, or 2. */
static int print_symbols(const struct symbols_args *a, struct scope_config *cfg)
{
    report *r = report_new(stdout, a->format, NULL, -1);
    struct inspect_modules m = {0};
    char err[1024];
    int rc;
    if (a->summary) {
        rc = inspect_modules(a->program, cfg, &m, stderr, err, sizeof err);
        if (rc == 0)
            summary_tables(&m, r);
    } else {
        table *rows = report_table(r, "symbols", false);
        const char *names[] = {"module", "function", "address", "size", "hookable", "reason"};
        for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
            table_column(rows, names[i], i == 3 ? COL_INT : COL_TEXT);
        rc = inspect_program(a->program, cfg, list_symbol, rows, stderr, err, sizeof err);
    }
    scope_error perr = {{0}};
    if (rc != 0) {
        fprintf(stderr, "scope: %s\n", err);
    } else if (report_print(r, &perr) != 0 || fflush(stdout) != 0) {
        fprintf(stderr, "scope: cannot write the output\n");
        rc = -1;
    } else if (a->summary) {
        inspect_tally_print(&m.total, "", a->format == FORMAT_TABLE ? stdout : stderr);
    }
    inspect_modules_free(&m);
    report_free(r);
    return rc ? 2 : 0;
}

static int symbols_main(int argc, char **argv)
{
    struct symbols_args a = {false, FORMAT_TABLE, NULL};
    struct scope_config cfg;
    inspect_config_init(&cfg);
    int rc = parse(argc, argv, &cfg, &a);
    if (rc == 0)
        rc = print_symbols(&a, cfg.npatterns ? &cfg : NULL);
    scope_config_free(&cfg);
    return rc == 1 ? 0 : rc;
}

const cli_command cmd_symbols = {
    .name = "symbols",
    .summary = "list a program's functions and whether each can be hooked",
    .main = symbols_main,
};
