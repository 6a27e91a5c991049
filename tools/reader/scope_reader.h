/* libscope-reader: the public C API for reading scope (and seed-layout)
 * HDF5 profiles. It mirrors the seed's Python API (ProfilingResults, Region,
 * events(), call_stack(), ...). Times are seconds as double unless the name
 * ends in _ns (int64 nanoseconds of the recording clock).
 *
 * Conventions:
 *  - Fallible calls take a scope_error * (may be NULL) and return NULL or -1
 *    on failure with a one-line message in err->message. Nothing is printed.
 *  - Regions are addressed by index 0 .. scope_region_count()-1, in order of
 *    first appearance: by their earliest start time over all ranks (ties and
 *    regions without calls: by name, at the end).
 *  - Ranks are addressed by their MPI rank id N (from the group rank{N}).
 *  - Arrays returned as "owned by the file" live until scope_close(); arrays
 *    the caller owns are released with free().
 *  - A scope_file may be read from several threads at once: what it reads
 *    from the file after scope_open() (calls, self times, region
 *    attributes) is read under its own lock, and never changes once read.
 */
#ifndef SCOPE_READER_H
#define SCOPE_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SCOPE_API __attribute__((visibility("default")))

typedef struct scope_file scope_file;

typedef struct scope_error {
    char message[512];
} scope_error;

/* ---- Opening ---------------------------------------------------------- */

/* Open a profile. NULL on failure (missing file, not HDF5, truncated, wrong
 * layout, mismatched dataset lengths ...). HDF5 never prints its error stack
 * from here. The per-region statistics that scope's writer stores (calls,
 * total, min, max, variance, self time) are read at once, without opening
 * a dataset; the calls themselves on first use, from the file, which stays
 * open until scope_close() (a region whose datasets do not hold the calls
 * its statistics count fails then). A file without statistics (the seed's
 * layout) is read whole at open. */
SCOPE_API scope_file *scope_open(const char *path, scope_error *err);
/* scope_open() with flags: SCOPE_OPEN_RECOMPUTE ignores stored statistics
 * and derives everything from the calls (to cross-check a file);
 * SCOPE_OPEN_METADATA_ONLY reads no calls at open, even of regions without
 * statistics: their counts come from their datasets' sizes, and until
 * their calls are read (by whatever needs them) the run's first entry,
 * last exit and region order leave them out (scope_times_known says
 * whether any was left out). */
enum { SCOPE_OPEN_RECOMPUTE = 1u << 0, SCOPE_OPEN_METADATA_ONLY = 1u << 1 };
SCOPE_API scope_file *scope_open_ex(const char *path, unsigned flags, scope_error *err);
SCOPE_API void scope_close(scope_file *f);
SCOPE_API const char *scope_file_path(const scope_file *f);

/* ---- /metadata attributes (in file order) ----------------------------- */

typedef enum { SCOPE_META_STRING, SCOPE_META_INT, SCOPE_META_FLOAT } scope_meta_kind;

typedef struct scope_meta {
    const char *key;
    scope_meta_kind kind;
    const char *text;     /* always set: the value formatted as text */
    int64_t int_value;    /* SCOPE_META_INT */
    double float_value;   /* SCOPE_META_FLOAT */
} scope_meta;

SCOPE_API size_t scope_metadata_count(const scope_file *f);
SCOPE_API const scope_meta *scope_metadata(const scope_file *f, size_t i);
/* NULL when the key is absent. */
SCOPE_API const scope_meta *scope_metadata_find(const scope_file *f, const char *key);

/* ---- Ranks and regions ------------------------------------------------ */

SCOPE_API size_t scope_rank_count(const scope_file *f);
/* Ranks left out at open because the node's file their /rank{N} links to
 * (a run written on several nodes) cannot be opened: how many, and for
 * i < that count the rank, the file as the link names it and why. */
SCOPE_API size_t scope_missing_rank_count(const scope_file *f);
SCOPE_API int scope_missing_rank(const scope_file *f, size_t i, const char **file,
                                 const char **why);
/* Rank ids in ascending order: scope_rank_id(f, 0) is the lowest. */
SCOPE_API int scope_rank_id(const scope_file *f, size_t i);
/* Calls of rank i that were not recorded (more calls open at once on a
 * thread than scope's shadow stack holds): the rank's dropped_events. */
