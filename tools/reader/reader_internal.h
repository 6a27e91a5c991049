/* Private types and helpers shared by the libscope-reader source files. */
#ifndef SCOPE_READER_INTERNAL_H
#define SCOPE_READER_INTERNAL_H

#include "call_stats.h"
#include "scope_reader.h"

#include <hdf5.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>

/* One region on one rank. Its statistics are known from the start when the
 * writer stored them; its calls (and the statistics of a file without
 * them) are read by reader_series.c, the one place that reads calls: at
 * open for regions without statistics, else on first use. */
typedef struct series {
    scope_series pub;   /* pub.count (rows) is right once has_stats; the arrays once loaded */
    atomic_bool loaded; /* set last, under the file's lock */
    char *where;        /* the region group's path in the file */
    bool has_threads;   /* the group links a thread_ids dataset */
    bool has_callsites; /* the group links a callsite_ids dataset */
    bool has_stats;     /* stats hold: stored by the writer, or from the calls */
    struct call_stats stats;
    int64_t folded;     /* calls in stats but not stored as rows (folded_calls: */
                        /* trace mode's min_duration); the rows are the others */
    bool has_self;      /* self_ns holds: stored by the writer, or computed */
    int64_t self_ns;
    /* Stored order is by (start asc, duration desc) unless sorted == false;
     * then order[] is that permutation of 0..count-1. */
    bool sorted;
    size_t *order;
    /* MPI payload (reader_payload.c): the family the group's mpi_payload
     * attribute declares (NONE: no payload), the same when the group has
     * per-call columns (family) and when it has peer totals (peer_family:
     * peer_ranks ...; reader_peers.c), whether it has message rows, and
     * the columns of the parts in payload_parts (PAYLOAD_* bits, set last,
     * under the file's lock). */
    scope_payload_family declared;
    scope_payload_family family;
    scope_payload_family peer_family;
    bool has_messages;
    scope_payload *payload;   /* allocated when first read (reader_payload_of) */
    atomic_uint payload_parts;
    /* Argument and return values (reader_values.c): bit v of value_mask,
     * the group has dataset scope_value_name(v); values[v] its column once
     * values_loaded (set last, under the file's lock). */
    unsigned value_mask;
    int64_t **values;   /* [SCOPE_VALUE_SLOTS], allocated when first read */
    atomic_bool values_loaded;
} series;

struct scope_file {
    char *path;
    hid_t h5;         /* open while calls may still have to be loaded */
    pthread_mutex_t lock;      /* held while calls are read (reader_series.c) */
    pthread_mutex_t self_lock; /* held while self times are kept (reader_self.c) */
    bool use_stats;   /* trust the statistics the writer stored */
    bool metadata_only;  /* SCOPE_OPEN_METADATA_ONLY */
    bool times_partial;  /* regions with calls but no statistics were left out */
    bool is_profile;  /* /metadata mode = "profile": no calls to read */
    scope_meta *meta;
    size_t n_meta;

    int *ranks;       /* ascending rank ids */
    struct missing_rank {   /* ranks left out: their node's part cannot be opened */
        int rank;
        char *file, *why;
    } *missing;
    size_t n_missing;
    uint64_t *dropped;  /* per rank index: its dropped_events (0 when absent) */
    uint64_t *unfinished;  /* per rank index: its regions' unfinished_calls */
    size_t n_ranks;

    char **names;     /* region names, in region order */
    size_t n_regions;
    series **table;   /* [region * n_ranks + rank_index], NULL = not recorded */

    scope_frame *frames;  /* /metadata/callsite_frames */
    size_t n_frames;
    int32_t *sites;       /* /metadata/callsites: n_sites * site_depth frame indices */
    size_t n_sites, site_depth;

    int64_t *comms;       /* /metadata/communicators: n_comms rows (size, offset) */
    size_t n_comms;
    int32_t *comm_members; /* /metadata/communicator_members */
    size_t n_comm_members;
    bool has_payload;     /* some region has mpi_payload */
    bool has_peer_totals; /* some region has peer totals (peer_ranks ...) */
    bool has_values;      /* some region has argument or return values */

    size_t n_events;
    bool has_threads;
    bool has_run_start;
    int64_t run_start_ns, min_start_ns, max_end_ns;
};

/* Write a message into err (when not NULL); always returns -1
 * (reader_fail.c). */
