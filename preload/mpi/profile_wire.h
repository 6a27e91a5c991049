/* profile_wire.h: a region's profile (scope_writer.h) in a region message
 * of the merge (merge_wire.c), and the rank's call-path parents in its rank
 * message: fixed fields in native byte order, then the arrays. */
#ifndef SCOPE_PROFILE_WIRE_H
#define SCOPE_PROFILE_WIRE_H

#include <stddef.h>
#include <stdint.h>

#include "scope_writer.h"

/* Writes p at buf; returns the bytes written. */
size_t scope_wire_profile_encode(char *buf, const struct scope_region_profile *p);
/* A malloc'd profile read from the len bytes at buf (scope_wire_profile_free),
 * NULL when they are malformed or memory runs out. */
struct scope_region_profile *scope_wire_profile_decode(const char *buf, size_t len);
void scope_wire_profile_free(struct scope_region_profile *p);

/* n parents at buf; the bytes written. */
size_t scope_wire_parents_encode(char *buf, const int32_t *parents, size_t n);
/* n parents from the len bytes at buf, malloc'd; NULL when short or out of memory. */
int32_t *scope_wire_parents_decode(const char *buf, size_t len, size_t n);

#endif
