/* recover.c: `scope recover`'s work (see recover.h). Each process left a
 * meta segment naming its run (rank 0's pid and start time), its rank and
 * node, its clock calibration and its hooks; its threads left buffer
 * segments and maybe spill files (recover_processes.c finds them).
 * Processes are grouped into runs, their records decoded and converted to
 * rank 0's clock (recover_decode.c), and each run is written like a
 * finished one, through the same writer and in the same layout: one file,
 * or, for a run across nodes, FILE with node 0's ranks and a link to
 * every other rank's node part in FILE.d/. */
#include "recover.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "clock.h"
#include "comm_merge.h"
#include "demangle.h"
#include "log.h"
#include "part_paths.h"
#include "recover_decode.h"
#include "profile_rank.h"
#include "recover_processes.h"
#include "recover_profile.h"
#include "scope_build_config.h"
#include "write_rank.h"

/* Where the run's file goes: -o, else where the run would have written it,
 * else (that directory is gone or not writable) its name in the current
 * directory, said on report. */
static const char *output_path(const struct scope_recover_options *o,
                               const struct scope_meta_header *root, FILE *report)
{
    if (o->output)
        return o->output;
    const char *slash = strrchr(root->output, '/');
    if (!slash)
        return root->output;
    char dir[sizeof(root->output)];
    snprintf(dir, sizeof(dir), "%.*s", (int)(slash - root->output), root->output);
    if (access(*dir ? dir : "/", W_OK) == 0)
        return root->output;
    fprintf(report, "scope recover: run of pid %d: %s: %s, writing %s here instead\n",
            root->root_pid, *dir ? dir : "/", strerror(errno), slash + 1);
    return slash + 1;
}

/* What writing one run takes along. */
struct run_writing {
    const struct scope_writer_api *api;
    struct scope_callsite_set sites;   /* every rank's, named */
    struct scope_comm_merge comms;     /* every rank's communicators */
    FILE *report;
    size_t calls, ranks_done, ranks;
    uint64_t counted;                  /* calls counted in profile tables (a profile's, */
                                       /* or a trace's folded ones) */
    int64_t began;
};

/* Writes into w the ranks of the run on node `node` (-1: all of them). */
static int write_ranks(struct run_writing *rw, scope_writer *w, const struct recover_run *run,
                       int node, char *err, size_t errlen)
{
    const struct scope_writer_api *api = rw->api;
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < run->n; i++) {
        const struct recover_process *proc = &run->procs[i];
        const struct scope_meta_header *m = proc->meta;
        if (node >= 0 && m->node != node)
            continue;
        scope_progress(scope_monotonic_ns() - rw->began, "recovering rank %d (%zu of %zu)",
                       m->rank, rw->ranks_done + 1, rw->ranks);
        struct scope_event_groups g;
        struct scope_site_table sites;
        size_t events = 0;
        uint64_t dropped = 0;
        scope_site_table_init(&sites);
        rc = recover_group_process(proc, &g, &sites, &events, &dropped, err, errlen);
        if (rc == 0) {
            struct scope_rank_info info = {m->rank, m->hostname, m->pid,
                                           m->run_start_ns - m->clock_offset_ns,
                                           m->clock_offset_ns, (int64_t)dropped,
                                           g.profile ? g.profile->parents : NULL,
                                           g.profile ? g.profile->npaths : 0,
                                           g.profile ? g.profile->trace_limit_passed_ns : 0};
            int32_t *map;
            if (g.anomaly.found) {
                char line[512];
                const struct scope_meta_hook *h = &scope_meta_hooks(m)[g.anomaly.hook];
                scope_event_anomaly_text(&g.anomaly, scope_meta_strings(m) + h->name, line,
                                         sizeof line);
                fprintf(rw->report, "scope recover: pid %d: %s\n", m->pid, line);
            }
            recover_name_callsites(proc, &sites, &rw->sites, &map, rw->report);
            g.comm_ids = scope_comm_merge_add(&rw->comms, g.payload.comms, g.payload.ncomms,
                                              g.payload.members, &g.ncomm_ids);
            for (size_t s = 0; g.profile && s < g.profile->nused; s++)
                rw->counted += (uint64_t)g.profile->regions[s].stats.calls;
            rc = scope_write_rank(api, w, &info, &g, map, recover_region_info, m, rw->began);
            if (rc != 0)
                snprintf(err, errlen, "%s",
                         scope_event_groups_error(&g) ? scope_event_groups_error(&g) : api->error(w));
            free(map);
            scope_event_groups_free(&g);
        }
        scope_site_table_free(&sites);
        rw->calls += events;
        rw->ranks_done++;
    }
    return rc;
}

