/* self_times.h: the exclusive (self) time of each region's calls, from each
 * thread's calls in the order they ended, in one pass and bounded memory.
 * A call's children are the calls it contains that ended before it and
 * that no other call claimed yet; those waiting for a caller (a loop's
 * calls at the top level, say) are kept as (start, running sum of
 * durations): a caller claims the ones that started at or after its own
 * start, a suffix, found by binary search and summed by one subtraction.
 * Beyond memory_calls of them the older ones go to an unlinked file in
 * scope_temp_dir(), so no number of calls makes the self times unknown. */
#ifndef SCOPE_SELF_TIMES_H
#define SCOPE_SELF_TIMES_H

#include <stddef.h>
#include <stdint.h>

#include "segment_decode.h"

/* One call waiting for a caller: its start and the sum of the durations of
 * the waiting calls up to and including it (wrapping). */
struct scope_waiting_call {
    int64_t start;
    uint64_t sum;
};

/* A block of waiting calls in the file. */
struct scope_waiting_block {
    int64_t first_start;
    struct scope_waiting_call last;
    uint64_t offset;                     /* its bytes in the file */
};

struct scope_self_pass {
    struct scope_waiting_call *memory;   /* the newest waiting calls */
    size_t in_memory, memory_cap;
    void *map;                           /* memory's mapping */
    size_t map_bytes;
    int fd;                              /* the older ones, -1 until needed, */
    uint64_t file_bytes;                 /* in blocks of block_calls, each */
    size_t block_calls;                  /* as varints (start and sum from */
    struct scope_waiting_block *blocks;  /* the call before: a byte or two */
    size_t nblocks, blocks_cap;          /* each for a loop's calls) */
    unsigned char *bytes;                /* one block encoded */
    unsigned char *seen;                 /* threads passed */
    size_t seen_cap;
    int32_t thread;
    int64_t last_end;                    /* the thread's call before */
    int known;   /* 0 when the order does not hold (a thread seen twice, a */
                 /* call ending before the one before it), or out of memory */
                 /* or disk: the reader then derives self times itself */
};

/* memory_calls (>= 2) waiting calls are kept in memory. 0, or -1 out of
 * memory. */
int scope_self_pass_init(struct scope_self_pass *p, size_t memory_calls);
void scope_self_pass_free(struct scope_self_pass *p);

/* The next n events (one thread after another, each thread's in end order)
 * add their self times to region_self[hook_region[hook]]. */
void scope_self_pass_add(struct scope_self_pass *p, const struct scope_event *events, size_t n,
                         const uint32_t *hook_region, int64_t *region_self);

#endif
