/* profile_sites.c: the sites of profile mode's paths (profile_sites.h). */
#include "profile_sites.h"

#include <stdio.h>
#include <stdlib.h>

#define BATCH 256   /* events decoded at a time: a profile's buffer holds none */

static int has_sites(const struct scope_profile_table *t)
{
    for (uint64_t i = 0; i < t->header.npaths && i < SCOPE_PROFILE_PATHS; i++)
        if (t->paths[i].caller)
            return 1;
    return 0;
}

/* Table t's paths' sites, from its buffer's records r; NULL with err. */
static int32_t *table_sites(const struct scope_profile_table *t,
                            const struct scope_thread_records *r,
                            const struct scope_clock_map *map, struct scope_site_table *sites,
                            char *err, size_t errlen)
{
    size_t n = t->header.npaths < SCOPE_PROFILE_PATHS ? (size_t)t->header.npaths
                                                      : SCOPE_PROFILE_PATHS;
    int32_t *out = malloc((n ? n : 1) * sizeof(*out));
    struct scope_event *batch = malloc(BATCH * sizeof(*batch));
    struct scope_record_reader *in = malloc(sizeof(*in));
    int oom = !out || !batch || !in;
    long got = oom ? -1 : 0;
    if (!oom) {
        scope_record_reader_init(in, r, 1, map);
        in->sites = sites;
        while ((got = scope_record_reader_next(in, batch, BATCH, err, errlen)) > 0)
            ;
        scope_record_reader_close(in);
    }
    for (size_t i = 0; got == 0 && i < n; i++) {
        const struct scope_profile_path *e = &t->paths[i];
        out[i] = e->caller ? scope_record_reader_site(in, e->caller, e->stack) : -1;
        oom = e->caller && out[i] < 0;
        got = oom ? -1 : 0;
    }
    free(batch);
    free(in);
    if (got != 0) {
        if (oom)   /* else the reader said why */
            snprintf(err, errlen, "out of memory reading the call sites of the profile");
        free(out);
        return NULL;
    }
    return out;
}

int scope_profile_sites_read(struct scope_profile_table *const *tables,
                             const struct scope_thread_records *records, size_t n,
                             const struct scope_clock_map *map, struct scope_site_table *sites,
                             int32_t ***out, char *err, size_t errlen)
{
    *out = calloc(n ? n : 1, sizeof(**out));
    if (!*out) {
        snprintf(err, errlen, "out of memory reading the call sites of the profile");
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        if (has_sites(tables[i]) &&
            !((*out)[i] = table_sites(tables[i], &records[i], map, sites, err, errlen))) {
            scope_profile_sites_free(*out, n);
            *out = NULL;
            return -1;
        }
    return 0;
}

void scope_profile_sites_free(int32_t **path_sites, size_t n)
{
    for (size_t i = 0; path_sites && i < n; i++)
        free(path_sites[i]);
    free(path_sites);
}
