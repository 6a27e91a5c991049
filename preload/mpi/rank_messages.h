/* rank_messages.h: what a rank that does not write sends its node's
 * writer: its facts, then each region's facts and its calls encoded window
 * by window exactly as the file stores them (region_encode.h), prepared
 * at once, while every other rank does the same, into a bounded message
 * log, and sent when the writer asks. */
#ifndef SCOPE_RANK_MESSAGES_H
#define SCOPE_RANK_MESSAGES_H

#include <stdint.h>

#include "event_groups.h"
#include "merge_comms.h"
#include "message_log.h"

struct scope_prepared {
    struct scope_message_log log;
    char *buf;                      /* SCOPE_WIRE_MESSAGE_BYTES */
    char err[512];                  /* why they could not be prepared ("" if they were) */
};

/* Encodes this rank's messages into p->log (file_ids: each call site's id
 * in the file, NULL: none). A rank that cannot says so (p->err) and
 * prepares its facts with nregions -1: no file is then written, and every
 * rank keeps its records for `scope recover`. */
void scope_prepare_rank(const struct scope_merge_comms *c, struct scope_prepared *p,
                        struct scope_event_groups *le, const int32_t *file_ids,
                        int64_t run_start, int64_t offset);

/* Waits for the node writer's go, then sends everything prepared. */
void scope_send_prepared(const struct scope_merge_comms *c, struct scope_prepared *p);

#endif
