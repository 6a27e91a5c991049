/* scope_resolve.h: libscope-resolve.so, which a rank that recorded call
 * sites loads (dlmopen, like the writer) to name its return addresses with
 * libdw before the merge: module, symbol, offset in the symbol, and source
 * file and line where debug information exists. Kept out of libscope so
 * that libdw and its dependencies never load into a run without call
 * sites. */
#ifndef SCOPE_RESOLVE_H
#define SCOPE_RESOLVE_H

#include <stdint.h>
#include <stddef.h>

struct scope_resolved_address {
    const char *module;      /* path of the module holding the call */
    const char *symbol;      /* raw (mangled) symbol name, NULL unknown */
    const char *file;        /* source file of the call, NULL unknown */
    uint64_t offset;         /* return address - symbol start (- module base without one) */
    int line;                /* 0 unknown */
};

struct scope_resolver;

struct scope_resolve_api {
    /* Reads the modules of a process: this one when maps is NULL, else the
     * one whose /proc/PID/maps text `maps` is (`scope recover`, the
     * process being gone). NULL with err filled. */
    struct scope_resolver *(*open)(const char *maps, char *err, size_t errlen);
    /* Names the call that returns to `return_address`; the strings live
     * until close. -1 when no module holds it. */
    int (*lookup)(struct scope_resolver *r, uint64_t return_address,
                  struct scope_resolved_address *out);
    void (*close)(struct scope_resolver *r);
};

const struct scope_resolve_api *scope_resolve_api(void);

#endif
