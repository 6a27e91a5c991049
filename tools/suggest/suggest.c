/* suggest.c: which functions the next run's config should leave out, and
 * what each region's hooks cost. Kept always: the functions the run's
 * config names without a glob, MPI functions, the only region of a file.
 * Left out: functions whose calls are many (rules->min_calls) and short (a
 * mean under rules->factor x the hook cost), unless they take
 * rules->min_share of the run with a mean of at least the hook cost (their
 * time is then more their own than the hooks'). The rest is kept. */
#include "suggest.h"
#include "demangle.h"
#include "duration_text.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

double suggest_file_hook_cost(const scope_file *f)
{
    const scope_meta *m = scope_metadata_find(f, "hook_cost_ns");
    double v = !m ? 0 : m->kind == SCOPE_META_INT ? (double)m->int_value
                       : m->kind == SCOPE_META_FLOAT ? m->float_value : 0;
    return isfinite(v) && v > 0 ? v : 0;
}

static const char *meta_text(const scope_file *f, const char *key)
{
    const scope_meta *m = scope_metadata_find(f, key);
    return m && m->kind == SCOPE_META_STRING ? m->text : "";
}

/* The run's config (/metadata config, relative to the run's working
 * directory), parsed, with its text; when it cannot be had, why not in
 * s->config_note. -1 only when out of memory. */
static int read_run_config(const scope_file *f, suggestion *s, scope_error *err)
{
    const char *path = meta_text(f, "config"), *cwd = meta_text(f, "working_directory");
    if (!*path) {
        snprintf(s->config_note, sizeof s->config_note,
                 "the run had no config file (its functions were given by -f or "
                 "SCOPE_FUNCTIONS)");
        return 0;
    }
    size_t len = strlen(cwd) + strlen(path) + 2;
    if (!(s->config_path = malloc(len))) {
        snprintf(err->message, sizeof err->message, "out of memory");
        return -1;
    }
    snprintf(s->config_path, len, "%s%s%s", path[0] == '/' ? "" : cwd,
             path[0] == '/' || !*cwd ? "" : "/", path);
    char why[sizeof s->config_note - 64];
    if (access(s->config_path, R_OK) != 0) {
        snprintf(s->config_note, sizeof s->config_note, "the run's config %s is gone (%s)",
                 s->config_path, strerror(errno));
        return 0;
    }
    if (scope_config_load_file(&s->config, s->config_path, why, sizeof why) != 0) {
        snprintf(s->config_note, sizeof s->config_note, "the run's config cannot be read now: %s",
                 why);
        return 0;
    }
    if (!(s->config_text = scope_config_file_text(s->config_path))) {
        snprintf(s->config_note, sizeof s->config_note, "cannot read %s: %s", s->config_path,
                 strerror(errno));
        return 0;
    }
    s->have_config = true;
    return 0;
}

/* Whether the config selects the symbol (*selected) and names it without
 * a glob: an exact pattern matches it (scope_config_match counts, on each
 * pattern, the symbols it matches). */
static bool named_exactly(struct scope_config *cfg, const char *symbol, const char *library,
                          bool *selected)
{
    for (size_t i = 0; i < cfg->npatterns; i++)
        cfg->patterns[i].matches = 0;
    *selected = scope_config_match(cfg, symbol, library) >= 0;
    for (size_t i = 0; *selected && i < cfg->npatterns; i++)
        if (cfg->patterns[i].kind == SCOPE_PATTERN_EXACT && !cfg->patterns[i].exclude &&
            cfg->patterns[i].matches > 0)
            return true;
    return false;
}

static bool is_mpi(const char *name)
{
    return strncasecmp(name, "MPI_", 4) == 0 || strncasecmp(name, "PMPI_", 5) == 0;
}

/* A fraction as a percentage with the digits that matter: 31, 2.5, 0.13. */
static const char *percent_text(double fraction, char *buf, size_t size)
{
    double p = fraction * 100;
    if (!isfinite(p))
        snprintf(buf, size, "?");
    else
        snprintf(buf, size, p >= 10 ? "%.0f" : p >= 1 ? "%.1f" : "%.2f", p);
    return buf;
}

