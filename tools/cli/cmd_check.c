/* cmd_check.c: `scope check`: what a config would hook in a program,
 * without running it: for each pattern, the functions it selects in the
 * program and its libraries and whether each can be hooked inline (or
 * why not), the patterns that match nothing, and a summary line. The exit
 * status says whether everything asked for can be hooked. */
#include "cli.h"
#include "demangle.h"
#include "grow_array.h"
#include "inspect.h"

#include <stdlib.h>
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
    "patterns say), then the patterns (with the call-site depth of their functions)\n"
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

/* One selected function, kept past its callback. */
struct selected {
    int pattern;
    char *module, *name, *why;
    const char *refusal, *verdict;   /* verdict: inspect_verdict's */
    bool fragment;
};

struct check_run {
    struct selected *v;
    size_t n, cap;
    struct inspect_tally tally;
};

static void *xmalloc_copy(const char *s)
{
    char *d = strdup(s);
    if (!d) {
        fputs("scope: out of memory\n", stderr);
        exit(2);
    }
    return d;
}

static void keep(const struct inspected *s, void *ctx)
{
    struct check_run *run = ctx;
    inspect_tally_add(&run->tally, s);
    if (scope_grow_array((void **)&run->v, &run->cap, run->n + 1, sizeof *run->v) != 0) {
        fputs("scope: out of memory\n", stderr);
        exit(2);
    }
    run->v[run->n++] = (struct selected){s->pattern, xmalloc_copy(s->sym->module_path),
                                         xmalloc_copy(s->sym->name), xmalloc_copy(s->why),
                                         s->refusal, inspect_verdict(s), s->fragment};
}

/* The pattern as written: "!libfoo.so:re:^x". */
static void pattern_text(const struct scope_pattern *p, char *out, size_t outlen)
{
    snprintf(out, outlen, "%s%s%s%s%s", p->exclude ? "!" : "", p->library ? p->library : "",
             p->library ? ":" : "", p->kind == SCOPE_PATTERN_REGEX ? "re:" : "", p->text);
}

static void pattern_where(const struct scope_pattern *p, char *out, size_t outlen)
{
    if (p->line)
        snprintf(out, outlen, "%s:%d", p->source, p->line);
    else
        snprintf(out, outlen, "-f");
}

static void functions_table(const struct check_run *run, const struct scope_config *cfg,
                            report *r)
{
    table *t = report_table(r, "functions", false);
    const char *names[] = {"pattern", "module", "function", "hookable", "reason"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        table_column(t, names[i], COL_TEXT);
    char text[512];
    for (size_t p = 0; p < cfg->npatterns; p++)
        for (size_t i = 0; i < run->n; i++) {
            const struct selected *s = &run->v[i];
            if (s->pattern != (int)p)
                continue;
            pattern_text(&cfg->patterns[p], text, sizeof text);
            table_text(t, text);
            table_text(t, s->module);
            table_text(t, s->name);
            table_text(t, s->verdict);
            table_text(t, s->why);
        }
}

/* One row per pattern; returns how many include patterns match nothing. */
static size_t patterns_table(const struct check_run *run, const struct scope_config *cfg,
                             report *r)
{
    table *t = report_table(r, "patterns", false);
    table_column(t, "pattern", COL_TEXT);
    table_column(t, "where", COL_TEXT);
    table_column(t, "selected", COL_INT);
    table_column(t, "hookable", COL_INT);
    table_column(t, "status", COL_TEXT);
    table_column(t, "callsite_depth", COL_INT);
    size_t unmatched = 0;
    char text[512];
    for (size_t p = 0; p < cfg->npatterns; p++) {
        const struct scope_pattern *pat = &cfg->patterns[p];
        size_t hookable = 0, fragments = 0;   /* fragments are listed, not selected */
        for (size_t i = 0; i < run->n; i++) {
            hookable += run->v[i].pattern == (int)p && !run->v[i].refusal;
            fragments += run->v[i].pattern == (int)p && run->v[i].fragment;
        }
        size_t selected = pat->matches - fragments;
        pattern_text(pat, text, sizeof text);
        table_text(t, text);
        pattern_where(pat, text, sizeof text);
        table_text(t, text);
        if (pat->exclude) {
            table_null(t);
            table_null(t);
            table_text(t, "exclude");
            table_null(t);
            continue;
        }
        unmatched += selected == 0;
        table_int(t, (int64_t)selected);
        table_int(t, (int64_t)hookable);
        table_text(t, selected == 0 ? "matches nothing" : hookable == selected
                                                              ? "ok" : "not all hookable");
        table_int(t, scope_config_callsite_depth(cfg, (int)p));
    }
    return unmatched;
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

static int check_main(int argc, char **argv)
{
    struct scope_config cfg;
    table_format format = FORMAT_TABLE;
    const char *program = NULL;
    scope_config_init(&cfg);
    scope_demangle_may_load();
    cfg.demangle = scope_demangle;
    int rc = parse(argc, argv, &cfg, &format, &program);
    struct program_libs libs;
    char err[1024];
    if (rc == 0 && program_libs_load(program, &libs, err, sizeof err) != 0) {
        fprintf(stderr, "scope: %s\n", err);
        rc = 2;
    }
    if (rc != 0) {
        scope_config_free(&cfg);
        return rc == 1 ? 0 : rc;
    }
    struct check_run run = {0};
    report *r = report_new(stdout, format, NULL, -1);
    scope_error perr = {{0}};
    if (inspect_program(&libs, &cfg, keep, &run, err, sizeof err) != 0) {
        fprintf(stderr, "scope: %s\n", err);
        rc = 2;
    } else {
        functions_table(&run, &cfg, r);
        size_t unmatched = patterns_table(&run, &cfg, r);
        if (report_print(r, &perr) != 0 || fflush(stdout) != 0) {
            fprintf(stderr, "scope: cannot write the output\n");
            rc = 2;
        } else {
            /* The summary line stays out of machine-readable output. */
            FILE *out = format == FORMAT_TABLE ? stdout : stderr;
            fputc('\n', out);
            inspect_tally_print(&run.tally, "selected", out);
            if (unmatched)
                fprintf(out, "%zu pattern%s match%s nothing\n", unmatched,
                        unmatched == 1 ? "" : "s", unmatched == 1 ? "es" : "");
            rc = unmatched || run.tally.hookable + run.tally.plt < run.tally.functions ||
                 !run.tally.functions;
        }
    }
    for (size_t i = 0; i < run.n; i++) {
        free(run.v[i].module);
        free(run.v[i].name);
        free(run.v[i].why);
    }
    free(run.v);
    report_free(r);
    program_libs_free(&libs);
    scope_config_free(&cfg);
    return rc;
}

const cli_command cmd_check = {
    .name = "check",
    .summary = "say what a config would hook in a program, and why not",
    .main = check_main,
};
