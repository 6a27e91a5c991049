/* comm_table.c: the run's communicators in /metadata: one row (size,
 * offset of its first member) per communicator id, and the members as
 * world ranks. */
#include "comm_table.h"

#include <stdio.h>
#include <stdlib.h>

int comm_table_write(hid_t file, const struct scope_comm_table *table, const struct h5_err *e)
{
    int64_t *rows = malloc((table->ncomms ? table->ncomms : 1) * 2 * sizeof *rows);
    if (!rows) {
        snprintf(e->buf, e->len, "out of memory for %zu communicators", table->ncomms);
        return -1;
    }
    int64_t offset = 0;
    for (size_t i = 0; i < table->ncomms; i++) {
        rows[2 * i] = table->sizes[i];
        rows[2 * i + 1] = offset;
        offset += table->sizes[i];
    }
    hid_t group = H5Gopen2(file, "metadata", H5P_DEFAULT);
    int rc = group < 0 ? h5_fail(e, "cannot open /metadata") : 0;
    hsize_t dims[2] = {table->ncomms, 2}, nmembers = (hsize_t)offset;
    if (rc == 0)
        rc = h5_write_dataset(group, "communicators", H5T_STD_I64LE, H5T_NATIVE_INT64, 2, dims,
                              rows, e);
    if (rc == 0)
        rc = h5_write_dataset(group, "communicator_members", H5T_STD_I32LE, H5T_NATIVE_INT32, 1,
                              &nmembers, table->members, e);
    if (group >= 0)
        H5Gclose(group);
    free(rows);
    return rc;
}
