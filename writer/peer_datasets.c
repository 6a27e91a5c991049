/* peer_datasets.c: writes a region's peer totals (peer_datasets.h). */
#include "peer_datasets.h"

int peer_totals_write(hid_t group, const struct scope_peer_totals *p, const struct h5_err *e)
{
    if (h5_write_vector(group, "peer_ranks", H5T_STD_I32LE, H5T_NATIVE_INT32, p->peer, p->n,
                        e) < 0 ||
        h5_write_vector(group, "peer_directions", H5T_STD_I8LE, H5T_NATIVE_INT8, p->direction,
                        p->n, e) < 0 ||
        h5_write_vector(group, "peer_messages", H5T_STD_I64LE, H5T_NATIVE_INT64, p->messages,
                        p->n, e) < 0)
        return -1;
    return h5_write_vector(group, "peer_bytes", H5T_STD_I64LE, H5T_NATIVE_INT64, p->bytes, p->n,
                           e);
}
