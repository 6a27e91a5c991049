/* scope_writer.h: the MPI-free interface that turns decoded, clock-corrected
 * events into scope's HDF5 file (layout: README.md, "File format").
 *
 * libscope loads libscope-writer.so in rank 0 only (with dlmopen, so that the
 * writer's HDF5 stays out of the application's symbol namespace) and reaches
 * every entry point through the one table returned by scope_writer_api().
 *
 * Calls come in this order, streaming, so the writer never needs more than
 * one chunk in memory:
 *   create -> { begin_rank -> { begin_region -> (append* | put_window*)
 *                                 -> end_region }* -> end_rank | link_rank }*
 *          -> callsites? -> communicators? -> finish
 * (create_part: the same without callsites; link_rank belongs in the run's
 * file, to the ranks of the parts.)
 * Events of a region arrive sorted by start time (possibly in many appends).
 * Any call may fail: it returns -1 and error() says why; abort() then removes
 * the temporary file. The final file appears (by rename) only in finish(). */
#ifndef SCOPE_WRITER_H
#define SCOPE_WRITER_H

#include <stddef.h>
#include <stdint.h>

#include "region_encode.h"

#define SCOPE_FORMAT_VERSION "1"

/* Attributes of /metadata. Strings may be NULL (written as ""). */
struct scope_run_info {
    const char *version;           /* scope version */
    const char *hostname;          /* rank 0's host */
    const char *platform;          /* e.g. "Linux-6.1.0-x86_64" */
    const char *user;
    const char *working_directory;
    const char *timestamp;         /* ISO 8601 local time of the run start */
    const char *command;           /* the profiled command line */
    const char *config;            /* config file path ("" if none) */
    const char *clock;             /* e.g. "CLOCK_MONOTONIC via rdtsc" */
    int64_t mpi_size;
    int64_t omp_num_threads;
    int64_t total_cores;
    int64_t run_start_time;        /* ns, rank 0's CLOCK_MONOTONIC */
    int64_t hook_cost_ns;          /* what one hooked call costs (measured at start);
                                      0: unknown, not written */
    const char *mode;              /* "trace" or "profile"; NULL: "trace" */
    int64_t min_duration_ns;       /* trace mode's min_duration; 0: none, not written */
    int64_t trace_limit_bytes;     /* trace mode's trace_limit; 0: none, not written */
};

/* Attributes of /rank{N}. */
struct scope_rank_info {
    int rank;
    const char *hostname;
    int64_t pid;
    int64_t run_start_time;        /* ns, already on rank 0's clock */
    int64_t clock_offset_ns;       /* what was subtracted from this rank's times */
    int64_t dropped_events;
    /* Profile mode: each call path's parent path (-1: an outermost call),
     * NULL in trace mode. Path ids index it. */
    const int32_t *callpath_parents;
    size_t ncallpaths;
    int64_t trace_limit_passed_ns; /* when the rank passed trace_limit (ns, rank 0's */
                                   /* clock); 0: it did not, not written */
};

/* Where calls came from (README.md, "File format": /metadata/callsite_frames and
 * /metadata/callsites): frames resolved on the rank that recorded them, and
 * call sites as frame indices, innermost (the caller) first. */
struct scope_callsite_frame {
    const char *module;            /* path of the module holding the address */
    const char *function;          /* demangled name, may be NULL (unknown) */
    const char *file;              /* source file, may be NULL (no debug info) */
    uint64_t offset;               /* return address - function start (or - module base) */
    int32_t line;                  /* 0 when unknown */
};

struct scope_callsite_table {
    const struct scope_callsite_frame *frames;
    size_t nframes;
    const int32_t *sites;          /* nsites * depth frame indices; -1 pads short stacks */
    size_t nsites, depth;
};

/* Profile mode: what a region's calls on one rank add up to, stored
 * instead of its calls (README.md, "File format"). Folded (trace mode's
 * min_duration): what the calls not stored as rows add up to; the rows
 * add to its statistics, and it has no histogram or paths written. */
#define SCOPE_HISTOGRAM_BINS 64
struct scope_region_profile {
    struct call_stats stats;       /* in ns */
    int64_t self_ns;               /* folded: of all the calls, rows too */
    int folded;
    int64_t histogram[SCOPE_HISTOGRAM_BINS];   /* calls with floor(log2(ns)) = i */
    int64_t pathless_calls;        /* calls counted without a call path */
    size_t npaths;                 /* the region's call paths on this rank: */
    int32_t *path_ids;             /* index in the rank's callpath_parents */
    int64_t *path_calls, *path_total_ns, *path_self_ns;
    int32_t *path_sites;           /* each path's call site (its row in the table */
                                   /* given to callsites(), -1: none); NULL: none has one */
};

/* What a region's calls on one rank moved to and from each peer, beside
 * their rows (README.md, "File format": peer_ranks ...): n entries sorted
 * by peer then direction (0: sent to the peer, 1: received from it). */
