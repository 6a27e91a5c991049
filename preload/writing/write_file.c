/* write_file.c: a file as a whole: load the writer, create the temporary
 * file (named for a termination signal's handler to remove), write this
 * process's rank, the others, and the run's call sites, rename, and report
 * in one line; the same for the part a node writes when a run spans nodes;
 * and this process's call sites named for it. */
#include "write_file.h"
#include "callsite_resolve.h"
#include "companion_loader.h"
#include "fold.h"
#include "log.h"
#include "process_meta.h"
#include "output_path.h"
#include "part_paths.h"
#include "partial_file.h"
#include "profile_table.h"
#include "run_info.h"
#include "runtime.h"
#include "write_rank.h"
#include "clock.h"

#include <limits.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>

void scope_write_file_callsites(const struct scope_site_table *sites,
                                struct scope_callsite_set *callsites, int32_t **ids)
{
    char err[512];
    scope_callsite_set_init(callsites);
    *ids = NULL;
    if (scope_callsites_resolve(scope_load_resolver, NULL, sites, callsites, ids, err,
                                sizeof(err)) != 0)
        scope_warn("call sites left out: %s", err);
}

void scope_write_failed(const char *why)
{
    scope_log("%s: data left for `scope recover --run %d`", why, scope_meta_run_pid());
}

void scope_output_file_path(char *path, size_t len)
{
    scope_expand_output_path(scope_rt.config.output_file, (pid_t)scope_facts.pid,
                             scope_rt.start_wall, path, len);
}

/* HDF5 links libcurl and libcrypto for its read-only S3 driver, which
 * scope never uses; with them come about 30 more libraries (TLS, Kerberos,
 * LDAP, ...), 20 ms of CPU and 400 page faults to load in every writing
 * process. The writer is built with stand-ins for them
 * (writer/make_standin.py). */
static const char *const writer_standins[] = {"libscope-standin-curl.so",
                                              "libscope-standin-crypto.so", NULL};

static const struct scope_writer_api *load_writer(void)
{
    char err[512];
    const struct scope_writer_api *api = scope_load_companion(
        "libscope-writer.so", writer_standins, "../writer", "scope_writer_api", err, sizeof(err));
    if (!api)
        scope_write_failed(err);
    return api;
}

/* Everything into w (callsites NULL: a part; comms NULL: none), then
 * finish; says why not. */
static int write_into(const struct scope_writer_api *api, scope_writer *w, const char *path,
                      const struct scope_rank_info *own, struct scope_event_groups *le,
                      const struct scope_callsite_set *callsites, const int32_t *own_ids,
                      const struct scope_comm_table *comms, scope_more_ranks_fn more, void *ctx,
                      size_t *events)
{
    *events = le->count;
    scope_partial_file_set(api->temp_path(w));
    int written = scope_write_rank(api, w, own, le, own_ids, scope_local_region_info, NULL,
                                   scope_rt.clock.ns1) == 0 &&
                  (!more || more(api, w, ctx, events) == 0) &&
                  (!callsites || scope_write_callsites(api, w, callsites) == 0) &&
                  (!comms || api->communicators(w, comms) == 0);
    if (!written) {
        const char *why = scope_event_groups_error(le);
        if (!why || !*why)
            why = *api->error(w) ? api->error(w) : "see above";
        char line[1024];
        snprintf(line, sizeof line, "writing %s failed (%s)", path, why);
        scope_write_failed(line);
        api->abort(w);
    }
    int finished = written && api->finish(w) == 0;
    scope_partial_file_set(NULL);
    if (written && !finished) {
        char line[1024];
        snprintf(line, sizeof line, "writing %s failed (%s)", path, api->error(NULL));
        scope_write_failed(line);
    }
    return finished ? 0 : -1;
}

int scope_write_file(int nranks, int64_t run_start_time, const struct scope_rank_info *own,
                     struct scope_event_groups *le, const struct scope_callsite_set *callsites,
                     const int32_t *own_ids, const struct scope_comm_table *comms,
                     scope_more_ranks_fn more, void *ctx)
{
    char err[512], path[PATH_MAX];
    const struct scope_writer_api *api = load_writer();
    if (!api)
        return -1;
    scope_output_file_path(path, sizeof path);
    struct scope_run_info run = scope_run_info_from(&scope_facts, nranks, run_start_time);
    scope_writer *w = api->create(path, &run, err, sizeof(err));
    if (!w) {
        scope_write_failed(err);
        return -1;
    }
    size_t events;
    if (write_into(api, w, path, own, le, callsites, own_ids, comms, more, ctx, &events) != 0)
        return -1;
    char what[160], size[32];
    if (scope_profile_mode)   /* its calls were counted, not recorded */
        snprintf(what, sizeof what, "a profile, %d rank%s", nranks, nranks == 1 ? "" : "s");
    else if (scope_fold_active)
        snprintf(what, sizeof what,
                 "%zu call%s stored, the others folded into statistics, %d rank%s", events,
                 events == 1 ? "" : "s", nranks, nranks == 1 ? "" : "s");
    else
        snprintf(what, sizeof what, "%zu call%s, %d rank%s", events, events == 1 ? "" : "s",
                 nranks, nranks == 1 ? "" : "s");
    struct stat st;
    scope_size_text(stat(path, &st) == 0 ? (uint64_t)st.st_size : 0, size, sizeof size);
    /* from the end of recording (the clock's last reading) to now */
    double seconds = (double)(scope_monotonic_ns() - scope_rt.clock.ns1) / 1e9;
    scope_log("wrote %s (%s): %s in %.2f s", path, what, size, seconds);
    return 0;
}

int scope_write_part(const char *path, const struct scope_rank_info *own,
                     struct scope_event_groups *le, const int32_t *own_ids,
                     scope_more_ranks_fn more, void *ctx, size_t *events)
{
    char err[512];
    const struct scope_writer_api *api = load_writer();
    if (!api)
        return -1;
    if (scope_part_dir_make(path, err, sizeof err) != 0) {
        scope_write_failed(err);
        return -1;
    }
    scope_writer *w = api->create_part(path, err, sizeof(err));
    if (!w) {
        scope_write_failed(err);
        return -1;
    }
    return write_into(api, w, path, own, le, NULL, own_ids, NULL, more, ctx, events);
}
