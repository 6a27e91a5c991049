/* lower_bound.h: the one binary search over a sorted array of addresses
 * (symbol starts, call targets). */
#ifndef SCOPE_LOWER_BOUND_H
#define SCOPE_LOWER_BOUND_H

#include <stddef.h>
#include <stdint.h>

/* The index of the first of v[0..n) (ascending) that is >= key; n if none. */
static inline size_t scope_lower_bound(const uint64_t *v, size_t n, uint64_t key)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (v[mid] < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

#endif
