/* pack.h: `scope pack`: a run written on several nodes (the run's file
 * linking each rank to its node's part in FILE.d/) joined into one
 * self-contained file. */
#ifndef SCOPE_PACK_H
#define SCOPE_PACK_H

#include <stddef.h>

/* Copies /metadata and every /rankN of `in` (following its links) into a
 * new file `out` (written as OUT.tmp.PID and renamed when complete);
 * *linked: how many ranks were links. 0, or -1 with err ("WHERE: what"). */
int scope_pack(const char *in, const char *out, size_t *linked, char *err, size_t errlen);

#endif
