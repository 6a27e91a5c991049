/* suggest.h: `scope suggest`'s work. What each region's hooks cost in a
 * run (its calls x what one hooked call cost there) and whether a config
 * for the next run should leave its function out (suggest.c); that config:
 * the run's own with one exclusion line per function left out, or, when
 * the run's config is gone, the regions' functions by name, checked with
 * libscope's own config parser (suggest_config.c). */
#ifndef SCOPE_SUGGEST_H
#define SCOPE_SUGGEST_H

#include "config.h"
#include "scope_reader.h"

#include <stdio.h>

/* What makes a function worth leaving out (defaults: README.md, "scope
 * suggest"). */
typedef struct suggest_rules {
    double hook_cost_ns;     /* what one hooked call costs */
    const char *cost_source; /* where that figure comes from, for the config's comment */
    double factor;           /* short: a mean under factor x hook_cost_ns */
    size_t min_calls;        /* many: at least this many calls over all ranks */
    double min_share;        /* a short function with this share of the run, whose
                                mean is at least the hook cost, is kept */
} suggest_rules;

typedef struct suggest_row {
    size_t region;
    size_t calls;
    double total, mean, share; /* seconds; share: of the run, as scope summary's */
    double overhead;           /* seconds: calls x the hook cost, all ranks */
    double overhead_share;     /* that per rank, over the run's time span */
    int64_t bytes;             /* the region's datasets in the file; -1: unknown */
    bool exclude;
    char *symbol;              /* the hooked symbol (clone tags kept), else the region name */
    char *library;             /* the module that defines it; NULL: unknown */
    bool selected;             /* the run's config selects it (when it could be read) */
    char reason[192];          /* why it is kept or left out, one phrase */
} suggest_row;

typedef struct suggestion {
    suggest_row *rows;         /* one per region, in region order */
    size_t n;
    bool have_config;          /* the run's config could be read and parsed now */
    struct scope_config config;
    char *config_path;         /* the run's config, resolved; NULL: it had none */
    char *config_text;         /* its text, when have_config */
    char config_note[768];     /* when !have_config: why, one line */
} suggestion;

/* The hook cost the file carries (/metadata hook_cost_ns), 0 when none. */
double suggest_file_hook_cost(const scope_file *f);

/* Decide for every region of f. -1 with err set on failure. */
int suggest_make(const scope_file *f, const suggest_rules *rules, suggestion *out,
                 scope_error *err);
void suggest_free(suggestion *s);

/* Writes the suggested config to out (NULL: only checks it), first checked
 * by parsing it as if it were the file `name` (its includes found beside
 * it) and matching every region against it: the functions left out must no
 * longer be selected, the others still. -1 with err set when that check
 * fails. */
int suggest_write_config(const scope_file *f, const suggestion *s, const suggest_rules *rules,
                         const char *name, FILE *out, scope_error *err);

#endif
