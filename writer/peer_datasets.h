/* peer_datasets.h: a region's peer totals (scope_writer.h) as datasets of
 * its group (README.md, "File format"): peer_ranks (int32),
 * peer_directions (int8), peer_messages and peer_bytes (int64), one value
 * per (peer, direction). */
#ifndef SCOPE_PEER_DATASETS_H
#define SCOPE_PEER_DATASETS_H

#include "h5_util.h"
#include "scope_writer.h"

int peer_totals_write(hid_t group, const struct scope_peer_totals *p, const struct h5_err *e);

#endif
