/* payload_store.h: what a process's MPI calls carried, as its record
 * reader finds it (segment_decode.h): every call's payload items in the
 * order read (an event names its own by index), the argument and return
 * values of the calls that record them (call_values.h; the same), and the
 * communicators the process defined, each by its members as world ranks. */
#ifndef SCOPE_PAYLOAD_STORE_H
#define SCOPE_PAYLOAD_STORE_H

#include <stddef.h>
#include <stdint.h>

#include "payload.h"

struct scope_comm_def {
    int32_t id;                /* the process's own id */
    uint32_t size;
    size_t first;              /* its first member in members */
};

struct scope_payload_store {
    struct scope_payload_item *items;
    size_t nitems, items_cap;
    int64_t *values;
    size_t nvalues, values_cap;
    struct scope_comm_def *comms;     /* complete definitions only */
    size_t ncomms, comms_cap;
    int32_t *members;
    size_t nmembers, members_cap;
    size_t open_members;       /* members of the definition being read */
    int failed;                /* out of memory: items or members were lost */
};

void scope_payload_store_free(struct scope_payload_store *s);
void scope_payload_store_add_item(struct scope_payload_store *s,
                                  const struct scope_payload_item *item);
void scope_payload_store_add_value(struct scope_payload_store *s, int64_t value);
/* A definition being read: its members come one by one; it counts once
 * complete (one cut short by a kill is left out). */
void scope_payload_store_add_member(struct scope_payload_store *s, int32_t member);
void scope_payload_store_end_comm(struct scope_payload_store *s, int32_t id, uint32_t size);
/* Forgets the members of a definition cut short. */
void scope_payload_store_drop_comm(struct scope_payload_store *s);

#endif
