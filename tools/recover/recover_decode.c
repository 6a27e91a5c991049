/* recover_decode.c: a dead process's records decoded for the writer
 * (recover_decode.h). */
#include "recover_decode.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "callsite_resolve.h"
#include "grow_array.h"
#include "profile_rank.h"
#include "recover_peers.h"
#include "recover_profile.h"
#include "region_clones.h"
#include "segment.h"
#include "segment_decode.h"

/* The buffer segments a process left, mapped, and where their records are. */
struct process_segments {
    struct scope_thread_records *threads;
    void **maps;
    size_t *bytes;
    char (*spill)[4096];
    size_t n;
    size_t threads_cap, maps_cap, bytes_cap, spill_cap;
    uint64_t dropped;   /* calls the threads could not record */
};

static void unmap_segments(struct process_segments *p)
{
    for (size_t i = 0; i < p->n; i++)
        munmap(p->maps[i], p->bytes[i]);
    free(p->threads);
    free(p->maps);
    free(p->bytes);
    free(p->spill);
    *p = (struct process_segments){0};
}

static int map_segments(const struct recover_process *proc, struct process_segments *p)
{
    *p = (struct process_segments){0};
    for (int buffer = 0;; buffer++) {
        char path[4096];
        recover_segment_path(path, sizeof(path), proc->dir, proc->stem, buffer);
        size_t bytes;
        struct scope_segment_header *h = recover_map_file(path, &bytes);
        if (!h)
            return 0;
        size_t n = p->n + 1;
        if (scope_grow_array((void **)&p->threads, &p->threads_cap, n, sizeof(*p->threads)) != 0 ||
            scope_grow_array((void **)&p->maps, &p->maps_cap, n, sizeof(*p->maps)) != 0 ||
            scope_grow_array((void **)&p->bytes, &p->bytes_cap, n, sizeof(*p->bytes)) != 0 ||
            scope_grow_array((void **)&p->spill, &p->spill_cap, n, sizeof(*p->spill)) != 0) {
            munmap(h, bytes);
            return -1;
        }
        p->maps[p->n] = h;
        p->bytes[p->n] = bytes;
        int ok = bytes >= SCOPE_SEGMENT_HEADER_BYTES && h->pid == proc->meta->pid &&
                 memcmp(h->magic, SCOPE_SEGMENT_MAGIC, 8) == 0;
        size_t slots = ok ? (bytes - SCOPE_SEGMENT_HEADER_BYTES) / sizeof(struct scope_record) : 0;
        char recorded[sizeof(h->spill_path)];
        memcpy(recorded, h->spill_path, sizeof(recorded));
        recorded[sizeof(recorded) - 1] = '\0';
        recover_spill_location(p->spill[p->n], sizeof(p->spill[0]), proc->dir, ok ? recorded : "");
        p->dropped += ok ? h->dropped : 0;
        p->threads[p->n] = ok ? scope_thread_records_of(h, slots, p->spill[p->n])
                              : (struct scope_thread_records){.thread = -1};
        p->n = n;
    }
}

/* A region's attributes from the hook table of a meta segment. */
struct scope_region_info recover_region_info(const struct scope_event_groups *g, size_t r,
                                                 const void *ctx)
{
    const struct scope_meta_header *m = ctx;
    const struct scope_meta_hook *h = &scope_meta_hooks(m)[g->region_hook[r]];
    const char *strings = scope_meta_strings(m);
    const struct scope_region_profile *profile = scope_rank_profile_region(g->profile, r);
    return (struct scope_region_info){.name = strings + h->name, .symbol = strings + h->symbol,
                                      .library = strings + h->module, .address = h->value,
                                      .clones = g->region_clones ? g->region_clones[r] : NULL,
                                      .unfinished = g->region_unfinished[r],
                                      .has_self = profile || g->self_known,
                                      .self_ns = profile ? profile->self_ns : g->region_self[r],
                                      .payload = g->region_payload ? g->region_payload[r] : NULL,
                                      .profile = profile,
                                      .peers = scope_region_peers_of(&g->peers, r)};
}

/* Groups one process's events by its regions, on rank 0's clock; the
 * strings stay valid as long as its meta segment is mapped. *dropped: the
 * calls its threads could not record. */