/* Keep or leave out row's function, and why. */
static void decide(suggest_row *row, const char *name, bool named, bool only,
                   const suggest_rules *rules)
{
    char mean[32], pct[32], cost[32];
    double cost_s = rules->hook_cost_ns * 1e-9;
    duration_text(mean, sizeof mean, row->mean);
    duration_text(cost, sizeof cost, cost_s);
    bool many = row->calls > 0 && row->calls >= rules->min_calls;
    bool is_short = row->mean < rules->factor * cost_s;
    bool big = isfinite(row->share) && row->share >= rules->min_share && row->mean >= cost_s;
    row->exclude = !named && !is_mpi(name) && !only && many && is_short && !big;
    if (named)
        snprintf(row->reason, sizeof row->reason, "named in the run's config");
    else if (is_mpi(name))
        snprintf(row->reason, sizeof row->reason, "MPI");
    else if (only)
        snprintf(row->reason, sizeof row->reason, "the only region");
    else if (row->calls == 0)
        snprintf(row->reason, sizeof row->reason, "no calls");
    else if (row->exclude)
        snprintf(row->reason, sizeof row->reason,
                 "%zu calls, mean %s < %g x %s hook cost: %s %% estimated overhead", row->calls,
                 mean, rules->factor, cost, percent_text(row->overhead_share, pct, sizeof pct));
    else if (is_short && many)
        snprintf(row->reason, sizeof row->reason, "%s %% of the run, mean %s >= the %s hook cost",
                 percent_text(row->share, pct, sizeof pct), mean, cost);
    else if (is_short)
        snprintf(row->reason, sizeof row->reason, "%zu calls < %zu", row->calls,
                 rules->min_calls);
    else
        snprintf(row->reason, sizeof row->reason, "mean %s >= %g x %s hook cost", mean,
                 rules->factor, cost);
}

int suggest_make(const scope_file *f, const suggest_rules *rules, suggestion *out,
                 scope_error *err)
{
    memset(out, 0, sizeof *out);
    scope_config_init(&out->config);
    out->config.demangle = scope_demangle;
    if (scope_event_count(f) == 0) {
        snprintf(err->message, sizeof err->message,
                 "no calls recorded: nothing to suggest (was anything hooked?)");
        return -1;
    }
    size_t n = 0;
    scope_region_stats *st = scope_summary(f, NULL, &n, err);
    if (!st || read_run_config(f, out, err) < 0 ||
        !(out->rows = calloc(n ? n : 1, sizeof *out->rows))) {
        if (st && !err->message[0])
            snprintf(err->message, sizeof err->message, "out of memory");
        free(st);
        return -1;
    }
    out->n = n;
    double span = scope_time_span(f), ranks = (double)scope_rank_count(f);
    for (size_t i = 0; i < n; i++) {
        suggest_row *row = &out->rows[i];
        const char *name = scope_region_name(f, st[i].region);
        row->region = st[i].region;
        row->calls = st[i].calls;
        row->total = st[i].total;
        row->mean = st[i].mean;
        row->share = st[i].share;
        row->overhead = (double)row->calls * rules->hook_cost_ns * 1e-9;
        row->overhead_share = span > 0 ? row->overhead / ranks / span : NAN;
        row->bytes = scope_region_storage_bytes(f, row->region, NULL);
        row->symbol = scope_region_attribute(f, row->region, "symbol");
        row->library = scope_region_attribute(f, row->region, "library");
        bool named = out->have_config &&
                     named_exactly(&out->config, row->symbol ? row->symbol : name, row->library,
                                   &row->selected);
        decide(row, name, named, n == 1, rules);
    }
    free(st);
    return 0;
}

void suggest_free(suggestion *s)
{
    for (size_t i = 0; i < s->n; i++) {
        free(s->rows[i].symbol);
        free(s->rows[i].library);
    }
    free(s->rows);
    free(s->config_path);
    free(s->config_text);
    scope_config_free(&s->config);
    memset(s, 0, sizeof *s);
}
