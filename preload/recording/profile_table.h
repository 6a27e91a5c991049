/* profile_table.h: profile mode's per-thread aggregate, kept in place of
 * per-call records ([output] mode = profile). One table per recording
 * buffer, in a shared-memory segment of its own (/dev/shm/STEM-pN), laid
 * out as struct scope_profile_table and preallocated (its pages are
 * touched as regions and paths first appear):
 *   - per hook: whether it was written (a bitmap), calls, total, self,
 *     min, max, first start, last end, sum of squared durations (all in
 *     raw clock ticks) and a histogram of floor(log2(duration in ns));
 *   - per call path (a chain of hooked callers, SCOPE_PROFILE_DEPTH deep at
 *     most, SCOPE_PROFILE_PATHS of them): its hook, its parent path, its
 *     call site when the hook records one (the caller's return address and
 *     the buffer's stack number, as a call-site record holds them:
 *     record.h), calls, total, self. Calls of one hook from two call sites
 *     are two paths. A call whose path does not fit (too deep, or the
 *     table is full) counts in its hook's statistics only.
 * The update functions below run in the hot path (-mgeneral-regs-only):
 * integers only, no call, no allocation. */
#ifndef SCOPE_PROFILE_TABLE_H
#define SCOPE_PROFILE_TABLE_H

#include <stddef.h>
#include <stdint.h>

#include "record.h"

#define SCOPE_PROFILE_MAGIC "SCOPEPF4"
#define SCOPE_PROFILE_BINS 64
#define SCOPE_PROFILE_PATHS 16384
#define SCOPE_PROFILE_HASH (2 * SCOPE_PROFILE_PATHS)   /* a power of two */
#define SCOPE_PROFILE_DEPTH 32
#define SCOPE_PROFILE_NO_PATH UINT32_MAX               /* a call without a path */
#define SCOPE_PROFILE_ROOT (UINT32_MAX - 1)            /* the parent of outermost calls */
#define SCOPE_PROFILE_USED_WORDS ((SCOPE_MAX_HOOKS + 63) / 64)

struct scope_profile_region {
    uint64_t calls, total, self, min, max, first_start, last_end;
    uint64_t kept_self;   /* trace mode with folding (fold.h): the self time of the */
                          /* calls recorded, not counted here */
    unsigned __int128 squares;
    uint64_t histogram[SCOPE_PROFILE_BINS];
};

struct scope_profile_path {
    uint32_t hook, parent, depth;
    uint32_t stack;            /* call site: 0, or 1 + the buffer's stack number */
    uint64_t caller;           /* call site: the caller's return address; 0: none */
    uint64_t calls, total, self;
};

struct scope_profile_header {
    char magic[8];
    int32_t pid;
    int32_t folding;           /* 1: a trace's folded calls (fold.h), 0: a profile */
    uint64_t npaths;           /* paths[0 .. npaths) are in use */
};

struct scope_profile_table {
    struct scope_profile_header header;
    uint64_t used[SCOPE_PROFILE_USED_WORDS];   /* bit h set: regions[h] written; the */
                                               /* reader adds up those only */
    struct scope_profile_region regions[SCOPE_MAX_HOOKS];
    struct scope_profile_path paths[SCOPE_PROFILE_PATHS];
    uint32_t index[SCOPE_PROFILE_HASH];   /* 1 + path, 0: free slot */
};

#pragma GCC visibility push(hidden)
/* Process-wide, set once before recording starts. */
extern int scope_profile_mode;          /* 1: aggregate instead of recording calls */
extern int scope_profile_tables;        /* every buffer has a table and every frame */
                                        /* counts its callees' time: profile mode, */
                                        /* or trace mode with folding (fold.h) */
extern uint64_t scope_profile_ns_mult;  /* ns per tick, 32-bit fraction (histogram bins) */
#pragma GCC visibility pop

/* The path of a call of `hook` whose caller's path is `parent`
 * (SCOPE_PROFILE_ROOT: none), from call site (caller, stack) ((0, 0): a
 * hook without call sites), made when new. */