SCOPE_API uint64_t scope_rank_dropped(const scope_file *f, size_t i);
/* Calls of rank i still open when recording stopped or their thread ended
 * (exit or _exit inside them, exec, MPI_Finalize, pthread_exit,
 * cancellation): they end at that time. The sum of its regions'
 * unfinished_calls. */
SCOPE_API uint64_t scope_rank_unfinished(const scope_file *f, size_t i);
SCOPE_API bool scope_has_rank(const scope_file *f, int rank);

SCOPE_API size_t scope_region_count(const scope_file *f);
/* Unescaped name ("%2F" -> '/', "%25" -> '%', "%2E" -> "."). */
SCOPE_API const char *scope_region_name(const scope_file *f, size_t region);
/* -1 when there is no region of that name. */
SCOPE_API long scope_region_find(const scope_file *f, const char *name);

/* Does any region carry thread_ids? */
SCOPE_API bool scope_has_thread_ids(const scope_file *f);
/* Written in profile mode (/metadata mode = "profile"): per-region
 * statistics and call paths, no calls; what needs the calls fails with a
 * message that says so. */
SCOPE_API bool scope_is_profile(const scope_file *f);
/* A profile's stored histogram of the durations of a region's calls on a
 * rank (duration_histogram): out[i] calls lasted floor(log2(ns)) = i (bin
 * 0 also holds durations under 2 ns); all zeros when the rank did not
 * record the region. 0, or -1 (err set) when the file is not a profile or
 * the histogram is damaged (its bins do not add up to the region's calls). */
#define SCOPE_DURATION_BINS 64
SCOPE_API int scope_region_duration_histogram(const scope_file *f, size_t region, int rank,
                                              int64_t out[SCOPE_DURATION_BINS],
                                              scope_error *err);

/* Total number of recorded calls over all regions and ranks. */
SCOPE_API size_t scope_event_count(const scope_file *f);

/* One region on one rank (the seed's Region): the stored arrays, owned by
 * the file. start_ns[i]/end_ns[i] is call i in stored (call) order. */
typedef struct scope_series {
    size_t count;
    const int64_t *start_ns;
    const int64_t *end_ns;
    const int32_t *thread_ids; /* NULL when the file has none */
    const int32_t *callsite_ids; /* NULL when the region has none; -1: no call site */
} scope_series;

/* NULL when the region was not recorded on that rank (or no such rank). */
SCOPE_API const scope_series *scope_region_on_rank(const scope_file *f, size_t region, int rank);
/* Whether the rank recorded the region (a group for it, maybe empty);
 * unlike scope_region_on_rank(), reads no calls. */
SCOPE_API bool scope_region_recorded(const scope_file *f, size_t region, int rank);
/* Number of calls of the region on the rank stored as rows (0 when not
 * recorded): all of them, but for the calls a trace folded (min_duration,
 * the region's folded_calls), which only scope_region_counted_calls counts. */
SCOPE_API size_t scope_region_calls(const scope_file *f, size_t region, int rank);
/* Number of calls of the region on the rank its statistics count: the
 * rows and the folded calls (a profile's: all of its calls). */
SCOPE_API size_t scope_region_counted_calls(const scope_file *f, size_t region, int rank);
/* Fill out[0 .. calls-1] with the call durations. */
SCOPE_API void scope_region_durations(const scope_file *f, size_t region, int rank, double *out);
SCOPE_API void scope_region_durations_ns(const scope_file *f, size_t region, int rank, int64_t *out);
/* Sum of the durations on one rank (0 when not recorded). */
SCOPE_API double scope_region_total(const scope_file *f, size_t region, int rank);
SCOPE_API int64_t scope_region_total_ns(const scope_file *f, size_t region, int rank);
/* total_durations(): {rank: seconds} for every rank that recorded the region.
 * ranks/totals need room for scope_rank_count() entries; returns how many
 * were written, in ascending rank order. */
SCOPE_API size_t scope_region_total_durations(const scope_file *f, size_t region,
                                              int *ranks, double *totals);

/* The attribute `key` of the region's group (symbol, library, address,
 * clones, ...) on the lowest rank that recorded the region and has it, as
 * text (numbers formatted): malloc'd, NULL when none has it. Read from the
 * file on each call. */
SCOPE_API char *scope_region_attribute(const scope_file *f, size_t region, const char *key);
/* Bytes the region's datasets take in the file, over all ranks (their
 * stored, compressed size); -1 when a group cannot be read. Read from the
 * file on each call. */