int recover_group_process(const struct recover_process *proc, struct scope_event_groups *g,
                         struct scope_site_table *sites, size_t *events, uint64_t *dropped,
                         char *err, size_t errlen)
{
    const struct scope_meta_header *m = proc->meta;
    const struct scope_meta_hook *hooks = scope_meta_hooks(m);
    uint32_t *hook_region = malloc(((size_t)m->nhooks + 1) * sizeof(uint32_t));
    const char **hook_symbol = malloc(((size_t)m->nhooks + 1) * sizeof(char *));
    struct process_segments segs = {0};
    int rc = hook_region && hook_symbol && map_segments(proc, &segs) == 0 ? 0 : -1;
    for (int32_t h = 0; rc == 0 && h < m->nhooks; h++) {
        hook_region[h] = hooks[h].region;
        hook_symbol[h] = scope_meta_strings(m) + hooks[h].symbol;
        if (hooks[h].region >= (uint32_t)m->nregions || hooks[h].name >= m->strings_bytes ||
            hooks[h].symbol >= m->strings_bytes)
            rc = -1;
    }
    *g = (struct scope_event_groups){.runs = {.fd = -1}};
    if (rc == 0) {
        struct scope_clock_calibration c = recover_calibration(m);
        struct scope_clock_offsets to_root = {0, m->clock_offset_ns, 0, m->clock_offset_ns};
        struct scope_clock_map map;
        scope_clock_map_init(&map, &c, &to_root);
        struct scope_record_reader in;
        struct scope_payload_store payload = {0};
        scope_record_reader_init(&in, segs.threads, segs.n, &map);
        in.sites = sites;
        in.payload = &payload;
        rc = scope_event_groups_build(g, &in, hook_region, (size_t)m->nhooks, (size_t)m->nregions,
                                      SCOPE_MERGE_WINDOW, SCOPE_SELF_CALLS, err, errlen);
        scope_record_reader_close(&in);
        if (rc == 0)
            scope_event_groups_take_payload(g, &payload, hook_symbol, hook_region,
                                            (size_t)m->nhooks);
        scope_payload_store_free(&payload);
        if (rc == 0)
            rc = recover_profile(proc, g, segs.threads, segs.n, sites, hook_region,
                                 (size_t)m->nhooks, (size_t)m->nregions, &map, err, errlen);
        if (rc == 0 && g->profile && m->trace_limit_passed_raw)
            g->profile->trace_limit_passed_ns = scope_clock_map_apply(&map,
                                                                      m->trace_limit_passed_raw);
        if (rc == 0)
            rc = recover_peers(proc, g, hook_region, hook_symbol, (size_t)m->nhooks,
                               (size_t)m->nregions, err, errlen);
    }
    if (rc == 0)
        g->region_clones = scope_region_clones(hook_symbol, hook_region, (size_t)m->nhooks,
                                               (size_t)m->nregions);
    *events = rc == 0 ? g->count : 0;
    *dropped = segs.dropped;
    unmap_segments(&segs);
    free(hook_region);
    free(hook_symbol);
    if (rc != 0 && !*err)
        snprintf(err, errlen, "pid %d: damaged meta segment or out of memory", m->pid);
    return rc;
}

/* The copy of the process's /proc/PID/maps, NUL-terminated and malloc'd;
 * NULL when it left none. */
static char *read_maps(const struct recover_process *proc)
{
    char path[4096];
    size_t bytes;
    recover_segment_path(path, sizeof(path), proc->dir, proc->stem, SEGMENT_MAPS);
    char *mapped = recover_map_file(path, &bytes), *text = mapped ? malloc(bytes + 1) : NULL;
    if (text) {
        memcpy(text, mapped, bytes);
        text[bytes] = '\0';
    }
    if (mapped)
        munmap(mapped, bytes);
    return text;
}

static const struct scope_resolve_api *linked_resolver(char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    return scope_resolve_api();
}

/* Names the process's call sites into the run's; *map as
 * scope_callsites_resolve gives it, NULL when they cannot be named (said
 * on report: the calls are kept without them). */
void recover_name_callsites(const struct recover_process *proc, const struct scope_site_table *sites,
                           struct scope_callsite_set *run_sites, int32_t **map, FILE *report)
{
    char why[512];
    char *maps = sites->nsites ? read_maps(proc) : NULL;
    *map = NULL;
    if (sites->nsites && !maps)
        fprintf(report, "scope recover: pid %d: its call sites are left out: it left no maps\n",
                proc->meta->pid);
    else if (maps && scope_callsites_resolve(linked_resolver, maps, sites, run_sites, map, why,
                                             sizeof(why)) != 0)
        fprintf(report, "scope recover: pid %d: its call sites are left out: %s\n",
                proc->meta->pid, why);
    free(maps);
}
