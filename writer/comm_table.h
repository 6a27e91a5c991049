/* comm_table.h: /metadata/communicators and /metadata/communicator_members
 * (README.md, "File format"). */
#ifndef SCOPE_COMM_TABLE_H
#define SCOPE_COMM_TABLE_H

#include "h5_util.h"
#include "scope_writer.h"

int comm_table_write(hid_t file, const struct scope_comm_table *table, const struct h5_err *e);

#endif
