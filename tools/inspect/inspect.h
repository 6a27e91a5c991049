/* inspect.h: the function symbols of a program on disk and of every library
 * it loads, each with whether libscope could hook it inline, decided from
 * the bytes in the files (nothing is loaded or run). The engine of `scope
 * check` and `scope symbols`. */
#ifndef SCOPE_INSPECT_H
#define SCOPE_INSPECT_H

#include "config.h"
#include "elf_symbols.h"

#include <stdbool.h>
#include <stdio.h>

struct inspected {
    const struct scope_symbol *sym;  /* valid during the callback only */
    int pattern;                     /* the selecting pattern of the config, -1 without one */
    const char *refusal;             /* NULL: hookable (inline or through the PLT); else
                                        a label ("too short") */
    bool plt;                        /* not patchable inline: hookable through the GOTs
                                        of other modules (exported) and its direct calls */
    size_t plt_modules;              /* modules inspected here whose GOT leads to it */
    const char *why;                 /* the reason in full, "" when hookable inline */
    bool alias;                      /* another name of the function reported just before */
    bool fragment;                   /* a compiler fragment (name.cold), not a function */
};

typedef void (*inspect_fn)(const struct inspected *s, void *ctx);

/* An empty config whose C++ patterns match demangled names, as
 * libscope's do (the demangler is loaded when a pattern needs it). */
void inspect_config_init(struct scope_config *cfg);

/* Calls fn for each function of PROGRAM and then of each library it loads
 * (program_libs.h), in load order, that cfg selects (all of them when cfg
 * is NULL; matching counts the patterns' matches as libscope does). A
 * library that cannot be read, or that the loader did not find, is a
 * warning line on `report` ("scope: warning: ..."). Returns 0, or -1 with
 * a message in err when the program cannot be found or read. */
int inspect_program(const char *program, struct scope_config *cfg, inspect_fn fn, void *ctx,
                    FILE *report, char *err, size_t errlen);

/* Counts of functions (aliases once) by outcome. */
#define INSPECT_MAX_REASONS 16
struct inspect_tally {
    size_t functions, hookable, plt;   /* hookable: inline */
    size_t fragments;                  /* not functions: not counted in the others */
    struct {
        const char *label;
        size_t count;
    } reasons[INSPECT_MAX_REASONS];
    size_t nreasons;
};

/* The "hookable" column: yes (inline), plt (exported, through GOTs and its
 * direct calls), calls (through its direct calls) or no. */
const char *inspect_verdict(const struct inspected *s);

void inspect_tally_add(struct inspect_tally *t, const struct inspected *s);

/* "N functions <what>, M hookable inline (P%), L through the PLT or their
 * calls (Q% in all), K not (2 too short, ...)" */
void inspect_tally_print(const struct inspect_tally *t, const char *what, FILE *out);

#endif
