/* stale_runs.h: the warning about records that ended processes left in
 * /dev/shm (stale_runs.c). */
#ifndef SCOPE_STALE_RUNS_H
#define SCOPE_STALE_RUNS_H

/* Warns once about records that ended processes left behind. */
void scope_warn_stale_runs(void);

#endif
