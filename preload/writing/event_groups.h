/* event_groups.h: one process's calls grouped by region in start order,
 * ready to be written or sent in bounded chunks, in bounded memory. Knows
 * nothing of where the events came from (the live library or `scope
 * recover`): it reads them from a scope_record_reader. */
#ifndef SCOPE_EVENT_GROUPS_H
#define SCOPE_EVENT_GROUPS_H

#include <stddef.h>
#include <stdint.h>

#include "segment_decode.h"
#include "region_encode.h"
#include "region_peers.h"
#include "sorted_runs.h"

#define SCOPE_CHUNK_EVENTS 65536
/* Events sorted in memory at once: a process with more is sorted in runs
 * of this many, kept in an unlinked file (sorted_runs.h) and merged as its
 * chunks are read. 48 bytes an event, twice during the sort: at most
 * 12 MiB, whatever the number of events or ranks (payload items, 24 bytes
 * each, stay in memory: scope_payload_store). Each page of it is a page
 * fault the first time, so a bigger window costs more than it saves in
 * merging: 5.6 M calls of LAMMPS fault 8 900 times less than with 4 times
 * this window, for about the same CPU time otherwise. */
#define SCOPE_MERGE_WINDOW ((size_t)1 << 17)
/* Calls waiting for a caller (a loop's calls at the top level, say) kept in
 * memory for the self times, 16 bytes each: 16 MiB at most; the older ones
 * wait in an unlinked file (self_times.h). */
#define SCOPE_SELF_CALLS ((size_t)1 << 20)

/* The first call whose records say it ended before it started: a bug of
 * scope's, which the caller reports in one line (scope_event_anomaly_text);
 * the call is kept, ending where it starts. (Calls of one thread that
 * overlap without nesting are real with coroutines: their self times are
 * left to the reader, as for any order the self pass cannot follow.) */
struct scope_event_anomaly {
    int found;
    int32_t thread;
    uint32_t hook;
    int64_t start, end;
};

struct scope_event_groups {
    size_t count;                 /* events kept (those of known hooks) */
    size_t *region_begin;         /* nregions + 1: region r has calls */
                                  /* region_begin[r] .. region_begin[r + 1] */
    uint32_t *region_hook;        /* a hook of each region, for its attributes */
    char **region_clones;         /* its clones' tags (region_clones.h): set by */
                                  /* the caller, freed with the groups */
    unsigned char *region_carries; /* its calls were recorded with payload */
    unsigned char *region_values; /* the values its calls recorded (call_values.h) */
    const char **region_payload;  /* its payload family or NULL (set by the */
                                  /* caller, static strings; the array freed) */
    struct scope_payload_store payload;   /* the items events name and the */
                                  /* communicators (the caller's reader's, */
                                  /* moved here; freed with the groups) */
    int32_t *comm_ids;            /* the file's id of each process's */
    size_t ncomm_ids;             /* communicator id (NULL: the same; */
                                  /* malloc'd, freed with the groups) */
    size_t nregions;
    uint64_t *region_unfinished;  /* its calls open when recording stopped */
    int64_t *region_self;         /* exclusive time of each region's calls, */
    int self_known;               /* when each thread's calls came in end order */
                                  /* (and the disk held the waiting calls) */
    struct scope_event_anomaly anomaly;
    struct scope_rank_profile *profile;   /* profile mode: the calls added up */
                                          /* (profile_rank.h); NULL in trace mode */
    struct scope_region_peers peers;      /* the peer totals by region (set by */
                                          /* the caller, freed with the groups) */
    /* storage: all events sorted by (region, start) in memory, or sorted
     * runs in a file, merged per region by scope_event_groups_chunk */
    struct scope_event *events;   /* runs.nruns == 0 */
    struct scope_sorted_runs runs;
    size_t merge_region, merge_next;
};

/* Reads every event of `in` (times final, in ns), keeping window events in
 * memory at most; hook_region[h] is hook h's region. Events of unknown hooks
 * (damaged records) are dropped. Each thread's events come together, in the
 * order its calls ended: that order gives every region's self time in one
 * pass (nesting by containment, as the reader finds it; self_times.h keeps
 * self_calls calls waiting for a caller in memory, the others in a file);
 * if it does not hold, self_known is 0 and the reader derives self time
 * itself. 0, or -1 with err. */
