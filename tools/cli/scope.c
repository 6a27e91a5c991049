/* scope: the command-line front end. Finds the subcommand in the table,
 * parses its options, opens the file, runs it and prints its report.
 * Adding a subcommand: one line in `commands` and one cmd_<name>.c. */
#include "cli.h"
#include "scope_build_config.h"

#include <stdio_ext.h>
#include <string.h>

static const cli_command *const commands[] = {
    &cmd_info,
    &cmd_summary,
    &cmd_events,
    &cmd_tree,
    &cmd_imbalance,
    &cmd_callsites,
    &cmd_comm,
    &cmd_sizes,
    &cmd_suggest,
    &cmd_export,
    &cmd_plot,
    &cmd_diff,
    &cmd_check,
    &cmd_symbols,
    &cmd_run,
    &cmd_lib,
    &cmd_recover,
    &cmd_pack,
};
#define N_COMMANDS (sizeof commands / sizeof commands[0])

static void usage(FILE *out)
{
    fputs("usage: scope COMMAND [options] FILE\n\ncommands:\n", out);
    for (size_t i = 0; i < N_COMMANDS; i++)
        fprintf(out, "  %-10s %s\n", commands[i]->name, commands[i]->summary);
    fputs("\n'scope COMMAND --help' describes a command; 'scope --version' the version.\n", out);
}

/* One line per node's file that could not be opened: which ranks the
 * answers leave out ("ranks 2-3,6"). */
static void note_missing_ranks(const scope_file *f)
{
    size_t n = f ? scope_missing_rank_count(f) : 0;
    for (size_t i = 0, j; i < n; i = j) {
        const char *file, *why, *other, *other_why;
        char list[256] = "";
        size_t len = 0;
        scope_missing_rank(f, i, &file, &why);
        for (j = i; j < n; j++) {
            int first = scope_missing_rank(f, j, &other, &other_why), last = first;
            if (strcmp(other, file) != 0)
                break;
            while (j + 1 < n && scope_missing_rank(f, j + 1, &other, &other_why) == last + 1 &&
                   strcmp(other, file) == 0)
                last = scope_missing_rank(f, ++j, &other, &other_why);
            if (len < sizeof list)
                len += (size_t)snprintf(list + len, sizeof list - len,
                                        last > first ? "%s%d-%d" : "%s%d", len ? "," : "",
                                        first, last);
        }
        fprintf(stderr, "scope: %s: rank%s %s left out: their node's file %s cannot be read "
                "(%s)\n", scope_file_path(f), j - i > 1 ? "s" : "", list, file, why);
    }
}

/* Open both files, compare, print (commands with run_pair). */
static int run_pair_command(const cli_command *cmd, const cli_options *opt)
{
    scope_error err = {{0}};
    const char *failed = opt->file;
    scope_file *a = scope_open(opt->file, &err), *b = NULL;
    if (a && !(b = scope_open(opt->file2, &err)))
        failed = opt->file2;
    note_missing_ranks(a);
    note_missing_ranks(b);
    report *r = report_new(stdout, opt->format, opt->sort, opt->top);
    int rc = a && b ? cmd->run_pair(a, b, opt, r, &err) : -1;
    if (rc == 0)
        rc = report_print(r, &err);
    if (rc == 0 && fflush(stdout) != 0) {
        snprintf(err.message, sizeof err.message, "cannot write the output");
        rc = -1;
    }
    if (rc < 0 && !(a && b))
        fprintf(stderr, "scope: %s: %s\n", failed, err.message);
    else if (rc < 0) /* the message names the file */
        fprintf(stderr, "scope: %s\n", err.message);
    report_free(r);
    scope_close(a);
    scope_close(b);
    return rc < 0 ? 2 : 0;
}

/* Open, run, print. The exit status: 0, or 2 with one line on stderr. */
static int run_file_command(const cli_command *cmd, const cli_options *opt)
{
    scope_error err = {{0}};
    scope_file *f =
        scope_open_ex(opt->file, opt->recompute ? SCOPE_OPEN_RECOMPUTE : cmd->open_flags, &err);
    note_missing_ranks(f);
    /* a default cut only for people: scripts reading csv or json get every row */
    long cut = opt->top < 0 && !opt->all && opt->format == FORMAT_TABLE ? cmd->default_top : 0;
    report *r = report_new(stdout, opt->format, opt->sort ? opt->sort : cmd->default_sort,
                           cut > 0 ? cut : opt->top);
    int rc = f ? cmd->run(f, opt, r, &err) : -1;
    if (rc == 0)
        rc = report_print(r, &err);
    if (rc == 0 && cut > 0 && report_first_rows(r) > (size_t)cut)
        fprintf(stderr, "scope %s: the first %ld of %zu rows; --all for every one\n", cmd->name,
                cut, report_first_rows(r));
    if (rc == 0 && fflush(stdout) != 0) {
        snprintf(err.message, sizeof err.message, "cannot write the output");
        rc = -1;
    }
    if (rc < 0)
        fprintf(stderr, "scope: %s: %s\n", opt->file, err.message);
    report_free(r);
    scope_close(f);
    return rc < 0 ? 2 : 0;
}

int main(int argc, char **argv)
{
    /* one thread: stdio need not lock stdout for each of millions of cells */
    __fsetlocking(stdout, FSETLOCKING_BYCALLER);
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "help") == 0) {
        usage(stdout);
        return 0;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("scope %s\n", SCOPE_VERSION);
        return 0;
    }
    for (size_t i = 0; i < N_COMMANDS; i++) {
        if (strcmp(argv[1], commands[i]->name) != 0)
            continue;
        if (commands[i]->main)
            return commands[i]->main(argc - 1, argv + 1);
        cli_options opt;
        int rc = cli_parse(commands[i], argc - 1, argv + 1, &opt);
        if (rc == 0)
            rc = commands[i]->run_pair ? run_pair_command(commands[i], &opt)
                                       : run_file_command(commands[i], &opt);
        cli_options_free(&opt);
        return rc == 1 ? 0 : rc;
    }
    fprintf(stderr, "scope: unknown command '%s'\n", argv[1]);
    usage(stderr);
    return 2;
}
