/* callsite_blob.h: a call-site table as one message, for a rank to send
 * its resolved call sites to rank 0. */
#ifndef SCOPE_CALLSITE_BLOB_H
#define SCOPE_CALLSITE_BLOB_H

#include <stddef.h>

#include "scope_writer.h"

/* The table's bytes in a malloc'd buffer (*len set); NULL when out of memory. */
char *scope_callsite_blob_pack(const struct scope_callsite_table *t, size_t *len);

/* Reads a packed table: t's strings and sites point into `blob`, its
 * frames into *frames (malloc'd, caller frees). -1 when the blob is short
 * or inconsistent, or out of memory. */
int scope_callsite_blob_unpack(const char *blob, size_t len, struct scope_callsite_table *t,
                               struct scope_callsite_frame **frames);

#endif
