/* write_local.c: the end of a run without MPI: this process is rank 0 of a
 * 1-rank run and writes its file at exit. */
#include "write_local.h"
#include "encode_threads.h"
#include "fold.h"
#include "local_events.h"
#include "log.h"
#include "profile_rank.h"
#include "recording_stop.h"
#include "run_info.h"
#include "runtime.h"
#include "thread_buffer.h"
#include "write_file.h"

#include <sched.h>
#include <stdlib.h>

void scope_write_single_process(void)
{
    char err[512];
    struct scope_event_groups le;
    struct scope_site_table sites;
    scope_stop_recording();
    static const struct scope_clock_offsets same_clock;
    if (scope_local_events_build(&le, &sites, &same_clock, err, sizeof(err)) != 0) {
        scope_write_failed(err);
        scope_site_table_free(&sites);
        return;
    }
    scope_fold_say_limit(0);
    int any = 0;   /* a process that recorded (or counted) nothing writes nothing */
    for (size_t r = 0; !any && r < le.nregions; r++)
        any = scope_event_groups_has_calls(&le, r);
    if (any) {
        struct scope_rank_info own = {
            .rank = 0, .hostname = scope_facts.hostname, .pid = scope_facts.pid,
            .run_start_time = scope_rt.run_start_ns, .clock_offset_ns = 0,
            .dropped_events = (int64_t)scope_buffers_dropped(),
            .callpath_parents = le.profile ? le.profile->parents : NULL,
            .ncallpaths = le.profile ? le.profile->npaths : 0,
            .trace_limit_passed_ns = le.profile ? le.profile->trace_limit_passed_ns : 0};
        struct scope_callsite_set callsites;
        int32_t *ids;
        scope_write_file_callsites(&sites, &callsites, &ids);
        cpu_set_t mine;
        int bound = sched_getaffinity(0, sizeof mine, &mine) == 0;
        scope_encode_threads_begin(1, bound ? &mine : NULL);
        int rc = scope_write_file(1, scope_rt.run_start_ns, &own, &le, &callsites, ids, NULL, NULL,
                                  NULL);
        scope_encode_threads_end();
        free(ids);
        scope_callsite_set_free(&callsites);
        if (rc != 0) {
            scope_event_groups_free(&le);
            scope_site_table_free(&sites);
            return;
        }
    }
    scope_rt.written = 1;
    scope_event_groups_free(&le);
    scope_site_table_free(&sites);
    scope_buffers_remove();
}
