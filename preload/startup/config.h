/* config.h: scope's config file (README.md, "Config file") and the SCOPE_*
 * environment, parsed into patterns that decide which symbols get hooked.
 * Pure code (no MPI, no patching) so it is unit tested on its own. */
#ifndef SCOPE_CONFIG_H
#define SCOPE_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum scope_pattern_kind {
    SCOPE_PATTERN_EXACT,   /* solve */
    SCOPE_PATTERN_GLOB,    /* KSP*  (fnmatch) */
    SCOPE_PATTERN_REGEX,   /* re:^Vec(Set|Get)Values$  (POSIX extended) */
};

struct scope_pattern {
    enum scope_pattern_kind kind;
    bool exclude;          /* a leading '!' */
    char *text;            /* the pattern without '!', 're:' or 'lib:' prefix */
    char *library;         /* "libpetsc.so" from "libpetsc.so:MatMult", or NULL */
    char *display;         /* "name" from "symbol as name": the region name, or NULL */
    char *source;          /* file the pattern came from ("SCOPE_FUNCTIONS" for env) */
    int line;              /* line in that file, 0 for env */
    int depth;             /* " depth=N": call-site depth, -1: the config's */
    uint8_t values;        /* " args=1,3 retval": what its calls record (call_values.h) */
    void *regex;           /* compiled regex_t for SCOPE_PATTERN_REGEX */
    size_t regex_prefix;   /* a regex anchored by '^' matches only names that */
                           /* start with text[1 .. 1 + regex_prefix) */
    size_t glob_prefix;    /* a glob matches only names that start with */
                           /* text[0 .. glob_prefix) (before its first wildcard) */
    bool glob_prefix_only; /* and every such name: text is that and one '*' */
    char *mangled_pieces;  /* what a mangled name it matches once demangled holds */
                           /* ('\0'-separated, "" last), or NULL: see config.c */
    unsigned matches;      /* symbols it matched, counted by scope_config_match */
};

struct scope_config {
    char *path;            /* the file read, NULL if none */
    char *output_file;     /* [output] file, default "profiling_data.h5" */
    size_t buffer_bytes;   /* [output] buffer, default 8 MiB */
    int profile_mode;      /* [output] mode: 0 trace (default), 1 profile */
    long long min_duration_ns;   /* [output] min_duration: shorter calls are folded */
                                 /* into their region's statistics; 0: none */
    long long trace_limit_bytes; /* [output] trace_limit: past it a process counts */
                                 /* its calls instead of recording them; 0: none */
    int callsite_depth;    /* [callsites] depth, default 0 (none) */
    struct scope_pattern *patterns;
    size_t npatterns, patterns_cap;
    /* Demangles a C++ symbol (malloc'd result, NULL if it is none); set by
     * the caller, NULL: C++ patterns match nothing. */
    char *(*demangle)(const char *symbol);
};

/* Fills cfg with defaults. */
void scope_config_init(struct scope_config *cfg);

/* Parses the file at path into cfg (adding to what is there). On error
 * returns -1 and writes "path:LINE: message" into err. */
int scope_config_load_file(struct scope_config *cfg, const char *path,
                           char *err, size_t errlen);

/* The whole text of a file (a config), NUL-terminated and malloc'd; NULL
 * with errno set. */
char *scope_config_file_text(const char *path);

/* Same for text held in memory; name is used in messages. */
int scope_config_load_string(struct scope_config *cfg, const char *name,
                             const char *text, char *err, size_t errlen);

/* Adds a comma-separated list of patterns (SCOPE_FUNCTIONS). */
int scope_config_add_functions(struct scope_config *cfg, const char *list,
                               char *err, size_t errlen);

/* Does symbol `name` defined in the module at `module_path` get hooked?
 * A C++ symbol also answers to its demangled name, with and without the
 * parameter list: "Solver::run" selects every overload, "Solver::*" all
 * methods, "solve" a free function solve(int).
 * Patterns apply in order; the last one that matches wins, so an exclude
 * after an include removes it. Returns the index of the deciding include
 * pattern, or -1. Counts, on every include pattern the symbol matches,
 * one match (decided or not: a line whose functions a later exclude removes
 * did match something). */
int scope_config_match(struct scope_config *cfg, const char *name,
                       const char *module_path);

/* scope_config_match, also handing over in *demangled (when not NULL) the
 * symbol's demangled name without clone tags if matching needed it
 * (malloc'ed, the caller's to free; NULL when it was not computed), so
 * that no caller demangles a symbol twice. */
int scope_config_match_demangled(struct scope_config *cfg, const char *name,
                                 const char *module_path, char **demangled);

/* The demangled name of symbol `name` without GCC's clone tags, as
 * patterns see it (malloc'd), or NULL: not a C++ name, or no demangler. */
char *scope_config_demangle(const struct scope_config *cfg, const char *name);

/* The call-site depth of the functions pattern `pattern` selects: its own
 * "depth=N", else the config's [callsites] depth; 0 records none. */
int scope_config_callsite_depth(const struct scope_config *cfg, int pattern);

/* The argument and return values the calls of the functions pattern
 * `pattern` selects record: a mask (call_values.h), 0 for none. */
unsigned scope_config_values(const struct scope_config *cfg, int pattern);
/* Such a mask as "arg1,arg3,retval" ("" for none), cut to len. */
void scope_config_values_text(unsigned mask, char *out, size_t len);

/* Frees everything the config owns and re-initialises it. */
void scope_config_free(struct scope_config *cfg);

/* "trace" -> 0, "profile" -> 1, anything else -1. */
int scope_parse_mode(const char *text);

/* Parses "8M", "512k", "1G", "4096" into bytes; -1 on error. */
long long scope_parse_size(const char *text);

/* Parses "2us", "500ns", "1.5ms", "1s" (a number and a unit: ns, us, ms,
 * s) into ns; -1 on error (no unit, under 1 ns, over a day). */
long long scope_parse_duration(const char *text);

#endif
