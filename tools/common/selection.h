/* Which regions and ranks a reader filter selects, as arrays: what the
 * subcommands, the plots and the exports walk. */
#ifndef SCOPE_SELECTION_H
#define SCOPE_SELECTION_H

#include "scope_reader.h"

/* Which regions the filter keeps: keep[region]; NULL on a bad regex. */
bool *selected_regions(const scope_file *f, const scope_filter *flt, scope_error *err);
/* The ranks the filter selects (cf. scope_filter_ranks); NULL on error. */
int *selected_ranks(const scope_file *f, const scope_filter *flt, size_t *n, scope_error *err);

#endif
