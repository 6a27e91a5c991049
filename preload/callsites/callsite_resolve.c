/* callsite_resolve.c: names each distinct return address once (libdw in
 * libscope-resolve.so), demangles C++ names with the program's own
 * runtime, and adds the stacks to a callsite set, the frames of an MPI
 * library's Fortran binding left out. */
#include "callsite_resolve.h"
#include "demangle.h"
#include "mpi_bindings.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The set's frame for return address `ra`, resolved on first sight. */
struct address_frames {
    uint64_t *address;
    int32_t *frame;
    size_t cap;   /* a power of two */
};

static int32_t frame_of(struct address_frames *cache, const struct scope_resolve_api *api,
                        struct scope_resolver *r, struct scope_callsite_set *set, uint64_t ra)
{
    size_t mask = cache->cap - 1, at = (size_t)((ra * 0x9e3779b97f4a7c15u) >> 20) & mask;
    while (cache->address[at] && cache->address[at] != ra)
        at = (at + 1) & mask;
    if (cache->address[at])
        return cache->frame[at];
    struct scope_resolved_address a;
    struct scope_callsite_frame f = {.module = "?", .offset = ra};
    char *symbol = NULL, *demangled = NULL;
    if (api->lookup(r, ra, &a) == 0) {
        /* without its version: "__libc_start_main@@GLIBC_2.34" */
        symbol = a.symbol ? strndup(a.symbol, strcspn(a.symbol, "@")) : NULL;
        demangled = symbol ? scope_demangle(symbol) : NULL;
        f = (struct scope_callsite_frame){a.module, demangled ? demangled : symbol, a.file,
                                          a.offset, a.line};
    }
    int32_t id = scope_callsite_set_frame(set, &f);
    free(symbol);
    free(demangled);
    cache->address[at] = ra;
    cache->frame[at] = id;
    return id;
}

/* A stack that starts in an MPI library's Fortran binding, taken
 * SCOPE_BINDING_FRAMES deeper than asked for (hot_path.c), without the
 * binding's frames and those extra ones: the call site is the program's
 * line. Returns its new depth. */
static size_t past_binding(const struct scope_callsite_set *set, int32_t *frames, size_t n)
{
    size_t skip = 0;
    while (skip + 1 < n && scope_is_binding_module(set->frames[frames[skip]].module))
        skip++;
    if (skip == 0)
        return n;
    memmove(frames, frames + skip, (n - skip) * sizeof *frames);
    size_t asked = n > SCOPE_BINDING_FRAMES ? n - SCOPE_BINDING_FRAMES : 1;
    return asked < n - skip ? asked : n - skip;
}

static size_t power_of_two_above(size_t n)
{
    size_t c = 64;
    while (c < 2 * n)
        c *= 2;
    return c;
}

int scope_callsites_resolve(scope_resolver_get_fn get, const char *maps,
                            const struct scope_site_table *sites, struct scope_callsite_set *set,
                            int32_t **map, char *err, size_t errlen)
{
    *map = NULL;
    if (!sites || sites->nsites == 0)
        return 0;
    const struct scope_resolve_api *api = get(err, errlen);
    struct scope_resolver *r = api ? api->open(maps, err, errlen) : NULL;
    if (!r)
        return -1;
    struct address_frames cache = {.cap = power_of_two_above(sites->naddrs)};
    cache.address = calloc(cache.cap, sizeof(*cache.address));
    cache.frame = calloc(cache.cap, sizeof(*cache.frame));
    *map = malloc(sites->nsites * sizeof(**map));
    int rc = cache.address && cache.frame && *map ? 0 : -1;
    for (size_t i = 0; rc == 0 && i < sites->nsites; i++) {
        int32_t frames[SCOPE_CALLSITE_MAX_DEPTH];
        size_t n = scope_site_depth(sites, i);
        n = n < SCOPE_CALLSITE_MAX_DEPTH ? n : SCOPE_CALLSITE_MAX_DEPTH;
        for (size_t k = 0; rc == 0 && k < n; k++)
            rc = (frames[k] = frame_of(&cache, api, r, set, scope_site_addrs(sites, i)[k])) < 0;
        if (rc == 0)
            n = past_binding(set, frames, n);
        rc = rc == 0 && ((*map)[i] = scope_callsite_set_site(set, frames, n)) >= 0 ? 0 : -1;
    }
    api->close(r);
    free(cache.address);
    free(cache.frame);
    if (rc != 0) {
        snprintf(err, errlen, "out of memory naming call sites");
        free(*map);
        *map = NULL;
    }
    return rc;
}
