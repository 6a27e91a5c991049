/* cmd_symbols.c: `scope symbols`: the function symbols of a program and of
 * every library it loads, optionally filtered by config patterns, each with
 * its module, address, size and whether libscope can hook it inline (or
 * why not); --summary counts them per module instead. */
#include "cli.h"
#include "demangle.h"
#include "grow_array.h"
#include "inspect.h"

#include <stdlib.h>
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

/* Per-module counts for --summary. */
struct module_tally {
    const char *module;
    struct inspect_tally tally;
};

struct symbols_run {
    bool summary;
    table *rows;
    struct module_tally *modules;
    size_t nmodules, modules_cap;
    struct inspect_tally total;
};

static void list_symbol(const struct inspected *s, void *ctx)
{
    struct symbols_run *run = ctx;
    inspect_tally_add(&run->total, s);
    if (run->summary) {
        if (run->nmodules == 0 || run->modules[run->nmodules - 1].module != s->sym->module_path) {
            if (scope_grow_array((void **)&run->modules, &run->modules_cap, run->nmodules + 1,
                                 sizeof *run->modules) != 0) {
                fputs("scope: out of memory\n", stderr);
                exit(2);
            }
            run->modules[run->nmodules++] = (struct module_tally){s->sym->module_path, {0}};
        }
        inspect_tally_add(&run->modules[run->nmodules - 1].tally, s);
        return;
    }
    char address[32];
    snprintf(address, sizeof address, "%#llx", (unsigned long long)s->sym->value);
    table_text(run->rows, s->sym->module_path);
    table_text(run->rows, s->sym->name);
    table_text(run->rows, address);
    table_int(run->rows, (int64_t)s->sym->size);
    table_text(run->rows, inspect_verdict(s));
    table_text(run->rows, s->why);
}

static void summary_tables(const struct symbols_run *run, report *r)
{
    table *t = report_table(r, "modules", false);
    table_column(t, "module", COL_TEXT);
    table_column(t, "functions", COL_INT);
    table_column(t, "inline", COL_INT);
    table_column(t, "plt", COL_INT);
    table_column(t, "share", COL_PERCENT);
    for (size_t i = 0; i < run->nmodules; i++) {
        const struct inspect_tally *m = &run->modules[i].tally;
        table_text(t, run->modules[i].module);
        table_int(t, (int64_t)m->functions);
        table_int(t, (int64_t)m->hookable);
        table_int(t, (int64_t)m->plt);
        table_num(t, m->functions ? (double)(m->hookable + m->plt) / (double)m->functions : 0);
    }
    t = report_table(r, "reasons", false);
    table_column(t, "reason", COL_TEXT);
    table_column(t, "functions", COL_INT);
    for (size_t i = 0; i < run->total.nreasons; i++) {
        table_text(t, run->total.reasons[i].label);
        table_int(t, (int64_t)run->total.reasons[i].count);
    }
}

static int symbols_error(const char *what, const char *arg)
{
    fprintf(stderr, "scope symbols: %s%s\n(see 'scope symbols --help')\n", what, arg);
    return 2;
}

static int symbols_main(int argc, char **argv)
{
    struct symbols_run run = {0};
    table_format format = FORMAT_TABLE;
    struct scope_config cfg;
    const char *program = NULL;
    char err[1024];
    int rc = 0;
    scope_config_init(&cfg);
    scope_demangle_may_load();
    cfg.demangle = scope_demangle;
    for (int i = 1; i < argc && rc == 0; i++) {
        const char *a = argv[i];
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            fputs(symbols_help, stdout);
            scope_config_free(&cfg);
            return 0;
        } else if (strcmp(a, "--summary") == 0) {
            run.summary = true;
        } else if (strcmp(a, "--format") == 0) {
            if (i + 1 == argc || !cli_parse_format(argv[++i], &format))
                rc = symbols_error("--format: expected table, csv or json", "");
        } else if (a[0] == '-' && a[1] != '\0') {
            rc = symbols_error("unknown option ", a);
        } else if (!program) {
            program = a;
        } else if (scope_config_add_functions(&cfg, a, err, sizeof err) != 0) {
            rc = symbols_error(err, "");
        }
    }
    if (rc == 0 && !program)
        rc = symbols_error("no program given", "");
    struct program_libs libs;
    if (rc == 0 && program_libs_load(program, &libs, err, sizeof err) != 0) {
        fprintf(stderr, "scope: %s\n", err);
        rc = 2;
    }
    if (rc != 0) {
        scope_config_free(&cfg);
        return rc;
    }
    report *r = report_new(stdout, format, NULL, -1);
    if (!run.summary) {
        run.rows = report_table(r, "symbols", false);
        const char *names[] = {"module", "function", "address", "size", "hookable", "reason"};
        for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
            table_column(run.rows, names[i], i == 3 ? COL_INT : COL_TEXT);
    }
    scope_error perr = {{0}};
    if (inspect_program(&libs, cfg.npatterns ? &cfg : NULL, list_symbol, &run, err,
                        sizeof err) != 0) {
        fprintf(stderr, "scope: %s\n", err);
        rc = 2;
    } else {
        if (run.summary)
            summary_tables(&run, r);
        if (report_print(r, &perr) != 0 || fflush(stdout) != 0) {
            fprintf(stderr, "scope: cannot write the output\n");
            rc = 2;
        } else if (run.summary) {
            inspect_tally_print(&run.total, "", format == FORMAT_TABLE ? stdout : stderr);
        }
    }
    report_free(r);
    free(run.modules);
    program_libs_free(&libs);
    scope_config_free(&cfg);
    return rc;
}

const cli_command cmd_symbols = {
    .name = "symbols",
    .summary = "list a program's functions and whether each can be hooked",
    .main = symbols_main,
};
