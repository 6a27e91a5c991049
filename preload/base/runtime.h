/* runtime.h: the process-wide state of libscope outside the hot path: the
 * config, the hooks installed, the clock calibration, the MPI context, and
 * the entry points the pieces call on one another. */
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
    char *module;          /* path of the module that defines it */
    uint64_t value;        /* link-time address */
    uintptr_t address;     /* run-time address */
    uint32_t region;       /* index into scope_rt.regions */
};

struct scope_runtime {
    int enabled;                     /* hooks installed, recording possible */
    int main_target;                 /* the process `scope run` started */
    int verbose;
    struct scope_config config;
    struct scope_clock_calibration clock;
    int64_t run_start_ns;
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

/* Prints "scope: <message>" on stderr (one line). */
void scope_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Same, for what every rank of a job would say alike (config problems,
 * unmatched patterns, functions that cannot be hooked): only the process
 * its launcher calls rank 0 (or one started without a launcher) says it. */
void scope_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Same, only with SCOPE_VERBOSE. */
void scope_debug(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* install.c: finds and patches the configured functions of every loaded
 * module. Returns the number of hooks installed. */
size_t scope_install_hooks(void);
/* The same for the modules loaded since (dlopen.c): in the caller's
 * namespace, or in that of namespace_handle (from dlmopen) when not NULL.
 * Returns the number of hooks added. */
size_t scope_install_hooks_in_new_modules(void *namespace_handle);

/* Starts recording once hooks are installed (at start, or after the first
 * dlopen that brought hooked functions); later calls publish the hooks
 * added since for `scope recover`. */
void scope_enable_recording(void);

/* Ends the calling thread's open calls (they are in the file, ending now),
 * stops recording and takes the final clock reading (idempotent). */
void scope_stop_recording(void);

/* stale_runs.c: warns once about records that ended processes left behind. */
void scope_warn_stale_runs(void);

/* write_local.c: writes this process alone as a 1-rank file. */
void scope_write_single_process(void);

#endif
