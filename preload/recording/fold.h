/* fold.h: trace mode's folding. With [output] min_duration, a call
 * shorter than the threshold is not recorded but counted, in place, in its
 * thread's profile table (profile_table.h: per hook, without call paths),
 * so that the file's statistics per region stay exact while its rows hold
 * the longer calls only. With [output] trace_limit, once the process's
 * records pass the limit every call is folded from then on: the process
 * goes on as a profile (without call paths), its rows those recorded
 * before. Every frame counts its callees' time, folded or recorded, and a
 * recorded call adds its self time to the table (scope_profile_keep): the
 * self times of all calls are the table's. */
#ifndef SCOPE_FOLD_H
#define SCOPE_FOLD_H

#include <stdint.h>

#pragma GCC visibility push(hidden)
/* Process-wide, set before recording starts (scope_fold_below also when
 * the process passes trace_limit). */
extern int scope_fold_active;            /* trace mode with min_duration or trace_limit */
extern uint64_t scope_fold_below;        /* raw ticks: shorter calls are folded */
extern volatile int scope_trace_limit_passed;   /* every call is folded from then on */
#pragma GCC visibility pop

/* Set up before recording starts, after scope_profile_configure (its tick
 * rate converts the threshold); 0: none. */
void scope_fold_configure(long long min_duration_ns, long long trace_limit_bytes);

/* A thread's buffer filled `records` more records (thread_buffer.c, as it
 * moves on): past trace_limit, the process folds every call from now. */
void scope_fold_count_records(uint64_t records);

/* A forked child records into a file of its own: its records are counted
 * afresh, its calls folded as configured. */
void scope_fold_after_fork_child(void);

/* When the process passed trace_limit (raw clock), 0 if it did not. */
uint64_t scope_trace_limit_passed_at(void);

/* At the end: one line saying that rank `rank` passed trace_limit, if it
 * did, and when. */
void scope_fold_say_limit(int rank);

#endif
