/* fold.c: the settings of trace mode's folding (fold.h). */
#include "fold.h"
#include "profile_table.h"

int scope_fold_active;
uint64_t scope_fold_below;

void scope_fold_configure(long long min_duration_ns)
{
    scope_fold_active = min_duration_ns > 0;
    if (!scope_fold_active)
        return;
    /* ns_mult is ns per tick as a 32-bit fraction */
    unsigned __int128 ticks = ((unsigned __int128)min_duration_ns << 32) / scope_profile_ns_mult;
    scope_fold_below = ticks > UINT64_MAX ? UINT64_MAX : (uint64_t)ticks;
}