int reader_fail(scope_error *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Series and their calls (reader_series.c). */
/* The series of a region on a rank index; NULL when not recorded. */
const series *reader_series(const scope_file *f, size_t region, size_t rank_index);
/* Read the calls of the series of the list not in memory yet (NULL
 * entries skipped), in one batch. A series with statistics must hold as
 * many calls; one without gets them from its calls. On failure the series
 * that failed are as before: counted, not loaded. */
int reader_load_list(const scope_file *f, series *const *list, size_t n, scope_error *err);
/* The same for one series (NULL: nothing to do), for the regions of one
 * rank, and for those of every rank rank_keep selects (NULL: all). */
int reader_load_series(const scope_file *f, const series *s, scope_error *err);
int reader_load_rank(const scope_file *f, size_t rank_index, scope_error *err);
int reader_load_ranks(const scope_file *f, const bool *rank_keep, scope_error *err);
void reader_free_series(series *s);

/* The writer's statistics attributes of a region group into s->stats,
 * s->has_self, s->self_ns: 1 when present and consistent, 0 when the group
 * has none, -1 (err set) when they are damaged. */
int reader_read_stats(hid_t group, series *s, const char *where, scope_error *err);
/* Checks the statistics in s (stored by the writer) can be true and
 * completes them: 1, or -1 (err set) when they cannot. */
int reader_accept_stats(series *s, const char *where, scope_error *err);

/* Reads /metadata/callsite_frames and /metadata/callsites when the file
 * has them (before the regions: their ids are checked against it). */
int reader_load_callsites(scope_file *f, hid_t metadata, scope_error *err);
void reader_free_callsites(scope_file *f);

/* MPI payload (reader_payload.c). The family of a region group from its
 * mpi_payload attribute (s->declared; s->family when it links a `bytes`
 * dataset, s->peer_family when peer totals): 0, -1 (err set) for a family
 * not known. */
int reader_read_family(hid_t group, series *s, const char *where, scope_error *err);
/* The parts of a payload: the columns per call (bytes, peer, tag, comm)
 * and the message rows (msg_*). */
enum { PAYLOAD_CALLS = 1u, PAYLOAD_MESSAGES = 2u, PAYLOAD_ALL = 3u };
/* Reads the parts (PAYLOAD_* bits) of the payload of the series with one,
 * of the regions keep[] selects (NULL: all) on the ranks rank_keep[]
 * selects (NULL: all), not read yet, in one batch, checked. */
int reader_load_payload(const scope_file *f, const bool *keep, const bool *rank_keep,
                        unsigned parts, scope_error *err);
void reader_free_payload(series *s);
/* A region's peer totals on rank index ri added up: the bytes that calls
 * not stored as rows moved without a message (direction 2: a collective's,
 * a one-sided or I/O call's), and the bytes of all its (peer, direction 0
 * or 1) totals. */
typedef struct reader_call_totals {
    uint64_t bytes;        /* direction 2 */
    uint64_t peer_bytes;   /* directions 0 and 1 */
} reader_call_totals;
int reader_region_call_totals(const scope_file *f, size_t region, size_t ri,
                              reader_call_totals *calls, scope_error *err);
/* The series' payload columns read so far (none read: an empty payload). */
const scope_payload *reader_payload_of(const series *s);

/* Argument and return values (reader_values.c): which datasets a region
 * group has (into s->value_mask), and their columns for the series of the
 * regions keep[] selects (NULL: all) on the ranks rank_keep[] selects
 * (NULL: all), not read yet, in one batch, checked. */
void reader_find_values(hid_t group, series *s);
int reader_load_values(const scope_file *f, const bool *keep, const bool *rank_keep,
                       scope_error *err);
void reader_free_values(series *s);

/* /metadata/communicators and communicator_members when the file has them
 * (reader_communicators.c), checked; before the regions, whose comm ids
 * are checked against them. */
int reader_load_communicators(scope_file *f, hid_t metadata, scope_error *err);
void reader_free_communicators(scope_file *f);

/* Index of a rank id in f->ranks, -1 when absent. */
long reader_rank_index(const scope_file *f, int rank);

/* Evaluate a filter (NULL = everything): keep[r] for every region and
 * rank_keep[ri] for every rank index; either may be NULL when not wanted.
 * -1 on a bad regex or an unknown rank. */
int reader_apply_filter(const scope_file *f, const scope_filter *flt, bool *keep,
                        bool *rank_keep, scope_error *err);

/* The regions (keep[r]) and ranks (rank_keep[ri]) a filter selects, in
 * arrays of their own: reader_select allocates and fills them (-1, err set,
 * on a bad filter or no memory; free them even then). */
typedef struct reader_selection {
    bool *keep, *rank_keep;
} reader_selection;
int reader_select(const scope_file *f, const scope_filter *flt, reader_selection *sel,
                  scope_error *err);
void reader_selection_free(reader_selection *sel);

/* How an analysis returns its malloc'd array of n rows: out with *count
 * = n when rc is 0; NULL, out freed, otherwise. */
void *reader_rows(void *out, size_t n, int rc, size_t *count);

/* Walk one rank's calls in call-stack order. */
typedef struct walk_call {
    size_t id;          /* index in the call stack */
    long parent;        /* parent's id or -1 */
    size_t parent_region;
    int depth;
    size_t region;
    size_t call_index;
    int thread_id;
    long callsite;      /* -1: none */
    int64_t start_ns, end_ns;
} walk_call;

typedef void (*walk_fn)(void *ctx, const walk_call *call);
int reader_walk_rank(const scope_file *f, size_t rank_index, walk_fn fn, void *ctx,
                     scope_error *err);

/* A profile's call path on one rank (reader_profile.c): its parent path
 * (-1: none), its region, what its calls add up to, and its call site (a
 * row of the call-site table, -1: none). Parents come before their
 * children. */
typedef struct profile_path {
    long parent;
    size_t region;
    int64_t calls, total_ns, self_ns;
    long callsite;
} profile_path;
/* The call paths of rank index ri of a profile; the caller frees *paths. */
int reader_profile_paths(const scope_file *f, size_t ri, profile_path **paths, size_t *n,
                         scope_error *err);

/* Computes the self times of the ranks rank_keep selects that lack them
 * and keeps them in their series (reader_self.c). */
int reader_keep_self_times(const scope_file *f, const bool *rank_keep, scope_error *err);

/* Number of calls one rank recorded over all regions. */
size_t reader_rank_calls(const scope_file *f, size_t rank_index);

double reader_seconds(int64_t ns);

#endif