SCOPE_API int64_t scope_region_storage_bytes(const scope_file *f, size_t region,
                                             scope_error *err);

/* ---- Times ------------------------------------------------------------ */

SCOPE_API bool scope_has_run_start_time(const scope_file *f);
/* /metadata run_start_time; NAN (seconds) / 0 (ns) when the file has none. */
SCOPE_API double scope_run_start_time(const scope_file *f);
SCOPE_API int64_t scope_run_start_time_ns(const scope_file *f);
/* Earliest start and latest end over all calls (0 for a file without calls). */
SCOPE_API double scope_minimum_start_time(const scope_file *f);
SCOPE_API int64_t scope_minimum_start_time_ns(const scope_file *f);
SCOPE_API double scope_maximum_end_time(const scope_file *f);
SCOPE_API int64_t scope_maximum_end_time_ns(const scope_file *f);
/* maximum_end_time - minimum_start_time. */
SCOPE_API double scope_time_span(const scope_file *f);
/* False when the file was opened with SCOPE_OPEN_METADATA_ONLY and a
 * region with calls has no stored statistics: the times above then leave
 * its calls out. */
SCOPE_API bool scope_times_known(const scope_file *f);
/* minimum_start_time - run_start_time; NAN when there is no run start. */
SCOPE_API double scope_startup_time(const scope_file *f);
/* The default zero point: run_start_time, else minimum_start_time. */
SCOPE_API double scope_time_origin(const scope_file *f);
SCOPE_API int64_t scope_time_origin_ns(const scope_file *f);

/* ---- Selection -------------------------------------------------------- */

/* What events() and friends take: all fields zero = everything, relative to
 * scope_time_origin(). A region is kept when it matches at least one include
 * regex (all when none) and no exclude regex; regexes are POSIX extended and
 * match anywhere in the name (like Python's re.search). */
typedef struct scope_filter {
    const char *const *include;
    size_t n_include;
    const char *const *exclude;
    size_t n_exclude;
    const int *ranks; /* rank ids; n_ranks == 0 means all ranks */
    size_t n_ranks;
    bool absolute;    /* relative=False: raw clock times */
    bool has_origin;  /* origin override (ignored when absolute) */
    int64_t origin_ns;
} scope_filter;

/* Is the region kept by the filter's include/exclude? -1 on a bad regex. */
SCOPE_API int scope_filter_region(const scope_file *f, const scope_filter *flt, size_t region,
                                  scope_error *err);
/* The origin (ns) the filter's times are measured from (0 when absolute). */
SCOPE_API int64_t scope_filter_origin_ns(const scope_file *f, const scope_filter *flt);
/* The rank ids the filter selects (all when it names none; flt may be NULL),
 * ascending, without repeats. ranks needs room for scope_rank_count()
 * entries. Returns how many, or -1 on an unknown rank. */
SCOPE_API long scope_filter_ranks(const scope_file *f, const scope_filter *flt, int *ranks,
                                  scope_error *err);

/* ---- Aggregates ------------------------------------------------------ */

/* Load imbalance of a region over the ranks that recorded it (restricted to
 * flt's ranks when it has some; NULL = all), from the per-rank totals.
 * max_over_min is +inf when the smallest total is 0. */
typedef struct scope_imbalance {
    size_t ranks;
    int min_rank, max_rank;
    double min, max, mean; /* seconds */
    double max_over_min, max_over_mean;
} scope_imbalance;

/* -1 when no selected rank recorded the region, or on an unknown rank. */
SCOPE_API int scope_region_imbalance(const scope_file *f, size_t region, const scope_filter *flt,
                                     scope_imbalance *out, scope_error *err);

/* Aggregates of one region over the filter's ranks: what `scope summary`
 * prints. std is the sample standard deviation (ddof = 1, like pandas), NAN
 * for fewer than two calls. share is the mean per-rank total over the
 * selected ranks (ranks that never called the region count as 0) divided by
 * scope_time_span(); for one rank simply total / time_span. */
typedef struct scope_region_stats {
    size_t region;
    size_t calls;
    double total, mean, std, min, max, self;
    double share;
    double rank_mean; /* total / number of selected ranks (share * time span) */
    /* Regions that carry MPI payload (scope_region_payload_family()):
     * the bytes their calls moved over the selected ranks, and per call. */
    bool has_bytes;
    uint64_t bytes;
    double mean_bytes; /* NAN without calls */
} scope_region_stats;

