/* process_alive.h: whether a process of this machine still runs, for the
 * readers of what processes left in /dev/shm (`scope recover`, the
 * stale-run warning). */
#ifndef SCOPE_PROCESS_ALIVE_H
#define SCOPE_PROCESS_ALIVE_H

/* 1 if pid is a process that still runs; 0 if it is gone, a zombie (killed,
 * not yet reaped by its parent) or exiting: its records are final. */
int scope_process_alive(int pid);

#endif
