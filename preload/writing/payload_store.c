/* payload_store.c: growing a process's payload items and communicator
 * definitions as they are decoded (payload_store.h). */
#include "payload_store.h"

#include "grow_array.h"

#include <stdlib.h>

void scope_payload_store_free(struct scope_payload_store *s)
{
    free(s->items);
    free(s->values);
    free(s->comms);
    free(s->members);
    *s = (struct scope_payload_store){0};
}

void scope_payload_store_add_item(struct scope_payload_store *s,
                                  const struct scope_payload_item *item)
{
    if (scope_grow_array((void **)&s->items, &s->items_cap, s->nitems + 1, sizeof *s->items) != 0) {
        s->failed = 1;
        return;
    }
    s->items[s->nitems++] = *item;
}

void scope_payload_store_add_value(struct scope_payload_store *s, int64_t value)
{
    if (scope_grow_array((void **)&s->values, &s->values_cap, s->nvalues + 1,
                         sizeof *s->values) != 0) {
        s->failed = 1;
        return;
    }
    s->values[s->nvalues++] = value;
}

void scope_payload_store_add_member(struct scope_payload_store *s, int32_t member)
{
    size_t at = s->nmembers + s->open_members;
    if (scope_grow_array((void **)&s->members, &s->members_cap, at + 1, sizeof *s->members) != 0) {
        s->failed = 1;
        return;
    }
    s->members[at] = member;
    s->open_members++;
}

void scope_payload_store_end_comm(struct scope_payload_store *s, int32_t id, uint32_t size)
{
    if (s->open_members != size ||
        scope_grow_array((void **)&s->comms, &s->comms_cap, s->ncomms + 1, sizeof *s->comms) != 0) {
        s->failed |= s->open_members == size;
        s->open_members = 0;
        return;
    }
    s->comms[s->ncomms++] = (struct scope_comm_def){id, size, s->nmembers};
    s->nmembers += size;
    s->open_members = 0;
}

void scope_payload_store_drop_comm(struct scope_payload_store *s)
{
    s->open_members = 0;
}
