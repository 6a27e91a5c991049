/* inspect_check.h: what a config would hook in a program on disk (`scope
 * check`): the functions each pattern selects with their verdicts, each
 * pattern's outcome, and whether everything asked for can be hooked. */
#ifndef SCOPE_INSPECT_CHECK_H
#define SCOPE_INSPECT_CHECK_H

#include "inspect.h"

/* A function a pattern selects (or a compiler fragment it names). */
struct check_function {
    int pattern;               /* its index in the config */
    char *module, *name;
    char *why;                 /* the reason in full, "" when hookable inline */
    const char *verdict;       /* inspect_verdict's: yes, plt, calls or no */
    bool hookable;             /* inline or through the PLT */
    bool fragment;             /* a compiler fragment (name.cold), listed, not selected */
};

/* One pattern of the config; an exclude has no counts. */
struct check_pattern {
    size_t selected, hookable; /* functions (fragments not counted); of them hookable */
    const char *status;        /* "ok", "not all hookable", "matches nothing" or "exclude" */
};

struct inspect_check {
    struct check_function *functions;  /* by pattern in config order, each's as found */
    size_t nfunctions;
    struct check_pattern *patterns;    /* one per pattern of the config */
    struct inspect_tally tally;        /* of every selected function */
    size_t unmatched;                  /* include patterns that select nothing */
    bool complete;                     /* some functions selected, all of them hookable,
                                          and every include pattern matches */
};

/* Inspects PROGRAM and its libraries with cfg (inspect_program: warnings
 * on report). Returns 0, or -1 with a message in err. */
int inspect_check(const char *program, struct scope_config *cfg, struct inspect_check *out,
                  FILE *report, char *err, size_t errlen);

void inspect_check_free(struct inspect_check *c);

/* The pattern as written in the config ("!libfoo.so:re:^x"), and where
 * ("FILE:LINE", or "-f" for one given on the command line). */
void inspect_pattern_text(const struct scope_pattern *p, char *out, size_t outlen);
void inspect_pattern_where(const struct scope_pattern *p, char *out, size_t outlen);

#endif
