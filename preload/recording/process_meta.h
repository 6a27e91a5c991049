/* process_meta.h: a shared-memory segment per profiled process
 * (/dev/shm/scope-UID-PID-meta) that says what its buffer segments mean:
 * rank, run, clock calibration, output path and the table of hooks. It is
 * what lets `scope recover` build the file of a run that never finished. */
#ifndef SCOPE_PROCESS_META_H
#define SCOPE_PROCESS_META_H

#include <stddef.h>
#include <stdint.h>

#define SCOPE_META_MAGIC "SCOPEMD5"

struct scope_meta_hook {
    uint32_t region;
    uint32_t name, symbol, module;   /* offsets into the string area */
    uint64_t value;                  /* link-time address */
};

struct scope_meta_header {
    char magic[8];
    int32_t pid, rank, nranks, uses_tsc;
    int32_t root_pid;                /* rank 0's pid: with root_start_ns, the run's id */
    int32_t stopped;                 /* clock_raw1/ns1 are valid */
    int32_t nhooks, nregions;
    int32_t node, nnodes;            /* which node of how many (MPI: node writers' */
                                     /* order; 0 of 1 before MPI_Init or without MPI) */
    int64_t root_start_ns, run_start_ns, clock_offset_ns;
    uint64_t clock_raw0, clock_raw1;
    int64_t clock_ns0, clock_ns1;
    int64_t hook_cost_ns;            /* one hooked call's cost, 0: unknown */
    int64_t min_duration_ns;         /* a trace's [output] min_duration, 0: none */
    int64_t trace_limit_bytes;       /* a trace's [output] trace_limit, 0: none */
    uint64_t trace_limit_passed_raw; /* when the process passed it (raw clock), 0: not */
    int64_t peer_tables;             /* peer-totals segments made: STEM-m0 .. (peer_totals.h) */
    uint64_t strings_bytes;
    char hostname[256], output[4096], command[4096], config[4096], cwd[4096];
    char timestamp[64], platform[256], user[64];
    /* followed by nhooks struct scope_meta_hook, then the strings */
};

/* Creates the segment from scope_rt and scope_facts (after the hooks are
 * installed). Failure only costs recoverability: it says so once. */
void scope_meta_publish(void);
/* The MPI context, once known. */
struct scope_meta_rank {
    int rank, nranks, node, nnodes, root_pid;
    int64_t root_start_ns, clock_offset_ns;
};
void scope_meta_set_rank(const struct scope_meta_rank *r);
/* When the process passed trace_limit (raw clock; fold.h). */
void scope_meta_set_trace_limit_passed(uint64_t raw);
/* How many peer-totals segments the process made so far. */
void scope_meta_set_peer_tables(int tables);
/* The pid that names this process's run for `scope recover --run`: rank
 * 0's once known, its own before. */
int scope_meta_run_pid(void);
/* The end of the clock calibration (async-signal-safe). */
void scope_meta_set_stopped(uint64_t raw, int64_t ns);
/* Copies /proc/self/maps to /dev/shm/scope-UID-PID-maps when some hook
 * records call sites: what names them in `scope recover`, the process
 * being gone. Called when hooks are published and after every dlopen. */
void scope_meta_save_maps(void);
/* Removes the segments (after the file was written). */
void scope_meta_remove(void);
/* In a forked child: the segment is the parent's. */
void scope_meta_forget(void);

/* For readers: the hook table and strings of a mapped segment. */
static inline const struct scope_meta_hook *scope_meta_hooks(const struct scope_meta_header *h)
{
    return (const struct scope_meta_hook *)(h + 1);
}
static inline const char *scope_meta_strings(const struct scope_meta_header *h)
{
    return (const char *)(scope_meta_hooks(h) + h->nhooks);
}

#endif
