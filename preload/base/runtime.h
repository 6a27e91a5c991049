/* runtime.h: the process-wide state of libscope outside the hot path: the
 * config, the hooks installed, the clock calibration, the MPI context
 * (defined in shared_state.c). */
#ifndef SCOPE_RUNTIME_H
#define SCOPE_RUNTIME_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "clock.h"
#include "config.h"

/* One hooked function. Several hooks may share a region (same name in two
 * modules, or aliases of one address are not duplicated: one hook). */
struct scope_hook {
    char *name;            /* region name (the symbol; display name later) */
    char *symbol;
    const char *module;    /* path of the module that defines it (one string */
                           /* per module, kept for the whole run) */
    uint64_t value;        /* link-time address */
    uintptr_t address;     /* run-time address */
    uint32_t region;       /* index into scope_rt.regions */
};

struct scope_runtime {
    int enabled;                     /* hooks installed, recording possible */
    int main_target;                 /* the process `scope run` started */
    int verbose;
    int mpi_payload_off;             /* SCOPE_MPI_PAYLOAD=0: MPI functions are */
                                     /* patched and timed like any other */
    struct scope_config config;
    struct scope_clock_calibration clock;
    int64_t run_start_ns;
    int64_t hook_cost_ns;            /* one hooked call's cost, measured at start; 0: unknown */
    time_t start_wall;               /* for %t in the output name */
    struct scope_hook *hooks;
    size_t nhooks;
    char **regions;                  /* distinct region names */
    size_t nregions;
    int mpi_initialized;
    int mpi_finalized;
    int written;                     /* this process's data reached a file */
};

extern struct scope_runtime scope_rt;

#endif
