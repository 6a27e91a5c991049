/* inspect_modules.c: per-module counts of hookable functions
 * (inspect_modules.h), added up as inspect_program reports them. */
#include "inspect_modules.h"
#include "grow_array.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct count {
    struct inspect_modules *m;
    const char *current;           /* the module being walked, as inspect_program names it */
    bool failed;                   /* out of memory */
};

static void count_function(const struct inspected *s, void *ctx)
{
    struct count *c = ctx;
    struct inspect_modules *m = c->m;
    inspect_tally_add(&m->total, s);
    if (c->failed)
        return;
    if (m->n == 0 || c->current != s->sym->module_path) {
        if (scope_grow_array((void **)&m->v, &m->cap, m->n + 1, sizeof *m->v) != 0 ||
            !(m->v[m->n].module = strdup(s->sym->module_path))) {
            c->failed = true;
            return;
        }
        m->v[m->n++].tally = (struct inspect_tally){0};
        c->current = s->sym->module_path;
    }
    inspect_tally_add(&m->v[m->n - 1].tally, s);
}

int inspect_modules(const char *program, struct scope_config *cfg, struct inspect_modules *out,
                    FILE *report, char *err, size_t errlen)
{
    *out = (struct inspect_modules){0};
    struct count c = {out, NULL, false};
    if (inspect_program(program, cfg, count_function, &c, report, err, errlen) != 0)
        return -1;
    if (c.failed) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    return 0;
}

void inspect_modules_free(struct inspect_modules *m)
{
    for (size_t i = 0; i < m->n; i++)
        free(m->v[i].module);
    free(m->v);
    *m = (struct inspect_modules){0};
}
