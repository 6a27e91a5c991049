/* callsite_table.h: writes the run's call-site table under /metadata:
 * callsite_frames (one row per distinct frame: module, function, file,
 * offset, line) and callsites (one row per distinct stack, frame indices,
 * innermost first, -1 padded). */
#ifndef SCOPE_CALLSITE_TABLE_H
#define SCOPE_CALLSITE_TABLE_H

#include "h5_util.h"
#include "scope_writer.h"

/* Nothing is written for a table without sites. -1 on error (e filled). */
int callsite_table_write(hid_t file, const struct scope_callsite_table *table,
                         const struct h5_err *e);

#endif
