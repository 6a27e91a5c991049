/* fold.h: trace mode's folding ([output] min_duration): a call shorter
 * than the threshold is not recorded but counted, in place, in its
 * thread's profile table (profile_table.h: per hook, without call paths),
 * so that the file's statistics per region stay exact while its rows hold
 * the longer calls only. Every frame counts its callees' time, folded or
 * recorded, and a recorded call adds its self time to the table
 * (scope_profile_keep): the self times of all calls are the table's. */
#ifndef SCOPE_FOLD_H
#define SCOPE_FOLD_H

#include <stdint.h>

#pragma GCC visibility push(hidden)
/* Process-wide, set once before recording starts. */
extern int scope_fold_active;           /* trace mode with min_duration */
extern uint64_t scope_fold_below;       /* raw ticks: shorter calls are folded */
#pragma GCC visibility pop

/* Set up before recording starts, after scope_profile_configure (its tick
 * rate converts the threshold); min_duration_ns 0: no folding. */
void scope_fold_configure(long long min_duration_ns);

#endif