static inline uint32_t scope_profile_path_of(struct scope_profile_table *p, uint32_t parent,
                                             uint32_t hook, uint64_t caller, uint32_t stack)
{
    if (parent == SCOPE_PROFILE_NO_PATH ||
        (parent != SCOPE_PROFILE_ROOT && p->paths[parent].depth >= SCOPE_PROFILE_DEPTH))
        return SCOPE_PROFILE_NO_PATH;
    uint32_t h = (parent * 0x9e3779b1u) ^ (hook * 0x85ebca77u) ^
                 (((uint32_t)caller ^ stack) * 0xc2b2ae35u);   /* 0 without a call site */
    for (uint32_t i = 0; i < SCOPE_PROFILE_HASH; i++) {
        uint32_t *slot = &p->index[(h + i) & (SCOPE_PROFILE_HASH - 1)];
        if (*slot == 0) {
            uint64_t n = p->header.npaths;
            if (n >= SCOPE_PROFILE_PATHS)
                return SCOPE_PROFILE_NO_PATH;
            struct scope_profile_path *e = &p->paths[n];
            e->hook = hook;
            e->parent = parent;
            e->stack = stack;
            e->caller = caller;
            e->depth = parent == SCOPE_PROFILE_ROOT ? 1 : p->paths[parent].depth + 1;
            p->header.npaths = n + 1;
            *slot = (uint32_t)n + 1;
            return (uint32_t)n;
        }
        struct scope_profile_path *e = &p->paths[*slot - 1];
        if (e->parent == parent && e->hook == hook && e->caller == caller && e->stack == stack)
            return *slot - 1;
    }
    return SCOPE_PROFILE_NO_PATH;
}

/* floor(log2(ticks in ns)), 0 for durations under 2 ns. */
static inline unsigned scope_profile_bin(uint64_t ticks)
{
    uint64_t ns = (uint64_t)(((unsigned __int128)ticks * scope_profile_ns_mult) >> 32);
    return ns > 1 ? 63u - (unsigned)__builtin_clzll(ns) : 0u;
}

/* Counts a call of `hook` on `path` from `start` to `end` whose direct
 * hooked callees took `children` ticks; returns its duration. */
static inline uint64_t scope_profile_add(struct scope_profile_table *p, uint32_t hook,
                                         uint32_t path, uint64_t start, uint64_t end,
                                         uint64_t children)
{
    uint64_t d = end > start ? end - start : 0;
    uint64_t self = d > children ? d - children : 0;
    struct scope_profile_region *r = &p->regions[hook];
    if (r->calls == 0) {
        r->min = r->max = d;
        r->first_start = start;
        p->used[hook / 64] |= (uint64_t)1 << (hook % 64);
    }
    r->min = d < r->min ? d : r->min;
    r->max = d > r->max ? d : r->max;
    r->last_end = end > r->last_end ? end : r->last_end;
    r->calls++;
    r->total += d;
    r->self += self;
    r->squares += (unsigned __int128)d * d;
    r->histogram[scope_profile_bin(d)]++;
    if (path != SCOPE_PROFILE_NO_PATH) {
        struct scope_profile_path *e = &p->paths[path];
        e->calls++;
        e->total += d;
        e->self += self;
    }
    return d;
}

/* A call of `hook` lasting d ticks whose direct hooked callees took
 * `children` was recorded, not counted: only its self time is added. */
static inline void scope_profile_keep(struct scope_profile_table *p, uint32_t hook, uint64_t d,
                                      uint64_t children)
{
    p->regions[hook].kept_self += d > children ? d - children : 0;
    p->used[hook / 64] |= (uint64_t)1 << (hook % 64);
}

/* Set up before recording starts (`profile`: [output] mode = profile;
 * `tables`: threads keep tables, in profile mode or when folding);
 * measures the tick rate for the histogram's bins. */
void scope_profile_configure(int profile, int tables);

/* A new table in the segment "/STEM-pN" for buffer `number`, NULL with
 * errno when it cannot be made. */
struct scope_profile_table *scope_profile_table_create(int number);
/* Unmaps and removes buffer `number`'s table. */
void scope_profile_table_remove(struct scope_profile_table *p, int number);

#endif