/* One entry per region kept by flt, in region order; caller frees. */
SCOPE_API scope_region_stats *scope_summary(const scope_file *f, const scope_filter *flt,
                                            size_t *count, scope_error *err);

/* ---- Events ----------------------------------------------------------- */

#define SCOPE_VALUE_SLOTS 7 /* integer arguments 1 .. 6, the return value */

typedef struct scope_event {
    const char *name;  /* owned by the file */
    size_t region;
    int rank;
    int thread_id;     /* 0 when the file has no thread ids */
    size_t call_index; /* index within this region on this rank */
    double start, end, duration;
    int64_t start_ns, end_ns; /* raw clock values */
    long call_id;      /* index in the rank's call_stack() */
    long parent_id;    /* parent's index there, or -1 */
    long callsite;     /* index in the call-site table, -1 for none */
    /* What the call carried, when its region has MPI payload (else false
     * and the fields -1): see scope_payload. */
    bool has_payload;
    int64_t bytes;
    int peer, tag, comm;
    int64_t offset;    /* I/O calls: the file offset, -1 the shared pointer */
    /* The argument and return values it recorded (config "args=",
     * "retval"): bit v of `values` set when value[v] holds one, argument
     * v + 1 for v < 6, the return value for v = 6 (scope_value_name). */
    unsigned values;
    int64_t value[SCOPE_VALUE_SLOTS];
} scope_event;

/* The values the calls of a region record on some rank: bit v for
 * scope_value_name(v) ("arg1" .. "arg6", "retval"); 0 for none. */
SCOPE_API unsigned scope_region_values(const scope_file *f, size_t region);
SCOPE_API const char *scope_value_name(size_t slot);
/* The values scope_value_name(slot) of one region's calls on one rank,
 * owned by the file (read on first use), in the order of scope_series;
 * NULL with an empty err->message when that rank's calls of the region
 * record none, NULL with err set when the dataset is damaged. */
SCOPE_API const int64_t *scope_region_value_column(const scope_file *f, size_t region, int rank,
                                                   size_t slot, scope_error *err);

/* One entry per recorded call, in region -> rank -> call order. The caller
 * frees the array. NULL on error (bad regex, unknown rank); *count = 0 and a
 * non-NULL empty allocation when nothing matches. */
SCOPE_API scope_event *scope_events(const scope_file *f, const scope_filter *flt, size_t *count,
                                    scope_error *err);
/* The same events handed one at a time to fn, without holding them all
 * (16 bytes a call are kept for the call ids). fn returns 0 to go on, -1 to
 * stop (then scope_events_each returns -1 with err "stopped"). */
typedef int (*scope_event_fn)(void *ctx, const scope_event *event);
SCOPE_API int scope_events_each(const scope_file *f, const scope_filter *flt, scope_event_fn fn,
                                void *ctx, scope_error *err);

/* ---- Call stack ------------------------------------------------------- */

typedef struct scope_call {
    const char *name;
    size_t region;
    size_t call_index;
    int thread_id;
    int depth;        /* 0 for roots */
    long parent;      /* index in the list, -1 for roots */
    double start, end, duration; /* start/end relative to scope_time_origin() */
    int64_t start_ns, end_ns;
    long callsite;    /* index in the call-site table, -1 for none */
} scope_call;

/* The rank's calls sorted by start (ties: longer first, then region order),
 * nesting reconstructed from containment: a call that starts while another
 * is open (start < its end) and ends no later is its child. With thread ids
 * each thread nests on its own. The caller frees the array. NULL on an
 * unknown rank. */
SCOPE_API scope_call *scope_call_stack(const scope_file *f, int rank, size_t *count,
                                       scope_error *err);

/* Indices of the roots (parent == -1), caller frees. */
SCOPE_API size_t *scope_call_stack_roots(const scope_call *calls, size_t count, size_t *n_roots);

/* Children of every call, in list order: the children of call i are
 * items[offsets[i]] .. items[offsets[i+1]-1]. */
typedef struct scope_children {
    size_t *offsets; /* count + 1 entries */
    size_t *items;   /* count entries at most */
} scope_children;

SCOPE_API int scope_call_stack_children(const scope_call *calls, size_t count,
                                        scope_children *out, scope_error *err);
