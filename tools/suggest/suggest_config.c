/* suggest_config.c: the config `scope suggest` writes, for people to read
 * and edit: the run's own config as it was, then, under a comment saying
 * where the figures come from, a line for each function kept that it did
 * not select (given by -f) and a '!' line for each function left out,
 * each with its reason. Without the run's config: every function the run
 * recorded by name instead. Before it is written, libscope's own parser
 * reads it back and every region is matched against it, so that what it
 * leaves out and keeps is what the table says. */
#include "suggest.h"
#include "clone_names.h"
#include "demangle.h"

#include <stdlib.h>
#include <string.h>

#define PATTERN_COLUMN 40   /* comments start here when the pattern is shorter */

/* Whether a region name can stand as an exact pattern: no glob or regex
 * syntax, no spaces, nothing the config's line syntax reads. */
static bool plain_name(const char *name)
{
    return name[0] && name[0] != '!' && strncmp(name, "re:", 3) != 0 &&
           strspn(name, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.$:~") ==
               strlen(name);
}

/* The pattern that names row's function: its symbol without clone tags
 * (GCC's copies answer to it), else its region name, as an anchored regex
 * when it is not a plain name. NULL when out of memory. */
static char *pattern_of(const suggest_row *row, const char *name)
{
    if (row->symbol)
        return strndup(row->symbol, scope_clone_base_length(row->symbol));
    if (plain_name(name))
        return strdup(name);
    char *re = malloc(2 * strlen(name) + 6), *o = re;
    if (!re)
        return NULL;
    o += sprintf(o, "re:^");
    for (const char *p = name; *p; p++) {
        if (strchr(".[]()*+?{}|\\^$", *p))
            *o++ = '\\';
        *o++ = *p;
    }
    strcpy(o, "$");
    return re;
}

/* "PATTERN  # [NAME: ]NOTEreason", the comment aligned. */
static int put_line(FILE *out, const char *prefix, const suggest_row *row, const char *name,
                    const char *note)
{
    char *pattern = pattern_of(row, name);
    if (!pattern)
        return -1;
    int width = (int)(strlen(prefix) + strlen(pattern));
    fprintf(out, "%s%s%*s  # ", prefix, pattern, width < PATTERN_COLUMN ? PATTERN_COLUMN - width : 0,
            "");
    if (strcmp(pattern, name) != 0)
        fprintf(out, "%s: ", name);
    fprintf(out, "%s%s\n", note, row->reason);
    free(pattern);
    return 0;
}

static int by_overhead(const void *a, const void *b)
{
    const suggest_row *x = *(const suggest_row *const *)a, *y = *(const suggest_row *const *)b;
    return (x->overhead < y->overhead) - (x->overhead > y->overhead);
}

static void put_header(FILE *out, const scope_file *f, const suggestion *s,
                       const suggest_rules *rules)
{
    if (s->have_config) {
        size_t len = strlen(s->config_text);
        fprintf(out, "%s%s\n", s->config_text, len && s->config_text[len - 1] != '\n' ? "\n" : "");
    }
    fprintf(out, "# scope suggest, from %s\n"
                 "# hook cost: %g ns per call (%s)\n"
                 "# left out: %zu calls or more with a mean under %g x %g ns, unless MPI,\n"
                 "#   named without a glob in the run's config, or %g %% of the run or more\n"
                 "#   with a mean of at least %g ns\n",
            scope_file_path(f), rules->hook_cost_ns, rules->cost_source, rules->min_calls,
            rules->factor, rules->hook_cost_ns, rules->min_share * 100, rules->hook_cost_ns);
    if (!s->have_config)
        fprintf(out, "# written from the regions of the run: %s\n", s->config_note);
    fprintf(out, "[functions]\n");
}

/* The whole config, to out. */
static int compose(FILE *out, const scope_file *f, const suggestion *s,
                   const suggest_rules *rules)
{
    const suggest_row **left_out = malloc((s->n ? s->n : 1) * sizeof *left_out);
    if (!left_out)
        return -1;
    put_header(out, f, s, rules);
    size_t n_out = 0;
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < s->n; i++) {
        const suggest_row *row = &s->rows[i];
        const char *name = scope_region_name(f, row->region);
        if (row->exclude)
            left_out[n_out++] = row;
        else if (!s->have_config)
            rc = put_line(out, "", row, name, "");
        else if (!row->selected)
            rc = put_line(out, "", row, name, "not in the run's config (given by -f?): ");
    }
    qsort(left_out, n_out, sizeof *left_out, by_overhead);
    for (size_t i = 0; rc == 0 && i < n_out; i++)
        rc = put_line(out, "!", left_out[i], scope_region_name(f, left_out[i]->region), "");
    free(left_out);
    return rc;
}

/* Reads text back with libscope's parser (as the file `name`) and matches
 * every region against it. */
static int check(const scope_file *f, const suggestion *s, const char *text, const char *name,
                 scope_error *err)
{
    struct scope_config cfg;
    char why[sizeof err->message - 128];
    scope_config_init(&cfg);
    cfg.demangle = scope_demangle;
    int rc = 0;
    if (scope_config_load_string(&cfg, name, text, why, sizeof why) != 0) {
        snprintf(err->message, sizeof err->message, "the suggested config does not load: %s%s",
                 why, s->have_config ? " (write it beside the run's config, where its includes"
                                       " are found)" : "");
        rc = -1;
    }
    for (size_t i = 0; rc == 0 && i < s->n; i++) {
        const suggest_row *row = &s->rows[i];
        const char *region = scope_region_name(f, row->region);
        bool selected = scope_config_match(&cfg, row->symbol ? row->symbol : region,
                                           row->library) >= 0;
        if (selected == row->exclude) {
            snprintf(err->message, sizeof err->message,
                     row->exclude ? "the suggested config would still hook %s"
                                  : "the suggested config would no longer hook %s (a pattern "
                                    "that leaves out another function selects it too)",
                     region);
            rc = -1;
        }
    }
    scope_config_free(&cfg);
    return rc;
}

int suggest_write_config(const scope_file *f, const suggestion *s, const suggest_rules *rules,
                         const char *name, FILE *out, scope_error *err)
{
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    int rc = mem ? compose(mem, f, s, rules) : -1;
    if (mem && fclose(mem) != 0)
        rc = -1;
    if (rc < 0)
        snprintf(err->message, sizeof err->message, "out of memory");
    if (rc == 0)
        rc = check(f, s, text, name, err);
    if (rc == 0 && out)
        fputs(text, out);
    free(text);
    return rc;
}
