/* site_table.h: the call sites one process recorded, as stacks of return
 * addresses in its own address space (innermost, the caller, first), each
 * stored once. The record decoder fills it; the resolver turns it into
 * names before the merge. */
#ifndef SCOPE_SITE_TABLE_H
#define SCOPE_SITE_TABLE_H

#include <stddef.h>
#include <stdint.h>

struct scope_site_table {
    uint64_t *addrs;          /* every site's addresses, back to back */
    size_t naddrs, addrs_cap;
    size_t *begin;            /* site i is addrs[begin[i] .. begin[i + 1]) */
    size_t nsites, sites_cap;
    uint32_t *index;          /* open addressing: 1 + site, 0 empty */
    size_t index_cap;         /* a power of two, at least 2 * nsites */
    size_t max_depth;         /* longest stack seen */
};

void scope_site_table_init(struct scope_site_table *t);
void scope_site_table_free(struct scope_site_table *t);

/* The index of the site addrs[0 .. n) (n >= 1), added if new; -1 when out
 * of memory. */
int32_t scope_site_table_intern(struct scope_site_table *t, const uint64_t *addrs, size_t n);

static inline size_t scope_site_depth(const struct scope_site_table *t, size_t site)
{
    return t->begin[site + 1] - t->begin[site];
}

static inline const uint64_t *scope_site_addrs(const struct scope_site_table *t, size_t site)
{
    return t->addrs + t->begin[site];
}

#endif
