/* request_table.h: MPI handles (requests, messages) a thread must know
 * again later, by handle, each with what scope will record then: the
 * receives started by MPI_Irecv, MPI_Imrecv or MPI_Start, resolved by the
 * Wait or Test that completes them; persistent requests (point-to-point
 * and collective) until freed, for MPI_Start; matched messages of MPI_Mprobe, for MPI_Mrecv. Per thread (a
 * handle used on another thread than the one that made it is not known
 * there). */
#ifndef SCOPE_REQUEST_TABLE_H
#define SCOPE_REQUEST_TABLE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "comm_table.h"

struct peer_share;                   /* collective_peers.h */

/* What a handle stands for. */
struct scope_handle_info {
    const struct scope_comm *comm;   /* never NULL in a table */
    int send;                        /* a persistent send (else a receive) */
    int collective;                  /* a persistent collective (MPI_Allreduce_init ...) */
    int64_t bytes;                   /* a persistent send's or collective's, per start */
    int32_t peer, tag;               /* a persistent send's (a collective's root), world rank */
    uint32_t hook;                   /* a collective's init's, when it was recorded */
    uint32_t n_shares;               /* a recorded v or w collective init's bytes per peer */
    struct peer_share *shares;       /* (malloc'd; freed with the request) */
};

struct scope_handle_table {
    struct scope_handle_slot *slot;
    size_t cap, n;                   /* cap: a power of two */
};

/* The table's key of a handle (a pointer in Open MPI, an int in MPICH). */
#define SCOPE_HANDLE_KEY(h) scope_handle_key(&(h), sizeof(h))
static inline uint64_t scope_handle_key(const void *h, size_t size)
{
    uint64_t key = 0;
    memcpy(&key, h, size < sizeof key ? size : sizeof key);
    return key;
}

/* Remembers `key` (replacing what it stood for); out of memory: forgotten. */
void scope_handle_put(struct scope_handle_table *t, uint64_t key,
                      const struct scope_handle_info *info);
/* What `key` stands for into *info: 1, or 0 when not known; `forget`:
 * forgotten now. */
int scope_handle_get(struct scope_handle_table *t, uint64_t key, struct scope_handle_info *info,
                     int forget);

/* This thread's tables. */
extern __thread struct scope_handle_table scope_pending_recvs
    __attribute__((tls_model("initial-exec")));
extern __thread struct scope_handle_table scope_persistent_requests
    __attribute__((tls_model("initial-exec")));
extern __thread struct scope_handle_table scope_matched_messages
    __attribute__((tls_model("initial-exec")));

#endif
