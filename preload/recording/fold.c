/* fold.c: the settings of trace mode's folding and the switch at
 * trace_limit (fold.h). */
#include "fold.h"
#include "clock.h"
#include "log.h"
#include "process_meta.h"
#include "profile_table.h"
#include "record.h"
#include "runtime.h"

#include <stdatomic.h>

int scope_fold_active;
uint64_t scope_fold_below;
volatile int scope_trace_limit_passed;

static long long limit_bytes;
static uint64_t configured_below;   /* scope_fold_below before the limit */
static _Atomic uint64_t records_seen;
static uint64_t passed_at;

void scope_fold_configure(long long min_duration_ns, long long trace_limit_bytes)
{
    scope_fold_active = min_duration_ns > 0 || trace_limit_bytes > 0;
    limit_bytes = trace_limit_bytes;
    if (min_duration_ns <= 0)
        return;
    /* ns_mult is ns per tick as a 32-bit fraction */
    unsigned __int128 ticks = ((unsigned __int128)min_duration_ns << 32) / scope_profile_ns_mult;
    scope_fold_below = configured_below = ticks > UINT64_MAX ? UINT64_MAX : (uint64_t)ticks;
}

void scope_fold_after_fork_child(void)
{
    atomic_store(&records_seen, 0);
    scope_trace_limit_passed = 0;
    scope_fold_below = configured_below;
}

void scope_fold_count_records(uint64_t records)
{
    if (limit_bytes <= 0 || scope_trace_limit_passed)
        return;
    uint64_t seen = atomic_fetch_add(&records_seen, records) + records;
    if (seen * sizeof(struct scope_record) < (uint64_t)limit_bytes)
        return;
    passed_at = scope_clock_raw();
    scope_meta_set_trace_limit_passed(passed_at);
    scope_fold_below = UINT64_MAX;
    scope_trace_limit_passed = 1;
}

uint64_t scope_trace_limit_passed_at(void)
{
    return scope_trace_limit_passed ? passed_at : 0;
}

void scope_fold_say_limit(int rank)
{
    if (!scope_trace_limit_passed)
        return;
    uint64_t ticks = passed_at > scope_rt.clock.raw0 ? passed_at - scope_rt.clock.raw0 : 0;
    double passed_ns = (double)(((unsigned __int128)ticks * scope_profile_ns_mult) >> 32);
    scope_log("rank %d passed trace_limit (%lld bytes of records) %.3f s into the run: its later "
              "calls are counted in its regions' statistics (folded_calls), not stored", rank,
              limit_bytes, passed_ns / 1e9);
}
