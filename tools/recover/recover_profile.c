/* recover_profile.c: a killed process's profile tables (recover_profile.h),
 * mapped read-only; a table that is not whole, not of its pid or not a
 * table at all is left out. A table caught in the middle of an update
 * differs from a whole one by that one call at most. */
#include "recover_profile.h"
#include "grow_array.h"
#include "profile_rank.h"
#include "profile_sites.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

static void table_path(char *out, size_t len, const struct recover_process *proc, int buffer)
{
    snprintf(out, len, "%s/%s-p%d", proc->dir, proc->stem, buffer);
}

int recover_is_profile(const struct recover_process *proc)
{
    char path[4096];
    struct scope_profile_header h;
    table_path(path, sizeof path, proc, 0);
    FILE *f = fopen(path, "rb");
    int whole = f && fread(&h, sizeof h, 1, f) == 1;
    if (f)
        fclose(f);
    return whole && !h.folding;   /* a trace's folded calls: a trace */
}

int recover_profile(const struct recover_process *proc, struct scope_event_groups *g,
                    const struct scope_thread_records *buffers, size_t nbuffers,
                    struct scope_site_table *sites, const uint32_t *hook_region, size_t nhooks,
                    size_t nregions, const struct scope_clock_map *map, char *err,
                    size_t errlen)
{
    struct scope_profile_table **tables = NULL;
    struct scope_thread_records *records = NULL;   /* of each table's buffer */
    int32_t **path_sites = NULL;
    size_t n = 0, cap = 0, records_cap = 0;
    int rc = 0;
    for (int buffer = 0; rc == 0; buffer++) {
        char path[4096];
        size_t bytes;
        table_path(path, sizeof path, proc, buffer);
        struct scope_profile_table *t = recover_map_file(path, &bytes);
        if (!t)
            break;
        if (bytes != sizeof(*t) || memcmp(t->header.magic, SCOPE_PROFILE_MAGIC, 8) != 0 ||
            t->header.pid != proc->meta->pid) {
            munmap(t, bytes);
            continue;
        }
        rc = scope_grow_array((void **)&tables, &cap, n + 1, sizeof(*tables)) ||
             scope_grow_array((void **)&records, &records_cap, n + 1, sizeof(*records));
        if (rc == 0) {   /* a buffer not found or damaged: no stacks, callers alone */
            records[n] = (size_t)buffer < nbuffers ? buffers[buffer]
                                                   : (struct scope_thread_records){.thread = -1};
            tables[n++] = t;
        } else {
            munmap(t, bytes);
        }
    }
    if (rc == 0 && n > 0)
        rc = scope_profile_sites_read(tables, records, n, map, sites, &path_sites, err, errlen);
    if (rc == 0 && n > 0) {
        g->profile = malloc(sizeof(*g->profile));
        rc = g->profile ? scope_rank_profile_build(g->profile, tables, path_sites, n, hook_region,
                                                   nhooks, nregions, map,
                                                   tables[0]->header.folding, err, errlen)
                        : -1;
        if (rc != 0) {
            free(g->profile);
            g->profile = NULL;
        }
    }
    scope_profile_sites_free(path_sites, n);
    for (size_t i = 0; i < n; i++)
        munmap(tables[i], sizeof(*tables[i]));
    free(tables);
    free(records);
    if (rc != 0 && !*err)
        snprintf(err, errlen, "pid %d: out of memory reading its profile", proc->meta->pid);
    return rc;
}
