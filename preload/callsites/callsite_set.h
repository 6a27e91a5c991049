/* callsite_set.h: a set of resolved call sites, each frame and each stack
 * stored once: the table one rank resolves from its addresses, and the one
 * rank 0 builds from every rank's (ASLR makes addresses differ between
 * ranks; names, offsets and lines do not). */
#ifndef SCOPE_CALLSITE_SET_H
#define SCOPE_CALLSITE_SET_H

#include <stddef.h>
#include <stdint.h>

#include "record.h"
#include "scope_writer.h"

struct scope_callsite_set {
    struct scope_callsite_frame *frames;   /* strings owned by the set */
    size_t nframes, frames_cap;
    int32_t *sites;                        /* SCOPE_CALLSITE_MAX_DEPTH per site, -1 padded */
    size_t nsites, sites_cap, depth;       /* depth: the longest stack */
    uint32_t *frame_index, *site_index;    /* open addressing: 1 + entry, 0 empty */
    size_t frame_index_cap, site_index_cap;
};

void scope_callsite_set_init(struct scope_callsite_set *s);
void scope_callsite_set_free(struct scope_callsite_set *s);

/* Index of a frame equal to f (strings compared), added (copied) if new;
 * -1 when out of memory. */
int32_t scope_callsite_set_frame(struct scope_callsite_set *s, const struct scope_callsite_frame *f);
/* Index of the stack frames[0 .. n) (frame indices of s, innermost first,
 * 1 <= n <= SCOPE_CALLSITE_MAX_DEPTH), added if new; -1 when out of memory. */
int32_t scope_callsite_set_site(struct scope_callsite_set *s, const int32_t *frames, size_t n);

/* Adds every site of t; remap[i] (t->nsites entries, malloc'd, caller
 * frees) is the index in s of t's site i. -1 when out of memory. */
int scope_callsite_set_add_table(struct scope_callsite_set *s, const struct scope_callsite_table *t,
                                 int32_t **remap);

/* The set as the writer's table: sites compacted to s->depth columns into
 * *storage (malloc'd, caller frees). -1 when out of memory. */
int scope_callsite_set_table(const struct scope_callsite_set *s, struct scope_callsite_table *t,
                             int32_t **storage);

#endif
