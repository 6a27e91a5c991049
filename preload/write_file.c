/* write_file.c: the file as a whole: load the writer, create the temporary
 * file, write every rank, rename, and report in one line. */
#include "write_file.h"
#include "output_path.h"
#include "run_info.h"
#include "runtime.h"
#include "write_rank.h"
#include "writer_loader.h"

#include <limits.h>
#include <stdio.h>

int scope_write_file(int nranks, int64_t run_start_time, const struct scope_rank_info *own,
                     struct scope_event_groups *le, scope_more_ranks_fn more, void *ctx)
{
    char err[512], path[PATH_MAX];
    const struct scope_writer_api *api = scope_load_writer(err, sizeof(err));
    if (!api) {
        scope_log("%s: data left for `scope recover`", err);
        return -1;
    }
    scope_expand_output_path(scope_rt.config.output_file, (pid_t)scope_facts.pid,
                             scope_rt.start_wall, path, sizeof(path));
    struct scope_run_info run = scope_run_info_from(&scope_facts, nranks, run_start_time);
    scope_writer *w = api->create(path, &run, err, sizeof(err));
    if (!w) {
        scope_log("%s: data left for `scope recover`", err);
        return -1;
    }
    size_t events = le->count;
    if (scope_write_rank(api, w, own, le, scope_local_region_info, NULL) != 0 || (more && more(api, w, ctx, &events) != 0)) {
        scope_log("writing %s failed: %s", path, api->error(w));
        api->abort(w);
        return -1;
    }
    if (api->finish(w) != 0) {
        scope_log("writing %s failed: %s", path, api->error(NULL));
        return -1;
    }
    scope_log("wrote %s (%zu call%s, %d rank%s)", path, events, events == 1 ? "" : "s", nranks,
              nranks == 1 ? "" : "s");
    return 0;
}
