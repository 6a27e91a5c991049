/* inspect_modules.h: `scope symbols --summary`: the functions of a program
 * on disk and of each library it loads, counted per module by whether
 * libscope could hook them. */
#ifndef SCOPE_INSPECT_MODULES_H
#define SCOPE_INSPECT_MODULES_H

#include "inspect.h"

struct module_tally {
    char *module;                  /* its path */
    struct inspect_tally tally;
};

struct inspect_modules {
    struct module_tally *v;        /* in load order, those with a selected function */
    size_t n, cap;
    struct inspect_tally total;
};

/* Counts the functions cfg selects (all of them when cfg is NULL) in
 * PROGRAM and its libraries (inspect_program: warnings on report).
 * Returns 0, or -1 with a message in err. */
int inspect_modules(const char *program, struct scope_config *cfg, struct inspect_modules *out,
                    FILE *report, char *err, size_t errlen);

void inspect_modules_free(struct inspect_modules *m);

#endif