/* The nodes a run spanned (1 when it never reached MPI_Init on several). */
static int run_nodes(const struct recover_run *run)
{
    int nodes = 1;
    for (size_t i = 0; i < run->n; i++)
        if (run->procs[i].meta->nnodes > nodes && run->procs[i].meta->node >= 0)
            nodes = run->procs[i].meta->nnodes;
    return nodes;
}

/* Node `node`'s part of a run across nodes, and the links to its ranks in
 * the run's file w. 0 (also when none of its processes was found), or -1
 * with err; *written: the part exists. */
static int write_part(struct run_writing *rw, scope_writer *w, const struct recover_run *run,
                      const char *path, int node, int *written, char *err, size_t errlen)
{
    char part[4096], link[4096];
    size_t found = 0;
    *written = 0;
    for (size_t i = 0; i < run->n; i++)
        found += run->procs[i].meta->node == node;
    if (!found)
        return 0;
    scope_part_paths(path, node, part, link, sizeof part);
    if (scope_part_dir_make(part, err, errlen) != 0)
        return -1;
    scope_writer *pw = rw->api->create_part(part, err, errlen);
    if (!pw)
        return -1;
    if (write_ranks(rw, pw, run, node, err, errlen) != 0) {
        rw->api->abort(pw);
        return -1;
    }
    if (rw->api->finish(pw) != 0) {
        snprintf(err, errlen, "%s", rw->api->error(NULL));
        return -1;
    }
    *written = 1;
    for (size_t i = 0; i < run->n; i++)
        if (run->procs[i].meta->node == node &&
            rw->api->link_rank(w, run->procs[i].meta->rank, link) != 0) {
            snprintf(err, errlen, "%s", rw->api->error(w));
            return -1;
        }
    return 0;
}

/* Every rank of the run into w: all of them, or node 0's and the other
 * nodes' parts. Parts written are counted in *parts (removed on failure). */
static int write_all_ranks(struct run_writing *rw, scope_writer *w, const struct recover_run *run,
                           const char *path, int nodes, int *parts, char *err, size_t errlen)
{
    if (nodes == 1)
        return write_ranks(rw, w, run, -1, err, errlen);
    int rc = write_ranks(rw, w, run, 0, err, errlen);
    for (int node = 1; rc == 0 && node < nodes; node++) {
        int written;
        rc = write_part(rw, w, run, path, node, &written, err, errlen);
        *parts += written;
    }
    return rc;
}

static void remove_parts(const char *path, int nodes)
{
    char part[4096], link[4096];
    for (int node = 1; node < nodes; node++) {
        scope_part_paths(path, node, part, link, sizeof part);
        unlink(part);
    }
    snprintf(part, sizeof part, "%s.d", path);
    rmdir(part);
}

