/* payload.h: what an MPI call carried, as items that follow its call
 * record (record.h): one item per message it sent or completed, or one for
 * the call as a whole (a collective, a send to MPI_PROC_NULL). One record
 * per item:
 *   word0 = bytes (40 bits) | (comm + 1) << 40 (22 bits) | (kind + 1) << 62
 *   word1 = (uint32) peer | (uint32) tag << 32
 * so word0 is never 0 (an unused slot); an I/O call's item has its file
 * offset as word1 (scope_io_item). Bytes beyond 40 bits (1 TiB) are
 * stored as the most that fits; comm ids beyond 2^22 - 2 as none. */
#ifndef SCOPE_PAYLOAD_H
#define SCOPE_PAYLOAD_H

#include <stdint.h>

#include "record.h"

enum scope_item_kind {
    SCOPE_ITEM_SENT = 0,        /* a message sent (msg_kind 0) */
    SCOPE_ITEM_RECEIVED = 1,    /* a message received (msg_kind 1) */
    SCOPE_ITEM_CALL = 2,        /* the call itself: no message */
};

struct scope_payload_item {
    int64_t bytes;
    int32_t peer;              /* world rank, -1 none */
    int32_t tag;               /* -1 none */
    int32_t comm;              /* the process's communicator id, -1 none */
    int32_t kind;              /* enum scope_item_kind */
};

/* An I/O call has no peer, tag or communicator: its one item keeps the
 * file offset (-1: unknown) where peer and tag would be. */
static inline struct scope_payload_item scope_io_item(int64_t bytes, int64_t offset)
{
    return (struct scope_payload_item){bytes, (int32_t)(uint32_t)(uint64_t)offset,
                                       (int32_t)(uint32_t)((uint64_t)offset >> 32), -1,
                                       SCOPE_ITEM_CALL};
}

static inline int64_t scope_item_offset(const struct scope_payload_item *it)
{
    return (int64_t)((uint64_t)(uint32_t)it->peer | (uint64_t)(uint32_t)it->tag << 32);
}

#define SCOPE_ITEM_BYTES_MAX ((INT64_C(1) << 40) - 1)
#define SCOPE_ITEM_COMM_LIMIT ((INT32_C(1) << 22) - 1)

static inline void scope_item_encode(struct scope_record *r, const struct scope_payload_item *it)
{
    uint64_t bytes = it->bytes < 0 ? 0 : it->bytes > SCOPE_ITEM_BYTES_MAX
                                             ? (uint64_t)SCOPE_ITEM_BYTES_MAX : (uint64_t)it->bytes;
    uint64_t comm = it->comm >= 0 && it->comm < SCOPE_ITEM_COMM_LIMIT ? (uint64_t)it->comm + 1 : 0;
    r->start_word = bytes | comm << 40 | (uint64_t)(it->kind + 1) << 62;
    r->end_word = (uint64_t)(uint32_t)it->peer | (uint64_t)(uint32_t)it->tag << 32;
}

static inline struct scope_payload_item scope_item_decode(const struct scope_record *r)
{
    uint64_t comm = (r->start_word >> 40) & SCOPE_ITEM_COMM_LIMIT;
    return (struct scope_payload_item){
        .bytes = (int64_t)(r->start_word & SCOPE_ITEM_BYTES_MAX),
        .peer = (int32_t)(uint32_t)r->end_word, .tag = (int32_t)(uint32_t)(r->end_word >> 32),
        .comm = (int32_t)comm - 1, .kind = (int32_t)(r->start_word >> 62) - 1};
}

#endif
