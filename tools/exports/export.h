/* The trace writers of `scope export` (one file each: export_<to>.c). */
#ifndef SCOPE_EXPORT_H
#define SCOPE_EXPORT_H

#include "scope_reader.h"

#include <stdio.h>

/* Chrome/Perfetto trace-event JSON: an "X" event per kept call (ts/dur in
 * microseconds from the filter's origin), pid = rank, tid = thread id,
 * MPI payload in its args; a flow arrow per matched message. */
int export_chrome(const scope_file *f, const scope_filter *flt, FILE *out, scope_error *err);
/* Folded stacks ("a;b;c self-µs" lines) from the flame tree, merged over the
 * selected ranks or one tree per rank under a "rank N" frame. */
int export_folded(const scope_file *f, const scope_filter *flt, bool per_rank, FILE *out,
                  scope_error *err);

#endif
