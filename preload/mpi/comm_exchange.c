/* comm_exchange.c: communicators to rank 0, the run's ids back
 * (comm_exchange.h). A rank's definitions travel as int32 values: id,
 * size, members, one after another. */
#include "comm_exchange.h"

#include "log.h"

#include <stdlib.h>

static int32_t *pack(const struct scope_payload_store *s, size_t *len)
{
    *len = 2 * s->ncomms + s->nmembers;
    int32_t *v = malloc((*len ? *len : 1) * sizeof *v), *p = v;
    for (size_t i = 0; v && i < s->ncomms; i++) {
        const struct scope_comm_def *d = &s->comms[i];
        *p++ = d->id;
        *p++ = (int32_t)d->size;
        for (size_t k = 0; k < d->size; k++)
            *p++ = s->members[d->first + k];
    }
    return v;
}

/* The definitions in v[0..len) back as a store's (defs into *defs,
 * members point into v); -1 when malformed or out of memory. */
static int unpack(const int32_t *v, size_t len, struct scope_comm_def **defs, size_t *ndefs,
                  int32_t **members)
{
    size_t cap = 0, nmembers = 0;
    *defs = NULL;
    *ndefs = 0;
    *members = malloc((len ? len : 1) * sizeof **members);
    for (size_t at = 0; *members && at < len;) {
        if (len - at < 2 || v[at + 1] < 0 || (size_t)v[at + 1] > len - at - 2)
            return -1;
        size_t n = (size_t)v[at + 1];
        if (*ndefs == cap) {
            cap = cap ? 2 * cap : 16;
            struct scope_comm_def *d = realloc(*defs, cap * sizeof *d);
            if (!d)
                return -1;
            *defs = d;
        }
        (*defs)[(*ndefs)++] = (struct scope_comm_def){v[at], (uint32_t)n, nmembers};
        for (size_t k = 0; k < n; k++)
            (*members)[nmembers++] = v[at + 2 + k];
        at += 2 + n;
    }
    return *members ? 0 : -1;
}

/* Rank 0: the map of one rank's definitions (NULL: none). */
static int32_t *merge_rank(struct scope_comm_merge *m, const int32_t *v, size_t len, size_t *n,
                           int rank)
{
    struct scope_comm_def *defs;
    size_t ndefs;
    int32_t *members, *map = NULL;
    *n = 0;
    if (unpack(v, len, &defs, &ndefs, &members) == 0)
        map = scope_comm_merge_add(m, defs, ndefs, members, n);
    else
        scope_log("rank %d: its communicators could not be merged", rank);
    free(defs);
    free(members);
    return map;
}

void scope_exchange_comms(const struct scope_merge_comms *c, struct scope_event_groups *le,
                          struct scope_comm_merge *merged)
{
    size_t len;
    int32_t *mine = pack(&le->payload, &len);
    if (!mine || scope_comm_merge_init(merged, c->size) != 0) {
        scope_log("rank %d: out of memory for the communicators", c->rank);
        abort();   /* the other ranks would wait forever otherwise */
    }
    if (c->rank == 0) {
        le->comm_ids = merge_rank(merged, mine, len, &le->ncomm_ids, 0);
        for (int r = 1; r < c->size; r++) {
            MPI_Status st;
            int count;
            PMPI_Probe(r, TAG_COMMS, c->world, &st);
            PMPI_Get_count(&st, MPI_INT32_T, &count);
            int32_t *v = malloc(count ? (size_t)count * sizeof *v : 1);
            if (!v) {
                scope_log("out of memory for the communicators of rank %d", r);
                abort();
            }
            PMPI_Recv(v, count, MPI_INT32_T, r, TAG_COMMS, c->world, MPI_STATUS_IGNORE);
            size_t n;
            int32_t *map = merge_rank(merged, v, (size_t)count, &n, r);
            PMPI_Send(map, map ? (int)n : 0, MPI_INT32_T, r, TAG_COMM_MAP, c->world);
            free(map);
            free(v);
        }
    } else {
        PMPI_Send(mine, (int)len, MPI_INT32_T, 0, TAG_COMMS, c->world);
        MPI_Status st;
        int count;
        PMPI_Probe(0, TAG_COMM_MAP, c->world, &st);
        PMPI_Get_count(&st, MPI_INT32_T, &count);
        le->comm_ids = malloc(count ? (size_t)count * sizeof(int32_t) : 1);
        PMPI_Recv(le->comm_ids, le->comm_ids ? count : 0, MPI_INT32_T, 0, TAG_COMM_MAP,
                  c->world, MPI_STATUS_IGNORE);
        le->ncomm_ids = le->comm_ids ? (size_t)count : 0;
    }
    free(mine);
}
