/* request_table.h: MPI handles (requests, messages) scope must know
 * again later, by handle, each with what scope will record then: the
 * receives started by MPI_Irecv, MPI_Imrecv or MPI_Start, resolved by the
 * Wait or Test that completes them; persistent requests (point-to-point
 * and collective) until freed, for MPI_Start; matched messages of
 * MPI_Mprobe, for MPI_Mrecv. Per thread, without a lock, while MPI allows
 * one thread only (MPI_THREAD_SINGLE, FUNNELED); the process's, under a
 * lock, from an MPI_Init that provided MPI_THREAD_SERIALIZED or MULTIPLE,
 * where a handle made on one thread may be completed or started on
 * another. */
#ifndef SCOPE_REQUEST_TABLE_H
#define SCOPE_REQUEST_TABLE_H

#include <pthread.h>
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
    size_t cap, n;                   /* cap: a power of two; n: read it with */
                                     /* scope_handle_count */
    pthread_mutex_t *lock;           /* the process's tables: put and get take it */
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

/* How many handles t holds now (a hint: 0 lets a call skip the lookup). */
static inline size_t scope_handle_count(const struct scope_handle_table *t)
{
    return __atomic_load_n(&t->n, __ATOMIC_RELAXED);
}

/* The tables, this thread's or the process's (scope_handles_after_init). */
enum { SCOPE_PENDING_RECVS, SCOPE_PERSISTENT_REQUESTS, SCOPE_MATCHED_MESSAGES,
       SCOPE_HANDLE_TABLES };
extern __thread struct scope_handle_table scope_thread_handles[SCOPE_HANDLE_TABLES]
    __attribute__((tls_model("initial-exec")));
extern struct scope_handle_table scope_process_handles[SCOPE_HANDLE_TABLES];
extern int scope_handles_shared;
#define SCOPE_HANDLES(kind) \
    (scope_handles_shared ? &scope_process_handles[kind] : &scope_thread_handles[kind])
#define scope_pending_recvs (*SCOPE_HANDLES(SCOPE_PENDING_RECVS))
#define scope_persistent_requests (*SCOPE_HANDLES(SCOPE_PERSISTENT_REQUESTS))
#define scope_matched_messages (*SCOPE_HANDLES(SCOPE_MATCHED_MESSAGES))

/* After MPI_Init: the process's tables from now on when MPI lets several
 * threads call it. */
void scope_handles_after_init(void);

#endif
