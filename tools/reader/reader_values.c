/* The argument and return values of calls (the arg1 .. arg6 and retval
 * datasets of a region group, written for functions configured with
 * "args=" or "retval"): which a series has, found at open, and their
 * columns, read on first use in one batch (reader_columns.c), checked
 * against the calls and kept in the series. */
#include "reader_columns.h"
#include "reader_h5.h"

#include <stdlib.h>

static const char *const value_names[SCOPE_VALUE_SLOTS] = {"arg1", "arg2", "arg3", "arg4",
                                                           "arg5", "arg6", "retval"};

const char *scope_value_name(size_t slot)
{
    return slot < SCOPE_VALUE_SLOTS ? value_names[slot] : "";
}

void reader_find_values(hid_t group, series *s)
{
    for (size_t v = 0; v < SCOPE_VALUE_SLOTS; v++)
        if (h5_has_link(group, value_names[v]))
            s->value_mask |= 1u << v;
}

unsigned scope_region_values(const scope_file *f, size_t region)
{
    unsigned mask = 0;
    for (size_t ri = 0; region < f->n_regions && ri < f->n_ranks; ri++) {
        const series *s = reader_series(f, region, ri);
        mask |= s ? s->value_mask : 0;
    }
    return mask;
}

typedef struct reading {
    series *s;
    void *data[SCOPE_VALUE_SLOTS];
    size_t len[SCOPE_VALUE_SLOTS];
} reading;

static int plan(const scope_file *f, column_batch *b, reading *r, scope_error *err)
{
    const char *where = r->s->where;
    hid_t g = H5Gopen2(f->h5, where, H5P_DEFAULT);
    if (g < 0)
        return reader_fail(err, "%s: cannot open the group", where);
    int rc = 0;
    for (size_t v = 0; rc == 0 && v < SCOPE_VALUE_SLOTS; v++)
        if (r->s->value_mask & (1u << v))
            rc = reader_columns_add(b, g, value_names[v], H5T_NATIVE_INT64, &r->data[v],
                                    &r->len[v], where, err);
    H5Gclose(g);
    return rc;
}

/* The columns read become the series' values, if each has a value per call. */
static int keep_columns(reading *r, scope_error *err)
{
    series *s = r->s;
    for (size_t v = 0; v < SCOPE_VALUE_SLOTS; v++)
        if ((s->value_mask & (1u << v)) && r->len[v] != s->pub.count)
            return reader_fail(err, "%s: %zu %s but %zu calls", s->where, r->len[v],
                               value_names[v], s->pub.count);
    if (!s->values && !(s->values = calloc(SCOPE_VALUE_SLOTS, sizeof *s->values)))
        return reader_fail(err, "out of memory");
    for (size_t v = 0; v < SCOPE_VALUE_SLOTS; v++) {
        s->values[v] = r->data[v];
        r->data[v] = NULL;
    }
    atomic_store(&s->values_loaded, true);
    return 0;
}

void reader_free_values(series *s)
{
    for (size_t v = 0; s->values && v < SCOPE_VALUE_SLOTS; v++)
        free(s->values[v]);
    free(s->values);
    s->values = NULL;
    atomic_store(&s->values_loaded, false);
}

/* reader_load_values with the file's lock held. */
static int load_locked(const scope_file *f, const bool *keep, const bool *rank_keep,
                       scope_error *err)
{
    size_t n_series = f->n_regions * f->n_ranks, k = 0;
    reading *list = calloc(n_series + 1, sizeof *list);
    column_batch *b = reader_columns_new();
    int rc = list && b ? 0 : reader_fail(err, "out of memory");
    for (size_t r = 0; rc == 0 && r < f->n_regions; r++)
        for (size_t ri = 0; rc == 0 && ri < f->n_ranks && (!keep || keep[r]); ri++) {
            series *s = (series *)reader_series(f, r, ri);
            if (!s || !s->value_mask || atomic_load(&s->values_loaded) ||
                (rank_keep && !rank_keep[ri]))
                continue;
            list[k] = (reading){.s = s};
            rc = plan(f, b, &list[k++], err);
        }
    if (rc == 0)
        rc = reader_columns_run(b, 0, err);
    else
        reader_columns_free(b);
    for (size_t i = 0; rc == 0 && i < k; i++)
        rc = keep_columns(&list[i], err);
    for (size_t i = 0; list && i < k; i++)
        for (size_t v = 0; v < SCOPE_VALUE_SLOTS; v++)
            free(list[i].data[v]);
    free(list);
    return rc;
}

int reader_load_values(const scope_file *f, const bool *keep, const bool *rank_keep,
                       scope_error *err)
{
    if (!f->has_values)
        return 0;
    h5_quiet q = reader_hold(f);
    int rc = load_locked(f, keep, rank_keep, err);
    reader_release(f, q);
    return rc;
}

const int64_t *scope_region_value_column(const scope_file *f, size_t region, int rank,
                                         size_t slot, scope_error *err)
{
    long ri = reader_rank_index(f, rank);
    const series *s = ri >= 0 && region < f->n_regions ? reader_series(f, region, (size_t)ri)
                                                        : NULL;
    err->message[0] = '\0';
    if (!s || slot >= SCOPE_VALUE_SLOTS || !(s->value_mask & (1u << slot)))
        return NULL;
    bool *keep = calloc(f->n_regions + 1, sizeof *keep);
    if (!keep) {
        reader_fail(err, "out of memory");
        return NULL;
    }
    keep[region] = true;
    int rc = reader_load_values(f, keep, NULL, err);
    free(keep);
    return rc == 0 && s->values ? s->values[slot] : NULL;
}