static int write_run(const struct scope_recover_options *o, const struct recover_run *run,
                     FILE *report, char *err, size_t errlen)
{
    const struct scope_meta_header *root = run->procs[0].meta;
    const char *path = output_path(o, root, report);
    bool exists = access(path, F_OK) == 0 && !o->force;
    if (exists && !o->list_only) {
        snprintf(err, errlen, "%s exists: give another name with -o, or --force", path);
        return -1;
    }
    int nodes = run_nodes(run);
    char spread[64] = "";
    if (nodes > 1)
        snprintf(spread, sizeof spread, " on %d nodes", nodes);
    fprintf(report, "scope recover: run of pid %d: %zu of %d rank(s)%s -> %s%s%s%s%s\n",
            root->root_pid, run->n, root->nranks, spread, path, nodes > 1 ? " + " : "",
            nodes > 1 ? path : "", nodes > 1 ? ".d/" : "",
            exists ? " (exists: -o another name, or --force)" : "");
    if (o->list_only)
        return 0;
    struct run_writing rw = {.api = scope_writer_api(), .report = report, .ranks = run->n,
                             .began = scope_monotonic_ns()};
    struct scope_run_info info = {
        SCOPE_VERSION, root->hostname, root->platform, root->user, root->cwd, root->timestamp,
        root->command, root->config, root->uses_tsc ? "CLOCK_MONOTONIC via rdtsc" : "CLOCK_MONOTONIC",
        root->nranks, 1, sysconf(_SC_NPROCESSORS_ONLN), root->root_start_ns,
        root->hook_cost_ns, recover_is_profile(&run->procs[0]) ? "profile" : "trace",
        root->min_duration_ns, root->trace_limit_bytes};
    scope_writer *w = rw.api->create(path, &info, err, errlen);
    int rc = w ? 0 : -1, parts = 0;
    if (rc == 0 && scope_comm_merge_init(&rw.comms, root->nranks) != 0) {
        snprintf(err, errlen, "out of memory for the communicators");
        rc = -1;
    }
    scope_callsite_set_init(&rw.sites);
    scope_demangle_may_load();
    if (rc == 0)
        rc = write_all_ranks(&rw, w, run, path, nodes, &parts, err, errlen);
    scope_progress_end();
    struct scope_comm_table comms = scope_comm_merge_table(&rw.comms);
    if (rc == 0 && (scope_write_callsites(rw.api, w, &rw.sites) != 0 ||
                    (rw.comms.defined && rw.api->communicators(w, &comms) != 0))) {
        snprintf(err, errlen, "%s", rw.api->error(w));
        rc = -1;
    }
    scope_comm_merge_free(&rw.comms);
    scope_callsite_set_free(&rw.sites);
    if (rc != 0 && w)
        rw.api->abort(w);
    if (rc == 0 && rw.api->finish(w) != 0) {
        snprintf(err, errlen, "%s", rw.api->error(NULL));
        rc = -1;
    }
    if (rc != 0) {
        remove_parts(path, nodes);
        return -1;
    }
    fprintf(report, "scope recover: wrote %s", path);
    if (parts)
        fprintf(report, " and %d node file(s) in %s.d/", parts, path);
    if (recover_is_profile(&run->procs[0]))
        fprintf(report, " (a profile of %llu calls", (unsigned long long)rw.counted);
    else if (rw.counted)
        fprintf(report, " (%zu calls stored, %llu folded", rw.calls,
                (unsigned long long)rw.counted);
    else
        fprintf(report, " (%zu calls", rw.calls);
    fprintf(report, ", %zu rank(s), %.2f s)\n", run->n,
            (double)(scope_monotonic_ns() - rw.began) / 1e9);
    for (size_t i = 0; !o->keep && i < run->n; i++)
        recover_remove_segments(&run->procs[i]);
    return 0;
}

int scope_recover(const struct scope_recover_options *o, FILE *report, char *err, size_t errlen)
{
    struct recover_process *procs = NULL;
    size_t n = 0;
    err[0] = '\0';
    if (recover_find_processes(o, &procs, &n, report) != 0) {
        snprintf(err, errlen, "%s: %s", recover_segments_dir(o), strerror(errno));
        free(procs);
        return -1;
    }
    qsort(procs, n, sizeof(*procs), recover_by_run_then_rank);
    size_t nruns = 0;
    struct recover_run *runs = malloc((n ? n : 1) * sizeof(*runs));
    for (size_t i = 0; runs && i < n;) {
        size_t j = i + 1;
        while (j < n && procs[j].meta->root_pid == procs[i].meta->root_pid &&
               procs[j].meta->root_start_ns == procs[i].meta->root_start_ns)
            j++;
        runs[nruns++] = (struct recover_run){procs + i, j - i};
        i = j;
    }
    int written = 0, rc = runs ? 0 : -1;
    if (!runs) {
        snprintf(err, errlen, "out of memory");
    } else if (o->output && nruns > 1) {
        int at = snprintf(err, errlen, "%zu runs found (rank 0 pids", nruns);
        for (size_t r = 0; r < nruns && at > 0 && (size_t)at < errlen; r++)
            at += snprintf(err + at, errlen - (size_t)at, " %d", runs[r].procs[0].meta->root_pid);
        if (at > 0 && (size_t)at < errlen)
            snprintf(err + at, errlen - (size_t)at, "): pick one with --run PID, or drop -o");
        rc = -1;
    }
    size_t failed = 0;
    for (size_t r = 0; rc == 0 && r < nruns; r++) {
        if (write_run(o, &runs[r], report, err, errlen) == 0) {
            written++;
        } else {   /* said, and the other runs still go */
            fprintf(report, "scope recover: run of pid %d: %s\n",
                    runs[r].procs[0].meta->root_pid, err);
            failed++;
        }
    }
    if (rc == 0 && failed) {
        snprintf(err, errlen, "%zu of %zu runs not recovered (see above), %d written", failed,
                 nruns, written);
        rc = -1;
    }
    free(runs);
    for (size_t i = 0; i < n; i++)
        munmap(procs[i].meta, procs[i].meta_bytes);
    free(procs);
    return rc == 0 ? written : -1;
}