int scope_event_groups_build(struct scope_event_groups *g, struct scope_record_reader *in,
                             const uint32_t *hook_region, size_t nhooks, size_t nregions,
                             size_t window, size_t self_calls, char *err, size_t errlen);
void scope_event_groups_free(struct scope_event_groups *g);

/* The payload items and communicators the groups' reader collected into
 * `store` become the groups' (store is left empty); each region whose hook
 * is a wrapped MPI function (hook_symbol) and whose calls were recorded
 * with payload (not patched: SCOPE_MPI_PAYLOAD=0) gets its payload family. */
void scope_event_groups_take_payload(struct scope_event_groups *g,
                                     struct scope_payload_store *store,
                                     const char *const *hook_symbol, const uint32_t *hook_region,
                                     size_t nhooks);

/* Why reading the sorted events back failed (their chunks then came out as
 * zeros and must not be kept), or NULL. */
static inline const char *scope_event_groups_error(const struct scope_event_groups *g)
{
    return g->runs.error[0] ? g->runs.error : NULL;
}

/* One line on the anomaly (a->found), naming the call's region. */
void scope_event_anomaly_text(const struct scope_event_anomaly *a, const char *region, char *buf,
                              size_t len);

static inline size_t scope_event_groups_calls(const struct scope_event_groups *g, size_t r)
{
    return g->region_begin[r + 1] - g->region_begin[r];
}

/* The messages of a chunk's calls, in call order (region_payload). */
struct scope_chunk_messages {
    int64_t *call;             /* index of the call in the chunk */
    int8_t *kind;
    int32_t *peer, *tag, *comm;
    int64_t *bytes;
    size_t n, cap;
};

/* Whether region r has calls to write: recorded ones, or counted ones in
 * profile mode (profile_rank.c). */
int scope_event_groups_has_calls(const struct scope_event_groups *g, size_t r);

/* One chunk of a region's events as the columns the file stores. */
struct scope_chunk {
    int64_t start[SCOPE_CHUNK_EVENTS];
    int64_t end[SCOPE_CHUNK_EVENTS];
    int32_t thread[SCOPE_CHUNK_EVENTS];
    int32_t callsite[SCOPE_CHUNK_EVENTS];   /* -1 none, else a site of the process */
    /* what each call carried (a region with payload) */
    int64_t bytes[SCOPE_CHUNK_EVENTS];
    int32_t peer[SCOPE_CHUNK_EVENTS], tag[SCOPE_CHUNK_EVENTS], comm[SCOPE_CHUNK_EVENTS];
    int64_t offset[SCOPE_CHUNK_EVENTS];     /* an I/O call's (payload.h), -1 none */
    /* argument i + 1 (i < 6) or return value (i = 6) of each call, 0 when the */
    /* call has none (a return value of a call that did not return) */
    int64_t value[SCOPE_VALUE_SLOTS][SCOPE_CHUNK_EVENTS];
    struct scope_chunk_messages messages;
    int failed;                /* out of memory for its messages */
    size_t n;
};

/* A chunk with no messages yet (NULL when out of memory); freed with
 * scope_chunk_free. */
struct scope_chunk *scope_chunk_new(void);
void scope_chunk_free(struct scope_chunk *c);
/* The chunk's payload as the encoder takes it. */
struct region_payload scope_chunk_payload(const struct scope_chunk *c);

/* Fills `chunk` with events [from, from + SCOPE_CHUNK_EVENTS) of region r in
 * start order (and, for a region with payload, what they carried: bytes
 * summed over their items, peer, tag and comm when all items agree, else
 * -1, and their messages; for a region with values, those it recorded); returns the index after the last one taken. Reading a
 * region's chunks one after the other is the fast way. */
size_t scope_event_groups_chunk(struct scope_event_groups *g, size_t r, size_t from,
                                struct scope_chunk *chunk);

#endif