SCOPE_API void scope_children_free(scope_children *children);

/* Self (exclusive) time per region on one rank: total duration minus the
 * durations of each call's direct children. self_ns needs
 * scope_region_count() entries. */
SCOPE_API int scope_self_times_ns(const scope_file *f, int rank, int64_t *self_ns,
                                  scope_error *err);

/* ---- Call sites ------------------------------------------------------ */

/* Where calls came from, when the run recorded call sites (/metadata/
 * callsites): a table of stacks, each a list of frames, the caller first. */
typedef struct scope_frame {
    const char *module;   /* path of the module holding the return address */
    const char *function; /* "" when unknown */
    const char *file;     /* "" without debug information */
    uint64_t offset;      /* return address - function (or module) start */
    int line;             /* 0 when unknown */
} scope_frame;

SCOPE_API bool scope_has_callsites(const scope_file *f);
SCOPE_API size_t scope_callsite_count(const scope_file *f);
/* Frames of the deepest stack (the depth the run recorded). */
SCOPE_API size_t scope_callsite_depth(const scope_file *f);
/* Frame `level` (0: the caller) of call site `site`; NULL past its stack. */
SCOPE_API const scope_frame *scope_callsite_frame(const scope_file *f, size_t site, size_t level);
/* A frame as one line: "function (file:line)", "function+0xOFFSET (module)"
 * without a line, "module+0xOFFSET" without a function. Returns buf. */
SCOPE_API const char *scope_frame_label(const scope_frame *fr, char *buf, size_t len);

/* One call site of one region over the filter's ranks: what `scope
 * callsites` prints. callsite -1 gathers the calls without one. */
#define SCOPE_SLOWEST_RANKS 3
typedef struct scope_callsite_stats {
    size_t region;
    long callsite;
    size_t calls;
    double total, mean;   /* seconds */
    double share;         /* of the region's time over the same ranks */
    size_t ranks;         /* ranks where it was called */
    /* the ranks with the most time at this site, slowest first */
    int slowest_ranks[SCOPE_SLOWEST_RANKS];
    double slowest_totals[SCOPE_SLOWEST_RANKS];
    size_t n_slowest;
    /* Regions with MPI payload: the bytes of the calls at this site
     * (mpiP's message sizes: each call's bytes). */
    bool has_bytes;
    int64_t min_bytes, max_bytes;
    uint64_t total_bytes;
    double mean_bytes;
} scope_callsite_stats;

/* Per region kept by flt (in region order) its call sites by total time,
 * largest first; only regions whose calls have call sites (of a profile:
 * the calls of its call paths, per path's site). The caller
 * frees; NULL on error, a non-NULL empty array with *count = 0 when no
 * selected call has a call site. */
SCOPE_API scope_callsite_stats *scope_callsites(const scope_file *f, const scope_filter *flt,
                                                size_t *count, scope_error *err);

/* ---- Flame tree ------------------------------------------------------ */

/* For scope_flame_tree(): merge every rank the filter selects. */
#define SCOPE_ALL_RANKS (-1)

/* One distinct call path (the sequence of region names from a root down to
 * this call) with the calls that took it merged. */
typedef struct scope_flame_node {
    const char *name;  /* owned by the file */
    size_t region;     /* of a frame node: the region of its first call */
    const scope_frame *frame; /* NULL, or the call-site frame the node stands for */
    long parent;       /* index of the parent node, -1 for roots */
    int depth;         /* 0 for roots */
    size_t calls;      /* calls merged into the node */
    int64_t total_ns;  /* their summed durations */
    int64_t self_ns;   /* total_ns minus the children's total_ns */
    long callsite;     /* SCOPE_FLAME_PATH_SITES: the call site of its calls (a row of */
                       /* the call-site table), -1 none or without that flag */
} scope_flame_node;

/* The call stack (scope_call_stack()) merged by path, over one rank or over
 * every rank flt selects (rank = SCOPE_ALL_RANKS; flt may be NULL). Calls of
 * regions the filter's include/exclude drop are left out: their kept
 * descendants hang under the nearest kept ancestor, whose self time then
 * includes the dropped calls' own time. Nodes are in depth-first order: a
 * node's subtree follows it, children ordered by their first call, so a
 * folded-stack writer needs one pass. The caller frees; NULL on an unknown
 * rank or a bad regex, a non-NULL empty array with *count = 0 when nothing
 * is kept. */
