/* name_index.h: where a string sits in a growing table of distinct strings
 * (the region names), found in constant time: open addressing over the
 * strings' hashes, the table itself holding the strings. */
#ifndef SCOPE_NAME_INDEX_H
#define SCOPE_NAME_INDEX_H

#include <stddef.h>
#include <stdint.h>

struct scope_name_index {
    uint32_t *slot;   /* 1 + a position in the table; 0: empty */
    size_t cap;       /* a power of two, or 0 */
};

/* The position of name in names (indexed so far), or -1. */
long scope_name_index_find(const struct scope_name_index *x, char *const *names,
                           const char *name);
/* Indexes names[n - 1], just added (names[0 .. n - 1) are indexed); -1
 * when out of memory (the index is then unchanged). */
int scope_name_index_add(struct scope_name_index *x, char *const *names, size_t n);

#endif
