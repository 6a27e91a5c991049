/* inspect_check.c: `scope check`'s verdicts (inspect_check.h): every
 * function the config selects, kept past inspect_program's callback, then
 * grouped by pattern, and each pattern's outcome. */
#include "inspect_check.h"
#include "grow_array.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct collect {
    struct inspect_check *c;
    size_t cap;
    bool failed;                  /* out of memory */
};

static void keep(const struct inspected *s, void *ctx)
{
    struct collect *k = ctx;
    struct inspect_check *c = k->c;
    inspect_tally_add(&c->tally, s);
    if (k->failed ||
        scope_grow_array((void **)&c->functions, &k->cap, c->nfunctions + 1,
                         sizeof *c->functions) != 0) {
        k->failed = true;
        return;
    }
    struct check_function *f = &c->functions[c->nfunctions++];
    *f = (struct check_function){s->pattern, strdup(s->sym->module_path), strdup(s->sym->name),
                                 strdup(s->why), inspect_verdict(s), !s->refusal, s->fragment};
    k->failed = !f->module || !f->name || !f->why;
}

/* The functions in the order of their patterns, each pattern's in the
 * order found (a counting sort). */
static int by_pattern(struct inspect_check *c, size_t npatterns)
{
    size_t *next = calloc(npatterns + 1, sizeof *next);
    struct check_function *sorted = malloc((c->nfunctions ? c->nfunctions : 1) * sizeof *sorted);
    if (!next || !sorted) {
        free(next);
        free(sorted);
        return -1;
    }
    for (size_t i = 0; i < c->nfunctions; i++)
        next[c->functions[i].pattern + 1]++;
    for (size_t p = 0; p < npatterns; p++)
        next[p + 1] += next[p];
    for (size_t i = 0; i < c->nfunctions; i++)
        sorted[next[c->functions[i].pattern]++] = c->functions[i];
    free(c->functions);
    c->functions = sorted;
    free(next);
    return 0;
}

/* Each pattern's counts and status; the unmatched ones and the verdict. */
static void outcomes(struct inspect_check *c, const struct scope_config *cfg)
{
    for (size_t p = 0; p < cfg->npatterns; p++)
        c->patterns[p].selected = cfg->patterns[p].matches;
    for (size_t i = 0; i < c->nfunctions; i++) {
        struct check_pattern *o = &c->patterns[c->functions[i].pattern];
        o->hookable += c->functions[i].hookable;
        o->selected -= c->functions[i].fragment;   /* listed, not selected */
    }
    for (size_t p = 0; p < cfg->npatterns; p++) {
        struct check_pattern *o = &c->patterns[p];
        if (cfg->patterns[p].exclude) {
            o->status = "exclude";
            continue;
        }
        c->unmatched += o->selected == 0;
        o->status = o->selected == 0            ? "matches nothing"
                    : o->hookable == o->selected ? "ok"
                                                 : "not all hookable";
    }
    c->complete = !c->unmatched && c->tally.functions &&
                  c->tally.hookable + c->tally.plt >= c->tally.functions;
}

static int out_of_memory(char *err, size_t errlen)
{
    snprintf(err, errlen, "out of memory");
    return -1;
}

int inspect_check(const char *program, struct scope_config *cfg, struct inspect_check *out,
                  FILE *report, char *err, size_t errlen)
{
    *out = (struct inspect_check){0};
    struct collect k = {out, 0, false};
    if (!(out->patterns = calloc(cfg->npatterns ? cfg->npatterns : 1, sizeof *out->patterns)))
        return out_of_memory(err, errlen);
    if (inspect_program(program, cfg, keep, &k, report, err, errlen) != 0)
        return -1;
    if (k.failed || by_pattern(out, cfg->npatterns) != 0)
        return out_of_memory(err, errlen);
    outcomes(out, cfg);
    return 0;
}

void inspect_check_free(struct inspect_check *c)
{
    for (size_t i = 0; i < c->nfunctions; i++) {
        free(c->functions[i].module);
        free(c->functions[i].name);
        free(c->functions[i].why);
    }
    free(c->functions);
    free(c->patterns);
    *c = (struct inspect_check){0};
}

void inspect_pattern_text(const struct scope_pattern *p, char *out, size_t outlen)
{
    snprintf(out, outlen, "%s%s%s%s%s", p->exclude ? "!" : "", p->library ? p->library : "",
             p->library ? ":" : "", p->kind == SCOPE_PATTERN_REGEX ? "re:" : "", p->text);
}

void inspect_pattern_where(const struct scope_pattern *p, char *out, size_t outlen)
{
    if (p->line)
        snprintf(out, outlen, "%s:%d", p->source, p->line);
    else
        snprintf(out, outlen, "-f");
}