struct scope_peer_totals {
    const char *family;            /* the region's MPI payload family ("p2p", */
                                   /* "collective"): its mpi_payload when it has */
                                   /* no payload rows (a profile, all calls folded) */
    size_t n;
    const int32_t *peer;           /* world ranks */
    const int8_t *direction;
    const int64_t *messages, *bytes;
};

/* One region (hooked function) of one rank. */
struct scope_region_info {
    const char *name;              /* display name; '/' is escaped by the writer */
    const char *symbol;            /* mangled symbol, may be NULL */
    const char *library;           /* module path, may be NULL */
    uint64_t address;              /* link-time address (offset in module) */
    const char *clones;            /* GCC's clones recorded here ("isra.0 constprop.1"), may be NULL */
    uint64_t unfinished;           /* calls still open when recording stopped, ended then */
    int has_self;                  /* self_ns is known (else 0: the reader derives it) */
    int64_t self_ns;               /* exclusive time of the region's calls on this rank */
    const char *payload;           /* MPI calls with payload: their family ("p2p", */
                                   /* "collective", ...), else NULL */
    const struct scope_region_profile *profile;   /* profile mode, else NULL: its */
                                   /* statistics then come from it, it has no calls */
    const struct scope_peer_totals *peers;   /* NULL or n == 0: no totals; its family */
                                   /* names the mpi_payload of a region without rows */
};

/* The run's communicators (README.md, "File format"): communicator i has
 * sizes[i] members, listed one after another in members as world ranks. */
struct scope_comm_table {
    const int64_t *sizes;
    size_t ncomms;
    const int32_t *members;
};

typedef struct scope_writer scope_writer;

struct scope_writer_api {
    /* Opens "<path>.tmp.<pid>" for writing; NULL on error (err filled). */
    scope_writer *(*create)(const char *path, const struct scope_run_info *run,
                            char *err, size_t errlen);
    /* Opens "<path>.tmp.<pid>" for a part of a run written on many nodes:
     * ranks only (no /metadata, no call sites), linked from the run's file
     * by link_rank. */
    scope_writer *(*create_part)(const char *path, char *err, size_t errlen);
    /* In the run's file, outside any rank: /rank{rank} as an external link
     * to /rank{rank} of the part file `part` (a path relative to the run
     * file's directory: HDF5 looks for it there). */
    int (*link_rank)(scope_writer *w, int rank, const char *part);
    int (*begin_rank)(scope_writer *w, const struct scope_rank_info *rank);
    int (*begin_region)(scope_writer *w, const struct scope_region_info *region);
    /* start/end in ns (rank 0's clock), thread_ids: small per-rank thread
     * numbers (0 = the main thread), callsite_ids: index of each call's call
     * site in the table given to callsites(), -1 for none; either may be
     * NULL; n may be 0. A region gets a thread_ids dataset only once one of
     * its calls ran off thread 0, callsite_ids once one has a site. */
    int (*append)(scope_writer *w, const int64_t *start, const int64_t *end,
                  const int32_t *thread_ids, const int32_t *callsite_ids, size_t n);
    /* The same for a region with payload (its info's payload set): what
     * each call carried and its messages (region_encode.h). */
    int (*append_payload)(scope_writer *w, const int64_t *start, const int64_t *end,
                          const int32_t *thread_ids, const int32_t *callsite_ids,
                          const struct region_payload *payload, size_t n);
    /* The region's calls as windows already encoded by a region_encoder
     * (region_encode.h), in any process: in order, the last one marked
     * `last`; its call-site ids must index the table given to callsites().
     * The writer only places their bytes. */
    int (*put_window)(scope_writer *w, const struct region_window *win);
    int (*end_region)(scope_writer *w);
    int (*end_rank)(scope_writer *w);
    /* The call-site table of the whole run, at most once, after the last
     * end_rank (ids appended must index it). */
    int (*callsites)(scope_writer *w, const struct scope_callsite_table *table);
    /* The run's communicators, at most once, after the last end_rank. */
    int (*communicators)(scope_writer *w, const struct scope_comm_table *table);
    /* Closes and renames to the final path; frees w whatever the outcome.
     * On failure the temporary file is removed and error(NULL) says why. */
    int (*finish)(scope_writer *w);
    /* Closes, removes the temporary file, frees w. */
    void (*abort)(scope_writer *w);
    /* Why the last call on w failed; error(NULL): why the last create or
     * finish of this thread failed (w no longer exists then). */
    const char *(*error)(const scope_writer *w);
    /* The temporary file w writes ("<path>.tmp.<pid>"). */
    const char *(*temp_path)(const scope_writer *w);
};

const struct scope_writer_api *scope_writer_api(void);

/* Region names are stored with '/' as "%2F" and '%' as "%25"; the reader
 * undoes this. Writes at most outlen-1 bytes; returns the length needed. */
size_t scope_escape_region_name(const char *name, char *out, size_t outlen);

#endif
