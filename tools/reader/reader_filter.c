/* Filters: include/exclude regexes (POSIX extended, search semantics),
 * rank selection and the origin the times are measured from. */
#include "reader_internal.h"

#include <regex.h>
#include <stdlib.h>

/* Match every region name against one list of regexes: hit[r] |= match. */
static int match_all(const scope_file *f, const char *const *res, size_t n, bool *hit,
                     scope_error *err)
{
    for (size_t i = 0; i < n; i++) {
        regex_t re;
        int rc = regcomp(&re, res[i], REG_EXTENDED | REG_NOSUB);
        if (rc != 0) {
            char msg[256];
            regerror(rc, &re, msg, sizeof msg);
            return reader_fail(err, "bad regular expression '%s': %s", res[i], msg);
        }
        for (size_t r = 0; r < f->n_regions; r++)
            hit[r] |= regexec(&re, f->names[r], 0, NULL, 0) == 0;
        regfree(&re);
    }
    return 0;
}

int reader_apply_filter(const scope_file *f, const scope_filter *flt, bool *keep,
                        bool *rank_keep, scope_error *err)
{
    static const scope_filter all = {0};
    if (!flt)
        flt = &all;
    for (size_t i = 0; rank_keep && i < f->n_ranks; i++)
        rank_keep[i] = flt->n_ranks == 0;
    for (size_t i = 0; i < flt->n_ranks; i++) {
        long ri = reader_rank_index(f, flt->ranks[i]);
        if (ri < 0)
            return reader_fail(err, "unknown rank %d", flt->ranks[i]);
        if (rank_keep)
            rank_keep[ri] = true;
    }
    if (!keep)
        return 0;
    bool *excluded = calloc(f->n_regions + 1, sizeof *excluded);
    if (!excluded)
        return reader_fail(err, "out of memory");
    for (size_t r = 0; r < f->n_regions; r++)
        keep[r] = flt->n_include == 0;
    int rc = match_all(f, flt->include, flt->n_include, keep, err);
    if (rc == 0)
        rc = match_all(f, flt->exclude, flt->n_exclude, excluded, err);
    for (size_t r = 0; r < f->n_regions; r++)
        keep[r] &= !excluded[r];
    free(excluded);
    return rc;
}

int reader_select(const scope_file *f, const scope_filter *flt, reader_selection *sel,
                  scope_error *err)
{
    sel->keep = calloc(f->n_regions + 1, sizeof *sel->keep);
    sel->rank_keep = calloc(f->n_ranks + 1, sizeof *sel->rank_keep);
    if (!sel->keep || !sel->rank_keep)
        return reader_fail(err, "out of memory");
    return reader_apply_filter(f, flt, sel->keep, sel->rank_keep, err);
}

void reader_selection_free(reader_selection *sel)
{
    free(sel->keep);
    free(sel->rank_keep);
}

void *reader_rows(void *out, size_t n, int rc, size_t *count)
{
    if (rc < 0) {
        free(out);
        return NULL;
    }
    *count = n;
    return out;
}

int scope_filter_region(const scope_file *f, const scope_filter *flt, size_t region,
                        scope_error *err)
{
    bool *keep = calloc(f->n_regions + 1, sizeof *keep);
    if (!keep)
        return reader_fail(err, "out of memory");
    int rc = reader_apply_filter(f, flt, keep, NULL, err);
    if (rc == 0)
        rc = region < f->n_regions && keep[region];
    free(keep);
    return rc;
}

int64_t scope_filter_origin_ns(const scope_file *f, const scope_filter *flt)
{
    if (flt && flt->absolute)
        return 0;
    if (flt && flt->has_origin)
        return flt->origin_ns;
    return scope_time_origin_ns(f);
}

long scope_filter_ranks(const scope_file *f, const scope_filter *flt, int *ranks,
                        scope_error *err)
{
    bool *rank_keep = calloc(f->n_ranks + 1, sizeof *rank_keep);
    if (!rank_keep)
        return reader_fail(err, "out of memory");
    long n = reader_apply_filter(f, flt, NULL, rank_keep, err);
    for (size_t ri = 0; n >= 0 && ri < f->n_ranks; ri++)
        if (rank_keep[ri])
            ranks[n++] = f->ranks[ri];
    free(rank_keep);
    return n;
}