SCOPE_API scope_flame_node *scope_flame_tree(const scope_file *f, const scope_filter *flt,
                                             int rank, size_t *count, scope_error *err);
/* scope_flame_tree() with flags: SCOPE_FLAME_CALLSITES puts each call that
 * has no kept hooked caller under the stack recorded for it (a node per
 * frame, named by its function, else its module; outermost first), so
 * calls from different places are told apart. SCOPE_FLAME_PATH_SITES
 * keeps the calls of one region under one parent apart by call site (a
 * profile's paths as stored), each node with its site. */
enum { SCOPE_FLAME_CALLSITES = 1u << 0, SCOPE_FLAME_PATH_SITES = 1u << 1 };
SCOPE_API scope_flame_node *scope_flame_tree_ex(const scope_file *f, const scope_filter *flt,
                                                int rank, unsigned flags, size_t *count,
                                                scope_error *err);

/* ---- MPI payload ----------------------------------------------------- */

/* What MPI calls carried, in runs that recorded it (an MPI config): a
 * region group with the attribute mpi_payload names the family of its
 * function and holds, per call, the bytes it moved, its peer, tag and
 * communicator, and (point-to-point) one row per message it sent or
 * completed. A file without it reads as before. */
typedef enum {
    SCOPE_PAYLOAD_NONE,
    SCOPE_PAYLOAD_P2P,
    SCOPE_PAYLOAD_COLLECTIVE,
    SCOPE_PAYLOAD_RMA,
    SCOPE_PAYLOAD_IO,
} scope_payload_family;

/* Does any region of the file carry payload? */
SCOPE_API bool scope_has_payload(const scope_file *f);
/* Does any region hold peer totals (scope_region_peer_totals), as a
 * profile's MPI regions do? */
SCOPE_API bool scope_has_peer_totals(const scope_file *f);
/* The region's family on the lowest rank that has one; NONE when none. */
SCOPE_API scope_payload_family scope_region_payload_family(const scope_file *f, size_t region);
/* Does the region carry payload on that rank? */
SCOPE_API bool scope_region_has_payload(const scope_file *f, size_t region, int rank);
/* "p2p", "collective", "rma", "io" ("" for NONE). */
SCOPE_API const char *scope_payload_family_name(scope_payload_family family);

/* One region's payload on one rank, owned by the file. Per call (in the
 * order of scope_series): bytes moved for this rank, the peer as a world
 * rank (-1: none or several), tag (-1: none or several), communicator id
 * (-1: none). Per message (point-to-point; NULL arrays and n_messages 0
 * otherwise): the call (index into the series) that sent (kind 0) or
 * completed the receive of (kind 1) it, the other side as a world rank,
 * its bytes, tag and communicator. I/O regions only (else NULL): per call
 * the byte offset in the file where it read or wrote (-1: at the shared
 * file pointer). */
typedef struct scope_payload {
    size_t count;
    const int64_t *bytes;
    const int32_t *peer, *tag, *comm;
    size_t n_messages;
    const int64_t *msg_call;
    const int8_t *msg_kind;
    const int32_t *msg_peer;
    const int64_t *msg_bytes;
    const int32_t *msg_tag, *msg_comm;
    const int64_t *offset;
} scope_payload;

/* Read on first use (the columns of every rank of the region at once).
 * NULL with err set when the region has no payload on that rank, or its
 * datasets are damaged (lengths that disagree, a message of a call that
 * does not exist, an unknown communicator, ...). */
SCOPE_API const scope_payload *scope_region_payload(const scope_file *f, size_t region, int rank,
                                                    scope_error *err);

/* Communicators (/metadata/communicators): id 0 is MPI_COMM_WORLD. 0 when
 * the file has no table. */
SCOPE_API size_t scope_communicator_count(const scope_file *f);
/* The members of communicator id as world ranks, in its own rank order
 * (owned by the file); NULL for an unknown id. */
SCOPE_API const int32_t *scope_communicator_members(const scope_file *f, size_t id,
                                                    size_t *size);

/* The point-to-point matrix: one entry per (sender, receiver) pair with
 * messages, sorted by sender then receiver. messages/bytes add up the
 * sender's message rows (kind 0) and the messages its peer totals hold
 * (calls not stored as rows: a profile, folded calls), recv_messages/
 * recv_bytes the receiver's (kind 1): in a complete run they are equal. The filter's ranks select
 * senders; its include/exclude the regions on both sides. The caller
 * frees; NULL on error; a non-NULL empty array when no message is kept. */
