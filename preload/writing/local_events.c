/* local_events.c: reads this process's buffers, converts the raw
 * timestamps to ns on rank 0's clock and groups the calls by the regions of
 * its hooks. */
#include "local_events.h"
#include "fold.h"
#include "log.h"
#include "payload_functions.h"
#include "peer_totals.h"
#include "profile_rank.h"
#include "profile_sites.h"
#include "region_clones.h"
#include "runtime.h"
#include "thread_buffer.h"

#include <stdio.h>
#include <stdlib.h>

/* Profile mode or folding: every thread's table added up into g->profile,
 * the call sites of its paths into `sites`. */
static int add_profile(struct scope_event_groups *g, const uint32_t *hook_region,
                       const struct scope_clock_map *map, struct scope_site_table *sites,
                       char *err, size_t errlen)
{
    struct scope_profile_table **tables = NULL;
    struct scope_thread_records *records = NULL;
    int32_t **path_sites = NULL;
    size_t ntables = 0;
    g->profile = malloc(sizeof(*g->profile));
    if (!g->profile || scope_buffers_profiles(&tables, &records, &ntables) != 0) {
        free(g->profile);
        g->profile = NULL;
        snprintf(err, errlen, "out of memory reading the profile");
        return -1;
    }
    int rc = scope_profile_sites_read(tables, records, ntables, map, sites, &path_sites, err,
                                      errlen);
    if (rc == 0)
        rc = scope_rank_profile_build(g->profile, tables, path_sites, ntables, hook_region,
                                      scope_rt.nhooks, scope_rt.nregions, map,
                                      !scope_profile_mode, err, errlen);
    scope_profile_sites_free(path_sites, ntables);
    free(records);
    uint64_t passed = scope_trace_limit_passed_at();
    if (rc == 0 && passed)
        g->profile->trace_limit_passed_ns = scope_clock_map_apply(map, passed);
    if (rc != 0) {
        free(g->profile);
        g->profile = NULL;
    }
    free(tables);
    return rc;
}

/* The peer totals of the process's MPI calls, by region, each with its
 * region's family (for its mpi_payload when it has no payload rows: a
 * profile, every call folded). */
static int add_peers(struct scope_event_groups *g, const uint32_t *hook_region,
                     const char *const *hook_symbol, char *err, size_t errlen)
{
    struct scope_peer_total *totals = NULL;
    size_t n = 0;
    int rc = scope_peer_totals_collect(&totals, &n) == 0 &&
                     scope_region_peers_build(&g->peers, totals, n, hook_region, hook_symbol,
                                              scope_rt.nhooks, g->nregions) == 0 ? 0 : -1;
    free(totals);
    if (rc != 0)
        snprintf(err, errlen, "out of memory adding up the messages per peer");
    return rc;
}

/* Waiting calls kept in memory for the self times: SCOPE_SELF_CALLS, or
 * fewer for tests (SCOPE_TEST_SELF_CALLS, test-only: the file they wait in
 * taken without a run of millions of calls). */
static size_t self_calls_in_memory(void)
{
    const char *v = getenv("SCOPE_TEST_SELF_CALLS");
    long n = v ? atol(v) : 0;
    return n > 0 ? (size_t)n : SCOPE_SELF_CALLS;
}

int scope_local_events_build(struct scope_event_groups *g, struct scope_site_table *sites,
                             const struct scope_clock_offsets *to_root, char *err, size_t errlen)
{
    scope_site_table_init(sites);
    struct scope_thread_records *threads = NULL;
    size_t nthreads = 0;
    uint32_t *hook_region = malloc((scope_rt.nhooks ? scope_rt.nhooks : 1) * sizeof(uint32_t));
    const char **hook_symbol = malloc((scope_rt.nhooks ? scope_rt.nhooks : 1) * sizeof(char *));
    *g = (struct scope_event_groups){.runs = {.fd = -1}};
    if (!hook_region || !hook_symbol || scope_buffers_threads(&threads, &nthreads) != 0) {
        free(hook_region);
        free(hook_symbol);
        snprintf(err, errlen, "out of memory reading the buffers");
        return -1;
    }
    for (size_t h = 0; h < scope_rt.nhooks; h++) {
        hook_region[h] = scope_rt.hooks[h].region;
        hook_symbol[h] = scope_rt.hooks[h].symbol;
    }
    struct scope_clock_map map;
    scope_clock_map_init(&map, &scope_rt.clock, to_root);
    struct scope_record_reader in;
    struct scope_payload_store payload = {0};
    scope_record_reader_init(&in, threads, nthreads, &map);
    in.sites = sites;
    in.payload = &payload;
    int rc = scope_event_groups_build(g, &in, hook_region, scope_rt.nhooks, scope_rt.nregions,
                                      SCOPE_MERGE_WINDOW, self_calls_in_memory(), err, errlen);
    scope_record_reader_close(&in);
    if (rc == 0 && scope_profile_tables)   /* profile mode, or folding */
        rc = add_profile(g, hook_region, &map, sites, err, errlen);
    if (rc == 0) {
        g->region_clones = scope_region_clones(hook_symbol, hook_region, scope_rt.nhooks,
                                               scope_rt.nregions);
        scope_event_groups_take_payload(g, &payload, hook_symbol, hook_region, scope_rt.nhooks);
        rc = add_peers(g, hook_region, hook_symbol, err, errlen);
    }
    scope_payload_store_free(&payload);
    if (rc == 0 && g->anomaly.found) {
        char line[512];
        scope_event_anomaly_text(&g->anomaly, scope_rt.hooks[g->anomaly.hook].name, line,
                                 sizeof line);
        scope_log("%s", line);
    }
    free(hook_region);
    free(hook_symbol);
    free(threads);
    return rc;
}

struct scope_region_info scope_local_region_info(const struct scope_event_groups *g, size_t r,
                                                 const void *ctx)
{
    (void)ctx;
    const struct scope_hook *h = &scope_rt.hooks[g->region_hook[r]];
    const struct scope_region_profile *profile = scope_rank_profile_region(g->profile, r);
    return (struct scope_region_info){
        .name = scope_rt.regions[r], .symbol = h->symbol, .library = h->module,
        .address = h->value, .clones = g->region_clones ? g->region_clones[r] : NULL,
        .unfinished = g->region_unfinished[r], .has_self = profile || g->self_known,
        .self_ns = profile ? profile->self_ns : g->region_self[r],
        .payload = g->region_payload ? g->region_payload[r] : NULL, .profile = profile,
        .peers = scope_region_peers_of(&g->peers, r)};
}
