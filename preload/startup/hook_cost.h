/* hook_cost.h: what one hooked call costs on this machine, measured at
 * start (hook_cost.c), for the file's /metadata hook_cost_ns. */
#ifndef SCOPE_HOOK_COST_H
#define SCOPE_HOOK_COST_H

#include <stdint.h>

/* Nanoseconds a hooked call takes more than the same call unhooked
 * (rounded, at least 1), or 0 when it could not be measured. Call before
 * any hook is installed, with no other thread recording: it borrows hook
 * id 0 and the calling thread's recording state for a moment, records
 * into scratch memory of its own and gives everything back. */
int64_t scope_measure_hook_cost(void);

#endif
