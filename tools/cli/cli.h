/* The scope CLI's shared declarations: parsed options, the subcommand
 * table entry, and the helpers every subcommand uses. */
#ifndef SCOPE_CLI_H
#define SCOPE_CLI_H

#include "cli_table.h"
#include "scope_reader.h"

/* Which options a subcommand accepts (--format and --help: always, unless
 * OPT_NO_FORMAT). */
enum {
    OPT_REGIONS = 1 << 0, /* --include, --exclude */
    OPT_RANKS = 1 << 1,   /* --ranks */
    OPT_TIME = 1 << 2,    /* --absolute, --origin */
    OPT_SORT = 1 << 3,    /* --sort */
    OPT_TOP = 1 << 4,     /* --top */
    OPT_RANK = 1 << 5,    /* --rank */
    OPT_NO_FORMAT = 1 << 6, /* no --format: the command writes its own output */
    OPT_OUTPUT = 1 << 7,  /* -o, --output */
    OPT_EXPORT = 1 << 8,  /* --to, --what, --per-rank */
    OPT_PLOT = 1 << 9,    /* --kind */
    OPT_RECOMPUTE = 1 << 10, /* --recompute */
    OPT_ALL = 1 << 11,    /* --all: every row of a table cut by default */
    OPT_SUGGEST = 1 << 12, /* --hook-cost, --factor, --min-calls, --min-share */
    OPT_COLLECTIVES = 1 << 13, /* --collectives */
};

typedef enum { EXPORT_CHROME, EXPORT_FOLDED, EXPORT_CSV, EXPORT_JSON } export_format;
typedef enum { PLOT_GANTT, PLOT_DURATIONS, PLOT_FLAME, PLOT_COMM } plot_kind;

typedef enum { ORIGIN_DEFAULT, ORIGIN_RUN_START, ORIGIN_FIRST_ENTRY, ORIGIN_SECONDS } cli_origin;

typedef struct cli_options {
    const char **include, **exclude;
    size_t n_include, n_exclude, cap_include, cap_exclude;
    int *ranks;
    size_t n_ranks, cap_ranks;
    bool absolute;
    bool recompute;     /* open with SCOPE_OPEN_RECOMPUTE */
    cli_origin origin;
    double origin_seconds;
    table_format format;
    const char *sort;
    long top; /* -1: all rows */
    bool all; /* --all */
    bool has_rank;
    int rank;
    const char *output; /* NULL: stdout */
    export_format to;
    bool what_summary;  /* --what summary (else events) */
    bool per_rank;
    plot_kind kind;
    const char *file;
    const char *file2;  /* the second FILE of commands that take two */
    /* scope suggest's thresholds; < 0: not given */
    double hook_cost_ns, factor, min_share;
    long min_calls;
    bool collectives;   /* scope comm --collectives */
} cli_options;

typedef struct cli_command {
    const char *name;
    const char *summary;
    const char *description;
    const char *example;
    unsigned options;
    /* What -o writes, when not the command's output (NULL: its output). */
    const char *output_doc;
    /* Without --sort, the first table is sorted by this column (NULL: as
     * made); in a table on a terminal, without --top or --all, it shows
     * this many rows (0: all) and says on stderr how many it left out. */
    const char *default_sort;
    long default_top;
    /* scope_open_ex flags of the command (--recompute's replace them). */
    unsigned open_flags;
    /* Fill the report; -1 with err set on failure (reported for the file). */
    int (*run)(scope_file *f, const cli_options *opt, report *out, scope_error *err);
    /* Instead of run, for subcommands that compare two profiles (FILE FILE). */
    int (*run_pair)(scope_file *a, scope_file *b, const cli_options *opt, report *out,
                    scope_error *err);
    /* Instead of run, for subcommands that take no profile (run, lib):
     * gets argv from the subcommand's name on, returns the exit status. */
    int (*main)(int argc, char **argv);
} cli_command;

/* Parse argv (argv[0] = the subcommand's name). 0: go on; 1: --help was
 * printed; 2: usage error (printed). */
int cli_parse(const cli_command *cmd, int argc, char **argv, cli_options *opt);
void cli_options_free(cli_options *opt);
/* "table", "csv" or "json"; false for anything else. */
bool cli_parse_format(const char *s, table_format *out);
void cli_command_help(const cli_command *cmd, FILE *out);

/* The reader filter the options ask for (origin resolved against f). */
int cli_filter(const scope_file *f, const cli_options *opt, scope_filter *out, scope_error *err);

/* Output files (-o): written to a temporary name beside PATH and renamed
 * when complete, so a failed run leaves nothing. NULL or "-": stdout. */
FILE *cli_output_open(const char *path, scope_error *err);
/* For subcommands that write files (export, plot): the filter the options
 * ask for, checked (regexes, ranks, at least one call selected) before the
 * output is created, then the output opened. NULL on error. */
FILE *cli_open_selection_output(const scope_file *f, const cli_options *opt, scope_filter *flt,
                                scope_error *err);
/* Close (rename into place) or, when failed or on a write error, remove. */
int cli_output_close(FILE *out, const char *path, bool failed, scope_error *err);

/* The per-region load imbalance table (scope imbalance, scope summary). */
void cli_imbalance_table(const scope_file *f, const scope_filter *flt, report *out);

/* The subcommands (one file each: cmd_<name>.c). */
extern const cli_command cmd_check, cmd_symbols;
extern const cli_command cmd_info, cmd_summary, cmd_events, cmd_tree, cmd_run, cmd_lib,
    cmd_recover, cmd_pack;
extern const cli_command cmd_imbalance, cmd_export, cmd_plot, cmd_diff, cmd_callsites,
    cmd_suggest, cmd_comm, cmd_sizes;

/* The one line for a file without MPI payload (scope comm, sizes, plot
 * --kind comm): -1 with err set. */
int cli_no_payload(const scope_file *f, scope_error *err);
/* The filter of a subcommand that reads payload (comm, sizes); -1 with
 * err set on a bad filter or a file without payload. */
int cli_payload_filter(const scope_file *f, const cli_options *opt, scope_filter *flt,
                       scope_error *err);
/* Whether the file has a communication matrix: payload rows or peer totals
 * (a profile's); the filter of a subcommand that reads it (comm), -1 with
 * err set on a bad filter or a file without either. */
bool cli_has_matrix(const scope_file *f);
int cli_matrix_filter(const scope_file *f, const cli_options *opt, scope_filter *flt,
                      scope_error *err);

#endif
