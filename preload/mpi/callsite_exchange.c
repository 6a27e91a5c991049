/* callsite_exchange.c: call sites to rank 0, their ids back
 * (callsite_exchange.h). */
#include "callsite_exchange.h"

#include "callsite_blob.h"
#include "callsite_resolve.h"
#include "companion_loader.h"
#include "log.h"

#include <stdlib.h>

/* Rank 0's side of the call-site exchange: every rank's named call sites
 * join the run's set, in rank order; each rank gets back the id in the
 * file of each of its sites (an empty map: its sites are left out). */
void scope_merge_callsites(const struct scope_merge_comms *c, struct scope_callsite_set *set)
{
    for (int r = 1; r < c->size; r++) {
        MPI_Status st;
        int len;
        PMPI_Probe(r, TAG_SITES, c->world, &st);
        PMPI_Get_count(&st, MPI_BYTE, &len);
        char *blob = malloc(len ? (size_t)len : 1);
        if (!blob) {
            scope_log("out of memory for the call sites of rank %d", r);
            abort();   /* the ranks would wait forever otherwise */
        }
        PMPI_Recv(blob, len, MPI_BYTE, r, TAG_SITES, c->world, MPI_STATUS_IGNORE);
        struct scope_callsite_table table = {0};
        struct scope_callsite_frame *frames = NULL;
        int32_t *remap = NULL;
        if (len > 0 &&
            (scope_callsite_blob_unpack(blob, (size_t)len, &table, &frames) != 0 ||
             scope_callsite_set_add_table(set, &table, &remap) != 0)) {
            scope_log("rank %d: its call sites could not be merged", r);
            free(remap);
            remap = NULL;
        }
        PMPI_Send(remap, remap ? (int)table.nsites : 0, MPI_INT32_T, r, TAG_SITE_MAP, c->world);
        free(remap);
        free(frames);
        free(blob);
    }
}

/* A non-zero rank's side: its call sites named here (addresses mean
 * nothing elsewhere) go to rank 0; returns each one's id in the file, or
 * NULL when it has none (or they were left out). */
int32_t *scope_send_callsites(const struct scope_merge_comms *c, const struct scope_site_table *sites)
{
    char err[512];
    struct scope_callsite_set set;
    struct scope_callsite_table table = {0};
    int32_t *local = NULL, *storage = NULL, *file_ids = NULL;
    size_t len = 0;
    scope_callsite_set_init(&set);
    if (scope_callsites_resolve(scope_load_resolver, NULL, sites, &set, &local, err, sizeof(err)) != 0)
        scope_log("rank %d: call sites left out: %s", c->rank, err);
    char *blob = local && scope_callsite_set_table(&set, &table, &storage) == 0
                     ? scope_callsite_blob_pack(&table, &len)
                     : NULL;
    PMPI_Send(blob, blob ? (int)len : 0, MPI_BYTE, 0, TAG_SITES, c->world);   /* empty: none */
    MPI_Status st;
    int n;
    PMPI_Probe(0, TAG_SITE_MAP, c->world, &st);
    PMPI_Get_count(&st, MPI_INT32_T, &n);
    int32_t *remap = malloc(n ? (size_t)n * sizeof(int32_t) : 1);
    PMPI_Recv(remap, remap ? n : 0, MPI_INT32_T, 0, TAG_SITE_MAP, c->world, MPI_STATUS_IGNORE);
    if (blob && remap && (size_t)n == table.nsites) {   /* ids in the file, in place */
        for (size_t i = 0; i < sites->nsites; i++)
            local[i] = remap[local[i]];
        file_ids = local;
        local = NULL;
    }
    free(remap);
    free(local);
    free(blob);
    free(storage);
    scope_callsite_set_free(&set);
    return file_ids;
}