typedef struct scope_comm_pair {
    int sender, receiver;
    uint64_t messages, bytes;
    uint64_t recv_messages, recv_bytes;
} scope_comm_pair;
SCOPE_API scope_comm_pair *scope_comm_matrix(const scope_file *f, const scope_filter *flt,
                                             size_t *count, scope_error *err);

/* Per rank the filter selects (ascending): the calls of the regions of a
 * family it keeps and the bytes they moved (for collectives: what left the
 * rank's send buffer). The caller frees; NULL on error. */
typedef struct scope_rank_bytes {
    int rank;
    uint64_t calls, bytes;
} scope_rank_bytes;
SCOPE_API scope_rank_bytes *scope_family_bytes(const scope_file *f, const scope_filter *flt,
                                               scope_payload_family family, size_t *count,
                                               scope_error *err);

/* What a region's calls on one rank moved to and from each peer beside
 * their rows (the peer_* datasets): point-to-point, the messages of the
 * calls not stored as rows (a profile, folded calls); a v or w collective,
 * its bytes to (direction 0) and from (1) each peer, one message per call.
 * Sorted by peer, then direction. The caller frees; NULL on error (damaged
 * datasets); a non-NULL empty array when the region has none there. */
typedef struct scope_peer_total {
    int peer;                      /* world rank */
    int direction;                 /* 0: sent to peer, 1: received from it */
    uint64_t messages, bytes;
} scope_peer_total;
SCOPE_API scope_peer_total *scope_region_peer_totals(const scope_file *f, size_t region,
                                                     int rank, size_t *count, scope_error *err);

/* The v and w collectives' bytes per (region, sender, receiver), from the
 * senders' peer totals (calls, bytes) and the receivers' (recv_calls,
 * recv_bytes), sorted by region, sender, receiver. The filter's ranks
 * select senders, its include/exclude the regions. The caller frees; NULL
 * on error. */
typedef struct scope_collective_pair {
    size_t region;
    int sender, receiver;
    uint64_t calls, bytes;
    uint64_t recv_calls, recv_bytes;
} scope_collective_pair;
SCOPE_API scope_collective_pair *scope_collective_pairs(const scope_file *f,
                                                        const scope_filter *flt, size_t *count,
                                                        scope_error *err);

/* Message sizes per region with payload, in powers of two: bin 0 holds
 * 0 bytes, bin k (k >= 1) 2^(k-1) .. 2^k - 1. Point-to-point regions count
 * their messages (each sent or received message with its own size), the
 * others their calls (the bytes each moved). */
#define SCOPE_SIZE_BINS 64
typedef struct scope_size_histogram {
    size_t region;
    scope_payload_family family;
    bool messages;      /* counts messages, else calls */
    uint64_t count, total_bytes;
    int64_t min_bytes, max_bytes; /* 0 when count is 0 */
    uint64_t bins[SCOPE_SIZE_BINS];
} scope_size_histogram;
/* The bin of a size (>= 0). */
SCOPE_API size_t scope_size_bin(int64_t bytes);
/* One entry per region with payload the filter keeps, in region order,
 * over its ranks. The caller frees; NULL on error. */
SCOPE_API scope_size_histogram *scope_message_sizes(const scope_file *f, const scope_filter *flt,
                                                    size_t *count, scope_error *err);

/* Each message matched from its send to the receive that completed it:
 * sends and receives of one (sender, receiver, communicator, tag) paired
 * in order (MPI's non-overtaking rule), sends ordered by their calls'
 * starts on the sender, receives by their completing calls' on the
 * receiver. Over the whole file, sorted by sender, then the send's region
 * and call. Messages left without a partner are counted in *unmatched. The caller
 * frees; NULL on error. */
typedef struct scope_message_flow {
    int sender, receiver, comm, tag;
    int64_t bytes;
    size_t send_region, send_call; /* the call that sent it, on the sender */
    size_t recv_region, recv_call; /* the call that completed it, on the receiver */
} scope_message_flow;
SCOPE_API scope_message_flow *scope_message_flows(const scope_file *f, size_t *count,
                                                  size_t *unmatched, scope_error *err);

#ifdef __cplusplus
}
#endif

#endif
